"""Text folding shared by grouping, matching and dedup.

One definition of "the same title", so the notes grouper, the resolver and the dedup
engine can never disagree about it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

_L2T = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False)
_LATEXISH = re.compile(r"[\\{}$]")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
STOPWORDS = frozenset(
    "a an the of on in for and or to with via by from at as is are be its it into over under toward towards "
    "we our do does can not no using".split()
)


def fold(text: str) -> str:
    """Lower-case ASCII with accents removed (``Horváth`` → ``horvath``)."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=65536)
def delatex(text: str) -> str:
    """LaTeX markup to plain Unicode text; math kept verbatim without ``$``."""
    if not _LATEXISH.search(text):
        return text
    if "\\" not in text and "$" not in text and "%" not in text:
        return text.replace("{", "").replace("}", "")  # braces alone need no parser
    try:
        out = _L2T.latex_to_text(text)
    except Exception:  # malformed LaTeX from remote metadata: fall back to stripping
        out = text
    return out.replace("$", "").replace("{", "").replace("}", "")


@lru_cache(maxsize=65536)
def normalize_title(title: str) -> str:
    """Comparable form of a title: LaTeX, braces, math, accents, case and punctuation folded.

    ``{LiMuon}: Light and Fast {Muon} Optimizer`` and ``LiMuon - light and fast muon
    optimizer.`` both become ``limuon light and fast muon optimizer``.
    """
    if "\\" not in title and "$" not in title and "%" not in title:
        plain = title.replace("{", "").replace("}", "")
        if plain.isascii():  # most titles of a big library: no parser, no accent folding
            return _NON_ALNUM.sub(" ", plain.lower()).strip()
    return normalize_title_parsed(title)


def normalize_title_parsed(title: str) -> str:
    """:func:`normalize_title` through the LaTeX parser, for any title (the reference)."""
    text = fold(delatex(title))
    text = text.replace("ℓ", "l").replace("∞", "inf")
    return _NON_ALNUM.sub(" ", text).strip()


def title_tokens(title: str) -> list[str]:
    """Significant words of a normalized title (stop words dropped)."""
    return [w for w in normalize_title(title).split() if w not in STOPWORDS]


def first_significant_word(title: str) -> str:
    """First title word that is not a stop word, ASCII letters/digits only (for keys)."""
    for word in normalize_title(title).split():
        if word not in STOPWORDS:
            return word
    words = normalize_title(title).split()
    return words[0] if words else "untitled"
