"""Resolve every paper of the notes against the metadata sources, concurrently.

One group of mentions (all the places the notes talk about one paper) becomes one
:class:`~citekit.core.model.Work`. Cheap exact sources go first, then batched lookups, then
searches for what is left:

0. before any group, the conference paper lists the notes need are loaded (one file per
   venue-year) and every arXiv id of the notes is fetched in batches of up to 100;
1. a pinned identifier (from the notes or ``citekit.yaml``) is fetched and wins outright;
2. a conference page URL (``/virtual/2026/poster/N``) is that event of the list: exact;
3. identifiers read from the notes' URLs are fetched (mostly from the batch already);
4. the sources are searched (the local conference list first, then OpenReview), stopping
   as soon as an accepted or published record matches with a clear margin; a work that
   reaches arXiv waits there, and the arXiv searches of all waiting works go out together,
   one ``OR``ed query per batch (:mod:`citekit.resolve.batched`), before each carries on;
5. the records that agree with the notes are grouped into works; one clear winner is
   resolved (its linked versions followed: identifiers, the list's OpenReview forum, an
   arXiv journal-ref/comment naming a conference), several close ones leave the work
   ``ambiguous``, none leaves it ``notes-only``.

A conference site that fails costs only its own venue-year's list (said in one sentence
with the mentions it left pending, and the other lists stay in use); the works only that
list could answer ask the other services in its place within a small budget
(:mod:`citekit.resolve.fallback`), never one search per mention. A pasted abstract that
its venue-year's list answered (abstracts included) is not searched again in that venue's
OpenReview group. A source that is down is skipped for the
rest of the run and reported once: the works it
alone could have resolved are marked ``unasked`` (not looked up), and the command that ran
says what a later run does about them (a sync: they stay notes-only until the next online
sync; ``upgrade``: imported entries stay imported until it runs again online).
"""

from __future__ import annotations

import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence, TypeVar

from tqdm import tqdm

from citekit.core import venues
from citekit.core.ids import ARXIV_DOI_PREFIX, ids_from_url, pmlr_id
from citekit.core.model import Ids
from citekit.core.resolution import NOT_LOOKED_UP, UNASKED_REASON, Candidate, Mention, Work
from citekit.resolve.batched import SharedBatch
from citekit.resolve import fallback as fallback_module
from citekit.resolve.fallback import FallbackBudget
from citekit.sources import registry
from citekit.sources.base import Source, SourceError, SourceUnavailable
from citekit.sources.cache import UsedAnswer, answers_used
from citekit.sources.queries import reference_search, reference_terms
from citekit.core.text import normalize_title
from citekit.matching.works import (FINAL_STAGES, choose_version, group_versions, renamed_version, same_candidates,
                                    stage_rank)
from citekit.notes.urls import classify_url
from citekit.matching.candidates import ACCEPT, MatchScore, author_overlap, authors_agree, is_anonymous, scored
from citekit.core.lazyre import lazy

#: A winner must beat the best other work by this much, or the work is ambiguous.
MARGIN = 0.05
#: Which sources serve each identifier scheme, first first; from the sources' registry
#: rows (``lookups``, ``rank``): a loaded conference list answers an OpenReview id locally.
SCHEME_SOURCES: dict[str, tuple[str, ...]] = registry.scheme_sources()
#: Search order for a titled mention, by the rows' ``rank``: the local conference list (no
#: request) first, then conference records, Crossref (noisiest) last.
TITLE_ORDER: tuple[str, ...] = registry.search_order()
#: sources whose searches send no request of their own (the conference lists, loaded once
#: before the groups): not a lookup of a paper when every other service was down
LOCAL_SEARCHES = frozenset({"conferences"})
#: Only these sources search abstract text (rows with ``searches_abstracts``).
ABSTRACT_ORDER: tuple[str, ...] = registry.search_order(abstracts_only=True)
#: The sources asked about a pasted reference whose title was not read (rows with a
#: ``reference_rank``): Crossref with the whole string, then dblp and arXiv with its words.
REFERENCE_ORDER: tuple[str, ...] = registry.reference_order()
_JOURNAL_REF_VENUE = lazy(r"\b(ICML|NeurIPS|NIPS|ICLR|MLSys)\b\D{0,12}((?:19|20)\d{2})", re.I)

T = TypeVar("T")


@dataclass
class ResolveReport:
    """The outcome of one run: one work per group (same order) and run-wide problems."""

    works: list[Work]
    problems: list[str] = field(default_factory=list)
    #: services that could not be reached, with why (each also one of ``problems``): a
    #: command may say them its own way (``upgrade``: one line with what to do next)
    unreachable: dict[str, str] = field(default_factory=dict)
    #: whether any service (not a conference list, which answers locally) gave an answer:
    #: without one, a run with unreachable services learned nothing (no network)
    answered: bool = False

    def counts(self) -> dict[str, int]:
        """How many works ended in each status."""
        out = {"resolved": 0, "ambiguous": 0, "notes-only": 0}
        for work in self.works:
            out[work.status] = out.get(work.status, 0) + 1
        return out


