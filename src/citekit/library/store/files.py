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
    for name, data in zip((BIB_NAME, SIDECAR_NAME), out):
        if data is not None and (data.startswith(b"<<<<<<< ") or b"\n<<<<<<< " in data):
            raise LibraryError(
                f"git merge in progress: {name} holds git's conflict markers (a text merge: citekit's merge "
                "driver is not registered in this clone). Next: `git merge --abort`, then `citekit git-setup` "
                "and merge again (citekit merges the library entry by entry); or remove the markers by hand "
                "and `git add refs/`.")
    return out[0], out[1]


def merge_in_progress(refs: Path) -> bool:
    """Whether the git repository holding ``refs`` is in the middle of a merge (its
    MERGE_HEAD exists): a few stats, no git process."""
    head = _merge_head(refs)
    return head is not None and head.exists()


def _merge_head(refs: Path) -> Path | None:
    """The MERGE_HEAD file of the git repository holding ``refs`` (None outside one): found
    with a few stats, no git process, since every load asks."""
    here = Path(refs).absolute().parent
    for folder in (here, *here.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot / "MERGE_HEAD"
        if dot.is_file():  # a linked worktree or a submodule: "gitdir: PATH"
            try:
                line = dot.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return None
            return (folder / line[len("gitdir:"):].strip()) / "MERGE_HEAD" if line.startswith("gitdir:") else None
    return None


def untouched_by_merge(refs: Path) -> list[str]:
    """The library files git left unmerged exactly as our side had them: git could not run
    citekit's merge driver (``citekit: not found`` from a GUI client or a shell without the
    virtual environment), marked them conflicted and wrote no conflict markers, so they read
    as a whole library that silently lacks the other branch's changes. Only during a merge
    are git processes run."""
    import subprocess

    if not merge_in_progress(refs):
        return []
    top = Path(refs).absolute().parent
    names = [str(Path(refs).absolute() / n) for n in (BIB_NAME, SIDECAR_NAME)]
    try:
        staged = subprocess.run(["git", "-C", str(top), "ls-files", "-u", "-s", "--full-name", "--", *names],
                                capture_output=True, text=True, check=False, timeout=10).stdout
        ours = {}
        for line in staged.splitlines():
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[2] == "2":
                ours[path] = parts[1]
        if not ours:
            return []
        root = subprocess.run(["git", "-C", str(top), "rev-parse", "--show-toplevel"], capture_output=True,
                              text=True, check=False, timeout=10).stdout.strip()
        paths = [str(Path(root) / p) for p in ours]
        hashes = subprocess.run(["git", "-C", str(top), "hash-object", "--", *paths], capture_output=True,
                                text=True, check=False, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted(Path(p).name for p, h in zip(ours, hashes) if ours[p] == h)


def refuse_untouched_merge(refs: Path) -> None:
    """Stop every command while git's merge left the library as one side only (see
    :func:`untouched_by_merge`): reading on would drop the other branch's changes at the next write."""
    untouched = untouched_by_merge(refs)
    if untouched:
        raise LibraryError(
            f"git merge in progress: {' and '.join(untouched)} {'are' if len(untouched) > 1 else 'is'} unmerged and "
            "still only this branch's version: git could not run citekit's merge driver (is `citekit` on the PATH "
            "git uses? `citekit git-setup` registers it by its full path). Next: `git merge --abort`, "
            "`citekit git-setup`, then merge again.")


def retrying_split(attempt: Callable[[], T], refs: Path | None = None) -> T:
    """``attempt()``, tried again a few times while it finds a pair not written together
    (:class:`SplitPair`), then refused with what to do; a library that cannot be read in
    the middle of a git merge (``refs``) is said to be that, with the next step."""
    if refs is not None:
        refuse_untouched_merge(refs)
    for n in range(SPLIT_RETRIES):
        try:
            return attempt()
        except SplitPair as exc:
            if n + 1 < SPLIT_RETRIES:  # maybe a writer is switching files right now
                time.sleep(0.05 * (n + 1))
                continue
            raise LibraryError(str(exc)) from None
        except LibraryError as exc:
            if refs is not None and "git merge in progress" not in str(exc) and merge_in_progress(refs):
                raise LibraryError(f"git merge in progress: {exc}. Next: finish the merge (`citekit doctor` "
                                   "names what is left, `git merge --abort` undoes it); do not check out "
                                   "one file alone.") from exc
            raise
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
