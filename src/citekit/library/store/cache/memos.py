"""Values derived from the library, remembered between commands.

Tables of one value per entry for each kind (:mod:`..kinds`), valid while the entry is
unchanged, and answers about the whole library, valid while no entry changes.

Tables are stored per *memo generation*: a write does not rewrite them but appends the
keys it changed to the generation's change log, and a table read later drops the values
of every change after the one it was written at (:mod:`.memo_files`). A log grown long is
folded into a new generation, carrying the stored tables over.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from citekit.library.store.cache import memo_files


class MemoStore:
    """The memo tables and answers of one loaded library."""

    #: a memo generation's change log is folded into a new generation (every stored table
    #: read and written again once) when it names more entries than this, or this share
    #: of the library
    MEMO_LOG_KEYS = 4096
    MEMO_LOG_SHARE = 4

    def __init__(self, refs_dir: Path) -> None:
        self.refs_dir = refs_dir
        #: kind -> key -> a value derived from the entry (e.g. its JSON)
        self.tables: dict[str, dict[str, Any]] = {}
        #: tables read but not decoded: kind -> (marshalled table, keys no longer valid)
        self.raw: dict[str, tuple[bytes, set[str]]] = {}
        #: kinds with values computed since the load (stored by :meth:`keep`)
        self.dirty: set[str] = set()
        #: stored tables may exist for this load (read on first use)
        self.pending = False
        #: the memo generation of the cache and its change log (see memo_files.read_memo)
        self.base: str | None = None
        self.log: list[tuple[str, list[str]]] = []
        #: [the change they are of, name -> answer, changed since read]
        self._answers: list[Any] | None = None
        #: name -> (the change it is of, answer, computed here) of the large answers kept apart
        self._apart: dict[str, tuple[str, Any, bool]] = {}

    def start(self, base: str, log: list[tuple[str, list[str]]]) -> None:
        """Continue the generation ``base`` as of ``log``; its stored tables are read on first use."""
        self.base, self.log, self.pending = base, log, True

    def table(self, kind: str) -> dict[str, Any]:
        """The stored table of one kind, read on first use; a new version of a family
        (``rule-tags:<rules hash>``) drops the old ones."""
        if kind in self.tables:
            return self.tables[kind]
        table = self.tables[kind] = {}
        raw = self.raw.pop(kind, None)
        if raw is None and self.pending and self.base is not None:
            raw = memo_files.read_memo(self.refs_dir, self.base, self.log, kind)
        if raw is not None:
            try:
                stored = marshal.loads(raw[0])
            except (ValueError, EOFError, TypeError):
                stored = {}
            if isinstance(stored, dict):
                table.update(stored)
                for key in raw[1]:
                    table.pop(key, None)
        elif ":" in kind and self.pending:
            family = kind.split(":", 1)[0] + ":"
            for old in memo_files.memo_kinds(self.refs_dir):
                if old.startswith(family) and old != kind:
                    memo_files.drop_memo(self.refs_dir, old)
            memo_files.drop_unreadable_memos(self.refs_dir)
        return table

    def _gather(self) -> None:
        """Every stored memo table not read yet, left encoded, to carry it over to a new
        memo generation. (A write leaves the memo files alone otherwise: the change log in
        the cache says which entries they no longer hold.)"""
        if not self.pending or self.base is None:
            return
        for kind in memo_files.memo_kinds(self.refs_dir):
            if kind not in self.tables and kind not in self.raw:
                raw = memo_files.read_memo(self.refs_dir, self.base, self.log, kind)
                if raw is not None:
                    self.raw[kind] = (bytes(raw[0]), set(raw[1]))
        self.pending = False

    def drop(self, key: str) -> None:
        """The entry under ``key`` changed: none of its derived values holds any more."""
        for table in self.tables.values():
            table.pop(key, None)
        for _blob, dropped in self.raw.values():
            dropped.add(key)

    def keep_only(self, keyset: Collection[str]) -> None:
        """Forget the values of entries no longer in the library."""
        for table in self.tables.values():
            for key in [k for k in table if k not in keyset]:
                del table[key]

    def remembered(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, kept until any entry changes (see ``CachedLibrary.remembered``)."""
        if self.base is None:
            return compute()
        answers = self._answers
        if answers is None:
            at = self.log[-1][0] if self.log else self.base
            stored = memo_files.read_queries(self.refs_dir, self.base, at) if self.pending else None
            answers = self._answers = [at, dict(stored or {}), False]
        if name not in answers[1]:
            answers[1][name] = compute()
            answers[2] = True
        return answers[1][name]

    def remembered_apart(self, name: str, compute: Callable[[], Any],
                         patch: Callable[[Any, set[str]], Any] | None = None) -> Any:
        """:meth:`remembered` for a large answer (the search index), kept in a file of its
        own so that commands reading the small answers never read it. An answer stored
        before later writes of this memo generation is handed to ``patch`` with the keys
        those writes changed (added, edited or removed), which brings it up to date or
        returns None (then it is computed again)."""
        if self.base is None:
            return compute()
        if name in self._apart:
            return self._apart[name][1]
        at = self.log[-1][0] if self.log else self.base
        found, stored, stored_at = memo_files.read_apart(self.refs_dir, name, self.base)
        fresh = found and stored_at == at
        answer = stored if fresh else None
        if found and not fresh:
            position = memo_files.memo_position(self.base, self.log, stored_at)
            if position is not None and patch is not None:
                changed: set[str] = set()
                for _token, keys in self.log[position:]:
                    changed.update(keys)
                answer = patch(stored, changed)
        if not fresh and answer is None:
            answer = compute()
        self._apart[name] = (at, answer, not fresh)
        return answer

    def keep(self) -> None:
        """Store the tables with values computed since the load, and new answers.

        Each is written as of the cache's last change: a write that happened meanwhile
        appended a change the file predates, so its entries are dropped when read, and a
        cache rebuilt from the files is another generation that ignores it.
        """
        for name, (at, answer, new) in list(self._apart.items()):
            if new and self.base is not None:
                memo_files.write_apart(self.refs_dir, name, self.base, at, answer)
                self._apart[name] = (at, answer, False)
        answers = self._answers
        if answers is not None and answers[2] and self.base is not None:
            memo_files.write_queries(self.refs_dir, self.base, answers[0], answers[1])
            answers[2] = False
        if not self.dirty or self.base is None:
            return
        memo_files.write_memos(self.refs_dir, self.base, self.log, {k: self.tables[k] for k in self.dirty})
        self.dirty = set()

    def log_full(self, keys: list[str]) -> bool:
        return sum(len(k) for _t, k in self.log) > min(self.MEMO_LOG_KEYS, max(64, len(keys) // self.MEMO_LOG_SHARE))

    def next_generation(self, keys: list[str], changed: list[str], loaded: Collection[str]) -> dict[str, Any]:
        """Advance the memo generation past a write, and the tables to store with it.

        The memo files stay as they are: the write appends the changed keys to the log,
        and a table read later drops the values of every change after the one it was
        written at. Only tables computed in this run are stored, without the changed
        entries' values. A library not loaded from the cache starts a new generation.
        ``loaded``: the keys of the entries as loaded (or last stored).
        """
        self._answers = None  # answers about the whole library: of the state loaded
        self._apart = {}
        keyset = set(keys)
        if len(loaded) != len(keys) or changed:  # a key removed, or renamed, changes
            changed = [*changed, *(k for k in loaded if k not in keyset)]  # the whole library's answers
        if self.base is None:
            self.base, self.log = os.urandom(8).hex(), []
            self.pending = False
        elif changed:
            self.log = [*self.log, (os.urandom(8).hex(), changed)]
        if self.tables or self.raw:
            for key in changed:
                self.drop(key)
        out: dict[str, Any] = {kind: {k: v for k, v in self.tables[kind].items() if k in keyset}
                               for kind in self.dirty if kind in self.tables}
        if self.log_full(keys):
            if len(set().union(*(k for _t, k in self.log))) < len(keys):  # else nothing is left to carry
                self._gather()  # read now: the new generation carries them over
                out.update(self.raw)
                for kind, table in self.tables.items():
                    out.setdefault(kind, {k: v for k, v in table.items() if k in keyset})
            self.base, self.log = os.urandom(8).hex(), []
        self.dirty = set()
        return out
