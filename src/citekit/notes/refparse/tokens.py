"""Reference strings cut into tokens, and the features the CRF reads off each token.

A token is a run of non-space characters, as AnyStyle cuts references: the labels of
AnyStyle's data sets and of the rendered training strings fall on these boundaries.
Features are computed from a cleaned form of the token (ligatures undone, accents
folded), so text copied out of a PDF looks like text typed by hand.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from citekit.core.lazyre import lazy

#: Ligatures and look-alikes a PDF copy leaves in text.
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st",
                            "\u00ad": "", "\u2010": "-", "\u2011": "-"})
_TOKEN_RE = lazy(r"\S+")
_YEAR_RE = lazy(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_RANGE_RE = lazy(r"\d+\s*[-–—‐]+\s*\d+")
_ROMAN_RE = lazy(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_CJK_RE = lazy(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_URL_RE = lazy(r"^(?:https?://|www\.|ftp://)|\.(?:com|org|net|edu|html?|pdf)\b", re.I)
_DOI_RE = lazy(r"\b10\.\d{4,9}/")
_ARXIV_RE = lazy(r"(?:arxiv|\b\d{4}\.\d{4,5}(?:v\d+)?\b)", re.I)
_INITIALS_RE = lazy(r"[^\W\d_]\.(?:-?[^\W\d_]\.)*,?")
_BARE_YEAR_RE = lazy(r"\(?\[?(1[5-9]\d\d|20\d\d)[a-z]?\)?\]?[.,;:]?")
_QUOTE_END_RE = lazy(r"[\"”’»》」』][.,:;]?$")
_PAREN_END_RE = lazy(r"[)\]][.,:;]?$")
_CLOSES_QUOTE_RE = lazy(r"[\"”»》」』’][.,:;)]*$")

#: Words that say what comes next (``In``, ``pp.``, ``vol.``), one feature each.
_CUE_WORDS = frozenset("""
in pp p pages page vol volume no nr issue ed eds editor editors edited by and et al others
proc proceedings conference conf workshop symposium journal trans transactions letters review
press university univ publisher publishers doi arxiv preprint available retrieved accessed from
url http https technical report tech rep thesis phd dissertation master chapter edition
vs der die und von van de la le des du di
""".split())
#: Words and signs that mark an incomplete author list (``et al.``, ``等``, ``ほか``).
ET_AL = frozenset({"et", "al", "al.", "others", "等", "ほか", "他", "など"})


@dataclass(frozen=True)
class Token:
    """One token of a reference string and where it sits in the text."""

    text: str
    start: int
    end: int


def clean(text: str) -> str:
    """Ligatures and soft hyphens undone: the text a reader sees."""
    return text.translate(_LIGATURES)


def tokenize(text: str) -> list[Token]:
    """Whitespace-separated tokens of ``text`` (line breaks are whitespace)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def token_texts(text: str) -> list[str]:
    """The texts of :func:`tokenize`'s tokens: ``str.split`` cuts at the same whitespace as
    ``\\S+`` (both ask Unicode's space property), without making a token object and a
    match for each (the parser needs only the texts)."""
    return text.split()


def fold(text: str) -> str:
    """Lower case, accents dropped, ligatures undone."""
    text = unicodedata.normalize("NFKD", clean(text))
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


def core(text: str) -> str:
    """The letters and digits of a token, folded: ``“Zhang,`` -> ``zhang``."""
    return "".join(c for c in fold(text) if c.isalnum())


def shape(text: str) -> str:
    """Character classes with runs squeezed: ``Zhang,`` -> ``Xx,``; ``2018`` -> ``d``."""
    out = []
    for c in text:
        k = "X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
        if not out or out[-1] != k:
            out.append(k)
    return "".join(out)[:8]


