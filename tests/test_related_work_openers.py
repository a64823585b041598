"""A paragraph opens with how its papers relate, true of every paper it covers, or not at all.

Made-up records, read through ``citekit.api``: papers that write the same action on one object
open "Both papers diagnose gum disease"; papers that present the same kind of artefact, described
alike, open "Zoomer and Pinchy are both bimanual techniques"; a phrase only half of a paragraph's
papers use opens nothing, which ``--check`` reports while the draft carries no comment about it; a catalogue page where an
abstract should be brings no papers together.
"""

from __future__ import annotations

import re
from pathlib import Path

from citekit.api.related import check_snippet, related_work
from citekit.core.model import Entry
from citekit.library.store import Library
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

GUMS = [
    ("gum1", "Tapping Sounds of Teeth in Dogs",
     "Veterinarians tap the teeth of dogs and record the tapping sounds with a contact microphone. We use the "
     "decay of the tapping sounds to diagnose gum disease before it shows on radiographs."),
    ("gum2", "Tapping Sounds as a Screening Test",
     "A screening test for clinics that cannot afford radiographs: the tapping sounds of molars are recorded and "
     "classified to diagnose gum disease in adults, with a sensitivity close to that of radiographs."),
]


def test_papers_that_do_the_same_thing_open_with_what_they_do(tmp_path: Path) -> None:
    """Two papers that each write that they diagnose gum disease from tapping sounds open with that action, not
    with one noun they share ("Both papers address tapping sounds")."""
    out = related_work(library(tmp_path, "acoustics", GUMS + HAPTIC), tags=("acoustics",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "gum1" in p[2])
    assert sorted(para[2]) == ["gum1", "gum2"], out
    assert opener(para[1]) == "Both papers diagnose gum disease.", out


TECHNIQUES = [
    ("zoom1", "Zoomer: Two-Handed Zooming on Touch Screens",
     "We present Zoomer, a bimanual technique for touch screens: one hand sets the zoom level of the touch "
     "screen while the other hand selects small targets. Users selected small targets faster with Zoomer."),
    ("pinch1", "Pinchy: Reaching Far Targets on Touch Tables",
     "We present Pinchy, a bimanual technique for large touch tables: the other hand pulls far targets within "
     "reach of the touch table. Users moved far targets with fewer errors with Pinchy."),
]


def test_papers_that_present_the_same_kind_of_artefact_are_named_as_such(tmp_path: Path) -> None:
    """Two papers that each present a bimanual technique, each by its name, open with what they are: their names
    and the artefact their records share, true of both."""
    out = related_work(library(tmp_path, "touch", TECHNIQUES + HAPTIC + KNIT), tags=("touch",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "zoom1" in p[2])
    assert sorted(para[2]) == ["pinch1", "zoom1"], out
    assert opener(para[1]) in ("Zoomer and Pinchy are both bimanual techniques.",
                               "Pinchy and Zoomer are both bimanual techniques."), out


def test_no_opener_says_what_only_some_papers_share(tmp_path: Path) -> None:
    """An opener speaks for all of a paragraph's papers, or for most of them: never "Half of these papers address
    wearable haptics" when two of four write it (which half?). Where a paragraph of several papers gets no
    opener, the check says so ('no-topic-sentence'); the draft itself carries no lint comment (a reader of a plain
    draft strikes them)."""
    worn = [
        ("worn1", "Wearable Haptics for Runners",
         "We present a sleeve of vibration motors: wearable haptics that tell runners their pace."),
        ("worn2", "Wearable Haptics in Rehabilitation",
         "Wearable haptics guide the arm of stroke patients through exercises at home."),
        ("worn3", "A Glove that Squeezes",
         "A glove with shape-memory wires squeezes the fingers to signal incoming calls."),
        ("worn4", "Thermal Cues on the Wrist",
         "Peltier elements on a wristband warm or cool the skin to signal the weather."),
    ]
    (tmp_path / "citekit.yaml").write_text("")
    lib = Library.load(tmp_path / "refs")
    for key, title, abstract in worn + KNIT:
        lib.add(Entry(key=key, entry_type="inproceedings", abstract=abstract,
                      tags_auto=["haptics", "wear"] if key.startswith("worn") else ["haptics"],
                      fields={"title": title, "author": f"{key.capitalize()}, Ann", "year": "2020"}))
    lib.save()
    snippet = related_work(tmp_path, tags=("haptics",), groups=("Wearable haptics=wear",), fmt="markdown")
    out = snippet.text
    heading, body, keys, section = next(p for p in paragraphs(out) if p[0] == "Wearable haptics")
    assert sorted(keys) == ["worn1", "worn2", "worn3", "worn4"], out
    assert "Half of these" not in out, out
    assert "no-topic-sentence" not in out, out
    found = check_snippet(out, "markdown", snippet.titles, snippet.abstracts, snippet.records)
    assert opener(body) or any(d.category == "no-topic-sentence" and "worn" in d.excerpt for d in found), found


def test_a_catalogue_page_brings_no_papers_together(tmp_path: Path) -> None:
    """Two records that hold the same journal's catalogue page where the abstract should be (an ID, an ISSN, the
    journal's name) share nothing of what the papers do: they are not one paragraph."""
    page = ("... Journal of Dental Radiology 26(4), 296-309, 1986. NII論文ID(NAID) : {naid}. 本文言語コード : JPN. "
            "ISSN : 0389-9705. DOI : 10.11242 / dentalradiology1960 . 26.296 . 収録DB : Journal@rchive. ...")
    catalogue = [
        ("cat1", "Imaging of the Jaw Joint in Children", page.format(naid="130003919006")),
        ("cat2", "Radiation Dose of Panoramic Scanners", page.format(naid="130003753672")),
    ]
    out = related_work(library(tmp_path, "dental", catalogue + GUMS + HAPTIC), tags=("dental",),
                       fmt="markdown").text
    together = [keys for heading, _, keys, _ in paragraphs(out) if heading != "Other related work"]
    assert not any({"cat1", "cat2"} <= set(keys) for keys in together), out


def test_a_leftover_titled_with_the_groups_own_term_joins_it(tmp_path: Path) -> None:
    """A paper whose title says "diagnostic", as the titles of a pair on diagnosis by tapping sounds do and no other
    paper's, is filed with that pair though its record shares nothing else with them beyond the section's word."""
    pair = [
        ("dia1", "Diagnosis of Gum Disease by Tapping Sounds: Synthesis of Tapping Sounds by Computer and "
                 "Measurement of the Decay Constant", ""),
        ("dia2", "Diagnosis of Gum Disease by Analysis of Tapping Sounds: Mechanism of Generation of Tapping Sounds "
                 "in the Jaw", ""),
    ]
    aid = ("aid1", "Sounds as a Diagnostic Aid in the Detection of Bite Discrepancies",
           "Sounds as a diagnostic aid in the detection of bite discrepancies. Dental occlusion; dentistry; chewing; "
           "premature contacts; articulating paper; wax records of the bite. A stethoscope on the cheek picks up the "
           "clicks of premature contacts while the patient closes the mouth, and the dentist grinds the cusps until "
           "the clicks stop.")
    out = related_work(library(tmp_path, "sound", pair + [aid] + HAPTIC + KNIT + TECHNIQUES), tags=("sound",),
                       fmt="markdown").text
    home = next(keys for _, _, keys, _ in paragraphs(out) if "dia1" in keys)
    assert "aid1" in home, out


def test_two_leftovers_whose_titles_share_a_term_are_a_pair(tmp_path: Path) -> None:
    """Two papers close to no group, whose titles alone share a term ("Diagnosis", "Diagnostic") that no other
    paper uses, are one paragraph named by it, not two entries of "Other related work"."""
    pair = [
        ("dia1", "Diagnosis of Gum Disease by Tapping Sounds", ""),
        ("aid1", "Sounds as a Diagnostic Aid in the Detection of Bite Discrepancies",
         "Sounds as a diagnostic aid in the detection of bite discrepancies. Dental occlusion; dentistry; chewing; "
         "premature contacts; articulating paper; wax records of the bite."),
    ]
    out = related_work(library(tmp_path, "sound", pair + HAPTIC + KNIT + TECHNIQUES), tags=("sound",),
                       fmt="markdown").text
    heading, _, keys, _ = next(p for p in paragraphs(out) if "dia1" in p[2])
    assert sorted(keys) == ["aid1", "dia1"] and heading == "Diagnosis", out
