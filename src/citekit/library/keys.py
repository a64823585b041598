"""Citation keys: generated once from a formula, then locked forever.

A key is a promise to every paper that cites it, so generation happens only for entries
that have none; collisions get ``a``, ``b``, ... in a deterministic order; and every key
ever issued (including aliases of merged entries) stays taken.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping

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


def key_parts(fields: Mapping[str, str]) -> dict[str, str]:
    """The formula's placeholders filled from an entry's fields."""
    # "Step-Size Stability" → "stepsize": a hyphenated compound is one word in a key
    title = re.sub(r"(?<=\w)-(?=\w)", "", fields.get("title", ""))
    words = title_tokens(title)
    authors = split_bibtex_names(fields["author"].strip()) if fields.get("author", "").strip() else []
    year = re.sub(r"\D", "", fields.get("year", ""))[:4]
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
