"""LaTeX to text, and the folding shared by grouping, matching and dedup.

This is the one LaTeX-to-text converter (:func:`latex_to_text`): record text for CSL,
Markdown and plain output, method names read from abstracts, names and venues compared by
matching, and the comparable form of titles all go through it, so math is folded the same
way everywhere (``$\\ell_\\infty$`` becomes ``ℓ_∞``, which folds to ``l inf`` like the words
"L inf"). Callers that need the text differently say so with its keyword options instead
of wrapping it (``prose=True``: ``ℓ∞`` for a reader rather than ``ℓ_∞`` for folding), and
:func:`math_name` says when a formula only typesets a name (``$LoRDO$``). And one definition of "the same title" (:func:`normalize_title`, the
folded form), so the notes grouper, the resolver and the dedup engine can never disagree
about it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from citekit.core.lazyre import lazy

_LATEXISH = lazy(r"[\\{}$]")
_NON_ALNUM = lazy(r"[^a-z0-9]+")
_BEYOND_ASCII = lazy(r"[^\x00-\x7f]")
#: an ASCII title without LaTeX, folded in one pass: braces go, letters are lower-cased,
#: digits stay and every other character separates words
_PLAIN_FOLD = str.maketrans({chr(c): None if chr(c) in "{}" else chr(c).lower() if chr(c).isalnum() else " "
                             for c in range(128)})
STOPWORDS = frozenset(
    "a an the of on in for and or to with via by from at as is are be its it into over under toward towards "
    "we our do does can not no using".split()
)


def fold(text: str) -> str:
    """Lower-case ASCII with accents removed (``Horváth`` → ``horvath``)."""
    text = unicodedata.normalize("NFKD", text)
    if not text.isascii():  # combining marks are all beyond ASCII: only those characters are looked at
        marks = {ord(c): None for c in set(_BEYOND_ASCII.findall(text)) if unicodedata.combining(c)}
        if marks:
            text = text.translate(marks)
    return text.lower()


#: font commands whose argument is the text (``\\texttt{MetaDistill}`` -> ``MetaDistill``)
_FONT_COMMANDS = ("texttt", "textsf", "textrm", "textnormal", "mathrm", "mathbf", "mathit", "mathsf", "mathtt",
                  "texorpdfstring")


@lru_cache(maxsize=1)
def known_macros() -> frozenset[str]:
    """Macros rendered as what they print; any other is kept as written (inert text).

    The vocabulary is the one the LaTeX writer already trusts (glyphs, accents, font
    commands, amsmath math), so ``\\input{..}`` or ``\\foo`` never silently vanish.
    """
    from citekit.core.latex_vocab import ARGUMENT_COMMANDS, GLYPH_COMMANDS, MATH_COMMANDS, SAFE_SYMBOLS, SYMBOL_ACCENTS

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

    from citekit.core.latex_vocab import GLYPH_COMMANDS

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


def _convert(latex: str) -> str:
    """The converter's text of ``latex``, parsed with the parser's default table of macros.

    That table is what the parser builds for itself on every call when it is given none
    (about a tenth of a millisecond, as long as parsing a short piece); it is only
    read while parsing, so one copy serves every call.
    """
    return _converter().latex_to_text(latex, latex_context=_walker_macros())


_MATH = lazy(r"(?<!\\)\$\$?.*?(?<!\\)\$\$?", re.S)
_SUPERSCRIPTS = dict(zip("0123456789+-=()nik", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵏ"))
_SUBSCRIPTS = dict(zip("0123456789+-=()aeioutkmnpsx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢₒᵤₜₖₘₙₚₛₓ"))
_SCRIPT = lazy(r"(?P<op>[\^_])(?:\{(?P<group>[^{}]*)\}|(?P<char>[A-Za-z0-9]))")


#: a script whose body is a control word (``\\ell_\\infty``), which :data:`_SCRIPT` leaves alone
_MACRO_SCRIPT = lazy(r"[\^_](?=\\[A-Za-z]+(?![A-Za-z]))")
#: a control word right before a script: ``\\sum_i`` must not become the one word ``\\sumᵢ``
_MACRO_BASE = lazy(r"(\\[A-Za-z]+)(?=[\^_])")


def _scripts(math: str, prose: bool = False) -> str:
    """``x^{-3}`` -> ``x⁻³`` and ``L_0`` -> ``L₀`` where Unicode has the characters.

    A script that Unicode cannot write (``x^{\\top}``) keeps its braces, escaped so the
    converter prints them: ``x^{⊤}`` stays readable where ``x^⊤`` would not. In ``prose``
    (text a reader reads, not compares) a reader would not write braces or a lone ``_``
    either: a symbol is set beside its base (``\\ell_\\infty`` -> ``ℓ∞``) and a word keeps
    the one mark that says it is a script (``SPS_{safe}`` -> ``SPS_safe``); a control word
    before a script (``\\sum_i``) is closed first, so the script does not join its name.
    """
    def one(m: re.Match[str]) -> str:
        body = m.group("group") if m.group("group") is not None else m.group("char")
        table = _SUPERSCRIPTS if m.group("op") == "^" else _SUBSCRIPTS
        if body and all(c in table for c in body):
            return "".join(table[c] for c in body)
        if m.group("group") is None:
            return m.group(0)
        if prose:
            if re.fullmatch(r"\\[A-Za-z]+|\W", body.strip()):
                return "{}" + body.strip() + "{}"
            if re.fullmatch(r"[\w\-]+", body.strip()):
                return m.group("op").replace("_", "\\_").replace("^", "\\^{}") + body.strip()
        return m.group("op") + "\\{" + body + "\\}"

    if prose:
        math = _MACRO_SCRIPT.sub("{}", _MACRO_BASE.sub(r"\1{}", math))
    return _SCRIPT.sub(one, math)


#: characters without which a value holds no LaTeX to convert (and no ``--`` dash)
_LATEX_CHARS = lazy(r"[\\{}$~%&]|--")


def latex_to_text(text: str, *, scripts: bool = True, matching: bool = False, folded: bool = False,
                  as_written: bool = False, keep_edges: bool = False, pieced: bool = True,
                  prose: bool = False) -> str:
    """LaTeX markup to plain Unicode (math as text: ``$O(\\epsilon^{-3})$`` -> ``O(ϵ⁻³)``).

    Nothing is dropped: a macro outside the known vocabulary is kept as written, ``&``
    stays an ampersand and spaces after control words stay; callers escape the result
    for where it goes. Runs of whitespace become one space. The options are the ways
    callers really need the text differently:

    - ``scripts=False`` leaves ``_`` and ``^`` as ASCII (``SPS_safe``, ``QAOA^2``), as a
      name is typed rather than typeset;
    - ``matching=True``: text to compare and search (names, venues, query words): scripts
      as typed, and the braces and dollars that only unknown macros leave behind dropped;
    - ``folded=True``: the comparable form of a title (:func:`normalize_title`), accents,
      case and punctuation folded as well;
    - ``as_written=True``: a value holding no LaTeX at all is returned exactly as written
      (its line breaks kept): record text for CSL, where only LaTeX is to be converted;
    - ``keep_edges=True``: a space at either end stays one space, for a piece of a longer
      value that sits next to math converted on its own;
    - ``pieced=False`` reads the whole value with the LaTeX parser: slower, and the
      reference the piecewise reading is tested against;
    - ``prose=True``: text a reader reads (a related-work sentence in Markdown): a script
      Unicode cannot write is not left as ``_∞`` or ``_{safe}`` but written as an author
      would type it in plain text, ``ℓ∞``, ``SPS_safe``.
    """
    if keep_edges:
        lead = " " if text[:1].isspace() else ""
        tail = " " if text[-1:].isspace() and text.strip() else ""
        inner = latex_to_text(text, scripts=scripts, matching=matching, folded=folded, as_written=as_written,
                              pieced=pieced, prose=prose)
        return lead + inner + tail
    if folded:
        return normalize_title(text) if pieced else _comparable(_matching_text(text, _text_read_whole))
    if matching:
        return _cached_matching_text(text) if pieced else _matching_text(text, _text_read_whole)
    if as_written and not _LATEX_CHARS.search(text):
        return text
    return _to_text(text, scripts, pieced=pieced, prose=prose)


def _text_read_pieced(text: str, *, scripts: bool = True) -> str:
    return _to_text(text, scripts, pieced=True)


def _text_read_whole(text: str, *, scripts: bool = True) -> str:
    return _to_text(text, scripts, pieced=False)


def _to_text(text: str, scripts: bool, *, pieced: bool, prose: bool = False) -> str:
    # each substitution only where its characters occur (a test in C, no pattern run)
    if "**" in text:
        text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    if "%" in text:  # a bare % is a percent sign in metadata, not a LaTeX comment that eats the rest
        text = re.sub(r"(?<!\\)%", r"\\%", text)
    if not re.search(r"[\\{}$%~&]|--", text):
        return re.sub(r"\s+", " ", text).strip()
    if scripts and "$" in text:
        text = _MATH.sub(lambda m: _scripts(m.group(0), prose), text)
    out = _pieced_text(text) if pieced else None
    if out is None:
        try:
            out = _convert(text)
        except Exception:  # malformed markup from remote metadata: keep it as written
            out = text
    return re.sub(r"\s+", " ", out).strip()


@lru_cache(maxsize=65536)
def _cached_matching_text(text: str) -> str:
    """``latex_to_text(text, matching=True)``, cached: names and venues recur across a library."""
    return _matching_text(text, _text_read_pieced)


def _matching_text(text: str, to_text: Callable[..., str]) -> str:
    if not _LATEXISH.search(text):
        return text
    if "\\" not in text and "$" not in text and "%" not in text:
        return text.replace("{", "").replace("}", "")  # braces alone need no parser
    # scripts as typed (``QAOA^2``, ``L_0``): folding must give "qaoa 2" as a note would write it
    return to_text(text, scripts=False).replace("$", "").replace("{", "").replace("}", "")


@lru_cache(maxsize=65536)
def normalize_title(title: str) -> str:
    """Comparable form of a title: LaTeX, braces, math, accents, case and punctuation folded
    (``latex_to_text(title, folded=True)``, named and cached: it is the key every title
    comparison uses).

    ``{LiMuon}: Light and Fast {Muon} Optimizer`` and ``LiMuon - light and fast muon
    optimizer.`` both become ``limuon light and fast muon optimizer``.
    """
    if title.isascii() and "\\" not in title and "$" not in title and "%" not in title:
        # most titles of a big library: no parser, no accent folding, one pass in C
        return " ".join(title.translate(_PLAIN_FOLD).split())
    return _comparable(_cached_matching_text(title))  # reads the LaTeX piece by piece where it can


def squash_spaces(text: str) -> str:
    """``" ".join(text.split())``: each run of whitespace as one space, none at the ends.

    A text that already reads so is returned as it is, without cutting it into words: a
    printable text holds no whitespace but the plain space (every other whitespace
    character is a control or separator character), so with no double space and none at
    either end there is nothing to change. Most note lines are such texts."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


