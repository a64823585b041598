"""Module-level regular expressions compiled when first used, not when their module is imported.

The notes readers hold a few hundred patterns, and compiling them all at import costs
about 0.04 s of every command that loads them: ``add`` of a pasted BibTeX entry loads the
whole notes stack to read one inbox of BibTeX and uses a few dozen of them. A pattern
made with :func:`lazy` compiles on its first use, then puts the compiled pattern in its
module's namespace under every name that held it, so later uses inside the module cost
nothing extra (a module that imported the name keeps the stand-in, which forwards).

Only for patterns used through their methods and attributes (``.match``, ``.sub``,
``.pattern``): the ``re`` functions themselves (``re.sub(P, …)``) want a real pattern.
"""

from __future__ import annotations

import re
import sys
from typing import Any


class LazyPattern:
    """A stand-in for ``re.compile(source, flags)`` that compiles on first use."""

    __slots__ = ("_source", "_flags", "_home", "_compiled")

    def __init__(self, source: str, flags: int, home: dict[str, Any]) -> None:
        self._source, self._flags, self._home = source, flags, home
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        """The real pattern, compiled once; the module's names now hold it."""
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
            for name, value in list(self._home.items()):
                if value is self:
                    self._home[name] = self._compiled
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r})"


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)`` at module level, compiled on first use (see the module
    docstring); typed as the pattern it stands for."""
    home = sys._getframe(1).f_globals
    return LazyPattern(source, flags, home)  # type: ignore[return-value]
