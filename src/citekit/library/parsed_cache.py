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
cannot be read (damaged, of another format, its blob file missing or of another size than
recorded) is ignored and rebuilt; it never decides anything on its own.
"""

from __future__ import annotations

import marshal
import operator
import os
import time
import weakref
from array import array
from collections.abc import Iterator, Mapping
from contextlib import suppress
from itertools import accumulate, repeat
from pathlib import Path
from typing import Any

from citekit.core import cachefile
from citekit.core.cachefile import replace_quietly, stat_key
from citekit.library.lock import state_dir

FORMAT = 16  # bump when the stored shape, or how either file is read, changes (16: kept text between entries, @ lines in values, only parses of sidecars that passed sidecar_schema)

#: the :mod:`marshal` version of the entries' states. Versions 3 and 4 mark every object
#: they meet twice, which depends on how objects happen to be shared in memory: the same
#: state parsed and read back gives other bytes. Version 2 writes no such marks, so equal
#: states give equal bytes, and a load of changed files (a hand edit) finds the thousands
#: of entries still as stored by comparing bytes instead of decoding every stored state.
STATE_MARSHAL = 2


def cache_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-library.cache"


def file_key(data: bytes | None) -> tuple[Any, ...]:
    """(size, sha256) of a file as read, or (None,) for a missing one.

    Only the bytes: a load depends on nothing else, so a ``touch``, a ``git checkout``
    that restores the same bytes or a copy of the folder still finds the stored load
    (reading and hashing 8 MB takes 20 ms; parsing them seconds)."""
    if data is None:
        return (None,)
    return (len(data), cachefile.sha256(data).hexdigest())


def fingerprint(bib_data: bytes | None, side_data: bytes | None) -> tuple[Any, ...]:
    """The key of a stored load: both files' :func:`file_key`."""
    return (file_key(bib_data), file_key(side_data))


#: the per-entry blob tables, kept in a file of their own (see :class:`BlobTable`)
PACKED = ("entries", "chunks")


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


def _pack(keys: list[str], tables: dict[str, Mapping[str, bytes]]) -> tuple[dict[str, bytes], list[bytes]]:
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


def blob_path(refs_dir: Path, token: str) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-blobs-{token}.cache"


