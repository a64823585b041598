"""A cached library's full render: each entry's texts rendered once, reused while it is unchanged.

The half of :class:`.library.CachedLibrary` that renders both files whole (``render_files``:
``export``, ``doctor``); a write splices them instead (:mod:`.layout`)."""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from typing import TYPE_CHECKING

from citekit.library.store.cache import state
from citekit.library.store.cache.blobs import BlobOverlay, keys_outside
from citekit.library.store.render import render_changed
from citekit.library.store.sidecar.records import sidecar_blocks

if TYPE_CHECKING:
    from citekit.core.model import Entry
    from citekit.library.store.cache.memos import MemoStore


class ChunkReuse:
    """Mixed into :class:`.library.CachedLibrary`, whose attributes these are."""

    ascii: bool
    _chunks: dict[str, tuple[str, str]]
    _chunk_blobs: Mapping[str, bytes]
    _state_blobs: Mapping[str, bytes]
    _loaded_ascii: bool
    _lazy: Mapping[str, bytes] | None
    _decoded: dict[str, Entry]
    _memos: MemoStore

    if TYPE_CHECKING:  # (the library's own)
        def sorted_keys(self) -> list[str]: ...
        def sorted_entries(self) -> list[Entry]: ...
        def entry_at(self, key: str) -> Entry | None: ...

    def _entry_texts(self) -> tuple[list[str], list[str], list[str]]:
        """The keys in file order, and each entry's text in library.bib and in the sidecar.

        An entry unchanged since the load keeps the texts it was written as, so a write
        after ``tag`` renders one entry; the result is by construction the same bytes as
        rendering everything. On a cached load, entries never decoded are as loaded by
        definition: their stored texts are copied without decoding them (``tag`` decodes
        one entry of thousands).
        """
        from citekit.bibtex.writer import check_unique_keys

        if hasattr(self._chunk_blobs, "preload"):
            self._chunk_blobs.preload()  # (nearly) every entry's stored text is reused
        if not isinstance(self._state_blobs, (dict, BlobOverlay)):  # as read from the cache: entries are dropped below
            self._state_blobs = BlobOverlay(self._state_blobs)
        decoded: dict[str, Entry]
        if self._lazy is not None and all(e.key == k for k, e in self._decoded.items()):
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
            if blob is not None and marshal.loads(blob) == state.entry_state(entry):
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
                self._memos.drop(entry.key)
            blobs.pop(key, None)
            if block_of is None:
                block_of = sidecar_blocks()
            rendered = render_changed(entry, self.ascii, block_of)
            chunks[entry.key] = rendered
            bib_parts.append(rendered[0])
            yaml_parts.append(rendered[1])
        self._keep_only(keys)
        return keys, bib_parts, yaml_parts

    def _keep_only(self, keys: list[str]) -> None:
        """Forget the texts, states and derived values of entries no longer in the library."""
        keyset = set(keys)
        chunks, blobs = self._chunks, self._state_blobs
        assert isinstance(blobs, (dict, BlobOverlay))
        for key in [k for k in chunks if k not in keyset]:
            del chunks[key]
        for key in keys_outside(blobs, keyset):
            blobs.pop(key, None)
        stored = self._chunk_blobs
        self._chunk_blobs = BlobOverlay(stored, None, keys_outside(stored, keyset) | set(chunks))
        self._memos.keep_only(keyset)
