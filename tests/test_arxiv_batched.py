"""arXiv searches batched: one OR'ed ``search_query`` for the works that need one, each
entry of the answer given back only to the work it fits; the fake answers OR'ed queries
as the real API does (relevance first, ``max_results`` rows at most)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import requests

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.resolve.batched import fitting
from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache

from .fakeservices.world import World

WORLD = World.load()
ATOM = {"atom": "http://www.w3.org/2005/Atom", "opensearch": "http://a9.com/-/spec/opensearch/1.1/"}
#: papers only arXiv is asked about in these tests (the other services are switched off)
PAPERS = [p for p in WORLD.papers if p.get("arxiv") and len(p["arxiv"]["versions"]) == 1][:6]


def _titles(feed_text: str) -> list[str]:
    feed = ET.fromstring(feed_text)
    return [" ".join(e.find("atom:title", ATOM).text.split()) for e in feed.findall("atom:entry", ATOM)]


def _mention(paper: dict, line: int) -> Mention:
    return Mention(kind="titled", location=Location("notes/trip.txt", line), title=paper["title"],
                   authors=list(paper["authors"][:3]))


def _arxiv_only(fake, cache_dir=None):
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, ".", env=env)
    settings.cache_dir = cache_dir
    settings.enabled = ["arxiv"]
    client = build_client(settings)
    return build_sources(settings, client=client, cache=open_cache(settings))


def test_the_fake_answers_ored_title_clauses_relevance_first_within_max_results(fake_services):
    a, b = PAPERS[0]["title"], PAPERS[1]["title"]
    query = f'(ti:"{a}") OR (ti:"{b}")'
    answer = requests.get(fake_services.url_for("arxiv"), params={"search_query": query, "max_results": 10})
    assert answer.status_code == 200
    assert {a, b} <= set(_titles(answer.text))
    # clauses side by side are ANDed, as the API reads them: no paper has both titles
    both = requests.get(fake_services.url_for("arxiv"), params={"search_query": f'ti:"{a}" ti:"{b}"'})
    assert _titles(both.text) == []
    # ANDNOT takes a paper out; max_results cuts the answer (relevance first)
    not_b = requests.get(fake_services.url_for("arxiv"),
                         params={"search_query": f'(ti:"{a}" OR ti:"{b}") ANDNOT ti:"{b}"'})
    assert b not in _titles(not_b.text) and a in _titles(not_b.text)
    one = requests.get(fake_services.url_for("arxiv"), params={"search_query": query, "max_results": 1})
    assert len(_titles(one.text)) == 1
    total = ET.fromstring(one.text).find("opensearch:totalResults", ATOM).text
    assert int(total) >= 2
    bad = requests.get(fake_services.url_for("arxiv"), params={"search_query": '(ti:"unbalanced"'})
    assert bad.status_code == 400


def test_works_needing_an_arxiv_search_share_one_request_and_get_only_their_own_entries(fake_services, tmp_path):
    groups = [[_mention(p, i + 1)] for i, p in enumerate(PAPERS)]
    report = resolve_groups(groups, _arxiv_only(fake_services, tmp_path / "cache"))
    assert fake_services.requests("arxiv") == 1
    for paper, work in zip(PAPERS, report.works):
        assert work.status == "resolved", work.reason
        assert work.chosen.ids.arxiv == paper["arxiv"]["id"]
    # the same works, one request each, when batching is off (the old behaviour)
    fake_services.clear()
    unbatched = resolve_groups(groups, _arxiv_only(fake_services), batch_searches=False)
    assert fake_services.requests("arxiv") == len(PAPERS)
    assert [w.chosen.id for w in unbatched.works] == [w.chosen.id for w in report.works]
    # each mention's answer was stored under its own query: a second run asks nothing
    fake_services.clear()
    again = resolve_groups(groups, _arxiv_only(fake_services, tmp_path / "cache"))
    assert fake_services.requests("arxiv") == 0
    assert [w.chosen.id for w in again.works] == [w.chosen.id for w in report.works]


def test_an_unknown_title_in_the_batch_stays_notes_only_and_takes_no_other_entry(fake_services):
    stranger = Mention(kind="titled", location=Location("notes/trip.txt", 9),
                       title="A Paper Nobody Wrote About Staleness in Pipelines", authors=["Nobody Known"])
    groups = [[_mention(PAPERS[0], 1)], [stranger], [_mention(PAPERS[3], 3)]]
    report = resolve_groups(groups, _arxiv_only(fake_services))
    assert fake_services.requests("arxiv") == 1
    assert [w.status for w in report.works] == ["resolved", "notes-only", "resolved"]
    assert report.works[1].chosen is None


def test_fitting_keeps_what_agrees_and_a_closest_record_only_where_it_fits_best():
    from citekit.sources.arxiv import entry_to_candidate, parse_feed
    from .fakeservices.world import arxiv_entry, arxiv_feed

    feed = arxiv_feed("", [arxiv_entry(p) for p in PAPERS[:2]], 2, 0, 10)
    entries = [entry_to_candidate(e) for e in parse_feed(feed)]
    mentions = [_mention(PAPERS[0], 1), _mention(PAPERS[1], 2)]
    kept = fitting(mentions, [entries, entries])
    assert [c.ids.arxiv for c in kept[0]] == [PAPERS[0]["arxiv"]["id"]]
    assert [c.ids.arxiv for c in kept[1]] == [PAPERS[1]["arxiv"]["id"]]
