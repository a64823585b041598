"""Shared by the paragraph tests: a small library of made-up records, and a Markdown snippet read back."""

from __future__ import annotations

import re
from pathlib import Path

from citekit.core.model import Entry
from citekit.library.store import Library


def library(tmp_path: Path, tag: str, papers: list[tuple[str, str, str]]) -> Path:
    (tmp_path / "citekit.yaml").write_text("")
    lib = Library.load(tmp_path / "refs")
    for key, title, abstract in papers:
        lib.add(Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=[tag],
                      fields={"title": title, "author": f"{key.capitalize()}, Ann", "year": "2020"}))
    lib.save()
    return tmp_path


def paragraphs(text: str) -> list[tuple[str, str, list[str], str]]:
    """``(heading, body, cited keys, the section as written, comments too)`` of each paragraph of a Markdown snippet."""
    parts = re.split(r"^### (.*)$", text, flags=re.M)[1:]
    out = []
    for i in range(0, len(parts), 2):
        body = " ".join(l for l in parts[i + 1].strip().splitlines() if l.strip() and not l.startswith("<!--"))
        out.append((parts[i].strip(), body, re.findall(r"@([\w:.\-+/]*\w)", body), parts[i + 1]))
    return out


def opener(body: str) -> str:
    first = re.split(r"(?<=\.)\s+(?=@|[A-Z])", body)[0]
    return "" if first.startswith("@") else first


#: three papers on vibrotactile feedback: a group of their own, so the others are not alone in the section
HAPTIC = [
    ("vib1", "Vibrotactile Feedback for Wall Screens",
     "We present Buzzwall, a system that gives vibrotactile feedback through wristbands while people touch wall "
     "screens. Vibrotactile feedback from small vibration motors confirms each touch on the screens."),
    ("vib2", "Vibrotactile Feedback Patterns on Tabletops",
     "We present Tactable, a system that renders vibrotactile feedback patterns with vibration motors under "
     "tabletops, so that vibrotactile feedback tells apart the controls on the tabletops."),
    ("vib3", "Rhythmic Vibrotactile Feedback for Notifications",
     "We present Pulse, a prototype that encodes notifications as rhythmic vibrotactile feedback from vibration "
     "motors in a handheld case, for travellers who wait in front of departure boards."),
]


#: three papers on knitting machines: a third group, so that no word of one group is most of the section's
KNIT = [
    ("knit1", "Knitting Machines for Soft Sensors",
     "We describe how industrial knitting machines produce soft sensors from conductive yarn, in one pass with "
     "the garment."),
    ("knit2", "Programming Knitting Machines by Example",
     "KnitByExample turns a few hand-knitted swatches into programs for knitting machines."),
    ("knit3", "Knitted Antennas from Knitting Machines",
     "Knitting machines knit antennas from silver yarn; we measure the antennas when the knit is stretched."),
]
