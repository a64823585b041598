"""OpenReview v2: search first, ids with credentials, the 2026 challenge gate."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
import responses

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.openreview import OpenReviewSource, venue_stage
from citekit.sources.settings import SourceSettings

API = "https://api2.openreview.net"


@pytest.fixture
def sleeps():
    return []


def make_source(tmp_path, sleeps, **settings) -> OpenReviewSource:
    s = SourceSettings(cache_dir=tmp_path, **settings)
    client = HttpClient(retries=2, sleep=sleeps.append, policies={"openreview": HostPolicy(0.0, 2)})
    return OpenReviewSource(client, LookupCache(s.cache_path), s)


def titled(title: str, venue: str | None = "ICML", year: int | None = 2026) -> Mention:
    return Mention(kind="titled", location=Location("notes/trip.txt", 12), title=title, venue=venue, year=year)


def query(call) -> dict[str, list[str]]:
    return parse_qs(urlparse(call.request.url).query)


@responses.activate
def test_title_search_within_the_venue_group(tmp_path, sleeps, api_fixture):
    # one request across every venue; the search keeps the venue's group, and the
    # earlier-title step (search_everywhere) finds the rest in the cache
    body = json.loads(api_fixture("openreview/search_icml2026.json"))
    elsewhere = json.loads(json.dumps(body["notes"][0]))
    elsewhere.update(id="IclrElse01", forum="IclrElse01", domain="ICLR.cc/2026/Conference")
    elsewhere["content"]["venueid"] = {"value": "ICLR.cc/2026/Conference/Rejected_Submission"}
    body["notes"].append(elsewhere)
    responses.get(f"{API}/notes/search", json=body)
    src = make_source(tmp_path, sleeps)
    mention = titled("Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data")
    found = src.search(mention)
    q = query(responses.calls[0])
    assert q["term"] == ["Inconsistency-Aware Minimization Improving Generalization with Unlabeled Data"]
    assert q["type"] == ["terms"] and q["source"] == ["forum"]
    assert q["group"] == ["all"]
    assert "IclrElse01" not in [c.id for c in found]
    everywhere = src.search_everywhere(mention)
    assert len(responses.calls) == 1
    assert [c.id for c in everywhere] == [*(c.id for c in found), "IclrElse01"]

    accepted, rejected, anonymous = found
    assert accepted.source == "openreview" and accepted.id == "Kq3vTmW8Xz"
    assert accepted.title == "Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data"
    assert [p.family for p in accepted.authors] == ["Kim", "Kim", "Lee"]
    assert accepted.authors[0].given == "Hee-Sung"
    assert (accepted.stage, accepted.venue, accepted.year) == ("accepted", "ICML 2026", 2026)
    assert accepted.container == "Forty-third International Conference on Machine Learning"
    assert accepted.entry_type == "inproceedings"
    assert accepted.ids.openreview == "Kq3vTmW8Xz"
    assert accepted.url == "https://openreview.net/forum?id=Kq3vTmW8Xz"
    assert accepted.extra["openreview_venue"] == "ICML 2026 poster"
    assert accepted.abstract.startswith("We introduce local inconsistency")

    assert (rejected.stage, rejected.venue, rejected.entry_type) == ("rejected", None, "misc")
    assert rejected.authors == [] and rejected.extra["submitted_to"] == "ICML 2026"
    assert anonymous.stage == "accepted" and anonymous.authors == []


@responses.activate
def test_search_without_venue_searches_all_groups(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes/search", json={"notes": [], "count": 0})
    make_source(tmp_path, sleeps).search(titled("Some Title", venue=None, year=None))
    assert query(responses.calls[0])["group"] == ["all"]


@responses.activate
def test_abstract_mention_searches_a_distinctive_sentence(tmp_path, sleeps):
    responses.get(f"{API}/notes/search", json={"notes": [], "count": 0})
    mention = Mention(kind="abstract", location=Location("notes/abstracts.txt", 3),
                      abstract="Training is slow. We propose FOAM, an adaptive damping method for Shampoo "
                               "that reduces staleness-oriented error. It is fast.",
                      hints=["FOAM"])
    assert make_source(tmp_path, sleeps).search(mention) == []
    term = query(responses.calls[0])["term"][0]
    assert term.startswith("We propose FOAM an adaptive damping method")
    assert len(term.split()) <= 12


@responses.activate
def test_second_search_is_answered_by_the_cache(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes/search", body=api_fixture("openreview/search_icml2026.json"),
                  content_type="application/json")
    src = make_source(tmp_path, sleeps)
    m = titled("Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data")
    first = src.search(m)
    again = make_source(tmp_path, sleeps).search(m)  # next sync, fresh process
    assert [c.id for c in again] == [c.id for c in first]
    assert len(responses.calls) == 1


@responses.activate
def test_lookup_without_credentials_uses_post_search_never_get(tmp_path, sleeps, api_fixture):
    responses.post(f"{API}/notes/search", body=api_fixture("openreview/note_icml2025.json"),
                   content_type="application/json")
    cand = make_source(tmp_path, sleeps).lookup("openreview", "FSlTEObdLl")
    assert json.loads(responses.calls[0].request.body) == {"ids": ["FSlTEObdLl"]}
    assert all(c.request.method == "POST" for c in responses.calls)
    assert cand.title.startswith("CombiMOTS")
    assert (cand.venue, cand.stage, cand.year) == ("ICML 2025", "accepted", 2025)
    assert cand.container == "Forty-second International Conference on Machine Learning"
    assert cand.extra["pdf"] == "https://openreview.net/pdf/0123456789abcdef0123456789abcdef01234567.pdf"


@responses.activate
def test_lookup_refused_anonymously_needs_credentials_and_is_asked_once(tmp_path, sleeps, api_fixture):
    responses.post(f"{API}/notes/search", status=403, body=api_fixture("openreview/challenge_required.json"),
                   content_type="application/json")
    src = make_source(tmp_path, sleeps)
    with pytest.raises(SourceError) as info:
        src.lookup("openreview", "FSlTEObdLl")
    assert info.value.needs_credentials and "OPENREVIEW_USERNAME" in str(info.value)
    with pytest.raises(SourceError) as again:
        src.lookup("openreview", "Kq3vTmW8Xz")
    assert again.value.needs_credentials
    assert len(responses.calls) == 1
    assert src.needs_credentials
    # the refusal is not an answer: a later run with credentials will ask again
    assert src.cache.get("openreview", "note", {"id": "FSlTEObdLl"}) is None


@responses.activate
def test_lookup_with_credentials_logs_in_and_gets_the_note(tmp_path, sleeps, api_fixture):
    responses.post(f"{API}/login", body=api_fixture("openreview/login.json"), content_type="application/json")
    responses.get(f"{API}/notes", body=api_fixture("openreview/note_icml2025.json"), content_type="application/json")
    src = make_source(tmp_path, sleeps, openreview_username="me@example.org", openreview_password="pw")
    cand = src.lookup("openreview", "FSlTEObdLl")
    assert cand.id == "FSlTEObdLl" and len(cand.authors) == 4
    login, get = responses.calls
    assert json.loads(login.request.body)["id"] == "me@example.org"
    assert get.request.headers["Authorization"].startswith("Bearer eyJ")
    assert query(get)["id"] == ["FSlTEObdLl"]


@responses.activate
def test_unknown_id_is_none_and_cached(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes", status=404, body=api_fixture("openreview/not_found.json"),
                  content_type="application/json")
    src = make_source(tmp_path, sleeps, openreview_token="tok")
    assert src.lookup("openreview", "Xx0NoSuchId") is None
    assert src.lookup("openreview", "Xx0NoSuchId") is None
    assert len(responses.calls) == 1
    assert responses.calls[0].request.headers["Authorization"] == "Bearer tok"


@responses.activate
def test_challenge_on_get_falls_back_to_search_and_is_not_retried(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes", status=403, body=api_fixture("openreview/challenge_required.json"),
                  content_type="application/json")
    responses.post(f"{API}/notes/search", body=api_fixture("openreview/note_icml2025.json"),
                   content_type="application/json")
    src = make_source(tmp_path, sleeps, openreview_token="tok")
    assert src.lookup("openreview", "FSlTEObdLl").id == "FSlTEObdLl"
    assert src.get_blocked
    src.lookup("openreview", "Other1234x")  # not in the answer: None, and no second GET
    methods = [c.request.method for c in responses.calls]
    assert methods == ["GET", "POST", "POST"]


@responses.activate
def test_rate_limit_with_retry_after_waits_then_succeeds(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes/search", status=429, body=api_fixture("openreview/rate_limit.json"),
                  headers={"Retry-After": "4"}, content_type="application/json")
    responses.get(f"{API}/notes/search", body=api_fixture("openreview/search_icml2026.json"),
                  content_type="application/json")
    found = make_source(tmp_path, sleeps).search(titled("Inconsistency-Aware Minimization"))
    assert len(found) == 3
    assert sleeps == [4.0]


@responses.activate
def test_degraded_search_index_is_an_error_not_an_empty_answer(tmp_path, sleeps):
    responses.get(f"{API}/notes/search", json={"notes": [], "count": 0, "searchUnavailable": True})
    src = make_source(tmp_path, sleeps)
    with pytest.raises(SourceError, match="temporarily unavailable"):
        src.search(titled("Anything"))
    assert len(src.cache) == 0


def test_other_schemes_are_not_openreview_business(tmp_path, sleeps):
    assert make_source(tmp_path, sleeps).lookup("doi", "10.1371/journal.pone.0033693") is None


@pytest.mark.parametrize("venueid, venue, expected", [
    ("ICML.cc/2026/Conference", "ICML 2026 oral", ("accepted", "ICML", 2026)),
    ("ICLR.cc/2026/Conference", "ICLR 2026 Poster", ("accepted", "ICLR", 2026)),
    ("ICML.cc/2025/Conference/Rejected_Submission", "Submitted to ICML 2025", ("rejected", "ICML", 2025)),
    ("ICML.cc/2025/Conference/Withdrawn_Submission", "ICML 2025 Conference Withdrawn Submission", ("rejected", "ICML", 2025)),
    ("ICML.cc/2026/Conference/Submission", "Submitted to ICML 2026", ("submitted", "ICML", 2026)),
    ("ICML.cc/2025/Workshop/MOSS", "ICML 2025 Workshop MOSS", ("workshop", "ICML", 2025)),
    ("TMLR", "Accepted by TMLR", ("accepted", "TMLR", None)),
])
def test_venue_and_stage_from_venueid(venueid, venue, expected):
    assert venue_stage(venueid, venue) == expected


@responses.activate
def test_gated_search_is_reported_and_not_repeated(tmp_path, sleeps, api_fixture):
    responses.get(f"{API}/notes/search", status=403, body=api_fixture("openreview/challenge_required.json"),
                  content_type="application/json")
    src = make_source(tmp_path, sleeps)
    for title in ("First Paper", "Second Paper"):
        with pytest.raises(SourceError) as info:
            src.search(titled(title))
        assert info.value.needs_credentials
    assert len(responses.calls) == 1
