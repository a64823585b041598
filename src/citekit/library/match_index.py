"""The index a sync matches works against, kept with the parsed-library cache.

:class:`~citekit.library.update.LibraryIndex` files every entry under its identifiers,
folded titles, abstract prints, URLs and the places the notes put it last time. Building
it walks every entry: on a 50,000-entry library about a second of each sync, although a
sync that brings 78 works touches a handful of entries. Here it is built once, kept in a
file of its own beside the parsed-library cache (``remembered_apart``), and brought up to
date from the entries each later write or hand edit changed (the cache's change log names
them), so a sync reads it instead of building it. Within a run, the entries the works
land on are filed again in memory over the kept index (:class:`KeptIndex`); nothing
written to the kept one describes anything but the files it was derived from.
"""

from __future__ import annotations

from typing import Any

from citekit.core.model import Entry
from citekit.library.store import Library, kinds
from citekit.library.store.cache.buckets import Bucketed, Sections, key_digest
from citekit.library.update import LibraryIndex, index_keys

#: a kept index is patched while the entries changed since are at most this share of the
#: library, or this many; beyond, it is built again (one pass, as without a kept one)
PATCH_SHARE = 20
PATCH_MIN = 256

#: how many times :func:`library_index` built the index from every entry in this process
#: (a test reads it: a sync over an unchanged library must not build it)
BUILDS = [0]


def library_index(lib: Library, *, keep: bool = True) -> LibraryIndex:
    """The match index of ``lib`` as loaded (call it before changing any entry).

    On a cached load whose entries are still marshalled, no entry is decoded here: the
    index answers with keys and decodes only the entries a lookup hands back
    (:class:`LazyKeptIndex`), so ``add`` of one paper to 50,000 entries decodes a handful.

    ``keep=False``: an index built or patched here is not stored yet; the caller stores it
    (``lib.keep_memos()``) if it writes nothing. A write would make the stored copy stale
    at once (15 MB written for nothing at 50,000 entries): ``add`` of a new paper."""
    lazy = getattr(lib, "is_lazy", None) is not None and lib.is_lazy()
    keys = lib.keys()
    data = lib.remembered_apart(kinds.MATCH_INDEX, lambda: _build(lib), lambda kept, changed: _patch(lib, kept, changed))
    if not _describes(data, keys):  # a kept index of other entries (never expected): build it
        data = _build(lib)
    if keep:
        lib.keep_memos()  # nothing changed yet: what is kept describes the files as loaded
    if lazy and lib.is_lazy():
        return LazyKeptIndex(lib, keys, data)
    return KeptIndex(list(lib.entries.values()), data)


def _filed(entry: Entry, lookups: tuple[list[Any], str]) -> tuple[list[tuple[str, Any]], str]:
    raw, rough = lookups
    keys = [(kind, tuple(value) if isinstance(value, list) else value) for kind, value in raw]
    seen: set[tuple[str, Any]] = set()
    out = []
    for key in keys + [("at", str(loc)) for loc in entry.mentions]:
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out, rough


def _build(lib: Library) -> dict[str, Any]:
    BUILDS[0] += 1
    table = lib.memo_table(kinds.INDEX_KEYS, index_keys)
    data: dict[str, Any] = Sections(postings={}, own={}, rough={}, words={})  # (kept in buckets)
    for key, entry in lib.entries.items():
        _file(data, key, *_filed(entry, table[key]))
    return data


def _file(data: dict[str, Any], key: str, filed: list[tuple[str, Any]], rough: str) -> None:
    postings, words = data["postings"], data["words"]
    data["own"][key] = filed
    data["rough"][key] = rough
    for item in filed:
        postings.setdefault(item, []).append(key)
    for word in set(rough.split()):
        words.setdefault(word, []).append(key)


