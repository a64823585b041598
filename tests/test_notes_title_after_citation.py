"""A title written after an author-year citation and a comma."""

from __future__ import annotations

from pathlib import Path

from citekit.notes import extract_paths


def _extract(tmp_path: Path, text: str):
    path = tmp_path / "notes.txt"
    path.write_text(text, encoding="utf-8")
    return extract_paths([path], tmp_path).mentions


def test_a_title_after_a_citation_and_a_comma(tmp_path: Path) -> None:
    text = (
        "Mira Sato  10:09 AM\n"
        "the one I meant is Okafor et al. ICCV 2019, Learned Step Sizes for Sparse Coding. it has the bound\n"
    )
    assert [(m.title, m.authors[:1], m.year) for m in _extract(tmp_path, text)] == [
        ("Learned Step Sizes for Sparse Coding", ["Okafor"], 2019)]


def test_a_title_after_a_citation_in_the_same_brackets(tmp_path: Path) -> None:
    text = "the step rule is the same as the older one (Brandt et al. 2017, Patch Priors for Natural Image Denoising)\n"
    assert [(m.title, m.authors[:1], m.year) for m in _extract(tmp_path, text)] == [
        ("Patch Priors for Natural Image Denoising", ["Brandt"], 2017)]
