"""A Slack workspace export's day files (``channel/2024-03-05.json``) as notes text.

Slack's export (the ZIP unpacked) holds a folder per channel and in it one file per day:
a JSON list of message objects. A message's ``text`` is Slack's mrkdwn (``<https://x|label>``
links, ``<@U123>`` people, ``*bold*``, ``` `code` ```); a message with no text may have its
words only in ``blocks`` (rich text); ``attachments`` are link previews whose ``title`` and
``title_link`` give a paper's title beside its address. Joins, topic changes and deletions
(``subtype``) are not notes. An edited message (``message_changed``) is read as it reads now.

Nothing in the file is trusted: every value is checked for its type, strings and lists are
capped, and a file that is not a day file of an export is reported, not guessed at. The
text each message gives is written as a paragraph of notes text (the channel's name as a
heading above them: a channel named ``icml2024`` is a section like any heading), and each
line of it remembers the file line of the JSON value it came from.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from pathlib import PurePosixPath
from typing import Any

from citekit.notes.formats import Transcript
from citekit.notes.result import Problem
from citekit.notes.urls import classify_url
from citekit.core.lazyre import lazy

#: a day file larger than this is no chat log (an export's day files are kilobytes)
MAX_FILE_CHARS = 32_000_000
#: messages read from one day file, characters read from one message, previews per message
MAX_MESSAGES = 100_000
MAX_TEXT_CHARS = 40_000
MAX_ATTACHMENTS = 20
#: containers nested this deep get positions; deeper values are decoded whole
_WALK_DEPTH = 4
#: rich-text blocks nested deeper than this are not read (a message's blocks are 3-5 deep)
_MAX_BLOCK_DEPTH = 12

#: subtypes that are events in the channel, not something somebody wrote
SYSTEM_SUBTYPES = frozenset((
    "channel_join", "channel_leave", "channel_topic", "channel_purpose", "channel_name", "channel_archive",
    "channel_unarchive", "channel_convert_to_private", "channel_convert_to_public", "group_join", "group_leave",
    "group_topic", "group_purpose", "group_name", "group_archive", "group_unarchive", "pinned_item",
    "unpinned_item", "message_deleted", "tombstone", "bot_add", "bot_remove", "bot_enable", "bot_disable",
    "reminder_add", "reminder_delete", "huddle_thread", "sh_room_created", "channel_posting_permissions",
    "joiner_notification", "joiner_notification_for_inviter",
))

_DECODER = json.JSONDecoder()
_SPACE = lazy(r"[ \t\n\r]*")
#: ``<...>``: a link, a person, a channel or a special mention, as mrkdwn writes them
_ANGLE = lazy(r"<([^<>\n]{1,4000})>")
#: *bold*, _italic_, ~strike~ around words (not inside a word or an address)
_EMPHASIS = lazy(r"(?<![\w*_~/])([*_~])(?=\S)([^\n]*?\S)\1(?![\w*_~])")
_FENCE = lazy(r"```")
_INLINE_CODE = lazy(r"`([^`\n]+)`")
#: the ``[2401.01234]`` an arXiv page's title starts with
_ARXIV_PREFIX = lazy(r"^\[\d{4}\.\d{4,5}(?:v\d+)?\]\s*")


class _Positions:
    """Where each value of a container starts: ``at(container, key)`` is its file line."""

    def __init__(self, text: str) -> None:
        self._newlines = [m.start() for m in re.finditer("\n", text)]
        self.offsets: dict[tuple[int, Any], int] = {}

    def line_of(self, offset: int) -> int:
        return bisect_right(self._newlines, offset - 1) + 1

    def at(self, container: Any, key: Any, default: int) -> int:
        offset = self.offsets.get((id(container), key))
        return default if offset is None else self.line_of(offset)


def _skip(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()  # type: ignore[union-attr]


def _decode(text: str, i: int, depth: int, where: _Positions) -> tuple[Any, int]:
    """The JSON value at ``text[i:]`` and where it ends, recording in ``where`` the offset
    of every value inside a container up to :data:`_WALK_DEPTH` deep (the standard decoder
    reads the strings and numbers, and anything deeper, whole)."""
    opener = text[i:i + 1]
    if depth >= _WALK_DEPTH or opener not in ("{", "["):
        return _DECODER.raw_decode(text, i)
    closer = "}" if opener == "{" else "]"
    holder: Any = {} if opener == "{" else []
    i = _skip(text, i + 1)
    if text[i:i + 1] == closer:
        return holder, i + 1
    while True:
        if opener == "{":
            if text[i:i + 1] != '"':
                raise json.JSONDecodeError("expected a quoted key", text, i)
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i)
            if text[i:i + 1] != ":":
                raise json.JSONDecodeError("expected ':'", text, i)
            i = _skip(text, i + 1)
        else:
            key = len(holder)
        where.offsets[(id(holder), key)] = i
        value, i = _decode(text, i, depth + 1, where)
        if opener == "{":
            holder[key] = value
        else:
            holder.append(value)
        i = _skip(text, i)
        mark = text[i:i + 1]
        if mark == closer:
            return holder, i + 1
        if mark != ",":
            raise json.JSONDecodeError(f"expected ',' or '{closer}'", text, i)
        i = _skip(text, i + 1)


def transcribe(text: str, file: str) -> Transcript:
    """The notes text of one day file of a Slack export (see the module docstring)."""
    out = _Out()
    if len(text) > MAX_FILE_CHARS:
        out.problems.append(Problem(file, None, f"a Slack day file of {len(text):,} characters, more than "
                                                f"{MAX_FILE_CHARS:,}: not read. Is it really a Slack export?"))
        return out.transcript()
    where = _Positions(text)
    try:
        start = _skip(text, 0)
        messages, end = _decode(text, start, 0, where)
        if text[_skip(text, end):].strip():
            raise json.JSONDecodeError("extra data after the list of messages", text, _skip(text, end))
    except json.JSONDecodeError as exc:
        out.problems.append(Problem(file, exc.lineno, f"not a Slack export day file: invalid JSON ({exc.msg}); "
                                                      "re-export the workspace, or rename the file if it is not from Slack"))
        return out.transcript()
    except RecursionError:
        out.problems.append(Problem(file, None, "not a Slack export day file: JSON nested too deeply"))
        return out.transcript()
    if not isinstance(messages, list):
        out.problems.append(Problem(file, 1, "not a Slack export day file: it holds a JSON "
                                             f"{type(messages).__name__}, not a list of messages; rename it if it is not from Slack"))
        return out.transcript()
    channel = PurePosixPath(file).parent.name
    if channel:
        out.add("# " + channel, 1)
        out.add("", 1)
    if len(messages) > MAX_MESSAGES:
        out.problems.append(Problem(file, None, f"{len(messages):,} messages in one day file; only the first {MAX_MESSAGES:,} were read"))
    for index, message in enumerate(messages[:MAX_MESSAGES]):
        line = where.at(messages, index, 1)
        if not isinstance(message, dict):
            out.problems.append(Problem(file, line, "a message that is not a JSON object was skipped"))
            continue
        _message(message, line, where, out, file)
    return out.transcript()


class _Out:
    """The transcript as it is written: its lines, their file lines, the problems."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.at: list[int] = []
        self.problems: list[Problem] = []

    def add(self, text: str, line: int) -> None:
        for part in text.split("\n"):
            self.lines.append(part)
            self.at.append(line)

    def transcript(self) -> Transcript:
        return Transcript("\n".join(self.lines), self.at, self.problems)


