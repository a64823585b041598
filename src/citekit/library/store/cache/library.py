"""The library with the parsed-library cache behind it: what every command loads.

:class:`CachedLibrary` holds the same entries and writes the same bytes as
:class:`..library.PlainLibrary` (``tests/library/test_cache_equals_plain.py`` says so),
faster: a load of unchanged files reads the stored parse (:mod:`.parsed_cache`) instead of
both files and decodes an entry only when asked for it; a write re-renders only the
entries that changed and splices them into the files as they are (:mod:`.layout`: the
other entries are neither decoded nor rendered nor read into memory); values derived from
entries are remembered between commands (:mod:`.memos`).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from citekit.bibtex.collector import collector_paused
from citekit.core.model import Entry
from citekit.library.journal import journal_path
from citekit.library.errors import LibraryError
from citekit.library.store.cache import memo_files, parsed_cache, state
from citekit.library.store.cache.blobs import BlobOverlay
from citekit.library.store.cache.chunks import ChunkReuse
from citekit.library.store.cache.layout import SplicedWrite
from citekit.library.store.cache.memos import MemoStore
from citekit.library.store.cache.state import StoredCache, entry_state
from citekit.library.store.cache.stored import StoredParse
from citekit.library.store.files import read_pair, recover_if_free, retrying_split
from citekit.library.store.library import PlainLibrary

def fingerprint_now(refs: Path) -> tuple[Any, ...]:
    """Both files' fingerprint as they are now: from their stat when it is exactly as when
    they were last hashed, else by reading them."""
    if not journal_path(refs).exists():
        known = parsed_cache.known_fingerprint(refs, parsed_cache.stat_pair(refs))
        if known is not None:
            return known
    bib_data, side_data = read_pair(refs)
    return parsed_cache.fingerprint(bib_data, side_data)


class CachedLibrary(StoredParse, SplicedWrite, ChunkReuse, PlainLibrary):
    """A :class:`PlainLibrary` read from and stored in the parsed-library cache
    (:class:`.stored.StoredParse`), written re-rendering only what changed
    (:class:`.chunks.ChunkReuse`), with its entries decoded on demand and its derived
    values remembered (:class:`.memos.MemoStore`).

    Its fields are the plain library's (no dataclass of its own: what it keeps beside them
    is set up in :meth:`__post_init__`, and neither compared nor shown)."""

    def __post_init__(self) -> None:
        #: key -> (library.bib text, sidecar text) of each entry as last rendered; valid while
        #: the entry equals its state in ``_state_blobs`` (both are refreshed by a write)
        self._chunks: dict[str, tuple[str, str]] = {}
        #: the same, still marshalled as read from the cache (decoded when written)
        self._chunk_blobs: Mapping[str, bytes] = {}
        #: each entry's state as loaded from the cache: an entry still equal to it needs no work
        self._state_blobs: Mapping[str, bytes] = {}
        #: the same, never altered: what stored memo values were derived from
        self._loaded_blobs: Mapping[str, bytes] = {}
        self._loaded_ascii = False
        self._fingerprint: tuple[Any, ...] | None = None
        #: a cached load's entries, still marshalled: :attr:`entries` decodes them all on first
        #: use, :meth:`get`, :meth:`keys` and :meth:`memo_table` only what they need (None: decoded)
        self._lazy: Mapping[str, bytes] | None = None
        self._lazy_aliases: dict[str, str] = {}
        self._lazy_keys: list[str] = []
        self._lazy_lower: dict[str, str] | None = None
        self._lazy_alias_lists: list[tuple[str, str]] = []
        self._decoded: dict[str, Entry] = {}
        #: told (key, entry) of each entry decoded: the lazy match index (:mod:`citekit.library.match_index`)
        self.decode_watchers: list[Callable[[str, Entry], None]] = []
        self._stored_as: StoredCache | None = None
        self._memos = MemoStore(self.refs_dir)
        self._layout: dict[str, Any] | None = None
        self._staged_layout: dict[str, Any] | None = None

    # ---- lazy decoding -----------------------------------------------------------------
    @property  # type: ignore[override]
    def entries(self) -> dict[str, Entry]:
        """Every entry; a cached load's are decoded on first use."""
        if self._lazy is not None:
            return self._decode_all()
        return self._entries

    @entries.setter
    def entries(self, value: dict[str, Entry]) -> None:
        self._entries = value
        self._lazy = None
        self._decoded = {}

    def _decode_all(self) -> dict[str, Entry]:
        """Every entry of a cached load, reusing those decoded one at a time before."""
        lazy, decoded = self._lazy, self._decoded
        assert lazy is not None
        if hasattr(lazy, "preload") and len(lazy) > len(decoded):
            lazy.preload()
        with collector_paused():
            entries = {key: decoded.get(key) or state.entry_from_state(key, marshal.loads(blob))
                       for key, blob in lazy.items()}
        for key in [k for k in entries if k not in decoded] if self.decode_watchers else ():
            [watch(key, entries[key]) for watch in self.decode_watchers]
        self.entries = entries
        return entries

    def is_lazy(self) -> bool:  # (entries still marshalled, not all decoded)
        return self._lazy is not None

    def _current(self, key: str) -> Entry | None:
        """The entry object under ``key`` if one exists in memory (decoding nothing)."""
        if self._lazy is not None:
            return self._decoded.get(key)
        return self._entries.get(key)

    def entry_at(self, key: str) -> Entry | None:
        """The entry under exactly ``key`` (no alias), decoding only it from a cached load."""
        lazy = self._lazy
        if lazy is None:
            return self._entries.get(key)
        entry = self._decoded.get(key)
        if entry is None and key in lazy:
            entry = self._decoded[key] = state.entry_from_state(key, marshal.loads(lazy[key]))
            [watch(key, entry) for watch in self.decode_watchers]
        return entry

    def keys(self) -> list[str]:
        """Every key, in the library's order, without decoding a cached load's entries."""
        return list(self._lazy_keys) if self._lazy is not None else list(self._entries)

    def get(self, key: str) -> Entry | None:
        """See :meth:`PlainLibrary.get`; on a cached load only that entry is decoded."""
        if self._lazy is not None:
            return self.entry_at(key if key in self._lazy else self._lazy_aliases.get(key, key))
        return super().get(key)

    def get_any_case(self, key: str) -> Entry | None:
        if self._lazy is None:
            return super().get_any_case(key)
        found = self.get(key)
        if found is not None:
            return found
        if self._lazy_lower is None:  # only after a miss: most look-ups name the key as it is
            self._lazy_lower = {k.lower(): k for k in reversed(self._lazy_keys)}
        return self.entry_at(self._lazy_lower.get(key.lower(), ""))

    def aliases_by_key(self) -> dict[str, list[str]]:
        """key -> its aliases, for entries that have some (decoding nothing on a cached load)."""
        if self._lazy is None:
            return super().aliases_by_key()
        out: dict[str, list[str]] = {}
        lazy = self._lazy
        for alias, key in self._lazy_alias_lists:
            if key not in self._decoded and key in lazy:
                out.setdefault(key, []).append(alias)
        for key, entry in self._decoded.items():  # decoded entries: as they are now
            if entry.aliases:
                out[key] = list(entry.aliases)
        return out

    def taken_keys(self) -> set[str]:
        """See :meth:`PlainLibrary.taken_keys`; on a cached load nothing is decoded."""
        if self._lazy is None:
            return super().taken_keys()
        return (set(self.issued_keys) | set(self._lazy_keys) | set(self.detached)
                | {a for aliases in self.aliases_by_key().values() for a in aliases})

    def _lazy_overlay(self) -> BlobOverlay:
        """The marshalled entries of a cached load, made changeable without decoding them."""
        lazy = self._lazy
        assert lazy is not None
        if not isinstance(lazy, BlobOverlay):
            lazy = self._lazy = BlobOverlay(lazy)
        return lazy

    def rename(self, old: str, new: str) -> Entry:
        """See :meth:`PlainLibrary.rename`; on a cached load only that entry is decoded, so a
        write after ``rename`` renders that entry alone (see :mod:`.layout`)."""
        if self._lazy is None:
            return super().rename(old, new)
        entry = self.entry_at(old)
        if entry is None:
            raise KeyError(old)
        lazy = self._lazy_overlay()
        lazy.pop(old)
        lazy[new] = b""  # (its object is in _decoded: the blob is never read)
        del self._decoded[old]
        self._lazy_keys = [k for k in self._lazy_keys if k != old] + [new]  # a dict's order after pop + insert
        self._lazy_lower = None
        entry.key = new
        known = {a.lower() for a in entry.aliases}
        aliases = set(entry.aliases) | ({old} if old.lower() not in known else set())
        entry.aliases = sorted(a for a in aliases if a.lower() != new.lower())
        self._decoded[new] = entry
        for alias in entry.aliases:
            self._lazy_aliases[alias] = new
        if old in self.kept_before:  # the comment above the entry moves with it
            self.kept_before[new] = self.kept_before.pop(old)
        self.issued_keys.update((old, new))
        return entry

    def add(self, entry: Entry) -> None:
        """See :meth:`PlainLibrary.add`; on a cached load no other entry is decoded."""
        if self._lazy is None:
            return super().add(entry)
        if self._lazy_lower is None:
            self._lazy_lower = {k.lower(): k for k in reversed(self._lazy_keys)}
        if entry.key in self._lazy or entry.key.lower() in self._lazy_lower:
            raise LibraryError(f"key '{entry.key}' is already in the library")
        self._lazy_overlay()[entry.key] = b""
        self._decoded[entry.key] = entry
        self._lazy_keys = [*self._lazy_keys, entry.key]
        self._lazy_lower[entry.key.lower()] = entry.key
        for alias in entry.aliases:
            self._lazy_aliases.setdefault(alias, entry.key)
        self.issued_keys.add(entry.key)
        self.issued_keys.update(entry.aliases)
        return None

    def remove(self, key: str) -> Entry:
        """See :meth:`PlainLibrary.remove`; on a cached load no other entry is decoded."""
        if self._lazy is None:
            return super().remove(key)
        entry = self.entry_at(key)
        if entry is None:
            raise KeyError(key)
        self._lazy_overlay().pop(key)
        self._decoded.pop(key, None)
        self._lazy_keys = [k for k in self._lazy_keys if k != key]
        self._lazy_lower = None
        return entry

    # ---- remembered values -------------------------------------------------------------
    def memo(self, kind: str, entry: Entry, compute: Callable[[Entry], Any]) -> Any:
        """``compute(entry)``, remembered in the parsed-library cache until the entry changes.

        For what read-only commands derive from every entry (plain-text titles for
        ``list --json``): the second run reads the stored value instead of converting
        LaTeX again. Values must be plain data (str, numbers, lists, dicts, None).
        """
        table = self._memos.table(kind)
        current = self._current(entry.key) is entry
        if entry.key in table and current:
            return table[entry.key]
        value = compute(entry)
        if current:
            table[entry.key] = value
            self._memos.dirty.add(kind)
        return value

    def memo_table(self, kind: str, compute: Callable[[Entry], Any], *, ordered: bool = True) -> Mapping[str, Any]:
        """key -> :meth:`memo` of every entry (only entries without a stored value are
        decoded); ``ordered`` false: the stored table itself, read-only, when it holds
        exactly the library's keys (no copy in the library's order: 50,000 items an ``add``)."""
        table = self._memos.table(kind)
        lazy = self._lazy
        if lazy is not None and hasattr(lazy, "preload") and len(lazy) - len(table) > 64:
            lazy.preload()  # many entries to decode: one read instead of one per entry
        keys = self.keys()
        with collector_paused():
            for key in [k for k in keys if k not in table]:  # (one quick pass: mostly none)
                entry = self.entry_at(key)
                assert entry is not None
                table[key] = compute(entry)
                self._memos.dirty.add(kind)
            if not ordered and len(table) == len(keys):  # (every key in it, no other)
                return MappingProxyType(table)
            return {key: table[key] for key in keys}

    def stored_memos(self, kind: str, keys: list[str]) -> Iterator[Any] | None:
        """The stored :meth:`memo` values of ``keys``, in that order, read one at a time
        (never the whole table), or None when some are not stored as they are now: for a
        read-only command that writes each as it comes (``list --json``)."""
        memos = self._memos
        if kind in memos.tables or kind in memos.raw or not memos.pending or memos.base is None:
            return None
        return memo_files.stored_values(self.refs_dir, memos.base, memos.log, kind, keys)

    def remembered(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, a value derived from the whole library (the suggestions for a key
        it lacks), kept until any entry changes (for a library not modified since it was
        loaded; plain data only)."""
        return self._memos.remembered(name, compute)

    def remembered_apart(self, name: str, compute: Callable[[], Any],
                         patch: Callable[[Any, set[str]], Any] | None = None) -> Any:
        """:meth:`remembered` for a large answer (the search index), in a file of its own,
        brought up to date by ``patch`` (:meth:`.memos.MemoStore.remembered_apart`)."""
        return self._memos.remembered_apart(name, compute, patch)

    def keep_memos(self) -> None:
        """Store the memo tables with values computed through :meth:`memo` since the load."""
        self._memos.keep()

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
        if blob is None or chunk is None or (not unchanged and marshal.loads(blob) != entry_state(entry)):
            return None
        return chunk[0][:-1] if chunk[0].endswith("\n") else None

    def reloaded(self) -> CachedLibrary:
        """This library if both files are still the bytes it was loaded from, else a new load.

        For a writer that read before taking the lock: nothing is re-decoded when nobody
        wrote meanwhile. Only for a library not modified since it was loaded.
        """
        if self._fingerprint is not None and not journal_path(self.refs_dir).exists():
            if self._still_as_seen() or fingerprint_now(self.refs_dir) == self._fingerprint:
                return self
        return type(self).load(self.refs_dir)

    # ---- load --------------------------------------------------------------------------
    @classmethod
    def load(cls, refs_dir: Path, *, use_cache: bool = True, recover: bool = True) -> CachedLibrary:
        """See :meth:`PlainLibrary.load`. A parse is stored in the project's parsed-library
        cache and reused while neither file changes (``use_cache=False``: neither read
        nor stored)."""
        refs = Path(refs_dir)
        if recover:
            recover_if_free(refs)
        with collector_paused():
            return retrying_split(lambda: cls._load_once(refs, use_cache), refs)

    @classmethod
    def _load_once(cls, refs: Path, use_cache: bool) -> CachedLibrary:
        stats = parsed_cache.stat_pair(refs) if use_cache and not journal_path(refs).exists() else None
        if use_cache:
            known = parsed_cache.known_fingerprint(refs, stats)
            cached = parsed_cache.read(refs, known) if known is not None else None
            if cached is not None:  # both files as when last hashed: neither is read
                return cls._from_cache(refs, cached, known)._seen(known, stats)
        bib_data, side_data = read_pair(refs)
        fingerprint = parsed_cache.fingerprint(bib_data, side_data)
        after = parsed_cache.stat_pair(refs) if stats is not None else None
        # the same stat before and after the read: the bytes hashed are the files' (see _still_as_seen)
        seen = stats if stats is not None and stats == after else None
        stored = parsed_cache.read(refs, None) if use_cache else None  # a load of any files
        if stored is not None and stored.get("fingerprint") == fingerprint:
            parsed_cache.remember_stat(refs, stats, after, fingerprint)
            return cls._from_cache(refs, stored, fingerprint)._seen(fingerprint, seen)
        lib = cls._parse(refs, bib_data, side_data, remember=use_cache)  # (a split pair: tried again)
        lib._fingerprint = fingerprint
        lib._seen(fingerprint, seen)
        if use_cache:
            data = lib._cache_data(stored)  # what did not change since that load holds
            if parsed_cache.write(refs, data):
                lib._remember_stored(data)
            parsed_cache.remember_stat(refs, stats, after, fingerprint)
            lib._state_blobs = data["entries"]  # what each entry was when loaded
            lib._chunk_blobs = data["chunks"]  # the texts of the entries this parse left unchanged
            lib._loaded_ascii = lib.ascii
        return lib

    @classmethod
    def _from_cache(cls, refs: Path, data: dict[str, Any], fingerprint: tuple[Any, ...]) -> CachedLibrary:
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
        lib.renamed_by_hand = dict(meta.get("renamed_by_hand") or {})  # (absent from older caches)
        lib._lazy = data["entries"]  # decoded on first use (see entries)
        lib._lazy_keys = data["keys"]
        lib._lazy_aliases = data["aliases"]
        lib._lazy_alias_lists = data["alias_pairs"]
        lib._state_blobs = data["entries"]  # what each entry was when loaded (copied before a write)
        lib._loaded_blobs = data["entries"]
        lib._loaded_ascii = lib.ascii
        lib._chunk_blobs = data["chunks"]  # decoded only when the library is written
        layout = data.get("layout")
        if isinstance(layout, dict) and layout.get("fingerprint") == fingerprint:
            lib._layout = {**layout, "keys": data["keys"]}  # where each entry lies in both files
        lib._fingerprint = fingerprint
        lib._memos.start(data["memo_base"], data["memo_log"])  # tables read from their own files when first asked for
        lib._remember_stored(data)
        return lib
