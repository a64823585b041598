"""The headings of an org text as orgparse reads them, with or without its body parsers.

``orgparse.loads`` builds a node per heading and runs every body parser on it (planning
lines, clocks, property drawers, repeated tasks, timestamps): most of the time an org file
took, although the notes reader uses only each heading's line, level, raw title and tags
and the file's ``#+FILETAGS``. Those come from orgparse's own module-level rules
(``parse_heading_level``/``_tags``/``_todos``/``_priority``, ``parse_comment``,
``parse_seq_todo``, ``RE_NODE_HEADER``), which :func:`scan_headings` applies in the order
``orgparse.node.parse_lines`` does, so both paths give the same headings.

The body parsers matter in one way: they raise on a malformed date or ``:Effort:`` value,
and such a file is then read as a plain outline (see :mod:`citekit.notes.formats.org`). Every one
of them needs a date (digits, dash, digits, dash, digits), an ``:Effort:`` property or a
``- State "DONE" from ...`` line before it can fail, so a text with none of those
(:func:`body_parsers_inert`) is scanned directly; any other text goes through
``orgparse.loads``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from citekit.core.lazyre import lazy

#: What any orgparse body parser needs before it can raise (a superset, on purpose).
_BODY_PARSER_TRIGGER_RE = lazy(r"\d-\d+-\d|:Effort:|State\s+\"")
#: its first branch alone, written to open on the dash (a digit before it checked behind):
#: a pattern that opens on one fixed character is searched by a scan for it, where the
#: alternation, or a digit class, is tried at every character (45 ms on 2 MB, now 1 ms)
_DATE_LIKE_RE = lazy(r"-(?<=\d-)\d+-\d")
_STATE_RE = lazy(r"State\s+\"")
_TODO_COMMENTS = ("TODO", "SEQ_TODO", "TYP_TODO")


@dataclass(frozen=True)
class OrgHeading:
    """One heading line: what the notes reader takes from orgparse's node for it."""

    linenumber: int  # 1-based, counted over ``str.splitlines`` as orgparse counts
    level: int | None
    raw: str  # title without stars, TODO keyword, priority and tags (``format="raw"``)
    tags: frozenset[str]


@dataclass
class OrgHeadings:
    headings: list[OrgHeading]
    file_tags: list[str]  # the ``#+FILETAGS`` values written before the first heading


def body_parsers_inert(text: str) -> bool:
    """True when no orgparse body parser can raise on ``text`` (see the module docstring)."""
    return (":Effort:" not in text and ("State" not in text or _STATE_RE.search(text) is None)
            and _DATE_LIKE_RE.search(text) is None)


def read_headings(text: str, env: Any) -> OrgHeadings:
    """The headings of ``text``, scanned when that is safe, else through ``orgparse.loads``
    (which raises what it raises on a malformed file). ``env`` is orgparse's ``OrgEnv``
    shared by the pieces of one file (its TODO keywords), or None for a fresh one."""
    import orgparse.node

    if env is None:
        env = orgparse.node.OrgEnv(filename="<string>")
    if body_parsers_inert(text):
        return scan_headings(text, env)
    return _by_orgparse(text, env)


def _by_orgparse(text: str, env: Any) -> OrgHeadings:
    import orgparse

    root = orgparse.loads(text, env=env)
    try:
        tags = root.get_file_property_list("FILETAGS") or []
    except Exception:
        tags = []
    headings = [
        OrgHeading(n.linenumber, n.level, n.get_heading(format="raw"), frozenset(getattr(n, "shallow_tags", set()) or ()))
        for n in root[1:] if getattr(n, "linenumber", None)
    ]
    return OrgHeadings(headings, list(tags))


def scan_headings(text: str, env: Any) -> OrgHeadings:
    """orgparse's reading of the headings, without building its nodes or running its body
    parsers. As in ``parse_lines``, every chunk's ``#+TODO:`` keywords join ``env`` before
    any heading is read, so a keyword declared late in the text still applies to it."""
    from orgparse.node import RE_NODE_HEADER

    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line[:1] == "*" and RE_NODE_HEADER.search(line)]
    bounds = [0, *starts, len(lines)]
    file_tags: list[str] = []
    for chunk, (a, b) in enumerate(zip(bounds, bounds[1:])):
        comments = _special_comments(lines[a:b])
        if chunk == 0:  # the root node: the lines before the first heading
            file_tags = comments.get("FILETAGS", [])
        _add_todo_keys(env, comments)
    todo_keys = env.all_todo_keys
    return OrgHeadings([_heading(i + 1, lines[i], todo_keys) for i in starts], file_tags)


def _special_comments(lines: list[str]) -> dict[str, list[str]]:
    """``OrgBaseNode._parse_comments`` of one chunk: ``#+KEY: value`` lines by upper-cased key."""
    from orgparse.node import parse_comment

    found: dict[str, list[str]] = {}
    for line in lines:
        if "#+" in line:  # parse_comment needs it: most lines skip the call
            parsed = parse_comment(line)
            if parsed:
                key, values = parsed
                found.setdefault(key.upper(), []).extend(values)
    return found


def _add_todo_keys(env: Any, comments: dict[str, list[str]]) -> None:
    from orgparse.node import parse_seq_todo

    for key in _TODO_COMMENTS:
        for value in comments.get(key, []):
            env.add_todo_keys(*parse_seq_todo(value))


def _heading(linenumber: int, line: str, todo_keys: list[str]) -> OrgHeading:
    """``OrgNode._parse_heading`` of one heading line."""
    from orgparse.node import parse_heading_level, parse_heading_priority, parse_heading_tags, parse_heading_todos

    heading, level = line, None
    stars = parse_heading_level(heading)
    if stars is not None:
        heading, level = stars
    # orgparse's tag pattern backtracks over the whole title; it can only match a title
    # that ends in ":" (before trailing spaces), so the others skip it
    heading, tags = parse_heading_tags(heading) if heading.rstrip().endswith(":") else (heading, [])
    heading, _todo = parse_heading_todos(heading, todo_keys)
    heading, _priority = parse_heading_priority(heading)
    return OrgHeading(linenumber, level, heading, frozenset(tags))
