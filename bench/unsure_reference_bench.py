"""Benchmark of pasted references looked up online: right / wrong / pending and requests per
mention, this tree against ``main`` (``git archive``) in the same run.

Run from the repository root::

    .venv/bin/python bench/unsure_reference_bench.py               # every usable gold reference
    .venv/bin/python bench/unsure_reference_bench.py --limit 300   # a spread-out sample
    .venv/bin/python bench/unsure_reference_bench.py --baseline none

The references are AnyStyle's hand-labelled ``gold.xml`` (``../shared/corpora/anystyle``:
written by others, in many citation styles: APA, Vancouver, Chicago and the physics
journals' styles, humanities notes), every sequence with an author, a title and a date and
no URL or DOI (a pasted string, not a link). Each is written as a numbered line of a
reference list, as it was labelled, and read by each tree's own notes reader.

The loopback fakes hold the true record of every reference, built from its labels (title,
authors, year, journal), in one service only, in turn: Crossref, dblp or arXiv (a paper
Crossref lacks). Next to it, two decoys a search for it also finds: the same title by
other authors, and a longer title that starts with it by the same first author and
another co-author (each in another service than the true one). A mention is *right* when the record chosen is the
true record, *wrong* when another one is chosen, *pending* otherwise.

Both trees run in subprocesses against the same fakes (rate limits off: requests are
counted, not timed), each cold and then again with its cache (the second run's requests
should be 0). Printed: the counts for the untitled pasted references (the mentions this
change is about), for the titles the parser read unsure (looked up by the string's words
too when their title finds nothing) and for every mention, requests per mention by service, and the
targets (0 wrong). Results go to ``bench/out/unsure-reference-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: the shared corpora beside the repository (``../shared``), or ``CITEKIT_CORPORA`` when it is elsewhere
CORPORA = Path(os.environ.get("CITEKIT_CORPORA") or REPO.parent / "shared" / "corpora")
GOLD = CORPORA / "anystyle" / "res" / "parser" / "gold.xml"
OUT = REPO / "bench" / "out"
SERVICES = ("crossref", "dblp", "arxiv", "openreview", "conferences", "web")
HOLDERS = ("crossref", "dblp", "arxiv")


# ------------------------------------------------------------------------------ the references

def _clean(text: str) -> str:
    return " ".join(text.split())


def _title(text: str) -> str:
    return _clean(text).strip(" .,;:“”„\"'‘’`«»").removeprefix("In ").strip(" .,;:“”„\"'‘’`«»")


_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.?\s?-?\s?){1,4}$")


def _authors(text: str) -> list[tuple[str, str]]:
    """(given, family) of the names of a labelled author field, as well as a simple reading
    gives them: ``Bergk, V., Haefeli, W. E. & …``, ``O. Ambacher, B. Foutz, …``,
    ``Hochreiter S, …``, ``Nichols, Bill.``"""
    text = re.sub(r"\bet al\.?|\((?:eds?|hrsg)\.?\)|\beds?\.(?=\s|$)", " ", _clean(text), flags=re.I)
    text = re.sub(r"\s+(?:and|&|und)\s+", ", ", text).replace(";", ",")
    pieces = [p.strip(" .,:;()") for p in text.split(",") if p.strip(" .,:;()")]
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(pieces):
        piece, nxt = pieces[i], pieces[i + 1] if i + 1 < len(pieces) else None
        words = piece.split()
        if nxt is not None and len(words) <= 2 and _INITIALS.match(nxt + "."):
            out.append((nxt, piece))  # Bergk, V.
            i += 2
            continue
        if nxt is not None and not out and len(words) == 1 and len(nxt.split()) == 1 and len(pieces) == 2:
            out.append((nxt, piece))  # Nichols, Bill
            i += 2
            continue
        if len(words) >= 2 and _INITIALS.match(words[-1] + ".") and words[-1].isupper():
            out.append((words[-1], " ".join(words[:-1])))  # Hochreiter S
        elif words:
            out.append((" ".join(words[:-1]), words[-1]))  # O. Ambacher
        i += 1
    return [(g.strip(), f.strip()) for g, f in out if f.strip() and f[:1].isalpha()]


def references(limit: int | None) -> list[dict]:
    """The usable gold references: their string and their labels."""
    out = []
    for seq in ET.parse(GOLD).getroot():
        tags = [e.tag for e in seq]
        if not {"author", "title", "date"} <= set(tags) or {"url", "doi"} & set(tags):
            continue
        text = _clean(" ".join(_clean(e.text or "") for e in seq if e.tag != "citation-number"))
        fields = {e.tag: _clean(e.text or "") for e in reversed(list(seq))}  # (the first of a repeated label)
        years = re.findall(r"(?<!\d)(1[6-9]\d\d|20[0-4]\d)(?!\d)", fields["date"])
        title = re.sub(r"([a-z])- ([a-z])", r"\1\2", _title(fields["title"]))  # (a record has no PDF line breaks)
        authors = _authors(fields["author"])
        if not years or len(title.split()) < 2 or not authors or len(text) > 600:
            continue
        out.append({"text": text, "title": title, "authors": authors, "year": int(years[0]),
                    "venue": _title(fields.get("journal") or fields.get("container-title") or fields.get("publisher") or "")})
    if limit and len(out) > limit:
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


# ------------------------------------------------------------------------------ the world

def _crossref_item(doi: str, title: str, authors: list[tuple[str, str]], year: int, venue: str) -> dict:
    return {"item": {"DOI": doi, "URL": f"https://doi.org/{doi}", "type": "journal-article", "title": [title],
                     "author": [{"given": g, "family": f, "sequence": "first" if i == 0 else "additional",
                                 "affiliation": []} for i, (g, f) in enumerate(authors)],
                     "container-title": [venue or "Journal"], "publisher": "Example Press",
                     "issued": {"date-parts": [[year]]}, "published": {"date-parts": [[year]]}},
            "bias": 0.0}


def _dblp_hit(key: str, title: str, authors: list[tuple[str, str]], year: int, venue: str) -> dict:
    names = [{"@pid": f"{900 + i}/{abs(hash(key)) % 9000 + 1000}", "text": " ".join(p for p in (g, f) if p)}
             for i, (g, f) in enumerate(authors)]
    return {"authors": {"author": names[0] if len(names) == 1 else names},
            "title": title if title.endswith(("?", "!", ".")) else title + ".", "venue": venue or "Journal",
            "year": str(year), "type": "Journal Articles", "access": "closed", "key": key,
            "url": f"https://dblp.org/rec/{key}"}


def _arxiv_paper(aid: str, title: str, authors: list[tuple[str, str]], year: int) -> dict:
    date = f"{year}-06-01T12:00:00Z"
    return {"title": title, "abstract": f"We study {title.lower()}.",
            "authors": [" ".join(p for p in (g, f) if p) for g, f in authors],
            "arxiv": {"id": aid, "versions": [{"title": title, "date": date}], "category": "cs.LG"}}


def populate(world, refs: list[dict]) -> list[dict]:
    """Put each reference's true record (and its two decoys) into the fakes; returns the truth."""
    truth = []
    for i, ref in enumerate(refs):
        holder = HOLDERS[i % 3]
        records = [(holder, ref["title"], ref["authors"], True),
                   (HOLDERS[(i + 1) % 3], ref["title"], [("Dana", f"Otherfirst{i}"), ("Lee", f"Othersecond{i}")], False),
                   (HOLDERS[(i + 2) % 3], f"{ref['title']}: A Second Look", [ref["authors"][0], ("Kim", f"Coauthor{i}")],
                    False)]
        for n, (service, title, authors, true) in enumerate(records):
            rid = {"crossref": f"10.99999/bench.{i}.{n}", "dblp": f"journals/bench/R{i}x{n}",
                   "arxiv": f"2401.{i * 3 + n:05d}"}[service]
            if service == "crossref":
                world.crossref_items.append(_crossref_item(rid, title, authors, ref["year"], ref["venue"]))
            elif service == "dblp":
                world.dblp[rid] = _dblp_hit(rid, title, authors, ref["year"], ref["venue"])
            else:
                world.arxiv[rid] = _arxiv_paper(rid, title, authors, ref["year"])
            if true:
                truth.append({"source": service, "id": rid})
    return truth


