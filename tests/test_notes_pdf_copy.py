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