def _message(message: dict, line: int, where: _Positions, out: _Out, file: str) -> None:
    """The lines of one message (text, or its rich-text blocks; then its link previews)."""
    subtype = message.get("subtype")
    if subtype == "message_changed" and isinstance(message.get("message"), dict):
        line = where.at(message, "message", line)
        message = message["message"]  # an edit recorded as an event: the message as it reads now
        subtype = message.get("subtype")
    if isinstance(subtype, str) and subtype in SYSTEM_SUBTYPES:
        return
    written = len(out.lines)
    text = message.get("text")
    if isinstance(text, str) and text.strip():
        if len(text) > MAX_TEXT_CHARS:
            out.problems.append(Problem(file, where.at(message, "text", line),
                                        f"a message of {len(text):,} characters; only the first {MAX_TEXT_CHARS:,} were read"))
        out.add(_as_item(mrkdwn_text(text[:MAX_TEXT_CHARS])), where.at(message, "text", line))
    elif isinstance(message.get("blocks"), list):
        words = blocks_text(message["blocks"])
        if words.strip():
            out.add(words[:MAX_TEXT_CHARS], where.at(message, "blocks", line))
    attachments = message.get("attachments")
    if isinstance(attachments, list):
        for index, attachment in enumerate(attachments[:MAX_ATTACHMENTS]):
            if isinstance(attachment, dict):
                preview = preview_line(attachment)
                if preview:
                    at = where.at(attachments, index, line)
                    out.add(preview, where.at(attachment, "title", at))
    if len(out.lines) > written:
        out.add("", out.at[-1])  # a message ends its paragraph


_URL = re.compile(r"https?://")
_BULLET = lazy(r"^\s*(?:[-*+•◦▪‣]|\d{1,3}[.)])\s")


def _as_item(text: str) -> str:
    """A message that is one paper written over a few lines (a title, then its authors,
    then its link) as a title with its details indented below it, as notes write it; a
    list, a message of several links, or a message that introduces what follows (``…:``)
    stays as written, one line each."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or len(lines) > 6 or _URL.search(lines[0]) or lines[0].rstrip().endswith(":"):
        return text
    rest = lines[1:]
    if any(_BULLET.match(line) for line in rest) or sum(1 for line in rest if _URL.search(line)) > 1:
        return text
    return "\n".join([lines[0], *("  " + line.strip() for line in rest)])


def preview_line(attachment: dict) -> str | None:
    """A link preview as ``- Title https://...``, when it previews a paper's page (the
    title of a repository's or a blog's preview names no paper)."""
    title = attachment.get("title")
    url = next((u for u in (attachment.get(k) for k in ("title_link", "from_url", "original_url"))
                if isinstance(u, str) and u.startswith(("https://", "http://")) and len(u) < 2000 and not any(c.isspace() for c in u)), None)
    if not isinstance(title, str) or not title.strip() or url is None:
        return None
    try:
        if classify_url(url) != "paper":
            return None
    except ValueError:
        return None
    title = strip_arxiv_prefix(" ".join(_unescape(title).split()))[:1000]
    return f"- {title} {url}" if title else None


def strip_arxiv_prefix(title: str) -> str:
    """A page title without the ``[2401.01234]`` an arXiv page's title starts with."""
    return _ARXIV_PREFIX.sub("", title) if title[:1] == "[" else title