# ------------------------------------------------------------------------------ one tree's run

def _one(notes: Path, cache: Path, env: dict[str, str]) -> dict:
    """``--one``: resolve the notes with this tree's citekit (``--src``), twice with one cache;
    prints one JSON line: each mention's outcome and the requests of each run, counted by
    the parent (it asks the fakes between the two)."""
    from citekit.notes import extract_paths, group_mentions
    from citekit.resolve.pipeline import resolve_groups
    from citekit.sources import SourceSettings, build_client, build_sources, open_cache

    extracted = extract_paths([notes], notes.parent)
    groups = group_mentions(extracted.mentions)
    settings = SourceSettings.from_env({}, REPO, env=dict(env, CITEKIT_CACHE_DIR=str(cache)))
    client = build_client(settings)
    cache_db = open_cache(settings)
    sources = build_sources(settings, client=client, cache=cache_db)
    report = resolve_groups(groups, sources, jobs=8)
    client.close()
    cache_db.close()
    out = []
    for work in report.works:
        for m in work.mentions:
            out.append({"line": m.location.line, "titled": bool(m.title), "reference": bool(m.reference),
                        "title_unsure": bool(getattr(m, "title_unsure", False)),
                        "status": work.status, "chosen": [work.chosen.source, work.chosen.id] if work.chosen else None,
                        "reason": work.reason})
    return {"mentions": out, "extracted": len(extracted.mentions)}


