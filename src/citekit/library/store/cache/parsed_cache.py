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
import os
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from citekit.core import cachefile
from citekit.core.cachefile import stat_key
from citekit.library.lock import state_dir
from citekit.library.store.cache import memo_files
from citekit.library.store.cache.blob_pack import append_parts, appendable, pack, write_parts
from citekit.library.store.cache.blobs import BlobFile, BlobTable, blob_path
from citekit.library.store.cache.format import FORMAT, read_marshal as _read, write_marshal as _write

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
    if not isinstance(data, bytes):  # a spliced file just written (hashed on the way)
        return (len(data), data.hexdigest())
    return (len(data), cachefile.sha256(data).hexdigest())


def fingerprint(bib_data: bytes | None, side_data: bytes | None) -> tuple[Any, ...]:
    """The key of a stored load: both files' :func:`file_key`."""
    return (file_key(bib_data), file_key(side_data))


#: the per-entry blob tables, kept in a file of their own (see :class:`.blobs.BlobTable`)
PACKED = ("entries", "chunks")


def read(refs_dir: Path, fingerprint: tuple[Any, ...] | None) -> dict[str, Any] | None:
    """The stored load for exactly this fingerprint, or None (missing, stale or unreadable).

    ``None`` asks for whatever load is stored, whichever files it was of: what a new load
    of changed files compares its entries with (see ``CachedLibrary._adopt_memo_generation``).
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
        token = str(data["blobs"])
        source = BlobFile(blob_path(refs_dir, token), int(data["blob_size"]), token)
        keys, index = data["keys"], {}
        for name in PACKED:
            data[name] = BlobTable(keys, data[name], source, index)
    except (KeyError, TypeError, ValueError, OSError):
        return None
    return data


# ---- knowing the files unchanged without reading them -----------------------------------

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
    if any(st is not None and cachefile.racy(st, now) for st in stats):
        return
    current = _read(stat_path(refs_dir))
    if current is not None and current.get("stat") == stats and current.get("fingerprint") == fingerprint:
        return
    _write(stat_path(refs_dir), {"stat": stats, "fingerprint": fingerprint})


def write(refs_dir: Path, data: dict[str, Any]) -> bool:
    """Store a load; failures (read-only folder, full disk) only cost speed next time
    (False: nothing was stored).

    ``data["memos"]`` (kind -> table), when present, goes to files of their own (see
    :func:`.memo_files.read_memo`), as of the last change of ``data["memo_log"]``; they are written
    first, so a cache never names a change its memos were not written after.
    """
    data = dict(data)
    if "memos" in data:
        memo_files.write_memos(refs_dir, data["memo_base"], data["memo_log"], data.pop("memos"))
    tables = {name: data.pop(name, {}) for name in PACKED}
    token = _appended(refs_dir, data, tables)
    if token is None:
        spans, parts = pack(data["keys"], tables)
        token = os.urandom(8).hex()
        if not write_parts(blob_path(refs_dir, token), parts):
            return False
        data.update(spans, blobs=token, blob_size=sum(p[2] - p[1] if isinstance(p, tuple) else len(p) for p in parts))
    if not _write(cache_path(refs_dir), data):
        return False
    for old in state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"):
        if old.name != blob_path(refs_dir, token).name:
            with suppress(OSError):  # a reader that opened it keeps reading it
                old.unlink()
    with suppress(OSError):  # the single memo file of earlier versions
        (state_dir(refs_dir) / f"{Path(refs_dir).name}-memos.cache").unlink()
    return True


def _appended(refs_dir: Path, data: dict[str, Any], tables: dict[str, Any]) -> str | None:
    """The token of the loaded cache's blob file when the blobs not yet in it were appended
    to it (``data`` then points into it), else None (see :func:`.blob_pack.append_parts`)."""
    source = appendable(tables)
    token = source.token if source is not None else None
    if token is None or source.path != blob_path(refs_dir, token):  # (another project's, or unnamed)
        return None
    done = append_parts(data["keys"], tables, source)
    if done is None:
        return None
    spans, size = done
    data.update(spans, blobs=token, blob_size=size)
    return token


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
    from citekit.library.store.sidecar import read as sidecar_read

    sidecar_read.drop(refs_dir)
    memo_files.drop_all(refs_dir)
    blobs = list(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-blobs-*.cache"))
    for path in (cache_path(refs_dir), stat_path(refs_dir), *blobs):
        with suppress(FileNotFoundError):
            path.unlink()
