"""Writes proportional to the change: a one-entry ``tag``, ``rename`` and ``add`` on a large library.

Run from the repository root (``make bench``)::

    .venv/bin/python bench/writes_bench.py               # 7k and 50k entries
    .venv/bin/python bench/writes_bench.py --sizes 7166  # one size
    .venv/bin/python bench/writes_bench.py --no-before   # this tree only

The largest real library beside the repository (a 7,166-entry Better BibTeX export) is
imported into a scratch project; the 50k library repeats it with renamed keys (as
``library_bench.py --only scaling`` builds it). Each command runs as a real process
(start-up included) with a warm parsed-library cache (a ``list``, two ``sync --offline``
and one ``tag`` first, not measured), three times (a new tag, a new key,
a new BibTeX entry each time; and three times the title of a paper the library holds, which ``add`` must
name without writing anything): median wall time and the largest peak resident memory.

Baseline, in the same run: one ``bibtexparser`` parse of the same ``library.bib`` (the
best of two before the commands and two after). The "before" figures are the same
commands run with the ``main`` branch's sources (``git archive main``) on a copy of the
same library, in the same run, the two versions taking turns; skipped when git cannot
give them. Targets (issue 29): one-entry ``tag``/``rename``/``add`` at 50k <= 0.15x a
parse (wall or CPU time, as ``library_bench.py`` judges on this shared machine) and
<= 150 MiB peak.

Results go to ``bench/out/writes-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))
OUT = REPO / "bench" / "out"
TIME = Path("/usr/bin/time")
TIME_TARGET = 0.15
MEMORY_TARGET_MIB = 150


def parse_seconds(bib: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one bibtexparser v2 parse (the best of two)."""
    import bibtexparser

    best: tuple[float, float] | None = None
    for _ in range(2):
        start, cpu = time.perf_counter(), time.process_time()
        bibtexparser.parse_file(str(bib))
        took = (time.perf_counter() - start, time.process_time() - cpu)
        best = took if best is None else (min(best[0], took[0]), min(best[1], took[1]))
    assert best is not None
    return best


def run(src: Path, project: Path, args: list[str]) -> tuple[float, int | None, float | None]:
    """Wall seconds, peak KB and CPU seconds (user + system) of ``citekit -C project ARGS``
    run from the sources ``src``: on a shared machine wall time swings with other people's
    load, CPU time much less."""
    code = "import sys; from citekit.cli import main; sys.exit(main())"
    wrapper = [str(TIME), "-f", "%M %U %S"] if TIME.exists() else []
    env = dict(os.environ, PYTHONPATH=str(src))
    start = time.perf_counter()
    proc = subprocess.run([*wrapper, sys.executable, "-c", code, "-C", str(project), *args], capture_output=True,
                          text=True, env=env)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"citekit {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-800:]}")
    peak = cpu = None
    if wrapper:
        try:
            kb, user, system = proc.stderr.strip().splitlines()[-1].split()
            peak, cpu = int(kb), float(user) + float(system)
        except (ValueError, IndexError):
            peak = cpu = None
    return seconds, peak, cpu


def main_sources(folder: Path, ref: str = "main") -> Path | None:
    """The ``src/`` of ``ref`` (default the ``main`` branch: the "before" of this run), or None."""
    from baseline_src import sources_at

    return sources_at(ref, folder / "main-src")


