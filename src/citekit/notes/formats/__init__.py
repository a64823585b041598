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

Some formats are another app's export of notes rather than notes typed by hand (a Slack
workspace export's day files, Notion's "Export as HTML" pages). Such a row is picked by the
file's whole name, not only its suffix (``2024-03-05.json``, ``Reading list <32 hex>.html``:
no other ``.json`` or ``.html`` file is notes), and names a *transcriber* that turns the
file into notes text first, with the file line each text line came from
(:class:`Transcript`). Everything after that (pasted BibTeX, the outline, the rules) reads
the transcript as it reads any notes text, and the lines are mapped back at the end, so
``extract --explain`` points into the exported file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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


@dataclass
class Transcript:
    """An exported file as notes text: ``lines[i]`` is the file line that text line ``i + 1``
    came from (several text lines may come from one file line: a chat message with line
    breaks is one JSON string), and the problems met, already with file lines."""

    text: str
    lines: list[int] = field(default_factory=list)
    problems: list["Problem"] = field(default_factory=list)

    def file_line(self, line: int) -> int:
        """The file line of text line ``line`` (1-based); a line past the end stays as it is."""
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else line


Transcriber = Callable[[str, str], Transcript]


@dataclass(frozen=True)
class NotesFormat:
    """One notes format: the suffixes it reads (lower case, with the dot), those a folder
    walk picks up, and ``"package.module:function"`` of its reader. An export format has
    ``names`` instead, a pattern the whole file name must match (any case), and a
    ``transcriber`` (``"package.module:function"``, see :class:`Transcript`)."""

    name: str
    suffixes: tuple[str, ...]
    in_folders: tuple[str, ...]
    reader: str
    names: str = ""
    transcriber: str = ""

    def load(self) -> Reader:
        return _load(self.reader)

    def load_transcriber(self) -> Transcriber | None:
        """The function that turns this format's files into notes text, if it has one."""
        return _load(self.transcriber) if self.transcriber else None

    def matches_name(self, name: str) -> bool:
        """Whether a file named ``name`` (no folder) is of this export format."""
        return bool(self.names) and _name_pattern(self.names).fullmatch(name) is not None


def _load(where: str) -> Any:
    import importlib

    module, _, function = where.partition(":")
    return getattr(importlib.import_module(module), function)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _name_pattern(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern, re.I)
    return compiled


#: Every format, in the order a folder's suffix is looked up. ``plain`` is also what a
#: file with any other suffix is read as, when it is named on the command line.
FORMATS: tuple[NotesFormat, ...] = (
    NotesFormat("markdown", (".md", ".markdown", ".mdown", ".mkd"), (".md", ".markdown"),
                "citekit.notes.formats.markdown:read"),
    NotesFormat("org", (".org",), (".org",), "citekit.notes.formats.org:read"),
    NotesFormat("latex", (".tex", ".ltx", ".bbl"), (".tex", ".bbl"), "citekit.notes.formats.latex:read"),
    NotesFormat("plain", (".txt",), (".txt",), "citekit.notes.formats.plain:read"),
    # a Slack workspace export: one file per channel and day (``papers/2024-03-05.json``)
    NotesFormat("slack", (), (), "citekit.notes.formats.plain:read",
                names=r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\.json",
                transcriber="citekit.notes.formats.slack:transcribe"),
    # Notion's "Export as HTML": ``Page Title 0123456789abcdef0123456789abcdef.html``
    NotesFormat("notion", (), (), "citekit.notes.formats.plain:read",
                names=r".*[ _-][0-9a-f]{32}\.html?",
                transcriber="citekit.notes.formats.notion:transcribe"),
)
#: the format of a file whose suffix no row names
FALLBACK = "plain"


def format_of(file: str) -> NotesFormat:
    """The row that reads ``file``: an export format its whole name matches, else the row
    of its suffix (any case), else the plain outline."""
    path = PurePosixPath(file)
    for fmt in FORMATS:
        if fmt.matches_name(path.name):
            return fmt
    suffix = path.suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.suffixes:
            return fmt
    return next(fmt for fmt in FORMATS if fmt.name == FALLBACK)


def reader_for(file: str) -> Reader:
    """The reader of ``file``'s format."""
    return format_of(file).load()


def folder_suffixes() -> tuple[str, ...]:
    """The suffixes read when a folder is given (other files there are not notes, except
    those :func:`in_folders` takes by name)."""
    return tuple(s for fmt in FORMATS for s in fmt.in_folders)


def in_folders(name: str, suffixes: tuple[str, ...]) -> bool:
    """Whether a folder walk reads the file ``name``: its suffix is one of ``suffixes``
    (:func:`folder_suffixes`), or an export format's pattern matches its whole name."""
    return PurePosixPath(name).suffix.lower() in suffixes or any(fmt.matches_name(name) for fmt in FORMATS if fmt.names)
