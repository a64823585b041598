"""Markdown notes through a real parser: the document tree as the extractor's outline.

markdown-it-py (CommonMark, GFM tables and strike-through) with the mdit-py-plugins for
front matter, task lists, footnotes and definition lists gives the structure; this module
maps it onto the :class:`~citekit.notes.outline.Node` outline every notes format shares:
headings, list items nested at any depth (with the lines of their own paragraph, such as
Logseq ``key:: value`` properties, as children), paragraphs, Obsidian callouts, table rows
and definition-list terms. Quotations and code blocks are not notes about papers and are
left out; so is the YAML front matter, which is read for its venue and tags instead.

The parser is imported when the first Markdown file is read, not when citekit starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from citekit.core.venues import from_text
from citekit.notes.labels import parse_label
from citekit.notes.outline import (Node, cut_mid_sentence, adopt_orphan_details, could_start, numbered_starts, parse_outline,
                                   shift_lines, starts_mention)
from citekit.notes.result import Problem
from citekit.notes.shapes import authors_line, is_tags_only, related_pages, strip_chat_prefix, strip_leading_icon

if TYPE_CHECKING:
    from citekit.notes.formats import FileScope
from citekit.notes.formats.tables import pasted_tables, table_nodes
from citekit.notes.urls import is_url_only
from citekit.core.lazyre import lazy

#: Callout kinds that hold a paper (``> [!note] Title``); quotes, to-dos and warnings do not.
NON_PAPER_CALLOUTS = frozenset({"quote", "cite", "todo", "warning", "caution", "danger", "error", "bug", "failure", "fail", "missing", "question", "help", "faq", "attention"})
_CALLOUT_RE = lazy(r"^\[!(?P<kind>[\w-]+)\][+-]?\s*(?P<title>.*)$")


#: Parsers by the rules left out and whether markdown-it's own debug logging is kept
#: (see :func:`_parser_for`); the full one under ``(frozenset(), True)``.
_PARSERS: dict[tuple[frozenset[str], bool], Any] = {}
#: A setext heading's underline (``===`` or ``---`` alone on a line, maybe indented or
#: quoted), on the first line or after a newline: each pattern starts with a fixed
#: character or is anchored, so a search skips straight to the candidate lines (a
#: ``re.M`` pattern starting with ``^`` is tried at every position of the text).
_UNDERLINE_FIRST_RE = lazy(r"[ \t>]*(?:=+|-+)[ \t]*(?![^\n])")
_UNDERLINE_RE = lazy(r"\n[ \t>]*(?:=+|-+)[ \t]*(?![^\n])")
#: What a thematic break (``---``, ``* * *``, ``___``) cannot be without, wherever its line
#: starts (after list markers, quote marks, indentation): three of one marker with only
#: spaces and tabs between, then only markers, spaces and tabs to the line's end.
_RULE_LINE_RE = lazy(r"([-*_])[ \t]*\1[ \t]*\1[-*_ \t]*(?![^\n])")
#: A definition-list marker (``: definition``, ``~ definition``) at the start of a line.
_DEFINITION_FIRST_RE = lazy(r"[ \t>]*[:~]")
_DEFINITION_RE = lazy(r"\n[ \t>]*[:~]")
#: Blocks nested deeper than this (lists in lists in quotes ...) are not parsed as Markdown;
#: their lines are read by the indentation outline reader instead, and reported.
MAX_NESTING = 60
_LEAF_BLOCKS = {"paragraph_open", "heading_open", "fence", "code_block", "html_block", "hr", "front_matter", "tr_open", "dt_open", "footnote_reference_open"}


def _unused_rules(text: str) -> frozenset[str]:
    """The rules that cannot match anywhere in ``text``: each needs a character or a line
    shape that ``text`` does not have (a fence needs three backticks or tildes, a quote a
    ``>``, an HTML block a ``<``, a link reference ``]:``, a footnote ``[^``, an ATX heading
    ``#``, a thematic break three of one marker alone on its line (see :data:`_RULE_LINE_RE`),
    an indented code block four spaces or a tab, the front matter a first line of
    dashes, a table a ``|``, the normalisation a NUL). A rule left out
    gives the same tokens, since it could only have failed, both where a block starts and
    where it would have ended the block before; the setext rule alone re-scanned every
    paragraph, a third of the parse."""
    if "\r" in text:  # (lines not yet split the way the patterns expect)
        return frozenset()
    return frozenset(rule for rule, used in (
        ("lheading", _UNDERLINE_FIRST_RE.match(text) or _UNDERLINE_RE.search(text)),
        ("table", "|" in text),
        ("deflist", _DEFINITION_FIRST_RE.match(text) or _DEFINITION_RE.search(text)),
        ("fence", ("`" in text and "```" in text) or ("~" in text and "~~~" in text)),  # (one character is found faster)
        ("blockquote", ">" in text),
        ("hr", ("-" in text or "*" in text or "_" in text) and _RULE_LINE_RE.search(text)),
        ("html_block", "<" in text),
        ("reference", "]:" in text),
        ("footnote_def", "^" in text and "[^" in text),
        ("heading", "#" in text),
        ("code", "    " in text or "\t" in text),
        ("front_matter", text.startswith("---")),
        ("normalize", "\0" in text),  # (a carriage return: see above)
    ) if not used)


def _parser_for(text: str) -> Any:
    """The parser for ``text``: without the rules that cannot match in it (see
    :func:`_unused_rules`), and without markdown-it's per-rule debug logging unless a
    handler asked for it (see :func:`_rule_logging_on`)."""
    return _parser(_unused_rules(text), _rule_logging_on())


def _parser(skip: frozenset[str] = frozenset(), logging_on: bool = True) -> Any:
    """The parser without the rules in ``skip`` (every rule when it is empty), made once;
    with ``logging_on`` false its block rules run without their debug calls."""
    key = (skip, logging_on)
    parser = _PARSERS.get(key)
    if parser is None:
        parser = _PARSERS[key] = _new_parser()
        if skip:
            parser.disable(sorted(skip))
        if not logging_on:
            _silence_block_rules(parser)
    return parser


#: Stands in for a markdown-it module logger in this module's copies of its rules: its
#: ``debug`` takes any arguments and does nothing, as a built-in (``"".format`` ignores
#: arguments its empty template does not name), so a call costs no Python frame.
_NO_LOG = SimpleNamespace(debug="".format)
#: The loggers markdown-it's block rules write to (filled when the first parser is made).
_RULE_LOGGERS: list[Any] = []


def _rule_logging_on() -> bool:
    """Whether any of markdown-it's block-rule loggers would record a debug message now
    (asked once per piece, so turning them on later is still honoured)."""
    import logging

    if not _RULE_LOGGERS:
        _parser()  # (the full parser lists them)
    return any(logger.isEnabledFor(logging.DEBUG) for logger in _RULE_LOGGERS)


def _silence_block_rules(parser: Any) -> None:
    """Swap each block rule of ``parser`` for a copy whose ``LOGGER`` does nothing.

    Every rule calls ``LOGGER.debug(...)`` each time it is tried, on every line, which
    cost a few percent of reading a large file even with debug logging off. The copies
    share the rules' code and see the same module globals except that one name; the
    library's own functions and every other parser are left as they are."""
    import logging
    import types

    ruler = parser.block.ruler
    for rule in list(ruler.__rules__):
        fn = rule.fn
        logger = getattr(fn, "__globals__", {}).get("LOGGER")
        if not isinstance(logger, logging.Logger) or not isinstance(fn, types.FunctionType):
            continue
        quiet = types.FunctionType(fn.__code__, {**fn.__globals__, "LOGGER": _NO_LOG}, fn.__name__, fn.__defaults__, fn.__closure__)
        quiet.__kwdefaults__ = fn.__kwdefaults__
        ruler.at(rule.name, quiet, {"alt": list(rule.alt)})


