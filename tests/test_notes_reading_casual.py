"""Reading a mention in casual and pasted shapes: Nature-style references, a group that
signs a paper before its year, names in lower case or before a dash and a title, a
two-digit year after joined names, a title in single quotes, a post's announcement before
a title, an abbreviated journal after the names, a nickname label before names, the title
written after a Zotero annotation's citation link, and Hugging Face's short address. Every
line here is made up, in the shape notes have.
"""

from __future__ import annotations

from pathlib import Path

from citekit.core.ids import ids_from_url
from tests.helpers_extract import mentions_by_line as _extract


def test_a_nature_style_reference_parts_names_and_title_at_the_initials(tmp_path: Path) -> None:
    got = _extract(tmp_path, "References\n"
                   "1. Okafor, T. & Lindqvist, M. A sparse view of tiny recurrent models. J. Mach. Learn. Res. 12, 1–20 (2011).\n"
                   "2. Brandt, K. Quiet gradients in shallow networks. Ann. Stat. 9, 44–51 (1999).\n", "refs.txt")
    assert got[2][0]["title"] == "A sparse view of tiny recurrent models"
    assert [a.split(",")[0] for a in got[2][0]["authors"]] == ["Okafor", "Lindqvist"]
    assert got[3][0]["title"] == "Quiet gradients in shallow networks"
    assert [a.split(",")[0] for a in got[3][0]["authors"]] == ["Brandt"]


def test_the_nature_rule_never_ends_the_names_inside_a_persons_initials() -> None:
    # (shapes of AnyStyle's reference strings: initials after the first name, a name's
    # second initial before a comma, a list that goes on after a name without a comma, the
    # year and a colon before the title; the Nature rule once read "B., C", "Mensah, D" and
    # "2007: Sparse views …" as the titles)
    from citekit.notes.refline import parse_reference

    for line in ("Okafor, A. B., C. D. Lindqvist, and E. F. Brandt. 2011. Sparse views of tiny recurrent models. Proc. Ledg. Conf. 14: 87-90.",
                 "Okafor, A. B., Sparse views of tiny recurrent models, Journal of Ledgers 3, 10-19 (2011).",
                 "Okafor, A., Lindqvist, B., Brandt, C. Mensah, D. (2011) Sparse views of tiny recurrent models. J. Ledg. 3, 10-19.",
                 "Okafor, A. 2007: Sparse views of tiny recurrent models. Journal of Ledgers 38, 207-226."):
        ref = parse_reference(line)
        assert ref is not None and ref.rule != "nature" and ref.title == "Sparse views of tiny recurrent models", line


def test_a_group_before_its_year_signs_the_paper(tmp_path: Path) -> None:
    got = _extract(tmp_path, "References\n"
                   "[3] OpenAI. 2025. Kestrel-2 Technical Report. arXiv:2501.01234 [cs.CL]\n", "refs.txt")
    assert got[2][0]["title"] == "Kestrel-2 Technical Report"
    assert got[2][0]["authors"] == ["OpenAI"]


def test_casual_citations_in_a_chat_are_read(tmp_path: Path) -> None:
    got = _extract(tmp_path, "#reading-group\n\n"
                   "sure, swap it then? Okafor, Brandt & Lindqvist — on the stability of tiny recurrent models\n\n"
                   "then okafor & lindqvist 2011 if you want the old bit\n\n"
                   "also is anyone presenting the sparse one? Okafor & Brandt '19. relevant for us\n", "chat.txt")
    assert got[3][0]["authors"] == ["Okafor", "Brandt", "Lindqvist"]
    assert got[3][0]["title"] == "on the stability of tiny recurrent models"
    assert got[5][0]["authors"] == ["Okafor", "Lindqvist"] and got[5][0]["year"] == 2011
    assert got[7][0]["authors"] == ["Okafor", "Brandt"] and got[7][0]["year"] == 2019


def test_a_remark_after_names_and_a_dash_is_no_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "#reading-group\n\n"
                   "the paper & the talk — we should go over it on Friday\n\n"
                   "“Quiet Gradients in Shallow Networks”, Okafor, Brandt & Lindqvist — on the best paper award this year\n", "chat.txt")
    assert 3 not in got
    assert all(m.get("title") != "on the best paper award this year" for m in got.get(5, []))


