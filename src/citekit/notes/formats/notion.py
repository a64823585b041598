"""Notion's "Export as HTML" pages (``Reading list 0123456789abcdef0123456789abcdef.html``)
as notes text.

An exported page is one HTML document: a header with the page's title
(``<h1 class="page-title">``) and its properties (``<table class="properties">``, one row
per property: ``<th>Authors</th><td>…</td>``), then the page body: paragraphs, headings,
bulleted and numbered lists (every item its own ``<ul>``, nested items inside it),
``<details>`` toggles, callouts (``<figure class="callout">``; ``<aside>`` in Notion's
Markdown export), links, bookmarks (``<a class="bookmark source">`` with the linked page's
title) and database tables. They are written as the notes text a person would type: a
page with an author or link property is one paper (its title, its properties as labelled
details below it: ``Authors: …``, ``URL: …``, the body as its notes); any other page's
title is a heading over its body; list items and toggles are bullets nested by depth; a
bookmark is its title beside its link; a table row is its first cell with the others as
``Column: value`` details. Code blocks, images and the style sheet are not notes.

Only the standard library's tolerant HTML parser is used: broken markup never fails, and
nothing in the file is trusted (sizes and nesting are capped). Each text line remembers
the HTML line its first words are on (Notion writes most of a page on one line).
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Iterator

from citekit.notes.formats import Transcript
from citekit.notes.formats.slack import strip_arxiv_prefix, titled_link
from citekit.notes.labels import parse_label
from citekit.notes.result import Problem

#: a page larger than this is no notes page (Notion's pages are kilobytes to a few megabytes)
MAX_FILE_CHARS = 32_000_000
#: elements nested deeper than this are read as part of the element at this depth
MAX_DEPTH = 200
#: elements whose content is not notes
_DROP = frozenset(("head", "style", "script", "svg", "noscript", "pre", "img", "template", "iframe"))
#: elements that hold no content and have no end tag
_VOID = frozenset(("br", "hr", "img", "meta", "link", "input", "col", "source", "wbr", "area", "base", "embed"))
#: elements that are a block of their own, not words inside a line
_BLOCKS = frozenset((
    "p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary", "figure", "figcaption",
    "blockquote", "aside", "table", "thead", "tbody", "tr", "td", "th", "header", "article", "section", "nav",
    "hr", "pre", "body", "html",
))


_NO_CLASS: frozenset[str] = frozenset()


class _Element:
    __slots__ = ("tag", "attrs", "children", "line", "classes")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[_Element | tuple[str, int]] = []  # elements and (text, line)
        self.line = line
        self.classes = frozenset(attrs["class"].split()) if attrs.get("class") else _NO_CLASS

    def elements(self) -> Iterator[_Element]:
        return (c for c in self.children if isinstance(c, _Element))

    def find(self, tag: str, cls: str | None = None) -> _Element | None:
        """The first element below this one with ``tag`` (and class ``cls``), depth first."""
        stack = list(reversed(list(self.elements())))
        while stack:
            node = stack.pop()
            if node.tag == tag and (cls is None or cls in node.classes):
                return node
            stack.extend(reversed(list(node.elements())))
        return None


class _Tree(HTMLParser):
    """The document as a tree of :class:`_Element`, each with the line it starts on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Element("#root", {}, 1)
        self._open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0])
        self._open[-1].children.append(node)
        if tag not in _VOID and len(self._open) < MAX_DEPTH:
            self._open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open[-1].children.append(_Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0]))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, 0, -1):
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return  # (an end tag nothing opened is ignored)

    def handle_data(self, data: str) -> None:
        if data:
            line = self.getpos()[0] + (data[: len(data) - len(data.lstrip())].count("\n"))
            self._open[-1].children.append((data, line))


