"""A reference list copied out of a PDF whose wrap cuts an author's name in two."""

from __future__ import annotations

from pathlib import Path

from citekit.notes import extract_paths

REFS = (
    "REFERENCES\n"
    "Amara Okafor, Lena Brandt, Tomas Varga, Hiroshi Sato, Ana Ruiz, Mei\n"
    "Lindqvist, Owen Achterberg, Ben Stolz, et al. Learned step sizes for sparse coding of\n"
    "image patches. arXiv preprint arXiv:2101.04321, 2021.\n"
    "Ingrid Solheim, Karl Holm, Marta Ibáñez, and Wei\n"
    "Zhang. Patch priors for denoising natural images. In CVPR, 2019.\n"
)


def test_a_name_cut_by_the_wrap_goes_on_on_the_next_line(tmp_path: Path) -> None:
    path = tmp_path / "refs.txt"
    path.write_text(REFS, encoding="utf-8")
    mentions = extract_paths([path], tmp_path).mentions
    assert [m.location.line for m in mentions] == [2, 5]
    first, second = mentions
    assert first.authors[4:7] == ["Ana Ruiz", "Mei Lindqvist", "Owen Achterberg"] and first.authors_incomplete
    assert second.authors == ["Ingrid Solheim", "Karl Holm", "Marta Ibáñez", "Wei Zhang"]
