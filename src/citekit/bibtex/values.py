"""Making untrusted text safe and correct inside BibTeX fields and LaTeX documents.

Titles and names arrive from remote services and from notes, so they can hold anything:
``%`` that comments out the rest of a ``.bbl`` line, ``\\input{/etc/passwd}``, braces that
end a BibTeX field early, ``^^5c`` that spells a backslash. Every value citekit writes goes
through :func:`sanitize` (and titles through :func:`protect_title`), which keep what is
harmless and well formed (accents, ``\\emph{..}``, balanced ``$math$``) and turn everything
else into inert text. Both are idempotent, so re-running a sync never changes a written
value, which is what lets the library store recognise hand edits.

The functions share one small tokenizer: a value is read as a list of tokens (text
characters, control words, control symbols, braces, math), braces are paired, and each
token is written back either unchanged or in an escaped form.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence
from urllib.parse import quote

from citekit.core.model import Person
from citekit.core.text import latex_to_text

log = logging.getLogger(__name__)

from citekit.core.latex_vocab import (  # noqa: F401  (re-exported: the writer's vocabulary)
    ARGUMENT_COMMANDS,
    GLYPH_COMMANDS,
    LETTER_ACCENTS,
    MATH_COMMANDS,
    MATH_SYMBOLS,
    SAFE_SYMBOLS,
    SYMBOL_ACCENTS,
)
from citekit.core.lazyre import lazy

_ESCAPE_CHAR = {
    "%": r"\%",
    "#": r"\#",
    "&": r"\&",
    "_": r"\_",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_NEUTRAL = r"\textbackslash{}"
_BRACE_TEXT = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}

# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


@dataclass
class _Tok:
    """One lexical piece: ``kind`` is char, space, cs (control word), sym (control symbol),
    open, close, math or backslash (a lone trailing backslash)."""

    kind: str
    text: str  # for cs: the name; for sym: the character; for math: the content between $
    match: int = -1  # for open/close: index of the partner brace, -1 when unmatched


def _normalize_space(value: str) -> str:
    """NFC, control characters dropped and every whitespace run made one space.

    A blank line inside a field would end a paragraph in the ``.bbl``; control
    characters have no business in bibliographic data and some are TeX-active.
    """
    value = unicodedata.normalize("NFC", value)
    value = "".join(
        " " if ch.isspace() else ch
        for ch in value
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    return re.sub(r" {2,}", " ", value).strip()


def _find_math_end(value: str, start: int) -> int:
    """Index of the ``$`` closing math opened at ``start``, or -1 (escaped ``\\$`` skipped)."""
    i = start + 1
    while i < len(value):
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "$":
            return i
        i += 1
    return -1


def _tokenize(value: str, *, math: bool = True) -> list[_Tok]:
    """Split a value into tokens and pair its braces (math is one opaque token)."""
    toks: list[_Tok] = []
    i, n = 0, len(value)
    while i < n:
        ch = value[i]
        if ch == "\\":
            if i + 1 >= n:
                toks.append(_Tok("backslash", "\\"))
                i += 1
            elif value[i + 1].isascii() and value[i + 1].isalpha():
                j = i + 1
                while j < n and value[j].isascii() and value[j].isalpha():
                    j += 1
                toks.append(_Tok("cs", value[i + 1 : j]))
                i = j
            else:
                toks.append(_Tok("sym", value[i + 1]))
                i += 2
        elif ch == "$" and math:
            end = _find_math_end(value, i)
            if end > i + 1:
                toks.append(_Tok("math", value[i + 1 : end]))
                i = end + 1
            else:
                toks.append(_Tok("char", "$"))
                i += 1
        elif ch == "{":
            toks.append(_Tok("open", ch))
            i += 1
        elif ch == "}":
            toks.append(_Tok("close", ch))
            i += 1
        elif ch == " ":
            toks.append(_Tok("space", ch))
            i += 1
        else:
            toks.append(_Tok("char", ch))
            i += 1
    stack: list[int] = []
    for k, tok in enumerate(toks):
        if tok.kind == "open":
            stack.append(k)
        elif tok.kind == "close" and stack:
            partner = stack.pop()
            toks[partner].match = k
            tok.match = partner
    return toks


def _next_index(toks: Sequence[_Tok], k: int, *, skip_space: bool) -> int:
    k += 1
    while skip_space and k < len(toks) and toks[k].kind == "space":
        k += 1
    return k


def _is_matched_open(toks: Sequence[_Tok], k: int) -> bool:
    return k < len(toks) and toks[k].kind == "open" and toks[k].match >= 0


def _is_letter(toks: Sequence[_Tok], k: int) -> bool:
    return k < len(toks) and toks[k].kind == "char" and toks[k].text.isalpha()


# ---------------------------------------------------------------------------
# sanitize
# ---------------------------------------------------------------------------


def _math_is_safe(content: str) -> bool:
    """Whether ``$content$`` can be written verbatim: known words, balanced, no ``^^``."""
    if "^^" in content:
        return False  # TeX's ^^xx notation can spell any character, backslash included
    depth = raw = 0
    i = 0
    while i < len(content):
        ch = content[i]
        if ch == "\\":
            m = re.match(r"[A-Za-z]+", content[i + 1 :])
            if m:
                if m.group(0) not in MATH_COMMANDS:
                    return False
                i += 1 + m.end(0)
                continue
            if i + 1 >= len(content) or content[i + 1] not in MATH_SYMBOLS:
                return False
            if content[i + 1] in "{}":
                raw += 1 if content[i + 1] == "{" else -1
                if raw < 0:
                    return False
            i += 2
            continue
        if ch in "{}":
            depth += 1 if ch == "{" else -1
            raw += 1 if ch == "{" else -1
            if depth < 0 or raw < 0:
                return False
        i += 1
    return depth == 0 and raw == 0


def _escape_math(content: str) -> str:
    """Escape the characters that are errors or comments even inside math."""
    return re.sub(r"(?<!\\)([%#&])", r"\\\1", content)


def _sanitize_tokens(toks: list[_Tok]) -> str:
    out: list[str] = []
    k = 0
    while k < len(toks):
        tok = toks[k]
        kind = tok.kind
        if kind == "char":
            out.append(_ESCAPE_CHAR.get(tok.text, tok.text))
        elif kind == "space":
            out.append(" ")
        elif kind == "backslash":
            out.append(_NEUTRAL)
        elif kind in ("open", "close"):
            out.append(tok.text if tok.match >= 0 else _BRACE_TEXT[tok.text])
        elif kind == "math":
            if _math_is_safe(tok.text):
                out.append("$" + _escape_math(tok.text) + "$")
            else:
                # Not provably harmless: print it as text instead of running it.
                inner = _sanitize_tokens(_tokenize(tok.text, math=False))
                out.append(r"\$" + inner + r"\$")
        elif kind == "sym":
            out.append(_sanitize_symbol(toks, k))
        elif kind == "cs":
            text, k = _sanitize_word(toks, k)
            out.append(text)
            continue
        k += 1
    return "".join(out)


def _sanitize_symbol(toks: Sequence[_Tok], k: int) -> str:
    ch = toks[k].text
    if ch in SAFE_SYMBOLS:
        return "\\" + ch
    if ch in "{}":
        return _BRACE_TEXT[ch]
    if ch in SYMBOL_ACCENTS:
        nxt = k + 1
        if _is_letter(toks, nxt) or _is_matched_open(toks, nxt) or (
            nxt < len(toks) and toks[nxt].kind == "cs" and toks[nxt].text in ("i", "j")
        ):
            return "\\" + ch
    return _NEUTRAL + _ESCAPE_CHAR.get(ch, ch)


def _sanitize_word(toks: Sequence[_Tok], k: int) -> tuple[str, int]:
    """A control word and the index after it: kept, completed (``\\v s`` → ``\\v{s}``) or made inert."""
    name = toks[k].text
    if name in GLYPH_COMMANDS:
        # TeX swallows the space after a control word; ``{}`` keeps "\\ss is" two words.
        gap = "{}" if k + 1 < len(toks) and toks[k + 1].kind in ("space", "char") else ""
        return "\\" + name + gap, k + 1
    if name in ARGUMENT_COMMANDS:
        nxt = _next_index(toks, k, skip_space=True)
        if _is_matched_open(toks, nxt):
            return "\\" + name, nxt  # ``\\c {o}`` → ``\\c{o}``: the argument stays attached
        if name in LETTER_ACCENTS and _is_letter(toks, nxt):
            return "\\" + name + "{" + toks[nxt].text + "}", nxt + 1
    return _NEUTRAL + name, k + 1


def sanitize(value: str) -> str:
    """Make untrusted text inert and compilable inside a BibTeX field or LaTeX text.

    Keeps accents, a few text-style commands and balanced math built from ordinary math
    vocabulary; escapes the special characters ``% # & _ ~ ^ $ < > |``; writes every other
    control sequence as visible text (``\\textbackslash{}input``); and never lets an
    unbalanced brace through, counting braces the way BibTeX does (``\\{`` included).
    Idempotent: ``sanitize(sanitize(x)) == sanitize(x)``.
    """
    return _sanitize_tokens(_tokenize(_normalize_space(value)))


# ---------------------------------------------------------------------------
# protect_title
# ---------------------------------------------------------------------------

_DASHES = {"\u2013": "--", "\u2014": "---", "\u2012": "--", "\u2015": "---"}
_WORD_INNER = set("-@'’.+")


@lru_cache(maxsize=1)
def protected_words() -> frozenset[str]:
    """The shipped list of capitalised proper nouns and method names (data/protected_words.txt)."""
    from importlib import resources  # here: importing it costs more than the rest of this module

    text = resources.files("citekit").joinpath("data/protected_words.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    )


def _replace_dashes(value: str) -> str:
    return "".join(_DASHES.get(ch, ch) for ch in value)


@lru_cache(maxsize=None)
def _math_encoder() -> Any:
    """pylatexenc's encoder for math spellings, built on first use (importing it is a
    fifth of a read-only command that never writes LaTeX)."""
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="none",
                                 unknown_char_policy=lambda ch: ch)


_ENSUREMATH_RE = lazy(r"^\\ensuremath\{(.+)\}$")


def _maybe_math(ch: str) -> bool:
    """Symbols, Greek, letter-like and super/subscript characters (not CJK or Latin letters)."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Sm", "So", "Sk", "No")
        or 0x0370 <= code <= 0x03FF
        or 0x2100 <= code <= 0x214F
        or 0x1D400 <= code <= 0x1D7FF
    )


