"""Plain-text notes (``.txt``, and any file named on the command line whose suffix no
other format claims): the indentation outline of :mod:`citekit.notes.outline`, as is."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from citekit.notes.formats.tables import pasted_tables
from citekit.notes.outline import Node, outline_pieces, shift_lines

if TYPE_CHECKING:
    from citekit.notes.formats import FileScope


def split_lines(text: str) -> list[str]:
    """Lines split on CRLF, CR or LF only.

    ``str.splitlines`` also breaks on form feeds and U+2028, which would shift every line
    number after them away from what the user's editor shows.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read(held: list[str], file: str, into: FileScope) -> Iterator[list[Node]]:
    """The outline of the text in ``held``, piece by piece (nothing file-wide to set). A
    spreadsheet pasted as tab-separated text is read as the table it is (its rows skipped
    as such are told on ``into``), the lines around it as the outline."""
    lines = split_lines(held.pop())
    at = 0
    for start, end, nodes, skipped in pasted_tables(lines) if "\t" in "".join(lines) else ():
        yield from _outline(lines[at:start], at)
        into.skipped.extend(skipped)
        yield nodes
        at = end
    yield from _outline(lines[at:] if at else lines, at)


def _outline(lines: list[str], offset: int) -> Iterator[list[Node]]:
    """The outline of ``lines``, numbered as lines of the whole text from ``offset`` on
    (read in pieces, each as it reads in all of ``lines``: as a streamed file's are)."""
    if not lines:
        return
    for piece in outline_pieces(lines, total=len(lines)):
        shift_lines(piece, offset)
        yield piece