def _comparable(text: str) -> str:
    """The last step of :func:`normalize_title`: accents, case and punctuation folded."""
    text = fold(text).replace("ℓ", "l").replace("∞", "inf").replace("√", " sqrt ")
    return _NON_ALNUM.sub(" ", text).strip()


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

_PIECE = lazy(r"\\([A-Za-z]+)|\\(.)|\$([^$]*)\$|[{}]+", re.S)
#: characters or pairs the converter reads specially in running text (or that start something)
_SPECIAL_PLAIN = lazy(r"--|''|``|[!?]`|[~#^_&%\\$\t\n\r\x0b\x0c]")
_SPACES = re.compile(r" *")
_text_pieces: dict[str, str | None] = {}
_REFUSED_NAMES = frozenset({"begin", "end", "verb", "item", "par", "(", ")", "[", "]", "\\"})  # environments, math, breaks
_argspecs: dict[str, str | None] = {}


def _argspec(name: str) -> str | None:
    """The arguments the parser reads after ``\\name`` ("" none, "{" one, "raw" none but the
    macro is unknown, so kept as written, "raw{" one and the macro is unknown, so kept as
    written with it: ``\\vphantom``), None for others."""
    if name not in _argspecs:
        from pylatexenc import macrospec

        spec = _walker_macros().get_macro_spec(name)
        argspec = None
        if name in _REFUSED_NAMES:
            argspec = None
        elif name not in known_macros():
            # kept as written with the groups right after it: simple when the parser reads no
            # arguments, or one mandatory argument
            if name.isalpha() and spec is None:
                argspec = "raw"
            elif (name.isalpha() and type(spec.args_parser) is macrospec.MacroStandardArgsParser
                  and spec.args_parser.argspec in ("{", "[{", "*{", "*[{")):
                argspec = "raw{"  # a star or [option] is never read: the piece needs `{` or `\` right after
        elif spec is None:
            argspec = ""
        elif type(spec.args_parser) is macrospec.MacroStandardArgsParser and spec.args_parser.argspec in ("", "{"):
            argspec = spec.args_parser.argspec
        _argspecs[name] = argspec
    return _argspecs[name]


