"""Accents a PDF copy sets as glyphs of their own before the letter (``Herv´e J´egou``)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_accents_a_pdf_copied_out_before_their_letter(tmp_path: Path) -> None:
    # LaTeX's \'e and \"o copied out of a PDF as a spacing accent before the letter
    text = (
        "References\n"
        "[1] Ren´e Dup´erier, Karl M¨uller, and Ana Ib´a˜nez. Sparse codes for patch\n"
        "priors. In ECCV, 2018. 3\n"
        "\n"
        "she said it´s fine, don´t worry\n"
    )
    mentions = api_mentions(tmp_path, "refs.txt", text)
    assert mentions[0].authors == ["René Dupérier", "Karl Müller", "Ana Ibáñez"]