def _unescape(text: str) -> str:
    """mrkdwn's three escaped characters (and only those: ``&amp;lt;`` stays ``&lt;``)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") if "&" in text else text


def _angle(match: re.Match[str]) -> str:
    """One ``<...>`` of mrkdwn as notes text."""
    inner = match.group(1)
    target, _, label = inner.partition("|")
    if target[:1] == "@":
        return "@" + (label or target[1:])
    if target[:1] == "#":
        return label or target[1:]  # a channel: its name, with no ``#`` (which would be a tag)
    if target[:1] == "!":
        if label:
            return label
        special = target[1:].split("^")[0]
        return "@" + special if special in ("here", "channel", "everyone") else ""
    if target.startswith("mailto:"):
        return label or target[7:]
    url = _unescape(target)
    label = _unescape(label).strip()
    return titled_link(label, url)


def titled_link(label: str, url: str) -> str:
    """A link with its label as notes write one, ``[label](https://…)`` (the form a
    Markdown note has, which the rules read: ``[pdf](…)`` after a title is that title's
    link); a label that only repeats the address gives the address alone."""
    label = " ".join(label.split()).replace("[", "(").replace("]", ")")
    if not label or label == url or url.split("://", 1)[-1].startswith(label.rstrip("/.…")):
        return url
    return f"[{label}]({url})"


def mrkdwn_text(text: str) -> str:
    """Slack mrkdwn as notes text: links as ``[label](https://...)``, people as ``@name``,
    emphasis and code marks taken off, the three escaped characters put back."""
    parts: list[str] = []
    last = 0
    for match in _ANGLE.finditer(text):
        parts.append(_plain(text[last:match.start()]))
        parts.append(_angle(match))
        last = match.end()
    parts.append(_plain(text[last:]))
    return "".join(parts)


def _plain(text: str) -> str:
    """Text between links: fences and code marks, then emphasis, taken off."""
    if "`" in text:
        text = _INLINE_CODE.sub(r"\1", _FENCE.sub("\n", text))
    if "*" in text or "_" in text or "~" in text:
        text = _EMPHASIS.sub(r"\2", text)
    return _unescape(text)


def blocks_text(blocks: list, depth: int = 0) -> str:
    """The words of rich-text blocks (what a message without ``text`` says): sections as
    lines, list items as ``- item`` indented by their level, links as ``[label](https://...)``."""
    lines: list[str] = []
    for block in blocks[:200]:
        if not isinstance(block, dict) or depth > _MAX_BLOCK_DEPTH:
            continue
        kind = block.get("type")
        elements = block.get("elements") if isinstance(block.get("elements"), list) else []
        if kind == "rich_text_list":
            indent = block.get("indent") if isinstance(block.get("indent"), int) else 0
            for item in elements[:500]:
                if isinstance(item, dict):
                    lines.append("  " * max(0, min(indent, 10)) + "- " + _inline(item.get("elements"), depth + 1))
        elif kind in ("rich_text_section", "rich_text_quote", "rich_text_preformatted"):
            lines.append(_inline(elements, depth + 1))
        elif elements:
            lines.append(blocks_text(elements, depth + 1))
        elif kind == "section" and isinstance(block.get("text"), dict) and isinstance(block["text"].get("text"), str):
            lines.append(mrkdwn_text(block["text"]["text"]))
    return "\n".join(line for line in lines if line is not None)


def _inline(elements: Any, depth: int) -> str:
    """The text of a rich-text section's elements."""
    if not isinstance(elements, list):
        return ""
    out: list[str] = []
    for element in elements[:2000]:
        if not isinstance(element, dict):
            continue
        kind = element.get("type")
        text = element.get("text") if isinstance(element.get("text"), str) else ""
        if kind == "text":
            out.append(text)
        elif kind == "link" and isinstance(element.get("url"), str):
            url = element["url"]
            out.append(titled_link(text, url))
        elif kind == "user" and isinstance(element.get("user_id"), str):
            out.append("@" + element["user_id"])
        elif kind == "broadcast" and isinstance(element.get("range"), str):
            out.append("@" + element["range"])
        elif kind == "emoji" and isinstance(element.get("name"), str):
            out.append(f":{element['name']}:")
        elif depth <= _MAX_BLOCK_DEPTH and isinstance(element.get("elements"), list):
            out.append(blocks_text([element], depth + 1))
    return "".join(out)