class _Out:
    """The transcript as it is written: ``(indent, text, line)`` rows."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, int]] = []

    def add(self, indent: int, text: str, line: int) -> None:
        for part in text.split("\n"):
            part = " ".join(part.split())
            if part:
                self.rows.append((indent, part, line))

    def blank(self) -> None:
        if self.rows and self.rows[-1][1]:
            self.rows.append((0, "", self.rows[-1][2]))


def _inline(node: _Element | tuple[str, int], skip_blocks: bool = False) -> tuple[str, int | None]:
    """The words of ``node`` on one line (``<br>`` breaks it), links as ``[label](https://…)``
    (a link to another exported page as its label), and the line its first word is on.
    ``skip_blocks``: leave out block children (an item's nested list is its own)."""
    if isinstance(node, tuple):
        text, line = node
        return text, (line if text.strip() else None)
    if node.tag in _DROP or "icon" in node.classes:
        return "", None
    if node.tag == "br":
        return "\n", None
    parts: list[str] = []
    first: int | None = None
    for child in node.children:
        if skip_blocks and isinstance(child, _Element) and child.tag in _BLOCKS:
            continue
        text, line = _inline(child)
        parts.append(text)
        if first is None:
            first = line
    text = "".join(parts)
    if node.tag == "a":
        href = node.attrs.get("href", "").strip()
        if href.startswith(("https://", "http://")) and len(href) < 2000 and not any(c.isspace() for c in href):
            text = titled_link(text, href)
            first = first if first is not None else node.line
    if node.tag in _BLOCKS and text and not skip_blocks:
        text = " " + text + " "  # (a block inside a line still ends a word)
    return text, first


def _line_of(node: _Element) -> int:
    """The line of the first word of ``node`` (its start tag's line when it has none)."""
    stack: list[_Element | tuple[str, int]] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            if current[0].strip():
                return current[1]
        elif current.tag not in _DROP and "icon" not in current.classes:
            stack.extend(reversed(current.children))
    return node.line


def _properties(table: _Element) -> list[tuple[str, str, int]]:
    """``(name, value, line)`` of each property row of the page's header table that
    reads as a detail of a paper (``Authors``, ``URL``, ``Tags``, ``Venue`` …)."""
    rows = []
    for tr in _in_order(table, "tr"):
        name_cell = next((c for c in tr.elements() if c.tag == "th"), None)
        value_cell = next((c for c in tr.elements() if c.tag == "td"), None)
        if name_cell is None or value_cell is None:
            continue
        name = " ".join(_inline(name_cell)[0].split())
        values = [" ".join(_inline(span)[0].split()) for span in value_cell.elements() if "selected-value" in span.classes]
        value = ", ".join(v for v in values if v) if values else " ".join(_inline(value_cell)[0].split())
        if name and value and parse_label(f"{name}: {value}") is not None:
            rows.append((name, value, _line_of(value_cell)))  # (a status, a date, a checkbox: no detail of a paper)
    return rows


def _in_order(node: _Element, tag: str) -> list[_Element]:
    out: list[_Element] = []
    stack = list(reversed(list(node.elements())))
    while stack:
        current = stack.pop()
        if current.tag == tag:
            out.append(current)
            continue
        stack.extend(reversed(list(current.elements())))
    return out


def _is_paper_page(properties: list[tuple[str, str, int]]) -> bool:
    """Whether the page's properties say it is one paper: an author list, a link, an
    identifier (a database of papers, one page each)."""
    for name, value, _line in properties:
        label = parse_label(f"{name}: {value}")
        if label is not None and label.field in ("authors", "url", "pin"):
            return True  # (tags, a venue or a summary alone are said of notes pages too)
    return False


def _blocks(node: _Element, indent: int, out: _Out, depth: int = 0) -> None:
    """The lines of the block-level content of ``node``."""
    if depth > MAX_DEPTH:
        return
    for child in node.children:
        if isinstance(child, tuple):
            if child[0].strip():
                out.add(indent, child[0], child[1])
            continue
        _block(child, indent, out, depth + 1)


def _block(node: _Element, indent: int, out: _Out, depth: int) -> None:
    tag, classes = node.tag, node.classes
    if tag in _DROP or tag == "hr" or "icon" in classes or "page-header-icon" in classes:
        return
    if tag in ("ul", "ol"):
        for item in node.elements():
            if item.tag == "li":
                _item(item, indent, out, depth)
            else:
                _block(item, indent, out, depth + 1)
        return
    if tag == "li":
        _item(node, indent, out, depth)
        return
    if tag == "details":
        summary = next((c for c in node.elements() if c.tag == "summary"), None)
        text = " ".join(_inline(summary)[0].split()) if summary is not None else ""
        if text:
            out.add(indent, "- " + text, _line_of(summary))  # type: ignore[arg-type]
        for child in node.elements():
            if child is not summary:
                _block(child, indent + 1 if text else indent, out, depth + 1)
        return
    bookmark = node.find("a", "bookmark") if tag == "figure" else None
    if bookmark is not None:
        _bookmark(bookmark, indent, out)
        return
    if tag == "table":
        _table(node, indent, out, depth)
        return
    if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
        text = " ".join(_inline(node)[0].split())
        if text:
            out.blank()
            out.add(0, "#" * int(tag[1]) + " " + text, _line_of(node))
            out.blank()
        return
    if any(isinstance(c, _Element) and c.tag in _BLOCKS for c in node.children):
        text, line = _inline(node, skip_blocks=True)  # words beside blocks (a callout's text)
        if text.strip():
            out.add(indent, text, line or node.line)
        _blocks(node, indent, out, depth)
        return
    text, line = _inline(node)
    if text.strip():
        out.add(indent, text, line or node.line)
        if indent == 0 and tag in ("p", "blockquote", "figure", "aside"):
            out.blank()


def _item(item: _Element, indent: int, out: _Out, depth: int) -> None:
    """A list item: its own words as ``- words``, its nested lists one level deeper."""
    text, line = _inline(item, skip_blocks=True)
    own = " ".join(text.split())
    blocks = [c for c in item.elements() if c.tag in _BLOCKS]
    if not own and blocks and blocks[0].tag in ("p", "div", "span"):
        own = " ".join(_inline(blocks[0])[0].split())
        line = _line_of(blocks[0])
        blocks = blocks[1:]
    if own:
        out.add(indent, "- " + own, line or item.line)
    for child in blocks:
        _block(child, indent + 1 if own else indent, out, depth + 1)


def _bookmark(link: _Element, indent: int, out: _Out) -> None:
    """A bookmark block: the linked page's title beside its link."""
    href = link.attrs.get("href", "").strip()
    title = link.find("div", "bookmark-title")
    text = " ".join(_inline(title)[0].split()) if title is not None else ""
    if not href.startswith(("https://", "http://")):
        return
    text = strip_arxiv_prefix(text)
    out.add(indent, f"- {text} {href}" if text and text != href else f"- {href}", _line_of(link))


def _table(table: _Element, indent: int, out: _Out, depth: int) -> None:
    """A table (a database view, a simple table): each row its first cell, the other cells
    as ``Column: value`` details below it when the table has a header row."""
    rows = _in_order(table, "tr")
    if not rows:
        return
    header: list[str] = []
    if any(c.tag == "th" for c in rows[0].elements()) or "simple-table-header" in " ".join(
            " ".join(c.classes) for c in rows[0].elements()):
        header = [" ".join(_inline(c)[0].split()) for c in rows[0].elements() if c.tag in ("th", "td")]
        rows = rows[1:]
    for tr in rows:
        cells = [c for c in tr.elements() if c.tag in ("th", "td")]
        texts = [" ".join(_inline(c)[0].split()) for c in cells]
        if not cells or not any(texts):
            continue
        first = next((i for i, c in enumerate(cells) if "cell-title" in c.classes), 0)
        if not header:
            out.add(indent, "- " + " | ".join(t for t in texts if t), _line_of(tr))
            continue
        out.add(indent, "- " + (texts[first] or "(untitled)"), _line_of(cells[first]))
        for i, (name, value) in enumerate(zip(header, texts)):
            if i != first and name and value:
                out.add(indent + 1, f"{name}: {value}", _line_of(cells[i]))
    out.blank()


def transcribe(text: str, file: str) -> Transcript:
    """The notes text of one page exported from Notion as HTML (see the module docstring)."""
    if len(text) > MAX_FILE_CHARS:
        return Transcript("", [], [Problem(file, None, f"a Notion page of {len(text):,} characters, more than "
                                                       f"{MAX_FILE_CHARS:,}: not read. Export the page without its sub-pages")])
    tree = _Tree()
    tree.feed(text)
    tree.close()
    out = _Out()
    article = tree.root.find("article") or tree.root.find("body") or tree.root
    header = article.find("header")
    title_node = article.find("h1", "page-title")
    title = " ".join(_inline(title_node)[0].split()) if title_node is not None else ""
    table = header.find("table", "properties") if header is not None else None
    properties = _properties(table) if table is not None else []
    body = article.find("div", "page-body")
    indent = 0
    if title and _is_paper_page(properties):
        out.add(0, title, _line_of(title_node))  # type: ignore[arg-type]
        for name, value, line in properties:
            out.add(1, f"{name}: {value}", line)
        indent = 1  # the page's text is the paper's notes
    elif title:
        out.add(0, "# " + title, _line_of(title_node))  # type: ignore[arg-type]
        out.blank()
    if body is not None:
        _blocks(body, indent, out)
    elif header is None:
        _blocks(article, 0, out)  # not Notion's layout: read whatever the page holds
    if not out.rows:
        return Transcript("", [], [Problem(file, None, "a Notion page without any text; nothing to extract")])
    return Transcript("\n".join("  " * i + t if t else "" for i, t, _n in out.rows), [n for _i, _t, n in out.rows], [])
