"""What each notes file gave last time, so a sync reads again only the files that changed.

Extraction is a function of a file's text, its name and citekit's own code. A sync, an
``add`` (which syncs the papers it records) and a sync that had mentions left pending all
used to read every notes file again: at a megabyte a second, a few hundred kilobytes of
notes cost a few tenths of a second per command, and ``add`` loaded every notes reader
(a tenth of a second more) to re-read an inbox it had only appended to.

The memo keeps, per file, its stat (size, mtime, ctime, inode, as git compares), the
SHA-256 of its bytes and what extraction gave (mentions as :meth:`Mention.to_json`
writes them, problems), under a stamp of citekit's code (another version may read
otherwise). A file whose stat is unchanged is not read at all; one whose stat changed
but whose bytes did not is read and hashed, not extracted again. The memo is a derived
file in ``.citekit/``: damaged, missing or of another code, it is ignored and rebuilt;
it is replaced atomically, and a failed write only costs speed next time.
"""

from __future__ import annotations

import marshal
import os
import time
from pathlib import Path
from typing import Any

from citekit.core.cachefile import StatKey, racy, replace_quietly, stat_key
from citekit.notes.result import Problem

#: bump when what is stored changes shape (2: each row says whether its stat was racy)
FORMAT = 2
#: files remembered at most (a notes folder of more is read as before, past this many)
MAX_FILES = 20_000


def memo_path(refs_dir: Path) -> Path:
    """Where the memo of the notes synced into ``refs_dir`` lives (beside its other caches)."""
    from citekit.core.paths import state_dir

    return state_dir(refs_dir) / f"{Path(refs_dir).name}-notes.memo"


def code_stamp() -> tuple[Any, ...]:
    """citekit's version and the stat of every file of its package (code, models, rules):
    an edited reader or a retrained model reads notes otherwise."""
    import citekit
    from citekit import __version__

    root = Path(citekit.__file__).parent
    out: list[Any] = [__version__]
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith((".pyc", ".tmp")):
                path = Path(folder) / name
                out.append((str(path.relative_to(root)), stat_key(path)))
    return tuple(out)


class NotesMemo:
    """The memo file of one project (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._stamp = code_stamp()
        self._files: dict[str, tuple[Any, ...]] = self._read()
        self._used: set[str] = set()
        self._changed = False

    def _read(self) -> dict[str, tuple[Any, ...]]:
        try:
            data = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if (not isinstance(data, tuple) or len(data) != 3 or data[0] != FORMAT or data[1] != self._stamp
                or not isinstance(data[2], dict)):
            return {}
        return data[2]

    def known(self, name: str, stat: StatKey | None) -> tuple[list[Any], list[Problem]] | None:
        """What the file ``name`` gave last time, when its stat is ``stat`` as then and was
        not racy then (changed within the file system's tick before it was read: a second
        change of the same size in that tick would keep the stat; such a file is hashed)."""
        row = self._files.get(name)
        if row is None or stat is None or row[0] != stat or row[4]:
            return None
        return self._take(name, row)

    def same_bytes(self, name: str, digest: str, stat: StatKey | None) -> tuple[list[Any], list[Problem]] | None:
        """What the file ``name`` gave last time, when its bytes hash to ``digest`` as then
        (its stat changed: it was touched, copied or checked out again); its new ``stat``
        is kept."""
        row = self._files.get(name)
        if row is None or row[1] != digest:
            return None
        found = self._take(name, row)
        if found is not None and stat is not None:
            self._files[name] = (stat, *row[1:4], racy(stat, time.time_ns()))
            self._changed = True
        return found

    def _take(self, name: str, row: tuple[Any, ...]) -> tuple[list[Any], list[Problem]] | None:
        from citekit.core.resolution import Mention

        try:
            mentions = [Mention.from_json(d) for d in row[2]]
            problems = [Problem(*p) for p in row[3]]
        except (TypeError, KeyError, ValueError):
            return None
        self._used.add(name)
        return mentions, problems

    def remember(self, name: str, stat: StatKey | None, digest: str, mentions: list[Any],
                 problems: list[Problem]) -> None:
        """Keep what the file ``name`` gave; ``stat`` is taken before it was read (an edit
        made while it was read changes the stat, so it is read again next time)."""
        self._used.add(name)
        if stat is None or (len(self._files) >= MAX_FILES and name not in self._files):
            return
        self._files[name] = (stat, digest, [m.to_json() for m in mentions],
                             [(p.file, p.line, p.message) for p in problems], racy(stat, time.time_ns()))
        self._changed = True

    def save(self) -> None:
        """Write the memo when it changed; files no longer read are forgotten."""
        gone = set(self._files) - self._used
        for name in gone:
            del self._files[name]
        if not (self._changed or gone):
            return
        replace_quietly(self.path, marshal.dumps((FORMAT, self._stamp, self._files)))
