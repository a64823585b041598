"""Where the services live and how politely to talk to them.

Every base URL can be changed (a mirror, a local fake server for tests and benchmarks),
from ``citekit.yaml``'s ``sources:`` section or, taking precedence, from ``CITEKIT_*``
environment variables. OpenReview credentials come from the environment only, so they
never end up in a file someone commits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .http import HostPolicy

SOURCE_NAMES: tuple[str, ...] = ("openreview", "crossref", "dblp", "arxiv")

#: The services' own requests: arXiv one call every 3 s on one connection; dblp 1–2 s
#: apart; Crossref announces its limits in headers (polite pool: 3 parallel);
#: OpenReview publishes none, so stay modest.
DEFAULT_POLICIES: dict[str, HostPolicy] = {
    "arxiv": HostPolicy(min_interval=3.0, concurrency=1),
    "dblp": HostPolicy(min_interval=1.0, concurrency=1),
    "crossref": HostPolicy(min_interval=0.2, concurrency=3),
    "openreview": HostPolicy(min_interval=0.5, concurrency=2),
}

_URL_ENV = {
    "openreview": "CITEKIT_OPENREVIEW_URL",
    "crossref": "CITEKIT_CROSSREF_URL",
    "dblp": "CITEKIT_DBLP_URL",
    "arxiv": "CITEKIT_ARXIV_URL",
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
        default_factory=lambda: {k: HostPolicy(v.min_interval, v.concurrency) for k, v in DEFAULT_POLICIES.items()}
    )

    @property
    def cache_path(self) -> Path | None:
        """The SQLite file inside ``cache_dir`` (None: cache only in memory)."""
        return self.cache_dir / "cache.sqlite" if self.cache_dir is not None else None

    @property
    def has_openreview_credentials(self) -> bool:
        return bool(self.openreview_token or (self.openreview_username and self.openreview_password))

    def url(self, source: str) -> str:
        return getattr(self, f"{source}_url")

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
        for name in SOURCE_NAMES:
            sub = section.get(name) or {}
            if not isinstance(sub, Mapping):
                raise ValueError(f"citekit.yaml: 'sources.{name}' must be a mapping, e.g. '{name}: {{url: ...}}'")
            if sub.get("url"):
                setattr(s, f"{name}_url", str(sub["url"]).rstrip("/") if name != "arxiv" else str(sub["url"]))
            if "interval" in sub:
                s.policies[name].min_interval = _number(sub["interval"], f"sources.{name}.interval")
            if "concurrency" in sub:
                s.policies[name].concurrency = max(1, int(_number(sub["concurrency"], f"sources.{name}.concurrency")))
            if env.get(_URL_ENV[name]):
                setattr(s, f"{name}_url", env[_URL_ENV[name]].rstrip("/") if name != "arxiv" else env[_URL_ENV[name]])
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
        cache_dir = env.get("CITEKIT_CACHE_DIR") or section.get("cache_dir")
        s.cache_dir = Path(cache_dir).expanduser() if cache_dir else Path(project_root) / ".citekit"
        if not s.cache_dir.is_absolute():
            s.cache_dir = Path(project_root) / s.cache_dir
        s.openreview_username = env.get("OPENREVIEW_USERNAME") or None
        s.openreview_password = env.get("OPENREVIEW_PASSWORD") or None
        s.openreview_token = env.get("OPENREVIEW_TOKEN") or None
        return s


def _number(value: Any, where: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"citekit.yaml: '{where}' must be a number, got {value!r}") from None
