"""LaTeX to text, and the folding shared by grouping, matching and dedup.

This is the one LaTeX-to-text converter (:func:`latex_to_text`): record text for CSL,
Markdown and plain output, method names read from abstracts, and the comparable form of
titles all go through it, so math is folded the same way everywhere (``$\\ell_\\infty$``
becomes ``ℓ_∞``, which folds to ``l inf`` like the words "L inf"). And one definition of
"the same title", so the notes grouper, the resolver and the dedup engine can never
disagree about it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

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


#: font commands whose argument is the text (``\\texttt{MetaDistill}`` -> ``MetaDistill``)
_FONT_COMMANDS = ("texttt", "textsf", "textrm", "textnormal", "mathrm", "mathbf", "mathit", "mathsf", "mathtt",
                  "texorpdfstring")


@lru_cache(maxsize=1)
def known_macros() -> frozenset[str]:
    """Macros rendered as what they print; any other is kept as written (inert text).

    The vocabulary is the one the LaTeX writer already trusts (glyphs, accents, font
    commands, amsmath math), so ``\\input{..}`` or ``\\foo`` never silently vanish.
    """
    from .output.latex import ARGUMENT_COMMANDS, GLYPH_COMMANDS, MATH_COMMANDS, SAFE_SYMBOLS, SYMBOL_ACCENTS

    return frozenset(GLYPH_COMMANDS | ARGUMENT_COMMANDS | MATH_COMMANDS | SAFE_SYMBOLS | SYMBOL_ACCENTS
                     | set(_FONT_COMMANDS) | {"{", "}", "\\"})


def _has_args(node) -> bool:  # type: ignore[no-untyped-def]
    argd = getattr(node, "nodeargd", None)
    return bool(argd and argd.argnlist and any(a is not None for a in argd.argnlist))


@lru_cache(maxsize=1)
def _converter():  # type: ignore[no-untyped-def]
    """pylatexenc's converter, losing nothing: unknown macros stay, ``&`` and spaces too.

    Built on first use: pylatexenc costs start-up time that commands without LaTeX text
    should not pay.
    """
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
    from pylatexenc.latexwalker import LatexGroupNode, LatexMacroNode

    from .output.latex import GLYPH_COMMANDS

    known = known_macros()

    class PlainText(LatexNodes2Text):
        def nodelist_to_text(self, nodelist) -> str:  # type: ignore[no-untyped-def]
            # An unknown macro is kept as written together with the braced groups after it
            # (``\\foo{bar}``), which pylatexenc would read as separate nodes.
            out, raw = [], False
            for node in nodelist:
                if node is None:
                    continue
                unknown = node.isNodeType(LatexMacroNode) and node.macroname not in known
                if unknown or (raw and node.isNodeType(LatexGroupNode)):
                    out.append(node.latex_verbatim())
                    raw = True
                    continue
                raw = False
                out.append(self.node_to_text(node))
            return "".join(out)

        def macro_node_to_text(self, node) -> str:  # type: ignore[no-untyped-def]
            if node.macroname not in known:
                return node.latex_verbatim()
            text = super().macro_node_to_text(node)
            # LaTeX eats the space after a control word (``\\infty Implicit``); in record text
            # that space separates words. Text glyphs (``Stra\\ss e``) are the exception.
            if node.macro_post_space and not _has_args(node) and node.macroname not in GLYPH_COMMANDS:
                text += " "
            return text

        def specials_node_to_text(self, node) -> str:  # type: ignore[no-untyped-def]
            if node.specials_chars == "&":  # an alignment tab in LaTeX, an ampersand in a title
                return "&"
            return super().specials_node_to_text(node)

    db = get_default_latex_context_db()
    extra = [MacroTextSpec(name, "%s") for name in _FONT_COMMANDS]
    db.add_context_category("citekit-font-commands", macros=extra, prepend=True)
    # strict spaces: the converter adds the spaces itself (see PlainText), never twice
    return PlainText(latex_context=db, math_mode="text", strict_latex_spaces=True)


_MATH = re.compile(r"(?<!\\)\$\$?.*?(?<!\\)\$\$?", re.S)
_SUPERSCRIPTS = dict(zip("0123456789+-=()nik", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵏ"))
_SUBSCRIPTS = dict(zip("0123456789+-=()aeioutkmnpsx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢₒᵤₜₖₘₙₚₛₓ"))
_SCRIPT = re.compile(r"(?P<op>[\^_])(?:\{(?P<group>[^{}]*)\}|(?P<char>[A-Za-z0-9]))")


def _scripts(math: str) -> str:
    """``x^{-3}`` -> ``x⁻³`` and ``L_0`` -> ``L₀`` where Unicode has the characters.

    A script that Unicode cannot write (``x^{\\top}``) keeps its braces, escaped so the
    converter prints them: ``x^{⊤}`` stays readable where ``x^⊤`` would not.
    """
    def one(m: re.Match[str]) -> str:
        body = m.group("group") if m.group("group") is not None else m.group("char")
        table = _SUPERSCRIPTS if m.group("op") == "^" else _SUBSCRIPTS
        if body and all(c in table for c in body):
            return "".join(table[c] for c in body)
        if m.group("group") is None:
            return m.group(0)
        return m.group("op") + "\\{" + body + "\\}"

    return _SCRIPT.sub(one, math)


def latex_to_text(text: str, *, scripts: bool = True) -> str:
    """LaTeX markup to plain Unicode (math as text: ``$O(\\epsilon^{-3})$`` -> ``O(ϵ⁻³)``).

    Nothing is dropped: a macro outside the known vocabulary is kept as written, ``&``
    stays an ampersand and spaces after control words stay; callers escape the result
    for where it goes. ``scripts=False`` leaves ``_`` and ``^`` as ASCII (``SPS_safe``,
    ``QAOA^2``), as a name is typed rather than typeset.
    """
    return _to_text(text, scripts, pieced=True)


def latex_to_text_parsed(text: str, *, scripts: bool = True) -> str:
    """:func:`latex_to_text` with every value through the LaTeX parser (the reference the
    piecewise reading below is tested against)."""
    return _to_text(text, scripts, pieced=False)


def _to_text(text: str, scripts: bool, *, pieced: bool) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    # A bare % is a percent sign in metadata, not a LaTeX comment that eats the rest.
    text = re.sub(r"(?<!\\)%", r"\\%", text)
    if not re.search(r"[\\{}$%~&]|--", text):
        return re.sub(r"\s+", " ", text).strip()
    if scripts:
        text = _MATH.sub(lambda m: _scripts(m.group(0)), text)
    out = _pieced_text(text) if pieced else None
    if out is None:
        try:
            out = _converter().latex_to_text(text)
        except Exception:  # malformed markup from remote metadata: keep it as written
            out = text
    return re.sub(r"\s+", " ", out).strip()


@lru_cache(maxsize=65536)
def delatex(text: str) -> str:
    """LaTeX markup to plain Unicode for matching and search: :func:`latex_to_text` without
    the braces and dollars that only unknown macros leave behind."""
    if not _LATEXISH.search(text):
        return text
    if "\\" not in text and "$" not in text and "%" not in text:
        return text.replace("{", "").replace("}", "")  # braces alone need no parser
    # scripts as typed (``QAOA^2``, ``L_0``): folding must give "qaoa 2" as a note would write it
    return latex_to_text(text, scripts=False).replace("$", "").replace("{", "").replace("}", "")


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
    pieced = _normalize_title_pieced(title)
    return pieced if pieced is not None else normalize_title_parsed(title)


def normalize_title_parsed(title: str) -> str:
    """:func:`normalize_title` through the LaTeX parser, for any title (the reference)."""
    return _comparable(delatex(title))


def _comparable(text: str) -> str:
    """The last step of :func:`normalize_title`: accents, case and punctuation folded."""
    text = fold(text).replace("ℓ", "l").replace("∞", "inf").replace("√", " sqrt ")
    return _NON_ALNUM.sub(" ", text).strip()


# ---- titles with simple LaTeX, without parsing each one -------------------------------------
#
# A title's comparable form only keeps letters and digits and where words break. So a title
# made of plain text, groups, control words and symbols that take no argument, one-letter
# arguments of accents (``\"{o}``, ``\c{c}``) and ``$...$`` math gives the same comparable
# form as the parser does when each of those pieces is replaced by what the parser makes of
# it *alone*: the parser reads them as separate nodes, and plain characters it changes
# (``--``, ``~``, quotes) are punctuation before and after. Each distinct piece is converted
# once by the parser itself, so its text is exactly pylatexenc's. A macro the converter does
# not know is kept as written with the groups right after it, which is the same as reading
# them here while they hold plain text. Anything else (such groups holding macros or math,
# arguments longer than a letter, a space that a glyph command eats before a letter,
# unbalanced braces) goes through the parser whole.

_PIECE = re.compile(r"\\([A-Za-z]+)|\\(.)|\$([^$]*)\$|[{}]", re.S)
_WORD_ARG = re.compile(r"\{([A-Za-z0-9])\}")
_SYMBOL_ARG = re.compile(r"([A-Za-z0-9])|\{([A-Za-z0-9])\}")
_PLAIN_REFUSED = re.compile(r"[\\$#^_]")  # outside pieces: a lone backslash or dollar, parameter and script signs
_REFUSED_NAMES = frozenset({"begin", "end", "verb", "item", "par", "(", ")", "[", "]", "\\"})  # environments, math, breaks
_piece_texts: dict[str, str | None] = {}
_argspecs: dict[str, str | None] = {}


def _argspec(name: str) -> str | None:
    """The arguments the parser reads after ``\\name`` ("" none, "{" one, "raw" none but the
    macro is unknown, so kept as written), None for others."""
    if name not in _argspecs:
        from pylatexenc import latexwalker, macrospec

        spec = latexwalker.get_default_latex_context_db().get_macro_spec(name)
        argspec = None
        if name in _REFUSED_NAMES:
            argspec = None
        elif name not in known_macros():
            # kept as written with the groups right after it: simple when the parser reads no arguments
            argspec = "raw" if spec is None and name.isalpha() else None
        elif spec is None:
            argspec = ""
        elif type(spec.args_parser) is macrospec.MacroStandardArgsParser and spec.args_parser.argspec in ("", "{"):
            argspec = spec.args_parser.argspec
        _argspecs[name] = argspec
    return _argspecs[name]


def _piece_text(latex: str) -> str | None:
    """What the parser makes of one macro (with its one-letter argument) or one math span
    standing alone, with braces and dollars removed as :func:`delatex` removes them."""
    if latex not in _piece_texts:
        if len(_piece_texts) > 50_000:  # math spans of many libraries: bounded
            _piece_texts.clear()
        try:
            out: str | None = _converter().latex_to_text(latex).replace("$", "").replace("{", "").replace("}", "")
        except Exception:
            out = None
        _piece_texts[latex] = out
    return _piece_texts[latex]


def _plain_groups(title: str, pos: int) -> bool:
    """Whether the groups that start at ``pos`` (``{a}{b}``...) hold no macro and no math."""
    while title.startswith("{", pos):
        depth = 0
        for end in range(pos, len(title)):
            ch = title[end]
            if ch == "\\" or ch == "$":
                return False
            depth += 1 if ch == "{" else -1 if ch == "}" else 0
            if depth == 0:
                break
        else:
            return False
        pos = end + 1
    return True


class _Refused(Exception):
    """A value the piecewise reading does not take: the parser reads it whole."""


def _pieces(text: str, pattern: re.Pattern[str], refused: re.Pattern[str],
            cursor: list[int]) -> Iterator[tuple[str, re.Match[str] | None]]:
    """(plain run, the macro or math piece after it) along ``text``; braces are counted
    and skipped (yielded with None, as is the last run). ``cursor[0]`` is where reading
    goes on: a caller that reads a piece's arguments moves it past them. Raises
    :class:`_Refused` for a run ``refused`` matches or for unbalanced braces."""
    depth = 0
    while True:
        pos = cursor[0]
        m = pattern.search(text, pos)
        plain = text[pos:m.start() if m else len(text)]
        if refused.search(plain):
            raise _Refused
        if m is None:
            if depth:
                raise _Refused
            yield plain, None
            return
        cursor[0] = m.end()
        token = m.group()
        if token == "{" or token == "}":
            depth += 1 if token == "{" else -1
            if depth < 0:
                raise _Refused
            yield plain, None
            continue
        yield plain, m


def _normalize_title_pieced(title: str) -> str | None:
    """:func:`normalize_title_parsed` for titles made only of the pieces described above."""
    if "**" in title or "$$" in title:
        return None  # bold markers are removed as a pair; display math is another node
    try:
        return _comparable(_title_pieces(title))
    except _Refused:
        return None


def _title_pieces(title: str) -> str:
    from .output.latex import GLYPH_COMMANDS

    parts: list[str] = []
    cursor = [0]
    for plain, m in _pieces(title, _PIECE, _PLAIN_REFUSED, cursor):
        parts.append(plain)
        if m is None:
            continue
        pos = cursor[0]
        token = m.group()
        word, symbol, math = m.groups()
        if math is not None:
            if "\\$" in math or math.count("{") != math.count("}") or not math.strip():
                raise _Refused
            text = _piece_text(token)
        else:
            name = word if word is not None else symbol
            argspec = _argspec(name)
            if argspec == "{":
                am = (_WORD_ARG if word is not None else _SYMBOL_ARG).match(title, pos)
                if am is None:
                    raise _Refused
                token += am.group()
                pos = cursor[0] = am.end()
            elif argspec == "raw":
                # kept as written, and so are the groups right after it: the same as reading
                # them here only when they hold plain text, and no space follows (that one the
                # macro's text would not keep)
                if title[pos:pos + 1].isspace() or not _plain_groups(title, pos):
                    raise _Refused
                parts.append(token)
                continue
            elif argspec != "":
                raise _Refused
            text = _piece_text(token)
            if (text is not None and argspec == "" and word in GLYPH_COMMANDS and title[pos:pos + 1].isspace()
                    and not _comparable("y" + text + "x").endswith(" x")):
                raise _Refused  # the glyph eats the space after it, which here separates words
        if text is None:
            raise _Refused
        parts.append(text)
    return "".join(parts)


# ---- record text with common LaTeX, without parsing each value --------------------------------
#
# The converter's text of a value is the concatenation of its nodes' texts (see
# ``PlainText.nodelist_to_text``), and a node's text depends only on the node. So a value
# made of plain text, groups, macros the converter knows (alone, or with one braced
# argument or a one-character argument of an accent), unknown macros with the groups
# right after them, and ``$...$`` math gives exactly the converter's text when each macro
# (with its argument and the spaces after it) and each math span is converted alone, by
# the converter itself, once per distinct piece, and the braces of plain groups are
# dropped. Plain runs are copied when they hold no character the converter reads
# specially (dashes, quotes, ``~``...). Anything else goes to the parser whole.

_TEXT_PIECE = re.compile(r"\\([A-Za-z]+)|\\(.)|\$([^$]*)\$|[{}]", re.S)
#: characters or pairs the converter reads specially in running text (or that start something)
_SPECIAL_PLAIN = re.compile(r"--|''|``|[!?]`|[~#^_&%\\$\t\n\r\x0b\x0c]")
_SPACES = re.compile(r" *")
_text_pieces: dict[str, str | None] = {}


def _text_of_piece(latex: str) -> str | None:
    """The converter's text of one piece standing alone (None: it raised)."""
    out = _text_pieces.get(latex, _text_pieces)
    if out is _text_pieces:
        if len(_text_pieces) > 50_000:
            _text_pieces.clear()
        try:
            out = _converter().latex_to_text(latex)
        except Exception:
            out = None
        _text_pieces[latex] = out
    return out  # type: ignore[return-value]