def read(refs_dir: Path, fingerprint: tuple[Any, ...] | None) -> dict[str, Any] | None:
    """The stored load for exactly this fingerprint, or None (missing, stale or unreadable).

    ``None`` asks for whatever load is stored, whichever files it was of: what a new load
    of changed files compares its entries with (see ``Library._adopt_memo_generation``).
    """
    try:
        raw = cache_path(refs_dir).read_bytes()
        data = marshal.loads(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    if fingerprint is not None and data.get("fingerprint") != fingerprint:
        return None
    try:
        source = BlobFile(blob_path(refs_dir, str(data["blobs"])), int(data["blob_size"]))
        keys, index = data["keys"], {}
        for name in PACKED:
            data[name] = BlobTable(keys, data[name], source, index)
    except (KeyError, TypeError, ValueError, OSError):
        return None
    return data


# ---- knowing the files unchanged without reading them -----------------------------------

#: a file modified less than this before it was last checked may change again within the
#: file system's time resolution (2 s on FAT) without its stat changing: hash it instead
RACY_NS = 2_000_000_000


def stat_pair(refs_dir: Path, names: tuple[str, str] = ("library.bib", "library.yaml")) -> tuple[Any, ...] | None:
    """The :func:`~citekit.core.cachefile.stat_key` of both files (None for a missing one);
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


# A memo file is ``MEMO_MAGIC``, the length of its head, the head (marshal: kind, the
# generation ``base`` and the change ``at`` it was written after, keys no longer valid)
# and the table (marshal), so its head is read without decoding the table, and the table
# is decoded straight from the bytes read.
MEMO_MAGIC = b"ckM1"

#: the change log of the memo generation: one (token, keys whose entry changed) per write
MemoLog = list[tuple[str, list[str]]]


def memo_position(base: str, log: MemoLog, at: object) -> int | None:
    """How many changes of ``log`` a memo written after change ``at`` accounts for (None:
    a change this generation does not know, e.g. of a write that never stored its cache)."""
    if at == base:
        return 0
    for n, (token, _keys) in enumerate(log):
        if token == at:
            return n + 1
    return None


def _memo_head(raw: bytes) -> tuple[dict[str, Any], int] | None:
    if raw[:4] != MEMO_MAGIC:
        return None
    size = int.from_bytes(raw[4:8], "little")
    try:
        head = marshal.loads(raw[8:8 + size])
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        return None
    return head, 8 + size


def _read_memo_head(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as handle:
            start = handle.read(8)
            found = _memo_head(start + handle.read(int.from_bytes(start[4:8], "little")))
    except OSError:
        return None
    return found[0] if found else None


def memo_kinds(refs_dir: Path) -> list[str]:
    """The kinds of memo tables stored for this library (any generation); only each
    file's head is read."""
    out = []
    for path in _memo_files(refs_dir):
        head = _read_memo_head(path)
        if head is not None and isinstance(head.get("kind"), str):
            out.append(head["kind"])
    return out


def read_memo(refs_dir: Path, base: str, log: MemoLog, kind: str) -> tuple[memoryview, frozenset[str]] | None:
    """One table of values derived from entries (e.g. ``list --json`` rows), still
    marshalled, with the keys whose values it must no longer give; None when missing or
    from another generation.

    A table holds for the generation ``base`` it was written in, as of one change of its
    ``log``: the entries changed by later writes are dropped (so a write never rewrites
    memo files). Each kind has a file of its own: ``tags`` reads a few hundred kilobytes
    of (status, tags) pairs, not the rows ``list --json`` prints.
    """
    try:
        raw = memo_path(refs_dir, kind).read_bytes()
    except OSError:
        return None
    found = _memo_head(raw)
    if found is None:
        return None
    head, start = found
    position = memo_position(base, log, head.get("at"))
    dropped = head.get("dropped") or []
    if head.get("kind") != kind or head.get("base") != base or position is None or not isinstance(dropped, list):
        return None
    later = set(dropped)
    for _token, keys in log[position:]:
        later.update(keys)
    return memoryview(raw)[start:], frozenset(later)


def write_memos(refs_dir: Path, base: str, log: MemoLog, tables: dict[str, Any]) -> None:
    """Store memo tables as of the last change of ``log``: kind -> a table, or (its
    marshalled bytes, keys no longer valid). The second form carries a table never
    decoded over to a new generation."""
    at = log[-1][0] if log else base
    for kind, table in tables.items():
        head: dict[str, Any] = {"format": FORMAT, "kind": kind, "base": base, "at": at, "dropped": []}
        if isinstance(table, tuple):
            blob, head["dropped"] = table[0], sorted(table[1])
        else:
            blob = marshal.dumps(table)
        head_bytes = marshal.dumps(head)
        replace_quietly(memo_path(refs_dir, kind), [MEMO_MAGIC, len(head_bytes).to_bytes(4, "little"), head_bytes,
                                                    bytes(blob) if isinstance(blob, memoryview) else blob])


def queries_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-queries.cache"


#: at most this many remembered answers (the newest kept)
MAX_QUERIES = 256


def read_queries(refs_dir: Path, base: str, at: str) -> dict[str, Any] | None:
    """Answers derived from the whole library (e.g. the suggestions for a key it lacks),
    stored for exactly this state of it: the generation ``base`` after change ``at``."""
    data = _read(queries_path(refs_dir))
    if data is None or data.get("base") != base or data.get("at") != at or not isinstance(data.get("answers"), dict):
        return None
    return data["answers"]


def write_queries(refs_dir: Path, base: str, at: str, answers: dict[str, Any]) -> None:
    kept = dict(list(answers.items())[-MAX_QUERIES:])
    _write(queries_path(refs_dir), {"base": base, "at": at, "answers": kept})


def drop_memo(refs_dir: Path, kind: str) -> None:
    with suppress(FileNotFoundError):
        memo_path(refs_dir, kind).unlink()


def write(refs_dir: Path, data: dict[str, Any]) -> bool:
    """Store a load; failures (read-only folder, full disk) only cost speed next time
    (False: nothing was stored).

    ``data["memos"]`` (kind -> table), when present, goes to files of their own (see
    :func:`read_memo`), as of the last change of ``data["memo_log"]``; they are written
    first, so a cache never names a change its memos were not written after.
    """
    data = dict(data)
    if "memos" in data:
        write_memos(refs_dir, data["memo_base"], data["memo_log"], data.pop("memos"))
    offsets, parts = _pack(data["keys"], {name: data.pop(name, {}) for name in PACKED})
    token = os.urandom(8).hex()
    if not replace_quietly(blob_path(refs_dir, token), parts):
        return False
    data.update(offsets, blobs=token, blob_size=sum(map(len, parts)))
    if not _write(cache_path(refs_dir), data):
        return False
    for old in state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"):
        if old.name != blob_path(refs_dir, token).name:
            with suppress(OSError):  # a reader that opened it keeps reading it
                old.unlink()
    with suppress(OSError):  # the single memo file of earlier versions
        (state_dir(refs_dir) / f"{Path(refs_dir).name}-memos.cache").unlink()
    return True


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def _write(path: Path, data: dict[str, Any]) -> bool:
    return replace_quietly(path, marshal.dumps({**data, "format": FORMAT}))


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


def drop_unreadable_memos(refs_dir: Path) -> None:
    """Memo files whose head this version cannot read (an earlier format, a kind since
    renamed): no load will ever read them, so they would only take space."""
    for path in _memo_files(refs_dir):
        if _read_memo_head(path) is None:
            with suppress(OSError):
                path.unlink()


def _memo_files(refs_dir: Path) -> list[Path]:
    return sorted(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-memo-*.cache"))


def drop(refs_dir: Path) -> None:
    from citekit.library import sidecar_read

    sidecar_read.drop(refs_dir)
    blobs = list(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"))
    for path in (cache_path(refs_dir), stat_path(refs_dir), queries_path(refs_dir), *blobs, *_memo_files(refs_dir)):
        with suppress(FileNotFoundError):
            path.unlink()
