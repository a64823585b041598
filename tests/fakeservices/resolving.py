"""Resolving mentions against the loopback fakes, as the resolver tests all do it: rate
limits off (requests are counted, not timed), one retry, no sleeping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache

REPO = Path(__file__).resolve().parents[2]


def resolve_each(fake: Any, mentions: list[Any], *, cache_dir: Path | None = None, jobs: int = 1) -> list[Any]:
    """One work per mention, resolved against ``fake`` (a running ``FakeServices``);
    ``cache_dir`` None keeps the answers in memory, so every call asks the fakes afresh."""
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, REPO, env=env)
    settings.cache_dir = cache_dir
    settings.retries = 1
    client = build_client(settings)
    client.sleep = lambda seconds: None
    cache = open_cache(settings)
    try:
        return resolve_groups([[m] for m in mentions], build_sources(settings, client=client, cache=cache), jobs=jobs).works
    finally:
        client.close()
        cache.close()
