"""Rendering entries as BibTeX, biblatex and CSL-JSON."""

from __future__ import annotations

import json

import bibtexparser
import pytest
from bibtexparser.model import Entry as BpEntry
from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.core.model import Entry, Ids
from citekit.output.biblatex import render_biblatex
from citekit.bibtex.writer import month_macro, render_entries
from citekit.output.csl import to_csl_json
from citekit.bibtex.values import sanitize


SCHAIPP = Entry(
    key="schaipp2026stepsize",
    entry_type="inproceedings",
    fields={
        "keywords": "step-size, theory",
        "archiveprefix": "arXiv",
        "eprint": "2602.09842",
        "url": "https://openreview.net/forum?id=XXXX",
        "year": "2026",
        "booktitle": "Forty-third International Conference on Machine Learning",
        "title": "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
        "author": "Schaipp, Fabian and Gower, Robert M. and Taylor, Adrien",
    },
)

EXPECTED_SCHAIPP = """\
@inproceedings{schaipp2026stepsize,
  author        = {Schaipp, Fabian and Gower, Robert M. and Taylor, Adrien},
  title         = {Step-Size Stability in Stochastic Optimization: A Theoretical Perspective},
  booktitle     = {Forty-third International Conference on Machine Learning},
  year          = {2026},
  url           = {https://openreview.net/forum?id=XXXX},
  eprint        = {2602.09842},
  archiveprefix = {arXiv},
  keywords      = {step-size, theory},
}
"""


def parse(text: str) -> dict[str, BpEntry]:
    lib = bibtexparser.parse_string(text)
    assert not lib.failed_blocks, [b.error for b in lib.failed_blocks]
    return {e.key: e for e in lib.entries}


# --- layout ----------------------------------------------------------------

def test_layout_matches_output_examples_exactly() -> None:
    assert render_entries([SCHAIPP]) == EXPECTED_SCHAIPP


def test_entries_keep_given_order_with_one_blank_line_and_a_header() -> None:
    other = Entry(key="a2025x", entry_type="misc", fields={"title": "X", "year": "2025"})
    text = render_entries([SCHAIPP, other], header="citekit library\nedit freely")
    assert text.startswith("% citekit library\n% edit freely\n\n@inproceedings{schaipp2026stepsize,\n")
    assert "}\n\n@misc{a2025x,\n" in text
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert list(parse(text)) == ["schaipp2026stepsize", "a2025x"]


def test_field_order_is_fixed_and_unknown_fields_follow_alphabetically() -> None:
    e = Entry(
        key="k",
        entry_type="Article",
        fields={"zeta": "z", "Note": "n", "doi": "10.1/x", "pages": "1--2", "journal": "J", "title": "T",
                "author": "A, B", "month": "July", "volume": "3", "number": "4", "publisher": "P", "abstract": ""},
    )
    names = [line.split("=")[0].strip() for line in render_entries([e]).splitlines()[1:-1]]
    assert names == ["author", "title", "journal", "volume", "number", "pages", "month", "publisher", "doi",
                     "note", "zeta"]
    assert render_entries([e]).startswith("@article{k,")


@pytest.mark.parametrize(("raw", "macro"), [("jul", "jul"), ("July", "jul"), ("7", "jul"), ("07", "jul"),
                                            ("sept.", "sep"), ("Summer", None), ("13", None)])
def test_month_values(raw: str, macro: str | None) -> None:
    assert month_macro(raw) == macro
    line = next(l for l in render_entries([Entry("k", "misc", {"month": raw})]).splitlines() if "month" in l)
    assert line == (f"  month         = {macro}," if macro else f"  month         = {{{raw}}},")


def test_aliases_become_ids_and_tags_fill_missing_keywords() -> None:
    e = Entry("k", "misc", {"title": "T"}, aliases=["old1", "old2"], tags_auto=["muon", "theory"])
    fields = parse(render_entries([e]))["k"].fields_dict
    assert fields["ids"].value == "old1, old2"
    assert fields["keywords"].value == "muon, theory"
    own = Entry("k", "misc", {"keywords": "mine"}, tags_auto=["muon"])
    assert parse(render_entries([own]))["k"].fields_dict["keywords"].value == "mine"


def test_ascii_mode_converts_text_but_not_identifiers() -> None:
    e = Entry("k", "misc", {"author": "Horváth, Samuel", "title": "Étude – $\\ell$", "url": "https://x.org/é_1"})
    text = render_entries([e], ascii=True)
    fields = parse(text)["k"].fields_dict
    assert fields["author"].value == r"Horv{\'a}th, Samuel"
    assert fields["title"].value == r"{\'E}tude {\textendash} $\ell$"
    assert fields["url"].value == "https://x.org/é_1"


