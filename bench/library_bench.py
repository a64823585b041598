"""Speed of daily commands on a real-size library, as ratios to baselines of the same run.

Run from the repository root (``make bench``)::

    .venv/bin/python bench/library_bench.py            # everything (several minutes)
    .venv/bin/python bench/library_bench.py --quick    # smaller scaling sizes

1. The largest real library beside the repository (a 7,166-entry Better BibTeX export,
   ``Unabbreviate_on_import_1436-3.bib``) is imported with the bundled notes into a
   scratch project (the import three times, into fresh projects: median, wall and CPU). Each read-only command and a no-op ``sync --offline`` run as real
   processes (start-up included), first once with no ``.citekit/`` (cold: the
   parsed-library cache is rebuilt) and then as they run every day (warm; median of 3),
   then once after a ``touch`` of both files and once after a hand edit of one entry.
   Baseline: one ``bibtexparser`` parse of the same ``library.bib`` in this process.
   Targets: read-only commands <= 0.2x, no-op sync <= 0.3x, import <= 2x. Then three
   ``tag`` writes, and ``list --json`` right after one entry of ``library.bib`` was
   edited by hand (both files parsed again; the other entries' derived values kept).
2. Scaling: the same library repeated with renamed keys to 1k ... 50k entries; load +
   write with one entry changed (looked up and changed as ``citekit tag`` does) through
   the cache (daily path), right after a hand edit of one entry's title in ``library.bib``
   (the first run after a change), and without any cache (a full parse), per entry. At 50k: citekit's load + write against ``bibtex-tidy`` (npm) on the same file,
   time and peak memory (target <= 0.25x time, <= 0.5x memory; "skipped: no node" when
   npm is missing).
3. Sync from 100 to 10,000 works of notes (offline): time per work must stay flat; then
   the same sync twice more (the first runs in full and changes nothing, the second is
   replayed from the sync stamp).

Results go to ``bench/out/library-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
CORPUS = REPO.parent / "shared" / "corpora" / "bibtex-tidy-fixtures" / "better-bibtex" / "Unabbreviate_on_import_1436-3.bib"
OUT = REPO / "bench" / "out"
NPM_DIR = OUT / "npm"
TIME = Path("/usr/bin/time")


def citekit_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("citekit")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "citekit.cli"]


#: CPU seconds (user + system) of the last process :func:`timed` ran: on a shared machine
#: wall time swings with other people's load, CPU time much less
LAST_CPU: list[float] = [0.0]


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, int | None]:
    """Wall seconds and peak resident memory (KB, when /usr/bin/time is there) of a process."""
    wrapper = [str(TIME), "-f", "%M %U %S"] if TIME.exists() else []
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.run([*wrapper, *cmd], cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = os.times()
    LAST_CPU[0] = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    peak = None
    if wrapper:
        try:
            peak = int(proc.stderr.strip().splitlines()[-1].split()[0])
        except (ValueError, IndexError):
            peak = None
    return seconds, peak


def parse_baseline(bib: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one bibtexparser parse."""
    import bibtexparser

    start, cpu = time.perf_counter(), time.process_time()
    bibtexparser.parse_file(str(bib))
    return time.perf_counter() - start, time.process_time() - cpu


# ---- part 1: daily commands -------------------------------------------------------------

def compile_sources() -> None:
    """Byte-compile citekit as an installed package is: with PYTHONDONTWRITEBYTECODE set
    (some shells and CI images set it) every run would otherwise compile the sources again
    and measure the compiler, not citekit."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "src")], capture_output=True, check=False)


_EDITS = [0]


def hand_edit(bib: Path, nth: int | None = None) -> str:
    """Change one entry's title in ``library.bib`` as a person would in an editor (a
    different entry and a different word each time); returns that entry's key."""
    import re

    text = bib.read_text(encoding="utf-8")
    titles = [m for m in re.finditer(r"^@\w+\{([^,]+),\n(?:.*\n)*?  title +=  ?\{(.*)\},$", text, re.M)]
    _EDITS[0] += 1
    m = titles[(nth if nth is not None else _EDITS[0] * 7919) % len(titles)]
    bib.write_text(text[:m.end(2)] + f" (edited {_EDITS[0]})" + text[m.end(2):], encoding="utf-8")
    return m.group(1)


