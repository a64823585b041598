"""The per-entry blobs of the parsed-library cache, in one file cut on demand.

Each entry's state and its texts in both files are kept in a file of their own and cut
from it when asked for, so ``show`` reads two blobs of 14,000 and ``list`` none.

Each blob is a span ``(start, end)`` of the file, in any order, so a write that changes a
few entries appends their new blobs to the file the loaded cache points into and keeps
every other span where it is (:func:`append_parts`), instead of copying a 90 MB file for
a 50,000-entry library. Bytes once written are never changed, so a reader of the older
cache still reads what it expects. When the file holds more than it uses (replaced blobs
left behind), the next write packs the live blobs into a new file (:func:`pack`)."""

from __future__ import annotations

import operator
import os
import weakref
from array import array
from collections.abc import Iterator, Mapping
from itertools import accumulate, repeat
from pathlib import Path
from typing import Any

from citekit.library.lock import state_dir


def blob_path(refs_dir: Path, token: str) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-blobs-{token}.cache"


class BlobFile:
    """The file holding every entry's blobs, opened when the cache is read.

    Opened at once, so a writer replacing it later (it deletes the old file) cannot take
    it away from a reader: the open descriptor still reads the old bytes. Spans are read
    one at a time (``show`` reads two of 14,000) until :meth:`preload` reads it whole.
    """

    def __init__(self, path: Path, size: int | None = None) -> None:
        self.path = Path(path)
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self._closer = weakref.finalize(self, os.close, self._fd)
        self._data: bytes | None = None
        #: the bytes the cache that opened it uses (the file may have grown since: a later
        #: write appended to it)
        self.size = os.fstat(self._fd).st_size if size is None else size
        if size is not None and os.fstat(self._fd).st_size < size:
            # cut short (blob files are not fsynced: a crash may leave one empty): the
            # cache is unreadable, never half read
            self._closer()
            raise ValueError("the blob file is shorter than its cache says")

    def read(self, start: int, end: int) -> bytes:
        if self._data is not None:
            return self._data[start:end]
        if hasattr(os, "pread"):
            return os.pread(self._fd, end - start, start)
        self.preload()
        assert self._data is not None
        return self._data[start:end]

    def preload(self) -> None:
        if self._data is None:
            size = self.size
            self._data = os.pread(self._fd, size, 0) if hasattr(os, "pread") else _read_all(self._fd, size)


