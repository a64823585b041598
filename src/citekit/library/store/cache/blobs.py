"""The per-entry blobs of the parsed-library cache, in one file cut on demand.

Each entry's state and its texts in both files are kept in a file of their own and cut
from it when asked for, so ``show`` reads two blobs of 14,000 and ``list`` none.

Each blob is a span ``(start, end)`` of the file, in any order: a write that changes a few
entries appends their new blobs to the file and keeps every other span where it is
(:mod:`.blob_pack`)."""

from __future__ import annotations

import operator
import os
import weakref
from collections.abc import Iterator, Mapping
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

    def __init__(self, path: Path, size: int | None = None, token: str | None = None) -> None:
        self.path = Path(path)
        #: the name the cache knows the file by (``refs-blobs-<token>.cache``)
        self.token = token
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