def daily_commands(folder: Path) -> dict:
    compile_sources()
    project = folder / "daily"
    shutil.copytree(REPO / "notes", project / "notes")
    (project / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    ck = [*citekit_cmd(), "-C", str(project)]
    # the import three times (the daily project's, then two scratch projects): median
    imports = [(*timed([*ck, "import", str(CORPUS)]), LAST_CPU[0])]
    for i in range(2):
        scratch = folder / f"import-{i}"
        scratch.mkdir()
        imports.append((*timed([*citekit_cmd(), "-C", str(scratch), "import", str(CORPUS)]), LAST_CPU[0]))
        shutil.rmtree(scratch)
    import_s = statistics.median(run[0] for run in imports)
    import_cpu = statistics.median(run[2] for run in imports)
    import_kb = max(run[1] or 0 for run in imports) or None
    timed([*ck, "sync", "--offline", "-q"])
    bib = project / "refs" / "library.bib"
    baseline, baseline_cpu = min(parse_baseline(bib) for _ in range(2))
    from citekit.library.store import Library

    keys = sorted(Library.load(project / "refs").entries)
    key = keys[len(keys) // 2]
    paper = project / "paper.tex"
    paper.write_text("\\documentclass{article}\\begin{document}\n"
                     + "".join(f"\\cite{{{k}}}\n" for k in keys[::50]) + "\\cite{nosuchkey}\n\\end{document}\n",
                     encoding="utf-8")
    commands = {
        "--version": ["--version"],
        "list --json": ["list", "--json"],
        "list": ["list"],
        "list --tag physics": ["list", "--tag", "physics"],
        f"show {key}": ["show", key],
        "tags": ["tags"],
        "export -o": ["export", "-o", str(folder / "export.bib")],
        "export (stdout)": ["export"],
        "check paper.tex": ["check", str(paper)],
        "no-op sync --offline": ["sync", "--offline", "-q"],
    }
    rows = {}
    for name, args in commands.items():
        (project / ".citekit").exists() and shutil.rmtree(project / ".citekit")
        cold, _ = timed([*ck, *args])
        cold_cpu = LAST_CPU[0]
        warm, cpus = [], []
        for _ in range(3):
            warm.append(timed([*ck, *args]))
            cpus.append(LAST_CPU[0])
        warm_s = statistics.median(w[0] for w in warm)
        cpu_s = statistics.median(cpus)
        # the first run after refs/ changed outside citekit: a touch (same bytes), then a
        # hand edit of one entry's title (as after `git pull` or an edit in an editor)
        for path in (bib, project / "refs" / "library.yaml"):
            path.touch()
        touched, _ = timed([*ck, *args])
        touched_cpu = LAST_CPU[0]
        hand_edit(bib)
        edited, _ = timed([*ck, *args])
        edited_cpu = LAST_CPU[0]
        target = 0.3 if "sync" in name else 0.2
        rows[name] = {"cold_s": round(cold, 3), "cold_cpu_s": round(cold_cpu, 3),
                      "touched_s": round(touched, 3), "touched_cpu_s": round(touched_cpu, 3),
                      "hand_edit_s": round(edited, 3), "hand_edit_cpu_s": round(edited_cpu, 3),
                      "hand_edit_ratio": round(edited / baseline, 3),
                      "hand_edit_cpu_ratio": round(edited_cpu / baseline_cpu, 3),
                      "warm_s": round(warm_s, 3), "cpu_s": round(cpu_s, 3),
                      "peak_kb": warm[-1][1], "ratio": round(warm_s / baseline, 3),
                      "cpu_ratio": round(cpu_s / baseline_cpu, 3), "target": target,
                      "met": min(warm_s / baseline, cpu_s / baseline_cpu) <= target}
    tags = []
    for i in range(3):
        tags.append((timed([*ck, "tag", key, f"+bench{i}"])[0], LAST_CPU[0]))
    tag_s, tag_cpu = statistics.median(t[0] for t in tags), statistics.median(t[1] for t in tags)
    rows[f"tag {key} +x (writes)"] = {"warm_s": round(tag_s, 3), "cpu_s": round(tag_cpu, 3),
                                      "ratio": round(tag_s / baseline, 3), "cpu_ratio": round(tag_cpu / baseline_cpu, 3)}
    # a hand edit of one entry: the files are parsed again, derived values of the others kept
    timed([*ck, "list", "--json"])  # (the rows as every day: stored)
    text = bib.read_text(encoding="utf-8")
    at = text.index("title", text.index("{" + key + ","))
    bib.write_text(text[:at] + text[at:].replace("{", "{Edited ", 1), encoding="utf-8")
    edit_s, _ = timed([*ck, "list", "--json"])
    rows["list --json, first run after a hand edit"] = {"warm_s": round(edit_s, 3), "cpu_s": round(LAST_CPU[0], 3),
                                                       "ratio": round(edit_s / baseline, 3),
                                                       "cpu_ratio": round(LAST_CPU[0] / baseline_cpu, 3)}
    bib.write_text(text, encoding="utf-8")
    return {"entries": len(keys), "bibtexparser_parse_s": round(baseline, 3),
            "bibtexparser_parse_cpu_s": round(baseline_cpu, 3), "import_s": round(import_s, 3),
            "import_ratio": round(import_s / baseline, 3), "import_cpu_s": round(import_cpu, 3),
            "import_cpu_ratio": round(import_cpu / baseline_cpu, 3), "import_peak_kb": import_kb, "commands": rows}


# ---- part 2: scaling and bibtex-tidy ------------------------------------------------------

def build_library(refs: Path, size: int, source) -> None:
    """``size`` entries: the real library repeated, keys renamed (``key-r2``), titles marked."""
    from citekit.library.store import Library
    from citekit.core.model import Entry

    lib = Library(refs_dir=refs)
    n = 0
    copy = 0
    while n < size:
        for entry in source:
            if n >= size:
                break
            key = entry.key if copy == 0 else f"{entry.key}-r{copy}"
            fields = dict(entry.fields)
            if copy:
                fields["title"] = f"{fields.get('title', '')} (copy {copy})"
            e = Entry(key=key, entry_type=entry.entry_type, fields=fields, status="resolved", origin="import",
                      tags_added=list(entry.tags_added))
            lib.entries[key] = e
            n += 1
        copy += 1
    lib.issued_keys = set(lib.entries)
    lib.save()


LOAD_WRITE = """
import resource, sys, time
sys.path.insert(0, {src!r})
t = time.perf_counter()
from citekit.library.store import Library
lib = Library.load({refs!r}, use_cache={cache})
lib.get(lib.sorted_keys()[0]).tags_added.append("touched")  # as `citekit tag` does
lib.save()
print(time.perf_counter() - t)
"""


def load_write(refs: Path, cache: bool) -> tuple[float, int | None]:
    code = LOAD_WRITE.format(src=str(REPO / "src"), refs=str(refs), cache=cache)
    wrapper = [str(TIME), "-f", "%M"] if TIME.exists() else []
    start = time.perf_counter()
    proc = subprocess.run([*wrapper, sys.executable, "-c", code], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-800:])
    peak = int(proc.stderr.strip().splitlines()[-1]) if wrapper else None
    return seconds, peak


def bibtex_tidy() -> Path | None:
    exe = NPM_DIR / "node_modules" / ".bin" / "bibtex-tidy"
    if exe.exists():
        return exe
    if not shutil.which("npm") or not shutil.which("node"):
        return None
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", "bibtex-tidy"], cwd=NPM_DIR,
                   capture_output=True, timeout=600)
    return exe if exe.exists() else None


