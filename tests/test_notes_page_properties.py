"""A page's properties written under its title, one ``Key: value`` a line (a Notion page
exported as Markdown, an Obsidian page's header): each line is a property of its own, so the
page's title takes its ``Authors:``/``URL:`` lines, whatever other properties sit between."""

from __future__ import annotations

from tests.helpers_extract import api_mentions as _mentions

PAGE = (
    "# MPNN — Neural Message Passing for Quantum Chemistry\n\n"
    "Authors: Justin Gilmer, Samuel S. Schoenholz\n"
    "Status: Reading\n"
    "Year: 2017\n"
    "URL: https://arxiv.org/abs/1704.01212\n"
    "Related papers: GCN (GCN%20a1b2c3.md), GraphSAGE (GraphSAGE%20d4e5f6.md)\n"
    "Date read: May 2, 2024\n"
    "Created: May 1, 2024 8:12 AM\n\n"
    "## Notes\n\n- attention over neighbours, multi-head\n"
)


def test_a_pages_properties_are_its_details(tmp_path):
    (mention,) = _mentions(tmp_path, "MPNN — Neural Message Passing for Quantum Chemistry 0a1b2c3d4e5f60718293a4b5c6d7e8f9.md", PAGE)
    assert (mention.location.line, mention.title, mention.authors, mention.ids.arxiv) == (
        1, "Neural Message Passing for Quantum Chemistry", ["Justin Gilmer", "Samuel S. Schoenholz"], "1704.01212")


def test_a_labelled_record_is_still_one_paper_with_its_details(tmp_path):
    # a title label opens a record: its lines stay the record's details
    text = "Title: Graph Attention Networks\nAuthors: Petar Veličković, Guillem Cucurull\nStatus: read\nURL: https://arxiv.org/abs/1710.10903\n"
    (mention,) = _mentions(tmp_path, "notes.md", text)
    assert (mention.title, mention.authors, mention.ids.arxiv) == (
        "Graph Attention Networks", ["Petar Veličković", "Guillem Cucurull"], "1710.10903")


RELATED = (
    "# Reading Group Week 3\n\n"
    "Status: Done\n"
    "Date: March 4, 2024\n"
    "Related papers: Sparse Gating for Cheap Experts (Sparse%20Gating%20for%20Cheap%20Experts%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md), "
    "GSR (GSR%200a1b2c3d4e5f60718293a4b5c6d7e8f9.md)\n"
    "Presenter: Lena Park\n\n"
    "## Notes\n\nWe went through the routing results.\n"
)


def test_a_relation_property_names_the_papers_whose_titles_it_spells(tmp_path):
    # each item of the relation is another page of the export, named by its title: a title
    # is that paper, a short name alone (GSR) does not say which paper it is
    for name in ("Reading Group Week 3 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md", "reading-group-week-3.txt"):
        got = [(m.location.line, m.title) for m in _mentions(tmp_path, name, RELATED)]
        assert got == [(5, "Sparse Gating for Cheap Experts")], name


def test_a_relation_item_whose_file_name_the_export_cut_short_is_still_its_page(tmp_path):
    # the export shortens a long page name in its file name (mid-word, colon dropped): the
    # file spells the start of the name, which is still the page's own name
    text = (
        "# Journal club 12\n\n"
        "Status: Done\n"
        "Date: May 7, 2024\n"
        "Papers: Sparse Routing Tables for Cheap Mixture Experts at Scale "
        "(../Papers%20aa11/Sparse%20Routing%20Tables%20for%20Cheap%20Mixture%20Exp%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md), "
        "Gated Delta Sums Improve Recurrent Memory Layers "
        "(../Papers%20aa11/Gated%20Delta%20Sums%20Improve%20Recurrent%20Memory%20Layers%200a1b2c3d4e5f60718293a4b5c6d7e8f9.md)\n"
        "Presenter: Ada Lind\n"
    )
    got = [(m.location.line, m.title) for m in _mentions(tmp_path, "journal-club-12.md", text)]
    assert got == [(5, "Sparse Routing Tables for Cheap Mixture Experts at Scale"),
                   (5, "Gated Delta Sums Improve Recurrent Memory Layers")]


def test_a_relation_item_whose_file_spells_another_name_is_no_page(tmp_path):
    # a name in brackets whose file begins with other words is not the export's relation shape
    text = (
        "# Journal club 13\n\n"
        "Status: Done\n"
        "Date: May 7, 2024\n"
        "Papers: Sparse Routing Tables for Cheap Mixture Experts at Scale "
        "(../Papers%20aa11/Dense%20Routing%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md)\n"
    )
    assert [m.title for m in _mentions(tmp_path, "journal-club-13.md", text)] != [
        "Sparse Routing Tables for Cheap Mixture Experts at Scale"]


def test_a_relation_items_cut_name_gives_way_to_the_title_written_whole(tmp_path):
    # a page name cut short like its file adds nothing where the page writes the whole title
    text = (
        "# Journal club 14\n\n"
        "Status: Done\n"
        "Date: May 7, 2024\n"
        "Papers: Sparse Routing Tables for Cheap Mixture Exp "
        "(../Papers%20aa11/Sparse%20Routing%20Tables%20for%20Cheap%20Mix%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md)\n"
        "Presenter: Ada Lind\n\n"
        "## Notes\n\n"
        "- Sparse Routing Tables for Cheap Mixture Experts (Lind & Moro, 2023)\n"
    )
    got = [(m.location.line, m.title) for m in _mentions(tmp_path, "journal-club-14.md", text)]
    assert got == [(10, "Sparse Routing Tables for Cheap Mixture Experts")]


def test_a_relation_to_meeting_pages_names_no_papers(tmp_path):
    # a long meeting page's name reads as a title as well as a paper's: only a label or a
    # database folder that names papers makes the related pages papers
    text = (
        "# Project Lantern\n\n"
        "Status: Active\n"
        "Date: May 7, 2024\n"
        "Sessions: Reading Group Week 12 Scaling Laws and Data Mixtures for Small Models "
        "(../Meetings%20bb22/Reading%20Group%20Week%2012%20Scaling%20Laws%20and%20Dat%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md)\n"
        "Presenter: Ada Lind\n"
    )
    assert [m.title for m in _mentions(tmp_path, "project-lantern.md", text)] == []


def test_a_relation_into_a_papers_database_names_papers_whatever_its_label(tmp_path):
    text = (
        "# Project Lantern\n\n"
        "Status: Active\n"
        "Date: May 7, 2024\n"
        "Builds on: Quiet Gradients in Shallow Recurrent Networks "
        "(../Papers%20DB%20bb22/Quiet%20Gradients%20in%20Shallow%20Rec%209f8e7d6c5b4a39281706f5e4d3c2b1a0.md)\n"
        "Presenter: Ada Lind\n"
    )
    got = [(m.location.line, m.title) for m in _mentions(tmp_path, "project-lantern.md", text)]
    assert got == [(5, "Quiet Gradients in Shallow Recurrent Networks")]
