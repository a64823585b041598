"""The outline of a notes file: headings, bullets nested by indentation, plain paragraphs.

Everything above this module sees lines; everything below sees a tree. Bullets may be
``•``, ``-``, ``*``, ``+``, ``・`` or numbered (``1.``, ``1)``); children are the following
lines indented deeper. Org-mode files use ``*`` for headings, Markdown ``#``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from citekit.notes.labels import Label, parse_label
from citekit.notes.finder.model import LineLabel
from citekit.notes.refline import OPEN_ENDED_WORDS, REFERENCE_NUMBER_RE, announced_title, has_shape_signal, names_a_paper, names_line
from citekit.notes.shapes import authors_line, cut_margin_numbers, is_separator, is_tags_only, strip_chat_prefix, strip_leading_icon
from citekit.notes.urls import is_url_only
from citekit.core.lazyre import lazy

#: the labels the numbering of a numbered list decides (in the finder's form)
_NUMBERED_START = LineLabel("ref", 1.0)
_NUMBERED_GOES_ON = LineLabel("cont", 1.0)
#: an arXiv identifier or a DOI: reference text, never a page's furniture
_ID_IN_LINE_RE = lazy(r"(?<!\d)\d{4}\.\d{4,5}(?!\d)|\b10\.\d{4,9}/")
#: How sure the finder must be that a line between two numbers of a reference list is no
#: reference's text (a page number, a running header) before it is left out of the reference
SURE_FURNITURE = 0.6


def _is_furniture(found: LineLabel) -> bool:
    """The finder is sure the line is no reference's text."""
    return found.label == "other" and found.confidence >= SURE_FURNITURE


def _reference_done(parts: list[str]) -> bool:
    """The reference read so far (its lines) has come to its year and its last line ends a
    sentence or a list of page numbers, not mid-sentence or mid-word: what follows may be
    the page's furniture (``… In CVPR, 2020. 2`` then ``8``), never the rest of a cut title
    (``… chatbot impressing`` then ``GPT-4 with …``)."""
    last = parts[-1].rstrip()
    return (_YEAR_RE.search(" ".join(parts)) is not None and not last.endswith("-")
            and not cut_mid_sentence(last))

NodeKind = Literal["heading", "bullet", "plain"]

_NUMBER_START_RE = re.compile(r"\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)]\s)")
_ID_RE = re.compile(r"\d{4}\.\d{4,5}|\b10\.\d{4,9}/")


def _numbered_or_id(line: str) -> re.Match | None:
    """A reference number at the start (``[12]``, ``12.``), an arXiv id or a DOI. The
    identifiers are looked for only in a line with a dot (both have one): one alternation
    searched at every character of every line cost more than the line's other checks."""
    found = _NUMBER_START_RE.match(line)
    if found is None and "." in line:
        found = _ID_RE.search(line)
    return found

_BULLET_RE = lazy(r"^(?P<indent>\s*)(?P<marker>[•・◦▪▫●○■□‣⁃∙\-*+–]|\d{1,3}[.)])\s+(?P<text>\S.*)$")
#: Deeper indentation is read as this depth: no notes nest further, and the tree is walked
#: recursively.
MAX_DEPTH = 40
_CHECKBOX_RE = lazy(r"^\[[ xX]\]\s+")
_MD_HEADING_RE = lazy(r"^ {0,3}(?P<hashes>#{1,6})\s+(?P<text>.*?)(?:\s+#+)?\s*$")
_ORG_HEADING_RE = lazy(r"^(?P<stars>\*+)\s+(?P<text>.*?)\s*$")


@dataclass
class Node:
    """One line of the notes (or a plain paragraph of several lines) and what hangs below it."""

    kind: NodeKind
    line: int  # 1-based line of the first line
    text: str  # content without bullet marker or heading hashes, trailing spaces removed
    indent: int = 0
    level: int = 0  # heading level (1 for ``#``)
    children: list["Node"] = field(default_factory=list)
    source: str = ""  # where a structured reader found it: "table row", "bibtex", "org heading"
    merged: list[int] = field(default_factory=list)  # lines joined into this one (a wrapped paragraph)
    #: the length of each line joined into ``text`` (a space between two), when lines were
    #: joined: where in the text each line of ``merged`` starts (a citation's own line)
    widths: tuple[int, ...] = ()
    #: the mention finder's label and confidence of this node's lines, where it was asked
    #: (line -> (label, confidence)), for ``--explain``
    found: dict[int, tuple[str, float]] = field(default_factory=dict)

    @property
    def label(self) -> Label | None:
        """The ``label: value`` this line is, if any (remembered until the text changes)."""
        cached = self.__dict__.get("_label")
        if cached is not None and cached[0] is self.text:
            return cached[1]
        label = parse_label(self.text)
        self.__dict__["_label"] = (self.text, label)
        return label

    @property
    def is_detail(self) -> bool:
        """A labelled detail line (``URL:``, ``著者:``, pins) that belongs to the line above."""
        label = self.label
        return label is not None and label.field != "title"


def _detail_of_its_own(node: Node) -> bool:
    """A labelled detail line that is not text wrapped from the line above: an
    ``arXiv:1711.04623, 2017.`` line in a hard-wrapped reference reads as an arXiv pin, but
    with more than the identifier after the label it is the reference's last line."""
    label = node.label
    if label is None or label.field == "title":
        return False
    if label.field == "pin":
        from citekit.notes.labels import parse_pin

        return parse_pin(label.name, label.value) is not None
    return True