class _Health:
    """Which sources still answer, shared by all worker threads.

    Each problem is reported once per run however many works hit it, because a user with
    no network wants one line, not sixty.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down: dict[str, str] = {}  # source -> short reason ("unreachable", "needs credentials")
        self.unreachable: dict[str, str] = {}  # source -> why it could not be reached, as its error said
        self.problems: list[str] = []
        self._reported: set[tuple[str, str]] = set()
        self.answered = False  # set once by any thread: a bool written, never read-modified

    def note(self, name: str, text: str) -> None:
        """A problem that is not a failure (a stale copy was used): said once."""
        with self._lock:
            if (name, text) not in self._reported:
                self._reported.add((name, text))
                self.problems.append(f"{name}: {text}")

    def usable(self, name: str) -> bool:
        with self._lock:
            return name not in self.down

    def reason(self, name: str) -> str | None:
        with self._lock:
            return self.down.get(name)

    def failed(self, name: str, err: SourceError) -> str:
        """Record a failure; returns the short reason to show on the work."""
        with self._lock:
            if isinstance(err, SourceUnavailable) and getattr(err, "deadline", False):
                short = "deadline"
                self.down[name] = short
                line = f"stopped looking up papers: {err.message}"
                if ("*", short) not in self._reported:
                    self._reported.add(("*", short))
                    self.problems.append(line)
                return short
            if isinstance(err, SourceUnavailable):
                short = "unreachable"
                self.down[name] = short
                why = getattr(err, "cause", "") or err.message
                self.unreachable.setdefault(name, why)
                line = f"{name} unreachable ({why}): the papers only it could answer were not looked up"
            elif err.needs_credentials:
                # only lookups by id need an account: searches by title still work, so the
                # source stays usable (it answers further id lookups at once, sending nothing)
                short = "needs credentials"
                line = (f"{name} needs credentials for lookups by id; searching by title goes on. "
                        f"Set OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD (or OPENREVIEW_TOKEN) and sync again ({err.message})")
            else:
                short = "failed"
                line = f"{name} failed for some papers ({err.message}): they were not looked up there"
            if (name, short) not in self._reported:
                self._reported.add((name, short))
                self.problems.append(line)
            return short


def merge_mentions(group: Sequence[Mention]) -> Mention:
    """One query built from all the places the notes mention a paper.

    The titled mention with the most detail leads; other mentions fill its gaps (an
    abstract pasted elsewhere, identifiers from another URL, the venue from a heading).
    """
    if not group:
        raise ValueError("a mention group is empty; group_mentions never yields empty groups")
    titled = [m for m in group if m.title]
    lead = max(titled, key=lambda m: (bool(m.authors), len(m.authors), len(m.urls))) if titled else group[0]
    ids, pins = Ids(), Ids()
    for m in [lead, *group]:
        ids, pins = ids.merged(m.ids), pins.merged(m.pins)
    hints: list[str] = []
    for m in group:
        hints += [h for h in m.hints if h not in hints]
    return replace(
        lead,
        authors=lead.authors or next((m.authors for m in group if m.authors), []),
        abstract=lead.abstract or next((m.abstract for m in group if m.abstract), None),
        venue=lead.venue or next((m.venue for m in group if m.venue), None),
        year=lead.year or next((m.year for m in group if m.year), None),
        reference=lead.reference or next((m.reference for m in group if m.reference), None),
        heading_people=lead.heading_people or next((m.heading_people for m in group if m.heading_people), []),
        ids=ids,
        pins=pins,
        hints=hints,
    )


def _pin_for(group: Sequence[Mention], merged: Mention, pins: Mapping[str, Ids] | None) -> Ids:
    if merged.pins:
        return merged.pins
    table = {normalize_title(k): v for k, v in (pins or {}).items()}
    for m in group:
        if m.title and normalize_title(m.title) in table:
            return table[normalize_title(m.title)]
    return Ids()


class _WorkResolver:
    """Resolution of one group; owns its own state so groups can run in parallel."""

    def __init__(self, group: Sequence[Mention], sources: Mapping[str, Source], health: _Health,
                 pins: Mapping[str, Ids] | None, precedence: Sequence[str] | None,
                 deferred: frozenset[str] = frozenset()) -> None:
        self.group = list(group)
        #: sources whose searches wait for one batched request (:mod:`citekit.resolve.batched`)
        self.deferred = deferred
        #: where the search stopped for a batched source not yet sent: (order, its index)
        self.waiting: tuple[Sequence[str], int] | None = None
        #: the run's shared batches, by source (:class:`citekit.resolve.batched.SharedBatch`),
        #: and this work's key in them
        self.batches: Mapping[str, SharedBatch] = {}
        self.key = 0
        #: the batches this work has said to (joined or skipped)
        self._said: set[str] = set()
        self.mention = merge_mentions(group)
        self.sources = sources
        self.health = health
        self.pin = _pin_for(group, self.mention, pins)
        self.precedence = precedence
        self.records: dict[tuple[str, str], Candidate] = {}
        self.scores: dict[tuple[str, str], MatchScore] = {}
        self.fetched: set[tuple[str, str]] = set()
        self.searched: list[str] = []
        self.trouble: dict[str, str] = {}  # source -> short reason, for this work's reason line
        #: records the notes themselves point at (their own identifiers, a conference page URL)
        self.identified: set[tuple[str, str]] = set()
        #: stored answers to the notes' own identifiers that described another paper
        self.mismatched: list[UsedAnswer] = []
        #: identifiers of the notes that answered with another paper: (scheme, value, record)
        self.foreign: list[tuple[str, str, Candidate]] = []
        #: web pages the notes link, as read (``citekit.sources.web.PageFacts``), for the reason line
        self.pages: list[Any] = []
        #: the page a work was found through, and what of it was read
        self.page_used: Any = None
        #: the identifier of that page whose record was certain (scheme, value), if one was
        self.page_id: tuple[str, str] | None = None
        #: how the earlier-title step went, for the reason line
        self.earlier: str | None = None
        #: the words a title read unsure was also looked up by (:meth:`_by_reference_words`)
        self.reference_words: tuple[str, str | None] | None = None
        #: the skipped conference lists that alone could have answered this work (their
        #: sites failed), and the run's budget for asking other services in their place
        self.orphan_of: list[tuple[str, int]] = []
        self.fallback: FallbackBudget | None = None
        #: services this work did not ask because that budget was spent
        self.denied: set[str] = set()

    # ------------------------------------------------------------------ calls

    def _call(self, name: str, fn: Callable[[], T], *, budgeted: bool = True) -> T | None:
        """``fn()`` unless ``name`` is down (or, ``budgeted``, the work may not ask it: see
        :meth:`_admitted`); a failure is recorded for the run and for this work's reason."""
        if not self.health.usable(name):
            self.trouble[name] = self.health.reason(name) or "unavailable"
            return None
        if budgeted and not self._admitted(name):
            return None
        try:
            found = fn()
        except SourceError as err:
            self.trouble[name] = self.health.failed(name, err)
            return None
        if name not in LOCAL_SEARCHES:
            self.health.answered = True
        return found

    def _admitted(self, name: str) -> bool:
        """Whether this work may ask ``name``: always, unless only a skipped conference list
        could have answered it and the run's budget for asking in its place is spent
        (:mod:`citekit.resolve.fallback`); the work is then left for the next sync."""
        if not self.orphan_of or self.fallback is None or name in LOCAL_SEARCHES:
            return True
        if self.fallback.admit(self.key, name):
            return True
        self.denied.add(name)
        self.trouble[name] = "not asked"
        return False

    def _lookup(self, scheme: str, value: str) -> Candidate | None:
        """Fetch one identifier from the source that serves its scheme."""
        if (scheme, value) in self.fetched:
            return None
        self.fetched.add((scheme, value))
        if scheme == "doi" and value.startswith(ARXIV_DOI_PREFIX):
            return None  # DataCite DOIs are not in Crossref; the arXiv id covers them
        # the notes' arXiv ids were all fetched in one batch before the works (answered from
        # the cache now), and a pin is the user's own decision: neither draws on the budget
        # of a work whose conference list was skipped
        budgeted = scheme != "arxiv" and not self.pin
        for name in SCHEME_SOURCES.get(scheme, ()):
            source = self.sources.get(name)
            if source is None:
                continue
            found = self._call(name, lambda: source.lookup(scheme, value), budgeted=budgeted)
            if found is not None:
                return found
        return None

    def _add(self, candidate: Candidate) -> Candidate:
        key = (candidate.source, candidate.id)
        if key in self.records:
            return self.records[key]
        if self._comparable():
            candidate, result = scored(self.mention, candidate)
        else:
            candidate = replace(candidate, score=1.0)
            result = MatchScore(total=1.0, agrees=True, title_agreement="n/a", why="found by its identifier")
        self.records[key], self.scores[key] = candidate, result
        return candidate

    def _add_identified(self, candidate: Candidate, how: str, *, authors_required: bool) -> Candidate:
        """A record the notes point at by an identifier of their own (a conference page, an
        arXiv link): it is that paper even when the notes still use an earlier title, as
        long as the authors the notes list agree. Never on title similarity alone."""
        key = (candidate.source, candidate.id)
        if key in self.records or not self._comparable():
            return self._add(candidate)
        candidate, result = scored(self.mention, candidate)
        if not result.agrees and result.title_agreement in ("none", "conflict", "partial"):
            people = self.mention.authors
            agree = False
            if people and candidate.authors and not is_anonymous(candidate.authors):
                share, matched = author_overlap(people, candidate.authors)
                agree = authors_agree(share, matched, len(people), len(candidate.authors))
            if agree or (not people and not authors_required):
                why = f"{how}; the notes' title is an earlier one" + (", authors agree" if agree else "")
                result = MatchScore(total=1.0, agrees=True, title=result.title, title_agreement=result.title_agreement,
                                    authors=result.authors, matched_authors=result.matched_authors, why=why)
        elif result.agrees:
            result = replace(result, total=max(result.total, 1.0 if candidate.source == "conferences" else result.total),
                             why=f"{how}; {result.why}" if candidate.source == "conferences" else result.why)
        candidate = replace(candidate, score=result.total)
        self.records[key], self.scores[key] = candidate, result
        if result.agrees:
            self.identified.add(key)
        return candidate

    def _have(self, scheme: str, value: str) -> bool:
        """A record from the source serving ``scheme`` already carries this identifier.

        A conference list record counts for its OpenReview forum: the list is the
        proceedings' own copy of that record, so fetching the note adds nothing.
        """
        serving = (*SCHEME_SOURCES.get(scheme, ()), *(("conferences",) if scheme == "openreview" else ()))
        return any(c.source in serving and getattr(c.ids, scheme) == value for c in self.records.values())

    def _comparable(self) -> bool:
        m = self.mention
        return bool(m.title or m.abstract or m.authors or m.reference)

    # ------------------------------------------------------------------ steps

    def run(self) -> Work | None:
        """The work; None when it waits for a batched search (see :meth:`resume`)."""
        try:
            work = self._run()
        finally:
            self._say_all()
        return None if work is None else self._finish(work)

    def _say_all(self) -> None:
        """Skip every batch this work has not joined: a batch goes out once all have said."""
        for name, batch in self.batches.items():
            if name not in self._said:
                self._said.add(name)
                batch.skip()

    def _finish(self, work: Work) -> Work:
        work = self._kept_apart(work)
        if work.status != "resolved":
            # An identifier of the notes answered with another paper, and nothing else found
            # this one: the answer must not stand for the paper until it expires (a service
            # that was wrong once, a record since corrected). The next sync asks again; a
            # resolved work keeps its answers, so a second sync of it still asks nothing.
            for answer in self.mismatched:
                answer.dispute()
        return work

    def _run(self) -> Work | None:
        if self.pin:
            return self._pinned()
        conferences = self.sources.get("conferences")
        if conferences is not None and hasattr(conferences, "exact"):
            event = self._call("conferences", lambda: conferences.exact(self.mention))
            if event is not None:
                self._add_identified(event, "the conference's own page for this paper", authors_required=False)
        for scheme, value in self.mention.ids.items():
            if self._settled() and self._have(scheme, value):
                continue
            with answers_used() as answers:
                found = self._lookup(scheme, value)
            if found is not None:
                found = self._add_identified(found, f"the notes link its {scheme} record", authors_required=True)
                if not self.scores[(found.source, found.id)].agrees:
                    self.mismatched += answers
                    if self._contradicts(found):
                        self.foreign.append((scheme, value, found))
        if self._comparable() and not self._settled():
            if self._search(self._order(), 0):
                return None
        return self._conclude()

    def _order(self) -> Sequence[str]:
        """The sources to search, in order: by abstract, by pasted reference (no title read
        from it, :data:`REFERENCE_ORDER`), or by title."""
        if not self.mention.title and self.mention.abstract:
            return ABSTRACT_ORDER
        if not self.mention.title and self.mention.reference:
            return REFERENCE_ORDER
        return TITLE_ORDER

    def _conclude(self) -> Work:
        """The decision once the searches are done: a title that found nothing certain is
        looked for among earlier titles, then the pages the notes link are read."""
        if self.mention.title and self.mention.title_unsure and not self._certain():
            self._by_reference_words()
        if self.mention.title and not self._certain():
            self._earlier_title()
        if not self._certain():
            self._read_pages()
        return self._page_reason(self._decide())

    # ------------------------------------------------------------------ earlier titles and pages

    def _certain(self) -> bool:
        """A record agrees with the notes well enough to be chosen (at ``ACCEPT``)."""
        ranked = self._ranked()
        return bool(ranked) and ranked[0][0] >= ACCEPT

    def _by_reference_words(self) -> None:
        """A pasted reference whose title the parser read unsure and that title found
        nothing certain: dblp is searched with the string's likeliest title field and first
        family name too (arXiv's search already carried them, in the same clause), and what
        it finds is judged as always (a record whose whole title is a field of the string
        and whose first author it names is the paper, whatever the title read)."""
        untitled = replace(self.mention, title=None)
        words = reference_search(untitled)
        dblp = self.sources.get("dblp")
        if words is None or dblp is None or "dblp" not in self.searched:
            return
        self.reference_words = words
        for cand in self._call("dblp", lambda: dblp.search(untitled)) or []:
            self._add(cand)

    def _earlier_title(self) -> None:
        """The notes' title is an earlier one: search the submission records of every venue
        (OpenReview keeps a submission under the title it was sent with) and follow a record
        found so to the arXiv version it was renamed to (same authors, same abstract)."""
        openreview = self.sources.get("openreview")
        if openreview is None or not hasattr(openreview, "search_everywhere"):
            return
        for cand in self._call("openreview", lambda: openreview.search_everywhere(self.mention)) or []:
            self._add(cand)
        found = [c for c in self.records.values() if c.source == "openreview" and self.scores[(c.source, c.id)].agrees
                 and c.score >= ACCEPT]
        if not found:
            return
        self.earlier = "found under the notes' title in OpenReview's submissions"
        arxiv = self.sources.get("arxiv")
        if arxiv is None or not hasattr(arxiv, "by_authors"):
            return
        for record in found:
            if record.ids.arxiv or is_anonymous(record.authors):
                continue
            families = [p.family or p.raw for p in record.authors]
            for cand in self._call("arxiv", lambda: arxiv.by_authors(families)) or []:
                if not renamed_version(record, cand):
                    continue
                # the submission and its renamed preprint are one work: the submission's record
                # links the preprint, as OpenReview notes that name their arXiv version do
                linked = replace(record, ids=record.ids.merged(Ids(arxiv=cand.ids.arxiv)))
                self.records[(record.source, record.id)] = linked
                key = (cand.source, cand.id)
                if key not in self.records:
                    self.records[key] = replace(cand, score=linked.score)
                    self.scores[key] = replace(self.scores[(record.source, record.id)],
                                               why=f"renamed on arXiv from the notes' title '{record.title}'")
                self.earlier = f"the notes' title is its OpenReview submission's; renamed on arXiv as '{cand.title}'"
                break

    def _read_pages(self) -> None:
        """Read the pages the notes link (one request each, cached) and follow what they say."""
        web = self.sources.get("web")
        if web is None or not hasattr(web, "read"):
            return
        for url in page_urls(self.group, self.mention):
            facts = self._call("web", lambda: web.read(url))
            if facts is None:
                continue
            self.pages.append(facts)
            if facts.status == "paper" and self._from_page(facts):
                self.page_used = facts
                return

    def _from_page(self, facts: Any) -> bool:
        """Candidates from one page that describes a paper; True when one agrees.

        With a title of their own, the notes decide: every record the page leads to is
        scored against the notes' title and authors (a page for another paper gives nothing).
        Without one, the page's own title and authors stand in for it, and a record the page
        names by its metadata (``citation_arxiv_id``, a DOI) is its paper when it agrees with
        the page; identifiers the page only links, and searches by the page's title, need
        the usual agreement.
        """
        if not self._comparable():
            if not facts.title and not facts.ids:
                return False
            self.mention = replace(self.mention, kind="titled" if facts.title else self.mention.kind,
                                   title=facts.title, authors=self.mention.authors or list(facts.authors),
                                   year=facts.year or self.mention.year, venue=None, year_from_page=False)
        if self._page_ids(facts):
            return True
        if facts.title and self.mention.title == facts.title:
            for name in TITLE_ORDER:
                source = self.sources.get(name)
                if source is None:
                    continue
                self.searched.append(name)
                for cand in self._call(name, lambda: source.search(self.mention)) or []:
                    self._add(cand)
                if self._settled():
                    break
            self._page_ids(facts)  # a PMLR paper the page names is among what the search found
        return self._certain()

    def _page_ids(self, facts: Any) -> bool:
        """Records of the identifiers a page names in its metadata or links (the first three
        linked), each scored as usual; one the page's own metadata names and that agrees is
        identified by it. True once one is certain. PMLR has no service to look a paper up
        in: its record is the one among those found whose link (dblp's ``ee``) is that paper."""
        for scheme, value in [*facts.ids.items(), *facts.linked[:3]]:
            found = self._pmlr_record(value) if scheme == "pmlr" else self._lookup(scheme, value)
            if found is None:
                continue
            found = self._add(found)
            if self.scores[(found.source, found.id)].agrees and (scheme, value) in facts.ids.items():
                self.identified.add((found.source, found.id))
            if self._certain():
                if self.scores[(found.source, found.id)].agrees:
                    self.page_id = self.page_id or (scheme, value)
                return True
        return False

    def _pmlr_record(self, paper: str) -> Candidate | None:
        """The record found so far that links the PMLR paper ``paper`` (``v202/kim23a``)."""
        for cand in list(self.records.values()):
            links = [cand.url or "", *(cand.extra.get("ee") or "").split()]
            if any(pmlr_id(link) == paper for link in links if link):
                return cand
        return None

    def _page_reason(self, work: Work) -> Work:
        """Say on the work what the pages and the earlier title gave."""
        if work.status == "resolved" and self.page_used is not None:
            how = ", ".join(self.page_used.read_from) or "its links"
            if self.page_id:
                how += f"; its {_SCHEME_NAMES.get(self.page_id[0], self.page_id[0])} {self.page_id[1]}"
            return replace(work, reason=f"read from the page {self.page_used.url} ({how}); {work.reason}")
        if work.status == "resolved" and self.earlier:
            return replace(work, reason=f"{self.earlier}; {work.reason}")
        if work.status != "resolved" and self.pages:
            said = "; ".join(f.outcome() if f.status != "paper" else
                             f"{f.url} describes '{f.title or 'a paper'}', which no source confirms for this line"
                             for f in self.pages)
            return replace(work, reason=f"{work.reason}; the page {said}", page_note=f"the page {said}")
        return work

    def _search(self, order: Sequence[str], start: int) -> bool:
        """Search the sources of ``order`` from ``start`` on, until a record settles the work.

        True when the work stopped at a source whose searches are batched (``deferred``):
        it waits there, and :meth:`resume` carries on with that source's answer.
        """
        for at in range(start, len(order)):
            name = order[at]
            source = self.sources.get(name)
            if source is None:
                continue
            self._join_ahead(order, at)
            if self._answered_by_list(source):
                continue
            search = lambda: source.search(self.mention)  # noqa: E731
            if name in self.deferred and name in self._said and name in self.batches:
                answer = self.batches[name].answer(self.key)
                if answer is None:
                    self.waiting = (order, at)
                    return True
                search = answer
            self.searched.append(name)
            for cand in self._call(name, search) or []:
                self._add(cand)
            if self._settled():
                break
        return False

    def _answered_by_list(self, source: Source) -> bool:
        """The venue's own list already answered what ``source``'s search would: a pasted
        abstract that a source searches only within its venue-year's group (OpenReview) was
        compared with every accepted paper of that list, abstracts included; the group adds
        only submissions that were not accepted, whose preprints the arXiv search finds.
        One request less per such abstract, nothing lost that the list had."""
        conferences = self.sources.get("conferences")
        return (hasattr(source, "group_only") and source.group_only(self.mention)
                and conferences is not None and hasattr(conferences, "covers_abstracts")
                and self.health.usable("conferences") and conferences.covers_abstracts(self.mention))

    def _join_ahead(self, order: Sequence[str], at: int) -> None:
        """Join the batch of the batched source at ``order[at]``, or of the next one when
        only ``order[at]`` stands before it: the work says one source early so that the
        batch goes out while that source is asked (arXiv's three-second spacing runs
        alongside dblp, not after it). A work that source settles never uses its batched
        answer, which cost the batch one clause, not a request."""
        following = [j for j in range(at, len(order)) if order[j] in self.sources][:2]
        for j in following:
            name = order[j]
            if name in self.deferred and name in self.batches and name not in self._said:
                self._said.add(name)
                if self.health.usable(name) and self._admitted(name):
                    self.batches[name].join(self.key, self.mention, self._earlier_authors())
                else:
                    self.batches[name].skip()
                    self.deferred = self.deferred - {name}

    def _earlier_authors(self) -> list[list[str]]:
        """The by-author queries :meth:`_earlier_title` would send, when the records they
        come from are already known (the OpenReview search of every venue answered):
        asked in the batch, their answers wait in the cache should the step need them."""
        openreview = self.sources.get("openreview")
        if not self.mention.title or openreview is None or not hasattr(openreview, "searched_everywhere") \
                or not self.health.usable("openreview"):
            return []
        try:
            found = openreview.searched_everywhere(self.mention) or []
        except SourceError:
            return []
        out = []
        for record in found:
            record, result = scored(self.mention, record)
            if result.agrees and record.score >= ACCEPT and not record.ids.arxiv and not is_anonymous(record.authors):
                out.append([p.family or p.raw for p in record.authors])
        return out

    def resume(self) -> Work:
        """Carry on once the batch this work stopped at is out: its answer for this work,
        then the sources after it, then the decision, as if the search had been its own."""
        if self.waiting is None:
            raise RuntimeError("resume() called on a work that is not waiting for a batched search")
        (order, at), self.waiting = self.waiting, None
        if not self._search(order, at):
            return self._finish(self._conclude())
        raise RuntimeError(f"work {self.key} resumed before the {order[at]} batch was sent")

    def _kept_apart(self, work: Work) -> Work:
        """An identifier of the notes that names another paper than the line's title and
        authors (``Deep Residual Learning … arXiv:2106.09685``, LoRA's id) is taken off this
        work, with its links, and the user is told: one paper is never folded into another,
        and the identifier is not glued to the paper the title names."""
        foreign = [(scheme, value, record) for scheme, value, record in self.foreign
                   if work.chosen is None or getattr(work.chosen.ids, scheme) != value]
        if not foreign:
            return work
        drop = {(scheme, value) for scheme, value, _ in foreign}
        mentions = [_without_ids(m, drop) for m in work.mentions]
        where = self.group[0].location
        warnings = list(work.warnings) + [
            f"{where}: {scheme}:{value} in the notes is '{record.title}', another paper than '{self.mention.title}' "
            "(no author in common): it was not attached to it; check the identifier, and if you mean that "
            "paper too, write it on a line of its own"
            for scheme, value, record in foreign]
        return replace(work, mentions=mentions, warnings=warnings)

    def _pinned(self) -> Work:
        """A pinned identifier wins without any scoring veto: the user has decided."""
        chosen = None
        for scheme, value in self.pin.items():
            with answers_used() as answers:
                chosen = self._lookup(scheme, value)
            if chosen is not None:
                break
        pin_text = ", ".join(f"{s}:{v}" for s, v in self.pin.items())
        if chosen is None:
            return Work(mentions=self.group, status="notes-only",
                        reason=self._with_trouble(f"pinned to {pin_text} but no source could fetch it"))
        warnings = []
        if self._contradicts(chosen):
            # The pin still wins (the user decided), but a record whose title and authors both
            # differ from the notes' is most often a mistyped identifier or a service's error:
            # say so, and do not let the answer stand for months — the next sync asks again.
            for answer in answers:
                answer.dispute()
            warnings.append(
                f"{self.group[0].location}: the pinned {pin_text} is '{chosen.title}', not '{self.mention.title}' "
                "as the notes say, and no author agrees; check the identifier (the pin was kept)")
        chosen = replace(chosen, score=1.0)
        versions = self._linked_versions([chosen])
        return Work(mentions=self.group, chosen=chosen, versions=versions, status="resolved", score=1.0,
                    reason=f"pinned to {pin_text}", warnings=warnings)

    def _contradicts(self, record: Candidate) -> bool:
        """Whether a pinned record is plainly another paper than the notes describe: its title
        does not agree with the notes' title, and no author the notes list is among its own.
        Without authors on both sides nothing is said: a short name ("Switch Transformers")
        against the full title scores no title agreement, and is the same paper."""
        people = self.mention.authors
        if not self.mention.title or not people or not record.authors or is_anonymous(record.authors):
            return False
        _, result = scored(self.mention, record)
        if result.agrees or result.title_agreement not in ("none", "conflict", "partial"):
            return False
        share, matched = author_overlap(people, record.authors)
        return not authors_agree(share, matched, len(people), len(record.authors))

    def _ranked(self) -> list[tuple[float, list[Candidate], Candidate]]:
        """Works that agree with the notes: (best score, versions, best record), best first."""
        out = []
        for cluster in group_versions(list(self.records.values())):
            agreeing = [c for c in cluster if self.scores[(c.source, c.id)].agrees]
            if agreeing:
                best = max(agreeing, key=lambda c: c.score)
                out.append((best.score, cluster, best))
        out.sort(key=lambda t: -t[0])
        return out

    def _settled(self) -> bool:
        """An accepted or published record already wins clearly: further searches only cost time.

        A record whose title only partly agrees (a renamed version, found by search) does not
        stop the search: the record under the notes' own title may sit in a later source, and
        it then outranks the renamed one (another paper of the same authors, 1994a and 1994b)."""
        ranked = self._ranked()
        if not ranked or ranked[0][0] < ACCEPT:
            return False
        if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < MARGIN:
            return False
        return any(c.stage in FINAL_STAGES and self._settles((c.source, c.id)) for c in ranked[0][1])

    def _settles(self, key: tuple[str, str]) -> bool:
        result = self.scores[key]
        return result.agrees and (result.title_agreement != "partial" or key in self.identified)

    def _linked_versions(self, cluster: list[Candidate]) -> list[Candidate]:
        """The cluster plus the records its identifiers link to, fetched by id (cheap, exact),
        and the conference record a preprint's journal-ref or comment names."""
        known = {(c.source, c.id) for c in cluster}
        for _ in range(2):  # an OpenReview note links its arXiv id, whose record may link a DOI
            wanted = Ids()
            for c in cluster:
                wanted = wanted.merged(c.ids)
            added = False
            for later in self._announced(cluster):
                if (later.source, later.id) not in known:
                    known.add((later.source, later.id))
                    cluster.append(self.records.get((later.source, later.id)) or self._add(later))
                    added = True
            for scheme, value in wanted.items():
                if self._have(scheme, value):
                    continue
                found = self._lookup(scheme, value)
                if found is not None and (found.source, found.id) not in known:
                    known.add((found.source, found.id))
                    cluster.append(self.records.get((found.source, found.id)) or self._add(found))
                    added = True
            if not added:
                break
        return sorted(cluster, key=lambda c: (stage_rank(c.stage, self.precedence), -c.score))

    def _linked_by_notes(self, close: list[tuple[float, list[Candidate], Candidate]]
                         ) -> tuple[float, list[Candidate], Candidate] | None:
        """Close works that are one paper because the notes link them: exactly one of them
        holds the record the notes' own identifier names, and every other one was written by
        the same authors (an earlier title found by search: a workshop or submission record).
        Never merged on titles alone, and never when the authors do not agree."""
        anchors = [r for r in close if any((c.source, c.id) in self.identified for c in r[1])]
        if len(anchors) != 1:
            return None
        score, cluster, best = anchors[0]
        merged = list(cluster)
        for _score, other, other_best in close:
            if other is cluster:
                continue
            if is_anonymous(other_best.authors) or is_anonymous(best.authors):
                return None
            share, matched = author_overlap([p.raw or p.display() for p in other_best.authors], best.authors)
            if not authors_agree(share, matched, len(other_best.authors), len(best.authors)):
                return None
            merged += other
        return score, merged, best

    def _announced(self, cluster: list[Candidate]) -> list[Candidate]:
        """Conference records that a preprint of the cluster announces ("Accepted at ICML
        2026" in its journal-ref or comment), looked up in that venue-year's list and kept
        only when they are the same work as the preprint (same authors, same title)."""
        conferences = self.sources.get("conferences")
        if conferences is None or not hasattr(conferences, "find"):
            return []
        out: list[Candidate] = []
        for c in list(cluster):
            text = " ".join(c.extra.get(k, "") for k in ("journal_ref", "comment"))
            for m in _JOURNAL_REF_VENUE.finditer(text):
                short, year = venues.canonical(m.group(1)) or m.group(1), int(m.group(2))
                site = {"ICML": "icml", "NeurIPS": "neurips", "ICLR": "iclr"}.get(short, short.lower())
                if site not in getattr(conferences, "bases", {}):
                    continue
                found = self._call("conferences", lambda: conferences.find(site, year, c.title)) or []
                out += [f for f in found if same_candidates(c, f)]
        return out

    def _decide(self) -> Work:
        ranked = self._ranked()
        if not ranked:
            # a work whose own list was skipped was not looked up where it would be found:
            # like a work no source could be asked about, it is asked again by the next sync
            return Work(mentions=self.group, status="notes-only", reason=self._not_found(),
                        unasked=self._unasked() or bool(self.orphan_of))
        best_score, cluster, best = ranked[0]
        others = [r[2] for r in ranked[1:]]
        if best_score < ACCEPT:
            return Work(mentions=self.group, status="ambiguous", score=best_score,
                        runners_up=[r[2] for r in ranked[:3]],
                        reason=f"best candidate scores {best_score:.2f}, below {ACCEPT:.2f}: {_describe(ranked[:3])}")
        close = [r for r in ranked[1:] if best_score - r[0] < MARGIN]
        linked = self._linked_by_notes(ranked[:1 + len(close)]) if close else None
        if linked is not None:
            best_score, cluster, best = linked
            close = []
            others = [r[2] for r in ranked if r[2] is not best and all(c is not r[2] for c in cluster)]
        if close:
            gap = best_score - close[-1][0]
            return Work(mentions=self.group, status="ambiguous", score=best_score,
                        runners_up=[r[2] for r in ranked[:1 + len(close)]],
                        reason=f"{1 + len(close)} candidates within {gap:.2f}: {_describe(ranked[:1 + len(close)])}")
        versions = self._linked_versions(list(cluster))
        chosen = choose_version(versions, precedence=self.precedence, venue=self.mention.venue, year=self.mention.year)
        why = self.scores[(best.source, best.id)].why
        where = " ".join(x for x in (chosen.source, chosen.venue or chosen.stage) if x)
        return Work(mentions=self.group, chosen=chosen, versions=versions, status="resolved", score=best_score,
                    reason=f"{why} ({where})", runners_up=others[:3])

    def _unasked(self) -> bool:
        """Whether every service this paper was to be asked about was unreachable (or failed).

        The conference lists answer locally, from the lists loaded before the groups: a
        search there is no lookup when every service behind them is down.
        """
        return (any(n not in LOCAL_SEARCHES for n in self.trouble)
                and all(n in self.trouble or n in LOCAL_SEARCHES for n in self.searched))

    def _failed(self) -> bool:
        """Whether a service this work was to be asked about failed, or was left out by the
        budget of a skipped list but is down anyway: then nothing could be asked anywhere, and
        the reason says only that, the words every run that learns nothing new keeps."""
        return any(why != "not asked" or not self.health.usable(name) for name, why in self.trouble.items())

    def _not_found(self) -> str:
        what = "title" if self.mention.title else "abstract" if self.mention.abstract else "paper"
        if not self._comparable():
            text = "the notes give no title, authors or identifier to look up"
        elif self.denied and self._unasked() and not self._failed():
            lists = self._skipped_lists()
            asked = self.fallback.works if self.fallback else 0
            return (f"{NOT_LOOKED_UP} {lists} was skipped (its site failed) and {asked} of its papers were asked "
                    "elsewhere; the next sync looks it up")
        elif self._unasked():
            text = f"{UNASKED_REASON} {what}"
        elif self.orphan_of:
            lists = self._skipped_lists()
            text = f"no other source knows this {what} ({lists} was skipped: its site failed)"
        elif not self.mention.title and not self.mention.abstract and self.mention.reference:
            text = f"no source knows this pasted reference ({self._reference_asked()})"
        else:
            text = f"no source knows this {what}"
            if self.reference_words is not None:
                guess, family = self.reference_words
                text += (f" (the parser was not sure of the title it read: dblp and arXiv were also asked with "
                         f"\"{guess}\"" + (f", {family}" if family else "") + ")")
        closest = max(self.records.values(), key=lambda c: c.score, default=None)
        if closest is not None and closest.score >= 0.5:
            why = self.scores[(closest.source, closest.id)].why
            text += f" (closest: {closest.source} \"{closest.title}\", {closest.score:.2f}, {why})"
        return self._with_trouble(text)

    def _reference_asked(self) -> str:
        """Which services a pasted reference with no title read was looked up in, and with
        what: ``Crossref with the whole string; dblp and arXiv with "layer normalization", Ba``."""
        asked = [n for n in self.searched if n in REFERENCE_ORDER and n not in self.trouble]
        whole = [registry.label(n) for n in asked if n == "crossref" and reference_terms(self.mention)]
        words = reference_search(self.mention)
        by_words = [registry.label(n) for n in asked if n != "crossref"]
        parts = [f"{whole[0]} with the whole string"] if whole else []
        if by_words and words is not None:
            guess, family = words
            parts.append(f"{' and '.join(by_words)} with \"{guess}\"" + (f", {family}" if family else ""))
        elif by_words:
            parts.append(f"no part of it reads as a title to search {' and '.join(by_words)} with")
        return "; ".join(parts) if parts else "no service could be asked"

    def _skipped_lists(self) -> str:
        """``the ICLR 2019 paper list``: the skipped lists that alone could answer this work."""
        conferences = self.sources["conferences"]
        return " and ".join(conferences.list_name(site, year)  # type: ignore[attr-defined]
                            for site, year in self.orphan_of)

    def _with_trouble(self, text: str) -> str:
        if not self.trouble:
            return text
        parts = [f"{name} {why}" for name, why in sorted(self.trouble.items())]
        return f"{text}; {', '.join(parts)}"


