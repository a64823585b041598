"""The resolution pipeline against small in-memory sources."""

from __future__ import annotations

import threading
import time

import pytest

from citekit.core.model import Ids, Location
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.resolve.pipeline import merge_mentions, resolve_groups
from citekit.sources.base import Source, SourceError, SourceUnavailable
from citekit.core.text import title_tokens


class MemorySource:
    """A source over a fixed list of records; searches return every record sharing words.

    ``answer_anything`` mimics Crossref, which answers every query with its best guesses.
    """

    def __init__(self, name, records=(), *, answer_anything=False, delay=0.0, error=None):
        self.name = name
        self.records = list(records)
        self.answer_anything = answer_anything
        self.delay = delay
        self.error = error
        self.calls: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self.active = 0
        self.max_active = 0

    def _enter(self, call):
        with self._lock:
            self.calls.append(call)
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            if self.delay:
                time.sleep(self.delay)
            if self.error is not None:
                raise self.error
        finally:
            with self._lock:
                self.active -= 1

    def lookup(self, scheme, value):
        self._enter(("lookup", f"{scheme}:{value}"))
        return next((r for r in self.records if getattr(r.ids, scheme) == value), None)

    def search(self, mention):
        self._enter(("search", mention.title or (mention.abstract or "")[:30]))
        if self.answer_anything:
            return list(self.records)
        words = set(title_tokens(mention.title or mention.abstract or ""))
        return [r for r in self.records if len(words & set(title_tokens(r.title + " " + (r.abstract or "")))) >= 2]


def rec(source, id, title, authors, *, stage="accepted", venue="ICML 2026", year=2026, ids=None, abstract=None):
    return Candidate(source=source, id=id, title=title, authors=[parse_name(a) for a in authors], venue=venue,
                     year=year, stage=stage, ids=ids or Ids(), abstract=abstract)


def titled(title, authors=(), *, line=1, ids=None, pins=None):
    return Mention(kind="titled", location=Location("notes/trip.txt", line), title=title, authors=list(authors),
                   venue="ICML", year=2026, ids=ids or Ids(), pins=pins or Ids())


LORDO = "LoRDO: Distributed Low-Rank Optimization with Infrequent Communication"
LORDO_AUTHORS = ["Andrej Jovanović", "Alex Iacob", "Mher Safaryan", "Dan Alistarh", "Nicholas Lane"]
RENAMED = "Compute When Worth It: Risk Control for Reasoning on a Compute Budget"
RENAMED_AUTHORS = ["Xi Wang", "Anushri Suresh", "Alvin Zhang", "Rishi More", "William Jurayj",
                   "Mehrdad Farajtabar", "Daniel Khashabi", "Eric Nalisnick"]


def world():
    openreview = MemorySource("openreview", [
        rec("openreview", "Lr7dQw2mKp", LORDO, LORDO_AUTHORS, ids=Ids(openreview="Lr7dQw2mKp", arxiv="2601.04321")),
        rec("openreview", "Ax3nZr8tWq", LORDO, ["Anonymous"], stage="rejected", venue="Submitted to ICLR 2026",
            year=2025, ids=Ids(openreview="Ax3nZr8tWq", arxiv="2601.04321")),
        rec("openreview", "Ct5hRk1vNs", "Conformal Thinking: Risk Control for Reasoning on a Compute Budget",
            RENAMED_AUTHORS[:3] + ["Jiacheng Liu"] + RENAMED_AUTHORS[3:], ids=Ids(openreview="Ct5hRk1vNs")),
    ])
    arxiv = MemorySource("arxiv", [
        rec("arxiv", "2601.04321", "LoRDO: Low-Rank Optimization with Infrequent Communication", LORDO_AUTHORS,
            stage="preprint", venue=None, year=2026, ids=Ids(arxiv="2601.04321")),
    ])
    crossref = MemorySource("crossref", [
        rec("crossref", "10.5555/decoy.1", "Thinking Fast: Risk Control for Reasoning on a Compute Budget",
            ["Hannah Becker", "Tomas Novak"], stage="published", venue=None, ids=Ids(doi="10.5555/decoy.1")),
        rec("crossref", "10.5555/decoy.2", "A Completely Unknown Study of Something Else", ["Jane Roe"],
            stage="published", venue=None, ids=Ids(doi="10.5555/decoy.2")),
    ], answer_anything=True)
    dblp = MemorySource("dblp", [])
    return {"openreview": openreview, "arxiv": arxiv, "crossref": crossref, "dblp": dblp}