@lru_cache(maxsize=4096)
def _math_spelling(ch: str) -> str | None:
    """``\\ell`` for ``ℓ``: the math spelling of a symbol pdflatex's utf8 input cannot typeset."""
    if ch.isascii() or ch in _DASHES or not _maybe_math(ch):
        return None
    m = _ENSUREMATH_RE.match(_math_encoder().unicode_to_latex(ch))
    return m.group(1) if m and _math_is_safe(m.group(1)) else None


def _symbols_to_math(title: str) -> str:
    """Unicode math symbols in text become math (``ℓ∞-Smoothness`` → ``$\\ell\\infty$-Smoothness``).

    Titles from OpenReview and arXiv often type formulas in Unicode; pdflatex stops at
    ``ℓ`` or ``α`` ("Unicode character not set up for use with LaTeX"), math does not.
    """
    out: list[str] = []
    for piece in _split_math(title):
        if piece.startswith("$"):
            out.append(piece)
            continue
        run: list[str] = []
        for ch in piece:
            spelling = _math_spelling(ch)
            if spelling is not None:
                if run and run[-1][-1:].isalpha() and spelling[:1].isalpha():
                    run.append(" ")
                run.append(spelling)
                continue
            if run:
                out.append("$" + "".join(run) + "$")
                run = []
            out.append(ch)
        if run:
            out.append("$" + "".join(run) + "$")
    return "".join(out)


