"""Does ``related-work --check`` flag what a reader flags? Sentences for held-out HCI papers, judged by hand.

Each paper of the judged HCI test part (``tests/data/sentences/judged.yaml``, ``hci_test``;
entries of a library nobody on the team wrote, see ``bench/sentences_data.py``) is described
by :func:`citekit.output.related_work.describe` as the snippet would, and checked alone by
:func:`citekit.output.related_check.check_snippet` with its title and its record (for the
copied-from-the-abstract and "study <title>" tests). The reader's verdicts
(``tests/data/sentences/reader.yaml``: ``keep``, or the defect a careful co-author marks)
were given reading only the sentence and the paper's record. Prints the sentences kept as
is, and the check's recall (reader-flagged sentences it flags) and false flags (kept
sentences it flags).

Run: .venv/bin/python bench/sentences_check_bench.py [-v]  (needs ../shared/corpora)
"""

from __future__ import annotations

import sys

import yaml

from sentences_data import REPO, load_hci


def sentences() -> list[tuple[str, str]]:
    """``(key, sentence)`` for each judged HCI test paper, as related-work writes it in LaTeX."""
    from citekit.core.model import Entry
    from citekit.output.related_work import _Style, describe

    judged = yaml.safe_load((REPO / "tests" / "data" / "sentences" / "judged.yaml").read_text(encoding="utf-8"))
    hci = {key: (title, abstract) for key, title, abstract in load_hci()}
    style = _Style("latex", "natbib", False)
    out = []
    for key in judged["hci_test"]:
        title, abstract = hci[key]
        entry = Entry(key=key.replace(":", ""), entry_type="inproceedings", abstract=abstract, tags_auto=["t"],
                      fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2005"})
        out.append((key, describe(entry, style)))
    return out


def main() -> None:
    from citekit.output.record_check import CitedRecord
    from citekit.output.related_check import check_snippet

    hci = {key: (title, abstract) for key, title, abstract in load_hci()}
    path = REPO / "tests" / "data" / "sentences" / "reader.yaml"
    reader = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    kept = flagged = caught = false = 0
    for key, sentence in sentences():
        verdict = reader.get(key, "?")
        record = CitedRecord(key.replace(":", ""), hci[key][0], hci[key][1] or "")  # the key as describe() cites it
        defects = check_snippet(sentence, "latex", [hci[key][0]], [hci[key][1]] if hci[key][1] else [], [record])
        if "-v" in sys.argv or verdict == "?":
            print(f"{key}: {verdict} | check: {[d.category for d in defects]}\n  {sentence}")
        if verdict == "keep":
            kept += 1
            false += bool(defects)
        elif verdict != "?":
            flagged += 1
            caught += bool(defects)
    total = kept + flagged
    print(f"sentences judged: {total}; kept as is: {kept} ({kept / max(total, 1):.2f})")
    print(f"check flags {caught} of {flagged} sentences the reader flagged ({caught / max(flagged, 1):.2f}); "
          f"{false} of {kept} kept sentences flagged ({false / max(kept, 1):.2f})")


if __name__ == "__main__":
    main()
