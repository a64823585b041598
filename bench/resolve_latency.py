"""Benchmark of resolution latency: how much the thread pool hides network round trips.

Run from the repository root::

    .venv/bin/python bench/resolve_latency.py                  # 100 ms per request
    .venv/bin/python bench/resolve_latency.py --latency 0.05 --jobs 1 4 8 16

Every paper mentioned in the bundled ``notes/`` is resolved cold (empty cache) against the
loopback fake of OpenReview, Crossref, dblp and arXiv (``tests/fakeservices``), which adds
a fixed latency to each request. The sources' request spacing is switched off and their
per-host parallelism raised to the number of jobs, so the run measures the pipeline and
not the politeness rules meant for the real services; one more row keeps the default
per-host parallelism (OpenReview 2, Crossref 3, dblp and arXiv 1) to show what those cost.

For each run the table shows the wall time, the requests sent, and the ratio of the wall
time to the ideal ``latency × requests / jobs`` (1.0 = perfectly overlapped; the ideal
ignores that one paper's requests are sequential, so ratios above 1 are expected).
Results go to ``bench/out/resolve-latency-<timestamp>.json`` (and ``resolve-latency-latest.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from citekit.notes import extract_paths, group_mentions  # noqa: E402
from citekit.resolve.pipeline import resolve_groups  # noqa: E402
from citekit.sources import SourceSettings, build_client, build_sources, open_cache  # noqa: E402
from tests.fakeservices import FakeServices  # noqa: E402

OUT = REPO / "bench" / "out"


def run_once(fake: FakeServices, groups: list, jobs: int, *, polite: bool) -> dict:
    """One cold resolution of ``groups``; returns the measured figures."""
    fake.clear()
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({}, REPO, env=env)
    settings.cache_dir = None  # cold: an in-memory cache that starts empty
    if not polite:
        for policy in settings.policies.values():
            policy.concurrency = max(jobs, 1)
    client = build_client(settings)
    sources = build_sources(settings, client=client, cache=open_cache(settings))
    start = time.perf_counter()
    report = resolve_groups(groups, sources, jobs=jobs)
    wall = time.perf_counter() - start
    client.close()
    requests = fake.requests()
    ideal = fake.latency * requests / jobs
    return {
        "jobs": jobs,
        "per_host_parallelism": "default" if polite else f"= jobs ({jobs})",
        "wall_seconds": round(wall, 3),
        "requests": requests,
        "requests_per_service": {s: fake.requests(s) for s in ("openreview", "crossref", "dblp", "arxiv")},
        "client_requests": client.stats.total,
        "ideal_seconds": round(ideal, 3),
        "ratio_to_ideal": round(wall / ideal, 2) if ideal else None,
        "statuses": report.counts(),
        "problems": report.problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds added to every request (default 0.1)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 8], help="pool sizes to measure (default 1 8)")
    parser.add_argument("--notes", type=Path, default=REPO / "notes", help="notes folder (default notes/)")
    args = parser.parse_args(argv)

    extracted = extract_paths([args.notes], REPO)
    groups = group_mentions(extracted.mentions)
    print(f"{len(extracted.mentions)} mentions in {len(groups)} groups from {args.notes}; "
          f"latency {args.latency * 1000:.0f} ms per request")
    rows = []
    with FakeServices(latency=args.latency) as fake:
        for jobs in args.jobs:
            rows.append(run_once(fake, groups, jobs, polite=False))
        rows.append(run_once(fake, groups, max(args.jobs), polite=True))

    header = f"{'jobs':>4}  {'per-host':>10}  {'wall s':>7}  {'requests':>8}  {'ideal s':>7}  {'ratio':>5}  statuses"
    print(header)
    print("-" * len(header))
    for r in rows:
        statuses = ", ".join(f"{k} {v}" for k, v in r["statuses"].items())
        print(f"{r['jobs']:>4}  {r['per_host_parallelism']:>10}  {r['wall_seconds']:>7.2f}  {r['requests']:>8}  "
              f"{r['ideal_seconds']:>7.2f}  {r['ratio_to_ideal'] if r['ratio_to_ideal'] is not None else '-':>5}  {statuses}")
    base = next(r for r in rows if r["jobs"] == min(args.jobs))
    best = rows[len(args.jobs) - 1]
    speedup = base["wall_seconds"] / best["wall_seconds"] if best["wall_seconds"] else None
    if speedup:
        print(f"speed-up jobs={best['jobs']} over jobs={base['jobs']}: {speedup:.1f}x")

    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"latency_seconds": args.latency, "mentions": len(extracted.mentions), "groups": len(groups),
              "runs": rows, "speedup": round(speedup, 2) if speedup else None}
    for name in (f"resolve-latency-{stamp}.json", "resolve-latency-latest.json"):
        (OUT / name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written to {OUT / f'resolve-latency-{stamp}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
