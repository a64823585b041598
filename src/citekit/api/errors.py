"""Every error a user can fix, in one place, and how the command line reports each.

All are :class:`CitekitError` subclasses (the base lives in :mod:`citekit.core.errors` so
every layer can subclass it) carrying their exit code and next step. The layer-specific
ones are imported on first use: naming them here must not load the library or PyYAML.
"""

from __future__ import annotations

import errno
import sys
from typing import Any

from citekit.core.errors import CitekitError, UsageError

#: error name -> the module that defines it (imported when the name is first used)
_HOMES = {
    "ConfigError": "citekit.core.config",
    "LibraryError": "citekit.library.errors",
    "WriteFailed": "citekit.library.errors",
    "LockBusy": "citekit.library.lock",
    "JournalRefused": "citekit.library.journal",
    "KeyMapError": "citekit.library.rekey",
    "KeyFormulaError": "citekit.library.keys",
    "TagRuleError": "citekit.library.tags",
    "RelatedWorkError": "citekit.output.related_work",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_OS_ADVICE = {
    errno.ENOSPC: "the disk is full. Free some space (df -h shows where), then run the command again.",
    errno.EDQUOT: "the disk quota is used up. Free some space, then run the command again.",
    errno.EROFS: "this is on a read-only file system. Run citekit on a copy that can be written, "
                 "or point paths.refs in citekit.yaml (or -o) at a writable folder.",
    errno.EACCES: "permission denied. Check who owns it and its permissions (ls -l), "
                  "or run citekit as the user who owns the project.",
    errno.EPERM: "operation not permitted. Check its permissions and attributes (ls -l, lsattr).",
    errno.ENOENT: "no such file or folder. Check the path (citekit -C DIR runs in another project).",
    errno.ENOTDIR: "a path that should be a folder is a file. Check the path and paths: in citekit.yaml.",
    errno.EISDIR: "a folder is where a file should be. Check the path.",
}


def explain(exc: BaseException) -> tuple[int | None, str]:
    """The exit code and one-line message for an error users can fix (code None: a bug).

    A :class:`CitekitError` carries its own exit code; a write the system refused and any
    operating-system fault (disk full, read-only, permissions) are exit code 2, explained
    the one way :func:`os_message` explains them.
    """
    os_error = getattr(exc, "os_error", None)  # a library write the system refused (WriteFailed)
    if isinstance(os_error, OSError):
        return 2, os_message(os_error) + (" The next citekit command finishes the interrupted switch."
                                          if getattr(exc, "committed", False) else " Nothing was changed.")
    if isinstance(exc, CitekitError):
        return exc.exit_code, str(exc)
    if isinstance(exc, OSError):
        return 2, os_message(exc)
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(exc, sqlite3.OperationalError):
        return _sqlite_fault(str(exc))
    return None, str(exc)


def _sqlite_fault(text: str) -> tuple[int | None, str]:
    """The lookup cache is SQLite: its disk faults arrive as OperationalError, not OSError."""
    lowered = text.lower()
    if "disk is full" in lowered or "disk i/o" in lowered:
        what = "the disk is full (or failing). Free some space, then run the command again"
    elif "readonly" in lowered or "read-only" in lowered:
        what = "it is read-only. Make the folder writable"
    elif "unable to open" in lowered or "locked" in lowered:
        what = f"it cannot be opened ({text}). Check the folder's permissions"
    else:
        return None, text
    return 2, (f"the lookup cache could not be written: {what}, or point CITEKIT_CACHE_DIR "
               "(or sources.cache_dir in citekit.yaml) at a writable folder.")


def os_message(exc: OSError) -> str:
    """``path: what happened. What to do.`` for an operating-system error.

    A write fails on its hidden temporary file (``.library.bib.x1y2.tmp``) beside the real
    one; the user knows the folder, not that name, so the folder is named instead.
    """
    names = [_shown_path(p) for p in (exc.filename, exc.filename2) if p is not None]
    where = " -> ".join(names)
    advice = _OS_ADVICE.get(exc.errno or 0)
    if advice is None:
        advice = f"{exc.strerror or exc}. Check the disk and the path, then run the command again."
    return f"{where}: {advice}" if where else advice[0].upper() + advice[1:]


def _shown_path(path: Any) -> str:
    import os

    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    name = os.path.basename(text)
    if name.startswith(".") and name.endswith(".tmp"):
        return (os.path.dirname(text) or ".") + os.sep
    return text


__all__ = ["CitekitError", "UsageError", *_HOMES, "explain", "os_message"]