def _read_all(fd: int, size: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    parts = []
    while size > 0:
        chunk = os.read(fd, size)
        if not chunk:
            break
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


class BlobTable(Mapping[str, bytes]):
    """key -> one marshalled blob, cut on demand from the blob file.

    The parsed-library cache itself holds only the key list and, per table, one array of
    spans (blob ``i`` is ``spans[2 * i]:spans[2 * i + 1]``; an empty span is a key without
    a blob): a load decodes a list of strings, not ten thousand (start, end) tuples per
    table, and a command that reads no entry (``list``, ``tags``) reads none of them.
    """

    def __init__(self, keys: list[str], spans: bytes, source: BlobFile, index: dict[str, int]) -> None:
        self._keys = keys
        self._spans = memoryview(spans).cast("Q")
        if len(self._spans) != 2 * len(keys):
            raise ValueError("spans do not match the keys")
        self._source = source
        self._index = index  # key -> position, shared by the tables of one cache, built on first use
        self._count: int | None = None
        self._all: dict[str, bytes] | None = None  # every blob, once the file was read whole

    def _position(self, key: object) -> int | None:
        if not self._index and self._keys:
            self._index.update(zip(self._keys, range(len(self._keys))))
        i = self._index.get(key)  # type: ignore[call-overload]
        if i is None or self._spans[2 * i] == self._spans[2 * i + 1]:
            return None
        return i

    def span(self, key: str) -> tuple[BlobFile, int, int] | None:
        """Where ``key``'s blob lies in the blob file (None: no blob): a write of the cache
        copies it from there instead of reading it (see :func:`write_parts`)."""
        i = self._position(key)
        return None if i is None else (self._source, self._spans[2 * i], self._spans[2 * i + 1])

    def preload(self) -> None:
        """Read the whole file once, before a pass over (nearly) every entry: every blob
        is then cut once into a plain dict that serves all look-ups (a write reads each
        entry's blobs several times)."""
        if self._all is None:
            self._source.preload()
            data, spans = self._source._data, self._spans
            assert data is not None
            self._all = {key: data[start:end] for key, start, end in zip(self._keys, spans[::2], spans[1::2])
                         if start != end}

    def __getitem__(self, key: str) -> bytes:
        if self._all is not None:
            return self._all[key]
        i = self._position(key)
        if i is None:
            raise KeyError(key)
        return self._source.read(self._spans[2 * i], self._spans[2 * i + 1])

    def get(self, key: str, default: Any = None) -> Any:
        if self._all is not None:
            return self._all.get(key, default)
        i = self._position(key)
        return default if i is None else self._source.read(self._spans[2 * i], self._spans[2 * i + 1])

    def __contains__(self, key: object) -> bool:
        if self._all is not None:
            return key in self._all
        return self._position(key) is not None

    def __iter__(self) -> Iterator[str]:
        if self._all is not None:
            return iter(self._all)
        spans = self._spans
        return (k for k, start, end in zip(self._keys, spans[::2], spans[1::2]) if start != end)

    def keys(self) -> Any:
        return self._all.keys() if self._all is not None else super().keys()

    def items(self) -> Any:
        self.preload()
        assert self._all is not None
        return self._all.items()

    def __len__(self) -> int:
        if self._all is not None:
            return len(self._all)
        if self._count is None:  # spans that are not empty
            self._count = sum(map(operator.ne, self._spans[::2], self._spans[1::2]))
        return self._count


class BlobOverlay(Mapping[str, bytes]):
    """A table of blobs (a :class:`BlobTable`, or any mapping) with some blobs replaced,
    added or removed, none of the others read: what a write keeps of the cache it loaded,
    so a one-entry change costs one entry (a copy as a dict read all 50,000 blobs)."""

    def __init__(self, base: Mapping[str, bytes] | None = None, over: dict[str, bytes] | None = None,
                 gone: set[str] | None = None) -> None:
        if isinstance(base, BlobOverlay):  # (flattened: look-ups stay one level deep)
            over = {**base._over, **(over or {})}
            gone = (base._gone | (gone or set())) - over.keys()
            base = base._base
        self._base: Mapping[str, bytes] = base if base is not None else {}
        self._over: dict[str, bytes] = dict(over or {})
        self._gone: set[str] = {k for k in (gone or ()) if k in self._base and k not in self._over}

    def copy(self) -> BlobOverlay:
        return BlobOverlay(self)

    def preload(self) -> None:
        """Read the base's blob file whole (before a pass over nearly every blob)."""
        preload = getattr(self._base, "preload", None)
        if preload is not None:
            preload()

    def clear(self) -> None:
        self._base, self._over, self._gone = {}, {}, set()

    def __getitem__(self, key: str) -> bytes:
        if key in self._over:
            return self._over[key]
        if key in self._gone:
            raise KeyError(key)
        return self._base[key]

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._over:
            return self._over[key]
        if key in self._gone:
            return default
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._over or (key not in self._gone and key in self._base)

    def __iter__(self) -> Iterator[str]:
        over, gone = self._over, self._gone
        yield from (k for k in self._base if k not in gone and k not in over)
        yield from over

    def __len__(self) -> int:
        base = self._base
        return len(base) - len(self._gone) + sum(1 for k in self._over if k not in base)

    def __setitem__(self, key: str, value: bytes) -> None:
        self._over[key] = value
        self._gone.discard(key)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self._over:
            value = self._over.pop(key)
            if key in self._base:
                self._gone.add(key)
            return value
        if key not in self._gone and key in self._base:
            self._gone.add(key)
            return self._base[key]
        if default:
            return default[0]
        raise KeyError(key)

    def span(self, key: str) -> tuple[BlobFile, int, int] | None:
        """Where an unchanged blob lies in the base's blob file (None: not there)."""
        if key in self._over or key in self._gone:
            return None
        span = getattr(self._base, "span", None)
        return span(key) if span is not None else None


def membership(blobs: Mapping[str, bytes]) -> Any:
    """``key in blobs``, made quick for an overlay of a loaded blob table (asked 50,000 times
    by a write: the spliced files, the cache stored after them)."""
    over, gone, base = getattr(blobs, "_over", None), getattr(blobs, "_gone", None), getattr(blobs, "_base", None)
    if over is None or gone is None or not hasattr(base, "_index"):
        return blobs.__contains__
    base._position("")  # type: ignore[union-attr]  # (builds the key index)
    where, spans = base._index, base._spans  # type: ignore[union-attr]

    def has(key: str) -> bool:
        if key in over:
            return True
        if key in gone:
            return False
        i = where.get(key)
        return i is not None and spans[2 * i] != spans[2 * i + 1]
    return has


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
    over: Mapping[str, bytes] = {}
    gone: set[str] | frozenset[str] = frozenset()
    base = blobs
    if isinstance(blobs, BlobOverlay):
        base, over, gone = blobs._base, blobs._over, blobs._gone
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


def appendable(tables: dict[str, Mapping[str, bytes]]) -> BlobFile | None:
    """The blob file every table's unchanged blobs lie in, when a write can append to it
    (see :func:`append_parts`): every table a loaded :class:`BlobTable` or an overlay of
    one, all of one file; else None."""
    source = None
    for blobs in tables.values():
        base = blobs._base if isinstance(blobs, BlobOverlay) else blobs
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
        over: Mapping[str, bytes] = {}
        gone: set[str] | frozenset[str] = frozenset()
        base = blobs
        if isinstance(blobs, BlobOverlay):
            base, over, gone = blobs._base, blobs._over, blobs._gone
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
    if source.size + at > (1 + slack) * live + (1 << 20):
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


def keys_outside(blobs: Mapping[str, bytes], keyset: set[str]) -> set[str]:
    """Keys of ``blobs`` not in ``keyset`` (a few may have no blob: callers drop them
    as absent), found without a look-up per blob in a loaded table."""
    if isinstance(blobs, BlobOverlay):
        base = blobs._base
        known = base._keys if isinstance(base, BlobTable) else base
        return {k for k in known if k not in keyset} | {k for k in blobs._over if k not in keyset}
    if isinstance(blobs, BlobTable):
        return {k for k in blobs._keys if k not in keyset}
    return {k for k in blobs if k not in keyset}


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
