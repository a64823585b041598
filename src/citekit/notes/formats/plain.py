"""Plain-text notes (``.txt``, and any file named on the command line whose suffix no
other format claims): the indentation outline of :mod:`citekit.notes.outline`, as is."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citekit.notes.outline import Node, outline_pieces

if TYPE_CHECKING:
    from citekit.notes.formats import FileScope


def split_lines(text: str) -> list[str]:
    """Lines split on CRLF, CR or LF only.

    ``str.splitlines`` also breaks on form feeds and U+2028, which would shift every line
    number after them away from what the user's editor shows.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read(held: list[str], file: str, into: FileScope) -> Iterator[list[Node]]:
    """The outline of the text in ``held``, piece by piece (nothing file-wide to set)."""
    lines = split_lines(held.pop())
    yield from outline_pieces(lines)
