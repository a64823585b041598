"""``--mine`` names the ground a group really shares with the user's paper, and a difference true of both.

Made-up records (no real paper's text), read through the API as a user's project would be: a
section on phones in three lines of work (gestural input, vibration alerts, phones while driving)
and a user's paper about bezel gestures used while walking. What is checked is behaviour:

- a word the group writes in another form than the user's abstract ("gestural", "gestures") is
  still the link;
- a word most of the section uses ("screens", every record here) is no group's ground, and a
  group that shares nothing else gets a TODO that says so;
- what the cited paper does has a word the user's abstract never uses, and the user's side is
  one of its claims, cut short but whole (no "in our work, to answer a call");
- the sentences take turns among their shapes, and none reads to the check as a bare likeness.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.library.store import Library
from citekit.output.positioning import stems
from citekit.output.related_check import check_snippet
from tests.helpers_positions import LONGEST, is_position, position_parts
from tests.helpers_project import make_project

RECORDS = [
    ("ab2012gestural", "Gestural Input for Phones: A Participatory Design Study",
     "We explore gestural input on phones in a participatory design workshop, with sketches on touch screens.",
     "gesture"),
    ("bc2013shake", "Shaking the Handset for Phone Shortcuts",
     "We present a shake detector that opens phone shortcuts when the handset is moved in front of their screens.",
     "gesture"),
    ("cd2010vibration", "Vibration Alerts for Phones While Walking",
     "We measure which vibration frequencies people perceive on a phone in a pocket while walking on a street, "
     "with screens off.", "vibration"),
    ("de2011tactile", "Tactile Icons for Incoming Calls",
     "We design tactile icons that a phone plays for incoming calls, and test them on touch screens.", "vibration"),
    ("ef2014driving", "Phone Use While Driving",
     "We survey drivers about phone use while driving and the crash risk of looking at screens.", "driving"),
    ("fg2015car", "Phone Screens in Cars",
     "We compare phone interfaces mounted in cars by the glances drivers take at their screens.", "driving"),
]
GROUPS = ("Gestures=gesture", "Vibration=vibration", "Driving=driving")
BEZEL = ("# Bezel Gestures for Phones on the Move\n\n## Abstract\n\n"
         "We present BezelSwipe, a set of bezel gestures that let people answer calls while walking, without looking "
         "at screens. In a study, bezel gestures were faster than soft buttons.\n")


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path, notes=False)
    lib = Library.load(root / "refs")
    for key, title, abstract, tag in RECORDS:
        lib.add(Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["phone", tag],
                      fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2014"}))
    lib.save()
    return root


def write(project: Path, paper: str) -> str:
    (project / "paper.md").write_text(paper)
    return related_work(project, tags=("phone",), fmt="markdown", mine=str(project / "paper.md"), groups=GROUPS).text


def paragraphs(out: str) -> dict[str, tuple[str, str]]:
    """Heading -> (the paragraph's last sentence, its TODO line or "")."""
    found = {}
    for block in re.split(r"^### ", out, flags=re.M)[1:]:
        heading, _, body = block.partition("\n")
        text = " ".join(l for l in body.splitlines() if l and not l.startswith("<!--"))
        todo = next((l for l in body.splitlines() if "TODO(citekit)" in l), "")
        found[heading.strip()] = (re.split(r"(?<=\.)\s+(?=[A-Z@])", text)[-1] if text else "", todo)
    return found


def test_a_word_the_group_writes_in_another_form_is_still_the_link(project: Path) -> None:
    out = write(project, BEZEL)
    last, todo = paragraphs(out)["Gestures"]
    parts = position_parts(last)
    assert parts, (last, todo)
    # ab2012gestural writes only "gestural": the same root as the user's "gestures"
    assert parts["ground"] == "gestures" and "@ab2012gestural" in parts["cites"], last


def test_a_word_most_of_the_section_uses_is_no_groups_ground(project: Path) -> None:
    out = write(project, BEZEL)
    for heading, (last, todo) in paragraphs(out).items():
        parts = position_parts(last)
        assert not parts or not re.search(r"\b(?:screens?|phones?)\b", parts["ground"]), (heading, last)
    # the driving papers share with the user's abstract only screens (every record's) and the topic
    last, todo = paragraphs(out)["Driving"]
    assert not is_position(last) and "TODO(citekit): contrast with" in todo, out
    assert "words most of the section uses" in todo, todo


def test_the_difference_is_true_of_both_and_the_users_side_is_whole(project: Path) -> None:
    out = write(project, BEZEL)
    abstract = BEZEL.split("## Abstract")[1]
    placed = [position_parts(last) for last, _ in paragraphs(out).values() if is_position(last)]
    assert len(placed) == 2 and all(placed), out
    for parts in placed:
        # what the cited paper focuses on has a word the user's abstract never uses
        assert set(stems(parts["theirs"])) - set(stems(abstract)), parts
        # the user's side is its claim (never the finding "were faster"), short but with its verb
        assert parts["mine"].startswith("we present BezelSwipe"), parts
        assert "faster" not in parts["mine"] and len(parts["mine"].split()) <= LONGEST, parts
    assert not {d.category for d in check_snippet(out, "markdown")} & {"no-contrast", "first-person"}, out


def test_position_sentences_take_turns_among_their_shapes(project: Path) -> None:
    out = write(project, BEZEL)
    shapes = {("but where" in last, "; unlike" in last, "; in contrast," in last, ", and like @" in last)
              for last, _ in paragraphs(out).values() if is_position(last)}
    assert len(shapes) >= 2, out


def test_a_sentence_cut_from_its_subject_is_not_written(project: Path) -> None:
    # a method sentence that opens with its purpose: cut at its comma, it would lose its subject and verb
    out = write(project, "# Bezel Gestures for Phones on the Move\n\n## Abstract\n\n"
                         "We present BezelSwipe, bezel gestures for answering calls while walking. To answer a call "
                         "without looking, the prototype senses bezel swipes along the edge of the phone.\n")
    assert "in our work, to " not in out.lower(), out
    for last, todo in paragraphs(out).values():
        assert is_position(last) or "TODO(citekit)" in todo, out
