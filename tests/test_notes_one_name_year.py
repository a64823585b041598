"""A reading list's line opening on one author's family name and the year, then the title
(``Family 2021, Title``): the citation of a one-author paper, read when the reference
parser, too, reads the word as an author; a place, a model or a season before a year is
no author."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_one_family_name_and_a_year_before_a_title_are_its_author_and_year(tmp_path: Path) -> None:
    text = (
        "> Routing\n"
        ">  - Williams 2019, Gated Mixtures: Sparse Routing at Scale (the router\n"
        ">    paper)\n"
        ">  - Sato 2021, Sparse Routers for Long Document Retrieval\n"
    )
    got = [(m.title, m.authors, m.year) for m in api_mentions(tmp_path, "fwd.txt", text)]
    assert got == [("Gated Mixtures: Sparse Routing at Scale", ["Williams"], 2019),
                   ("Sparse Routers for Long Document Retrieval", ["Sato"], 2021)]


def test_a_place_a_model_or_a_month_before_a_year_is_no_author(tmp_path: Path) -> None:
    text = (
        "- Paris 2024, Olympic Recap and Travel Notes\n"
        "- Llama 2023, Open Foundation Models\n"
        "- December 2019, We Moved the Lab to the New Building\n"
        "- Spring 2024, Reading Group Schedule\n"
    )
    assert api_mentions(tmp_path, "list.txt", text) == []