def _plain(piece: str) -> str:
    """Letters of a LaTeX word piece, for deciding whether it needs protection."""
    return latex_to_text(piece, matching=True) if ("\\" in piece or "{" in piece) else piece


def _part_needs_protection(part: str, *, shouting: bool) -> bool:
    """Letters mixed with digits (``INT4``), or capitals after the first letter (``LoRA``)."""
    letters = [c for c in part if c.isalpha()]
    if not letters:
        return False
    if any(c.isdigit() for c in part):
        return True
    return not shouting and any(c.isupper() for c in letters[1:])


def _in_list(word: str, terms: frozenset[str]) -> bool:
    """Listed as is, as a plural or possessive, or with ``-`` for the list's ``--``."""
    for form in dict.fromkeys((word, re.sub(r"-+", "--", word))):
        if form in terms:
            return True
        for suffix in ("'s", "’s", "s", "es"):
            if form.endswith(suffix) and form[: -len(suffix)] in terms:
                return True
    return False


def _shouting(words: list[str]) -> bool:
    """An all-caps title: protecting every word would freeze the shouting, so don't."""
    long = [w for w in words if sum(c.isalpha() for c in w) >= 2]
    caps = [w for w in long if w.upper() == w and any(c.isalpha() for c in w)]
    return len(long) >= 4 and len(caps) >= 0.75 * len(long)


