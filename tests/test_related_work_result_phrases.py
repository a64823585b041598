"""A result an abstract states as a noun phrase ("Results showed significant X.") is kept after what the paper did.

Made-up records, read through ``citekit.api``: readers flag a sentence that drops the finding the abstract
states. A finding with "that" was kept before; one whose results "showed" a noun phrase (an effect, a
difference) is now kept too, word for word; a noun phrase that names no result ("the following aspects") is not.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from tests.helpers_paragraphs import HAPTIC, KNIT, library


def _sentence(tmp_path: Path, abstract: str) -> str:
    out = related_work(library(tmp_path, "craft", [("loom1", "Looms for Beaders", abstract)] + HAPTIC + KNIT),
                       tags=("craft",), fmt="markdown").text
    return next(s for s in out.replace("\n", " ").split(". ") if "@loom1" in s)


def test_a_result_said_as_a_noun_phrase_is_kept(tmp_path: Path) -> None:
    said = _sentence(tmp_path, "Beaders tire at the loom. We compared three loom heights with twelve beaders. "
                               "Results showed significant differences in neck strain between loom heights.")
    assert said.endswith("and finds significant differences in neck strain between loom heights"), said


def test_a_noun_phrase_that_names_no_result_is_not_a_finding(tmp_path: Path) -> None:
    said = _sentence(tmp_path, "Beaders tire at the loom. We compared three loom heights with twelve beaders. "
                               "Results showed the following aspects of loom use.")
    assert "find" not in said and "following" not in said, said
