"""Paragraph openers on the judged HCI drafts, written again from their records (sets 1-10 only).

For every draft of ``tests/data/related_work/blind_hci_heldout*/`` whose set is development data
(1-10), the draft is written again with this tree's code from its ``records.json`` (the ``-mine``
drafts with the record marked ``"mine": true`` as the user's paper), and each paragraph's opening
sentence is printed when it cites no paper (a topic sentence), with what the reader said of the
paragraph of the same heading in the judged draft (``why``). Totals: paragraphs, paragraphs with an
opener, and ``related-work --check`` findings by category.

Run: .venv/bin/python bench/related_openers_bench.py [-v]  (-v: every opener with the reader's why)
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
JUDGED = REPO / "tests" / "data" / "related_work"
#: development sets: the held-out set being judged (11) is never read
SETS = ["blind_hci_heldout"] + [f"blind_hci_heldout_{n}" for n in range(2, 11)]


def redraft(records: list[dict], tag: str) -> str:
    """The draft this tree writes for ``records`` under ``tag`` (a record marked mine is the user's paper)."""
    sys.path.insert(0, str(REPO / "src"))
    from citekit.core.model import Entry
    from citekit.output.related_work import Mine, related_work

    own = [r for r in records if r.get("mine")]
    rest = [r for r in records if not r.get("mine")]
    entries = [Entry(key=r["key"], entry_type="inproceedings", abstract=r.get("abstract") or "", tags_auto=[tag],
                     fields={"title": r.get("title") or "", "author": r.get("author") or "",
                             "year": r.get("year") or "", "booktitle": r.get("venue") or ""}) for r in rest]
    mine = Mine(title=own[0]["title"], abstract=own[0].get("abstract") or "", tags=[tag], name=own[0]["key"]) \
        if own else None
    return related_work(entries, fmt="markdown", tags=[tag], mine=mine)


def paragraphs(text: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of each paragraph of a Markdown draft."""
    out, heading = [], ""
    for block in re.split(r"\n\s*\n", text):
        block = "\n".join(l for l in block.splitlines() if not l.startswith("<!--")).strip()
        if block.startswith("### "):
            heading = block[4:].strip()
        elif block and heading:
            out.append((heading, block))
    return out


def first_sentence(body: str) -> str | None:
    """The paragraph's opening sentence when it cites no paper (a topic sentence), else None."""
    first = re.split(r"(?<=[.!?])\s+(?=[@A-Z])", body, maxsplit=1)[0]
    return None if first.startswith("@") or re.match(r"^\S*@", first) else first


def main() -> None:
    verbose = "-v" in sys.argv
    sys.path.insert(0, str(REPO / "src"))
    from citekit.output.related_check import check_snippet

    totals, checks = Counter(), Counter()
    for name in SETS:
        folder = JUDGED / name
        judged = yaml.safe_load((folder / "judgements.yaml").read_text(encoding="utf-8"))
        why = {(p["tag"], p["heading"]): p.get("why", "") for p in judged.get("paragraphs", [])}
        for rec in sorted(folder.glob("hci-*.records.json")):
            tag = rec.name[len("hci-"):-len(".records.json")]
            records = json.loads(rec.read_text(encoding="utf-8"))
            text = redraft(records, tag.removesuffix("-mine"))
            for d in check_snippet(text, "markdown", [r["title"] for r in records if r.get("title")],
                                   [r["abstract"] for r in records if r.get("abstract")]):
                checks[d.category] += 1
            for heading, body in paragraphs(text):
                if heading.lower().startswith("other related work") or body.count("@") < 2:
                    continue
                totals["paragraphs"] += 1
                said = first_sentence(body)
                if said:
                    totals["openers"] += 1
                    print(f"{name[len('blind_hci_'):]:11} {tag:20} {heading[:28]:28} | {said}")
                    if verbose:
                        print(f"{'':33}reader: {why.get((tag, heading), '(no paragraph of this heading judged)')[:300]}")
    print(f"paragraphs of two papers or more (closing ones aside): {totals['paragraphs']}, with an opener: {totals['openers']}")
    print("check findings: " + ", ".join(f"{c} {n}" for c, n in sorted(checks.items())))


if __name__ == "__main__":
    main()
