"""Tables of papers outside Markdown: a spreadsheet pasted as tab-separated text (what a copy
from a sheet gives), with section rows, a cell in quotes over two lines and identifiers
written beside the venue."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_extract import api_mentions as _mentions



SHEET = (
    "Title\tAuthors\tVenue\n"
    "SEGMENTATION\t\t\n"
    "Fully Convolutional Networks for Semantic Segmentation\tLong, Shelhamer, Darrell\tCVPR 2015\n"
    "Mask R-CNN\tHe et al.\tICCV 2017 / arXiv 1703.06870\n"
    "\t\t\n"
    "SELF-SUPERVISED\t\t\n"
    "\"SimCLR\n(A Simple Framework for Contrastive Learning of Visual Representations)\"\tChen, Kornblith, Norouzi, Hinton\tICML 2020\n"
    "Bootstrap your own latent\tGrill et al.\tNeurIPS 2020\n"
)


@pytest.mark.parametrize("name", ["sheet.tsv", "sheet.txt"])
def test_a_pasted_sheet_is_read_as_a_table(tmp_path, name):
    mentions = _mentions(tmp_path, name, SHEET)
    got = [(m.location.line, m.title, m.authors, m.authors_incomplete) for m in mentions]
    assert got == [
        (3, "Fully Convolutional Networks for Semantic Segmentation", ["Long", "Shelhamer", "Darrell"], False),
        (4, "Mask R-CNN", ["He"], True),
        (7, "A Simple Framework for Contrastive Learning of Visual Representations", ["Chen", "Kornblith", "Norouzi", "Hinton"], False),
        (9, "Bootstrap your own latent", ["Grill"], True),
    ]
    assert mentions[1].pins.arxiv == "1703.06870"


def test_a_sheet_whose_header_names_no_title_column_is_read_as_lines(tmp_path):
    # a sheet of numbers: no column of titles, nothing taken for a paper
    text = "step\tloss\tlr\n100\t2.31\t0.001\n200\t1.97\t0.001\n"
    assert _mentions(tmp_path, "log.tsv", text) == []


def test_identifiers_in_a_venue_cell_are_the_rows_own(tmp_path):
    text = ("| Paper | Who | Where |\n|---|---|---|\n"
            "| Neural Ordinary Differential Equations | Chen et al. | NeurIPS 2018, arXiv:1806.07366 |\n"
            "| A short name of mine | Doe & Roe | arXiv 2001.01234 |\n")
    first, second = _mentions(tmp_path, "t.md", text)
    assert (first.pins.arxiv, first.year) == ("1806.07366", 2018)
    assert (second.pins.arxiv, second.year) == ("2001.01234", None)  # (no year 2001 read out of the identifier)


def test_a_row_with_its_own_author_cell_is_no_person(tmp_path):
    # ``Words words (the X paper)`` reads like ``Name Name (Affiliation)``; the row's own author cell says it is a work
    text = ("| Paper | Who | Where |\n|---|---|---|\n"
            "| Gradient noise scale (the batch size paper) | McCandlish et al. | 2018 |\n")
    (mention,) = _mentions(tmp_path, "t.md", text)
    assert (mention.title, mention.authors) == ("Gradient noise scale (the batch size paper)", ["McCandlish"])


@pytest.mark.parametrize("name,text", [
    ("t.md", "## Reading\n\n| Paper | Who | Where |\n|---|---|---|\n| Deep Sets | Zaheer et al. | NeurIPS 2017 |\n\n"
             "## Non-paper resources\n\n| Paper | Who | Where |\n|---|---|---|\n"
             "| The Illustrated Word2vec | Jay Alammar | jalammar.github.io/illustrated-word2vec |\n"
             "| Dive into Deep Learning, chapter 11 | Zhang, Lipton, Li, Smola | d2l.ai/chapter_attention |\n"
             "| Set Transformer | Lee et al. | ICML 2019, arXiv:1810.00825 |\n"),
    ("t.txt", "reading:\n- Deep Sets — Zaheer et al., NeurIPS 2017\n\nextras, not papers:\n"
              "- \"The Illustrated Word2vec\" — Jay Alammar, 2019\n"
              "- Dive into Deep Learning, chapter 11 — Zhang, Lipton, Li, Smola\n"
              "- Set Transformer — Lee et al., arXiv:1810.00825\n"),
])
def test_a_section_that_says_it_lists_no_papers(tmp_path, name, text):
    # the writer's own words say the items are no papers; one that gives an identifier still is
    titles = [m.title for m in _mentions(tmp_path, name, text)]
    assert titles == ["Deep Sets", "Set Transformer"]


def test_a_title_cell_that_cites_its_authors_is_read_by_the_citation(tmp_path):
    # a schedule's "who" names the presenter: the citation in the title cell says who wrote the paper
    text = ("| Week | Paper | Who |\n|---|---|---|\n"
            "| 2 | the GShard paper (Lepikhin et al. 2020) | Noor |\n")
    mentions = _mentions(tmp_path, "t.md", text)
    assert [(m.authors, m.year) for m in mentions] == [(["Lepikhin"], 2020)]


@pytest.mark.parametrize("cell,title", [
    ("Swin / shifted windows (Hierarchical Vision Transformer using Shifted Windows)", "Hierarchical Vision Transformer using Shifted Windows"),
    ("GPT-2 / WebText LM (Language Models are Unsupervised Multitask Learners)", "Language Models are Unsupervised Multitask Learners"),
])
def test_names_joined_by_slashes_before_the_title_in_brackets(tmp_path, cell, title):
    # the names a paper goes by, then what it is called
    text = f"| Paper | Who | Where |\n|---|---|---|\n| {cell} | Someone et al. | 2021 |\n"
    (mention,) = _mentions(tmp_path, "t.md", text)
    assert mention.title == title


def test_a_sheet_pasted_into_markdown_is_read_as_a_table(tmp_path):
    text = "# Reading list\n\nintro line, nothing to read here.\n\n## Vision\n\n" + SHEET + "\n## Later\n\n- Deep Sets — Zaheer et al., NeurIPS 2017\n"
    mentions = _mentions(tmp_path, "list.md", text)
    got = [(m.location.line, m.title, m.authors) for m in mentions]
    assert got == [
        (9, "Fully Convolutional Networks for Semantic Segmentation", ["Long", "Shelhamer", "Darrell"]),
        (10, "Mask R-CNN", ["He"]),
        (13, "A Simple Framework for Contrastive Learning of Visual Representations", ["Chen", "Kornblith", "Norouzi", "Hinton"]),
        (15, "Bootstrap your own latent", ["Grill"]),
        (19, "Deep Sets", ["Zaheer"]),
    ]
    assert [m.section for m in mentions] == ["SEGMENTATION", "SEGMENTATION", "SELF-SUPERVISED", "SELF-SUPERVISED", "Later"]


def test_a_sheet_in_a_code_block_is_code(tmp_path):
    text = "# Data\n\n```\n" + SHEET + "```\n"
    assert _mentions(tmp_path, "data.md", text) == []
