"""Small English and Markdown notes: the shapes other users write."""

from __future__ import annotations

from citekit.core.model import Ids
from citekit.notes import extract_text, group_mentions

MARKDOWN = """\
# NeurIPS 2025 notes

## Optimizers #ignored-heading-tag

- Old Optimizers, New Norms: An Anthology #muon #Theory
  - Authors: Jeremy Bernstein, Laker Newhouse
  - Summary: Adam, Shampoo and Prodigy are steepest descent under different norms.
  - Code: https://github.com/example/modula
  - arxiv: 2409.20325
* Deep Networks Are Kernels
    * Authors: Alice Smith; Bob Jones
    * Summary: A short note.

## Talks

1. Scaling Laws for Everything
   1. https://neurips.cc/virtual/2025/invited-talk/12345
2) Lunch w/ the Muon folks

### Muon is Scalable for LLM Training
- URL: https://arxiv.org/abs/2502.16982v2
- Authors: Jingyuan Liu and Jianlin Su and Enzhe Lu
"""


def by_title(text: str, file: str = "notes.md") -> dict[str, object]:
    return {m.title: m for m in extract_text(text, file).mentions}


def test_markdown_bullets_labels_and_headings() -> None:
    result = extract_text(MARKDOWN, "notes/neurips.md")
    assert result.problems == []
    titles = [m.title for m in result.mentions]
    assert titles == [
        "Old Optimizers, New Norms: An Anthology",
        "Deep Networks Are Kernels",
        "Muon is Scalable for LLM Training",
    ]
    first, second, third = result.mentions
    assert first.location.line == 5 and first.location.file == "notes/neurips.md"
    assert first.authors == ["Jeremy Bernstein", "Laker Newhouse"]
    assert first.summary == "Adam, Shampoo and Prodigy are steepest descent under different norms."
    assert first.links == {"code": "https://github.com/example/modula"}
    assert first.hashtags == ["muon", "theory"]
    assert first.pins == Ids(arxiv="2409.20325")
    assert first.section == "Optimizers"
    assert (first.venue, first.year) == ("NeurIPS", 2025)
    assert second.authors == ["Alice Smith", "Bob Jones"]


def test_heading_with_labelled_bullets_is_a_paper() -> None:
    third = extract_text(MARKDOWN, "n.md").mentions[2]
    assert third.kind == "titled"
    assert third.location.line == 20
    assert third.urls == ["https://arxiv.org/abs/2502.16982v2"]
    assert third.ids == Ids(arxiv="2502.16982")
    assert third.authors == ["Jingyuan Liu", "Jianlin Su", "Enzhe Lu"]
    assert third.section == "Talks"


def test_heading_hashtags_are_not_mention_hashtags() -> None:
    mentions = [m for m in extract_text(MARKDOWN, "n.md").mentions if m.section == "Optimizers"]
    assert mentions  # the heading's own mentions are there to be checked
    for m in mentions:
        assert "ignored-heading-tag" not in m.hashtags


def test_talks_and_lunch_in_numbered_lists_are_not_papers() -> None:
    titles = [m.title for m in extract_text(MARKDOWN, "n.md").mentions]
    assert "Scaling Laws for Everything" not in titles
    assert not any("Lunch" in (t or "") for t in titles)


def test_plain_text_block_without_bullets() -> None:
    text = (
        "ICLR 2026\n\n"
        "Attention Sinks Revisited\n"
        "URL: https://openreview.net/forum?id=AbCdEf1234\n"
        "Authors: Ana Lima ⋅ Bo Chen\n"
        "Summary: Sinks are a by-product of softmax.\n"
    )
    [m] = extract_text(text, "n.txt").mentions
    assert m.title == "Attention Sinks Revisited"
    assert m.location.line == 3
    assert m.ids == Ids(openreview="AbCdEf1234")
    assert m.authors == ["Ana Lima", "Bo Chen"]
    assert (m.venue, m.year) == ("ICLR", 2026)


