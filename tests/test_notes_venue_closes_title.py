"""A citation-first line whose title is closed by its venue and year in brackets."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.notes import extract_paths


@pytest.mark.parametrize("line, title, authors, year", [
    ("1. Okafor & Brandt, Lasso: A Method for Sparse Regression (ICLR 2016) — obviously, but read sec. 3 on the step size again, people forget it",
     "Lasso: A Method for Sparse Regression", ["Okafor", "Brandt"], 2016),
    ("2. Varga & Holm, Dropconnect: A Simple Way to Regularize Networks (ICML 2013) — skim, the bound in sec. 4 is what matters",
     "Dropconnect: A Simple Way to Regularize Networks", ["Varga", "Holm"], 2013),
])
def test_the_venue_in_brackets_after_the_title_is_no_part_of_it(tmp_path: Path, line: str, title: str,
                                                                 authors: list[str], year: int) -> None:
    path = tmp_path / "mail.txt"
    path.write_text("roughly in the order I'd read them:\n\n" + line + "\n", encoding="utf-8")
    mentions = extract_paths([path], tmp_path).mentions
    assert [(m.title, m.authors, m.year) for m in mentions] == [(title, authors, year)]


def test_a_remark_after_the_titles_full_stop_is_no_part_of_it(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text("Lasso — Okafor et al. 2016, Learned Step Sizes for Sparse Coding of Image Patches. "
                    "baseline for the probe table?\n", encoding="utf-8")
    mentions = extract_paths([path], tmp_path).mentions
    assert [(m.title, m.authors[:1], m.year) for m in mentions] == [
        ("Learned Step Sizes for Sparse Coding of Image Patches", ["Okafor"], 2016)]
