"""Importing a Zotero library, and importing it again to stay in step.

A Zotero source is a Better BibTeX JSON or CSL-JSON export, the running Zotero's local
API or a web library. Each item becomes an entry (:mod:`citekit.library.zotero_items`)
and goes in through the same importer as a ``.bib`` file, so identical entries, taken
keys and same-work candidates are handled the one way. What differs is how an entry is
recognised again: by the item's key in its Zotero library (``VXNP5QKW``), never by its
citation key, which Better BibTeX may change. Its import record then also keeps the item's
``version``, so the next import asks Zotero only for what changed since (``since=``);
the three-way decision per field is :func:`citekit.library.reimport.sync_entry`'s.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.bibtex.reader import Problem, read_bib_file
from citekit.core.model import Entry
from citekit.library.importer import ImportReport, import_entries
from citekit.library.reimport import import_record, records_index, sync_entry
from citekit.library.store import Library
from citekit.library.zotero_items import (SKIPPED_TYPES, Collections, ZoteroRecord, comparable_title, csl_record, first_family,
                                          item_data, to_record)


class NotZoteroJson(ValueError):
    """A ``.json`` file that is neither a Better BibTeX JSON nor a CSL-JSON export."""


@dataclass
class ZoteroItems:
    """What a Zotero source handed over: the items, their collections, and what it is."""

    #: ``bbt-json``, ``csl-json`` or ``api``
    kind: str
    items: list[Mapping[str, Any]]
    collections: Collections = field(default_factory=Collections)
    #: the library version the answer was made at (``Last-Modified-Version``; 0 for files)
    library_version: int = 0
    #: the answer holds only items changed since an earlier version
    incremental: bool = False
    #: item keys deleted in Zotero since that version (the API's ``/deleted``)
    deleted: list[str] = field(default_factory=list)


@dataclass
class ZoteroReport:
    """An import of a Zotero source: the importer's report, and what only Zotero has."""

    report: ImportReport
    source: str
    #: library key -> where its key came from (citationKey, extra, bbt-export, csl-json, citekit)
    key_sources: dict[str, str] = field(default_factory=dict)
    #: attachments, notes and annotations skipped, by kind
    skipped_kinds: Counter[str] = field(default_factory=Counter)
    #: items read from the source, and the version asked from (None: everything)
    read: int = 0
    since: int | None = None
    library_version: int = 0
    #: library key -> the citation key Zotero now gives the item (kept as an alias)
    zotero_renamed: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = self.report.to_json()
        data["zotero"] = {"source": self.source, "read": self.read, "since": self.since,
                          "library_version": self.library_version, "key_sources": self.key_sources,
                          "skipped": dict(self.skipped_kinds), "zotero_renamed": self.zotero_renamed}
        return data


def read_json_export(path: Path) -> ZoteroItems:
    """A Better BibTeX JSON (``{config, collections, items}``) or CSL-JSON (a list) export."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise NotZoteroJson(f"{path.name} is not readable JSON ({exc}); export it again from Zotero "
                            "(File > Export Library…, format Better BibTeX JSON or CSL JSON)") from exc
    if isinstance(data, Mapping) and isinstance(data.get("items"), list):
        return ZoteroItems("bbt-json", data["items"], Collections.from_bbt(data.get("collections")))
    if isinstance(data, list) and all(isinstance(x, Mapping) for x in data) and \
            all("type" in x or "title" in x for x in data):
        return ZoteroItems("csl-json", data)
    raise NotZoteroJson(f"{path.name} is neither a Better BibTeX JSON export ({{config, collections, items}}) nor "
                        "CSL-JSON (a list of items); export the library from Zotero as 'Better BibTeX JSON'")


def records_of(source: ZoteroItems) -> tuple[list[ZoteroRecord], Counter[str]]:
    """The entries of a source's items, and the attachments and notes skipped (by kind).

    BBT JSON lists an item's attachments and notes inside it; the API lists them as
    items of their own. Both are counted, never imported.
    """
    skipped: Counter[str] = Counter()
    out: list[ZoteroRecord] = []
    for item in source.items:
        if source.kind == "csl-json":
            out.append(csl_record(item))
            continue
        data = item_data(item)
        kind = str(data.get("itemType", ""))
        if kind in SKIPPED_TYPES:
            skipped[kind] += 1
            continue
        skipped["attachment"] += len(data.get("attachments") or ())
        skipped["note"] += len(data.get("notes") or ())
        record = to_record(item, source.collections)
        if record is not None:
            out.append(record)
    return out, +skipped


def keys_from_export(records: Sequence[ZoteroRecord], bib: Path) -> list[Problem]:
    """Give each record without a key of its own the key Better BibTeX's ``.bib`` export
    has for it, matched by DOI, then title and year, then a title only one entry has.

    Why: Zotero 7 keeps BBT's keys in BBT's own database, out of the item JSON; the user's
    papers cite exactly those keys, and BBT's export is where they can be read.
    """
    parsed = read_bib_file(bib)
    free = [e for e in parsed.entries]
    taken = {r.entry.key for r in records if r.entry.key}
    free = [e for e in free if e.key not in taken]
    facts = {id(e): (e.fields.get("doi", "").strip().lower(), comparable_title(e.fields.get("title", "")),
                     e.fields.get("year", "").strip(), first_family(e.fields)) for e in free}
    # strictest first: DOI; title, year and first author; title and first author; title and year; title
    # alone; then, for records without a title, year and first author, and the first author alone
    tests = ((0,), (1, 2, 3), (1, 3), (1, 2), (1,), (2, 3), (3,))
    pending = [r for r in records if not r.entry.key]
    for test in tests:
        for record in pending:
            if record.entry.key:
                continue
            fields = record.entry.fields
            mine = (fields.get("doi", "").strip().lower(), comparable_title(fields.get("title", "")),
                    fields.get("year", "").strip(), first_family(fields))
            if not all(mine[i] for i in test if i != 2):
                continue
            hits = [e for e in free if all(facts[id(e)][i] == mine[i] for i in test)]
            # several hits that nothing tells apart (the same item twice): BBT's keys for them are
            # one key with a disambiguating suffix each, handed out in file order
            if len(hits) == 1 or (hits and (test[0] == 0 or len({facts[id(e)] for e in hits}) == 1)):
                record.entry.key, record.key_source = hits[0].key, "bbt-export"
                free.remove(hits[0])
    return list(parsed.problems)


def _file_view(record: ZoteroRecord) -> Entry:
    """The record as the import record sees it: keyed by the Zotero item, tags as keywords."""
    view = copy.copy(record.entry)
    view.key = record.item_key or record.entry.key
    view.fields = dict(record.entry.fields)
    if record.tags:
        view.fields["keywords"] = ", ".join(record.tags)
    return view


def _remember(entry: Entry, record: ZoteroRecord, source: str, library_version: int) -> None:
    entry.import_record = import_record(_file_view(record), source, tags=list(record.tags))
    _stamp(entry, record, library_version)


def _stamp(entry: Entry, record: ZoteroRecord, library_version: int) -> None:
    """The version the entry is in step with: the library's when the answer said it (so the
    next read asks from there), else the item's own."""
    version = max(library_version, record.version)
    if version:
        entry.import_record["version"] = str(version)


