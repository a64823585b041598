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
from typing import Any, Callable

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


#: a file modified less than this before it was last checked may change again within the
#: file system's time resolution (2 s on FAT) without its stat changing: hash it instead
RACY_NS = 2_000_000_000
#: the same for a file system whose times have a part below the second (ext4, XFS, btrfs,
#: APFS, NTFS): their clock ticks at most every 16 ms (Windows' timer; Linux's a jiffy), so
#: a file checked later than this after its last change would show any later one in its times
FINE_RACY_NS = 50_000_000


def racy(stat: StatKey, now: int) -> bool:
    """Whether a file with this :func:`stat_key` was changed so recently before ``now``
    (``time.time_ns()``) that a change of the same size could still keep its stat: then
    its stat vouches for nothing and it is hashed (git's "racy" files). Times in whole
    seconds mean a file system that keeps no finer ones: the long window."""
    window = RACY_NS if stat[1] % 1_000_000_000 == 0 and stat[2] % 1_000_000_000 == 0 else FINE_RACY_NS
    return now - max(stat[1], stat[2]) < window


#: parts handed to one ``writev`` call (POSIX guarantees at least 16, Linux takes 1024)
_BATCH = min(1024, os.sysconf("SC_IOV_MAX")) if hasattr(os, "sysconf") and "SC_IOV_MAX" in os.sysconf_names else 16


def _write_all(fd: int, parts: list[bytes]) -> None:
    """Write ``parts`` in order. The parsed-library cache hands over 14,000 blobs for a
    7k library: one ``writev`` per thousand of them costs a third of a buffered file's
    one call per blob (6 ms against 20 ms for 13 MB), and copies nothing beforehand."""
    writev = getattr(os, "writev", None)
    for at in range(0, len(parts), _BATCH):
        batch = parts[at:at + _BATCH]
        done = writev(fd, batch) if writev is not None else 0
        if done == sum(map(len, batch)):
            continue
        rest = memoryview(b"".join(batch))[done:]  # a short write (or no writev): the rest in a loop
        while rest:
            rest = rest[os.write(fd, rest):]


def replace_quietly(path: Path, data: bytes | list[bytes], *, make_folder: bool = True) -> bool:
    """Replace ``path`` with ``data`` atomically; False (and nothing left behind) on failure.

    ``make_folder=False`` writes only where the folder exists already (a command that
    merely reads must not create ``.citekit/`` in a folder citekit never used).
    """
    parts = [data] if isinstance(data, bytes) else data
    return replace_with(path, lambda fd: _write_all(fd, parts), make_folder=make_folder)


def replace_with(path: Path, write: Callable[[int], None], *, make_folder: bool = True) -> bool:
    """Replace ``path`` with what ``write`` writes to an open file descriptor (a temporary
    file beside it, renamed in); False, and nothing left behind, on failure (see
    :func:`replace_quietly`)."""
    tmp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            return False
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o666)  # (as open() makes it)
        try:
            write(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        return True
    except OSError:
        with suppress(OSError):
            tmp.unlink()
        return False
