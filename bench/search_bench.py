"""Speed of ``citekit search`` (and ``list`` with its filters) on a 50k-entry library,
as ratios to one bibtexparser v2 parse of the same ``library.bib`` in the same run.

Run from the repository root (``make bench``)::

    .venv/bin/python bench/search_bench.py                # 50,000 entries
    .venv/bin/python bench/search_bench.py --size 10000   # smaller, quicker

The library is generated: the 7,166 entries of the real Better BibTeX export beside the
repository (``Unabbreviate_on_import_1436-3.bib``), repeated with renamed keys up to
``--size`` entries, each given an abstract of 60-160 words drawn (fixed seed) from the
words of the corpus's titles, so the index holds a real library's worth of text (a
library exported from Zotero carries abstracts). Without the corpus, generated titles
and authors are used instead, and the report says so.

Each query runs as a real process (``citekit search ...``, start-up included):

- *cold*: no ``.citekit/`` at all: the parsed-library cache, the search terms and the
  index are built from both files (the first command ever run on that library);
- *first search*: the parsed-library cache exists (another command ran), the search
  terms and index do not yet: answered by the scan (the index left to the background
  process, not run here), and then once more with the index built in the process;
- *warm*: as every search after that (median of 3), for words, a phrase, filters only,
  and words with filters; and ``list --author/--year`` the same way;
- *after an import*: the library's ``.bib`` imported into a fresh project, with the
  background build of the index after a large import off and on (import times compared),
  then the first search once that build is done;
- *after a change*: the first search after ``citekit tag`` changed one entry (the stored
  index is patched: the changed entry is scored beside it; both files are hashed, since
  the store trusts a file's stat only 2 s after its last change), then warm again.

Target: a search (warm, and the first one by the scan) <= 0.2x one bibtexparser parse of the same file.
Results go to ``bench/out/search-latest.json``.
"""

from __future__ import annotations

import argparse
import json
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

#: queries whose words occur in the corpus (thousands of matches on 50k entries: the
#: generated abstracts spread the titles' words), each ranked or filtered in full
QUERIES = {
    "words": ["search", "quantum dots"],
    "phrase": ["search", '"band structure" nanowires'],
    "author filter": ["search", "author:wang"],
    "words + filters": ["search", "quantum author:wang year:2010..2020"],
    "list --author --year": ["list", "--author", "wang", "--year", "2010..", "-q"],
}


def citekit_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("citekit")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "citekit.cli"]


def run(project: Path, args: list[str], index: str = "now") -> float:
    """Wall seconds of one ``citekit -C project ...`` process (exit 0 or 1 both count);
    ``index``: what a search without the index does after answering (``CITEKIT_SEARCH_INDEX``:
    ``now`` builds it in the process, ``off`` leaves it, as the background build does)."""
    import os

    start = time.perf_counter()
    proc = subprocess.run([*citekit_cmd(), "-C", str(project), *args], capture_output=True, text=True,
                          env={**os.environ, "CITEKIT_SEARCH_INDEX": index})
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"citekit {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return seconds


def source_entries() -> tuple[list, str]:
    """The entries to repeat, and where they come from."""
    from citekit.core.model import Entry

    if CORPUS.exists():
        from citekit.bibtex.reader import read_bib_file

        return read_bib_file(CORPUS).entries, f"{CORPUS.name} ({CORPUS.stat().st_size // 1024} KB)"
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(5000)]
    names = ["Smith", "Wang", "Garcia", "Müller", "Tanaka", "Kim", "Dubois", "Rossi"]
    out = []
    for i in range(2000):
        title = " ".join(rng.choice(vocab) for _ in range(8)) + " neural network learning"
        author = " and ".join(f"{rng.choice(names)}, A{j}" for j in range(rng.randint(1, 5)))
        out.append(Entry(key=f"gen{i}", entry_type="article",
                         fields={"title": title, "author": author, "year": str(1990 + i % 35), "journal": "Journal"}))
    return out, "generated entries (the shared corpus is absent)"


def build_library(refs: Path, size: int, source: list, seed: int = 5) -> None:
    """``size`` entries: ``source`` repeated with renamed keys, each with an abstract."""
    from citekit.core.model import Entry
    from citekit.library.store import Library

    rng = random.Random(seed)
    vocab = [w for e in source for w in e.fields.get("title", "").replace("{", "").replace("}", "").split() if w.isalpha()]
    lib = Library(refs_dir=refs)
    n = copy = 0
    while n < size:
        for entry in source:
            if n >= size:
                break
            key = entry.key if copy == 0 else f"{entry.key}-r{copy}"
            fields = dict(entry.fields)
            fields["abstract"] = " ".join(rng.choice(vocab) for _ in range(rng.randint(60, 160))) + "."
            lib.entries[key] = Entry(key=key, entry_type=entry.entry_type, fields=fields, status="resolved",
                                     origin="import")
            n += 1
        copy += 1
    lib.issued_keys = set(lib.entries)
    lib.save()


