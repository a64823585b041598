"""What a reference list cites that is no paper (software, its documentation, a corpus, a
deposit of code or data), what a line says is no paper, and remarks that are no title:
general signals, each on lines made up for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit import api


def _found(tmp_path: Path, text: str, name: str = "notes.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return api.extract([path], start=tmp_path).mentions


PAPER = ("Hana Obi, Lukas Moreau, and Ines Keller. Sparse routing with learned temperatures.\n"
         "   In International Conference on Machine Learning, 2021.\n")


def test_a_link_cut_by_the_wrap_is_read_whole_and_a_code_link_makes_it_software(tmp_path: Path) -> None:
    """``URL http:`` / ``//github.com/…``: the repository link is read whole, so the
    reference, which names no venue, is software and not a paper."""
    found = _found(tmp_path, PAPER + "Rosa Tanaka, Omar Vasquez, and Mia Lindqvist. Quokka: fast sparse kernels for\n"
                   "   accelerators, 2020. URL http:\n   //github.com/quokka-dev/quokka.\n")
    assert [m.title for m in found] == ["Sparse routing with learned temperatures"]


def test_a_documentation_page_cut_by_the_wrap_is_no_paper(tmp_path: Path) -> None:
    found = _found(tmp_path, "[1] H. Obi and L. Moreau, “Sparse routing with learned temperatures,” in Proc. ICML, 2021.\n"
                   "[2] Quokka Developers, “quokka.nn — Quokka 3.2 docu-\nmentation,” 2024. [Online]. Available: https://quokka.dev/\n"
                   "docs/stable/nn.html\n")
    assert [m.title for m in found] == ["Sparse routing with learned temperatures"]


def test_a_reference_with_a_zenodo_doi_alone_is_a_release(tmp_path: Path) -> None:
    found = _found(tmp_path, PAPER + "Rosa Tanaka and Omar Vasquez. A harness for evaluating sparse routers, March 2022.\n"
                   "   URL https://doi.org/10.5281/zenodo.1234567.\n")
    assert [m.title for m in found] == ["Sparse routing with learned temperatures"]


@pytest.mark.parametrize("title, kept", [
    ("WikiPlus corpus", False),
    ("Quokka 3.2 documentation", False),
    ("A large annotated corpus for learning sparse routing", True),
])
def test_a_reference_whose_title_names_a_corpus_or_its_documentation_is_no_paper(tmp_path: Path, title: str, kept: bool) -> None:
    found = _found(tmp_path, f"\\begin{{thebibliography}}{{9}}\n\\bibitem{{x}}\nR.~Tanaka and O.~Vasquez.\n\\newblock {title}.\n"
                   "\\newblock \\url{https://rtanaka.github.io/thing}, 2019.\n\\end{thebibliography}\n", name="draft.tex")
    assert [m.title for m in found] == ([title] if kept else [])


def test_a_corpus_described_in_a_preprint_is_a_paper(tmp_path: Path) -> None:
    found = _found(tmp_path, "Rosa Tanaka and Omar Vasquez. The WikiPlus corpus. arXiv preprint, 2019.\n")
    assert [m.title for m in found] == ["The WikiPlus corpus"]


def test_a_citation_the_line_then_says_is_no_paper_is_not_taken(tmp_path: Path) -> None:
    found = _found(tmp_path, "- rereading Lessons in Scale (Vasquez, 2018) again. it's an essay, not a paper\n"
                   "- the blog tool is not a paper, but Sparse Routers (Obi et al., 2021) is\n", name="notes.md")
    assert [(m.authors, m.year) for m in found] == [(["Obi", "et al."], 2021)] or \
        [(m.authors[:1], m.year) for m in found] == [(["Obi"], 2021)]


def test_names_and_a_venue_then_remarks_are_a_citation_with_no_title(tmp_path: Path) -> None:
    found = _found(tmp_path, "## Week 4\n\nObi, Moreau & Keller, ICML 2021. Learns one temperature per expert, routing is "
                   "annealed over training. Works without load balancing at all.\n", name="notes.md")
    assert len(found) == 1 and found[0].title is None
    assert [a.split()[0] for a in found[0].authors] == ["Obi", "Moreau", "Keller"]


def test_names_then_a_clause_are_no_title(tmp_path: Path) -> None:
    found = _found(tmp_path, "% (ii) also: Lindqvist et al. say routing mostly helps the later layers -- cite\n", name="draft.tex")
    assert all(m.title is None for m in found)


def test_a_possessive_before_a_quoted_title_names_its_author(tmp_path: Path) -> None:
    found = _found(tmp_path, "- we should also read Vasquez's \"Temperature Annealing for Sparse Expert Routing\" this week\n",
                   name="notes.md")
    assert [(m.title, m.authors) for m in found] == [("Temperature Annealing for Sparse Expert Routing", ["Vasquez"])]


def test_a_highlight_with_its_links_is_no_pasted_abstract(tmp_path: Path) -> None:
    """A Zotero highlight is short prose; the addresses of its two links do not make it an abstract."""
    line = ("“we propose a simple procedure that learns the routing temperature jointly with the experts. It needs no "
            "auxiliary loss. Routing stays stable.” "
            "([Obi et al., 2021, p. 2](zotero://select/library/items/ABCD1234)) "
            "([pdf](zotero://open-pdf/library/items/EFGH5678?page=2&annotation=IJKL9012)) cf. Moreau et al. 2019\n")
    found = _found(tmp_path, line, name="notes.md")
    assert all(m.kind != "abstract" for m in found)
    assert sorted(m.authors[0].split()[0] for m in found) == ["Moreau", "Obi"]


def test_two_names_joined_by_an_arrow_are_no_title(tmp_path: Path) -> None:
    """``S4 → Mamba`` in a reading list's title column is a step from one paper to another,
    and ``A (Keller et al.) + B`` two papers read together, not one title; a trip written in airport codes stays an event, a word's end is no code."""
    from citekit.notes.shapes import looks_like_event

    found = _found(tmp_path, "| Week | Paper | Presenter |\n|---|---|---|\n| 1 | Sparse Routers → Dense Routers Revisited | Obi |\n"
                   "| 2 | Learning Routing Temperatures for Sparse Experts | Moreau |\n"
                   "| 3 | Temperature Scaling (Keller et al.) + Top-2 Gating | Obi |\n", name="notes.md")
    assert [m.title for m in found if m.title] == ["Learning Routing Temperatures for Sparse Experts"]
    assert looks_like_event("HND → GMP") and not looks_like_event("Transformer → Ring Attention")


