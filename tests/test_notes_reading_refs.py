"""Reading a mention once it is found: the title a link spells out, words a PDF's line end
cut in two, places after a title dash, a name before a year, an ellipsis in an author
list, a group that signs a paper, a venue between a citation and its quoted title, and
family names the parser never saw. Every line here is made up, in the shape notes have.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import mentions_by_line as _extract


def test_a_paper_site_address_spells_out_a_title_to_search_by(tmp_path: Path) -> None:
    got = _extract(tmp_path, "links\n\n"
                   "https://paperswithcode.com/paper/sparse-gradients-for-tiny-recurrent-models\n"
                   "www.semanticscholar.org/paper/Sparse-Gradients-for-Tiny-Recurrent-Models-Okafor-Lindqvist/0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c\n"
                   "https://paperswithcode.com/sota/image-classification-on-imagenet\n"
                   "https://www.semanticscholar.org/paper/0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c\n", "links.txt")
    assert got[3][0]["title"] == "Sparse gradients for tiny recurrent models"
    assert got[3][0]["title_unsure"] is True
    # Semantic Scholar appends the first two authors' family names: they are no part of the title
    assert got[4][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert 5 not in got  # a leaderboard is no paper
    assert 6 in got and not got[6][0].get("title")  # an id alone spells no title


def test_words_cut_at_a_line_end_are_put_back_and_compounds_keep_their_hyphen() -> None:
    from citekit.notes.refparse.fields import join_tokens, rejoin_broken_words

    assert rejoin_broken_words("Faster conver- gence of sparse optimi- zation") == "Faster convergence of sparse optimization"
    assert rejoin_broken_words("Revisiting machine- learning pipelines") == "Revisiting machine-learning pipelines"
    assert rejoin_broken_words("pre- and post-training") == "pre- and post-training"
    assert rejoin_broken_words("a high-perfor- mance ledger") == "a high-performance ledger"
    assert join_tokens("Revisiting machine- learning pipe- lines".split()) == "Revisiting machine-learning pipelines"


def test_a_quoted_title_cut_at_a_line_end_is_read_whole(tmp_path: Path) -> None:
    got = _extract(tmp_path, "REFERENCES\n"
                   "[1] A. Okafor and B. Lindqvist, “On the conver-\n"
                   "gence of sparse optimizers,” in Proc. ICML, 2021.\n", "refs.txt")
    assert got[2][0]["title"] == "On the convergence of sparse optimizers"


def test_places_after_a_title_dash_are_not_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# to read\n\n"
                   "- Sparse Gradients for Tiny Recurrent Models — Toronto, Mountain View\n"
                   "- Sparse Attention for Long Ledgers — Okafor, Lindqvist\n")
    assert got[3][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert got[3][0]["authors"] == []
    assert got[4][0]["authors"] == ["Okafor", "Lindqvist"]


def test_the_last_name_before_a_year_is_an_author_not_a_venue(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# to read\n\n"
                   "- Sparse Gradients for Tiny Recurrent Models (Okafor, Lindqvist, Brandt 2021)\n"
                   "- Sparse Attention for Long Ledgers (Okafor, Lindqvist, ICML 2022)\n")
    assert got[3][0]["authors"] == ["Okafor", "Lindqvist", "Brandt"]
    assert got[3][0]["year"] == 2021
    assert got[4][0]["authors"] == ["Okafor", "Lindqvist"]
    assert got[4][0]["venue"] == "ICML"


def test_an_ellipsis_cuts_an_author_list_short_as_et_al_does(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# to read\n\n"
                   "- Sparse Gradients for Tiny Recurrent Models — Okafor, Lindqvist, Brandt …\n"
                   "- Tiny Ledger — Okafor, Lindqvist, Brandt … 2021\n"
                   "- the reading group slowed down... 2021 was busy\n")
    assert got[3][0]["authors"] == ["Okafor", "Lindqvist", "Brandt"]
    assert got[3][0]["authors_incomplete"] is True
    assert [m["authors"] for m in got[4]] == [["Okafor", "Lindqvist", "Brandt"]]
    assert got[4][0]["authors_incomplete"] is True
    assert 5 not in got  # prose trailing off before a year is no citation


def test_a_group_that_signs_a_reference_is_one_of_its_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "REFERENCES\n"
                   "Ada Okafor, Bo Lindqvist, and Ledger Dev Team. Sparse gradients for tiny recurrent\n"
                   "   models. arXiv preprint arXiv:2101.00007, 2021.\n", "refs.txt")
    assert got[2][0]["title"] == "Sparse gradients for tiny recurrent models"
    assert got[2][0]["authors"] == ["Ada Okafor", "Bo Lindqvist", "Ledger Dev Team"]


def test_a_venue_between_a_citation_and_its_quoted_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "Ledger notes. cf. Okafor et al. ICML’21 “Sparse Gradients for Tiny Recurrent Models” which we skip\n"
                   "also Lindqvist & Brandt (NeurIPS 2022) “Sparse Attention for Long Ledgers” is the follow-up\n")
    first = next(m for m in got[1] if m.get("title"))
    assert first["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert first["authors"] == ["Okafor"] and first["authors_incomplete"] is True
    assert (first["venue"], first["year"]) == ("ICML", 2021)
    second = next(m for m in got[2] if m.get("title"))
    assert second["authors"] == ["Lindqvist", "Brandt"]  # never "NeurIPS"
    assert (second["venue"], second["year"]) == ("NeurIPS", 2022)


def test_a_short_name_before_its_authors_in_brackets_is_a_paper_and_a_person_is_not(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# to read\n\n"
                   "- SGT (Okafor, Lindqvist, Brandt)\n"
                   "- Ring Attention (Okafor, Lindqvist)\n"
                   "- Guy Wolf (Mila, UdeM)\n"
                   "- Rose Wolf (Mila, Montreal)\n")
    assert (got[3][0]["title"], got[3][0]["authors"]) == ("SGT", ["Okafor", "Lindqvist", "Brandt"])
    assert (got[4][0]["title"], got[4][0]["authors"]) == ("Ring Attention", ["Okafor", "Lindqvist"])
    assert 5 not in got and 6 not in got  # people and where they work


def test_a_first_author_in_the_possessive_before_a_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# to read\n\n"
                   "- Okafor's Sparse Gradients for Tiny Recurrent Models (2021)\n"
                   "- Okafor's ledger notes from the retreat\n"
                   "- Lindqvist's Sparse Ledgers: Zero to Hero course\n")
    assert (got[3][0]["title"], got[3][0]["authors"], got[3][0]["year"]) == (
        "Sparse Gradients for Tiny Recurrent Models", ["Okafor"], 2021)
    assert 4 not in got and 5 not in got


def test_family_names_in_capitals_and_inverted_pairs_with_whole_given_names(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n"
                   "- OKAFOR, A.; LEE-THORP, B. Sparse gradients for tiny recurrent models. In: ICML, 2021.\n"
                   "- Okafor, Ada & Lindqvist, Bo (2021). Sparse Gradients for Tiny Recurrent Models. ICML.\n")
    assert got[3][0]["authors"] == ["Okafor, A.", "Lee-Thorp, B."]
    assert got[3][0]["title"] == "Sparse gradients for tiny recurrent models"
    assert [m["authors"] for m in got[4]] == [["Okafor, Ada", "Lindqvist, Bo"]]


def test_initials_without_stops_before_the_family_name(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n- A Okafor, B Lindqvist. Sparse gradients for tiny recurrent models. ICML 2021.\n")
    assert got[3][0]["authors"] == ["A Okafor", "B Lindqvist"]
    assert got[3][0]["title"] == "Sparse gradients for tiny recurrent models"


def test_a_company_that_signs_a_bibitem_is_its_author(tmp_path: Path) -> None:
    got = _extract(tmp_path, "\\begin{thebibliography}{1}\n"
                   "\\bibitem[Nimbus(2024)]{nimbus2024}\nNimbus Robotics Team.\n\\newblock Sparse ledger technical report.\n"
                   "\\newblock \\emph{arXiv preprint arXiv:2401.00009}, 2024.\n"
                   "\\bibitem[OpenAI(2024)]{openai2024}\nOpenAI.\n\\newblock Tiny ledger system card.\n\\newblock Technical report, 2024.\n"
                   "\\end{thebibliography}\n", "draft.tex")
    assert (got[2][0]["title"], got[2][0]["authors"]) == ("Sparse ledger technical report", ["Nimbus Robotics Team"])
    assert (got[6][0]["title"], got[6][0]["authors"]) == ("Tiny ledger system card", ["OpenAI"])


def test_a_title_in_brackets_right_after_a_citation_is_its_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "fyi the ledger background is Okafor et al. SOSP '23 (Sparse Gradients for Tiny Recurrent Models). later\n"
                   "as in Lindqvist & Brandt 2021 (see the appendix for the proof) we skip it\n", "chat.txt")
    assert [(m["title"], m["authors"], m["year"]) for m in got[1]] == [("Sparse Gradients for Tiny Recurrent Models", ["Okafor"], 2023)]
    assert got[2][0].get("title") is None and got[2][0]["authors"] == ["Lindqvist", "Brandt"]


def test_iso_690_capitals_with_whole_given_names_and_bare_initials(tmp_path: Path) -> None:
    got = _extract(tmp_path, "REFERENCES\n"
                   "[1] OKAFOR, Ada, GU, Qing and LINDQVIST, Bo A., 2021. Sparse Gradients for Tiny Recurrent\n"
                   "Models. Journal of Ledgers. 2021. Vol. 3, no. 2, p. 10–19.\n"
                   "[2] BRANDT, D W, 1965. The Direct Observation of Ledger Imperfections. Rep. Ledg. 1965. Vol. 28, p. 291.\n",
                   "refs.txt")
    assert got[2][0]["authors"] == ["Okafor, Ada", "Gu, Qing", "Lindqvist, Bo A"]
    assert got[2][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert (got[4][0]["title"], got[4][0]["authors"]) == ("The Direct Observation of Ledger Imperfections", ["Brandt, D W"])


def test_authors_then_the_year_between_full_stops_as_acm_writes_them(tmp_path: Path) -> None:
    got = _extract(tmp_path, "REFERENCES\n"
                   "[1] A Okafor and B Lindqvist. 2021. Sparse Gradients for Tiny Recurrent Models. J. Ledg. 3, 2 (2021), 10–19.\n"
                   "[2] Jean-Luc Brandt, Mei-Ling Gu, and Bo Lindqvist. 2022. Ledger Compression at Scale. In Proc. LEDG. 1–9.\n",
                   "refs.txt")
    assert (got[2][0]["title"], got[2][0]["authors"]) == ("Sparse Gradients for Tiny Recurrent Models", ["A Okafor", "B Lindqvist"])
    assert (got[3][0]["title"], got[3][0]["authors"]) == ("Ledger Compression at Scale", ["Jean-Luc Brandt", "Mei-Ling Gu", "Bo Lindqvist"])


def test_a_title_in_title_case_before_a_bracketed_citation_inside_prose(tmp_path: Path) -> None:
    got = _extract(tmp_path, "“tiny models” — Sparse Ledgers for Tiny Models (Okafor, Lindqvist, Brandt, ICML 2021). keep the appendix\n"
                   "I met Ada Okafor (Lindqvist & Brandt, 2019) at lunch\n"
                   "we use the ledger optimizer (Lindqvist & Brandt, 2019) with warmup\n", "annotations.md")
    titled = [m for m in got[1] if m.get("title")]
    assert [(m["title"], m["authors"], m["year"]) for m in titled] == [
        ("Sparse Ledgers for Tiny Models", ["Okafor", "Lindqvist", "Brandt"], 2021)]
    assert not [m for m in got.get(2, []) + got.get(3, []) if m.get("title")]  # a person, a lower-case phrase


def test_family_given_pairs_between_semicolons_stay_together(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# papers\n\n## Sparse Gradients for Tiny Recurrent Models\n"
                   "- Authors: Okafor, Ada; Lindqvist, Bo E.; Brandt, Jean-Luc\n")
    assert got[3][0]["authors"] == ["Okafor, Ada", "Lindqvist, Bo E.", "Brandt, Jean-Luc"]


def test_an_arxiv_id_dates_a_reference_written_without_its_year(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# papers\n\n- SGT: Okafor, A., & Lindqvist, B. Sparse Gradients for Tiny Recurrent Models. arXiv:2101.00007\n")
    assert (got[3][0]["title"], got[3][0]["authors"]) == ("Sparse Gradients for Tiny Recurrent Models", ["Okafor, A.", "Lindqvist, B."])


def test_a_reference_whose_only_link_is_a_site_home_page_is_no_paper(tmp_path: Path) -> None:
    got = _extract(tmp_path, "REFERENCES\n"
                   "[1] Ledgerly. 2023. Ledgerly: Find the ledgers you can trust. https://www.ledgerly.example\n"
                   "[2] Ada Okafor and Bo Lindqvist. 2021. Sparse Gradients for Tiny Recurrent Models. In Proc. ICML. 1–9.\n",
                   "refs.txt")
    assert 2 not in got
    assert got[3][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"


def test_semicolons_part_the_people_of_a_din_reference(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n- Okafor, Ada ; Lindqvist, Bo A ; Brandt, Jean-Luc: Sparse Gradients for Tiny Recurrent Models."
                   " In: J. Ledg. Bd. 3 (2021), S. 10–19\n")
    assert got[3][0]["title"] == "Sparse Gradients for Tiny Recurrent Models"
    assert [a.split(",")[0] for a in got[3][0]["authors"]] == ["Okafor", "Lindqvist", "Brandt"]


def test_the_short_address_of_hugging_face_papers_is_a_paper_link(tmp_path: Path) -> None:
    got = _extract(tmp_path, "links\n\nhf.co/papers/2101.00007\n", "links.txt")
    assert got[3][0]["urls"] == ["https://hf.co/papers/2101.00007"]


def test_title_then_full_names_then_venue_under_a_heading() -> None:
    # ``Title. Given Family, …. Venue Year.``: the middle sentence is only people's names, the
    # last a venue and its year, so the first is the title, even one word long; the venue is
    # not read as part of the last name
    from citekit.notes.extract import extract_text

    text = ("## Regularisers\n\n"
            "Shakeout. Ama Mensah, Tomas Ek, Lena Park. JMLR 2017.\n\n"
            "Gated Noise for Sparse Routers. Ama Mensah, Tomas Ek. ICML 2021.\n")
    got = [(m.title, m.authors, m.venue, m.year) for m in extract_text(text, "reading.md").mentions]
    assert got == [("Shakeout", ["Ama Mensah", "Tomas Ek", "Lena Park"], "JMLR", 2017),
                   ("Gated Noise for Sparse Routers", ["Ama Mensah", "Tomas Ek"], "ICML", 2021)]


def test_a_call_mark_in_a_title_stays_while_a_removed_links_brackets_go(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# queue\n"
                   "- Sparse.fp4(): Four-Bit Kernels for Sparse Attention Layers (Okafor et al., 2023)\n"
                   "- Quiet Gradients in Shallow Recurrent Networks (https://example.org/qg) (Brandt, 2019)\n")
    assert got[2][0]["title"] == "Sparse.fp4(): Four-Bit Kernels for Sparse Attention Layers"
    assert got[3][0]["title"] == "Quiet Gradients in Shallow Recurrent Networks"
