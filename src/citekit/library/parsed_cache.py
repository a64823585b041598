"""The parsed library, kept in the project's ``.citekit/`` folder between commands.

Parsing ``library.bib`` and the sidecar and re-deriving every entry costs seconds on a
real library; a command that only reads (``list``, ``show``, ``tags``, ``export``) then
pays that on every run although ``refs/`` has not changed. So the result of a load is
stored here, keyed by the size and SHA-256 of both files: any change of their bytes (an
edit, ``git checkout``, another machine's sync) misses the key and the files are parsed
again, while a ``touch`` or a checkout that restores the same bytes does not. Entries
are stored one blob each, with the exact text each contributed to the two files, so
``show`` decodes one entry and a write re-renders only changed ones.

The format is :mod:`marshal` of plain data (strings, numbers, lists, dicts): it loads an
order of magnitude faster than YAML or JSON and builds no objects but those. A cache that
cannot be read is ignored and rebuilt; it never decides anything on its own.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import secrets
import time
import weakref
from collections.abc import Iterator, Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from ..cachefile import replace_quietly, stat_key
from .lock import state_dir

FORMAT = 11  # bump when the stored shape changes


def cache_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-library.cache"


def file_key(path: Path, data: bytes | None) -> tuple[Any, ...]:
    """(size, sha256) of a file as read, or (None,) for a missing one.

    Only the bytes: a load depends on nothing else, so a ``touch``, a ``git checkout``
    that restores the same bytes or a copy of the folder still finds the stored load
    (reading and hashing 8 MB takes 20 ms; parsing them seconds)."""
    if data is None:
        return (None,)
    return (len(data), hashlib.sha256(data).hexdigest())


#: the per-entry blob tables, kept in a file of their own (see :class:`BlobTable`)
PACKED = ("entries", "chunks")


class BlobFile:
    """The file holding every entry's blobs, opened when the cache is read.

    Opened at once, so a writer replacing it later (it deletes the old file) cannot take
    it away from a reader: the open descriptor still reads the old bytes. Spans are read
    one at a time (``show`` reads two of 14,000) until :meth:`preload` reads it whole.
    """

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self._closer = weakref.finalize(self, os.close, self._fd)
        self._data: bytes | None = None

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

    The parsed-library cache itself then holds only keys and spans: a command that reads
    no entry (``list``, ``tags``) does not read 13 MB of them, and one that reads three
    entries cuts three.
    """

    def __init__(self, spans: dict[str, tuple[int, int]], source: BlobFile) -> None:
        self._spans = spans
        self._source = source

    def preload(self) -> None:
        """Read the whole file once, before a pass over (nearly) every entry."""
        self._source.preload()

    def __getitem__(self, key: str) -> bytes:
        start, end = self._spans[key]
        return self._source.read(start, end)

    def __contains__(self, key: object) -> bool:
        return key in self._spans

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


def _pack(tables: dict[str, Mapping[str, bytes]]) -> tuple[dict[str, dict[str, tuple[int, int]]], list[bytes]]:
    """Spans per table, and the parts of the one blob file they point into."""
    spans: dict[str, dict[str, tuple[int, int]]] = {}
    parts: list[bytes] = []
    at = 0
    for name, blobs in tables.items():
        table = spans[name] = {}
        if isinstance(blobs, BlobTable):
            blobs.preload()
        for key, blob in blobs.items():
            table[key] = (at, at + len(blob))
            parts.append(blob)
            at += len(blob)
    return spans, parts


def blob_path(refs_dir: Path, token: str) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-blobs-{token}.cache"