@pytest.mark.parametrize("line", [
    "Tanaka, R., & Vasquez, O. (2022). Quokka: Sparse kernels for accelerators (Version 2.1) [Computer software]. "
    "https://doi.org/10.9999/quokka.21",
    "Obi, H., & Moreau, L. (2021). Routing traces of sparse experts [Data set]. Example University.",
    "[4] R. Tanaka and O. Vasquez, “Quokka: sparse kernels,” GitHub repository, 2020.",
])
def test_a_reference_that_says_it_is_software_or_data_is_no_paper(tmp_path: Path, line: str) -> None:
    assert _found(tmp_path, PAPER + line + "\n") == _found(tmp_path, PAPER)


def test_a_highlight_quoting_several_titles_is_the_last_one_and_cites_the_others(tmp_path: Path) -> None:
    """A note that quotes a highlight, cites one paper by name and ends on another's quoted
    title and identifier: that title is the line's paper (not the line joined), and the
    citation is a mention of its own."""
    line = ("“the usual routing recipe” i.e. SparseNet (Obi et al. 2021, “Sparse Routing with Learned Temperatures”) "
            "+ balancing from Moreau, Keller & Tanaka 2019 (“Load Balancing Losses for Expert Layers”, arXiv:1901.01234)\n")
    found = _found(tmp_path, line, name="notes.md")
    own = [m for m in found if m.ids.arxiv]
    assert [m.title for m in own] == ["Load Balancing Losses for Expert Layers"]
    assert any(m.authors and m.authors[0].split()[0] == "Obi" for m in found)


@pytest.mark.parametrize("line, authors, incomplete", [
    ("- Hana: SR2 (“Sparse Routing Two: Faster Experts with Better Balancing”, Obi 2023) fixes the balancing", ["Obi"], False),
    ("- see “Sparse Routing Two: Faster Experts with Better Balancing”, Obi et al., 2023 for the kernels", ["Obi"], True),
])
def test_a_name_and_year_after_a_quoted_title_are_its_citation(tmp_path: Path, line: str, authors: list[str], incomplete: bool) -> None:
    found = _found(tmp_path, line + "\n", name="notes.md")
    assert [(m.title, m.authors, m.authors_incomplete, m.year) for m in found] == [
        ("Sparse Routing Two: Faster Experts with Better Balancing", authors, incomplete, 2023)]


@pytest.mark.parametrize("line", [
    "- 《稀疏专家路由导论》 课程, 王小明\n  - Summary: 路由温度的基础知识.\n",
    "- 스파스 라우팅 강의 — 김민지\n  - Summary: 라우팅 온도의 기초.\n",
])
def test_a_course_or_lecture_named_in_chinese_or_korean_is_no_paper(tmp_path: Path, line: str) -> None:
    assert _found(tmp_path, line, name="notes.md") == []


@pytest.mark.parametrize("line, title", [
    ("- Keller, Moreau & Obi, A Simple Baseline for Sparse Routing (ICML 2021)", "A Simple Baseline for Sparse Routing"),
    ("- Tanaka & Vasquez, An Empirical Study of Expert Collapse (ICLR 2022)", "An Empirical Study of Expert Collapse"),
])
def test_the_article_after_a_citations_names_opens_the_title(tmp_path: Path, line: str, title: str) -> None:
    """``Fam, Fam & Fam, A Title (VENUE YEAR)``: "A" is the title's first word, not an initial."""
    found = _found(tmp_path, line + "\n", name="notes.md")
    assert [m.title for m in found] == [title]


