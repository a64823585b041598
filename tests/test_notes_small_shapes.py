"""Smaller shapes: surname-only author lists, footnote definitions, quotes inside a title,
table rows that name a non-paper."""

from __future__ import annotations

import pytest

from citekit.notes.extract import extract_text


@pytest.mark.parametrize("line,title,authors", [
    ("Step Size Stability in Stochastic Optimization — Schaipp, Gower, Taylor", "Step Size Stability in Stochastic Optimization", ["Schaipp", "Gower", "Taylor"]),
    ("Sharpness-Aware Minimization for Efficiently Improving Generalization – Foret, Kleiner, Mobahi, Neyshabur",
     "Sharpness-Aware Minimization for Efficiently Improving Generalization", ["Foret", "Kleiner", "Mobahi", "Neyshabur"]),
    ("Muon Is Scalable for LLM Training - Liu, Su", "Muon Is Scalable for LLM Training", ["Liu", "Su"]),
])
@pytest.mark.parametrize("name", ["s.md", "s.txt"])
def test_surname_only_author_lists(line, title, authors, name):
    (mention,) = extract_text(f"- {line}\n", name).mentions
    assert (mention.title, mention.authors) == (title, authors)


@pytest.mark.parametrize("line", ["Dinner — Paris, Rome", "Coffee chat after the session — Schaipp, Gower", "Blog post about Adam — Smith, Jones"])
def test_surnames_after_a_non_title_are_not_papers(line):
    assert extract_text(f"- {line}\n", "s.md").mentions == []


def test_footnote_definitions_are_read():
    text = (
        "Adam is the default.[^1] AdamW decouples the decay.[^wd]\n\n"
        "[^1]: Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In ICLR.\n"
        '[^wd]: I. Loshchilov and F. Hutter, "Decoupled weight decay regularization," in Proc. ICLR, 2019.\n'
        "[^3]: see the appendix of our draft\n"
    )
    mentions = extract_text(text, "f.md").mentions
    assert [(m.location.line, m.title, m.year) for m in mentions] == [
        (3, "Adam: A method for stochastic optimization", 2015),
        (4, "Decoupled weight decay regularization", 2019),
    ]


@pytest.mark.parametrize("line,title,authors", [
    ("Über Horváth’s “Gradient” Methods — Samuel Horváth", "Über Horváth’s “Gradient” Methods", ["Samuel Horváth"]),
    ('Why "Grokking" Happens in Modular Arithmetic — Neel Nanda, Lawrence Chan', 'Why "Grokking" Happens in Modular Arithmetic', ["Neel Nanda", "Lawrence Chan"]),
    ("「深層学習」の最適化理論 — Taiji Suzuki, Atsushi Nitanda", "「深層学習」の最適化理論", ["Taiji Suzuki", "Atsushi Nitanda"]),
])
@pytest.mark.parametrize("name", ["q.md", "q.txt"])
def test_quotes_inside_a_dashed_title_are_title_text(line, title, authors, name):
    (mention,) = extract_text(f"- {line}\n", name).mentions
    assert (mention.title, mention.authors) == (title, authors)


def test_whole_quoted_title_is_still_unquoted():
    (mention,) = extract_text('- "Scaling Laws for Neural Language Models" — Jared Kaplan, Sam McCandlish\n', "q.md").mentions
    assert mention.title == "Scaling Laws for Neural Language Models"


@pytest.mark.parametrize("row", [
    "| Implicit Neural Representations | | just a blog |",
    "| The Annotated Transformer | | blog post |",
    "| Open LLM Leaderboard | | a dataset of results |",
])
def test_table_rows_naming_a_non_paper_are_not_papers(row):
    text = f"| title | authors | link |\n|---|---|---|\n{row}\n| Attention Is All You Need | Ashish Vaswani, Noam Shazeer | https://arxiv.org/abs/1706.03762 |\n"
    mentions = extract_text(text, "t.md").mentions
    assert [m.title for m in mentions] == ["Attention Is All You Need"]


