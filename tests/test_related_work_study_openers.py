"""A paragraph of studies opens with what they study together: "Both studies evaluate voice menus."

Made-up records, read through ``citekit.api``: two papers whose titles or contribution sentences say they are
studies ("An Evaluation of ...", "We evaluate ...") and that both write one run of words open with the kind of
work, what they do and that run; a study paired with a paper that builds something, or two studies that share
only a describing word, open with nothing.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from citekit.output.related_studies import shared_study, study_of
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

VOICE = [
    ("menu1", "An Evaluation of Voice Menus for Drivers",
     "We present an evaluation of voice menus that drivers browse while they keep their eyes on the road. "
     "Drivers chose items from shallow voice menus faster than from deep ones."),
    ("menu2", "Assessing Voice Menus in Noisy Kitchens",
     "Cooks call up recipes without touching a screen. We assess voice menus in noisy kitchens with twelve cooks, "
     "and find that cooks repeat commands less when the voice menus read back each choice."),
]


def test_two_studies_open_with_what_they_evaluate(tmp_path: Path) -> None:
    """Two papers that each say they evaluate voice menus open with that, not with no topic sentence at all."""
    out = related_work(library(tmp_path, "speech", VOICE + HAPTIC + KNIT), tags=("speech",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "menu1" in p[2])
    assert sorted(para[2]) == ["menu1", "menu2"], out
    assert opener(para[1]) == "Both studies evaluate voice menus.", out


def test_a_study_is_said_by_its_title_or_its_contribution() -> None:
    """The kind of study comes from the record: an evaluating title or verb evaluates; "The Effect of" studies;
    a paper that presents a system is no study."""
    assert study_of(*VOICE[0][1:]).kind == "evaluate"
    assert study_of("The Effect of Glare on Reading Maps", "Readers read maps in glare.").kind == "study"
    assert study_of("Buzzwall", HAPTIC[0][2]) is None


def test_no_study_opener_for_a_built_system_or_a_describing_word() -> None:
    """A study next to a paper that builds a system shares no kind of work; two studies that share only
    "tangible" (a describing word) share no object: no opener either way."""
    built = ("Voice Menus for Drivers", "We present Menuvoice, a system that reads voice menus to drivers.")
    assert shared_study([VOICE[0][1], built[0]], [VOICE[0][2], built[1]]) is None
    assert shared_study(["The Effect of Tangible Blocks on Recall", "The Impact of Tangible Maps on Children"],
                        ["Pupils recalled more with blocks.", "Children read maps."]) is None


def test_the_shared_words_must_end_a_phrase_and_the_study_must_be_one() -> None:
    """"Both studies evaluate shared ride" (cut out of "shared ride scheduling" and "shared ride schedules") is no
    thing either paper evaluates; "We study reducing ..." says what a paper does, not that it is a study."""
    assert shared_study(["Evaluating Shared Ride Scheduling in Small Towns", "Assessing Shared Ride Schedules"],
                        ["We evaluate shared ride scheduling with 40 drivers.",
                         "We assess shared ride schedules of a rural bus line."]) is None
    assert study_of("Reducing Wait Times with Shared Rides",
                    "We study reducing wait times with shared rides. A scheduler pools riders.") is None


LOOMS = [
    ("loom1", "Loomy: Weaving Lessons in 3D",
     "We present Loomy, a 3D loom controller that guides pupils through their first weaving lessons with lights "
     "on each shuttle. Pupils made fewer threading errors with Loomy."),
    ("loom2", "Shuttle: Weaving at Home",
     "We present Shuttle, a 3D loom controller for weaving at home, which counts each pass of the shuttle and "
     "tells beginners when the pattern goes wrong."),
]


def test_two_papers_that_present_one_kind_of_artefact_are_named_as_it_in_their_own_words(tmp_path: Path) -> None:
    """Two papers that each present a 3D loom controller open with their names and that artefact, every word of it
    as they write it: a short word ("3D") is no less a word of the artefact than a long one."""
    out = related_work(library(tmp_path, "weaving", LOOMS + HAPTIC + KNIT), tags=("weaving",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "loom1" in p[2])
    assert sorted(para[2]) == ["loom1", "loom2"], out
    assert opener(para[1]) == "Loomy and Shuttle are both 3D loom controllers.", out


def test_an_artefact_is_said_only_in_the_words_each_paper_uses_of_it() -> None:
    """A system that works "across wearable and handheld devices" is no handheld device: the words a paper writes
    elsewhere than of what it presents make no shared artefact."""
    from citekit.output.related_actions import shared_artefact

    titles = ["Tapband: A Handheld Device for Tapping Rhythms", "Gestalt: Gesture Input Everywhere"]
    abstracts = ["We present Tapband, a handheld device that records tapped rhythms.",
                 "We present Gestalt, a gesture input system that works across wearable and handheld devices."]
    assert shared_artefact(titles, abstracts) is None


def test_a_paper_that_presents_what_it_made_and_its_evaluation_is_no_study() -> None:
    """"We present a loom controller and evaluation" presents a controller: the evaluation comes with it, so the
    paper is no study to open "Both studies ..." with; "a controlled study of loom controllers" is one."""
    assert study_of("Loomy", "We present a loom controller and evaluation with ten pupils.") is None
    assert study_of("Loomy", "We present a controlled study of loom controllers with ten pupils.").kind == "study"
