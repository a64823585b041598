"""Scanning LaTeX source: the two primitives every citation reader and rewriter needs.

Shared by :mod:`citekit.paper.cited` (which keys a paper cites) and
:mod:`citekit.library.rekey` (rewriting those keys), so both agree on where a group ends.
"""

from __future__ import annotations


def skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def group_end(text: str, i: int, open_: str, close: str) -> int | None:
    """Index just past the group that starts at ``text[i] == open_``, nesting-aware."""
    depth = 0
    j = i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "{" and open_ != "{":
            inner = group_end(text, j, "{", "}")  # braces hide brackets: [{see [x]}]
            if inner is None:
                return None
            j = inner
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None
