"""Whether a loaded library still is exactly the files it was loaded from, decided
without rendering them.

A sync that finds nothing to change used to render both files (every entry's texts
joined, the sidecar document built, 15 MB encoded and hashed at 50,000 entries) only to
find them equal to the files. Here the answer comes from what the load already holds:
the files are the bytes citekit last wrote (so rendering the loaded state gives them
back), the parsed-library cache describes exactly those bytes, and every entry and every
library-wide value (pending works, issued keys, detached records, the encoding) is still
what was loaded. Anything else, or any doubt, says "changed", and the caller writes as
before: a wrong "changed" costs a render, a wrong "unchanged" would lose a change.
"""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING

from citekit.library.store.cache import state
from citekit.library.store.written import last_written

if TYPE_CHECKING:
    from citekit.library.store.cache.library import CachedLibrary


def nothing_to_write(lib: CachedLibrary) -> bool:
    """True only when writing ``lib`` now would give both files exactly their bytes."""
    stored = getattr(lib, "_stored_as", None)
    loaded = getattr(lib, "_loaded_blobs", None)
    fingerprint = getattr(lib, "_fingerprint", None)
    if stored is None or loaded is None or fingerprint is None or stored.fingerprint != fingerprint:
        return False
    if not stored.all_texts or lib.renamed_by_hand or lib.ascii != lib._loaded_ascii:
        return False
    bib_key, side_key = fingerprint  # (size, sha256) each; (None,) for a missing file
    if len(bib_key) != 2 or len(side_key) != 2:
        return False
    bib_hash, side_hash = bib_key[1], side_key[1]
    known = last_written(lib.refs_dir)  # as citekit wrote them: a hand-edited file is rewritten
    if known.get("bib") != str(bib_hash)[:24] or known.get("sidecar") != str(side_hash)[:24]:
        return False
    if lib.keys() != stored.keys or lib._cache_meta() != stored.meta:
        return False
    current = lib._decoded if lib._lazy is not None else lib._entries  # an undecoded entry is as loaded
    for key, entry in current.items():
        if entry.key != key or key not in loaded:
            return False
        blob = loaded[key]
        now = state.entry_state(entry)
        if marshal.dumps(now) != blob and marshal.loads(blob) != now:
            return False
    return True
