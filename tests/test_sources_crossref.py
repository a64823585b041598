"""Crossref through habanero, against a real loopback server (habanero speaks httpx2)."""

from __future__ import annotations

import pytest
from werkzeug import Response

from citekit import __version__
from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import LookupCache
from citekit.sources.crossref import CrossrefSource
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.settings import SourceSettings

JSON = "application/json;charset=utf-8"
DOI = "10.1371/journal.pone.0033693"


@pytest.fixture
def sleeps():
    return []


def make_source(url: str, tmp_path, sleeps, mailto: str | None = "me@example.org") -> CrossrefSource:
    settings = SourceSettings(urls={"crossref": url}, mailto=mailto, cache_dir=tmp_path, timeout=5)
    client = HttpClient(retries=2, sleep=sleeps.append, policies={"crossref": HostPolicy(0.0, 3)})
    return CrossrefSource(client, LookupCache(settings.cache_path), settings)


def mention(title: str, authors: list[str]) -> Mention:
    return Mention(kind="titled", location=Location("notes/trip.txt", 5), title=title, authors=authors)


def test_doi_lookup_builds_a_journal_article(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request(f"/works/{DOI}").respond_with_data(api_fixture("crossref/work_journal.json"),
                                                                  content_type=JSON)
    cand = make_source(httpserver.url_for(""), tmp_path, sleeps).lookup("doi", f"https://doi.org/{DOI.upper()}")
    assert (cand.source, cand.id, cand.entry_type, cand.stage) == ("crossref", DOI, "article", "published")
    assert cand.title.startswith("Methylphenidate Exposure Induces Dopamine Neuron Loss")
    assert (cand.authors[1].given, cand.authors[1].family) == ("Brooks B.", "Pond")
    assert cand.year == 2012 and cand.container == "PLoS ONE" and cand.venue == "PLoS ONE"
    assert cand.extra["volume"] == "7" and cand.extra["number"] == "3" and cand.extra["pages"] == "e33693"
    assert cand.extra["month"] == "3" and cand.extra["publisher"] == "Public Library of Science (PLoS)"
    assert cand.ids.doi == DOI and cand.url == f"https://doi.org/{DOI}"


def test_user_agent_carries_citekit_and_mailto(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request(f"/works/{DOI}").respond_with_data(api_fixture("crossref/work_journal.json"),
                                                                  content_type=JSON)
    make_source(httpserver.url_for(""), tmp_path, sleeps).lookup("doi", DOI)
    request, _ = httpserver.log[0]
    assert f"citekit/{__version__} (mailto:me@example.org)" in request.headers["User-Agent"]


def test_search_returns_every_hit_including_high_scoring_decoys(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request("/works").respond_with_data(api_fixture("crossref/search_decoys.json"),
                                                          content_type=JSON)
    found = make_source(httpserver.url_for(""), tmp_path, sleeps).search(
        mention("Attention Is All You Need", ["Ashish Vaswani", "Noam Shazeer"]))
    args = httpserver.log[0][0].args
    assert args["query.bibliographic"] == "Attention Is All You Need Vaswani Shazeer"
    assert args["rows"] == "5" and "DOI" in args["select"].split(",")
    decoy, proceedings, journal = found
    assert (decoy.entry_type, decoy.stage, decoy.year) == ("misc", "preprint", 2025)
    assert decoy.venue is None and decoy.extra["relevance"] == "96.71553"
    assert decoy.abstract == "The dominant sequence transduction models are based on complex recurrent or " \
                             "convolutional neural networks."
    assert (proceedings.entry_type, proceedings.stage) == ("inproceedings", "published")
    assert proceedings.container.startswith("Proceedings of the 2017 ACM")
    assert proceedings.venue == "CIKM '17"
    assert proceedings.authors[1].family == "van der Berg"
    assert journal.entry_type == "article" and journal.authors[1].raw == "Attention Study Consortium"
    assert journal.year == 2021 and journal.extra["month"] == "7"


def test_a_pasted_reference_is_searched_whole(httpserver, tmp_path, sleeps, api_fixture):
    """query.bibliographic is made for citation strings: a mention that is a pasted
    reference sends the string as written; a typed mention sends its title and families
    (the family of ``Kingma, D. P.`` is the part before the comma)."""
    from citekit.notes.extract import extract_text

    httpserver.expect_request("/works").respond_with_data(api_fixture("crossref/search_decoys.json"),
                                                          content_type=JSON)
    text = ("[3] Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, 2015.\n"
            "\n"
            "- Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang\n")
    pasted, typed = extract_text(text, "refs.txt").mentions
    assert pasted.reference == "Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, 2015."
    assert typed.reference is None and "reference" not in typed.to_json()
    source = make_source(httpserver.url_for(""), tmp_path, sleeps)
    source.search(pasted)
    source.search(typed)
    sent = [entry[0].args["query.bibliographic"] for entry in httpserver.log]
    assert sent == [pasted.reference, "Deep Residual Learning for Image Recognition He Zhang"]
    pasted.authors = ["Kingma, D. P.", "Ba, J."]
    pasted.reference = None
    source.search(pasted)
    assert httpserver.log[-1][0].args["query.bibliographic"] == "Adam A method for stochastic optimization Kingma Ba"


def test_a_reference_the_parser_cannot_read_is_looked_up_whole_and_only_its_own_record_agrees(
        httpserver, tmp_path, sleeps, api_fixture):
    """A numbered reference in a style the parser is not sure of becomes a mention with no
    title that keeps the string; Crossref gets it whole, and of its answers only the record
    whose whole title is a field of the string and whose first author the string names
    agrees: not the higher-ranked longer title that starts with it, nor the same title by
    another author."""
    from citekit.matching.candidates import scored
    from citekit.notes.extract import extract_text

    httpserver.expect_request("/works").respond_with_data(api_fixture("crossref/search_reference_lstm.json"),
                                                          content_type=JSON)
    text = ("References\n\n"
            "[1] ZHANG H, CISSE M, DAUPHIN YN, LOPEZ-PAZ D: mixup – beyond empirical risk minimization; ICLR 2018\n"
            "[2] HOCHREITER S, SCHMIDHUBER J: long short-term memory; NEURAL COMPUT 9:1735-80, 1997\n")
    first, second = extract_text(text, "refs.txt").mentions
    assert (first.kind, first.title, first.year) == ("cited", None, 2018)
    assert (second.kind, second.title, second.year, second.location.line) == ("cited", None, 1997, 4)
    assert second.reference == "HOCHREITER S, SCHMIDHUBER J: long short-term memory; NEURAL COMPUT 9:1735-80, 1997"
    found = make_source(httpserver.url_for(""), tmp_path, sleeps).search(second)
    assert httpserver.log[0][0].args["query.bibliographic"] == second.reference
    verdicts = [(c.ids.doi, scored(second, c)[1].agrees) for c in found]
    assert verdicts == [("10.21437/interspeech.2014-80", False), ("10.1007/978-3-642-24797-2_4", False),
                        ("10.1162/neco.1997.9.8.1735", True)]
    # the same string with another year is not that paper
    second.year = 2005
    assert not scored(second, found[2])[1].agrees


def test_a_reference_whose_title_was_read_wrong_still_finds_its_record_by_the_string(
        httpserver, tmp_path, sleeps, api_fixture):
    """The parser took the journal for the title: no record's title agrees with it, but the
    record whose whole title and first author the pasted string holds is its paper; the
    decoys stay refused."""
    from citekit.matching.candidates import scored

    httpserver.expect_request("/works").respond_with_data(api_fixture("crossref/search_reference_lstm.json"),
                                                          content_type=JSON)
    misread = Mention(kind="titled", location=Location("notes/refs.txt", 3), title="NEURAL COMPUT",
                      authors=["HOCHREITER S", "SCHMIDHUBER J"], year=1997,
                      reference="HOCHREITER S, SCHMIDHUBER J: long short-term memory; NEURAL COMPUT 9:1735-80, 1997")
    found = make_source(httpserver.url_for(""), tmp_path, sleeps).search(misread)
    assert [scored(misread, c)[1].agrees for c in found] == [False, False, True]
    assert "whole title" in scored(misread, found[2])[1].why
    misread.reference = None  # the title alone: nothing agrees
    assert not any(scored(misread, c)[1].agrees for c in found)


def test_a_line_of_prose_or_a_property_is_no_unread_reference():
    from citekit.notes.extract import extract_text

    text = ("References\n\n"
            "[1] Last edited time: April 9, 2024 10:02 AM, Owner: Mira Okafor\n"
            "[2] Jonas Weber 2024 blog post on long context, see https://example.org/blog\n")
    assert [m.kind for m in extract_text(text, "refs.txt").mentions] == []


def test_unknown_doi_is_none_and_cached(httpserver, tmp_path, sleeps):
    httpserver.expect_request("/works/10.9999/nope").respond_with_data("Resource not found.", status=404,
                                                                       content_type="text/plain")
    src = make_source(httpserver.url_for(""), tmp_path, sleeps)
    assert src.lookup("doi", "10.9999/nope") is None
    assert make_source(httpserver.url_for(""), tmp_path, sleeps).lookup("doi", "10.9999/nope") is None
    assert len(httpserver.log) == 1


def test_rejected_query_is_an_error_without_retries(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request("/works").respond_with_data(api_fixture("crossref/validation_failure.json"),
                                                          status=400, content_type=JSON)
    with pytest.raises(SourceError, match="does not support field query"):
        make_source(httpserver.url_for(""), tmp_path, sleeps).search(mention("A title", []))
    assert len(httpserver.log) == 1 and sleeps == []


def test_429_retry_after_is_honoured(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_ordered_request("/works").respond_with_data(
        '{"status":"error","message":"rate limit"}', status=429, headers={"Retry-After": "2"}, content_type=JSON)
    httpserver.expect_ordered_request("/works").respond_with_data(api_fixture("crossref/search_decoys.json"),
                                                                  content_type=JSON)
    found = make_source(httpserver.url_for(""), tmp_path, sleeps).search(mention("Attention Is All You Need", []))
    assert len(found) == 3
    assert sleeps == [2.0]


def test_server_errors_are_not_cached(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request(f"/works/{DOI}").respond_with_data("upstream down", status=503,
                                                                  content_type="text/plain")
    src = make_source(httpserver.url_for(""), tmp_path, sleeps)
    with pytest.raises(SourceError, match="after 3 attempts"):
        src.lookup("doi", DOI)
    assert len(httpserver.log) == 3 and len(src.cache) == 0
    httpserver.clear()
    httpserver.expect_request(f"/works/{DOI}").respond_with_data(api_fixture("crossref/work_journal.json"),
                                                                  content_type=JSON)
    assert src.lookup("doi", DOI).id == DOI


def test_rate_limit_headers_adjust_the_limiter(httpserver, tmp_path, sleeps, api_fixture):
    httpserver.expect_request(f"/works/{DOI}").respond_with_response(Response(
        api_fixture("crossref/work_journal.json"), content_type=JSON,
        headers={"x-api-pool": "polite", "x-rate-limit-limit": "10", "x-rate-limit-interval": "1s",
                 "x-concurrency-limit": "2"}))
    src = make_source(httpserver.url_for(""), tmp_path, sleeps)
    src.lookup("doi", DOI)
    limiter = src.client.limiter("crossref")
    assert limiter.policy.min_interval == pytest.approx(0.1)
    assert limiter.gate.capacity == 2
    assert src.client.stats.requests["crossref"] == 1


def test_connection_reset_is_retried(resetting_server, tmp_path, sleeps, api_fixture):
    server = resetting_server(resets=1, body=api_fixture("crossref/work_journal.json").encode(), content_type=JSON)
    cand = make_source(server.url, tmp_path, sleeps).lookup("doi", DOI)
    assert cand.id == DOI and server.connections == 2 and len(sleeps) == 1


def test_unreachable_service_is_unavailable(resetting_server, tmp_path, sleeps):
    server = resetting_server(resets=100)
    src = make_source(server.url, tmp_path, sleeps)
    with pytest.raises(SourceUnavailable):
        src.lookup("doi", DOI)
    assert server.connections == 3
    with pytest.raises(SourceUnavailable):  # skipped for the rest of the run
        src.lookup("doi", "10.1000/other")
    assert server.connections == 3


def test_arxiv_dois_are_not_asked_of_crossref(httpserver, tmp_path, sleeps):
    src = make_source(httpserver.url_for(""), tmp_path, sleeps)
    assert src.lookup("doi", "10.48550/arXiv.2301.02410") is None
    assert src.lookup("arxiv", "2301.02410") is None
    assert src.search(Mention(kind="abstract", location=Location("n", 1), abstract="Text.")) == []
    assert httpserver.log == []
