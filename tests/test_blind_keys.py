"""The answer keys of the notes written blind are whole: a scorer reading a broken key would
measure nothing. (The notes and keys are data written outside the team; see their README.)"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from blind_scoring import BLIND, BLIND2, DEV, DEV2, DEV3, DEV4, DEV5, DEV6, blind_files, score_file  # noqa: E402

FILES = blind_files(BLIND)
DEV_FILES = blind_files(DEV) + blind_files(DEV2) + blind_files(DEV3) + blind_files(DEV4) + blind_files(DEV5) + blind_files(DEV6)
BLIND2_FILES = blind_files(BLIND2)


def test_the_blind_set_is_as_large_as_asked() -> None:
    keys = [json.loads(Path(str(p) + ".expected.json").read_text(encoding="utf-8")) for p in FILES]
    assert len(FILES) >= 20
    assert sum(len(k["papers"]) for k in keys) >= 250
    assert sum(len(k.get("non_papers") or []) for k in keys) >= 120
    assert len({k["writer"] for k in keys}) >= 7


@pytest.mark.parametrize("notes", FILES + DEV_FILES + BLIND2_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_each_key_names_real_lines_and_titles(notes: Path) -> None:
    key = json.loads(Path(str(notes) + ".expected.json").read_text(encoding="utf-8"))
    n_lines = len(notes.read_text(encoding="utf-8", errors="replace").splitlines())
    assert key["style"] and key["writer"]
    for paper in key["papers"]:
        assert paper["title"].strip(), paper
        assert 1 <= paper["line"] <= n_lines, paper
        assert isinstance(paper.get("authors_in_notes") or [], list)
    for item in key.get("non_papers") or []:
        assert 1 <= item["line"] <= n_lines, item


@pytest.mark.parametrize("notes", FILES[:3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_scorer_counts_what_extraction_found(notes: Path) -> None:
    s = score_file(notes)
    assert s.true_mentions + len(s.false) == s.mentions
    assert s.found + len(s.misses) == s.papers
    assert s.right_title <= s.titled <= s.found and s.authors_exact <= s.with_authors <= s.found


def test_an_author_year_citation_stands_for_its_paper_by_first_family_and_year(tmp_path: Path) -> None:
    """Three papers on one line, named by author and year only: each citation is matched to
    the paper of its first author and year, wherever it is, and a wrong year matches none."""
    notes = tmp_path / "tweets.txt"
    notes.write_text("CoT (Wei et al. 2022) + self-consistency (Wang et al.) + ToT (Yao et al. 2019) in a trench coat\n",
                     encoding="utf-8")
    paper = {"ids_in_notes": {}, "authors_incomplete": True, "line": 1}
    key = {"style": "copied tweets", "papers": [
        {**paper, "title": "Chain-of-Thought Prompting Elicits Reasoning in Large Language Models", "authors_in_notes": ["Wei"], "year_in_notes": 2022},
        {**paper, "title": "Self-Consistency Improves Chain of Thought Reasoning in Language Models", "authors_in_notes": ["Wang"], "year_in_notes": None},
        {**paper, "title": "Tree of Thoughts: Deliberate Problem Solving with Large Language Models", "authors_in_notes": ["Yao"], "year_in_notes": 2023},
    ], "non_papers": []}
    Path(str(notes) + ".expected.json").write_text(json.dumps(key), encoding="utf-8")
    s = score_file(notes)
    assert (s.mentions, s.true_mentions, s.found) == (3, 2, 2)
    assert [m.split(": ", 1)[1] for m in s.misses] == ["Tree of Thoughts: Deliberate Problem Solving with Large Language Models"]


def test_a_found_title_goes_to_the_key_title_it_equals_not_a_longer_one_holding_it(tmp_path: Path) -> None:
    """Two papers whose titles hold one another, the longer listed first: the mention of the
    shorter title is matched to the key title it equals, so neither paper is counted missed
    and the authors compared are those of the right paper."""
    notes = tmp_path / "reading.md"
    notes.write_text('- Okafor et al. 2023, "Is Sparse Gating in Translation Models Overrated?"\n'
                     '- Lindqvist & Mbeki 2021, "Sparse Gating in Translation Models"\n', encoding="utf-8")
    paper = {"ids_in_notes": {}, "year_in_notes": None}
    key = {"style": "a reading list", "writer": "t", "papers": [
        {**paper, "title": "Is Sparse Gating in Translation Models Overrated?", "line": 1,
         "authors_in_notes": ["Okafor"], "authors_incomplete": True},
        {**paper, "title": "Sparse Gating in Translation Models", "line": 2,
         "authors_in_notes": ["Lindqvist", "Mbeki"], "authors_incomplete": False},
    ], "non_papers": []}
    Path(str(notes) + ".expected.json").write_text(json.dumps(key), encoding="utf-8")
    s = score_file(notes)
    assert (s.mentions, s.true_mentions, s.found, s.misses) == (2, 2, 2, [])
    assert (s.right_title, s.authors_exact) == (2, 2)


def test_key_authors_are_read_as_the_file_prints_them(tmp_path: Path) -> None:
    """A key copies the names as the file writes them: a LaTeX tie (``Ana~Costa``) is a space,
    and a family name before its bare initials (``Costa A``) is the family name."""
    notes = tmp_path / "refs.md"
    notes.write_text("[1] Ana Costa and Bram de Wit. 2023. Tidal Forecasting with Sparse Sensors. arXiv:2301.01234\n"
                     "[2] Okafor C, Lindqvist M. Ice Sheet Emulators for Coupled Models. arXiv:2302.04321\n", encoding="utf-8")
    paper = {"year_in_notes": None, "authors_incomplete": False}
    key = {"style": "a reference list", "writer": "t", "papers": [
        {**paper, "title": "Tidal Forecasting with Sparse Sensors", "line": 1, "ids_in_notes": {"arxiv": "2301.01234"},
         "authors_in_notes": ["Ana~Costa", "Bram~de~Wit"]},
        {**paper, "title": "Ice Sheet Emulators for Coupled Models", "line": 2, "ids_in_notes": {"arxiv": "2302.04321"},
         "authors_in_notes": ["Okafor C", "Lindqvist M"]},
    ], "non_papers": []}
    Path(str(notes) + ".expected.json").write_text(json.dumps(key), encoding="utf-8")
    s = score_file(notes)
    assert (s.found, s.with_authors) == (2, 2)
    assert s.authors_exact == 2, s.wrong_authors
