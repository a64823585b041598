"""Every metadata source citekit knows, one row each: the one list the rest reads.

A row says what the code around a source needs to know about it without importing it:
where its class lives (imported only when a sync builds the sources), the hosts it talks
to (each with its default address, its ``CITEKIT_<HOST>_URL`` variable and its limits),
which identifier schemes it can look up, and its rank in the order of resolution.
:mod:`citekit.sources.settings` (addresses, limits), the ``sources:`` keys of
``citekit.yaml`` (:func:`config_keys`), :func:`citekit.sources.build_sources` and
:mod:`citekit.resolve.pipeline` (which source first) all read these rows, so adding a
source is its module, one row here, its loopback fake and its tests (docs/extending.md).

This module imports nothing but the standard library: the project's configuration is
checked against :func:`config_keys` on every command, and must stay cheap to load.
"""

from __future__ import annotations

from dataclasses import dataclass

@dataclass(frozen=True)
class Limits:
    """How politely to talk to one host (the defaults of ``sources.<host>.*``).

    ``interval`` seconds between requests (``after_answer``: counted from the end of the
    previous answer), ``concurrency`` requests at once, ``per_minute`` a budget per minute,
    ``max_mb`` the largest answer read, in megabytes.
    """

    interval: float = 0.0
    concurrency: int = 4
    per_minute: float | None = None
    after_answer: bool = False
    max_mb: float = 16


@dataclass(frozen=True)
class Host:
    """One address a source talks to: ``sources.<name>`` in ``citekit.yaml``."""

    name: str
    url: str
    limits: Limits
    #: the address is an endpoint kept exactly as written (arXiv's query URL), not a root
    #: whose trailing slash is dropped
    exact_url: bool = False

    @property
    def url_env(self) -> str:
        """The environment variable that replaces the address (tests, mirrors, benchmarks)."""
        return f"CITEKIT_{self.name.upper()}_URL"


@dataclass(frozen=True)
class SourceRow:
    """One source: its name (``sources.enabled``, provenance label), where its class lives,
    its hosts, the identifier schemes it looks up, and its place in resolution.

    ``rank`` orders the sources wherever resolution tries several: identifier lookups and
    title searches go from the lowest rank up; ``searches_abstracts`` says whether a
    mention with only an abstract is searched here.
    """

    name: str
    #: ``"package.module:Class"``: imported when the sources are built, not before
    impl: str
    hosts: tuple[Host, ...]
    lookups: tuple[str, ...]
    rank: int
    searches_abstracts: bool = False
    #: searched for a mention by title; a source that only reads what the notes link (web
    #: pages) is not
    searches_titles: bool = True
    #: how a sentence names the service (``arXiv``, ``Crossref``)
    label: str = ""
    #: searched for a pasted reference whose title the parser was not sure of, and in which
    #: order (lowest first): Crossref reads the string whole (``query.bibliographic``),
    #: dblp and arXiv search the words of its likeliest title field; None: not asked
    reference_rank: int | None = None

    def load(self) -> type:
        """The source class (imports its module)."""
        import importlib

        module, _, cls = self.impl.partition(":")
        return getattr(importlib.import_module(module), cls)


#: OpenReview's budget for guests: "20 requests per minute for guest users"
#: (openreview/openreview#254); signed-in users have larger ones, set per_minute then.
OPENREVIEW_GUEST_PER_MINUTE = 20.0

# The caps (``max_mb``) are the largest real answer times a margin for growth. A
# conference's whole paper list is the big one: about 5 KB an event (abstract, authors,
# media links), 6,000-7,000 events for ICML or NeurIPS 2025-2026, so 30-40 MB; 128 MB leaves
# room for a few years' growth. An arXiv batch of 100 ids is 0.3 MB, up to ~15 MB when
# every paper lists a physics collaboration's 3,000 authors; a Crossref work or 5-row
# search ~2 MB at the same worst; dblp's 10 search hits or one record and an OpenReview
# page of 10 notes stay under 1 MB.
#
# The limits are the services' own requests: arXiv one call every 3 s on one connection,
# counted from the end of the previous answer; dblp about one a second; Crossref announces
# its limits in headers (polite pool: 3 parallel); OpenReview 20 a minute for guests. A
# conference site serves one static file per venue-year: one request at a time is plenty.


def _site(name: str, url: str) -> Host:
    """A conference site running the virtual-site software: it publishes
    ``/static/virtual/data/<name>-<year>-orals-posters.json``."""
    return Host(name, url, Limits(interval=1.0, concurrency=1, max_mb=128))


