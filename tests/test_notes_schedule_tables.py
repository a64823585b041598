"""Tables of papers whose "who" column names the presenter (a reading group's schedule) or
the authors (a list of posters to see), and whose "where" column names a venue or the event
a paper is shown at: the column's cells decide what it names, the title cell's citation
gives the authors where no column does."""

from __future__ import annotations

import pytest

from tests.helpers_extract import api_mentions as _mentions

SCHEDULE = (
    "| # | Paper | Who | Where |\n|---|---|---|---|\n"
    "| 1 | Neural Ordinary Differential Equations | Ana | NeurIPS '18 |\n"
    "| 2 | GAT walkthrough (Veličković et al. 2018) — focus on sec 2 | bo | ICLR 2018 |\n"
    "| 3 | Kingma & Welling 2014 — Auto-Encoding Variational Bayes | Chidi (guest) | ICLR 2014 |\n"
    "| 4 | Adam (Kingma & Ba 2015) then RAdam (Liu et al. 2020) back to back | Ana / Chidi | arXiv only |\n"
    "| 5 | Deep Sets | ??? need volunteer | NeurIPS 2017 |\n"
)


def test_a_schedules_presenters_are_no_authors(tmp_path):
    got = [(m.location.line, m.title, m.authors, m.authors_incomplete) for m in _mentions(tmp_path, "rg.md", SCHEDULE)]
    assert got == [
        (3, "Neural Ordinary Differential Equations", [], False),
        (4, "GAT walkthrough", ["Veličković"], True),
        (5, "Auto-Encoding Variational Bayes", ["Kingma", "Welling"], False),
        (6, None, ["Kingma", "Ba"], False),
        (6, None, ["Liu"], True),
        (7, "Deep Sets", [], False),
    ]


def test_a_who_column_of_author_lists_is_still_the_authors(tmp_path):
    text = ("| Paper | Who | Where |\n|---|---|---|\n"
            "| Graph Attention Networks | Veličković et al. | ICLR 2018 |\n"
            "| Deep Sets | Zaheer | NeurIPS 2017 |\n"
            "| Semi-Supervised Classification with Graph Convolutional Networks | Kipf & Welling | ICLR 2017 |\n")
    got = [m.authors for m in _mentions(tmp_path, "posters.md", text)]
    assert got == [["Veličković"], ["Zaheer"], ["Kipf", "Welling"]]


@pytest.mark.parametrize("where", ["panel, Hall B", "GNN tutorial Tue PM, 1710.10903"])
def test_the_event_a_paper_is_shown_at_is_no_kind(tmp_path, where):
    # the "where" of a poster list: the panel or tutorial the paper comes up in, with its authors given
    text = ("Paper\tWho\tWhere\n"
            f"Graph Attention Networks\tVeličković, Cucurull, Casanova\t{where}\n"
            "GNN tutorial recording\tHamilton\tYouTube\n")
    got = [(m.title, m.authors) for m in _mentions(tmp_path, "sheet.tsv", text)]
    assert got == [("Graph Attention Networks", ["Veličković", "Cucurull", "Casanova"])]


def test_a_title_cell_still_to_fill_in_is_no_paper(tmp_path):
    text = ("| Week | Paper | Presenter |\n|---|---|---|\n"
            "| 1 | Graph Attention Networks | Ana |\n"
            "| 2 | TBD — see the vote below | — |\n"
            "| 3 | ??? (someone pick an RL one) | Bo |\n")
    assert [m.title for m in _mentions(tmp_path, "rg.md", text)] == ["Graph Attention Networks"]


def test_a_vote_on_candidates_reads_the_rows_that_are_papers(tmp_path):
    # the first column names what is put forward to read; who proposed it and the votes are no paper columns
    text = ("| Candidate | Proposed by | Votes |\n| --- | --- | --- |\n"
            "| SimPO: Simple Preference Optimization with a Reference-Free Reward | Ana | 3 |\n"
            "| Scalable agent alignment via reward modeling (Leike et al. 2018) | Bo | 2 |\n"
            "| something on reward hacking maybe? | Chidi | 1 |\n")
    got = [(m.title, m.authors) for m in _mentions(tmp_path, "vote.md", text)]
    assert got == [("SimPO: Simple Preference Optimization with a Reference-Free Reward", []),
                   ("Scalable agent alignment via reward modeling", ["Leike"])]


