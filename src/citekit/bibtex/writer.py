"""Writing library entries as BibTeX text, byte-for-byte reproducible.

The same entries must always give the same file: the library store diffs what it wrote
last time against what is on disk to find hand edits, and users keep ``refs/`` under
version control. So field order, padding and quoting are fixed here and nowhere else.

The layout is the one bibtexparser v2's writer gives with a two-space indent, a value
column and a trailing comma, written directly: the library writes every entry on every
save, and bibtexparser's writer deep-copies each block first (a third of a save's time on
a large library). Every value is braced (BibTeX reads a braced value verbatim, so the
value read back is the value written), except a month, written as its bare macro.
"""

from __future__ import annotations

import bisect
import logging
from typing import Iterable, Mapping

from citekit.core.model import Entry
from citekit.bibtex.comments import tex_comment
from citekit.bibtex.values import sanitize, to_ascii
from citekit.core.lazyre import lazy

log = logging.getLogger(__name__)

#: Fields in the order a reader scans an entry: who, what, where, when, then identifiers.
FIELD_ORDER: tuple[str, ...] = (
    "author",
    "editor",
    "title",
    "booktitle",
    "journal",
    "journaltitle",
    "volume",
    "number",
    "pages",
    "year",
    "month",
    "date",
    "publisher",
    "doi",
    "url",
    "eprint",
    "archiveprefix",
    "eprinttype",
    "primaryclass",
    "eprintclass",
    "ids",
    "keywords",
)

#: Value column: values start 16 characters after the indent, so the longest standard
#: field name (``archiveprefix``) still gets one space before ``=``.
VALUE_COLUMN = 16

#: Fields holding identifiers or addresses: never escaped or converted to ASCII, because
#: ``\\_`` inside a URL or DOI would change the link.
VERBATIM_FIELDS = frozenset({"url", "doi", "eprint", "archiveprefix", "eprinttype", "primaryclass", "eprintclass", "ids", "date", "year"})

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_KEY_RE = lazy(r"^[A-Za-z0-9_:./+\-]+$")
#: an entry type the .bib reader reads back as written (``bibsyntax._AT``): BibTeX's
#: identifier characters (none of white space, ``"#%'(),={}``; ``@`` left out too), first a
#: letter or ``_``, so ``@x.y`` and Mendeley's ``@book_section`` survive a write
_TYPE_RE = lazy(r"[A-Za-z_][^\s\"#%'(),={}@]*\Z")


def month_macro(value: str) -> str | None:
    """``jul`` for ``jul``, ``July``, ``7`` or ``07``; None when the value names no month."""
    v = value.strip().lower().rstrip(".")
    if v.isdigit() and 1 <= int(v) <= 12:
        return _MONTHS[int(v) - 1]
    for macro in _MONTHS:
        if v == macro or (len(v) >= 3 and macro.startswith(v[:3]) and _full_month(macro).startswith(v)):
            return macro
    return None


def _full_month(macro: str) -> str:
    return {
        "jan": "january", "feb": "february", "mar": "march", "apr": "april", "may": "may", "jun": "june",
        "jul": "july", "aug": "august", "sep": "september", "oct": "october", "nov": "november",
        "dec": "december",
    }[macro]


def ordered_fields(fields: Mapping[str, str], *, keep_empty: bool = False) -> list[tuple[str, str]]:
    """Fields with lower-cased names, in :data:`FIELD_ORDER` then alphabetically; empty ones
    only with ``keep_empty`` (an imported or hand-written entry's ``OPTkey = {}``: bibtex
    and biber read an empty field without a warning, and dropping it would lose the user's text)."""
    names = tuple(fields)
    plan = _PLANS.get(names)
    if plan is None:
        plan = _order_plan(names)
    if plan:  # no two names fold to one: each value goes to its place
        values = tuple(fields.values())
        out = []
        for i, name in plan:
            value = values[i]
            if value is None:
                continue
            text = (value if type(value) is str else str(value)).strip()
            if text or keep_empty:
                out.append((name, text))
        return out
    lowered: dict[str, str] = {}
    for name, value in fields.items():
        if value is None:
            continue
        text = (value if type(value) is str else str(value)).strip()
        if text or keep_empty:
            lowered.setdefault(name.strip().lower(), text)
    return sorted(lowered.items(), key=_field_rank)


