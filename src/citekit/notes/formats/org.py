"""Org-mode notes through orgparse: headings, property drawers and bodies as an outline.

orgparse gives each heading its level, its TODO keyword, priority and tags (kept apart
from the title), and its ``:PROPERTIES:`` drawer. A drawer's ``:AUTHORS:``, ``:URL:``,
``:DOI:``, ``:ARXIV:``, ``:OPENREVIEW:``, ``:VENUE:``, ``:TITLE:`` become the heading's labelled details,
at the line they are written on; a heading's body is read by the indentation outline
reader (``- Authors: ...`` bullets, bare links), with quote and example blocks left out.

orgparse is imported when the first ``.org`` file is read, not when citekit starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citekit.notes.formats.orgheadings import read_headings
from citekit.notes.outline import Node, adopt_orphan_details, parse_outline, shift_lines
from citekit.notes.result import Problem
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.notes.formats import FileScope

#: drawer property -> the label line it stands for
_PROPERTY_LABELS = {
    "AUTHORS": "Authors", "AUTHOR": "Authors", "URL": "URL", "LINK": "URL", "PDF": "URL", "DOI": "doi",
    "ARXIV": "arxiv", "OPENREVIEW": "openreview", "DBLP": "dblp", "VENUE": "Venue", "CONFERENCE": "Venue",
    "JOURNAL": "Venue", "YEAR": "Venue", "TYPE": "type", "TAGS": "tags", "CODE": "Code", "SLIDES": "Slides",
    "TITLE": "Title",
}
_SKIP_LINE_RE = lazy(r"^\s*(?:#\+|:[A-Za-z_-]+:|(?:SCHEDULED|DEADLINE|CLOSED|CLOCK):)")
_BLOCK_START_RE = lazy(r"^\s*#\+begin_(?P<kind>quote|example|src|verse|comment|export)\b", re.I)


@dataclass
class OrgDocument:
    roots: list[Node] = field(default_factory=list)
    file_tags: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


_ORG_LINK_RE = lazy(r"\[\[(?P<target>[^\]\[]+)\](?:\[(?P<desc>[^\]\[]*)\])?\]")


def markdown_links(text: str) -> str:
    """Org links as the Markdown links the extractor reads: ``[[url][Title]]`` becomes
    ``[Title](url)``, ``[[url]]`` the bare URL; links to other notes (``[[Meeting notes]]``)
    stay as written."""
    if "[[" not in text:
        return text

    def convert(m: re.Match[str]) -> str:
        target, desc = m.group("target").strip(), (m.group("desc") or "").strip()
        if not re.match(r"https?://", target):
            return m.group(0)
        return f"[{desc}]({target})" if desc else target

    return _ORG_LINK_RE.sub(convert, text)


def _body_lines(lines: list[str]) -> list[str]:
    """Body lines with drawers, keywords and quote/example/source blocks blanked."""
    out: list[str] = []
    in_block: str | None = None
    for raw in lines:
        if in_block:
            if re.match(rf"^\s*#\+end_{in_block}\b", raw, re.I):
                in_block = None
            out.append("")
            continue
        m = _BLOCK_START_RE.match(raw)
        if m:
            in_block = m.group("kind").lower()
            out.append("")
            continue
        out.append("" if _SKIP_LINE_RE.match(raw) else markdown_links(raw))
    return out


def _dedented(lines: list[str]) -> list[str]:
    """Body lines with the indentation they all share taken off: org indents a heading's
    text under the heading (``org-adapt-indentation``), and the outline reads a paragraph's
    wrapped lines and its bullets relative to the body, not to the page."""
    widths = [len(raw) - len(raw.lstrip(" ")) for raw in lines if raw.strip()]
    cut = min(widths, default=0)
    if not cut:
        return lines
    return [raw[cut:] if raw.strip() else raw for raw in lines]


#: An org file larger than this is parsed in pieces cut before top-level headings, so
#: orgparse's node list and the outline never hold the whole file at once.
CHUNK_CHARS = 64_000
#: Line breaks other than LF/CRLF, which orgparse counts and ``split("\n")`` does not: a
#: file with any of them is parsed whole, so line numbers match what they always were.
_ODD_BREAK_RE = lazy("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]|\r(?!\n)")
_ODD_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _has_odd_break(text: str) -> bool:
    """``_ODD_BREAK_RE.search(text)``, as substring tests: each is a fast scan of the text,
    where the pattern's alternation is tried at every character of a big file."""
    return any(c in text for c in _ODD_BREAKS) or ("\r" in text and _ODD_BREAK_RE.search(text) is not None)


#: a top-level heading whose title is plain words (no colon anywhere, so no ``TODO
#: Authors: ...`` either), maybe followed by org tags (``:ml:reading:``, as orgparse reads
#: them): it cannot be a detail line that the outline would move under the heading before
#: it, so the file may be cut there. (Tagged top-level headings are common; without them
#: a file whose every top-level heading is tagged was read whole, ten times its size in
#: memory.)
_SAFE_CUT_RE = lazy(r"\* [^\s:：]+ [^\n:：]*?[^\W\d_]{2}[^\n:：]*?(?:\s*:[\w@:]+:)?\s*")