#: e-mail quoting: ``> `` and ``>> `` before a line (a reply, a forwarded message)
_QUOTE_MARKS_RE = lazy(r"^(\s*)((?:>\s?)+)")


def _unquoted(raw: str) -> tuple[str, bool]:
    """The line as it was before it was quoted (the ``>`` marks removed), and
    without a chat message's time and speaker: what the quoted or posted text says is read
    as if written here. The flag says a chat message starts here (it wraps nothing above)."""
    if raw[:8].lstrip()[:1] == ">":
        m = _QUOTE_MARKS_RE.match(raw)
        raw = m.group(1) + raw[m.end():]  # (quote depth is reply depth, not the outline's)
    if ":" in raw[:32]:
        stripped = raw.lstrip()
        rest = strip_chat_prefix(stripped)
        if rest is not stripped:
            return raw[: len(raw) - len(stripped)] + rest, True
    return raw, False


def _heading(raw: str, org: bool) -> tuple[int, str] | None:
    if org:
        m = _ORG_HEADING_RE.match(raw)
        return (len(m.group("stars")), m.group("text")) if m else None
    m = _MD_HEADING_RE.match(raw)
    return (len(m.group("hashes")), m.group("text")) if m else None


@dataclass
class Surroundings:
    """Where a piece of a text stands in the whole (see :func:`outline_pieces`): what the
    mention finder reads around a line (its place in the whole text, the nearest lines with
    text before and after it) and whether a chat window's message headers came before. Given
    these, a piece is labelled and parsed as it is inside the whole text."""

    origin: int  # index of the piece's first line in the whole text
    total: int  # lines of the whole text
    before: list[str]  # the lines right before the piece, back to the second with text
    text_before: bool  # some line before ``before`` holds text
    after: list[str]  # the line right after the piece (the next piece's first), if any
    chat: bool = False  # a chat window's message header stands before the piece


class _WholeText:
    """The whole text as the finder reads it around one piece (a sequence of its lines by
    their index in the whole): the piece, and its surroundings. The finder reads no line
    further off than these; a line of the whole text that is not held reads as blank, or
    as text where :attr:`Surroundings.text_before` says there was some."""

    def __init__(self, piece: list[str], around: Surroundings) -> None:
        self._piece = piece
        self._around = around

    def __len__(self) -> int:
        return max(self._around.total, self._around.origin + len(self._piece))

    def __getitem__(self, index: int) -> str:
        around = self._around
        at = index - around.origin
        if 0 <= at < len(self._piece):
            return self._piece[at]
        if at < 0:
            held = len(around.before) + at
            return around.before[held] if held >= 0 else "…" if around.text_before else ""
        after = at - len(self._piece)
        return around.after[after] if after < len(around.after) else ""