def test_markdown_link_title_and_inline_url() -> None:
    text = (
        "- [Deep Residual Learning](https://arxiv.org/abs/1512.03385) #classic\n"
        "  - Summary: Skip connections make very deep nets trainable.\n"
        "- Batch Normalization Revisited (https://doi.org/10.5555/ABC.123)\n"
        "  - Authors: Sergey Ioffe, Christian Szegedy\n"
    )
    first, second = extract_text(text, "n.md").mentions
    assert first.title == "Deep Residual Learning"
    assert first.ids.arxiv == "1512.03385"
    assert first.hashtags == ["classic"]
    assert second.title == "Batch Normalization Revisited"
    assert second.ids.doi == "10.5555/abc.123"


def test_all_pins_and_a_bad_pin_reported() -> None:
    text = (
        "- A Paper With Pins\n"
        "  - openreview: FSlTEObdLl\n"
        "  - doi: 10.1234/ABCD\n"
        "  - dblp: conf/icml/SiPLPX25\n"
        "  - arxiv: not-an-id\n"
    )
    result = extract_text(text, "n.md")
    [m] = result.mentions
    assert m.pins == Ids(doi="10.1234/abcd", openreview="FSlTEObdLl", dblp="conf/icml/SiPLPX25")
    [problem] = result.problems
    assert problem.line == 5 and "arxiv" in problem.message and "2605.12345" in problem.message


def test_hashtags_inside_urls_are_not_tags() -> None:
    text = "- Some Paper Title #optim\n  - URL: https://arxiv.org/abs/2401.00001#section\n"
    [m] = extract_text(text, "n.md").mentions
    assert m.hashtags == ["optim"]


def test_bare_urls_become_url_mentions_except_talks_slides_and_repositories() -> None:
    text = (
        "- https://arxiv.org/abs/2401.00001\n"
        "- https://icml.cc/virtual/2026/invited-talk/1\n"
        "- https://speakerdeck.com/someone/talk\n"
        "- https://github.com/org/repo\n"
        "- https://eshyperscale.github.io/\n"
        "\n"
        "https://openreview.net/forum?id=XyZ123abc\n"
    )
    for name in ("n.md", "n.txt"):
        mentions = extract_text(text, name).mentions
        assert [(m.kind, m.location.line) for m in mentions] == [("url", 1), ("url", 5), ("url", 7)], name
        assert mentions[0].ids.arxiv == "2401.00001"
        assert mentions[1].links == {"project": "https://eshyperscale.github.io/"}
        assert mentions[2].ids.openreview == "XyZ123abc"


def test_acl_anthology_listing_pages_are_not_papers_but_its_paper_pages_are() -> None:
    # an event, volume or person page of the Anthology lists many papers and names none
    text = (
        "https://aclanthology.org/events/acl-2024/\n"
        "aclanthology.org/volumes/2024.acl-long/\n"
        "https://aclanthology.org/people/c/christopher-d-manning/\n"
        "https://aclanthology.org/2020.acl-main.1/\n"
        "https://aclanthology.org/P15-1001/\n"
    )
    mentions = extract_text(text, "links.txt").mentions
    assert [(m.kind, m.location.line) for m in mentions] == [("url", 4), ("url", 5)]


def test_markdown_lazy_continuation_line_belongs_to_the_item() -> None:
    # CommonMark: a line right after a list item, without a blank line, continues that item
    text = "- Some Paper With Links\nhttps://openreview.net/forum?id=XyZ123abc\n"
    [m] = extract_text(text, "n.md").mentions
    assert (m.title, m.location.line, m.ids.openreview) == ("Some Paper With Links", 1, "XyZ123abc")


def test_english_person_and_social_bullets_are_not_papers() -> None:
    text = (
        "- Dinner w/ Alice (MIT)\n"
        "- Jane Doe (Stanford)\n"
        "  - Great chat about optimizers and their theory at scale.\n"
        "- Industry Social\n"
        "  - John Roe (Google)\n"
    )
    assert extract_text(text, "n.md").mentions == []


