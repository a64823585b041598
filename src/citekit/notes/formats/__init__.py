"""The notes formats citekit reads, one module each, and the one table that picks the reader.

A row names a format, the file suffixes it reads, the subset a folder walk picks up, and
where its reader lives (imported when the first file of that format is read: markdown-it
and orgparse cost start-up a replayed sync does not pay). :mod:`citekit.notes.reader`
walks folders with :func:`folder_suffixes`; :mod:`citekit.notes.extract` reads each file
with :func:`reader_for`. A file whose suffix no row names is read as plain text, the
indentation outline every format shares. Pasted BibTeX entries (:mod:`.bibtex`) are cut
out of every format first: they are a format inside the others, not a kind of file.

A reader is ``read(held, file, into) -> Iterator[list[Node]]``: it takes the one text
out of ``held`` (so a big file is not kept twice), yields the outline piece by piece, and
puts what the file says about all its papers (front-matter venue, file tags) and its
problems on ``into`` (see :class:`FileScope`). Adding a format is one module here and one
row below (docs/extending.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

if TYPE_CHECKING:
    from citekit.notes.outline import Node
    from citekit.notes.result import Problem


class FileScope(Protocol):
    """What a reader may set for the whole file while it reads (the extractor's state)."""

    scope: Any  # ``.plain_venue``: a venue/year every paper of the file inherits
    file_tags: list[str]
    problems: list[Problem]
    skipped: list[tuple[int, str]]


Reader = Callable[[list[str], str, FileScope], Iterator[list["Node"]]]


@dataclass(frozen=True)
class NotesFormat:
    """One notes format: the suffixes it reads (lower case, with the dot), those a folder
    walk picks up, and ``"package.module:function"`` of its reader."""

    name: str
    suffixes: tuple[str, ...]
    in_folders: tuple[str, ...]
    reader: str

    def load(self) -> Reader:
        import importlib

        module, _, function = self.reader.partition(":")
        return getattr(importlib.import_module(module), function)


#: Every format, in the order a folder's suffix is looked up. ``plain`` is also what a
#: file with any other suffix is read as, when it is named on the command line.
FORMATS: tuple[NotesFormat, ...] = (
    NotesFormat("markdown", (".md", ".markdown", ".mdown", ".mkd"), (".md", ".markdown"),
                "citekit.notes.formats.markdown:read"),
    NotesFormat("org", (".org",), (".org",), "citekit.notes.formats.org:read"),
    NotesFormat("latex", (".tex", ".ltx", ".bbl"), (".tex", ".bbl"), "citekit.notes.formats.latex:read"),
    NotesFormat("plain", (".txt",), (".txt",), "citekit.notes.formats.plain:read"),
)
#: the format of a file whose suffix no row names
FALLBACK = "plain"


def format_of(file: str) -> NotesFormat:
    """The row that reads ``file`` (by its suffix, any case; else the plain outline)."""
    suffix = PurePosixPath(file).suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.suffixes:
            return fmt
    return next(fmt for fmt in FORMATS if fmt.name == FALLBACK)


def reader_for(file: str) -> Reader:
    """The reader of ``file``'s format."""
    return format_of(file).load()


def folder_suffixes() -> tuple[str, ...]:
    """The suffixes read when a folder is given (other files there are not notes)."""
    return tuple(s for fmt in FORMATS for s in fmt.in_folders)
