"""A paragraph's opener says what its papers share and, where each names its own means, how they differ.

Made-up records, read through ``citekit.api``: two papers that both sense hand gestures, one "based on surface
muscle sensors", the other "using the body as an antenna", open with what they share and then each paper's means
("...: @a based on X, @b using Y"); two papers that name the same means, or where one names none, open
without it (a shared means is no difference, and a clause for some of them says nothing of the rest).
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

GESTURES = [
    ("emg1", "Recognising Hand Gestures Based on Surface Muscle Sensors",
     "Hand gestures can control a phone without touching it. We recognise hand gestures based on surface muscle "
     "sensors worn on the forearm. Twelve hand gestures were told apart for ten participants."),
    ("ant1", "Sensing Hand Gestures Using the Body as an Antenna",
     "Instrumenting homes with cameras is costly. We sense hand gestures using the body as an antenna for the "
     "electrical noise of the home. Hand gestures near walls were classified for eight participants."),
]


def _gesture_opener(tmp_path: Path, papers: list[tuple[str, str, str]]) -> tuple[str, list[str], str]:
    tmp_path.mkdir()
    out = related_work(library(tmp_path, "sensing", papers + HAPTIC + KNIT), tags=("sensing",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if papers[0][0] in p[2])
    return opener(para[1]), sorted(set(para[2])), out


def test_opener_says_how_the_papers_differ_in_their_means(tmp_path: Path) -> None:
    """Two papers that each name their own means open with what they share, then each one's means; two that name
    the same means, or where one names none, open without a means clause (checked in the same test: the clause
    is new, so each part of it fails without it)."""
    said, keys, out = _gesture_opener(tmp_path / "differ", GESTURES)
    assert keys == ["ant1", "emg1"], out
    assert said.endswith(("@emg1 based on surface muscle sensors worn on the forearm.",
                          "@ant1 using the body as an antenna.")), out
    assert "hand gestures: @" in said and "@ant1 using the body as an antenna" in said, out
    assert "for the electrical noise" not in said, out  # (the means ends where its purpose begins)

    same = [GESTURES[0], ("emg2", "Hand Gestures for Phones Based on Surface Muscle Sensors",
                          "Phones in pockets are hard to reach. We recognise hand gestures based on surface muscle "
                          "sensors in a sleeve. Hand gestures were told apart while walking.")]
    said, keys, out = _gesture_opener(tmp_path / "same", same)
    assert keys == ["emg1", "emg2"], out
    assert said.startswith("Both papers") and "@" not in said, out  # (a shared means is no difference)

    one = [GESTURES[0], ("cam1", "Hand Gestures on Kitchen Counters",
                         "Cooks have wet hands. We recognise hand gestures on kitchen counters from a ceiling camera "
                         "picture. Hand gestures were told apart while cooking.")]
    said, keys, out = _gesture_opener(tmp_path / "one", one)
    assert keys == ["cam1", "emg1"], out
    assert said.startswith("Both papers") and "@" not in said, out  # (a clause for one says nothing of the other)


HANDS = [
    ("ht1", "Multi-User Interaction Based on Real-Time Hand Tracking",
     "Page 1. Multi-User Interaction Based on Real-Time Hand Tracking. We present a table where several people "
     "point at once; Hand Tracking follows each hand from a ceiling camera."),
    ("ht2", "A Framework for 3D Hand Tracking",
     "Page 1. A Framework for 3D Hand Tracking. We present a framework that follows hands in 3D from two "
     "cameras; Hand Tracking runs in real time on a laptop."),
]


def test_a_title_case_phrase_is_said_in_sentence_case_throughout(tmp_path: Path) -> None:
    """Abstracts that paste their title case ("Hand Tracking follows ...") make no name of "Tracking": the opener
    and heading say "hand tracking", never "hand Tracking" (a reader marks that as mis-capitalized)."""
    out = related_work(library(tmp_path, "motion", HANDS + HAPTIC + KNIT), tags=("motion",), fmt="markdown").text
    heading, body, _, _ = next(p for p in paragraphs(out) if "ht1" in p[2])
    assert heading == "Hand tracking", out
    assert opener(body) == "Both papers address hand tracking.", out
