"""Reading what a paper cites, and choosing the library entries it needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.core.model import Entry
from citekit.paper.cited import (
    CitedKeys,
    EntryIndex,
    alias_copies,
    citations_from_aux,
    citations_from_aux_text,
    citations_from_tex,
    citations_from_tex_text,
    select_cited,
    strip_tex_comments,
    with_ids_field,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
PLUME = SHARED / "corpora" / "plume-bib"
#: plume-bib files with many crossref fields into crossrefs.bib
PLUME_FILES = ("heaps.bib", "security.bib", "alias.bib", "version-control.bib", "crossrefs.bib")


def keys_of(text: str) -> list[str]:
    return citations_from_tex_text(text).keys


# --- .tex parsing ---------------------------------------------------------


@pytest.mark.parametrize(
    "tex, expected",
    [
        (r"\cite{a}", ["a"]),
        (r"\citet{a, b ,c}", ["a", "b", "c"]),
        (r"\citep[p.~3][]{a,b}", ["a", "b"]),
        (r"\citep[see][chap.~2]{a}", ["a"]),
        (r"\citealt{a} \citealp{b} \citeauthor{c} \citeyear{d} \citeyearpar{e}", list("abcde")),
        (r"\Citet{a} \Citep{b} \Citealt{c} \Citeauthor{d}", list("abcd")),
        (r"\citet*{a} \citep*[e.g.][]{b} \citeauthor*{c}", list("abc")),
        (r"\textcite{a} \parencite[12]{b} \autocite{c} \footcite{d} \smartcite{e} \Textcite{f}", list("abcdef")),
        (r"\cites{a}{b}", ["a", "b"]),
        (r"\parencites(global pre)(global post)[p.~1]{a}[see][]{b,c} and more", ["a", "b", "c"]),
        (r"\textcites[1]{a}[2]{b}", ["a", "b"]),
        (r"\nocite{a,b}", ["a", "b"]),
        (r"\citep[{see [x]}][]{a}", ["a"]),
        ("\\citep{a,\n  b}", ["a", "b"]),
        (r"\citep{b}\citet{a}\citep{b}", ["b", "a"]),
    ],
)
def test_tex_cite_forms(tex: str, expected: list[str]) -> None:
    assert keys_of(tex) == expected


def test_commands_that_only_look_like_citations_are_ignored() -> None:
    tex = r"\citestyle{plain} \citetext{text} \bibliographystyle{plainnat} \excite{z} \newcommand{\mycite}[1]{\citep{#1}}"
    assert keys_of(tex) == []


def test_nocite_star_means_everything() -> None:
    cited = citations_from_tex_text(r"\nocite{*} \cite{a}")
    assert cited.everything
    assert cited.keys == ["a"]


def test_comments_are_ignored_but_escaped_percent_is_not_a_comment() -> None:
    tex = "\n".join([
        r"50\% of runs \citep{kept}  % \citep{commented}",
        r"% \cite{whole_line}",
        r"line break\\% \cite{after_break}",
        r"\begin{comment}",
        r"\cite{in_comment_env}",
        r"\end{comment}",
        r"\cite{last}",
    ])
    assert keys_of(tex) == ["kept", "last"]


def test_strip_comments_keeps_line_numbers() -> None:
    text = "a % x\nb\n% c\nd"
    assert strip_tex_comments(text).split("\n") == ["a ", "b", "", "d"]


def test_locations_point_at_the_citing_line() -> None:
    cited = citations_from_tex_text("intro\n\n\\citep{a}\nand \\citet{a}\n", "main.tex")
    assert [str(loc) for loc in cited.locations["a"]] == ["main.tex:3", "main.tex:4"]


def test_input_and_include_are_followed_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "main.tex").write_text(
        "\\cite{m}\n\\input{sections/intro}\n\\include{sections/body.tex}\n% \\input{ghost}\n"
    )
    (tmp_path / "sections" / "intro.tex").write_text("\\citep{i}\n\\input{detail}\n")  # next to intro.tex
    (tmp_path / "sections" / "detail.tex").write_text("\\citet{d}\n")
    (tmp_path / "sections" / "body.tex").write_text("\\textcite{b}\n\\input{sections/intro}\n")
    cited = citations_from_tex(tmp_path / "main.tex")
    assert cited.keys == ["m", "i", "d", "b"]
    assert cited.unreadable == []
    assert any(str(loc) == "sections/detail.tex:1" for loc in cited.locations["d"])


def test_input_loops_terminate(tmp_path: Path) -> None:
    (tmp_path / "a.tex").write_text("\\cite{x}\\input{b}")
    (tmp_path / "b.tex").write_text("\\cite{y}\\input{a}\\input{a.tex}")
    assert citations_from_tex(tmp_path / "a.tex").keys == ["x", "y"]


def test_missing_input_is_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text("\\input{nowhere}\\cite{a}\\input bare")
    cited = citations_from_tex(tmp_path / "main.tex")
    assert cited.keys == ["a"]
    assert cited.unreadable == ["nowhere", "bare"]


def test_import_takes_folder_and_file(tmp_path: Path) -> None:
    (tmp_path / "ch").mkdir()
    (tmp_path / "ch" / "one.tex").write_text("\\cite{one}")
    (tmp_path / "main.tex").write_text("\\import{ch/}{one}")
    assert citations_from_tex(tmp_path / "main.tex").keys == ["one"]


# --- .aux parsing ---------------------------------------------------------


def test_aux_bibtex_and_biblatex_lines() -> None:
    aux = "\n".join([
        r"\relax",
        r"\citation{a,b}",
        r"\citation{*}",
        r"\abx@aux@cite{0}{c}",
        r"\abx@aux@segm{0}{0}{c}",
        r"\abx@aux@cite{d}",
        r"\bibcite{zzz}{1}",
        r"\bibdata{refs}",
    ])
    cited = citations_from_aux_text(aux, "main.aux")
    assert cited.keys == ["a", "b", "c", "d"]
    assert cited.everything
    assert str(cited.locations["c"][0]) == "main.aux:4"


def test_aux_follows_included_chapter_aux(tmp_path: Path) -> None:
    (tmp_path / "main.aux").write_text("\\citation{a}\n\\@input{chapter.aux}\n\\@input{gone.aux}\n")
    (tmp_path / "chapter.aux").write_text("\\citation{b}\n\\@input{main.aux}\n")
    cited = citations_from_aux(tmp_path / "main.aux")
    assert cited.keys == ["a", "b"]
    assert cited.unreadable == ["gone.aux"]


# --- selecting entries ----------------------------------------------------


def entry(key: str, title: str = "A Title", **fields: str) -> Entry:
    return Entry(key=key, entry_type=fields.pop("entry_type", "inproceedings"),
                 fields={"title": title, "year": "2026", **fields})


def cite(*keys: str) -> CitedKeys:
    cited = CitedKeys()
    for k in keys:
        cited.add(k)
    return cited


LIB = [
    entry("schaipp2026stepsize", "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
          author="Schaipp, Fabian and Gower, Robert M."),
    entry("alimisis2026warmup", "Why Do We Need Warm-up? A Theoretical Perspective", author="Alimisis, Foivos"),
    entry("islamov2026batch", "On the Role of Batch Size in Stochastic Conditional Gradient Methods",
          author="Islamov, Rustem"),
]


def test_select_only_cited_entries() -> None:
    sel = select_cited(LIB, cite("islamov2026batch", "schaipp2026stepsize"))
    assert [e.key for e in sel.entries] == ["islamov2026batch", "schaipp2026stepsize"]
    assert sel.missing == []


def test_nocite_star_selects_everything() -> None:
    cited = cite()
    cited.everything = True
    assert len(select_cited(LIB, cited).entries) == 3


def test_missing_key_names_the_closest_entry() -> None:
    sel = select_cited(LIB, cite("schaip2026stepsize"))
    assert sel.entries == []
    (missing,) = sel.missing
    message = missing.message()
    assert message.startswith("missing key 'schaip2026stepsize'")
    assert "did you mean schaipp2026stepsize — Step-Size Stability in Stochastic" in message


def test_missing_key_written_differently_is_found_by_its_words() -> None:
    (missing,) = select_cited(LIB, cite("Alimisis2026WhyWarmup")).missing
    assert [e.key for e in missing.suggestions][0] == "alimisis2026warmup"


def test_unrelated_missing_key_has_no_suggestion() -> None:
    (missing,) = select_cited(LIB, cite("vaswani2017attention")).missing
    assert missing.suggestions == []
    assert "did you mean" not in missing.message()


def test_case_mismatch_is_missing_because_bibtex_rejects_it() -> None:
    (missing,) = select_cited(LIB, cite("Schaipp2026stepsize")).missing
    assert missing.suggestions[0].key == "schaipp2026stepsize"


def test_alias_resolves_to_surviving_entry() -> None:
    survivor = entry("ibrahim2026conformal", "Conformal Thinking: Risk Control for Reasoning on a Compute Budget")
    survivor.aliases = ["ibrahim2026compute"]
    sel = select_cited([survivor, *LIB], cite("ibrahim2026compute", "alimisis2026warmup"))
    assert sel.aliases == {"ibrahim2026compute": "ibrahim2026conformal"}
    assert [e.key for e in sel.entries] == ["alimisis2026warmup", "ibrahim2026conformal"]

    copies = alias_copies(sel)
    assert [e.key for e in copies] == ["alimisis2026warmup", "ibrahim2026compute"]
    assert copies[1].fields == survivor.fields
    both = alias_copies(select_cited([survivor], cite("ibrahim2026compute", "ibrahim2026conformal")))
    assert [e.key for e in both] == ["ibrahim2026conformal", "ibrahim2026compute"]

    with_ids = with_ids_field(sel)
    assert [e.key for e in with_ids] == ["alimisis2026warmup", "ibrahim2026conformal"]
    assert with_ids[1].fields["ids"] == "ibrahim2026compute"
    assert "ids" not in survivor.fields  # the library's entry is not modified


def test_crossref_parent_comes_after_its_children() -> None:
    parent = entry("icml2026", "Forty-third ICML", entry_type="proceedings")
    lib = [parent, entry("a2026", crossref="icml2026"), entry("z2026", crossref="{icml2026}"), entry("b2026")]
    sel = select_cited(lib, cite("z2026", "icml2026", "a2026"))
    assert [e.key for e in sel.entries] == ["a2026", "z2026", "icml2026"]
    sel = select_cited(lib, cite("a2026"))
    assert [e.key for e in sel.entries] == ["a2026", "icml2026"]
    assert sel.parents == ["icml2026"]


def test_crossref_to_merged_parent_is_rewritten_to_the_survivor() -> None:
    parent = entry("icml2026proc", "Forty-third ICML", entry_type="proceedings")
    parent.aliases = ["icml26"]
    child = entry("a2026", crossref="icml26")
    sel = select_cited([parent, child], cite("a2026"))
    assert [(e.key, e.fields.get("crossref")) for e in sel.entries] == [("a2026", "icml2026proc"), ("icml2026proc", None)]
    assert child.fields["crossref"] == "icml26"


def test_crossref_parent_is_found_ignoring_case_as_bibtex_does() -> None:
    parent = entry("Onward2024", "Onward! 2024", entry_type="proceedings")
    sel = select_cited([parent, entry("hermans2024", crossref="onward2024")], cite("hermans2024"))
    assert sel.missing == []
    assert [(e.key, e.fields.get("crossref")) for e in sel.entries] == [("hermans2024", "Onward2024"), ("Onward2024", None)]


def test_missing_crossref_parent_is_reported() -> None:
    sel = select_cited([entry("a2026", crossref="nowhere")], cite("a2026"))
    assert [m.key for m in sel.missing] == ["nowhere"]
    assert "crossref parent of a2026" in sel.missing[0].message()


def test_crossref_cycle_terminates() -> None:
    lib = [entry("a", crossref="b"), entry("b", crossref="a")]
    assert sorted(e.key for e in select_cited(lib, cite("a")).entries) == ["a", "b"]


def test_index_does_not_let_an_alias_shadow_a_real_key() -> None:
    a = entry("a")
    a.aliases = ["b"]
    b = entry("b", "Other")
    assert EntryIndex([a, b]).get("b") is b


# --- real data: plume-bib crossrefs ---------------------------------------


def test_plume_bib_crossref_parents_are_pulled_in() -> None:
    if not PLUME.is_dir():
        pytest.skip(f"real-data corpus not present at {PLUME}")
    from citekit.bibtex.reader import read_bib_file

    entries: list[Entry] = []
    for name in PLUME_FILES:
        entries.extend(read_bib_file(PLUME / name).entries)
    children = [e for e in entries if e.fields.get("crossref")]
    assert len(children) > 300
    sample = [e.key for e in children[::25]]
    sel = select_cited(entries, cite(*sample))
    keys = [e.key for e in sel.entries]
    assert sel.missing == []
    position = {k: i for i, k in enumerate(keys)}
    for child in (e for e in sel.entries if e.fields.get("crossref")):
        parent = child.fields["crossref"].strip("{}\" ")
        assert parent in position, f"{child.key} lost its parent {parent}"
        assert position[parent] > position[child.key]
    assert set(sel.parents) <= set(keys)
    assert len(keys) == len(sample) + len(sel.parents)


def test_verbatim_text_is_not_a_citation() -> None:
    """A paper that documents ``\\cite`` shows it verbatim; LaTeX never sees a citation there."""
    tex = "\n".join([
        r"Write \verb|\cite{verb_bar}| or \verb+\citep{verb_plus}+ or \verb*!\cite{verb_star}! \cite{real1}",
        r"\lstinline|\cite{lst_inline}| and \lstinline{\cite{lst_brace}} \citep{real2}",
        r"\verb|50% off| \cite{after_percent_in_verb}",
        r"\begin{verbatim}",
        r"\cite{in_verbatim} \input{nothere}",
        r"\end{verbatim}",
        r"\begin{lstlisting}[language=TeX]",
        r"\citet{in_listing}",
        r"\end{lstlisting}",
        r"% \begin{verbatim} inside a comment starts nothing",
        r"\begin{Verbatim}\cite{in_fancy}\end{Verbatim} \begin{comment}\cite{c}\end{comment}",
        r"\cite{last}",
    ])
    assert keys_of(tex) == ["real1", "real2", "after_percent_in_verb", "last"]
    cited = citations_from_tex_text(tex, "main.tex")
    assert [str(loc) for loc in cited.locations["last"]] == ["main.tex:12"]


def test_export_tex_ignores_verbatim_citations(tmp_path: Path) -> None:
    main = tmp_path / "main.tex"
    main.write_text("\\verb|\\cite{shown}| \\cite{used}\n\\begin{verbatim}\n\\input{missing}\n\\end{verbatim}\n")
    cited = citations_from_tex(main)
    assert cited.keys == ["used"] and not cited.unreadable


def test_biblatex_nocite_star_in_aux_means_everything():
    from citekit.paper.cited import citations_from_aux_text

    aux = "\\relax\n\\abx@aux@refcontext{nty/global//global/global}\n\\abx@aux@nociteall\n"
    assert citations_from_aux_text(aux, "main.aux").everything
