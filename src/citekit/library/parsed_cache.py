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

FORMAT = 6  # bump when the stored shape changes


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


def memos_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-memos.cache"


def read_memos(refs_dir: Path, fingerprint: tuple[Any, ...]) -> dict[str, Any]:
    """Values derived from entries (``list --json`` rows) stored for this fingerprint, else {}.

    They live in a file of their own: most commands (``show``, ``tags``, ``check``, a sync)
    never need them, and decoding them was a third of every load.
    """
    try:
        data = marshal.loads(memos_path(refs_dir).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("fingerprint") != fingerprint:
        return {}
    return data.get("memos") or {}


def write(refs_dir: Path, data: dict[str, Any], *, memos_only: bool = False) -> None:
    """Store a load; failures (read-only folder, full disk) only cost speed next time.

    ``data["memos"]``, when present, goes to its own file (see :func:`read_memos`).
    """
    if "memos" in data:
        data = dict(data)
        _write(memos_path(refs_dir), {"fingerprint": data["fingerprint"], "memos": data.pop("memos")})
    if not memos_only:
        _write(cache_path(refs_dir), data)


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
    for path in (cache_path(refs_dir), memos_path(refs_dir)):
        with suppress(FileNotFoundError):
            path.unlink()
