"""Where citekit keeps its own files: the one rule for ``.citekit/``.

``.citekit/`` sits beside ``refs/``: it holds the lock that guards ``refs/`` and the
caches derived from it (the parsed library, the sidecar, the sync stamp), so two projects
that share one ``refs/`` folder share its lock, and every module of the library layer,
which knows ``refs/`` and nothing else, finds it. In the default layout (``refs/`` in the
project folder) that is ``<project>/.citekit``.

The caches that are not tied to one ``refs/`` (the services' answers, the parsed
``citekit.yaml``) may live elsewhere: ``CITEKIT_CACHE_DIR`` (the user's own, it wins) or
``sources.cache_dir`` in ``citekit.yaml`` (relative to the project folder) moves them;
by default they are in ``<project>/.citekit`` too. ``citekit.yaml`` is read before ``refs/``
is known, so its cache cannot follow a ``paths.refs`` that moves ``refs/`` deeper.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: the name of citekit's own folder
STATE_NAME = ".citekit"
#: the environment variable that moves the shareable caches
CACHE_VARIABLE = "CITEKIT_CACHE_DIR"


def state_dir(refs_dir: Path | str) -> Path:
    """The ``.citekit/`` folder of the library in ``refs_dir``: lock and library caches."""
    return Path(refs_dir).absolute().parent / STATE_NAME


def cache_dir(root: Path | str, *, env: Mapping[str, str] | None = None, configured: str | None = None) -> Path:
    """The folder of the shareable caches of the project at ``root``.

    ``env`` (default: ``os.environ``) ``CITEKIT_CACHE_DIR`` first, then ``configured``
    (``sources.cache_dir``); a relative one is relative to ``root``, ``~`` is expanded.
    Without either: ``<root>/.citekit``.
    """
    environ = os.environ if env is None else env
    chosen = environ.get(CACHE_VARIABLE) or configured
    if not chosen:
        return Path(root) / STATE_NAME
    folder = Path(chosen).expanduser()
    return folder if folder.is_absolute() else Path(root) / folder


__all__ = ["STATE_NAME", "CACHE_VARIABLE", "state_dir", "cache_dir"]
