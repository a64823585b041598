"""Notes extraction on notes written blind (``tests/data/notes/blind``).

Prints, per style as the writer named it and in total: files, expected papers, papers
found, mention precision, recall, right-title rate, author-list exact rate and non-papers
taken (how a mention is matched to a paper: ``tests/blind_scoring.py``). Targets (issue
24): precision >= 0.99, recall >= 0.97, right title >= 0.97, authors exact >= 0.95, on every
style. ``-v`` lists the misses and the false mentions.

``--src DIR`` measures the package under another ``src`` folder (an older checkout).
``--dev`` scores the development set (``tests/data/notes/dev``) instead: notes written
blind the same way, by other writers, that may be read and tuned on; the blind set may not.
``--dev2`` scores the second development set (``tests/data/notes/dev2``), by three more writers.
``--dev3`` scores the third development set (``tests/data/notes/dev3``), on the styles both blind sets score lowest.
``--dev4`` scores the fourth development set (``tests/data/notes/dev4``), on the style families still lowest after dev3.
``--dev5`` scores the fifth (``tests/data/notes/dev5``), on the style families still lowest by recall after dev4.
``--dev6`` scores the sixth (``tests/data/notes/dev6``): forwarded e-mails, posts, Zotero notes and reports, Notion.
``--blind2`` scores the second blind set (``tests/data/notes/blind2``): a measure, never tuned on.

Run: .venv/bin/python bench/notes_blind_bench.py  (or `make bench`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="measure the citekit package under this src folder")
    parser.add_argument("--dev", action="store_true", help="the development set, which may be tuned on")
    parser.add_argument("--dev2", action="store_true", help="the second development set (tests/data/notes/dev2)")
    parser.add_argument("--dev3", action="store_true", help="the third development set (tests/data/notes/dev3)")
    parser.add_argument("--dev4", action="store_true", help="the fourth development set (tests/data/notes/dev4)")
    parser.add_argument("--dev5", action="store_true", help="the fifth development set (tests/data/notes/dev5)")
    parser.add_argument("--dev6", action="store_true", help="the sixth development set (tests/data/notes/dev6)")
    parser.add_argument("--blind2", action="store_true", help="the second blind set (tests/data/notes/blind2): a measure")
    parser.add_argument("-v", "--verbose", action="store_true", help="list misses and false mentions")
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    sys.path.insert(0, str(HERE.parent / "tests"))
    from blind_scoring import BLIND, BLIND2, DEV, DEV2, DEV3, DEV4, DEV5, DEV6, score_blind  # noqa: E402  (after the path is set)

    by_style, total = score_blind(BLIND2 if args.blind2 else DEV6 if args.dev6 else DEV5 if args.dev5 else DEV4 if args.dev4 else DEV3 if args.dev3 else DEV2 if args.dev2 else DEV if args.dev else BLIND)
    head = f"{'style':58} {'files':>5} {'papers':>6} {'found':>5} {'prec':>5} {'recall':>6} {'title':>5} {'authors':>7} {'non-papers taken':>16}"
    which = (" (second blind set)" if args.blind2 else " (sixth development set)" if args.dev6 else " (fifth development set)" if args.dev5
             else " (fourth development set)" if args.dev4
             else " (third development set)" if args.dev3
             else " (second development set)" if args.dev2
             else " (development set)" if args.dev else "")
    print(f"Notes written blind{which}: extraction per style")
    print(head)
    for style, s in sorted(by_style.items()):
        print(f"{style[:58]:58} {s.files:5} {s.papers:6} {s.found:5} {s.precision:5.2f} {s.recall:6.2f} {s.title_rate:5.2f} {s.authors_rate:7.2f} {s.non_papers_taken:16}")
    t = total
    print(f"{'total':58} {t.files:5} {t.papers:6} {t.found:5} {t.precision:5.2f} {t.recall:6.2f} {t.title_rate:5.2f} {t.authors_rate:7.2f} {t.non_papers_taken:16}")
    print(f"({t.mentions} mentions extracted, {t.titled} found papers whose file writes the title out, {t.non_papers} non-papers in the keys, {t.with_authors} found papers whose notes name authors)")
    if args.verbose:
        for label, rows in (("miss", t.misses), ("false", t.false), ("title", t.wrong_titles), ("authors", t.wrong_authors)):
            for row in rows:
                print(f"{label:8} {row}")


if __name__ == "__main__":
    main()