def test_memory_source_satisfies_the_source_protocol():
    assert isinstance(MemorySource("x"), Source)


def test_resolves_to_the_icml_record_and_links_versions_by_id():
    sources = world()
    report = resolve_groups([[titled(LORDO, LORDO_AUTHORS)]], list(sources.values()))
    work = report.works[0]
    assert work.status == "resolved"
    assert work.chosen.id == "Lr7dQw2mKp"
    assert {v.id for v in work.versions} == {"Lr7dQw2mKp", "Ax3nZr8tWq", "2601.04321"}
    # settled by OpenReview: no title search anywhere else, the arXiv version came by id
    assert sources["crossref"].calls == [] and sources["dblp"].calls == []
    assert sources["arxiv"].calls == [("lookup", "arxiv:2601.04321")]
    assert report.problems == []


def test_renamed_paper_resolves_and_the_subtitle_decoy_does_not_interfere():
    sources = world()
    work = resolve_groups([[titled(RENAMED, RENAMED_AUTHORS)]], sources).works[0]
    assert work.status == "resolved"
    assert work.chosen.title.startswith("Conformal Thinking")


def test_unknown_paper_stays_notes_only_despite_crossref_answers():
    sources = world()
    work = resolve_groups([[titled("Geometric Rate-Distortion Invariance for Domain Generalization",
                                   ["Tong Liu", "Sen Liang", "Shuo Bai"])]], sources).works[0]
    assert work.status == "notes-only"
    assert work.chosen is None
    assert "no source knows this title" in work.reason
    assert len(sources["crossref"].calls) == 1  # it was asked, its answers were refused


def test_two_papers_fitting_equally_make_the_work_ambiguous():
    same = "Adaptive Momentum and Nonlinear Damping for Neural Network Training"
    sources = {"crossref": MemorySource("crossref", [
        rec("crossref", "10.5555/a", same, ["Aikaterini Karoni"], stage="published", ids=Ids(doi="10.5555/a")),
        rec("crossref", "10.5555/b", same, ["Bruno Costa"], stage="published", ids=Ids(doi="10.5555/b")),
    ])}
    work = resolve_groups([[titled(same)]], sources).works[0]  # the notes give no authors
    assert work.status == "ambiguous"
    assert work.chosen is None
    assert {c.id for c in work.runners_up} == {"10.5555/a", "10.5555/b"}
    assert work.reason.startswith("2 candidates within 0.00")
    assert all(c.score > 0.9 for c in work.runners_up)


def test_pinned_identifier_wins_without_scoring():
    sources = world()
    # the pin points at a record whose title the notes spell differently: the user decided
    pinned = titled("LoRDO (the arXiv one)", ["Someone Else"], pins=Ids(arxiv="2601.04321"))
    work = resolve_groups([[pinned]], sources).works[0]
    assert work.status == "resolved"
    assert work.chosen.id == "2601.04321"
    assert "pinned to arxiv:2601.04321" in work.reason
    assert all(call[0] == "lookup" for s in sources.values() for call in s.calls)


def test_config_pins_by_normalized_title():
    sources = world()
    pins = {"lordo distributed low rank optimization with infrequent communication": Ids(openreview="Ax3nZr8tWq")}
    work = resolve_groups([[titled(LORDO, LORDO_AUTHORS)]], sources, pins=pins).works[0]
    assert work.chosen.id == "Ax3nZr8tWq"  # even a rejected submission, because it is pinned


