"""Exact rules for what is exact: identifiers in every written form (with or without a
scheme), labels in Chinese and Korean as in Japanese and English, titles in East Asian
quotes. (The issue's list; each case a line as people write it.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit import api


def _one(tmp_path: Path, text: str, name: str = "notes.md"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    found = api.extract([path], start=tmp_path).mentions
    assert len(found) == 1, [(m.location.line, m.title, m.urls) for m in found]
    return found[0]


@pytest.mark.parametrize("line, scheme, value", [
    ("- shampoo paper is arxiv.org/abs/1802.09568 btw", "arxiv", "1802.09568"),
    ("- huggingface.co/papers/2106.09685", "arxiv", "2106.09685"),
    ("- https://www.alphaxiv.org/abs/2310.06825", "arxiv", "2310.06825"),
    ("- alphaxiv.org/overview/2310.06825v2", "arxiv", "2310.06825"),
    ("- dl.acm.org/doi/10.1145/3065386", "doi", "10.1145/3065386"),
    ("- doi.org/10.1145/3065386", "doi", "10.1145/3065386"),
    ("- openreview.net/forum?id=nZeVKeeFYf9", "openreview", "nZeVKeeFYf9"),
])
def test_paper_addresses_without_a_scheme_carry_their_identifier(tmp_path: Path, line: str, scheme: str, value: str) -> None:
    m = _one(tmp_path, line + "\n")
    assert getattr(m.ids, scheme) == value
    assert all(u.startswith("https://") for u in m.urls)


@pytest.mark.parametrize("line", [
    "- paperswithcode.com/paper/attention-is-all-you-need",
    "- www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776",
    "- aclanthology.org/N19-1423/",
    "- proceedings.mlr.press/v202/kirchenbauer23a.html",
])
def test_paper_pages_without_a_scheme_are_papers(tmp_path: Path, line: str) -> None:
    m = _one(tmp_path, line + "\n")
    assert m.urls == ["https://" + line[2:]]


def test_an_address_inside_an_email_or_a_longer_host_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "n.md"
    path.write_text("- write to bot@arxiv.org/abs/x\n- see mirror.xarxiv.org/abs/1802.09568\n", encoding="utf-8")
    assert api.extract([path], start=tmp_path).mentions == []


@pytest.mark.parametrize("text, title, authors, incomplete", [
    ("- 论文: 《mixup: Beyond Empirical Risk Minimization》 作者: Hongyi Zhang 等\n",
     "mixup: Beyond Empirical Risk Minimization", ["Hongyi Zhang"], True),
    ("- 论文：Attention Is All You Need\n  作者：Ashish Vaswani, Noam Shazeer\n",
     "Attention Is All You Need", ["Ashish Vaswani", "Noam Shazeer"], False),
    ("- 题目: Deep Residual Learning for Image Recognition\n  作者: Kaiming He、Xiangyu Zhang\n",
     "Deep Residual Learning for Image Recognition", ["Kaiming He", "Xiangyu Zhang"], False),
    ("- 제목: Deep Residual Learning for Image Recognition\n  저자: Kaiming He, Xiangyu Zhang 외\n",
     "Deep Residual Learning for Image Recognition", ["Kaiming He", "Xiangyu Zhang"], True),
    ("- 『Denoising Diffusion Probabilistic Models』 Jonathan Ho, Ajay Jain, Pieter Abbeel\n",
     "Denoising Diffusion Probabilistic Models", ["Jonathan Ho", "Ajay Jain", "Pieter Abbeel"], False),
    ("- 「Language Models are Few-Shot Learners」 — Tom B. Brown, Benjamin Mann\n",
     "Language Models are Few-Shot Learners", ["Tom B. Brown", "Benjamin Mann"], False),
    ("- “Scaling Laws for Neural Language Models” — Kaplan et al.\n",
     "Scaling Laws for Neural Language Models", ["Kaplan"], True),
    # the quoted title first, a short name after it; a year after the author list is no author
    ("论文: 《Training language models to follow instructions with human feedback》 (InstructGPT)\n作者: Long Ouyang 等, 2022\n",
     "Training language models to follow instructions with human feedback", ["Long Ouyang"], True),
    ("- \"Deep Residual Learning for Image Recognition\" (ResNet)\n  Authors: Kaiming He, Xiangyu Zhang (2016)\n",
     "Deep Residual Learning for Image Recognition", ["Kaiming He", "Xiangyu Zhang"], False),
    # a colon after a quoted opening is the title's own
    ("- \"Why Should I Trust You?\": Explaining the Predictions of Any Classifier\n  Authors: Marco Tulio Ribeiro, Sameer Singh\n",
     "\"Why Should I Trust You?\": Explaining the Predictions of Any Classifier", ["Marco Tulio Ribeiro", "Sameer Singh"], False),
])
def test_chinese_and_korean_labels_and_east_asian_quotes(tmp_path: Path, text: str, title: str, authors: list[str], incomplete: bool) -> None:
    m = _one(tmp_path, text)
    assert (m.title, m.authors, m.authors_incomplete) == (title, authors, incomplete)


@pytest.mark.parametrize("line, scheme, value", [
    # a DOI with parentheses keeps them; the parenthesis around the link is not the DOI's
    ("- Cybenko (https://doi.org/10.1016/0893-6080(89)90020-8)", "doi", "10.1016/0893-6080(89)90020-8"),
    ("- [Hornik 1989](https://doi.org/10.1016/0893-6080(89)90020-8)", "doi", "10.1016/0893-6080(89)90020-8"),
    ("- doi.org/10.1016/0893-6080(89)90020-8.", "doi", "10.1016/0893-6080(89)90020-8"),
    # SICI DOIs hold <...::...>, raw or percent-encoded
    ("- LSA: 10.1002/(SICI)1097-4571(199009)41:6<391::AID-ASI1>3.0.CO;2-9", "doi",
     "10.1002/(sici)1097-4571(199009)41:6<391::aid-asi1>3.0.co;2-9"),
    ("- http://dx.doi.org/10.1002/(SICI)1097-4571(199009)41:6%3C391::AID-ASI1%3E3.0.CO;2-9", "doi",
     "10.1002/(sici)1097-4571(199009)41:6<391::aid-asi1>3.0.co;2-9"),
    # old-style arXiv ids, bare and in a link without a scheme
    ("- cs/9605103", "arxiv", "cs/9605103"),
    ("- the classic hep-th/9711200 paper", "arxiv", "hep-th/9711200"),
    ("- arxiv.org/abs/physics/0004057", "arxiv", "physics/0004057"),
    # ``&noteId`` read once as the entity ``&not``
    ("- https://openreview.net/forum?id=SJU4ayYgl\u00aceId=SJU4ayYgl", "openreview", "SJU4ayYgl"),
    ("- https://dblp.org/rec/bibtex/conf/nips/KrizhevskySH12", "dblp", "conf/nips/KrizhevskySH12"),
    # a DOI inside brackets that a colon follows: the colon is the sentence's
    ("- the long version (Nature 2019, doi:10.1038/nature55501): more games", "doi", "10.1038/nature55501"),
])
def test_identifiers_in_their_awkward_written_forms(tmp_path: Path, line: str, scheme: str, value: str) -> None:
    m = _one(tmp_path, line + "\n")
    assert getattr(m.ids, scheme) == value


@pytest.mark.parametrize("line", ["- see figures/9605103 and src/0704123", "- math/2401001 (not an arXiv year)",
                                  "- foo/9605103"])
def test_a_path_with_digits_is_no_old_arxiv_id(tmp_path: Path, line: str) -> None:
    path = tmp_path / "n.md"
    path.write_text(line + "\n", encoding="utf-8")
    assert not any(m.ids.arxiv for m in api.extract([path], start=tmp_path).mentions)


def test_the_old_acl_anthology_address_is_a_paper_page(tmp_path: Path) -> None:
    m = _one(tmp_path, "- https://www.aclweb.org/anthology/P02-1040.pdf\n")
    assert m.urls == ["https://www.aclweb.org/anthology/P02-1040.pdf"]


@pytest.mark.parametrize("gap", ["... &", ". . . &", "…"])
def test_an_apa_ellipsis_in_the_author_list_marks_it_incomplete(tmp_path: Path, gap: str) -> None:
    """"A, B, ... & Z" left names out: every name written is kept (the last one too, as an
    ``Authors:`` label keeps it) and the list is marked incomplete, never the whole list."""
    m = _one(tmp_path, f"- Kaplan, J., McCandlish, S., Henighan, T., Brown, T. B., Chess, B., Child, R., {gap} Amodei, D. "
                       "(2020). Scaling laws for neural language models. arXiv preprint arXiv:2001.08361.\n")
    assert m.authors_incomplete
    assert m.authors[:2] == ["Kaplan, J.", "McCandlish, S."] and m.authors[-1] == "Amodei, D."


@pytest.mark.parametrize("line", [
    # a title in title marks cited in a sentence, in English or in a short Chinese line
    "also the original 《Sparse Gating in Translation Models》(Okafor et al., 2021) which everyone has read",
    "另外 原文《Sparse Gating in Translation Models》(Okafor 等, 2021) 大家应该都读过了",
    "the «Sparse Gating in Translation Models» (Okafor et al., 2021) appendix has the ablation",
])
def test_a_title_in_title_marks_before_its_citation_keeps_its_first_word(tmp_path, line):
    mention = _one(tmp_path, line + "\n")
    assert (mention.title, mention.authors, mention.authors_incomplete, mention.year) == (
        "Sparse Gating in Translation Models", ["Okafor"], True, 2021)


@pytest.mark.parametrize("line, authors, incomplete, venue", [
    ("- 제목: Sparse Gating in Translation Models / 저자: Okafor 외 / ICLR 2021", ["Okafor"], True, "ICLR"),
    ("- Title: Sparse Gating in Translation Models | Authors: Okafor, Lindqvist | ICLR 2021", ["Okafor", "Lindqvist"], False, "ICLR"),
    ("- 论文: Sparse Gating in Translation Models; 作者: Okafor 等", ["Okafor"], True, None),
])
def test_a_title_label_with_the_other_fields_on_its_line(tmp_path, line, authors, incomplete, venue):
    """``Title: … / Authors: … / Venue Year`` on one line: each labelled field is the paper's,
    as if written on a line of its own, and the title is the title label's value."""
    mention = _one(tmp_path, line + "\n")
    assert (mention.title, mention.authors, mention.authors_incomplete, mention.venue) == (
        "Sparse Gating in Translation Models", authors, incomplete, venue)


def test_a_title_label_whose_title_holds_a_slash_is_left_whole(tmp_path):
    mention = _one(tmp_path, "- Title: Sparse Gating / Routing in Translation Models\n- Authors: Okafor, Lindqvist\n")
    assert mention.title == "Sparse Gating / Routing in Translation Models"
