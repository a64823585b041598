"""The conferences' paper lists: real shapes, exact events, local matching, caching."""

from __future__ import annotations

import json

import pytest
from werkzeug import Response

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.matching.candidates import scored
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.conferences import (NOT_PUBLISHED_TTL, REVALIDATE_AFTER, ConferenceListSource, compact,
                                         forum_of, presentation_of)
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.settings import SourceSettings

ICLR_LIST = "/iclr/static/virtual/data/iclr-2026-orals-posters.json"
ICML_LIST = "/icml/static/virtual/data/icml-2026-orals-posters.json"
ICML_ABSTRACTS = "/icml/static/virtual/data/icml-2026-abstracts.json"


class Clock:
    def __init__(self) -> None:
        self.now = 1_780_000_000.0

    def __call__(self) -> float:
        return self.now


def make_source(httpserver, tmp_path, clock=None, **env) -> ConferenceListSource:
    root = httpserver.url_for("").rstrip("/")
    settings = SourceSettings.from_env({}, tmp_path, env={"CITEKIT_ICLR_URL": f"{root}/iclr",
                                                          "CITEKIT_ICML_URL": f"{root}/icml", **env})
    client = HttpClient(retries=1, sleep=lambda s: None, timeout=5,
                        policies={site: HostPolicy(0.0, 1) for site in ("icml", "iclr", "neurips", "mlsys")})
    cache = LookupCache(tmp_path / "cache.sqlite", clock=clock or Clock())
    return ConferenceListSource(client, cache, settings)


def mention(title=None, authors=(), urls=(), abstract=None, venue="ICLR", year=2026) -> Mention:
    return Mention(kind="titled" if title else ("url" if urls else "abstract"), location=Location("notes.md", 3),
                   title=title, authors=list(authors), urls=list(urls), abstract=abstract, venue=venue, year=year)


@pytest.fixture
def iclr(httpserver, api_fixture):
    """The ICLR 2026 list in two pages whose ``next`` names the public site (as a mirror serves it)."""
    page2 = api_fixture("conferences/iclr-2026-orals-posters.page2.json")
    httpserver.expect_request(ICLR_LIST, query_string="page=2").respond_with_data(page2, content_type="application/json")
    httpserver.expect_request(ICLR_LIST).respond_with_data(api_fixture("conferences/iclr-2026-orals-posters.page1.json"),
                                                           content_type="application/json",
                                                           headers={"ETag": '"v1"'})
    return httpserver


def _requests(httpserver, path):
    return [r for r, _ in httpserver.log if r.path == path]


# ------------------------------------------------------------------------------ shapes


def test_event_shapes_presentation_placeholders_and_non_papers(api_fixture):
    page1 = json.loads(api_fixture("conferences/iclr-2026-orals-posters.page1.json"))["results"]
    page2 = json.loads(api_fixture("conferences/iclr-2026-orals-posters.page2.json"))["results"]
    assert presentation_of(page1[0]) == "poster"
    assert presentation_of(page1[2]) == "oral"  # "Accept (Oral)" on the poster event
    assert presentation_of(page2[0]) == "spotlight"  # "Accept (Spotlight)", capitalised as ICLR writes it
    assert forum_of(page1[0]) == "SaTwEg4x1Q"
    assert forum_of(page2[0]) is None  # paper_url null
    assert forum_of(page2[1]) is None  # "forum?id=2026-Poster--placeholder"
    assert compact(page2[2]) is None  # visible: false
    assert compact(page2[3]) is None  # a workshop page, not a paper
    assert compact(page2[4]) is None  # a decision other than Accept
    assert compact(page1[0])["authors"] == ["Lea Moreau", "Tomas Berg"]


