"""``Lee et al. 2021b, *Title*``: the letter author-year styles add to a year (the second paper
of that year) is the citation's, never the start of the title."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.notes import extract_paths


@pytest.mark.parametrize("line,title,first", [
    ("Ng et al. 2021b, *Federated AI: Privacy from AI Agents*, arXiv:2101.01234",
     "Federated AI: Privacy from AI Agents", "Ng"),
    ("Li et al. 2022b, *Trustworthy AI: From Principles to Practices*, arXiv:2110.01167",
     "Trustworthy AI: From Principles to Practices", "Li"),
])
def test_a_year_with_a_letter_stays_out_of_the_title(tmp_path: Path, line, title, first):
    path = tmp_path / "n.md"
    path.write_text(line + "\n", encoding="utf-8")
    (mention,) = extract_paths([path], root=tmp_path).mentions
    assert (mention.title, mention.authors[:1]) == (title, [first])
