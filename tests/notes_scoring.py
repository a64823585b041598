"""Scoring extraction against the note-style corpus in ``tests/data/notes/corpus``.

Each notes file there has a YAML file beside it listing the papers it mentions (title,
authors as written, identifiers, venue/year where the notes give them) and the lines that
are not papers. A found mention counts as one expected paper when their normalized titles
are equal (or near-identical), or, for a paper given only by identifier or link, when they
share an identifier or a link. Used by the tests (quality targets) and by
``bench/extract_bench.py`` (the per-style table).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz

from citekit.core.resolution import Mention
from citekit.notes import extract_paths
from citekit.notes.urls import url_key
from citekit.core.text import normalize_title

CORPUS = Path(__file__).parent / "data" / "notes" / "corpus"


@dataclass
class StyleScore:
    found: int = 0  # mentions extracted
    expected: int = 0
    matched: int = 0
    with_authors: int = 0  # matched papers whose expectation lists authors
    authors_exact: int = 0
    venue_checked: int = 0
    venue_right: int = 0
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)
    wrong_authors: list[str] = field(default_factory=list)

    def add(self, other: "StyleScore") -> None:
        for name in ("found", "expected", "matched", "with_authors", "authors_exact", "venue_checked", "venue_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses += other.misses
        self.false += other.false
        self.wrong_authors += other.wrong_authors

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    @property
    def authors_rate(self) -> float:
        return self.authors_exact / self.with_authors if self.with_authors else 1.0


def _ids(m: Mention) -> set[tuple[str, str]]:
    return set(m.ids.items()) | set(m.pins.items())


def _matches(expected: dict[str, Any], m: Mention) -> bool:
    title = expected.get("title")
    if title and m.title:
        a, b = normalize_title(title), normalize_title(m.title)
        if a == b or fuzz.ratio(a, b) >= 95:
            return True
    if title:
        return False
    wanted = {(k, str(v).lower() if k == "doi" else str(v)) for k, v in (expected.get("ids") or {}).items()}
    if wanted & _ids(m):
        return True
    url = expected.get("url")
    return bool(url) and any(url_key(u) == url_key(url) for u in m.urls)


def score_file(yaml_path: Path) -> tuple[dict[str, StyleScore], list[str]]:
    """Scores per style for one corpus file, and the problems extraction reported."""
    spec = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    notes = next(p for p in yaml_path.parent.glob(yaml_path.stem + ".*") if p.suffix != ".yaml")
    result = extract_paths([notes], root=notes.parent)
    file_style = spec["style"]
    scores: dict[str, StyleScore] = defaultdict(StyleScore)
    free = list(result.mentions)
    owner_style: dict[int, str] = {}
    for paper in spec["papers"]:
        style = paper.get("style", file_style)
        s = scores[style]
        s.expected += 1
        hit = next((m for m in free if _matches(paper, m)), None)
        if hit is None:
            s.misses.append(f"{notes.name}: {paper.get('title') or paper.get('ids') or paper.get('url')}")
            continue
        free.remove(hit)
        owner_style[id(hit)] = style
        s.matched += 1
        s.found += 1
        if "authors" in paper:
            s.with_authors += 1
            want = [str(a) for a in paper["authors"]]
            incomplete = bool(paper.get("incomplete"))
            if hit.authors == want and hit.authors_incomplete == incomplete:
                s.authors_exact += 1
            else:
                s.wrong_authors.append(f"{notes.name}:{hit.location.line}: {hit.authors}{' et al.' if hit.authors_incomplete else ''} != {want}{' et al.' if incomplete else ''}")
        if "venue" in paper or "year" in paper:
            s.venue_checked += 1
            if hit.venue == paper.get("venue", hit.venue) and hit.year == paper.get("year", hit.year):
                s.venue_right += 1
    for m in free:
        s = scores[file_style]
        s.found += 1
        s.false.append(f"{m.location}: {m.title or m.urls or m.links}")
    return dict(scores), [str(p) for p in result.problems]


def score_corpus(corpus: Path = CORPUS) -> tuple[dict[str, StyleScore], StyleScore, dict[str, int]]:
    """Per-style scores, the total, and corpus counts (files, papers, non-paper lines)."""
    by_style: dict[str, StyleScore] = defaultdict(StyleScore)
    counts = {"files": 0, "papers": 0, "non_papers": 0, "problems": 0}
    for yaml_path in sorted(corpus.glob("*.yaml")):
        spec = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
        counts["files"] += 1
        counts["papers"] += len(spec["papers"])
        counts["non_papers"] += len(spec.get("non_papers") or [])
        scores, problems = score_file(yaml_path)
        counts["problems"] += len(problems)
        for style, s in scores.items():
            by_style[style].add(s)
    total = StyleScore()
    for s in by_style.values():
        total.add(s)
    return dict(by_style), total, counts
