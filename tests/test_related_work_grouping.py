"""Paragraphs grouped by what papers do, not by the section's own topic.

Made-up records, read through ``citekit.api``: the section's words ("displays" under a
``display`` tag) never name a group or open one; a paper left alone joins the group whose point
it shares; and a paragraph's opening sentence is true of every paper it covers (papers are
"systems" only when each one builds one).
"""

from __future__ import annotations

import re
from pathlib import Path

from citekit.api.related import related_work
from tests.helpers_paragraphs import HAPTIC, library, opener, paragraphs


GAZE = [
    ("gaze1", "Eye Tracking for Reading on Large Screens",
     "We present ReadTrack, a system that follows eye tracking fixations of readers of large screens, and "
     "scrolls the text on the screens when the fixations reach the last line."),
    ("gaze2", "Calibration-Free Eye Tracking on Public Screens",
     "We present GazeGlance, a system that estimates eye tracking fixations on public screens without "
     "calibration, from the pupil positions of people who pass the screens."),
    ("gaze3", "Eye Tracking Fixations as Input for Kiosk Screens",
     "We present FixSelect, a system that selects the items of kiosk screens by eye tracking fixations of a "
     "quarter of a second, so that hands stay free in front of the screens."),
]


#: two papers that share nothing but the section's word
APART = [
    ("wall1", "Self-Moving Displays on Office Walls",
     "We built WallBot, a robot that carries displays across office walls and parks the displays where the "
     "owner sits; the displays follow the owner."),
    ("jet1", "Air-Jet Tactile Displays",
     "We built a grid of nozzles that pushes air onto the palm to draw shapes: displays without contact. Such "
     "displays can be felt in the dark."),
]


def test_the_sections_own_word_names_no_group_and_opens_none(tmp_path: Path) -> None:
    """Every paper of a ``display`` section is about displays (screens, tabletops): they group by vibrotactile
    feedback and by eye tracking; two papers that share only the section's word "displays" are no group, and
    no heading or opening sentence says "displays" alone."""
    out = related_work(library(tmp_path, "display", HAPTIC + GAZE + APART), tags=("display",), fmt="markdown").text
    paras = paragraphs(out)
    groups = sorted(sorted(keys) for h, _, keys, _ in paras if h != "Other related work")
    assert groups[0][:3] == ["gaze1", "gaze2", "gaze3"] and groups[1][:3] == ["vib1", "vib2", "vib3"], out
    assert ["jet1", "wall1"] not in groups, out
    for heading, body, _, _ in paras:
        assert heading.lower().rstrip("s") != "display", out
        assert not re.search(r"\baddress (?:the )?displays?\.", opener(body)), out


def test_a_leftover_that_shares_a_groups_point_joins_it(tmp_path: Path) -> None:
    """A paper that shares the haptic group's vibrotactile feedback, though little else, is filed with that group,
    not in "Other related work"; a paper that shares nothing stays there, last."""
    near = ("vib4", "Lane Change Alerts in Cars",
            "We studied sixty drivers in a simulator who changed lanes on a motorway while navigation screens, "
            "sound alerts and seat belts warned them of cars in the blind spot; the seat belts gave vibrotactile "
            "feedback. Drivers looked at mirrors less often when alerts came early.")
    far = ("far1", "Colour Calibration of Projection Displays",
           "We describe a colour calibration procedure for projection displays that measures gamut with a "
           "spectrometer and corrects white balance.")
    out = related_work(library(tmp_path, "display", HAPTIC + GAZE + [near, far]), tags=("display",),
                       fmt="markdown").text
    paras = paragraphs(out)
    home = next(keys for _, _, keys, _ in paras if "vib1" in keys)
    assert "vib4" in home, out
    closing = [i for i, (h, _, _, _) in enumerate(paras) if h == "Other related work"]
    assert closing in ([], [len(paras) - 1]), out
    assert not any("vib4" in keys for h, _, keys, _ in paras if h == "Other related work"), out


def test_an_opener_is_true_of_every_paper_it_covers(tmp_path: Path) -> None:
    """Two studies and one system of gaze typing: they share a phrase ("gaze typing"), which names their
    paragraph, but no action and no kind of artefact. The phrase said again as an opener ("Three papers address
    gaze typing") is what readers strike as vacuous, so the paragraph opens with its first paper; and nothing
    calls them all systems or all studies."""
    typing = [
        ("type1", "Gaze Typing with Short Dwell Times",
         "We studied gaze typing with twelve participants over ten sessions; gaze typing speed rose as the dwell "
         "times of the keys were shortened."),
        ("type2", "Errors in Gaze Typing by Novices",
         "We conducted a field study of gaze typing errors by novices; most gaze typing errors came from "
         "neighbouring keys."),
        ("type3", "DwellFree: A System for Gaze Typing",
         "We present DwellFree, a system for gaze typing that recognises whole words from the path of the gaze "
         "over the keyboard, without dwell times."),
    ]
    out = related_work(library(tmp_path, "gaze", typing + HAPTIC), tags=("gaze",), fmt="markdown").text
    para = next((h, b, k) for h, b, k, _ in paragraphs(out) if "type1" in k)
    assert sorted(para[2]) == ["type1", "type2", "type3"], out
    assert opener(para[1]) == "", out
    assert not re.search(r"\b(?:address|examine)\b", out), out