#: how a reason names an identifier's scheme
_SCHEME_NAMES = {"arxiv": "arXiv id", "doi": "DOI", "openreview": "OpenReview forum", "pmlr": "PMLR paper",
                 "dblp": "dblp key"}


def page_urls(group: Sequence[Mention], mention: Mention) -> list[str]:
    """Pages of the notes worth reading for one paper (``mention``: the group merged):
    project pages, lab and blog pages of the paper, links that carry no identifier of their
    own; a code repository only when its URL is all the notes give. At most two."""
    only_url = not (mention.title or mention.authors or mention.abstract or mention.ids)
    out: list[str] = []
    for m in group:
        for url in [*m.links.values(), *m.urls]:
            if url in out or any(ids_from_url(url).as_dict().values()):
                continue
            kind = classify_url(url)
            if kind in ("project", "blog", "other", "home") or kind == "code" and only_url and "github.com" in url:
                out.append(url)
    return out[:2]


def _without_ids(mention: Mention, drop: set[tuple[str, str]]) -> Mention:
    """``mention`` without the identifiers in ``drop`` and the links that carry them."""
    ids = Ids.from_dict({k: v for k, v in mention.ids.as_dict().items() if (k, v) not in drop})
    urls = [u for u in mention.urls if not any((k, v) in drop for k, v in ids_from_url(u).items())]
    return replace(mention, ids=ids, urls=urls)


