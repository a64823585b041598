"""The parsed library, kept in the project's ``.citekit/`` folder between commands.

Parsing ``library.bib`` and the sidecar and re-deriving every entry costs seconds on a
real library; a command that only reads (``list``, ``show``, ``tags``, ``export``) then
pays that on every run although ``refs/`` has not changed. So the result of a load is
stored here, keyed by the size, modification time and SHA-256 of both files: any change
(an edit, ``git checkout``, another machine's sync) misses the key and the files are
parsed again. Entries are stored one blob each, with the exact text each contributed to
the two files, so ``show`` decodes one entry and a write re-renders only changed ones.

The format is :mod:`marshal` of plain data (strings, numbers, lists, dicts): it loads an
order of magnitude faster than YAML or JSON and builds no objects but those. A cache that
cannot be read is ignored and rebuilt; it never decides anything on its own.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import secrets
from contextlib import suppress
from pathlib import Path
from typing import Any

from .lock import state_dir

FORMAT = 8  # bump when the stored shape changes


def cache_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-library.cache"


def file_key(path: Path, data: bytes | None) -> tuple[Any, ...]:
    """(size, mtime_ns, sha256) of a file as read, or None for a missing one."""
    if data is None:
        return (None,)
    try:
        st = os.stat(path)
        mtime = st.st_mtime_ns
    except OSError:
        mtime = None
    return (len(data), mtime, hashlib.sha256(data).hexdigest())


def read(refs_dir: Path, fingerprint: tuple[Any, ...]) -> dict[str, Any] | None:
    """The stored load for exactly this fingerprint, or None (missing, stale or unreadable)."""
    try:
        raw = cache_path(refs_dir).read_bytes()
        data = marshal.loads(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("fingerprint") != fingerprint:
        return None
    return data


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


def read_memo(refs_dir: Path, fingerprint: tuple[Any, ...], kind: str) -> bytes | None:
    """One table of values derived from entries (e.g. ``list --json`` rows) stored for this
    fingerprint, still marshalled; None when missing or stale.

    Each kind has a file of its own: ``tags`` reads a few hundred kilobytes of
    (status, tags) pairs, not the rows ``list --json`` prints.
    """
    data = _read(memo_path(refs_dir, kind))
    if data is None or data.get("fingerprint") != fingerprint or data.get("kind") != kind:
        return None
    table = data.get("table")
    return table if isinstance(table, bytes) else None


def write_memos(refs_dir: Path, fingerprint: tuple[Any, ...], tables: dict[str, Any]) -> None:
    """Store memo tables (kind -> table, or an already marshalled table) for a fingerprint."""
    for kind, table in tables.items():
        blob = table if isinstance(table, bytes) else marshal.dumps(table)
        _write(memo_path(refs_dir, kind), {"fingerprint": fingerprint, "kind": kind, "table": blob})


def drop_memo(refs_dir: Path, kind: str) -> None:
    with suppress(FileNotFoundError):
        memo_path(refs_dir, kind).unlink()


def write(refs_dir: Path, data: dict[str, Any]) -> None:
    """Store a load; failures (read-only folder, full disk) only cost speed next time.

    ``data["memos"]`` (kind -> table), when present, goes to files of their own (see
    :func:`read_memo`).
    """
    if "memos" in data:
        data = dict(data)
        write_memos(refs_dir, data["fingerprint"], data.pop("memos"))
    _write(cache_path(refs_dir), data)
    with suppress(OSError):  # the single memo file of earlier versions
        (state_dir(refs_dir) / f"{Path(refs_dir).name}-memos.cache").unlink()


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(marshal.dumps({**data, "format": FORMAT}))
        os.replace(tmp, path)
    except OSError:
        with suppress(OSError):
            tmp.unlink()


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
    for kind in memo_kinds(refs_dir):
        drop_memo(refs_dir, kind)
    with suppress(FileNotFoundError):
        cache_path(refs_dir).unlink()