@lru_cache(maxsize=1)
def _walker_macros():  # type: ignore[no-untyped-def]
    """The parser's own table of macros, read only here: pylatexenc builds a new one per
    call (about half a millisecond), once per macro name otherwise."""
    from pylatexenc import latexwalker

    return latexwalker.get_default_latex_context_db()


class _Refused(Exception):
    """A value the piecewise reading does not take: the parser reads it whole."""


def _text_of_piece(latex: str) -> str | None:
    """The converter's text of one piece standing alone (None: it raised)."""
    out = _text_pieces.get(latex, _text_pieces)
    if out is _text_pieces:
        if len(_text_pieces) > 50_000:
            _text_pieces.clear()
        try:
            out = _convert(latex)
        except Exception:
            out = None
        _text_pieces[latex] = out
    return out  # type: ignore[return-value]


def _group_end(text: str, pos: int) -> int:
    """The index after the group that opens at ``pos`` (refused: unbalanced, or holding
    math or an escaped brace or backslash, which only the parser counts right)."""
    from citekit.core.texscan import group_end

    end = group_end(text, pos, "{", "}")
    if end is None:
        raise _Refused
    span = text[pos:end]
    if "$" in span or "\\{" in span or "\\}" in span or "\\\\" in span:
        raise _Refused
    return end