@pytest.mark.parametrize("row,title", [
    # a short name with the title in parentheses: the parenthesis is the title
    ("| Contriever (Unsupervised Dense Information Retrieval with Contrastive Learning) | Izacard, Caron, Grave | TMLR 2022 |",
     "Unsupervised Dense Information Retrieval with Contrastive Learning"),
    ("| GPT-3 (Language Models are Few-Shot Learners) | Tom B. Brown, Benjamin Mann | NeurIPS 2020 |",
     "Language Models are Few-Shot Learners"),
    # a parenthesis that is part of the name (a year, a number) is left as written
    ("| Transformer-XL (Attentive Language Models Beyond a Fixed-Length Context, 2019) | Zihang Dai, Zhilin Yang | ACL 2019 |",
     "Transformer-XL (Attentive Language Models Beyond a Fixed-Length Context, 2019)"),
    # a title with a short name after it keeps its words (the short name is no part of them)
    ("| Deep Residual Learning for Image Recognition (ResNet) | Kaiming He, Xiangyu Zhang | CVPR 2016 |",
     "Deep Residual Learning for Image Recognition"),
])
def test_short_name_then_title_in_parentheses(row, title):
    text = f"| Paper | Who | Where |\n|---|---|---|\n{row}\n"
    (mention,) = extract_text(text, "t.md").mentions
    assert mention.title == title


@pytest.mark.parametrize("text,title", [
    # a short name, a spaced dash, then the title: the title is what follows the dash
    ("| Paper | Who | Where |\n|---|---|---|\n| QuillNet — Learning Handwriting Priors from Scanned Letters | Brandt & Ilves | ICDAR 2021 |\n",
     "Learning Handwriting Priors from Scanned Letters"),
    ("- Lumen – Sparse Attention Fields for Event Cameras (Okafor et al. 2023)\n", "Sparse Attention Fields for Event Cameras"),
    # a title with a colon, or a dash before a remark, stays as written
    ("| Paper | Who | Where |\n|---|---|---|\n| Tessera: Tiled Diffusion for Maps | Rao et al. | CVPR 2022 |\n",
     "Tessera: Tiled Diffusion for Maps"),
])
def test_short_name_then_a_dash_then_the_title(text, title):
    (mention,) = extract_text(text, "t.md").mentions
    assert mention.title == title


@pytest.mark.parametrize("line,title,authors", [
    # a short name said to be the title after it, maybe after a label for the line
    ("- read first: QKN = Query Key Normalization for Stable Transformers (Henry et al. 2020)\n",
     "Query Key Normalization for Stable Transformers", ["Henry"]),
    ("- QKN = Query Key Normalization for Stable Transformers (Henry et al. 2020)\n",
     "Query Key Normalization for Stable Transformers", ["Henry"]),
    # the venue after a spaced dash closes the bracketed authors: the last name before it is one of them
    ("- Long Convolutions for Sequence Modeling with Gated Units (Fu, Dao, Saab — ICLR ’23)\n",
     "Long Convolutions for Sequence Modeling with Gated Units", ["Fu", "Dao", "Saab"]),
    ("- background first: H3 = Long Convolutions for Sequence Modeling with Gated Units (Fu, Dao, Saab – ICLR 2023)\n",
     "Long Convolutions for Sequence Modeling with Gated Units", ["Fu", "Dao", "Saab"]),
])
def test_short_name_is_the_title_and_authors_before_a_dashed_venue(line, title, authors):
    (mention,) = extract_text(line, "t.md").mentions
    assert (mention.title, mention.authors) == (title, authors)


@pytest.mark.parametrize("line", [
    "[9] Noam Shazeer. 2020. GLU Variants Improve Transformer. arXiv:2002.05202 [cs.LG]",
    "[3] Noam Shazeer. 2020. GLU Variants Improve Transformer. arXiv preprint.",
])
def test_a_reference_of_one_author_in_acm_style(line):
    # ACM writes one author, then the year: the same reference as with two authors
    (mention,) = extract_text(f"{line}\n", "refs.txt").mentions
    assert (mention.title, mention.authors) == ("GLU Variants Improve Transformer", ["Noam Shazeer"])


