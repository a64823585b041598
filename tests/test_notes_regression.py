"""The bundled trip report and abstracts file give exactly the mentions they gave before the
structured Markdown/org readers and the reference-string rules were added.

``tests/data/notes/golden/*.json`` was written from the extractor as it stood before those
changes; every field a later stage reads is compared, so any drift (a title, an author
split, a URL, a line number, a section) fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.notes import extract_paths

REPO = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "data" / "notes" / "golden"
FILES = ["notes-icml2026-trip-report.txt", "notes-icml2026-abstracts.txt"]


def _as_json(m) -> dict:
    return {
        "kind": m.kind, "line": m.location.line, "title": m.title, "authors": m.authors, "urls": m.urls,
        "links": m.links, "summary": m.summary, "hints": m.hints, "venue": m.venue, "year": m.year,
        "ids": m.ids.as_dict(), "pins": m.pins.as_dict(), "hashtags": m.hashtags, "section": m.section,
    }


@pytest.mark.parametrize("name", FILES)
def test_bundled_notes_give_the_pinned_mentions(name: str) -> None:
    path = REPO / "notes" / name
    if not path.exists():
        pytest.skip(f"{path} is missing: the bundled notes are the fixture for this test")
    expected = json.loads((GOLDEN / name.replace(".txt", ".json")).read_text(encoding="utf-8"))
    result = extract_paths([path], root=REPO)
    assert result.problems == []
    got = [_as_json(m) for m in result.mentions]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g == e, f"line {e['line']}"


@pytest.mark.parametrize("name", FILES)
def test_seed_copies_beside_the_repository_match(name: str) -> None:
    seed = REPO.parent / "shared" / "seeds" / name
    if not seed.exists():
        pytest.skip(f"{seed} is missing (the seed notes beside the repository are not in a user's clone)")
    expected = json.loads((GOLDEN / name.replace(".txt", ".json")).read_text(encoding="utf-8"))
    got = [_as_json(m) for m in extract_paths([seed], root=seed.parent).mentions]
    assert [(g["kind"], g["line"], g["title"], g["authors"], g["urls"]) for g in got] == \
        [(e["kind"], e["line"], e["title"], e["authors"], e["urls"]) for e in expected]
