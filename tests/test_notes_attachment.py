"""Nothing of one paper is glued to another (issue: "never attach to the wrong paper").

Each case is a notes file in the style it was met in: a reference pasted into Markdown with
a bare arXiv line after it, org and Markdown sibling headings, an Obsidian page whose front
matter names another conference, a Logseq page that links a meeting page, a Latin-1 file.
"""

from __future__ import annotations

from pathlib import Path

from citekit import api


def _mentions(tmp_path: Path, name: str, text: str | bytes) -> list:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return api.extract([path], start=tmp_path).mentions


def test_a_bare_arxiv_line_after_a_blank_line_is_its_own_paper(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "reading.md", (
        "# Reading\n\n"
        "- He, Zhang, Ren and Sun. Deep residual learning for image recognition. In CVPR, 2016.\n\n"
        "arXiv:2106.09685\n"))
    pinned = [m for m in found if m.pins.arxiv == "2106.09685" or m.ids.arxiv == "2106.09685"]
    assert [m.location.line for m in pinned] == [5]
    assert all(m.pins.arxiv is None for m in found if m.location.line == 3)


def test_an_indented_arxiv_line_still_belongs_to_its_paper(tmp_path: Path) -> None:
    [m] = _mentions(tmp_path, "reading.md", (
        "- LoRA: Low-Rank Adaptation of Large Language Models — Edward J. Hu, Yelong Shen\n"
        "  - arXiv:2106.09685\n"))
    assert m.title.startswith("LoRA") and m.pins.arxiv == "2106.09685"


def test_a_detail_written_right_below_at_the_same_depth_still_belongs_to_it(tmp_path: Path) -> None:
    [m] = _mentions(tmp_path, "reading.md", (
        "- LoRA: Low-Rank Adaptation of Large Language Models — Edward J. Hu, Yelong Shen\n"
        "- arXiv:2106.09685\n"))
    assert m.pins.arxiv == "2106.09685"


def test_an_org_heading_that_is_only_a_link_is_a_paper_of_its_own(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "papers.org", (
        "* Papers\n"
        "** Deep Residual Learning for Image Recognition\n"
        "   Authors: Kaiming He, Xiangyu Zhang, Shaoqing Ren, Jian Sun\n"
        "** https://arxiv.org/abs/2106.09685\n"))
    resnet = next(m for m in found if m.title == "Deep Residual Learning for Image Recognition")
    assert not resnet.urls and resnet.ids.arxiv is None
    assert any(m.location.line == 4 and m.ids.arxiv == "2106.09685" for m in found)


def test_a_markdown_heading_that_is_only_a_link_is_a_paper_of_its_own(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "papers.md", (
        "## Deep Residual Learning for Image Recognition\n"
        "- Authors: Kaiming He, Xiangyu Zhang\n"
        "## https://arxiv.org/abs/2106.09685\n"))
    assert [m.location.line for m in found] == [1, 3]
    assert not found[0].urls


def test_the_venue_on_the_line_beats_the_pages_front_matter(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "Sharpness.md", (
        "---\nconference: ICML 2026\n---\n# Sharpness\n"
        "- Sharpness-Aware Minimization for Efficiently Improving Generalization (Foret et al., ICLR 2021)\n"
        "- Sharpness-Aware Minimization for Efficiently Improving Generalization? (Foret et al., 2021)\n"))
    assert (found[0].venue, found[0].year) == ("ICLR", 2021)
    assert found[1].year == 2021 and found[1].venue != "ICML"


def test_a_prose_line_linking_a_notes_page_is_not_a_section(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "Week 3.md", (
        "# Week 3\n\n"
        "Related: [[Meeting notes 2026-07-08]]\n\n"
        "- Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang\n"
        "\nSee also: [week 2](week2.md)\n\n"
        "- Attention Is All You Need — Ashish Vaswani, Noam Shazeer\n"))
    assert [m.section for m in found] == ["Week 3", "Week 3"]


def test_a_latin1_notes_file_is_read_not_skipped(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "alt.md", (
        "# Vorlesung\n\n- Attention Is All You Need\n  - Authors: Ashish Vaswani, J\u00fcrgen M\u00fcller\n").encode("cp1252"))
    assert [m.title for m in found] == ["Attention Is All You Need"]


def test_an_unlabelled_author_list_under_an_org_title_heading_is_its_authors(tmp_path: Path) -> None:
    found = _mentions(tmp_path, "reading.org", (
        "* Reading\n"
        "** Sharpness-Aware Minimization for Efficiently Improving Generalization\n"
        "Pierre Foret, Ariel Kleiner, Hossein Mobahi, Behnam Neyshabur\n"
        "** Decoupled Weight Decay Regularization\n"
        "   Ilya Loshchilov, Frank Hutter\n"))
    assert [(m.location.line, m.authors) for m in found] == [
        (2, ["Pierre Foret", "Ariel Kleiner", "Hossein Mobahi", "Behnam Neyshabur"]),
        (4, ["Ilya Loshchilov", "Frank Hutter"]),
    ]
