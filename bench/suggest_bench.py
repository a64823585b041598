"""How good and how cheap ``citekit suggest`` is on a planted citation graph, against raw counts, in one run.

Run from the repository root::

    .venv/bin/python bench/suggest_bench.py              # the planted world of the tests
    .venv/bin/python bench/suggest_bench.py --seeds 3    # three planted worlds
    .venv/bin/python bench/suggest_bench.py --tag-papers 250   # batching at scale

The world (``tests/fakeservices/graph.py``: :func:`planted`) is a library of 31 papers tagged
``muon`` (one unknown to the service) and 10 tagged ``vision``, citing 10 planted co-cited
works and cited by 5 planted coupling works, with three classics cited by nearly every
paper (and 100,000+ times overall), a dataset, another version of a library paper, library
papers citing each other and 8 noise references per paper. Served by the loopback
Semantic Scholar and OpenAlex fakes: each world is run with Semantic Scholar alone, OpenAlex
alone, and both.

Printed per world: precision@10 of the planted works, whether the 5 strongest planted
works are all in the list (top 20), suggestions already held (target 0), reason counts
checked against the graph (target: all exact), cold requests against the budget
``seeds / 25 + 3``, warm requests (target 0), the ``--mine`` check (a draft citing 4
library papers: the first suggestion is co-cited by the most of them), and the baseline:
the same neighbours ranked by raw tie counts, without the damping for classics or the
recency lift.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

YEAR = 2026


def _node(world, paper) -> str:  # type: ignore[no-untyped-def]
    """The fake world's id of a suggested paper, whichever service named it."""
    for n in world.nodes.values():
        if paper.id in (n.s2, n.openalex):
            return n.s2
    raise KeyError(paper.id)


def _exact(report, world) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    lib = {k: r["node"] for k, r in world.library.items() if r["node"] and "muon" in r["tags"]}
    ok = 0
    for s in report.suggestions:
        pid = _node(world, s.paper)
        cited_by = sorted(k for k, nid in lib.items() if pid in world.nodes[nid].refs)
        cites = sorted(k for k, nid in lib.items() if nid in world.nodes[pid].refs)
        ok += sorted(s.cited_by) == cited_by and sorted(s.cites) == cites
    return ok, len(report.suggestions)


def _baseline(report, world) -> float:  # type: ignore[no-untyped-def]
    """Precision@10 of the raw-count ranking of the same neighbours (ties only, no damping, no recency)."""
    from citekit.library.suggest import ties

    lib = {k: world.nodes[r["node"]] for k, r in world.library.items() if r["node"] and "muon" in r["tags"]}
    from citekit.sources.graph import GraphPaper

    seeds = {k: GraphPaper(id=n.s2, source="semanticscholar", references=list(n.refs),
                           citations=world.citers(n.s2)) for k, n in lib.items()}
    library_nodes = {r["node"] for r in world.library.values()}
    found = ties(seeds)
    ranked = sorted((pid for pid in found if pid not in library_nodes and pid not in world.held
                     and world.nodes[pid].kinds != ["Dataset"]),
                    key=lambda pid: -(len(found[pid][0]) + len(found[pid][1])))
    return sum(pid in world.planted for pid in ranked[:10]) / 10


def run_world(seed: int, sources: list[str], tag_papers: int = 30) -> dict[str, object]:
    from citekit.api.suggesting import suggest
    from tests.fakeservices.graph import FakeGraph, planted, write_project

    world = planted(seed, n_tag=tag_papers)
    with FakeGraph(world) as fake, tempfile.TemporaryDirectory() as tmp:
        os.environ.update(fake.env())
        os.environ["CITEKIT_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["CITEKIT_OPENALEX_API_KEY"] = "bench-key"
        root = write_project(Path(tmp) / "proj", world)
        t0 = time.perf_counter()
        cold = suggest(root, tags=["muon"], limit=20, this_year=YEAR, sources=sources)
        cold_s = time.perf_counter() - t0
        cold_requests = fake.requests()
        fake.clear()
        t0 = time.perf_counter()
        warm = suggest(root, tags=["muon"], limit=20, this_year=YEAR, sources=sources)
        warm_s = time.perf_counter() - t0
        warm_requests = fake.requests()
        top = [_node(world, s.paper) for s in cold.suggestions]
        per_source = dict(cold.requests_by_source)
        held_ids = {r["doi"] for r in world.library.values()} | {r["arxiv"] for r in world.library.values()}
        held_ids.discard(None)
        held = sum(1 for s in cold.suggestions if s.paper.doi in held_ids or s.paper.arxiv in held_ids
                   or _node(world, s.paper) in world.held or not s.paper.is_paper)
        exact, total = _exact(cold, world)
        cited = ["lib3", "lib7", "lib11", "lib19"]
        (root / "main.tex").write_text("".join(f"\\cite{{{k}}} " for k in cited), encoding="utf-8")
        mine = suggest(root, mine="main.tex", limit=10, this_year=YEAR, sources=sources)
        counts: dict[str, int] = {}
        library_nodes = {r["node"] for r in world.library.values()}
        for k in cited:
            for ref in world.nodes[world.library[k]["node"]].refs:
                if ref not in library_nodes and ref not in world.held and world.nodes[ref].kinds != ["Dataset"]:
                    counts[ref] = counts.get(ref, 0) + 1
        mine_ok = bool(mine.suggestions) and len(mine.suggestions[0].cited_by) == max(counts.values())
        return {"seeds": len(cold.seeds), "precision@10": sum(p in world.planted for p in top[:10]) / 10,
                "top5 planted found": set(world.planted[:5]) <= set(top), "held": held,
                "exact reasons": f"{exact}/{total}", "cold requests": cold_requests, "per source": per_source,
                "budget": len(cold.seeds) // 25 + 3, "warm requests": warm_requests,
                "mine first co-cited by most": mine_ok, "baseline precision@10": _baseline(cold, world),
                "classics ranks": [s.rank for s in cold.suggestions if s.classic],
                "cold s": round(cold_s, 3), "warm s": round(warm_s, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=1, help="how many planted worlds (random seeds 7, 8, ...)")
    parser.add_argument("--tag-papers", type=int, default=30,
                        help="papers tagged muon in each world (plus one the services do not know)")
    args = parser.parse_args()
    failed = False
    for i in range(args.seeds):
        for sources in (["semanticscholar"], ["openalex"], ["semanticscholar", "openalex"]):
            row = run_world(7 + i, sources, args.tag_papers)
            print(f"world {7 + i} {'+'.join(sources)}: " + ", ".join(f"{k} {v}" for k, v in row.items()))
            failed |= not (row["precision@10"] >= 0.8 and row["top5 planted found"] and row["held"] == 0
                           and all(n <= row["budget"] for n in row["per source"].values())  # type: ignore[union-attr]
                           and row["warm requests"] == 0 and row["mine first co-cited by most"])
    print("targets: precision@10 >= 0.8, top-5 planted found, 0 held, cold <= seeds/25 + 3 per source, warm 0:",
          "missed" if failed else "met")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
