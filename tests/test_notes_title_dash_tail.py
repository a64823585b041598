"""``Title — Surname, Surname. Venue Year (remark)``: the venue after a period, as a reference
writes it, and a remark in brackets after it do not hide the author list."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_extract import api_mentions as _mentions



@pytest.mark.parametrize("line,title,authors,year", [
    ("**Neural Tangent Kernel: Convergence and Generalization in Neural Networks** — Jacot, Gabriel, Hongler. NeurIPS 2018 (spotlight)",
     "Neural Tangent Kernel: Convergence and Generalization in Neural Networks", ["Jacot", "Gabriel", "Hongler"], 2018),
    ("Deep Equilibrium Models — Bai, Kolter, Koltun. NeurIPS 2019",
     "Deep Equilibrium Models", ["Bai", "Kolter", "Koltun"], 2019),
    ("Lottery Ticket Hypothesis: Finding Sparse, Trainable Neural Networks — Frankle, Carbin. ICLR 2019 (best paper award)",
     "Lottery Ticket Hypothesis: Finding Sparse, Trainable Neural Networks", ["Frankle", "Carbin"], 2019),
])
@pytest.mark.parametrize("name", ["n.md", "n.txt"])
def test_a_venue_after_a_period_and_a_remark_after_the_names(tmp_path, name, line, title, authors, year):
    (mention,) = _mentions(tmp_path, name, line + "\n")
    assert (mention.title, mention.authors, mention.year) == (title, authors, year)
