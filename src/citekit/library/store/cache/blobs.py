"""The per-entry blobs of the parsed-library cache, in one file cut on demand.

Each entry's state and its texts in both files are kept in a file of their own and cut
from it when asked for, so ``show`` reads two blobs of 14,000 and ``list`` none."""

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
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self._closer = weakref.finalize(self, os.close, self._fd)
        self._data: bytes | None = None
        if size is not None and os.fstat(self._fd).st_size != size:
            # cut short (blob files are not fsynced: a crash may leave one empty): the
            # cache is unreadable, never half read
            self._closer()
            raise ValueError("the blob file is not the size its cache says")

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
            size = os.fstat(self._fd).st_size
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
    offsets (blob ``i`` is ``offsets[i]:offsets[i + 1]``; an empty span is a key without
    a blob): a load decodes a list of strings, not ten thousand (start, end) tuples per
    table, and a command that reads no entry (``list``, ``tags``) reads none of them.
    """

    def __init__(self, keys: list[str], offsets: bytes, source: BlobFile, index: dict[str, int]) -> None:
        self._keys = keys
        self._offsets = memoryview(offsets).cast("Q")
        if len(self._offsets) != len(keys) + 1:
            raise ValueError("offsets do not match the keys")
        self._source = source
        self._index = index  # key -> position, shared by the tables of one cache, built on first use
        self._count: int | None = None
        self._all: dict[str, bytes] | None = None  # every blob, once the file was read whole

    def _position(self, key: object) -> int | None:
        if not self._index and self._keys:
            self._index.update(zip(self._keys, range(len(self._keys))))
        i = self._index.get(key)  # type: ignore[call-overload]
        if i is None or self._offsets[i] == self._offsets[i + 1]:
            return None
        return i

    def preload(self) -> None:
        """Read the whole file once, before a pass over (nearly) every entry: every blob
        is then cut once into a plain dict that serves all look-ups (a write reads each
        entry's blobs several times)."""
        if self._all is None:
            self._source.preload()
            data, offsets = self._source._data, self._offsets
            assert data is not None
            self._all = {key: data[offsets[i]:offsets[i + 1]] for i, key in enumerate(self._keys)
                         if offsets[i] != offsets[i + 1]}

    def __getitem__(self, key: str) -> bytes:
        if self._all is not None:
            return self._all[key]
        i = self._position(key)
        if i is None:
            raise KeyError(key)
        return self._source.read(self._offsets[i], self._offsets[i + 1])

    def get(self, key: str, default: Any = None) -> Any:
        if self._all is not None:
            return self._all.get(key, default)
        i = self._position(key)
        return default if i is None else self._source.read(self._offsets[i], self._offsets[i + 1])

    def __contains__(self, key: object) -> bool:
        if self._all is not None:
            return key in self._all
        return self._position(key) is not None

    def __iter__(self) -> Iterator[str]:
        if self._all is not None:
            return iter(self._all)
        offsets = self._offsets
        return (k for i, k in enumerate(self._keys) if offsets[i] != offsets[i + 1])

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
            self._count = sum(map(operator.ne, self._offsets[:-1], self._offsets[1:]))
        return self._count


def pack(keys: list[str], tables: dict[str, Mapping[str, bytes]]) -> tuple[dict[str, bytes], list[bytes]]:
    """Offsets per table (see :class:`BlobTable`), and the parts of the one blob file they
    point into; each table's blobs lie in key order."""
    offsets: dict[str, bytes] = {}
    parts: list[bytes] = []
    at = 0
    for name, blobs in tables.items():
        if isinstance(blobs, BlobTable):
            blobs.preload()
        row = list(map(blobs.get, keys, repeat(b"")))  # b"": a key without a blob, an empty span
        marks = array("Q", accumulate(map(len, row), initial=at))
        at = marks[-1]
        parts.extend(filter(None, row))
        offsets[name] = marks.tobytes()
    return offsets, parts
