"""Benchmark of batched arXiv searches: a cold sync of the bundled notes, against baselines
measured in the same run.

Run from the repository root::

    .venv/bin/python bench/arxiv_batch_bench.py                   # 3 alternating rounds, baseline: main
    .venv/bin/python bench/arxiv_batch_bench.py --baseline HEAD~3 # another baseline commit
    .venv/bin/python bench/arxiv_batch_bench.py --baseline none   # no baseline checkout

Every paper of the bundled ``notes/`` is resolved cold (empty cache) against the loopback
fakes with the services' real limits (arXiv: 3 s between the end of an answer and the next
request; OpenReview: 20 a minute for guests; dblp one a second), in alternating order, by:

- this tree (``batched``: one OR'ed ``search_query`` for the works that need one, with the
  by-author queries of earlier titles as ``au:`` clauses, sent while dblp is asked);
- the same tree with one arXiv request per work (``unbatched``: the behaviour before
  batching);
- the ``--baseline`` commit (default ``main``), its ``src/`` taken with ``git archive`` into a
  temporary folder and run in a subprocess against the same fakes.

Printed, medians over the rounds, each next to the baselines and its target: cold wall time
(<= 8 s), requests per mention (<= 0.2), arXiv requests, works resolved (the same as the
unbatched baseline), wrong attachments (0, judged against the fake world's own truth); and,
for reference, the figures issue 29 measured before any of this (labelled as such).

Results go to ``bench/out/arxiv-batch-<timestamp>.json`` (and ``arxiv-batch-latest.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: ``--src DIR`` (the baseline's subprocess): import citekit from there instead of this tree
_SRC = sys.argv[sys.argv.index("--src") + 1] if "--src" in sys.argv else str(REPO / "src")
sys.path.insert(0, _SRC)
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from citekit.notes import extract_paths, group_mentions  # noqa: E402
from resolve_latency import run_once  # noqa: E402
from tests.fakeservices import FakeServices  # noqa: E402

OUT = REPO / "bench" / "out"
TARGETS = {"wall_seconds": 8.0, "requests_per_mention": 0.2}
#: what issue 29 measured before batching (real services' limits in the fakes, same notes):
#: quoted for reference, not measured here
ISSUE_BEFORE = {"wall_seconds": "20-21 s", "arxiv_requests": "7"}


def _baseline_src(ref: str, into: Path) -> Path | None:
    """``ref``'s ``src/`` unpacked under ``into`` (None when git cannot give it)."""
    from baseline_src import sources_at

    return sources_at(ref, into)


