"""Lines that gave a second, wrong mention or a title made of a sentence: a title's own ``by``,
a ``Name -- Place, Place`` line read as a citation, a claim after a narrative citation."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_by_inside_a_title_after_a_citation_splits_nothing(tmp_path: Path) -> None:
    # the citation names the authors; "by Sparse Token Routing" is the title's, never an author
    text = ("# Reading\n\n"
            "Halvorsen et al. (2023) QuillNet: Faster Decoding by Sparse Token Routing.\n\n"
            "Ibekwe & Moreau (2021) Warm Restarts: Better Small Batches by Cyclic Schedules.\n")
    got = [(m.kind, m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("titled", "QuillNet: Faster Decoding by Sparse Token Routing", ["Halvorsen"], 2023),
                   ("titled", "Warm Restarts: Better Small Batches by Cyclic Schedules", ["Ibekwe"], 2021)]


def test_words_after_a_titles_by_are_no_authors(tmp_path: Path) -> None:
    # "Cyclic Schedules" and "Token Choice" are title words, not people: no mention names them
    text = ("# Reading\n\n"
            "- Warm Restarts: Better Small Batches by Cyclic Schedules\n"
            "- Sparse Routing by Token Choice\n"
            "- Faster Decoding with Sparse Routers by Lena Halvorsen and Tomas Ibekwe\n")
    got = [(m.title, m.authors) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("Faster Decoding with Sparse Routers", ["Lena Halvorsen", "Tomas Ibekwe"])]


def test_a_comma_list_then_a_year_cites_nobody(tmp_path: Path) -> None:
    # cities or teams listed and the line dated: its last item is no author of a 2023 paper;
    # family names listed before a year cite the whole list, first author first
    text = ("# Log\n\n"
            "- Tour -- Lisbon, Porto, Madrid, 2023\n"
            "- retro -- Sales, Marketing, Finance, 2024\n"
            "- the proof is in Okafor, 2022\n"
            "- the bound is in Halvorsen, Ibekwe, Okonkwo, 2021\n")
    got = [(m.kind, m.authors, m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("cited", ["Okafor"], 2022), ("cited", ["Halvorsen", "Ibekwe", "Okonkwo"], 2021)]


def test_a_claim_in_the_present_or_a_that_clause_is_no_title(tmp_path: Path) -> None:
    # what the work does, after its citation: an author-year mention, never a title made of the sentence
    text = ("# Reading\n\n"
            "Halvorsen et al. (2023) QuillNet halves latency by routing tokens sparsely.\n\n"
            "Ibekwe et al. (2021) QuillNet shows that warm restarts help small batches.\n\n"
            "Moreau et al. (2020) found that sparse routers drift.\n\n"
            "Okonkwo et al. (2022) QuillNet can cut decoding time in half.\n")
    got = [(m.kind, m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("cited", None, ["Halvorsen"], 2023), ("cited", None, ["Ibekwe"], 2021),
                   ("cited", None, ["Moreau"], 2020), ("cited", None, ["Okonkwo"], 2022)]


def test_sentence_case_titles_after_a_citation_stay_titles(tmp_path: Path) -> None:
    text = ("# Reading\n\n"
            "Halvorsen et al. (2023) Sparse routers scale to long contexts.\n\n"
            "Ibekwe et al. (2021) Token embeddings using warm restarts.\n\n"
            "Moreau et al. (2020) Routing is all you need.\n")
    got = [(m.kind, m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.md", text)]
    assert got == [("titled", "Sparse routers scale to long contexts", ["Halvorsen"], 2023),
                   ("titled", "Token embeddings using warm restarts", ["Ibekwe"], 2021),
                   ("titled", "Routing is all you need", ["Moreau"], 2020)]
