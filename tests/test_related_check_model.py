"""The learned reading of ``related-work --check``: with the cited records, a sentence is flagged when a reader would
mark it (a model fitted on six blind readers' verdicts, ``bench/check_train.py``), and the flag names the fault and
what to do; the rules no reader ever overruled flag on their own, and a plain sentence in the author's own words is not
flagged. Made-up records and sentences, read through the API as ``related-work --check`` reads a draft."""

from __future__ import annotations

import pytest

from citekit.api.related import check_snippet
from tests.helpers_check import WALL



def _first(sentence: str) -> tuple[str, str]:
    """The first defect the check reports for a one-sentence draft citing WALL: (category, message)."""
    found = check_snippet(sentence, "markdown", records=[WALL])
    assert found, sentence
    return found[0].category, found[0].message


@pytest.mark.parametrize("sentence, category, said", [
    # a long clause copied from the abstract
    ("@p present Paper Walls, a folding display made of printed paper panels with conductive ink, which teachers "
     "hang on a wall and fold away after a lesson.", "wordy", "cut it"),
    # "the proposed system": the abstract introduced it, the reader of the related work never met it
    ("@p bring the proposed system to schools.", "definite-reference",
     "point to something the reader has not seen"),
    # the title's capitals pasted mid-sentence
    ("@p study Folding Displays for Classrooms.", "pasted-title", "keeps the capital of p's title"),
    # a verb no paper does
    ("@p have begun to hang paper panels with conductive ink on classroom walls.", "wrong-verb",
     "say 'present', 'study', 'show'"),
    # a verb followed by an -ing form: nothing presented
    ("@p present using paper panels with conductive ink in classrooms.", "grammar", "say what the paper presents"),
    # an abstract's boast, prepositions stacked
    ("@p present a new folding display for classrooms, a display for teachers for lessons, for walls.", "wordy",
     "the abstract's own boast"),
])
def test_a_sentence_a_reader_would_mark_is_flagged_with_its_fault_and_what_to_do(sentence, category, said):
    found, message = _first(sentence)
    assert found == category and said in message, (found, message)


def test_a_rule_no_reader_overruled_flags_on_its_own():
    """An acronym the text never writes out, verbs that disagree: exact, whatever the model says of the rest."""
    assert "acronym" in [d.category for d in check_snippet(
        "@p present Paper Walls and show that teachers used the PWD daily.", "markdown", records=[WALL])]
    assert "grammar" in [d.category for d in check_snippet(
        "@p presents and evaluated a folding paper display for classrooms.", "markdown", records=[WALL])]


def test_a_plain_sentence_in_the_authors_own_words_is_not_flagged():
    assert check_snippet("@p present a folding paper display, and find that teachers used it daily over four weeks "
                         "in three schools.", "markdown", records=[WALL]) == []
    assert check_snippet("@p present Paper Walls, a folding paper display that teachers hang in classrooms.",
                         "markdown", records=[WALL]) == []


def test_without_the_records_the_rules_alone_decide_and_the_model_is_not_read():
    from citekit.output.check_model import _model

    _model.cache_clear()
    assert check_snippet("@p bring the proposed system to schools.", "markdown") == []
    assert _model.cache_info().currsize == 0
    check_snippet("@p present a folding paper display.", "markdown", records=[WALL])
    assert _model.cache_info().currsize == 1


def test_a_key_no_record_has_is_an_undefined_citation_whatever_the_sentence():
    found = check_snippet("@q present a folding paper display, and find that teachers used it daily over four weeks "
                          "in three schools.", "markdown", records=[WALL])
    assert [d.category for d in found] == ["undefined-citation"] and "'q'" in found[0].message
    assert check_snippet("@q present a folding paper display.", "markdown") == []  # (without records: unknown)


@pytest.mark.parametrize("sentence", [
    "Folding paper displays can be hung on classroom walls and put away after a lesson [@p].",
    "Smith et al. [@p] present a folding paper display for classrooms.",
])
def test_a_sentence_shaped_as_the_reading_never_saw_is_left_to_the_hand_rules(sentence):
    """An author's draft (``--check-file``) may cite at a sentence's end or after a name: the reading, fitted on
    sentences that open with their citation, would take the first word for the verb and flag each as a wrong verb."""
    assert check_snippet(sentence, "markdown", records=[WALL]) == []