def _new_parser() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    # Only the block structure is used (inline text is read from its source), so the
    # inline pass, which is most of markdown-it's time, is switched off; the task-list
    # plugin is kept for the record but a task's "[ ]" is stripped from the raw text.
    parser = (
        MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING})
        .enable(["table", "strikethrough"])
        .use(front_matter_plugin)
        .use(footnote_plugin)
        .use(deflist_plugin)
    )
    parser.disable(["inline", "text_join"], ignoreInvalid=True)
    # footnote definitions ("[^1]: Kingma, D. P., & Ba, J. (2015). Adam ...") stay where
    # they are written: the tail rule would move them to the end, and only when an
    # inline reference (which is not parsed here) points to them
    parser.disable(["footnote_tail"], ignoreInvalid=True)
    if not _RULE_LOGGERS:
        import logging

        _RULE_LOGGERS.extend({id(g["LOGGER"]): g["LOGGER"] for rule in parser.block.ruler.__rules__
                              if isinstance((g := getattr(rule.fn, "__globals__", {})).get("LOGGER"), logging.Logger)}.values())
    return parser


@dataclass
class MarkdownDocument:
    """The outline of one Markdown file and what its front matter says."""

    roots: list[Node] = field(default_factory=list)
    front_matter: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, why) for --explain


#: A Markdown file larger than this is parsed section by section (split before top-level
#: headings), so the parser's token tree never holds more than one section at a time.
CHUNK_CHARS = 64_000
#: a fence line (group 1: its run of backticks or tildes, group 2: the rest, an opening
#: fence's info string)
_FENCE_RE = lazy(r"^ {0,3}(`{3,}|~{3,})(.*)")
#: CommonMark's HTML blocks that end at a marker of their own, not at a blank line (types
#: 1-5): the start, and the end marker (group ``end`` names the type-1 tag)
_HTML_MARKED_RE = lazy(r"<(?:(?P<tag>script|pre|style|textarea)(?:[ \t>]|$)|(?P<comment>!--)|(?P<pi>\?)"
                             r"|(?P<cdata>!\[CDATA\[)|(?P<decl>![A-Za-z]))", re.I)
