"""Benchmark of batched arXiv searches: a cold sync of the bundled notes, batched and not.

Run from the repository root::

    .venv/bin/python bench/arxiv_batch_bench.py            # 100 ms per request, 3 alternating rounds

Every paper of the bundled ``notes/`` is resolved cold (empty cache) against the loopback
fakes with the services' real limits (arXiv: 3 s between the end of an answer and the next
request; OpenReview: 20 a minute for guests), twice per round in alternating order: with the
arXiv searches batched (one OR'ed ``search_query`` for the works that need one, the default)
and without (one request per work: the behaviour before batching, the baseline). Printed,
medians over the rounds, each next to its baseline and target:

- cold wall time (<= 8 s), requests per mention (<= 0.2), arXiv requests;
- works resolved (the same as the baseline) and wrong attachments (0), judged against the
  fake world's own truth.

Results go to ``bench/out/arxiv-batch-<timestamp>.json`` (and ``arxiv-batch-latest.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from citekit.notes import extract_paths, group_mentions  # noqa: E402
from resolve_latency import run_once  # noqa: E402
from tests.fakeservices import FakeServices  # noqa: E402

OUT = REPO / "bench" / "out"
TARGETS = {"wall_seconds": 8.0, "requests_per_mention": 0.2}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds added to every request (default 0.1)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--notes", type=Path, default=REPO / "notes", help="notes folder (default notes/)")
    args = parser.parse_args(argv)

    extracted = extract_paths([args.notes], REPO)
    groups = group_mentions(extracted.mentions)
    mentions = len(extracted.mentions)
    print(f"{mentions} mentions in {len(groups)} groups; latency {args.latency * 1000:.0f} ms per request; "
          f"real limits; {args.rounds} alternating rounds, medians")
    runs: dict[str, list[dict]] = {"batched": [], "unbatched": []}
    with FakeServices(latency=args.latency) as fake:
        for n in range(args.rounds):
            order = ("batched", "unbatched") if n % 2 == 0 else ("unbatched", "batched")
            for mode in order:
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

    rows = [
        ("cold sync wall time", f"{median('batched', 'wall_seconds'):.2f} s",
         f"{median('unbatched', 'wall_seconds'):.2f} s", f"<= {TARGETS['wall_seconds']:g} s",
         median("batched", "wall_seconds") <= TARGETS["wall_seconds"]),
        ("requests per mention", f"{per_mention('batched'):.3f}", f"{per_mention('unbatched'):.3f}",
         f"<= {TARGETS['requests_per_mention']:g}", per_mention("batched") <= TARGETS["requests_per_mention"]),
        ("arXiv requests", f"{arxiv('batched'):g}", f"{arxiv('unbatched'):g}", "fewer",
         arxiv("batched") <= arxiv("unbatched")),
        ("works resolved", str(resolved("batched")), str(resolved("unbatched")), "same",
         resolved("batched") == resolved("unbatched")),
        ("wrong attachments", str(wrong("batched")), str(wrong("unbatched")), "0", wrong("batched") == 0),
    ]
    print(f"{'':<22}  {'batched':>10}  {'unbatched':>10}  target")
    for name, value, base, target, ok in rows:
        print(f"{name:<22}  {value:>10}  {base:>10}  {target:<8}  {'ok' if ok else 'MISSED'}")
    for mode in runs:
        for line in runs[mode][0]["wrong_attachments"]:
            print(f"  wrong ({mode}):", line)

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
