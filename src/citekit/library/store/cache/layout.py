"""A cached library's write in proportion to the change: both files spliced, not rendered whole.

The half of :class:`.library.CachedLibrary` that writes ``library.bib`` and the sidecar.
Each file is the text above the entries, each entry's unit (the text above it, then its
own text) and the text below (:meth:`.kept.KeptText._body_frame`,
:func:`.header.bib_prefix`, :func:`.sidecar.document.render_frame`). After a write the
parsed-library cache records where each entry's unit lies in both files (the *layout*).
The next write renders only the entries that changed, and the text around the entries
(small); every other unit is a span of the file as it is (:class:`..spliced.Spliced`),
streamed into the new file, so a one-entry ``tag`` of a 50,000-entry library neither
decodes nor renders nor holds the other 49,999. The bytes are those a full render gives
(``tests/library/test_spliced_writes.py`` compares them): a span is reused only for an
entry exactly as loaded (its state unchanged, so its text is what was written) under the
same text above it, and the spans are of the very bytes they were measured in (the files'
fingerprint; :meth:`..spliced.Spliced.open` checks it again before copying).
"""

from __future__ import annotations

import marshal
import os
from array import array
from itertools import accumulate
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.library.store.cache import state
from citekit.library.store.cache.parsed_cache import STATE_MARSHAL
from citekit.library.store.cache.blobs import BlobOverlay, membership
from citekit.library.store.render import render_changed
from citekit.library.store.sidecar.records import sidecar_blocks

if TYPE_CHECKING:
    from citekit.core.model import Entry
    from citekit.library.spliced import Spliced
    from citekit.library.store.cache.memos import MemoStore

#: the form of the layout the cache stores (a layout of another form is ignored: the next
#: write renders in full and stores this one)
LAYOUT_VERSION = 3

#: an entry's origin as a flag of the layout (the header names where entries come from)
_ORIGIN_FLAGS = (("notes", 1), ("import", 2))


def origin_flags(side_text: str) -> int:
    """The origins an entry's sidecar text names (as :func:`.header.origins_in` reads them)."""
    from citekit.library.store.header import _ORIGIN_MARK

    return sum(flag for origin, flag in _ORIGIN_FLAGS if _ORIGIN_MARK.format(origin) in side_text)


