"""Building the search index after a search had to do without it.

The first search after an import or a sync is ranked by one pass over the entries
(:mod:`citekit.library.search.scan`), then the index is built by a process of its own in
the background, at low priority, so the searches after it are answered from the index.
``CITEKIT_SEARCH_INDEX=now`` builds it in the searching process instead (tests, scripts
that want the index at once); ``off`` never builds it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def build_index_now(refs_dir: Path) -> None:
    """Build (or patch) the stored index of the library in ``refs_dir`` and keep it."""
    from citekit.library.search.index import library_index
    from citekit.library.store import Library

    lib = Library.load(Path(refs_dir))
    library_index(lib)
    lib.keep_memos()


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


if __name__ == "__main__":
    if hasattr(os, "nice"):
        os.nice(10)
    build_index_now(Path(sys.argv[1]))
