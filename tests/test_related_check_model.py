"""The learned reading of ``related-work --check``: with the cited records, a sentence is flagged when a reader would
mark it (a model fitted on eleven blind readers' verdicts, ``bench/check_train.py``), and the flag names the fault and
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
    # "their system": the abstract's "our system" turned round, pointing at nothing the reader has met
    ("@p present their system, a folding display made of printed paper panels with conductive ink, which teachers "
     "hang on a wall and fold away after a lesson.", "definite-reference", "echoes the abstract's 'our ...'"),
    # "the proposed system": the abstract introduced it, the reader of the related work never met it
    ("@p bring the proposed system to schools.", "definite-reference",
     "point to something the reader has not seen"),
    # the title's capitals pasted mid-sentence
    ("@p study Folding Displays for Classrooms.", "pasted-title", "keeps the capital of p's title"),
    # a verb no paper does
    ("@p have begun to hang paper panels with conductive ink on classroom walls.", "wrong-verb",
     "say 'present', 'study', 'show'"),
    # an abstract's boast, prepositions stacked
    ("@p present a new folding display for classrooms, a display for teachers for lessons, for walls.", "wordy",
     "prepositions are stacked"),
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


def _features(predicate: str) -> dict[str, float]:
    """The reading's features of one sentence about WALL (its citation already taken out)."""
    from citekit.output.check_features import FEATURES, sentence_features

    return dict(zip(FEATURES, sentence_features(predicate, [WALL.title], [WALL.abstract], set(), 1)))


def test_the_reading_sees_an_echoed_our_the_papers_own_praise_an_aside_and_a_bare_artefact():
    """What later readers named: "their system" (the abstract's "our system"), the paper's praise of itself, a title
    pasted in parentheses, and a thing built with nothing said of what it does."""
    assert _features("present their system for classrooms.")["their_own"] == 1
    assert _features("present a system for classrooms.")["their_own"] == 0
    assert _features("present a robust, efficient folding display.")["praise"] == 2
    assert _features("present a folding display for classrooms.")["praise"] == 0
    assert _features("present a folding display (folding displays for classrooms).")["parenthesis"] == 1
    assert _features("present a folding display.")["bare_artefact"] == 1
    assert _features("present a folding display that teachers hang in classrooms.")["bare_artefact"] == 0
    assert _features("present a folding display and find that teachers used it daily.")["bare_artefact"] == 0


def test_a_study_s_scope_is_no_count_of_things_left_unnamed():
    """"Over four weeks in three schools" says where and how long; "three technical steps" leaves the steps unnamed."""
    assert _features("find that teachers used it daily over four weeks in three schools.")["counted"] == 0
    assert _features("evaluate it with twelve participants.")["counted"] == 0
    assert _features("describe three technical steps.")["counted"] == 1
