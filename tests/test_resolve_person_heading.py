"""A person heading above a paper line ("• Shiqian Ma (Rice)") confirms a title-search
candidate that lists that person, and refuses one that does not, through `citekit sync`
against the loopback fake services. The fake world holds two papers titled "Riemannian
Dueling Optimization": the ICML one (Ren, Roy, Ma) and a journal article by others
(Hoffmann, Rossi, Mori) that Crossref returns.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from citekit.cli import main

from .helpers_project import make_project

TITLE = "Riemannian Dueling Optimization"


@pytest.fixture()
def project(tmp_path, monkeypatch, fake_services):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    return root


def _sync_under(root, heading: str) -> dict:
    (root / "notes" / "people.txt").write_text(
        f"• {heading}\n  • 最近の仕事\n  • {TITLE}\n    • まとめ: 比較オラクルだけで多様体上の最適化をする研究。\n",
        encoding="utf-8")
    extracted = CliRunner().invoke(main, ["-C", str(root), "extract", "--json", str(root / "notes" / "people.txt")])
    assert extracted.exit_code == 0, extracted.output
    mention = next(m for m in json.loads(extracted.output)["mentions"] if m["title"] == TITLE)
    assert mention["authors"] == [] and mention["heading_people"] == [heading.split(" (")[0]]
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_headings_person_confirms_the_icml_paper(project):
    works = _sync_under(project, "Shiqian Ma (Rice)")["works_detail"]
    assert len(works) == 1, works
    work = works[0]
    assert work["status"] == "resolved", work
    assert work["chosen"]["source"] in ("openreview", "conferences"), work
    assert all(not (v.get("ids") or {}).get("doi", "").startswith("10.3390/") for v in work["versions"]), work


def test_the_same_title_by_the_headings_person_is_the_journal_article(project):
    works = _sync_under(project, "Lena Hoffmann (TU Berlin)")["works_detail"]
    assert len(works) == 1, works
    work = works[0]
    assert work["status"] == "resolved", work
    assert work["chosen"]["source"] == "crossref", work


def test_a_same_title_paper_by_others_is_refused_under_a_person_heading(project):
    data = _sync_under(project, "Sven Kowalski (ETH Zurich)")
    # neither record lists him: no entry is made, the title waits (pending) for details
    assert data["counts"]["resolved"] == 0 and not data["works_detail"], data
    assert [p["title"] for p in data["pending"]] == [TITLE], data


def test_a_non_person_heading_gives_no_person(project):
    (project / "notes" / "days.txt").write_text(
        f"• Optimization (Day 2)\n  • {TITLE}\n    • まとめ: 研究。\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(project), "extract", "--json", str(project / "notes" / "days.txt")])
    assert result.exit_code == 0, result.output
    assert all("heading_people" not in m for m in json.loads(result.output)["mentions"])
