"""Line shapes a new user writes: a to-do verb before a title is what to do with the
paper, not part of its title."""

from __future__ import annotations

import pytest

from citekit.notes.extract import extract_text


@pytest.mark.parametrize("verb", ["read:", "skim:", "Reread:", "re-read:"])
@pytest.mark.parametrize("name", ["r.org", "r.md"])
def test_a_to_do_verb_before_a_heading_title_is_not_title_text(verb, name):
    star = "**" if name.endswith(".org") else "##"
    text = (f"{star} TODO {verb} Sparse Gating: Routing Tokens in Translation Models\n"
            "Ana Okafor, Lars Lindqvist\n")
    (mention,) = extract_text(text, name).mentions
    assert mention.title == "Sparse Gating: Routing Tokens in Translation Models"


@pytest.mark.parametrize("verb", ["read:", "Skim:"])
def test_a_to_do_verb_before_a_list_item_title_is_not_title_text(verb):
    text = f"- {verb} Sparse Gating: Routing Tokens in Translation Models — Ana Okafor, Lars Lindqvist\n"
    (mention,) = extract_text(text, "r.md").mentions
    assert (mention.title, mention.authors) == ("Sparse Gating: Routing Tokens in Translation Models", ["Ana Okafor", "Lars Lindqvist"])


@pytest.mark.parametrize("text,name", [
    ("** Sparse Gating: Routing Tokens in Translation Models\nAna Okafor, Lars Lindqvist\n#nlp #moe\n", "r.org"),
    ("** Sparse Gating: Routing Tokens in Translation Models\n:PROPERTIES:\n:AUTHORS: Ana Okafor, Lars Lindqvist\n"
     ":END:\n#nlp #moe\n", "r.org"),
    ("## Sparse Gating: Routing Tokens in Translation Models\nAna Okafor, Lars Lindqvist\n#nlp #moe\n", "r.md"),
    ("## Sparse Gating: Routing Tokens in Translation Models\nAna Okafor, Lars Lindqvist\n#nlp #moe\n", "r.txt"),
])
def test_a_line_of_tags_under_a_heading_tags_its_paper(text, name):
    """A line of ``#tags`` is a detail line of its own: not more words of the author line
    above it (which then named no one), nor a remark left out of the paper's details."""
    (mention,) = extract_text(text, name).mentions
    assert (mention.authors, mention.hashtags) == (["Ana Okafor", "Lars Lindqvist"], ["nlp", "moe"])


TITLE_LINE = "- **Sparse Gating for Routers** — Ana Okafor, Lars Lindqvist (2024)\n"


@pytest.mark.parametrize("below", ["  https://okafor.example.org/posts/gating/  (blog post, not a paper)\n",
                                   "  an essay, not a paper\n"])
@pytest.mark.parametrize("name", ["r.md", "r.txt", "r.org"])
def test_a_line_below_that_says_not_a_paper_makes_no_paper(below, name):
    assert extract_text(TITLE_LINE + below, name).mentions == []


@pytest.mark.parametrize("name", ["r.md", "r.txt", "r.org"])
def test_a_link_with_a_bracketed_remark_is_a_link_not_a_summary(name):
    (mention,) = extract_text(TITLE_LINE + "  https://arxiv.org/abs/2401.01234 (see the appendix)\n", name).mentions
    assert (mention.urls, mention.summary) == (["https://arxiv.org/abs/2401.01234"], None)


@pytest.mark.parametrize("line", [
    "- [Sparse Gating for Routing Tokens](https://arxiv.org/abs/2401.01234) by Okafor et al. (2024)",
    "- Sparse Gating for Routing Tokens by Okafor et al. 2024 https://arxiv.org/abs/2401.01234",
])
def test_one_surname_and_et_al_after_by_are_the_authors(line):
    (mention,) = extract_text(line + "\n", "r.md").mentions
    assert (mention.title, mention.authors, mention.authors_incomplete, mention.year) == (
        "Sparse Gating for Routing Tokens", ["Okafor"], True, 2024)


@pytest.mark.parametrize("line,authors,year", [
    ("- Sparse Gating: Routing Tokens in Translation, Okafor & Lindqvist. https://arxiv.org/abs/2401.01234 #moe", ["Okafor", "Lindqvist"], None),
    ("- Sparse Gating: Routing Tokens in Translation, Okafor and Lindqvist, 2024.", ["Okafor", "Lindqvist"], 2024),
    ("- Sparse Gating for Routing Tokens in Translation, Okafor, Mbeki & Lindqvist", ["Okafor", "Mbeki", "Lindqvist"], None),
])
def test_a_closed_list_of_surnames_after_a_comma_ends_the_title(line, authors, year):
    (mention,) = extract_text(line + "\n", "r.md").mentions
    assert (mention.title, mention.authors, mention.year) == (line[2:].split(",")[0], authors, year)


def test_ordinary_words_after_a_comma_stay_in_the_title():
    title = "Sparse Gating for Routing Tokens, Theory & Practice"
    (mention,) = extract_text(f"- {title} https://arxiv.org/abs/2401.01234\n", "r.md").mentions
    assert (mention.title, mention.authors) == (title, [])


def test_a_title_after_a_bracketed_year_belongs_to_its_citation_beside_another():
    line = "- Okafor et al. (2018) Sparse Gating: Routing Tokens in Translation. See also Mbeki et al. (2024) on routers.\n"
    mentions = extract_text(line, "r.md").mentions
    assert [(m.title, m.authors, m.year) for m in mentions] == [
        ("Sparse Gating: Routing Tokens in Translation", ["Okafor"], 2018), (None, ["Mbeki"], 2024)]


def test_a_sentence_after_a_bracketed_year_is_no_title():
    line = "- Okafor et al. (2018) showed that the gates collapse early. See also Mbeki et al. (2024) on routers.\n"
    assert [m.title for m in extract_text(line, "r.md").mentions] == [None, None]


@pytest.mark.parametrize("bullet", ["- ", ""])
@pytest.mark.parametrize("name", ["r.md", "r.txt", "r.org"])
def test_a_pasted_ieee_reference_keeps_where_it_appeared(bullet, name):
    text = (f'{bullet}[4] A. Okafor, L. Lindqvist, and M. Mbeki, "Sparse gating for routing tokens," in\n'
            "    Proc. IEEE ICCV, 2019, pp. 120–128.\n")
    (mention,) = extract_text(text, name).mentions
    assert mention.published == {"container": "Proc. IEEE ICCV", "pages": "120--128"}
