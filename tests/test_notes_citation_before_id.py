"""An identifier written right after an author-year citation (a comma, a bracket, the venue
between them) is that citation's paper: the mention by identifier takes its authors and year."""

from __future__ import annotations

import pytest

from tests.helpers_extract import api_mentions as _mentions


@pytest.mark.parametrize("name,line", [
    ("agenda.org", "* TODO flashcards\n  - layernorm :: Ba, Kiros & Hinton 2016, arXiv:1607.06450. \"re-centering\" — ask if it helps RNNs\n"),
    ("notes.md", "- AlphaFold, Jumper et al. Nature 2021 (10.1038/s41586-021-03819-2) — only the structure module part\n"),
])
def test_the_citation_before_an_identifier_gives_its_authors(tmp_path, name, line):
    mentions = [m for m in _mentions(tmp_path, name, line) if m.urls]
    assert len(mentions) == 1
    assert (mentions[0].authors[:1], mentions[0].year) in ((["Ba"], 2016), (["Jumper"], 2021))


def test_names_alone_before_an_identifier_are_not_taken(tmp_path):
    # no year: the names may be anyone's (who to ask, who sent it)
    (mention,) = _mentions(tmp_path, "notes.md", "- ask Kiros & Hinton, arXiv:1607.06450\n")
    assert mention.authors == []
