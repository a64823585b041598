"""Where the services live and how politely to talk to them.

Every base URL can be changed (a mirror, a local fake server for tests and benchmarks),
from ``citekit.yaml``'s ``sources:`` section or, taking precedence, from ``CITEKIT_*``
environment variables. OpenReview credentials and the graph services' API keys come from the environment only, so they
never end up in a file someone commits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from citekit.core.paths import cache_dir
from citekit.sources import registry
from citekit.sources.http import MB, HostPolicy

#: every source, cheapest and most exact first (the default of ``sources.enabled``)
SOURCE_NAMES: tuple[str, ...] = registry.SOURCE_NAMES

#: Conference sites running the same virtual-site software: name -> site root. Each
#: publishes ``/static/virtual/data/<name>-<year>-orals-posters.json``.
CONFERENCE_SITES: dict[str, str] = {host.name: host.url for host in registry.row("conferences").hosts}

#: The largest answer read from each host (``sources.<host>.max_mb`` changes it); the
#: figures and why they are what they are: :mod:`citekit.sources.registry`.
MAX_BYTES: dict[str, int] = {name: int(host.limits.max_mb * MB) for name, host in registry.HOSTS.items()}

#: Each host's manners, from its registry row: the one home of every per-service limit.
DEFAULT_POLICIES: dict[str, HostPolicy] = {
    name: HostPolicy(min_interval=host.limits.interval, concurrency=host.limits.concurrency,
                     per_minute=host.limits.per_minute, after_answer=host.limits.after_answer,
                     max_bytes=MAX_BYTES[name])
    for name, host in registry.HOSTS.items()
}
#: the whole sync's network work stops after this many seconds (``sources.deadline``);
#: what is left stays notes-only and is looked up on the next sync
DEFAULT_DEADLINE = 900.0


@dataclass
class SourceSettings:
    """Everything :func:`citekit.sources.build_sources` needs, resolved once per run."""

    #: each host's address (``sources.<host>.url``, ``CITEKIT_<HOST>_URL``); a host not
    #: named here has its registry default
    urls: dict[str, str] = field(default_factory=dict)
    mailto: str | None = None
    openreview_username: str | None = field(default=None, repr=False)
    openreview_password: str | None = field(default=None, repr=False)
    openreview_token: str | None = field(default=None, repr=False)
    #: Semantic Scholar's key (``CITEKIT_S2_API_KEY``): without one, the shared pool
    s2_api_key: str | None = field(default=None, repr=False)
    #: OpenAlex's key (``CITEKIT_OPENALEX_API_KEY``): list calls and cursor paging need it since 2026
    openalex_api_key: str | None = field(default=None, repr=False)
    timeout: float = 20.0
    retries: int = 4
    cache_dir: Path | None = None
    refresh: bool = False
    enabled: list[str] = field(default_factory=lambda: list(SOURCE_NAMES))
    #: per-source request spacing and parallelism; ``rate_limits: off`` empties the spacing
    policies: dict[str, HostPolicy] = field(
        default_factory=lambda: {k: replace(v) for k, v in DEFAULT_POLICIES.items()}
    )
    #: seconds of network work one sync may spend (None: no cap)
    deadline: float | None = DEFAULT_DEADLINE

    @property
    def cache_path(self) -> Path | None:
        """The SQLite file inside ``cache_dir`` (None: cache only in memory)."""
        return self.cache_dir / "cache.sqlite" if self.cache_dir is not None else None

    @property
    def has_openreview_credentials(self) -> bool:
        return bool(self.openreview_token or (self.openreview_username and self.openreview_password))

    def url(self, host: str) -> str:
        """The address of ``host`` (a name of :data:`citekit.sources.registry.HOSTS`)."""
        return self.urls.get(host) or registry.HOSTS[host].url

    def urls_of(self, source: str) -> dict[str, str]:
        """The addresses of every host of ``source``, by host name."""
        return {host.name: self.url(host.name) for host in registry.row(source).hosts}

    def _set_url(self, name: str, url: str) -> None:
        # an endpoint (arXiv's query URL) is kept exactly; a root loses its trailing slash
        self.urls[name] = url if registry.HOSTS[name].exact_url else url.rstrip("/")

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
        for name, host in registry.HOSTS.items():
            sub = section.get(name) or {}
            if not isinstance(sub, Mapping):
                raise ValueError(f"citekit.yaml: 'sources.{name}' must be a mapping, e.g. '{name}: {{url: ...}}'")
            url = env.get(host.url_env) or sub.get("url")
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
        s.cache_dir = cache_dir(project_root, env=env, configured=str(section.get("cache_dir") or "") or None)
        s.openreview_username = env.get("OPENREVIEW_USERNAME") or None
        s.openreview_password = env.get("OPENREVIEW_PASSWORD") or None
        s.openreview_token = env.get("OPENREVIEW_TOKEN") or None
        s.s2_api_key = env.get("CITEKIT_S2_API_KEY") or None
        s.openalex_api_key = env.get("CITEKIT_OPENALEX_API_KEY") or None
        return s


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise ValueError(f"citekit.yaml: '{where}' must be a number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"citekit.yaml: '{where}' must be a number, got {value!r}") from None
