"""Pasted abstracts: recognising them, and reading off the method names they introduce.

An abstract has no title, so the names it coins (``LiMuon``, ``RDNGD``, ``λ-GRPO``) are the
best handle for matching it to a titled mention or a search result. Only names the text
itself introduces count: a name after "we propose"/"named"/"called", a bold or
``\\texttt`` name, or an acronym defined in the sentence that says what was developed.
Names already used before that point (``GRPO``, ``ZO``) are existing work, not hints.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import islice

from citekit.core.text import latex_to_text
from citekit.notes.shapes import latin_share
from citekit.core.lazyre import lazy


_RESEARCH_CUE_RE = lazy(
    r"\b(?:we|this (?:paper|work|article)|our (?:method|approach|results|analysis|work|framework)|in this (?:paper|work))\b"
    r"|\bexperiments?\b|\btheoretical\b",
    re.I,
)
#: :data:`_RESEARCH_CUE_RE` for an ASCII text in lower case: the same matches (ignoring the
#: case of ASCII letters is lower-casing them), found faster without the case folding.
_RESEARCH_CUE_LOWER_RE = lazy(_RESEARCH_CUE_RE.pattern)
#: (``my comments``, ``please check``: a message written to its readers, never a paper's abstract)
_PERSONAL_RE = lazy(r"\bI (?:think|thought|was|am|liked|loved|found|felt|saw|met|talked|went|had)\b"
                    r"|\bI['’](?:ll|m|ve|d)\b|\b[Nn]ote to self\b|\b[Mm]y\b|\b[Pp]lease\b")
#: an author-year citation of another paper (``(Touvron et al. 2023)``, ``(Wang et al)``): a
#: paper's abstract names its own method, it does not cite others by author; notes about papers do
_ET_AL_CITE_RE = lazy(r"\([A-Z][\w'’-]+ et al\.?(?:,? (?:19|20)\d\d[a-z]?)?\)")
_ACTIVE_CUE_RE = lazy(
    r"\b(?:we|this (?:paper|work|article)|our (?:paper|work))\s+(?:(?:also|further|then|first|newly|here|therefore)\s+)?"
    r"(?:propose|proposes|introduce|introduces|present|presents|develop|develops|design|designs|devise|devises)\b"
    r"|\b(?:named|called|dubbed|termed|coined|obtaining|yielding)\b",
    re.I,
)
_PASSIVE_CUE_RE = lazy(r"\b(?:is|are)\s+(?:developed|proposed|introduced|presented)\b", re.I)
_BOLD_RE = lazy(r"\*\*(?P<x>[^*]+)\*\*|__(?P<y>[^_]+)__")
_TEXTTT_RE = lazy(r"\\(?:texttt|textsc|textbf|emph|method|name)\{(?P<x>[^{}]+)\}")
_PAREN_RE = lazy(r"\((?P<x>[^()\s][^()]{0,30})\)")
_TOKEN_RE = lazy(r"[^\s,;:()\[\]]+")
_SENTENCE_RE = lazy(r"(?<=[.!?])\s+(?=[A-Z\\$(*])")
#: Abbreviations so common that naming one is never introducing a method.
_COMMON = frozenset(
    "LLM LLMs SGD GPU GPUs CPU RL ML AI NLP CV CNN RNN MLP SVD PCA KL QA API SOTA GNN GAN VAE ODE SDE PDE "
    "ViT BERT GPT AdamW Adam".split()
)
_WINDOW_WORDS = 12
#: the address part of a Markdown link, ``[text](address)``
_LINK_TARGET_RE = lazy(r"\]\([^()\s]*\)")


def looks_like_abstract(text: str) -> bool:
    """A paragraph of research prose: long, several sentences, English, written as "we".

    Trip-report impressions (Japanese prose, or "I thought ...") are not abstracts.
    """
    text = _LINK_TARGET_RE.sub("]", text.strip())  # (a link's address is no prose: a Zotero highlight's two links are 150 characters)
    if len(text) < 300:
        return False  # (before the sentence split, which costs more than every test below)
    # three sentences or more: two breaks (each part between breaks holds a character
    # before and after it, so none is empty); the search stops at the second
    return (
        next(islice(_SENTENCE_RE.finditer(text), 1, None), None) is not None
        and latin_share(text) >= 0.9
        and bool(_RESEARCH_CUE_LOWER_RE.search(text.lower()) if text.isascii() else _RESEARCH_CUE_RE.search(text))
        and not _PERSONAL_RE.search(text)
        and not _ET_AL_CITE_RE.search(text)
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
    """Method names the abstract introduces, in order of first appearance, no repeats.

    Every question below is answered from indexes built once per text (sentence ends,
    parentheses, the earlier uses of a name: see :class:`_Earlier`), so the work grows
    with the length of the paragraph, not with its length times the number of cues: a
    long pasted abstract full of math once took seconds per hundred kilobytes.
    """
    found: list[tuple[int, str]] = []
    for m in _BOLD_RE.finditer(text):
        hint = _hint_from_phrase(m.group("x") or m.group("y"))
        if hint:
            found.append((m.start(), hint))
    for m in _TEXTTT_RE.finditer(text):
        if is_coinage(_plain(m.group("x"))):
            found.append((m.start(), _plain(m.group("x"))))
    earlier = _Earlier(text)
    ends = _SentenceEnds(text)
    for cue in _ACTIVE_CUE_RE.finditer(text):
        hint = _first_coinage_after(text, cue.end(), max_words=_WINDOW_WORDS, earlier=earlier, ends=ends)
        if hint:
            found.append(hint)
    parens: _NamedParens | None = None
    for cue in _PASSIVE_CUE_RE.finditer(text):
        parens = parens or _NamedParens(text)
        named = parens.first_between(cue.end(), ends.after(cue.end()))
        if named:
            found.append(named)
    hints: list[str] = []
    seen: set[str] = set()
    for pos, hint in sorted(found):
        if hint not in seen and not earlier.used_before(hint, pos):
            hints.append(hint)
            seen.add(hint)
    return hints


_SENTENCE_END_RE = lazy(r"[.!?](?:\s|$)")
_WORD_RE = lazy(r"\S+")


class _SentenceEnds:
    """Where each sentence of a text ends, found in one pass.

    A match is a stop and the whitespace after it (or the end of the text); two matches
    never overlap (whitespace is not a stop), so the first match at or after any position
    is the first of these at or after it.
    """

    def __init__(self, text: str) -> None:
        self.size = len(text)
        found = list(_SENTENCE_END_RE.finditer(text))
        self.starts = [m.start() for m in found]
        self.ends = [m.end() for m in found]

    def after(self, start: int) -> int:
        """The index after the end of the sentence holding ``start`` (the text's end if none)."""
        i = bisect_left(self.starts, start)
        return self.ends[i] if i < len(self.ends) else self.size


class _NamedParens:
    """The parenthesised names of a text, each read once.

    A match of :data:`_PAREN_RE` holds no parenthesis inside, so matches never overlap and
    those between two positions are the matches of the whole text that lie between them;
    for each one the next that is a coinage is kept, so a passive cue ("is proposed")
    finds its name in one lookup however long the sentence.
    """

    def __init__(self, text: str) -> None:
        self.found = list(_PAREN_RE.finditer(text))
        self.starts = [m.start() for m in self.found]
        self.names: list[str | None] = []
        for m in self.found:
            name = _plain(m.group("x"))
            self.names.append(name if is_coinage(name.replace(" ", "")) else None)
        self.next_named = [len(self.found)] * (len(self.found) + 1)
        for i in range(len(self.found) - 1, -1, -1):
            self.next_named[i] = i if self.names[i] is not None else self.next_named[i + 1]

    def first_between(self, start: int, end: int) -> tuple[int, str] | None:
        """The first coinage in parentheses that starts at or after ``start`` and closes by ``end``."""
        i = self.next_named[bisect_left(self.starts, start)]
        if i < len(self.found) and self.found[i].end() <= end:
            return self.found[i].start(), self.names[i]  # type: ignore[return-value]
        return None


def _first_coinage_after(text: str, start: int, *, max_words: int, earlier: _Earlier,
                         ends: _SentenceEnds) -> tuple[int, str] | None:
    """The first coinage (bare or in parentheses) within ``max_words`` of ``start``, same sentence."""
    end = ends.after(start)
    for i, m in enumerate(_WORD_RE.finditer(text, start, end)):
        if i >= max_words:
            break
        word = m.group(0)
        pos = m.start()
        if len(word) > _PIECE_CAP:
            continue  # a kilobyte without a space is not a method name (and costs seconds to read as LaTeX)
        if word.startswith("(") or word.startswith("**"):
            paren = _PAREN_RE.match(text, pos) if word.startswith("(") else None
            if paren:
                name = _plain(paren.group("x"))
                if is_coinage(name.replace(" ", "")) and not earlier.used_before(name, pos):
                    return pos, name
                continue
        name = _plain(re.sub(r"[(),;:]+$", "", word.strip("*")))
        if is_coinage(name) and not earlier.used_before(name, pos):
            return pos, name
    return None


# ---- "was this name used before this point?" ---------------------------------------------------
#
# A name counts as used before ``pos`` when it stands alone (not inside a longer word or
# hyphenated compound) in the text before ``pos``, or, when that text holds LaTeX, in its
# plain-text reading (``$\\lambda$-GRPO`` is a use of ``λ-GRPO``). Asked the obvious way,
# each question reads the whole text before its cue again, and an abstract asks once per
# cue and candidate: quadratic in the paragraph. Here the text is read once:
#
# * in the text as written, the first standalone use of each name is looked up through an
#   index of the text's words; a use counts before ``pos`` when it ends by ``pos`` (one
#   ending exactly at ``pos`` counts even when a letter follows, as a search in the text
#   cut at ``pos`` would see it);
# * the plain-text reading is built once, piece by piece: the text is cut at spaces where
#   LaTeX cannot join the two sides (outside braces, math, environments and ``**`` bold,
#   not after a macro that could take the next piece as its argument), each piece is read
#   alone, and the readings are joined with a space. The reading of the text before
#   ``pos`` is the readings of the pieces before the one ``pos`` falls in, then that last
#   piece cut at ``pos``, read alone the way the whole would be read (its end trimmed).
#   A piece is cut anyway after _PIECE_CAP characters (an unclosed brace or ``$`` would
#   otherwise make the rest of the paragraph one piece and each question quadratic
#   again): within such a run the reading is the pieces', joined by spaces.

_RUN_RE = lazy(r"[\w-]+")
_LEAD_RUN_RE = lazy(r"[\w-]*")
_WORD_CHAR_RE = lazy(r"[\w-]")
_BOLD_PAIR_RE = lazy(r"\*\*(.+?)\*\*")
#: what the LaTeX reading may change: a piece without any of these reads as written
_LATEX_ACTIVE_RE = lazy(r"[\\{}$%~&#^_*'`!?\-]")
#: the tokens that decide whether a space can cut the text: macros, math, braces, spaces
_CUT_TOKEN_RE = lazy(r"\\(?:[A-Za-z]+|.?)|\$\$|\$|[{}]|\s+|[^\\${}\s]+", re.S)
_PIECE_CAP = 1024
_STRIP_ENDS = "*_`'\""


def _standalone(hint: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(hint) + r"(?![\w-])")


class _Uses:
    """The first standalone use of each name in one text, through an index of its words."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._runs: dict[str, list[int]] | None = None
        self._first_end: dict[str, int | None] = {}

    def first_end(self, hint: str) -> int | None:
        """The end of the first use of ``hint`` with no word character or hyphen on either side."""
        if hint not in self._first_end:
            self._first_end[hint] = self._find(hint)
        return self._first_end[hint]

    def _find(self, hint: str) -> int | None:
        lead = _LEAD_RUN_RE.match(hint).group()  # type: ignore[union-attr]
        if not lead:  # (a name that starts with punctuation: no word to look it up by)
            m = _standalone(hint).search(self.text)
            return m.end() if m else None
        if self._runs is None:
            self._runs = {}
            for m in _RUN_RE.finditer(self.text):
                self._runs.setdefault(m.group(), []).append(m.start())
        # a standalone use starts a word: the word is ``lead`` itself (a longer word would
        # either hold a character the name does not, or run on past a name made of word
        # characters only)
        text, size = self.text, len(hint)
        for start in self._runs.get(lead, ()):
            end = start + size
            if text.startswith(hint, start) and not _WORD_CHAR_RE.match(text, end):
                return end
        return None

    def ends_at(self, hint: str, pos: int) -> bool:
        """A use that ends exactly at ``pos`` (with nothing word-like before it)."""
        start = pos - len(hint)
        return start >= 0 and self.text.startswith(hint, start) and (start == 0 or not _WORD_CHAR_RE.match(self.text, start - 1))


class _Earlier:
    """Answers "is ``hint`` already used before ``pos``?" for one text, reading it once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.uses = _Uses(text)
        dollar, backslash = text.find("$"), text.find("\\")
        found = [i for i in (dollar, backslash) if i >= 0]
        self.latex_from = min(found) if found else len(text) + 1  # the plain reading counts after this
        self._starts: list[int] | None = None
        self._read: str = ""
        self._read_ends: list[int] = []
        self._read_uses: _Uses | None = None
        self._patterns: dict[str, re.Pattern[str]] = {}

    def used_before(self, hint: str, pos: int) -> bool:
        if not hint or pos <= 0:
            return False  # (an empty name is found anywhere: but none is ever asked for)
        first = self.uses.first_end(hint)
        if (first is not None and first <= pos) or self.uses.ends_at(hint, pos):
            return True
        return self.latex_from < pos and self._in_reading(hint, pos)

    # -- the plain-text reading

    def _in_reading(self, hint: str, pos: int) -> bool:
        if self._starts is None:
            self._build()
        starts = self._starts
        assert starts is not None
        k = bisect_left(starts, pos) - 1  # the piece ``pos`` falls in (or closes)
        if k <= 0:  # within the first piece: read as a whole (its last _PIECE_CAP characters)
            return self._pattern(hint).search(_plain(self.text[max(0, pos - _PIECE_CAP):pos])) is not None
        read_end = self._read_ends[k - 1]
        first = self._read_uses.first_end(hint)  # type: ignore[union-attr]
        if first is not None and first <= read_end:
            return True
        tail = self.text[max(starts[k], pos - _PIECE_CAP):pos]
        size = len(hint)
        cut = max(0, read_end - size - 1)
        window = self._read[cut:read_end] + " " + _read_piece(tail.rstrip().rstrip(_STRIP_ENDS))
        return self._pattern(hint).search(window, 1 if cut else 0) is not None

    def _pattern(self, hint: str) -> re.Pattern[str]:
        pattern = self._patterns.get(hint)
        if pattern is None:
            pattern = self._patterns[hint] = _standalone(hint)
        return pattern

    def _build(self) -> None:
        text = self.text
        self._starts = _piece_starts(text)
        lead = len(text) - len(text.lstrip().lstrip(_STRIP_ENDS))
        bounds = self._starts[1:] + [len(text)]
        parts: list[str] = []
        size = 0
        for i, (start, end) in enumerate(zip(self._starts, bounds)):
            piece = _read_piece(text[max(start, lead):end].strip())
            if piece:
                if parts:
                    parts.append(" ")
                    size += 1
                parts.append(piece)
                size += len(piece)
            self._read_ends.append(size)
        read = "".join(parts)
        trimmed = read.lstrip(" .,;:")
        shift = len(read) - len(trimmed)
        self._read = trimmed
        self._read_ends = [max(0, e - shift) for e in self._read_ends]
        self._read_uses = _Uses(trimmed)


def _read_piece(piece: str) -> str:
    """One piece's plain-text reading, as the LaTeX reader reads it within a longer text
    (``{}`` in front: a piece without LaTeX is still read for ``''`` and ``--``).

    A piece longer than _PIECE_CAP is kept as written: no method name needs a kilobyte of
    LaTeX to be read, and the LaTeX reader takes seconds over a hundred kilobytes of it.
    """
    if not piece:
        return ""
    if len(piece) > _PIECE_CAP or not _LATEX_ACTIVE_RE.search(piece):
        return re.sub(r"\s+", " ", piece).strip()
    try:
        return re.sub(r"\s+", " ", latex_to_text("{}" + piece, scripts=False)).strip()
    except Exception:  # a half-written macro: keep what was written
        return re.sub(r"\s+", " ", piece.replace("$", "")).strip()


def _piece_starts(text: str) -> list[int]:
    """Where each piece of ``text`` starts (the first at 0): after each run of spaces that
    LaTeX cannot read across (see the comment above :class:`_Uses`)."""
    bold = [(m.start(), m.end()) for m in _BOLD_PAIR_RE.finditer(text, len(text) - len(text.lstrip().lstrip(_STRIP_ENDS)))]
    b = 0
    starts = [0]
    depth = envs = 0
    math = ""
    after_macro = False
    for m in _CUT_TOKEN_RE.finditer(text):
        tok = m.group()
        first = tok[0]
        if first.isspace():
            end = m.end()
            while b < len(bold) and bold[b][1] <= m.start():
                b += 1
            in_bold = b < len(bold) and bold[b][0] < m.start()
            joined = (depth > 0 or envs > 0 or math or after_macro or in_bold
                      or text.startswith(("{", "["), end))
            if end < len(text) and (not joined or end - starts[-1] > _PIECE_CAP):
                starts.append(end)
            continue  # (spaces after a macro still belong to it)
        after_macro = False
        if first == "\\":
            after_macro = True
            name = tok[1:]
            if name == "begin" or name in ("[", "("):
                envs += 1
            elif name == "end" or name in ("]", ")"):
                envs = max(0, envs - 1)
        elif tok == "$$":
            math = "" if math == "$$" else ("$" if math == "$" else "$$")
        elif tok == "$":
            math = "" if math == "$" else (math or "$")
        elif tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(0, depth - 1)
    return starts
