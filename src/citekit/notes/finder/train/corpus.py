"""The project's notes corpus (``tests/data/notes/corpus``) labelled line by line from its answer files.

Each ``X.md``/``X.txt``/``X.org`` there has an ``X.yaml`` listing the papers it mentions
(title, identifiers, URL). A line holding one of those titles, identifiers or URLs starts a
mention (``ref``); a BibTeX entry pasted in (``@article{``) starts one too. Below a mention,
the lines indented deeper, the labelled detail lines (``Authors:``, ``url::``, ``**Link:**``),
an org property drawer and a pasted entry's field lines continue it (``cont``), up to the
next blank line or the next line at its own depth (a bullet beside it is an item of its own). Everything else is ``other``. The labels
come from a rule, not from a person: good enough to teach the shapes, not a measure.
"""

from __future__ import annotations

import re
from pathlib import Path

_DETAIL = re.compile(r"^\s*(?:[-*•]\s+)?\**(?:authors?|by|url|link|links|pdf|arxiv|doi|venue|poster|paper|code|"
                     r"summary|tags|type|source|year|published|著者|作者|저자|リンク|链接)\**\s*(?:::?|：)", re.I)
_NORM = re.compile(r"[\W_]+")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s")


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower()).strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _keys(answer: dict) -> tuple[list[str], list[str]]:
    titles, ids = [], []
    for paper in answer.get("papers") or []:
        if not isinstance(paper, dict):
            continue
        if paper.get("title"):
            titles.append(_norm(str(paper["title"])))
        for value in (paper.get("ids") or {}).values():
            ids.append(str(value).lower())
        if paper.get("url"):
            ids.append(str(paper["url"]).lower())
    return [t for t in titles if len(t) >= 6], ids


def label_corpus_file(path: Path, answer: dict) -> list[tuple[str, str]]:
    """(label, line) for every line of one corpus file, from its answer file."""
    titles, ids = _keys(answer)
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    out: list[tuple[str, str]] = []
    in_mention = False
    depth = 0
    in_bib = False
    for line in lines:
        if not line.strip():
            out.append(("blank", line))
            in_mention = False
            continue
        norm = _norm(line)
        low = line.lower()
        if in_bib:
            out.append(("cont", line))
            if line.strip() == "}" or line.rstrip().endswith("}}") or line.strip().startswith("}"):
                in_bib = False
            continue
        if re.match(r"^\s*@\w+\s*\{", line):
            out.append(("ref", line))
            in_bib, in_mention = True, False
            continue
        is_title = any(t in norm for t in titles) and not _DETAIL.match(line)
        has_id = any(i in low for i in ids)
        bulleted = bool(_BULLET.match(line))
        deeper = _indent(line) > depth
        if in_mention and not is_title and (deeper or not bulleted and (_DETAIL.match(line) or line.strip().startswith(":"))):
            out.append(("cont", line))
            continue
        if is_title or has_id:
            out.append(("ref", line))
            in_mention, depth = True, _indent(line)
            continue
        out.append(("other", line))
        in_mention = False
    return out


def corpus_documents(folder: Path) -> list[tuple[str, list[tuple[str, str]]]]:
    """(file name, labelled lines) for every corpus file with an answer file beside it."""
    import yaml

    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".md", ".txt", ".org"):
            continue
        answer_path = path.with_suffix(".yaml")
        if not answer_path.exists():
            continue
        answer = yaml.safe_load(answer_path.read_text(encoding="utf-8")) or {}
        out.append((path.name, label_corpus_file(path, answer)))
    return out
