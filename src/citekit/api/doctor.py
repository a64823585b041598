"""``doctor``: is refs/ whole, and what to do about anything that is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citekit.api.project import config_of


def rebuild_sidecar(start: str | Path | None = None) -> tuple[str, int]:
    """A new ``library.yaml`` from ``library.bib`` alone: (its file name, number of entries)."""
    from citekit.library import doctor as checks

    cfg = config_of(start)
    lib = checks.rebuild_sidecar(cfg.refs_dir)
    return cfg.library_yaml.name, len(lib.entries)


def diagnose(start: str | Path | None = None, *, fix: bool = False) -> Any:
    """The checks of refs/ (with ``fix``: interrupted writes finished or undone, stale files removed)."""
    from citekit.library import doctor as checks

    return checks.diagnose(config_of(start).refs_dir, fix=fix)
