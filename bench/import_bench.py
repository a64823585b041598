"""Speed of ``citekit import`` on a real library, as a ratio to one bibtexparser parse.

Run from the repository root::

    .venv/bin/python bench/import_bench.py            # the 7,166-entry Better BibTeX library
    .venv/bin/python bench/import_bench.py --repeat 4  # the same library four times, keys renamed

The baseline is ``bibtexparser.parse_file`` of the same file, timed in the same run (the
best of three), so the ratio does not depend on the machine. Three figures are printed:
the import stage alone (read, find identical entries and same-work candidates, add),
the import with ``--merge`` (every duplicate merged), and the whole command as a user
runs it (load the library, import, write ``library.bib`` and ``library.yaml``), in wall
time and in CPU time (the best of three runs each: on a shared machine the CPU ratio is
the steadier one). The target is an import of the 7k file in at most twice the baseline;
the verdict is given for the import stage and for the whole command.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

import bibtexparser  # noqa: E402

from citekit.library.importer import import_files  # noqa: E402
from citekit.library.store import Library  # noqa: E402

DEFAULT = (REPO.parent / "shared" / "corpora" / "bibtex-tidy-fixtures" / "better-bibtex"
           / "Unabbreviate_on_import_1436-3.bib")
TARGET = 2.0


def _best(fn, runs: int = 3, clock=time.perf_counter) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def _children_cpu() -> float:
    """CPU seconds used by finished child processes (the command runs as one)."""
    t = os.times()
    return t.children_user + t.children_system


def _repeated(path: Path, times: int, folder: Path) -> Path:
    """The library ``times`` over, every copy's keys renamed (as a larger library would be)."""
    if times == 1:
        return path
    text = path.read_text(encoding="utf-8", errors="replace")
    out = folder / f"x{times}.bib"
    out.write_text("\n".join(re.sub(r"(@\w+\s*\{\s*)([^,\s]+)", rf"\1\2_r{i}", text) for i in range(times)),
                   encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    if not args.file.exists():
        print(f"{args.file} not found (the corpora live beside the repository in shared/corpora)")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = _repeated(args.file, args.repeat, folder)
        baseline = _best(lambda: bibtexparser.parse_file(str(path)))
        baseline_cpu = _best(lambda: bibtexparser.parse_file(str(path)), clock=time.process_time)

        def stage(merge: bool) -> None:
            lib = Library.load(folder / "refs-stage")
            import_files(lib, [path], merge=merge)

        plain = _best(lambda: stage(False))
        merged = _best(lambda: stage(True))
        project = folder / "project"
        project.mkdir()

        def command() -> None:
            for name in ("library.bib", "library.yaml", "import-keymap.yaml"):
                (project / "refs" / name).unlink(missing_ok=True)
            subprocess.run([str(Path(sys.executable).parent / "citekit"), "-C", str(project), "import", str(path), "--json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

        whole = whole_cpu = float("inf")
        for _ in range(3):
            wall, cpu = time.perf_counter(), _children_cpu()
            command()
            whole, whole_cpu = min(whole, time.perf_counter() - wall), min(whole_cpu, _children_cpu() - cpu)
        n = sum(1 for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.startswith("@"))
    print(f"import of {path.name} ({n} entries); baseline: one bibtexparser parse {baseline:.2f} s "
          f"({baseline_cpu:.2f} s CPU)")
    for label, seconds in (("import stage", plain), ("import stage --merge", merged), ("whole command", whole)):
        print(f"  {label:<22} {seconds:7.2f} s  ratio {seconds / baseline:5.2f}")
    print(f"  {'whole command, CPU':<22} {whole_cpu:7.2f} s  ratio {whole_cpu / baseline_cpu:5.2f} (to the parse's CPU time)")
    verdict = {True: "met", False: "NOT met"}
    print(f"  target: import <= {TARGET:.1f}x the baseline: {verdict[plain / baseline <= TARGET]} by the import stage, "
          f"{verdict[whole_cpu / baseline_cpu <= TARGET]} by the whole command (CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
