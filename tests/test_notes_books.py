"""A book or a web site in a reference list. A book: after its title the reference names only its publisher
(a press or a publishing house), its place and year. It is no paper, however it is
formatted; a paper in proceedings a press prints, or in a journal, is still one."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_reference_naming_only_its_publisher_after_the_title_is_a_book(tmp_path: Path) -> None:
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
    got = [m.title for m in api_mentions(tmp_path, "refs.txt", text)]
    assert got == ["Sparse routers at scale", "Load balancing for experts"]


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
