"""What real exports hold, read as the text they are: HTML blocks in Markdown (Notion's
``<aside>`` and ``<details>``), Roam/Logseq block syntax, ``>`` quoting, chat lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit import api


def _found(tmp_path: Path, name: str, text: str) -> list[tuple[int, str | None, list[str]]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(m.location.line, m.title, m.authors) for m in api.extract([path], start=tmp_path).mentions]


RESNET = "Deep Residual Learning for Image Recognition"
ATTENTION = "Attention Is All You Need"


def test_notion_callouts_and_toggles_are_read(tmp_path: Path) -> None:
    found = _found(tmp_path, "Reading group 4e1ed085.md", (
        "# Reading group\n\n<aside>\n💡 Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang\n</aside>\n\n"
        "<details>\n<summary>Session 2</summary>\n\n- Attention Is All You Need — Ashish Vaswani, Noam Shazeer\n</details>\n"))
    assert found == [(4, RESNET, ["Kaiming He", "Xiangyu Zhang"]), (10, ATTENTION, ["Ashish Vaswani", "Noam Shazeer"])]


def test_an_html_block_without_text_is_no_paper(tmp_path: Path) -> None:
    assert _found(tmp_path, "n.md", "<div class='x'>\n<img src='a.png'>\n</div>\n") == []


def test_roam_block_syntax_is_not_part_of_titles_or_names(tmp_path: Path) -> None:
    found = _found(tmp_path, "Optimizer zoo.md", (
        "- [[Distributed Representations of Words and Phrases and their Compositionality]]\n"
        "  - Author:: [[Tomas Mikolov]], [[Ilya Sutskever]]\n"
        "- Attention Is All You Need — Ashish Vaswani, Noam Shazeer ((a1b2c3d4e))\n"
        "- {{embed: ((xyz12345))}}\n"))
    assert found == [
        (1, "Distributed Representations of Words and Phrases and their Compositionality", ["Tomas Mikolov", "Ilya Sutskever"]),
        (3, ATTENTION, ["Ashish Vaswani", "Noam Shazeer"]),
    ]


@pytest.mark.parametrize("name", ["fwd.txt", "fwd.md"])
def test_quoted_lines_of_an_email_are_read_as_written(tmp_path: Path, name: str) -> None:
    found = _found(tmp_path, name, (
        "> Hi all, here are the papers I mentioned:\n"
        "> - Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang\n"
        ">> - Attention Is All You Need — Ashish Vaswani, Noam Shazeer\n"))
    assert [(t, a) for _l, t, a in found] == [(RESNET, ["Kaiming He", "Xiangyu Zhang"]), (ATTENTION, ["Ashish Vaswani", "Noam Shazeer"])]


def test_a_quotation_in_a_block_quote_is_still_no_paper(tmp_path: Path) -> None:
    assert _found(tmp_path, "q.md", "> “All models are wrong, but some are useful.” — George Box\n") == []


@pytest.mark.parametrize("name", ["chat.txt", "chat.md"])
def test_chat_messages_are_lines_of_their_own(tmp_path: Path, name: str) -> None:
    found = _found(tmp_path, name, (
        "[10:32] Alice: Denoising Diffusion Probabilistic Models — Jonathan Ho, Ajay Jain, Pieter Abbeel\n"
        "[10:33] Bob: nice\n"
        "[10:35 AM] Carol Chen: Attention Is All You Need — Ashish Vaswani, Noam Shazeer\n"))
    assert [(l, t) for l, t, _a in found] == [(1, "Denoising Diffusion Probabilistic Models"), (3, ATTENTION)]


def test_a_thebibliography_gives_one_reference_line_per_bibitem_at_its_line(tmp_path: Path) -> None:
    from citekit.notes.formats.latex import latex_lines

    lines = latex_lines(
        "As shown by \\citet{mikolov2013}, embeddings work. % see also Le and Mikolov\n"
        "\\begin{thebibliography}{9}\n"
        "\\bibitem[Mikolov et~al.(2013)]{mikolov2013} Tomas Mikolov, Ilya Sutskever, and Jeffrey Dean.\n"
        "\\newblock Distributed representations of words and phrases.\n"
        "\\newblock In \\emph{NeurIPS}, 2013.\n"
        "\\bibitem{he2016} K.~He and J.~Sun. \\newblock Deep residual learning. \\newblock In \\emph{CVPR}, 2016.\n"
        "\\end{thebibliography}\n")
    assert lines[0] == "As shown by , embeddings work."
    # the block between the first two \newblock is the title: written in quotes, read as one
    assert lines[2] == "Tomas Mikolov, Ilya Sutskever, and Jeffrey Dean. “Distributed representations of words and phrases.” In NeurIPS, 2013."
    assert lines[5] == "K. He and J. Sun. “Deep residual learning.” In CVPR, 2016."
    assert [i for i, line in enumerate(lines) if line] == [0, 2, 5]


def test_a_bibitem_title_is_its_newblock_and_software_items_stay_out(tmp_path: Path) -> None:
    found = _found(tmp_path, "draft.tex", (
        "\\begin{thebibliography}{9}\n"
        "\\bibitem{goyal2017accurate}\n"
        "P.~Goyal, P.~Doll{\\'a}r, R.~Girshick, and K.~He.\n"
        "\\newblock Accurate, large minibatch {SGD}: Training {ImageNet} in 1 hour.\n"
        "\\newblock {\\em arXiv:1706.02677}, 2017.\n"
        "\\bibitem[Brown et~al.(2020)]{brown2020}\n"
        "Tom~B. Brown, Benjamin Mann, Nick Ryder, and Melanie Subbiah.\n"
        "\\newblock Language models are few-shot learners.\n"
        "\\newblock In {\\em NeurIPS}, 2020.\n"
        "\\bibitem{nanogpt}\n"
        "A.~Karpathy.\n"
        "\\newblock nano{GPT}.\n"
        "\\newblock \\url{https://github.com/karpathy/nanoGPT}, 2022.\n"
        "\\end{thebibliography}\n"))
    assert [(t, a) for _l, t, a in found] == [
        ("Accurate, large minibatch SGD: Training ImageNet in 1 hour", ["P. Goyal", "P. Dollár", "R. Girshick", "K. He"]),
        ("Language models are few-shot learners", ["Tom B. Brown", "Benjamin Mann", "Nick Ryder", "Melanie Subbiah"]),
    ]


def test_latex_notes_are_read_by_their_suffix(tmp_path: Path) -> None:
    found = _found(tmp_path, "draft.tex", (
        "\\documentclass{article}\n\\usepackage{natbib}\n\\section{Related work}\n"
        "Attention Is All You Need --- Ashish Vaswani, Noam Shazeer\n"))
    assert found == [(4, ATTENTION, ["Ashish Vaswani", "Noam Shazeer"])]


@pytest.mark.parametrize("name, text", [
    ("draft.tex", "\\begin{thebibliography}{9}\n\\bibitem{karpathy2019recipe}\nA.~Karpathy.\n\\newblock A recipe for training neural networks.\n"
                  "\\newblock Blog post, \\url{https://karpathy.github.io/2019/04/25/recipe/}, 2019.\n\\end{thebibliography}\n"),
    ("refs.txt", "[4] A. Karpathy. A recipe for training neural networks. Blog post, https://karpathy.github.io/2019/04/25/recipe/, 2019.\n"),
])
def test_a_reference_that_says_blog_post_is_no_paper(tmp_path: Path, name: str, text: str) -> None:
    assert _found(tmp_path, name, text) == []