#: A BibTeX "special character": one accent or glyph command in braces (``{\"o}``, ``{\L}``).
_SPECIAL_CHAR_RE = lazy(r"^\{\\(?:[^A-Za-z]|[A-Za-z]+) ?(?:\{[^{}]?\}|[A-Za-z]|\\[ij])?\}$")


@dataclass
class _Unit:
    """A top-level piece of a title: a word candidate or anything else (kept verbatim)."""

    text: str
    wordish: bool  # letters, digits, accents: may join a word
    inner: bool = False  # punctuation that may sit inside a word (hyphen, @, apostrophe)


def _title_units(toks: list[_Tok]) -> list[_Unit]:
    """Group depth-0 tokens into units; brace groups and math stay whole."""
    units: list[_Unit] = []
    k = 0
    while k < len(toks):
        tok = toks[k]
        if tok.kind == "open" and tok.match > k:
            body = _detok(toks[k : tok.match + 1])
            # ``{\"o}`` is a special character (part of a word); ``{LoRA}`` is already protected.
            special = bool(_SPECIAL_CHAR_RE.match(body))
            units.append(_Unit(body, wordish=special))
            k = tok.match + 1
        elif tok.kind == "cs":
            end = k + 1
            if _is_matched_open(toks, end) and (tok.text in ARGUMENT_COMMANDS or toks[end].match == end + 1):
                end = toks[end].match + 1  # the argument, or the ``{}`` ending a glyph command
            accentish = tok.text in LETTER_ACCENTS or tok.text in ("ss", "o", "O", "l", "L", "ae", "AE", "oe", "OE", "aa", "AA", "i", "j")
            units.append(_Unit(_detok(toks[k:end]), wordish=accentish))
            k = end
        elif tok.kind == "sym":
            end = k + 1
            if tok.text in SYMBOL_ACCENTS and end < len(toks):
                end = toks[end].match + 1 if _is_matched_open(toks, end) else end + 1
                units.append(_Unit(_detok(toks[k:end]), wordish=True))
            else:
                units.append(_Unit(_detok(toks[k:end]), wordish=False))
            k = end
        elif tok.kind == "char":
            ch = tok.text
            units.append(_Unit(ch, wordish=ch.isalnum(), inner=ch in _WORD_INNER))
            k += 1
        else:
            units.append(_Unit(_detok([tok]), wordish=False))
            k += 1
    return units


def _detok(toks: Sequence[_Tok]) -> str:
    """Write tokens back exactly (the inverse of :func:`_tokenize` on sanitized text)."""
    out = []
    for tok in toks:
        if tok.kind == "cs":
            out.append("\\" + tok.text)
        elif tok.kind == "sym":
            out.append("\\" + tok.text)
        elif tok.kind == "math":
            out.append("$" + tok.text + "$")
        else:
            out.append(tok.text)
    return "".join(out)


def _words(units: list[_Unit]) -> list[tuple[int, int]]:
    """Spans ``[start, end)`` of units forming words: word units joined by inner punctuation."""
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(units):
        if not units[k].wordish:
            k += 1
            continue
        start = end = k
        j = k
        while j < len(units) and (units[j].wordish or units[j].inner):
            if units[j].wordish:
                end = j
            j += 1
        spans.append((start, end + 1))
        k = j
    return spans


