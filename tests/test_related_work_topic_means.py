"""A paragraph whose papers share only a phrase has no opener; each paper's sentence keeps its own means.

Made-up records, read through ``citekit.api``: two papers that both sense hand gestures, one "based on surface
muscle sensors", the other "using the body as an antenna". They once opened "Both papers address hand gestures:
@a based on X, @b using Y"; readers struck that as vacuous, so the paragraph opens with its first paper. (The
means clause is still added to an opener that says what the papers do, :func:`.related_openers.opener`.)
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


def test_papers_that_share_only_a_phrase_get_no_opener_and_keep_their_means(tmp_path: Path) -> None:
    """Two papers that both sense hand gestures, each by its own means, share a phrase but no action the check
    would pass: the paragraph opens with its first paper, never "Both papers address hand gestures: @a based on
    X, @b using Y" (readers struck that opener as vacuous even with the means after it), and each paper's own
    sentence still says its means."""
    said, keys, out = _gesture_opener(tmp_path / "differ", GESTURES)
    assert keys == ["ant1", "emg1"], out
    assert said == "", out
    assert "using the body as an antenna" in out and "surface muscle sensors" in out, out
    assert "address" not in out, out


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
    assert "hand Tracking" not in out and opener(body) == "", out