class SplicedWrite:
    """Mixed into :class:`.library.CachedLibrary`, whose attributes these are."""

    refs_dir: Path
    ascii: bool
    unparsed: list[str]
    issued_keys: set[str]
    detached: dict[str, dict[str, Any]]
    pending: list[dict[str, Any]]
    _chunks: dict[str, tuple[str, str]]
    _chunk_blobs: Mapping[str, bytes]
    _state_blobs: Mapping[str, bytes]
    _loaded_ascii: bool
    _lazy: Mapping[str, bytes] | None
    _decoded: dict[str, Entry]
    _entries: dict[str, Entry]
    _memos: MemoStore
    _fingerprint: tuple[Any, ...] | None
    #: where each entry's units lie in both files as loaded (None: not known): "bib" and
    #: "side" (start, end) of each unit, "flags" (origins), in the files' order: "keys" (the
    #: cache's, the library's order) sorted as the files are; "seps" (the text above a unit
    #: when not one line end), "side_first", "bib_ends"/"side_ends" (where the units begin
    #: and end), "fingerprint" (of the files measured)
    _layout: dict[str, Any] | None
    #: the layout of the files staged by the last save (key -> spans), stored with the cache
    _staged_layout: dict[str, Any] | None

    if TYPE_CHECKING:  # (the library's own)
        @property
        def bib_path(self) -> Path: ...
        @property
        def sidecar_path(self) -> Path: ...
        def sorted_keys(self) -> list[str]: ...
        def sorted_entries(self) -> list[Entry]: ...
        def keys(self) -> list[str]: ...
        def entry_at(self, key: str) -> Entry | None: ...
        def aliases_by_key(self) -> dict[str, list[str]]: ...
        def _body_frame(self, keys: list[str]) -> tuple[str, list[str], str]: ...
        def _keep_only(self, keys: list[str]) -> None: ...

    def _files_to_write(self) -> tuple[Any, Any]:
        """Both files' new contents as :class:`..spliced.Spliced` files: spans of the files
        as loaded where the layout is known, else every entry's text (reused or rendered)."""
        from citekit.library.spliced import SourceChanged

        try:
            spliced = self._spliced_files(use_layout=True)
        except _Empty:
            return super()._files_to_write()  # type: ignore[misc]
        mark = getattr(self, "_seen_as", None)  # (the stat of both files when this process hashed them)
        seen = mark[1] if mark is not None and mark[0] == self._fingerprint else (None, None)
        try:
            for one, stat in zip(spliced, seen):
                one.open(stat)  # the files are still the bytes the layout is of (else render in full)
        except (SourceChanged, OSError):
            for one in spliced:
                one.close()
            spliced = self._spliced_files(use_layout=False)
        return spliced

    def _layout_usable(self) -> dict[str, Any] | None:
        """The layout, when it is of the files this library was loaded from, in its form,
        and the entries' texts were written in the mode they would be now (ASCII or not)."""
        layout = self._layout
        if (layout is None or self._fingerprint is None or layout.get("version") != LAYOUT_VERSION
                or layout.get("fingerprint") != self._fingerprint
                or self.ascii != self._loaded_ascii):
            return None
        return layout

    def _spliced_files(self, *, use_layout: bool) -> tuple[Spliced, Spliced]:
        """Both files as pieces: the text above the entries, each entry's unit, the text
        below. A unit is a span of the file when the entry is exactly as loaded and stands
        under the same text as then (``use_layout`` and a usable layout), else its bytes
        (the stored text of an unchanged entry, or the entry rendered). Entries decided
        changed are handled as :meth:`.chunks.ChunkReuse._entry_texts` does: their derived
        values dropped, their stored state forgotten. Raises :class:`_Empty` for a library
        with no entry."""
        from citekit.bibtex.writer import check_unique_keys
        from citekit.library.spliced import Spliced
        from citekit.library.store.header import bib_prefix, bib_suffix
        from citekit.library.store.sidecar.document import render_frame

        layout = self._layout_usable() if use_layout else None
        if not isinstance(self._state_blobs, (dict, BlobOverlay)):  # as read from the cache: entries are dropped below
            self._state_blobs = BlobOverlay(self._state_blobs)
        decoded: dict[str, Entry]
        if self._lazy is not None and all(e.key == k for k, e in self._decoded.items()):
            keys = self.sorted_keys()
            decoded = self._decoded
            lowered = {k.lower() for k in keys}
            if len(lowered) != len(keys):
                check_unique_keys(self.sorted_entries())
        else:
            ordered = self.sorted_entries()
            check_unique_keys(ordered)
            keys = [e.key for e in ordered]
            decoded = {e.key: e for e in ordered}
        if not keys:
            raise _Empty
        head, seps, tail = self._body_frame(keys)
        now_keys = self.keys()
        same_order = False
        index: dict[str, int] = {}
        added: set[str] | None = None  # (keys only added since the load: ``add``)
        if layout is not None:
            # the layout lies in the files' order: the cache's keys sorted as the files are
            same_order = layout["keys"] == now_keys
            loaded_keys = layout["keys"]
            if not same_order and len(now_keys) > len(loaded_keys) and now_keys[:len(loaded_keys)] == loaded_keys:
                # only added: an entry's place in the files as loaded is its place now less
                # the added keys sorted before it (see _files_order), counted on the way
                added = set(now_keys[len(loaded_keys):])
            elif not same_order:
                index = {k: i for i, k in enumerate(_files_order(loaded_keys))}
            bib_spans = memoryview(layout["bib"]).cast("Q")
            side_spans = memoryview(layout["side"]).cast("Q")
            old_flags: bytes = layout["flags"]
            old_seps: dict[str, str] = layout["seps"]
            old_side_first = layout["side_first"]
        blobs = self._state_blobs
        same_mode = self.ascii == self._loaded_ascii
        bib_units: list[Any] = []
        side_units: list[Any] = []
        flags = bytearray()
        block_of = None
        has_blob = membership(blobs)
        before = 0  # added keys passed so far
        placed: dict[int, int | None] = {}  # unit -> its entry's place in the files as loaded (rendered units)
        for i, key in enumerate(keys):
            sep, side_sep = seps[i], ("\n" if i else "")
            if same_order:
                j: int | None = i
            elif added is not None:
                if key in added:
                    before += 1
                    j = None
                else:
                    j = i - before
            else:
                j = index.get(key)
            entry = decoded.get(key)
            unchanged = False
            if entry is None and same_mode and has_blob(key):  # never decoded: exactly as loaded
                unchanged = True
                if layout is not None and i and sep == "\n" and key not in old_seps:
                    # (the common case, kept short: under the same text as when written)
                    if j is not None:
                        bib_units.append((bib_spans[j], bib_spans[j + 1]))
                        side_units.append((side_spans[j], side_spans[j + 1]))
                        flags.append(old_flags[j])
                        continue
            else:
                if entry is None:
                    entry = self.entry_at(key)
                    assert entry is not None
                blob = blobs.get(key) if same_mode else None
                if blob is not None:
                    now = state.entry_state(entry)
                    # (equal states marshal to equal bytes, see STATE_MARSHAL; a mapping built in
                    # another order gives other bytes, so those are compared decoded)
                    unchanged = marshal.dumps(now, STATE_MARSHAL) == blob or marshal.loads(blob) == now
            if unchanged and layout is not None and j is not None and old_seps.get(key, "\n") == sep and (
                    (old_side_first == key) == (i == 0)):
                bib_units.append((bib_spans[j], bib_spans[j + 1]))
                side_units.append((side_spans[j], side_spans[j + 1]))
                flags.append(old_flags[j])
                continue
            texts = self._chunks.get(key) if unchanged else None
            if unchanged and texts is None and key in self._chunk_blobs:
                texts = marshal.loads(self._chunk_blobs[key])
            if texts is None:
                if entry is None:
                    entry = self.entry_at(key)
                    assert entry is not None
                if not unchanged:  # changed since the load: values derived from it no longer hold
                    self._memos.drop(key)
                blobs.pop(key, None)  # type: ignore[attr-defined]
                if block_of is None:
                    block_of = sidecar_blocks()
                texts = render_changed(entry, self.ascii, block_of)
                self._chunks[key] = texts
            placed[len(bib_units)] = j
            bib_units.append((sep + texts[0]).encode("utf-8"))
            side_units.append((side_sep + texts[1]).encode("utf-8"))
            flags.append(origin_flags(texts[1]))
        self._keep_only(keys)
        origins = {origin for origin, flag in _ORIGIN_FLAGS if any(f & flag for f in set(flags))}
        implied = set(keys) | set(self.detached) | {a for aliases in self.aliases_by_key().values() for a in aliases}
        above, below = render_frame(None, implied=implied, issued_keys=self.issued_keys, detached=self.detached,
                                    pending=self.pending, ascii=self.ascii)
        bib_head = (bib_prefix(origins) + head).encode("utf-8")
        bib_tail = (tail + bib_suffix(bool(tail) and not tail.endswith("\n"), self.unparsed)).encode("utf-8")
        side_head, side_tail = above.encode("utf-8"), below.encode("utf-8")
        bib_fp = side_fp = None
        if layout is not None:
            bib_fp, side_fp = self._fingerprint[0], self._fingerprint[1]  # type: ignore[index]
            bib_head, bib_tail = _as_span(self.bib_path, bib_head, 0, layout["bib_ends"][0]), \
                _as_span(self.bib_path, bib_tail, layout["bib_ends"][1], bib_fp[0])
            side_head, side_tail = _as_span(self.sidecar_path, side_head, 0, layout["side_ends"][0]), \
                _as_span(self.sidecar_path, side_tail, layout["side_ends"][1], side_fp[0])
            place = (lambda key, n: placed.get(n))
            _spans_for_equal_units(self.bib_path, bib_units, layout, place, keys, "bib")
            _spans_for_equal_units(self.sidecar_path, side_units, layout, place, keys, "side")
        bib_pieces = [bib_head, *bib_units, bib_tail]
        side_pieces = [side_head, *side_units, side_tail]
        self._staged_layout = {
            "of": now_keys, "bib": _positions(bib_pieces), "side": _positions(side_pieces), "flags": bytes(flags),
            "seps": {k: s for k, s in zip(keys, seps) if s != "\n"}, "side_first": keys[0],
        }
        return Spliced(self.bib_path, bib_fp, bib_pieces), Spliced(self.sidecar_path, side_fp, side_pieces)

    def _layout_for_cache(self, keys: list[str], fingerprint: tuple[Any, ...]) -> dict[str, Any] | None:
        """The layout of the files just written, for the cache that stores ``keys`` (the
        library's order): its spans lie in the files' order, those keys sorted as the files
        are, so it is stored as staged, with no pass over the entries."""
        staged = self._staged_layout
        self._staged_layout = None
        if staged is None or staged["of"] != keys:
            return None
        bib, side = staged["bib"], staged["side"]
        # (each file's marks without the text above and below the entries: unit i is
        # marks[i]:marks[i + 1])
        return {"version": LAYOUT_VERSION, "fingerprint": fingerprint, "bib": bib[1:-1].tobytes(),
                "side": side[1:-1].tobytes(),
                "flags": staged["flags"], "seps": staged["seps"], "side_first": staged["side_first"],
                "bib_ends": (bib[1], bib[-2]), "side_ends": (side[1], side[-2])}