def parse_outline(lines: list[str], *, org: bool = False, around: Surroundings | None = None) -> list[Node]:
    """The root nodes of ``lines``; see the module docstring for the rules. ``around``: the
    lines are a piece of a longer text, which stands there (line numbers stay the piece's)."""
    lines = cut_margin_numbers(lines)  # (a review copy's line numbers hide each line's shape)
    roots: list[Node] = []
    stack: list[Node] = []  # open bullets/plain nodes that may take children
    previous_blank = True
    paragraph: Node | None = None  # the root plain line that following plain lines may wrap
    wrapped: dict[int, list[str]] = {}  # id(paragraph) -> its lines, joined at the end
    joined: list[Node] = []
    item: Node | None = None  # the bullet just read, whose text the next lines may wrap
    starts = _Starts(lines, around)
    chat = around is not None and around.chat  # a chat window copied as text: under its message headers, each line is a message
    for number, raw in enumerate(lines, start=1):
        quoted = raw[:8].lstrip()[:1] == ">"
        raw, message = _unquoted(raw.expandtabs(4).rstrip())
        if not chat and chat_header(raw):
            chat = True
        # (an e-mail quoted into a chat, ``> `` before each line, is wrapped at its width as
        # e-mails are: its lines go on one another, they are not one message each)
        message = message or chat and not quoted
        if not raw.strip() or is_separator(raw):
            previous_blank = True
            paragraph = item = None
            if raw.strip():
                stack.clear()
            continue
        heading = _heading(raw, org)
        if heading and heading[1]:
            stack.clear()
            paragraph = item = None
            roots.append(Node("heading", number, heading[1].strip(), level=heading[0]))
            previous_blank = False
            continue
        m = _BULLET_RE.match(raw)
        if m and not (org and raw.startswith("*")):
            text = _CHECKBOX_RE.sub("", m.group("text")).rstrip()
            node = Node("bullet", number, text, indent=len(m.group("indent")))
        else:
            text = raw.strip()
            text = strip_leading_icon(text)  # "📄 arxiv.org/abs/…": the icon is no text
            node = Node("plain", number, text, indent=len(raw) - len(raw.lstrip()))
            if paragraph is not None and starts.ends_unwrapped(number - 2, text):
                paragraph = None  # (the line above ended where its writer ended it: this one starts anew)
            if (item is not None and node.indent >= item.indent and not item.children and not message
                    and not node.is_detail and not _stands_alone(text)
                    and starts.wraps(item, number - 1, text, lazy=node.indent == item.indent)):
                # a bullet's text wrapped onto the next line, indented under it or not (an e-mail's
                # reading list: ``- Zhang et al., "Understanding deep`` / ``learning requires …"``;
                # a plain-text e-mail wraps at 72 columns without indenting, as Markdown's lazy lines do)
                item.widths = (*(item.widths or (len(item.text),)), len(text))
                item.text += " " + text
                item.merged.append(number)
                starts.note(item, number - 1)
                previous_blank = False
                continue
            if (paragraph is not None and not paragraph.children and not message and node.indent == 0
                    and (not stack or stack[-1] is paragraph) and starts.furniture(number - 1, paragraph.line - 1)
                    and not _ID_IN_LINE_RE.search(text) and _reference_done(wrapped.get(id(paragraph), [paragraph.text]))):
                # a page number or running header a PDF copy left after a numbered reference that
                # has its year already: not part of it (a line with an identifier, or before the
                # reference has come to its year, is still read as its text)
                starts.note(paragraph, number - 1)
                continue
            if (paragraph is not None and not paragraph.children and not message
                    and (not stack or stack[-1] is paragraph) and not _stands_alone(text)
                    and not _properties_one_a_line(lines[number - 2], text)
                    and not _announces_after_header(lines[number - 2], text)
                    and (_open_bracket(lines[number - 2]) or not _detail_of_its_own(node)
                         and (node.indent == 0 or starts.hanging(number - 1, text, paragraph.line - 1))
                         and (_open_quote(lines[number - 2]) or _name_cut(lines[number - 2])
                              or not starts.mention(number - 1, text, paragraph.line - 1)))):
                # a hard-wrapped paragraph: the line continues the root plain line above (a
                # quote opened on the line above and not closed there goes on on this one).
                # Lines are collected and joined once at the end, so a long paragraph costs
                # linear time (each line is looked at once, never the growing paragraph).
                parts = wrapped.get(id(paragraph))
                if parts is None:
                    parts = wrapped[id(paragraph)] = [paragraph.text]
                    joined.append(paragraph)
                parts.append(text)
                paragraph.merged.append(number)
                starts.note(paragraph, number - 1)
                previous_blank = False
                continue
        paragraph = None
        item = node if node.kind == "bullet" else None
        while stack and (stack[-1].indent >= node.indent or len(stack) >= MAX_DEPTH):
            stack.pop()
        if stack:
            stack[-1].children.append(node)
        elif (node.kind == "plain" and node.indent == 0 and not previous_blank and roots and roots[-1].kind == "plain"
              and (node.is_detail or _stands_alone(node.text)) and not is_url_only(roots[-1].text)
              and not chat_header(roots[-1].text)):
            # (a list of bare links is a list: a link is no title for the links below it; a chat
            # message's header is who posted the link, not its title)
            roots[-1].children.append(node)  # "Title\nURL: ..." written without bullets
            previous_blank = False
            continue
        else:
            roots.append(node)
            if node.kind == "plain" and node.indent == 0 and not node.is_detail and not is_url_only(node.text):
                paragraph = node  # later plain lines may wrap it
        stack.append(node)
        previous_blank = False
    for node in joined:
        node.text, node.widths = join_wrapped(wrapped[id(node)])
    adopt_orphan_details(roots)
    return roots


#: where a line of labelled fields goes on to its next field: `` / ``, `` | ``, ``; `` before a
#: label (``제목: Title / 저자: Names / ECCV 2020``, ``Title: … | Authors: …``)
_FIELD_SEP_RE = lazy(r"\s+[/|｜]\s+|\s*[;；]\s+")
_YEAR_RE = lazy(r"\b(?:19|20)\d{2}\b")


def split_labelled_fields(node: Node) -> None:
    """A title label's line that writes the paper's other fields after it, each after a
    separator (``제목: Title / 저자: Names / ECCV 2020``): the title stays the line's text and
    each labelled field becomes a detail line under it, as if written on a line of its own
    (a field with no label and a year is the venue). Only when a later field has a label
    citekit knows: a title holding a slash (``Input/Output``) is left whole."""
    label = node.label
    if label is None or label.field != "title" or not _FIELD_SEP_RE.search(node.text):
        return
    parts = _FIELD_SEP_RE.split(node.text)
    details = [parse_label(part) for part in parts[1:]]
    first = next((i for i, d in enumerate(details) if d is not None and d.field != "title"), None)
    if first is None:
        return
    kept = parts[: first + 1]
    children = []
    for part, detail in zip(parts[first + 1:], details[first:]):
        if detail is not None:
            children.append(part.strip())
        elif _YEAR_RE.search(part):
            children.append(f"Venue: {part.strip()}")
    node.text = " / ".join(kept)
    node.children.extend(Node("plain", node.line, text) for text in children)


#: a message header of a chat window copied as text (Slack): the sender's name, two spaces,
#: the time (``Dana Whitfield  10:04 AM``). From the first one on, every line is a message of
#: its own (a chat copy is never hard-wrapped), as lines with a ``[10:32] Alice:`` prefix are.
_CHAT_HEADER_RE = lazy(r"^[^\W\d_][\w.'’ -]{0,40}?\S {2,}\d{1,2}:\d{2}\s?[AaPp][Mm]$")

