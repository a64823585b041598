"""Citation keys: generated from a formula, re-formed while provisional, then locked forever.

A key is a promise to every paper that cites it, so generation happens only for entries
that have none; collisions get ``a``, ``b``, ... in a deterministic order; and every key
ever issued (including aliases of merged entries) stays taken.

A key citekit made stays *provisional* (``Entry.key_provisional``) until it first leaves
the library: exported, cited in a paper ``check`` read, or written into related work.
Until then nobody can cite it yet, so a later sync that brings a better year or first
author re-forms it (:func:`reformed_key`); the old key stays an alias. With no year at
all, the year of an arXiv identifier counts (``2101.03961`` -> 2021), so a paper noted
with only its arXiv link does not get an ``nd`` key.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping

from citekit.core.errors import CitekitError
from citekit.core.config import DEFAULT_KEY_FORMULA
from citekit.core.model import Entry
from citekit.core.names import split_bibtex_names
from citekit.core.venues import short_from_long
from citekit.core.text import first_significant_word, fold, latex_to_text, title_tokens


class KeyFormulaError(CitekitError, ValueError):
    """The configured key formula names an unknown placeholder."""

    exit_code = 2
    NEXT_STEP = "Fix keys.formula in citekit.yaml (README: Configuration)."


def validate_formula(formula: str) -> None:
    # the schema module is imported only when a key is made (an import keeping its keys makes none)
    from citekit.core.config_schema import KEY_PLACEHOLDERS

    names = {name for _, name, _, _ in string.Formatter().parse(formula) if name}
    unknown = names - set(KEY_PLACEHOLDERS)
    if unknown:
        raise KeyFormulaError(
            f"unknown placeholder(s) {sorted(unknown)} in key formula {formula!r}; use {sorted(KEY_PLACEHOLDERS)}"
        )


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(latex_to_text(text, matching=True)))


def first_author_family(author_field: str) -> str:
    """Family name of the first author of a BibTeX ``author`` value, as ASCII letters."""
    if not author_field.strip():
        return ""
    first = split_bibtex_names(author_field.strip())[0].strip()
    if first.startswith("{") and first.endswith("}"):
        return _ascii_word(first)  # corporate author
    if "," in first:
        family = first.split(",", 1)[0]
    else:
        family = first.split()[-1] if first.split() else first
    return _ascii_word(family)


_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{2})(\d{2})\.\d{4,5}(?!\d)")
_ARXIV_OLD = re.compile(r"[a-z-]+(?:\.[A-Z]{2})?/(\d{2})(\d{2})\d{3}(?!\d)")


def arxiv_year(fields: Mapping[str, str]) -> str:
    """The year an arXiv identifier of the entry was issued in (``2101.03961`` -> ``2021``,
    ``cs/0701001`` -> ``2007``), from ``eprint`` or an arxiv.org ``url``; "" when none.

    The first version's month is in the identifier itself, so this is a fact about the
    work, not a guess: a preprint is never later than its identifier."""
    candidates = []
    eprint = fields.get("eprint", "")
    if eprint and fields.get("archiveprefix", "arxiv").lower() == "arxiv":
        candidates.append(eprint)
    url = fields.get("url", "")
    if "arxiv.org/" in url.lower():
        candidates.append(url.split("arxiv.org/", 1)[1])
    for text in candidates:
        for pattern, century in ((_ARXIV_NEW, "20"), (_ARXIV_OLD, None)):
            m = pattern.search(text)
            if m and 1 <= int(m.group(2)) <= 12:
                yy = int(m.group(1))
                if century is None:
                    century = "19" if yy >= 91 else "20"  # arXiv began in August 1991
                if century == "20" and pattern is _ARXIV_NEW and yy < 7:
                    continue  # new-style identifiers start in April 2007
                return century + m.group(1)
    return ""


def key_parts(fields: Mapping[str, str]) -> dict[str, str]:
    """The formula's placeholders filled from an entry's fields (no year: an arXiv id's)."""
    # "Step-Size Stability" → "stepsize": a hyphenated compound is one word in a key
    title = re.sub(r"(?<=\w)-(?=\w)", "", fields.get("title", ""))
    words = title_tokens(title)
    authors = split_bibtex_names(fields["author"].strip()) if fields.get("author", "").strip() else []
    year = re.sub(r"\D", "", fields.get("year", ""))[:4] or arxiv_year(fields)
    container = fields.get("booktitle") or fields.get("journal") or ""
    venue = (short_from_long(container) or "").lower() or _ascii_word(container)[:12]
    return {
        "author": first_author_family(fields.get("author", "")) or "anon",
        "authors": "".join(first_author_family(a) for a in authors[:3]) or "anon",
        "year": year or "nd",
        "title": first_significant_word(title) if title else "untitled",
        "title2": "".join(words[:2]) or "untitled",
        "venue": venue,
    }


def base_key(fields: Mapping[str, str], formula: str | None = None) -> str:
    """The formula's key for these fields, before collision suffixes."""
    formula = formula or DEFAULT_KEY_FORMULA
    validate_formula(formula)
    key = formula.format(**key_parts(fields))
    return re.sub(r"[^a-z0-9_:-]", "", key.lower()) or "untitled"


def suffixes() -> Iterable[str]:
    """``a`` … ``z``, ``aa`` … : BibTeX-friendly collision suffixes."""
    letters = string.ascii_lowercase
    for c in letters:
        yield c
    for c1 in letters:
        for c2 in letters:
            yield c1 + c2


class TakenKeys(set):
    """Keys already given, lower-cased once: many :func:`make_key` calls in one run then
    do not lower the whole set again each time (which made adding n entries quadratic)."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        super().__init__(k.lower() for k in keys)

    def add(self, key: str) -> None:
        super().add(key.lower())


class LaterTakenKeys(TakenKeys):
    """:class:`TakenKeys` filled from ``keys()`` when first asked (membership, ``add``): a
    sync whose works all land on entries that keep their key (``add`` of one paper to
    50,000 entries) never lowers every key. Only what :func:`make_key` and its callers
    use is answered; ``keys()`` must give every key issued until then (an issued key is
    never taken back, so filling later misses none)."""

    def __init__(self, keys: Callable[[], Iterable[str]]) -> None:
        super().__init__()
        self._later: Callable[[], Iterable[str]] | None = keys

    def _fill(self) -> None:
        if self._later is not None:
            keys, self._later = self._later, None
            self.update(k.lower() for k in keys())

    def __contains__(self, key: object) -> bool:
        self._fill()
        return super().__contains__(key)

    def add(self, key: str) -> None:
        self._fill()
        super().add(key)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()


def key_is_safe(key: str) -> bool:
    """Whether the .bib writer takes ``key`` as it is (:func:`citekit.bibtex.writer.check_key`)."""
    from citekit.bibtex.writer import check_key

    try:
        check_key(key)
        return True
    except ValueError:
        return False


def make_key(entry: Entry | Mapping[str, str], taken: set[str], formula: str | None = None) -> str:
    """A new key not in ``taken`` (compared case-insensitively, as BibTeX does)."""
    fields = entry.fields if isinstance(entry, Entry) else entry
    base = base_key(fields, formula)
    lowered = taken if isinstance(taken, TakenKeys) else {t.lower() for t in taken}
    if base not in lowered:
        return base
    for suffix in suffixes():
        candidate = base + suffix
        if candidate not in lowered:
            return candidate
    raise RuntimeError(f"no free key for {base!r}")  # 702 collisions of one base: not a real library


def formula_keeps(key: str, fields: Mapping[str, str], formula: str | None = None) -> bool:
    """Whether ``key`` still carries the year and first author(s) the formula takes from
    these fields (the other parts, such as the title word, may differ: fixing a typo in a
    title is no reason to change a key). A provisional key that still fits stays."""
    formula = formula or DEFAULT_KEY_FORMULA
    validate_formula(formula)
    parts = key_parts(fields)
    pattern = ""
    for literal, name, _spec, _conversion in string.Formatter().parse(formula):
        pattern += re.escape(re.sub(r"[^a-z0-9_:-]", "", literal.lower()))
        if name in ("author", "authors", "year"):
            pattern += re.escape(parts[name])
        elif name:
            pattern += "[a-z0-9_:-]*?"
    return re.fullmatch(pattern + "[a-z]{0,2}", key.lower()) is not None


def reformed_key(key: str, fields: Mapping[str, str], taken: set[str], formula: str | None = None) -> str | None:
    """The new key of a provisional entry whose fields now give another key, or None when
    ``key`` still fits them. ``taken`` holds every key issued (``key`` itself included):
    the new key is never one of them, so an old key is never handed to another work."""
    if formula_keeps(key, fields, formula):
        return None
    return make_key(fields, taken, formula)


class KeyNameError(CitekitError, ValueError):
    """A key asked for by hand cannot be given: not a valid BibTeX key, or already taken."""

    exit_code = 2


def _usable_like(wanted: str, taken: Iterable[str]) -> str:
    """A key close to ``wanted`` that can be given: its characters BibTeX cannot take left
    out (spaces become ``-``), with the first free suffix when that key is taken, so the
    example a message offers works as it is."""
    import re

    base = re.sub(r"[^A-Za-z0-9_:./+-]", "", re.sub(r"\s+", "-", wanted.strip())).strip("-") or "key2026"
    lowered = {k.lower() for k in taken}
    if base.lower() not in lowered:
        return base
    return next(base + s for s in suffixes() if (base + s).lower() not in lowered)


def check_new_key(new: str, taken: Iterable[str], own: Iterable[str] = (),
                  in_use: Callable[[str], bool] | None = None) -> str:
    """``new`` when BibTeX, LaTeX and citekit can all take it as an entry's key, else a
    :class:`KeyNameError` saying what to do. ``taken``: every key issued in the library
    (keys, aliases, keys of deleted entries: none is ever given to another work);
    ``own``: the entry's own key and aliases, which it may take back (compared
    case-insensitively, as BibTeX compares keys); ``in_use``: whether a key is a present
    entry's key or alias (``citekit show`` finds it), so the message points only there."""
    from citekit.bibtex.writer import check_key

    taken = taken if isinstance(taken, (set, frozenset, list, tuple, dict)) else list(taken)
    try:
        check_key(new)
    except ValueError:
        raise KeyNameError(f"'{new}' cannot be a citation key: keys may only use letters, digits and '_:./+-'.",
                           next_step=f"Choose a key of those characters, e.g. '{_usable_like(new, taken)}'.") from None
    mine = {k.lower() for k in own}
    if new.lower() in mine:
        return new
    clash = next((k for k in taken if k.lower() == new.lower()), None)
    if clash is not None:
        if in_use is None or in_use(clash):
            raise KeyNameError(f"the key '{new}' is taken" + (f" ('{clash}')" if clash != new else "")
                               + ": it is another entry's key or old key, or was issued before (keys are never reused).",
                               next_step=f"Choose another key (e.g. '{_usable_like(new, taken)}'); `citekit show {clash}` shows what has it.")
        raise KeyNameError(f"the key '{new}' is taken" + (f" ('{clash}')" if clash != new else "")
                           + ": an entry deleted from the library had it, and keys are never reused (a paper may "
                           "still cite it).", next_step=f"Choose another key (e.g. '{_usable_like(new, taken)}').")
    return new