@pytest.mark.parametrize("header", ["| 论文 / 제목 | 推荐人 / 추천 | 备注 |", "| Paper / 論文 | 推薦 | Notes |"])
def test_a_column_named_in_two_languages(tmp_path, header):
    text = (f"{header}\n|---|---|---|\n"
            "| 《Graph Attention Networks》 Veličković, Cucurull, Casanova 2018 | 王磊 | arXiv 1710.10903 |\n"
            "| GraphSAGE (Hamilton 等, 2017) | 陈思 | 可以跑一下 |\n")
    got = [(m.title, m.authors, m.year) for m in _mentions(tmp_path, "next.md", text)]
    assert got == [("Graph Attention Networks", ["Veličković", "Cucurull", "Casanova"], 2018),
                   ("GraphSAGE", ["Hamilton"], 2017)]



NAMED = (
    "## Reading list (view: all)\n\n"
    "| Name | Authors | Status | Year |\n| --- | --- | --- | --- |\n"
    "| curriculum sampling for long-tailed detection | Ingrid Mahlangu, Tobias Ferreira | To read | 2020 |\n"
    "| Weekly sync | Lab | Done | 2023 |\n"
    "| Beam search cookbook | Rafael Q. | Done | 2022 |\n"
)


def test_a_row_whose_authors_are_people_is_a_paper_when_the_finder_reads_no_title(tmp_path, monkeypatch):
    from citekit.notes.finder.model import LineLabel
    from citekit.notes.formats import tables

    def finder_reads_no_paper(rows, *, ask=True):  # as the finder reads a title in lower case
        return [None] * (len(rows) - 1), [LineLabel("other", 0.9)] * (len(rows) - 1)

    monkeypatch.setattr(tables, "_rows_said", finder_reads_no_paper)
    got = [(m.location.line, m.title, m.authors) for m in _mentions(tmp_path, "list.md", NAMED)]
    assert got == [(5, "curriculum sampling for long-tailed detection", ["Ingrid Mahlangu", "Tobias Ferreira"])]



def test_an_aside_set_off_by_dashes_in_a_title_cell_is_no_paper(tmp_path):
    table = ("| Date | Paper | Who | Where |\n|---|---|---|---|\n"
             "| Oct 3 | Neural Ordinary Differential Equations | Ana | NeurIPS '18 |\n"
             "| Oct 10 | Deep Sets | Bo | NeurIPS 2017 |\n"
             "| Oct 17 | — winter recess — | | |\n"
             "| Oct 24 | Graph Attention Networks | Chidi | ICLR 2018 |\n")
    got = [m.location.line for m in _mentions(tmp_path, "rg.md", table)]
    assert got == [3, 4, 6]


def test_a_title_with_its_short_name_in_brackets_is_no_person_and_affiliation(tmp_path):
    table = ("| Date | Paper | Where |\n|---|---|---|\n"
             "| Oct 3 | Learning Sparse Routers through Expert Dropout (SpRoute) | arXiv |\n"
             "| Oct 10 | Deep Sets | NeurIPS 2017 |\n")
    got = [(m.location.line, m.title) for m in _mentions(tmp_path, "rg.md", table)]
    assert (3, "Learning Sparse Routers through Expert Dropout") in got  # (its short name is no part of the title)


def test_presenters_taking_turns_and_a_guest_written_out_are_still_presenters(tmp_path):
    table = ("| Date | Paper | Who | Where |\n|---|---|---|---|\n"
             "| Oct 3 | Neural Ordinary Differential Equations | Ana | NeurIPS '18 |\n"
             "| Oct 10 | Deep Sets (Zaheer et al.) | Bo + Chidi | NeurIPS 2017 |\n"
             "| Oct 17 | Graph Attention Networks | Chidi | ICLR 2018 |\n"
             "| Oct 24 | Gated Graph Sequence Neural Networks | guest: Dr. Mensah (Oxford) | ICLR 2016 |\n"
             "| Oct 31 | Relational Inductive Biases | Ana | arXiv |\n")
    got = {m.location.line: (m.title, m.authors) for m in _mentions(tmp_path, "rg.md", table)}
    assert got[3] == ("Neural Ordinary Differential Equations", [])
    assert got[4] == ("Deep Sets", ["Zaheer"])
    assert got[6] == ("Gated Graph Sequence Neural Networks", [])


def test_a_short_name_in_brackets_after_a_title_is_no_part_of_it(tmp_path) -> None:
    from tests.helpers_extract import mentions_by_line

    got = mentions_by_line(tmp_path, "| Date | Paper | Who | Where |\n| --- | --- | --- | --- |\n"
                           "| Apr 4 | Sparse Routing for Cheap Mixture Experts (SparseMoE3) | Ada | arXiv |\n"
                           "| Apr 11 | Quiet Gradients in Shallow Networks (2019) | Ben | arXiv |\n")
    assert got[3][0]["title"] == "Sparse Routing for Cheap Mixture Experts"
