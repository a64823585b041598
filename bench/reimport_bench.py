"""Speed and size of re-importing a real library (``citekit import`` of a file imported before).

Run from the repository root::

    .venv/bin/python bench/reimport_bench.py         # the 7,166-entry Better BibTeX library
    .venv/bin/python bench/reimport_bench.py FILE.bib

A re-import syncs each entry with its record of the last import (a hash per field), so it
should cost no more than the first import. Baselines in the same run: one bibtexparser parse
of the file and the first import stage (into an empty library). Timed, best of three: the
re-import stage of the unchanged file, and of a copy with 1% of its entries edited (a
field changed, as a Zotero auto-export writes them). Loading the library is not timed.
The size the import records add to ``library.yaml`` is printed too (the file with and
without its ``import_record`` lines).
"""

from __future__ import annotations

import argparse
import gc
import re
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


def _best(fn, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _edited(text: str, every: int) -> tuple[str, int]:
    """Every ``every``-th entry's title with a word added (what an edit in Zotero re-exports)."""
    count = 0

    def edit(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return match.group(1) + ("Revised " if count % every == 0 else "")

    return re.sub(r"(^\s*title\s*=\s*[{\"])", edit, text, flags=re.M | re.I), count // every


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    args = ap.parse_args(argv)
    if not args.file.exists():
        print(f"{args.file} not found (the corpora live beside the repository in shared/corpora)")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "library-export.bib"
        path.write_bytes(args.file.read_bytes())
        baseline = _best(lambda: bibtexparser.parse_file(str(path)))
        first = _best(lambda: import_files(Library.load(folder / "empty"), [path]))
        refs = folder / "refs"
        lib = Library.load(refs)
        import_files(lib, [path])
        lib.save()
        side = (refs / "library.yaml").read_text(encoding="utf-8")
        records = sum(len(line) + 1 for line in side.splitlines() if line.startswith("    import_record: "))

        def again(file: Path) -> tuple[float, int]:
            best = float("inf")
            for _ in range(3):
                loaded = Library.load(refs)
                gc.collect()
                t = time.perf_counter()
                report = import_files(loaded, [file])
                best = min(best, time.perf_counter() - t)
            assert not report.added and not report.skipped, "the file was not recognised as imported before"
            return best, len(report.updated)

        unchanged, _ = again(path)
        text, n_edited = _edited(path.read_text(encoding="utf-8", errors="replace"), 100)
        path.write_text(text, encoding="utf-8")  # the export rewritten in place, as an auto-export is
        changed, n_updated = again(path)
        n = len(lib.entries)
    print(f"re-import of {args.file.name} ({n} entries); baselines: one bibtexparser parse {baseline:.2f} s, "
          f"the first import stage {first:.2f} s")
    for label, seconds in (("re-import, unchanged", unchanged), (f"re-import, {n_edited} edited", changed)):
        print(f"  {label:<26} {seconds:6.2f} s  {seconds / baseline:5.2f}x the parse  "
              f"{seconds / first:5.2f}x the first import")
    print(f"  fields taken from the edited file: {n_updated} (titles edited: {n_edited})")
    print(f"  import records in library.yaml: {records / 1e6:.2f} MB of {len(side.encode()) / 1e6:.2f} MB "
          f"({records / max(n, 1):.0f} bytes per entry)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
