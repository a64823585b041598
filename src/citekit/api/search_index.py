"""Building the search index after a search had to do without it.

The first search after an import or a sync is ranked by one pass over the entries
(:mod:`citekit.library.search.scan`), then the index is built by a process of its own in
the background, at low priority, so the searches after it are answered from the index.
``CITEKIT_SEARCH_INDEX=now`` builds it in the searching process instead (tests, scripts
that want the index at once); ``off`` never builds it.

A large library does not wait for its first search: an import or a sync that leaves it
without a usable index (none yet, or more entries changed than a patch takes) starts the
same background build as it ends (:func:`index_after_write`), so the first search usually
finds the index; the build also derives what the first ``list``, ``tags`` and ``sync``
read of every entry (:func:`prepare_library`). The write itself does no more work, and a small library is scanned fast
enough that nothing is started for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def build_index_now(refs_dir: Path) -> None:
    """Build (or patch) the stored index of the library in ``refs_dir``, with what the first
    ``list``, ``tags``, ``dedup`` and ``sync`` would otherwise derive of every entry, and keep
    them (:func:`prepare_library`)."""
    from citekit.library.store import Library

    lib = Library.load(Path(refs_dir))
    prepare_library(lib)
    lib.keep_memos()


def prepare_library(lib: Any) -> None:
    """Everything the commands after a large write derive from each entry, derived now: the
    search index, each entry's tags and status (``list --tag``, ``tags``), its ``list`` line,
    and a sync's match index and rule tags. Without it the first of each command after an
    import of 3,725 entries took 3-10 times as long as the next (``list`` 1.2 s, 0.13 s)."""
    from citekit.api.library import list_line_of
    from citekit.api.project import config_of
    from citekit.library.fold import prepare
    from citekit.library.search.index import library_index
    from citekit.library.store import kinds
    from citekit.library.tags import load_rules

    library_index(lib)
    lib.facets()
    lib.memo_table(kinds.LIST_LINE, list_line_of(lib))
    try:
        rules = load_rules(config_of(lib.refs_dir.parent).data)
    except Exception:  # noqa: BLE001  (a project whose config cannot be read: the sync says why, later)
        return
    prepare(lib, rules)


def build_index_later(refs_dir: Path) -> None:
    """Start building the index without waiting for it (see the module's doc)."""
    mode = os.environ.get("CITEKIT_SEARCH_INDEX", "background")
    if mode == "off":
        return
    if mode == "now":
        build_index_now(refs_dir)
        return
    subprocess.Popen([sys.executable, "-m", "citekit.api.search_index", str(refs_dir)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)


#: libraries from this many entries get their index (and what the first list, tags, dedup
#: and sync derive, :func:`prepare_library`) built in the background after a write
BACKGROUND_MIN = 1000


def index_after_write(refs_dir: Path, entries: int, changed: int | None = None) -> bool:
    """After a write that left ``entries`` entries, ``changed`` of them new or changed (None:
    unknown, a sync): start building the index in the background when the library is large
    and the next search could not use a stored index (none, or too much changed to patch it).
    Returns whether a build was started."""
    if entries < BACKGROUND_MIN or os.environ.get("CITEKIT_SEARCH_INDEX", "background") == "off":
        return False
    from citekit.library.search.index import PATCH_MIN, PATCH_SHARE
    from citekit.library.store import kinds
    from citekit.library.store.cache.memo_files import apart_path

    stored = apart_path(Path(refs_dir), kinds.SEARCH_INDEX).exists()
    if stored and (changed is None or changed <= max(PATCH_MIN, entries // PATCH_SHARE)):
        return False  # the next search patches the stored index
    build_index_later(Path(refs_dir))
    return True


if __name__ == "__main__":
    if hasattr(os, "nice"):
        os.nice(10)
    build_index_now(Path(sys.argv[1]))
