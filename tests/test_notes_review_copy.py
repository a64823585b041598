"""Reference lists copied out of a PDF in the shapes a review copy and a two-column copy
give: the margin's line numbers before the lines, a reference of one author after its
number, an author list the wrap cuts after its ``and``. The lines are made up, in the
shape such a copy has."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import extract_mentions


def _extract(tmp_path: Path, text: str) -> list[dict]:
    return extract_mentions(tmp_path, "refs_copied_from_pdf.txt", text)


#: a numbered list copied out of a review copy: the margin's line numbers came along, before
#: some lines and alone on others (made-up references)
MARGIN = """\
References
612 [1] Ottilie Brandvold, Kasimir Ndiaye, and Teodora
Lindqvist. Sparse routing for streaming speech recog-
nition. In ICASSP, 2021. 3, 5
617 [2] Rafael Quintero, Maria Lopez, and Hannah Becker.
Calibrated uncertainty for monocular depth. In CVPR, 2022. 4
[3] Ingrid Mahlangu, Tobias Ferreira, and Anouk
622 Verhoeven. Curriculum sampling for long-tailed
detection. In ECCV, 2020. 6
623
624
"""


def test_a_review_copys_margin_line_numbers_do_not_hide_its_references(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in _extract(tmp_path, MARGIN)}
    assert mentions[2]["title"] == "Sparse routing for streaming speech recognition"
    assert mentions[2]["authors"] == ["Ottilie Brandvold", "Kasimir Ndiaye", "Teodora Lindqvist"]
    assert mentions[5]["title"] == "Calibrated uncertainty for monocular depth"
    assert mentions[5]["authors"] == ["Rafael Quintero", "Maria Lopez", "Hannah Becker"]
    assert mentions[7]["authors"] == ["Ingrid Mahlangu", "Tobias Ferreira", "Anouk Verhoeven"]
    assert mentions[7]["title"] == "Curriculum sampling for long-tailed detection"


def test_numbers_opening_a_list_by_year_are_kept(tmp_path: Path) -> None:
    from citekit.notes.shapes import cut_margin_numbers

    years = ["2019 Sparse routing for speech", "2020 Calibrated depth", "2022 Curriculum sampling"]
    counted = ["1 Sparse routing for speech", "2 Calibrated depth", "3 Curriculum sampling"]
    assert cut_margin_numbers(years) == years
    assert cut_margin_numbers(counted) == counted
    assert cut_margin_numbers(["88 [4] A. Name.", "91 text", "95 more"]) == ["[4] A. Name.", "text", "more"]


ONE_AUTHOR = """\
References
[1] Ottilie Brandvold, Kasimir Ndiaye, and Teodora Lindqvist. Sparse routing for streaming
speech recognition. In ICASSP, 2021. 3, 5
[2] Noor Aziz. Calibrated uncertainty for monocular depth estima-
tion. arXiv preprint arXiv:2203.01234, 2022. 2, 4
"""


def test_a_numbered_reference_of_one_author_is_read_whole(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in _extract(tmp_path, ONE_AUTHOR)}
    assert mentions[4]["authors"] == ["Noor Aziz"]
    assert mentions[4]["title"] == "Calibrated uncertainty for monocular depth estimation"
    assert mentions[4]["ids"]["arxiv"] == "2203.01234"



AUTHOR_YEAR = """\
References
Ingrid Solheim, Karl Holm, Marta Ibanez, and
Wei Zhang. 2023. PatchPrior: Patch priors for denois-
ing natural images. In Proceedings of the 2023 Conference
on Computer Vision, pages 11–19.
"""


def test_an_author_list_cut_after_its_and_goes_on_with_its_last_name(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in _extract(tmp_path, AUTHOR_YEAR)}
    assert mentions[2]["authors"] == ["Ingrid Solheim", "Karl Holm", "Marta Ibanez", "Wei Zhang"]
    assert mentions[2]["title"] == "PatchPrior: Patch priors for denoising natural images"


def test_the_kind_of_a_document_before_its_year_is_no_author(tmp_path: Path) -> None:
    mentions = _extract(tmp_path, "References\n[9] Acme Corp. Acme X9 accelerator architecture.\nWhitepaper, 2021. 4\n")
    assert all("Whitepaper" not in m["authors"] for m in mentions)


ONE_LONG_LINE = """\
References
Marek Sobczak, Ilona Varga, Piotr Nowak, and
Teo Lindholm. 2021. GraphFold: Graph priors for
protein folding. In Advances in Neural Information
Processing Systems, volume 34.
Ottilie Brandvold, Kasimir Ndiaye, Teodora Lindqvist, Rafael Quintero, Maria Lopez, and Hannah Becker. 2023. \
Sparse routing for stream- ing speech recognition. In Advances in Neural Information Processing Systems, volume 36.
Ingrid Mahlangu, Tobias Ferreira, Anouk Verhoeven, Wei
Zhang, Fei Lu, and Marta Ibanez. 2020. Curriculum sam-
pling for long-tailed detection. Journal of Machine
Learning Research, 21(140):1–40.
"""


def test_a_reference_pasted_on_one_long_line_ends_there(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in _extract(tmp_path, ONE_LONG_LINE)}
    assert mentions[6]["title"] == "Sparse routing for streaming speech recognition"
    assert mentions[6]["authors"][-1] == "Hannah Becker"
    assert mentions[7]["title"] == "Curriculum sampling for long-tailed detection"
    assert mentions[7]["authors"][0] == "Ingrid Mahlangu"
