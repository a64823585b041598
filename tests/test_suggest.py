"""``citekit suggest`` on a planted citation graph served by the loopback Semantic Scholar fake."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.api.suggesting import suggest
from tests.fakeservices import fake_services  # noqa: F401  (fixture)
from tests.fakeservices.graph import FakeGraph, fake_graph, write_project  # noqa: F401  (fixture)
from tests.helpers_cli import run

YEAR = 2026


@pytest.fixture
def project(tmp_path: Path, fake_graph: FakeGraph, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: F811
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    return write_project(tmp_path / "proj", fake_graph.world)


def test_planted_works_come_first_and_nothing_held_is_suggested(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    world = fake_graph.world
    report = suggest(project, tags=["muon"], limit=20, this_year=YEAR)
    top = [s.paper.id for s in report.suggestions]
    assert sum(pid in world.planted for pid in top[:10]) / 10 >= 0.8  # precision@10
    assert set(world.planted[:5]) <= set(top)  # the five strongest planted works are all found
    library_dois = {row["doi"] for row in world.library.values()} - {None}
    library_arxiv = {row["arxiv"] for row in world.library.values()} - {None}
    for s in report.suggestions:
        assert s.paper.doi not in library_dois and s.paper.arxiv not in library_arxiv  # no version of a held paper
        assert s.paper.is_paper  # the dataset everyone cites never shows
    assert report.unknown == ["unknown0"]
    # classics are flagged and do not bury the specific works
    classics = [s for s in report.suggestions if s.paper.id in world.classics]
    assert classics and all(s.classic and "classic" in s.reason for s in classics)
    assert all(s.rank > 10 for s in classics)


def test_every_reason_count_is_exact(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    world = fake_graph.world
    report = suggest(project, tags=["muon"], limit=20, this_year=YEAR)
    node_of = {k: row["node"] for k, row in world.library.items()}
    for s in report.suggestions:
        truly_cited_by = sorted(k for k, nid in node_of.items() if nid and "muon" in world.library[k]["tags"]
                                and s.paper.id in world.nodes[nid].refs)
        truly_cites = sorted(k for k, nid in node_of.items() if nid and "muon" in world.library[k]["tags"]
                             and nid in world.nodes[s.paper.id].refs)
        assert sorted(s.cited_by) == truly_cited_by and sorted(s.cites) == truly_cites
        if s.cited_by:
            assert f"cited by {len(s.cited_by)} of your 31 `muon` papers" in s.reason
        if s.cites:
            assert f"cites {len(s.cites)} of" in s.reason


def test_cold_run_is_batched_and_a_warm_run_asks_nothing(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    report = suggest(project, tags=["muon"], this_year=YEAR)
    assert report.requests == fake_graph.requests() <= len(report.seeds) // 25 + 3
    fake_graph.clear()
    again = suggest(project, tags=["muon"], this_year=YEAR)
    assert fake_graph.requests() == 0 and again.requests == 0
    assert [s.to_json() for s in again.suggestions] == [s.to_json() for s in report.suggestions]


def test_mine_ranks_what_the_papers_it_cites_co_cite(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    world = fake_graph.world
    cited = ["lib3", "lib7", "lib11", "lib19"]
    (project / "main.tex").write_text("\\section{Intro}\nAs shown \\cite{lib3,lib7} and \\citep{lib11}; see "
                                      "\\citet{lib19}.\n", encoding="utf-8")
    report = suggest(project, mine="main.tex", limit=10, this_year=YEAR)
    assert sorted(report.seeds) == sorted(cited)
    best = report.suggestions[0]
    counts = {}
    for key in cited:
        for ref in world.nodes[world.library[key]["node"]].refs:
            counts[ref] = counts.get(ref, 0) + 1
    most = max(c for ref, c in counts.items() if ref not in {r["node"] for r in world.library.values()}
               and world.nodes[ref].kinds != ["Dataset"] and ref not in world.held)
    assert len(best.cited_by) == most
    assert "library papers your paper cites" in best.reason


def test_dismissed_suggestions_never_come_back(project: Path) -> None:
    first = suggest(project, tags=["muon"], limit=5, this_year=YEAR)
    gone = first.suggestions[1].paper.id
    report = suggest(project, tags=["muon"], limit=5, dismiss=[2], this_year=YEAR)
    assert report.dismissed and report.dismissed[0]["title"] == first.suggestions[1].paper.title
    assert gone not in [s.paper.id for s in report.suggestions]
    assert gone not in [s.paper.id for s in suggest(project, tags=["muon"], limit=20, this_year=YEAR).suggestions]


def test_add_records_the_chosen_ones_in_the_inbox_with_the_tag_and_the_reason(
        project: Path, fake_services, fake_graph: FakeGraph) -> None:  # noqa: F811
    first = suggest(project, tags=["muon"], limit=5, this_year=YEAR)
    report = suggest(project, tags=["muon"], limit=5, add=[1, 3], this_year=YEAR)
    inbox = (project / "notes" / "inbox.md").read_text(encoding="utf-8")
    for s in (first.suggestions[0], first.suggestions[2]):
        assert f"https://doi.org/{s.paper.doi}" in inbox or f"https://arxiv.org/abs/{s.paper.arxiv}" in inbox
    assert inbox.count("<!-- suggested-by: citekit suggest (cited by") == 2 and inbox.count("#muon") == 2
    assert [a["rank"] for a in report.added] == [1, 3] and all(a["where"] for a in report.added)
    # the added papers flow into the library (from the notes) and are never suggested again
    after = suggest(project, tags=["muon"], limit=20, this_year=YEAR)
    added = {first.suggestions[0].paper.id, first.suggestions[2].paper.id}
    assert not added & {s.paper.id for s in after.suggestions}


def test_cli_json_and_text(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    result = run(project, "suggest", "--tag", "muon", "--limit", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data["suggestions"]) == 3 and data["suggestions"][0]["rank"] == 1
    assert {"title", "year", "venue", "ids", "reason", "cited_by", "cites", "classic"} <= set(data["suggestions"][0])
    text = run(project, "suggest", "--tag", "muon", "--limit", "3")
    assert text.exit_code == 0 and "  1. Planted" in text.stdout and "why: cited by" in text.stdout
    assert run(project, "suggest", "--tag", "muon", "--mine", "x").exit_code == 2
    assert run(project, "suggest", "--tag", "no-such-tag").exit_code == 1


def test_unreachable_service_uses_the_cache_or_says_why(project: Path, fake_graph: FakeGraph,  # noqa: F811
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEKIT_S2_URL", "http://127.0.0.1:9/s2")  # nothing listens there
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    result = run(project, "suggest", "--tag", "muon")
    assert result.exit_code == 1 and "could not be reached: connection refused" in result.stderr
    monkeypatch.setenv("CITEKIT_S2_URL", fake_graph.env()["CITEKIT_S2_URL"])
    warm = suggest(project, tags=["muon"], this_year=YEAR)
    monkeypatch.setenv("CITEKIT_S2_URL", "http://127.0.0.1:9/s2")
    cached = suggest(project, tags=["muon"], this_year=YEAR)
    assert [s.paper.id for s in cached.suggestions] == [s.paper.id for s in warm.suggestions]


def test_an_added_suggestion_flows_into_the_library_and_related_work(
        tmp_path: Path, fake_services, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from citekit.api.related import related_work
    from citekit.library.store import Library
    from tests.fakeservices.graph import planted

    world = planted()
    top = world.nodes[world.planted[0]]
    top.doi, top.title = "10.3390/math14061234", "Riemannian Dueling Optimization"  # a DOI the Crossref fake knows
    with FakeGraph(world) as graph_fake:
        for k, v in graph_fake.env().items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
        root = write_project(tmp_path / "proj", world)
        before = related_work(root, tags=("muon",)).text
        assert "iemannian" not in before
        first = suggest(root, tags=["muon"], limit=5, this_year=YEAR)
        assert first.suggestions[0].paper.doi == "10.3390/math14061234"
        report = suggest(root, tags=["muon"], limit=5, add=[1], this_year=YEAR)
        key = report.added[0]["key"]
        entry = Library.load(root / "refs").get(key)
        assert entry is not None and entry.ids.doi == "10.3390/math14061234" and "muon" in entry.tags
        assert f"\\citet{{{key}}}" in related_work(root, tags=("muon",)).text
        assert "10.3390/math14061234" not in {s.paper.doi for s in suggest(root, tags=["muon"], this_year=YEAR).suggestions}


def test_mine_reads_a_markdown_draft_and_an_aux(project: Path) -> None:
    from citekit.api.suggesting import cited_keys

    (project / "draft.md").write_text("As [@lib3; @lib7, p. 4] show, and @lib11 says. Mail me@example.org.\n",
                                      encoding="utf-8")
    assert cited_keys(project / "draft.md")[:3] == ["lib3", "lib7", "lib11"]
    (project / "main.aux").write_text("\\citation{lib3,lib7}\n\\citation{lib19}\n", encoding="utf-8")
    report = suggest(project, mine="main.aux", limit=5, this_year=YEAR)
    assert sorted(report.seeds) == ["lib19", "lib3", "lib7"] and report.suggestions


def test_the_service_address_can_come_from_citekit_yaml(project: Path, fake_graph: FakeGraph,  # noqa: F811
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    url = fake_graph.env()["CITEKIT_S2_URL"]
    monkeypatch.delenv("CITEKIT_S2_URL")
    (project / "citekit.yaml").write_text(f"sources:\n  s2:\n    url: {url}\n", encoding="utf-8")
    assert suggest(project, tags=["muon"], limit=3, this_year=YEAR).suggestions
    assert fake_graph.requests("s2") > 0


def test_seeds_without_ids_are_placed_by_title_only_when_certain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fakeservices.graph import planted

    world = planted()
    world.library["lib4"].update(doi=None, arxiv=None)  # same title, same author: placed
    world.library["lib5"].update(doi=None, arxiv=None)
    world.nodes[world.library["lib5"]["node"]].authors = ["Someone Else"]  # same title, no author in common: not
    with FakeGraph(world) as fake:
        for k, v in fake.env().items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
        root = write_project(tmp_path / "proj", world)
        report = suggest(root, tags=["muon"], this_year=YEAR)
        assert report.by_title == ["lib4"] and report.no_ids == ["lib5"]
        assert any("lib4" in s.cited_by for s in report.suggestions)
        assert not any("lib5" in s.cited_by + s.cites for s in report.suggestions)
        assert fake.counts()["GET /graph/v1/paper/search/match"] == 2
        fake.clear()
        suggest(root, tags=["muon"], this_year=YEAR)
        assert fake.requests() == 0


def test_offline_sends_nothing_and_uses_the_cache(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    online = suggest(project, tags=["muon"], this_year=YEAR)
    fake_graph.clear()
    offline = suggest(project, tags=["muon"], this_year=YEAR, offline=True)
    assert fake_graph.requests() == 0 and offline.from_cache_only
    assert [s.paper.id for s in offline.suggestions] == [s.paper.id for s in online.suggestions]
    empty = suggest(project, tags=["vision"], this_year=YEAR, offline=True)
    assert fake_graph.requests() == 0 and not empty.suggestions and "--offline" in empty.problem


def test_a_busy_shared_pool_is_waited_out_and_named(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    fake_graph.s2.refuse, fake_graph.s2.retry_after = 1, "0"
    report = suggest(project, tags=["muon"], this_year=YEAR)
    assert report.suggestions and report.retries == 1
    assert any("429" in n and "CITEKIT_S2_API_KEY" in n for n in report.notices)


def test_offline_with_nothing_cached_says_the_service_was_not_asked(project: Path,
                                                                      fake_graph: FakeGraph) -> None:  # noqa: F811
    result = run(project, "suggest", "--tag", "muon", "--offline")
    assert result.exit_code == 1 and fake_graph.requests() == 0
    assert "knows none" not in result.stderr, result.stderr  # it was never asked
    assert "Semantic Scholar was not asked (--offline)" in result.stderr, result.stderr
    assert "without --offline" in result.stderr, result.stderr


def test_an_unreachable_service_is_named_first_not_the_seeds(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeds without ids are matched by title; when that first request finds no service,
    suggest and graph say so plainly, and never that the service knows none of the papers."""
    from tests.fakeservices.graph import planted

    world = planted()
    for row in world.library.values():
        row.update(doi=None, arxiv=None)
    root = write_project(tmp_path / "proj", world)
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CITEKIT_S2_URL", "http://127.0.0.1:9/s2")  # nothing listens there
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    result = run(root, "suggest", "--tag", "muon")
    assert result.exit_code == 1 and "knows none" not in result.stderr, result.stderr
    assert result.stderr.startswith("citekit: Semantic Scholar could not be reached: connection refused"), result.stderr
    assert "check the network" in result.stderr
    drawn = run(root, "graph", "--tag", "muon", "-o", str(tmp_path / "g.svg"))
    lines = drawn.stderr.splitlines()
    assert "knows none" not in drawn.stderr and "429" not in drawn.stderr, drawn.stderr
    assert lines[0].startswith("note: Semantic Scholar could not be reached: connection refused"), drawn.stderr
    assert sum("connection refused" in line for line in lines) == 1, drawn.stderr  # said once
    report = json.loads(run(root, "suggest", "--tag", "muon", "--json").stdout)
    assert report["unreachable"] == "connection refused" and "could not be reached" in report["problem"]
