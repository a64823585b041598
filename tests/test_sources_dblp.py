"""dblp: search JSON quirks, CoRR records as preprints, records by key."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import responses

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.dblp import DblpSource
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.settings import SourceSettings

DBLP = "https://dblp.org"


@pytest.fixture
def sleeps():
    return []


def make_source(tmp_path, sleeps, url: str = DBLP) -> DblpSource:
    settings = SourceSettings(urls={"dblp": url}, cache_dir=tmp_path)
    client = HttpClient(retries=2, sleep=sleeps.append, policies={"dblp": HostPolicy(0.0, 1)})
    return DblpSource(client, LookupCache(settings.cache_path), settings)


def titled(title: str) -> Mention:
    return Mention(kind="titled", location=Location("notes/trip.txt", 20), title=title)


@responses.activate
def test_conference_record_and_its_corr_twin(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/search/publ/api", body=api_fixture("dblp/search_icml.json"),
                  content_type="application/json")
    conf, corr = make_source(tmp_path, sleeps).search(titled("Whose Opinions Do Language Models Reflect?"))
    q = parse_qs(urlparse(responses.calls[0].request.url).query)
    assert q == {"q": ["Whose Opinions Do Language Models Reflect"], "format": ["json"], "h": ["10"]}

    assert (conf.source, conf.id) == ("dblp", "conf/icml/SanturkarDLLLH23")
    assert conf.title == "Whose Opinions Do Language Models Reflect?"
    assert (conf.entry_type, conf.stage, conf.venue, conf.year) == ("inproceedings", "published", "ICML 2023", 2023)
    assert conf.container == "Fortieth International Conference on Machine Learning"
    assert conf.url == "https://proceedings.mlr.press/v202/santurkar23a.html"
    assert conf.extra["pages"] == "29971-30004"
    assert conf.ids.dblp == "conf/icml/SanturkarDLLLH23" and conf.ids.doi is None
    assert [p.family for p in conf.authors] == ["Santurkar", "Durmus", "Ladhak", "Lee", "Liang", "Hashimoto"]

    assert (corr.entry_type, corr.stage) == ("misc", "preprint")
    assert corr.ids.arxiv == "2303.17548"
    assert corr.ids.doi == "10.48550/arxiv.2303.17548"
    assert corr.venue == "CoRR"


@responses.activate
def test_single_author_object_homonym_number_venue_list_and_trailing_dot(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/search/publ/api", body=api_fixture("dblp/search_single_author.json"),
                  content_type="application/json")
    (cand,) = make_source(tmp_path, sleeps).search(titled("On the Convergence of SGD under Heavy Tails"))
    assert cand.title == "On the Convergence of Stochastic Gradient Descent under Heavy Tails"
    assert len(cand.authors) == 1
    assert (cand.authors[0].raw, cand.authors[0].given, cand.authors[0].family) == ("Wei Chen", "Wei", "Chen")
    assert cand.venue == "NeurIPS 2024"
    assert cand.container == "Advances in Neural Information Processing Systems"
    assert cand.url.startswith("http://papers.nips.cc/")


@responses.activate
def test_zero_hits_is_an_empty_answer_and_cached(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/search/publ/api", body=api_fixture("dblp/search_zero_hits.json"),
                  content_type="application/json")
    src = make_source(tmp_path, sleeps)
    assert src.search(titled("Factored Gossip DiLoCo")) == []
    assert make_source(tmp_path, sleeps).search(titled("Factored Gossip DiLoCo")) == []
    assert len(responses.calls) == 1


@responses.activate
def test_lookup_by_key_reads_the_record_bibtex(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/rec/conf/icml/SanturkarDLLLH23.bib", body=api_fixture("dblp/rec_SanturkarDLLLH23.bib"),
                  content_type="application/x-bibtex")
    src = make_source(tmp_path, sleeps)
    cand = src.lookup("dblp", "https://dblp.org/rec/conf/icml/SanturkarDLLLH23.html")
    assert cand.id == "conf/icml/SanturkarDLLLH23"
    assert cand.title == "Whose Opinions Do Language Models Reflect?"
    assert (cand.venue, cand.stage, cand.entry_type) == ("ICML 2023", "published", "inproceedings")
    assert cand.container == "Fortieth International Conference on Machine Learning"
    assert cand.extra["volume"] == "202" and cand.extra["pages"] == "29971--30004"
    assert cand.authors[-1].family == "Hashimoto" and len(cand.authors) == 6
    assert src.lookup("dblp", "DBLP:conf/icml/SanturkarDLLLH23").id == cand.id
    assert len(responses.calls) == 1  # the second lookup came from the cache


@responses.activate
def test_arxiv_id_lookup_uses_the_corr_key(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/rec/journals/corr/abs-2303-17548.bib",
                  body=api_fixture("dblp/rec_corr_abs-2303-17548.bib"))
    cand = make_source(tmp_path, sleeps).lookup("arxiv", "https://arxiv.org/abs/2303.17548v2")
    assert (cand.stage, cand.entry_type) == ("preprint", "misc")
    assert cand.ids.arxiv == "2303.17548" and cand.ids.doi == "10.48550/arxiv.2303.17548"


@responses.activate
def test_unknown_key_is_none(tmp_path, sleeps):
    responses.get(f"{DBLP}/rec/conf/icml/Nobody99.bib", status=404, body="Not Found")
    assert make_source(tmp_path, sleeps).lookup("dblp", "conf/icml/Nobody99") is None


@responses.activate
def test_429_with_empty_body_waits_for_retry_after(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/search/publ/api", status=429, body="", headers={"Retry-After": "10"})
    responses.get(f"{DBLP}/search/publ/api", body=api_fixture("dblp/search_icml.json"),
                  content_type="application/json")
    assert len(make_source(tmp_path, sleeps).search(titled("Whose Opinions"))) == 2
    assert sleeps == [10.0]


@responses.activate
def test_html_throttle_page_is_an_error_not_cached(tmp_path, sleeps):
    responses.get(f"{DBLP}/search/publ/api", body="<html><title>dblp: too many requests</title></html>",
                  content_type="text/html")
    src = make_source(tmp_path, sleeps)
    with pytest.raises(SourceError, match="text/html that is not complete JSON"):
        src.search(titled("Anything"))
    assert len(src.cache) == 0
    assert len(responses.calls) >= 2  # a junk answer is retried like a refused connection


@responses.activate
def test_abstract_mention_searches_its_method_name(tmp_path, sleeps, api_fixture):
    responses.get(f"{DBLP}/search/publ/api", body=api_fixture("dblp/search_zero_hits.json"),
                  content_type="application/json")
    m = Mention(kind="abstract", location=Location("n", 1), abstract="We propose FOAM.", hints=["FOAM"])
    make_source(tmp_path, sleeps).search(m)
    assert parse_qs(urlparse(responses.calls[0].request.url).query)["q"] == ["FOAM"]


def test_schemes_dblp_cannot_answer(tmp_path, sleeps):
    src = make_source(tmp_path, sleeps)
    assert src.lookup("doi", "10.1/x") is None
    assert src.lookup("arxiv", "astro-ph/0601001") is None  # old ids have no computable CoRR key
