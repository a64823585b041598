"""Importing a .bib file again: each entry synced three ways with what the file says now.

Why: a Better BibTeX auto-export is rewritten whenever the Zotero library changes, with the
same keys. Importing it again must bring the file's changes in (a corrected booktitle, pages
added) without undoing what the user changed in citekit (a hand edit in library.bib, a
field an online sync filled in). Two values cannot tell those apart; three can. So every
imported entry remembers what its record looked like when it was last imported
(``Entry.import_record``: the file's path, the key there and a short hash per field), and
each field of a re-imported record is decided against that record:

- the file still says what it said at the last import: the library's value stands;
- the file changed it and the library still holds the last import's value: the file's
  value is taken (a field added, changed or removed in the file);
- both changed it, to different values: the library's value is kept and the report says so.

The entry type counts as a field (``@type``). Keywords are the entry's tags in the library:
a tag added or removed in the file is added or removed unless the user removed or added it
in citekit. ``ids`` (aliases) are not synced. Entries imported
before citekit kept import records have none: for them a field the user edited in
library.bib (``Entry.hand``) is theirs, any other takes the file's value, and nothing is
removed. Entries no longer in the file are reported by the importer, never deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zlib import adler32, crc32

from citekit.core.model import Entry
from citekit.library.store.reconcile import DERIVED_FIELDS, norm

#: the entry type, kept in an import record beside the fields
TYPE_FIELD = "@type"


@dataclass(frozen=True)
class FieldChange:
    """One field of one entry that a re-import changed, or (``kept``) would have changed but
    the user had changed it too."""

    key: str
    field: str
    #: the library's value before (None: the entry had no such field)
    old: str | None
    #: the file's value now (None: the file no longer has the field)
    new: str | None
    file: str
    #: both the file and the library changed the field since the last import: the library's value was kept
    kept: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.kept:
            return {"key": self.key, "field": self.field, "kept": self.old, "file_value": self.new, "file": self.file}
        return {"key": self.key, "field": self.field, "old": self.old, "new": self.new, "file": self.file}


def value_hash(value: str) -> str:
    """A field value's short hash (runs of whitespace count as one space, as in the file).

    CRC-32 and Adler-32 (48 bits together): a hash here only tells whether one field's
    value changed, never stands for a value, and is computed for every field of every
    imported entry, so it must be cheap (a third of SHA-256's cost on short values)."""
    # (plain ``in`` tests: a regular expression cost as much as the hash)
    if "  " in value or "\n" in value or "\t" in value or "\r" in value or value[:1].isspace() \
            or value[-1:].isspace():
        value = norm(value)
    data = value.encode("utf-8", "surrogatepass")
    return "%012x" % (crc32(data) << 16 | adler32(data) & 0xFFFF)


def own_fields(entry: Entry) -> dict[str, str]:
    """The fields a re-import compares, by the name the library writes, and the type as ``@type``."""
    out = {name.strip().lower(): value for name, value in entry.fields.items()}
    for name in DERIVED_FIELDS:
        out.pop(name, None)
    out[TYPE_FIELD] = entry.entry_type.strip().lower()
    return out


def import_record(entry: Entry, file: str, tags: list[str] | None = None) -> dict[str, Any]:
    """What to remember of ``entry`` as the file ``file`` has it now: its key there, a hash
    per field, and the tags its keywords give (a tag added or removed in Zotero is then
    told from one added or removed in citekit). ``tags``: those tags, when already known."""
    hashes = []
    for name, value in entry.fields.items():
        name = name.strip().lower()
        if name not in DERIVED_FIELDS:
            hashes.append(f"{name}={value_hash(value)}")
    hashes.append(f"{TYPE_FIELD}={value_hash(entry.entry_type.strip().lower())}")
    # one text, not a mapping: written, read and compared whole as one string (a sidecar
    # holds one per imported entry); a field name has no space and no "="
    record: dict[str, Any] = {"file": file, "key": entry.key, "fields": " ".join(hashes)}
    if tags is None:
        tags = file_tags(entry)
    if tags:
        record["tags"] = tags
    return record


def field_hashes(record: Mapping[str, Any]) -> dict[str, str]:
    """An import record's hashes by field name (``@type`` for the entry type)."""
    return dict(part.split("=", 1) for part in str(record.get("fields") or "").split() if "=" in part)


def file_tags(entry: Entry) -> list[str]:
    """The tags a record's ``keywords`` give, as an import takes them."""
    from citekit.library.tags import tags_from_keywords

    keywords = next((v for k, v in entry.fields.items() if k.strip().lower() == "keywords"), "")
    return tags_from_keywords(keywords) if keywords else []


def source_name(path: Path, root: Path) -> str:
    """How an import record names its file: relative to the project ``root`` when inside it,
    else to the home folder (``~/Zotero/library.bib``), else in full. Not the bare file name:
    two papers' ``refs.bib`` are different files, and syncing one with the other would
    overwrite one paper's entries with the other's."""
    full = path.resolve()
    bases = [(root.resolve(), "")]
    try:
        bases.append((Path.home().resolve(), "~/"))
    except (RuntimeError, KeyError):  # no home folder known
        pass
    for base, prefix in bases:
        try:
            return prefix + full.relative_to(base).as_posix()
        except ValueError:
            continue
    return full.as_posix()


def records_index(entries: Iterable[Entry], file: str) -> dict[str, Entry]:
    """Key in ``file`` (lower-cased, as BibTeX compares keys) -> the library entry last imported under it."""
    return {str(e.import_record.get("key", "")).lower(): e for e in entries
            if e.import_record and e.import_record.get("file") == file}


def sync_entry(entry: Entry, incoming: Entry, file: str) -> list[FieldChange]:
    """Apply the file's changes to ``entry`` (a library entry last imported from ``file``),
    keeping the user's; returns every field changed or kept. ``entry`` then remembers the
    file's record as it is now, so a field both sides changed is reported once, not on
    every re-import."""
    last = entry.import_record or None
    record = import_record(incoming, file)
    base_tags = last.get("tags", []) if last is not None else None
    same_fields = last is not None and last.get("fields") == record["fields"]
    if same_fields and base_tags == record.get("tags", []):
        # the file's record is as it was: nothing to take (most entries, every time)
        if entry.import_record != record:
            entry.import_record = record  # its key in the file changed case
        return []
    changes = _sync_tags(entry, base_tags, record.get("tags", []), file)
    if same_fields:
        entry.import_record = record
        return changes
    base = field_hashes(last) if last is not None else None
    file_hashes = field_hashes(record)
    ours, theirs = own_fields(entry), own_fields(incoming)
    hand = {TYPE_FIELD if name == "entry_type" else name for name in entry.hand}
    for name in [*theirs, *(n for n in ours if n not in theirs)]:
        file_hash = file_hashes.get(name)
        if base is not None and file_hash == base.get(name):
            continue  # the file did not change it: the library's value stands, changed or not
        mine, file_value = ours.get(name), theirs.get(name)
        my_hash = None if mine is None else value_hash(mine)
        if file_hash == my_hash:
            continue  # both say the same
        if base is None:
            if file_value is None:
                continue  # no record of the last import: a field the file lacks may be citekit's own
            user_changed = name in hand
        else:
            user_changed = name in hand or my_hash != base.get(name)
        changes.append(FieldChange(entry.key, name, mine, file_value, file, kept=user_changed))
        if not user_changed:
            _set(entry, name, file_value)
    entry.import_record = record
    return changes


def _sync_tags(entry: Entry, base: list[str] | None, now: list[str], file: str) -> list[FieldChange]:
    """Tags added or removed in the file since the last import, applied to the entry's own
    tags unless the user did the opposite in citekit (then citekit's choice is kept).
    ``base`` None: no record of the last import's tags, so nothing to compare with."""
    if base is None or base == now:
        return []
    changes: list[FieldChange] = []
    added, removed = sorted(set(now) - set(base)), sorted(set(base) - set(now))
    for tag in added:
        if tag in entry.tags_removed:
            changes.append(FieldChange(entry.key, "keywords", None, tag, file, kept=True))
        elif tag not in entry.tags:
            entry.tags_added = sorted({*entry.tags_added, tag})
            changes.append(FieldChange(entry.key, "keywords", None, tag, file))
    for tag in removed:
        if tag in entry.tags_added:
            entry.tags_added = [t for t in entry.tags_added if t != tag]
            changes.append(FieldChange(entry.key, "keywords", tag, None, file))
    return changes


def _set(entry: Entry, name: str, value: str | None) -> None:
    if name == TYPE_FIELD:
        entry.entry_type = value or entry.entry_type
        return
    fields = {k.strip().lower(): v for k, v in entry.fields.items()}
    if value is None:
        fields.pop(name, None)
        entry.provenance.pop(name, None)
    else:
        fields[name] = value
    entry.fields = fields