def scaling(folder: Path, sizes: list[int]) -> dict:
    from citekit.bibtex.reader import read_bib_file
    from citekit.library.store import Library

    project = folder / "daily"
    source = list(Library.load(project / "refs").entries.values())
    if not source:
        source = read_bib_file(CORPUS).entries
    rows = []
    for size in sizes:
        refs = folder / f"lib{size}" / "refs"
        build_library(refs, size, source)
        load_write(refs, cache=True)  # first run after the change fills the cache
        warm = min(load_write(refs, cache=True)[0] for _ in range(2))
        hand_edit(refs / "library.bib", nth=size // 3)  # then the first run after a hand edit
        edited = load_write(refs, cache=True)[0]
        cold = load_write(refs, cache=False)[0] if size <= 25000 or len(sizes) > 3 else None
        rows.append({"entries": size, "warm_load_write_s": round(warm, 3),
                     "warm_ms_per_1k": round(1000 * warm / (size / 1000), 1),
                     "hand_edit_load_write_s": round(edited, 3),
                     "hand_edit_ms_per_1k": round(1000 * edited / (size / 1000), 1),
                     "cold_load_write_s": round(cold, 3) if cold else None,
                     "cold_ms_per_1k": round(1000 * cold / (size / 1000), 1) if cold else None})
    out: dict = {"rows": rows}
    if len(rows) >= 2:
        a, b = rows[-2], rows[-1]
        out["warm_growth_exponent"] = round(math.log(b["warm_load_write_s"] / a["warm_load_write_s"])
                                            / math.log(b["entries"] / a["entries"]), 2)
        if a["cold_load_write_s"] and b["cold_load_write_s"]:
            out["cold_growth_exponent"] = round(math.log(b["cold_load_write_s"] / a["cold_load_write_s"])
                                                / math.log(b["entries"] / a["entries"]), 2)
    biggest = folder / f"lib{sizes[-1]}" / "refs"
    tidy = bibtex_tidy()
    if tidy is None:
        out["bibtex_tidy"] = "skipped: no node"
        return out
    src = biggest / "library.bib"
    tidy_s, tidy_kb = timed([str(tidy), str(src), "-o", str(folder / "tidy-out.bib")])
    warm_s, warm_kb = load_write(biggest, cache=True)
    full_s, full_kb = load_write(biggest, cache=False)
    out["bibtex_tidy"] = {"entries": sizes[-1], "tidy_s": round(tidy_s, 3), "tidy_peak_kb": tidy_kb,
                          "full_parse_s": round(full_s, 3), "full_parse_peak_kb": full_kb,
                          "full_parse_time_ratio": round(full_s / tidy_s, 3),
                          "citekit_s": round(warm_s, 3), "citekit_peak_kb": warm_kb,
                          "time_ratio": round(warm_s / tidy_s, 3),
                          "memory_ratio": round(warm_kb / tidy_kb, 3) if warm_kb and tidy_kb else None}
    return out


# ---- part 3: sync scaling ------------------------------------------------------------------

WORDS = ("sparse adaptive robust neural gradient kernel quantum stochastic latent spectral graph convex federated "
         "causal bayesian optimal diffusion transformer attention pruning distillation curvature momentum").split()
NAMES = ("Ann Lee", "Bo Chen", "Cyril Dubois", "Dana Ivanova", "Emil Novak", "Farah Khan", "Goro Sato")


def notes_with(works: int, seed: int = 5) -> str:
    rnd = random.Random(seed)
    parts = []
    for i in range(works):
        title = " ".join(rnd.choice(WORDS) for _ in range(7)).capitalize() + f" number {i}"
        parts.append(f"## {title}\nAuthors: {rnd.choice(NAMES)}, {rnd.choice(NAMES)}\n")
    return "\n".join(parts)


def sync_scaling(folder: Path, sizes: list[int]) -> dict:
    rows = []
    for works in sizes:
        project = folder / f"sync{works}"
        (project / "notes").mkdir(parents=True)
        (project / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
        (project / "notes" / "talks.md").write_text(notes_with(works), encoding="utf-8")
        ck = [*citekit_cmd(), "-C", str(project)]
        first, _ = timed([*ck, "sync", "--offline", "-q"])
        noop, _ = timed([*ck, "sync", "--offline", "-q"])  # runs in full, finds nothing to change
        replay, _ = timed([*ck, "sync", "--offline", "-q"])  # the same inputs again: replayed
        rows.append({"works": works, "first_sync_s": round(first, 3), "noop_sync_s": round(noop, 3),
                     "replayed_sync_s": round(replay, 3), "first_ms_per_work": round(1000 * first / works, 2)})
    out: dict = {"rows": rows}
    if len(rows) >= 2:
        a, b = rows[-2], rows[-1]
        out["first_growth_exponent"] = round(math.log(b["first_sync_s"] / a["first_sync_s"])
                                             / math.log(b["works"] / a["works"]), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="citekit library speed (ratios)")
    parser.add_argument("--quick", action="store_true", help="scaling up to 10k entries and 2k works")
    parser.add_argument("--only", choices=["daily", "scaling", "sync"], default=None)
    args = parser.parse_args(argv)
    if not CORPUS.exists():
        print(f"skipped: {CORPUS.name} is not beside the repository (the corpora folder)")
        return 0
    sizes = [1000, 5000, 10000] if args.quick else [1000, 5000, 10000, 25000, 50000]
    work_sizes = [100, 500, 2000] if args.quick else [100, 1000, 5000, 10000]
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="citekit-bench-") as tmp:
        folder = Path(tmp)
        if args.only in (None, "daily", "scaling"):
            daily = daily_commands(folder)
            if args.only in (None, "daily"):
                results["daily"] = daily
                print(f"library of {daily['entries']} entries; one bibtexparser parse: {daily['bibtexparser_parse_s']} s "
                      f"({daily['bibtexparser_parse_cpu_s']} s CPU)")
                print(f"  import of the 7k file (median of 3): {daily['import_s']} s = {daily['import_ratio']}x wall, "
                      f"{daily['import_cpu_s']} s = {daily['import_cpu_ratio']}x CPU (target <= 2x)")
                for name, row in daily["commands"].items():
                    mark = "" if "met" not in row else ("  ok" if row["met"] else "  MISSED")
                    extra = (f"\n  {'':<32} first run: no cache {row['cold_s']} s ({row['cold_cpu_s']} s CPU), after "
                             f"a touch {row['touched_s']} s ({row['touched_cpu_s']} s CPU), after a one-entry hand edit "
                             f"{row['hand_edit_s']} s ({row['hand_edit_cpu_s']} s CPU) = {row['hand_edit_ratio']:.2f}x / "
                             f"{row['hand_edit_cpu_ratio']:.2f}x CPU") if "cold_s" in row else ""
                    cpu = f", CPU {row['cpu_s']:.3f} s = {row['cpu_ratio']:.3f}x" if "cpu_s" in row else ""
                    print(f"  {name:<32} {row['warm_s']:7.3f} s = {row['ratio']:.3f}x{cpu}"
                          + (f" target <= {row['target']}x{mark}" if "target" in row else "") + extra)
        if args.only in (None, "scaling"):
            results["scaling"] = scaling(folder, sizes)
            print("load + write (one entry changed):")
            for row in results["scaling"]["rows"]:
                print(f"  {row['entries']:6d} entries: daily {row['warm_load_write_s']:.3f} s "
                      f"({row['warm_ms_per_1k']} ms/1k); first after a one-entry hand edit "
                      f"{row['hand_edit_load_write_s']} s ({row['hand_edit_ms_per_1k']} ms/1k); full parse (no cache) "
                      f"{row['cold_load_write_s']} s ({row['cold_ms_per_1k']} ms/1k)")
            print(f"  growth exponent (last doubling, 1.0 = linear): daily {results['scaling'].get('warm_growth_exponent')}, "
                  f"first {results['scaling'].get('cold_growth_exponent')}")
            tidy = results["scaling"]["bibtex_tidy"]
            if isinstance(tidy, str):
                print(f"  bibtex-tidy: {tidy}")
            else:
                print(f"  {tidy['entries']} entries: bibtex-tidy {tidy['tidy_s']} s, {tidy['tidy_peak_kb']} KB; citekit "
                      f"{tidy['citekit_s']} s, {tidy['citekit_peak_kb']} KB: time {tidy['time_ratio']}x (target <= 0.25x), "
                      f"memory {tidy['memory_ratio']}x (target <= 0.5x); a full parse and write (no cache) "
                      f"{tidy['full_parse_s']} s, {tidy['full_parse_peak_kb']} KB = {tidy['full_parse_time_ratio']}x "
                      "bibtex-tidy's time")
        if args.only in (None, "sync"):
            results["sync"] = sync_scaling(folder, work_sizes)
            print("sync --offline from notes:")
            for row in results["sync"]["rows"]:
                print(f"  {row['works']:6d} works: first {row['first_sync_s']} s ({row['first_ms_per_work']} ms/work), "
                      f"no-op run in full {row['noop_sync_s']} s, then replayed {row['replayed_sync_s']} s")
            print(f"  growth exponent (last step, 1.0 = linear): {results['sync'].get('first_growth_exponent')}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "library-latest.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