_RANK = {name: i for i, name in enumerate(FIELD_ORDER)}
#: field names as a mapping holds them -> (position, written name) in the written order;
#: () when two names fold to one (which one is kept then depends on the values)
_PLANS: dict[tuple[str, ...], tuple[tuple[int, str], ...]] = {}


def _field_rank(item: tuple[str, str]) -> tuple[int, str]:
    return _RANK.get(item[0], len(_RANK)), item[0]


def with_ordered_field(ordered: list[tuple[str, str]], name: str, value: str, *,
                       keep_empty: bool = False) -> None:
    """Put a field into :func:`ordered_fields`' result (which lacks its name) where
    :func:`ordered_fields` would have put it: an entry's own fields are ordered once, and
    the derived ``keywords`` and ``ids`` join them without ordering all of them again."""
    text = value.strip()
    if text or keep_empty:
        bisect.insort(ordered, (name, text), key=_field_rank)


def _order_plan(names: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """Where each field goes, worked out once per set of names (a library repeats a few dozen)."""
    written = [name.strip().lower() for name in names]
    plan: tuple[tuple[int, str], ...] = ()
    if len(set(written)) == len(written):
        plan = tuple(sorted(enumerate(written), key=lambda item: _field_rank((item[1], ""))))
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[names] = plan
    return plan


def check_key(key: str) -> str:
    """The citation key, or a ValueError saying why LaTeX or BibTeX would reject it."""
    if not key or not _KEY_RE.match(key):
        raise ValueError(
            f"citation key {key!r} cannot be written: keys may only use letters, digits and "
            "'_:./+-'. Rename it in refs/library.bib (and in your \\cite commands)."
        )
    return key


def braces_balanced(value: str) -> bool:
    """True when BibTeX would read the value as one field: its own brace count (which
    ignores backslashes) never drops below zero and ends at zero."""
    if "}" not in value:  # most values: no braces, or an opening one that never closes
        return "{" not in value
    # innermost groups out, a level per round (in C): balanced when no brace is left;
    # a value nested deeper than a title ever is gets the character loop instead
    for _ in range(_GROUP_ROUNDS):
        inner = _INNERMOST_GROUP.sub("", value)
        if inner == value:
            return "{" not in value and "}" not in value
        value = inner
    depth = 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


_INNERMOST_GROUP = lazy(r"\{[^{}]*\}")
_GROUP_ROUNDS = 6


def alias_value(aliases: Iterable[str], existing: str = "") -> str:
    """The ``ids`` value: old keys that should keep resolving (biblatex reads it; BibTeX ignores it)."""
    seen: list[str] = []
    for alias in [a.strip() for a in existing.split(",")] + [a.strip() for a in aliases]:
        if alias and alias not in seen:
            seen.append(alias)
    return ", ".join(seen)


def entry_fields(entry: Entry) -> dict[str, str]:
    """The fields to write for one entry: its fields plus ``ids`` from aliases and
    ``keywords`` from tags when the fields don't already hold them."""
    fields = {k.lower(): v for k, v in entry.fields.items()}
    if entry.aliases:
        fields["ids"] = alias_value(entry.aliases, fields.get("ids", ""))
    if not fields.get("keywords") and entry.keyword_tags:
        fields["keywords"] = ", ".join(entry.keyword_tags)
    return fields


def _field_value(entry_key: str, name: str, value: str, *, ascii: bool) -> str:
    held = cleaned_value(value)
    if held != " ".join(value.split()):  # made safe: its braces did not balance
        log.warning(
            "%s: field %s has unbalanced braces; writing a sanitized copy. Fix it by hand in "
            "refs/library.bib if the result is not what you meant.",
            entry_key,
            name,
        )
    if ascii and name not in VERBATIM_FIELDS:
        held = to_ascii(held)
    return held


def cleaned_value(value: str) -> str:
    """What ``library.bib`` holds for ``value`` in UTF-8. BibTeX reads every run of white
    space as one space; writing it so means a line that happens to start with "@" inside a
    long value can never look like a new entry. Braces that do not balance are made safe."""
    value = " ".join(value.split())
    return value if braces_balanced(value) else sanitize(value)


def entry_text(entry: Entry, fields: Mapping[str, str] | None = None, *, ascii: bool = False,
               written: list[tuple[str, str, str, bool]] | None = None) -> str:
    """One entry as BibTeX text: two-space indent, values from :data:`VALUE_COLUMN`, every
    value braced except a month macro, a trailing comma. ``written``: what
    :func:`written_fields` gave for this entry, when the caller needs it too."""
    if written is None:
        written = written_fields(entry, fields, ascii=ascii)
    return written_text(entry.key, entry.entry_type, written)


def written_text(key: str, entry_type: str, written: list[tuple[str, str, str, bool]]) -> str:
    """The text of one entry from its key, type and :func:`written_fields`."""
    check_key(key)
    written_type = entry_type.strip().lower()
    if not _TYPE_RE.match(written_type):
        raise ValueError(f"entry {key}: type {entry_type!r} is not a BibTeX type; use e.g. 'misc'.")
    lines = [f"@{written_type}{{{key},"]
    for name, _value, held, macro in written:
        pad = " " * max(VALUE_COLUMN - len(name) - 3, 0)
        lines.append(f"  {name}{pad} = {held}," if macro else f"  {name}{pad} = {{{held}}},")
    lines.append("}")
    return "\n".join(lines)


def written_fields(entry: Entry, fields: Mapping[str, str] | None = None, *,
                   ascii: bool = False) -> list[tuple[str, str, str, bool]]:
    """(name, value, what the file holds, is a macro) for each field :func:`entry_text`
    writes, in its order: the text between the braces, or a month macro's name. What a
    read of the file gives back, so the store can keep an entry as the next read sees it."""
    ordered = ordered_fields(fields if fields is not None else entry_fields(entry), keep_empty=entry.origin != "notes")
    return fields_as_written(entry.key, ordered, ascii=ascii)


def fields_as_written(key: str, ordered: Iterable[tuple[str, str]], *,
                      ascii: bool) -> list[tuple[str, str, str, bool]]:
    """:func:`written_fields` of the entry ``key`` from its :func:`ordered_fields`. A value
    with single spaces, no braces and nothing to escape is held as it is (most values):
    only the others go through :func:`_field_value`, which would leave it so."""
    out = []
    for name, value in ordered:
        if name == "month":
            macro = month_macro(value)
            if macro is not None:
                out.append((name, value, macro, True))
                continue
        # (no other white space than single spaces: str.split's white space is all
        # non-printable but the space, and ordered_fields stripped the ends)
        if ("{" in value or "}" in value or "  " in value or not value.isprintable()
                or (ascii and not value.isascii())):
            out.append((name, value, _field_value(key, name, value, ascii=ascii), False))
        else:
            out.append((name, value, value, False))
    return out


def write_texts(texts: Iterable[str], header: str | None) -> str:
    """Entries' texts joined by a blank line, after an optional ``%`` comment header."""
    parts = list(texts)
    if header:
        parts.insert(0, tex_comment(header))
    return "\n\n".join(parts) + "\n" if parts else "\n"


def render_entries(entries: list[Entry], *, ascii: bool = False, header: str | None = None) -> str:
    """Deterministic ``.bib`` text for ``entries``, in the order given.

    Values are written as the entries hold them (they are already LaTeX-ready); a value
    whose braces would break the file is sanitized instead, with a warning. ``ascii``
    turns non-ASCII text into LaTeX escapes, for toolchains that mangle UTF-8.
    """
    check_unique_keys(entries)
    return write_texts((entry_text(e, ascii=ascii) for e in entries), header)


def check_unique_keys(entries: Iterable[Entry]) -> None:
    """Refuse to write two entries under one key: BibTeX would silently use the first."""
    seen: set[str] = set()
    dupes: list[str] = []
    for entry in entries:
        folded = entry.key.lower()  # BibTeX compares keys case-insensitively
        if folded in seen:
            dupes.append(entry.key)
        seen.add(folded)
    if dupes:
        raise ValueError(
            f"two entries share the key(s) {', '.join(sorted(set(dupes)))}; give each a distinct key, "
            "or merge the two entries, before writing."
        )
