"""Big notes files are read in pieces; the pieces must give exactly what the whole file gives.

Each test reads one text twice: with the piece size so large that the file is parsed whole,
and with pieces (and, for Markdown, the moving window's blocks) a few kilobytes long, so the
cuts fall in many places: before headings, inside sections, next to pasted BibTeX entries.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.notes import extract_text
from citekit.notes.formats import markdown as markdown_reader
from citekit.notes.formats import org as org_reader
from citekit.notes.formats.bibtex import cut_bibtex_entries


def _snapshot(text: str, file: str) -> str:
    result = extract_text(text, file)
    return json.dumps([[m.to_json() for m in result.mentions], [str(p) for p in result.problems]], sort_keys=True, ensure_ascii=False)


ORG_SECTIONS = [
    "* Optimizers at ICML 2026\n** READING Muon Is Scalable for LLM Training\n   :PROPERTIES:\n   :AUTHORS:  Jingyuan Liu, Jianlin Su\n   :ARXIV:    2502.16982\n   :END:\n",
    "* Vision follow-ups\n** LATER Segment Anything\n   :PROPERTIES:\n   :AUTHORS:  Alexander Kirillov et al.\n   :ARXIV:    2304.02643\n   :END:\n   Promptable segmentation.\n",
    "* URL: https://arxiv.org/abs/2401.00001\n",
    "* TODO\n- Authors: Ana Lima, Bo Chen\n",
    "* Lunch with the group\n- book a table\n",
    "* Attention Is All You Need — Ashish Vaswani, Noam Shazeer, Niki Parmar\n",
    "* 論文メモ\n** 大規模言語モデルの推論 :llm:\n   :PROPERTIES:\n   :AUTHORS:  山田 太郎, 佐藤 花子\n   :URL:      https://openreview.net/forum?id=AbCdEf123\n   :END:\n",
    "#+begin_src python\n* not a heading in a block\n#+end_src\n",
    "* Reading list\n- Deep Residual Learning for Image Recognition (He, Zhang, Ren & Sun, CVPR 2016)\n- https://arxiv.org/abs/1512.03385\n",
    "* Authors: Ana Lima, Bo Chen\n",
    "* Optimizers reading group  :optim:reading:\n** Adam: A Method for Stochastic Optimization\n   - Authors: Diederik P. Kingma, Jimmy Ba\n",
    "* TODO Second-order methods :ml:@home:\n** Shampoo: Preconditioned Stochastic Tensor Optimization — Vineet Gupta, Tomer Koren, Yoram Singer\n",
    "* Venue: NeurIPS 2025 :conf:\n",
]

MD_SECTIONS = [
    "# ICML 2026\n\n- **Muon Is Scalable for LLM Training** — Jingyuan Liu, Jianlin Su [arXiv](https://arxiv.org/abs/2502.16982)\n  - Summary: orthogonalised updates at scale.\n",
    "### Step-Size Stability in Stochastic Optimization\nAuthors: Fabian Schaipp, Robert M. Gower\nLink: https://arxiv.org/abs/2401.00002\n",
    "| title | authors | link |\n|---|---|---|\n| Adam with Bandit Sampling | Alice Zhang, Bob Li | https://arxiv.org/abs/2010.12986 |\n",
    "```\n- not a paper — Code Block, Inside Fence\n```\n",
    "> [!note] Deep Residual Learning for Image Recognition\n> Authors: Kaiming He, Xiangyu Zhang\n",
    "@inproceedings{he2016,\n  title={Identity Mappings in Deep Residual Networks},\n  author={He, Kaiming and Zhang, Xiangyu},\n  year={2016}\n}\n",
    "- Blog post to read: https://kellerjordan.github.io/posts/muon/\n- Lunch with the optimizer group\n",
    "1. Vaswani, A., & Shazeer, N. (2017). Attention is all you need. NeurIPS.\n2. [[Meeting notes 2026-07-14]]\n",
    "- Authors: stray detail at top level\n",
    "Term\n: A definition that is not a paper.\n",
]


def _document(sections: list[str], seed: int, header: str) -> str:
    rng = random.Random(seed)
    return header + "\n".join(rng.choice(sections) for _ in range(400))


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
@pytest.mark.parametrize("seed", [1, 2])
def test_big_org_file_read_in_pieces_equals_whole(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _document(ORG_SECTIONS, seed, "#+TITLE: Reading\n#+FILETAGS: :reading:\n#+TODO: READING LATER | FINISHED\n\n")
    monkeypatch.setattr(org_reader, "CHUNK_CHARS", 10**9)
    whole = _snapshot(text, "big.org")
    monkeypatch.setattr(org_reader, "CHUNK_CHARS", 3000)
    assert len(list(org_reader._chunks(text))) > 10  # really read in pieces
    assert _snapshot(text, "big.org") == whole
    assert '"reading"' in whole and "Muon Is Scalable" in whole and "READING Muon" not in whole


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
@pytest.mark.parametrize("seed", [3, 4])
def test_big_markdown_file_read_in_pieces_equals_whole(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _document(MD_SECTIONS, seed, "---\ntags: [optim]\nvenue: ICML 2026\n---\n\n")
    monkeypatch.setattr(markdown_reader, "CHUNK_CHARS", 10**9)
    whole = _snapshot(text, "big.md")
    monkeypatch.setattr(markdown_reader, "CHUNK_CHARS", 2500)
    monkeypatch.setattr(markdown_reader, "BLOCK_CHARS", 997)
    assert len(list(markdown_reader._chunks([text]))) > 10
    assert _snapshot(text, "big.md") == whole
    assert "Identity Mappings" in whole and "kellerjordan" not in whole


def test_pasted_entries_are_blanked_line_for_line() -> None:
    lines = ["intro @ mention", "@article{a1,", "  title={One},", "}", "text", "@misc{b2, title={Two}}", "", "@comment{x}", "@book{broken,", " title={never closes"]
    text = "\n".join(lines)
    cut, entries = cut_bibtex_entries(text, "n.md")
    assert cut.split("\n") == ["intro @ mention", "", "", "", "text", "", "", "@comment{x}", "", ""]
    assert [(e.line, e.key, e.broken) for e in entries] == [(2, "a1", False), (6, "b2", False), (9, "broken", True)]
    assert entries[0].fields["title"] == "One"


#: Lines that CommonMark reads as part of the paragraph above them (an ordered item that
#: does not start at 1 cannot interrupt a paragraph), written right after a paragraph line.
_CONTINUING_ITEMS = [
    "2. Sharpness Aware Minimization Revisited — Ana Lima, Bo Chen",
    "7) Training Deep Nets with Sublinear Memory Cost — Tianqi Chen, Bing Xu",
    "12. Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In ICLR.",
]


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
@pytest.mark.parametrize("item", _CONTINUING_ITEMS)
@pytest.mark.parametrize("before", ["A paragraph line about what the session covered", "- a list item first\nand its lazy line",
                                    "> a quotation\nand its lazy line", "<div>\nan HTML block"])
def test_markdown_piece_never_starts_inside_a_paragraph(item: str, before: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file over the piece size, built so that the first possible cut falls right before
    an ordered item that continues the paragraph (or list item) above it."""
    filler = "".join(f"Notes on session {i}: nothing to cite here, only remarks on the room.\n\n" for i in range(1000))
    assert len(filler) > markdown_reader.CHUNK_CHARS
    text = filler + before + "\n" + item + "\n\n- Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang\n"
    monkeypatch.setattr(markdown_reader, "CHUNK_CHARS", 10**9)
    whole = _snapshot(text, "big.md")
    monkeypatch.undo()
    assert len(list(markdown_reader._chunks([text]))) > 1  # really read in pieces
    assert _snapshot(text, "big.md") == whole


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
@pytest.mark.parametrize("previous", ["", "```\n- in a fence\n```", "1. First item\nits lazy line"])
def test_markdown_piece_may_start_at_an_item_that_opens_a_block(previous: str) -> None:
    """After a blank line, a code fence or inside a list, an ordered item starts a block of
    its own (or the next item), so a piece may start there: big numbered lists are still
    read in pieces."""
    filler = "".join(f"Notes on session {i}: nothing to cite here, only remarks on the room.\n\n" for i in range(1000))
    text = filler + previous + "\n2. Sharpness Aware Minimization Revisited — Ana Lima, Bo Chen\n"
    pieces = [piece for _line, piece in markdown_reader._chunks([text])]
    assert any(p.startswith(("2. Sharpness", "1. First")) for p in pieces[1:])
    assert extract_text(text, "big.md").mentions[-1].title == "Sharpness Aware Minimization Revisited"


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
@pytest.mark.parametrize("heading", ["* Authors: Diederik P. Kingma, Jimmy Ba", "* TODO Authors: Diederik P. Kingma, Jimmy Ba",
                                     "* URL: https://arxiv.org/abs/1412.6980", "* Reading group :ml:reading:"])
