"""The text of HTML as notes apps export it (Notion pages, ``<aside>`` callouts,
``<details>`` toggles, tables), line by line, with the line each piece starts on.

Block elements (paragraphs, list items, headings, table cells, ``<br>``) end a line;
inline elements and entities become their text; ``<script>`` and ``<style>`` are dropped.
Only the standard library's tolerant parser is used: it never fails on broken markup.
"""

from __future__ import annotations

from html.parser import HTMLParser

#: elements after which the text continues on a new line
_BLOCK = frozenset((
    "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "br", "hr", "aside",
    "details", "summary", "blockquote", "figure", "figcaption", "section", "article", "header", "footer",
    "dt", "dd", "pre", "title",
))
#: elements whose text is not content
_DROP = frozenset(("script", "style", "head", "svg", "noscript"))
#: table cells: kept apart on their line, as a pipe table writes them
_CELL = frozenset(("td", "th"))


class _Text(HTMLParser):
    def __init__(self, keep_lines: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._keep_lines = keep_lines
        self.lines: list[tuple[int, str]] = []
        self._parts: list[str] = []
        self._start: int | None = None
        self._dropping = 0
        self._depth = 0  # list nesting, for the indentation of list items

    def _flush(self) -> None:
        text = " ".join("".join(self._parts).split())
        if text:
            self.lines.append((self._start or 0, "  " * max(self._depth - 1, 0) + text))
        self._parts, self._start = [], None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _DROP:
            self._dropping += 1
        elif tag in ("ul", "ol"):
            self._flush()
            self._depth += 1
        elif tag == "li":
            self._flush()
            self._parts.append("- ")
        elif tag in _CELL:
            self._parts.append(" | ")
        elif tag in _BLOCK:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROP:
            self._dropping = max(self._dropping - 1, 0)
        elif tag in ("ul", "ol"):
            self._flush()
            self._depth = max(self._depth - 1, 0)
        elif tag in _BLOCK or tag == "li":
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._dropping or not data:
            return
        if self._keep_lines and "\n" in data.strip():
            first = self.getpos()[0] - 1
            for k, piece in enumerate(data.split("\n")):
                if k:
                    self._flush()
                if self._start is None and piece.strip():
                    self._start = first + k
                self._parts.append(piece)
            return
        if self._start is None and data.strip():
            lead = data[: len(data) - len(data.lstrip())]
            self._start = self.getpos()[0] - 1 + lead.count("\n")
        self._parts.append(data)


def html_lines(html: str, *, keep_lines: bool = False) -> list[tuple[int, str]]:
    """``(line offset from the first line of html, text)`` for each line of text in ``html``.

    ``keep_lines``: a line break in the text ends a line too. HTML inside a Markdown file
    (Notion's ``<aside>`` callouts) is written line by line by a person, who means each line
    as one: a callout's heading line and the reference under it are two lines, not one."""
    parser = _Text(keep_lines)
    parser.feed(html)
    parser.close()
    parser._flush()
    return [(offset, text.replace("- |", "|").replace("|  |", "|")) for offset, text in parser.lines]
