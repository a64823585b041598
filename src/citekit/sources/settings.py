"""Where the services live and how politely to talk to them.

Every base URL can be changed (a mirror, a local fake server for tests and benchmarks),
from ``citekit.yaml``'s ``sources:`` section or, taking precedence, from ``CITEKIT_*``
environment variables. OpenReview credentials come from the environment only, so they
never end up in a file someone commits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from .http import MB, HostPolicy

#: every source, cheapest and most exact first (the default of ``sources.enabled``)
SOURCE_NAMES: tuple[str, ...] = ("conferences", "openreview", "crossref", "dblp", "arxiv")
#: the services proper (each has a URL, a limit policy and a ``CITEKIT_<NAME>_URL``)
SERVICES: tuple[str, ...] = ("openreview", "crossref", "dblp", "arxiv")

#: Conference sites running the same virtual-site software: name -> (site root, file prefix).
#: Each publishes ``/static/virtual/data/<prefix>-<year>-orals-posters.json``.
CONFERENCE_SITES: dict[str, str] = {
    "icml": "https://icml.cc",
    "neurips": "https://neurips.cc",
    "iclr": "https://iclr.cc",
    "mlsys": "https://mlsys.org",
}

#: OpenReview's budget for guests: "20 requests per minute for guest users"
#: (openreview/openreview#254); signed-in users have larger ones, set per_minute then.
OPENREVIEW_GUEST_PER_MINUTE = 20.0

#: The largest answer read from each service (``sources.<name>.max_mb`` changes it): the
#: largest real answer times a margin for growth. A conference's whole paper list is the
#: big one: about 5 KB an event (abstract, authors, media links), 6,000-7,000 events for
#: ICML or NeurIPS 2025-2026, so 30-40 MB; 128 MB leaves room for a few years' growth.
#: An arXiv batch of 100 ids is 0.3 MB, up to ~15 MB when every paper lists a physics
#: collaboration's 3,000 authors; a Crossref work or 5-row search ~2 MB at the same worst;
#: dblp's 10 search hits or one record and an OpenReview page of 10 notes stay under 1 MB.
MAX_BYTES: dict[str, int] = {
    "arxiv": 32 * MB,
    "crossref": 16 * MB,
    "dblp": 8 * MB,
    "openreview": 8 * MB,
    **{site: 128 * MB for site in CONFERENCE_SITES},
}

#: The services' own requests: arXiv one call every 3 s on one connection, counted from
#: the end of the previous answer; dblp about one a second; Crossref announces its limits
#: in headers (polite pool: 3 parallel); OpenReview 20 a minute for guests. A conference
#: site serves one static file per venue-year: one request at a time is plenty.
#: This table, with :data:`MAX_BYTES`, is the one home of every per-service limit.
DEFAULT_POLICIES: dict[str, HostPolicy] = {
    name: replace(policy, max_bytes=MAX_BYTES[name]) for name, policy in {
        "arxiv": HostPolicy(min_interval=3.0, concurrency=1, after_answer=True),
        "dblp": HostPolicy(min_interval=1.0, concurrency=1),
        "crossref": HostPolicy(min_interval=0.2, concurrency=3),
        "openreview": HostPolicy(min_interval=0.5, concurrency=2, per_minute=OPENREVIEW_GUEST_PER_MINUTE),
        **{site: HostPolicy(min_interval=1.0, concurrency=1) for site in CONFERENCE_SITES},
    }.items()
}
#: the whole sync's network work stops after this many seconds (``sources.deadline``);
#: what is left stays notes-only and is looked up on the next sync
DEFAULT_DEADLINE = 900.0

_URL_ENV = {
    "openreview": "CITEKIT_OPENREVIEW_URL",
    "crossref": "CITEKIT_CROSSREF_URL",
    "dblp": "CITEKIT_DBLP_URL",
    "arxiv": "CITEKIT_ARXIV_URL",
    **{site: f"CITEKIT_{site.upper()}_URL" for site in CONFERENCE_SITES},
}


@dataclass
class SourceSettings:
    """Everything :func:`citekit.sources.build_sources` needs, resolved once per run."""

    openreview_url: str = "https://api2.openreview.net"
    crossref_url: str = "https://api.crossref.org"
    dblp_url: str = "https://dblp.org"
    arxiv_url: str = "https://export.arxiv.org/api/query"
    mailto: str | None = None
    openreview_username: str | None = field(default=None, repr=False)
    openreview_password: str | None = field(default=None, repr=False)
    openreview_token: str | None = field(default=None, repr=False)
    timeout: float = 20.0
    retries: int = 4
    cache_dir: Path | None = None
    refresh: bool = False
    enabled: list[str] = field(default_factory=lambda: list(SOURCE_NAMES))
    #: per-source request spacing and parallelism; ``rate_limits: off`` empties the spacing
    policies: dict[str, HostPolicy] = field(
        default_factory=lambda: {k: replace(v) for k, v in DEFAULT_POLICIES.items()}
    )
    #: conference site roots (``sources.icml.url``, ``CITEKIT_ICML_URL``, ...)
    conference_urls: dict[str, str] = field(default_factory=lambda: dict(CONFERENCE_SITES))
    #: seconds of network work one sync may spend (None: no cap)
    deadline: float | None = DEFAULT_DEADLINE

    @property
    def cache_path(self) -> Path | None:
        """The SQLite file inside ``cache_dir`` (None: cache only in memory)."""
        return self.cache_dir / "cache.sqlite" if self.cache_dir is not None else None

    @property
    def has_openreview_credentials(self) -> bool:
        return bool(self.openreview_token or (self.openreview_username and self.openreview_password))

    def url(self, source: str) -> str:
        if source in self.conference_urls:
            return self.conference_urls[source]
        return getattr(self, f"{source}_url")

    def _set_url(self, name: str, url: str) -> None:
        if name in CONFERENCE_SITES:
            self.conference_urls[name] = url.rstrip("/")
        else:  # the arXiv URL is the query endpoint itself: keep it exactly
            setattr(self, f"{name}_url", url.rstrip("/") if name != "arxiv" else url)

    @classmethod
    def from_env(cls, config: Mapping[str, Any] | None, project_root: Path,
                 env: Mapping[str, str] | None = None) -> "SourceSettings":
        """Settings from the config's ``sources:`` section, overridden by the environment.

        ``config`` is the whole parsed ``citekit.yaml``; only its ``sources:`` mapping is read.
        """
        env = os.environ if env is None else env
        section: Mapping[str, Any] = (config or {}).get("sources") or {}
        if not isinstance(section, Mapping):
            raise ValueError("citekit.yaml: 'sources:' must be a mapping such as "
                             "'sources: {crossref: {url: https://api.crossref.org}, mailto: you@example.org}'")
        s = cls()
        for name in (*SERVICES, *CONFERENCE_SITES):
            sub = section.get(name) or {}
            if not isinstance(sub, Mapping):
                raise ValueError(f"citekit.yaml: 'sources.{name}' must be a mapping, e.g. '{name}: {{url: ...}}'")
            url = env.get(_URL_ENV[name]) or sub.get("url")
            if url:
                s._set_url(name, str(url))
            if "interval" in sub:
                s.policies[name].min_interval = _number(sub["interval"], f"sources.{name}.interval")
            if "concurrency" in sub:
                s.policies[name].concurrency = max(1, int(_number(sub["concurrency"], f"sources.{name}.concurrency")))
            if "per_minute" in sub:
                per_minute = _number(sub["per_minute"], f"sources.{name}.per_minute")
                if per_minute <= 0:
                    raise ValueError(f"citekit.yaml: 'sources.{name}.per_minute' must be a positive number "
                                     f"of requests a minute, got {sub['per_minute']!r}")
                s.policies[name].per_minute = per_minute
            if "max_mb" in sub:
                max_mb = _number(sub["max_mb"], f"sources.{name}.max_mb")
                if max_mb <= 0:
                    raise ValueError(f"citekit.yaml: 'sources.{name}.max_mb' must be a positive number of "
                                     f"megabytes, got {sub['max_mb']!r}")
                s.policies[name].max_bytes = int(max_mb * MB)
        if "deadline" in section:
            s.deadline = _number(section["deadline"], "sources.deadline") if section["deadline"] is not None else None
            if s.deadline is not None and s.deadline <= 0:
                raise ValueError(f"citekit.yaml: 'sources.deadline' must be a positive number of seconds, "
                                 f"got {section['deadline']!r}")
        s.mailto = env.get("CITEKIT_MAILTO") or section.get("mailto") or None
        if "timeout" in section:
            s.timeout = _number(section["timeout"], "sources.timeout")
        if "retries" in section:
            s.retries = int(_number(section["retries"], "sources.retries"))
        if section.get("enabled") is not None:
            enabled = [str(x).lower() for x in section["enabled"]]
            unknown = sorted(set(enabled) - set(SOURCE_NAMES))
            if unknown:
                raise ValueError(f"citekit.yaml: unknown source(s) in sources.enabled: {', '.join(unknown)}; "
                                 f"choose from {', '.join(SOURCE_NAMES)}")
            s.enabled = enabled
        rate = env.get("CITEKIT_RATE_LIMITS", section.get("rate_limits", "on"))
        if str(rate).lower() in ("off", "false", "0", "no"):
            for policy in s.policies.values():
                policy.min_interval = 0.0
                policy.adaptive = False
                policy.per_minute = None
        cache_dir = env.get("CITEKIT_CACHE_DIR") or section.get("cache_dir")
        s.cache_dir = Path(cache_dir).expanduser() if cache_dir else Path(project_root) / ".citekit"
        if not s.cache_dir.is_absolute():
            s.cache_dir = Path(project_root) / s.cache_dir
        s.openreview_username = env.get("OPENREVIEW_USERNAME") or None
        s.openreview_password = env.get("OPENREVIEW_PASSWORD") or None
        s.openreview_token = env.get("OPENREVIEW_TOKEN") or None
        return s


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"citekit.yaml: '{where}' must be a number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"citekit.yaml: '{where}' must be a number, got {value!r}") from None
