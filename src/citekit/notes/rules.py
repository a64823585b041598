"""Line rules as registry rows, each carrying its own pre-filter.

Most notes lines name no paper, so the rules that read a paper line (a title with its
authors, a pasted reference) sit behind a cheap check: a line with none of the cues any
rule needs is not read at all. That check used to be written by hand, apart from the
rules, so a new rule whose lines lack the old cues was silently never tried. Here each
rule says what it cannot match without (:class:`Cue`), and the table's pre-filter
(:meth:`LineRules.could_match`) is derived from the rows: adding a row adds its cues.

When the pre-filter lets a line through, every rule is tried in order (first answer
wins), exactly as before the table existed; the cues decide only whether the rules run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Cue:
    """Something a line must hold for a rule to have a chance: any one of ``chars``, or a
    match of ``pattern``, tried only when one of ``needles`` occurs (in the lower-cased
    text when ``fold``): a substring test is much cheaper than a regex scan."""

    chars: str = ""
    needles: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    fold: bool = False


@dataclass(frozen=True)
class LineRule(Generic[T]):
    """One rule: its name, what it needs (``cues``: any one suffices) and the reader."""

    name: str
    cues: tuple[Cue, ...]
    read: Callable[[str], T | None]


class LineRules(Generic[T]):
    """An ordered table of rules with the pre-filter its rows imply.

    ``on_change`` is called when a row is added or removed (the callers' remembered
    answers depend on the table)."""

    def __init__(self, rules: list[LineRule[T]], on_change: Callable[[], None] | None = None) -> None:
        self._rules = list(rules)
        self._on_change = on_change
        self._derive()

    def __iter__(self) -> Iterator[LineRule[T]]:
        return iter(self._rules)

    def _derive(self) -> None:
        """The combined pre-filter: every row's characters in one set (a few substring
        tests on ASCII text, one character class otherwise) and every row's patterns
        behind their needles, each distinct cue once.

        It is compiled into one function of unrolled tests, as :mod:`dataclasses` writes
        its methods: the gate runs on every notes line, and a loop over the cues cost
        three times the hand-written tests it replaces."""
        chars = "".join(dict.fromkeys(c for rule in self._rules for cue in rule.cues for c in cue.chars))
        patterns: list[tuple[tuple[str, ...], re.Pattern[str], bool]] = []
        for rule in self._rules:
            for cue in rule.cues:
                if cue.pattern is not None and (cue.needles, cue.pattern, cue.fold) not in patterns:
                    patterns.append((cue.needles, cue.pattern, cue.fold))
        scope: dict[str, object] = {"_chars": re.compile("[" + re.escape(chars) + "]") if chars else None}
        lines = ["def could_match(text):"]
        ascii_chars = [c for c in chars if c.isascii()]
        if ascii_chars:
            lines += ["    if text.isascii():",
                      "        if " + " or ".join(f"{c!r} in text" for c in ascii_chars) + ":",
                      "            return True"]
            if chars != "".join(ascii_chars):
                lines += ["    elif _chars.search(text):", "        return True"]
        elif chars:
            lines += ["    if _chars.search(text):", "        return True"]
        folded = []
        for i, (needles, pattern, fold) in enumerate(patterns):
            scope[f"_p{i}"] = pattern.search
            test = f"({' or '.join(f'{n!r} in {{where}}' for n in needles) or 'True'}) and _p{i}(text) is not None"
            if fold:
                folded.append(test.format(where="low"))
            else:
                lines += [f"    if {test.format(where='text')}:", "        return True"]
        if folded:
            lines += ["    low = text.lower()", "    return " + " or ".join(f"({t})" for t in folded)]
        else:
            lines += ["    return False"]
        exec("\n".join(lines), scope)  # noqa: S102 - source built above from the rows' own strings (repr)
        self.could_match: Callable[[str], bool] = scope["could_match"]  # type: ignore[assignment]
        self._source = "\n".join(lines)

    def first(self, text: str) -> T | None:
        """The answer of the first rule that reads ``text`` (the pre-filter not applied)."""
        for rule in self._rules:
            found = rule.read(text)
            if found is not None:
                return found
        return None

    def add(self, rule: LineRule[T], *, before: str | None = None) -> None:
        """A new row, last or before the row named ``before``."""
        at = len(self._rules) if before is None else [r.name for r in self._rules].index(before)
        self._rules.insert(at, rule)
        self._changed()

    def remove(self, name: str) -> None:
        self._rules = [r for r in self._rules if r.name != name]
        self._changed()

    @contextmanager
    def added(self, rule: LineRule[T], *, before: str | None = None) -> Iterator[None]:
        """The table with ``rule`` for the length of a ``with`` block (tests, experiments)."""
        self.add(rule, before=before)
        try:
            yield
        finally:
            self.remove(rule.name)

    def _changed(self) -> None:
        self._derive()
        if self._on_change is not None:
            self._on_change()
