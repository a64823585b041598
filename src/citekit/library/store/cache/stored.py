"""What a cached library stores in the parsed-library cache, and when it must store again.

The half of :class:`.library.CachedLibrary` that writes the cache."""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.bibtex.collector import collector_paused
from citekit.core.cachefile import stat_key
from citekit.library.store.cache import memo_files, parsed_cache
from citekit.library.store.cache.blobs import BlobOverlay, keys_outside, membership
from citekit.library.store.cache.state import StoredCache, entry_state
from citekit.library.store.files import BIB_NAME, SIDECAR_NAME, read_pair

if TYPE_CHECKING:
    from citekit.core.model import Entry
    from citekit.library.store.cache.memos import MemoStore

#: "not read yet" (a stored load may be None: there is none)
_UNREAD = object()


class StoredParse:
    """Mixed into :class:`.library.CachedLibrary`, whose attributes these are."""

    refs_dir: Path
    ascii: bool
    issued_keys: set[str]
    problems: list[Any]
    unparsed: list[str]
    preamble: list[str]
    kept_head: str
    kept_before: dict[str, str]
    kept_tail: str
    pending: list[dict[str, Any]]
    detached: dict[str, dict[str, Any]]
    entries: dict[str, Entry]
    _chunks: dict[str, tuple[str, str]]
    _chunk_blobs: Mapping[str, bytes]
    _state_blobs: Mapping[str, bytes]
    _loaded_blobs: Mapping[str, bytes]
    _loaded_ascii: bool
    _fingerprint: tuple[Any, ...] | None
    _lazy: Mapping[str, bytes] | None
    _decoded: dict[str, Entry]
    _entries: dict[str, Entry]
    _stored_as: StoredCache | None
    _memos: MemoStore
    _layout: dict[str, Any] | None
    _staged_layout: dict[str, Any] | None
    renamed_by_hand: dict[str, str]

    if TYPE_CHECKING:  # (the library's own)
        def keys(self) -> list[str]: ...
        def _layout_for_cache(self, keys: list[str], fingerprint: tuple[Any, ...]) -> dict[str, Any] | None: ...
        def aliases_by_key(self) -> dict[str, list[str]]: ...

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
        self._memos.start(previous["memo_base"], list(previous["memo_log"]))
        self._loaded_blobs = blobs
        if not self._chunks and not self._chunk_blobs and bool(previous["meta"].get("ascii")) == self.ascii:
            # a parse: an entry :meth:`_cache_data` finds unchanged keeps the text it was
            # written as, so the next write re-renders only what the files changed
            previous["chunks"].preload()
            self._chunk_blobs = previous["chunks"]

    def _cache_data(self, previous: Any = _UNREAD) -> dict[str, Any]:
        """What the parsed-library cache stores for the library as it is; ``previous``: the
        load stored before, when the caller has read it already."""
        if self._memos.base is None and self._fingerprint is not None:
            self._adopt_memo_generation(parsed_cache.read(self.refs_dir, None) if previous is _UNREAD else previous)
        lazy = self._lazy is not None
        keys = self.keys()
        blobs = self._state_blobs
        # an entry with a stored state is as stored (a write drops the state of every entry
        # it renders); the others are new or re-rendered: marshalled now, and compared with
        # the state loaded (bytes first: equal states give equal bytes, see STATE_MARSHAL)
        objects = self._decoded if lazy else self._entries  # never decoded: has its state
        version, dumps, loads = parsed_cache.STATE_MARSHAL, marshal.dumps, marshal.loads
        has = membership(blobs)
        fresh = {key: dumps(entry_state(objects[key]), version) for key in keys if not has(key)}
        loaded = self._loaded_blobs
        changed = [key for key, blob in fresh.items()  # entries whose state is not the one loaded (or new)
                   if (old := loaded.get(key)) is None or (old != blob and loads(old) != loads(blob))]
        # (overlays of the tables loaded: an unchanged entry's blobs are never read, a write
        # of the cache copies them from the blob file they lie in)
        keyset = set(keys)
        entries = BlobOverlay(blobs, fresh, keys_outside(blobs, keyset))
        # each entry's texts: rendered in this run, or stored with the state they were of
        own, stored, moved = self._chunks, self._chunk_blobs, set(changed)
        chunks = BlobOverlay(stored, {key: dumps(own[key]) for key in own if key in keyset},
                             moved | keys_outside(stored, keyset))
        by_key = self.aliases_by_key()
        alias_pairs = [(a, key) for key in keys if key in by_key for a in by_key[key]]
        aliases: dict[str, str] = {}
        for a, key in alias_pairs:
            aliases.setdefault(a, key)
        memos = self._memos.next_generation(keys, changed, self._loaded_blobs)
        self._loaded_blobs = entries.copy()  # a copy: callers keep ``entries`` as the blobs to pop
        layout = self._layout_for_cache(keys, self._fingerprint) if self._fingerprint is not None else None
        return {
            "layout": layout,
            "fingerprint": self._fingerprint,
            "meta": self._cache_meta(),
            "keys": keys,
            "entries": entries,
            "chunks": chunks,
            "memos": memos,
            "memo_base": self._memos.base,
            "memo_log": self._memos.log,
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
            "renamed_by_hand": dict(self.renamed_by_hand),
        }

    def _remember_stored(self, data: dict[str, Any]) -> None:
        """Note the cache this library was read from or just stored: what
        :meth:`_stored_cache_holds` compares with after a write (with the cache file's
        stat: another process may replace it meanwhile)."""
        self._stored_as = StoredCache(data["fingerprint"], data["keys"], data["meta"],
                                      len(data["chunks"]) == len(data["keys"]),
                                      stat_key(parsed_cache.cache_path(self.refs_dir)))

    def _stored_cache_holds(self, fingerprint: tuple[Any, ...]) -> bool:
        """Whether the cache stored for this library is still exactly what it would store
        now: both files are the bytes it was stored for, every entry still has the state
        stored (a write drops the state of every entry it renders), with each entry's
        texts, and nothing else changed. A no-op ``sync`` then writes no 13 MB again."""
        stored = self._stored_as
        if (stored is None or stored.fingerprint != fingerprint or fingerprint != self._fingerprint
                or not stored.all_texts):
            return False
        if stored.stat is None or stat_key(parsed_cache.cache_path(self.refs_dir)) != stored.stat:
            return False  # replaced (or removed) by another process since: store this library's
        keys = self.keys()
        blobs = self._state_blobs
        return (stored.keys == keys and isinstance(blobs, (dict, BlobOverlay)) and len(blobs) == len(keys)
                and all(k in blobs for k in keys)
                and not self._memos.log_full(keys) and self._cache_meta() == stored.meta)

    def _staged_pair(self, staged: dict[Path, bytes]) -> tuple[bytes | None, bytes | None]:
        """Both files' bytes as just written: those staged (a commit leaves each file holding
        exactly them), else read back."""
        bib, side = (self.refs_dir / BIB_NAME).absolute(), (self.refs_dir / SIDECAR_NAME).absolute()
        if bib in staged and side in staged:
            return staged[bib], staged[side]
        return read_pair(self.refs_dir)

    def _still_as_seen(self) -> bool:
        """Whether both files still have the stat they had when this very object read them
        (the same stat before and after the read) or right after it wrote them, in this
        process: then they are the bytes it hashed, and a writer taking the lock again
        (``add``: read before the lock, then the import and the sync under it) need not read
        and hash 45 MB again, which the stat file cannot tell so soon after a write (see
        ``remember_stat``). Any other writer replaces a file (a new inode) or changes its
        size or times."""
        mark = getattr(self, "_seen_as", None)
        return mark is not None and mark[0] == self._fingerprint and parsed_cache.stat_pair(self.refs_dir) == mark[1]

    def _seen(self, fingerprint: Any, stats: Any) -> Any:
        """Note that both files had ``stats`` when they were found to be ``fingerprint``
        (none: unknown); see :meth:`_still_as_seen`. Returns this library."""
        self._seen_as = (fingerprint, stats) if stats is not None else None
        return self

    def _written(self, staged: dict[Path, bytes]) -> None:
        """Store the library as just written. After a commit each file holds exactly the
        bytes staged for it (written, or already equal), so those are hashed instead of
        reading both files back."""
        self._seen_as = None
        if self.kept_before and min(self.keys(), key=str.lower) in self.kept_before:
            # text kept above the entry now first in the file: a read of these files takes
            # it as the file's head, not the entry's, so what this library holds would differ
            # from what any later read holds; the cache is dropped and the next read parses
            self._layout = self._staged_layout = None
            self._fingerprint = parsed_cache.fingerprint(*self._staged_pair(staged))
            parsed_cache.drop(self.refs_dir)
            return
        fingerprint = parsed_cache.fingerprint(*self._staged_pair(staged))
        written = parsed_cache.stat_pair(self.refs_dir)  # (right after the commit renamed them in)
        if self._stored_cache_holds(fingerprint):  # only values derived in this run to store
            self._staged_layout = None  # (the stored layout is of these very files)
            memos = self._memos.next_generation(self.keys(), [], self._loaded_blobs)
            if memos and self._memos.base is not None:
                memo_files.write_memos(self.refs_dir, self._memos.base, self._memos.log, memos)
            self._seen(fingerprint, parsed_cache.stat_pair(self.refs_dir))
            return
        self._fingerprint = fingerprint
        with collector_paused():
            data = self._cache_data()
            if parsed_cache.write(self.refs_dir, data):
                self._remember_stored(data)
        layout = data.get("layout")
        self._layout = {**layout, "keys": data["keys"]} if layout is not None else None
        self._state_blobs = BlobOverlay(data["entries"])
        self._loaded_ascii = self.ascii
        now = parsed_cache.stat_pair(self.refs_dir)
        self._seen(fingerprint, now)
        # both files as written and unchanged since (the same stat right after the commit
        # and now, their last change far enough back: see ``remember_stat``): the next
        # command knows them without reading and hashing them (45 MB at 50,000 entries)
        parsed_cache.remember_stat(self.refs_dir, written, now, fingerprint)
