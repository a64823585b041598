"""Papers written as labelled records (``论文:`` / ``作者:`` / ``제목:`` / ``저자:`` lines, one
paragraph per paper): the author label's value ends at the names, whatever is written after
them or on the next line (a venue and its year, an identifier under a "source" label)."""

from __future__ import annotations

import pytest

from tests.helpers_extract import api_mentions as _mentions


@pytest.mark.parametrize("value,authors,incomplete,year", [
    ("Vaswani 等, NeurIPS 2017", ["Vaswani"], True, 2017),
    ("Kipf, Welling (ICLR 2017)", ["Kipf", "Welling"], False, 2017),
    ("Kipf, Welling, ICLR 2017", ["Kipf", "Welling"], False, 2017),
    ("Graves 외, ICASSP 2013", ["Graves"], True, 2013),
    ("Bengio, LeCun 2015", ["Bengio", "LeCun"], False, 2015),
])
def test_a_venue_after_the_names_of_an_author_label(tmp_path, value, authors, incomplete, year):
    text = f"## 第3周\n\n论文:《Some Made-Up Paper Title About Graphs》\n作者: {value}\n"
    (mention,) = _mentions(tmp_path, "notes.md", text)
    assert (mention.authors, mention.authors_incomplete, mention.year) == (authors, incomplete, year)


def test_an_unlabelled_venue_line_below_the_authors_is_no_more_names(tmp_path):
    # CommonMark joins the lines of a record into one paragraph; a complete author list does
    # not go on onto the line below it (that is the venue), a note's prose does
    text = ("## 4주차\n\n"
            "제목: 「Graph Attention Networks」\n"
            "저자: Veličković, Cucurull, Casanova\n"
            "ICLR 2018\n\n"
            "论文:《Semi-Supervised Classification with Graph Convolutional Networks》\n"
            "作者: Kipf, Welling\n"
            "ICLR 2017 — 图卷积的经典\n")
    got = [(m.title, m.authors) for m in _mentions(tmp_path, "notes.md", text)]
    assert got == [("Graph Attention Networks", ["Veličković", "Cucurull", "Casanova"]),
                   ("Semi-Supervised Classification with Graph Convolutional Networks", ["Kipf", "Welling"])]


def test_a_wrapped_author_list_and_a_wrapped_note_still_go_on(tmp_path):
    text = ("论文:《Graph Attention Networks》\n"
            "作者: Veličković, Cucurull,\n"
            "Casanova, Romero\n"
            "笔记: 注意力加在邻居上,\n"
            "多头拼接\n")
    (mention,) = _mentions(tmp_path, "notes.md", text)
    assert mention.authors == ["Veličković", "Cucurull", "Casanova", "Romero"]
    assert mention.summary == "注意力加在邻居上, 多头拼接"


@pytest.mark.parametrize("label", ["出处", "出處", "来源", "출처"])
def test_a_source_label_gives_the_venue_and_the_identifier(tmp_path, label):
    text = ("论文:《Graph Attention Networks》\n"
            "作者: Veličković, Cucurull, Casanova\n"
            f"{label}: ICLR 2018, arXiv:1710.10903\n")
    (mention,) = _mentions(tmp_path, "notes.md", text)
    assert (mention.authors, mention.year, mention.ids.arxiv) == (["Veličković", "Cucurull", "Casanova"], 2018, "1710.10903")
