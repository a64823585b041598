"""The conferences' own paper lists: every accepted paper of a venue-year in one file.

ICML, NeurIPS, ICLR and MLSys run the same virtual-site software, which publishes
``/static/virtual/data/<conf>-<year>-orals-posters.json``: ``{"count", "next",
"previous", "results": [event, ...]}``, one event per poster or oral (an oral paper has
both), each with the event number of its ``/virtual/<year>/poster/<N>`` page, the title
(``name``), the authors in order (``fullname``), the decision (``Accept (oral)``), and the
OpenReview forum (``paper_url``, sometimes null or a placeholder). Some years keep the
abstracts in ``<conf>-<year>-abstracts.json`` (event id -> abstract) instead.

One download answers every mention of that venue-year: a mention carrying a
``poster/N``/``oral/N`` URL is that event exactly (even when the notes still use an older
title: a renamed paper keeps its number), and titles or pasted abstracts are matched
against the list locally, with no request at all. The list is kept in the project cache,
revalidated at most weekly with a conditional request, and used as it is when the site
cannot be reached; a list that does not exist yet (404) is remembered for a day.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping
from urllib.parse import urljoin, urlsplit

from rapidfuzz import fuzz, process

from citekit.core import venues
from citekit.core.ids import OPENREVIEW_ID_RE
from citekit.core.model import Ids
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.core.text import normalize_title
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HttpClient, body_json
from citekit.sources.settings import CONFERENCE_SITES, SourceSettings
from citekit.core.lazyre import lazy

log = logging.getLogger(__name__)

LIST_PATH = "/static/virtual/data/{conf}-{year}-orals-posters.json"
ABSTRACTS_PATH = "/static/virtual/data/{conf}-{year}-abstracts.json"
#: a stored list is trusted this long before a conditional request asks whether it changed
REVALIDATE_AFTER = 7 * 24 * 3600.0
#: a list the site does not publish yet (404) is asked again after a day
NOT_PUBLISHED_TTL = 24 * 3600.0
#: a list whose site failed (unreachable, timeout, 5xx, 429) is not asked again for this
#: long: a sync run again at once does not wait for the same dead site a second time
FAILED_TTL = 10 * 60.0
#: the status stored for such a failure (no HTTP answer has it)
FAILED_STATUS = 0
#: pages of one list followed at most (a loop of ``next`` links must end)
MAX_PAGES = 50
#: a whole list is several megabytes: its download may take this many times ``timeout``
#: (a minute by default; ``timeout`` still bounds every read, so a site that stops
#: sending is noticed as quickly as ever, and one that drips is still cut off)
DOWNLOAD_TIMEOUTS = 3
#: candidates handed to scoring per local title search
TITLE_CANDIDATES = 8
_TITLE_CUTOFF = 70.0

#: site name -> the venue short name its papers carry
SITE_VENUES: dict[str, str] = {"icml": "ICML", "neurips": "NeurIPS", "iclr": "ICLR", "mlsys": "MLSys"}
#: proceedings titles for venues the venue table does not know
_CONTAINERS = {"MLSys": "Proceedings of Machine Learning and Systems"}
_EVENT_PATH = lazy(r"/virtual/(?P<year>\d{4})/(?P<kind>poster|oral|spotlight)/(?P<num>\d+)", re.I)
#: how prominent each presentation is; one paper's oral and poster events are one work
_PRESENTATION_RANK = {"oral": 3, "spotlight": 2, "poster": 1}
_WORD = lazy(r"[a-z0-9]{3,}")
_FORUM = lazy(r"openreview\.net/(?:forum|pdf)\?(?:[^#]*&)?id=([^&#\s]+)")


def presentation_of(event: Mapping[str, Any]) -> str | None:
    """``oral``/``spotlight``/``poster`` from the decision, the event type or the page URL."""
    found: list[str] = []
    decision = str(event.get("decision") or "").lower()
    for kind in _PRESENTATION_RANK:
        if kind in decision:
            found.append(kind)
    for key in ("eventtype", "event_type"):
        value = str(event.get(key) or "").lower()
        if value in _PRESENTATION_RANK:
            found.append(value)
    m = _EVENT_PATH.search(str(event.get("virtualsite_url") or ""))
    if m:
        found.append(m.group("kind").lower())
    return max(found, key=lambda k: _PRESENTATION_RANK[k]) if found else None


def forum_of(event: Mapping[str, Any]) -> str | None:
    """The OpenReview forum id of ``paper_url``; None for null, other sites or placeholders."""
    url = event.get("paper_url")
    if not isinstance(url, str) or "openreview.net" not in url:
        return None
    m = _FORUM.search(url)  # thousands per list: a regex, not a URL parser
    forum = m.group(1) if m else None
    # placeholders such as ``forum?id=2026-Oral--placeholder`` are not ids
    if not forum or not OPENREVIEW_ID_RE.match(forum) or "placeholder" in url.lower() or "--" in forum:
        return None
    return forum


def compact(event: Mapping[str, Any]) -> dict[str, Any] | None:
    """The fields of one event that resolution needs (None for events that are not papers)."""
    if event.get("visible") is False:
        return None
    page = str(event.get("virtualsite_url") or "")
    m = _EVENT_PATH.search(page)
    if not m or not str(event.get("name") or "").strip():
        return None  # workshops, invited talks, tutorials, socials
    decision = str(event.get("decision") or "")
    if decision and not decision.lower().startswith("accept"):
        return None
    authors = []
    for a in event.get("authors") or []:
        name = a.get("fullname") if isinstance(a, Mapping) else a
        if isinstance(name, str) and name.strip():
            authors.append(" ".join(name.split()))
    return {
        "id": int(m.group("num")),
        "name": " ".join(str(event["name"]).split()),
        "authors": authors,
        "abstract": " ".join(str(event.get("abstract") or "").split()) or None,
        "presentation": presentation_of(event),
        "forum": forum_of(event),
        "page": m.group(0),
    }


@dataclass
class _Paper:
    """One paper of a list: its events (poster, oral...) merged."""

    events: list[dict[str, Any]]
    presentation: str | None = None

    @property
    def main(self) -> dict[str, Any]:
        """The poster event when there is one (the page most notes link), else the first."""
        return next((e for e in self.events if "/poster/" in e["page"]), self.events[0])


@dataclass
class VenueList:
    """The parsed list of one venue-year, indexed for exact and local lookups."""

    site: str
    year: int
    papers: list[_Paper] = field(default_factory=list)
    by_event: dict[int, _Paper] = field(default_factory=dict)
    by_forum: dict[str, _Paper] = field(default_factory=dict)
    titles: list[str] = field(default_factory=list)
    words: dict[str, list[int]] = field(default_factory=dict)  # abstract word -> paper indexes
    published: bool = True
    #: most of its papers carry their abstract (from the list or its abstracts file)
    has_abstracts: bool = False

    @classmethod
    def build(cls, site: str, year: int, events: Iterable[dict[str, Any]], *, published: bool = True) -> "VenueList":
        out = cls(site=site, year=year, published=published)
        keyed: dict[Any, _Paper] = {}
        for event in events:
            key = event["forum"] or (normalize_title(event["name"]),
                                     parse_name(event["authors"][0]).family.lower() if event["authors"] else "")
            paper = keyed.get(key)
            if paper is None:
                paper = keyed[key] = _Paper(events=[])
                out.papers.append(paper)
            paper.events.append(event)
            ranks = [p for p in (paper.presentation, event["presentation"]) if p]
            paper.presentation = max(ranks, key=lambda k: _PRESENTATION_RANK[k]) if ranks else None
        for i, paper in enumerate(out.papers):
            for event in paper.events:
                out.by_event[event["id"]] = paper
                if event["forum"]:
                    out.by_forum[event["forum"]] = paper
            out.titles.append(normalize_title(paper.main["name"]))
        with_abstract = sum(1 for p in out.papers if any(e["abstract"] for e in p.events))
        out.has_abstracts = bool(out.papers) and with_abstract >= len(out.papers) / 2
        return out

    def _word_index(self) -> dict[str, list[int]]:
        """abstract word -> papers, built on the first abstract search only (most runs have none)."""
        if not self.words:
            index: dict[str, list[int]] = {}
            for i, paper in enumerate(self.papers):
                abstract = next((e["abstract"] for e in paper.events if e["abstract"]), None)
                for word in set(_WORD.findall((abstract or "").lower())):
                    index.setdefault(word, []).append(i)
            self.words = index
        return self.words

    @property
    def venue(self) -> str:
        return SITE_VENUES.get(self.site, self.site.upper())

    def candidate(self, paper: _Paper, base: str) -> Candidate:
        main = paper.main
        short = venues.canonical(self.venue) or self.venue
        forum = next((e["forum"] for e in paper.events if e["forum"]), None)
        abstract = next((e["abstract"] for e in paper.events if e["abstract"]), None)
        page = f"{_public_root(self.site, base)}{main['page']}"
        extra = {"event_url": page}
        if paper.presentation:
            extra["presentation"] = paper.presentation
        return Candidate(
            source="conferences",
            id=f"{self.site}-{self.year}/{main['id']}",
            title=main["name"],
            authors=[parse_name(a) for a in main["authors"]],
            year=self.year,
            venue=f"{short} {self.year}",
            container=venues.long_name(short, self.year) or _CONTAINERS.get(short) or f"{short} {self.year}",
            entry_type=venues.entry_type(short),
            stage="accepted",
            ids=Ids(openreview=forum),
            abstract=abstract,
            url=f"https://openreview.net/forum?id={forum}" if forum else page,
            extra=extra,
            raw=paper.events,
        )

    def by_title(self, title: str, limit: int = TITLE_CANDIDATES) -> list[_Paper]:
        query = normalize_title(title)
        if not query or not self.titles:
            return []
        hits = process.extract(query, self.titles, scorer=fuzz.token_set_ratio, score_cutoff=_TITLE_CUTOFF,
                               limit=limit)
        return [self.papers[i] for _t, _s, i in hits]

    def by_abstract(self, abstract: str, limit: int = 5) -> list[_Paper]:
        """Papers sharing the most (rare) words with a pasted abstract: an inverted index,
        so thousands of abstracts cost a few dictionary lookups, not thousands of comparisons."""
        wanted = set(_WORD.findall(abstract.lower()))
        index = self._word_index()
        counts: Counter[int] = Counter()
        for word in wanted:
            posting = index.get(word, ())
            if 0 < len(posting) <= max(50, len(self.papers) // 20):  # common words say nothing
                counts.update(posting)
        return [self.papers[i] for i, n in counts.most_common(limit) if n >= 3]


def _public_root(site: str, base: str) -> str:
    """Pages are cited on the public site even when the list came from a mirror."""
    return CONFERENCE_SITES.get(site, base).rstrip("/")


def _site_of_host(host: str, bases: Mapping[str, str]) -> str | None:
    host = host.lower().removeprefix("www.")
    for site, base in bases.items():
        for root in (base, CONFERENCE_SITES.get(site, "")):
            if root and urlsplit(root).netloc.lower().removeprefix("www.") == host:
                return site
    return None


class ConferenceListSource:
    """Exact and local lookups in the conferences' published paper lists."""

    name = "conferences"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.settings = settings
        self.bases = settings.urls_of(self.name)
        self.refresh = settings.refresh
        self._lists: dict[tuple[str, int], VenueList] = {}
        self._locks: dict[tuple[str, int], threading.Lock] = {}
        self._lock = threading.Lock()
        #: things worth saying once (a stale stored list used because the site is unreachable)
        self.notices: list[str] = []
        #: lists whose site failed in :meth:`prepare`: (site, year) -> the failure; said in
        #: one sentence each (:meth:`skipped_sentence`) once the run knows what was left pending
        self.skipped: dict[tuple[str, int], SourceError] = {}

    # -- which lists a mention concerns ------------------------------------------------
    def events_of(self, mention: Mention) -> list[tuple[str, int, int]]:
        """``(site, year, event number)`` of every conference page URL of the mention."""
        out = []
        for url in mention.urls:
            parts = urlsplit(url)
            site = _site_of_host(parts.netloc, self.bases)
            m = _EVENT_PATH.search(parts.path)
            if site and m:
                out.append((site, int(m.group("year")), int(m.group("num"))))
        return out

    def venue_years(self, mention: Mention) -> list[tuple[str, int]]:
        """The lists that may hold the mention: from its page URLs, else its venue and year."""
        found = [(site, year) for site, year, _n in self.events_of(mention)]
        if mention.venue and mention.year:
            for site, short in SITE_VENUES.items():
                if (venues.canonical(mention.venue) or mention.venue).lower() == short.lower():
                    found.append((site, mention.year))
        return list(dict.fromkeys(found))

    def covers_abstracts(self, mention: Mention) -> bool:
        """Whether every list the mention may be in is loaded, published and carries its
        papers' abstracts: a pasted abstract was then compared with every accepted paper of
        its venue-year here, and a search of the venue's group elsewhere (OpenReview) could
        only add the submissions that were not accepted. Asks nothing: lists are loaded
        before the groups."""
        wanted = self.venue_years(mention)
        with self._lock:
            lists = [self._lists.get(key) for key in wanted]
        return bool(wanted) and all(v is not None and v.published and v.has_abstracts for v in lists)

    # -- the Source interface ------------------------------------------------------------
    def lookup(self, scheme: str, value: str) -> Candidate | None:
        """An OpenReview forum that a loaded list names (no request: lists are loaded first)."""
        if scheme != "openreview":
            return None
        for venue_list in list(self._lists.values()):
            paper = venue_list.by_forum.get(value)
            if paper is not None:
                return venue_list.candidate(paper, self.bases[venue_list.site])
        return None

    def exact(self, mention: Mention) -> Candidate | None:
        """The event a ``poster/N``/``oral/N`` URL of the mention names, if its list has it."""
        for site, year, number in self.events_of(mention):
            venue_list = self.load(site, year)
            paper = venue_list.by_event.get(number)
            if paper is not None:
                return venue_list.candidate(paper, self.bases[site])
        return None

    def search(self, mention: Mention) -> list[Candidate]:
        """Local matches in the lists of the mention's venue-year: by title, else by abstract.

        Unscored, like every source's search: the same honest rules decide afterwards
        (a near-identical title by other authors is another paper).
        """
        out: list[Candidate] = []
        for site, year in self.venue_years(mention):
            venue_list = self.load(site, year)
            if mention.title:
                papers = venue_list.by_title(mention.title)
            elif mention.abstract:
                papers = venue_list.by_abstract(mention.abstract)
            else:
                papers = []
            out += [venue_list.candidate(p, self.bases[site]) for p in papers]
        return out

    def find(self, site: str, year: int, title: str) -> list[Candidate]:
        """Records of one venue-year whose titles are close to ``title`` (for version links)."""
        venue_list = self.load(site, year)
        return [venue_list.candidate(p, self.bases[site]) for p in venue_list.by_title(title, limit=3)]

    # -- loading -----------------------------------------------------------------------
    def prepare(self, mentions: Iterable[Mention]) -> None:
        """Load every list the mentions need, once, before resolution fans out.

        One failure, one scope: a list whose site fails is skipped (recorded in
        :attr:`skipped`), and every other list stays in use; nothing is raised.
        """
        wanted = dict.fromkeys(vy for m in mentions for vy in self.venue_years(m))
        for site, year in wanted:
            try:
                self.load(site, year)
            except SourceError as err:
                with self._lock:
                    self.skipped[(site, year)] = err

    def orphaned(self, mention: Mention) -> list[tuple[str, int]]:
        """The skipped lists of a mention that no loaded list answers: every list it may be
        in was skipped (empty when one of them loaded, or it names no list)."""
        wanted = self.venue_years(mention)
        with self._lock:
            if wanted and all(key in self.skipped for key in wanted):
                return wanted
        return []

    def list_name(self, site: str, year: int) -> str:
        """``the ICLR 2019 paper list``, as the sentences about lists name one."""
        return f"the {SITE_VENUES.get(site, site.upper())} {year} paper list"

    def skipped_sentence(self, site: str, year: int, pending: int) -> str:
        """The one sentence for a list skipped in :meth:`prepare`, ``pending`` of whose
        mentions were not found elsewhere."""
        return skipped_sentence(self.bases.get(site, site), site, year, self.skipped[(site, year)], pending)

    def load(self, site: str, year: int) -> VenueList:
        """The list of ``site`` in ``year``: from memory, the project cache, or the site."""
        key = (site, year)
        with self._lock:
            if key in self._lists:
                return self._lists[key]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._lists:
                try:
                    self._lists[key] = self._fetch_list(site, year)
                except SourceError:
                    # asked once per run: the other sources go on without this list
                    self._lists[key] = VenueList(site=site, year=year, published=False)
                    raise
            return self._lists[key]

    def _url(self, site: str, path: str, year: int) -> str:
        return self.bases[site].rstrip("/") + path.format(conf=site, year=year)

    def _fetch_list(self, site: str, year: int) -> VenueList:
        url = self._url(site, LIST_PATH, year)
        try:
            doc = self._document(site, url)
        except SourceError as err:
            stored = self.cache.get_document(url)
            if stored is not None and stored.status == 200:
                days = max(0, int(stored.age(self.cache.clock()) // 86400))
                with self._lock:
                    self.notices.append(f"the {SITE_VENUES.get(site, site)} {year} paper list could not be "
                                        f"refreshed ({err.message}); used the copy stored {days} day(s) ago")
                return VenueList.build(site, year, stored.body["events"])
            raise
        if doc is None:
            return VenueList(site=site, year=year, published=False)
        return VenueList.build(site, year, doc["events"])

    def _document(self, site: str, url: str) -> dict[str, Any] | None:
        """The stored or downloaded list (``{"events": [...]}``), None when not published."""
        stored = self.cache.get_document(url)
        now = self.cache.clock()
        if stored is not None and stored.status == FAILED_STATUS and stored.age(now) < FAILED_TTL:
            raise SourceError(site, str(stored.body or "the site failed a few minutes ago"))
        if stored is not None and not self.refresh:
            if stored.status == 404 and stored.age(now) < NOT_PUBLISHED_TTL:
                self.cache.expires(stored.checked + NOT_PUBLISHED_TTL)
                return None
            if stored.status == 200 and stored.age(now) < REVALIDATE_AFTER:
                self.cache.expires(stored.checked + REVALIDATE_AFTER)
                return stored.body
        headers = {}
        if stored is not None and stored.status == 200:
            if stored.etag:
                headers["If-None-Match"] = stored.etag
            if stored.last_modified:
                headers["If-Modified-Since"] = stored.last_modified
        try:
            resp = self.client.request(site, "GET", url, headers=headers or None, expect="json",
                                       max_seconds=self.client.timeout * DOWNLOAD_TIMEOUTS)
            if resp.status_code == 429 or resp.status_code >= 500:
                raise SourceError(site, f"HTTP {resp.status_code}")
        except SourceError as err:
            if stored is None or stored.status != 200:  # a stored copy stays the fallback
                self.cache.put_document(url, FAILED_STATUS, failure_cause(err))
            raise
        if resp.status_code == 304 and stored is not None and stored.status == 200:
            self.cache.touch_document(url)
            self.cache.expires(self.cache.clock() + REVALIDATE_AFTER)
            return stored.body
        if resp.status_code in (404, 410):
            self.cache.put_document(url, 404, None)
            self.cache.expires(self.cache.clock() + NOT_PUBLISHED_TTL)
            return None
        if resp.status_code != 200:
            raise SourceError(site, f"{url} answered {resp.status_code}; run sync again later")
        events = self._pages(site, url, body_json(resp))
        if events and sum(1 for e in events if e["abstract"]) < len(events) / 2:
            self._add_abstracts(site, url, events)
        body = {"events": events}
        self.cache.put_document(url, 200, body, etag=resp.headers.get("ETag"),
                                last_modified=resp.headers.get("Last-Modified"))
        self.cache.expires(self.cache.clock() + REVALIDATE_AFTER)
        return body

    def _pages(self, site: str, url: str, first: Any) -> list[dict[str, Any]]:
        """Events of every page, following ``next`` (within the site) until it is null."""
        events: list[dict[str, Any]] = []
        page, seen = first, {url}
        for _ in range(MAX_PAGES):
            if not isinstance(page, Mapping) or not isinstance(page.get("results"), list):
                raise SourceError(site, f"{url}: expected a paper list with 'results', got "
                                        f"{type(page).__name__}; check sources.{site}.url")
            events += [c for c in (compact(e) for e in page["results"] if isinstance(e, Mapping)) if c]
            nxt = page.get("next")
            if not nxt:
                return events
            nxt = urljoin(url, str(nxt))
            public = CONFERENCE_SITES.get(site, "")
            if public and nxt.startswith(public + "/") and not url.startswith(public + "/"):
                nxt = self.bases[site].rstrip("/") + nxt[len(public):]  # a mirror's pages name the public site
            if urlsplit(nxt).netloc != urlsplit(url).netloc or nxt in seen:
                log.warning("%s: not following 'next' link %s (another site, or a loop)", url, nxt)
                return events
            seen.add(nxt)
            resp = self.client.request(site, "GET", nxt, expect="json",
                                       max_seconds=self.client.timeout * DOWNLOAD_TIMEOUTS)
            if resp.status_code != 200:
                raise SourceError(site, f"{nxt} answered {resp.status_code}; run sync again later")
            page = body_json(resp)
        return events

    def _add_abstracts(self, site: str, url: str, events: list[dict[str, Any]]) -> None:
        """Fill abstracts from ``<conf>-<year>-abstracts.json`` when the list leaves them out."""
        abstracts_url = url.replace("-orals-posters.json", "-abstracts.json")
        resp = self.client.request(site, "GET", abstracts_url, expect="json",
                                   max_seconds=self.client.timeout * DOWNLOAD_TIMEOUTS)
        if resp.status_code != 200:
            return  # some years have none: titles and authors still match
        body = body_json(resp)
        table: dict[str, Any] = {}
        if isinstance(body, Mapping) and isinstance(body.get("results"), list):
            table = {str(r.get("id")): r.get("abstract") for r in body["results"] if isinstance(r, Mapping)}
        elif isinstance(body, Mapping):
            table = {str(k): v for k, v in body.items()}
        for event in events:
            text = table.get(str(event["id"]))
            if isinstance(text, str) and text.strip() and not event["abstract"]:
                event["abstract"] = " ".join(text.split())


def failure_cause(err: SourceError) -> str:
    """A few words for why a site failed: ``DNS``, ``connection refused``, ``timeout``,
    ``HTTP 503``; never the HTTP library's exception text."""
    text = f"{getattr(err, 'cause', '')} {err.message}"
    for markers, cause in ((("does not resolve", "Name or service not known", "nodename nor servname",
                             "getaddrinfo", "NameResolution", "DNS"), "DNS"),
                           (("connection refused", "Connection refused"), "connection refused"),
                           (("timed out", "timeout", "Timeout", "deadline"), "timeout"),
                           (("connection reset",), "connection reset")):
        if any(m in text for m in markers):
            return cause
    status = re.search(r"\b(429|5\d\d)\b", text)
    if status:
        return f"HTTP {status.group(1)}"
    # anything else (an answer that is not the list, a redirect away): the source's own words
    words = re.sub(r"[;,]? *(run sync again later|check .*)$", "", err.message).strip()
    return words or "failed"


def skipped_sentence(base: str, site: str, year: int, err: SourceError, mentions: int) -> str:
    """The one plain sentence for a list that was skipped: ``iclr.cc unreachable (DNS): the
    ICLR 2019 paper list was skipped; 1 mention left pending``."""
    host = urlsplit(base).netloc or site
    cause = failure_cause(err)
    state = "unreachable" if cause in ("DNS", "connection refused", "connection reset", "timeout") else "failed"
    venue = SITE_VENUES.get(site, site.upper())
    left = (f"{mentions} mention{'s' if mentions != 1 else ''} left pending" if mentions
            else "its mentions were found in other sources")
    return f"{host} {state} ({cause}): the {venue} {year} paper list was skipped; {left}"