def read(refs_dir: Path, fingerprint: tuple[Any, ...]) -> dict[str, Any] | None:
    """The stored load for exactly this fingerprint, or None (missing, stale or unreadable)."""
    try:
        raw = cache_path(refs_dir).read_bytes()
        data = marshal.loads(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("fingerprint") != fingerprint:
        return None
    try:
        source = BlobFile(blob_path(refs_dir, str(data["blobs"])))
        for name in PACKED:
            data[name] = BlobTable(data[name], source)
    except (KeyError, TypeError, ValueError, OSError):
        return None
    return data


def read_any(refs_dir: Path) -> dict[str, Any] | None:
    """The stored load whatever files it was made from (None: missing or unreadable), for
    a parse that keeps what did not change since."""
    try:
        data = marshal.loads(cache_path(refs_dir).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "fingerprint" not in data:
        return None
    return read(refs_dir, data["fingerprint"])


# ---- knowing the files unchanged without reading them -----------------------------------

#: a file modified less than this before it was last checked may change again within the
#: file system's time resolution (2 s on FAT) without its stat changing: hash it instead
RACY_NS = 2_000_000_000


def stat_pair(refs_dir: Path, names: tuple[str, str] = ("library.bib", "library.yaml")) -> tuple[Any, ...] | None:
    """The :func:`~citekit.cachefile.stat_key` of both files (None for a missing one);
    None when either cannot be stat'ed for another reason."""
    out = []
    for name in names:
        path = Path(refs_dir) / name
        key = stat_key(path)
        if key is None and os.path.lexists(path):
            return None
        out.append(key)
    return tuple(out)


def stat_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-library.stat"


def known_fingerprint(refs_dir: Path, stats: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """The fingerprint of both files when their stat is exactly as when they were last
    hashed, so neither is read: 8 MB read and hashed on every command of a 7k library."""
    if stats is None:
        return None
    data = _read(stat_path(refs_dir))
    if data is None or data.get("stat") != stats:
        return None
    return data.get("fingerprint")


def remember_stat(refs_dir: Path, stats: tuple[Any, ...] | None, after: tuple[Any, ...] | None,
                  fingerprint: tuple[Any, ...]) -> None:
    """Record that files with ``stats`` hash to ``fingerprint``: only when the stat taken
    before reading them equals the one taken after (nobody wrote meanwhile) and neither
    was modified so recently that a same-size edit could keep its stat."""
    if stats is None or stats != after:
        return
    now = time.time_ns()
    if any(st is not None and now - max(st[1], st[2]) < RACY_NS for st in stats):
        return
    current = _read(stat_path(refs_dir))
    if current is not None and current.get("stat") == stats and current.get("fingerprint") == fingerprint:
        return
    _write(stat_path(refs_dir), {"stat": stats, "fingerprint": fingerprint})


def memo_path(refs_dir: Path, kind: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "@" for c in kind)
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-memo-{safe}.cache"


def memo_kinds(refs_dir: Path) -> list[str]:
    """The kinds of memo tables stored for this library (any fingerprint)."""
    out = []
    for path in sorted(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-memo-*.cache")):
        data = _read(path)
        if data is not None and isinstance(data.get("kind"), str):
            out.append(data["kind"])
    return out


def read_memo(refs_dir: Path, fingerprint: tuple[Any, ...], kind: str) -> tuple[bytes, frozenset[str]] | None:
    """One table of values derived from entries (e.g. ``list --json`` rows) stored for this
    fingerprint, still marshalled, with the keys whose values it must no longer give;
    None when missing or stale.

    Each kind has a file of its own: ``tags`` reads a few hundred kilobytes of
    (status, tags) pairs, not the rows ``list --json`` prints.
    """
    data = _read(memo_path(refs_dir, kind))
    if data is None or data.get("fingerprint") != fingerprint or data.get("kind") != kind:
        return None
    table = data.get("table")
    dropped = data.get("dropped") or []
    if not isinstance(table, bytes) or not isinstance(dropped, list):
        return None
    return table, frozenset(dropped)


def write_memos(refs_dir: Path, fingerprint: tuple[Any, ...], tables: dict[str, Any]) -> None:
    """Store memo tables for a fingerprint: kind -> a table, or (its marshalled bytes, keys
    no longer valid). The second form lets a write carry a table it never decoded over
    to the new fingerprint (``tag`` changes one entry of thousands)."""
    for kind, table in tables.items():
        data: dict[str, Any] = {"fingerprint": fingerprint, "kind": kind}
        if isinstance(table, tuple):
            data["table"], data["dropped"] = table[0], sorted(table[1])
        else:
            data["table"] = marshal.dumps(table)
        _write(memo_path(refs_dir, kind), data)


def drop_memo(refs_dir: Path, kind: str) -> None:
    with suppress(FileNotFoundError):
        memo_path(refs_dir, kind).unlink()


def write(refs_dir: Path, data: dict[str, Any]) -> None:
    """Store a load; failures (read-only folder, full disk) only cost speed next time.

    ``data["memos"]`` (kind -> table), when present, goes to files of their own (see
    :func:`read_memo`).
    """
    data = dict(data)
    if "memos" in data:
        write_memos(refs_dir, data["fingerprint"], data.pop("memos"))
    spans, parts = _pack({name: data.pop(name, {}) for name in PACKED})
    token = secrets.token_hex(8)
    if not replace_quietly(blob_path(refs_dir, token), parts):
        return
    data.update(spans, blobs=token)
    _write(cache_path(refs_dir), data)
    for old in state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"):
        if old.name != blob_path(refs_dir, token).name:
            with suppress(OSError):  # a reader that opened it keeps reading it
                old.unlink()
    with suppress(OSError):  # the single memo file of earlier versions
        (state_dir(refs_dir) / f"{Path(refs_dir).name}-memos.cache").unlink()


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def _write(path: Path, data: dict[str, Any]) -> None:
    replace_quietly(path, marshal.dumps({**data, "format": FORMAT}))


def health(refs_dir: Path, fingerprint: tuple[Any, ...]) -> str:
    """One word for doctor: ``fresh``, ``stale`` (refs/ changed since), ``missing`` or ``damaged``."""
    path = cache_path(refs_dir)
    if not path.exists():
        return "missing"
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return "damaged"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "stale"
    return "fresh" if data.get("fingerprint") == fingerprint else "stale"


def drop(refs_dir: Path) -> None:
    from . import sidecar_read

    sidecar_read.drop(refs_dir)
    for kind in memo_kinds(refs_dir):
        drop_memo(refs_dir, kind)
    blobs = list(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"))
    for path in (cache_path(refs_dir), stat_path(refs_dir), *blobs):
        with suppress(FileNotFoundError):
            path.unlink()
