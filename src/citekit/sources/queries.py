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
    """Family names of the first few written author names (enough to rank, not to filter),
    read as a reference writes them (:func:`_family_of`)."""
    return [f for f in (_family_of(raw) for raw in mention.authors[:limit]) if f]


#: the longest reference string sent whole (a longer one is a paragraph, not a reference)
MAX_REFERENCE_CHARS = 400


def reference_terms(mention: Mention) -> str | None:
    """The pasted reference string as plain text, for a search made for whole citations
    (Crossref's ``query.bibliographic``), or None."""
    if not mention.reference or len(mention.reference) > MAX_REFERENCE_CHARS:
        return None
    text = " ".join(latex_to_text(mention.reference, matching=True).split())
    return text or None


# --------------------------------------------------------------------------- pasted references
#
# A pasted reference whose title the parser was not sure of is sent whole to Crossref
# (``query.bibliographic`` reads citation strings); dblp and arXiv search titles and names,
# so they get the words of one field of the string instead: the field most likely to be its
# title (a "title guess") and a family name. The guess only decides what is asked: what is
# accepted is decided by the matching rules (the record's own whole title a field of the
# string, its first author named in it), never by the guess.

#: a reference list's own numbering before the string: ``[12]``, ``12.``, ``(12)``
_NUMBERING_RE = re.compile(r"^\s*(?:\[\s*\d{1,4}\s*\]|\(\s*\d{1,4}\s*\)|\d{1,4}\s*[.)])\s*")
#: where the fields of a reference end: a full stop before a space (after an initial too:
#: ``J.`` alone is a field of names, dropped with them), commas, semicolons, colons,
#: quotes, brackets, a spaced dash
_FIELD_SPLIT_RE = re.compile(r"\.(?=\s|$)|[,;:\"“”„«»()\[\]{}]|\s[-–—]{1,2}\s|(?<=\w)[–—](?=\s)")
#: a word that opens a field telling where a paper appeared, its edition or its address,
#: never its title
_NOT_TITLE_OPENERS = frozenset(
    "in proc proc. proceedings advances journal j trans transactions conference conf symposium workshop "
    "arxiv preprint corr vol volume pp pages p nr ed eds edited edition press university retrieved "
    "available doi isbn issn accessed url http https www tech thesis dissertation "
    "phd msc ieee acm springer elsevier wiley lncs lecture".split())
#: words of a publisher's or an institution's name: a field holding one is taken for a
#: title only when no other field can be (``The Feminist Press at the City University …``)
_PUBLISHER_WORDS = frozenset(
    "press publishers publishing company verlag inc ltd department institute university college".split())
#: an initial as an author list writes it: ``J``, ``DP``, ``J.-P``, ``Y.N``
_INITIALS_WORD_RE = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")
#: a word a PDF split at a line's end (``optimi- zation``), joined again
_LINE_BREAK_RE = re.compile(r"([a-z])- ([a-z])")
_YEAR_AT_END_RE = re.compile(r"\s+(?:1[5-9]|20)\d{2}[a-z]?$")
_YEAR_IN_RE = re.compile(r"(?<!\d)(?:1[5-9]|20)\d{2}[a-z]?(?!\d)")
_ET_AL_RE = re.compile(r"\bet\.?\s*al\b", re.I)
#: the fewest words a guess needs to be worth a search (``Layer normalization``)
MIN_GUESS_WORDS = 2
#: the most words of a guess that are sent (a title's first words find it as well as all of them)
MAX_GUESS_WORDS = 12


def _reference_fields(reference: str) -> list[str]:
    """The string's fields as plain text, in order, its numbering left out."""
    text = " ".join(latex_to_text(reference, matching=True).split())
    text = _NUMBERING_RE.sub("", _LINE_BREAK_RE.sub(r"\1\2", text))
    return [" ".join(f.split()) for f in _FIELD_SPLIT_RE.split(text) if f and f.strip()]


