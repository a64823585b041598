"""A short phrase before a title's colon that the abstract never uses is a pun, not what the paper studies.

Made-up records, read through ``citekit.api``: "Knotty Problems: A Comparative Usability Study of Bead
Threading Tools" with an abstract about threading tools only. "study bead threading tools about knotty
problems" claims a topic the record does not support; the sentence reports the study whole instead. The same
title with an abstract that does speak of knotty problems keeps them as the study's topic.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from tests.helpers_paragraphs import HAPTIC, KNIT, library

TITLE = "Knotty Problems: A Comparative Usability Study of Bead Threading Tools"


def _sentence(tmp_path: Path, abstract: str) -> str:
    out = related_work(library(tmp_path, "craft", [("knot1", TITLE, abstract)] + HAPTIC + KNIT), tags=("craft",),
                       fmt="markdown").text
    return next(s for s in out.replace("\n", " ").split(". ") if "@knot1" in s)


def test_a_pun_before_the_colon_is_not_the_topic(tmp_path: Path) -> None:
    said = _sentence(tmp_path, "Bead threading tools differ in how much force they need. Threading tools were "
                               "compared by")
    assert "knotty" not in said.lower(), said
    assert "comparative usability study of bead threading tools" in said, said


def test_a_phrase_the_abstract_uses_stays_the_topic(tmp_path: Path) -> None:
    said = _sentence(tmp_path, "Beginners who thread beads run into problems with knots. Threading tools were "
                               "compared by")
    assert "knotty problems" in said.lower(), said


def test_a_title_that_lists_parts_presents_its_first_item(tmp_path: Path) -> None:
    """"A Bead Loom Controller, Pattern Task, Technology and Evaluation": the list is no single object of one verb
    ("give a bead loom controller, pattern task, technology and evaluation"); the first item, with its article,
    is what the paper presents. A list after "of" is one object and stays whole."""
    out = related_work(library(tmp_path, "craft", [
        ("list1", "A Bead Loom Controller, Pattern Task, Technology and Evaluation", ""),
        ("list2", "An Analysis of Bead Looms, Weaving Patterns, and Tools", ""),
    ] + HAPTIC + KNIT), tags=("craft",), fmt="markdown").text
    flat = out.replace("\n", " ")
    assert "@list1 presents a bead loom controller." in flat, out
    assert "bead looms, weaving patterns, and tools" in flat, out
