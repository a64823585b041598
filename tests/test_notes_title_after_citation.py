"""A title written after an author-year citation and a comma."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_title_after_a_citation_and_a_comma(tmp_path: Path) -> None:
    text = (
        "Mira Sato  10:09 AM\n"
        "the one I meant is Okafor et al. ICCV 2019, Learned Step Sizes for Sparse Coding. it has the bound\n"
    )
    assert [(m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.txt", text)] == [
        ("Learned Step Sizes for Sparse Coding", ["Okafor"], 2019)]


def test_a_title_after_a_citation_in_the_same_brackets(tmp_path: Path) -> None:
    text = "the step rule is the same as the older one (Brandt et al. 2017, Patch Priors for Natural Image Denoising)\n"
    assert [(m.title, m.authors[:1], m.year) for m in api_mentions(tmp_path, "notes.txt", text)] == [
        ("Patch Priors for Natural Image Denoising", ["Brandt"], 2017)]


def test_a_short_title_after_a_citation_and_a_remark_after_its_full_stop() -> None:
    # three capitalised words after the citation's comma are its title, in a sentence too;
    # a sentence after the title's full stop that is not in title case is a remark on it
    from citekit.notes.extract import extract_text

    text = ("- I liked Mensah et al. 2019, Gated Noise Routers.\n"
            "- Mensah et al. 2019, Gated Noise Routers. Good read.\n")
    got = [(m.location.line, m.title, m.authors, m.year) for m in extract_text(text, "list.md").mentions]
    assert got == [(1, "Gated Noise Routers", ["Mensah"], 2019), (2, "Gated Noise Routers", ["Mensah"], 2019)]


def test_a_lower_case_title_after_the_year_in_the_citations_own_brackets(tmp_path: Path) -> None:
    from tests.helpers_extract import mentions_by_line

    got = mentions_by_line(tmp_path, "# notes\n\n"
                           "- RAdam-ish (zhao et al 2019, on the variance of sparse routers and beyond) is the story\n"
                           "- the follow-up (zhao et al 2020, a nice follow-up on sparse models) too\n"
                           "- FID (Okafor et al. 2017, the two time-scale sparse rule paper) + recall\n")
    assert got[3][0]["title"] == "on the variance of sparse routers and beyond"
    assert got[4][0]["title"] is None and got[5][0]["title"] is None
