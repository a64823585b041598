"""Passages quoted out of a paper with their page (``“…” (Family et al., 2020, p. 3)``), and a
Zotero report copied as text with blank lines between an item's sections."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions

REPORT = (
    "Learning Sparse Codes for Image Patches\n"
    "Item Type\tJournal Article\n"
    "Author\tMarta Lindqvist\n"
    "Author\tOwen Achterberg\n"
    "Date\t2019-03-02\n"
    "DOI\t10.1234/sparse.2019.77\n"
    "Date Added\t1/5/2026, 9:00:00 AM\n"
    "\n"
    "Tags:\n"
    "Computer Science - Information Retrieval\n"
    "Statistics - Methodology\n"
    "\n"
    "Notes:\n"
    "Annotations\n"
    "(1/6/2026, 10:00:00 AM)\n"
    "\n"
    "“a dictionary learned online from small batches of patches” (Lindqvist et al., 2019, p. 2) cheap enough for us\n"
    "\n"
    "“reconstruction error alone” (Lindqvist et al., 2019, p. 5)\n"
    "\n"
    "compare the older batch method of Okafor & Brandt 2011\n"
    "\n"
    "Attachments\n"
    "Full Text PDF\n"
    "\n"
    "\n"
    "Patch Priors for Denoising Natural Images\n"
    "Item Type\tConference Paper\n"
    "Author\tIngrid Solheim\n"
    "Date\t2021\n"
)


def test_a_report_item_keeps_its_sections_past_blank_lines(tmp_path: Path) -> None:
    mentions = api_mentions(tmp_path, "report.txt", REPORT)
    titles = [m.title for m in mentions if m.title]
    assert titles == ["Learning Sparse Codes for Image Patches", "Patch Priors for Denoising Natural Images"]
    item = mentions[0]
    # the tags are the item's, never a paper of their own ("Computer Science" by "Information Retrieval")
    assert "statistics-methodology" in item.hashtags
    # the highlights cite the item itself; the paper the note names is found
    assert any(m.authors[:1] == ["Okafor"] and m.year == 2011 for m in mentions)
    assert not any(m.authors[:1] == ["Lindqvist"] and m is not item for m in mentions)


def test_a_passage_quoted_with_its_page_is_no_title(tmp_path: Path) -> None:
    text = (
        "reading notes\n"
        "\n"
        "“Random Features Make the Kernel Trick Cheap Again” (Varga & Holm, 2018, p. 4) nice line for the intro\n"
        "\n"
        "\"we never observed divergence with the smaller step size\" (Aaltonen et al., 2020, pp. 7-8)\n"
    )
    mentions = api_mentions(tmp_path, "quotes.txt", text)
    assert [m.title for m in mentions] == [None, None]
    assert [(m.authors[:1], m.year) for m in mentions] == [(["Varga"], 2018), (["Aaltonen"], 2020)]


ANNOTATIONS = (
    "# Annotations\n"
    "(3/3/2026, 9:00:00 AM)\n"
    "\n"
    "## Learning Sparse Codes for Image Patches\n"
    "\n"
    "“a dictionary learned online” ([Lindqvist et al., 2019, p. 2](zotero://select/library/items/AB12CD34)) "
    "([pdf](zotero://open-pdf/library/items/ZZ99YY88?page=2&annotation=QQ11WW22)) cheap enough\n"
    "\n"
    "“reconstruction error alone” ([Lindqvist et al., 2019, p. 5](zotero://select/library/items/AB12CD34)) "
    "([pdf](zotero://open-pdf/library/items/ZZ99YY88?page=5&annotation=EE33RR44))\n"
    "\n"
    "## two papers on priors\n"
    "\n"
    "“a prior over patches” ([Solheim, 2021, p. 1](zotero://select/library/items/GH56JK78)) "
    "([pdf](zotero://open-pdf/library/items/MM77NN66?page=1&annotation=TT55UU44))\n"
    "\n"
    "“learned end to end” ([Okafor & Brandt, 2011, p. 3](zotero://select/library/items/PQ90RS12)) "
    "([pdf](zotero://open-pdf/library/items/LL44KK33?page=3&annotation=AA22SS11))\n"
)


def test_a_heading_over_one_items_annotations_is_its_title(tmp_path: Path) -> None:
    mentions = api_mentions(tmp_path, "annotations.md", ANNOTATIONS)
    heading = [m for m in mentions if m.location.line == 4]
    assert [(m.title, m.authors, m.authors_incomplete, m.year) for m in heading] == [
        ("Learning Sparse Codes for Image Patches", ["Lindqvist"], True, 2019)]
    # a heading over the annotations of several items names none of them
    assert not any(m.location.line == 11 for m in mentions)


def test_a_quoted_title_right_before_its_identifier_is_that_papers(tmp_path: Path) -> None:
    text = (
        "Mira Sato  11:03 AM\n"
        "for next week — Okafor & Brandt, \"Learned Step Sizes for Sparse Coding\", arxiv 2101.04321. "
        "could be a short session?\n"
    )
    mentions = api_mentions(tmp_path, "chat.txt", text)
    assert [(m.title, m.authors, m.ids.arxiv) for m in mentions] == [
        ("Learned Step Sizes for Sparse Coding", ["Okafor", "Brandt"], "2101.04321")]


def test_a_highlight_cut_with_an_ellipsis_before_its_citation_is_no_title(tmp_path: Path) -> None:
    text = ("## Learning Sparse Codes for Image Patches\n\n"
            "“Under the Gaussian Prior, Sparse Coding” ... ([Lindqvist et al., 2019, p. 5]"
            "(zotero://select/library/items/AB12CD34)) ([pdf](zotero://open-pdf/library/items/ZZ99YY88?page=5)) "
            "(cut at the column break)\n")
    mentions = api_mentions(tmp_path, "annotations.md", text)
    assert all(m.title != "Under the Gaussian Prior, Sparse Coding" for m in mentions)


def test_a_kind_word_in_an_earlier_sentence_leaves_a_quoted_title_a_paper(tmp_path: Path) -> None:
    from tests.helpers_extract import mentions_by_line

    got = mentions_by_line(tmp_path, "# queue\n"
                           "- There is no paper for the clipping trick. \"Quiet Gradients in Shallow Recurrent Networks\" is the one to cite.\n"
                           "- the warm-up cite is a lecture's slides, no Brandt paper. \"Sparse Kernels for Tiny Devices\" has the proof\n"
                           "- \"Deep Nets for Small Worlds\" by Okafor. Great book, read it twice.\n"
                           "- re-read ch. 3 \"Shallow Patterns in Quiet Networks\" before the meeting\n")
    assert got[2][0]["title"] == "Quiet Gradients in Shallow Recurrent Networks"
    assert got[3][0]["title"] == "Sparse Kernels for Tiny Devices"
    assert 4 not in got and 5 not in got
