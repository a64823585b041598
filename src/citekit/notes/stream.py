"""Mentions of notes files yielded as they are found, for output that is written as it is
made (``extract --json``, ``extract -q``): memory stays bounded by a piece of the file,
not by the file or by how many papers it names.

A big plain-text file (``.txt``) is read twice from disk, line by line: once to check that
nothing in it needs the whole text at once (see :func:`streamable`), then to extract, a
piece at a time. Any other file (a small one, another format, an export, a file with
pasted BibTeX or not in UTF-8) is extracted whole, as :func:`citekit.notes.extract_paths`
does, and its mentions handed on one by one. Either way the mentions and problems are
those of :func:`~citekit.notes.extract_paths`, in the same order; one difference: when
extraction of a streamed file fails part way (a bug, reported as a problem that asks for
the file shape), the mentions already handed on stay given, where the whole-file reading
drops the file's mentions.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from citekit.notes.formats import format_of
from citekit.notes.reader import notes_files, notes_name, read_notes
from citekit.notes.result import Problem
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.core.resolution import Mention

#: Files smaller than this are extracted whole: reading them twice would cost more than
#: holding them (and their mentions) does.
STREAM_BYTES = 1 << 20
#: formats whose readers make mentions a piece at a time: plain text (read line by line),
#: Markdown (read whole, cut into sections that parse alone)
STREAMED_FORMATS = ("plain", "markdown")

#: what starts a pasted BibTeX entry (:mod:`citekit.notes.formats.bibtex`), a Zotero
#: report's rows (:mod:`citekit.notes.zoteroreport`) and a chat's doubled site name under a
#: link preview (:mod:`citekit.notes.chatcopy`), looked for one line at a time. Each test
#: finds at least what the whole-text test finds, so a file they pass needs no whole-text step.
_BIBTEX_START = lazy(r"^\s*@[A-Za-z]+\s*[{(]")
_DOUBLED_SITE = lazy(r"^[ \t]*(?P<site>[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,4})(?P=site)[ \t]*$")
_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)  # (the UTF-32 marks start with these)


class MentionStream:
    """The mentions of some notes files, one at a time (iterate once), and the problems met
    (complete once the iteration is over: a problem of a file's line is only known when the
    file has been read). ``count`` is how many mentions have been yielded so far."""

    def __init__(self, paths: list[Path], root: Path, *, follow_out: bool = False) -> None:
        self._paths = paths
        self._root = root
        self._follow_out = follow_out
        self.problems: list[Problem] = []
        self.count = 0

    def __iter__(self) -> Iterator[Mention]:
        files, found = notes_files([Path(p) for p in self._paths], follow_out=self._follow_out)
        self.problems.extend(found)
        for path in files:
            for mention in _file_mentions(path, notes_name(path, self._root), self.problems):
                self.count += 1
                yield mention


def _file_mentions(path: Path, name: str, problems: list[Problem]) -> Iterator[Mention]:
    """One file's mentions, streamed when it is a big plain-text file that allows it."""
    from citekit.notes.extract import extract_owned, stream_held, stream_plain

    total = streamed_lines(path, name)
    if total is not None:
        try:
            if format_of(name).name == "plain":
                yield from stream_plain(plain_lines(path), name, problems, total=total)
            else:  # read whole (its reader cuts the text itself), its mentions streamed
                text, read_problems = read_notes(path, name)
                problems.extend(read_problems)
                if text is not None:
                    held = [text]
                    del text
                    yield from stream_held(held, name, problems)
        except RecursionError:
            problems.append(Problem(name, None, "nested too deeply to read; flatten the deepest lists and run again"))
        except Exception as exc:  # one unreadable file never stops the others
            problems.append(Problem(name, None, f"skipped: extraction failed ({type(exc).__name__}: {exc}); please report this file shape"))
        return
    # as extract_paths does (the same messages): the whole text, then its mentions
    text, read_problems = read_notes(path, name)
    problems.extend(read_problems)
    if text is None:
        return
    held = [text]
    del text
    try:
        result = extract_owned(held, name)
    except RecursionError:
        problems.append(Problem(name, None, "nested too deeply to read; flatten the deepest lists and run again"))
        return
    except Exception as exc:
        problems.append(Problem(name, None, f"skipped: extraction failed ({type(exc).__name__}: {exc}); please report this file shape"))
        return
    problems.extend(result.problems)
    mentions = result.mentions
    del result
    mentions.reverse()
    while mentions:  # each handed on and dropped, not all kept until the last is written
        yield mentions.pop()


def streamable(path: Path, name: str) -> bool:
    """Whether ``path`` can be extracted a piece at a time (see :func:`streamed_lines`)."""
    return streamed_lines(path, name) is not None


def streamed_lines(path: Path, name: str) -> int | None:
    """Whether ``path`` can be extracted a piece at a time with exactly the result of
    reading it whole: a plain-text notes file of :data:`STREAM_BYTES` or more, in UTF-8
    without a byte-order mark, not empty, and with nothing any whole-text step of
    extraction acts on (a NUL byte, a pasted BibTeX entry, a Zotero report row, a chat's
    link preview, a spreadsheet table pasted as tab-separated text, the one character whose
    lower case is longer than itself). Read line by
    line: the file is never held. How many lines :func:`plain_lines` gives when it can,
    else None (the count places each line of a piece in the whole text)."""
    fmt = format_of(name)
    if fmt.name not in STREAMED_FORMATS or fmt.transcriber:
        return None
    from citekit.notes.formats.tables import starts_pasted_table
    try:
        if path.stat().st_size < STREAM_BYTES:
            return None
        with open(path, "rb") as raw:
            if raw.read(4).startswith(_BOMS):
                return None
        seen_text = False
        count = 0
        for line in plain_lines(path, complete=False):
            if ("\x00" in line or "\u0130" in line or "Item Type" in line
                    or ("@" in line and _BIBTEX_START.search(line)) or _DOUBLED_SITE.search(line)
                    or starts_pasted_table(line)):
                return None
            seen_text = seen_text or bool(line.strip())
            count += 1
        return count if seen_text else None
    except (OSError, UnicodeDecodeError):
        return None  # read whole, which says what is wrong


def plain_lines(path: Path, *, complete: bool = True) -> Iterator[str]:
    """The lines of a UTF-8 file as :func:`~citekit.notes.formats.plain.split_lines` cuts
    its text (on CRLF, CR or LF; a last empty line after a final line break), with the
    paper addresses written without a scheme completed as :func:`~citekit.notes.reader.read_notes`
    does (an address never spans lines, so line by line gives the same). ``complete=False``
    leaves the addresses as written: what :func:`streamable` looks for has no ``/`` in it,
    and a completed address has one."""
    from citekit.notes.urls import add_missing_schemes

    ended = True
    with open(path, encoding="utf-8", errors="strict", newline="") as lines:
        for raw in lines:
            ended = raw[-1:] in ("\n", "\r")
            if ended:
                raw = raw[:-2] if raw[-2:] == "\r\n" else raw[:-1]
            yield add_missing_schemes(raw) if complete else raw
    if ended:
        yield ""
