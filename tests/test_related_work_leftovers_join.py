"""A paper left for "Other related work" joins the group whose own phrase it writes, under a heading true of all.

Made-up records, read through ``citekit.api``: under a ``motion`` tag where most papers recognise gestures (so
"gesture recognition" is close to the section's own words and grouping leaves them apart), two papers on "hand
tracking and gesture recognition" form a group, and two more papers whose titles say "gesture recognition"
join it: the paragraph is then headed by the phrase all of them write ("Gesture recognition"), not by one the
newcomers lack ("Hand tracking"). Papers that share no phrase with any group (device access time, a touch
detector) stay in "Other related work", which stays last.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from tests.helpers_paragraphs import library, paragraphs

MOTION = [
    ("trk1", "Multi-User Interaction Based on Real-Time Hand Tracking and Gesture Recognition",
     "We present a table where several people point at once; real-time hand tracking from a ceiling camera feeds "
     "gesture recognition for each user."),
    ("trk2", "A Framework for 3D Hand Tracking and Gesture Recognition Using Genetic Programming",
     "We present a framework for 3D hand tracking and gesture recognition from two cameras, evolved by genetic "
     "programming."),
    ("rec1", "Gesture Recognition for Alphabets from Motion Trajectories Using Hidden Markov Models",
     "Writing letters in the air is a quick input. We study gesture recognition of the alphabet from motion "
     "trajectories with hidden Markov models, for 26 letters."),
    ("rec2", "Posture and Gesture Recognition Using Body Shape Decomposition",
     "Postures of the whole body carry meaning. We study posture and gesture recognition from body shapes "
     "decomposed into parts, in a studio with eight cameras."),
    ("rec3", "Gesture Recognition and Tracking Based on Locally Linear Embedding",
     "We study gesture recognition and tracking based on distributed locally linear embedding of video frames."),
    ("acc1", "On-Body Placement and Device Access Time",
     "We measure how long people take to reach a device worn on the wrist, in a pocket or on the hip, while "
     "walking and standing."),
    ("kin1", "KinectTouch: Touch Detection on Any Display",
     "We present KinectTouch, a low-cost depth camera setup that detects touches on any display."),
    ("pos1", "Sitting Posture Monitoring with Pressure Mats",
     "We monitor the sitting posture of office workers with pressure mats on chairs, and remind them to sit "
     "upright."),
    ("pos2", "Posture Feedback for Office Chairs",
     "We present a chair that senses sitting posture with pressure sensors and gives feedback on slouching."),
]


def test_leftovers_that_write_a_groups_phrase_join_it(tmp_path: Path) -> None:
    out = related_work(library(tmp_path, "motion", MOTION), tags=("motion",), fmt="markdown").text
    paras = paragraphs(out)
    group = next(p for p in paras if "trk1" in p[2])
    assert group[0] == "Gesture recognition", out
    assert {"trk1", "trk2", "rec1", "rec3"} <= set(group[2]), out
    closing = paras[-1]
    assert closing[0] == "Other related work", out
    assert set(closing[2]) == {"acc1", "kin1"}, out  # (they share no phrase with any group: they stay)
