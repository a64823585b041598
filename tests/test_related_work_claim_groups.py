"""Leftovers grouped by what they say they do, not left in "Other related work".

Made-up records, read through ``citekit.api``: papers the closeness leaves alone, whose titles and "we present ..."
sentences write one term (in any form: "acoustic", "acoustically", "piezoacoustic") that no other paper's does,
are a paragraph of their own; a title that writes the term in a figure of speech its abstract never uses is not
pulled in.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from citekit.output.related_terms import claim, terms
from citekit.output.word_roots import root
from tests.helpers_paragraphs import library, paragraphs

#: three papers on eye-tracking input: a group of their own
GAZE = [
    ("eye1", "Eye Tracking Dwell for Kiosk Menus",
     "We present DwellMenu, a system that selects kiosk menu items by eye tracking dwell, so that eye tracking "
     "replaces touch on public kiosks."),
    ("eye2", "Calibration-Free Eye Tracking Dwell",
     "We present GlanceSelect, a system that estimates eye tracking dwell without calibration from pupil "
     "positions, and selects the item looked at."),
    ("eye3", "Eye Tracking Dwell Times for Reading Aids",
     "We present ReadDwell, a system that shows word definitions after an eye tracking dwell of half a second on "
     "an unknown word."),
]

#: three input techniques that hear their input, in three forms of one word, and share little else
ACOUSTIC = [
    ("tap1", "Locating Finger Taps by Their Acoustic Signatures",
     "Desks are large but unused surfaces. We present TapSpot, a technique that locates finger taps on a desk "
     "from their acoustic signatures, picked up by two contact microphones, as input for laptops."),
    ("hum1", "Humming Commands to a Smartwatch",
     "Watches have tiny screens. We present HumWatch, an acoustically sensed input technique: the watch hears "
     "the wearer hum short tunes through the wrist bone and maps each tune to a command."),
    ("knock1", "A Piezoacoustic Kitchen Counter",
     "Kitchens are busy places for hands. We present a counter that senses piezoacoustic waves of knocks on "
     "its stone top, as input for the oven, the lights and the radio."),
]

#: a paper whose title says "acoustic" in passing, an abstract that never does: no acoustic input
FIGURE = ("cafe1", "The Acoustic Shadow of Design Critique",
          "We interviewed twelve design teachers about how critique sessions are run in studios, and report "
          "how students take up the feedback they hear in later input to their projects.")


def test_leftovers_that_say_they_do_one_thing_are_a_paragraph(tmp_path: Path) -> None:
    """Three input techniques that sense sound (a title's "Acoustic", a claim's "acoustically sensed", a
    "piezoacoustic" counter) are one paragraph under a heading true of all three, not entries of a catch-all."""
    out = related_work(library(tmp_path, "input", GAZE + ACOUSTIC), tags=("input",), fmt="markdown").text
    paras = paragraphs(out)
    home = [(h, keys) for h, _, keys, _ in paras if "tap1" in keys]
    assert home and home[0][0] != "Other related work", out
    assert sorted(home[0][1]) == ["hum1", "knock1", "tap1"], out
    assert "acoustic" in home[0][0].lower(), out


def test_a_title_word_its_abstract_never_writes_pulls_no_paper_in(tmp_path: Path) -> None:
    """A study whose title writes "Acoustic" as a figure of speech, and whose abstract never does, is not filed
    with the acoustic input techniques."""
    out = related_work(library(tmp_path, "input", GAZE + ACOUSTIC + [FIGURE]), tags=("input",),
                       fmt="markdown").text
    paras = paragraphs(out)
    home = next(keys for _, _, keys, _ in paras if "tap1" in keys)
    assert "cafe1" not in home, out


def test_an_adverb_and_a_closed_up_combining_form_are_the_word() -> None:
    """"magnetically" has the root of "magnetic", and a "ferromagnetic" sensor counts as magnetic too;
    "microphone" is no phone (what follows a combining form must be a word of its own length)."""
    assert root("magnetically") == root("magnetic") == root("magnet")
    assert (root("magnetic")[:7],) in terms("A Ferromagnetic Input Device")
    assert ("phone",) not in terms("a microphone")


def test_the_claim_is_the_title_and_the_sentence_that_says_what_was_done() -> None:
    """A sentence about the setting is not what a paper does; with no "we present ..." sentence, the title alone."""
    text = "Pathway Picking . Pathway Picking . Scientists image brains with magnetic resonance. We present a picker."
    assert claim(text) == "Pathway Picking . We present a picker."
    assert claim("A Title . A Title . Brains are imaged with magnetic resonance.") == "A Title"


#: two studies of input on the move, one of them saying so in "the research presented in this paper ..."
MOVING = [
    ("walk1", "Thumb Reach on Treadmills",
     "In our earlier work, we built a treadmill rig with handrails. The research presented in this paper is part "
     "of an investigation of mobile thumb input by people who walk."),
    ("bus1", "Text Input on Shaking Buses",
     "Riders type in buses. In this study, mobile typing under vibration was examined with twelve riders over two "
     "routes."),
]


def test_a_claim_said_in_the_passive_is_read_and_earlier_work_is_not() -> None:
    """"The research presented in this paper ..." says what the paper does; "In our earlier work, we built ..." does
    not."""
    text = f"{MOVING[0][1]} . {MOVING[0][1]} . {MOVING[0][2]}"
    assert claim(text) == f"{MOVING[0][1]} . {MOVING[0][2].split('. ')[1]}"


def test_two_leftovers_that_say_they_study_mobile_input_are_a_paragraph(tmp_path: Path) -> None:
    """Two studies whose claims write "mobile input" (one in the passive) are one paragraph, "Mobile input", not
    two entries of "Other related work"."""
    out = related_work(library(tmp_path, "input", GAZE + ACOUSTIC + MOVING), tags=("input",), fmt="markdown").text
    paras = paragraphs(out)
    home = next((h, keys) for h, _, keys, _ in paras if "walk1" in keys)
    assert home == ("Mobile input", ["walk1", "bus1"]) or home == ("Mobile input", ["bus1", "walk1"]), out


#: two robots that take input, neither of them "robotic input": each writes "robotic" about something else
ROBOTS = [
    ("arm1", "A Robotic Arm for Bakers",
     "Bakers need a third hand. We present BakerArm, a robotic arm that is steered by the input a baker speaks "
     "while both hands knead dough."),
    ("dog1", "A Robotic Guide Dog",
     "Blind walkers rely on dogs. We present GuideBot, a robotic companion on wheels whose handle reads the input "
     "a walker gives by squeezing."),
]


def test_an_adjective_heading_needs_a_paper_that_writes_it_as_one_phrase(tmp_path: Path) -> None:
    """Two robots that take input are no "Robotic input": no claim writes the adjective and the section's word as
    one phrase, so the heading is not made up from the two ("Mobile input" above is: "mobile thumb input")."""
    out = related_work(library(tmp_path, "input", GAZE + ACOUSTIC + ROBOTS), tags=("input",), fmt="markdown").text
    assert "robotic input" not in out.lower(), out


def test_a_phrase_is_the_two_words_with_at_most_two_content_words_between() -> None:
    """"mobile thumb input" writes "mobile ... input"; a function word or a comma between, or three words, does not."""
    from citekit.output.related_terms import writes_phrase

    assert writes_phrase(root("mobile"), root("input"), "a study of mobile thumb input")
    assert writes_phrase(root("magnetic"), root("input"), "ferromagnetic input")
    assert not writes_phrase(root("robotic"), root("input"), "a robotic arm that takes input")
    assert not writes_phrase(root("robotic"), root("input"), "robotic, and input")
    assert not writes_phrase(root("robotic"), root("input"), "robotic kitchen arm steering input")
