"""The first development set of notes written blind (``tests/data/notes/dev``), labelled line by line from its answer keys.

Those notes were written by people outside the team, in the shapes users really keep; now
that a second development set (``dev2``) measures generalisation, the first one teaches.
Each ``NAME.expected.json`` gives the line of every paper (``ref``) and of every thing that is
not a paper (``other``). A paper's block goes on (``cont``) over the lines its ``as_written``
spans and then over the lines below it up to a blank line, the next line a key names, or a
line that starts an item of its own (a bullet or heading no deeper than the paper's line, a
numbered reference, a ``\\bibitem``, a table row, a chat message's header). A ``\\bibitem``
just above the paper's line starts the block instead (the key names the title's line).
Labels from keys and a rule: good enough to teach shapes; the set is no measure any more.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

_ITEM = re.compile(r"^\s*(?:[-*+•]\s|\d{1,3}[.)]\s|\[\d{1,3}\]|\\bibitem|#{1,6}\s|\*+\s|\||\[\d{1,2}:\d{2}|"
                   r"\d{1,2}:\d{2}\s|From:|>?\s*On .* wrote:)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def label_dev_file(path: Path, key: dict) -> list[tuple[str, str]]:
    """(label, line) for every line of one notes file, from its answer key."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    lines = text.splitlines()
    labels = ["blank" if not line.strip() else "other" for line in lines]
    named: set[int] = set()
    papers = []
    for item in key.get("non_papers") or []:
        if isinstance(item.get("line"), int) and 0 < item["line"] <= len(lines):
            named.add(item["line"] - 1)
    for item in key.get("papers") or []:
        if isinstance(item.get("line"), int) and 0 < item["line"] <= len(lines):
            named.add(item["line"] - 1)
            papers.append((item["line"] - 1, str(item.get("as_written") or "")))
    paper_lines = {i for i, _ in papers}
    for i, written in sorted(papers):
        if labels[i] == "blank":
            continue
        start = i
        for j in range(i - 1, max(-1, i - 5), -1):  # a \bibitem a few lines above starts the block
            if not lines[j].strip() or j in named:
                break
            if lines[j].lstrip().startswith("\\bibitem"):
                start = j
                break
        labels[start] = "ref"
        for j in range(start + 1, i + 1):
            if j not in paper_lines or j == i:
                labels[j] = "cont" if j != start else "ref"
        spans = written.count("\n") + 1
        depth = _indent(lines[i])
        for j in range(i + 1, len(lines)):
            line = lines[j]
            if not line.strip() or j in named:
                break
            if j >= i + spans and _ITEM.match(line) and _indent(line) <= depth:
                break
            labels[j] = "cont"
    return list(zip(labels, lines))


def dev_documents(folder: Path) -> list[tuple[str, list[tuple[str, str]]]]:
    """(file name, labelled lines) for every notes file with an answer key beside it."""
    out = []
    for key_path in sorted(folder.rglob("*.expected.json")):
        path = key_path.with_name(key_path.name[: -len(".expected.json")])
        if path.exists():
            out.append((str(path.relative_to(folder)), label_dev_file(path, json.loads(key_path.read_text("utf-8")))))
    return out