def test_posts_announce_and_quote_titles(tmp_path: Path) -> None:
    got = _extract(tmp_path, "saved posts\n\n"
                   "🚨 New paper: Sparse Gradients for Tiny Recurrent Models (Okafor et al.)\n\n"
                   "SSM paper dropped: 'Quiet Gradients in Shallow Recurrent Networks'. up to 8B. arxiv.org/abs/2403.01234\n", "tweets.txt")
    assert got[3][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert got[5][0]["title"] == "Quiet Gradients in Shallow Recurrent Networks"


def test_names_are_read_without_a_journal_or_a_label(tmp_path: Path) -> None:
    got = _extract(tmp_path, "reading list\n\n"
                   "- “Why Small Recurrent Models Are Often Quiet” — Okafor, PLoS Med\n"
                   "- SRM: Okafor, Brandt, Lindqvist, Mensah & Tanaka, \"Sparse recurrent models for quiet gradients\", Econometrics J. 2018\n"
                   "- the tiny paper is \"Quiet Gradients V\" (Okafor, Brandt et al. 2022), arXiv:2203.01234\n")
    assert got[3][0]["authors"] == ["Okafor"]
    assert got[4][0]["authors"] == ["Okafor", "Brandt", "Lindqvist", "Mensah", "Tanaka"]
    assert got[5][0]["authors"] == ["Okafor", "Brandt"]


def test_the_title_after_a_zotero_annotation_link_is_the_papers(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# Annotations\n\n"
                   "“we make the gradients quiet” ([Okafor et al., 2021, p. 1](zotero://select/library/items/ABCD1234)) "
                   "([pdf](zotero://open-pdf/library/items/EFGH5678?page=1)) = Quiet Gradients for Tiny Models, Okafor / Brandt, ICLR'21 — not the other one\n\n"
                   "“a second stage” ([Brandt et al., 2022, p. 3](zotero://select/library/items/IJKL9012)) "
                   "([pdf](zotero://open-pdf/library/items/MNOP3456?page=3)) second stage = autoencoder, nothing new\n")
    assert got[3][0]["title"] == "Quiet Gradients for Tiny Models"
    assert not got[5][0].get("title")


def test_the_short_hugging_face_address_names_the_arxiv_id() -> None:
    assert ids_from_url("https://hf.co/papers/2501.01234").arxiv == "2501.01234"
    assert ids_from_url("https://huggingface.co/papers/2501.01234").arxiv == "2501.01234"


def test_names_parted_by_slashes_after_a_title_are_its_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "saved posts\n\n"
                   "one-step sampling 👀 Quiet Recurrent Models, Okafor / Brandt / Lindqvist https://arxiv.org/abs/2501.04321\n", "tweets.txt")
    assert got[3][0]["title"] == "Quiet Recurrent Models"
    assert got[3][0]["authors"] == ["Okafor", "Brandt", "Lindqvist"]


def test_two_names_joined_by_an_en_dash_are_two_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "week 7\n\n- Okafor–Lindqvist (1995)\n- as in Allen-Zhu (2019)\n")
    assert got[3][0]["authors"] == ["Okafor", "Lindqvist"]
    assert got[4][0]["authors"] == ["Allen-Zhu"]


def test_the_pieces_of_the_new_shapes_that_no_line_above_needs() -> None:
    # each assertion fails when its piece is taken out (the word lists, a decline, a regex)
    from citekit.notes.extract import _title_after_zotero_link
    from citekit.notes.refline import parse_reference
    from citekit.notes.urls import title_in_url

    # Papers with Code numbers a second paper of the same title: the number is no word of it
    assert title_in_url("https://paperswithcode.com/paper/sparse-gradients-for-tiny-models-1") == "Sparse gradients for tiny models"
    # words of a table's header parted by slashes are no family names
    assert parse_reference("Reading notes on Sparse Recurrent Models, Input / Output") is None
    assert parse_reference("Sparse Recurrent Models, Okafor / Lindqvist").authors == ["Okafor", "Lindqvist"]
    # a laboratory of the list signs the report: the group-year rule reads it, and it counts as pasted
    ref = parse_reference("[3] OpenAI. 2025. Kestrel-2 Technical Report. arXiv:2501.01234 [cs.CL]")
    assert (ref.rule, ref.authors, ref.pasted) == ("group-year-title", ["OpenAI"], True)
    # the paper's short name said to be the title after an annotation's links
    links = ("“quiet” ([Okafor et al., 2021, p. 1](zotero://select/library/items/ABCD1234)) "
             "([pdf](zotero://open-pdf/library/items/EFGH5678?page=1)) ")
    assert _title_after_zotero_link(links + 'QGT = "Quiet Gradients for Tiny Models" — nice') == "Quiet Gradients for Tiny Models"
    assert _title_after_zotero_link(links + "BERT: Quiet Gradients for Tiny Models — nice") == "BERT: Quiet Gradients for Tiny Models"


def test_a_lower_case_family_name_a_title_once_quoted_still_cites(tmp_path: Path) -> None:
    # (the word list holds "zhao" and "liu" because some title wrote them in lower case;
    # a family name English never writes as a word still cites before "et al" and a year)
    got = _extract(tmp_path, "- zhao et al 2020 had the same warm-up trick\n"
                   "- the clipping note from liu et al 2018, worth a reread\n"
                   "- the song et al were singing about 2019 again\n", "chat.txt")
    assert [a.split(",")[0] for a in got[1][0]["authors"]] == ["Zhao"] and got[1][0]["year"] == 2020
    assert [a.split(",")[0] for a in got[2][0]["authors"]] == ["Liu"] and got[2][0]["year"] == 2018
    assert 3 not in got