def _run_tree(src: Path, notes: Path, fake, cache: Path) -> dict:
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off", CITEKIT_MAILTO="bench@example.org")
    runs = []
    for _ in range(2):  # cold, then again with the cache the first run filled
        fake.clear()
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, __file__, "--one", "--src", str(src), "--notes", str(notes),
                               "--cache", str(cache), "--env", json.dumps(env)],
                              capture_output=True, text=True, cwd=REPO)
        if proc.returncode != 0:
            raise RuntimeError(f"{src}: {proc.stderr.strip().splitlines()[-3:]}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["requests"] = {s: fake.requests(s) for s in SERVICES}
        result["wall_seconds"] = round(time.perf_counter() - start, 2)
        runs.append(result)
    return {"cold": runs[0], "again": runs[1]}


def _judge(run: dict, truth_by_line: dict[int, dict], unsure_lines: set[int]) -> dict:
    """Right / wrong / pending: for the untitled pasted references, the titles the parser
    read unsure (``unsure_lines``: as this tree reads them, for both trees), every mention."""
    rows = {"untitled references": Counter(), "titles read unsure": Counter(), "all mentions": Counter()}
    wrong = []
    for m in run["mentions"]:
        truth = truth_by_line.get(m["line"])
        if truth is None:
            continue
        if m["status"] == "resolved" and m["chosen"] == [truth["source"], truth["id"]]:
            outcome = "right"
        elif m["status"] == "resolved":
            outcome = "wrong"
            wrong.append(f"line {m['line']}: chose {m['chosen']}, truth {truth['source']} {truth['id']}")
        else:
            outcome = "pending"
        rows["all mentions"][outcome] += 1
        if m["line"] in unsure_lines and m["titled"]:
            rows["titles read unsure"][outcome] += 1
        if not m["titled"] and m["reference"]:
            rows["untitled references"][outcome] += 1
            rows["untitled references"]["by holder: " + truth["source"] + " " + outcome] += 1
    return {"rows": {k: dict(v) for k, v in rows.items()}, "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="at most this many references (spread out)")
    parser.add_argument("--show", type=int, default=0, help="print the reasons of this many pending untitled references")
    parser.add_argument("--baseline", default="main", help="commit to measure alongside (default main; none: skip)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--src", help=argparse.SUPPRESS)
    parser.add_argument("--notes", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--env", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        sys.path.insert(0, args.src)
        print(json.dumps(_one(args.notes, args.cache, json.loads(args.env))))
        return 0

    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    from baseline_src import sources_at
    from tests.fakeservices import FakeServices

    if not GOLD.exists():
        print(f"no references: {GOLD} is missing (the shared corpora sit beside the repository)")
        return 1
    refs = references(args.limit)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "world").mkdir()
        (tmp / "world" / "papers.json").write_text('{"papers": []}', encoding="utf-8")
        (tmp / "world" / "crossref.json").write_text('{"items": []}', encoding="utf-8")
        notes = tmp / "notes" / "references.md"
        notes.parent.mkdir()
        lines = ["# References", ""] + [f"[{i + 1}] {ref['text']}" for i, ref in enumerate(refs)]
        notes.write_text("\n".join(lines) + "\n", encoding="utf-8")
        truth_by_line = {}
        trees = {"this tree": REPO / "src"}
        if args.baseline != "none":
            base = sources_at(args.baseline, tmp / "baseline")
            if base is not None:
                trees[args.baseline] = base
        results = {}
        with FakeServices(tmp / "world") as fake:
            truth = populate(fake.world, refs)
            truth_by_line = {3 + i: t for i, t in enumerate(truth)}
            for name, src in trees.items():
                results[name] = _run_tree(src, notes, fake, tmp / f"cache-{len(results)}")

    print(f"{len(refs)} pasted references from AnyStyle's gold.xml (several citation styles); the true record of "
          "each in one of Crossref, dblp, arXiv in turn, with two decoys; rate limits off, requests counted")
    summary = {}
    unsure_lines = {m["line"] for m in results["this tree"]["cold"]["mentions"] if m["title_unsure"]}
    for name, res in results.items():
        judged = _judge(res["cold"], truth_by_line, unsure_lines)
        mentions = len(res["cold"]["mentions"])
        untitled = sum(1 for m in res["cold"]["mentions"] if not m["titled"] and m["reference"])
        cold = sum(res["cold"]["requests"].values())
        summary[name] = {"judged": judged, "mentions": mentions, "untitled": untitled,
                         "requests_cold": res["cold"]["requests"], "requests_again": res["again"]["requests"],
                         "wall_seconds": res["cold"]["wall_seconds"]}
        print(f"\n{name}: {mentions} mentions, {untitled} of them untitled pasted references")
        for row, counts in judged["rows"].items():
            n = sum(counts.get(k, 0) for k in ("right", "wrong", "pending"))
            print(f"  {row:<22} right {counts.get('right', 0):>4}  wrong {counts.get('wrong', 0):>3}  "
                  f"pending {counts.get('pending', 0):>4}  (of {n})")
        by_holder = {k[len("by holder: "):]: v for k, v in judged["rows"]["untitled references"].items()
                     if k.startswith("by holder: ")}
        print("  untitled, by the service holding the truth:", ", ".join(f"{k} {v}" for k, v in sorted(by_holder.items())))
        print(f"  requests per mention (cold): {cold / max(mentions, 1):.3f}  ("
              + ", ".join(f"{s} {res['cold']['requests'][s]}" for s in HOLDERS) + ")")
        print(f"  requests on the second run (same cache): {sum(res['again']['requests'].values())}")
        if name != "this tree" and "this tree" in summary:
            extra = sum(summary["this tree"]["requests_cold"].values()) - cold
            print(f"  this tree asks {extra:+d} requests more than {name} ({extra / max(untitled, 1):+.2f} per untitled "
                  "pasted reference, the fallback of titles read unsure included)")
        for line in judged["wrong"][:10]:
            print("  wrong:", line)
        for m in [m for m in res["cold"]["mentions"] if not m["titled"] and m["reference"]
                  and m["status"] != "resolved"][:args.show]:
            print(f"  pending, line {m['line']}: {m['reason'][:160]}")
    mine = summary["this tree"]["judged"]["rows"]
    ok = not mine["untitled references"].get("wrong")
    print(f"\ntarget: 0 wrong among the untitled pasted references (this tree): {'ok' if ok else 'MISSED'}")
    if args.baseline in summary:
        base = summary[args.baseline]["judged"]["rows"]["all mentions"].get("wrong", 0)
        same = set(summary["this tree"]["judged"]["wrong"]) == set(summary[args.baseline]["judged"]["wrong"])
        print(f"all mentions: {mine['all mentions'].get('wrong', 0)} wrong here, {base} in {args.baseline}"
              f"{' (the same mentions: titled ones, not changed here)' if same else ''}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "unsure-reference-latest.json").write_text(json.dumps({"references": len(refs), "summary": summary},
                                                                 indent=2) + "\n", encoding="utf-8")
    print(f"written to {OUT / 'unsure-reference-latest.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
