"""Metadata sources (conference paper lists, OpenReview, Crossref, dblp, arXiv) behind one small interface.

Typical use::

    settings = SourceSettings.from_env(config, project_root)
    client, cache = build_client(settings), open_cache(settings)
    sources = build_sources(settings, client=client, cache=cache)
    ...
    print(client.stats.total, "requests")
"""

from __future__ import annotations

from .base import Source, SourceError, SourceUnavailable
from .cache import LookupCache
from .http import HttpClient, HostPolicy, user_agent
from .settings import SOURCE_NAMES, SourceSettings

__all__ = [
    "Source", "SourceError", "SourceUnavailable", "LookupCache", "HttpClient", "HostPolicy",
    "SourceSettings", "SOURCE_NAMES", "build_client", "open_cache", "build_sources",
]


def build_client(settings: SourceSettings) -> HttpClient:
    """The shared HTTP client: one per run, so limits hold across all threads."""
    return HttpClient(user_agent=user_agent(settings.mailto), timeout=settings.timeout, retries=settings.retries,
                      policies=settings.policies, deadline=settings.deadline)


def open_cache(settings: SourceSettings) -> LookupCache:
    """The lookup cache at ``settings.cache_path`` (in memory when no directory is set)."""
    return LookupCache(settings.cache_path, refresh=settings.refresh)


def build_sources(settings: SourceSettings, *, client: HttpClient | None = None,
                  cache: LookupCache | None = None) -> list[Source]:
    """The enabled sources, in ``settings.enabled`` order, sharing one client and cache."""
    from .arxiv import ArxivSource
    from .conferences import ConferenceListSource
    from .crossref import CrossrefSource
    from .dblp import DblpSource
    from .openreview import OpenReviewSource

    client = client if client is not None else build_client(settings)
    cache = cache if cache is not None else open_cache(settings)  # an empty cache is falsy
    classes = {"conferences": ConferenceListSource, "openreview": OpenReviewSource, "crossref": CrossrefSource, "dblp": DblpSource, "arxiv": ArxivSource}
    unknown = [n for n in settings.enabled if n not in classes]
    if unknown:
        raise ValueError(f"unknown source(s) {', '.join(unknown)}; choose from {', '.join(SOURCE_NAMES)}")
    return [classes[name](client, cache, settings) for name in settings.enabled]