@pytest.mark.parametrize("url", [
    "https://arxiv.org/list/cs.LG/recent",
    "arxiv.org/a/obi_h_1",
    "https://proceedings.mlr.press/v202/",
    "https://proceedings.neurips.cc/paper_files/paper/2023",
    "https://dl.acm.org/profile/81100000000",
])
def test_a_paper_sites_listing_or_author_page_is_no_paper(tmp_path: Path, url: str) -> None:
    found = _found(tmp_path, f"- https://arxiv.org/abs/2101.01234\n- {url}\n", name="notes.md")
    assert [m.ids.arxiv for m in found] == ["2101.01234"]


@pytest.mark.parametrize(("line", "kept"), [
    ("- Hana Obi's “Sparse Routing Tricks for Large Mixture Models” post as a survey week?", False),
    ("- Hana Obi, \"What Are Sparse Mixture Models?\" (hanaobi.github.io, 2021) — best single overview", False),
    ("7/ bonus: Ines Keller's \"Scaling Sparse Routing to Many Experts\" talk and the lecture notes", False),
    # the same titles cited as papers stay papers
    ("- Hana Obi's “Sparse Routing Tricks for Large Mixture Models” paper as a survey week?", True),
    ("- Hana Obi, \"What Are Sparse Mixture Models?\" (ICML 2021) — best single overview", True),
])
def test_a_quoted_title_the_line_calls_a_post_talk_or_site_is_no_paper(tmp_path: Path, line: str, kept: bool) -> None:
    found = _found(tmp_path, line + "\n")
    assert bool([m for m in found if m.title]) is kept, [m.title for m in found]


def test_a_publisher_and_year_inside_a_reference_are_no_second_paper(tmp_path: Path) -> None:
    text = ("\\begin{thebibliography}{1}\n"
            "\\bibitem[Obi and Moreau(1988)]{obi1988development}\n"
            "Hana~G. Obi and Lukas~E. Moreau.\n"
            "\\newblock Development of {SPR-X} (Sparse Routing Index): Results of empirical and\n"
            "  theoretical research.\n"
            "\\newblock In \\emph{Human Routing Load}, volume~52 of \\emph{Advances in Routing}, pages 139--183. North-Holland, 1988.\n"
            "\\end{thebibliography}\n")
    found = _found(tmp_path, text, "draft.tex")
    assert [(m.authors, m.year) for m in found] == [(["Hana G. Obi", "Lukas E. Moreau"], 1988)]


@pytest.mark.parametrize("line", [
    "- Obi et al., SOSP ’23. KV cache as virtual-memory pages + block tables, near-zero fragmentation",
])
def test_names_and_a_venue_then_one_remark_are_a_citation_with_no_title(tmp_path: Path, line: str) -> None:
    found = _found(tmp_path, "## Week 8\n\n" + line + "\n", name="notes.md")
    assert [(m.title, m.authors[:1]) for m in found] == [(None, [line.split()[1]])]


def test_a_chat_apps_note_under_a_message_is_no_paper(tmp_path: Path) -> None:
    text = ("Hana Obi  8:55 AM\n"
            "reminder: the routing reading list for the new students is pinned\n"
            "Pinned by Hana Obi\n"
            "Shared by Lukas Moreau\n")
    assert [m.title for m in _found(tmp_path, text, "slack_routing.txt")] == []


def test_an_email_signature_cites_nothing(tmp_path: Path) -> None:
    text = ("From: Hana Obi <hana@uni.edu>\n"
            "Subject: Fwd: routing reading list\n\n"
            "- Obi, Moreau & Keller, \"Sparse Routing with Learned Temperatures\" (ICML 2021)\n\n"
            "--\n"
            "Hana Obi\n"
            "Senior Lecturer, Statistics\n"
            "\"All Models Are Wrong But Some\" -- yes, we know.\n")
    found = _found(tmp_path, text, "fwd_reading.eml.txt")
    assert [m.title for m in found] == ["Sparse Routing with Learned Temperatures"]
    assert found[0].location.line == 4


def test_a_table_cell_left_to_fill_in_names_no_authors(tmp_path: Path) -> None:
    text = ("| Paper | Who | Where |\n|---|---|---|\n"
            "| ??? Aiko's rec on routing + CLIP | ? | ? |\n"
            "| Sparse Routing with Learned Temperatures | Obi, Moreau & Keller | ICML 2021 |\n")
    found = _found(tmp_path, text, "reading-list.md")
    assert [(m.title, m.authors) for m in found] == [("Sparse Routing with Learned Temperatures", ["Obi", "Moreau", "Keller"])]