def _pieced_text(text: str) -> str | None:
    """The converter's text of ``text`` read piece by piece, or None when a piece is not
    one of the simple kinds above."""
    try:
        return _text_pieces_joined(text)
    except _Refused:
        return None


def _text_pieces_joined(text: str) -> str:
    parts: list[str] = []
    pos = depth = 0
    while True:
        m = _PIECE.search(text, pos)
        plain = text[pos:m.start() if m else len(text)]
        if _SPECIAL_PLAIN.search(plain):
            raise _Refused
        parts.append(plain)
        if m is None:
            if depth:
                raise _Refused
            return "".join(parts)
        pos = m.end()
        word, symbol, math = m.groups()
        if word is not None and text[pos:pos + 1].isalpha():
            raise _Refused  # the parser reads any letter into the name: `\oé` is one unknown macro
        if word is None and symbol is None and math is None:  # a run of braces: counted, dropped
            braces = m.group()
            if "}" not in braces:  # `{{`
                depth += len(braces)
            elif "{" not in braces:  # `}}`
                depth -= len(braces)
            else:
                for brace in braces:  # `}{`: never below zero on the way
                    depth += 1 if brace == "{" else -1
                    if depth < 0:
                        raise _Refused
            if depth < 0:
                raise _Refused
            continue
        if math is not None:
            if "\\$" in math or math.count("{") != math.count("}") or not math.strip() or text.startswith("$", pos):
                raise _Refused
            piece = m.group()
        else:
            name = word if word is not None else symbol
            argspec = _argspec(name)
            if argspec == "raw{":  # its argument is kept as written with it: a group or an escaped brace
                if text.startswith("{", pos):
                    pos = _group_end(text, pos)
                elif text.startswith(("\\{", "\\}"), pos):  # `\vphantom\}`, common in exported libraries
                    pos += 2
                else:
                    raise _Refused
                argspec = "raw"
            kept_from = pos
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
            if argspec == "raw" and "\\" not in text[kept_from:pos]:
                # the converter prints an unknown macro, its argument, the groups after it and
                # the spaces as written (latex_verbatim); with no macro inside those groups
                # nothing in them is parsed differently, so the piece is its own text
                parts.append(piece)
                continue
        out = _text_of_piece(piece)
        if out is None:
            raise _Refused
        parts.append(out)


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


#: commands that only set the font of a name, inside or outside math
_NAME_FONTS = lazy(r"\\(?:emph|textit|textbf|textsc|texttt|textsf|textrm|textnormal|textup|text|mbox|"
                         r"mathrm|mathbf|mathit|mathsf|mathtt|operatorname|boldsymbol|bm)\*?\s*(?=\{)")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")


def math_name(math: str) -> str | None:
    """The name a piece of math only typesets, or None when it is real math.

    Abstracts wrap method names in math to italicise or embolden them (``$LoRDO$``,
    ``$\\emph{SCENT}$``, ``$\\mathsf{Muon}$``); in prose that is a name, to be written as
    text. Real math stays math: one letter (``$k$``), scripts (``$\\ell_\\infty$``),
    operators and symbols. ``math`` is the content between the dollars.
    """
    if re.search(r"[\^_=+<>|/,;:!?()\[\]]", math):
        return None
    plain = _NAME_FONTS.sub("", math)
    if "\\" in plain:  # a symbol or an operator (\lambda, \log): math
        return None
    plain = plain.replace("{", "").replace("}", "").strip()
    if not _NAME.fullmatch(plain) or sum(c.isalpha() for c in plain) < 2:
        return None
    return plain


#: nouns whose plural is not the singular + "s" (the ones citekit's messages count)
_IRREGULAR_PLURALS = {"entry": "entries", "library": "libraries", "match": "matches", "alias": "aliases",
                      "is": "are", "was": "were", "has": "have"}


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``count`` with its noun in the number it needs: ``1 entry``, ``2 entries``, ``0 files``.

    One rule for every message that counts something, so that no report says "1 entries".
    The noun may be several words; only its last word is inflected.
    """
    if count == 1:
        return f"{count} {singular}"
    if plural_form is None:
        head, _, last = singular.rpartition(" ")
        many = _IRREGULAR_PLURALS.get(last) or (last + "es" if last.endswith(("s", "x", "ch", "sh")) else last + "s")
        plural_form = f"{head} {many}" if head else many
    return f"{count} {plural_form}"