def protect_title(title: str, extra_terms: Iterable[str] = ()) -> str:
    """A Unicode title as a BibTeX title value, braced where styles would wrongly lower-case.

    Sentence-case styles (plainnat, IEEE, ACM...) lower-case every unbraced letter but the
    first, so ``LiMuon`` would print as ``Limuon`` and ``SGD`` as ``Sgd``. We brace exactly
    the words whose case carries meaning: acronyms and mixed case (``SDE``, ``LoRA``),
    words with digits (``INT4``, ``L-SR1``), proper nouns and method names from
    ``data/protected_words.txt`` and the caller's ``extra_terms`` (``Muon``,
    ``Frank--Wolfe``). The first word is exempt from the list rule because every style
    keeps its capital. Math is kept verbatim, and braced when it holds a capital letter
    (BibTeX lower-cases math too: ``$(L_0,L_1)$`` would print as ``$(l_0,l_1)$``); Unicode
    math symbols become math (``ℓ`` → ``$\\ell$``) so pdflatex can typeset them; dashes become ``--``/``---``, words already in
    braces are left alone, and the result is sanitized; the function is idempotent.
    """
    safe = sanitize(_symbols_to_math(_replace_dashes(title)))
    terms = protected_words() | frozenset(_replace_dashes(t).strip() for t in extra_terms if t and t.strip())
    toks = _tokenize(safe)
    units = _title_units(toks)
    spans = _words(units)
    plain_words = [_plain("".join(u.text for u in units[a:b])) for a, b in spans]
    # Judged on the text without braces, so a second pass over the output agrees.
    shouting = _shouting(re.findall(r"[^\W_]+", _plain(safe)))
    first_unit = next((i for i, u in enumerate(units) if u.wordish or u.text.startswith(("{", "$"))), -1)

    wrap: dict[int, int] = {}  # start unit -> end unit (exclusive) to brace
    for (a, b), word in zip(spans, plain_words):
        is_first = a == first_unit
        parts = re.split(r"-+", word)
        glued_to_math = (a > 0 and units[a - 1].text.startswith("$")) or (
            b < len(units) and units[b].text.startswith("$")
        )
        if any(_part_needs_protection(p, shouting=shouting) for p in parts):
            wrap[a] = b
        elif glued_to_math and any(c.isupper() for c in word):
            wrap[a] = b  # a symbol written half in text: the L of L$_0$
        elif _in_list(word, terms):
            if not (is_first and _initial_cap_only(word)):
                wrap[a] = b
        elif len(parts) > 1:
            _wrap_listed_parts(units, a, b, terms, is_first, wrap)

    for k, unit in enumerate(units):
        # BibTeX's change.case$ knows nothing of math: $(L_0,L_1)$ would print as $(l_0,l_1)$.
        if unit.text.startswith("$") and re.search(r"[A-Z]", unit.text):
            wrap[k] = k + 1

    out: list[str] = []
    k = 0
    while k < len(units):
        if k in wrap:
            end = wrap[k]
            out.append("{" + "".join(u.text for u in units[k:end]) + "}")
            k = end
        else:
            out.append(units[k].text)
            k += 1
    return "".join(out)


def _initial_cap_only(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return bool(letters) and letters[0].isupper() and not any(c.isupper() for c in letters[1:])


def _wrap_listed_parts(
    units: list[_Unit], a: int, b: int, terms: frozenset[str], is_first: bool, wrap: dict[int, int]
) -> None:
    """Brace only the listed parts of a hyphenated word: ``{Muon}-style``, ``{Lipschitz}-continuous``."""
    start = a
    first_part = True
    for k in range(a, b + 1):
        at_end = k == b
        if at_end or (units[k].text == "-" and not units[k].wordish):
            if start < k:
                part = _plain("".join(u.text for u in units[start:k]))
                if _in_list(part, terms) and not (is_first and first_part):
                    wrap[start] = k
            first_part = False
            start = k + 1


# ---------------------------------------------------------------------------
# ASCII, names
# ---------------------------------------------------------------------------


def _unknown_char(ch: str) -> str:
    """pylatexenc has already logged the character; ASCII output needs a stand-in."""
    return "?"


@lru_cache(maxsize=None)
def _text_encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    return UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="braces-all",
                                 unknown_char_policy=_unknown_char)


def to_ascii(value: str) -> str:
    """Unicode to LaTeX escapes (``Horváth`` → ``Horv{\\'a}th``), math left untouched.

    For users whose toolchain (classic 8-bit BibTeX sorting, old styles) mangles UTF-8.
    Each replacement is braced so BibTeX treats it as one letter when sorting and
    changing case.
    """
    value = unicodedata.normalize("NFC", value)
    if value.isascii():
        return value
    out = []
    for tok in _split_math(value):
        out.append(_math_to_ascii(tok) if tok.startswith("$") else _text_to_ascii(tok))
    return "".join(out)


