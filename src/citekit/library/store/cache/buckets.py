"""Large answers kept in buckets, so that a command reads the part it asks about.

The match index kept beside the parsed-library cache is 15 MB at 50,000 entries; a sync
or ``add`` that brings one paper asks it about a handful of titles and identifiers, yet
decoding it whole took 0.1 s and 60 MiB, and storing it again after a patch as long.
Here each of its tables (:class:`Sections`) is cut into :data:`BUCKETS` marshalled
buckets by a hash of the key that does not change between processes; a read decodes a
bucket when a key in it is first asked for, and a write marshals again only the buckets
changed since the read (the others are copied as they were read).

File: ``BUCKET_MAGIC``, the length of the head, the head (marshal: what
:func:`.memo_files.read_apart` checks, and per table its size, key digest and the byte
size of each bucket), then every table's buckets in that order.
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Iterator, MutableMapping
from typing import Any, BinaryIO

BUCKET_MAGIC = b"ckB1"
#: buckets per table: at 50,000 entries a bucket of the largest table is about 25 KB
BUCKETS = 256
_MASK = (1 << 64) - 1


def key_hash(key: Any) -> int:
    """A hash of ``key`` that every process computes alike (``hash`` of a text is salted per process)."""
    text = key if isinstance(key, str) else repr(key)
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


def key_digest(keys: list[str]) -> int:
    """What :attr:`Bucketed.digest` is for a table holding exactly the texts ``keys`` (in
    any order). (Hashed in C, 50,000 keys in a few ms; a text UTF-8 cannot encode as it
    is, with a lone surrogate, is hashed as :func:`key_hash` does.)"""
    try:
        return sum(map(zlib.crc32, map(str.encode, keys))) & _MASK
    except UnicodeEncodeError:
        return sum(map(key_hash, keys)) & _MASK


class Sections(dict):  # type: ignore[type-arg]
    """An answer made of named tables (name -> mapping) stored in buckets: a plain table
    is cut into buckets when stored, a stored one is read back as :class:`Bucketed`."""


class _Source:
    """The open file the buckets are read from (a replaced file stays readable through it)."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle

    def read(self, offset: int, size: int) -> bytes:
        return os.pread(self.handle.fileno(), size, offset)

    def __del__(self) -> None:
        self.handle.close()


class Bucketed(MutableMapping):  # type: ignore[type-arg]
    """One table of a stored :class:`Sections`: a mapping whose buckets are decoded on
    first use. The number of keys and their :func:`key_digest` are kept up to date, so a
    caller can check which keys it holds without decoding it.

    A value handed out by :meth:`setdefault` may be changed in place: its bucket counts as
    changed. One handed out by ``[]`` or :meth:`get` must not be (assign a new one)."""

    def __init__(self, source: _Source | None, spans: list[tuple[int, int]], count: int, digest: int) -> None:
        self._source = source
        self._spans = spans
        self._loaded: dict[int, dict[Any, Any]] = {}
        self._changed: set[int] = set()
        self._count = count
        self.digest = digest

    @classmethod
    def of(cls, table: dict[Any, Any]) -> Bucketed:
        """A table held in memory, every bucket to be stored."""
        out = cls(None, [(0, 0)] * BUCKETS, 0, 0)
        out._loaded = {i: {} for i in range(BUCKETS)}
        out._changed = set(range(BUCKETS))
        buckets, digest = out._loaded, 0
        for key, value in table.items():
            h = key_hash(key)
            buckets[h % BUCKETS][key] = value
            digest += h
        out._count, out.digest = len(table), digest & _MASK
        return out

    def _bucket(self, i: int) -> dict[Any, Any]:
        bucket = self._loaded.get(i)
        if bucket is None:
            offset, size = self._spans[i]
            data = marshal.loads(self._source.read(offset, size)) if size and self._source is not None else {}
            bucket = self._loaded[i] = data if isinstance(data, dict) else {}
        return bucket

    def __getitem__(self, key: Any) -> Any:
        return self._bucket(key_hash(key) % BUCKETS)[key]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._bucket(key_hash(key) % BUCKETS).get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._bucket(key_hash(key) % BUCKETS)

    def __setitem__(self, key: Any, value: Any) -> None:
        h = key_hash(key)
        bucket = self._bucket(h % BUCKETS)
        if key not in bucket:
            self._count += 1
            self.digest = (self.digest + h) & _MASK
        bucket[key] = value
        self._changed.add(h % BUCKETS)

    def __delitem__(self, key: Any) -> None:
        h = key_hash(key)
        bucket = self._bucket(h % BUCKETS)
        del bucket[key]
        self._count -= 1
        self.digest = (self.digest - h) & _MASK
        self._changed.add(h % BUCKETS)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        h = key_hash(key)
        bucket = self._bucket(h % BUCKETS)
        if key not in bucket:
            self._count += 1
            self.digest = (self.digest + h) & _MASK
            bucket[key] = default
        self._changed.add(h % BUCKETS)  # (the caller may change the value in place)
        return bucket[key]

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:  # (decodes every bucket)
        for i in range(BUCKETS):
            yield from list(self._bucket(i))

    def parts(self) -> list[bytes]:
        """Each bucket's bytes as stored: marshalled again if changed, else as read."""
        out = []
        for i in range(BUCKETS):
            if i in self._changed:
                bucket = self._loaded[i]
                out.append(marshal.dumps(bucket) if bucket else b"")
            else:
                offset, size = self._spans[i]
                out.append(self._source.read(offset, size) if size and self._source is not None else b"")
        return out


def encode(head: dict[str, Any], answer: Sections) -> list[bytes]:
    """The file holding ``answer`` (its tables as they are, plain or read from a file) under ``head``."""
    tables = {name: table if isinstance(table, Bucketed) else Bucketed.of(dict(table)) for name, table in answer.items()}
    parts = {name: table.parts() for name, table in tables.items()}
    head = {**head, "tables": {name: (len(table), table.digest, [len(p) for p in parts[name]])
                               for name, table in tables.items()}}
    raw = marshal.dumps(head)
    return [BUCKET_MAGIC, len(raw).to_bytes(4, "little"), raw, *(p for name in tables for p in parts[name] if p)]


def decode(handle: BinaryIO) -> tuple[dict[str, Any], Sections] | None:
    """(head, answer) of a file written by :func:`encode` open in ``handle`` (kept open: the
    buckets are read from it when first asked for), or None when it is not one."""
    start = handle.read(8)
    if start[:4] != BUCKET_MAGIC or len(start) != 8:
        return None
    size = int.from_bytes(start[4:8], "little")
    try:
        head = marshal.loads(handle.read(size))
        tables = head["tables"]
        source, offset, answer = _Source(handle), 8 + size, Sections()
        for name, (count, digest, sizes) in tables.items():
            if len(sizes) != BUCKETS:
                return None
            spans = []
            for n in sizes:
                spans.append((offset, n))
                offset += n
            answer[name] = Bucketed(source, spans, count, digest)
    except (ValueError, EOFError, TypeError, KeyError, AttributeError):
        return None
    if os.fstat(handle.fileno()).st_size != offset:
        return None  # (cut short)
    return head, answer