def _token_features(raw: str) -> list[str]:
    text = clean(raw)
    low = fold(text)
    word = core(text)
    f = [
        "w=" + word[:20],
        "sh=" + shape(text),
        "last=" + (text[-1] if not text[-1].isalnum() else "A"),
        "first=" + (text[0] if not text[0].isalnum() else "A"),
        "len=" + str(min(len(word), 8)),
    ]
    if len(word) > 3:
        f.append("p3=" + word[:3])
        f.append("s3=" + word[-3:])
    if word in _CUE_WORDS or low.rstrip(".,:;") in _CUE_WORDS:
        f.append("cue=" + word)
    letters = [c for c in text if c.isalpha()]
    if letters:
        if all(c.isupper() for c in letters):
            f.append("caps=all" if len(letters) > 1 else "caps=one")
        elif letters[0].isupper():
            f.append("caps=init")
        else:
            f.append("caps=low")
    if _INITIALS_RE.fullmatch(text):
        f.append("initials")
    if _YEAR_RE.search(text):
        f.append("year")
        if _BARE_YEAR_RE.fullmatch(text):
            f.append("year=bare")
    if _RANGE_RE.search(text):
        f.append("range")
    if any(c.isdigit() for c in text):
        f.append("digits")
        if word.isdigit():
            f.append("num=" + str(min(len(word), 5)))
    if word and _ROMAN_RE.match(word):
        f.append("roman")
    if _URL_RE.search(text):
        f.append("url")
    if _DOI_RE.search(text) or low.startswith("doi"):
        f.append("doi")
    if _ARXIV_RE.search(text):
        f.append("arxiv")
    if _CJK_RE.search(text):
        f.append("cjk")
    if text[0] in "\"“‘'«„《「『" or text[-1] in "\"”’'»》」』" or _QUOTE_END_RE.search(text):
        f.append("quote")
    if text[0] in "([" or text[-1] in ")]" or _PAREN_END_RE.search(text):
        f.append("paren")
    if text.startswith("\\"):
        f.append("latex")
    if text[-1] == "-" and len(text) > 1 and text[-2].isalpha():
        f.append("hyphen-end")
    if low in ET_AL or word in {"et", "al"}:
        f.append("etal")
    return f


def _states(tokens: list[str]) -> list[list[str]]:
    """Whether each token sits inside quotes or brackets opened by an earlier token."""
    out = []
    quote = paren = False
    for tok in tokens:
        here = []
        t = clean(tok)
        opens_q = t[0] in "“«„《「『" or (t[0] in "\"'‘" and len(t) > 1)
        if quote or opens_q:
            here.append("inquote")
        if paren or t[0] in "([":
            here.append("inparen")
        if opens_q:
            quote = True
        if _CLOSES_QUOTE_RE.search(t) and not (t[0] in "\"“" and len(t) == 1):
            quote = False if quote and (len(t) > 1 or not opens_q) else quote
        if "(" in t or "[" in t:
            paren = True
        if ")" in t or "]" in t:
            paren = False
        out.append(here)
    return out


#: a token's own features, remembered by its text (``and``, ``et``, ``al.``, years and
#: venue words come back in every reference); bounded, so no input grows it without end
_own_features = functools.lru_cache(maxsize=20_000)(lambda raw: tuple(_token_features(raw)))
_NEIGHBOUR_PREFIXES = ("w=", "sh=", "last=", "cue=", "year", "initials", "quote", "caps=", "range", "etal", "url", "doi")
_OFFSETS = (-2, -1, 1, 2)


@functools.lru_cache(maxsize=20_000)
def _as_neighbour(raw: str) -> dict[int, tuple[str, ...]]:
    """What the tokens two before, one before, one after and two after a token read of it,
    by their offset: its shared features with the offset's prefix (``-1:w=zhang``). Made once
    per text, like its own features: the same words come back in every reference, and the
    strings would otherwise be made again for each of the four neighbours."""
    shared = [g for g in _own_features(raw) if g.startswith(_NEIGHBOUR_PREFIXES)]
    return {d: tuple(f"{d}:{g}" for g in shared) for d in _OFFSETS}


def features(tokens: list[str]) -> list[list[str]]:
    """The feature strings of every token: its own, its neighbours', and where it sits."""
    own = [_own_features(t) for t in tokens]
    seen = [_as_neighbour(t) for t in tokens]
    states = _states(tokens)
    n = len(tokens)
    out = []
    for i in range(n):
        f = ["bias", f"pos={min(10, (10 * i) // max(n, 1))}", *own[i], *states[i]]
        if i == 0:
            f.append("BOS")
        if i == n - 1:
            f.append("EOS")
        for d in _OFFSETS:
            j = i + d
            if 0 <= j < n:
                f.extend(seen[j][d])
        out.append(f)
    return out
