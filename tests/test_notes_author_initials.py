"""An author list written family name first, each followed by its initials alone
(``Family, I., Family, I.``): one name per pair, not one per comma."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.notes import extract_paths


@pytest.mark.parametrize("text,name", [
    ("- Deep Sets\n  - Authors: Zaheer, M., Kottur, S., Ravanbakhsh, S.\n", "n.md"),
    ("| Paper | Who | Where |\n|---|---|---|\n| Deep Sets | Zaheer, M., Kottur, S., Ravanbakhsh, S. | NIPS 2017 |\n", "t.md"),
])
def test_family_names_each_with_initials(tmp_path: Path, text, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    (mention,) = extract_paths([path], root=tmp_path).mentions
    assert mention.authors == ["Zaheer, M.", "Kottur, S.", "Ravanbakhsh, S."]


def test_given_names_with_a_middle_initial_are_not_paired(tmp_path: Path):
    path = tmp_path / "n.md"
    path.write_text("- Deep Sets\n  - Authors: Manzil Zaheer, Satwik Kottur, Siamak Ravanbakhsh, Barnabás Póczos\n", encoding="utf-8")
    (mention,) = extract_paths([path], root=tmp_path).mentions
    assert mention.authors == ["Manzil Zaheer", "Satwik Kottur", "Siamak Ravanbakhsh", "Barnabás Póczos"]