def test_identifier_from_the_notes_is_fetched_first():
    sources = world()
    work = resolve_groups([[titled(LORDO, LORDO_AUTHORS, ids=Ids(openreview="Lr7dQw2mKp"))]], sources).works[0]
    assert work.chosen.id == "Lr7dQw2mKp"
    assert sources["openreview"].calls[0] == ("lookup", "openreview:Lr7dQw2mKp")
    assert not any(call[0] == "search" for s in sources.values() for call in s.calls)


def test_identifier_pointing_at_another_paper_is_not_attached():
    sources = world()
    wrong = titled("Geometric Rate-Distortion Invariance for Domain Generalization", ["Tong Liu", "Sen Liang"],
                   ids=Ids(openreview="Lr7dQw2mKp"))
    work = resolve_groups([[wrong]], sources).works[0]
    assert work.status == "notes-only"


def test_abstract_mention_searches_only_abstract_capable_sources():
    text = ("We propose BaLoRA, a variant of low-rank adaptation that projects iterates onto a balanced manifold, "
            "improving the conditioning of the loss landscape while preserving the adapted matrix.")
    sources = world()
    sources["openreview"].records.append(
        rec("openreview", "Bl9pLm4QzX", "Balanced Low-Rank Adaptation", ["Ana Silva"], abstract=text,
            ids=Ids(openreview="Bl9pLm4QzX")))
    m = Mention(kind="abstract", location=Location("notes/abstracts.txt", 3), abstract=text, hints=["BaLoRA"])
    work = resolve_groups([[m]], sources).works[0]
    assert work.status == "resolved" and work.chosen.id == "Bl9pLm4QzX"
    assert sources["crossref"].calls == [] and sources["dblp"].calls == []


def test_works_come_back_in_group_order():
    sources = world()
    groups = [[titled(t, a, line=i)] for i, (t, a) in enumerate(
        [(RENAMED, RENAMED_AUTHORS), ("Nothing Anyone Knows About", ["A Person"]), (LORDO, LORDO_AUTHORS)])]
    works = resolve_groups(groups, sources, jobs=3).works
    assert [w.mentions[0].location.line for w in works] == [0, 1, 2]
    assert [w.status for w in works] == ["resolved", "notes-only", "resolved"]


def test_concurrency_is_bounded_by_jobs():
    groups = [[titled(f"Paper number {i} about optimizers", ["A Person"], line=i)] for i in range(16)]
    slow = MemorySource("openreview", delay=0.05)
    resolve_groups(groups, [slow], jobs=1)
    assert slow.max_active == 1
    slow = MemorySource("openreview", delay=0.05)
    resolve_groups(groups, [slow], jobs=8)
    assert 6 <= slow.max_active <= 8


def test_unavailable_source_is_skipped_and_reported_once():
    down = MemorySource("crossref", error=SourceUnavailable("crossref", "connection refused"))
    groups = [[titled(f"Paper number {i} about optimizers", ["A Person"], line=i)] for i in range(10)]
    report = resolve_groups(groups, [down], jobs=1)
    assert len(down.calls) == 1
    assert report.problems == [
        "crossref unreachable (connection refused): the papers only it could answer were not looked up"]
    assert all(w.status == "notes-only" and "crossref unreachable" in w.reason for w in report.works)
    report = resolve_groups(groups, [MemorySource("crossref", error=SourceUnavailable("crossref", "down"))], jobs=8)
    assert len(report.problems) == 1


def test_credentials_problem_reported_once_and_other_sources_still_answer():
    sources = world()
    sources["openreview"].error = SourceError("openreview", "ChallengeRequiredError", needs_credentials=True)
    groups = [[titled(LORDO, LORDO_AUTHORS, line=1)], [titled(RENAMED, RENAMED_AUTHORS, line=2)]]
    report = resolve_groups(groups, sources, jobs=2)
    assert len(report.problems) == 1 and report.problems[0].startswith("openreview needs credentials")
    lordo, renamed = report.works
    assert lordo.status == "resolved" and lordo.chosen.source == "arxiv"  # the preprint, found by title on arXiv
    assert renamed.status == "notes-only" and "openreview needs credentials" in renamed.reason


