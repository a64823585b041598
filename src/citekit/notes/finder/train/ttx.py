"""AnyStyle's finder documents (``res/finder/*.ttx``) as finder labels, line by line.

Each line of a ``.ttx`` file is ``label | text``; a blank label continues the label above.
AnyStyle labels a whole bibliography section ``ref``, so where each reference starts is read
from the section's layout: numbered references start at their number (``[12]``, ``3.``),
hanging-indented ones at the lines that are not indented, and flush ones at the start of
each labelled block (a reference after a blank line), unless the line visibly goes on from
the one before. Every other label (``text``, ``title``, ``meta``) becomes ``other``, empty
lines ``blank``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

_NUMBERED = re.compile(r"^\s*(?:\[[^\]\s][^\]]{0,24}\]|\(\d{1,4}\)|\d{1,4}[.)]?\s{1,}(?=[A-Z\"“]))")


def read_ttx(path: Path) -> list[tuple[str, str]]:
    """(AnyStyle label, text) for every line of a ``.ttx`` file, continuation labels filled in.

    The label is the one written on the line, or ``label+`` where it continues the block above.
    """
    out: list[tuple[str, str]] = []
    current = "blank"
    text = path.read_text(encoding="utf-8", errors="replace")
    for raw in text.removesuffix("\n").split("\n"):  # only newlines end a line (form feeds are page breaks inside one)
        raw = raw.removesuffix("\r")
        head, sep, text = raw.partition("|")
        if not sep:
            head, text = "", raw
        text = text[1:] if text.startswith(" ") else text
        label = head.strip()
        if label:
            current = label
            out.append((label, text))
        else:
            out.append((current + "+", text))
    return out


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _style(rows: list[tuple[str, str]]) -> tuple[str, int]:
    """How this document lays out its references: numbered, hanging (with its base indent) or flush."""
    refs = [(label, text) for label, text in rows if label.startswith("ref") and text.strip()]
    if not refs:
        return "flush", 0
    firsts = [text for label, text in refs if label == "ref"]
    if sum(1 for t in refs if _NUMBERED.match(t[1])) >= 0.15 * len(refs) and \
            sum(1 for t in firsts if _NUMBERED.match(t)) >= 0.5 * len(firsts):
        return "numbered", 0
    counts = Counter(_indent(t) for _, t in refs)
    base = min(i for i, n in counts.items() if n >= 0.1 * len(refs) or n == max(counts.values()))
    outdented = sum(n for i, n in counts.items() if i <= base)
    if 0.1 * len(refs) <= outdented <= 0.75 * len(refs):
        return "hanging", base
    return "flush", base


def finder_labels(rows: list[tuple[str, str]]) -> list[str]:
    """The finder's label (ref, cont, other, blank) for each row of :func:`read_ttx`."""
    style, base = _style(rows)
    labels: list[str] = []
    last_ref_text = ""
    for label, text in rows:
        if not text.strip():
            labels.append("blank")
            continue
        if not label.startswith("ref"):
            labels.append("other")
            continue
        if style == "numbered":
            start = bool(_NUMBERED.match(text))
        elif style == "hanging":
            start = _indent(text) <= base
        else:
            start = label == "ref"
            if start and last_ref_text:
                end = last_ref_text.rstrip()
                goes_on = end.endswith(("-", ",", "and")) or not end.endswith((".", ")", "]")) and \
                    text.lstrip()[:1].islower()
                start = not goes_on
        labels.append("ref" if start else "cont")
        last_ref_text = text
    return labels


def ttx_document(path: Path) -> tuple[list[str], list[str]]:
    """The lines of a ``.ttx`` file and their finder labels."""
    rows = read_ttx(path)
    return [text for _, text in rows], finder_labels(rows)
