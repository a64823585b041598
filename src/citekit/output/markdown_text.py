"""Record text for Markdown that pandoc renders literally.

pandoc passes raw TeX found in Markdown straight into LaTeX output, reads ``$..$`` as
math, ``@key`` as a citation and ``[..]`` as links or spans. A title or abstract from a
remote service must trigger none of that, so record text is first turned into plain
Unicode and then every character with a Markdown meaning is backslash-escaped.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from pylatexenc.latexwalker import LatexGroupNode, LatexMacroNode

from .latex import ARGUMENT_COMMANDS, GLYPH_COMMANDS, MATH_COMMANDS, SAFE_SYMBOLS, SYMBOL_ACCENTS

#: characters pandoc's Markdown gives a meaning to (backslash first, so escapes stay single)
MARKDOWN_SPECIALS = "\\`*_[]<>#$@^~|&{}"
_ESCAPE = re.compile("[" + re.escape(MARKDOWN_SPECIALS) + "]")


#: font commands whose argument is the text (``\\texttt{MetaDistill}`` -> ``MetaDistill``)
_FONT_COMMANDS = ("texttt", "textsf", "textrm", "textnormal", "mathrm", "mathbf", "mathit", "mathsf", "mathtt",
                  "texorpdfstring")


@lru_cache(maxsize=1)
def _known_macros() -> frozenset[str]:
    """Macros rendered as what they print; any other is kept as written (inert text).

    The vocabulary is the one the LaTeX side already trusts (glyphs, accents, font
    commands, amsmath math), so ``\\input{..}`` or ``\\foo`` never silently vanish.
    """
    return frozenset(GLYPH_COMMANDS | ARGUMENT_COMMANDS | MATH_COMMANDS | SAFE_SYMBOLS | SYMBOL_ACCENTS
                     | set(_FONT_COMMANDS) | {"{", "}", "\\"})


class _PlainText(LatexNodes2Text):
    """pylatexenc's converter, but losing nothing: unknown macros stay, ``&`` and spaces too."""

    def nodelist_to_text(self, nodelist) -> str:  # type: ignore[no-untyped-def]
        # An unknown macro is kept as written together with the braced groups after it
        # (``\\foo{bar}``), which pylatexenc would read as separate nodes.
        out, raw = [], False
        for node in nodelist:
            if node is None:
                continue
            unknown = node.isNodeType(LatexMacroNode) and node.macroname not in _known_macros()
            if unknown or (raw and node.isNodeType(LatexGroupNode)):
                out.append(node.latex_verbatim())
                raw = True
                continue
            raw = False
            out.append(self.node_to_text(node))
        return "".join(out)

    def macro_node_to_text(self, node) -> str:  # type: ignore[no-untyped-def]
        if node.macroname not in _known_macros():
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


def _has_args(node) -> bool:  # type: ignore[no-untyped-def]
    argd = getattr(node, "nodeargd", None)
    return bool(argd and argd.argnlist and any(a is not None for a in argd.argnlist))


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    db = get_default_latex_context_db()
    extra = [MacroTextSpec(name, "%s") for name in _FONT_COMMANDS]
    db.add_context_category("citekit-font-commands", macros=extra, prepend=True)
    # strict spaces: the converter adds the spaces itself (see _PlainText), never twice
    return _PlainText(latex_context=db, math_mode="text", strict_latex_spaces=True)


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


def latex_to_plain(text: str) -> str:
    """LaTeX markup to plain Unicode (math as text: ``$O(\\epsilon^{-3})$`` -> ``O(ϵ^-3)``).

    Nothing is dropped: a macro outside the known vocabulary is kept as written, ``&``
    stays an ampersand and spaces after control words stay; callers escape the result.
    """
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    # A bare % is a percent sign in metadata, not a LaTeX comment that eats the rest.
    text = re.sub(r"(?<!\\)%", r"\\%", text)
    if not re.search(r"[\\{}$%~&]|--", text):
        return re.sub(r"\s+", " ", text).strip()
    text = _MATH.sub(lambda m: _scripts(m.group(0)), text)
    try:
        out = _converter().latex_to_text(text)
    except Exception:  # malformed markup from remote metadata: keep it as written
        out = text
    return re.sub(r"\s+", " ", out).strip()


def escape_markdown(text: str) -> str:
    """Backslash-escape every Markdown-active character so the text renders as written."""
    text = re.sub(r"\s+", " ", text).strip()
    return _ESCAPE.sub(lambda m: "\\" + m.group(0), text)


def known_macros() -> frozenset[str]:
    """Macros whose meaning is known (glyphs, accents, fonts, math); any other comes from an author's preamble."""
    return _known_macros()
