"""Reading papers in chat logs, forwarded e-mails, saved posts, annotation notes and link
lists: an identifier inside a citation's brackets, and the other shapes these notes share.
Every line here is made up, in the shape such notes have.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import extract_mentions, mentions_by_line as _extract


def test_an_identifier_in_a_citations_brackets_is_that_papers(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ola Brandt  9:12 AM\n"
                   "remember Heron (Okafor et al. 2021, arXiv:2104.05512) said twice the data is enough, "
                   "and the Lindqvist et al. 2019 paper disagreed\n"
                   "Ola Brandt  9:14 AM\n"
                   "the long version: arxiv 2203.01177 (Mensah et al., Kyoto). worth a skim\n", "chat.txt")
    heron = next(m for m in got[2] if m["ids"].get("arxiv") == "2104.05512")
    assert heron["authors"] == ["Okafor"] and heron["authors_incomplete"] and heron["year"] == 2021
    assert any(m["authors"] == ["Lindqvist"] and m["year"] == 2019 for m in got[2])
    long = next(m for m in got[4] if m["ids"].get("arxiv") == "2203.01177")
    assert long["authors"] == ["Mensah"] and long["authors_incomplete"]


def test_an_identifier_outside_brackets_takes_no_citation_of_the_line(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ola Brandt  9:12 AM\n"
                   "the first one is arxiv 2104.05512 fwiw, and Lindqvist et al. 2019 is the other\n", "chat.txt")
    first = next(m for m in got[2] if m["ids"].get("arxiv") == "2104.05512")
    assert first["authors"] == []


def test_links_to_two_different_papers_under_a_topic_line_are_a_list(tmp_path: Path) -> None:
    got = _extract(tmp_path, "to read\n\n"
                   "fairness / audits\n"
                   "dl.acm.org/doi/10.1145/3411764.3445001\n"
                   "https://doi.org/10.1145/3531146.3533002\n"
                   "huggingface.co/papers/2309.01234\n", "links.txt")
    assert 3 not in got  # the topic line is no paper
    assert got[4][0]["ids"]["doi"] == "10.1145/3411764.3445001"
    assert got[5][0]["ids"]["doi"] == "10.1145/3531146.3533002"
    assert got[6][0]["ids"]["arxiv"] == "2309.01234"


def test_a_title_with_its_doi_and_arxiv_pages_below_stays_one_paper(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Quiet Gradients in Shallow Recurrent Networks\n"
                   "https://doi.org/10.1145/3411764.3445001\n"
                   "https://arxiv.org/abs/2101.04321\n", "links.txt")
    assert [m["title"] for ms in got.values() for m in ms] == ["Quiet Gradients in Shallow Recurrent Networks"]


def test_paper_pages_written_without_a_scheme_name_their_paper(tmp_path: Path) -> None:
    got = _extract(tmp_path, "bookmarks\n\n"
                   "www.semanticscholar.org/arxiv/2012.04321\n"
                   "www.nature.com/articles/s41586-021-03001-1\n"
                   "nature.com/articles/nature12345\n", "links.txt")
    assert got[3][0]["ids"]["arxiv"] == "2012.04321"
    assert got[4][0]["ids"]["doi"] == "10.1038/s41586-021-03001-1"
    assert got[5][0]["ids"]["doi"] == "10.1038/nature12345"


_FORWARDED = ("Ola Brandt  9:15 AM\n"
              "forwarding Ines' mail about the list\n"
              "---------- Forwarded message ---------\n"
              "From: Ines Ito <i.ito@example.org>\n"
              "\n"
              "> 1. For the decoder I'd start from Okafor & Lindqvist, \"Quiet Gradients in\n"
              "> Shallow Recurrent Networks for Sparse Tagging\", ACL 2021, still the\n"
              "> cleanest baseline, and Heron (arXiv:2104.05512) if you have the budget.\n"
              ">\n"
              "> 2. Skip the \"tune only what you\n"
              "> must\" advice, and read Mensah et al. 2019.\n")


def test_an_email_quoted_in_a_chat_wraps_its_lines(tmp_path: Path) -> None:
    got = _extract(tmp_path, _FORWARDED, "chat.txt")
    titled = [m for ms in got.values() for m in ms if m["title"]]
    assert [m["title"] for m in titled] == ["Quiet Gradients in Shallow Recurrent Networks for Sparse Tagging"]
    assert titled[0]["authors"] == ["Okafor", "Lindqvist"] and titled[0]["year"] == 2021


def test_an_identifier_in_brackets_after_a_name_leaves_the_lines_other_papers(tmp_path: Path) -> None:
    got = _extract(tmp_path, "- decoder: Heron (arXiv:2104.05512) if you have the budget, else Mensah et al. 2019 "
                   "or Okafor & Lindqvist, \"Quiet Gradients in Shallow Recurrent Networks\", ACL 2021\n")
    assert any(m["ids"].get("arxiv") == "2104.05512" and not m["authors"] and not m["title"] for m in got[1])
    assert any(m["authors"] == ["Mensah"] and m["year"] == 2019 for m in got[1])
    assert any(m["title"] == "Quiet Gradients in Shallow Recurrent Networks" and m["authors"] == ["Okafor", "Lindqvist"] for m in got[1])


def test_a_lower_case_quoted_phrase_before_a_noun_is_no_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "- Heron (arXiv:2104.05512) and Mensah et al. 2019: "
                   "the committee likes \"what changed since then\" questions\n")
    assert all(m["title"] != "what changed since then" for ms in got.values() for m in ms)
    assert any(m["authors"] == ["Mensah"] for m in got[1])


def test_names_then_a_comma_and_a_title_cite_that_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "follow-ups:\n"
                   "- on drift: Okafor, Mensah & Ito, Quiet Gradients in Shallow Recurrent Networks\n"
                   "- the classic ref is Lindqvist & Brandt, The Sparse Ledger Model: Counts and Beyond (2009). long though\n"
                   "- Okafor & Ito, they show the opposite on small data\n")
    first = got[2][0]
    assert first["title"] == "Quiet Gradients in Shallow Recurrent Networks"
    assert first["authors"] == ["Okafor", "Mensah", "Ito"]
    second = got[3][0]
    assert second["title"] == "The Sparse Ledger Model: Counts and Beyond" and second["year"] == 2009
    assert second["authors"] == ["Lindqvist", "Brandt"]
    assert all(m["title"] is None for m in got.get(4, []))


def test_two_arxiv_ids_on_a_line_are_two_papers(tmp_path: Path) -> None:
    got = _extract(tmp_path, "careful: two Okafor et al. 2021 papers! this one is the ledger one (2104.05512). "
                   "the other is \"Quiet Gradients in Shallow Recurrent Networks\" (2103.01177), don't merge them\n")
    by_id = {m["ids"].get("arxiv"): m for m in got[1] if m["ids"].get("arxiv")}
    assert set(by_id) == {"2104.05512", "2103.01177"}
    assert by_id["2103.01177"]["title"] == "Quiet Gradients in Shallow Recurrent Networks"
    assert by_id["2104.05512"]["title"] is None


def test_the_abstract_and_pdf_links_of_one_paper_stay_one_mention(tmp_path: Path) -> None:
    got = _extract(tmp_path, "- https://arxiv.org/abs/2104.05512 (pdf: https://arxiv.org/pdf/2104.05512v2)\n")
    assert len(got[1]) == 1


def test_a_posts_announced_title_alone_on_its_line_is_a_paper(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ledger Bot\n@ledgerbot\n·\nMar 3, 2024\n"
                   "🚨 New paper: Quiet Gradients: Sparse Tagging with Shallow Recurrent Networks\n\n"
                   "they swap the big model for a tiny one and it still works\n\n"
                   "arxiv.org/abs/2403.01234\n\n"
                   "Ledger Bot\n@ledgerbot\n·\nMar 4, 2024\n"
                   "New paper: we show that tiny models are enough.\n", "tweets.txt")
    assert [m["title"] for m in got[5]] == ["Quiet Gradients: Sparse Tagging with Shallow Recurrent Networks"]
    assert got[9][0]["ids"]["arxiv"] == "2403.01234"
    assert 15 not in got


def test_a_quoted_title_is_read_when_the_lines_blog_or_library_word_speaks_of_something_else(tmp_path: Path) -> None:
    got = _extract(tmp_path, "open questions:\n"
                   "- which decay? check \"Quiet Gradients in Shallow Recurrent Networks\" defaults + the optimizer docs\n"
                   "- follow-up w/ Ito: \"Sparse Ledgers: Fast Counting with Large Tables\" (1cycle). not in library yet\n"
                   "- compare w/ the HF blog \"The Many Small Details of Sparse Tagging\" before Friday\n"
                   "- Ep. 12: \"Sparse Tagging, Considered Harmful?\" no paper, just a chat\n")
    assert [m["title"] for m in got[2]] == ["Quiet Gradients in Shallow Recurrent Networks"]
    assert [m["title"] for m in got[3]] == ["Sparse Ledgers: Fast Counting with Large Tables"]
    assert 4 not in got and 5 not in got


def test_a_zotero_highlight_is_never_a_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# Annotations\n\n"
                   "“Quiet Gradients Make Shallow Recurrent Networks Learn Sparse Tags” "
                   "([Okafor et al., 2021, p. 3](zotero://select/library/items/ABCD1234)) "
                   "([pdf](zotero://open-pdf/library/items/EFGH5678?page=3))\n")
    assert all(m["title"] is None for m in got[3])


def test_a_papers_labelled_note_names_other_papers(tmp_path: Path) -> None:
    got = _extract(tmp_path, "论文: Quiet Gradients in Shallow Recurrent Networks\n"
                   "作者: Ada Okafor, Ben Ito\n"
                   "会议: ACL 2021\n"
                   "arXiv: 2104.05512\n"
                   "笔记: 核心是稀疏标注。后续的 Quiet Gradients 2 (Okafor 2023, 2305.01234) 也建议看\n\n"
                   "제목: Sparse Ledgers for Counting\n"
                   "저자: Ada Okafor 외\n"
                   "연도: 2020\n"
                   "메모: 위에서 말한 모델. Okafor 2020 이랑 같은 논문\n")
    later = [m for m in got[5] if m["ids"].get("arxiv") == "2305.01234"]
    assert len(later) == 1 and later[0]["authors"] == ["Okafor"] and later[0]["year"] == 2023
    assert [m["title"] for m in got[7]] == ["Sparse Ledgers for Counting"]
    assert 10 not in got  # (the note cites the paper it is under)


def test_names_right_after_a_quoted_title_are_its_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ola Brandt  10:58 AM\n"
                   "and the ledger one if we're doing history. \"Counting sparse ledgers with very small tables\", Okafor et al. Kyoto\n"
                   "Ola Brandt  11:02 AM\n"
                   "bonus: QG, \"Quiet Gradients in Shallow Recurrent Networks\", Mensah & Ito — why small is fine\n", "chat.txt")
    first = next(m for m in got[2] if m["title"])
    assert first["title"] == "Counting sparse ledgers with very small tables"
    assert first["authors"] == ["Okafor"] and first["authors_incomplete"]
    second = next(m for m in got[4] if m["title"])
    assert second["title"] == "Quiet Gradients in Shallow Recurrent Networks" and second["authors"] == ["Mensah", "Ito"]


def test_a_short_name_before_a_citation_in_brackets_is_no_author(tmp_path: Path) -> None:
    got = _extract(tmp_path, "- 《Quiet Gradients in Shallow Recurrent Networks》(QGN, Okafor et al., ICML 2021) — 小林\n"
                   "- the tagger (SLT, Mensah et al., 2019) is older\n")
    assert got[1][0]["authors"] == ["Okafor"] and got[1][0]["year"] == 2021
    assert any(m["authors"] == ["Mensah"] and m["year"] == 2019 for m in got[2])


def test_a_quoted_title_before_its_citation_and_identifier_in_brackets(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ola Brandt  11:24 AM\n"
                   "QG = \"Quiet Gradients in Shallow Recurrent Networks\" (Okafor et al 2022, 2212.01234). check the board first\n", "chat.txt")
    m = next(m for m in got[2] if m["ids"].get("arxiv") == "2212.01234")
    assert m["title"] == "Quiet Gradients in Shallow Recurrent Networks"
    assert m["authors"] == ["Okafor"] and m["year"] == 2022


def test_a_title_line_takes_the_citation_beside_its_quoted_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "ok the 90-page \"Quiet Gradients: Early Experiments with Tiny Taggers\" (Okafor et al.) is a lot\n"
                   "arxiv.org/abs/2303.01234\n", "tweets.txt")
    m = got[1][0]
    assert m["title"] == "Quiet Gradients: Early Experiments with Tiny Taggers"
    assert m["authors"] == ["Okafor"] and m["authors_incomplete"]


def test_a_three_word_title_in_title_marks_on_a_citing_line(tmp_path: Path) -> None:
    got = _extract(tmp_path, "- 「Quiet Gradient Tagging」 QGT, Okafor 等, NeurIPS 2023 — 민지\n"
                   "- 顺便提一下「Latent Ledgers」那篇（Mensah 等, CVPR 2022），但这周不展开\n"
                   "- 论文格式模板: 「ICLR 2025」官方 LaTeX 模板\n")
    assert any(m["title"] == "Quiet Gradient Tagging" for m in got[1])
    assert all(m["title"] is None for m in got.get(2, []) + got.get(3, []))


def test_a_remark_citing_a_titled_paper_over_a_link_is_no_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "🚨 New paper: Are Quiet Gradients a Mirage?\n\n"
                   "Directly pushes back on Okafor et al. 2022 (Quiet Gradients in Shallow Recurrent Networks, TMLR)\n"
                   "arxiv.org/abs/2304.01234\n", "tweets.txt")
    assert {m["title"] for m in got[3]} == {None, "Quiet Gradients in Shallow Recurrent Networks"}
    cited = next(m for m in got[3] if m["title"])
    assert cited["authors"] == ["Okafor"] and cited["year"] == 2022 and not cited["ids"].get("arxiv")
    assert next(m for m in got[3] if not m["title"])["ids"]["arxiv"] == "2304.01234"


def test_a_remark_after_a_named_citation_is_no_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "follow-ups:\n"
                   "- QGT (Okafor et al. 2024) only needs binary good/bad labels, no pairs\n"
                   "- QGN (Mensah et al. 2021) Quiet Gradients in Shallow Recurrent Networks\n")
    assert got[2][0]["title"] is None and got[2][0]["authors"] == ["Okafor"] and got[2][0]["year"] == 2024


CHAT_WITH_LINKS = """Rosa Delgado  9:02 AM
has anyone tried the sparse gating trick? https://arxiv.org/abs/2311.04455 claims it halves the router cost
Tomas Ek  9:10 AM
for the warm-up question I'd read the routing paper https://arxiv.org/abs/2309.01188 and Okafor et al. 2021 on load balancing. both short
Rosa Delgado  9:12 AM
https://arxiv.org/abs/2402.07731
"""


def test_a_message_holding_a_link_is_no_title_and_its_other_citations_are_read(tmp_path: Path) -> None:
    # the message's words are a message, not the linked paper's title; a citation elsewhere in
    # it is a paper of its own; a bare link under a message header is not titled by the header
    got = extract_mentions(tmp_path, "channel.txt", CHAT_WITH_LINKS)
    assert [(m["location"]["line"], m["title"], m["ids"]["arxiv"], m["authors"], m["year"]) for m in got] == [
        (2, None, "2311.04455", [], None),
        (4, None, "2309.01188", [], None),
        (4, None, None, ["Okafor"], 2021),
        (6, None, "2402.07731", [], None),
    ]


def test_a_title_beside_a_link_is_still_its_title(tmp_path: Path) -> None:
    text = "Rosa Delgado  9:02 AM\nSparse Gating Tricks for Cheap Routers https://arxiv.org/abs/2311.04455\n"
    got = extract_mentions(tmp_path, "channel.txt", text)
    assert [(m["title"], m["ids"]["arxiv"]) for m in got] == [("Sparse Gating Tricks for Cheap Routers", "2311.04455")]


POSTS = """Lena Park @lenapark · Mar 3
the routing result finally clicked (Okafor, Lindqvist, Mbeki — "Cheap Experts Through Sparse Gating") and it is all one kernel

Tom Ruiz @truiz · Mar 4
Okafor & Lindqvist (Gated Momentum for Sparse Routers, ICLR'21) already said so. and the original mixer paper (Token Mixing Without Attention Maps, https://t.co/Xy12AbCdEf) had no ablations at all
"""


def test_titles_in_a_posts_brackets_with_their_names_or_link(tmp_path: Path) -> None:
    # a title quoted after a bracketed list of names, a title in brackets after names joined
    # by "&" (with its venue and year), a title in brackets with its link after a comma
    got = extract_mentions(tmp_path, "saved_posts.txt", POSTS)
    assert sorted((m["location"]["line"], m["title"], m["authors"], m["year"]) for m in got) == [
        (2, "Cheap Experts Through Sparse Gating", ["Okafor", "Lindqvist", "Mbeki"], None),
        (5, "Gated Momentum for Sparse Routers", ["Okafor", "Lindqvist"], 2021),
        (5, "Token Mixing Without Attention Maps", [], None),
    ]
