"""Whether a phrase is written in title case: how titles are written, and sentences are not.

Its own module because both the reference-line rules (``refline``) and the author-year
citations (``authoryear``) ask it, and the first already reads the second.
"""

from __future__ import annotations

from citekit.core.lazyre import lazy

_TITLE_WORD_RE = lazy(r"[^\W\d_][\w'’\-]*")


def title_case(title: str) -> bool:
    """Most words of four letters or more capitalised (``Symbolic Discovery of Optimization
    Algorithms``)."""
    words = [w for w in _TITLE_WORD_RE.findall(title) if len(w) > 3]
    return bool(words) and sum(1 for w in words if w[0].isupper()) / len(words) >= 0.6
