"""Reference lines the reference model reads, and what is set right around its reading:
names the model read into the title, a Nature-style match on a list of whole names, family
names alone before the title, remarks after the reference (a dash after the citation, an
arrow). Each case a made-up line in the shape people write it."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import mentions_by_line as _extract


def test_initials_inside_a_list_of_whole_names_do_not_make_a_nature_list(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n[4] Marta Oyelaran, K. L. Brandt, and Jonas Weller. Sparse routing for "
                   "long-tail recognition. In ECCV, 2022. 4\n")
    assert got[3][0]["authors"] == ["Marta Oyelaran", "K. L. Brandt", "Jonas Weller"]
    assert got[3][0]["title"] == "Sparse routing for long-tail recognition"


def test_the_end_of_an_author_list_is_not_read_into_the_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n"
                   "[2] Rafael Quintero, Maren Solheim, and Hana Baek. Calibrated uncertainty for monocular "
                   "depth. In CVPR, 2022. 4\n")
    assert got[3][0]["authors"] == ["Rafael Quintero", "Maren Solheim", "Hana Baek"]
    assert got[3][0]["title"] == "Calibrated uncertainty for monocular depth"


def test_a_remark_after_a_dash_does_not_hide_the_title_before_a_citation(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# follow-ups\n\n"
                   "- SpRo: Sparse Routing for Streaming Speech (Brandvold et al. 2021) — cheap to try on our data\n")
    assert got[3][0]["title"] == "SpRo: Sparse Routing for Streaming Speech"
    assert got[3][0]["authors"] == ["Brandvold"] and got[3][0]["authors_incomplete"]


def test_family_names_alone_before_the_title_are_its_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# decoding\n\n"
                   "- Okafor, Lindqvist, Brandt. Sparse routing for streaming speech recognition. ICASSP 2021.\n")
    assert got[3][0]["authors"] == ["Okafor", "Lindqvist", "Brandt"]
    assert got[3][0]["title"] == "Sparse routing for streaming speech recognition"


def test_a_remark_after_an_arrow_is_no_part_of_the_reference(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# list\n\n- Okafor et al., Efficient Routing for Large Speech Model Serving with "
                   "PagedExperts, SOSP 2023   <-- this is vRoute\n")
    assert got[3][0]["title"] == "Efficient Routing for Large Speech Model Serving with PagedExperts"
    assert got[3][0]["year"] == 2023


def test_prose_that_cites_several_papers_keeps_its_remark_after_a_dash(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# notes\n\n"
                   "routing by hashing; no load loss (cf. Okafor et al. 2019, JMLR). Compare Sparse Mixers "
                   "(Lindqvist, Brandt, Varga 2021) — gated routers. We use their released weights.\n")
    assert all(not (m["title"] or "").startswith("routing by hashing") for m in got[3])


def test_sentences_before_brackets_of_names_are_no_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# notes\n\n"
                   "Main point: routing is bandwidth-bound, not compute-bound. Batching helps only at the "
                   "edges, unlike the older schemes (Switchboard, Hashrouter, Tokenizer).\n")
    assert not any(m["title"] for m in got.get(3, []))


def test_a_threads_post_counter_is_no_part_of_the_title(tmp_path: Path) -> None:
    got = _extract(tmp_path, "@someone.bsky.social\n3/7 Sparse Routing for Streaming Speech (Brandvold et al. 2021)\n2\n")
    assert got[2][0]["title"] == "Sparse Routing for Streaming Speech"


def test_a_threads_post_counter_without_its_total_is_no_part_of_the_title(tmp_path: Path) -> None:
    # X threads number their posts "3/" as often as "3/7"
    got = _extract(tmp_path, "@someone\n3/ Sparse Gating Networks (Okafor et al. 2021)\n")
    assert [m["title"] for m in got[2]] == ["Sparse Gating Networks"]


def test_a_remark_after_a_full_stop_after_the_citation_is_cut_from_a_titled_post(tmp_path: Path) -> None:
    # a post names the paper by its title and citation, then goes on in lower case; a post
    # that opens in prose keeps the citation alone
    text = ("@someone\nSparse Gating: Interactive Routing of Expert Layers (Okafor et al., ICML '23). the systems crowd got there first lol\n"
            "\n@someone\n6/ not new but I re-read it: Gating (Haldane et al., 2021). every router still comes back to it\n")
    got = _extract(tmp_path, text)
    assert [(m["title"], m["authors"]) for m in got[2]] == [("Sparse Gating: Interactive Routing of Expert Layers", ["Okafor"])]
    assert [(m["title"], m["authors"]) for m in got[5]] == [(None, ["Haldane"])]


def test_a_remark_after_a_citation_closing_on_et_al_is_cut_with_the_papers_it_names(tmp_path: Path) -> None:
    got = _extract(tmp_path, "@someone.bsky.social\nSparse Routing for Streaming Speech (Brandvold et al.) — not a "
                   "speech paper really, but see routers (Okafor et al. 2023, a.k.a. SpRo)\n2\n")
    titled = [m for m in got[2] if m["title"]]
    assert [(m["title"], m["authors"]) for m in titled] == [("Sparse Routing for Streaming Speech", ["Brandvold"])]


def test_short_names_inside_an_author_list_stay_authors(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n"
                   "Ottilie Brandvold, Kasimir Ndiaye, Teodora Lindqvist, Marek Sobczak, Ingrid Mahlangu, "
                   "Fei Lu, Ed Qi, Quoc V Le, and Tobias Ferreira. 2022. Sparse routing elicits streaming in "
                   "large speech models. In Advances in Neural Information Processing Systems, volume 35.\n")
    assert got[3][0]["authors"] == ["Ottilie Brandvold", "Kasimir Ndiaye", "Teodora Lindqvist", "Marek Sobczak",
                                    "Ingrid Mahlangu", "Fei Lu", "Ed Qi", "Quoc V Le", "Tobias Ferreira"]
    assert got[3][0]["title"] == "Sparse routing elicits streaming in large speech models"


def test_brackets_inside_the_container_are_no_second_title_in_a_pdf_copy(tmp_path: Path) -> None:
    got = _extract(tmp_path, "# refs\n\n"
                   "Ottilie Brandvold, Kasimir Ndiaye, and Teodora Lindqvist. 2021. SpRo: Sparse routing for "
                   "streaming speech recog- nition. In Proceedings of the 2021 Conference of the North American "
                   "Chapter of the Association for Computational Linguistics: Human Language Tech- nologies, "
                   "Volume 1 (Long and Short Papers), pages 101–112, Online. Association for Computational "
                   "Linguistics.\n")
    assert got[3][0]["title"] == "SpRo: Sparse routing for streaming speech recognition"
    assert got[3][0]["authors"] == ["Ottilie Brandvold", "Kasimir Ndiaye", "Teodora Lindqvist"]
