"""What extraction hands back: the mentions found and the problems met on the way.

Problems are values, not exceptions, so one unreadable file never hides the mentions of the
others; the command line prints them after the results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # an annotation only: a no-op sync lists notes files without defining Mention
    from citekit.core.resolution import Mention


@dataclass(frozen=True)
class Problem:
    """Something the user should fix in a notes file (``line`` None: the whole file)."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.message}"


@dataclass
class ExtractResult:
    """Mentions in file/line order, and the problems met while reading."""

    mentions: list[Mention] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def extend(self, other: "ExtractResult") -> None:
        self.mentions.extend(other.mentions)
        self.problems.extend(other.problems)
