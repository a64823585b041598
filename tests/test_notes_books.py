"""A book or a web site in a reference list. A book (after its title the reference names only its publisher, its
place and year) is a work the writer cites like a paper: it is kept, with its authors and year, so that a
bibliography pasted whole loses nothing and two books of one title stay two works
(tests/test_same_title_works.py). A web site's home page is no paper."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_book_in_a_reference_list_is_kept_with_its_authors_and_year(tmp_path: Path) -> None:
    text = (
        "References\n"
        "\n"
        "1. Okafor, T. & Brandt, J. Sparse routers at scale. Nat. Mach. Intell. 3, 120–131 (2021).\n"
        "2. Haldane, I. & Keller, M. Routing Theory for Sparse Models (Oxford\n"
        "Univ. Press, 2019).\n"
        "3. Lindqvist, A. Mixtures of Experts: A Practi-\n"
        "cal Guide (Example Publications, 2020).\n"
        "\n"
        "[4] Ilse Haldane and Maria Keller. 2018. Gated Networks: A Primer. Fjord\n"
        "Publishing, Oslo, Norway.\n"
        "[5] Jonas Brandt. 2020. Load balancing for experts. In Proceedings of the\n"
        "Example Conference. Fjord Press, 11–19.\n"
    )
    got = [(m.title, m.authors, m.year) for m in api_mentions(tmp_path, "refs.txt", text)]
    assert got == [("Sparse routers at scale", ["Okafor, T.", "Brandt, J."], 2021),
                   ("Routing Theory for Sparse Models", ["Haldane, I.", "Keller, M."], 2019),
                   ("Mixtures of Experts: A Practical Guide", ["Lindqvist, A."], 2020),
                   ("Gated Networks: A Primer", ["Ilse Haldane", "Maria Keller"], 2018),
                   ("Load balancing for experts", ["Jonas Brandt"], 2020)]


def test_a_reference_to_a_sites_home_page_is_no_paper_when_the_wrap_follows_its_slash(tmp_path: Path) -> None:
    # the line ends on the home page's slash and the next opens on what the site is: the
    # link is whole (a home page, no paper's), not cut by the wrap and joined to that word
    text = (
        "[1] Tomas Okafor and Jonas Brandt. 2021. Sparse routers at scale. In Proceedings of\n"
        "ICML, 11–19.\n"
        "[2] Ilse Haldane. 2023. Notes From the Router. https://www.example-router-notes.org/\n"
        "Newsletter.\n"
    )
    got = [m.title for m in api_mentions(tmp_path, "refs.txt", text)]
    assert got == ["Sparse routers at scale"]
