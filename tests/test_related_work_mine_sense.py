"""``--mine`` links the user's paper to a cited one by a phrase used in the same sense, never by a word both
happen to write.

Made-up records (no real paper's text), read through the API. A reader struck "like Printput, our work
deals with input" where the user's abstract meant a charge pump's *input voltage* and the cited paper
made *input widgets*: a word the user's abstract writes only as the modifier of another noun means that
pair, not the word.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_related_work_mine_links import section

PUMP = ("# A Rectifier for Radio Harvesting\n\n## Abstract\n\n"
        "We model a diode rectifier that harvests radio waves for tiny tags. The rectifier is sensitive to the "
        "input voltage swing, and the input voltage drops after the divider.\n")
BEACONS = [
    ("aa2014widget", "Capacitive Input Widgets for Printed Toys",
     "We print capacitive input widgets into toy shells so that children can press them.", "toys"),
    ("bb2015shell", "Printed Shells for Toys",
     "We print shells of toys in one pass and test how long they last outdoors.", "toys"),
    ("cc2013radio", "Radio Waves in Offices",
     "We map radio waves in offices with a walking robot and compare rooms.", "offices"),
    ("dd2012lamp", "Desk Lamps in Offices",
     "We count how often desk lamps are switched on in offices over one winter.", "offices"),
]


def test_a_word_written_only_before_another_noun_is_no_link(tmp_path: Path) -> None:
    out = section(tmp_path, BEACONS, "devices", PUMP)
    assert "deals with input" not in out and "with input," not in out, out


def test_a_word_the_user_writes_as_a_head_noun_is_still_a_link(tmp_path: Path) -> None:
    # the same abstract with "radio waves" written as what the paper works on: the shared ground holds
    out = section(tmp_path, BEACONS, "devices", PUMP)
    assert "radio waves" in out.split("### Offices", 1)[1], out


SNIPPET = ("# TapCopy: A Fast Copy Technique for Smartwatches\n\n## Abstract\n\n"
           "Copying text on smartwatches is slow, because the screen is small and fingers cover the letters.\n")
WATCHES = [
    ("wa2015swipe", "Bezel Swipes for Smartwatch Menus",
     "We design bezel swipes that open menus on a smartwatch screen, and compare them with taps.", "menus"),
    ("wb2016crown", "Crown Scrolling on Smartwatches",
     "We study scrolling with the crown of a smartwatch on long lists of text messages.", "menus"),
    ("wc2014phone", "Clipboards on Phones",
     "We log how often people use the clipboard on phones over a month.", "phones"),
    ("wd2013notes", "Phone Notes While Walking",
     "We study how people take notes on phones while walking.", "phones"),
]


def test_a_title_that_names_what_the_paper_made_gives_its_claim(tmp_path: Path) -> None:
    # the abstract (a snippet) says only where the paper starts; the title says what it made and what that is
    out = section(tmp_path, WATCHES, "wearables", SNIPPET)
    assert "we present TapCopy, a fast copy technique for smartwatches" in out, out
    assert "we study tapcopy" not in out.lower(), out


CUTTER = ("# A Generative Modeler for Cardboard Furniture\n\n## Abstract\n\n"
          "We present a generative modeler that turns a sketch of a chair into low-fidelity mockups for laser cutters. "
          "Designers tune the furniture by its physics before any part is cut.\n")
FURNITURE = [
    ("fa2015plates", "Laser-Cut Plates for Furniture Mockups",
     "We replace printed low-fidelity mockups with laser-cut plates that are stacked into the form.", "mockups"),
    ("fb2016foam", "Foam Furniture Mockups",
     "We mill foam mockups of furniture and compare them with printed ones.", "mockups"),
    ("fc2014wood", "Joinery for Wooden Frames",
     "We catalogue joints for wooden frames and test their strength.", "frames"),
    ("fd2013glue", "Glued Frames in Workshops",
     "We observe how workshops glue frames.", "frames"),
]


def test_a_difference_by_a_making_the_user_shares_is_none(tmp_path: Path) -> None:
    # the user's abstract names laser cutters: "where @fa2015plates focuses on laser-cut plates" implies it does not
    out = section(tmp_path, FURNITURE, "furniture", CUTTER)
    assert "focus on laser-cut" not in out and "focuses on laser-cut" not in out, out


SETTER = ("# A Generative Modeler for Chairs\n\n## Abstract\n\n"
          "We present a generative modeler that turns a sketch of a chair into low-fidelity mockups. "
          "Designers tune each chair by its physics before any part is made.\n")
AWAY = [
    ("fa2015plates", "Mockups by Substituting Foam Shells with Stacked Sheets",
     "We make low-fidelity mockups quickly by stacking sheets where others mill foam shells.", "mockups"),
    ("fb2016clay", "Clay Mockups",
     "We shape clay mockups of furniture and compare them with bought ones.", "mockups"),
    ("fc2014wood", "Joinery for Wooden Frames",
     "We catalogue joints for wooden frames and test their strength.", "frames"),
    ("fd2013glue", "Glued Frames in Workshops",
     "We observe how workshops glue frames.", "frames"),
]


def test_what_a_title_says_the_paper_replaces_is_no_focus_of_it(tmp_path: Path) -> None:
    # "by Substituting Foam Shells": "where @fa2015plates focuses on foam shells" says the opposite
    out = section(tmp_path, AWAY, "furniture", SETTER)
    assert "on foam shells" not in out, out