def _group_end(text: str, pos: int) -> int:
    """The index after the group that opens at ``pos`` (refused: unbalanced, or holding
    math or an escaped brace, which only the parser counts right)."""
    depth = 0
    for end in range(pos, len(text)):
        ch = text[end]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return end + 1
        elif ch == "\\":
            if text[end + 1:end + 2] in ("{", "}", "\\", "$"):
                raise _Refused
        elif ch == "$":
            raise _Refused
    raise _Refused


def _pieced_text(text: str) -> str | None:
    """The converter's text of ``text`` read piece by piece, or None when a piece is not
    one of the simple kinds above."""
    try:
        return _text_pieces_joined(text)
    except _Refused:
        return None


def _text_pieces_joined(text: str) -> str:
    parts: list[str] = []
    cursor = [0]
    for plain, m in _pieces(text, _TEXT_PIECE, _SPECIAL_PLAIN, cursor):
        parts.append(plain)
        if m is None:
            continue
        pos = cursor[0]
        word, symbol, math = m.groups()
        if math is not None:
            if "\\$" in math or math.count("{") != math.count("}") or not math.strip() or text.startswith("$", pos):
                raise _Refused
            piece = m.group()
        else:
            name = word if word is not None else symbol
            argspec = _argspec(name)
            if argspec == "{":
                if text.startswith("{", pos):
                    pos = _group_end(text, pos)
                elif word is None and pos < len(text) and text[pos].isalnum():
                    pos += 1
                else:
                    raise _Refused
            elif argspec == "raw":
                while text.startswith("{", pos):  # kept as written, with the groups right after it
                    pos = _group_end(text, pos)
                after = _SPACES.match(text, pos).end()
                if after > pos and text.startswith("{", after):
                    raise _Refused  # whether that group is kept as written depends on where the space goes
            elif argspec != "":
                raise _Refused
            pos = _SPACES.match(text, pos).end()
            if pos < len(text) and text[pos] in "\t\n\r\x0b\x0c":
                raise _Refused
            piece = text[m.start():pos]
            cursor[0] = pos
        out = _text_of_piece(piece)
        if out is None:
            raise _Refused
        parts.append(out)
    return "".join(parts)


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
