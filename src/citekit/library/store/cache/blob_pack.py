"""How a write of the parsed-library cache lays out the blob file: appended to or packed anew.

A write that changed a few entries appends their new blobs to the blob file the loaded
cache points into (:func:`append_parts`), so a one-entry change to a 50,000-entry library
writes a few kilobytes instead of copying 90 MB; the spans of every other blob stay where
they are, and bytes once written are never changed (a reader of the older cache still reads
what it expects). When the file would hold more than a quarter more than it uses (blobs of
replaced entries left behind) it is packed anew (:func:`pack`, :func:`write_parts`).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from citekit.library.store.cache.blobs import BlobFile, BlobOverlay, BlobTable


def _layers(blobs: Mapping[str, bytes]) -> tuple[Mapping[str, bytes], Mapping[str, bytes], set[str] | frozenset[str]]:
    """(base, blobs put over it, keys taken out of it) of a table: an overlay's three
    layers, or a table alone."""
    if isinstance(blobs, BlobOverlay):
        return blobs._base, blobs._over, blobs._gone
    return blobs, {}, frozenset()


def pack(keys: list[str], tables: dict[str, Mapping[str, bytes]]) -> tuple[dict[str, bytes], list[Any]]:
    """Spans per table (see :class:`BlobTable`) in a new blob file, and the parts that file
    is made of; each table's blobs lie in key order. A blob still where a loaded cache's
    blob file holds it is a part ``(file, start, end)``, copied from there by
    :func:`write_parts` without being read into memory."""
    spans: dict[str, bytes] = {}
    parts: list[Any] = []
    at = 0
    for name, blobs in tables.items():
        marks = array("Q")
        quick = _pack_over_table(keys, blobs, at, marks, parts)
        if quick is not None:
            at = quick
            spans[name] = marks.tobytes()
            continue
        span_of = getattr(blobs, "span", None)
        for key in keys:
            part: Any = span_of(key) if span_of is not None else None
            if part is None:
                part = blobs.get(key, b"")  # b"": a key without a blob, an empty span
                size = len(part)
            else:
                size = part[2] - part[1]
            marks.append(at)
            at += size
            marks.append(at)
            if size:
                parts.append(part)
        spans[name] = marks.tobytes()
    return spans, parts


def _pack_over_table(keys: list[str], blobs: Mapping[str, bytes], at: int, marks: array, parts: list[Any]) -> int | None:
    """:func:`pack` of one table that is a loaded :class:`BlobTable` (or an overlay of one),
    kept short: adjacent unchanged blobs become one span. Returns where the table ends
    (None: not such a table)."""
    base, over, gone = _layers(blobs)
    if not isinstance(base, BlobTable) or base._all is not None:
        return None
    base._position("")  # (builds the key index)
    where, spans, source = base._index, base._spans, base._source
    run: list[int] = []  # [start, end] of the span being gathered
    append, mark = parts.append, marks.append
    for key in keys:
        mark(at)
        if key in over:
            value = over[key]
            if value:
                if run:
                    append((source, run[0], run[1]))
                    run = []
                append(value)
                at += len(value)
        elif key not in gone:
            i = where.get(key)
            if i is not None:
                start, end = spans[2 * i], spans[2 * i + 1]
                if end != start:
                    if run and run[1] == start:
                        run[1] = end
                    else:
                        if run:
                            append((source, run[0], run[1]))
                        run = [start, end]
                    at += end - start
        mark(at)
    if run:
        append((source, run[0], run[1]))
    return at


#: bytes of replaced blobs a blob file may hold beyond ``slack`` before it is packed anew
LEFT_BEHIND = 1 << 20


def appendable(tables: dict[str, Mapping[str, bytes]]) -> BlobFile | None:
    """The blob file every table's unchanged blobs lie in, when a write can append to it
    (see :func:`append_parts`): every table a loaded :class:`BlobTable` or an overlay of
    one, all of one file; else None."""
    source = None
    for blobs in tables.values():
        base = _layers(blobs)[0]
        if not isinstance(base, BlobTable):
            return None
        if source is None:
            source = base._source
        elif base._source is not source:
            return None
    return source


def append_parts(keys: list[str], tables: dict[str, Mapping[str, bytes]], source: BlobFile,
                 *, slack: float = 0.25) -> tuple[dict[str, bytes], int] | None:
    """Spans per table in ``source``'s file, with the blobs that are not there yet (new or
    changed entries) appended to it in one write, and the size the file has with them;
    None when the file would then hold more than ``1 + slack`` times the bytes it uses
    (plus a megabyte: it is packed anew instead, :func:`pack`) or cannot be appended to
    (gone, replaced, read-only)."""
    relative: dict[str, array] = {}
    pending: list[bytes] = []
    at = live = 0
    appended: dict[str, list[int]] = {}
    for name, blobs in tables.items():
        base, over, gone = _layers(blobs)
        assert isinstance(base, BlobTable)
        base._position("")  # (builds the key index)
        where, spans = base._index, base._spans
        marks = array("Q")
        new_at: list[int] = []  # positions in ``marks`` that are offsets into the appended bytes
        for key in keys:
            if key in over:
                value = over[key]
                new_at.append(len(marks))
                marks.append(at)
                at += len(value)
                marks.append(at)
                if value:
                    pending.append(value)
                continue
            i = None if key in gone else where.get(key)
            if i is None:
                marks.append(0)
                marks.append(0)
                continue
            start, end = spans[2 * i], spans[2 * i + 1]
            marks.append(start)
            marks.append(end)
            live += end - start
        relative[name] = marks
        appended[name] = new_at
    live += at
    if source.size + at > (1 + slack) * live + LEFT_BEHIND:
        return None
    start = _append(source, pending, at)
    if start is None:
        return None
    out: dict[str, bytes] = {}
    for name, marks in relative.items():
        for n in appended[name]:
            marks[n] += start
            marks[n + 1] += start
        out[name] = marks.tobytes()
    return out, start + at


def _append(source: BlobFile, pending: list[bytes], size: int) -> int | None:
    """Append ``pending`` (``size`` bytes) to ``source``'s file in one write; where they
    begin, or None when the file cannot be appended to (nothing then points at a partial
    write, which a later write appends after)."""
    data = b"".join(pending)
    try:
        fd = os.open(source.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        st, mine = os.fstat(fd), os.fstat(source._fd)
        if (st.st_dev, st.st_ino) != (mine.st_dev, mine.st_ino) or st.st_size < source.size:
            return None
        if not data:
            return st.st_size
        if os.write(fd, data) != size:  # (another appender may follow: one write each)
            return None
        return os.lseek(fd, 0, os.SEEK_CUR) - size
    except OSError:
        return None
    finally:
        os.close(fd)


#: spans copied with one system call at most this long (and read at most this much at once)
_COPY_STEP = 1 << 24


def write_parts(path: Path, parts: list[Any]) -> bool:
    """Replace ``path`` (a blob file, never fsynced: a cache) with ``parts`` (bytes, or
    ``(BlobFile, start, end)`` spans of a loaded cache's file, adjacent ones copied as one);
    False and nothing left behind on failure."""
    from citekit.core.cachefile import _write_all, replace_with

    def write(fd: int) -> None:
        pending: list[bytes] = []
        run: list[Any] = []  # [file, start, end] of adjacent spans
        for part in parts:
            if isinstance(part, tuple):
                if run and run[0] is part[0] and run[2] == part[1]:
                    run[2] = part[2]
                    continue
                _write_all(fd, pending)
                pending = []
                if run:
                    _copy_span(run[0], run[1], run[2], fd)
                run = list(part)
                continue
            if run:
                _write_all(fd, pending)
                pending = []
                _copy_span(run[0], run[1], run[2], fd)
                run = []
            pending.append(part)
        _write_all(fd, pending)
        if run:
            _copy_span(run[0], run[1], run[2], fd)

    return replace_with(path, write)


def _copy_span(source: BlobFile, start: int, end: int, fd: int) -> None:
    """Append bytes ``start:end`` of ``source`` to ``fd``: in the kernel where it can."""
    if source._data is not None:
        _write_view(fd, memoryview(source._data)[start:end])
        return
    copy = getattr(os, "copy_file_range", None)
    while start < end:
        done = 0
        if copy is not None:
            try:
                done = copy(source._fd, fd, min(end - start, _COPY_STEP), start)
            except OSError:
                copy = None
                done = 0
        if not done:
            data = os.pread(source._fd, min(end - start, _COPY_STEP), start)
            if not data:
                raise OSError(f"the blob file is shorter than its cache says ({start} of {end})")
            _write_view(fd, memoryview(data))
            done = len(data)
        start += done


def _write_view(fd: int, view: memoryview) -> None:
    while view:
        view = view[os.write(fd, view):]