def test_a_failing_request_is_reported_once_but_the_source_stays_in_use():
    flaky = MemorySource("openreview", error=SourceError("openreview", "HTTP 500 after 3 retries"))
    groups = [[titled(f"Paper number {i} about optimizers", ["A Person"], line=i)] for i in range(3)]
    report = resolve_groups(groups, [flaky], jobs=1)
    assert len(flaky.calls) == 3
    assert len(report.problems) == 1


def test_progress_bar_only_when_asked(capsys):
    groups = [[titled(LORDO, LORDO_AUTHORS)]]
    resolve_groups(groups, world(), progress=False)
    assert capsys.readouterr().err == ""
    resolve_groups(groups, world(), progress=True)
    captured = capsys.readouterr()
    assert "resolving" in captured.err and captured.out == ""


def test_jobs_must_be_positive():
    with pytest.raises(ValueError, match="--jobs 1"):
        resolve_groups([], [], jobs=0)


def test_merge_mentions_fills_gaps_from_the_group():
    a = titled(LORDO, line=5)
    b = Mention(kind="titled", location=Location("n", 9), title=LORDO, authors=LORDO_AUTHORS,
                ids=Ids(arxiv="2601.04321"), hints=["LoRDO"])
    merged = merge_mentions([a, b])
    assert merged.authors == LORDO_AUTHORS and merged.ids.arxiv == "2601.04321" and merged.hints == ["LoRDO"]


# ------------------------------------------------------------------------------ against the fakes

from citekit.sources import SourceSettings, build_client, build_sources, open_cache  # noqa: E402

from .fakeservices.world import World  # noqa: E402

WORLD = World.load()


def _fake_sources(fake, **settings_overrides):
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, ".", env=env)
    settings.cache_dir = None
    for k, v in settings_overrides.items():
        setattr(settings, k, v)
    client = build_client(settings)
    return build_sources(settings, client=client, cache=open_cache(settings))


def _paper(prefix):
    return next(p for p in WORLD.papers if p["title"].startswith(prefix))


def test_an_earlier_title_with_its_arxiv_link_reaches_the_conference_record(fake_services):
    paper = _paper("Conformal Thinking")
    old = paper["arxiv"]["versions"][0]["title"]  # "Compute When Worth It: ..."
    aid = paper["arxiv"]["id"]
    m = titled(old, paper["authors"][:3], ids=Ids(arxiv=aid))
    m = Mention(**{**m.__dict__, "urls": [f"https://arxiv.org/abs/{aid}v1"], "venue": None, "year": None})
    work = resolve_groups([[m]], _fake_sources(fake_services)).works[0]
    assert work.status == "resolved", work.reason
    # the arXiv record names the notes' link and agrees on the authors; its comment
    # ("Accepted at ICML 2026") leads to the list's record of the same work
    assert work.chosen.stage == "accepted" and work.chosen.venue == "ICML 2026"
    assert work.chosen.title == paper["title"]
    assert {v.source for v in work.versions} >= {"arxiv", "conferences"}


def test_a_workshop_record_links_its_preprint_which_leads_to_the_conference_record(fake_services):
    paper = _paper("Conformal Thinking")
    workshop = paper["workshop"]
    m = titled(workshop["title"], workshop["authors"][:4])
    m = Mention(**{**m.__dict__, "venue": None, "year": None})
    work = resolve_groups([[m]], _fake_sources(fake_services)).works[0]
    assert work.status == "resolved", work.reason
    assert work.chosen.title == paper["title"] and work.chosen.venue == "ICML 2026"
    # OpenReview workshop note -> its arXiv link -> the preprint's "Accepted at ICML 2026"
    assert {v.source for v in work.versions} >= {"openreview", "arxiv", "conferences"}


