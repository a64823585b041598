"""Reading and writing the library.bib/library.yaml pair, safe against crashes.

Read through a writer's journal while it switches them in, an interrupted write finished
first, a file replaced atomically.

Both files are written atomically (temporary file, fsync, rename) as one transaction
(:mod:`citekit.library.journal`), so readers see the old pair or the new one, never half.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from citekit.library.errors import LibraryError
from citekit.library.journal import journal_path, read_view, stale_temps

BIB_NAME = "library.bib"
SIDECAR_NAME = "library.yaml"
#: how often a load reads again a pair that was not written together (a writer may be
#: switching the files right now)
SPLIT_RETRIES = 4

T = TypeVar("T")


class SplitPair(Exception):
    """library.bib and the sidecar were not written together."""


def recover_if_free(refs: Path) -> None:
    """Finish an interrupted write and delete stale temporaries when no writer is at work.

    Readers never wait: if a writer holds the lock, they read through its journal instead.
    """
    if not (journal_path(refs).exists() or stale_temps(refs)):
        return
    from citekit.library.lock import LockBusy, ProjectLock

    try:
        with ProjectLock(refs, "recovery", wait=0):
            pass  # taking the lock recovers
    except (LockBusy, OSError):
        pass


def read_pair(refs: Path) -> tuple[bytes | None, bytes | None]:
    """Both files' bytes; while a writer switches them in, through its journal."""
    view = read_view(refs)
    out: list[bytes | None] = []
    for name in (BIB_NAME, SIDECAR_NAME):
        target = (refs / name).absolute()
        data = None
        for candidate in (view.get(target), target):
            if candidate is None:
                continue
            try:
                data = candidate.read_bytes()
                break
            except FileNotFoundError:
                continue
        out.append(data)
    return out[0], out[1]


def retrying_split(attempt: Callable[[], T]) -> T:
    """``attempt()``, tried again a few times while it finds a pair not written together
    (:class:`SplitPair`), then refused with what to do."""
    for n in range(SPLIT_RETRIES):
        try:
            return attempt()
        except SplitPair as exc:
            if n + 1 < SPLIT_RETRIES:  # maybe a writer is switching files right now
                time.sleep(0.05 * (n + 1))
                continue
            raise LibraryError(str(exc)) from None
    raise AssertionError("unreachable")


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so readers see the old file or the new one, never half.

    The temporary file lives in the same folder (so the rename is atomic on POSIX) and is
    fsynced before the rename; the file's permissions are kept.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
