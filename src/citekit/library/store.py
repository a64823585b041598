"""The library on disk: ``refs/library.bib`` plus the ``refs/library.yaml`` sidecar.

``library.bib`` is what LaTeX reads and what users edit; the sidecar holds what BibTeX
cannot (status, identifiers, tags, summaries, mentions, versions, provenance) and a copy of
what citekit itself last wrote for every field. Comparing the two on load is how a hand
edit is recognised: such fields are listed in ``Entry.hand`` and no later sync touches them.

Both files are written atomically (temporary file, fsync, rename), entries sorted by key
and fields in a fixed order, so an unchanged library is rewritten byte for byte.
"""

from __future__ import annotations

import marshal
import operator
import os
import re
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from citekit.core import cachefile
from citekit.core.cachefile import stat_key
from citekit.core.config import display_path
from citekit.core.model import Entry, Ids, Location
from citekit.library import parsed_cache
from citekit.bibtex.collector import collector_paused
from citekit.library.errors import LibraryError
from citekit.library.journal import Transaction, journal_path, read_view, stale_temps

if TYPE_CHECKING:
    from citekit.bibtex.reader import Problem

# PyYAML, the BibTeX reader and writer (pylatexenc) load only when refs/ is parsed or
# written: a command reading a fresh parsed-library cache needs none of them.

#: 2: per-entry blocks, ``bib_checksum`` pairing it with library.bib, an end line, and
#: ``issued_keys`` holding only keys no entry, alias or detached record implies.
#: 3: each record's parts as JSON lines (:mod:`.sidecar_json`), unknown ids, empty tag
#: lists and empty mentions left out. Files of versions 1 and 2 are read as they are.
SIDECAR_VERSION = 3
#: the line that says a sidecar was written whole (format 2 on): it must end with SIDECAR_END
_MARKED = "# citekit-sidecar: "
SIDECAR_MARK = f"{_MARKED}{SIDECAR_VERSION}"
SIDECAR_HEAD = (
    "# citekit sidecar: what BibTeX cannot hold (status, ids, tags, summaries, provenance).\n"
    "# Safe to edit 'summary' and 'tags: added/removed' by hand; keep the rest as citekit wrote it.\n"
    f"{SIDECAR_MARK}\n"
)
SIDECAR_END = "# end of citekit sidecar\n"
_SPLIT_RETRIES = 4
# The safe loader and dumper, in C when libyaml is present: a 7,000-entry sidecar loads in
# 2.4 s instead of 20 s. Both build only plain data (no arbitrary objects), exactly like
# yaml.safe_load/safe_dump, and the C dumper writes the same bytes as the Python one.


def _yaml() -> tuple[Any, Any, Any]:
    """(yaml, safe loader, safe dumper), imported on first use."""
    import yaml

    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader), getattr(yaml, "CSafeDumper", yaml.SafeDumper)


BIB_HEADER = (
    "Written by citekit from the notes; edit freely: hand edits are kept by every sync.\n"
    "Tags, summaries and status live in library.yaml beside this file."
)
#: fields citekit derives from the sidecar on every write rather than storing in Entry.fields
DERIVED_FIELDS = ("keywords", "ids")
#: key under which ``Entry.generated`` remembers the entry type citekit wrote
TYPE_MARK = "@type"
CHECKSUM_MARK = "% citekit-checksum: "
#: the line above the blocks citekit could not read, which it writes at the end of library.bib
UNPARSED_MARK = "% citekit could not read the blocks below; they are kept verbatim. Fix them and run again."


def _checksum(body: str) -> str:
    return cachefile.sha256(body.encode("utf-8")).hexdigest()[:16]


def _checksum_ok(text: str) -> bool:
    """Whether library.bib is exactly as citekit wrote it (its checksum line still matches)."""
    at = text.find(CHECKSUM_MARK)
    if at < 0:
        return False
    line_end = text.find("\n", at)
    if line_end < 0 or text[line_end + 1:line_end + 2] != "\n":
        return False
    return text[at + len(CHECKSUM_MARK):line_end].strip() == _checksum(text[line_end + 2:])


def _stated_checksum(text: str | None) -> str | None:
    """The checksum library.bib's header says it was written with (hand edits keep the line)."""
    if not text:
        return None
    at = text.find(CHECKSUM_MARK, 0, 2000)
    if at < 0:
        return None
    end = text.find("\n", at)
    return text[at + len(CHECKSUM_MARK):end if end >= 0 else None].strip() or None


class _SplitPair(Exception):
    """library.bib and the sidecar were not written together."""


def _recover_if_free(refs: Path) -> None:
    """Finish an interrupted write and delete stale temporaries when no writer is at work.

    Readers never wait: if a writer holds the lock, they read through its journal instead.
    """
    if not (journal_path(refs).exists() or stale_temps(refs)):
        return
    from citekit.library.lock import LockBusy, ProjectLock

    try:
        with ProjectLock(refs, "recovery", wait=0):
            pass  # taking the lock recovers
    except (LockBusy, OSError):
        pass


def _read_pair(refs: Path) -> tuple[bytes | None, bytes | None]:
    """Both files' bytes; while a writer switches them in, through its journal."""
    view = read_view(refs)
    out: list[bytes | None] = []
    for name in ("library.bib", "library.yaml"):
        target = (refs / name).absolute()
        data = None
        for candidate in (view.get(target), target):
            if candidate is None:
                continue
            try:
                data = candidate.read_bytes()
                break
            except FileNotFoundError:
                continue
        out.append(data)
    return out[0], out[1]


def fingerprint_now(refs: Path) -> tuple[Any, ...]:
    """Both files' fingerprint as they are now: from their stat when it is exactly as when
    they were last hashed, else by reading them."""
    if not journal_path(refs).exists():
        known = parsed_cache.known_fingerprint(refs, parsed_cache.stat_pair(refs))
        if known is not None:
            return known
    bib_data, side_data = _read_pair(refs)
    return parsed_cache.fingerprint(bib_data, side_data)


#: "not read yet" (a stored load may be None: there is none)
_UNREAD = object()


class _StoredCache(NamedTuple):
    """What a library knows of the parsed-library cache it was read from or last stored."""

    fingerprint: tuple[Any, ...]
    keys: list[str]
    meta: dict[str, Any]
    all_texts: bool  # every entry's rendered texts are stored
    stat: Any  # the cache file's stat_key then (another process may replace it)