def test_names_with_letters_beyond_ascii_open_a_reference():
    # a bibliography item whose second author is ``J{\"u}rgen``: a name all the same
    text = (
        "\\begin{thebibliography}{1}\n"
        "\\bibitem[Hochreiter and Schmidhuber(1997)]{hochreiter1997long}\n"
        "Sepp Hochreiter and J{\\\"u}rgen Schmidhuber.\n"
        "\\newblock Long short-term memory.\n"
        "\\newblock \\emph{Neural Computation}, 9\\penalty0 (8):\\penalty0 1735--1780, 1997.\n"
        "\\newblock \\doi{10.1162/neco.1997.9.8.1735}.\n"
        "\\end{thebibliography}\n"
    )
    (mention,) = extract_text(text, "draft.tex").mentions
    assert (mention.title, mention.authors) == ("Long short-term memory", ["Sepp Hochreiter", "Jürgen Schmidhuber"])
    assert mention.ids.doi == "10.1162/neco.1997.9.8.1735"


@pytest.mark.parametrize("row", [
    "| LangChain | Harrison Chase | python.langchain.com |",
    "| BM25 via Pyserini | — | pypi `pyserini` |",
])
def test_paper_who_where_rows_whose_where_is_a_site_or_a_package_are_not_papers(row):
    text = (
        "| Paper | Who | Where |\n|---|---|---|\n" + row + "\n"
        "| ColBERT | Omar Khattab & Matei Zaharia | SIGIR '20 |\n"
        "| Highly accurate protein structure prediction with AlphaFold | Jumper et al. | nature.com/articles/s41586-021-03819-2 |\n"
    )
    mentions = extract_text(text, "t.md").mentions
    assert [m.title for m in mentions] == ["ColBERT", "Highly accurate protein structure prediction with AlphaFold"]


@pytest.mark.parametrize("name", ["s.md", "s.txt"])
def test_by_in_a_title_is_no_author_split_when_the_labelled_authors_say_otherwise(name):
    text = ("- Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift\n"
            "  - Authors: Sergey Ioffe, Christian Szegedy\n"
            "- Muon is Scalable for LLM Training by Jingyuan Liu\n"
            "  - Authors: Jingyuan Liu, Jianlin Su\n")
    first, second = extract_text(text, name).mentions
    assert (first.title, first.authors) == (
        "Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift", ["Sergey Ioffe", "Christian Szegedy"])
    assert (second.title, second.authors) == ("Muon is Scalable for LLM Training", ["Jingyuan Liu", "Jianlin Su"])


@pytest.mark.parametrize("name", ["page.md", "page.txt"])
def test_a_remark_pointing_with_an_arrow_at_a_page_link_is_titled_by_the_page(name):
    text = ("- the ICS explanation is probably wrong → [[How Does Batch Normalization Help Optimization?]]\n"
            "    - Author:: [[Shibani Santurkar]] [[Dimitris Tsipras]]\n"
            "- see also -> [[Meeting notes]]\n")
    (mention,) = extract_text(text, name).mentions
    assert (mention.title, mention.authors) == ("How Does Batch Normalization Help Optimization?", ["Shibani Santurkar", "Dimitris Tsipras"])


@pytest.mark.parametrize("row,title", [
    ("| Self-RAG: Learning to Retrieve, Generate, and Critique through Self-Reflection ✅ | Asai et al. | ICLR 2024 |",
     "Self-RAG: Learning to Retrieve, Generate, and Critique through Self-Reflection"),
    ("| Attention Is All You Need ⭐⭐ | Vaswani et al. | NeurIPS 2017 |", "Attention Is All You Need"),
])
def test_status_marks_after_a_title_are_not_part_of_it(row, title):
    text = f"| Paper | Who | Where |\n|---|---|---|\n{row}\n"
    (mention,) = extract_text(text, "t.md").mentions
    assert mention.title == title


@pytest.mark.parametrize("text,title,authors", [
    # a wiki link to a page named as the paper, then its citation: the brackets close the title
    ("- reading\n    - [[Sparse Gating in Translation Models]] Okafor et al. 2021\n        - probably out of scope. ask [[Mira]]\n",
     "Sparse Gating in Translation Models", ["Okafor"]),
    ("- [[Sparse Gating in Translation Models]] Lindqvist et al., ICLR 2021\n", "Sparse Gating in Translation Models", ["Lindqvist"]),
])
def test_a_wiki_link_title_then_its_citation(text, title, authors):
    found = [m for m in extract_text(text, "page.md").mentions if m.authors]
    assert [(m.title, m.authors) for m in found] == [(title, authors)]
