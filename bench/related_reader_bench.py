"""Related work against a blind reader's judgements (tests/data/related_work/blind_hci/README.md).

Two figures, each against the same reader's verdicts:

1. ``related-work --check`` on the drafts the reader saw: of the sentences the reader marked
   (edit or rewrite), how many the check flags; of those the reader kept, how many it flags.
2. The current code on the same tags of the same library (imported from ../shared/corpora):
   of the judged sentences, how many it still writes word for word, by verdict. A change
   should keep what the reader kept and rewrite what the reader marked; sentences it writes
   differently need a new judgement to count.

3. ``--check``: the check alone, on the development judgements (blind_hci/, which judged-before/
   repeats, and blind_hci_topics/) and on every held-out set (blind_hci_heldout/ is set 1, _2/ set 2, ...,
   _10/ set 10; both drafts of a side-by-side set), each printed apart, ``--before REF``'s src/ (default
   main) and this tree's in one run, each given the drafts' records; ``--dev`` leaves the held-out ones out
   and ``--sets dev,1-9`` measures those named (for developing the check: the rest are measured at the end).

4. ``--check`` also scores the check's learned reading (``bench/check_train.py``) leaving one reader out: fitted on
   the other readers' verdicts (held-out sets 1-9 and the development ones), scored on the one left out.

Run: .venv/bin/python bench/related_reader_bench.py [-v]  (part 2 needs ../shared/corpora)
     .venv/bin/python bench/related_reader_bench.py --check [--dev | --sets dev,1-9] [--before REF] [--no-folds]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from draft_todos import inline_todos

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "related_work" / "blind_hci"
TOPICS = REPO / "tests" / "data" / "related_work" / "blind_hci_topics"
#: four more topics, held out from all development and judged by a third reader (its README)
HELDOUT = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout"
#: the same held-out topics written by later code, judged by a fourth reader
HELDOUT_2 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_2"
#: four more held-out topics, main's drafts (before/) and later code's, judged side by side by a fifth reader
HELDOUT_3 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_3"
#: four more held-out topics (topic rules in bench/heldout_drafts.py), the session's starting drafts (before/) and
#: the merged code's, judged side by side by a sixth reader
HELDOUT_4 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_4"
#: a fifth held-out set, judged side by side (starting drafts in before/) by a seventh reader
HELDOUT_5 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_5"
#: a sixth held-out set (haptic, gaze, pen, mobile), judged side by side (starting drafts in before/) by an eighth reader
HELDOUT_6 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_6"
#: a seventh held-out set (display, audio, wearable, collaboration), judged side by side (starting drafts in before/)
#: by a ninth reader
HELDOUT_7 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_7"
#: an eighth held-out set (fabrication, reality, sensing, motion), judged side by side (starting drafts in before/)
#: by a tenth reader
HELDOUT_8 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_8"
#: a ninth held-out set (social, evaluation, navigation, surface), judged side by side (starting drafts in before/)
#: by an eleventh reader
HELDOUT_9 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_9"
#: a tenth held-out set (hand, recognition, camera, tangible), judged side by side (starting drafts in before/)
#: by a twelfth reader
HELDOUT_10 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_10"
#: an eleventh held-out set (input, information, shape, text), judged side by side (starting drafts in before/)
#: by a thirteenth reader
HELDOUT_11 = REPO / "tests" / "data" / "related_work" / "blind_hci_heldout_11"
LIBRARY = REPO.parent / "shared" / "corpora" / "zotero-bbt-export" / "Cache does not seem to fill #1296.bibtex"
CITEKIT = Path(sys.executable).with_name("citekit")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w@:]+", " ", text.lower()).split())


def _records(data: Path, tag: str) -> list[dict]:
    return json.loads((data / f"hci-{tag}.records.json").read_text(encoding="utf-8"))


def check_counts(judged: dict, data: Path = DATA, verbose: bool = False) -> Counter:
    """The check's flags on the drafts a reader judged, against the reader's verdicts: ``(verdict, flagged)``
    counts, and ``("keep-by", category)`` for the categories that flag a kept sentence.

    The check gets the records the drafts were made from, by key, when it takes them (the
    verbatim and "study <title>" tests need each cited paper's own record); a check that
    does not (an older commit's) gets their titles and abstracts as lists.
    """
    import inspect

    from citekit.output.related_check import PARAGRAPH, check_snippet

    takes_records = "records" in inspect.signature(check_snippet).parameters
    flagged: dict[str, dict[str, set[str]]] = {}
    for draft in sorted(data.glob("hci-*.md")):
        tag = draft.stem[len("hci-"):]
        records = _records(data, tag)
        extra = {}
        if takes_records:
            from citekit.output.record_check import CitedRecord

            extra["records"] = [CitedRecord(r["key"], r["title"] or "", r.get("abstract") or "") for r in records]
        found = check_snippet(draft.read_text(encoding="utf-8"), "markdown", [r["title"] for r in records if r["title"]],
                              [r["abstract"] for r in records if r["abstract"]], **extra)
        # (sentence verdicts against sentence flags: a paragraph's "no topic sentence" quotes its
        # first sentence but says nothing about it)
        by_excerpt: dict[str, set[str]] = {}
        for d in found:
            if d.category not in PARAGRAPH:
                by_excerpt.setdefault(_norm(d.excerpt.removesuffix("..."))[:80], set()).add(d.category)
        flagged[tag] = by_excerpt
    counts: Counter = Counter()
    for s in judged["sentences"]:
        mine = _norm(s["sentence"])
        hits = set().union(*[c for f, c in flagged.get(s["tag"], {}).items()
                             if mine.startswith(f) or f.startswith(mine[:80]) or f in mine])
        counts[(s["verdict"], bool(hits))] += 1
        if s["verdict"] == "keep":
            counts.update(("keep-by", c) for c in hits)
        if verbose and (bool(hits) != (s["verdict"] != "keep")):
            print(f"  {'flagged kept' if hits else 'missed':13} {s['verdict']:7} {sorted(hits)} {s['sentence'][:100]}")
    return counts


def _check_line(counts: Counter) -> str:
    marked = sum(n for k, n in counts.items() if k[0] in ("edit", "rewrite"))
    caught = sum(n for k, n in counts.items() if k[0] in ("edit", "rewrite") and k[1] is True)
    kept = counts[("keep", True)] + counts[("keep", False)]
    false = counts[("keep", True)]
    by = ", ".join(f"{c} {n}" for (_, c), n in sorted(counts.items(), key=str) if _ == "keep-by")
    return (f"flags {caught}/{marked} reader-marked sentences ({caught / max(marked, 1):.2f}; target >= 0.90), "
            f"{false}/{kept} kept ones (target 0){f' [by {by}]' if by else ''}")


def check_against_reader(judged: dict, verbose: bool, data: Path = DATA) -> None:
    print(f"check on the judged drafts: {_check_line(check_counts(judged, data, verbose))}")


#: the development judgements (judged-before/ holds the same drafts and verdicts as blind_hci/) and the held-out ones
#: the held-out sets judged side by side (the starting drafts in before/, the later code's beside them), by number
SIDE_BY_SIDE = {3: ("third", HELDOUT_3), 4: ("fourth", HELDOUT_4), 5: ("fifth", HELDOUT_5), 6: ("sixth", HELDOUT_6),
                7: ("seventh", HELDOUT_7), 8: ("eighth", HELDOUT_8),
                9: ("ninth", HELDOUT_9), 10: ("tenth", HELDOUT_10),
                11: ("eleventh", HELDOUT_11)}
#: every judged set by its number (1 and 2: the same held-out drafts judged by two readers; from 3 on, both drafts
#: of a side-by-side judgement), each printed apart
CHECK_SETS = {"dev": (DATA, TOPICS), "set 1": (HELDOUT,), "set 2": (HELDOUT_2,),
              **{f"set {n}": (folder / "before", folder) for n, (_, folder) in SIDE_BY_SIDE.items()}}


def _chosen_sets(argv: list[str]) -> tuple[str, ...]:
    """The sets ``--check`` measures: all, the development ones (``--dev``), or those ``--sets`` names (``--sets
    dev,1-9``: numbers and ranges), so that a set kept for the final measure stays unread while the check is tuned."""
    if "--dev" in argv:
        return ("dev",)
    if "--sets" not in argv:
        return tuple(CHECK_SETS)
    chosen: list[str] = []
    for part in argv[argv.index("--sets") + 1].split(","):
        if part == "dev":
            chosen.append("dev")
            continue
        low, _, high = part.partition("-")
        chosen += [f"set {n}" for n in range(int(low), int(high or low) + 1)]
    unknown = [name for name in chosen if name not in CHECK_SETS]
    if unknown:
        raise SystemExit(f"no judged set {', '.join(unknown)}: choose among dev and 1-{len(CHECK_SETS) - 1}")
    return tuple(chosen)


def _counts_json(sets: list[str]) -> None:
    """``--counts``: this interpreter's check on the judged sets, as JSON (run under another commit's src/)."""
    out = {}
    for name, folders in CHECK_SETS.items():
        if name not in sets:
            continue
        total: Counter = Counter()
        for data in folders:
            total.update(check_counts(yaml.safe_load((data / "judgements.yaml").read_text(encoding="utf-8")), data))
        out[name] = [[list(k), n] for k, n in total.items()]
    print(json.dumps(out))


def check_before_after(before: str = "main", sets: tuple[str, ...] = tuple(CHECK_SETS)) -> None:
    """The check on the development and the held-out judgements, ``before``'s src/ against this one's, same run.

    ``sets`` (``--dev``: the development judgements only) keeps the held-out ones unread while the
    check is being developed: they are measured once, at the end."""
    import os

    from baseline_src import sources_at

    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, src in (("before", sources_at(before, Path(tmp)) if before != "none" else None),
                           ("after", REPO / "src")):
            if src is None:
                continue
            out = subprocess.run([sys.executable, __file__, "--counts", *sets], capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(src)})
            if out.returncode != 0:
                print(f"  ({label}: {out.stderr.strip().splitlines()[-1:]})")
                continue
            runs[label] = {name: Counter({tuple(k): n for k, n in pairs})
                           for name, pairs in json.loads(out.stdout).items()}
    for name, folders in CHECK_SETS.items():
        if name not in sets:
            continue
        where = " + ".join(str(f.relative_to(REPO)) for f in folders)
        for label, figures in runs.items():
            print(f"related-work --check, {name} ({where}), {label} ({before if label == 'before' else 'this tree'}): "
                  f"{_check_line(figures[name])}")


def leave_one_reader_out() -> None:
    """The learned reading scored on each reader it was not fitted on (``bench/check_train.py``): the figures above
    are on readers the shipped model saw; these are not."""
    try:
        import check_train
    except ImportError as exc:  # (scikit-learn is a development dependency)
        print(f"leave one reader out: skipped ({exc})")
        return
    print("related-work --check, learned reading fitted on the other readers, scored on the one left out (this tree):")
    check_train.folds(check_train.rows())


def current_output(judged: dict, verbose: bool) -> None:
    if not LIBRARY.is_file():
        print(f"current output: skipped ({LIBRARY} is not here)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        subprocess.run([str(CITEKIT), "init", str(root)], check=True, capture_output=True)
        bib = root / "hci.bib"
        bib.write_bytes(LIBRARY.read_bytes())
        subprocess.run([str(CITEKIT), "-C", str(root), "import", "-q", str(bib)], capture_output=True)
        now: dict[str, str] = {}
        for tag in sorted({s["tag"] for s in judged["sentences"]}):
            out = subprocess.run([str(CITEKIT), "-C", str(root), "related-work", "--tag", tag, "--format", "markdown"],
                                 capture_output=True, text=True)
            now[tag] = _norm(out.stdout)
    same: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for s in judged["sentences"]:
        total[s["verdict"]] += 1
        if _norm(s["sentence"]) in now.get(s["tag"], ""):
            same[s["verdict"]] += 1
        elif verbose:
            print(f"  changed {s['verdict']:7} {s['sentence'][:110]}")
    print("current code, judged sentences still written word for word: "
          + ", ".join(f"{v} {same[v]}/{total[v]}" for v in ("keep", "edit", "rewrite")))


def _paragraph_figures(text: str) -> Counter:
    """Paragraphs, those opened by a topic sentence the check passes, and (for a --mine draft) those whose
    positioning sentence the check passes: the check's reading, not a reader's."""
    from citekit.output.related_check import _POSITION, _opens_with_topic, _paragraphs, _sentences, check_snippet

    defects = check_snippet(text, "markdown")
    paragraphs = _paragraphs(text, "markdown")
    lines = inline_todos(text).splitlines()
    out: Counter = Counter()
    for i, (line, _heading, body) in enumerate(paragraphs):
        end = paragraphs[i + 1][0] if i + 1 < len(paragraphs) else len(lines) + 1
        here = [d for d in defects if line <= d.line < end]
        sentences = _sentences(body)
        first = sentences[0] if sentences else ""
        hollow = any(d.category in ("hollow-topic", "topic-count") and d.excerpt[:60] == first[:60] for d in here)
        out["paragraphs"] += 1
        out["topic"] += bool(first) and not first.startswith("@") and _opens_with_topic(body, "markdown") and not hollow
        out["todo"] += "TODO(citekit)" in "\n".join(lines[line - 1:end - 1])
        positions = [x for x in sentences if _POSITION.search(x)]
        out["positioned"] += bool(positions) and not any(
            d.category in ("no-contrast", "hollow-topic") and any(d.excerpt.removesuffix("...")[:60] in x for x in positions)
            for d in here)
    return out


def paragraphs_now(data: Path = TOPICS) -> None:
    """Topic sentences and --mine positions, the judged drafts against the current code on the same records."""
    from citekit.core.model import Entry
    from citekit.output.related_work import Mine, related_work

    before: Counter = Counter()
    after: Counter = Counter()
    before_mine: Counter = Counter()
    after_mine: Counter = Counter()
    for draft in sorted(data.glob("hci-*.md")):
        name = draft.stem[len("hci-"):]
        records = json.loads((data / f"hci-{name}.records.json").read_text(encoding="utf-8"))
        entries = [Entry(key=r["key"], entry_type="inproceedings", abstract=r.get("abstract"), tags_auto=[name],
                         fields={"title": r["title"], "author": r.get("author") or "", "year": str(r.get("year") or "")})
                   for r in records]
        mine = None
        if name.endswith("-mine"):  # the topic's last key stands for the user's paper (see the README)
            own = entries.pop()
            mine = Mine(title=own.title or "", abstract=own.abstract or "", name=own.key)
        old = _paragraph_figures(draft.read_text(encoding="utf-8"))
        new = _paragraph_figures(related_work(entries, fmt="markdown", tags=[name.removesuffix("-mine")], mine=mine))
        (before_mine if mine else before).update(old)
        (after_mine if mine else after).update(new)
    print("second set, read by the check (not a reader), judged drafts -> current code on the same records: "
          f"topic sentences {before['topic']}/{before['paragraphs']} -> {after['topic']}/{after['paragraphs']} "
          f"(--mine drafts {before_mine['topic']}/{before_mine['paragraphs']} -> "
          f"{after_mine['topic']}/{after_mine['paragraphs']}); --mine paragraphs with a contrast "
          f"{before_mine['positioned']}/{before_mine['paragraphs']} -> {after_mine['positioned']}/{after_mine['paragraphs']}"
          f" (TODO {before_mine['todo']} -> {after_mine['todo']})")


def main() -> None:
    if "--counts" in sys.argv:
        _counts_json(sys.argv[sys.argv.index("--counts") + 1:])
        return
    verbose = "-v" in sys.argv
    if "--check" in sys.argv:  # only the check's figures, before and after
        check_before_after(sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else "main",
                           _chosen_sets(sys.argv))
        if "--no-folds" not in sys.argv:
            leave_one_reader_out()
        return
    judged = yaml.safe_load((DATA / "judgements.yaml").read_text(encoding="utf-8"))
    verdicts = Counter(s["verdict"] for s in judged["sentences"])
    n = sum(verdicts.values())
    print(f"blind reader, {n} sentences: kept {verdicts['keep']} ({verdicts['keep'] / n:.2f}; target >= 0.80), "
          f"edit {verdicts['edit']}, rewrite {verdicts['rewrite']} ({verdicts['rewrite'] / n:.2f}; target <= 0.05); "
          f"paragraphs with a topic sentence {sum(p['topic_sentence'] for p in judged['paragraphs'])}/{len(judged['paragraphs'])}")
    check_against_reader(judged, verbose)
    current_output(judged, verbose)
    for name, data in (("second set", TOPICS), ("held-out set", HELDOUT), ("held-out set, later code", HELDOUT_2),
                       *((f"{nth} held-out set, {which}", folder) for nth, h in SIDE_BY_SIDE.values()
                         for which, folder in (("main before", h / "before"), ("later code", h)))):
        topics = yaml.safe_load((data / "judgements.yaml").read_text(encoding="utf-8"))
        verdicts = Counter(s["verdict"] for s in topics["sentences"])
        n = sum(verdicts.values())
        mine = [p for p in topics["paragraphs"] if p.get("positions") is not None]  # (null: no --mine draft)
        print(f"blind reader, {name} (four rule-tagged topics, {data.relative_to(REPO)}), {n} sentences: "
              f"kept {verdicts['keep']} ({verdicts['keep'] / n:.2f}), edit {verdicts['edit']}, rewrite {verdicts['rewrite']} "
              f"({verdicts['rewrite'] / n:.2f}); unsupported {sum(s['unsupported'] for s in topics['sentences'])}; "
              f"paragraphs with a point {sum(p['has_point'] for p in topics['paragraphs'])}/{len(topics['paragraphs'])}; "
              f"topic sentences {sum(p['topic_sentence'] for p in topics['paragraphs'])}/{len(topics['paragraphs'])}; "
              f"--mine paragraphs positioned {sum(p['positions'] for p in mine)}/{len(mine)}")
        check_against_reader(topics, verbose, data)
    paragraphs_now(TOPICS)


if __name__ == "__main__":
    main()
