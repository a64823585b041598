"""The project lock: one writing command at a time; readers never take it.

The lock is an OS file lock (``filelock``), so a killed command releases it with its
process and a lock can never outlive its holder. Beside it, ``<lock>.info`` says which
command holds it since when, for the message a waiting writer prints. Both live in the
project's ``.citekit/`` folder beside ``refs/`` (not in ``refs/``, which is under version
control).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # filelock loads only when a lock is taken: readers of a fresh cache never need it
    from filelock import FileLock

from citekit.core import paths
from citekit.library.errors import LibraryError
from citekit.library.journal import recover

#: seconds a second writer waits before giving up (``CITEKIT_LOCK_WAIT`` overrides)
DEFAULT_WAIT = 5.0


class LockBusy(LibraryError):
    """Another command is writing the library; the message names it."""


def state_dir(refs_dir: Path) -> Path:
    """The project's private folder for the lock and the parsed-library cache (the one rule:
    :func:`citekit.core.paths.state_dir`)."""
    return paths.state_dir(refs_dir)


def lock_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}.lock"


def _wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("CITEKIT_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


def holder(refs_dir: Path) -> dict | None:
    """What the lock's info file says about its holder (may be stale: see :func:`is_stale`)."""
    import json  # here: a command that only reads never asks who holds the lock

    try:
        data = json.loads(Path(str(lock_path(refs_dir)) + ".info").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_stale(refs_dir: Path) -> bool:
    """True when an info file names a holder but nobody holds the lock."""
    if holder(refs_dir) is None:
        return False
    from filelock import FileLock, Timeout

    probe = FileLock(str(lock_path(refs_dir)), is_singleton=False)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return False
    probe.release()
    return True


def describe(info: dict | None) -> str:
    if not info:
        return "another citekit command"
    since = info.get("since")
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since)) if isinstance(since, (int, float)) else "?"
    return f"`citekit {info.get('command', '?')}` (process {info.get('pid', '?')}, since {when})"


class ProjectLock:
    """``with ProjectLock(refs, "tag"):`` — exclusive writing; recovers interrupted writes."""

    def __init__(self, refs_dir: Path, command: str, wait: float | None = None, *, announce: bool = True) -> None:
        self.refs_dir = Path(refs_dir)
        #: say on stderr when a journal is refused (doctor reports it itself)
        self.announce = announce
        self.command = command
        self.wait = _wait_seconds() if wait is None else wait
        self._lock: FileLock | None = None
        self.recovered: list[str] = []

    def __enter__(self) -> "ProjectLock":
        path = lock_path(self.refs_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        from filelock import FileLock, Timeout

        lock = FileLock(str(path), is_singleton=False)
        try:
            lock.acquire(timeout=self.wait, poll_interval=0.05)
        except Timeout:
            raise LockBusy(
                f"{describe(holder(self.refs_dir))} is writing this library; waited {self.wait:g} s. "
                "Run this command again when it has finished (readers such as `list` work meanwhile)."
            ) from None
        self._lock = lock
        import json

        info = {"command": self.command, "pid": os.getpid(), "since": time.time()}
        info_path = Path(str(path) + ".info")
        with suppress(OSError):
            info_path.write_text(json.dumps(info), encoding="utf-8")
        try:
            self.recovered = recover(self.refs_dir, announce=self.announce)
        except BaseException:
            self._release()
            raise
        return self

    def _release(self) -> None:
        if self._lock is None:
            return
        with suppress(OSError):
            os.unlink(str(lock_path(self.refs_dir)) + ".info")
        self._lock.release()
        self._lock = None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._release()


@contextmanager
def writing(refs_dir: Path, command: str, *, write: bool = True) -> Iterator[None]:
    """The project lock around a command that may write (none when ``write`` is false)."""
    if not write:
        yield
        return
    with ProjectLock(refs_dir, command):
        yield
