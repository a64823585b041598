"""Files citekit derives and may always rebuild: how to write one, how to tell a file unchanged.

The parsed-library cache, the checked ``citekit.yaml`` and the sync stamp are all
replaced the same way (a temporary file beside the target, then a rename, so a reader
sees the old file or the new one) and all fail the same way: a read-only folder or a full
disk only costs speed next time, so nothing here raises. They are not fsynced: losing
one to a crash means recomputing it, never losing data.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from typing import Any

StatKey = tuple[int, int, int, int]


def sha256(data: bytes = b"") -> Any:
    """``hashlib.sha256(data)``, importing hashlib on the first hash. A warm read-only
    command hashes nothing (files are known by their stat), and importing hashlib, which
    sets up OpenSSL, cost it 3 ms. Call it as ``cachefile.sha256``: after the first call
    that name is hashlib's own function, with nothing in between."""
    global sha256
    import hashlib

    sha256 = hashlib.sha256
    return sha256(data)


def stat_key(path: Path) -> StatKey | None:
    """(size, mtime, ctime, inode) of a file, or None when it cannot be stat'ed: what git
    compares before it hashes. An edit that keeps size and mtime still changes the ctime."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def replace_quietly(path: Path, data: bytes | list[bytes], *, make_folder: bool = True) -> bool:
    """Replace ``path`` with ``data`` atomically; False (and nothing left behind) on failure.

    ``make_folder=False`` writes only where the folder exists already (a command that
    merely reads must not create ``.citekit/`` in a folder citekit never used).
    """
    tmp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            return False
        with open(tmp, "wb") as handle:
            handle.writelines([data] if isinstance(data, bytes) else data)
        os.replace(tmp, path)
        return True
    except OSError:
        with suppress(OSError):
            tmp.unlink()
        return False
