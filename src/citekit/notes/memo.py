"""Remembering what the line rules said about a text they have already read.

Every notes line passes through the same pure rules (a label? a reference string? which
identifiers, which URLs?), often more than once: the outline asks whether a line names a
paper, the extractor asks again when it walks the tree, and the title is read once more
when the mention is built. Notes also repeat lines (``- Summary:``, a venue in every
heading, a file pasted twice). A bounded cache per rule answers the repeats in constant
time; the bound keeps memory flat on a file of any size, where a miss costs only the
lookup.

Only functions of the text alone are cached, and their results are immutable or copied
on the way out (see :func:`copied`), so a caller can never change what the next caller
is told.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import TypeVar

#: Distinct texts each rule remembers: more than the distinct lines of a long notes file
#: section, small enough that every cache together stays near 15 MB when full (measured on
#: notes whose every line is new), whatever the size of the file (8192 texts held about 30 MB).
LINE_CACHE_SIZE = 4096

T = TypeVar("T")


_CACHES: list = []


def per_text(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` answered from a bounded cache keyed on its arguments (texts and flags)."""
    cached = lru_cache(maxsize=LINE_CACHE_SIZE)(fn)
    _CACHES.append(cached)
    return cached


def copied(fn: Callable[[str], list | None]) -> Callable[[str], list | None]:
    """:func:`per_text` for a rule of one text that returns a list (or None): each caller
    gets its own copy, since mentions keep and extend the lists they are given. A caller
    that only reads the list (tests it, iterates it, copies it itself) calls ``.shared``
    instead, the remembered list itself, and saves the copy and a call."""
    cached = per_text(fn)

    @wraps(fn)
    def call(text: str) -> list | None:
        found = cached(text)
        return None if found is None else list(found)

    call.shared = cached  # type: ignore[attr-defined]
    return call


def clear_all() -> None:
    """Forget every remembered answer: tests compare cached and fresh answers, and the
    bench times cold runs."""
    for cached in _CACHES:
        cached.cache_clear()