def test_org_piece_never_starts_at_a_heading_the_outline_moves(heading: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file over the piece size where the first possible cut falls right before a
    top-level heading that is a detail of the heading above it (or a tagged heading)."""
    body = "* Start\n" + "".join(f"- remark {i} about the room and the coffee\n" for i in range(2000))
    text = body[:63990] + "\n* A Method for Stochastic Optimization\n" + heading + "\n* Tail heading\n"
    assert len(list(org_reader._chunks(text))) > 1  # the file is read in pieces
    monkeypatch.setattr(org_reader, "CHUNK_CHARS", 10**9)
    whole = _snapshot(text, "big.org")
    monkeypatch.setattr(org_reader, "CHUNK_CHARS", 64_000)
    assert _snapshot(text, "big.org") == whole


# unit: the piece size is lowered so a small file is read in pieces (through the API it takes megabytes)
def test_org_file_of_tagged_top_level_headings_is_read_in_pieces() -> None:
    text = "".join(f"* Session {i} notes  :talks:day{i % 5}:\n** Paper {i} on optimizers — Ana Lima, Bo Chen\n" for i in range(3000))
    assert len(list(org_reader._chunks(text))) > 1


#: lines around which a cut is easy to get wrong: fences of both kinds and lengths (with
#: and without an info string, or inline code that only looks like one), each type of
#: HTML block (ended by a marker, by a blank line, or a tag that cannot interrupt a
#: paragraph), text that only looks like HTML, and the lines a piece may start at
_CUT_LINES = st.sampled_from([
    "Slides from the talk:", "Attention Is All You Need — Ashish Vaswani, Noam Shazeer",
    "- Deep Residual Learning — Kaiming He, Xiangyu Zhang", "- item", "1. first", "2. second", "# Heading", "", "",
    "```", "````", "```python", "``` x `y`", "~~~", "~~~python", "<div>", "</div>", "<details>", "</details>", "<pre>",
    "</pre>", "<!--", "-->", "<!-- c -->", "<br>", "<span>x</span>", "a < b", "<?php", "?>", "<!DOCTYPE html>",
    "<script>", "</script>", "<DIV class=x>", "<textarea>", "</textarea>", "- [Adam](https://arxiv.org/abs/1412.6980)",
    "Masked Autoencoders Are Scalable Vision Learners — Kaiming He",
])


@given(st.lists(_CUT_LINES, min_size=1, max_size=25).map("\n".join))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_markdown_cut_at_every_possible_line_reads_as_the_whole_file(text: str) -> None:
    """With the piece size at one character, a piece starts at every line where a cut is
    allowed: the mentions are still those of the whole file read at once."""
    original = markdown_reader.CHUNK_CHARS
    try:
        markdown_reader.CHUNK_CHARS = 10**9
        whole = _snapshot(text, "x.md")
        markdown_reader.CHUNK_CHARS = 1
        assert _snapshot(text, "x.md") == whole
    finally:
        markdown_reader.CHUNK_CHARS = original


# unit: the window's blocks are read through the reader's own generator (through the API the
# text is never seen again once handed over)
def test_markdown_window_keeps_no_reference_to_the_whole_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the window has cut its blocks, the read part of a big Markdown text is not held
    while the mentions of the rest pile up (it was held to the last block: twice the file
    in memory for a text with one dash, four times with one emoji); the pieces are the
    text's, character for character, across blocks cut between any two characters."""
    import sys

    monkeypatch.setattr(markdown_reader, "CHUNK_CHARS", 300)
    monkeypatch.setattr(markdown_reader, "BLOCK_CHARS", 97)
    text = "".join(f"- Paper {i} on 𝔼-sharpness — Zoë Ng 🙂 café\n" for i in range(200))
    alone = sys.getrefcount(text)
    held = [text]
    pieces = markdown_reader._chunks(held)
    first = next(pieces)
    assert not held and sys.getrefcount(text) == alone  # only this test's own reference is left
    rest = [piece for _line, piece in pieces]
    assert "\n".join([first[1], *rest]) == text and len(rest) > 5
