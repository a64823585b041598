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
