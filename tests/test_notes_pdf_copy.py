"""A reference list copied out of a PDF: the letters the copy broke are put back before the
references are read (ligatures such as ``ﬁ`` spelled out; an accent the PDF set as a glyph
of its own, ``Jastrz˛ebski``, ``Erd˝os``, joined to its letter), so titles and names come
out as the paper writes them. The lines are made up, in the shape such a copy has.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main

REFS = """\
REFERENCES
[1] Paweł D˛abrowski and Zoë Sandoval. Eﬃcient ﬁne-tuning of sparse transformers. In
    International Conference on Learning Representations, 2024. arXiv:2401.00001
[2] Gábor Erd˝osi and Tomáš Nováˇcek. Reﬂections on the ﬂatness of minima. arXiv preprint
    arXiv:2402.00002, 2024.
"""


def _extract(tmp_path: Path, text: str) -> list[dict]:
    path = tmp_path / "refs_copied_from_pdf.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["extract", "--json", str(path)])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)["mentions"]


def test_a_pdf_copy_has_its_ligatures_and_detached_accents_repaired(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in _extract(tmp_path, REFS)}
    assert mentions[2]["authors"] == ["Paweł Dąbrowski", "Zoë Sandoval"]
    assert mentions[2]["title"] == "Efficient fine-tuning of sparse transformers"
    assert mentions[4]["authors"] == ["Gábor Erdősi", "Tomáš Nováček"]
    assert mentions[4]["title"] == "Reflections on the flatness of minima"



REFS_ACROSS_A_PAGE = """References
[1] Ama Mensah, Tomas Ek, and Lena Park. Gated noise for sparse
routers. In ICML, 2021. 1, 3
[2] Kofi Boateng and Ines Duarte. Learning sparse graph codes for
robust retrieval. In NeurIPS, 2019. 2, 5
7
ACML
#2291
ACML 2024 Submission #2291. CONFIDENTIAL REVIEW COPY. DO NOT DISTRIBUTE.
[3] Mei Tanaka and Omar Haddad. Token mixing without attention
maps. In ICLR, 2022. 4
"""


def test_page_furniture_after_a_numbered_reference_is_not_read_into_it() -> None:
    # a page number and running headers a PDF copy left after a reference (which has its
    # year already) are no part of it: the reference is still found, with its own title
    from citekit.notes.extract import extract_text

    got = [(m.location.line, m.title, m.year) for m in extract_text(REFS_ACROSS_A_PAGE, "refs.txt").mentions]
    assert got == [(2, "Gated noise for sparse routers", 2021), (4, "Learning sparse graph codes for robust retrieval", 2019),
                   (10, "Token mixing without attention maps", 2022)]


REFS_WITH_MARGIN_NUMBERS = """References
[1] Ama Mensah, Tomas Ek, and Lena Park. Gated noise for sparse
routers. In ICML, 2021. 1, 3
412
413
414 [2] Kofi Boateng and Ines Duarte. Learning sparse graph codes for
robust retrieval. In NeurIPS, 2019. 2, 5
[3] Mei Tanaka and Omar Haddad. Token mixing without attention
maps. In ICLR, 2022. 4
"""


def test_a_reference_number_after_a_review_copys_margin_line_number_starts_a_reference() -> None:
    # a review copy numbers its lines in the margin: "414 [2] …" starts reference 2, it
    # does not go on reference 1
    from citekit.notes.extract import extract_text

    got = [(m.location.line, m.authors[:1], m.year) for m in extract_text(REFS_WITH_MARGIN_NUMBERS, "refs.txt").mentions]
    assert got == [(2, ["Ama Mensah"], 2021), (6, ["Kofi Boateng"], 2019), (8, ["Mei Tanaka"], 2022)]
