"""Resolving mentions against the loopback fakes, as the resolver tests all do it: rate
limits off (requests are counted, not timed), one retry, no sleeping."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache

REPO = Path(__file__).resolve().parents[2]


def sources_for(fake: Any, cache_dir: Path | None = None) -> tuple[Any, Callable[[], None]]:
    """The sources pointed at ``fake`` (a running ``FakeServices``), and what closes them;
    ``cache_dir`` None keeps the answers in memory, so every run asks the fakes afresh."""
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, REPO, env=env)
    settings.cache_dir = cache_dir
    settings.retries = 1
    client = build_client(settings)
    client.sleep = lambda seconds: None
    cache = open_cache(settings)

    def close() -> None:
        client.close()
        cache.close()
    return build_sources(settings, client=client, cache=cache), close


def resolve_each(fake: Any, mentions: list[Any], *, cache_dir: Path | None = None, jobs: int = 1) -> list[Any]:
    """One work per mention, resolved against ``fake`` (see :func:`sources_for`)."""
    sources, close = sources_for(fake, cache_dir)
    try:
        return resolve_groups([[m] for m in mentions], sources, jobs=jobs).works
    finally:
        close()