def _patch(lib: Library, data: dict[str, Any], changed: set[str]) -> dict[str, Any] | None:
    """``data`` after the entries ``changed`` were added, edited or removed; None when so
    many changed that building it again costs less."""
    if len(changed) > max(PATCH_MIN, len(data["own"]) // PATCH_SHARE):
        return None
    postings, words = data["postings"], data["words"]
    drop_items: dict[tuple[str, Any], set[str]] = {}
    drop_words: dict[str, set[str]] = {}
    for key in changed:
        for item in data["own"].pop(key, ()):
            drop_items.setdefault(tuple(item), set()).add(key)
        for word in set(data["rough"].pop(key, "").split()):
            drop_words.setdefault(word, set()).add(key)
    _drop_keys(postings, drop_items)
    _drop_keys(words, drop_words)
    for key in sorted(changed):
        entry = lib.entry_at(key)
        if entry is not None:
            # computed, not read from the memo table: each of these entries changed since,
            # so the table holds no value for it, and reading it costs 30 MiB at 50k entries
            _file(data, key, *_filed(entry, index_keys(entry)))
    return data if isinstance(data, Sections) else Sections(data)  # (one kept whole before: stored in buckets)


def _drop_keys(postings: dict[Any, list[str]], drops: dict[Any, set[str]]) -> None:
    """Take ``drops[x]``'s keys out of ``postings[x]``; a posting left empty goes."""
    for item, keys in drops.items():
        posting = postings.get(item)
        if not posting:
            continue
        if len(keys) * 8 < len(posting):  # a few keys out of a long posting (a common word): removed in place
            for key in keys:
                while key in posting:
                    posting.remove(key)
            kept = posting
        else:
            kept = [k for k in posting if k not in keys]
        if kept:
            postings[item] = kept
        else:
            postings.pop(item, None)


def _describes(data: Any, keys: list[str]) -> bool:
    own = data.get("own") if isinstance(data, dict) else None
    if isinstance(own, Bucketed):  # (its keys known by their digest: no bucket decoded)
        return len(own) == len(keys) and own.digest == key_digest(keys)
    return isinstance(own, dict) and len(own) == len(keys) and all(k in own for k in keys)


class KeptIndex(LibraryIndex):
    """A :class:`LibraryIndex` answered from a kept index (entry keys, as loaded) and, for
    the entries filed again in this run, from its own maps (entry objects, as now).

    An entry filed again is "shadowed": its kept filing is ignored from then on, so a work
    that changed an entry's title finds it under the new title only, as in a fresh index.
    """

    def __init__(self, entries: list[Entry], data: dict[str, Any]) -> None:
        super().__init__([])
        self._entries = list(entries)
        self._order = {id(e): i for i, e in enumerate(self._entries)}
        self._loaded_key = {id(e): e.key for e in self._entries}
        self._by_key = {e.key: e for e in self._entries}
        self._kept = data
        self._shadowed: set[str] = set()
        self._word_cache: dict[str, set[int]] = {}

    def _unindex(self, entry: Entry) -> None:
        key = self._loaded_key.get(id(entry))
        if key is not None and key not in self._shadowed and id(entry) not in self._keys:
            self._shadowed.add(key)
            self._word_cache.clear()
            return
        super()._unindex(entry)

    def _bucket(self, key: tuple[str, Any]) -> list[Entry]:
        kept = [self._by_key[k] for k in self._kept["postings"].get(key, ()) if k not in self._shadowed]
        extra = self._map.get(key)
        return kept + extra if extra else kept

    def _own(self, entry: Entry) -> list[tuple[str, Any]]:
        if id(entry) in self._keys:
            return self._keys[id(entry)]
        key = self._loaded_key.get(id(entry))
        if key is None or key in self._shadowed:
            return []
        return [tuple(item) for item in self._kept["own"].get(key, ())]

    def _posting(self, word: str) -> set[int]:
        kept = self._word_cache.get(word)
        if kept is None:
            kept = {self._order[id(self._by_key[k])] for k in self._kept["words"].get(word, ())
                    if k not in self._shadowed}
            self._word_cache[word] = kept
        extra = self._words.get(word)
        return kept | extra if extra else kept

    def _rough_of(self, entry: Entry) -> str:
        if id(entry) in self._rough:
            return self._rough[id(entry)]
        return self._kept["rough"].get(self._loaded_key.get(id(entry), ""), "")


class _Positions:
    """The entries of a :class:`LazyKeptIndex` by position, as the base class's list of
    them is read: a loaded entry is decoded when first asked for, a new one appended."""

    def __init__(self, index: LazyKeptIndex) -> None:
        self._index = index
        self._added: list[Entry] = []

    def __len__(self) -> int:
        return len(self._index._keys_loaded) + len(self._added)

    def __getitem__(self, i: int) -> Entry:
        index = self._index
        loaded = len(index._keys_loaded)
        if i >= loaded:
            return self._added[i - loaded]
        entry = index._at.get(i)
        if entry is None:
            entry = index._lib.entry_at(index._keys_loaded[i])
            assert entry is not None, "an entry of the loaded library is gone without having been decoded"
        return entry

    def append(self, entry: Entry) -> None:
        self._added.append(entry)


class _OrderOf(dict):  # type: ignore[type-arg]
    """id(entry) -> position, for the entries decoded so far and those added."""


class LazyKeptIndex(KeptIndex):
    """A :class:`KeptIndex` over a cached load whose entries are still marshalled.

    Positions and postings are read by key; an entry is decoded only when a lookup hands
    it back (or the base class compares it), and the library tells this index each entry
    it decodes (``decode_watchers``), so an entry renamed or merged later in the run is
    still known under the key it was loaded with.
    """

    def __init__(self, lib: Any, keys: list[str], data: dict[str, Any]) -> None:
        LibraryIndex.__init__(self, [])
        self._lib = lib
        self._keys_loaded = list(keys)
        self._pos = {k: i for i, k in enumerate(self._keys_loaded)}
        self._at: dict[int, Entry] = {}
        self._order = _OrderOf()
        self._loaded_key = {}
        self._entries = _Positions(self)  # type: ignore[assignment]
        self._kept = data
        self._shadowed = set()
        self._word_cache = {}
        for key, entry in list(lib._decoded.items()):  # decoded before the index: none changed yet
            self._learn(key, entry)
        lib.decode_watchers.append(self._learn)

    def _learn(self, key: str, entry: Entry) -> None:
        i = self._pos.get(key)
        if i is None or i in self._at:
            return
        self._at[i] = entry
        self._order[id(entry)] = i
        self._loaded_key[id(entry)] = key

    def _entry_of(self, key: str) -> Entry:
        i = self._pos[key]
        entry = self._at.get(i)
        if entry is None:
            entry = self._lib.entry_at(key)  # (learnt through the watcher)
            assert entry is not None
        return entry

    def _bucket(self, key: tuple[str, Any]) -> list[Entry]:
        kept = [self._entry_of(k) for k in self._kept["postings"].get(key, ()) if k not in self._shadowed]
        extra = self._map.get(key)
        return kept + extra if extra else kept

    def _posting(self, word: str) -> set[int]:
        kept = self._word_cache.get(word)
        if kept is None:
            kept = {self._pos[k] for k in self._kept["words"].get(word, ()) if k not in self._shadowed}
            self._word_cache[word] = kept
        extra = self._words.get(word)
        return kept | extra if extra else kept

    def _rough_at(self, i: int) -> str:
        if i < len(self._keys_loaded):
            entry = self._at.get(i)
            if entry is None or id(entry) not in self._rough:
                key = self._keys_loaded[i]
                return "" if key in self._shadowed else self._kept["rough"].get(key, "")
        return self._rough_of(self._entries[i])