def test_an_earlier_title_is_never_accepted_on_the_title_alone(fake_services):
    paper = _paper("Conformal Thinking")
    aid = paper["arxiv"]["id"]
    m = titled(paper["arxiv"]["versions"][0]["title"], ["Someone Else", "Another Person"], ids=Ids(arxiv=aid))
    m = Mention(**{**m.__dict__, "venue": None, "year": None})
    work = resolve_groups([[m]], _fake_sources(fake_services)).works[0]
    assert work.status != "resolved" or all(v.source != "arxiv" or v.id != aid for v in [work.chosen])


def test_arxiv_ids_of_all_notes_go_out_in_one_batch(fake_services):
    papers = [p for p in WORLD.papers if "arxiv" in p][:5]
    groups = [[Mention(kind="url", location=Location("n.md", i), urls=[f"https://arxiv.org/abs/{p['arxiv']['id']}"],
                       ids=Ids(arxiv=p["arxiv"]["id"]))] for i, p in enumerate(papers)]
    report = resolve_groups(groups, _fake_sources(fake_services, enabled=["arxiv"]), jobs=4)
    assert fake_services.counts("arxiv")["GET /"] == 1
    assert [w.chosen.id for w in report.works] == [p["arxiv"]["id"] for p in papers]


def test_a_conference_page_url_costs_no_request_beyond_the_list(fake_services):
    paper = _paper("LiMuon")
    m = Mention(kind="url", location=Location("n.md", 1), authors=list(paper["authors"]),
                urls=[f"https://icml.cc/virtual/2026/poster/{paper['virtual']['poster']}"], venue="ICML", year=2026)
    work = resolve_groups([[m]], _fake_sources(fake_services)).works[0]
    assert work.status == "resolved" and work.chosen.source == "conferences"
    assert work.chosen.ids.openreview == paper["openreview"]["id"]
    assert sum(fake_services.requests(s) for s in ("openreview", "crossref", "dblp", "arxiv")) == 0
    assert fake_services.requests("conferences") == 2  # the list and its abstracts, once


def test_a_page_url_with_other_authors_is_not_trusted(fake_services):
    paper = _paper("LiMuon")
    m = titled("A Completely Different Paper About Graphs", ["Nobody Here", "Also Nobody"])
    m = Mention(**{**m.__dict__, "urls": [f"https://icml.cc/virtual/2026/poster/{paper['virtual']['poster']}"]})
    work = resolve_groups([[m]], _fake_sources(fake_services)).works[0]
    assert work.status != "resolved"


def test_an_identifier_of_another_paper_is_taken_off_and_reported():
    """The title and authors name one paper, the arXiv id on the same line another: the work
    is the title's paper, the id and its link are not attached to it, and the user is told
    (the ResNet/LoRA fold of the issue, on records of this test's own world)."""
    sources = world()
    sources["openreview"].records.append(
        rec("openreview", "Cc1", RENAMED, RENAMED_AUTHORS, ids=Ids(openreview="Cc1")))
    mention = titled(RENAMED, RENAMED_AUTHORS[:2], ids=Ids(arxiv="2601.04321"))
    mention.urls = ["https://arxiv.org/abs/2601.04321"]
    work = resolve_groups([[mention]], sources).works[0]
    assert work.status == "resolved" and work.chosen.title == RENAMED
    assert all(m.ids.arxiv is None and not m.urls for m in work.mentions)
    (warning,) = work.warnings
    assert "arxiv:2601.04321" in warning and "LoRDO" in warning and "check the identifier" in warning
    from citekit.library.update import work_ids

    assert work_ids(work).arxiv is None


def test_an_identifier_of_the_same_paper_under_an_earlier_title_stays():
    sources = world()
    mention = titled("LoRDO: an earlier title of the same paper", LORDO_AUTHORS[:2], ids=Ids(arxiv="2601.04321"))
    work = resolve_groups([[mention]], sources).works[0]
    assert not work.warnings and work.mentions[0].ids.arxiv == "2601.04321"