#: CommonMark's HTML blocks of type 6: a block-level tag, which may interrupt a paragraph
_HTML_BLOCK_TAG_RE = lazy(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir"
    r"|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li"
    r"|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot"
    r"|th|thead|title|tr|track|ul)(?:[ \t>]|/>|$)", re.I)
#: lines that start a new top-level block whatever came before: a heading, a list item
#: (but see :func:`_continues` for an ordered item right after a paragraph line)
_SPLIT_RE = lazy(r"^(?:#{1,6}\s|[-*+]\s+\S|\d{1,9}[.)]\s+\S)")
#: a list item at the margin (group 1: an ordered item's number, group 2: its text)
_ITEM_RE = lazy(r"^(?:[-*+]|(\d{1,9})[.)])(?:[ \t]+(\S)|[ \t]*$)")
_ATX_RE = lazy(r"^#{1,6}(?:[ \t]|$)")


def _block_state(line: str, state: str | None) -> str | None:
    """What the text at the margin is inside once ``line`` is read: ``"paragraph"`` (a
    paragraph that began at the margin), ``"quote"``, ``"item"`` (a list item's text, where
    any list marker at the margin starts a new item), ``"html"`` (an HTML block, which runs
    to the next blank line), or None after a blank line or a heading. Fences are handled
    by the caller."""
    if state is not None and state.startswith("html:"):  # runs to its end marker, blank lines included
        return None if _html_ends(state[5:], line) else state
    if not line.strip():
        return None
    if state == "html":
        return state
    if line.lstrip(" ")[:1] == "<" and len(line) - len(line.lstrip(" ")) <= 3:
        return _html_state(line.lstrip(" "), state)
    if line[:1] in (" ", "\t"):
        return state or "paragraph"  # (an indented start is read as a paragraph: no cut before an item after it)
    if line[:1] == ">":
        return "quote"
    if _ATX_RE.match(line):
        return None
    m = _ITEM_RE.match(line)
    if m:
        return state if _continues(m, state) else "item"
    return state or "paragraph"


#: what ends each of them: a type-1 block ends at the closing tag of any of the four
_HTML_ENDS = {"tag": "</", "comment": "-->", "pi": "?>", "cdata": "]]>", "decl": ">"}
_HTML_TYPE1_END_RE = lazy(r"</(?:script|pre|style|textarea)>", re.I)


def _html_ends(end: str, text: str) -> bool:
    """Whether ``text`` holds the end marker ``end`` of an HTML block (see :data:`_HTML_ENDS`)."""
    return bool(_HTML_TYPE1_END_RE.search(text)) if end == "</" else end in text
