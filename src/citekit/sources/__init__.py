"""Metadata sources (conference paper lists, OpenReview, Crossref, dblp, arXiv) behind one small interface.

Typical use::

    settings = SourceSettings.from_env(config, project_root)
    client, cache = build_client(settings), open_cache(settings)
    sources = build_sources(settings, client=client, cache=cache)
    ...
    print(client.stats.total, "requests")

Which sources exist is :mod:`citekit.sources.registry`'s one list. This package imports
nothing on its own: every command reads the registry (its names check ``citekit.yaml``),
and only a sync that goes online needs HTTP, the cache and the sources themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citekit.sources.base import Source, SourceError, SourceUnavailable
    from citekit.sources.cache import LookupCache
    from citekit.sources.http import HostPolicy, HttpClient
    from citekit.sources.settings import SourceSettings

__all__ = [
    "Source", "SourceError", "SourceUnavailable", "LookupCache", "HttpClient", "HostPolicy",
    "SourceSettings", "SOURCE_NAMES", "build_client", "open_cache", "build_sources",
]

_LAZY = {"Source": "citekit.sources.base", "SourceError": "citekit.sources.base",
         "SourceUnavailable": "citekit.sources.base", "LookupCache": "citekit.sources.cache",
         "HttpClient": "citekit.sources.http", "HostPolicy": "citekit.sources.http", "user_agent": "citekit.sources.http",
         "SourceSettings": "citekit.sources.settings", "SOURCE_NAMES": "citekit.sources.registry"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_client(settings: SourceSettings) -> HttpClient:
    """The shared HTTP client: one per run, so limits hold across all threads."""
    from citekit.sources.http import HttpClient, user_agent

    return HttpClient(user_agent=user_agent(settings.mailto), timeout=settings.timeout, retries=settings.retries,
                      policies=settings.policies, deadline=settings.deadline)


def open_cache(settings: SourceSettings) -> LookupCache:
    """The lookup cache at ``settings.cache_path`` (in memory when no directory is set)."""
    from citekit.sources.cache import LookupCache

    return LookupCache(settings.cache_path, refresh=settings.refresh)


def build_sources(settings: SourceSettings, *, client: HttpClient | None = None,
                  cache: LookupCache | None = None) -> list[Source]:
    """The enabled sources, in ``settings.enabled`` order, sharing one client and cache."""
    from citekit.sources import registry

    client = client if client is not None else build_client(settings)
    cache = cache if cache is not None else open_cache(settings)  # an empty cache is falsy
    unknown = [n for n in settings.enabled if n not in registry.SOURCE_NAMES]
    if unknown:
        raise ValueError(f"unknown source(s) {', '.join(unknown)}; choose from {', '.join(registry.SOURCE_NAMES)}")
    return [registry.row(name).load()(client, cache, settings) for name in settings.enabled]
