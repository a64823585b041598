"""``--mine`` finds the links a reader names and writes no difference the user's paper does not have.

Made-up records (no real paper's text), read through the API as a user's project would be. What
is checked is behaviour a reader asked for:

- a word the user's paper says in other words is no difference: a paper on "tactile feedback" is
  not set against a "haptic" wristwatch, when the section's records write the two words in the
  same places ("pneumatic tactile display", "pneumatic haptic display");
- two papers of one group linked by two different things are both named, each with its own link;
- an abstract that says nothing in the authors' name is never placed by its title in the authors' voice
  (readers took it for the title pasted): by its problem sentence, else a TODO that says what to add;
- "robotic" and "robot" are one word, and a singular both sides write as a head noun is a link.
"""

from __future__ import annotations

import re
from pathlib import Path

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.library.store import Library
from tests.helpers_positions import is_position, last_sentences, position_parts
from tests.helpers_project import make_project


def section(tmp_path: Path, records: list[tuple[str, str, str, str]], topic: str, paper: str) -> str:
    """The Markdown section ``--mine`` writes for ``paper`` from ``records`` (key, title, abstract, tag), one
    paragraph per tag in the order the records give them ("alerts" under "Alerts")."""
    root = make_project(tmp_path, notes=False)
    lib = Library.load(root / "refs")
    for key, title, abstract, tag in records:
        lib.add(Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=[topic, tag],
                      fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2014"}))
    lib.save()
    (root / "paper.md").write_text(paper)
    groups = tuple(f"{tag.title()}={tag}" for tag in dict.fromkeys(r[3] for r in records))
    return related_work(root, tags=(topic,), fmt="markdown", mine=str(root / "paper.md"), groups=groups).text


def position_under(out: str, heading: str) -> dict[str, str] | None:
    """The parts (:func:`.helpers_positions.position_parts`) of the position sentence that ends ``heading``."""
    return position_parts(last_sentences(out)[heading])


WATCH = [
    ("aa2010pneumatic", "Pneumatic Tactile Displays for Alerts",
     "We build a pneumatic tactile display that gives tactile feedback for alerts. Pneumatic tactile feedback "
     "reaches the skin through small air pockets, and people read eyes-free gestures from it.", "alerts"),
    ("bb2011buzz", "Buzzing Sleeves for Alerts",
     "We sew vibration motors into sleeves and compare buzz patterns for alerts on the arm.", "alerts"),
    ("cc2012actuator", "Pneumatic Haptic Display Arrays",
     "We present a pneumatic haptic display with an array of air cells; the pneumatic haptic feedback is "
     "strong enough for surgery.", "arrays"),
    ("dd2013sketch", "Sketching Wearable Forms",
     "We study how designers sketch wearable forms on paper before building them.", "arrays"),
]
HAPTIC_WATCH = ("# A Haptic Wristwatch for Eyes-Free Gestures\n\n## Abstract\n\n"
                "We present a haptic wristwatch that lets people answer messages with eyes-free gestures. "
                "The wristwatch gives haptic feedback through a piezoelectric actuator.\n")


def test_a_difference_the_user_says_in_other_words_is_none(tmp_path: Path) -> None:
    out = section(tmp_path, WATCH, "wearable", HAPTIC_WATCH)
    placed = [position_parts(s) for s in last_sentences(out).values() if is_position(s)]
    assert placed and all(placed), out
    # the wristwatch gives haptic feedback: "where @aa2010pneumatic focuses on tactile feedback" would be false
    for parts in placed:
        assert "tactile" not in parts["theirs"].lower(), parts
    assert not re.search(r"focus(?:es)? on [^,;]*tactile", out), out


PHONES = [
    ("ab2012gestural", "Gestural Input for Phones: A Participatory Design Study",
     "We explore gestural input on phones in a participatory design workshop, with sketches on paper.", "input"),
    ("bc2013walk", "Vibration Alerts for Phones While Walking",
     "We measure which vibration frequencies people perceive on a phone in a pocket while walking on a street.",
     "input"),
    ("cd2010glass", "Phone Cases Made of Glass",
     "We build phone cases of tempered glass and test how often they break.", "cases"),
    ("de2011leather", "Leather Phone Cases",
     "We compare leather phone cases by how they age.", "cases"),
]
BEZEL = ("# Bezel Gestures for Phones on the Move\n\n## Abstract\n\n"
         "We present BezelSwipe, a set of bezel gestures that let people answer phone calls while walking.\n")


def test_two_papers_linked_by_two_things_are_both_named(tmp_path: Path) -> None:
    out = section(tmp_path, PHONES, "phone", BEZEL)
    last = last_sentences(out)["Input"]
    parts = position_parts(last)
    assert parts and parts.get("second"), out
    grounds = {parts["cites"]: parts["ground"], parts["second"]: parts["ground2"]}
    # each paper is named with its own link, and its record and the user's abstract both use it
    assert grounds == {"@ab2012gestural": "gestures", "@bc2013walk": "walking"}, last
    assert "tempered glass" not in last and "leather" not in last, last


KIDS = [
    ("ka2009dance", "Dance Games for Children with Camera Tracking",
     "We design dance games in which children move in front of a camera, and the games track their gestures.",
     "games"),
    ("kb2010sign", "A Sign Language Game for Deaf Children",
     "We build a game that teaches deaf children sign language with coloured gloves and a camera.", "games"),
    ("kc2011reading", "Reading Apps for Children",
     "We review reading apps for children on tablets.", "reading"),
    ("kd2012books", "Picture Books on Tablets",
     "We compare picture books on paper and on tablets for children.", "reading"),
]
ONE_PROBLEM = ("# Children's Intuitive Gestures in Camera-Based Action Games\n\n## Abstract\n\n"
               "New camera-based game technologies aim to give players more physically challenging experiences.\n")


def test_an_abstract_with_no_claim_is_never_placed_by_its_title(tmp_path: Path) -> None:
    out = section(tmp_path, KIDS, "kids", ONE_PROBLEM)
    # the title in the authors' voice is the title pasted, no clause of the abstract; the TODO says what to add
    assert "we study children's intuitive gestures" not in out, out
    assert not position_under(out, "Games"), out
    todo = next(line for line in out.splitlines() if "TODO(citekit): contrast with ka2009dance" in line)
    assert "says where the paper starts, not what it does" in todo, todo


LIGHTS = [
    ("la2004fusion", "A Fusion Architecture for Speech and Pointing",
     "This paper presents an architecture that fuses speech and pointing for natural interaction with a "
     "humanoid robot as well as a user study.", "fusion"),
    ("lb2003dictation", "Dictation Templates",
     "We prepare reference templates for dictation from several examples of each word.", "fusion"),
    ("lc2001radio", "Radio Speech in Cars",
     "We study how drivers follow radio speech while they steer.", "cars"),
    ("ld2002navigation", "Spoken Navigation in Cars",
     "We compare spoken navigation prompts for drivers.", "cars"),
]
CHANDELIER = ("# Situated Speech Understanding for a Robotic Chandelier\n\n## Abstract\n\n"
              "We describe a home lighting robot that uses directional spotlights to create lighting scenes.\n")


def test_robotic_meets_robot(tmp_path: Path) -> None:
    out = section(tmp_path, LIGHTS, "speech", CHANDELIER)
    parts = position_under(out, "Fusion")
    # the user's title says "Robotic", its abstract "a home lighting robot", the record "a humanoid robot"
    assert parts and parts["ground"] == "robots" and "@la2004fusion" in parts["cites"], out



VOICE = [
    ("va1980wall", "Voice and Gesture at the Wall Display",
     "We let people move shapes on a wall display by voice and gesture, pointing at what they name.", "wall"),
    ("vb1989image", "Speech and Gestures for Image Editing",
     "We compare speech and gestures for editing images on a desktop.", "wall"),
    ("vc2001kitchen", "Voice Commands in Kitchens",
     "We study voice commands in kitchens, where hands are busy.", "home"),
    ("vd2003novel", "Dictation for Novelists",
     "We follow novelists who dictate chapters.", "home"),
    ("ve2005logs", "Voice Search Logs",
     "We analyse the logs of a voice search service.", "home"),
]
LAMP = ("# Voice and Gesture Understanding for a Desk Lamp\n\n## Abstract\n\n"
        "We describe a desk lamp that turns its spotlight to create lighting scenes.\n")


def test_a_word_only_the_users_title_names_is_a_link_when_a_record_writes_it_as_prose(tmp_path: Path) -> None:
    out = section(tmp_path, VOICE, "voice", LAMP)
    parts = position_under(out, "Wall")
    # the user's abstract never says gesture; its title does, and the records' running text writes "gesture"
    assert parts and parts["ground"].startswith("gesture"), out
    assert "@va1980wall" in parts["cites"], parts


def test_one_half_of_a_pair_the_user_shares_is_no_difference(tmp_path: Path) -> None:
    records = [*WATCH[1:],
               ("ee2007pair", "Haptic and Audio Message Design",
                "We compose haptic and audio messages that people feel and hear with eyes-free gestures.", "alerts")]
    out = section(tmp_path, records, "wearable", HAPTIC_WATCH)
    # the user's wristwatch is haptic too: "where @ee2007pair focuses on audio message design" is half the title
    assert "@ee2007pair" in out and not re.search(r"focus(?:es)? on (?:an? )?audio", out), out


MOBILE = [
    ("ma2006bus", "Vibration Alerts on Buses",
     "We test which vibration alerts people notice in mobile environments such as buses and trains.", "alerts"),
    ("mb2007ring", "Ring Tones in Offices",
     "We compare ring tones that office workers notice at their desks.", "alerts"),
    ("mc2008maps", "Maps on Small Screens",
     "We compare map views on small screens for tourists.", "maps"),
    ("md2009routes", "Route Lists for Tourists",
     "We compare route lists and maps for tourists in old towns.", "maps"),
]
SWIPES = ("# Bezel Swipes in Mobile Environments\n\n## Abstract\n\n"
          "We probe bezel swipes for answering calls in mobile environments, where the environment competes "
          "for attention.\n")


def test_a_link_keeps_the_topic_word_both_sides_write_with_it(tmp_path: Path) -> None:
    out = section(tmp_path, MOBILE, "mobile", SWIPES)
    parts = position_under(out, "Alerts")
    # the link is "environments"; both papers say it as "mobile environments", and so does the sentence
    assert parts and parts["ground"] == "mobile environments" and "@ma2006bus" in parts["cites"], out


NOTES = [
    ("na2011memo", "Musical Cues in the Home",
     "We compose short musical cues for reminders. Family members learned the reminders within a week, "
     "and the reminders were heard from other rooms.", "home"),
    ("nb2012lamp", "Lamps that Dim",
     "We build lamps that dim at night in the home.", "home"),
    ("nc2013radio", "Radio Programmes for Farmers",
     "We study radio programmes that farmers follow.", "farm"),
    ("nd2014market", "Market Prices by Phone",
     "We send market prices to farmers by phone.", "farm"),
]
CHIMES = ("# Chimes for Busy Kitchens\n\n## Abstract\n\n"
          "We design chimes as reminders for cooks. Each of the reminders is a chord that cooks hear over noise.\n")


def test_a_noun_both_abstracts_come_back_to_is_a_link_though_no_title_names_it(tmp_path: Path) -> None:
    out = section(tmp_path, NOTES, "sound", CHIMES)
    parts = position_under(out, "Home")
    # neither title says "reminders"; both abstracts say it three times: it is what they share
    assert parts and parts["ground"] == "reminders" and "@na2011memo" in parts["cites"], out


def test_an_abstract_that_says_only_where_it_starts_is_placed_by_that(tmp_path: Path) -> None:
    paper = ("# Children's Intuitive Gestures in Camera-Based Action Games\n\n## Abstract\n\n"
             "Most dance games for children track only the feet of the players.\n")
    out = section(tmp_path, KIDS, "kids", paper)
    parts = position_under(out, "Games")
    # the abstract's one sentence says where the paper starts: that places it, not its title in the authors' voice
    assert parts and parts["mine"].startswith("our work starts from the observation that most dance games"), out
    assert "we study children's intuitive gestures" not in out, out
    # what the cited paper does is a noun phrase, not a relative clause's subject and verb ("in which children move")
    assert parts["theirs"] != "children move", parts


SPOKEN = [
    ("sa1980wall", "Connected-Speech Recognition with Pointing",
     "We combine connected-speech recognition with pointing on a wall display.", "point"),
    ("sb1990maps", "Pointing at Maps while Talking",
     "We study pointing at maps while people talk about routes.", "point"),
    ("sc2000calls", "Speech in Call Centres",
     "We study speech in call centres.", "calls"),
    ("sd2005mail", "Voice Mail Transcripts",
     "We transcribe voice mail for office workers.", "calls"),
]
POINTING_LAMP = ("# A Lamp that Follows Pointing\n\n## Abstract\n\n"
                 "We describe a desk lamp that follows pointing and spoken commands in a living room.\n")


def test_a_compound_that_holds_the_topic_is_no_difference(tmp_path: Path) -> None:
    out = section(tmp_path, SPOKEN, "speech", POINTING_LAMP)
    parts = position_under(out, "Point")
    assert parts and parts["ground"] == "pointing", out
    # "connected-speech recognition" is speech, the section's topic and the user's "spoken commands"
    assert "connected-speech" not in parts["theirs"], parts