def build(folder: Path, size: int) -> Path:
    """A project whose library has ``size`` entries (no cache yet)."""
    import library_bench as lb

    project = folder / f"template-{size}"
    project.mkdir()
    (project / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (project / "notes").mkdir()
    base = folder / "template-import"
    if not base.exists():
        base.mkdir()
        (base / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
        (base / "notes").mkdir()
        run(REPO / "src", base, ["import", str(lb.CORPUS)])
    from citekit.library.store import Library

    source = list(Library.load(base / "refs", use_cache=False).entries.values())
    if size == len(source):
        shutil.copytree(base / "refs", project / "refs")
    else:
        lb.build_library(project / "refs", size, source)
    shutil.rmtree(project / ".citekit", ignore_errors=True)
    return project


def bibtex_entry(i: int) -> str:
    return (f"@article{{writesbench{i},\n  title = {{Writes proportional to the change, part {i}}},\n"
            f"  author = {{Lovelace, Ada and Babbage, Charles}},\n  journal = {{Bench Letters}},\n"
            f"  year = {{20{10 + i}}},\n}}")


def measure(sources: dict[str, Path], template: Path, folder: Path, size: int) -> dict[str, dict]:
    """One-entry tag, rename and add (three each) on a copy of ``template`` per sources
    folder (``now``, ``main``), the versions taking turns run by run (a shared machine's
    load then weighs on both alike)."""
    projects = {}
    keys = sorted((template / "refs" / "library.bib").read_text(encoding="utf-8").split("\n@")[1:], key=len)
    key = keys[len(keys) // 2].split("{", 1)[1].split(",", 1)[0]
    titled = (re.search(r"\n  title\s*= \{(.*)\},\n", chunk) for chunk in keys[len(keys) // 3:])
    title = next(m for m in titled if m is not None).group(1).replace("{", "").replace("}", "")
    for label, src in sources.items():
        project = projects[label] = folder / f"{label}-{size}"
        shutil.copytree(template, project)
        # the cache as every day: a command read the files, syncs ran (the first after an
        # import gives every imported entry its rule tags; the next keeps the match index
        # and what the fold derives per entry), and a write stored what it wrote
        run(src, project, ["list", "-q"])
        run(src, project, ["sync", "--offline"])
        run(src, project, ["sync", "--offline"])
        run(src, project, ["tag", key, "+warmup"])
    ops = {
        "tag": [["tag", key, f"+writes{i}"] for i in range(3)],
        "rename": [["rename", *(key if i == 0 else f"{key}-w{i}", f"{key}-w{i + 1}")] for i in range(3)],
        "add --offline (BibTeX)": [["add", "--offline", "-q", bibtex_entry(i)] for i in range(3)],
        # a paper the library holds: named, nothing written
        "add --offline (already there)": [["add", "--offline", "-q", title] for _ in range(3)],
    }
    rows: dict[str, dict] = {label: {} for label in sources}
    for name, commands in ops.items():
        runs: dict[str, list[tuple[float, int | None, float | None]]] = {label: [] for label in sources}
        for args in commands:
            for label, src in sources.items():
                runs[label].append(run(src, projects[label], args))
        for label, done in runs.items():
            peaks = [p for _, p, _ in done if p]
            cpus = [c for _, _, c in done if c is not None]
            rows[label][name] = {"s": round(statistics.median(s for s, _, _ in done), 3),
                                 "cpu_s": round(statistics.median(cpus), 3) if cpus else None,
                                 "peak_mib": round(max(peaks) / 1024, 1) if peaks else None}
    for project in projects.values():
        shutil.rmtree(project)
    return rows


def main(argv: list[str] | None = None) -> int:
    import library_bench as lb

    parser = argparse.ArgumentParser(description="one-entry writes on large libraries (ratios to a parse)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[7166, 50070])
    parser.add_argument("--no-before", action="store_true", help="skip the main branch's figures")
    parser.add_argument("--before", default="main", help="commit whose src/ gives the 'before' figures (default main)")
    args = parser.parse_args(argv)
    if not lb.CORPUS.exists():
        print(f"skipped: {lb.CORPUS.name} is not beside the repository (the corpora folder)")
        return 0
    lb.compile_sources()
    results: dict = {"targets": {"time_ratio": TIME_TARGET, "peak_mib": MEMORY_TARGET_MIB}, "sizes": {}}
    with tempfile.TemporaryDirectory(prefix="citekit-writes-") as tmp:
        folder = Path(tmp)
        before_src = None if args.no_before else main_sources(folder, args.before)
        for size in args.sizes:
            template = build(folder, size)
            parse_s, parse_cpu = parse_seconds(template / "refs" / "library.bib")
            sources = {"now": REPO / "src", **({"main": before_src} if before_src else {})}
            rows = measure(sources, template, folder, size)
            again = parse_seconds(template / "refs" / "library.bib")  # (before and after the commands)
            parse_s, parse_cpu = min(parse_s, again[0]), min(parse_cpu, again[1])
            after, before = rows["now"], rows.get("main")
            results["sizes"][size] = {"parse_s": round(parse_s, 3), "parse_cpu_s": round(parse_cpu, 3),
                                      "after": after, "before": before}
            print(f"{size} entries: one bibtexparser parse {parse_s:.3f} s ({parse_cpu:.3f} s CPU)")

            def figures(row: dict) -> str:
                row["ratio"] = round(row["s"] / parse_s, 3)
                row["cpu_ratio"] = round(row["cpu_s"] / parse_cpu, 3) if row.get("cpu_s") is not None else None
                cpu = f", CPU {row['cpu_s']:.3f} s = {row['cpu_ratio']:.3f}x" if row["cpu_ratio"] is not None else ""
                return f"{row['s']:.3f} s = {row['ratio']:.3f}x{cpu}, {row['peak_mib']} MiB"

            for name, row in after.items():
                shown = figures(row)
                was = f"  (main: {figures(before[name])})" if before else ""
                met = ""
                if size >= 50000:
                    # (as library_bench.py judges: wall or CPU ratio, the machine being shared)
                    best = min(row["ratio"], row["cpu_ratio"] if row["cpu_ratio"] is not None else row["ratio"])
                    ok = best <= TIME_TARGET and (row["peak_mib"] or 0) <= MEMORY_TARGET_MIB
                    met = f"  target <= {TIME_TARGET}x, <= {MEMORY_TARGET_MIB} MiB: " + ("ok" if ok else "MISSED")
                print(f"  one-entry {name:<24} {shown}{met}{was}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "writes-latest.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