def chat_header(raw: str) -> bool:
    """The line (unquoted, without its line end) is a chat window's message header."""
    return raw[-1:] in "Mm" and _CHAT_HEADER_RE.match(raw) is not None


#: How sure the finder must be that a line continues the one above before a line that
#: names a paper on its own (an identifier, a title with its authors) is joined to it.
SURE_CONTINUES = 0.8


class _Starts:
    """Whether a plain line starts a paper mention of its own or continues the line above
    (a hard-wrapped reference, a ``\\newblock``).

    The learned finder decides, asked for one block (the lines between blank lines) at a
    time, when a line of it first could wrap the line above, and only for a block where a
    line after the first holds something a reference or an identifier cannot be without
    (:func:`could_start`): a paragraph of prose is not read by the model. Where the finder
    is unsure, a line that names a paper on its own starts an item: reading lists are
    written one paper per line without blank lines between."""

    def __init__(self, lines: list[str], around: Surroundings | None = None) -> None:
        self._lines = lines
        self._labels: dict[int, LineLabel | None] = {}
        #: lines of a numbered reference list the finder is sure are no reference's text
        self._furniture: set[int] = set()
        self._around = around
        self._wrap_width: int | None = None  # (0: the text is not wrapped at a width)
        self._usual: int | None = None  # (0: too few lines to say)

    def mention(self, index: int, text: str, first: int) -> bool:
        """Line ``index`` (``text`` as read) starts a mention, in a paragraph that began at
        line ``first`` (0-based)."""
        if index not in self._labels:
            self._label_block(index, first)
        found = self._labels[index]
        if found is None:
            return names_a_paper(text)
        head = self._labels.get(first)
        if head is not None and head.label != "ref" and _numbered_or_id(self._lines[first]):
            head = _NUMBERED_START  # (a paragraph that opens on an identifier opens on a paper, whatever the model says)
        return starts_mention(found, text, head)

    def hanging(self, index: int, text: str, first: int) -> bool:
        """An indented line that continues a reference above it (a bibliography's hanging
        indent): the finder is sure the line continues a reference the paragraph starts,
        and the line is not a list of names of its own (a title's author line below it)."""
        if index not in self._labels:
            self._label_block(index, first)
        found, head = self._labels[index], self._labels.get(first)
        if found is _NUMBERED_GOES_ON:
            return True  # (no number: it continues the numbered reference above, whatever it holds)
        return (found is not None and head is not None and head.label == "ref" and found.label == "cont"
                and found.confidence >= SURE_CONTINUES
                and (authors_line(text) is None or (index > first and _names_go_on(self._lines[index - 1]))))

    def wraps(self, item: Node, index: int, text: str, *, lazy: bool = False) -> bool:
        """Line ``index`` continues the text of the bullet ``item`` above it: a quote the
        bullet opens is closed on it, or the finder is sure the line continues a mention.
        ``lazy``: the line is not indented under the bullet (an e-mail's wrap): it goes on
        only where the line above stops mid-sentence, never after a complete line (``28) Title,
        arXiv:2111.45982`` then the next reference)."""
        if _open_quote(item.text) or _unfinished(item.text):
            return True
        if item.merged and text[:1].islower() and not item.text.rstrip().endswith((".", "!", "?", ":", ";")):
            return True  # the bullet's text wraps already, and the sentence goes on in lower case
        if lazy and not cut_mid_sentence(self._lines[index - 1]):
            return False
        if not lazy and self._wrapped_at_width(index, text) and authors_line(text) is None:
            return True  # (the line's first word would not have fit on the bullet's line: a hard wrap)
        if index not in self._labels:
            self._label_block(index, item.line - 1)
        found = self._labels.get(index)
        if (found is not None and found.label == "ref" and found.confidence >= SURE_CONTINUES
                and not cut_mid_sentence(self._lines[index - 1]) and names_a_paper(text)):
            return False  # a reference starts on this line, after the bullet's prose ends (``… for the DAG side:`` / ``Pearl, J. (2009). …``)
        if not item.text.rstrip().endswith((".", "!", "?")) and not names_a_paper(item.text) and names_a_paper(f"{item.text} {text}"):
            return True  # the line completes a reference the bullet starts
        return (found is not None and found.label == "cont" and found.confidence >= SURE_CONTINUES
                and authors_line(text) is None)

    def _wrapped_at_width(self, index: int, text: str) -> bool:
        """Line ``index`` goes on with the line above, which the text's wrap width cut: the
        line above stops mid-sentence close to the width (the longest line of a text
        wrapped at 100 columns or fewer), and the first word of this line would not have fit
        after it. A line the writer broke on purpose is shorter than the width allows."""
        width = self._width()
        above = self._lines[index - 1].expandtabs(4).rstrip()
        word = text.split(None, 1)[0] if text.split() else ""
        return (width is not None and len(above) >= 0.8 * width and cut_mid_sentence(above)
                and len(above) + 1 + len(word) > width and "/" not in word)

    def ends_unwrapped(self, index: int, text: str) -> bool:
        """Line ``index`` was not wrapped at the text's width but ended where its writer
        ended it, so the capitalised line after it (``text``) starts anew: it ends a
        sentence and is half as long again as the text's usual line (a reference pasted
        whole into a list copied out of a two-column PDF, its neighbours wrapped at the column)."""
        above = self._lines[index].rstrip()
        if len(above) < 120 or not above.endswith(".") or not text[:1].isupper():
            return False
        usual = self._usual_length()
        return usual is not None and len(above) > 1.5 * usual

    def _usual_length(self) -> int | None:
        """The median length of the text's lines of 30 characters or more (None with fewer than five)."""
        if self._usual is None:
            lengths = sorted(n for n in (len(line.rstrip()) for line in self._lines) if n >= 30)
            self._usual = lengths[len(lengths) // 2] if len(lengths) >= 5 else 0
        return self._usual or None

    def _width(self) -> int | None:
        """The width the text is wrapped at: its longest line, when that is 100 columns or
        fewer (longer lines are not wrapped by a width); None otherwise."""
        if self._wrap_width is None:
            longest = max((len(line.expandtabs(4).rstrip()) for line in self._lines), default=0)
            self._wrap_width = longest if 40 <= longest <= 100 else 0
        return self._wrap_width or None

    def note(self, node: Node, index: int) -> None:
        """Record on ``node`` what the finder said of line ``index`` and of the node's first
        line (``--explain`` shows it), where it was asked."""
        for i in (node.line - 1, index):
            found = self._labels.get(i)
            if found is not None:
                node.found[i + 1] = (found.label, found.confidence)

    def _label_block(self, index: int, start: int) -> None:
        """Label the plain lines from ``start`` to the next blank line, bullet or heading."""
        lines = self._lines
        end = index
        while end < len(lines) and lines[end].strip() and not _BULLET_RE.match(lines[end]) and not lines[end].startswith("#"):
            end += 1
        end = max(end, index + 1)
        if not any(could_start(line) for line in lines[start + 1:end]):
            self._labels.update(dict.fromkeys(range(start, end)))
            return
        # whether the list is numbered is asked of the whole run of lines it stands in: a
        # paragraph may start at the list's last number (``[5]``, ``[6]`` each a block of
        # their own, then ``[7]`` wrapped over five lines), where its own lines hold one number
        top = start
        while top > 0 and lines[top - 1].strip() and not _BULLET_RE.match(lines[top - 1]) and not lines[top - 1].startswith("#"):
            top -= 1
        if numbered_list(lines[top:end]):
            # a numbered reference list: a reference starts at its number and nowhere else;
            # between two numbers, what the finder is sure is no reference's text is the page
            # furniture a PDF copy keeps at a page break (a page number, a running header)
            starts = numbered_starts(lines[top:end])
            found = self._find(start, end)
            self._labels.update((i, _NUMBERED_START if starts[i - top] else _NUMBERED_GOES_ON) for i in range(start, end))
            self._furniture.update(i for i in range(start, end) if not starts[i - top] and _is_furniture(found[i - start]))
            return
        self._labels.update(zip(range(start, end), self._find(start, end)))

    def furniture(self, index: int, first: int) -> bool:
        """Line ``index`` is a page's furniture inside a numbered reference list (a page
        number, a running header, a footnote): no text of the reference it stands in, which
        goes on after it."""
        if index not in self._labels:
            self._label_block(index, first)
        return index in self._furniture

    def _find(self, start: int, end: int) -> list[LineLabel]:
        """What the finder says of lines ``start:end`` (read where they stand in the whole text)."""
        from citekit.notes import finder

        if self._around is None:
            return finder.find(self._lines, start, end)
        at = self._around.origin  # (a piece: the finder reads the lines where they stand in the whole text)
        return finder.find(_WholeText(self._lines, self._around), start + at, end + at)


#: a link cut by a hard wrap: the last word of a line is a URL that stops where a link
#: goes on (``URL http:`` / ``//github.com/…``, ``https://pytorch.org/`` / ``docs/…``)
_CUT_URL_RE = lazy(r"(?:^|\s)(?:https?:|https?://\S*|www\.\S*)(?<=[/:\-_~#?=&])$", re.I)
#: … or stops on a dot before the rest of its host (``https://www.wandb.`` / ``com/``)
_CUT_HOST_RE = lazy(r"(?:^|\s)(?:https?://|www\.)[^\s/]+\.$", re.I)
_HOST_REST_RE = lazy(r"^[a-z]{2,6}(?:[/.:]|$)")


def _last_word(text: str) -> str:
    """The word that ends ``text`` (as a pattern's ``$`` reads it: before one final line
    break too), or "" where ``text`` ends on a space. A cut link is always this word, so
    only it is searched, never the whole paragraph joined so far (which grows line by line)."""
    tail = text[:-1] if text.endswith("\n") else text
    if not tail or tail[-1].isspace():
        return ""
    return tail.rsplit(None, 1)[-1]


def _cut_link(word: str, part: str) -> bool:
    """``word`` (the last of a line) is a link the wrap cut, and ``part`` (the next line) goes on with it.
    A link whose path ends on its slash is whole when the next line opens on a word of prose
    (``https://www.example.org/`` / ``Newsletter.``: the kind of thing the reference cites)."""
    if word.endswith("/") and _PROSE_WORD_RE.match(part):
        return False
    return bool(word) and bool(_CUT_URL_RE.search(word) or (_CUT_HOST_RE.search(word) and _HOST_REST_RE.match(part)))


#: a capitalised word of letters alone, then a full stop, a comma or a space: prose, no path's rest
_PROSE_WORD_RE = lazy(r"^[A-Z][a-z]+(?:[.,](?:\s|$)|\s|$)")


def join_wrapped(parts: list[str]) -> tuple[str, tuple[int, ...]]:
    """The lines of a hard-wrapped paragraph as one text, and each line's width in it.

    Lines join on a space, except where a line ends in a link the wrap cut (a PDF's reference
    list breaks URLs anywhere): the link's rest on the next line is joined on to it, so the
    link is read whole. Widths stay one per line, each line counted with the space after it
    (a line joined with none counts one character less)."""
    text, widths = parts[0], [len(parts[0])]
    for part in parts[1:]:
        if part[:1] and not part[:1].isspace() and _cut_link(_last_word(text), part):
            widths[-1] -= 1
            text += part
        else:
            text += " " + part
        widths.append(len(part))
    return text, tuple(widths)


def _names_go_on(text: str) -> bool:
    """The line is a list of names cut by the wrap before its end (``James Bradbury, Roy
    Frostig, …, Chris Leary, Dougal``: no full stop closes it), so a line of names below it
    goes on with the same list, not a title's author line of its own."""
    text = text.strip()
    return bool(text) and text[-1] not in ".:;!?" and authors_line(text.rstrip(",")) is not None


def _open_quote(text: str) -> bool:
    """The text opens a quotation it does not close (``“`` without ``”``, an odd number of
    ``"``): the quoted title goes on on the next line."""
    return text.count("“") > text.count("”") or text.count('"') % 2 == 1 or text.count("《") > text.count("》")


def _name_cut(text: str) -> bool:
    """The line ends an author list of full names with a given name alone (``…, Nova
    DasSarma, Dawn``, ``… Ermon, and Chelsea``): the wrap cut a name, so the next line
    (``Drain, Stanislav Fort, …``) goes on with it, however much it looks like a
    reference of its own. So does a list of names that stops on the word joining its last
    name (``…, Ari Holtzman, and`` / ``Luke Zettlemoyer. 2023. Title``)."""
    if _joins_a_last_name(text):
        return True
    if not _names_go_on(text):
        return False
    items = [item.strip() for item in text.strip().split(",") if item.strip()]
    last = items[-1].split()
    if last[:1] == ["and"]:
        last = last[1:]
    full = [item for item in items[:-1] if len(item.removeprefix("and ").split()) >= 2]
    return len(last) == 1 and last[0][:1].isupper() and len(items) >= 3 and len(full) >= len(items[:-1]) - 1


def _joins_a_last_name(text: str) -> bool:
    """The line is a list of two names or more that ends on ``and`` or ``&``: its last name
    is on the next line."""
    tail = text.rstrip()
    for joint in (" and", " &"):
        if tail.endswith(joint):
            names = authors_line(tail[: -len(joint)].rstrip(" ,"))
            return names is not None and len(names) >= 2
    return False


def _open_bracket(text: str) -> bool:
    """The text opens a bracket it does not close (``LoRA (Hu et al. 2021,`` at the end of a
    hard-wrapped line): the next line goes on inside it, whatever it starts with (a label
    such as ``arXiv:2106.09685)`` there is the bracket's, not a detail line of its own)."""
    return text.count("(") > text.count(")")


def _unfinished(text: str) -> bool:
    """The text stops where a sentence cannot: on ``and``, ``of``, a comma or a word cut by
    a hyphen (``… practice and`` / ``the classical bias–variance trade-off``)."""
    tail = text.rstrip()
    if tail.endswith((",", "-", "–")) and not tail.endswith(("--", " -", " –")):
        return True
    last = tail.rsplit(None, 1)[-1] if tail else ""
    return last.lower() in OPEN_ENDED_WORDS


def numbered_list(lines: list[str]) -> bool:
    """Two lines or more of the block start with a reference number: its references start
    at their numbers (exact: the numbering is the list's own syntax)."""
    return sum(numbered_starts(lines)) >= 2


_NUMBER_RE = lazy(r"^\s*[\[(]?(\d{1,4})")


#: a review copy's line number in the margin before a bracketed reference number (``919 [14] …``)
_MARGIN_NUMBER_RE = lazy(r"^\s*\d{3,4}\s+(?=\[\d{1,4}\]\s)")


def numbered_starts(lines: list[str]) -> list[bool]:
    """Which lines start a reference by their number. ``[n]`` always does; ``n.``, ``n)`` and
    ``(n)`` do when they go on from the number before (the first one: when it is no year),
    so the year that starts a wrapped line of an ACM reference (``2019. PyTorch: An …``)
    is no number, nor is ``1.`` of a wrapped ``Section 1.``"""
    out, last = [], None
    for line in lines:
        line = _MARGIN_NUMBER_RE.sub("", line, count=1)  # ("919 [14] …": a review copy's line number in the margin)
        m = REFERENCE_NUMBER_RE.match(line)
        starts = False
        if m:
            n = int(_NUMBER_RE.match(line).group(1))
            if line.lstrip().startswith("["):
                starts = True
            elif last is None:
                starts = n < 1000
            else:
                starts = n == last + 1
            if starts:
                last = n
        out.append(starts)
    return out


def could_start(line: str) -> bool:
    """A line that may start a paper mention inside a block: it starts with a reference
    number, holds an identifier or one of the reference shapes' cues (a year, a dash,
    quotes, ``by``, ``et al.``). A line with none is read as part of what is above it."""
    return _numbered_or_id(line) is not None or has_shape_signal(line)


def starts_mention(found: LineLabel, text: str, head: LineLabel | None = None) -> bool:
    """The finder's label of a line, weighed with what the line says on its own; ``head`` is
    the label of the line the paragraph so far starts with: a line that is not a paper
    after a mention (a chat message, a remark) ends the mention, where after prose it is
    the prose wrapping on."""
    if found.label == "ref":
        return True
    if found.label == "cont" and found.confidence >= SURE_CONTINUES:
        return False
    if found.label == "other" and found.confidence >= SURE_CONTINUES and head is not None and head.label == "ref":
        return True
    return names_a_paper(text)


def cut_mid_sentence(line: str) -> bool:
    """The line stops where a reference cannot end: on a word, a comma, ``&`` or a colon, or
    on an abbreviation or an initial (``In Proc.``, ``J. Mach.``, ``Hinton, G.``), not on a
    full stop after a word, a closing bracket, a year or an identifier."""
    tail = line.rstrip()
    if not tail:
        return False
    if tail[-1].isalpha() or tail[-1] in ",-–&:":
        return True
    return tail[-1] == "." and _ABBREVIATION_END_RE.search(tail) is not None


#: a line's last word is an abbreviation or an initial: ``Proc.``, ``Adv.``, ``Inf.``, ``G.``
_ABBREVIATION_END_RE = lazy(r"(?:^|[\s(])(?:[A-Z]|[A-Z][a-z]{1,3})\.$")


#: A text longer than this is read in pieces (see :func:`outline_pieces`).
PIECE_CHARS = 64_000


def outline_pieces(lines: Iterable[str], *, org: bool = False, total: int | None = None) -> Iterator[list[Node]]:
    """The outline of ``lines`` piece by piece, for big files: each piece starts at a
    top-level line after a blank line, so the nodes of one piece can be read and dropped
    before the next is built. Line numbers are those of the whole text.

    A piece parses as it does in the whole text: no paragraph, list or wrapped line runs
    across a blank line into the next top-level line, and what is read across it anyway is
    handed to the piece (:class:`Surroundings`): the lines the mention finder reads around
    a block (the two lines with text before the piece, the line after it) and whether a
    chat window's message headers came before. ``total``, the whole text's number of lines,
    is where in the text the finder places a line; without it the finder reads each piece
    as a text of its own (its labels then may differ from the whole text's).

    ``lines`` may be an iterator (a file read line by line): only the lines of the piece
    being cut (and the few around it) are held, never the whole text, since where a piece
    ends depends on the line before and the line itself alone."""
    piece: list[str] = []
    start = 0  # index of the piece's first line in the whole text
    size = 0
    before: list[str] = []
    text_before = chat = False
    for raw in lines:
        if (size >= PIECE_CHARS and piece and raw[:1] not in ("", " ", "\t") and not piece[-1].strip()
                and parse_label(raw) is None and not is_url_only(raw) and _starts_a_root(raw, org)):
            around = Surroundings(start, total, before, text_before, [raw], chat) if total is not None else None
            handed = [parse_outline(piece, org=org, around=around)]
            shift_lines(handed[0], start)
            before, text_before = _lines_before(before, text_before, piece)
            chat = chat or any(line.rstrip()[-1:] in "Mm" and chat_header(_unquoted(line.expandtabs(4).rstrip())[0]) for line in piece)
            start += len(piece)
            piece, size = [], 0
            yield handed.pop()  # (popped: no reference kept here, see extract._run_unguarded)
        piece.append(raw)
        size += len(raw) + 1
    around = Surroundings(start, total, before, text_before, [], chat) if total is not None else None
    handed = [parse_outline(piece, org=org, around=around)]
    del piece
    shift_lines(handed[0], start)
    yield handed.pop()


#: a page property: a short capitalised key, a colon, its value (``Status: Done``, ``Date read: May 2``)
_PROPERTY_LINE_RE = lazy(r"^[A-Z][\w ]{0,30}[:：]\s+\S")


def _properties_one_a_line(above: str, text: str) -> bool:
    """Two ``Key: value`` lines one under the other are a page's properties (a Notion page
    exported as Markdown: ``Status: Done`` over ``Related papers: …``), each a line of its own,
    never one sentence wrapped onto the next line."""
    return _PROPERTY_LINE_RE.match(text) is not None and _PROPERTY_LINE_RE.match(above.strip()) is not None


def _starts_a_root(raw: str, org: bool) -> bool:
    """The line, after a blank line, starts a root of the outline that nothing before it
    takes in: not indented once its quote marks are removed (``>   - Authors: …`` nests
    under the quoted bullet above), not a detail or a bare link (a bullet's ``- URL: …``
    goes to the item above), not a list of names (``## Title``, a blank line, then its
    authors: the heading's)."""
    node = parse_outline([raw], org=org)
    if len(node) != 1 or node[0].children:
        return False
    node = node[0]
    if node.indent or node.is_detail or is_url_only(node.text):
        return False
    return not (node.kind == "plain" and _is_author_list(node.text))


def _lines_before(before: list[str], text_before: bool, piece: list[str]) -> tuple[list[str], bool]:
    """What stands before the next piece, once ``piece`` is read: the lines back to the
    second line with text (what the finder reads before a line), and whether any line
    before those holds text."""
    held = before + piece
    seen, first = 0, len(held)
    while first > 0 and seen < 2:
        first -= 1
        seen += bool(held[first].strip())
    return held[first:], text_before or any(line.strip() for line in held[:first])


def shift_lines(nodes: list[Node], by: int) -> None:
    """Add ``by`` to every line number the nodes of the trees carry (a piece read on its own):
    its own line, the lines joined into it (where a citation on a wrapped line is placed) and
    the finder's notes by line."""
    if not by:
        return
    stack = list(nodes)
    while stack:
        node = stack.pop()
        node.line += by
        if node.merged:
            node.merged = [n + by for n in node.merged]
        if node.found:
            node.found = {n + by: said for n, said in node.found.items()}
        stack.extend(node.children)


def adopt_orphan_details(siblings: list[Node]) -> None:
    """Move a detail line written at its title's own depth under that title.

    ``• Title`` followed by ``• まとめ: ...`` at the same indentation is a common slip; so is
    a Markdown heading followed by ``- URL:`` bullets. The detail belongs to the line above.
    """
    kept: list[Node] = []
    for at, node in enumerate(siblings):
        if node.children:  # (most nodes are leaves: no call for them)
            adopt_orphan_details(node.children)
        owner = kept[-1] if kept else None
        if (node.is_detail and not node.children and owner is not None and _takes_details(owner)
                and not (owner.children and owner.children[0].indent > node.indent)
                and node.kind != "heading" and not (_names_a_work(node) and not _right_below(owner, node)
                                                    and not _page_of_one_work(owner, siblings[at:]))):
            # (an owner that nests its own details deeper has a same-level line as a sibling)
            owner.children.append(node)
            continue
        if (owner is not None and owner.kind == "heading" and not owner.children
                and all(is_tags_only(c.text) for c in node.children)
                and node.kind == "plain" and _is_author_list(node.text)):
            # "### Title" then an unlabelled "A, B, C" line below it (and its "#tags" line, the
            # heading's detail too: a paragraph gave it to the author line)
            owner.children.append(node)
            owner.children.extend(node.children)
            node.children = []
            continue
        if (owner is not None and owner.kind == "heading" and owner.children and not node.children
                and node.kind != "heading" and all(c.is_detail or _is_author_list(c.text) for c in owner.children)
                and _stands_alone(node.text)):
            # "** Title / Authors: ... / https://arxiv..." or "... / #tags" under an org or Markdown heading
            owner.children.append(node)
            continue
        kept.append(node)
    siblings[:] = kept


def _announces_after_header(above: str, text: str) -> bool:
    """``Feb 3`` / ``🚨 New paper: Title``: a copied post's text opens under its header
    (the poster, the handle, the date) on the next line, with no blank between; a line that
    announces a paper's title there is the post's own, never wrapped from the date above."""
    return not cut_mid_sentence(above) and announced_title(text) is not None


def _stands_alone(text: str) -> bool:
    """A line that is never text wrapped from the line above: a bare link, or a line of
    ``#tags`` (what the line above is tagged with, not the rest of its sentence)."""
    return is_url_only(text) or is_tags_only(text)


def _names_a_work(node: Node) -> bool:
    """A bare identifier or paper link (``arXiv:2106.09685``, ``URL: …``): on its own it is a
    paper, so it joins the line above only when it sits inside that line's block."""
    label = node.label
    return label is not None and label.field in ("pin", "url")


#: a short ``key: value`` line citekit has no label for (``read: yes``, ``status: skimmed``)
_SHORT_PROPERTY_RE = lazy(r"^[^\W\d_][\w ]{0,20}[:：]\s*[^:：\s]\S{0,30}(?:\s\S{1,30}){0,2}$")


def _page_of_one_work(owner: Node, rest: list[Node]) -> bool:
    """``owner`` is a heading whose section, from here to the next heading, is only detail
    lines naming one work (``## Title``, a blank line, then ``- URL: …``, ``- read: yes``):
    the page of one paper, whose link is the heading's even across the blank line that
    Markdown puts under a heading. Two links or any line of prose make it a list instead."""
    if owner.kind != "heading":
        return False
    works = 0
    for node in rest:
        if node.kind == "heading":
            break
        if node.children or not (node.is_detail or _SHORT_PROPERTY_RE.match(node.text)):
            return False
        works += _names_a_work(node)
    return works == 1


def _right_below(owner: Node, node: Node) -> bool:
    """``node`` follows ``owner``'s block with no blank line between (it is still part of it).

    Across a blank line, a bare ``arXiv:…`` after a pasted citation is the next paper, not a
    pin on the one above: taken as a pin, it folded LoRA into ResNet."""
    last = owner.line
    stack = [owner]
    while stack:
        n = stack.pop()
        last = max(last, n.line, *n.merged) if n.merged else max(last, n.line)
        stack.extend(n.children)
    return node.line == last + 1


def _is_author_list(text: str) -> bool:
    """An unlabelled line that is only a list of people (``A, B and C``, ``A ⋅ B``)."""
    return authors_line(text) is not None or names_line(text) is not None


def _takes_details(owner: Node) -> bool:
    """Bullets and headings take stray details; a plain line only if it already has some."""
    if owner.is_detail or (owner.kind != "heading" and is_url_only(owner.text)):
        return False  # a bare link stands alone: a pin below it is a paper of its own
    if owner.kind == "plain":
        return bool(owner.children) and all(c.is_detail or is_url_only(c.text) for c in owner.children)
    return True