def test_next_pages_are_followed_and_oral_and_poster_are_one_paper(iclr, tmp_path):
    src = make_source(iclr, tmp_path)
    venue_list = src.load("iclr", 2026)
    assert len(_requests(iclr, ICLR_LIST)) == 2
    titles = sorted(p.main["name"] for p in venue_list.papers)
    assert titles == ["Low-Precision Adam Moments", "Muon Is Scalable for Diffusion Models", "Placeholder Forum Paper",
                      "Sharpness-Aware Training Without Extra Gradients",
                      "Sharpness-Aware Training Without Extra Gradients for Vision Transformers"]
    oral = src.exact(mention(urls=["https://iclr.cc/virtual/2026/oral/31003"]))
    poster = src.exact(mention(urls=["https://iclr.cc/virtual/2026/poster/30003"]))
    assert oral.id == poster.id == "iclr-2026/30003"
    assert oral.extra["presentation"] == "oral" and oral.ids.openreview == "MuonDiff01"
    assert oral.url == "https://openreview.net/forum?id=MuonDiff01"
    assert oral.extra["event_url"] == "https://iclr.cc/virtual/2026/poster/30003"  # the public page, not the mirror
    assert oral.stage == "accepted" and oral.venue == "ICLR 2026" and oral.entry_type == "inproceedings"
    placeholder = src.exact(mention(urls=["https://iclr.cc/virtual/2026/poster/30005"]))
    assert placeholder.ids.openreview is None and placeholder.url == "https://iclr.cc/virtual/2026/poster/30005"


def test_a_renamed_paper_is_its_event_and_a_near_identical_title_is_another_paper(iclr, tmp_path):
    src = make_source(iclr, tmp_path)
    exact = src.exact(mention("Sharpness-Aware Minimization for Free", ["Lea Moreau"],
                              urls=["https://iclr.cc/virtual/2026/poster/30001"]))
    assert exact.title == "Sharpness-Aware Training Without Extra Gradients"
    # locally, by title: the other authors' near-identical title is found but does not agree
    m = mention("Sharpness-Aware Training Without Extra Gradients for Vision Transformers", ["Lea Moreau", "Tomas Berg"])
    found = src.search(m)
    verdicts = {c.title: scored(m, c)[1].agrees for c in found}
    assert verdicts["Sharpness-Aware Training Without Extra Gradients for Vision Transformers"] is False
    right = mention("Sharpness-Aware Training Without Extra Gradients", ["Tomas Berg", "Lea Moreau"])
    assert [c.id for c in src.search(right) if scored(right, c)[1].agrees] == ["iclr-2026/30001"]


def test_abstracts_from_the_sidecar_match_a_pasted_abstract(httpserver, tmp_path, api_fixture):
    httpserver.expect_request(ICML_LIST).respond_with_data(api_fixture("conferences/icml-2026-orals-posters.json"),
                                                           content_type="application/json")
    httpserver.expect_request(ICML_ABSTRACTS).respond_with_data(api_fixture("conferences/icml-2026-abstracts.json"),
                                                                content_type="application/json")
    src = make_source(httpserver, tmp_path)
    pasted = ("We introduce local inconsistency, computable without labels, as a measure of generalization "
              "and build it into IAM.")
    m = mention(abstract=pasted, venue="ICML")
    agreeing = [c for c in src.search(m) if scored(m, c)[1].agrees]
    assert [c.id for c in agreeing] == ["icml-2026/62214"]
    assert agreeing[0].abstract.startswith("We introduce local inconsistency")


# ------------------------------------------------------------------------------ caching


