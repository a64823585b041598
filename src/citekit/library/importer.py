"""Bringing existing .bib files into the library without breaking anybody's citations.

An import is a copy, never a surprise. An imported entry keeps its key, because the paper
it came from cites it. Only when that key already belongs to a different work does it get
a suffix, and the rename is written to an import key map so that paper's ``\\cite``s can
be rewritten with ``citekit rekey``. An entry identical to one already there (or the same work
under the same key) is skipped and counted, and gives the library's entry the fields it
lacks and names written in full, never replacing what the user wrote; entries that look like the same work as others are listed, and merged
only when asked (``--merge``): then the key of the library's entry survives and the
others become its aliases.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.core.model import Entry
from citekit.matching.works import choose_survivor
from citekit.bibtex.reader import BibParseResult, Macros, Problem, read_bib_file, split_ids
from citekit.bibtex.collector import collector_paused
from citekit.library.dedup import Match, analyse_matches, find_matches
from citekit.library.keys import key_is_safe, make_key, suffixes
from citekit.library.merge import fill_gaps, merge_entries
from citekit.library.reimport import FieldChange, import_record, records_index, source_name, sync_entry
from citekit.library.store import Library
from citekit.core.lazyre import lazy


#: Entry types that BibTeX's standard styles, biblatex (with biblatex-software) or IEEEtran
#: define. Any other type BibTeX reads with a warning and prints with the style's default
#: (usually as @misc): such an entry is imported as written, with a warning.
KNOWN_ENTRY_TYPES = frozenset({
    # BibTeX's standard styles
    "article", "book", "booklet", "conference", "inbook", "incollection", "inproceedings", "manual",
    "mastersthesis", "misc", "phdthesis", "proceedings", "techreport", "unpublished",
    # biblatex, its aliases and custom types
    "artwork", "audio", "bibnote", "bookinbook", "collection", "commentary", "customa", "customb", "customc",
    "customd", "custome", "customf", "dataset", "electronic", "image", "inreference", "jurisdiction", "legal",
    "legislation", "letter", "movie", "music", "mvbook", "mvcollection", "mvproceedings", "mvreference", "online",
    "patent", "performance", "periodical", "reference", "report", "review", "set", "software", "standard",
    "suppbook", "suppcollection", "suppperiodical", "thesis", "video", "www", "xdata",
    # biblatex-software, IEEEtran's control entry
    "softwareversion", "softwaremodule", "codefragment", "ieeetranbstctl",
})


@dataclass
class ImportReport:
    """What an import did (or, in a dry run, would do), for the summary and the key maps."""

    added: list[str] = field(default_factory=list)
    #: incoming entries identical to one already there: (incoming key, the entry it duplicates)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: skipped entries that gave the library's record of the work what it lacked: (incoming key, the entry filled, fields)
    filled: list[tuple[str, str, list[str]]] = field(default_factory=list)
    #: incoming key -> key it got (its own key belonged to another work, or it was merged)
    import_map: dict[str, str] = field(default_factory=dict)
    #: library key -> surviving key, for library entries merged into another (refs/keymap.yaml)
    key_map: dict[str, str] = field(default_factory=dict)
    #: works the library already had, merged with the import: (incoming keys, into, reason)
    merged: list[tuple[list[str], str, str]] = field(default_factory=list)
    #: several records of one work inside the imported files, merged into one entry
    merged_in_file: list[tuple[list[str], str, str]] = field(default_factory=list)
    #: same-work candidates left as separate entries (merge them with --merge): (keys, would keep, reason)
    candidates: list[tuple[list[str], str, str]] = field(default_factory=list)
    #: versions of one work (a workshop paper and its conference paper...): linked, never merged here
    versions: list[tuple[list[str], str, str]] = field(default_factory=list)
    #: entries not imported because an earlier entry of the same file has their key: (key, "file:line")
    duplicate_keys: list[tuple[str, str]] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)  # subset of import_map: taken keys
    #: subset of import_map: keys with characters BibTeX or LaTeX cannot take
    unsafe_keys: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    #: problems already reported by an import of the same, unchanged files (said once, not findings)
    problems_before: list[Problem] = field(default_factory=list)
    #: library keys of the entries a re-import synced with their file (changed or not)
    synced: list[str] = field(default_factory=list)
    #: fields a re-import took from the file (added, changed or removed there)
    updated: list[FieldChange] = field(default_factory=list)
    #: fields both the file and citekit changed since the last import: citekit's value kept
    kept: list[FieldChange] = field(default_factory=list)
    #: entries last imported from a file that no longer has them: (library key, file, key in the file)
    gone: list[tuple[str, str, str]] = field(default_factory=list)

    def extend(self, other: "ImportReport") -> None:
        for name in ("added", "skipped", "filled", "duplicate_keys", "merged", "merged_in_file", "candidates", "versions",
                     "problems", "problems_before", "synced", "updated", "kept", "gone"):
            getattr(self, name).extend(getattr(other, name))
        for name in ("import_map", "key_map", "renamed", "unsafe_keys"):
            getattr(self, name).update(getattr(other, name))

    @property
    def findings(self) -> bool:
        """Something the user should look at: unmerged candidates, entries that could not be read,
        fields a re-import kept as citekit has them although the file changed them too.

        Entries skipped because the library already holds them word for word are not findings:
        importing the same file twice is done and leaves nothing to act on. Nor are the
        problems of a file already reported for the same content (``problems_before``). Nor are a
        re-import's changes, or entries the file no longer has (a daily re-import of an
        auto-export must not fail for them); a field both sides changed is, once: the
        user may want the file's value.
        """
        return bool(self.candidates or self.problems or self.kept)

    @property
    def unchanged(self) -> int:
        """Entries synced with their file that neither side changed."""
        touched = {c.key for c in self.updated} | {c.key for c in self.kept}
        return sum(1 for key in self.synced if key not in touched)

    def to_json(self) -> dict[str, object]:
        def groups(items: list[tuple[list[str], str, str]]) -> list[dict[str, object]]:
            return [{"keys": keys, "kept": kept, "reason": reason} for keys, kept, reason in items]

        return {
            "added": self.added,
            "skipped": [{"key": k, "duplicate_of": d} for k, d in self.skipped],
            "filled": [{"key": k, "into": into, "fields": names} for k, into, names in self.filled],
            "duplicate_keys": [{"key": k, "where": w} for k, w in self.duplicate_keys],
            "renamed": self.renamed, "unsafe_keys": self.unsafe_keys,
            "merged": groups(self.merged) + groups(self.merged_in_file),
            "candidates": groups(self.candidates), "versions": groups(self.versions),
            "problems": [str(p) for p in self.problems],
            "problems_before": [str(p) for p in self.problems_before],
            "updated": [c.to_json() for c in self.updated],
            "conflicts": [c.to_json() for c in self.kept],
            "removed_from_file": [{"key": k, "file": f, "file_key": fk} for k, f, fk in self.gone],
            "unchanged": self.unchanged,
        }


def free_key(key: str, taken: Iterable[str], *, lowered: set[str] | None = None) -> str:
    """``key`` itself if free, else the first of ``key``+a, +b, ... that is (case-insensitive).

    ``lowered``, the taken keys already lower-cased, saves rebuilding that set for every
    entry of a large import.
    """
    if lowered is None:
        lowered = {t.lower() for t in taken}
    if key.lower() not in lowered:
        return key
    for suffix in suffixes():
        if (key + suffix).lower() not in lowered:
            return key + suffix
    raise RuntimeError(f"no free key for {key!r}")


def safe_key(key: str) -> str:
    """``key`` with what the .bib writer refuses taken out (``O'Reilly:1994`` -> ``OReilly:1994``).

    Accents are folded to their base letter so ``Müller2019`` keeps reading as a name;
    anything else outside letters, digits and ``_:./+-`` is dropped. May return "".
    """
    folded = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^A-Za-z0-9_:./+\-]", "", folded)




def import_entries(lib: Library, incoming: Sequence[Entry], source: str = "import", *, merge: bool = False,
                   precedence: Sequence[str] | None = None, listed: bool = True, index: Any = None) -> ImportReport:
    """Add ``incoming`` (in file order) to ``lib``; the caller saves the library (or not, in a dry run).

    An entry identical to one already there is skipped and counted (its key, if
    different, becomes an alias of that entry). Entries that look like the same work as
    others are listed as candidates and added as they are; only ``merge=True`` merges
    them, into the library's entry when it has the work. Versions of one work (a
    workshop paper and the conference paper) are listed and never merged here.

    ``listed=False`` (``add`` of pasted BibTeX, which reads only what was added or
    skipped): candidates and versions are not listed, so on a cached load the incoming
    entries are compared only with the library entries that could make one of them
    skipped (:func:`_skip_candidates`), not with all of them. ``index``: the library's
    match index as loaded, which the entries added are filed in (the sync that follows
    matches with it).
    """
    report = ImportReport()
    if not incoming:
        return report  # (a re-import synced every entry: the library's own duplicates are dedup's to list)
    if not listed and not merge and getattr(lib, "is_lazy", None) is not None and lib.is_lazy() \
            and all(e.title.strip() for e in incoming):
        return _import_few(lib, incoming, source, report, index)
    existing = list(lib.entries.values())
    n_lib = len(existing)
    reserved = lib.taken_keys() | {e.key for e in incoming}  # the file's own keys stay as they are
    incoming = [_with_key(e, reserved, source, report) for e in incoming]
    _take_tags_and_aliases(lib, incoming, source, report)
    everything = existing + list(incoming)
    matches = find_matches(everything)
    taken_lower = {k.lower() for k in lib.taken_keys()}
    skipped = _skip_identical(lib, everything, n_lib, matches, report, taken_lower)
    same = [m for m in matches if m.kind == "same" and m.a not in skipped and m.b not in skipped]
    analysis = analyse_matches(everything, same, [m for m in matches if m.kind == "versions"], precedence)
    clustered: set[int] = set()
    listed = []
    for cluster in analysis.clusters:
        members = cluster.indices
        if all(i < n_lib for i in members):
            continue  # works entered twice in the library already: `citekit dedup` reports those
        if not merge:
            listed.append(cluster)
            continue
        clustered.update(members)
        _import_cluster(lib, [everything[i] for i in members], [i < n_lib for i in members], cluster.reason,
                        source, report, taken_lower, precedence)
    for i, entry in enumerate(incoming, start=n_lib):
        if i not in clustered and i not in skipped:
            _add_new(lib, entry, source, report, taken_lower)
    # listed under the keys the entries have now (after renames)
    for cluster in listed:
        kept = everything[cluster.indices[cluster.keys.index(cluster.kept)]].key
        report.candidates.append(([everything[i].key for i in cluster.indices], kept, cluster.reason))
    for group in analysis.versions:
        if any(i >= n_lib for i in group.indices) and not all(i in clustered for i in group.indices):
            kept = everything[group.indices[group.keys.index(group.kept)]].key
            report.versions.append(([everything[i].key for i in group.indices], kept, group.reason))
    for key in report.added if index is not None else ():  # (merge=False: no other entry changed what it is filed under)
        added = lib.entry_at(key)
        if added is not None:
            index.add(added)
    return report


def _import_few(lib: Library, incoming: Sequence[Entry], source: str, report: ImportReport,
                index: Any = None) -> ImportReport:
    """:func:`import_entries` with ``listed=False`` on a cached load: each incoming entry is
    skipped or added exactly as there, found among the few library entries it could be
    skipped for (the same folded title or identifier: an identical entry; its own key or
    alias: the same work imported before), so the other entries are never decoded."""
    taken = lib.taken_keys()  # (walked once here: the library does not change until _add_new)
    reserved = taken | {e.key for e in incoming}
    incoming = [_with_key(e, reserved, source, report) for e in incoming]
    lowered = {k.lower(): k for k in taken}
    _take_tags_and_aliases(lib, incoming, source, report, lowered)
    index = index if index is not None else _library_index(lib)
    nearby = _skip_candidates(lib, incoming, index)
    everything = nearby + list(incoming)
    n_lib = len(nearby)
    matches = find_matches(everything)
    taken_lower = set(lowered)
    skipped = _skip_identical(lib, everything, n_lib, matches, report, taken_lower)
    for i, entry in enumerate(incoming, start=n_lib):
        if i not in skipped:
            _add_new(lib, entry, source, report, taken_lower)
            index.add(entry)
    return report


def _library_index(lib: Library) -> Any:
    from citekit.library.match_index import library_index

    return library_index(lib)


def _skip_candidates(lib: Library, incoming: Sequence[Entry], index: Any) -> list[Entry]:
    """The library entries an incoming entry could be skipped for, in library order: those
    filed under its folded title or an identifier in the kept match index, and the one
    that answers to its key."""
    from citekit.core.text import normalize_title

    found: dict[int, Entry] = {}
    for entry in incoming:
        filed = [("title", normalize_title(entry.title))] + [("id", item) for item in entry.ids.items()]
        for item in filed:
            for other in index.filed_under(item):
                found[id(other)] = other
        owner = lib.get(entry.key) or lib.get_any_case(entry.key)
        if owner is None:
            lowered = entry.key.lower()
            owner_key = next((k for k, aliases in lib.aliases_by_key().items()
                              if any(a.lower() == lowered for a in aliases)), None)
            owner = lib.entry_at(owner_key) if owner_key else None
        if owner is not None:
            found[id(owner)] = owner
    if len(found) < 2:  # (library order only to sort several)
        return list(found.values())
    place = {k: i for i, k in enumerate(lib.keys())}
    return sorted(found.values(), key=lambda e: place.get(e.key, len(place)))


def _skip_identical(lib: Library, everything: Sequence[Entry], n_lib: int, matches: Sequence[Match],
                    report: ImportReport, taken_lower: set[str]) -> set[int]:
    """Incoming entries already there: identical to an earlier one (in the library, or earlier
    in the import), or the same work as a library entry that already answers to their key
    (a file imported and merged before, imported again)."""
    first_of: dict[int, int] = {}
    for m in matches:
        if m.b < n_lib:
            continue
        if m.reason == "identical entries":
            first_of[m.b] = min(first_of.get(m.b, m.a), m.a)
        elif m.kind == "same" and m.a < n_lib:
            lib_entry = everything[m.a]
            if everything[m.b].key.lower() in {k.lower() for k in (lib_entry.key, *lib_entry.aliases)}:
                first_of[m.b] = m.a
    skipped: set[int] = set()
    for i in sorted(first_of):
        target = first_of[i]
        while target in first_of:  # a copy of a copy: the first one stands
            target = first_of[target]
        entry, kept = everything[i], everything[target]
        skipped.add(i)
        filled = fill_gaps(kept, entry)  # the same work met again: what the library's record lacks, never the user's
        if filled:
            report.filled.append((entry.key, kept.key, filled))
        if target < n_lib and entry.import_record and (
                not kept.import_record or kept.import_record.get("file") == entry.import_record.get("file")):
            kept.import_record = entry.import_record  # the file's record of it, from now on (its key there may be new)
        report.skipped.append((entry.key, kept.key))
        if entry.key != kept.key:
            report.import_map[entry.key] = kept.key
            if entry.key.lower() not in taken_lower:
                kept.aliases.append(entry.key)  # keys never break: the duplicate's key leads to the kept entry
                taken_lower.add(entry.key.lower())
                if lib.entry_at(kept.key) is not None:
                    lib.issued_keys.add(entry.key)
    return skipped


def import_files(lib: Library, paths: Iterable[Path], *, strings: Iterable[Path] = (), merge: bool = False,
                 precedence: Sequence[str] | None = None, root: Path | None = None, follow: bool = True,
                 listed: bool = True, index: Any = None) -> ImportReport:
    """Import several .bib files in order; parse problems are reported, never fatal.

    ``@string`` macros are shared across the files in the order given, as ``bibtex``
    reads ``\\bibliography{strings,refs}``: a macro file first, then the files that use
    it. ``strings`` are macro files read before all of them (their entries are ignored).
    All entries are imported together, so duplicates across files are found too. A file
    imported before (the same path, relative to the project ``root`` or the home folder;
    default root: the folder holding refs/) is synced with the entries it gave
    (:mod:`citekit.library.reimport`); with ``follow=False`` the files are not remembered
    (text pasted into ``add`` came from no file a later import could sync with).
    """
    with collector_paused():  # thousands of entries, records and matches, none in a cycle
        return _import_files(lib, paths, strings=strings, merge=merge, precedence=precedence,
                             root=root if root is not None else lib.refs_dir.parent, follow=follow, listed=listed,
                             index=index)


def _import_files(lib: Library, paths: Iterable[Path], *, strings: Iterable[Path], merge: bool,
                  precedence: Sequence[str] | None, root: Path, follow: bool, listed: bool = True,
                  index: Any = None) -> ImportReport:
    paths, strings = list(paths), list(strings)  # (walked twice: read, then the problems put in file order)
    total = ImportReport()
    macros = Macros()
    for path in strings:
        parsed = read_bib_file(Path(path), macros=macros)
        total.problems.extend(p for p in parsed.problems if "undefined macro" in p.message or "@string" in p.message)
    entries: list[Entry] = []
    sources: list[str] = []
    in_file: dict[str, set[str]] = {}
    keyless: list[tuple[Entry, str, int]] = []  # entries with no key: what key each got is said after the import
    for path in paths:
        parsed = read_bib_file(Path(path), macros=macros)
        name = Path(path).name
        total.problems.extend(parsed.problems)
        total.problems.extend(unknown_types(parsed, str(path)))
        total.problems.extend(untitled(parsed, str(path)))
        keyless.extend((entry, str(path), line) for entry, line in zip(parsed.entries, parsed.lines)
                       if not entry.key.strip())
        total.duplicate_keys.extend((key, f"{name}:{line}") for key, line in parsed.duplicates)
        if not follow:
            entries.extend(parsed.entries)
            sources.append(name)
            continue
        source = source_name(Path(path), root)
        in_file.setdefault(source, set()).update(e.key.lower() for e in parsed.entries)
        in_file[source].update(key.lower() for key, _line in parsed.duplicates)
        # an entry the file still has but that could not be read is warned about, not gone
        in_file[source].update(m.group(1).lower() for raw in parsed.unparsed
                               if (m := _BLOCK_KEY.match(raw.lstrip())) is not None)
        entries.extend(_sync_known(lib, parsed.entries, source, total))
        sources.append(name)
    report = import_entries(lib, entries, source=", ".join(sources) or "import", merge=merge, precedence=precedence,
                            listed=listed, index=index)
    total.extend(report)
    total.problems.extend(Problem(file, line, f"@{entry.entry_type} with no key: given the key '{entry.key}'; write it "
                                  "after the '{' in the file so that a paper can cite it and a re-import finds it")
                          for entry, file, line in keyless)
    _in_file_order(total.problems, [str(p) for p in (*strings, *paths)])
    for entry in lib.entries.values() if in_file else ():
        record = entry.import_record
        if record and record.get("file") in in_file and str(record.get("key", "")).lower() not in in_file[record["file"]]:
            total.gone.append((entry.key, record["file"], str(record.get("key", ""))))
    return total


#: the key at the head of a block of .bib text (``@article{key,``)
_BLOCK_KEY = lazy(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)\s*,")


def _sync_known(lib: Library, entries: Sequence[Entry], file: str, report: ImportReport) -> list[Entry]:
    """Sync the entries of ``file`` that the library imported from it before; returns the others.

    An entry was imported from the file before when a library entry's import record names
    the file and the key (whatever the entry's key became: a taken key got a suffix). An
    entry imported by a citekit that kept no records is recognised by its key, its origin
    and being the same work. Each of the others is given its record, for the next time.
    """
    known = records_index(lib.entries.values(), file)
    rest: list[Entry] = []
    for incoming in entries:
        target = known.pop(incoming.key.lower(), None) if incoming.key else None
        if target is None and incoming.key:
            target = _imported_without_record(lib, incoming)
        if target is None:
            incoming.import_record = import_record(incoming, file, tags=[])  # its tags: _take_tags_and_aliases
            rest.append(incoming)
            continue
        changes = sync_entry(target, incoming, file)
        report.synced.append(target.key)
        report.updated.extend(c for c in changes if not c.kept)
        report.kept.extend(c for c in changes if c.kept)
    return rest


def _imported_without_record(lib: Library, incoming: Entry) -> Entry | None:
    """The library entry under ``incoming``'s key, imported before import records were kept,
    when it is the same work (a key alone could name another work in another file)."""
    entry = lib.entries.get(incoming.key)
    if entry is None or entry.import_record or entry.origin != "import":
        return None
    from citekit.matching.works import is_same_work

    return entry if is_same_work(entry, incoming) else None


def unknown_types(parsed: BibParseResult, name: str) -> list[Problem]:
    """A warning for each entry whose type no standard style defines: it is imported as
    written (BibTeX reads it too, with a warning), never a reason to refuse the file."""
    return [Problem(name, line, f"entry '{entry.key}': @{entry.entry_type} is not a BibTeX or biblatex entry "
                    "type; imported as written (BibTeX styles print it as their default type, with a warning): "
                    "change it to a standard type such as @misc if that is what you meant")
            for entry, line in zip(parsed.entries, parsed.lines) if entry.entry_type not in KNOWN_ENTRY_TYPES]


#: entry types with no title to speak of (IEEEtran's control entry, biblatex's data and set containers)
_TITLELESS_TYPES = frozenset({"ieeetranbstctl", "xdata", "set"})


def untitled(parsed: BibParseResult, name: str) -> list[Problem]:
    """A warning for each entry with no title: it is imported as written (the user's file
    says so), but no style prints a reference without one, and nothing can tell which work
    it is (an import, ``dedup`` and ``upgrade`` find the same work by its title)."""
    return [Problem(name, line, f"entry '{entry.key or '(no key)'}' has no title: imported without one; add its title "
                    "in the file and import it again")
            for entry, line in zip(parsed.entries, parsed.lines)
            if not entry.fields.get("title", "").strip() and entry.entry_type not in _TITLELESS_TYPES
            and not entry.fields.get("crossref", "").strip()]


def _in_file_order(problems: list[Problem], files: Sequence[str]) -> None:
    """Sort ``problems`` in place by file (in the order given) and line, so each file's
    problems read top to bottom; problems of no file or line keep their place after them."""
    order = {name: i for i, name in enumerate(files)}
    problems.sort(key=lambda p: (order.get(p.file, len(order)), p.line or 0))


def _with_key(entry: Entry, reserved: set[str], source: str, report: ImportReport) -> Entry:
    """The entry with a key the writer accepts: made up when missing, cleaned when unsafe.

    One odd key (``O'Reilly:1994``, ``[NOTITLE]2017``) must not stop a whole import; the
    rename goes to the import key map like any other, so the paper can be rekeyed. The
    new key avoids every key of the file too: those are cited as they are, and keep
    priority over a key that has to change anyway. ``reserved`` grows with each new key.
    """
    if not entry.key.strip():
        entry.key = make_key(entry, reserved)
    elif not key_is_safe(entry.key):
        old = entry.key
        cleaned = safe_key(old)
        entry.key = free_key(cleaned, reserved) if cleaned else make_key(entry, reserved)
        entry.reason = f"imported from {source} as '{old}' (a key BibTeX or LaTeX cannot take)"
        report.unsafe_keys[old] = entry.key
        report.import_map[old] = entry.key
    reserved.add(entry.key)
    return entry


def _take_tags_and_aliases(lib: Library, incoming: Sequence[Entry], source: str, report: ImportReport,
                           taken: dict[str, str] | None = None) -> None:
    """Turn each record's ``keywords`` into manual tags and its ``ids`` into aliases.

    citekit derives both fields from the sidecar when it writes library.bib, so left in
    the fields they would be dropped. An alias that is already another entry's key or
    alias is skipped (one old key cannot lead to two works) and reported.
    """
    from citekit.library.tags import tags_from_keywords

    # key or alias -> the key it leads to (``taken``: the library's taken keys so, lower-cased, when the caller has them)
    claimed = dict(taken) if taken is not None else {k.lower(): k for k in lib.taken_keys()}
    claimed.update({a.lower(): key for key, aliases in lib.aliases_by_key().items() for a in aliases})
    claimed.update({e.key.lower(): e.key for e in incoming})
    for entry in incoming:
        tags = set(entry.tags_added)
        keywords = entry.fields.pop("keywords", "")
        if keywords:  # most records carry neither field: nothing to split then
            from_file = tags_from_keywords(keywords)
            tags.update(from_file)
            if entry.import_record and from_file:
                entry.import_record["tags"] = from_file  # what a re-import compares the file's tags with
        entry.tags_added = sorted(tags)
        aliases = list(entry.aliases)
        ids = entry.fields.pop("ids", "")
        for alias in split_ids(ids) if ids else ():
            if not alias or alias.lower() == entry.key.lower() or alias in aliases:
                continue
            owner = claimed.get(alias.lower())
            if owner is not None and owner != entry.key:
                report.problems.append(Problem(source, None, f"alias '{alias}' of '{entry.key}' skipped: it is already "
                                               f"the key or an alias of '{owner}'; cite that entry by '{alias}'"))
            elif not key_is_safe(alias):
                report.problems.append(Problem(source, None, f"alias '{alias}' of '{entry.key}' skipped: BibTeX and LaTeX "
                                               f"cannot take that key; cite the entry as '{entry.key}'"))
            else:
                aliases.append(alias)
                claimed[alias.lower()] = entry.key
        entry.aliases = aliases


def _import_cluster(lib: Library, group: list[Entry], in_lib: list[bool], reason: str, source: str,
                    report: ImportReport, taken_lower: set[str], precedence: Sequence[str] | None) -> None:
    """Merge one work's incoming entries (and the library's, if it has the work) into one.

    ``taken_lower`` (every key and alias in use, lower-cased) is kept up to date here, so
    a large import does not rebuild it for every cluster.
    """
    lib_entries = [e for e, flag in zip(group, in_lib) if flag]
    new_entries = [e for e, flag in zip(group, in_lib) if not flag]
    own = {k.lower() for e in lib_entries for k in (e.key, *e.aliases)}
    if lib_entries:
        keep = choose_survivor(lib_entries, precedence).key  # an import never displaces a library key
    else:
        first = choose_survivor(new_entries, precedence)
        keep = free_key(first.key, (), lowered=taken_lower)
        if keep != first.key:
            report.renamed[first.key] = keep
            report.import_map[first.key] = keep
            first.reason = f"imported from {source} as '{first.key}' (that key belongs to another work)"
            first.key = keep
    # an incoming key that names a different work in the library cannot be an alias here
    foreign = {e.key for e in new_entries
               if e.key != keep and e.key.lower() in taken_lower and e.key.lower() not in own}
    result = merge_entries(group, key=keep, reason=reason, precedence=precedence)
    merged = result.entry
    merged.aliases = [a for a in merged.aliases if a not in foreign]
    for entry in lib_entries:
        if entry.key != keep:
            lib.remove(entry.key)
            report.key_map[entry.key] = keep
    for entry in new_entries:
        if entry.key != keep:
            report.import_map[entry.key] = keep
        if entry.key in foreign:
            report.renamed[entry.key] = keep
    if keep in lib.entries:
        lib.entries[keep] = merged
        lib.issued_keys.update(merged.aliases)
    else:
        lib.add(merged)
        report.added.append(keep)
    taken_lower.update(k.lower() for k in (keep, *merged.aliases))
    record = ([e.key for e in new_entries], keep, reason)
    (report.merged if lib_entries else report.merged_in_file).append(record)


def _add_new(lib: Library, entry: Entry, source: str, report: ImportReport, taken_lower: set[str]) -> None:
    """Add a work the library does not have; ``taken_lower`` is kept up to date."""
    key = free_key(entry.key, (), lowered=taken_lower)
    if key != entry.key:
        report.import_map[entry.key] = key
        report.renamed[entry.key] = key
        entry.reason = f"imported from {source} as '{entry.key}' (that key belongs to another work)"
        entry.key = key
    entry.origin = "import"
    entry.status = "imported"  # nothing online has confirmed it yet: `citekit upgrade` does
    lib.add(entry)
    taken_lower.add(key.lower())
    if entry.aliases:
        taken_lower.update(a.lower() for a in entry.aliases)
    report.added.append(key)