def _baseline_run(src: Path, latency: float) -> dict | None:
    """One cold sync by the baseline's code, in a subprocess of its own (its own fakes);
    None when that code cannot run it (said once, the bench goes on without it)."""
    out = subprocess.run([sys.executable, __file__, "--one", "--src", str(src), "--latency", str(latency)],
                         capture_output=True, text=True, cwd=REPO)
    if out.returncode != 0:
        print(f"baseline: not measured (its run failed: {out.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def _one(latency: float) -> int:
    """``--one``: a single batched cold sync, its figures as one JSON line (for a baseline)."""
    extracted = extract_paths([REPO / "notes"], REPO)
    groups = group_mentions(extracted.mentions)
    with FakeServices(latency=latency) as fake, tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(run_once(fake, groups, 8, Path(tmp))))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds added to every request (default 0.1)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--notes", type=Path, default=REPO / "notes", help="notes folder (default notes/)")
    parser.add_argument("--baseline", default="main", help="commit to measure alongside (default main; none: skip)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--src", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return _one(args.latency)

    extracted = extract_paths([args.notes], REPO)
    groups = group_mentions(extracted.mentions)
    mentions = len(extracted.mentions)
    print(f"{mentions} mentions in {len(groups)} groups; latency {args.latency * 1000:.0f} ms per request; "
          f"real limits; {args.rounds} alternating rounds, medians")
    runs: dict[str, list[dict]] = {"batched": [], "unbatched": []}
    with tempfile.TemporaryDirectory() as base_dir:
        base_src = _baseline_src(args.baseline, Path(base_dir)) if args.baseline != "none" else None
        if base_src is not None:
            runs["baseline"] = []
        with FakeServices(latency=args.latency) as fake:
            for n in range(args.rounds):
                order = ["batched", "unbatched", *(["baseline"] if base_src else [])]
                for mode in (order if n % 2 == 0 else order[::-1]):
                    if mode == "baseline":
                        if "baseline" in runs:
                            figures = _baseline_run(base_src, args.latency)  # type: ignore[arg-type]
                            if figures is None:
                                del runs["baseline"]
                            else:
                                runs[mode].append(figures)
                        continue
                    with tempfile.TemporaryDirectory() as tmp:
                        runs[mode].append(run_once(fake, groups, 8, Path(tmp), batch_searches=mode == "batched"))

    def median(mode: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[mode])

    def per_mention(mode: str) -> float:
        return statistics.median(r["requests"] for r in runs[mode]) / mentions

    def arxiv(mode: str) -> float:
        return statistics.median(r["requests_per_service"]["arxiv"] for r in runs[mode])

    def resolved(mode: str) -> int:
        return min(r["statuses"]["resolved"] for r in runs[mode])

    def wrong(mode: str) -> int:
        return max(len(r["wrong_attachments"]) for r in runs[mode])

    modes = [m for m in ("batched", "baseline", "unbatched") if m in runs]
    rows = [
        ("cold sync wall time", {m: f"{median(m, 'wall_seconds'):.2f} s" for m in modes}, ISSUE_BEFORE["wall_seconds"],
         f"<= {TARGETS['wall_seconds']:g} s", median("batched", "wall_seconds") <= TARGETS["wall_seconds"]),
        ("requests per mention", {m: f"{per_mention(m):.3f}" for m in modes}, "-",
         f"<= {TARGETS['requests_per_mention']:g}", per_mention("batched") <= TARGETS["requests_per_mention"]),
        ("requests", {m: f"{statistics.median(r['requests'] for r in runs[m]):g}" for m in modes}, "-", "", None),
        ("arXiv requests", {m: f"{arxiv(m):g}" for m in modes}, ISSUE_BEFORE["arxiv_requests"], "fewer",
         arxiv("batched") <= arxiv("unbatched")),
        ("works resolved", {m: str(resolved(m)) for m in modes}, "-", "same",
         resolved("batched") >= resolved("unbatched")),
        ("wrong attachments", {m: str(wrong(m)) for m in modes}, "-", "0", wrong("batched") == 0),
    ]
    names = {"batched": "this tree", "baseline": f"{args.baseline}", "unbatched": "unbatched"}
    print(f"{'':<22}" + "".join(f"  {names[m]:>10}" for m in modes) + f"  {'issue before':>14}  target")
    for name, values, before, target, ok in rows:
        print(f"{name:<22}" + "".join(f"  {values[m]:>10}" for m in modes)
              + f"  {before:>14}  {target:<8}  {'' if ok is None else 'ok' if ok else 'MISSED'}")
    print("(this tree, baseline: medians measured in this run; unbatched: this tree with one arXiv request per "
          "work; issue before: figures quoted from issue 29, not measured here)")
    for mode in modes:
        counts = runs[mode][0]["requests_per_service"]
        print(f"  requests by service ({names[mode]}):", ", ".join(f"{k} {v}" for k, v in counts.items()))
        for line in runs[mode][0]["wrong_attachments"]:
            print(f"  wrong ({names[mode]}):", line)

    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"latency_seconds": args.latency, "mentions": mentions, "groups": len(groups), "rounds": args.rounds,
              "targets": TARGETS, "runs": runs}
    for name in (f"arxiv-batch-{stamp}.json", "arxiv-batch-latest.json"):
        (OUT / name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written to {OUT / f'arxiv-batch-{stamp}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
