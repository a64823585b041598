"""The shortcuts of title folding give exactly what the longer way gives.

A plain ASCII title is folded with one ``str.translate``, accent folding skips its filter
on ASCII text, the LaTeX parser reuses one table of macros, and an unknown macro with the
groups after it is its own text. Each is checked against the code it replaces, on
generated text: ASCII punctuation and control characters, braces, accents, combining
marks, other scripts, empty strings.
"""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.core import text as T

_NON_ALNUM = re.compile(r"[^a-z0-9]+")

ascii_text = st.text(st.characters(max_codepoint=127), max_size=60)
BEYOND_ASCII = ["é", "ü", "ß", "ℓ", "∞", "\u0301", "Ω", "ﬁ", "Å", "①", "\u00a0", "日"]
mixed_text = st.text(st.sampled_from(list("aZ09 {}-:.,'\t\n\x00\x7f") + BEYOND_ASCII), max_size=40)


def _old_plain_title(title: str) -> str:
    return _NON_ALNUM.sub(" ", title.replace("{", "").replace("}", "").lower()).strip()


def _old_fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(ascii_text, mixed_text))
def test_plain_titles_fold_as_the_regular_expression_folds_them(title: str) -> None:
    if title.isascii() and not any(c in title for c in "\\$%"):
        assert T.normalize_title(title) == _old_plain_title(title)
    else:  # anything else takes the long way
        assert T.normalize_title(title) == T._comparable(T.latex_to_text(title, matching=True))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(ascii_text, mixed_text, st.text(max_size=20)))
def test_accent_folding_is_unchanged(text: str) -> None:
    assert T.fold(text) == _old_fold(text)


UNKNOWN = ["\\foo", "\\vphantom", "\\lbrace", "\\textasciimacron", "\\label", "\\url", "\\hphantom"]
ARGUMENTS = ["", "{x}", "{}", "\\}", "\\{", "{{GaN}}", "{a b}"]
GROUPS = ["{a}", "{b~c}", "{}", "{{GaN}}", "{x--y}", "{a''b}", "{1 & 2}", "{_^#}"]


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from(UNKNOWN), st.sampled_from(ARGUMENTS), st.lists(st.sampled_from(GROUPS), max_size=3),
       st.sampled_from(["", " ", "   "]))
def test_an_unknown_macro_and_its_groups_are_their_own_text(name: str, argument: str, groups: list[str],
                                                             spaces: str) -> None:
    piece = name + argument + "".join(groups) + spaces
    takes_argument = T._argspec(name[1:]) == "raw{"
    assert T._argspec(name[1:]) in ("raw", "raw{")
    if takes_argument or not argument.startswith("\\"):  # else `\}` is a macro of its own, not part of the piece
        assert T._convert(piece) == piece == T._converter().latex_to_text(piece)
    for value in (piece, "Thin " + piece + "Layers", "{" + piece + "} of \\'e"):
        for scripts in (True, False):
            assert T.latex_to_text(value, scripts=scripts) == T.latex_to_text(value, scripts=scripts, pieced=False)
        assert T.normalize_title(value) == T.latex_to_text(value, folded=True, pieced=False)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_the_shared_table_of_macros_parses_as_a_fresh_one() -> None:
    for value in ["Schr{\\\"o}dinger", "$\\ell_\\infty$ and \\textendash{}", "\\vphantom\\}{{II}}\\vphantom\\{\\}",
                  "\\begin{x}y\\end{x}", "\\foo[a]{b}", "R\\&D 100\\%"]:
        assert T._convert(value) == T._converter().latex_to_text(value)
