"""Semantic Scholar's graph source against its loopback fake, in the recorded shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.sources import build_client, open_cache
from citekit.sources.base import SourceError
from citekit.sources.semanticscholar import SemanticScholarGraph, paper_from, s2_id
from citekit.sources.settings import SourceSettings
from tests.fakeservices.graph import FakeGraph, GraphWorld, Node, planted

SHAPES = Path(__file__).resolve().parent / "fixtures" / "api" / "semanticscholar"


def _source(fake: FakeGraph, tmp_path: Path, **env: str) -> SemanticScholarGraph:
    settings = SourceSettings.from_env(None, tmp_path, env={**fake.env(), "CITEKIT_CACHE_DIR": str(tmp_path / "c"),
                                                              **env})
    settings.retries = 2
    client = build_client(settings)
    client.sleep = lambda s: None  # waits are asserted, not sat through
    return SemanticScholarGraph(client, open_cache(settings), settings)


def test_batch_maps_keys_to_papers_with_neighbours_and_null_for_unknown(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        lib = fake.world.library
        ids = {k: ("doi", v["doi"]) for k, v in lib.items()}
        got = src.seeds(ids)
        assert fake.counts() == {"POST /graph/v1/paper/batch": 2}  # 41 seeds, 25 a request
        assert got["unknown0"] is None
        first = got["lib0"]
        assert first is not None and first.id == lib["lib0"]["node"]
        assert set(first.references or []) == set(fake.world.nodes[first.id].refs)
        # citing papers with a null paperId are skipped, not kept as "None"
        assert None not in (first.citations or []) and "None" not in (first.citations or [])
        fake.clear()
        assert src.seeds(ids)["lib0"] == first  # cached, one row per paper
        assert fake.requests() == 0


def test_batch_requests_at_most_500_ids_each(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        ids = [f"DOI:10.5555/none.{i}" for i in range(1201)]
        assert all(v is None for v in src.papers(ids).values())
        assert fake.counts() == {"POST /graph/v1/paper/batch": 3}


def test_a_reference_list_cut_at_1000_is_read_on_page_by_page(tmp_path: Path) -> None:
    world = GraphWorld()
    big = Node(s2="a" * 40, title="A survey citing everything", year=2024, doi="10.5555/survey")
    world.nodes[big.s2] = big
    for i in range(2345):
        n = Node(s2="%040x" % (i + 1), title=f"cited {i}", year=2000)
        world.nodes[n.s2] = n
        big.refs.append(n.s2)
    with FakeGraph(world) as fake:
        got = _source(fake, tmp_path).seeds({"survey": ("doi", "10.5555/survey")})["survey"]
        assert got is not None and len(got.references or []) == 2345
        assert fake.counts()[f"GET /graph/v1/paper/{big.s2}/references"] == 3  # 1000 + 1000 + 345, no next on the last


def test_429_backs_off_then_succeeds_and_a_lasting_429_is_said_plainly(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        fake.s2.refuse, fake.s2.retry_after = 1, "1"
        assert src.papers(["DOI:10.5555/lib.1"])["DOI:10.5555/lib.1"] is not None
        assert src.client.stats.retries["semanticscholar"] == 1
        fake.s2.refuse = 10
        with pytest.raises(SourceError) as err:
            src.papers(["DOI:10.5555/lib.2"])
        assert "shared pool" in str(err.value) and "CITEKIT_S2_API_KEY" in str(err.value)


def test_the_api_key_goes_in_the_header(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path, CITEKIT_S2_API_KEY="k-123")
        src.papers(["DOI:10.5555/lib.1"])
        assert fake.s2.keys == ["k-123"]


def test_recommendations_post_positive_and_negative_and_are_cached(tmp_path: Path) -> None:
    with FakeGraph() as fake:
        src = _source(fake, tmp_path)
        seeds = [fake.world.library[f"lib{i}"]["node"] for i in range(10)]
        recs = src.recommend(seeds, [], 20)
        assert recs and all(r.title for r in recs)
        assert src.recommend([], seeds, 20) == []  # no positive ids: not even asked (the service says 400)
        fake.clear()
        assert src.recommend(seeds, [], 20) == recs and fake.requests() == 0


def test_ids_in_the_services_forms() -> None:
    assert s2_id("doi", "https://doi.org/10.1145/ABC") == "DOI:10.1145/abc"
    assert s2_id("arxiv", "arXiv:2106.09685v2") == "ARXIV:2106.09685"
    assert s2_id("openreview", "x") is None


def test_recorded_shapes_read() -> None:
    batch = json.loads((SHAPES / "s2_paper_batch_post.json").read_text())["response"]["body"]
    papers = [paper_from(p) if p else None for p in batch]
    assert papers[0] is None and papers[1] is not None
    assert papers[1].doi == "10.2139/ssrn.288970" and papers[1].year == 2001 and papers[1].cited_by == 10670
    full = json.loads((SHAPES / "s2_paper_all_fields.json").read_text())["paper"]
    turing = paper_from(full)
    assert turing is not None and turing.references and turing.citations is not None
    assert turing.venue == "The Philosophy of Artificial Intelligence"


def test_seeds_go_25_a_request_and_a_too_large_answer_is_asked_in_halves(tmp_path: Path) -> None:
    world = planted()
    with FakeGraph(world) as fake:
        ids = {k: ("doi", v["doi"]) for k, v in world.library.items()}  # 41 seeds
        _source(fake, tmp_path).seeds(ids)
        assert fake.counts() == {"POST /graph/v1/paper/batch": 2}
        world.s2_max_bytes = 4000  # a few seeds' lists at most
        fake.clear()
        got = _source(fake, tmp_path / "again").seeds(ids)
        assert all(got[k] is not None for k in ids if k != "unknown0")
        assert fake.counts()["POST /graph/v1/paper/batch"] > 2