def parse_baseline(bib: Path) -> float:
    """Wall seconds of one bibtexparser v2 parse of ``bib`` (in this process)."""
    import bibtexparser

    start = time.perf_counter()
    bibtexparser.parse_file(str(bib))
    return time.perf_counter() - start


def after_import(folder: Path, bib: Path) -> dict[str, float]:
    """The library's ``.bib`` imported into two fresh projects: with the background index
    build after the import off (the import alone) and on (as a user runs it), then the
    first search of the second once that build is done (how long it took is printed)."""
    from citekit.library.store import kinds
    from citekit.library.store.cache.memo_files import apart_path

    rows: dict[str, float] = {}
    for mode in ("off", "background"):
        project = folder / f"import-{mode}"
        (project / "notes").mkdir(parents=True)
        (project / "citekit.yaml").write_text("# search bench: import\n", encoding="utf-8")
        rows[f"import (index after it: {mode})"] = run(project, ["import", str(bib), "-q"], index=mode)
    project = folder / "import-background"
    index = apart_path(project / "refs", kinds.SEARCH_INDEX)
    start = time.perf_counter()
    while not index.exists() and time.perf_counter() - start < 600:
        time.sleep(0.5)
    time.sleep(1.0)  # the build's last writes (memo tables) after the index file
    print(f"background index build after the import: done {time.perf_counter() - start:.1f} s after it "
          f"({'found' if index.exists() else 'NOT found'})")
    rows["first search after import (index built)"] = run(project, QUERIES["words"], index="off")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=50_000)
    parser.add_argument("--no-import", action="store_true", help="Skip the import rows (two imports of the library).")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="search-bench-"))
    try:
        project = folder / "proj"
        (project / "notes").mkdir(parents=True)
        (project / "citekit.yaml").write_text("# search bench\n", encoding="utf-8")
        source, where = source_entries()
        start = time.perf_counter()
        build_library(project / "refs", args.size, source)
        built = time.perf_counter() - start
        bib = project / "refs" / "library.bib"
        baseline = parse_baseline(bib)
        print(f"library: {args.size:,} entries from {where}, {bib.stat().st_size / 2**20:.1f} MB "
              f"(built in {built:.1f} s)")
        print(f"baseline: one bibtexparser v2 parse of library.bib: {baseline:.2f} s")

        shutil.rmtree(project / ".citekit", ignore_errors=True)
        cold = run(project, QUERIES["words"])
        run(project, ["tags", "-q"])  # another command ran: the parsed cache is there
        for path in (project / ".citekit").glob("*search*"):
            path.unlink()
        for path in (project / ".citekit").glob("*apart*"):
            path.unlink()
        scanned = run(project, QUERIES["words"], index="off")
        first = run(project, QUERIES["words"])
        rows = {"cold (no .citekit/)": cold, "first search (no index: scan)": scanned,
                "first search + index built": first}
        for name, query in QUERIES.items():
            run(project, query)  # its memo tables stored
            rows[f"warm: {name}"] = statistics.median(run(project, query) for _ in range(3))
        key = next(iter(json.loads(subprocess.run([*citekit_cmd(), "-C", str(project), "search", "quantum", "--json",
                                                    "-n", "1"], capture_output=True, text=True).stdout)["results"]))["key"]
        run(project, ["tag", key, "+bench"])
        rows["after a change: words"] = run(project, QUERIES["words"])
        time.sleep(2.5)  # the store trusts a file's stat only 2 s after its last change (hashes it before)
        rows["after a change, warm: words"] = statistics.median(run(project, QUERIES["words"]) for _ in range(3))
        if not args.no_import:
            rows.update(after_import(folder, bib))
        print(f"{'':38} {'seconds':>8} {'x parse':>8}")
        for name, seconds in rows.items():
            print(f"{name:38} {seconds:8.3f} {seconds / baseline:8.3f}")
        print(f"first search by the scan: {scanned / baseline:.3f}x one parse (target <= 0.2x: "
              f"{'met' if scanned <= 0.2 * baseline else 'NOT met'})")
        if "first search after import (index built)" in rows:
            after = rows["first search after import (index built)"]
            slower = rows["import (index after it: background)"] / rows["import (index after it: off)"] - 1
            print(f"first search after an import, its index built in the background: {after / baseline:.3f}x one parse "
                  f"(target <= 0.2x: {'met' if after <= 0.2 * baseline else 'NOT met'}); the import with the "
                  f"build started: {slower:+.1%} time")
        warm = [s for name, s in rows.items() if "warm" in name and "list" not in name]
        worst = max(warm)
        verdict = "met" if worst <= 0.2 * baseline else "NOT met"
        print(f"slowest warm search {worst:.3f} s = {worst / baseline:.3f}x one parse (target <= 0.2x: {verdict})")
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "search-latest.json").write_text(json.dumps({
            "entries": args.size, "source": where, "bib_mb": round(bib.stat().st_size / 2**20, 1),
            "parse_s": round(baseline, 3),
            "rows": {k: {"s": round(v, 3), "x_parse": round(v / baseline, 3)} for k, v in rows.items()},
            "slowest_warm_search_x_parse": round(worst / baseline, 3)}, indent=2), encoding="utf-8")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
