"""Start-up cost of the ``citekit`` command, as ratios against a bare Python start.

Run from the repository root::

    .venv/bin/python bench/startup_bench.py [--runs 15]

    .venv/bin/python bench/startup_bench.py --project DIR   # also the daily commands there

Times ``citekit --version``, ``citekit --help`` and ``citekit list --help`` (the median of
``--runs`` runs each) against ``python -c pass`` and ``python -c "import click"`` in the
same run, and lists which heavy libraries each one imported (none is the goal: commands
load bibtexparser, pylatexenc, rapidfuzz, requests and yaml only when they need them).
With ``--project``, the read-only daily commands (``list``, ``list --json``, ``show``,
``tags``, ``export``) and a no-op ``sync --offline`` run in that project the same way,
after one run each to warm its cache.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("bibtexparser", "pylatexenc", "rapidfuzz", "requests", "yaml", "sklearn", "tqdm", "markdown_it", "orgparse",
         "filelock", "hashlib", "json")
PROBE = ("import sys; sys.argv = ['citekit', *{args!r}]\n"
         "try:\n    from citekit.cli import main; main()\nexcept SystemExit:\n    pass\n"
         "print('MODULES', sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})), file=sys.stderr)")


def median_time(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def heavy_modules(args: list[str]) -> list[str]:
    code = PROBE.format(args=args, heavy=HEAVY)
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False).stderr
    line = next((l for l in err.splitlines() if l.startswith("MODULES")), "MODULES []")
    return eval(line.split(" ", 1)[1])  # a list literal printed by the probe above


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--project", type=Path, default=None, help="a project whose daily commands to time too")
    args = parser.parse_args()
    runs = args.runs
    citekit = str(Path(sys.executable).with_name("citekit"))
    bare = median_time([sys.executable, "-c", "pass"], runs)
    click_only = median_time([sys.executable, "-c", "import click"], runs)
    print(f"python -c pass        {bare:.3f} s (baseline)")
    print(f"python -c 'import click' {click_only:.3f} s  {click_only / bare:.1f}x")
    commands = [["--version"], ["--help"], ["list", "--help"]]
    if args.project:
        from citekit.library.store import Library

        keys = sorted(Library.load(args.project.resolve() / "refs").entries)
        project = ["-C", str(args.project.resolve())]
        commands += [[*project, *daily] for daily in (["list"], ["list", "--json"], ["show", keys[len(keys) // 2]],
                                                      ["tags"], ["export"], ["sync", "--offline", "-q"])]
    for argv in commands:
        if args.project and argv[:2] == project:
            subprocess.run([citekit, *argv], capture_output=True, check=False)  # the cache, as every day
        t = median_time([citekit, *argv], runs)
        shown = " ".join(argv[2:] if args.project and argv[:2] == project else argv)
        print(f"citekit {shown:<14} {t:.3f} s  {t / bare:.1f}x bare python, {t / click_only:.2f}x import click;"
              f" heavy modules: {', '.join(heavy_modules(argv)) or 'none'}")


if __name__ == "__main__":
    main()
