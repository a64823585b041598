"""The loopback fake answers in the services' wire shapes, and resolution works against it.

The last tests run the whole chain (bundled notes → extraction → real source clients →
resolution) against the fake: every paper the fake knows resolves to its ICML 2026
record, and papers no service knows stay notes-only.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests

from tests.fakeservices import FakeServices, templates
from tests.fakeservices.shapes import json_shape_differences, xml_elements
from tests.fakeservices.world import World

from citekit.notes import extract_paths, group_mentions
from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache
from citekit.core.text import normalize_title

REPO = Path(__file__).resolve().parents[1]
ATOM = {"atom": "http://www.w3.org/2005/Atom", "opensearch": "http://a9.com/-/spec/opensearch/1.1/"}
WORLD = World.load()
LIMUON = next(p for p in WORLD.papers if p["title"].startswith("LiMuon"))


# ------------------------------------------------------------------------------ wire shapes


def test_openreview_search_returns_v2_notes_within_the_group(fake_services):
    r = requests.get(fake_services.url_for("openreview") + "/notes/search", params={
        "term": "LiMuon Light and Fast Muon Optimizer for Large Models", "type": "terms", "content": "all",
        "group": "ICML.cc/2026/Conference", "source": "forum", "limit": 10})
    body = r.json()
    assert r.status_code == 200 and set(body) == {"notes", "count"}
    note = body["notes"][0]
    assert note["id"] == note["forum"] == LIMUON["openreview"]["id"]
    assert note["content"]["venueid"] == {"value": "ICML.cc/2026/Conference"}
    assert note["content"]["venue"]["value"] == "ICML 2026 poster"
    assert note["content"]["authors"]["value"] == LIMUON["authors"]
    assert note["content"]["_bibtex"]["value"].startswith("@inproceedings{\nhuang2026limuon,\n")
    assert all(n["domain"].startswith("ICML.cc/2026") for n in body["notes"])


def test_openreview_rejected_submission_hides_its_authors(fake_services):
    r = requests.post(fake_services.url_for("openreview") + "/notes/search", json={"ids": [LIMUON["iclr"]["id"]]})
    note = r.json()["notes"][0]
    assert note["content"]["venueid"]["value"] == "ICLR.cc/2026/Conference/Rejected_Submission"
    assert note["content"]["venue"]["value"] == "Submitted to ICLR 2026"
    assert "authors" not in note["content"]
    assert "author={Anonymous}" in note["content"]["_bibtex"]["value"]


def test_openreview_unknown_id_is_a_404_not_found_error(fake_services):
    r = requests.get(fake_services.url_for("openreview") + "/notes", params={"id": "ZZZZZZZZZZ"})
    assert r.status_code == 404 and r.json()["name"] == "NotFoundError"


def test_crossref_answers_every_query_with_something(fake_services):
    r = requests.get(fake_services.url_for("crossref") + "/works",
                     params={"query.bibliographic": "a title nobody wrote", "rows": 3})
    body = r.json()
    assert body["status"] == "ok" and body["message-type"] == "work-list"
    assert len(body["message"]["items"]) == 3
    assert all(isinstance(i["title"], list) and isinstance(i["score"], float) for i in body["message"]["items"])
    assert r.headers["x-rate-limit-limit"] == "50" and r.headers["x-concurrency-limit"] == "5"


def test_crossref_work_by_doi_and_404_text(fake_services):
    base = fake_services.url_for("crossref")
    r = requests.get(base + "/works/10.3390/math14061234")
    assert r.json()["message-type"] == "work" and r.json()["message"]["DOI"] == "10.3390/math14061234"
    r = requests.get(base + "/works/10.9999/none")
    assert r.status_code == 404 and r.text == "Resource not found."
    assert r.headers["Content-Type"].startswith("text/plain")


def test_dblp_single_author_is_an_object_and_no_hits_has_no_hit_key(fake_services):
    base = fake_services.url_for("dblp") + "/search/publ/api"
    hit = requests.get(base, params={"q": "RubricRobustness", "format": "json"}).json()["result"]["hits"]["hit"][0]
    assert isinstance(hit["info"]["authors"]["author"], dict)
    assert hit["info"]["type"] == "Informal and Other Publications"
    assert hit["info"]["key"].startswith("journals/corr/abs-") and hit["info"]["title"].endswith(".")
    empty = requests.get(base, params={"q": "zzzz yyyy", "format": "json"}).json()["result"]["hits"]
    assert "hit" not in empty and empty["@total"] == "0"


def test_dblp_record_bibtex(fake_services):
    key = next(iter(WORLD.dblp))
    r = requests.get(f"{fake_services.url_for('dblp')}/rec/{key}.bib", params={"param": 1})
    assert r.text.startswith(f"@article{{DBLP:{key},\n  author       = {{")
    assert requests.get(f"{fake_services.url_for('dblp')}/rec/conf/none/X.bib").status_code == 404


def test_arxiv_versions_and_errors(fake_services):
    renamed = next(p for p in WORLD.papers if p["title"].startswith("Conformal Thinking"))
    aid = renamed["arxiv"]["id"]
    feed = ET.fromstring(requests.get(fake_services.url_for("arxiv"), params={"id_list": f"{aid}v1"}).text)
    entry = feed.find("atom:entry", ATOM)
    assert entry.find("atom:id", ATOM).text == f"http://arxiv.org/abs/{aid}v1"
    assert entry.find("atom:title", ATOM).text.startswith("Compute When Worth It")
    latest = ET.fromstring(requests.get(fake_services.url_for("arxiv"), params={"id_list": aid}).text)
    assert latest.find("atom:entry/atom:title", ATOM).text.startswith("Conformal Thinking")
    bad = requests.get(fake_services.url_for("arxiv"), params={"id_list": "abc"})
    assert bad.status_code == 400 and "incorrect_id_format_for_abc" in bad.text
    none = ET.fromstring(requests.get(fake_services.url_for("arxiv"), params={"id_list": "2601.99999"}).text)
    assert none.find("opensearch:totalResults", ATOM).text == "0" and none.find("atom:entry", ATOM) is None


# ------------------------------------------------------------------------------ toggles


def test_latency_and_counting(fake_services):
    waits: list[float] = []
    fake_services.sleep = waits.append  # the latency each request is given, not sat through
    fake_services.latency = 0.1
    requests.get(fake_services.url_for("dblp") + "/search/publ/api", params={"q": "muon", "format": "json"})
    assert waits == [0.1]
    assert fake_services.counts("dblp") == {"GET /search/publ/api": 1}
    assert fake_services.requests() == 1


def test_rate_limit_then_recovery(fake_services):
    fake_services.fail("dblp", "429", times=1, retry_after="2")
    base = fake_services.url_for("dblp") + "/search/publ/api"
    first = requests.get(base, params={"q": "muon", "format": "json"})
    assert first.status_code == 429 and first.headers["Retry-After"] == "2" and first.content == b""
    assert requests.get(base, params={"q": "muon", "format": "json"}).status_code == 200


def test_challenge_gate_only_on_the_paths_asked(fake_services):
    fake_services.fail("openreview", "403", paths=("/notes",))
    base = fake_services.url_for("openreview")
    gated = requests.get(base + "/notes", params={"id": LIMUON["openreview"]["id"]})
    assert gated.status_code == 403 and gated.json()["name"] == "ChallengeRequiredError"
    assert requests.get(base + "/notes/search", params={"term": "LiMuon"}).status_code == 200


def test_reset_and_down_fail_at_the_connection(fake_services):
    fake_services.fail("crossref", "reset", times=1)
    with pytest.raises(requests.ConnectionError):
        requests.get(fake_services.url_for("crossref") + "/works", params={"query": "x"})
    fake_services.down("arxiv")
    with pytest.raises(requests.ConnectionError):
        requests.get(fake_services.url_for("arxiv"), params={"id_list": "2601.00001"}, timeout=5)
    fake_services.up("arxiv")
    assert requests.get(fake_services.url_for("arxiv"), params={"id_list": "2601.00001"}).status_code == 200


# ------------------------------------------------------------------------------ end to end


def _sources(fake: FakeServices, **overrides):
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, REPO, env=env)
    settings.cache_dir = None
    settings.retries = overrides.get("retries", 1)
    client = build_client(settings)
    client.sleep = lambda seconds: None  # Retry-After waits are asserted elsewhere, not sat through
    return build_sources(settings, client=client, cache=open_cache(settings))


def _groups():
    notes = REPO / "notes"
    if not (notes / "notes-icml2026-trip-report.txt").exists():
        pytest.skip("the bundled notes/ are missing from this checkout")
    result = extract_paths([notes], REPO)
    return group_mentions(result.mentions)


def _meant_paper(work):
    """The world paper the notes describe (by page URL, any of its titles, or abstract)."""
    return WORLD.meant_paper(work.mentions)


UNKNOWN_TITLES = [
    "A Theory of How Pretraining Shapes Inductive Bias in Fine-Tuning",
]
#: papers only the conference's own list knows (accepted, not found by any search)
LIST_ONLY_TITLES = [
    "Geometric Rate-Distortion Invariance for Domain Generalization",
    "Contribution Weights: A Geometrical Analysis of Self-Attention Transformers",
]


def test_every_known_paper_resolves_to_its_icml_record_and_unknown_ones_stay_notes_only(fake_services):
    groups = _groups()
    report = resolve_groups(groups, _sources(fake_services), jobs=8)
    assert report.problems == []
    resolved_icml = set()
    for work in report.works:
        paper = _meant_paper(work)
        if paper is None:
            assert work.status == "notes-only", (work.mentions[0].title, work.reason)
            continue
        assert work.status == "resolved", (paper["title"], work.reason)
        assert WORLD.is_record_of(work.chosen, paper), (paper["title"], work.chosen)
        if paper["expect"] == "icml":
            assert work.chosen.source in ("conferences", "openreview")
            assert work.chosen.stage == "accepted" and work.chosen.venue == "ICML 2026"
            resolved_icml.add(paper["title"])
        else:
            assert work.chosen.source == "arxiv" and work.chosen.id == paper["arxiv"]["id"]
    known = {p["title"] for p in WORLD.papers if p["expect"] == "icml"}
    assert resolved_icml == known
    titles = {normalize_title(w.mentions[0].title or ""): w for w in report.works}
    for title in UNKNOWN_TITLES:
        assert titles[normalize_title(title)].status == "notes-only"
    for title in LIST_ONLY_TITLES:
        work = titles[normalize_title(title)]
        assert work.status == "resolved" and work.chosen.source == "conferences"
    renamed = titles[normalize_title("Compute When Worth It: Risk Control for Reasoning on a Compute Budget")]
    assert renamed.chosen.title.startswith("Conformal Thinking")
    # presentation type travels with the record: the oral paper, a spotlight, a poster
    by_title = {w.chosen.title: w.chosen for w in report.works if w.chosen}
    assert by_title["Learning Rate Transfer Across Widths and Depths Under Adaptive Optimizers"].extra[
        "presentation"] == "oral"
    assert by_title["Flat Minima and Generalization: Insights from Stochastic Convex Optimization"].extra[
        "presentation"] == "spotlight"
    assert by_title["LiMuon: Light and Fast Muon Optimizer for Large Models"].extra["presentation"] == "poster"


def test_a_down_service_is_reported_once_and_costs_nothing_else(fake_services):
    fake_services.down("crossref")
    report = resolve_groups(_groups(), _sources(fake_services, retries=0), jobs=8)
    crossref_lines = [p for p in report.problems if p.startswith("crossref")]
    assert len(crossref_lines) <= 1 and all("unreachable" in line for line in crossref_lines)
    assert report.counts()["resolved"] >= len([p for p in WORLD.papers if p["expect"] == "icml"])


def test_an_unreachable_conference_list_leaves_the_other_sources_working(fake_services):
    """The ICML 2026 list that nearly every mention needs is out of reach: a few of its works
    are looked up in the other services in its place (a budget, not one search per mention),
    the rest wait for the next sync, and nothing is attached wrongly."""
    from citekit.resolve.fallback import FALLBACK_WORKS

    fake_services.down("conferences")
    report = resolve_groups(_groups(), _sources(fake_services, retries=0), jobs=8)
    lines = [p for p in report.problems if p.startswith("conferences")]
    said = re.fullmatch(r"conferences: 127\.0\.0\.1:\d+ unreachable \(connection refused\): the ICML 2026 paper list "
                        r"was skipped; (\d+) mentions left pending", lines[0] if len(lines) == 1 else "")
    assert said, report.problems
    waiting = [w for w in report.works if w.reason.startswith("not looked up")]
    unresolved = [w for w in report.works if w.status != "resolved"]
    assert len(waiting) <= int(said.group(1)) <= len(unresolved)
    assert len(waiting) >= len(report.works) - FALLBACK_WORKS - 10  # nearly every work waits for the list
    assert fake_services.requests("openreview") <= FALLBACK_WORKS + len(report.works) - len(waiting)
    # OpenReview, arXiv and dblp still resolve what they know, and nothing wrongly
    assert report.counts()["resolved"] >= 1
    for work in report.works:
        paper = _meant_paper(work)
        if work.chosen is not None:
            assert paper is not None and WORLD.is_record_of(work.chosen, paper)


def test_openreview_behind_a_challenge_leaves_other_sources_working(fake_services):
    fake_services.fail("openreview", "403")
    report = resolve_groups(_groups(), _sources(fake_services), jobs=8)
    assert len([p for p in report.problems if p.startswith("openreview")]) <= 1
    limuon = next(w for w in report.works if w.chosen and w.chosen.title.startswith("LiMuon"))
    assert limuon.chosen.source == "conferences"  # the conference's own list needs no OpenReview
    # nothing is attached wrongly when the OpenReview records are out of reach
    for work in report.works:
        paper = _meant_paper(work)
        if work.chosen is not None:
            assert paper is not None and WORLD.is_record_of(work.chosen, paper)


# ------------------------------------------------------------------------------ fakes and fixtures

FIXTURES = REPO / "tests" / "fixtures" / "api"


def _recorded(*names: str) -> list:
    return [json.loads((FIXTURES / name).read_text(encoding="utf-8")) for name in names]


def _fake_answers(fake: FakeServices) -> list[tuple[str, object, list, frozenset[str]]]:
    """(what, the fake's JSON answer, the recorded answers it must look like, record paths)."""
    doi = WORLD.crossref_items[0]["item"]["DOI"]
    note = WORLD.notes[0]
    dblp_title = next(iter(WORLD.dblp.values()))["title"].split()[0]
    get = lambda service, path, **params: requests.get(fake.url_for(service) + path, params=params).json()  # noqa: E731
    crossref_records = frozenset({"message", "message.items[]", "message.items[].author[]",
                                  "message.items[].event"})
    # a search lists whole work records: the recorded work counts as one of its items
    (searched, work) = _recorded("crossref/search_decoys.json", "crossref/work_journal.json")
    searched["message"]["items"].append(work["message"])
    notes = _recorded("openreview/note_icml2025.json", "openreview/search_icml2026.json")
    dblp_records = frozenset({"result.hits.hit[].info"})
    openreview_records = frozenset({"notes[]", "notes[].content"})
    answers = [
        ("crossref work", get("crossref", f"/works/{doi}"), _recorded("crossref/work_journal.json"), crossref_records),
        ("crossref search", get("crossref", "/works", **{"query.bibliographic": "muon optimizer", "rows": "5"}),
         [searched, *_recorded("crossref/search_empty.json")], crossref_records),
        ("crossref refusal", get("crossref", "/works", **{"query.nonsense": "x"}),
         _recorded("crossref/validation_failure.json"), frozenset()),
        ("dblp search", get("dblp", "/search/publ/api", q=dblp_title, format="json"),
         _recorded("dblp/search_icml.json", "dblp/search_single_author.json"), dblp_records),
        ("dblp no hits", get("dblp", "/search/publ/api", q="qqqzzz", format="json"),
         _recorded("dblp/search_zero_hits.json"), dblp_records),
        ("openreview note", get("openreview", "/notes", id=note["id"]), notes, openreview_records),
        ("openreview search", get("openreview", "/notes/search", term="muon", group="ICML.cc/2026/Conference"),
         notes, openreview_records),
        ("openreview not found", get("openreview", "/notes", id="Xx0NoSuchId"),
         _recorded("openreview/not_found.json"), frozenset()),
        ("openreview login", requests.post(fake.url_for("openreview") + "/login", json={"id": "a"}).json(),
         _recorded("openreview/login.json"), frozenset()),
        ("conference list", get("icml", "/static/virtual/data/icml-2026-orals-posters.json"),
         _recorded("conferences/icml-2026-orals-posters.json", "conferences/iclr-2026-orals-posters.page1.json",
                   "conferences/iclr-2026-orals-posters.page2.json"), frozenset({"results[]"})),
    ]
    fake.fail("openreview", "429", times=1)
    answers.append(("openreview rate limit", get("openreview", "/notes", id=note["id"]),
                    _recorded("openreview/rate_limit.json"), frozenset()))
    fake.fail("openreview", "403", times=1)
    answers.append(("openreview challenge", get("openreview", "/notes", id=note["id"]),
                    _recorded("openreview/challenge_required.json"), frozenset()))
    return answers


def test_each_fake_answer_has_the_shape_of_the_recorded_answer(fake_services):
    answers = _fake_answers(fake_services)
    assert len(answers) == 12
    for what, fake, recorded, records in answers:
        assert json_shape_differences(fake, recorded, records=records) == [], what
    # the abstracts file is one object from event ids to texts
    (recorded,) = _recorded("conferences/icml-2026-abstracts.json")
    fake = requests.get(fake_services.url_for("icml") + "/static/virtual/data/icml-2026-abstracts.json").json()
    for abstracts in (recorded, fake):
        assert abstracts and all(k.isdigit() and isinstance(v, str) for k, v in abstracts.items())


def test_the_shape_check_sees_a_renamed_key_a_changed_type_and_a_lost_envelope():
    (recorded,) = _recorded("dblp/search_icml.json")
    records = frozenset({"result.hits.hit[].info"})
    renamed = json.loads(json.dumps(recorded).replace('"@total"', '"total"'))
    assert "result.hits.total: not in the recorded answer" in json_shape_differences(renamed, [recorded])
    retyped = json.loads(json.dumps(recorded))
    retyped["result"]["hits"]["@sent"] = 2
    assert json_shape_differences(retyped, [recorded], records=records) == ["result.hits.@sent: number, recorded string"]
    assert json_shape_differences({"hits": recorded["result"]["hits"]}, [recorded])  # no "result" envelope


def test_each_fake_feed_has_the_elements_of_the_recorded_feeds(fake_services):
    aids = list(WORLD.arxiv)[:3]
    url = fake_services.url_for("arxiv")
    recorded = {name: (FIXTURES / "arxiv" / name).read_text(encoding="utf-8")
                for name in ("id_2202.12139.xml", "batch_versioned.xml", "empty.xml", "error_incorrect_id.xml")}
    found = xml_elements(requests.get(url, params={"id_list": ",".join(aids)}).text)
    assert found <= xml_elements(recorded["id_2202.12139.xml"]) | xml_elements(recorded["batch_versioned.xml"])
    assert any(tag.endswith("}entry/{http://www.w3.org/2005/Atom}title") for tag in found)
    empty = requests.get(url, params={"id_list": "2601.99999"}).text
    assert xml_elements(empty) == xml_elements(recorded["empty.xml"])
    error = requests.get(url, params={"id_list": "abc"}).text
    assert xml_elements(error) <= xml_elements(recorded["error_incorrect_id.xml"])


def test_each_fake_bibtex_record_uses_the_recorded_fields(fake_services):
    key = next(iter(WORLD.dblp))
    fake = requests.get(fake_services.url_for("dblp") + f"/rec/{key}.bib").text
    recorded = (FIXTURES / "dblp" / "rec_corr_abs-2303-17548.bib").read_text(encoding="utf-8")
    fields = lambda text: re.findall(r"^\s+(\w+)\s*=", text, re.M)  # noqa: E731
    assert fake.startswith("@article{DBLP:") and recorded.startswith("@article{DBLP:")
    assert fields(fake) == fields(recorded)


def test_a_world_record_with_a_field_no_recorded_record_has_is_refused():
    note = dict(WORLD.notes[0])
    with pytest.raises(KeyError, match="venue_id"):
        templates.openreview_note(dict(note, content=dict(note["content"], venue_id={"value": "x"})))
    with pytest.raises(KeyError, match="citations"):
        templates.dblp_info(dict(next(iter(WORLD.dblp.values())), citations="3"))
    assert templates.openreview_note(note) == note  # the world's notes are already in the recorded shape