@dataclass
class Library:
    """All entries of a project's ``refs/`` folder, keyed by citation key."""

    refs_dir: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    issued_keys: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    #: raw text of blocks that could not be parsed: written back verbatim so nothing is lost
    unparsed: list[str] = field(default_factory=list)
    #: the values of library.bib's ``@preamble`` blocks, for reading: the blocks themselves
    #: are written back as kept text (below), where they stood
    preamble: list[str] = field(default_factory=list)
    #: what the user wrote in library.bib outside entries (comments, ``@comment``,
    #: ``@string`` and ``@preamble`` blocks, stray lines), as written, so a write keeps it:
    #: the text above the first entry (citekit's header aside), the text above each later
    #: entry (by key: it moves with its entry when the library is re-sorted), the text
    #: after the last entry (see :func:`_kept_texts`)
    kept_head: str = ""
    kept_before: dict[str, str] = field(default_factory=dict)
    kept_tail: str = ""
    #: what the last render did with kept text whose entry is gone (one line each)
    kept_moves: list[str] = field(default_factory=list)
    #: mentions with no title yet (abstracts, bare URLs), waiting for an online sync
    pending: list[dict[str, Any]] = field(default_factory=list)
    #: write library.bib with LaTeX escapes instead of UTF-8 (remembered in the sidecar)
    ascii: bool = False
    #: sidecar records whose entry is missing from library.bib (deleted by hand, or
    #: unreadable): kept, so their keys and metadata come back when the entry does
    detached: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: key -> (library.bib text, sidecar text) of each entry as last rendered; valid while
    #: the entry equals its state in ``_state_blobs`` (both are refreshed by a write)
    _chunks: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False, compare=False)
    #: the same, still marshalled as read from the cache (decoded when written)
    _chunk_blobs: Mapping[str, bytes] = field(default_factory=dict, repr=False, compare=False)
    #: each entry's state as loaded from the cache: an entry still equal to it needs no work
    _state_blobs: Mapping[str, bytes] = field(default_factory=dict, repr=False, compare=False)
    #: the same, never altered: what stored memo values were derived from
    _loaded_blobs: Mapping[str, bytes] = field(default_factory=dict, repr=False, compare=False)
    _loaded_ascii: bool = field(default=False, repr=False, compare=False)
    _fingerprint: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    #: kind -> key -> a value derived from the entry (e.g. its JSON), kept in the cache
    _memos: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    #: memo tables read but not decoded: kind -> (marshalled table, keys no longer valid)
    _memo_raw: dict[str, tuple[bytes, set[str]]] = field(default_factory=dict, repr=False, compare=False)
    #: kinds with values computed since the load (stored by :meth:`keep_memos`)
    _memos_dirty: set[str] = field(default_factory=set, repr=False, compare=False)
    #: stored memo tables may exist for this load (read on first use)
    _memos_pending: bool = field(default=False, repr=False, compare=False)
    #: the memo generation of the cache and its change log (see parsed_cache.read_memo)
    _memo_base: str | None = field(default=None, repr=False, compare=False)
    _memo_log: list[tuple[str, list[str]]] = field(default_factory=list, repr=False, compare=False)
    #: a cached load's entries, still marshalled: ``entries`` decodes them all on first use,
    #: :meth:`get`, :meth:`keys` and :meth:`memo_table` only what they need (None: decoded)
    _lazy: Mapping[str, bytes] | None = field(default=None, repr=False, compare=False)
    _lazy_aliases: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _lazy_keys: list[str] = field(default_factory=list, repr=False, compare=False)
    _lazy_lower: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _lazy_alias_lists: list[tuple[str, str]] = field(default_factory=list, repr=False, compare=False)
    _decoded: dict[str, Entry] = field(default_factory=dict, repr=False, compare=False)

    def __getattr__(self, name: str) -> Any:
        # only reached for attributes not set: ``entries`` of a cached load not decoded yet
        if name == "entries" and self.__dict__.get("_lazy") is not None:
            return self._decode_all()
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _decode_all(self) -> dict[str, Entry]:
        """Every entry of a cached load, reusing those decoded one at a time before."""
        lazy, decoded = self.__dict__["_lazy"], self._decoded
        if hasattr(lazy, "preload") and len(lazy) > len(decoded):
            lazy.preload()
        with collector_paused():
            entries = {key: decoded.get(key) or _entry_from_state(key, marshal.loads(blob))
                       for key, blob in lazy.items()}
        self.__dict__["entries"] = entries
        self._lazy = None
        self._decoded = {}
        return entries

    def _is_lazy(self) -> bool:
        return "entries" not in self.__dict__ and self.__dict__.get("_lazy") is not None

    def _current(self, key: str) -> Entry | None:
        """The entry object under ``key`` if one exists in memory (decoding nothing)."""
        if self._is_lazy():
            return self._decoded.get(key)
        return self.entries.get(key)

    def entry_at(self, key: str) -> Entry | None:
        """The entry under exactly ``key`` (no alias), decoding only it from a cached load."""
        if not self._is_lazy():
            return self.entries.get(key)
        entry = self._decoded.get(key)
        if entry is None and key in self._lazy:
            entry = self._decoded[key] = _entry_from_state(key, marshal.loads(self._lazy[key]))
        return entry

    def keys(self) -> list[str]:
        """Every key, in the library's order, without decoding a cached load's entries."""
        return list(self._lazy_keys) if self._is_lazy() else list(self.entries)

    def sorted_keys(self) -> list[str]:
        """Keys in the order of :meth:`sorted_entries`."""
        return sorted(self.keys(), key=str.lower)

    # ---- paths -------------------------------------------------------------------------
    @property
    def bib_path(self) -> Path:
        return self.refs_dir / "library.bib"

    @property
    def sidecar_path(self) -> Path:
        return self.refs_dir / "library.yaml"

    # ---- lookups -----------------------------------------------------------------------
    def get(self, key: str) -> Entry | None:
        """The entry for a key or for one of its aliases (old keys of merged entries).

        On a cached load only that entry is decoded (``show``, ``check`` and ``export
        --aux`` read a few entries of thousands).
        """
        if self._is_lazy():
            return self.entry_at(key if key in self._lazy else self._lazy_aliases.get(key, key))
        if key in self.entries:
            return self.entries[key]
        for entry in self.entries.values():
            if key in entry.aliases:
                return entry
        return None

    def get_any_case(self, key: str) -> Entry | None:
        """:meth:`get`, else the entry whose key differs only in case (BibTeX's view)."""
        found = self.get(key)
        if found is not None:
            return found
        if self._is_lazy():
            if self._lazy_lower is None:  # only after a miss: most look-ups name the key as it is
                self._lazy_lower = {k.lower(): k for k in reversed(self._lazy_keys)}
            return self.entry_at(self._lazy_lower.get(key.lower(), ""))
        lowered = key.lower()
        return next((e for k, e in self.entries.items() if k.lower() == lowered), None)

    def aliases_by_key(self) -> dict[str, list[str]]:
        """key -> its aliases, for entries that have some (decoding nothing on a cached load)."""
        if not self._is_lazy():
            return {k: list(e.aliases) for k, e in self.entries.items() if e.aliases}
        out: dict[str, list[str]] = {}
        for alias, key in self._lazy_alias_lists:
            if key not in self._decoded:
                out.setdefault(key, []).append(alias)
        for key, entry in self._decoded.items():  # decoded entries: as they are now
            if entry.aliases:
                out[key] = list(entry.aliases)
        return out

    def alias_map(self) -> dict[str, str]:
        """old key → surviving key, for every alias in the library."""
        return {alias: e.key for e in self.entries.values() for alias in e.aliases}

    def sorted_entries(self) -> list[Entry]:
        return [self.entries[k] for k in sorted(self.entries, key=str.lower)]

    def add(self, entry: Entry) -> None:
        if entry.key in self.entries or entry.key.lower() in self._lower_keys():
            raise LibraryError(f"key '{entry.key}' is already in the library")
        lowered = self._lower_keys()
        self.entries[entry.key] = entry
        lowered.add(entry.key.lower())
        self.__dict__["_lower_cache"][0] = len(self.entries)
        self.issued_keys.add(entry.key)
        self.issued_keys.update(entry.aliases)

    def _lower_keys(self) -> set[str]:
        """Keys in lower case (BibTeX compares keys that way); rebuilt only when the key count
        changed behind :meth:`add`'s back, so adding thousands of entries stays linear."""
        cache = self.__dict__.get("_lower_cache")
        if cache is None or cache[0] != len(self.entries):
            cache = [len(self.entries), {k.lower() for k in self.entries}]
            self.__dict__["_lower_cache"] = cache
        return cache[1]

    def remove(self, key: str) -> Entry:
        """Drop an entry; its key stays issued so it is never given to another work."""
        self.__dict__.pop("_lower_cache", None)
        return self.entries.pop(key)

    def taken_keys(self) -> set[str]:
        return (set(self.issued_keys) | set(self.entries) | set(self.detached)
                | {a for e in self.entries.values() for a in e.aliases})

    def detached_entries(self) -> list[Entry]:
        """Sidecar records whose entry is missing from library.bib, as entries (for matching).

        Built once per load: a sync asks for every work, and the records do not change.
        """
        cached = self.__dict__.get("_detached_cache")
        if cached is not None and cached[0] is self.detached:
            return cached[1]
        out = []
        for key, meta in sorted(self.detached.items()):
            entry = _from_sidecar(key, meta)
            entry.fields = {k: v for k, v in entry.generated.items() if k != TYPE_MARK and not v.startswith(HASH_MARK)}
            out.append(entry)
        self.__dict__["_detached_cache"] = (self.detached, out)
        return out

    def memo(self, kind: str, entry: Entry, compute: Callable[[Entry], Any]) -> Any:
        """``compute(entry)``, remembered in the parsed-library cache until the entry changes.

        For what read-only commands derive from every entry (plain-text titles for
        ``list --json``): the second run reads the stored value instead of converting
        LaTeX again. Values must be plain data (str, numbers, lists, dicts, None).
        """
        table = self._memo_table(kind)
        current = self._current(entry.key) is entry
        if entry.key in table and current:
            return table[entry.key]
        value = compute(entry)
        if current:
            table[entry.key] = value
            self._memos_dirty.add(kind)
        return value

    def memo_table(self, kind: str, compute: Callable[[Entry], Any]) -> dict[str, Any]:
        """key -> :meth:`memo` of every entry; on a cached load only entries without a
        stored value are decoded, so a second ``list`` or ``tags`` decodes none."""
        table = self._memo_table(kind)
        out: dict[str, Any] = {}
        lazy = self._lazy if self._is_lazy() else None
        if lazy is not None and hasattr(lazy, "preload") and len(lazy) - len(table) > 64:
            lazy.preload()  # many entries to decode: one read instead of one per entry
        with collector_paused():
            for key in self.keys():
                if key in table:
                    out[key] = table[key]
                    continue
                entry = self.entry_at(key)
                assert entry is not None
                out[key] = table[key] = compute(entry)
                self._memos_dirty.add(kind)
        return out

    def facets(self) -> dict[str, tuple[str, list[str]]]:
        """key -> (status, effective tags): what ``--tag``/``--status`` filters and ``tags``
        read, small enough to decode in milliseconds on a large library."""
        return self.memo_table("facets:1", lambda e: (e.status, e.tags))

    def _memo_table(self, kind: str) -> dict[str, Any]:
        """The stored table of one kind, read on first use; a new version of a family
        (``rule-tags:<rules hash>``) drops the old ones."""
        if kind in self._memos:
            return self._memos[kind]
        table = self._memos[kind] = {}
        raw = self._memo_raw.pop(kind, None)
        if raw is None and self._memos_pending and self._memo_base is not None:
            raw = parsed_cache.read_memo(self.refs_dir, self._memo_base, self._memo_log, kind)
        if raw is not None:
            try:
                stored = marshal.loads(raw[0])
            except (ValueError, EOFError, TypeError):
                stored = {}
            if isinstance(stored, dict):
                table.update(stored)
                for key in raw[1]:
                    table.pop(key, None)
        elif ":" in kind and self._memos_pending:
            family = kind.split(":", 1)[0] + ":"
            for old in parsed_cache.memo_kinds(self.refs_dir):
                if old.startswith(family) and old != kind:
                    parsed_cache.drop_memo(self.refs_dir, old)
            parsed_cache.drop_unreadable_memos(self.refs_dir)
        return table

    def _gather_memos(self) -> None:
        """Every stored memo table not read yet, left encoded, to carry it over to a new
        memo generation. (A write leaves the memo files alone otherwise: the change log in
        the cache says which entries they no longer hold.)"""
        if not self._memos_pending or self._memo_base is None:
            return
        for kind in parsed_cache.memo_kinds(self.refs_dir):
            if kind not in self._memos and kind not in self._memo_raw:
                raw = parsed_cache.read_memo(self.refs_dir, self._memo_base, self._memo_log, kind)
                if raw is not None:
                    self._memo_raw[kind] = (bytes(raw[0]), set(raw[1]))
        self._memos_pending = False

    def _drop_memos(self, key: str) -> None:
        """The entry under ``key`` changed: none of its derived values holds any more."""
        for table in self._memos.values():
            table.pop(key, None)
        for _blob, dropped in self._memo_raw.values():
            dropped.add(key)

    def remembered(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, a value derived from the whole library (the suggestions for a key
        it lacks), kept in the cache until any entry changes: only for a library not
        modified since it was loaded. Values must be plain data."""
        if self._memo_base is None:
            return compute()
        answers = self.__dict__.get("_answers")
        if answers is None:
            at = self._memo_log[-1][0] if self._memo_log else self._memo_base
            stored = parsed_cache.read_queries(self.refs_dir, self._memo_base, at) if self._memos_pending else None
            answers = self.__dict__["_answers"] = [at, dict(stored or {}), False]
        if name not in answers[1]:
            answers[1][name] = compute()
            answers[2] = True
        return answers[1][name]

    def keep_memos(self) -> None:
        """Store the memo tables with values computed through :meth:`memo` since the load.

        Each is written as of the cache's last change: a write that happened meanwhile
        appended a change the file predates, so its entries are dropped when read, and a
        cache rebuilt from the files is another generation that ignores it.
        """
        answers = self.__dict__.get("_answers")
        if answers is not None and answers[2] and self._memo_base is not None:
            parsed_cache.write_queries(self.refs_dir, self._memo_base, answers[0], answers[1])
            answers[2] = False
        if not self._memos_dirty or self._memo_base is None:
            return
        parsed_cache.write_memos(self.refs_dir, self._memo_base, self._memo_log,
                                 {k: self._memos[k] for k in self._memos_dirty})
        self._memos_dirty = set()

    def rendered_text(self, entry: Entry, ascii: bool, *, unchanged: bool = False) -> str | None:
        """The ``library.bib`` text of ``entry`` as last written, if it is still exactly that.

        ``export`` reuses it instead of rendering every entry again (most of its time on a
        real library): only for an entry equal to its loaded state, whose stored text was
        rendered with the same ``ascii`` choice. None means "render it yourself".
        ``unchanged``: the caller modified no entry since the load (a read-only command),
        so the comparison with the loaded state is skipped.
        """
        if ascii != self._loaded_ascii or self.ascii != self._loaded_ascii or self._current(entry.key) is not entry:
            return None
        blob = self._state_blobs.get(entry.key)
        chunk = self._chunks.get(entry.key)
        if chunk is None and entry.key in self._chunk_blobs:
            chunk = marshal.loads(self._chunk_blobs[entry.key])
        if blob is None or chunk is None or (not unchanged and marshal.loads(blob) != _entry_state(entry)):
            return None
        return chunk[0][:-1] if chunk[0].endswith("\n") else None

    def reloaded(self) -> "Library":
        """This library if both files are still the bytes it was loaded from, else a new load.

        For a writer that read before taking the lock: nothing is re-decoded when nobody
        wrote meanwhile. Only for a library not modified since it was loaded.
        """
        if self._fingerprint is not None and not journal_path(self.refs_dir).exists():
            if fingerprint_now(self.refs_dir) == self._fingerprint:
                return self
        return Library.load(self.refs_dir)

    # ---- load --------------------------------------------------------------------------
    @classmethod
    def load(cls, refs_dir: Path, *, use_cache: bool = True, recover: bool = True) -> "Library":
        """See :meth:`_load`; the cyclic garbage collector is paused meanwhile: building
        tens of thousands of acyclic objects otherwise triggers full collections over
        an ever larger heap, which made each load slower than the one before."""
        with collector_paused():
            return cls._load(refs_dir, use_cache=use_cache, recover=recover)

    @classmethod
    def _load(cls, refs_dir: Path, *, use_cache: bool = True, recover: bool = True) -> "Library":
        """Read both files; a missing library is an empty one, a damaged entry a problem.

        A parse is stored in the project's parsed-library cache and reused while neither
        file changes. A ``library.bib`` and sidecar that were not written together (an
        interrupted copy, one of them restored from git) are refused with what to do. An
        interrupted write is finished or undone first when no writer is at work
        (``recover=False``: only read through it, as ``doctor`` does before ``--fix``).
        """
        refs = Path(refs_dir)
        if recover:
            _recover_if_free(refs)
        for attempt in range(_SPLIT_RETRIES):
            stats = parsed_cache.stat_pair(refs) if use_cache and not journal_path(refs).exists() else None
            if use_cache:
                known = parsed_cache.known_fingerprint(refs, stats)
                cached = parsed_cache.read(refs, known) if known is not None else None
                if cached is not None:  # both files as when last hashed: neither is read
                    return cls._from_cache(refs, cached, known)
            bib_data, side_data = _read_pair(refs)
            fingerprint = parsed_cache.fingerprint(bib_data, side_data)
            after = parsed_cache.stat_pair(refs) if stats is not None else None
            stored = parsed_cache.read(refs, None) if use_cache else None  # a load of any files
            if stored is not None and stored.get("fingerprint") == fingerprint:
                parsed_cache.remember_stat(refs, stats, after, fingerprint)
                return cls._from_cache(refs, stored, fingerprint)
            try:
                lib = cls._parse(refs, bib_data, side_data, remember=use_cache)
            except _SplitPair as exc:
                if attempt + 1 < _SPLIT_RETRIES:  # maybe a writer is switching files right now
                    time.sleep(0.05 * (attempt + 1))
                    continue
                raise LibraryError(str(exc)) from None
            lib._fingerprint = fingerprint
            if use_cache:
                data = lib._cache_data(stored)  # what did not change since that load holds
                if parsed_cache.write(refs, data):
                    lib._remember_stored(data)
                parsed_cache.remember_stat(refs, stats, after, fingerprint)
                lib._state_blobs = data["entries"]  # what each entry was when loaded
                lib._chunk_blobs = data["chunks"]  # the texts of the entries this parse left unchanged
                lib._loaded_ascii = lib.ascii
            return lib
        raise AssertionError("unreachable")

    @classmethod
    def _parse(cls, refs: Path, bib_data: bytes | None, side_data: bytes | None, *,
               remember: bool = False) -> "Library":
        """Both files' bytes as a library (``remember``: keep what each sidecar record's
        text gave in the project's cache folder, so the next parse loads only new ones)."""
        from citekit.bibtex.reader import Problem, decode_bytes, encoding_problems, parse_bib_text

        lib = cls(refs_dir=refs)
        bib_text = decode_bytes(bib_data)[0] if bib_data is not None else None
        sidecar = lib._parse_sidecar(side_data, bib_text, remember=remember)
        side_entries: dict[str, dict[str, Any]] = sidecar.get("entries") or {}
        lib.issued_keys = set(sidecar.get("issued_keys") or [])
        lib.pending = list(sidecar.get("pending") or [])
        lib.ascii = bool(sidecar.get("ascii", False))
        if bib_data is not None and bib_text is not None:
            text = bib_text
            name = display_path(lib.bib_path)
            lib.problems.extend(encoding_problems(bib_data, name))
            parsed = parse_bib_text(text, name, between=True)
            lib.problems.extend(parsed.problems)
            lib.preamble = parsed.preamble
            lib.unparsed = list(parsed.unparsed)
            untouched = _checksum_ok(text)
            seen_lower: dict[str, str] = {}
            gaps: dict[str, str] = {}
            carried = ""  # the text above an entry kept as text: it joins the next one's
            for bib_entry, raw, gap in zip(parsed.entries, parsed.raws, parsed.between):
                lower = bib_entry.key.lower()
                if lower in seen_lower:
                    # BibTeX keys ignore case: a second 'Key' beside 'key' is a duplicate
                    lib.problems.append(Problem(name, None, f"key '{bib_entry.key}' differs from '{seen_lower[lower]}' only in case, "
                                                "which BibTeX treats as the same key; it is kept as text: rename it"))
                    lib.unparsed.append(raw.strip())
                    carried += gap
                    continue
                seen_lower[lower] = bib_entry.key
                gaps[bib_entry.key] = carried + gap
                carried = ""
                meta = side_entries.get(bib_entry.key)
                entry = _from_sidecar(bib_entry.key, meta) if meta else _manual_entry(bib_entry)
                _absorb_bib(entry, bib_entry, managed=meta is not None, untouched=untouched)
                lib.entries[entry.key] = entry
            lib.kept_head, lib.kept_before, lib.kept_tail = _kept_texts(list(gaps.items()), carried + parsed.after)
            if untouched and sidecar.get("bib_checksum") and sidecar.get("bib_checksum") == _stated_checksum(text):
                _check_records_cover(lib, side_entries)
        lib.detached = {k: v for k, v in side_entries.items() if k not in lib.entries}
        lib.detached.update({k: v for k, v in (sidecar.get("detached") or {}).items() if k not in lib.entries})
        lib.issued_keys.update(lib.entries)
        for e in lib.entries.values():
            lib.issued_keys.update(e.aliases)
        return lib

    def _parse_sidecar(self, data: bytes | None, bib_text: str | None, *, remember: bool = False) -> dict[str, Any]:
        """The sidecar as data, refusing one that is missing, cut short or from another write."""
        name = display_path(self.sidecar_path)
        restore = (f"Restore it from version control (e.g. `git checkout -- {name}`), or run "
                   "`citekit doctor --rebuild-sidecar` to rebuild it from library.bib (keys kept; what "
                   "library.bib cannot say, such as status and notes' mentions, becomes 'unknown')")
        if data is None:
            if bib_text is not None and CHECKSUM_MARK in bib_text:
                raise LibraryError(f"{name} is missing but {display_path(self.bib_path)} was written by citekit, "
                                   f"so its tags, status and identifiers would be lost. {restore}.")
            return {}
        yaml, loader, _dumper = _yaml()
        try:
            from citekit.library import sidecar_read

            text = sidecar_read.repaired_names(data.decode("utf-8"))

            loaded = sidecar_read.load(text, loader, self.refs_dir if remember else None)
            if loaded is None:  # not laid out as citekit writes it: the whole file at once
                loaded = yaml.load(text, Loader=loader)
        except (yaml.YAMLError, UnicodeDecodeError, RecursionError, ValueError) as exc:  # ValueError: an int too long
            raise LibraryError(f"{name} is damaged ({exc}). {restore}; citekit will not overwrite it.") from exc
        if _MARKED in text[:400] and not text.rstrip().endswith(SIDECAR_END.strip()):
            raise LibraryError(f"{name} is cut short (its last line is missing). {restore}.")
        _check_sidecar(loaded, name, restore)
        recorded = loaded.get("bib_checksum")
        stated = _stated_checksum(bib_text) if bib_text is not None else None
        if recorded and stated and recorded != stated:
            raise _SplitPair(
                f"{display_path(self.bib_path)} and {name} are not from the same write (checksum {stated} "
                f"vs {recorded}): one was restored or copied without the other. Restore both from the same "
                "version (e.g. `git checkout -- refs/`), or run `citekit doctor` to see what differs")
        return loaded

    @classmethod
    def _from_cache(cls, refs: Path, data: dict[str, Any], fingerprint: tuple[Any, ...]) -> "Library":
        lib = cls(refs_dir=refs)
        meta = data["meta"]
        lib.issued_keys = set(meta["issued_keys"])
        if meta["problems"]:
            from citekit.bibtex.reader import Problem

            lib.problems = [Problem(*p) for p in meta["problems"]]
        lib.unparsed = list(meta["unparsed"])
        lib.preamble = list(meta["preamble"])
        lib.kept_head, kept_before, lib.kept_tail = meta["kept"]
        lib.kept_before = dict(kept_before)
        lib.pending = list(meta["pending"])
        lib.ascii = bool(meta["ascii"])
        lib.detached = dict(meta["detached"])
        lib._lazy = data["entries"]  # decoded on first use (see __getattr__)
        lib._lazy_keys = data["keys"]
        lib._lazy_aliases = data["aliases"]
        lib._lazy_alias_lists = data["alias_pairs"]
        del lib.entries
        lib._state_blobs = data["entries"]  # what each entry was when loaded (copied before a write)
        lib._loaded_blobs = data["entries"]
        lib._loaded_ascii = lib.ascii
        lib._chunk_blobs = data["chunks"]  # decoded only when the library is written
        lib._fingerprint = fingerprint
        lib._memo_base, lib._memo_log = data["memo_base"], data["memo_log"]
        lib._memos_pending = True  # read from their own file when first asked for
        lib._remember_stored(data)
        return lib

    def _adopt_memo_generation(self, previous: dict[str, Any] | None) -> None:
        """Continue the memo generation of the cache stored before (of other files: a hand
        edit, a ``git checkout``, or a library built in code), so that values derived from
        entries whose state is still the one stored there stay valid; the entries whose
        state differs, and those gone, are logged as this write's change. A first run
        after a hand edit then derives again only what the edit changed. ``previous``: the
        load stored before (:func:`parsed_cache.read` with no fingerprint)."""
        if previous is None or not isinstance(previous.get("memo_base"), str):
            return
        blobs = previous["entries"]
        blobs.preload()
        self._memo_base, self._memo_log = previous["memo_base"], list(previous["memo_log"])
        self._loaded_blobs = blobs
        self._memos_pending = True
        if not self._chunks and not self._chunk_blobs and bool(previous["meta"].get("ascii")) == self.ascii:
            # a parse: an entry :meth:`_cache_data` finds unchanged keeps the text it was
            # written as, so the next write re-renders only what the files changed
            previous["chunks"].preload()
            self._chunk_blobs = previous["chunks"]

    def _cache_data(self, previous: Any = _UNREAD) -> dict[str, Any]:
        """What the parsed-library cache stores for the library as it is; ``previous``: the
        load stored before, when the caller has read it already."""
        if self._memo_base is None and self._fingerprint is not None:
            self._adopt_memo_generation(parsed_cache.read(self.refs_dir, None) if previous is _UNREAD else previous)
        lazy = self._is_lazy()
        keys = self.keys()
        blobs = self._state_blobs
        # an entry with a stored state is as stored (a write drops the state of every entry
        # it renders); the others are new or re-rendered: marshalled now, and compared with
        # the state loaded (bytes first: equal states give equal bytes, see STATE_MARSHAL)
        objects = self._decoded if lazy else self.entries  # never decoded: has its state
        version, dumps, loads = parsed_cache.STATE_MARSHAL, marshal.dumps, marshal.loads
        fresh = {key: dumps(_entry_state(objects[key]), version) for key in keys if key not in blobs}
        loaded = self._loaded_blobs
        changed = [key for key, blob in fresh.items()  # entries whose state is not the one loaded (or new)
                   if (old := loaded.get(key)) is None or (old != blob and loads(old) != loads(blob))]
        entries = {key: fresh.get(key) or blobs[key] for key in keys}
        # each entry's texts: rendered in this run, or stored with the state they were of
        own, stored, moved = self._chunks, self._chunk_blobs, set(changed)
        chunks = {key: dumps(own[key]) if key in own else stored[key] for key in keys
                  if key in own or (key in stored and key not in moved)}
        by_key = self.aliases_by_key()
        alias_pairs = [(a, key) for key in keys if key in by_key for a in by_key[key]]
        aliases: dict[str, str] = {}
        for a, key in alias_pairs:
            aliases.setdefault(a, key)
        memos = self._next_memo_generation(keys, changed)
        self._loaded_blobs = dict(entries)  # a copy: callers keep ``entries`` as the blobs to pop
        return {
            "fingerprint": self._fingerprint,
            "meta": self._cache_meta(),
            "keys": keys,
            "entries": entries,
            "chunks": chunks,
            "memos": memos,
            "memo_base": self._memo_base,
            "memo_log": self._memo_log,
            "aliases": aliases,
            "alias_pairs": alias_pairs,
        }

    def _cache_meta(self) -> dict[str, Any]:
        """The parsed-library cache's record of what is not an entry."""
        return {
            "issued_keys": sorted(self.issued_keys),
            "problems": [(p.file, p.line, p.message) for p in self.problems],
            "unparsed": list(self.unparsed), "preamble": list(self.preamble),
            "kept": (self.kept_head, dict(self.kept_before), self.kept_tail),
            "pending": list(self.pending), "ascii": self.ascii, "detached": dict(self.detached),
        }

    def _remember_stored(self, data: dict[str, Any]) -> None:
        """Note the cache this library was read from or just stored: what
        :meth:`_stored_cache_holds` compares with after a write (with the cache file's
        stat: another process may replace it meanwhile)."""
        self.__dict__["_stored_as"] = _StoredCache(data["fingerprint"], data["keys"], data["meta"],
                                                   len(data["chunks"]) == len(data["keys"]),
                                                   stat_key(parsed_cache.cache_path(self.refs_dir)))

    def _stored_cache_holds(self, fingerprint: tuple[Any, ...]) -> bool:
        """Whether the cache stored for this library is still exactly what it would store
        now: both files are the bytes it was stored for, every entry still has the state
        stored (a write drops the state of every entry it renders), with each entry's
        texts, and nothing else changed. A no-op ``sync`` then writes no 13 MB again."""
        stored: _StoredCache | None = self.__dict__.get("_stored_as")
        if (stored is None or stored.fingerprint != fingerprint or fingerprint != self._fingerprint
                or not stored.all_texts):
            return False
        if stored.stat is None or stat_key(parsed_cache.cache_path(self.refs_dir)) != stored.stat:
            return False  # replaced (or removed) by another process since: store this library's
        keys = self.keys()
        blobs = self._state_blobs
        return (stored.keys == keys and isinstance(blobs, dict) and blobs.keys() == set(keys)
                and not self._memo_log_full(keys) and self._cache_meta() == stored.meta)

    def _memo_log_full(self, keys: list[str]) -> bool:
        return sum(len(k) for _t, k in self._memo_log) > min(self.MEMO_LOG_KEYS, max(64, len(keys) // self.MEMO_LOG_SHARE))

    #: a memo generation's change log is folded into a new generation (every stored table
    #: read and written again once) when it names more entries than this, or this share
    #: of the library
    MEMO_LOG_KEYS = 4096
    MEMO_LOG_SHARE = 4

    def _next_memo_generation(self, keys: list[str], changed: list[str]) -> dict[str, Any]:
        """Advance the memo generation past this write, and the tables to store with it.

        The memo files stay as they are: the write appends the changed keys to the log,
        and a table read later drops the values of every change after the one it was
        written at. Only tables computed in this run are stored, without the changed
        entries' values. A library not loaded from the cache starts a new generation.
        """
        self.__dict__.pop("_answers", None)  # answers about the whole library: of the state loaded
        keyset = set(keys)
        if len(self._loaded_blobs) != len(keys) or changed:  # a key removed, or renamed, changes
            changed = [*changed, *(k for k in self._loaded_blobs if k not in keyset)]  # the whole library's answers
        if self._memo_base is None:
            self._memo_base, self._memo_log = os.urandom(8).hex(), []
            self._memos_pending = False
        elif changed:
            self._memo_log = [*self._memo_log, (os.urandom(8).hex(), changed)]
        if self._memos or self._memo_raw:
            for key in changed:
                self._drop_memos(key)
        out: dict[str, Any] = {kind: {k: v for k, v in self._memos[kind].items() if k in keyset}
                               for kind in self._memos_dirty if kind in self._memos}
        if self._memo_log_full(keys):
            if len(set().union(*(k for _t, k in self._memo_log))) < len(keys):  # else nothing is left to carry
                self._gather_memos()  # read now: the new generation carries them over
                out.update(self._memo_raw)
                for kind, table in self._memos.items():
                    out.setdefault(kind, {k: v for k, v in table.items() if k in keyset})
            self._memo_base, self._memo_log = os.urandom(8).hex(), []
        self._memos_dirty = set()
        return out

    # ---- save --------------------------------------------------------------------------
    def render_bib(self, *, ascii: bool | None = None) -> str:
        """The text of ``library.bib`` as it would be written now.

        The last header line is a checksum of everything below it: when it still matches
        on the next load, nobody has edited the file since citekit wrote it, whatever the
        sidecar says; the sidecar records the same checksum, which is how a reader tells
        a pair written together from a split one.
        """
        if ascii is None or bool(ascii) == self.ascii:
            return self.render_files()[0]
        from citekit.bibtex.writer import check_unique_keys, entry_text

        written = [written_entry(e) for e in self.sorted_entries()]
        check_unique_keys(written)
        return self._bib_text(self._body([e.key for e in written],
                                         [entry_text(e, ascii=ascii) + "\n" for e in written]))

    def _body(self, keys: list[str], parts: list[str]) -> str:
        """The entries' texts (``parts``, each ending in a line end, in the order of ``keys``)
        with the kept text (see :attr:`kept_before`) where it stands: above its entry, the
        head above all, the tail after all. Without kept text, entries are one blank line
        apart; a kept text stands in for that blank line. With no entries, the kept text
        alone (or an empty line, as :func:`render_entries` writes for none)."""
        if not parts:
            return self.kept_head + self.kept_tail or "\n"
        if not (self.kept_before or self.kept_head or self.kept_tail):
            return "\n".join(parts)
        before = self._settle_kept(keys)
        out = [self.kept_head]
        for i, (key, part) in enumerate(zip(keys, parts)):
            out.append(before.get(key, "\n" if i else ""))
            out.append(part)
        out.append(self.kept_tail)
        return "".join(out)

    def _settle_kept(self, keys: list[str]) -> dict[str, str]:
        """:attr:`kept_before` with the text of every entry no longer in the library given a
        home, so that nothing the user wrote is dropped: above the entry that absorbed it
        (a merge makes the old key an alias of the survivor), else at the end of the file.
        Each move is noted in :attr:`kept_moves`; the new places are kept from now on."""
        present = set(keys)
        gone = [k for k in self.kept_before if k not in present]
        if not gone:
            return self.kept_before
        home_of = {alias: key for key, aliases in self.aliases_by_key().items() for alias in aliases}
        adopted: dict[str, str] = {}
        for old in gone:
            text = self.kept_before[old]
            home = home_of.get(old)
            if home in present:
                adopted[home] = adopted.get(home, "") + text
                self.kept_moves.append(f"the text above '{old}' in library.bib now stands above '{home}', "
                                       "which absorbed that entry")
            else:
                self.kept_tail += text if text.startswith("\n") or not self.kept_tail else "\n" + text
                self.kept_moves.append(f"the text above '{old}' in library.bib, an entry no longer in the "
                                       "library, was moved to the end of the file")
        self.kept_before = {k: adopted.pop(k, "") + v for k, v in self.kept_before.items() if k in present}
        self.kept_before.update(adopted)
        return self.kept_before

    def _bib_text(self, body: str) -> str:
        if self.unparsed:
            if body and not body.endswith("\n"):
                body += "\n"  # (kept text at the end of a file without a last line end)
            body += (
                f"\n{UNPARSED_MARK}\n"
                + "\n\n".join(self.unparsed)
                + "\n"
            )
        header = "".join(f"% {line}\n" for line in BIB_HEADER.split("\n"))
        return f"{header}{CHECKSUM_MARK}{_checksum(body)}\n\n{body}"

    def render_files(self) -> tuple[str, str]:
        """The texts of ``library.bib`` and the sidecar as they would be written now.

        Each entry's share of both files is rendered once and reused while the entry does
        not change, so a write after ``tag`` renders one entry; the result is by
        construction the same bytes as rendering everything. On a cached load, entries
        never decoded are as loaded by definition: their stored texts are copied without
        decoding them (``tag`` decodes one entry of thousands).
        """
        from citekit.bibtex.writer import check_unique_keys

        if hasattr(self._chunk_blobs, "preload"):
            self._chunk_blobs.preload()  # (nearly) every entry's stored text is reused
        if not isinstance(self._state_blobs, dict):  # as read from the cache: entries are dropped below
            self._state_blobs = dict(self._state_blobs)
        lazy = self._is_lazy() and all(e.key == k for k, e in self._decoded.items())
        if lazy:
            keys = self.sorted_keys()
            decoded = self._decoded
        else:
            ordered = self.sorted_entries()
            check_unique_keys(ordered)
            keys = [e.key for e in ordered]
            decoded = {e.key: e for e in ordered}
        bib_parts: list[str] = []
        yaml_parts: list[str] = []
        chunks = self._chunks
        blobs = self._state_blobs
        same_mode = self.ascii == self._loaded_ascii
        block_of = None
        for key in keys:
            entry = decoded.get(key)
            if entry is None and same_mode and key in blobs:  # never decoded: exactly as loaded
                reused = chunks.get(key)
                if reused is None and key in self._chunk_blobs:
                    reused = marshal.loads(self._chunk_blobs[key])
                if reused is not None:
                    bib_parts.append(reused[0])
                    yaml_parts.append(reused[1])
                    continue
            if entry is None:
                entry = self.entry_at(key)
                assert entry is not None
            blob = blobs.get(key) if same_mode else None
            if blob is not None and marshal.loads(blob) == _entry_state(entry):
                reused = chunks.get(key)
                from_blob = reused is None and key in self._chunk_blobs
                if from_blob:
                    reused = marshal.loads(self._chunk_blobs[key])
                if reused is not None:
                    # exactly as loaded, and rendered then: nothing to derive or render;
                    # a text still marshalled stays so (no copy decoded, then encoded again)
                    if not from_blob:
                        chunks[key] = reused
                    bib_parts.append(reused[0])
                    yaml_parts.append(reused[1])
                    continue
            else:  # changed since the load: values derived from it no longer hold
                self._drop_memos(entry.key)
            blobs.pop(key, None)
            if block_of is None:
                block_of = _sidecar_blocks()
            rendered = _render_changed(entry, self.ascii, block_of)
            chunks[entry.key] = rendered
            bib_parts.append(rendered[0])
            yaml_parts.append(rendered[1])
        keyset = set(keys)
        for key in [k for k in chunks if k not in keyset]:
            del chunks[key]
        for key in [k for k in blobs if k not in keyset]:
            del blobs[key]
        self._chunk_blobs = {k: v for k, v in self._chunk_blobs.items() if k in keyset and k not in chunks}
        for table in self._memos.values():
            for key in [k for k in table if k not in keyset]:
                del table[key]
        body = self._body(keys, bib_parts)
        bib_text = self._bib_text(body)
        return bib_text, self._render_sidecar(yaml_parts, _stated_checksum(bib_text))

    def save(self, txn: Transaction | None = None) -> bool:
        """Write both files as one transaction; returns whether anything changed on disk.

        With ``txn`` the files join a caller's transaction (e.g. with a key map) and are
        switched in by its commit; the parsed-library cache is refreshed after the switch.
        """
        with collector_paused():  # thousands of small acyclic objects, as in load
            bib_text, side_text = self.render_files()
        own = txn is None
        txn = txn or Transaction(self.refs_dir)
        txn.stage(self.bib_path, bib_text)
        txn.stage(self.sidecar_path, side_text)
        del bib_text, side_text  # staged as bytes: the texts need not stay (peak memory at 50k entries)
        staged = txn.staged
        txn.on_commit.append(lambda: self._refresh_cache(staged))
        if own:
            return txn.commit()
        return any(p in txn.changes() for p in (self.bib_path.absolute(), self.sidecar_path.absolute()))

    def _refresh_cache(self, staged: dict[Path, bytes] | None = None) -> None:
        """Store the library as just written. After a commit each file holds exactly the
        bytes staged for it (written, or already equal), so those are hashed instead of
        reading both files back."""
        staged = staged or {}
        bib, side = self.bib_path.absolute(), self.sidecar_path.absolute()
        if bib in staged and side in staged:
            bib_data, side_data = staged[bib], staged[side]
        else:
            bib_data, side_data = _read_pair(self.refs_dir)
        fingerprint = parsed_cache.fingerprint(bib_data, side_data)
        if self._stored_cache_holds(fingerprint):  # only values derived in this run to store
            memos = self._next_memo_generation(self.keys(), [])
            if memos and self._memo_base is not None:
                parsed_cache.write_memos(self.refs_dir, self._memo_base, self._memo_log, memos)
            return
        self._fingerprint = fingerprint
        with collector_paused():
            data = self._cache_data()
            if parsed_cache.write(self.refs_dir, data):
                self._remember_stored(data)
        self._state_blobs = dict(data["entries"])
        self._loaded_ascii = self.ascii

    def _render_sidecar(self, entry_parts: list[str], bib_checksum: str | None) -> str:
        from citekit.library.sidecar_yaml import dump as dump_with

        dumper = _yaml()[2]

        def dump(data: dict[str, Any]) -> str:
            return dump_with(data, dumper)

        implied = (set(self.keys()) | set(self.detached)
                   | {a for aliases in self.aliases_by_key().values() for a in aliases})
        extra_keys = sorted((k for k in self.issued_keys if k not in implied), key=str.lower)
        head = {"version": SIDECAR_VERSION}
        if self.ascii:
            head["ascii"] = True
        if bib_checksum:
            head["bib_checksum"] = bib_checksum
        if self.detached:
            head["detached"] = {k: self.detached[k] for k in sorted(self.detached, key=str.lower)}
        tail: dict[str, Any] = {}
        if extra_keys:
            tail["issued_keys"] = extra_keys
        if self.pending:
            tail["pending"] = self.pending
        entries = "entries:\n" + "".join(entry_parts) if entry_parts else "entries: {}\n"
        return (SIDECAR_HEAD + dump(head) + entries + (dump(tail) if tail else "") + SIDECAR_END)


def _check_records_cover(lib: "Library", side_entries: Mapping[str, Any]) -> None:
    """Both files come from one write and library.bib is as written: then every entry has
    its record, since citekit writes one for each. Records missing (``entries: {}``, or
    records deleted by hand) would turn those entries into hand-written ones on the next
    write and lose their status, mentions and tags: refuse, as for a cut-short sidecar."""
    missing = [key for key in lib.entries if key not in side_entries]
    if not missing:
        return
    name = display_path(lib.sidecar_path)
    shown = ", ".join(f"'{k}'" for k in missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    raise LibraryError(
        f"{name} is damaged: it has no record for {len(missing)} of the {len(lib.entries)} entries of "
        f"{display_path(lib.bib_path)} ({shown}), although both files come from one write. Restore it from "
        f"version control (e.g. `git checkout -- {name}`), or run `citekit doctor --rebuild-sidecar` to rebuild "
        "it from library.bib (keys kept; what library.bib cannot say, such as status and notes' mentions, "
        "becomes 'unknown'); citekit will not overwrite it.")


def read_entry(refs_dir: Path, key: str) -> Entry | None:
    """One entry by key, alias or key in another case; on a fresh parsed-library cache
    only that entry is decoded (``show``)."""
    return Library.load(Path(refs_dir)).get_any_case(key)


# ---- helpers ---------------------------------------------------------------------------

def _kept_texts(gaps: list[tuple[str, str]], after: str) -> tuple[str, dict[str, str], str]:
    """What a write of library.bib keeps of the text outside its entries: (head, text above
    each entry but the first by key, tail), from the text before each entry (``gaps``: key
    and text, in file order) and after the last one.

    Only what citekit writes itself is left out: its header, the blank line it puts
    between entries and the line above the blocks it could not read. The blank line is
    the one line end that follows an entry's closing line; a kept text stands in for it,
    so the text is written back as it was read, byte for byte (at the end of the file,
    its trailing blank lines become one line end). A file with no entry is all head."""
    if not gaps:
        return _kept_end(_without_own_header(after).lstrip("\n")), {}, ""
    head = _without_marker(_without_own_header(gaps[0][1]).lstrip("\n"))
    before = {}
    for key, gap in gaps[1:]:
        text = _without_marker(gap[1:] if gap.startswith("\n") else gap)
        if text and not text.isspace():
            before[key] = text
    return (head if head and not head.isspace() else ""), before, _kept_end(after[1:] if after.startswith("\n") else after)


def _kept_end(text: str) -> str:
    """Text after the last entry, as kept: with one line end (the blocks citekit could not
    read follow it, and the blank lines between them are citekit's)."""
    text = _without_marker(text).rstrip("\n")
    return text + "\n" if text and not text.isspace() else ""


def _without_own_header(text: str) -> str:
    """``text`` (the start of library.bib) without the header citekit writes: its comment
    lines, its checksum line and the blank line after it (wherever the user left them)."""
    at = text.find(CHECKSUM_MARK)
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return text
    end = text.find("\n", at)
    end = len(text) if end < 0 else end + 1
    if text.startswith("\n", end):
        end += 1
    text = text[:at] + text[end:]
    for line in BIB_HEADER.split("\n"):  # (the user may have written between its lines)
        line = f"% {line}\n"
        at = text.find(line)
        if at == 0 or at > 0 and text[at - 1] == "\n":
            text = text[:at] + text[at + len(line):]
    return text


def _without_marker(text: str) -> str:
    """``text`` without the line citekit writes above the blocks it could not read (and
    the line end it puts before it)."""
    at = text.find(UNPARSED_MARK)
    if at < 0:
        return text
    end = at + len(UNPARSED_MARK)
    if text.startswith("\n", end):
        end += 1
    if at > 0 and text[at - 1] == "\n":
        at -= 1
    return text[:at] + text[end:]


def _render_changed(entry: Entry, ascii: bool, block_of: Callable[[str, dict[str, Any]], str]) -> tuple[str, str]:
    """An entry's texts in ``library.bib`` and in the sidecar, and the entry made what the
    next read of both gives back (what :meth:`Library.render_files` does for an entry that
    changed since the load: every entry of an import)."""
    from citekit.bibtex.writer import cleaned_value, fields_as_written, with_ordered_field, written_text

    _as_the_file_names_it(entry)
    # as written_entry() makes them: the own fields (names already as the file writes
    # them and in its order, just above) and the derived ones, each put in its place
    fields = dict(entry.fields)
    ordered = list(fields.items())
    keep_empty = entry.origin != "notes"
    for name, value in _derived_fields(entry).items():
        fields[name] = value
        with_ordered_field(ordered, name, value, keep_empty=keep_empty)
    generated = {**fields, TYPE_MARK: entry.entry_type}
    written = fields_as_written(entry.key, ordered, ascii=ascii)
    for name, value, held, macro in written:
        if not macro and held != value and not _same_value(value, held):
            # made safe on the way out (unbalanced braces): what the file holds is what
            # citekit wrote, so the next read sees no hand edit in it
            generated[name] = cleaned_value(value)
    entry.generated = generated
    meta = _to_sidecar(entry, ascii)
    rendered = (written_text(entry.key, entry.entry_type, written) + "\n", block_of(entry.key, meta))
    _keep_as_read_back(entry, generated, meta, written)
    return rendered


def _as_the_file_names_it(entry: Entry) -> None:
    """Type and field names as ``library.bib`` writes them (lower case, trimmed, fields in
    the file's order, derived fields left to the tags and aliases they come from), before
    the entry is written: what citekit records as written is then what the next read
    finds, and writing again after that read changes nothing."""
    from citekit.bibtex.writer import ordered_fields

    entry.entry_type = entry.entry_type.strip().lower()
    own = entry.fields
    if any(k.strip().lower() in DERIVED_FIELDS for k in own):
        own = {k: v for k, v in own.items() if k.strip().lower() not in DERIVED_FIELDS}
    named = dict(ordered_fields(own, keep_empty=entry.origin != "notes"))
    if named != entry.fields or list(named) != list(entry.fields):
        entry.fields = named


def _keep_as_read_back(entry: Entry, generated: dict[str, str], meta: dict[str, Any],
                       written: list[tuple[str, str, str, bool]]) -> None:
    """Make ``entry`` (just written, remembering ``generated``) what the next read of both files builds:
    the sidecar's view through the same conversion a load applies (sorted lists, hashed
    copies, mappings in key order as YAML writes them) and the fields as
    :func:`_as_read_back` gives them. The object itself is kept: callers hold it."""
    # only the versions' records can hold mappings in another order than YAML's:
    # _to_sidecar already sorts the rest, and ids are read by name
    values = _sidecar_values({**meta, "versions": _yaml_order(meta["versions"])} if "versions" in meta else meta)
    values["entry_type"] = entry.entry_type.strip().lower()
    values["fields"] = _as_read_back(generated, written, meta.get("generated_hash") or {})
    entry.__dict__.update(values)


def _yaml_order(value: Any) -> Any:
    """Mappings with their keys sorted at every depth, as the sidecar's YAML holds them."""
    if isinstance(value, dict):
        return {k: _yaml_order(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_yaml_order(v) for v in value]
    return value


def _as_read_back(generated: Mapping[str, str], written: list[tuple[str, str, str, bool]],
                  hashed: Collection[str]) -> dict[str, str]:
    """The fields a read of ``library.bib`` gives back for an entry written remembering
    ``generated`` (see :func:`_absorb_bib`): names in lower case and in the file's order, derived fields
    left out, and a value the file spells otherwise (a month macro, an escaped or cleaned
    value) as the file spells it unless the sidecar's copy stands for it. The entry keeps
    these after a write, so what the cache holds equals what the next read would build,
    and every command prints the same whether or not it was read from the cache.
    ``hashed``: the fields the sidecar keeps only a hash of (its ``generated_hash``)."""
    fields: dict[str, str] = {}
    for name, _value, held, _macro in written:
        if name in DERIVED_FIELDS:
            continue
        own = generated.get(name)
        keep = own is not None and name not in hashed and (own == held or _same_value(own, held))
        fields[name] = own if keep else held
    return fields


def written_entry(entry: Entry) -> Entry:
    """The entry as it goes into ``library.bib``: stored fields plus derived ones.

    ``keywords`` comes from the effective tags and ``ids`` from the aliases, so tags and
    old keys are visible to BibTeX users and to biblatex (which resolves ``ids``).
    """
    fields = {k: v for k, v in entry.fields.items() if k not in DERIVED_FIELDS}
    fields.update(_derived_fields(entry))
    out = Entry(key=entry.key, entry_type=entry.entry_type, fields=fields, origin=entry.origin)
    out.aliases = list(entry.aliases)
    return out


def _derived_fields(entry: Entry) -> dict[str, str]:
    """``keywords`` from the effective tags and ``ids`` from the aliases (as the file will
    hold them), when there are any."""
    from citekit.bibtex.writer import alias_value

    derived = {}
    tags = entry.tags
    if tags:
        derived["keywords"] = ", ".join(tags)
    if entry.aliases:
        derived["ids"] = alias_value(sorted(entry.aliases))
    return derived


def _absorb_bib(entry: Entry, bib_entry: Entry, *, managed: bool, untouched: bool = False) -> None:
    """Take the user's view of an entry from library.bib and detect hand edits.

    ``untouched``: the file's checksum says nobody edited it since citekit wrote it, so
    any difference from the sidecar is the sidecar's staleness, not a hand edit.
    """
    entry.entry_type = bib_entry.entry_type
    fields = {k: v for k, v in bib_entry.fields.items() if k not in DERIVED_FIELDS}
    if not managed:
        entry.fields = fields
        entry.hand = sorted(fields)
        return
    if untouched:
        generated = entry.generated
        entry.fields = {k: (generated[k] if k in generated and _same_value(generated[k], v)
                            and not generated[k].startswith(HASH_MARK) else v)
                        for k, v in fields.items()}
        return
    hand = set(entry.hand)
    generated = entry.generated
    for name, value in list(fields.items()):
        gen = generated.get(name)
        if gen is not None and _same_value(gen, value):
            if not gen.startswith(HASH_MARK):
                fields[name] = gen  # the same value (maybe written with LaTeX escapes in ascii mode)
            continue
        hand.add(name)
    for name in generated:
        if name not in DERIVED_FIELDS and name != TYPE_MARK and name not in fields:
            hand.add(name)  # the user deleted it: keep it deleted
    if generated.get(TYPE_MARK) and generated[TYPE_MARK] != bib_entry.entry_type:
        hand.add("entry_type")
    entry.fields = fields
    entry.hand = sorted(hand)
    _absorb_keywords(entry, bib_entry.fields.get("keywords"), generated.get("keywords"))


def _absorb_keywords(entry: Entry, written: str | None, generated: str | None) -> None:
    """Keywords edited in library.bib become manual tag additions/removals (keywords as
    citekit wrote them, escaped in ASCII mode included, are no edit)."""
    if _norm(written or "") == _norm(generated or "") or (written and generated and _same_value(generated, written)):
        return
    from citekit.library.tags import tags_from_keywords

    text = written or ""
    if "\\" in text or "{" in text:  # the file's LaTeX (ASCII mode escapes non-ASCII tags): tags are text
        from citekit.core.text import latex_to_text

        text = latex_to_text(text, scripts=False)
    mine = set(tags_from_keywords(text))
    current = set(entry.tags)
    added = set(entry.tags_added) | (mine - current)
    removed = (set(entry.tags_removed) | (current - mine)) - mine
    entry.tags_added = sorted(added - removed)
    entry.tags_removed = sorted(removed)


def _same_value(generated: str, written: str) -> bool:
    """Whether a value read from library.bib is what citekit wrote, in UTF-8 or ASCII mode."""
    if generated.startswith(HASH_MARK):
        return generated == _digest(written)
    if generated == written or _norm(generated) == _norm(written):
        return True
    if len(written) == 3 and written.isalpha():  # a month citekit wrote as its macro (December -> dec)
        from citekit.bibtex.writer import month_macro

        if month_macro(generated) == written:
            return True
    if generated.isascii():
        return False
    from citekit.bibtex.values import to_ascii

    return _norm(to_ascii(generated)) == _norm(written)


def _norm(value: str) -> str:
    return " ".join(value.split())  # runs of whitespace as one space, ends trimmed


def _manual_entry(bib_entry: Entry) -> Entry:
    """An entry the user wrote into library.bib themselves: all of it is theirs."""
    entry = Entry(key=bib_entry.key, entry_type=bib_entry.entry_type, ids=bib_entry.ids, status="resolved", origin="manual")
    entry.provenance = {k: "user" for k in bib_entry.fields}
    from citekit.bibtex.reader import split_ids
    from citekit.library.tags import tags_from_keywords

    entry.tags_added = tags_from_keywords(bib_entry.fields.get("keywords", ""))
    entry.aliases = sorted(set(split_ids(bib_entry.fields.get("ids", ""))))
    return entry


def _by_hash(name: str, value: str, ascii: bool) -> bool:
    """Whether the sidecar may keep only a hash of what citekit wrote for this field.

    A hash tells a hand edit from citekit's own value as well as a copy does, when
    library.bib gives the value back exactly: so not in ASCII mode for non-ASCII text
    (the file holds escapes), not for values with line breaks or runs of spaces (read
    back folded), and never for the title, the keywords and the type, which matching and
    tags read from the sidecar itself. Short values are kept: a hash would not be smaller.
    """
    return (len(value) > _HASH_MIN and name not in _KEEP_FULL and (value.isascii() or not ascii)
            and value == _norm(value))


_HASH_MIN = 24
_KEEP_FULL = frozenset({"title", "keywords", "ids", TYPE_MARK})
#: marks a remembered value that is only a hash (in memory; ``generated_hash`` on disk)
HASH_MARK = "\x00sha256:"


def _digest(value: str) -> str:
    return HASH_MARK + _hex_digest(_norm(value))


def _hex_digest(value: str) -> str:
    return cachefile.sha256(value.encode("utf-8")).hexdigest()[:20]


def _to_sidecar(e: Entry, ascii: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"status": e.status, "origin": e.origin}
    # only what is there: an unknown id, an empty tag list and no mentions read back alike
    ids = {scheme: value for scheme, value in e.ids.as_dict().items() if value is not None}
    if ids:
        out["ids"] = ids
    if e.tags_added or e.tags_auto or e.tags_removed:
        out["tags"] = {name: sorted(values) for name, values in
                       (("added", e.tags_added), ("auto", e.tags_auto), ("removed", e.tags_removed)) if values}
    if e.mentions:
        out["mentions"] = [str(m) for m in e.mentions]
    kept: dict[str, str] = {}
    hashed: dict[str, str] = {}
    for k, v in sorted(e.generated.items()):
        if _by_hash(k, v, ascii):
            hashed[k] = _hex_digest(v)  # (as _digest: a value kept by hash has no runs of spaces)
        else:
            kept[k] = v
    out["generated"] = kept
    if hashed:
        out["generated_hash"] = hashed
    # the optional parts, when not empty
    if e.summary:
        out["summary"] = e.summary
    if e.abstract:
        out["abstract"] = e.abstract
    if e.aliases:
        out["aliases"] = sorted(e.aliases)
    if e.versions:
        out["versions"] = e.versions
    if e.provenance:
        out["provenance"] = dict(sorted(e.provenance.items()))
    if e.hand:
        out["hand"] = sorted(e.hand)
    if e.reason:
        out["reason"] = e.reason
    return out


def _sidecar_blocks() -> Callable[[str, dict[str, Any]], str]:
    """A writer of entries' blocks of the sidecar, indented under ``entries:`` (``meta``:
    an entry's :func:`_to_sidecar`): a JSON line per part where YAML reads that back as the
    same data (:mod:`.sidecar_json`), else YAML's block style. Made once for all blocks."""
    from citekit.library.sidecar_json import quoted_key, record_text
    from citekit.library.sidecar_yaml import dumper_of, simple_keys

    dumper = _yaml()[2]
    dump, key_text = dumper_of(dumper), simple_keys(dumper)[0]

    def block_of(key: str, meta: dict[str, Any]) -> str:
        text = key_text(key)
        block = record_text(quoted_key(key) if text is None else text, meta)
        return block if block is not None else dump({key: meta}, 2)

    return block_of


_STATE_FIELDS = ("entry_type", "fields", "status", "summary", "abstract", "tags_auto", "tags_added", "tags_removed",
                 "aliases", "versions", "provenance", "generated", "hand", "origin", "reason")


_STATE_OF = operator.attrgetter(*_STATE_FIELDS)


def _entry_state(e: Entry) -> tuple[Any, ...]:
    """An entry as plain data (for the parsed-library cache and change detection)."""
    return _STATE_OF(e) + (e.ids.as_dict(), [(m.file, m.line) for m in e.mentions])


def _entry_from_state(key: str, state: tuple[Any, ...]) -> Entry:
    """The inverse of :func:`_entry_state`, without the dataclass constructor (a cached load
    builds thousands of entries; every field is set here, so none needs its default)."""
    n = len(_STATE_FIELDS)
    entry = Entry.__new__(Entry)
    values = entry.__dict__
    values.update(zip(_STATE_FIELDS, state))
    values["key"] = key
    ids = Ids.__new__(Ids)
    ids.__dict__.update(state[n])
    values["ids"] = ids
    values["mentions"] = [Location(f, line) for f, line in state[n + 1]]
    return entry


def _check_sidecar(loaded: Any, name: str, restore: str) -> None:
    """Refuse a sidecar whose shape or types are not citekit's (see :mod:`.sidecar_schema`):
    a wrong value is named with its entry and part instead of being reinterpreted."""
    from citekit.library.sidecar_schema import document_problem

    problem = document_problem(loaded)
    if problem is not None:
        raise LibraryError(f"{name} is damaged: {problem.message()}. Correct that part by hand, or "
                           f"{restore[0].lower()}{restore[1:]}; citekit will not overwrite it.")


def _from_sidecar(key: str, meta: dict[str, Any]) -> Entry:
    entry = Entry.__new__(Entry)  # every field is set: no dataclass defaults needed
    entry.__dict__.update(key=key, entry_type="misc", fields={}, **_sidecar_values(meta))
    return entry


def _sidecar_values(meta: dict[str, Any]) -> dict[str, Any]:
    """What an entry's sidecar record gives (all of :class:`Entry` but its key, type and
    fields): the one reading of a record, for loads and for the read-back after a write."""
    tags = meta.get("tags") or {}
    mentions = []
    for m in meta.get("mentions") or []:
        file, _, line = str(m).rpartition(":")
        mentions.append(Location(file=file, line=int(line) if line.isdigit() else 0))
    return {
        "ids": Ids.from_dict(meta.get("ids")),
        "status": str(meta.get("status") or "notes-only"),
        "summary": meta.get("summary"),
        "abstract": meta.get("abstract"),
        "tags_auto": list(tags.get("auto") or []),
        "tags_added": list(tags.get("added") or []),
        "tags_removed": list(tags.get("removed") or []),
        "mentions": mentions,
        "aliases": list(meta.get("aliases") or []),
        "versions": list(meta.get("versions") or []),
        "provenance": dict(meta.get("provenance") or {}),
        "generated": {**{str(k): str(v) for k, v in (meta.get("generated") or {}).items()},
                      **{str(k): HASH_MARK + str(v) for k, v in (meta.get("generated_hash") or {}).items()}},
        "hand": list(meta.get("hand") or []),
        "origin": str(meta.get("origin") or "notes"),
        "reason": str(meta.get("reason") or ""),
    }


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so readers see the old file or the new one, never half.

    The temporary file lives in the same folder (so the rename is atomic on POSIX) and is
    fsynced before the rename; the file's permissions are kept.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
