"""An online sync that changes nothing, on real-size libraries, before and after, same run.

Run from the repository root (``make bench``)::

    .venv/bin/python bench/nochange_sync_bench.py                 # 7k and 50k entries
    .venv/bin/python bench/nochange_sync_bench.py --sizes 7166    # the real library only
    .venv/bin/python bench/nochange_sync_bench.py --before none   # this tree only

A project holds the bundled notes (they always leave some papers unresolved and some
mentions pending) and a library of the largest real Better BibTeX export beside the
repository (7,166 entries, imported with ``citekit import``) or of that library repeated
with renamed keys to 50,000 entries (as ``bench/library_bench.py`` builds it). The
services are the loopback fakes of ``tests/fakeservices`` (one set for the whole run, so
every sync sees the same addresses). Each project syncs online once (answers cached),
once more (the first sync that changes nothing), and then three more times: the daily
"nothing changed" sync, median wall and CPU time, peak resident memory, and the requests
it made (must be 0). Then, three times, one notes file is saved with the same text (its
stat changes, so the sync runs in full and finds nothing to change): the sync's full
path, no target of its own.

Baseline, same run: one ``bibtexparser`` parse of the project's ``library.bib`` in this
process, and ``citekit tags`` (a read-only command) on the same project for memory.
Targets (issue 29): the no-change sync <= 0.3x a parse at 7k, <= 0.1x at 50k, peak memory
<= 2x the read-only command's. ``--before REF`` (default: the merge base with ``main``)
runs the same measurement with that commit's ``src/`` (extracted with ``git archive``)
on copies of the same projects, so the figure before the change is measured beside it.

Results go to ``bench/out/nochange-sync-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import library_bench as lb  # noqa: E402

OUT = REPO / "bench" / "out"
TARGETS = {7166: 0.3, 50000: 0.1}
MEMORY_TARGET = 2.0


def cli(src: Path | None) -> tuple[list[str], dict[str, str]]:
    """The command that runs citekit from ``src`` (None: this tree, as installed)."""
    if src is None:
        return lb.citekit_cmd(), {}
    return [sys.executable, "-c", "import sys; from citekit.cli import main; sys.exit(main())"], {"PYTHONPATH": str(src)}


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int | None, str]:
    """Wall seconds, CPU seconds, peak RSS (KB) and stdout of one process."""
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.run([str(lb.TIME), "-f", "%M", *cmd], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd[-4:])} failed ({proc.returncode}): {proc.stderr[-800:]}")
    try:
        peak = int(proc.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        peak = None
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, peak, proc.stdout


def make_project(folder: Path, size: int) -> Path:
    project = folder / f"p{size}"
    shutil.copytree(REPO / "notes", project / "notes")
    (project / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    if size <= 7166:
        subprocess.run([*lb.citekit_cmd(), "-C", str(project), "import", str(lb.CORPUS)], capture_output=True)
    else:
        from citekit.bibtex.reader import read_bib_file

        lb.build_library(project / "refs", size, read_bib_file(lb.CORPUS).entries)
    return project


def measure(project: Path, src: Path | None, fake, base_env: dict[str, str], repeats: int) -> dict:
    """The syncs of one project with the citekit of ``src``."""
    cmd, extra = cli(src)
    env = {**base_env, **extra, "CITEKIT_CACHE_DIR": str(project / "lookup-cache")}
    ck = [*cmd, "-C", str(project)]
    first = run([*ck, "sync", "-q"], env)
    second = run([*ck, "sync", "-q"], env)  # the first that changes nothing
    rows = []
    for _ in range(repeats):
        asked = fake.requests()
        wall, cpu, peak, out = run([*ck, "sync", "--json"], env)
        data = json.loads(out)
        rows.append({"wall": wall, "cpu": cpu, "peak_kb": peak, "requests": data["requests"],
                     "served": fake.requests() - asked, "changed": data["changed"],
                     "up_to_date": data["up_to_date"], "pending": len(data["pending"])})
    # a notes file saved with the same text: the inputs' stat changed, so the sync runs in
    # full, and finds nothing to change (median of 3)
    touched = []
    for i in range(3):
        notes = sorted(p for p in (project / "notes").rglob("*") if p.is_file())
        note = notes[i % len(notes)]
        os.utime(note, ns=(time.time_ns(), time.time_ns()))
        asked = fake.requests()
        wall, cpu, peak, out = run([*ck, "sync", "--json"], env)
        data = json.loads(out)
        touched.append((wall, cpu, peak, data["requests"] + fake.requests() - asked, data["changed"] or data["up_to_date"]))
    tags = [run([*ck, "tags"], env) for _ in range(3)]
    return {"first_sync_s": round(first[0], 3), "second_sync_s": round(second[0], 3),
            "wall_s": round(statistics.median(r["wall"] for r in rows), 3),
            "cpu_s": round(statistics.median(r["cpu"] for r in rows), 3),
            "peak_kb": max(r["peak_kb"] or 0 for r in rows),
            "requests": sum(r["requests"] + r["served"] for r in rows),
            "changed": any(r["changed"] for r in rows), "replayed": all(r["up_to_date"] for r in rows),
            "pending": rows[-1]["pending"],
            "full_s": round(statistics.median(t[0] for t in touched), 3),
            "full_cpu_s": round(statistics.median(t[1] for t in touched), 3),
            "full_peak_kb": max(t[2] or 0 for t in touched),
            "full_requests": sum(t[3] for t in touched), "full_changed_or_replayed": any(t[4] for t in touched),
            "read_only_peak_kb": max(t[2] or 0 for t in tags),
            "read_only_s": round(statistics.median(t[0] for t in tags), 3)}


def before_src(ref: str, folder: Path) -> Path | None:
    if ref == "none":
        return None
    base = subprocess.run(["git", "-C", str(REPO), "merge-base", "HEAD", ref] if ref == "main" else
                          ["git", "-C", str(REPO), "rev-parse", ref], capture_output=True, text=True)
    commit = base.stdout.strip()
    if base.returncode != 0 or not commit:
        print(f"  (no 'before' figures: {ref} is not a commit here)")
        return None
    from baseline_src import sources_at

    return sources_at(commit, folder / "before")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="an online sync that changes nothing (ratios)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7166, 50000])
    parser.add_argument("--before", default="main", help="commit whose src/ gives the 'before' figure, or 'none'")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if not lb.CORPUS.exists():
        print(f"skipped: {lb.CORPUS.name} is not beside the repository (the corpora folder)")
        return 0
    from tests.fakeservices import FakeServices

    lb.compile_sources()
    results: dict = {"sizes": {}}
    with tempfile.TemporaryDirectory(prefix="citekit-nochange-") as tmp, FakeServices() as fake:
        folder = Path(tmp)
        old = before_src(args.before, folder)
        base_env = {**os.environ, **fake.env(), "CITEKIT_RATE_LIMITS": "off", "CITEKIT_MAILTO": "bench@example.org"}
        base_env.pop("PYTHONPATH", None)
        print("online sync that changes nothing (bundled notes, loopback services), ratio to one bibtexparser parse:")
        for size in args.sizes:
            project = make_project(folder, size)
            entries = size if size > 7166 else sum(1 for line in (project / "refs" / "library.bib").open(encoding="utf-8")
                                                   if line.startswith("@"))
            copy = None
            if old is not None:
                copy = folder / f"before-{size}"
                shutil.copytree(project, copy)
            parse_s, parse_cpu = min(lb.parse_baseline(project / "refs" / "library.bib") for _ in range(2))
            after = measure(project, None, fake, base_env, args.repeats)
            row = {"entries": entries, "parse_s": round(parse_s, 3), "parse_cpu_s": round(parse_cpu, 3),
                   "after": after, "target": TARGETS.get(size, 0.1 if size >= 50000 else 0.3)}
            if copy is not None:
                row["before"] = measure(copy, old, fake, base_env, max(1, args.repeats - 1))
            for name in ("before", "after"):
                if name in row:
                    r = row[name]
                    r["ratio"] = round(r["wall_s"] / parse_s, 3)
                    r["cpu_ratio"] = round(r["cpu_s"] / parse_cpu, 3)
                    r["memory_ratio"] = round(r["peak_kb"] / r["read_only_peak_kb"], 3) if r["read_only_peak_kb"] else None
                    r["full_ratio"] = round(r["full_s"] / parse_s, 3)
                    r["full_cpu_ratio"] = round(r["full_cpu_s"] / parse_cpu, 3)
            a = row["after"]
            row["met"] = (min(a["ratio"], a["cpu_ratio"]) <= row["target"] and not a["requests"] and not a["changed"]
                          and (a["memory_ratio"] or 0) <= MEMORY_TARGET)
            results["sizes"][str(size)] = row
            print(f"  {entries} entries; one parse {row['parse_s']} s ({row['parse_cpu_s']} s CPU)")
            for name in ("before", "after"):
                if name not in row:
                    continue
                r = row[name]
                print(f"    {name:<6} {r['wall_s']:.3f} s = {r['ratio']:.3f}x, CPU {r['cpu_s']:.3f} s = {r['cpu_ratio']:.3f}x; "
                      f"peak {r['peak_kb'] // 1024} MiB = {r['memory_ratio']}x `tags` ({r['read_only_peak_kb'] // 1024} MiB); "
                      f"requests {r['requests']}, replayed {r['replayed']}, {r['pending']} pending "
                      f"(first sync {r['first_sync_s']} s, first no-change sync {r['second_sync_s']} s)")
            for name in ("before", "after"):
                if name in row:
                    r = row[name]
                    print(f"    {name:<6} in full after a notes file was saved unchanged: {r['full_s']:.3f} s = "
                          f"{r['full_ratio']:.3f}x, CPU {r['full_cpu_s']:.3f} s = {r['full_cpu_ratio']:.3f}x; peak "
                          f"{r['full_peak_kb'] // 1024} MiB; requests {r['full_requests']}"
                          + ("" if not r["full_changed_or_replayed"] else " (CHANGED or replayed: not a full no-op run)"))
            print(f"    target <= {row['target']}x a parse, <= {MEMORY_TARGET}x the read-only command's memory, "
                  f"no request: {'ok' if row['met'] else 'MISSED'}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "nochange-sync-latest.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