_ASCII_SPACE_RE = lazy(r"([ \t\n\r]+)")


def _text_to_ascii(text: str) -> str:
    """The encoder on the words that need it only: it reads about 25 KB a second, so a long
    value (a pasted abstract, a fuzzed megabyte) took minutes although nearly all of it is
    ASCII. The encoder touches only non-ASCII characters and braces every replacement, so
    encoding word by word gives the same text; a word that starts with a combining mark
    stays joined to what precedes it, as the encoder attaches the mark there."""
    pieces = _ASCII_SPACE_RE.split(text)  # word, space, word, ..., word
    units: list[str] = []
    for i, piece in enumerate(pieces):
        if i and i % 2 == 0 and piece and unicodedata.combining(piece[0]):
            space = units.pop()
            units.append(units.pop() + space + piece)
        else:
            units.append(piece)
    return "".join(unit if unit.isascii() else _text_encoder().unicode_to_latex(unit) for unit in units)


def _math_to_ascii(math: str) -> str:
    """Non-ASCII inside math: its math spelling (``ℓ`` → ``\\ell``), else text in ``\\mbox``."""
    out = []
    for ch in math:
        if ch.isascii():
            out.append(ch)
            continue
        spelling = _math_encoder().unicode_to_latex(ch)
        m = _ENSUREMATH_RE.match(spelling)
        if m:
            out.append("{" + m.group(1) + "}")
        else:
            out.append(r"\mbox{" + _text_encoder().unicode_to_latex(ch) + "}")
    return "".join(out)


def _split_math(value: str) -> list[str]:
    """Text and ``$math$`` pieces, in order (math pieces keep their dollars)."""
    pieces: list[str] = []
    i = start = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "$":
            end = _find_math_end(value, i)
            if end > i + 1:
                pieces.append(value[start:i])
                pieces.append(value[i : end + 1])
                i = start = end + 1
                continue
        i += 1
    pieces.append(value[start:])
    return [p for p in pieces if p]


_AND_RE = lazy(r"(?:^|\s)and(?:\s|$)", re.I)


def _name_part(part: str) -> str:
    """One sanitized name part, braced when BibTeX would misread it (a comma or ``and``)."""
    part = sanitize(part)
    if not part:
        return ""
    if _depth0_has(part, ",") or _AND_RE.search(_depth0_text(part)):
        return "{" + part + "}"
    return part


def _depth0_text(value: str) -> str:
    depth, out = 0, []
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _depth0_has(value: str, needle: str) -> bool:
    return needle in _depth0_text(value)


def person_field(person: Person) -> str:
    """One name as ``von Family, Given``; a lone multi-word name (a consortium) braced."""
    family = _name_part(" ".join(p for p in (person.von, person.family) if p).strip())
    given = _name_part(person.given)
    if family and person.jr:
        # the one form in which BibTeX reads a suffix: "King, Jr., Martin Luther"
        return f"{family}, {_name_part(person.jr)}, {given}"
    if not family:
        if not given and person.raw.strip():
            given = _name_part(person.raw)
        return given if given.startswith("{") or " " not in given else "{" + given + "}"
    if not given:
        if person.von or family.startswith("{") or " " not in family:
            return family
        return "{" + family + "}"
    return f"{family}, {given}"


def author_field(people: list[Person]) -> str:
    """The ``author`` value: ``Schaipp, Fabian and Gower, Robert M. and ...``.

    Family-first with a comma is the one form in which BibTeX never guesses where the
    family name starts, so two-word family names (``Monzio Compagnoni``) survive.
    """
    names = [person_field(p) for p in people]
    return " and ".join(n for n in names if n)


_URL_SAFE = ":/?#[]@!$&'()*+,;=%-._~"


def safe_url(url: str) -> str:
    """A URL that ``\\url{}`` typesets and BibTeX reads without surprises.

    Spaces, braces, backslashes, quotes and non-ASCII are percent-encoded (the link
    still resolves), and a ``%`` that starts no ``%XX`` escape becomes ``%25``: inside a
    ``.bbl`` a bare ``%`` could otherwise start a comment.
    """
    url = re.sub(r"%(?![0-9A-Fa-f]{2})", "%25", url.strip())
    return quote(url, safe=_URL_SAFE)
