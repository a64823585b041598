"""A line that links a paper (or gives its identifier) and cites its authors beside the paper's
name: the citation is the paper's own author list, and the name its title."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_extract import api_mentions as _mentions



@pytest.mark.parametrize("line,title,authors,incomplete", [
    ("- also: [Neural Architecture Search with Reinforcement Learning](https://arxiv.org/abs/1611.01578) (Zoph & Le) — the expensive original",
     "Neural Architecture Search with Reinforcement Learning", ["Zoph", "Le"], False),
    ("- DARTS (Liu, Simonyan, Yang) — continuous relaxation of the search space. https://arxiv.org/abs/1806.09055",
     "DARTS", ["Liu", "Simonyan", "Yang"], False),
    ("- updates via TRPO (Schulman et al., ICML 2015, arXiv:1502.05477), δ=0.01", None, ["Schulman"], True),
    ("- NAO: Luo et al. 2018 (arXiv 1808.07233) — encoder, predictor, decoder", None, ["Luo"], True),
])
def test_the_citation_beside_a_linked_paper_is_its_own(tmp_path, line, title, authors, incomplete):
    (mention,) = _mentions(tmp_path, "n.md", line + "\n")
    assert (mention.authors, mention.authors_incomplete) == (authors, incomplete)
    if title is not None:
        assert mention.title == title


def test_a_citation_before_the_link_is_another_papers(tmp_path):
    # the line builds on one paper and links another: the citation is not the linked paper's
    text = "- follow-up to Zoph et al. 2017: [Learning Transferable Architectures for Scalable Image Recognition](https://arxiv.org/abs/1707.07012)\n"
    linked = [m for m in _mentions(tmp_path, "n.md", text) if m.urls]
    assert len(linked) == 1 and linked[0].authors == []


@pytest.mark.parametrize("line,title,authors,incomplete", [
    ("• Okafor et al. SPARK paper https://arxiv.org/abs/2101.01234", "SPARK paper", ["Okafor"], True),
    ("• Lindqvist & Mbeki, the routing one: https://arxiv.org/abs/2102.04321", "the routing one", ["Lindqvist", "Mbeki"], False),
    # the paper's short name first, a dash or colon, then the citation
    ("- [SGT -- Okafor et al. 2021](https://arxiv.org/abs/2101.01234)", "SGT", ["Okafor"], True),
    ("- SGT — Okafor et al. 2021 https://arxiv.org/abs/2101.01235", "SGT", ["Okafor"], True),
    ("- SGT: Okafor & Lindqvist, ICLR 2021, arXiv:2101.01236", "SGT", ["Okafor", "Lindqvist"], False),
])
def test_a_citation_opening_a_linking_line_is_the_linked_papers(tmp_path, line, title, authors, incomplete):
    """A chat line that names the authors first, then the paper's short name or a word on it,
    then its link: the names are the linked paper's authors, not part of its title."""
    (mention,) = _mentions(tmp_path, "chat.txt", "ideas for next week:\n" + line + "\n")
    assert (mention.title, mention.authors, mention.authors_incomplete) == (title, authors, incomplete)


def test_a_citation_opening_a_line_that_links_nothing_is_left_to_the_citation_rules(tmp_path):
    mentions = _mentions(tmp_path, "chat.txt", "ideas for next week:\n• Okafor et al. on sparse routing, worth a look\n")
    assert all(m.title is None for m in mentions)


def test_an_org_link_heading_naming_its_paper_and_authors(tmp_path):
    text = "* Reading\n** WAITING [[https://arxiv.org/abs/2101.01234][SGT -- Okafor et al. 2021]]\n   - waiting on a copy\n"
    (mention,) = _mentions(tmp_path, "reading.org", text)
    assert (mention.title, mention.authors, mention.authors_incomplete, mention.year) == ("SGT", ["Okafor"], True, 2021)