def test_the_list_is_cached_revalidated_weekly_with_a_conditional_request(httpserver, tmp_path, api_fixture):
    body = api_fixture("conferences/icml-2026-orals-posters.json")
    seen: list[str | None] = []

    def handler(request):
        seen.append(request.headers.get("If-None-Match"))
        if request.headers.get("If-None-Match") == '"abc"':
            return Response(status=304, headers={"ETag": '"abc"'})
        return Response(body, content_type="application/json", headers={"ETag": '"abc"',
                                                                         "Last-Modified": "Mon, 29 Jun 2026 08:00:00 GMT"})

    httpserver.expect_request(ICML_LIST).respond_with_handler(handler)
    httpserver.expect_request(ICML_ABSTRACTS).respond_with_data("{}", content_type="application/json")
    clock = Clock()
    m = mention(urls=["https://icml.cc/virtual/2026/poster/62214"], venue="ICML")
    assert make_source(httpserver, tmp_path, clock).exact(m).ids.openreview == "FplbUeGmZ4"
    assert seen == [None]
    clock.now += REVALIDATE_AFTER - 3600  # within the week: the stored copy, no request
    assert make_source(httpserver, tmp_path, clock).exact(m) is not None
    assert seen == [None]
    clock.now += 7200  # a week old: asked with If-None-Match, answered 304, still usable
    assert make_source(httpserver, tmp_path, clock).exact(m).title.startswith("Inconsistency-Aware")
    assert seen == [None, '"abc"']


def test_a_list_not_published_yet_is_remembered_for_a_day(httpserver, tmp_path):
    path = "/iclr/static/virtual/data/iclr-2027-orals-posters.json"
    httpserver.expect_request(path).respond_with_data("<html>Page Not Found</html>", status=404,
                                                      content_type="text/html")
    clock = Clock()
    m = mention("Some Future Paper", ["A B"], year=2027)
    assert make_source(httpserver, tmp_path, clock).search(m) == []
    assert make_source(httpserver, tmp_path, clock).search(m) == []
    assert len(_requests(httpserver, path)) == 1
    clock.now += NOT_PUBLISHED_TTL + 1
    make_source(httpserver, tmp_path, clock).search(m)
    assert len(_requests(httpserver, path)) == 2


def test_an_unreachable_site_uses_the_stored_copy(iclr, tmp_path):
    clock = Clock()
    make_source(iclr, tmp_path, clock).load("iclr", 2026)
    clock.now += REVALIDATE_AFTER * 3  # stale: the site is asked, and fails
    iclr.clear()
    iclr.expect_request(ICLR_LIST).respond_with_data("down for maintenance", status=503)
    src = make_source(iclr, tmp_path, clock)
    assert src.exact(mention(urls=["https://iclr.cc/virtual/2026/poster/30004"])).title == "Low-Precision Adam Moments"
    assert len(_requests(iclr, ICLR_LIST)) == 2  # asked (and retried once), then the stored copy served


def test_an_unreachable_site_without_a_stored_copy_is_a_source_error(tmp_path, httpserver):
    src = make_source(httpserver, tmp_path, CITEKIT_ICLR_URL="http://127.0.0.1:9/iclr")
    with pytest.raises(SourceError):
        src.load("iclr", 2026)
    assert src.search(mention("Anything", ["A B"])) == []  # asked once per run, then empty


def test_site_urls_come_from_config_and_environment(tmp_path):
    s = SourceSettings.from_env({"sources": {"neurips": {"url": "https://mirror.example/neurips/"},
                                             "openreview": {"per_minute": 55}, "deadline": 120}},
                                tmp_path, env={"CITEKIT_MLSYS_URL": "http://127.0.0.1:1/mlsys"})
    assert s.urls_of("conferences")["neurips"] == "https://mirror.example/neurips"
    assert s.urls_of("conferences")["mlsys"] == "http://127.0.0.1:1/mlsys"
    assert s.urls_of("conferences")["icml"] == "https://icml.cc"
    assert s.policies["openreview"].per_minute == 55
    assert s.deadline == 120
    assert s.enabled[0] == "conferences"
    with pytest.raises(ValueError, match="sources.deadline"):
        SourceSettings.from_env({"sources": {"deadline": "soon"}}, tmp_path, env={})
    with pytest.raises(ValueError, match="per_minute"):
        SourceSettings.from_env({"sources": {"arxiv": {"per_minute": 0}}}, tmp_path, env={})
