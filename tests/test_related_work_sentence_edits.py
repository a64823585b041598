"""Per-paper sentences a careful co-author keeps word for word (issue 25, sentences round 3).

The word-level edits blind readers asked for most (tests/data/related_work/*/judgements.yaml),
each on made-up records written in the style of real HCI records, never the judged ones: a
subtitle set off by a dash or a figure of speech left dangling after a comma, a question hook
said as research, a slogan said as the object studied, a built thing "studied", "A vs. B"
joined by "about", "the proposed system" pointing to an unseen sentence, words said twice, a
finding in another tense, "The work described herein" read as a verb, a sentence the export
cut off thrown away whole, title capitals after an acronym, an apostrophe the copy lost.
All go through ``citekit.api.related.related_work``.
"""

from __future__ import annotations

import re

import pytest

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.library.store import Library


def paper(key: str, title: str, abstract: str | None = None) -> Entry:
    return Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["edits"],
                 fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2012"})


ENTRIES = [
    paper("doe2012dash", "Sonification Methods for Maps\u2014a Survey"),
    paper("doe2012related", r"Automated Bricklaying by Cable Winches\textemdash Related Sensing and Control Methods"),
    paper("doe2012figure", "Tangible Blocks and Storytelling in Kindergartens: The Awakening of Authorship"),
    paper("doe2012ask", "Paper Prototyping with Teenagers: What to Sketch First?"),
    paper("doe2012hook", "Show Me Where? Pointing and Talking at Wall Displays"),
    paper("doe2012slogan", "Slow Reading: Blurred Fonts Improve Recall of Short Texts"),
    paper("doe2012made", "Folded Sensing: A Paper Crease Interface for Ambient Lamps"),
    paper("doe2012system", "A Garden Watering System Controllable by Spoken Commands"),
    paper("doe2012versus", "Speed vs. Accuracy: A Study of a Foot Pedal Interface in the Operating Room"),
    paper("doe2012proposed", "Shared Umbrella Displays",
          "We have designed and evaluated a shared display system built into umbrellas. With the proposed system, "
          "walkers can see messages from nearby friends. This article presents a study of the social acceptance "
          "of shared umbrella displays using the proposed system. We describe lessons for public displays."),
    paper("doe2012echo", "Recognition-Based Cough Counting in Night Recordings",
          "Nights are long. This paper proposes a cough counting method that combines cough counting with "
          "speaker recognition. Experimental results show that the proposed method is, on average, 91% "
          "reliable in counting coughs."),
    paper("doe2012tense", "Pace Assistance for Fair Group Running",
          # (the study is the paper's claim here: with a "we propose" before it that no sentence can say, the study
          # is a side result and "the group" a reference to nothing, which --check flags and the draft avoids)
          "Group runs split runners of different fitness. Pace assistance techniques such as audio beats and light "
          "pulses can balance runners. We compared three pace assistance techniques in a study, and found that "
          "audio beats reduced the spread of runners on hills."),
    paper("doe2012purpose", "A Combined Environment for Sketch Recognition Using Pen Pressure",
          "To provide a natural interface to the computer, we present an integrated pen, voice, and sketch "
          "recognition system. The system runs on tablets."),
    paper("doe2012case", "Manual and Automatic Remixing of Concert Recordings",
          "Concert recordings are shared widely. We present a case study where we compare the processes and "
          "products of manual and automatic remixing of concert recordings."),
    paper("doe2012partner", "A Rule-Based Fusion System for Speech and Pointing",
          "This paper presents an architecture for fusion of multimodal input streams for natural interaction with "
          "a humanoid robot as well as results from a user study with our system."),
    paper("doe2012long", "SignTalk3D: A Portable Wearable Sign-to-Speech System with Automatic Segmentation and "
                         "Confidence Thresholding Using Distance Measures"),
    paper("doe2012thesis", "Automatically Finding Likely Layout Rules",
          "This dissertation introduces automatic inference of layout rules, presents techniques for inferring such "
          "rules from screenshots, assesses the techniques' accuracy, and points the way for future research."),
    paper("doe2012kiosk", "Look-Here-Now: Voice and Gaze at the Kiosk",
          "Recent advances in gaze tracking have encouraged the notion that voice and gaze can converge at public "
          "kiosks. The work described herein involves the visitor selecting exhibits on a kiosk screen by "
          "looking and speaking. Because gaze can be combined with speech, short commands become possible."),
    paper("doe2012cut", "Rudiments of a Sketching Grammar for Garden Planning",
          "Gardens are planned on paper. This paper investigates the applicability of shape grammars to recognize "
          "and interpret hand-drawn garden plans in terms of placing beds, routing paths, and checking the "
          "sunlight with the information contained ..."),
    paper("doe2012caps", "Recall of Shopping Lists in VR-Based Supermarkets"),
    paper("doe2012apostrophe", "Exploring Knock Input for Doors",
          "The study explores the users perceptions to a knocking input method for smart doors."),
    paper("doe2012design", "Designing for Play with Shape-Changing Furniture"),
    paper("doe2012demo", "Spatial Conditioning through Sound and Light",
          "Architecture is being transformed by embedded sensors. This demo presents an approach to spatial design "
          "that implements techniques of interactive art, to ..."),
]


