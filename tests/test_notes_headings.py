"""Headings that are papers on their own (org and Markdown): a linked title, a bare paper
URL, a title followed by an unlabelled author line; to-read markers are not title text."""

from __future__ import annotations

import pytest

from citekit.notes.extract import explain_text, extract_text

ORG = """#+TITLE: reading
* Reading list
** TODO Read [[https://arxiv.org/abs/2305.18290][Direct Preference Optimization]]
** https://arxiv.org/abs/2106.09685
** Tree of Thoughts: Deliberate Problem Solving with Large Language Models
   Shunyu Yao, Dian Yu, Jeffrey Zhao
** DONE [[https://openreview.net/forum?id=H1gax6VtDB][Reformer: The Efficient Transformer]] :efficiency:
** Meeting with the group
   bring slides
"""

MARKDOWN = """# Reading list

## Read [Direct Preference Optimization](https://arxiv.org/abs/2305.18290)

## https://arxiv.org/abs/2106.09685

## Tree of Thoughts: Deliberate Problem Solving with Large Language Models
Shunyu Yao, Dian Yu, Jeffrey Zhao

## [Reformer: The Efficient Transformer](https://openreview.net/forum?id=H1gax6VtDB) #efficiency

## Meeting with the group
bring slides
"""


@pytest.mark.parametrize("name,text,first", [("list.org", ORG, 3), ("list.md", MARKDOWN, 3)])
def test_paper_headings(name, text, first):
    mentions = extract_text(text, name).mentions
    assert [m.title for m in mentions] == [
        "Direct Preference Optimization", None,
        "Tree of Thoughts: Deliberate Problem Solving with Large Language Models",
        "Reformer: The Efficient Transformer",
    ]
    assert mentions[0].location.line == first
    assert mentions[0].ids.arxiv == "2305.18290"
    assert mentions[1].ids.arxiv == "2106.09685"
    assert mentions[2].authors == ["Shunyu Yao", "Dian Yu", "Jeffrey Zhao"]
    assert mentions[3].ids.openreview == "H1gax6VtDB"
    assert "efficiency" in mentions[3].hashtags


@pytest.mark.parametrize("name,text", [("list.org", ORG), ("list.md", MARKDOWN)])
def test_explain_lists_paper_headings(name, text):
    decisions, _ = explain_text(text, name)
    assert sum(d.outcome == "mention" for d in decisions) == 4


def test_org_link_to_a_note_is_not_a_paper():
    text = "* Notes\n** [[file:meeting.org][Meeting notes 2026-05-01]]\n** [[Weekly sync]]\n"
    assert extract_text(text, "n.org").mentions == []


@pytest.mark.parametrize("line,title", [
    ('Read later: "Why Warmup the Learning Rate?" by Dayal Singh Kalra, Maissam Barkeshli', "Why Warmup the Learning Rate?"),
    ("To read — Why Warmup the Learning Rate? — Dayal Singh Kalra, Maissam Barkeshli", "Why Warmup the Learning Rate?"),
    ("TODO: Scaling Exponents Across Parameterizations — Katie Everett, Lechao Xiao", "Scaling Exponents Across Parameterizations"),
    ("あとで読む: Scaling Exponents Across Parameterizations — Katie Everett, Lechao Xiao", "Scaling Exponents Across Parameterizations"),
    ("読む：「Why Warmup the Learning Rate?」 — Dayal Singh Kalra, Maissam Barkeshli", "Why Warmup the Learning Rate?"),
])
@pytest.mark.parametrize("name", ["r.md", "r.txt"])
def test_to_read_markers_are_not_title_text(line, title, name):
    mentions = extract_text(f"- {line}\n", name).mentions
    assert [m.title for m in mentions] == [title]
    assert mentions[0].authors


def test_an_org_drawer_title_is_the_papers_title_under_its_short_name_heading():
    """``** DONE LRM`` with ``:TITLE:`` in its drawer: the heading is what the writer calls
    the paper, the drawer's title what it is called; one paper, with the drawer's details."""
    text = ("* Reading\n** DONE LRM\n   CLOSED: [2024-02-14 Wed 23:55]\n   :PROPERTIES:\n"
            "   :TITLE:    Sparse Gating in Translation Models\n   :AUTHORS:  Okafor, Lindqvist, Mbeki\n"
            "   :URL:      https://arxiv.org/abs/2101.01234\n   :END:\n   - remark on it\n")
    (mention,) = extract_text(text, "reading.org").mentions
    assert (mention.title, mention.authors) == ("Sparse Gating in Translation Models", ["Okafor", "Lindqvist", "Mbeki"])


def test_heading_takes_its_link_across_the_blank_line_below_it() -> None:
    # Markdown puts a blank line under a heading: a paper's page of details after it still
    # belongs to the heading, and its link's label is never the title
    text = ("## Sparse Mixtures of Gated Experts for Tabular Forecasting\n\n"
            "- URL: https://arxiv.org/abs/2301.04567\n- read: yes\n")
    mentions = extract_text(text, "page.md").mentions
    assert [(m.title, m.ids.arxiv) for m in mentions] == [
        ("Sparse Mixtures of Gated Experts for Tabular Forecasting", "2301.04567")]


def test_links_under_a_list_heading_stand_alone_without_their_label_as_title() -> None:
    text = "## Reading list\n\n- URL: https://arxiv.org/abs/2301.04567\n- arXiv: 2209.01234\n"
    mentions = extract_text(text, "list.md").mentions
    assert [(m.title, m.ids.arxiv) for m in mentions] == [(None, "2301.04567"), (None, "2209.01234")]
