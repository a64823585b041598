"""OpenAlex's graph source against its loopback fake, in the recorded 2026 shapes, and in ``suggest``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.api.suggesting import suggest
from citekit.sources import build_client, open_cache
from citekit.sources.base import SourceError
from citekit.sources.openalex import OpenAlexGraph, as_doi, short_id, work_from
from citekit.sources.settings import SourceSettings
from tests.fakeservices.graph import FakeGraph, write_project

SHAPES = Path(__file__).resolve().parent / "fixtures" / "api" / "openalex"


def _source(fake: FakeGraph, tmp_path: Path, **env: str) -> OpenAlexGraph:
    settings = SourceSettings.from_env(None, tmp_path, env={**fake.env(), "CITEKIT_CACHE_DIR": str(tmp_path / "c"),
                                                              **env})
    client = build_client(settings)
    client.sleep = lambda s: None
    return OpenAlexGraph(client, open_cache(settings), settings)


def test_recorded_shapes_read() -> None:
    work = json.loads((SHAPES / "openalex_work_singleton_2026.json").read_text())["response"]
    p = work_from(work)
    assert p is not None and p.id == "W2741809807" and p.doi == "10.7717/peerj.4375"
    assert p.year == 2018 and p.cited_by == 1149 and p.venue == "PeerJ" and p.references
    page = json.loads((SHAPES / "openalex_works_list_2024.json").read_text())["response"]
    works = [work_from(r) for r in page["results"]]
    assert works and all(w is not None and w.id.startswith("W") for w in works)
    assert work_from({**work, "referenced_works": []}).references is None  # unknown, not "cites nothing"


def test_ids() -> None:
    assert short_id("https://openalex.org/W123") == "W123" and short_id("https://openalex.org/A1") is None
    assert as_doi("arxiv", "2401.10000v3") == "10.48550/arxiv.2401.10000"


def test_seeds_are_batched_and_cached_with_their_citers(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        ids = {k: ("doi", v["doi"]) for k, v in fake.world.library.items()}
        got = src.seeds(ids)
        assert fake.counts("openalex") == {"GET /works": 2}  # one doi: batch, one cites: batch
        assert got["unknown0"] is None and got["lib0"] is not None
        node = fake.world.nodes[fake.world.library["lib0"]["node"]]
        assert len(got["lib0"].references or []) == len(node.refs)
        assert sorted(got["lib0"].citations or []) == sorted(fake.world.nodes[c].openalex
                                                              for c in fake.world.citers(node.s2))
        adam = src.papers([fake.world.nodes[fake.world.classics[0]].openalex])
        assert next(iter(adam.values())).references is None  # an empty referenced_works stays unknown
        fake.clear()
        src.seeds(ids)
        assert fake.requests("openalex") == 0


def test_403_per_second_limit_is_waited_out_then_said_plainly(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        fake.openalex.refuse = 1
        assert src.papers([fake.world.nodes[fake.world.planted[0]].openalex])
        fake.openalex.refuse = 10
        with pytest.raises(SourceError) as err:
            src.papers([fake.world.nodes[fake.world.planted[1]].openalex])
        assert "403" in str(err.value) and "CITEKIT_OPENALEX_API_KEY" in str(err.value)


def test_the_key_is_sent_when_set(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        fake.openalex.require_key = True
        with pytest.raises(SourceError):
            _source(fake, tmp_path).papers(["W1"])
        src = _source(fake, tmp_path / "k", CITEKIT_OPENALEX_API_KEY="oa-key")
        src.papers([fake.world.nodes[fake.world.planted[0]].openalex])
        assert fake.openalex.keys[-1] == "oa-key"


def test_suggest_with_both_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeGraph() as fake:
        for k, v in fake.env().items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setenv("CITEKIT_OPENALEX_API_KEY", "oa-key")
        root = write_project(tmp_path / "proj", fake.world)
        report = suggest(root, tags=["muon"], limit=20, this_year=2026)
        assert report.sources == ["semanticscholar", "openalex"]
        budget = len(report.seeds) // 25 + 3
        assert all(0 < n <= budget for n in report.requests_by_source.values()), report.requests_by_source
        top = [s.paper.doi or s.paper.arxiv for s in report.suggestions[:10]]
        planted = {fake.world.nodes[p].doi or fake.world.nodes[p].arxiv for p in fake.world.planted}
        assert sum(t in planted for t in top) >= 8
        both = [s for s in report.suggestions if len(s.sources) == 2]
        assert both  # the same works from both services became one suggestion each
        assert len({s.paper.doi or s.paper.arxiv for s in report.suggestions}) == len(report.suggestions)
        only = suggest(root, tags=["muon"], limit=20, this_year=2026, sources=["openalex"])
        assert sum((s.paper.doi or s.paper.arxiv) in planted for s in only.suggestions[:10]) >= 8
        fake.clear()
        suggest(root, tags=["muon"], limit=20, this_year=2026)
        assert fake.requests() == 0


def test_the_fakes_answer_in_the_recorded_shapes() -> None:
    """Every key a fake answer holds is one the recorded answers hold, with the same envelope."""
    from tests.fakeservices.graph import _openalex_answer, _s2_answer, _State, planted

    world = planted()
    s2_dir = SHAPES.parent / "semanticscholar"
    recorded_paper = json.loads((s2_dir / "s2_paper_all_fields.json").read_text())["paper"]
    fields = {"fields": "paperId,title,year,venue,externalIds,citationCount,publicationTypes,journal,referenceCount,"
                        "authors,references.paperId,citations.paperId"}
    status, batch = _s2_answer(world, "POST", "/graph/v1/paper/batch", fields,
                               {"ids": ["DOI:10.5555/lib.1", "DOI:10.5555/none"]})
    assert status == 200 and batch[1] is None  # null for an unknown id, as recorded
    assert set(batch[0]) <= set(recorded_paper)
    node = world.library["lib1"]["node"]
    status, page = _s2_answer(world, "GET", f"/graph/v1/paper/{node}/references", {"limit": "2"}, None)
    recorded_page = json.loads((s2_dir / "s2_paper_references_page.json").read_text())["response"]["body"]
    assert set(page) == set(recorded_page) and set(page["data"][0]) == set(recorded_page["data"][0])
    recorded_work = json.loads((SHAPES / "openalex_work_singleton_2026.json").read_text())["response"]
    recorded_list = json.loads((SHAPES / "openalex_works_list_2024.json").read_text())["response"]
    status, listing = _openalex_answer(world, _State(), "/works", {"filter": "doi:10.5555/lib.1", "per-page": "100"})
    assert status == 200 and set(listing["meta"]) == set(recorded_list["meta"])
    assert set(listing["results"][0]) <= set(recorded_work) | {"referenced_works_count"}