class _Empty(Exception):
    """A library with no entry: rendered in full (it is a few lines)."""


def _files_order(loaded: list[str]) -> list[str]:
    """The keys ``loaded`` (the library's order) as the files loaded hold them: sorted as
    :meth:`sorted_keys` sorts, a stable sort by the lower-cased key. (When entries were only
    added since, :meth:`_spliced_files` counts their places instead: ``now_sorted`` without
    the added keys, as the stable sort keeps equal keys in the library's order either way.)"""
    return sorted(loaded, key=str.lower)


def _positions(pieces: list[Any]) -> array:
    """Where each piece begins in the file they make, and the file's end (piece k is
    ``marks[k]:marks[k + 1]``)."""
    return array("Q", accumulate((p[1] - p[0] if p.__class__ is tuple else len(p) for p in pieces), initial=0))


def _read_span(path: Path, start: int, end: int) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        from citekit.library.spliced import pread

        return pread(fd, end - start, start)
    finally:
        os.close(fd)


def _as_span(path: Path, data: bytes, start: int, end: int) -> bytes | tuple[int, int]:
    """``data`` as the span ``start:end`` of the file when the file holds exactly it there
    (text rendered anew but unchanged: the text around the entries, an entry written the same)."""
    if end - start != len(data):
        return data
    return (start, end) if _read_span(path, start, end) == data else data


def _spans_for_equal_units(path: Path, units: list[Any], layout: dict[str, Any], place: Any,
                           keys: list[str], name: str) -> None:
    """Rendered units that are byte for byte the entry's unit in the file as loaded become
    its span (an entry touched but not changed): a write that changes nothing is then one
    span of the whole file, and nothing is written."""
    spans = memoryview(layout[name]).cast("Q")
    if sum(1 for unit in units if not isinstance(unit, tuple)) > 256:
        return  # (many entries rendered: the files are rewritten anyway)
    for n, unit in enumerate(units):
        if isinstance(unit, tuple):
            continue
        j = place(keys[n], n)
        if j is not None:
            units[n] = _as_span(path, unit, spans[j], spans[j + 1])
