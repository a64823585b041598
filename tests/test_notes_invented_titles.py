"""Lines a new user wrote that gave wrong mentions: a claim after a citation read as the
work's title, and a bare link's ``Title; Names`` sub-bullet read as one author list."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_claim_after_a_citation_is_no_title(tmp_path: Path) -> None:
    # a citation, then what the work did: an author-year mention (pending), never a title made of the sentence
    text = ("# Reading\n\n"
            "Halvorsen et al. (2023) QuillNet showed sparse token routing halves latency.\n\n"
            "Ibekwe et al. (2021) reported that warm restarts help small batches.\n")
    got = [(m.kind, m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("cited", None, ["Halvorsen"], 2023), ("cited", None, ["Ibekwe"], 2021)]


def test_a_title_after_a_citation_is_still_its_title(tmp_path: Path) -> None:
    text = ("# Reading\n\n"
            "Halvorsen et al. (2023) QuillNet: Sparse Token Routing for Faster Decoding.\n\n"
            "Ibekwe et al. 2021, Warm Restarts Revisited.\n\n"
            "Moreau et al. (2020) Learned sparse routers for small batches.\n")
    got = [(m.kind, m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("titled", "QuillNet: Sparse Token Routing for Faster Decoding", ["Halvorsen"], 2023),
                   ("titled", "Warm Restarts Revisited", ["Ibekwe"], 2021),
                   ("titled", "Learned sparse routers for small batches", ["Moreau"], 2020)]


def test_a_title_and_names_under_a_bare_link(tmp_path: Path) -> None:
    text = ("# Links\n\n"
            "* https://openreview.net/forum?id=Xq7TtRcZp2\n"
            "  * Sparse Token Routing for Faster Decoding; Lena Halvorsen, Tomas Ibekwe\n"
            "* arXiv:2403.01234\n"
            "  * Warm Restarts for Small Batches; Chidi Okonkwo\n")
    got = [(m.title, m.authors) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("Sparse Token Routing for Faster Decoding", ["Lena Halvorsen", "Tomas Ibekwe"]),
                   ("Warm Restarts for Small Batches", ["Chidi Okonkwo"])]


def test_names_split_by_semicolons_under_a_bare_link_stay_names(tmp_path: Path) -> None:
    text = ("# Links\n\n"
            "* https://openreview.net/forum?id=Xq7TtRcZp2\n"
            "  * Lena Halvorsen; Tomas Ibekwe\n")
    got = [(m.title, m.authors) for m in api_mentions(tmp_path, "notes.md", text)]
    assert all(t != "Lena Halvorsen" for t, _ in got)


def test_a_claim_of_where_a_method_comes_from_is_no_title(tmp_path: Path) -> None:
    from tests.helpers_extract import mentions_by_line

    got = mentions_by_line(tmp_path, "# Meeting notes\n\n"
                           "Background: GSR is from SparseNet (Okafor et al., 2021) — route each token to one expert.\n\n"
                           "- Sparse Routing Is All You Need (Lind & Moro, 2022)\n")
    assert [(m["title"], m["authors"][0].split(",")[0], m["year"]) for m in got[3]] == [(None, "Okafor", 2021)]
    assert got[5][0]["title"] == "Sparse Routing Is All You Need"


def test_a_summary_after_a_bracketed_citation_and_a_colon_is_no_title(tmp_path: Path) -> None:
    from tests.helpers_extract import mentions_by_line

    got = mentions_by_line(tmp_path, "# SSM notes\n\n"
                           "- **Q7** — quiet quiet owls (Lind, Moro et al., ICLR 2023): two gates + a slow state, closes the gap on LM.\n"
                           "- Okafor et al. (2021): Sparse Gating for Cheap Experts\n")
    assert [(m["title"], m["authors"][0].split(",")[0], m["year"]) for m in got[3]] == [(None, "Lind", 2023)]
    assert got[4][0]["title"] == "Sparse Gating for Cheap Experts"
