"""Pasted abstracts: recognising them, and reading off the method names they introduce.

An abstract has no title, so the names it coins (``LiMuon``, ``RDNGD``, ``λ-GRPO``) are the
best handle for matching it to a titled mention or a search result. Only names the text
itself introduces count: a name after "we propose"/"named"/"called", a bold or
``\\texttt`` name, or an acronym defined in the sentence that says what was developed.
Names already used before that point (``GRPO``, ``ZO``) are existing work, not hints.
"""

from __future__ import annotations

import re
from itertools import islice


from ..text import latex_to_text
from .shapes import latin_share


_RESEARCH_CUE_RE = re.compile(
    r"\b(?:we|this (?:paper|work|article)|our (?:method|approach|results|analysis|work|framework)|in this (?:paper|work))\b"
    r"|\bexperiments?\b|\btheoretical\b",
    re.I,
)
#: :data:`_RESEARCH_CUE_RE` for an ASCII text in lower case: the same matches (ignoring the
#: case of ASCII letters is lower-casing them), found faster without the case folding.
_RESEARCH_CUE_LOWER_RE = re.compile(_RESEARCH_CUE_RE.pattern)
_PERSONAL_RE = re.compile(r"\bI (?:think|thought|was|am|liked|loved|found|felt|saw|met|talked|went|had)\b")
_ACTIVE_CUE_RE = re.compile(
    r"\b(?:we|this (?:paper|work|article)|our (?:paper|work))\s+(?:(?:also|further|then|first|newly|here|therefore)\s+)?"
    r"(?:propose|proposes|introduce|introduces|present|presents|develop|develops|design|designs|devise|devises)\b"
    r"|\b(?:named|called|dubbed|termed|coined|obtaining|yielding)\b",
    re.I,
)
_PASSIVE_CUE_RE = re.compile(r"\b(?:is|are)\s+(?:developed|proposed|introduced|presented)\b", re.I)
_BOLD_RE = re.compile(r"\*\*(?P<x>[^*]+)\*\*|__(?P<y>[^_]+)__")
_TEXTTT_RE = re.compile(r"\\(?:texttt|textsc|textbf|emph|method|name)\{(?P<x>[^{}]+)\}")
_PAREN_RE = re.compile(r"\((?P<x>[^()\s][^()]{0,30})\)")
_TOKEN_RE = re.compile(r"[^\s,;:()\[\]]+")
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\\$(*])")
#: Abbreviations so common that naming one is never introducing a method.
_COMMON = frozenset(
    "LLM LLMs SGD GPU GPUs CPU RL ML AI NLP CV CNN RNN MLP SVD PCA KL QA API SOTA GNN GAN VAE ODE SDE PDE "
    "ViT BERT GPT AdamW Adam".split()
)
_WINDOW_WORDS = 12


def looks_like_abstract(text: str) -> bool:
    """A paragraph of research prose: long, several sentences, English, written as "we".

    Trip-report impressions (Japanese prose, or "I thought ...") are not abstracts.
    """
    text = text.strip()
    if len(text) < 300:
        return False  # (before the sentence split, which costs more than every test below)
    # three sentences or more: two breaks (each part between breaks holds a character
    # before and after it, so none is empty); the search stops at the second
    return (
        next(islice(_SENTENCE_RE.finditer(text), 1, None), None) is not None
        and latin_share(text) >= 0.9
        and bool(_RESEARCH_CUE_LOWER_RE.search(text.lower()) if text.isascii() else _RESEARCH_CUE_RE.search(text))
        and not _PERSONAL_RE.search(text)
    )


def _plain(fragment: str) -> str:
    """A name as text: ``$\\lambda$-GRPO`` → ``λ-GRPO``, ``SPS$_{safe}$`` → ``SPS_safe``."""
    fragment = fragment.strip().strip("*_`'\"")
    if re.search(r"[\\$]", fragment):
        try:
            fragment = latex_to_text(fragment, scripts=False)
        except Exception:  # a half-written macro: keep what was written
            fragment = fragment.replace("$", "")
    return re.sub(r"\s+", " ", fragment).strip(" .,;:")