def test_title_with_unlabelled_author_line_and_summary() -> None:
    text = (
        "- Lions and Muons: Optimization via Stochastic Frank-Wolfe\n"
        "  - Maria-Eleni Sfyraki ⋅ Jun-Kun Wang\n"
        "  - Lion and Muon are special cases of stochastic Frank-Wolfe.\n"
    )
    [m] = extract_text(text, "n.md").mentions
    assert m.authors == ["Maria-Eleni Sfyraki", "Jun-Kun Wang"]
    assert m.summary == "Lion and Muon are special cases of stochastic Frank-Wolfe."


def test_org_mode_stars_are_headings() -> None:
    text = "* ICML 2026\n** Papers\n- Some Org Paper Title\n  - Authors: A B, C D\n"
    [m] = extract_text(text, "notes.org").mentions
    assert m.title == "Some Org Paper Title"
    assert m.section == "Papers"
    assert (m.venue, m.year) == ("ICML", 2026)


def test_markdown_star_bullets_are_not_headings() -> None:
    text = "* Some Markdown Paper Title\n  * Authors: A B, C D\n"
    [m] = extract_text(text, "notes.md").mentions
    assert m.title == "Some Markdown Paper Title"


def test_same_work_under_two_titles_via_identifier() -> None:
    text = (
        "- Compute When Worth It: Risk Control for Reasoning\n"
        "  - URL: https://arxiv.org/abs/2510.00001v1\n"
        "- Conformal Thinking: Risk Control for Reasoning on a Compute Budget\n"
        "  - URL: https://arxiv.org/pdf/2510.00001v3.pdf\n"
    )
    groups = group_mentions(extract_text(text, "n.md").mentions)
    assert [[m.location.line for m in g] for g in groups] == [[1, 3]]


def test_a_line_over_several_paper_links_is_a_list_not_a_paper() -> None:
    text = (
        "- Papers I liked\n"
        "  - https://arxiv.org/abs/2401.00001\n"
        "  - https://arxiv.org/abs/2401.00002\n"
    )
    mentions = extract_text(text, "n.md").mentions
    assert [(m.kind, m.location.line) for m in mentions] == [("url", 2), ("url", 3)]


def test_title_with_its_arxiv_and_openreview_links_is_one_paper() -> None:
    text = (
        "- A Paper With Two Links\n"
        "  - https://arxiv.org/abs/2401.00001\n"
        "  - https://openreview.net/forum?id=AbCdEf1234\n"
    )
    [m] = extract_text(text, "n.md").mentions
    assert m.ids == Ids(arxiv="2401.00001", openreview="AbCdEf1234")


def test_plain_section_line_over_indented_bullets() -> None:
    text = (
        "Posters worth rereading\n"
        "  - Some Good Paper Title\n"
        "    - URL: https://icml.cc/virtual/2026/poster/1\n"
    )
    [m] = extract_text(text, "n.txt").mentions
    assert m.title == "Some Good Paper Title"
    assert m.section == "Posters worth rereading"


def test_plain_title_with_url_on_the_same_line() -> None:
    text = "Attention Is All You Need https://arxiv.org/abs/1706.03762 #classic\n\nSee you next year.\n"
    [m] = extract_text(text, "n.txt").mentions
    assert m.title == "Attention Is All You Need"
    assert m.ids.arxiv == "1706.03762"
    assert m.hashtags == ["classic"]


def test_bare_url_with_hashtag_is_a_url_mention() -> None:
    [m] = extract_text("https://arxiv.org/abs/2401.00001 #muon\n", "n.txt").mentions
    assert (m.kind, m.hashtags, m.title) == ("url", ["muon"], None)


def test_title_label_as_the_title_line() -> None:
    text = (
        "- Posters\n"
        "  - Title: A Labelled Title\n"
        "    - Authors: Ana Lima, Bo Chen, Cy Dee\n"
        "  - Another Paper Title\n"
        "    - Summary: Something was shown.\n"
    )
    titles = [m.title for m in extract_text(text, "n.md").mentions]
    assert titles == ["A Labelled Title", "Another Paper Title"]
