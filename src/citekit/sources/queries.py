"""Search terms built from a mention, shared by the sources.

Search engines choke on TeX and punctuation (``$(L_0, L_1)$``, ``:``), and an abstract
is too long to send whole; the functions here pick the words most likely to find the paper.
"""

from __future__ import annotations

import re

from citekit.core.resolution import Mention
from citekit.core.text import fold, latex_to_text
from citekit.core.lazyre import lazy

_SENTENCE_RE = lazy(r"(?<=[.!?])\s+")


def plain_words(text: str) -> str:
    """Text with TeX removed and punctuation turned into spaces (accents kept)."""
    text = latex_to_text(text, matching=True)
    text = re.sub(r"[^\w\s'-]+", " ", text)
    text = re.sub(r"(?<!\w)[-']|[-'](?!\w)", " ", text)
    return " ".join(text.split())


def title_terms(mention: Mention) -> str | None:
    """The mention's title as plain words, or None when it has none."""
    if not mention.title:
        return None
    words = plain_words(mention.title)
    return words or None


def abstract_phrase(mention: Mention, max_words: int = 12) -> str | None:
    """A distinctive run of words from an abstract mention.

    Prefers the first sentence that names one of the mention's method names (``hints``),
    else the first sentence; cut to ``max_words`` so a phrase search still matches after
    small wording changes later in the sentence.
    """
    text = mention.abstract or mention.summary
    if not text:
        return None
    sentences = [s for s in _SENTENCE_RE.split(" ".join(text.split())) if s]
    if not sentences:
        return None
    chosen = sentences[0]
    hints = [fold(h) for h in mention.hints if h]
    for sentence in sentences:
        if any(h in fold(sentence) for h in hints):
            chosen = sentence
            break
    words = plain_words(chosen).split()
    return " ".join(words[:max_words]) or None


def author_families(mention: Mention, limit: int = 3) -> list[str]:
    """Family names of the first few written author names (enough to rank, not to filter):
    the last word of ``Ashish Vaswani``, the part before the comma of ``Kingma, D. P.``."""
    out: list[str] = []
    for raw in mention.authors[:limit]:
        family = raw.partition(",")[0] if "," in raw else raw  # "Kingma, D. P.": the family name leads
        tokens = plain_words(family).split()
        if tokens:
            out.append(tokens[0] if "," in raw else tokens[-1])
    return out


#: the longest reference string sent whole (a longer one is a paragraph, not a reference)
MAX_REFERENCE_CHARS = 400


def reference_terms(mention: Mention) -> str | None:
    """The pasted reference string as plain text, for a search made for whole citations
    (Crossref's ``query.bibliographic``), or None."""
    if not mention.reference or len(mention.reference) > MAX_REFERENCE_CHARS:
        return None
    text = " ".join(latex_to_text(mention.reference, matching=True).split())
    return text or None