def is_coinage(token: str) -> bool:
    """A made-up method name: CamelCase (``LiMuon``), an acronym (``NCRS``), or a compound
    with one (``S-Adam``, ``SW-DRSO``, ``λ-GRPO``)."""
    token = token.strip(".,;:!?\"'`*")
    if not token or token in _COMMON or token.rstrip("s") in _COMMON:
        return False
    parts = [p for p in re.split(r"[-‐]", token) if p]
    if len(parts) > 1:
        first = parts[0]
        if first.isupper() or re.fullmatch(r"[α-ωΑ-Ω]", first) or any(_camel_or_acronym(p) for p in parts):
            return any(c.isupper() for c in token) and not all(p[:1].isupper() and p[1:].islower() for p in parts)
        return False
    return _camel_or_acronym(token)


def _camel_or_acronym(token: str) -> bool:
    if re.fullmatch(r"[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*", token):
        return True  # LiMuon, ZoVH
    if re.fullmatch(r"[A-Z][A-Za-z0-9]*", token) and sum(c.isupper() for c in token) >= 2 and not re.fullmatch(r"[A-Z0-9]+s", token):
        return any(c.islower() for c in token) or len(token) >= 2  # GMix, XGBoost; NCRS
    return bool(re.fullmatch(r"[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*(?:[_^]\w+)?s?", token)) and sum(c.isupper() for c in token) >= 2


def _hint_from_phrase(phrase: str) -> str | None:
    """The name inside a bold/parenthesised phrase: its own ``(ACRONYM)``, else the phrase
    itself when it is a coinage or a short capitalised name (``Neural QAOA^2``)."""
    inner = _PAREN_RE.search(phrase)
    if inner and is_coinage(_plain(inner.group("x")).replace(" ", "")):
        return _plain(inner.group("x"))
    text = _plain(phrase)
    if is_coinage(text):
        return text
    words = text.split()
    if 1 <= len(words) <= 4 and words[0][:1].isupper() and any(is_coinage(w) for w in words):
        return text
    return None


def method_hints(text: str) -> list[str]:
    """Method names the abstract introduces, in order of first appearance, no repeats."""
    found: list[tuple[int, str]] = []
    for m in _BOLD_RE.finditer(text):
        hint = _hint_from_phrase(m.group("x") or m.group("y"))
        if hint:
            found.append((m.start(), hint))
    for m in _TEXTTT_RE.finditer(text):
        if is_coinage(_plain(m.group("x"))):
            found.append((m.start(), _plain(m.group("x"))))
    for cue in _ACTIVE_CUE_RE.finditer(text):
        hint = _first_coinage_after(text, cue.end(), max_words=_WINDOW_WORDS)
        if hint:
            found.append(hint)
    for cue in _PASSIVE_CUE_RE.finditer(text):
        end = _sentence_end(text, cue.end())
        for p in _PAREN_RE.finditer(text, cue.end(), end):
            name = _plain(p.group("x"))
            if is_coinage(name.replace(" ", "")):
                found.append((p.start(), name))
                break
    hints: list[str] = []
    for pos, hint in sorted(found):
        if hint not in hints and not _used_before(text, hint, pos):
            hints.append(hint)
    return hints


def _sentence_end(text: str, start: int) -> int:
    m = re.search(r"[.!?](?:\s|$)", text[start:])
    return start + m.end() if m else len(text)


def _first_coinage_after(text: str, start: int, *, max_words: int) -> tuple[int, str] | None:
    """The first coinage (bare or in parentheses) within ``max_words`` of ``start``, same sentence."""
    end = _sentence_end(text, start)
    for i, m in enumerate(re.finditer(r"\S+", text[start:end])):
        if i >= max_words:
            break
        word = m.group(0)
        pos = start + m.start()
        if word.startswith("(") or word.startswith("**"):
            paren = _PAREN_RE.match(text, pos) if word.startswith("(") else None
            if paren:
                name = _plain(paren.group("x"))
                if is_coinage(name.replace(" ", "")) and not _used_before(text, name, pos):
                    return pos, name
                continue
        name = _plain(re.sub(r"[(),;:]+$", "", word.strip("*")))
        if is_coinage(name) and not _used_before(text, name, pos):
            return pos, name
    return None


def _used_before(text: str, hint: str, pos: int) -> bool:
    """True when ``hint`` already appears before ``pos``: an existing name, not a new one."""
    earlier = text[:pos]
    pattern = re.compile(r"(?<![\w-])" + re.escape(hint) + r"(?![\w-])")
    if pattern.search(earlier):
        return True
    return ("$" in earlier or "\\" in earlier) and pattern.search(_plain(earlier)) is not None