def test_unbalanced_value_is_sanitized_not_allowed_to_break_the_file(caplog: pytest.LogCaptureFixture) -> None:
    e = Entry("k", "misc", {"title": "a } b", "note": "ok"})
    text = render_entries([e])
    assert parse(text)["k"].fields_dict["title"].value == r"a \textbraceright{} b"
    assert "unbalanced braces" in caplog.text


def test_bad_keys_and_duplicate_keys_are_refused_with_advice() -> None:
    with pytest.raises(ValueError, match="Rename it"):
        render_entries([Entry("bad key,", "misc", {"title": "x"})])
    with pytest.raises(ValueError, match="distinct key"):
        render_entries([Entry("Same", "misc", {}), Entry("same", "misc", {})])


# --- round trip through bibtexparser ---------------------------------------

field_names = st.sampled_from(["title", "note", "booktitle", "journal", "publisher", "howpublished", "x-custom"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(field_names, st.text(min_size=1, max_size=40), max_size=5))
def test_rendered_text_reparses_to_the_same_values(raw_fields: dict[str, str]) -> None:
    fields = {k: sanitize(v) for k, v in raw_fields.items()}
    entry = Entry(key="k2026x", entry_type="misc", fields=fields)
    parsed = parse(render_entries([entry]))["k2026x"]
    expected = {k: v for k, v in fields.items() if v.strip()}
    assert {f.key: f.value for f in parsed.fields} == expected


# --- biblatex ----------------------------------------------------------------

def test_biblatex_renames_fields_and_builds_date() -> None:
    e = Entry(
        "k", "article",
        {"author": "A, B", "title": "T", "journal": "TMLR", "year": "2026", "month": "jul", "eprint": "2602.09842",
         "archiveprefix": "arXiv", "primaryclass": "cs.LG"},
        aliases=["old"],
    )
    fields = {f.key: f.value for f in parse(render_biblatex([e]))["k"].fields}
    assert fields == {"author": "A, B", "title": "T", "journaltitle": "TMLR", "date": "2026-07",
                      "eprint": "2602.09842", "eprinttype": "arxiv", "eprintclass": "cs.LG", "ids": "old"}


def test_biblatex_keeps_booktitle_and_plain_year() -> None:
    e = Entry("k", "inproceedings", {"booktitle": "ICML", "year": "2026"})
    fields = {f.key: f.value for f in parse(render_biblatex([e]))["k"].fields}
    assert fields == {"booktitle": "ICML", "date": "2026"}


def test_biblatex_eprinttype_from_arxiv_id_without_archiveprefix() -> None:
    e = Entry("k", "misc", {"eprint": "2602.09842"}, ids=Ids(arxiv="2602.09842"))
    assert parse(render_biblatex([e]))["k"].fields_dict["eprinttype"].value == "arxiv"


def test_biblatex_drops_aliases_that_are_keys_of_written_entries() -> None:
    entries = [Entry("new", "misc", {"title": "a"}, aliases=["old", "other"]), Entry("other", "misc", {"title": "b"})]
    assert parse(render_biblatex(entries))["new"].fields_dict["ids"].value == "old"


# --- CSL-JSON --------------------------------------------------------------

def test_csl_json_item() -> None:
    e = Entry(
        "huang2026limuon", "inproceedings",
        {"author": "Monzio Compagnoni, Enea and van Breugel, Boris and Horv{\\'a}th, Samuel and {OpenAI Team}",
         "title": "{LiMuon}: Light and {Frank--Wolfe} 100\\% \\& more",
         "booktitle": "Forty-third International Conference on Machine Learning",
         "year": "2026", "month": "jul", "doi": "10.1/ABC", "url": "https://x.org", "keywords": "muon, theory"},
    )
    item = to_csl_json([e])[0]
    assert item == {
        "id": "huang2026limuon",
        "type": "paper-conference",
        "title": '<span class="nocase">LiMuon</span>: Light and <span class="nocase">Frank–Wolfe</span> 100% & more',
        "author": [
            {"family": "Monzio Compagnoni", "given": "Enea"},
            {"family": "Breugel", "given": "Boris", "non-dropping-particle": "van"},
            {"family": "Horváth", "given": "Samuel"},
            {"literal": "OpenAI Team"},
        ],
        "issued": {"date-parts": [[2026, 7]]},
        "container-title": "Forty-third International Conference on Machine Learning",
        "DOI": "10.1/ABC",
        "URL": "https://x.org",
        "keyword": "muon, theory",
    }
    json.dumps(item)  # serialisable as is


@pytest.mark.parametrize(("bibtype", "csltype"), [("article", "article-journal"), ("misc", "article"),
                                                   ("inproceedings", "paper-conference")])
def test_csl_types(bibtype: str, csltype: str) -> None:
    assert to_csl_json([Entry("k", bibtype, {"title": "x"})])[0]["type"] == csltype


def test_csl_arxiv_preprint_gets_url_from_eprint() -> None:
    e = Entry("k", "misc", {"title": "x", "eprint": "2602.09842", "archiveprefix": "arXiv", "year": "2026"})
    item = to_csl_json([e])[0]
    assert item["URL"] == "https://arxiv.org/abs/2602.09842"
    assert item["issued"] == {"date-parts": [[2026]]}


def test_csl_keeps_text_after_a_bare_percent():
    from citekit.core.model import Entry
    from citekit.output.csl import to_csl_json

    entry = Entry(key="x2026", entry_type="article", fields={"title": "60% faster training with {LoRA}", "year": "2026"})
    assert to_csl_json([entry])[0]["title"] == '60% faster training with <span class="nocase">LoRA</span>'


# --- CSL-JSON: case protection and math ------------------------------------------------------

def test_csl_title_keeps_case_protection_as_nocase_spans() -> None:
    e = Entry("wang2026olion", "inproceedings",
              {"title": r"{OLion}: Approaching the {Hadamard} Ideal by Intersecting Spectral and $\ell_\infty$ "
                        r"Implicit Biases", "year": "2026"})
    assert to_csl_json([e])[0]["title"] == (
        '<span class="nocase">OLion</span>: Approaching the <span class="nocase">Hadamard</span> Ideal by '
        'Intersecting Spectral and <span class="nocase">ℓ_∞</span> Implicit Biases')
    lions = Entry("k", "misc", {"title": r"Lions and {Muons} via {Frank--Wolfe}: 100\% \& <b> more"})
    assert to_csl_json([lions])[0]["title"] == ('Lions and <span class="nocase">Muons</span> via '
                                                '<span class="nocase">Frank–Wolfe</span>: 100% & <b> more')


@pytest.mark.parametrize(("latex", "plain"), [
    (r"$\mathrm{SE}(3)$ Synchronization", "SE(3) Synchronization"),
    (r"{$\mathrm{SE}(3)$} Synchronization", "SE(3) Synchronization"),
    (r"A$^2$-Net under $(L_0,L_1)$-Smoothness", "A²-Net under (L₀,L₁)-Smoothness"),
    (r"rate $O(\epsilon^{-3})$ and $x^{\top}$", "rate O(ϵ⁻³) and x^{⊤}"),
    (r"on $\mathscr{F}_{ab}$", r"on \mathscr{F}_{ab}"),
])
def test_plain_text_renders_math_without_losing_braces(latex: str, plain: str) -> None:
    from citekit.core.text import latex_to_text

    assert latex_to_text(latex, as_written=True) == plain


SENTENCE_CASE_STYLE = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Sentence-case titles</title><id>sentence-case</id><updated>2024-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title" text-case="sentence"/></layout></citation>
  <bibliography><layout><text variable="title" text-case="sentence"/></layout></bibliography>
</style>
"""


def test_csl_titles_render_with_pandoc_citeproc(tmp_path) -> None:
    """A sentence-case style lower-cases every word citeproc may touch: protected ones survive."""
    import shutil
    import subprocess

    if shutil.which("pandoc") is None:
        pytest.skip("pandoc is not installed")
    e = Entry("wang2026olion", "inproceedings",
              {"title": r"{OLion}: Approaching the {Hadamard} Ideal via $\ell_\infty$ \& {A$^2$} Biases",
               "author": "Wang, Zixiao", "year": "2026", "booktitle": "ICML"})
    (tmp_path / "refs.json").write_text(json.dumps(to_csl_json([e])), encoding="utf-8")
    (tmp_path / "style.csl").write_text(SENTENCE_CASE_STYLE, encoding="utf-8")
    (tmp_path / "doc.md").write_text("See @wang2026olion.\n", encoding="utf-8")
    res = subprocess.run(["pandoc", "doc.md", "--citeproc", "--bibliography", "refs.json", "--csl", "style.csl",
                          "-t", "plain"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "OLion: Approaching the Hadamard ideal via ℓ_∞ & A² biases" in text, text
    assert "span" not in text and "$" not in text