def last_version(lib: Library, source: str) -> int | None:
    """The newest library version an entry of ``source`` is in step with (None: never
    imported, or a source without versions)."""
    versions = [int(v) for e in lib.entries.values() if e.import_record and e.import_record.get("file") == source
                and str(v := e.import_record.get("version", "")).isdigit()]
    return max(versions) if versions else None


def import_zotero(lib: Library, source: ZoteroItems, source_id: str, *, keys_from: Path | None = None,
                  merge: bool = False, precedence: Sequence[str] | None = None,
                  since: int | None = None) -> ZoteroReport:
    """Bring a Zotero source's items into ``lib``; the caller saves it (or not, in a dry run).

    Items imported from ``source_id`` before are synced field by field; new ones are
    imported like a ``.bib`` file's entries; items gone from a complete answer, or listed
    as deleted since ``since``, are reported, never deleted.
    """
    records, skipped = records_of(source)
    out = ZoteroReport(ImportReport(), source_id, skipped_kinds=skipped, read=len(records), since=since,
                       library_version=source.library_version)
    if keys_from is not None:
        out.report.problems.extend(keys_from_export(records, keys_from))
    known = records_index(lib.entries.values(), source_id)
    seen: set[str] = set()
    fresh: list[tuple[ZoteroRecord, Entry]] = []
    gone_now: list[str] = list(source.deleted)
    for record in records:
        item = (record.item_key or record.entry.key).lower()
        seen.add(item)
        if record.deleted:
            gone_now.append(item)
            continue
        target = known.get(item)
        if target is None:
            entry = record.entry
            entry.tags_added = sorted(set(entry.tags_added) | set(record.tags))
            _remember(entry, record, source_id, source.library_version)
            fresh.append((record, entry))
            continue
        changes = sync_entry(target, _file_view(record), source_id)
        _stamp(target, record, source.library_version)
        out.report.synced.append(target.key)
        out.report.updated.extend(c for c in changes if not c.kept)
        out.report.kept.extend(c for c in changes if c.kept)
        out.key_sources[target.key] = record.key_source or "citekit"
        _note_new_key(lib, target, record, out)
    report = import_entries(lib, [e for _r, e in fresh], source=source_id, merge=merge, precedence=precedence)
    for record, entry in fresh:
        out.key_sources[entry.key] = record.key_source or "citekit"
    out.report.extend(report)
    if not source.incremental:
        gone_now.extend(k for k in known if k not in seen)
    for item in dict.fromkeys(k.lower() for k in gone_now):
        entry = known.get(item)
        if entry is not None:
            out.report.gone.append((entry.key, source_id, str(entry.import_record.get("key", item))))
    return out


def _note_new_key(lib: Library, entry: Entry, record: ZoteroRecord, out: ZoteroReport) -> None:
    """Zotero now cites the item by another key: the library's key stays (papers cite it),
    and the new one becomes an alias when no other entry answers to it."""
    new = record.entry.key
    if not new or new.lower() == entry.key.lower() or new in entry.aliases:
        return
    if new.lower() in {k.lower() for k in lib.taken_keys()}:
        return
    entry.aliases = [*entry.aliases, new]
    lib.issued_keys.add(new)
    out.zotero_renamed[entry.key] = new
