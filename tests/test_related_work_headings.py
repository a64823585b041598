"""A paragraph's heading is a noun phrase of its papers' own that says what they do, true of each of them.

Made-up records, read through ``citekit.api``: a word two abstracts happen to share ("taken", an
opening "However,") heads nothing; neither does the section's topic word or a facet of it ("Play"
under ``game``, where the records write "gameplay" and "game playing"); a heading is written by
every paper under it; and a paragraph's first sentence never says "Most of these papers".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.output.related_headings import Selection, why_not
from citekit.output.related_topics import Phrasebook, term_root
from citekit.output.related_work import related_work as write
from citekit.output.word_roots import root
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

DATA = Path(__file__).parent / "data" / "related_work"

#: two papers that share nothing but a participle and an opening discourse word
STRAY = [
    ("gps1", "Learning Places from Location Traces",
     "However, location traces taken over months are noisy. We present a system that learns the places a person "
     "visits from location traces taken by a phone, and predicts the next place."),
    ("stem1", "Learning Through Tinkering in Museums",
     "However, findings taken up by museum educators differ from those of researchers. We report how visitors "
     "learn through tinkering with circuits in museums, from observations taken over a year."),
]

#: game papers whose records write "play" as a facet of games ("gameplay", "game playing")
PLAY = [
    ("play1", "Competitive Play with Target Assistance",
     "We propose target assistance so that players of different skill enjoy competitive play; balancing kept "
     "the gameplay fair in a shooting game."),
    ("play2", "Full-Body Play in Virtual Environments",
     "Full-body play in virtual environments: players steer a game with their whole body, and game playing "
     "becomes exercise."),
    ("play3", "Learning Shape Writing by Game Playing",
     "A game teaches shape writing: game playing lets novices learn the shapes of words while they play."),
]


#: a paper close to the knitting machines (soft sensors from conductive yarn) that never writes "knitting machines"
YARN = [
    ("yarn1", "Soft Sensors from Conductive Yarn",
     "We sew soft sensors from conductive yarn into a garment, in one pass; the sensors measure how the garment "
     "is stretched."),
]


def _headings(out: str) -> list[str]:
    return [h for h, _, _, _ in paragraphs(out) if h != "Other related work"]


def test_a_word_two_abstracts_happen_to_share_heads_nothing(tmp_path: Path) -> None:
    """A participle ("taken") and a word that only opens sentences ("However,") are no heading, and no heading
    is the section's topic word ("Learning") or a verb form of it."""
    out = related_work(library(tmp_path, "learning", STRAY + HAPTIC + KNIT), tags=("learning",),
                       fmt="markdown").text
    headings = _headings(out)
    assert headings, out
    for heading in headings:
        assert heading.split()[0] not in ("However", "Taken", "Learning", "Learn", "Learns"), out
        assert not (len(heading.split()) == 1 and heading.lower().endswith(("ing", "ed", "en"))), out


def test_the_section_topic_and_its_facets_head_no_paragraph(tmp_path: Path) -> None:
    """Under ``game``, papers whose records write "gameplay" and "game playing" are not headed "Play",
    "Playing" or "Games": every paper of the section is about play."""
    out = related_work(library(tmp_path, "game", PLAY + HAPTIC + KNIT), tags=("game",), fmt="markdown").text
    for heading in _headings(out):
        assert {root(w.lower()) for w in re.findall(r"[A-Za-z]+", heading)} - {"play", "gam"}, out


@pytest.mark.parametrize("tag", ["tangible", "education"])
def test_a_heading_is_written_by_every_paper_under_it(tag: str) -> None:
    """On records of a library the team did not write (tests/data/related_work/hci-<tag>.json): each word of a
    heading made of the papers' phrases is in every cited paper's record (in any of its forms, or a title term
    shared with all the others), and the paragraph's first sentence, if any, is said of all of them, never of
    "most"."""
    rows = json.loads((DATA / f"hci-{tag}.json").read_text(encoding="utf-8"))
    entries = [Entry(key=r["key"], entry_type="inproceedings", abstract=r.get("abstract"), tags_auto=[tag],
                     fields={"title": r["title"], "author": r.get("author") or "", "year": str(r.get("year") or "")})
               for r in rows]
    records = {r["key"]: f"{r['title']} {r.get('abstract') or ''}" for r in rows}
    out = write(entries, fmt="markdown", tags=[tag])
    checked = 0
    for heading, body, keys, _ in paragraphs(out):
        if heading in ("Other related work", "Systems", "Studies", "Systems and studies") or len(set(keys)) < 2:
            continue
        checked += 1
        want = {root(w.lower()) for w in re.findall(r"[A-Za-z0-9]+", heading)}
        missing = [k for k in dict.fromkeys(keys)
                   if not want <= {root(w.lower()) for w in re.findall(r"[A-Za-z0-9]+", records[k])}]
        assert len(missing) <= 1, (heading, missing, out)  # (one may stay by a title term it shares with all)
        assert not opener(body).startswith(("Most", "Half")), out
    assert checked, out


#: two sketching systems under a ``sketching`` section: "sketching" is the section's word, not their point
CURVES = [
    ("curve1", "CurveDraw: Sketching 3D Curves for Designers",
     "We present CurveDraw, a 3D curve sketching system for car designers that turns pen strokes into 3D curves."),
    ("curve2", "LoopSketch: 3D Curves for Everyone",
     "We present LoopSketch, a 3D curve sketching system for novices that fits 3D curves to rough pen strokes."),
]