#: CommonMark's HTML block of type 7: one complete opening or closing tag, then only spaces
_HTML_TAG_LINE_RE = lazy(
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$")


def _html_state(line: str, state: str | None) -> str | None:
    """The state after a line starting with ``<`` (CommonMark's HTML blocks): types 1-5 run
    to their end marker (``html:MARKER``, or nothing left open when the line holds it),
    type 6 to the next blank line, both even after a paragraph line; a tag alone on its
    line (type 7) only where no paragraph goes on; any other line is text."""
    m = _HTML_MARKED_RE.match(line)
    if m is not None:
        end = _HTML_ENDS[m.lastgroup or ""]
        return None if _html_ends(end, line[m.end():]) else "html:" + end
    if _HTML_BLOCK_TAG_RE.match(line):
        return "html"
    if _HTML_TAG_LINE_RE.match(line):  # type 7: a whole tag alone on its line
        return state or "html"
    return state or "paragraph"


def _continues(item: re.Match[str], state: str | None) -> bool:
    """CommonMark: a list item may interrupt a paragraph only if it has text and, when
    ordered, starts at 1; otherwise ``2. item`` after a paragraph line is more of that
    paragraph (inside a list item's text, a marker at the margin always starts an item)."""
    if state not in ("paragraph", "quote"):
        return False
    return item.group(2) is None or (item.group(1) is not None and int(item.group(1)) != 1)


#: A big text is first cut into blocks of this many characters, dropped one by one as
#: pieces are read, so the whole text is not kept while its mentions pile up.
BLOCK_CHARS = 1_000_000


_MARKER_RE = lazy(r"^(?:#{1,6}|[-*+]|\d{1,9}[.)])\s+")


def _detail_start(line: str) -> bool:
    """A heading or item that is a detail line (``- Authors: ...``, a bare link): the outline
    moves it under the line above, so a piece must not start with it."""
    text = _task(_MARKER_RE.sub("", line, count=1)).strip()
    return _is_detail_line(text)


class _blocks_of:
    """The text's :data:`BLOCK_CHARS`-long blocks, each held as its UTF-8 bytes and decoded
    when the window takes it: ``pop()`` gives the next, and the object is true while one is
    left. Each block is freed once taken, so the part of the text already read is not held
    while the mentions of the rest pile up; as bytes, what is left takes about the file's
    size, where the text itself takes two or four bytes a character once one character
    needs it (a dash, an emoji). Cut from the text in one pass: the text and its bytes are
    held together only while they are cut, before any mention is made."""

    def __init__(self, held: list[str]) -> None:
        text = held.pop()
        self.rest = [text[at:at + BLOCK_CHARS].encode("utf-8", "surrogatepass") for at in range(0, len(text), BLOCK_CHARS)]
        del text
        self.rest.reverse()  # (taken from the end of the list)

    def pop(self) -> str:
        return self.rest.pop().decode("utf-8", "surrogatepass")

    def __bool__(self) -> bool:
        return bool(self.rest)


def _chunks(held: list[str]) -> Iterator[tuple[int, str]]:
    """``(first line index, text)`` pieces of the big Markdown text in ``held`` (taken out
    of the list), each starting at a top-level heading or list item (never inside a code
    fence, a quote, a table or the front matter), so every piece parses as it would in the
    whole file. Pieces are cut one at a time, without a list of all its lines, from a
    window that moves along the text: what was read is freed."""
    if len(held[0]) <= CHUNK_CHARS:
        yield 0, held.pop()
        return
    front = held[0].startswith("---")
    blocks = _blocks_of(held)  # (takes the text out of ``held``: no other reference is kept here)
    buf = blocks.pop()  # the window: the current piece and what follows it
    piece_start = 0  # offset in ``buf`` of the current piece's first character
    piece_line = 0
    fence: str | None = None  # the open fence's run of backticks or tildes
    state: str | None = None  # see _block_state
    previous = ""
    pos = 0
    number = 0
    while True:
        end = buf.find("\n", pos)
        if end < 0 and blocks:  # the line goes on in the next block: move the window
            buf = buf[piece_start:] + blocks.pop()
            pos -= piece_start
            piece_start = 0
            continue
        if pos >= len(buf):
            break
        end = len(buf) if end < 0 else end
        line = buf[pos:end]
        if front:
            if number > 0 and line.strip() in ("---", "..."):
                front = False
        else:
            # (an HTML block holds fence lines as its own text, to its end)
            m = _FENCE_RE.match(line) if line[:1] in "`~ " and not (state or "").startswith("html") else None
            if m is not None:
                run, rest = m.groups()
                if fence is None and not (run[0] == "`" and "`" in rest):  # (a backtick fence's info has none)
                    fence = run
                elif fence is not None and run[0] == fence[0] and len(run) >= len(fence) and not rest.strip():
                    fence = None  # a closing fence: the same character, at least as long, nothing after it
                elif fence is None:
                    m = None  # inline code, not a fence
            if (fence is None and pos - piece_start >= CHUNK_CHARS and number > piece_line and _SPLIT_RE.match(line)
                    and not previous.startswith((" ", "\t", ">", "|")) and not (state or "").startswith("html")
                    and not (state in ("paragraph", "quote") and (item := _ITEM_RE.match(line)) and _continues(item, state))
                    and not _detail_start(line)):
                yield piece_line, buf[piece_start:pos - 1]
                piece_start, piece_line = pos, number
            state = None if (m or fence is not None) else _block_state(line, state)
        previous = line
        pos = end + 1
        number += 1
    yield piece_line, buf[piece_start:]


def parse_markdown(text: str, file: str) -> MarkdownDocument:
    """The outline of a Markdown text (see the module docstring)."""
    doc = MarkdownDocument()
    for roots in markdown_pieces([text], file, doc):
        doc.roots.extend(roots)
    return doc


def markdown_pieces(held: list[str], file: str, doc: MarkdownDocument) -> Iterator[list[Node]]:
    """The outline of the Markdown text in ``held`` (taken out of the list, so it can be
    freed as it is read) piece by piece (big files are parsed in sections); ``doc``
    collects the front matter, problems and skipped blocks as pieces are read."""
    for offset, piece in _chunks(held):
        part = MarkdownDocument()
        roots = _parse_piece(piece, file, part)
        shift_lines(roots, offset)
        doc.skipped.extend((line + offset, why) for line, why in part.skipped)
        doc.problems.extend(Problem(p.file, p.line + offset if p.line else p.line, p.message) for p in part.problems)
        if offset == 0:
            doc.front_matter = part.front_matter
        adopt_orphan_details(roots)
        handed = [roots]
        del roots
        yield handed.pop()  # (no reference kept here while the caller reads it: see extract._run_unguarded)


class _Block:
    """One block of markdown-it's token stream with its nested blocks: the part of
    ``markdown_it.tree.SyntaxTreeNode`` the outline needs (type without ``_open``, tag,
    source lines, content). Built in one pass over the tokens, with no parent links, so a
    piece's tree is freed as soon as it is read rather than waiting for the cycle collector."""

    __slots__ = ("type", "tag", "map", "content", "children")

    def __init__(self, kind: str, tag: str, lines: Any, content: str) -> None:
        self.type = kind
        self.tag = tag
        self.map = lines
        self.content = content
        self.children: list[_Block] = []


def _block_tree(tokens: list[Any]) -> tuple[list[_Block], int]:
    """The top-level blocks of a token stream (opening/closing tokens paired up), and the
    deepest nesting level of a token (read in the same pass)."""
    roots: list[_Block] = []
    open_lists = [roots]
    deepest = 0
    for token in tokens:
        if token.level > deepest:
            deepest = token.level
        nesting = token.nesting
        if nesting < 0:
            open_lists.pop()
            continue
        kind = token.type
        if nesting > 0 and kind.endswith("_open"):
            kind = kind[:-5]
        block = _Block(kind, token.tag, token.map, token.content)
        open_lists[-1].append(block)
        if nesting > 0:
            open_lists.append(block.children)
    return roots, deepest


def _parse_piece(text: str, file: str, doc: MarkdownDocument) -> list[Node]:
    tokens = _parser_for(text).parse(text)
    roots: list[Node] = []
    blocks, deepest = _block_tree(tokens)
    _Builder(doc, file).blocks(blocks, roots)
    del blocks
    if deepest >= MAX_NESTING - 2:
        roots.extend(_too_deep(text, tokens, file, doc))
    return roots


def _too_deep(text: str, tokens: list[Any], file: str, doc: MarkdownDocument) -> list[Node]:
    """Lines the Markdown parser left out because they nest too deep: read them as an
    outline, and say so."""
    lines = text.split("\n")
    covered = [False] * len(lines)
    for t in tokens:
        if t.type in _LEAF_BLOCKS and t.map:
            for i in range(t.map[0], min(t.map[1], len(lines))):
                covered[i] = True
    rest = ["" if covered[i] else raw for i, raw in enumerate(lines)]
    first = next((i for i, raw in enumerate(rest) if raw.strip() and not re.match(r"^[\s>*+\-\d.)]*$", raw)), None)
    if first is None:
        return []
    doc.problems.append(Problem(file, first + 1, f"nested more than {MAX_NESTING} levels deep; from here on read as a plain outline"))
    return parse_outline(rest)


def _line(node: Any) -> int:
    return (node.map[0] + 1) if node.map else 0


def _inline_text(node: Any) -> tuple[str, int]:
    """Raw inline source of a paragraph/heading/cell and its first line."""
    for child in node.children:
        if child.type == "inline":
            return child.content, _line(child) or _line(node)
    return "", _line(node)


class _Builder:
    def __init__(self, doc: MarkdownDocument, file: str) -> None:
        self.doc = doc
        self.file = file

    def blocks(self, nodes: list[Any], out: list[Node], *, indent: int = 0) -> None:
        toggle: Node | None = None  # an open ``<details>`` toggle: its summary, taking the detail lines that follow
        for node in nodes:
            kind = node.type
            if toggle is not None:
                if kind == "html_block" and "</details>" in node.content:
                    toggle = None
                    continue
                body: list[Node] = []
                self.blocks([node], body, indent=indent + 2)
                if body and all(n.is_detail for n in body):
                    toggle.children.extend(body)  # ``Authors: …``, ``URL: …`` under the summary: its details
                else:
                    out.extend(body)  # a list or prose in the toggle: read as it stands
                continue
            if kind == "html_block" and _opens_toggle(node.content):
                before = len(out)
                self._html(node, out, indent)
                if len(out) > before:
                    toggle = out[-1]
                continue
            if kind == "front_matter":
                self._front_matter(node)
            elif kind == "heading":
                text, line = _inline_text(node)
                if text.strip():
                    out.append(Node("heading", line, text.strip(), level=int(node.tag[1])))
            elif kind == "paragraph":
                out.extend(self._paragraph(node, indent))
            elif kind in ("bullet_list", "ordered_list"):
                for item in node.children:
                    out.extend(self._item(item, indent + 2))
            elif kind == "blockquote":
                self._blockquote(node, out, indent)
            elif kind == "table":
                out.extend(self._table(node))
            elif kind == "dl":
                self._deflist(node, out, indent)
            elif kind in ("footnote_block", "footnote", "footnote_reference"):
                self.blocks(node.children, out, indent=indent)
            elif kind in ("fence", "code_block"):
                self.doc.skipped.append((_line(node), "a code block"))
            elif kind == "html_block":
                self._html(node, out, indent)

    def _front_matter(self, node: Any) -> None:
        import yaml

        try:
            data = yaml.safe_load(node.content) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = (mark.line + 2) if mark is not None else 1
            self.doc.problems.append(Problem(self.file, line, f"front matter is not valid YAML ({getattr(exc, 'problem', None) or exc}); it was ignored"))
            return
        if isinstance(data, dict):
            self.doc.front_matter = data

    def _paragraph(self, node: Any, indent: int) -> list[Node]:
        text, line = _inline_text(node)
        return paragraph_nodes(text, line, indent)

    def _item(self, item: Any, indent: int) -> list[Node]:
        children = list(item.children)
        if not children or children[0].type != "paragraph":
            holder = Node("bullet", _line(item) or 1, "", indent=indent)
            self.blocks(children, holder.children, indent=indent)
            return holder.children  # an item without its own text: its blocks stand alone
        text, line = _inline_text(children[0])
        lines = text.split("\n")
        own = Node("bullet", line, _task(lines[0]).strip(), indent=indent)
        goes_on = _wrapped_lines(lines)
        for offset, extra in enumerate(lines[1:], start=1):
            if not extra.strip():
                continue
            if goes_on[offset] and not own.children:
                # the item's text wrapped onto this line (a numbered reference list pasted
                # from a PDF: ``1. LeCun, Y., … Nature 521,`` / ``436–444 (2015).``)
                own.widths = (*(own.widths or (len(own.text),)), len(extra.strip()))
                own.text += " " + extra.strip()
                own.merged.append(line + offset)
                continue
            own.children.append(Node("plain", line + offset, extra.strip(), indent=indent + 2))
        self.blocks(children[1:], own.children, indent=indent)
        if not own.text:
            return own.children
        return [own]

    def _blockquote(self, node: Any, out: list[Node], indent: int) -> None:
        children = list(node.children)
        first = children[0] if children else None
        if first is None or first.type != "paragraph":
            self.blocks(children, out, indent=indent)  # a quoted list, table or deeper quote
            return
        text, line = _inline_text(first)
        lines = text.split("\n")
        m = _CALLOUT_RE.match(lines[0].strip())
        if not m:
            # a quoted message (a forwarded e-mail, a reply): read as what it holds; a
            # quotation is no paper by the same evidence rules as anywhere else
            self.blocks(children, out, indent=indent)
            return
        if m.group("kind").lower() in NON_PAPER_CALLOUTS:
            self.doc.skipped.append((line, f"a [!{m.group('kind')}] callout (not a paper note)"))
            return
        title = m.group("title").strip()
        holder = Node("bullet", line, title, indent=indent)
        for offset, extra in enumerate(lines[1:], start=1):
            if extra.strip():
                holder.children.append(Node("plain", line + offset, extra.strip(), indent=indent + 2))
        self.blocks(children[1:], holder.children, indent=indent + 2)
        if title:
            out.append(holder)
        else:
            out.extend(holder.children)

    def _html(self, node: Any, out: list[Node], indent: int) -> None:
        """An HTML block (Notion's ``<aside>`` callouts, ``<details>`` toggles, a pasted
        table): its text, line by line, read like a paragraph's lines."""
        from citekit.notes.htmltext import html_lines

        first = _line(node) or 1
        runs: list[list[tuple[int, str]]] = []
        for offset, text in html_lines(node.content, keep_lines=True):
            if not text.strip():
                continue
            if runs and runs[-1][-1][0] == offset - 1:
                runs[-1].append((offset, text.strip()))  # the next line of the same run: one paragraph
            else:
                runs.append([(offset, text.strip())])
        for run in runs:
            out.extend(paragraph_nodes("\n".join(text for _o, text in run), first + run[0][0], indent))
        if not runs:
            self.doc.skipped.append((first, "an HTML block without text"))

    def _deflist(self, node: Any, out: list[Node], indent: int) -> None:
        current: Node | None = None
        for child in node.children:
            if child.type == "dt":
                text, line = _inline_text(child)
                current = Node("bullet", line, text.strip(), indent=indent)
                out.append(current)
            elif child.type == "dd" and current is not None:
                self.blocks(child.children, current.children, indent=indent + 2)

    def _table(self, node: Any) -> list[Node]:
        rows = [tr for section in node.children for tr in section.children if tr.type == "tr"]
        if len(rows) < 2:
            return []
        header = [_inline_text(cell)[0] for cell in rows[0].children]
        body = [(_line(tr), [_inline_text(cell)[0].strip() for cell in tr.children]) for tr in rows[1:]]
        return table_nodes(header, body, _line(node), self.doc.skipped)


def _opens_toggle(html: str) -> bool:
    """An HTML block that opens a ``<details>`` toggle with its ``<summary>`` and leaves it
    open: the blocks after it, up to ``</details>``, are the toggle's body (Notion writes a
    toggle so, a blank line after the summary)."""
    low = html.lower()
    return "<details" in low and "</summary>" in low and "</details>" not in low




def _task(text: str) -> str:
    """An item's text without the task box the task-list plugin leaves a space for."""
    return _TASK_BOX_RE.sub("", text) if "[" in text else text


_TASK_BOX_RE = lazy(r"^\s*\[[ xX]\]\s+")


def paragraph_nodes(text: str, line: int, indent: int = 0) -> list[Node]:
    """The nodes of one paragraph (lines joined by soft breaks).

    A title line followed by detail lines (``Authors: ...``, ``Poster: https://...``) is a
    title with children; a block of numbered references (``[1] ...``, ``1. ...``) or of
    detail lines is one node per line. Any other paragraph is wrapped text, except that a
    line which on its own names a paper (a title with its authors, a pasted reference, an
    identifier) starts an item of its own: CommonMark joins such lines into one paragraph,
    but people write reading lists one paper per line.
    """
    lines = [(line + i, strip_leading_icon(raw.strip())) for i, raw in enumerate(text.split("\n")) if raw.strip()]
    if not lines:
        return []
    messages = [strip_chat_prefix(t) for _n, t in lines]
    if any(m is not t for m, (_n, t) in zip(messages, lines)):
        # a chat log: every message is a line of its own, as it was posted
        return [Node("plain", n, m, indent=indent) for m, (n, _t) in zip(messages, lines)]
    if len(lines) == 1:
        return [Node("plain", lines[0][0], lines[0][1], indent=indent)]
    details = [_is_detail_line(t) for _n, t in lines]
    if all(details):
        return [Node("plain", n, t, indent=indent) for n, t in lines]
    if _property_block([t for _n, t in lines], details):
        # (the properties citekit does not read, ``Status: Read``, ``Created: …``, say nothing
        # of a paper: left out, so the page's title takes the details on either side of them)
        # (a relation property naming other pages, ``Related papers: Title (Title%20<id>.md)``,
        # names papers of its own: kept, after the details, so the title still takes them all)
        return ([Node("plain", n, t, indent=indent) for (n, t), detail in zip(lines, details) if detail]
                + [Node("plain", n, t, indent=indent) for (n, t), detail in zip(lines, details) if not detail and related_pages(t)])
    texts = [t for _n, t in lines]
    numbered = numbered_starts(texts)
    if sum(numbered) >= 2:  # a numbered reference list: one item per number
        found = []
        starts = [0] + [i for i in range(1, len(lines)) if numbered[i]]
    elif any(could_start(t) for t in texts[1:]):
        from citekit.notes import finder

        found = finder.find(texts)
        starts = [0]
        for i in range(1, len(lines)):
            if not details[i] and (_is_title_label(texts[i]) or starts_mention(found[i], texts[i], found[starts[-1]])):
                starts.append(i)
    else:
        found = []  # (wrapped text: no line of it can start a paper, but a title label does)
        starts = [0] + [i for i in range(1, len(lines)) if _is_title_label(texts[i])]
    # a bare link ends its item: it is no title for the lines below it (a list of links)
    starts = sorted(set(starts) | {i for i in range(1, len(lines)) if is_url_only(texts[i - 1])})
    nodes = [
        node
        for a, b in zip(starts, starts[1:] + [len(lines)])
        for node in _paragraph_item(lines[a:b], details[a:b], indent)
    ]
    if found:  # (what the finder said, for --explain)
        said = {n: (f.label, f.confidence) for (n, _t), f in zip(lines, found)}
        for node in nodes:
            node.found = {n: said[n] for n in (node.line, *node.merged) if n in said}
    return nodes


#: a property line of a page's header: a few words, a colon, its value (``Status: Read``,
#: ``Date read: March 12, 2024``, ``Related papers: …``)
_PROPERTY_LINE_RE = lazy(r"[^\W\d_][\w .'’()/-]{0,30}?[:：]\s+\S")


def _property_block(texts: list[str], details: list[bool]) -> bool:
    """Every line is ``Key: value``, some of them details citekit reads (``Authors:``,
    ``URL:``), none a title label: the properties of a page (what a Notion page exports
    under its title, an Obsidian page's header), one per line. None of them is the value
    of the one above wrapped, as lines after a detail are in a labelled record."""
    return (any(details) and all(_PROPERTY_LINE_RE.match(t) for t in texts)
            and not any(_is_title_label(t) for t in texts))


def _wrapped_lines(lines: list[str]) -> list[bool]:
    """Which lines of a list item's paragraph go on with the line above (a hard wrap), not
    details below its first line: the finder reads the line as going on, the line above stops
    mid-sentence (on a word, a comma or a hyphen), and the line is no detail and no list of
    names of its own (a title's author line). Once the text wraps, it goes on as long as the
    finder reads the lines as going on (a reference's title ends in a full stop, its venue follows)."""
    out = [False] * len(lines)
    if len(lines) < 2:
        return out
    # (the model is asked only where a line could wrap: most items are a title and its details)
    may = [False] + [not _is_detail_line(t.strip()) and authors_line(t.strip()) is None and not is_url_only(t.strip())
                     for t in lines[1:]]
    if not any(may[i] and cut_mid_sentence(lines[i - 1]) for i in range(1, len(lines))) or not any(could_start(t) for t in lines):
        return out
    from citekit.notes import finder

    found = finder.find(lines)
    for i in range(1, len(lines)):
        out[i] = may[i] and found[i].label == "cont" and (out[i - 1] or cut_mid_sentence(lines[i - 1]))
    return out


def _paragraph_item(lines: list[tuple[int, str]], details: list[bool], indent: int) -> list[Node]:
    """One item of a paragraph: a line with its detail lines below it, or a wrapped text
    (its continuation lines recorded as merged, for ``--explain``)."""
    if len(lines) > 1 and details[1]:
        # a title and its detail lines; a line that is no detail after one is that detail's
        # value wrapped onto the next line (``备注: …`` then ``tiling + recomputation …``)
        head = Node("plain", lines[0][0], lines[0][1], indent=indent)
        for (n, t), detail in zip(lines[1:], details[1:]):
            if detail or not head.children or not _value_goes_on(head.children[-1].text):
                head.children.append(Node("plain", n, t, indent=indent + 2))
            else:
                last = head.children[-1]
                last.widths = (*(last.widths or (len(last.text),)), len(t))
                last.text += " " + t
                last.merged.append(n)
        return [head]
    return [Node("plain", lines[0][0], " ".join(t for _n, t in lines), indent=indent, merged=[n for n, _t in lines[1:]],
                 widths=tuple(len(t) for _n, t in lines) if len(lines) > 1 else ())]


#: detail fields whose value is prose, which may wrap onto the lines below it
_PROSE_FIELDS = frozenset(("summary", "abstract"))
#: a value that stops mid-list: on a comma, ``&``, ``and`` or a hyphen
_STOPS_MID_LIST_RE = lazy(r"(?:[,&\-–]|\band)\s*$")


def _value_goes_on(detail: str) -> bool:
    """The line after the detail line ``detail`` is that detail's value wrapped: the value is
    prose (a note, an abstract) or a list stopped mid-way. After a complete author list or a
    link, an unlabelled line is a line of its own (the venue written below the authors:
    ``作者: Sutskever, Vinyals, Le`` then ``NIPS 2014``), never more names."""
    label = parse_label(detail)
    return label is None or label.field in _PROSE_FIELDS or _STOPS_MID_LIST_RE.search(detail) is not None


def _is_title_label(text: str) -> bool:
    """``Title: …``, ``论文: 《…》``, ``제목: …``: a line that starts a paper of its own."""
    label = parse_label(text)
    return label is not None and label.field == "title"


def _is_detail_line(text: str) -> bool:
    """A labelled detail, a bare link or a line of ``#tags``: a line about the one above,
    which CommonMark joins into its paragraph but which never goes on its sentence."""
    label = parse_label(text)
    return (label is not None and label.field != "title") or is_url_only(text) or is_tags_only(text)


def read(held: list[str], file: str, into: FileScope) -> Iterator[list[Node]]:
    """The :mod:`citekit.notes.formats` reader: the outline piece by piece; the front
    matter's venue and tags apply to the whole file, set on ``into`` before the first piece
    is read."""
    doc = MarkdownDocument()
    first = True
    sheets = _pasted_sheets(held, into)
    for roots in markdown_pieces(held, file, doc):  # frees the text block by block as it goes
        if first:
            _front_matter_scope(into, doc.front_matter)
            first = False
        if sheets:
            roots = _with_sheets(roots, sheets)
        handed = [roots]
        del roots
        yield handed.pop()  # (no reference kept here: the extractor frees each piece once read)
    if sheets:
        yield sheets
    into.problems.extend(doc.problems)
    into.skipped.extend(doc.skipped)


def _pasted_sheets(held: list[str], into: FileScope) -> list[Node]:
    """The rows of spreadsheets pasted into the Markdown as tab-separated text
    (:func:`~citekit.notes.formats.tables.pasted_tables`: Markdown has no such table, and
    reads its lines as a paragraph), in line order; their lines are blanked in ``held``'s
    text, so the Markdown reader reads what is around them with the same line numbers."""
    if "\t" not in held[0]:
        return []
    lines = held[0].split("\n")
    out: list[Node] = []
    for start, end, nodes, skipped in pasted_tables(_outside_fences(lines)):
        out.extend(nodes)
        into.skipped.extend(skipped)
        lines[start:end] = [""] * (end - start)
    if out:
        held[0] = "\n".join(lines)
    return out


_SHEET_FENCE_RE = lazy(r"^ {0,3}(?P<fence>`{3,}|~{3,})")


def _outside_fences(lines: list[str]) -> list[str]:
    """``lines`` with those of fenced code blocks blanked (a sheet shown as code is code)."""
    if "```" not in "".join(lines) and "~~~" not in "".join(lines):
        return lines
    out, fence = [], ""
    for line in lines:
        m = _SHEET_FENCE_RE.match(line)
        if fence:
            if m and m.group("fence")[0] == fence[0] and len(m.group("fence")) >= len(fence) and not line.strip(" `~"):
                fence = ""
            out.append("")
        elif m:
            fence = m.group("fence")
            out.append("")
        else:
            out.append(line)
    return out


def _with_sheets(roots: list[Node], sheets: list[Node]) -> list[Node]:
    """``roots`` with the pasted sheets' rows that come before the piece's last line put in
    among them by line (a row then reads under the heading above it); those are taken out
    of ``sheets``, the rest wait for a later piece."""
    if not roots:
        return roots
    last = max(node.line for node in roots)
    taken = [node for node in sheets if node.line <= last]
    if not taken:
        return roots
    del sheets[:len(taken)]
    return sorted(roots + taken, key=lambda node: node.line)


def _front_matter_scope(into: FileScope, data: dict) -> None:
    """Venue/year and tags that YAML front matter gives every paper of the file."""
    for key in ("venue", "conference", "event", "booktitle", "title"):
        value = data.get(key)
        if isinstance(value, (str, int)):
            venue, year = from_text(str(value))
            if venue:
                into.scope.plain_venue = (venue, year)
                break
    tags = data.get("tags") or data.get("tag") or []
    if isinstance(tags, str):
        tags = re.split(r"[,\s]+", tags)
    if isinstance(tags, list):
        into.file_tags = [str(t).strip().lstrip("#").lower() for t in tags if str(t).strip().lstrip("#")]