def test_a_snippet_does_not_depend_on_what_was_written_before_it(tmp_path: Path) -> None:
    # the words a selection's records write as names ("Muon") are read from its own records: a selection
    # written earlier in the same process, whose records name Muon, must not make "Muon" a topic here
    from citekit.core.model import Entry
    from citekit.library.store import Library

    (tmp_path / "citekit.yaml").write_text("")
    lib = Library.load(tmp_path / "refs")
    papers = [("a2024", "Muon at scale", "We study Muon on large language models. Muon orthogonalizes each update of a "
               "weight matrix. We find that Muon trains faster than AdamW.", ["opt", "muon"]),
              ("b2024", "Convergence of Muon", "We prove the convergence of Muon for smooth nonconvex objectives. Muon "
               "reaches a stationary point at a known rate. Our analysis covers Muon with momentum.", ["opt", "muon"]),
              ("c2024", "A fast optimizer for transformers", "We present a method that builds on Muon and trains "
               "transformers with fewer steps. Experiments use the Muon optimizer.", ["names"]),
              ("d2024", "Scaling laws for orthogonal updates", "We measure how the Muon optimizer scales with model "
               "size. Muon keeps its advantage at scale.", ["names"]),
              ("e2024", "Momentum and orthogonality", "We relate momentum to orthogonal updates as done by Muon. Muon "
               "and Shampoo are compared on image models.", ["names"]),
              ("f2024", "Second order methods in practice", "We benchmark Shampoo and Muon on language models. "
               "Shampoo needs more memory than Muon.", ["names"])]
    for key, title, abstract, tags in papers:
        lib.add(Entry(key=key, entry_type="article", abstract=abstract, tags_auto=tags,
                      fields={"title": title, "author": f"{key.capitalize()}, Ann", "year": "2024"}))
    lib.save()

    def own() -> str:
        return related_work(tmp_path, tags=("opt",), groups=("Muon=muon",), fmt="markdown").text

    def others() -> str:
        return related_work(tmp_path, tags=("names",), fmt="markdown").text

    first = own()
    before = others()
    assert own() == first
    assert others() == before


#: three papers on one method, each naming it its own way: defined ("sharpness-aware minimization (SAM)"), by the
#: acronym alone ("SAM"), and by the long form alone; three on a second subject, so that the first is no section word
SHARP = [
    ("sam1", "Layer-Wise Radius Learning",
     "We propose RadiusNet, a variant of sharpness-aware minimization (SAM) that learns one radius per layer. "
     "RadiusNet halves the tuning cost of vision transformers."),
    ("sam2", "A Minimax View of Bilevel Training",
     "We analyse SAM as a bilevel minimax problem and prove that several inner ascent steps give better "
     "generalization bounds on convex losses."),
    ("sam3", "Reusing Gradients Across Steps",
     "We reduce the cost of sharpness-aware minimization by reusing the gradient of the previous step, which "
     "saves half the compute on language benchmarks."),
]
PIPE = [
    ("pipe1", "Bubble-Free Pipeline Parallelism",
     "We present ZeroBubble, a schedule for pipeline parallelism that overlaps the backward passes of micro-batches "
     "across stages, so pipeline parallelism keeps every accelerator busy."),
    ("pipe2", "Asynchronous Pipeline Parallelism with Stale Weights",
     "We study asynchronous pipeline parallelism in which each stage updates with stale weights, and bound the "
     "staleness that pipeline parallelism tolerates before training diverges."),
    ("pipe3", "Memory-Balanced Pipeline Stages",
     "We present BalancePipe, which assigns layers to pipeline stages so that pipeline parallelism uses the same "
     "activation memory on every stage."),
]


def test_an_acronym_and_its_long_form_are_one_term_for_the_grouping(tmp_path: Path) -> None:
    """A paper that writes only "SAM" and one that writes only "sharpness-aware minimization" are about the same
    method as one that defines "sharpness-aware minimization (SAM)": one paragraph, none in "Other related work",
    and its opener names the method by its long form, defining the acronym its sentences use."""
    out = related_work(library(tmp_path, "optim", SHARP + PIPE), tags=("optim",), fmt="markdown").text
    paras = paragraphs(out)
    grouped = {h: sorted(keys) for h, _, keys, _ in paras}
    assert "Other related work" not in grouped, out
    assert ["sam1", "sam2", "sam3"] in grouped.values(), out
    body = next(b for h, b, keys, _ in paras if "sam2" in keys)
    # (defined where the reader meets it first: the first sentence that writes the long form or the acronym)
    assert "sharpness-aware minimization (SAM)" in body, out
    assert body.index("sharpness-aware minimization (SAM)") < body.index("SAM as"), out
