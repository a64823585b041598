"""A search answered without the index: the first search after an import or a sync.

Building the index means cutting every word of every entry (50,000 abstracts) into terms,
about one parse of the library, once. A single query needs far less: the number of entries
holding each of *its* words (idf), each field's average length (BM25's normalisation), and
the words of the entries that hold them. Those come from one pass over the entries' text:

- a field that is *plain* (ASCII with no backslash, dollar or percent; an author list also
  without braces and without ``others``) gives the same words as :func:`.terms.words` by
  rule: braces dropped, lower case, runs of letters and digits (an author list's ``and``
  between names is no word). Its length is counted for the whole library at once in C
  (each field's texts joined, letters mapped to one byte, word starts counted), and it is
  a candidate for a word only if it contains the word (or a form that stems to it: a
  substring test in C);
- every other field goes through :func:`.terms.words` as the index would.

Candidates are then read exactly, so the scores are the index's to the last bit: the same
counts (capped as the index packs them), the same lengths, the same sums in the same order
(:func:`.index.score_terms` is shared). Tests compare both paths on the same queries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citekit.core.names import is_et_al, split_bibtex_names
from citekit.library.search.terms import entry_texts, stem, words

if TYPE_CHECKING:
    from citekit.core.model import Entry

#: a text field that may hold LaTeX beyond braces (or a percent sign the converter reads)
_NOT_PLAIN = re.compile(r"[\\$%]")
#: an author list whose names the regular expressions below cannot cut as BibTeX does
_NOT_PLAIN_NAMES = re.compile(r"[\\$%{}]|others|et al", re.IGNORECASE)
#: the ``and`` between two names (BibTeX's rule for lists without braces: spaces around it,
#: a name after it); matched without overlap, so ``A and and B`` has one, as BibTeX reads it
_NAME_AND = re.compile(r"[ \t\r\n]+[aA][nN][dD][ \t\r\n]+(?=[^ \t\r\n\x00])")
_LIST_SPACE = " \r\n\t"
#: letters and digits -> "a", anything else -> " ": words are then counted as " a" in C
_WORD_BYTES = bytes(ord("a") if chr(c).isascii() and chr(c).isalnum() else ord(" ") for c in range(256))
_SEP = "\x00"


def _plain(text: str) -> str:
    """A plain field as :func:`.terms.words` reads it before cutting: braces gone, lower case."""
    return text.replace("{", "").replace("}", "").lower() if "{" in text or "}" in text else text.lower()


def _count_words(texts: list[str]) -> int:
    """How many words (runs of ASCII letters and digits) ``texts`` hold in all."""
    if not texts:
        return 0
    data = _SEP.join(texts).encode("ascii").translate(_WORD_BYTES)
    return data.count(b" a") + (data[:1] == b"a")


def forms(term: str) -> list[str]:
    """Every word that :func:`.terms.stem` turns into ``term`` (``dot``: ``dot``, ``dots``)."""
    out = [w for w in (term, term + "s") if stem(w) == term]
    if term.endswith("y") and stem(term[:-1] + "ies") == term:
        out.append(term[:-1] + "ies")
    return out


@dataclass
class Scan:
    """The library's text as one query needs it: per field, each entry's plain lower-case
    text (None where the field is not plain: then its words are in ``exact``), and every
    field's total length."""

    keys: list[str]
    columns: list[list[str | None]]  # field -> doc -> plain text or None
    exact: list[dict[int, list[str]]]  # field -> doc -> words, where the field is not plain
    totals: list[int]
    seps: dict[int, int]  # doc -> ``and``s between the names of a plain author list


def scan_entries(keys: list[str], entries: Iterable[Entry]) -> Scan:
    """One pass over the entries (in ``keys`` order): plain fields kept as text, the
    others cut into words, and every field's total length."""
    columns: list[list[str | None]] = [[], [], [], []]
    exact: list[dict[int, list[str]]] = [{}, {}, {}, {}]
    seen: dict[str, list[str]] = {}  # a text cut once per pass (author lists recur)
    for doc, entry in enumerate(entries):
        texts = entry_texts(entry)
        whole = _SEP.join(texts)
        if whole.isascii() and not _NOT_PLAIN_NAMES.search(whole):  # the common case: all plain
            for f in range(4):
                columns[f].append(_plain(texts[f]))
            continue
        for f, text in enumerate(texts):
            if text and (not text.isascii() or (_NOT_PLAIN_NAMES if f == 3 else _NOT_PLAIN).search(text)):
                columns[f].append(None)
                found = seen.get(text) if f == 3 else None
                if found is None:
                    found = _exact_words(f, text)
                    if f == 3:
                        seen[text] = found
                exact[f][doc] = found
            else:
                columns[f].append(_plain(text))
    seps: dict[int, int] = {}
    for doc, low in enumerate(columns[3]):
        if low and " and" in low:
            n = len(_NAME_AND.findall(low.strip(_LIST_SPACE)))
            if n:
                seps[doc] = n
    totals = [_count_words([t for t in columns[f] if t]) + sum(map(len, exact[f].values())) for f in range(4)]
    totals[3] -= sum(seps.values())
    return Scan(keys, columns, exact, totals, seps)


def _exact_words(f: int, text: str) -> list[str]:
    """A field's words as :func:`.terms.entry_terms` cuts them."""
    if f != 3:
        return words(text)
    return [w for name in split_bibtex_names(text) if not is_et_al(name) for w in words(name)]


def term_counts(scan: Scan, term: str) -> dict[int, list[int]]:
    """doc -> the term's count per field, for every entry holding ``term``."""
    variants = forms(term)
    out: dict[int, list[int]] = {}
    if variants:
        probe = term if all(term in v for v in variants) else None
        pattern = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, variants)) + r")(?![a-z0-9])")
        for f, column in enumerate(scan.columns):
            if probe is not None:
                hits = [doc for doc, low in enumerate(column) if low and probe in low]
            else:
                hits = [doc for doc, low in enumerate(column) if low and any(v in low for v in variants)]
            count = pattern.findall
            seps = scan.seps if f == 3 and "and" in variants else None
            for doc in hits:
                n = len(count(column[doc]))  # type: ignore[arg-type]
                if seps:
                    n -= seps.get(doc, 0)
                if n:
                    found = out.get(doc)
                    if found is None:
                        found = out[doc] = [0, 0, 0, 0]
                    found[f] = n
    for f, table in enumerate(scan.exact):
        for doc, terms in table.items():
            n = terms.count(term)
            if n:
                found = out.get(doc)
                if found is None:
                    found = out[doc] = [0, 0, 0, 0]
                found[f] = n
    return out


def field_lengths(scan: Scan, doc: int) -> list[int]:
    """The entry's length per field, as the index keeps it."""
    out = []
    for f, column in enumerate(scan.columns):
        low = column[doc]
        if low is None:
            out.append(len(scan.exact[f][doc]))
        else:
            n = _count_words([low]) if low else 0
            out.append(n - scan.seps.get(doc, 0) if f == 3 else n)
    return out