#: every source, cheapest and most exact first: the default of ``sources.enabled``
SOURCES: tuple[SourceRow, ...] = (
    SourceRow("conferences", "citekit.sources.conferences:ConferenceListSource",
              hosts=(_site("icml", "https://icml.cc"), _site("neurips", "https://neurips.cc"),
                     _site("iclr", "https://iclr.cc"), _site("mlsys", "https://mlsys.org")),
              lookups=("openreview",), rank=0, searches_abstracts=True),  # a loaded list answers locally
    SourceRow("openreview", "citekit.sources.openreview:OpenReviewSource",
              hosts=(Host("openreview", "https://api2.openreview.net",
                          Limits(interval=0.5, concurrency=2, per_minute=OPENREVIEW_GUEST_PER_MINUTE, max_mb=8)),),
              lookups=("openreview",), rank=1, searches_abstracts=True),
    SourceRow("crossref", "citekit.sources.crossref:CrossrefSource",
              hosts=(Host("crossref", "https://api.crossref.org", Limits(interval=0.2, concurrency=3, max_mb=16)),),
              lookups=("doi",), rank=4, reference_rank=0, label="Crossref"),  # the noisiest title search: last
    SourceRow("dblp", "citekit.sources.dblp:DblpSource",
              hosts=(Host("dblp", "https://dblp.org", Limits(interval=1.0, concurrency=1, max_mb=8)),),
              lookups=("dblp",), rank=2, reference_rank=1, label="dblp"),
    SourceRow("arxiv", "citekit.sources.arxiv:ArxivSource",
              hosts=(Host("arxiv", "https://export.arxiv.org/api/query",
                          Limits(interval=3.0, concurrency=1, after_answer=True, max_mb=32), exact_url=True),),
              lookups=("arxiv",), rank=3, searches_abstracts=True, reference_rank=2, label="arXiv"),
    # A web page the notes link (a project page): one request per page, read only when the
    # notes give nothing else to find the paper by; 2 MB is ten times a large project page.
    SourceRow("web", "citekit.sources.web:WebPageSource",
              hosts=(Host("web", "", Limits(interval=1.0, concurrency=2, max_mb=2)),),
              lookups=(), rank=5, searches_titles=False),
)

#: Citation-graph services: who cites whom, for ``citekit suggest`` and ``citekit graph``.
#: They resolve no notes (no lookups, not in ``sources.enabled``); their hosts are
#: configured like the others (``sources.s2.url``, ``CITEKIT_S2_URL``). Semantic Scholar
#: without a key is a shared pool that answers 429 often: one request a second, one at a
#: time; a batch of 500 papers with their nested reference lists is a few MB. OpenAlex
#: allows 10 a second with a key and answers 403 over it: 5 a second keeps clear of it.
GRAPH_SOURCES: tuple[SourceRow, ...] = (
    SourceRow("semanticscholar", "citekit.sources.semanticscholar:SemanticScholarGraph",
              hosts=(Host("s2", "https://api.semanticscholar.org",
                          Limits(interval=1.0, concurrency=1, max_mb=64)),),
              lookups=(), rank=10),
    SourceRow("openalex", "citekit.sources.openalex:OpenAlexGraph",
              hosts=(Host("openalex", "https://api.openalex.org",
                          Limits(interval=0.2, concurrency=2, max_mb=64)),),
              lookups=(), rank=11),
)
#: the graph sources' names, in the order ``suggest`` asks them
GRAPH_SOURCE_NAMES: tuple[str, ...] = tuple(row.name for row in GRAPH_SOURCES)

#: the source names, in registry order (``sources.enabled`` defaults to all of them)
SOURCE_NAMES: tuple[str, ...] = tuple(row.name for row in SOURCES)
#: every host of every source, by name (``sources.<host>``, ``CITEKIT_<HOST>_URL``)
HOSTS: dict[str, Host] = {host.name: host for row in SOURCES + GRAPH_SOURCES for host in row.hosts}


def row(name: str) -> SourceRow:
    """The row of source ``name`` (KeyError names the known ones)."""
    for r in SOURCES + GRAPH_SOURCES:
        if r.name == name:
            return r
    raise KeyError(f"unknown source {name!r}; choose from {', '.join(SOURCE_NAMES + GRAPH_SOURCE_NAMES)}")


def search_order(*, abstracts_only: bool = False) -> tuple[str, ...]:
    """The sources to search for a mention, by rank; ``abstracts_only``: those that can
    search an abstract (a mention without a title)."""
    rows = sorted((r for r in SOURCES if r.searches_titles and (r.searches_abstracts or not abstracts_only)),
                  key=lambda r: r.rank)
    return tuple(r.name for r in rows)


def reference_order() -> tuple[str, ...]:
    """The sources to search for a pasted reference whose title was not read, in order:
    Crossref first (made for whole citation strings; a journal paper is found with one
    request), then dblp and arXiv (computer science that Crossref lacks)."""
    rows = sorted((r for r in SOURCES if r.reference_rank is not None), key=lambda r: r.reference_rank or 0)
    return tuple(r.name for r in rows)


def label(name: str) -> str:
    """How a sentence names source ``name`` (``arXiv``), its name when the row gives none."""
    try:
        return row(name).label or name
    except KeyError:
        return name


def scheme_sources() -> dict[str, tuple[str, ...]]:
    """Which sources look up each identifier scheme, by rank (the first that answers wins)."""
    out: dict[str, list[str]] = {}
    for r in sorted(SOURCES, key=lambda r: r.rank):
        for scheme in r.lookups:
            out.setdefault(scheme, []).append(r.name)
    return {scheme: tuple(names) for scheme, names in out.items()}


def config_keys() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What ``citekit.yaml``'s ``sources:`` section may name: the source names (for
    ``sources.enabled``) and the host names (each a ``sources.<host>`` section). Handed to
    :func:`citekit.core.config.load_config`, which sits below this layer."""
    return SOURCE_NAMES, tuple(HOSTS)
