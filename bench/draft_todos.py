"""A Markdown draft's TODO comments put back under their paragraphs, for the benches that count them per paragraph.

A Markdown draft lists its ``TODO(citekit)`` comments after the draft, each with its paragraph's heading first
(``<!-- Heading — TODO(citekit): ... -->``), so the paragraphs' text holds none; LaTeX drafts, and Markdown drafts
written before that, keep each under its paragraph. The benches read both the same way.
"""

from __future__ import annotations

import re

_LISTED = re.compile(r"^<!-- (?P<heading>.+?) \u2014 (?P<todo>TODO\(citekit\):.*)$")


def inline_todos(text: str) -> str:
    """``text`` with each listed TODO moved under its heading's paragraph (as ``<!-- TODO(citekit): ... -->``)."""
    listed: dict[str, list[str]] = {}
    kept = []
    for line in text.splitlines():
        m = _LISTED.match(line)
        if m:
            listed.setdefault(m.group("heading"), []).append(f"<!-- {m.group('todo')}")
        elif not line.startswith("<!-- for you, one line per paragraph above"):
            kept.append(line)
    if not listed:
        return text
    out: list[str] = []
    blocks = re.split(r"(?m)^(?=### )", "\n".join(kept).rstrip() + "\n")
    for block in blocks:
        heading = block.partition("\n")[0][4:].strip() if block.startswith("### ") else None
        todos = listed.get(heading, []) if heading else []
        out.append(block.rstrip("\n") + ("\n" + "\n".join(todos) if todos else "") + "\n\n")
    return "".join(out).rstrip() + "\n"
