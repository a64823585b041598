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
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.core.model import Entry

#: a text field that may hold LaTeX beyond braces (or a percent sign the converter reads)
_NOT_PLAIN = re.compile(r"[\\$%]")
#: an author list whose names the regular expressions below cannot cut as BibTeX does
_NOT_PLAIN_NAMES = re.compile(r"[\\$%{}]")
#: the ``and`` between two names (BibTeX's rule for lists without braces: spaces around it,
#: a name after it); matched without overlap, so ``A and and B`` has one, as BibTeX reads it
_NAME_AND = lazy(r"[ \t\r\n]+[aA][nN][dD][ \t\r\n]+(?=[^ \t\r\n\x00])")
_LIST_SPACE = " \r\n\t"
#: letters and digits -> "a", anything else -> " ": words are then counted as " a" in C
_WORD_BYTES = bytes(ord("a") if chr(c).isascii() and chr(c).isalnum() else ord(" ") for c in range(256))
_SEP = "\x00"
#: the same as text: letters and digits stay, anything else is a space (then ``split``)
_SPACES = str.maketrans({chr(c): chr(c) if chr(c).isalnum() else " " for c in range(128)})


def _et_al(names: str) -> bool:
    """Whether an author list may end in ``others`` or ``et al`` (no words, as BibTeX reads it)."""
    low = names.lower() if "t" in names or "T" in names else ""
    return "others" in low or "et al" in low


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
class Column:
    """One field of every entry as one text: the plain fields lower-case, anything but a
    letter or digit a space, each entry's text between single spaces (an entry whose field
    is not plain has none here: its words are in ``exact``)."""

    text: str  # " text0 text1 ... " with only [a-z0-9] and spaces
    starts: list[int]  # doc -> where its text begins (the space before it is at start - 1)
    words: bytes  # ``text`` with every letter or digit as ``a``: word starts are ``b" a"``
    exact: dict[int, list[str]]

    def length(self, doc: int) -> int:
        if doc in self.exact:
            return len(self.exact[doc])
        return self.words.count(b" a", self.starts[doc] - 1, self.starts[doc + 1])

    def total(self) -> int:
        return self.words.count(b" a") + sum(map(len, self.exact.values()))


@dataclass
class Scan:
    """The library's text as one query needs it: a :class:`Column` per ranked field, and
    how many ``and``s stand between the names of each plain author list."""

    keys: list[str]
    columns: list[Column]
    seps: dict[int, int]

    def totals(self) -> list[int]:
        totals = [column.total() for column in self.columns]
        totals[3] -= sum(self.seps.values())
        return totals


def _column(texts: list[str], exact: dict[int, list[str]]) -> Column:
    starts = [1]
    at = 1
    for text in texts:
        at += len(text) + 1
        starts.append(at)
    text = " " + " ".join(texts).translate(_SPACES) + " "
    return Column(text, starts, text.encode("ascii").translate(_WORD_BYTES), exact)


def scan_entries(keys: list[str], entries: Iterable[Entry]) -> Scan:
    """One pass over the entries (in ``keys`` order): plain fields kept as text, the
    others cut into words."""
    texts: list[list[str]] = [[], [], [], []]
    exact: list[dict[int, list[str]]] = [{}, {}, {}, {}]
    seen: dict[str, list[str]] = {}  # a text cut once per pass (author lists recur)
    for doc, entry in enumerate(entries):
        fields = entry_texts(entry)
        whole = _SEP.join(fields)
        names = fields[3]
        if whole.isascii() and "\\" not in whole and "$" not in whole and "%" not in whole and "{" not in names \
                and "}" not in names and not _et_al(names):  # the common case (tests in C): every field plain
            for f in range(4):
                texts[f].append(_plain(fields[f]))
            continue
        for f, text in enumerate(fields):
            if text and (not text.isascii() or (_NOT_PLAIN_NAMES if f == 3 else _NOT_PLAIN).search(text)
                         or (f == 3 and _et_al(text))):
                texts[f].append("")
                found = seen.get(text) if f == 3 else None
                if found is None:
                    found = _exact_words(f, text)
                    if f == 3:
                        seen[text] = found
                exact[f][doc] = found
            else:
                texts[f].append(_plain(text))
    seps: dict[int, int] = {}
    for doc, low in enumerate(texts[3]):
        if " and" in low:
            n = len(_NAME_AND.findall(low.strip(_LIST_SPACE)))
            if n:
                seps[doc] = n
    return Scan(keys, [_column(texts[f], exact[f]) for f in range(4)], seps)


def _exact_words(f: int, text: str) -> list[str]:
    """A field's words as :func:`.terms.entry_terms` cuts them."""
    if f != 3:
        return words(text)
    return [w for name in split_bibtex_names(text) if not is_et_al(name) for w in words(name)]


def term_counts(scan: Scan, term: str) -> dict[int, list[int]]:
    """doc -> the term's count per field, for every entry holding ``term``: each form of
    the word is found between spaces in each column (a search in C), then its entry looked up."""
    from bisect import bisect_right

    variants = forms(term)
    out: dict[int, list[int]] = {}
    for f, column in enumerate(scan.columns):
        text, starts = column.text, column.starts
        seps = scan.seps if f == 3 and "and" in variants else None
        for variant in variants:
            needle = f" {variant} "
            find = text.find
            at = find(needle)
            while at >= 0:
                doc = bisect_right(starts, at + 1) - 1
                found = out.get(doc)
                if found is None:
                    found = out[doc] = [0, 0, 0, 0]
                found[f] += 1
                at = find(needle, at + 1)
        if seps:
            for doc, n in seps.items():
                found = out.get(doc)
                if found is not None and found[f]:
                    found[f] -= n
        for doc, terms in column.exact.items():
            n = terms.count(term)
            if n:
                found = out.get(doc)
                if found is None:
                    found = out[doc] = [0, 0, 0, 0]
                found[f] = n
    return {doc: counts for doc, counts in out.items() if any(counts)}


def field_lengths(scan: Scan, doc: int) -> list[int]:
    """The entry's length per field, as the index keeps it."""
    out = [column.length(doc) for column in scan.columns]
    out[3] -= scan.seps.get(doc, 0)
    return out
