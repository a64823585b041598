"""Benchmark of resolution against services that behave like the real ones.

Run from the repository root::

    .venv/bin/python bench/resolve_latency.py                  # 100 ms per request
    .venv/bin/python bench/resolve_latency.py --latency 0.05 --jobs 8

Every paper mentioned in the bundled ``notes/`` is resolved cold (empty cache) against the
loopback fakes of the conference paper lists, OpenReview, Crossref, dblp and arXiv
(``tests/fakeservices``), with the services' real limits switched on in the fakes
(OpenReview refuses a guest's 21st request in a minute with a 429 that has no
``Retry-After``; every request takes ``--latency`` seconds; the ICML 2026 list holds about
6,300 papers, many with near-identical titles by other authors) and citekit's own
politeness rules as shipped (no ``rate_limits: off``). Then the same notes are resolved
again with the cache the first run filled (a warm re-sync).

Printed figures, each with its target:

- cold wall time (<= 25 s), requests per mention (<= 0.4);
- the smallest gap between the end of an arXiv answer and the next arXiv request (>= 3 s);
- requests of the warm re-sync (0);
- works resolved (>= the figure before the conference lists: 70) and wrong attachments (0),
  judged against the fake world's own truth.

Results go to ``bench/out/resolve-latency-<timestamp>.json`` (and ``resolve-latency-latest.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
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
#: works the same notes resolved before the conference lists existed (same fakes, no limits)
BASELINE_RESOLVED = 70
TARGETS = {"wall_seconds": 25.0, "requests_per_mention": 0.4, "min_arxiv_gap": 3.0}


def run_once(fake: FakeServices, groups: list, jobs: int, cache_dir: Path, *, batch_searches: bool = True,
             pages: bool = True) -> dict:
    """One resolution of ``groups`` with the cache in ``cache_dir``; returns the figures.
    ``batch_searches=False`` sends one arXiv search per work (the behaviour before batching);
    ``pages=False`` leaves out the web source (the pages the notes link are not read), the
    baseline that shows what reading pages costs."""
    fake.clear()
    fake.real_limits()
    env = dict(fake.env(), CITEKIT_CACHE_DIR=str(cache_dir), CITEKIT_MAILTO="bench@example.org")
    settings = SourceSettings.from_env({}, REPO, env=env)
    client = build_client(settings)
    cache = open_cache(settings)
    sources = [s for s in build_sources(settings, client=client, cache=cache) if pages or s.name != "web"]
    start = time.perf_counter()
    report = resolve_groups(groups, sources, jobs=jobs, batch_searches=batch_searches)
    wall = time.perf_counter() - start
    client.close()
    cache.close()
    wrong = []
    for work in report.works:
        if work.status != "resolved" or work.chosen is None:
            continue
        paper = fake.world.meant_paper(work.mentions)
        if paper is None or not fake.world.is_record_of(work.chosen, paper):
            wrong.append(f"{work.mentions[0].location}: {work.chosen.source} {work.chosen.id} \"{work.chosen.title}\"")
    gaps = fake.arxiv_gaps()
    return {
        "wall_seconds": round(wall, 3),
        "requests": fake.requests(),
        "requests_per_service": {s: fake.requests(s) for s in ("conferences", "openreview", "crossref", "dblp", "arxiv", "web")},
        "openreview_refused": fake.refused("openreview"),
        "min_arxiv_gap": round(min(gaps), 3) if gaps else None,
        "statuses": report.counts(),
        "wrong_attachments": wrong,
        "problems": report.problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds added to every request (default 0.1)")
    parser.add_argument("--jobs", type=int, default=8, help="groups resolved at once (default 8)")
    parser.add_argument("--no-baseline", dest="baseline", action="store_false",
                        help="skip the third, cold run without the web source (pages not read)")
    parser.add_argument("--notes", type=Path, default=REPO / "notes", help="notes folder (default notes/)")
    args = parser.parse_args(argv)

    extracted = extract_paths([args.notes], REPO)
    groups = group_mentions(extracted.mentions)
    mentions = len(extracted.mentions)
    print(f"{mentions} mentions in {len(groups)} groups from {args.notes}; latency {args.latency * 1000:.0f} ms "
          "per request; OpenReview 20/min for guests; arXiv 3 s")
    with FakeServices(latency=args.latency) as fake, tempfile.TemporaryDirectory() as tmp:
        cold = run_once(fake, groups, args.jobs, Path(tmp) / "cache")
        warm = run_once(fake, groups, args.jobs, Path(tmp) / "cache")
        unread = run_once(fake, groups, args.jobs, Path(tmp) / "no-pages", pages=False) if args.baseline else None

    per_mention = cold["requests"] / mentions if mentions else 0.0
    rows = [
        ("cold sync wall time", f"{cold['wall_seconds']:.2f} s", f"<= {TARGETS['wall_seconds']:g} s",
         cold["wall_seconds"] <= TARGETS["wall_seconds"]),
        ("requests per mention", f"{per_mention:.2f} ({cold['requests']} requests)",
         f"<= {TARGETS['requests_per_mention']:g}", per_mention <= TARGETS["requests_per_mention"]),
        ("minimum arXiv gap", f"{cold['min_arxiv_gap']:.2f} s" if cold["min_arxiv_gap"] is not None else "- (<= 1 request)",
         f">= {TARGETS['min_arxiv_gap']:g} s", cold["min_arxiv_gap"] is None or cold["min_arxiv_gap"] >= 3.0),
        ("warm re-sync requests", str(warm["requests"]), "0", warm["requests"] == 0),
        ("works resolved", str(cold["statuses"]["resolved"]), f">= {BASELINE_RESOLVED}",
         cold["statuses"]["resolved"] >= BASELINE_RESOLVED),
        ("wrong attachments", str(len(cold["wrong_attachments"])), "0", not cold["wrong_attachments"]),
        ("OpenReview 429 refusals", str(cold["openreview_refused"]), "0", cold["openreview_refused"] == 0),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target, ok in rows:
        print(f"{name:<{width}}  {value:>26}  target {target:<8}  {'ok' if ok else 'MISSED'}")
    print("requests per service:", ", ".join(f"{k} {v}" for k, v in cold["requests_per_service"].items()))
    print("statuses:", ", ".join(f"{k} {v}" for k, v in cold["statuses"].items()))
    if unread is not None:
        print(f"same run, cold without reading pages: {unread['wall_seconds']:.2f} s, {unread['requests']} requests, "
              f"{unread['statuses']['resolved']} resolved, {len(unread['wrong_attachments'])} wrong; with pages: "
              f"{cold['wall_seconds']:.2f} s, {cold['requests']} requests (web {cold['requests_per_service']['web']}), "
              f"{cold['statuses']['resolved']} resolved; warm web requests {warm['requests_per_service']['web']}")
    for line in cold["wrong_attachments"]:
        print("  wrong:", line)
    for line in cold["problems"]:
        print("  problem:", line)

    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"latency_seconds": args.latency, "jobs": args.jobs, "mentions": mentions, "groups": len(groups),
              "requests_per_mention": round(per_mention, 3), "baseline_resolved": BASELINE_RESOLVED,
              "cold": cold, "warm": warm, "cold_without_pages": unread}
    for name in (f"resolve-latency-{stamp}.json", "resolve-latency-latest.json"):
        (OUT / name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written to {OUT / f'resolve-latency-{stamp}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