def _describe(ranked: Sequence[tuple[float, list[Candidate], Candidate]]) -> str:
    return "; ".join(f"\"{c.title}\" ({c.source}, {score:.2f})" for score, _, c in ranked)


def resolve_group(group: Sequence[Mention], sources: Sequence[Source] | Mapping[str, Source], *,
                  pins: Mapping[str, Ids] | None = None, precedence: Sequence[str] | None = None) -> Work:
    """Resolve one group on its own (problems are not collected: use :func:`resolve_groups`)."""
    work = _WorkResolver(group, _by_name(sources), _Health(), pins, precedence).run()
    assert work is not None  # nothing is deferred without ``deferred``
    return work


def _prefetch(groups: Sequence[Sequence[Mention]], sources: Mapping[str, Source], health: _Health,
              pins: Mapping[str, Ids] | None) -> None:
    """The cheap bulk work, once, before groups fan out to threads: every conference list
    the notes need (one file per venue-year) and every arXiv id of the notes, up to
    :data:`citekit.sources.arxiv.BATCH` per request. Both land in the cache, where the groups find them."""
    merged = [merge_mentions(g) for g in groups if g]
    conferences = sources.get("conferences")
    if conferences is not None and hasattr(conferences, "prepare") and health.usable("conferences"):
        try:
            conferences.prepare(merged)
        except SourceError as err:
            health.failed("conferences", err)
        for text in getattr(conferences, "notices", []):
            health.note("conferences", text)
    arxiv = sources.get("arxiv")
    if arxiv is None or not hasattr(arxiv, "lookup_many") or not health.usable("arxiv"):
        return
    wanted: list[str] = []
    for group, m in zip(groups, merged):
        pin = _pin_for(group, m, pins)
        for ids in (pin, m.ids):
            if ids.arxiv and ids.arxiv not in wanted:
                wanted.append(ids.arxiv)
    wanted += [a for a in _page_arxiv_ids(groups, merged, sources, health) if a not in wanted]
    if not wanted:
        return
    try:
        arxiv.lookup_many(wanted)
    except SourceError as err:
        health.failed("arxiv", err)