@pytest.fixture(scope="module")
def markdown(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("edits")
    (root / "citekit.yaml").write_text("# sentence edits test project\n")
    lib = Library.load(root / "refs")
    for e in ENTRIES:
        lib.add(e)
    lib.save()
    return related_work(root, tags=("edits",), fmt="markdown").text


def sentence(text: str, key: str) -> str:
    """The clause about ``key``: from its citation to the next citation or the end of the sentence."""
    m = re.search(r"@" + key + r"\b.*?(?=;\s@|\.(?:\s|$))", text)
    assert m, f"no sentence about {key} in:\n{text}"
    return m.group(0)


@pytest.mark.parametrize("key, said", [
    ("doe2012dash", "survey sonification methods for maps"),
    ("doe2012related", "automated bricklaying by cable winches and related sensing and control methods"),
])
def test_a_subtitle_set_off_by_a_dash_is_read_as_one(markdown: str, key: str, said: str) -> None:
    out = sentence(markdown, key)
    assert said in out and "\u2014" not in out and "---" not in out, out


def test_a_figure_of_speech_after_the_topic_is_not_left_after_a_comma(markdown: str) -> None:
    out = sentence(markdown, "doe2012figure")
    assert "tangible blocks and storytelling in kindergartens" in out and "awakening" not in out.lower(), out


@pytest.mark.parametrize("key, said", [("doe2012ask", "paper prototyping with teenagers"),
                                       ("doe2012hook", "pointing and talking at wall displays")])
def test_a_question_no_clause_can_say_is_a_hook_and_is_left_out(markdown: str, key: str, said: str) -> None:
    out = sentence(markdown, key)
    assert said in out and "?" not in out and not re.search(r"\b(?:asking|question)\b", out), out


def test_a_slogan_before_a_claim_is_not_said_as_the_object_studied(markdown: str) -> None:
    out = sentence(markdown, "doe2012slogan")
    assert "show that blurred fonts improve recall of short texts" in out and "slow reading" not in out.lower(), out


def test_a_versus_title_says_what_the_study_compares(markdown: str) -> None:
    out = sentence(markdown, "doe2012versus")
    assert "comparing speed with accuracy" in out and " about " not in out, out


def test_the_proposed_system_is_not_left_pointing_to_an_unseen_sentence(markdown: str) -> None:
    out = sentence(markdown, "doe2012proposed")
    assert "the proposed" not in out and "social acceptance of shared umbrella displays" in out, out


def test_words_said_again_in_the_relative_clause_are_said_once(markdown: str) -> None:
    out = sentence(markdown, "doe2012echo")
    assert "a method that combines cough counting with speaker recognition" in out, out
    assert "the proposed method" not in out, out


def test_the_abstracts_finding_is_said_in_the_tense_of_its_action(markdown: str) -> None:
    out = sentence(markdown, "doe2012tense")
    assert "compare three" in out and "and find that audio beats" in out, out


def test_what_a_case_study_did_is_the_papers_action(markdown: str) -> None:
    out = sentence(markdown, "doe2012case")
    assert re.search(r"@doe2012case compare the processes and products of manual and automatic remixing", out), out


def test_a_participle_that_says_which_work_is_not_read_as_the_verb(markdown: str) -> None:
    out = sentence(markdown, "doe2012kiosk")
    assert "herein" not in out and "the visitor selecting exhibits" in out, out


def test_a_sentence_the_export_cut_off_is_read_up_to_where_it_is_whole(markdown: str) -> None:
    out = sentence(markdown, "doe2012cut")
    assert "shape grammars" in out and "rudiments" not in out.lower() and "contained" not in out, out


def test_designing_for_an_activity_is_studied_not_done(markdown: str) -> None:
    out = sentence(markdown, "doe2012design")
    assert re.search(r"stud(?:y|ies) design for play", out), out


def test_a_long_subtitle_says_what_the_thing_is_not_every_part_of_how(markdown: str) -> None:
    out = sentence(markdown, "doe2012long")
    assert out.endswith("present SignTalk3D, a portable wearable sign-to-speech system"), out


def test_a_list_of_actions_keeps_the_first(markdown: str) -> None:
    out = sentence(markdown, "doe2012thesis")
    assert out.endswith("introduce automatic inference of layout rules"), out


@pytest.mark.parametrize("key, said", [
    pytest.param("doe2012made", "present folded sensing, a paper crease interface for ambient lamps",
                 id="a_made_thing_the_title_names_is_presented_not_studied"),
    pytest.param("doe2012system", "present a garden watering system controllable by spoken commands",
                 id="a_made_system_after_its_participle_is_presented_not_studied"),
    pytest.param("doe2012tense", "compare three pace assistance techniques",
                 id="a_counted_kind_gets_the_words_the_abstract_named_it_with"),
    pytest.param("doe2012purpose", "an integrated pen, voice, and sketch recognition system",
                 id="a_purpose_said_before_the_claim_does_not_hide_it"),
    pytest.param("doe2012caps", "VR-based supermarkets",
                 id="an_ordinary_word_after_an_acronym_is_not_left_in_title_case"),
    pytest.param("doe2012apostrophe", "users' perceptions", id="an_apostrophe_the_copy_lost_is_put_back"),
    pytest.param("doe2012demo", "an approach to spatial design that implements techniques of interactive art",
                 id="a_demo_says_what_it_presents"),
    pytest.param("doe2012partner", "for natural interaction with a humanoid robot",
                 id="interaction_keeps_whom_it_is_with"),
])
def test_the_edit_a_reader_asked_for_is_made(markdown: str, key: str, said: str) -> None:
    out = sentence(markdown, key)
    assert said in out, out
