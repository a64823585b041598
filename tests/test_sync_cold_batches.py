"""A cold sync's requests, through `citekit sync` against the loopback fakes: the arXiv batch
carries the by-author queries of an earlier title as ``au:`` clauses, goes out while the
works are still asking dblp, and gives each mention only what its own clauses found; a
pasted abstract that its venue's own list (abstracts included) answered is not searched
again in that venue's OpenReview group."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main

REPO = Path(__file__).resolve().parents[1]
TRIP = (REPO / "notes" / "notes-icml2026-trip-report.txt").read_text(encoding="utf-8").splitlines()
#: a title no service knows, by the authors of Gluon's renamed arXiv record
ZEBRA = "Bridging Theory and Practice of Song Learning in Zebra Finches"


def _block(start: str, lines: int) -> list[str]:
    """``lines`` lines of the bundled trip report from the one starting with ``start``."""
    at = next(i for i, line in enumerate(TRIP) if line.startswith(start))
    return TRIP[at:at + lines]


def _project(tmp_path: Path, text: str, name: str = "people.txt") -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True, exist_ok=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (root / "notes" / name).write_text(text, encoding="utf-8")
    return root


def _sync(root: Path) -> dict:
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


@pytest.fixture()
def people(tmp_path, monkeypatch):
    """Three people headings of the bundled trip report (Gluon under its earlier title,
    two preprints) and a line no service knows, by Gluon's authors."""
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    lines = [*_block("• Egor Shulgin", 1), *_block("  • From Muon to Gluon", 2), *_block("• Xi Wang", 4),
             *_block("• Benjamin Thérien", 4), "", f"• {ZEBRA} (Artem Riabinin, Egor Shulgin, Kaja Gruntkowska, Peter Richtárik)", ""]
    return _project(tmp_path, "\n".join(lines))


def _arxiv_searches(fake) -> list[str]:
    return [params["search_query"] for _t, _path, params in fake.log("arxiv") if "search_query" in params]


def test_earlier_title_authors_ride_in_the_one_arxiv_batch_sent_while_dblp_is_asked(people, fake_services,
                                                                                   monkeypatch):
    fake_services.latency = 0.05
    fake_services.real_limits()  # dblp one a second, arXiv 3 s, OpenReview 20 a minute: as shipped
    data = _sync(people)
    searches = _arxiv_searches(fake_services)
    # one request for every title and for the by-author query of the earlier title
    assert len(searches) == 1, searches
    assert fake_services.requests("arxiv") == 1
    clauses = re.findall(r'(ti|abs|au):"([^"]*)"', searches[0])
    assert {c for c, _ in clauses} == {"ti", "au"}, clauses
    assert sum(1 for c, _ in clauses if c == "ti") == 4
    assert {v for c, v in clauses if c == "au"} == {"Riabinin", "Shulgin", "Gruntkowska"}
    assert fake_services.counts("arxiv")["GET /"] == 1  # no by-author request of its own
    # the batch went out while the works were still asking dblp (one a second), not after
    arxiv_at = next(t for t, _p, params in fake_services.log("arxiv") if "search_query" in params)
    dblp_at = [t for t, _p, _params in fake_services.log("dblp")]
    assert len(dblp_at) >= 3 and arxiv_at < max(dblp_at), (arxiv_at, dblp_at)
    # each answer went to its own mention
    chosen = {(w["chosen"] or {}).get("id"): w for w in data["works_detail"]}
    assert "Depth scaling" in chosen["2606.04417"]["title"] and "MuLoCo" in chosen["2505.23725"]["title"]
    gluon = next(w for w in data["works_detail"] if "Gluon" in w["title"])
    assert gluon["status"] == "resolved" and gluon["chosen"]["id"] in ("Hk2GluonLmo", "2505.13416"), gluon
    zebra = next(w for w in data["works_detail"] if ZEBRA in w["title"])
    assert zebra["status"] == "notes-only", zebra
    assert fake_services.refused("openreview") == 0


def test_what_only_the_author_clause_found_is_no_title_s_answer(people, fake_services, monkeypatch, tmp_path):
    """The unknown title by Gluon's authors shared the batch with the by-author clause that
    brought Gluon's renamed preprint: that entry is stored for the by-author query, never
    as the title's answer. A later project asking arXiv alone about the same line (all of
    it stored: no request) finds nothing, not the preprint as its closest record."""
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    _sync(people)
    assert any('au:"Riabinin"' in q for q in _arxiv_searches(fake_services))
    fake_services.clear()
    alone = _project(tmp_path / "alone", f"• {ZEBRA} (Artem Riabinin, Egor Shulgin, Kaja Gruntkowska, Peter Richtárik)\n")
    (alone / "citekit.yaml").write_text("sources:\n  enabled: [arxiv]\n", encoding="utf-8")
    data = _sync(alone)
    assert fake_services.requests() == 0
    zebra = data["works_detail"][0]
    assert zebra["status"] == "notes-only", zebra
    assert "Gluon" not in zebra["reason"], zebra["reason"]
    assert fake_services.refused("openreview") == 0


def test_a_second_sync_asks_nothing_the_author_clause_answer_is_stored(people, fake_services, monkeypatch):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    _sync(people)
    before = fake_services.requests()
    again = _sync(people)
    assert again["requests"] == 0 and fake_services.requests() == before


def test_an_abstract_its_venue_list_answered_is_not_searched_in_the_venue_group(tmp_path, fake_services,
                                                                              monkeypatch):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    bundled = (REPO / "notes" / "notes-icml2026-abstracts.txt").read_text(encoding="utf-8").split("\n\n")
    unknown = next(p for p in bundled if p.startswith("High-fidelity vehicle aerodynamics"))
    root = _project(tmp_path, f"ICML 2026 Papers\n\n{unknown}\n", "abstracts.txt")
    data = _sync(root)
    assert data["counts"]["resolved"] == 0 and len(data["pending"]) == 1, data  # left pending
    assert fake_services.requests("conferences") == 2  # the ICML 2026 list and its abstracts
    assert fake_services.counts("openreview")["GET /notes/search"] == 0
    assert any("abs:" in q for q in _arxiv_searches(fake_services))  # the preprint is still looked for
    # the same abstract under a venue-year whose list is not published: OpenReview's group is asked
    fake_services.clear()
    (root / "notes" / "abstracts.txt").write_text(f"ICML 2019 Papers\n\n{unknown}\n", encoding="utf-8")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache2"))
    _sync(root)
    searches = [params for _t, path, params in fake_services.log("openreview") if path == "GET /notes/search"]
    assert len(searches) == 1 and searches[0]["group"] == "ICML.cc/2019/Conference", searches
