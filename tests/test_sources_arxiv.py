"""arXiv: batched id lookups, versioned ids, the error entry, title search."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import responses

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources.arxiv import ArxivSource
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.settings import SourceSettings

API = "https://export.arxiv.org/api/query"
ATOM = "application/atom+xml; charset=utf-8"


@pytest.fixture
def sleeps():
    return []


def make_source(tmp_path, sleeps, interval: float = 0.0) -> ArxivSource:
    settings = SourceSettings(cache_dir=tmp_path)
    client = HttpClient(retries=2, sleep=sleeps.append, policies={"arxiv": HostPolicy(interval, 1)})
    return ArxivSource(client, LookupCache(settings.cache_path), settings)


def params(call) -> dict[str, list[str]]:
    return parse_qs(urlparse(call.request.url).query)


@responses.activate
def test_lookup_by_id_reads_doi_journal_ref_and_comment(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/id_2202.12139.xml"), content_type=ATOM)
    cand = make_source(tmp_path, sleeps).lookup("arxiv", "arXiv:2202.12139")
    assert params(responses.calls[0]) == {"id_list": ["2202.12139"], "max_results": ["1"]}
    assert (cand.source, cand.id, cand.stage, cand.entry_type) == ("arxiv", "2202.12139", "preprint", "misc")
    assert cand.title == "Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques"
    assert cand.abstract.startswith("Deep Learning (DL) has revolutionized the capabilities of vision-based systems (VBS)")
    assert [p.family for p in cand.authors] == ["Ahuja", "Gotlieb", "Spieker"]
    assert cand.authors[0].given == "Mohit Kumar"
    assert cand.year == 2022 and cand.extra["month"] == "2"
    assert cand.ids.arxiv == "2202.12139" and cand.ids.doi == "10.1109/icstw55395.2022.00035"
    assert cand.extra["journal_ref"].startswith("Artificial Intelligence in Software Testing @ 2022")
    assert cand.extra["comment"].endswith("@ ICST 2022")
    assert cand.extra["version"] == "1" and cand.extra["primaryclass"] == "cs.SE"
    assert cand.url == "https://arxiv.org/abs/2202.12139"


@responses.activate
def test_many_ids_in_one_request_versions_dropped_then_cached(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/batch_versioned.xml"), content_type=ATOM)
    src = make_source(tmp_path, sleeps)
    found = src.lookup_many(["https://arxiv.org/abs/2605.31324v2", "2603.01234", "not-an-id"])
    assert len(responses.calls) == 1
    assert params(responses.calls[0])["id_list"] == ["2603.01234,2605.31324"]
    warmup = found["2605.31324"]
    assert warmup.title == "Why Do We Need Warm-up? A Theoretical Perspective under $(L_0, L_1)$-Smoothness"
    assert warmup.extra["version"] == "2" and warmup.ids.arxiv == "2605.31324"
    assert warmup.extra["comment"] == "ICML 2026; 31 pages, 6 figures"
    assert warmup.year == 2026
    assert found["2603.01234"].extra["version"] == "3"
    assert found["not-an-id"] is None
    # each id is cached on its own: a later single lookup asks nothing
    again = make_source(tmp_path, sleeps)
    assert again.lookup("arxiv", "2603.01234").title.startswith("Mitigating Staleness")
    assert len(responses.calls) == 1


@responses.activate
def test_only_uncached_ids_are_requested(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/id_2202.12139.xml"), content_type=ATOM)
    responses.get(API, body=api_fixture("arxiv/batch_versioned.xml"), content_type=ATOM)
    src = make_source(tmp_path, sleeps)
    src.lookup("arxiv", "2202.12139")
    src.lookup_many(["2202.12139", "2605.31324", "2603.01234"])
    assert params(responses.calls[1])["id_list"] == ["2603.01234,2605.31324"]


@pytest.mark.parametrize("status", [400, 200])
def test_error_entry_is_an_error_whatever_the_status(tmp_path, sleeps, api_fixture, status):
    with responses.RequestsMock() as rsps:
        rsps.get(API, body=api_fixture("arxiv/error_incorrect_id.xml"), status=status, content_type=ATOM)
        src = make_source(tmp_path, sleeps)
        with pytest.raises(SourceError, match="incorrect id format"):
            src.search(Mention(kind="titled", location=Location("n", 1), title="abc"))
        assert len(src.cache) == 0


@responses.activate
def test_unknown_id_is_none_and_cached(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/empty.xml"), content_type=ATOM)
    src = make_source(tmp_path, sleeps)
    assert src.lookup("arxiv", "2699.99999") is None
    assert src.lookup("arxiv", "2699.99999") is None
    assert len(responses.calls) == 1


@responses.activate
def test_title_search_is_a_phrase_in_the_title_field(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/batch_versioned.xml"), content_type=ATOM)
    found = make_source(tmp_path, sleeps).search(
        Mention(kind="titled", location=Location("n", 1), title="Why Do We Need Warm-up? A Theoretical Perspective"))
    q = params(responses.calls[0])
    assert q["search_query"] == ['ti:"Why Do We Need Warm-up A Theoretical Perspective"']
    assert q["max_results"] == ["5"]
    assert [c.id for c in found] == ["2605.31324", "2603.01234"]


@responses.activate
def test_arxiv_doi_is_looked_up_as_an_id(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/id_2202.12139.xml"), content_type=ATOM)
    src = make_source(tmp_path, sleeps)
    assert src.lookup("doi", "https://doi.org/10.48550/arXiv.2202.12139").id == "2202.12139"
    assert src.lookup("doi", "10.1371/journal.pone.0033693") is None
    assert len(responses.calls) == 1


@responses.activate
def test_three_seconds_between_requests(tmp_path, sleeps, api_fixture):
    responses.get(API, body=api_fixture("arxiv/empty.xml"), content_type=ATOM)
    src = make_source(tmp_path, sleeps, interval=3.0)
    src.lookup("arxiv", "2699.99991")
    src.lookup("arxiv", "2699.99992")
    assert len(responses.calls) == 2
    assert len(sleeps) == 1 and 0 < sleeps[0] <= 3.0