def org_pieces(text: str, file: str, doc: OrgDocument) -> Iterator[list[Node]]:
    """The outline of an org-mode text piece by piece (big files are parsed in sections
    cut before top-level headings, each with the file's TODO keywords); ``doc`` collects
    the file tags and problems as pieces are read."""
    if len(text) <= CHUNK_CHARS or _has_odd_break(text):
        whole = parse_org(text, file)
        doc.file_tags, doc.problems = whole.file_tags, whole.problems
        handed = [whole.roots]
        del whole
        yield handed.pop()  # (no reference kept here while the caller reads it: see extract._run_unguarded)
        return
    import orgparse.node

    env = orgparse.node.OrgEnv(filename="<string>")
    for offset, piece in _chunks(text):
        part = _parse(piece, file, env)
        shift_lines(part.roots, offset)
        if offset == 0:
            doc.file_tags = part.file_tags
        doc.problems.extend(Problem(p.file, p.line + offset if p.line else p.line, p.message) for p in part.problems)
        handed = [part.roots]
        del part
        yield handed.pop()


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """``(first line index, text)`` pieces of a big org text, each (but the first) starting
    at a top-level heading; orgparse starts a node at every heading line whatever comes
    before it, so each piece's headings parse as they would in the whole file."""
    start, start_line = 0, 0
    counted_to, line = 0, 0
    at = text.find("\n* ")
    while at >= 0:
        cut = at + 1
        if cut - start >= CHUNK_CHARS and _SAFE_CUT_RE.fullmatch(text, cut, _line_end(text, cut)):
            line += text.count("\n", counted_to, cut)
            counted_to = cut
            yield start_line, text[start:cut]
            start, start_line = cut, line
        at = text.find("\n* ", cut)
    yield start_line, text[start:]


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def parse_org(text: str, file: str) -> OrgDocument:
    """The outline of an org-mode text (see the module docstring)."""
    return _parse(text, file, None)


def _parse(text: str, file: str, env: Any) -> OrgDocument:
    doc = OrgDocument()
    lines = text.split("\n")
    try:
        found = read_headings(text, env)
    except Exception as exc:  # orgparse raises plain exceptions on malformed drawers/dates
        doc.problems.append(Problem(file, None, f"org structure could not be read ({type(exc).__name__}: {exc}); read as plain outline"))
        doc.roots = parse_outline(lines, org=True)
        return doc
    doc.file_tags = [t.lower() for tag in found.file_tags for t in str(tag).split(":") if t]
    headings = found.headings
    starts = [h.linenumber for h in headings] + [len(lines) + 1]
    first = starts[0] if headings else len(lines) + 1
    preamble = parse_outline(_body_lines(lines[: first - 1]), org=True)
    doc.roots.extend(preamble)
    for index, node in enumerate(headings):
        line = node.linenumber
        title = markdown_links((node.raw or "").strip())  # the raw title keeps link targets
        if node.tags:
            title = f"{title} " + " ".join("#" + t for t in sorted(node.tags))
        heading = Node("heading", line, title, level=node.level, source="")
        end = starts[index + 1]
        section = lines[line:end - 1]
        heading.children.extend(_property_labels(section, line))
        if title:
            doc.roots.append(heading)
        body = parse_outline(_dedented(_body_lines(section)), org=True)
        shift_lines(body, line)
        doc.roots.extend(body)
    adopt_orphan_details(doc.roots)
    return doc


_PROPERTY_RE = lazy(r"^\s*:(?P<key>[A-Za-z_-]+):\s*(?P<value>.*?)\s*$")


def _property_labels(section: list[str], line: int) -> list[Node]:
    """The drawer properties citekit reads (``:AUTHORS:``, ``:URL:`` ...) as labelled
    detail lines, at the lines they are written on (``section`` starts below ``line``)."""
    found = []
    for offset, raw in enumerate(section):
        m = _PROPERTY_RE.match(raw) if ":" in raw else None
        if m and m.group("key").upper() in _PROPERTY_LABELS and m.group("value"):
            label = _PROPERTY_LABELS[m.group("key").upper()]
            found.append(Node("plain", line + 1 + offset, f"{label}: {m.group('value')}", indent=2))
    return found


def read(held: list[str], file: str, into: FileScope) -> Iterator[list[Node]]:
    """The :mod:`citekit.notes.formats` reader: the outline piece by piece; the file's
    ``#+FILETAGS`` apply to every paper, set on ``into`` before the first piece is read."""
    org = OrgDocument()
    first = True
    for roots in org_pieces(held.pop(), file, org):
        if first:
            into.file_tags = org.file_tags
            first = False
        handed = [roots]
        del roots
        yield handed.pop()
    into.problems.extend(org.problems)