def _page_arxiv_ids(groups: Sequence[Sequence[Mention]], merged: Sequence[Mention], sources: Mapping[str, Source],
                    health: _Health) -> list[str]:
    """The arXiv ids that pages noted alone (a bare project page line) name in their own
    metadata: read now (one request a page, cached for the group) so that their records come
    in the one batch with the notes' own ids instead of a request of their own each."""
    web = sources.get("web")
    if web is None or not hasattr(web, "read") or not health.usable("web"):
        return []
    out: list[str] = []
    for group, m in zip(groups, merged):
        if m.title or m.authors or m.abstract or m.ids or m.pins:
            continue
        for url in page_urls(group, m):
            try:
                facts = web.read(url)
            except SourceError as err:
                health.failed("web", err)
                return out
            if facts.ids.get("arxiv"):
                out.append(facts.ids["arxiv"])
    return out


def _by_name(sources: Sequence[Source] | Mapping[str, Source]) -> dict[str, Source]:
    if isinstance(sources, Mapping):
        return dict(sources)
    return {s.name: s for s in sources}


def resolve_groups(
    groups: Sequence[Sequence[Mention]],
    sources: Sequence[Source] | Mapping[str, Source],
    *,
    jobs: int = 8,
    progress: bool = False,
    pins: Mapping[str, Ids] | None = None,
    precedence: Sequence[str] | None = None,
    batch_searches: bool = True,
) -> ResolveReport:
    """Resolve every group of mentions; works come back in the order of ``groups``.

    ``jobs`` bounds how many groups are looked up at once (the sources' own rate limits
    still apply per host). ``pins`` maps normalized titles to identifiers from
    ``citekit.yaml``; ``precedence`` replaces the default order of stages.
    ``batch_searches`` (the default) sends the arXiv searches of all the works that need
    one together, one request per batch (:mod:`citekit.resolve.batched`); False sends one
    request per work, as before (the benchmark's baseline).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1 (got {jobs}); use --jobs 1 to resolve one paper at a time")
    by_name = _by_name(sources)
    health = _Health()
    _prefetch(groups, by_name, health, pins)
    deferred = frozenset(name for name, source in by_name.items()
                         if batch_searches and hasattr(source, "search_many"))
    resolvers = [_WorkResolver(g, by_name, health, pins, precedence, deferred) for g in groups]
    skipped = _orphans(resolvers, by_name)
    works: list[Work | None] = [None] * len(groups)
    with tqdm(total=len(groups), desc="resolving", unit="paper", file=sys.stderr, disable=not progress) as bar:
        with ThreadPoolExecutor(max_workers=jobs) as pool, ThreadPoolExecutor(max_workers=1) as sender:
            # one batch per batched source, sent on a thread of its own as soon as every work
            # has said whether it takes part, while the works go on with the sources before it
            batches = {name: SharedBatch(by_name[name], len(groups), sender.submit)  # type: ignore[arg-type]
                       for name in sorted(deferred)}
            for i, r in enumerate(resolvers):
                r.key, r.batches = i, batches
            futures = {pool.submit(r.run): i for i, r in enumerate(resolvers)}
            for future in as_completed(futures):
                works[futures[future]] = future.result()
                bar.update(works[futures[future]] is not None)
            # every work has said by now, so every batch is out: the works that reached theirs
            # before it was sent take their answers and finish
            futures = {pool.submit(resolvers[i].resume): i for i, w in enumerate(works) if w is None}
            for future in as_completed(futures):
                works[futures[future]] = future.result()
                bar.update(1)
    _settle_not_looked_up(resolvers, works)
    done = [w for w in works if w is not None]
    return ResolveReport(works=done, problems=_skipped_sentences(skipped, resolvers, done, by_name) + health.problems,
                         unreachable=dict(health.unreachable), answered=health.answered)


def _settle_not_looked_up(resolvers: Sequence[_WorkResolver], works: Sequence[Work | None]) -> None:
    """A work left for another sync by a skipped list's budget, decided before the services
    asked in its place were found down: once they are, nothing was asked anywhere, and its
    reason says so (not that its list's papers "were asked elsewhere")."""
    for r, w in zip(resolvers, works):
        if w is not None and w.reason.startswith(NOT_LOOKED_UP) and r._failed():
            w.reason = r._not_found()


def _orphans(resolvers: Sequence[_WorkResolver], sources: Mapping[str, Source]) -> list[tuple[str, int]]:
    """Give the works that only a skipped conference list could have answered the run's
    budget for asking other services in its place; returns the skipped lists."""
    conferences = sources.get("conferences")
    skipped = list(getattr(conferences, "skipped", {}))
    if not skipped:
        return []
    limits: dict[str, float | None] = {}
    counters: dict[str, Callable[[str], int]] = {}
    for name, source in sources.items():
        client = getattr(source, "client", None)
        if client is not None and hasattr(client, "per_minute"):
            limits[name] = client.per_minute(name)
            counters[name] = client.sent
    budget = FallbackBudget(fallback_module.FALLBACK_WORKS, limits=limits,
                            sent=lambda name: counters[name](name) if name in counters else 0)
    for r in resolvers:
        r.orphan_of = conferences.orphaned(r.mention)  # type: ignore[union-attr]
        r.fallback = budget
    return skipped


def _skipped_sentences(skipped: Sequence[tuple[str, int]], resolvers: Sequence[_WorkResolver],
                       works: Sequence[Work], sources: Mapping[str, Source]) -> list[str]:
    """One sentence per skipped list, counting its mentions that no other source found."""
    conferences = sources.get("conferences")
    out = []
    for site, year in skipped:
        pending = sum(1 for r, w in zip(resolvers, works) if (site, year) in r.orphan_of and w.status != "resolved")
        out.append(f"conferences: {conferences.skipped_sentence(site, year, pending)}")  # type: ignore[union-attr]
    return out

