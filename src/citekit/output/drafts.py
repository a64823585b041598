"""The marker a generated draft carries, so that a draft the author has edited is never overwritten.

A related-work snippet is a draft the author is meant to edit. Once edited it is the
author's text, and regenerating it (``related-work -o``, the Makefile target after a
library change) must not replace it. To tell an untouched draft from an edited one without
keeping any state beside it, the first line of every generated file (a ``%`` comment in
LaTeX, ``<!-- -->`` in Markdown) holds a hash of the text below it: when the text still
hashes to the marker, the file is exactly what citekit wrote and may be replaced.
"""

from __future__ import annotations

import hashlib
import re
from enum import Enum
from citekit.core.lazyre import lazy

#: what the marker looks like inside the first line's comment
MARK = "citekit-draft:sha256="
_MARK_RE = lazy(re.escape(MARK) + r"([0-9a-f]{16})\b")


class DraftState(Enum):
    """What a file at the output path is, as far as overwriting it goes."""

    MISSING = "missing"  # no file: write it
    EMPTY = "empty"  # an empty (or blank) file: nothing to lose
    GENERATED = "generated"  # exactly as citekit wrote it: may be replaced
    EDITED = "edited"  # carries a marker its text no longer matches: the author's now
    UNMARKED = "unmarked"  # text without a marker: the author's (or an older citekit's) file

    @property
    def replaceable(self) -> bool:
        """Whether writing over a file in this state loses nothing the author wrote."""
        return self in (DraftState.MISSING, DraftState.EMPTY, DraftState.GENERATED)


def _normal(body: str) -> str:
    """The body as compared: line ends and a trailing blank line an editor adds do not count as edits."""
    return body.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")


def body_hash(body: str) -> str:
    """The marker's hash of ``body`` (the text below the first line): 64 bits, enough to tell an edit."""
    return hashlib.sha256(_normal(body).encode("utf-8")).hexdigest()[:16]


def marker(body: str) -> str:
    """The marker text for a first-line comment above ``body``."""
    return f"{MARK}{body_hash(body)}"


def draft_state(text: str | None) -> DraftState:
    """What ``text`` (a file's content, None when there is no file) is: see :class:`DraftState`."""
    if text is None:
        return DraftState.MISSING
    if not text.strip():
        return DraftState.EMPTY
    text = text.lstrip("\ufeff")
    first, _, body = text.replace("\r\n", "\n").partition("\n")
    found = _MARK_RE.search(first)
    if not found:
        return DraftState.UNMARKED
    return DraftState.GENERATED if found.group(1) == body_hash(body) else DraftState.EDITED