def test_an_artefact_is_said_as_a_record_names_it(tmp_path: Path) -> None:
    """Two papers that each present "a 3D curve sketching system" under ``sketching`` are never called "curve
    systems" (the section's word dropped from the middle of what they made): a thing no record names."""
    out = related_work(library(tmp_path, "sketching", CURVES + HAPTIC + KNIT), tags=("sketching",),
                       fmt="markdown").text
    para = next(p for p in paragraphs(out) if "curve1" in p[2])
    assert "curve systems" not in out.lower(), out
    assert sorted(set(para[2])) == ["curve1", "curve2"], out


#: a paper close to the knitting machines that writes their heading's words in another form ("machine knitting")
LOOM = [
    ("loom1", "Conductive Yarn Antennas by Machine Knitting",
     "Machine knitting of conductive yarn yields soft antennas and sensors in one pass with the garment; we "
     "measure how the knit antennas behave when stretched."),
]

#: a paper close to no group: it stays a real leftover
PALETTES = [
    ("far1", "Colour Palettes for Dashboards",
     "We study how analysts choose colour palettes for dashboards in a survey of ninety analysts."),
]


def test_a_leftover_joins_the_group_it_is_close_to_under_a_heading_true_of_it(tmp_path: Path) -> None:
    """A paper about what a group does, whose record writes the group's heading in another form, is in that
    group, not in "Other related work"; the heading stays one every paper under it writes; a paper close to
    no group stays a leftover."""
    out = related_work(library(tmp_path, "fabrics", KNIT + LOOM + PALETTES + HAPTIC), tags=("fabrics",),
                       fmt="markdown").text
    by_key = {k: h for h, _, keys, _ in paragraphs(out) for k in keys}
    assert by_key["loom1"] == by_key["knit1"] != "Other related work", out
    assert by_key["far1"] == "Other related work", out
    records = {k: f"{t} {a}" for k, t, a in KNIT + LOOM}
    want = {root(w.lower()) for w in re.findall(r"[A-Za-z0-9]+", by_key["knit1"])}
    for key, text in records.items():
        assert want <= {root(w.lower()) for w in re.findall(r"[A-Za-z0-9]+", text)}, (key, out)


#: a paper close to the knitting machines whose record writes "knitting" and "machine" far apart (a sewing machine)
APART = [
    ("apart1", "Knitting Circles and Conductive Yarn",
     "Knitting circles meet weekly; we interview knitters who sew soft sensors from conductive yarn into a "
     "garment, and who share one old sewing machine."),
]


def test_a_leftover_that_writes_the_heading_words_apart_gets_no_heading_untrue_of_it(tmp_path: Path) -> None:
    """The words of a heading written far apart ("knitting circles ... sewing machine") do not make "Knitting
    machines" true of a paper: if it joins the knitting papers, the heading is one its record writes."""
    out = related_work(library(tmp_path, "fabrics", KNIT + APART + PALETTES + HAPTIC), tags=("fabrics",),
                       fmt="markdown").text
    heading = next(h for h, _, keys, _ in paragraphs(out) if "apart1" in keys)
    assert heading.lower() != "knitting machines", out
    if heading != "Other related work":
        text = f"{APART[0][1]} {APART[0][2]}".lower()
        assert all(root(w.lower()) in {root(t) for t in re.findall(r"[a-z0-9]+", text)}
                   for w in re.findall(r"[A-Za-z0-9]+", heading)), out


def _titles_and_bodies(texts: list[str]) -> tuple[list[str], list[str]]:
    """The title (before the first full stop) and the abstract (after it) of records written "Title. Abstract"."""
    return [t.split(".")[0] for t in texts], [t.split(". ", 1)[1] for t in texts]


def test_a_section_word_with_a_long_root_is_the_sections_own_in_a_phrase() -> None:
    """A word most of the section writes ("children", a root of eight letters, kept cut to seven as grouping
    compares words) beside a facet of the topic ("play", where the records write "game playing") heads nothing:
    "Children play" says only what the whole section is about."""
    texts = [
        "Children Play Outdoors. Children play outdoors with a tablet game; the gameplay rewards walking.",
        "Children Play at School. We log children play in school yards with a game of tag; game playing is exercise.",
        "Tabletop Games for Families. A tabletop game for families and their gameplay at home.",
    ]
    titles, bodies = _titles_and_bodies(texts)
    book = Phrasebook(texts, ["game"], bodies, titles, {"game", term_root("children")})
    assert ("children", "play") in book.per_paper[0] and book.usage(("children", "play"))[0]
    assert why_not(Selection(book, titles, bodies, ["game"]), ("children", "play"), [0, 1]) \
        == "a facet of the section's topic"


def test_a_word_fused_to_the_topic_word_is_a_facet_of_it() -> None:
    """Under ``game``, a record that writes "gameplay" (never "game playing") makes "play" a facet of the topic:
    the word is cut after "game" as the tag writes it, not after its root "gam" ("eplay")."""
    texts = [
        "Competitive Play. Players enjoy competitive play; balancing kept the gameplay fair in a shooting game.",
        "Full-Body Play. Players steer a game with their whole body, and the gameplay becomes exercise.",
        "Tabletop Games for Families. A tabletop game for families at home.",
    ]
    titles, bodies = _titles_and_bodies(texts)
    sel = Selection(Phrasebook(texts, ["game"], bodies, titles), titles, bodies, ["game"])
    assert root("play") in sel.facets
    assert why_not(sel, ("play",), [0, 1]) == "a facet of the section's topic"