def _names_field(field: str, families: set[str]) -> bool:
    """A field that is (part of) an author list: ``Hochreiter S``, ``A. Vaswani et al``,
    ``and J. Schmidhuber``, or up to four capitalised words holding a known family name."""
    if _ET_AL_RE.search(field):
        return True
    raw = [w for w in field.split() if w.lower() not in ("and", "&")]
    if not raw or len(raw) > 4:
        return False
    if not all(w[:1].isupper() for w in raw):
        return False
    return any(_INITIALS_WORD_RE.match(w.rstrip(".")) for w in raw) or any(fold(w) in families for w in raw)


def _family_of(raw: str) -> str | None:
    """The family name of an author as a reference writes it: before a comma (``Kingma,
    D. P.``), the word before trailing initials (``HOCHREITER S``, ``Ba JL``), else the
    last word (``Ashish Vaswani``, ``A. Vaswani``)."""
    if "," in raw:
        raw = raw.partition(",")[0]
    words = [w for w in raw.split() if not _INITIALS_WORD_RE.match(w.rstrip("."))]
    if not words:
        return None
    tokens = plain_words(words[0] if _INITIALS_WORD_RE.match(raw.split()[-1].rstrip(".")) else words[-1]).split()
    return tokens[0] if tokens else None


def reference_title_guess(mention: Mention) -> str | None:
    """The run of words of a pasted reference most likely to be its title, as plain words:
    the longest field (the earliest of equals) that is not an author list, a year, pages or
    volume, or where the paper appeared (``In …``, ``Proc. …``, ``arXiv preprint``); a field
    naming a publisher or an institution only when no other is left.
    None when no field has :data:`MIN_GUESS_WORDS` words."""
    if not mention.reference or len(mention.reference) > MAX_REFERENCE_CHARS:
        return None
    families = {fold(f) for f in (_family_of(a) for a in mention.authors) if f}
    best: list[str] = []
    best_rank = (False, 0)
    for field in _reference_fields(mention.reference):
        field = _YEAR_AT_END_RE.sub("", field)  # (``… package for R 2013``: the year's own field ran into it)
        if _YEAR_IN_RE.search(field) or sum(c.isdigit() for c in field) * 3 > len(field):
            continue  # a date, pages, a volume
        words = plain_words(field).split()
        if len(words) < MIN_GUESS_WORDS or words[0].lower().rstrip(".") in _NOT_TITLE_OPENERS:
            continue
        if _names_field(field, families):
            continue
        rank = (not any(w.lower() in _PUBLISHER_WORDS for w in words), len(words))
        if rank > best_rank:
            best, best_rank = words, rank
    return " ".join(best[:MAX_GUESS_WORDS]) or None


def reference_family(mention: Mention) -> str | None:
    """The first author's family name: the first one read from the string when the
    notes kept its authors, else the first word of the string that is not an initial
    (``ZHANG H, …`` -> ``ZHANG``, ``A. Vaswani et al.`` -> ``Vaswani``)."""
    first = _family_of(mention.authors[0]) if mention.authors else None
    if first:
        return first
    for word in " ".join(_reference_fields(mention.reference or "")).split():
        bare = word.strip(".,;:'\"")
        if len(bare) > 1 and bare[:1].isupper() and not _INITIALS_WORD_RE.match(bare.rstrip(".")):
            tokens = plain_words(bare).split()
            return tokens[0] if tokens else None
    return None


def reference_search(mention: Mention) -> tuple[str, str | None] | None:
    """``(title guess, family name)`` for a title search by a pasted reference's words
    (dblp, arXiv), or None: only for a mention with no title of its own that keeps the
    string (a title read from the string is searched as a title)."""
    if mention.title:
        return None
    guess = reference_title_guess(mention)
    if guess is None:
        return None
    family = reference_family(mention)
    if family and fold(family) in fold(guess).split():
        family = None  # (already among the words)
    return guess, family
