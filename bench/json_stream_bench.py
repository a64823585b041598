"""Benchmark of streamed JSON output: peak memory of ``extract --json`` against the notes
file's size, next to the writers and the extraction it replaced and to ``extract -q``; and
peak memory of ``list --json`` on libraries of 7k and 50k entries, next to the whole table.

Run from the repository root::

    .venv/bin/python bench/json_stream_bench.py            # a 20 MB notes file
    .venv/bin/python bench/json_stream_bench.py --mb 50

The bundled notes are repeated into a ``.txt`` file of about ``--mb`` megabytes, and the
project's Markdown notes corpus (tests/data/notes/corpus) into a ``.md`` one (``--formats``); each
command runs in a child process, and its peak resident memory (``ru_maxrss``) is divided by
the file's size. Printed, in the same run:

- ``extract --json`` as shipped (the file read line by line in pieces, each piece's
  mentions written as they are found), target <= 5x the file;
- baseline 1: the whole file extracted first, its mentions then encoded one at a time
  (the streamed writer with the whole-file extraction: ``extract --json`` before);
- baseline 2: the same mentions turned into one JSON string (the writer before that);
- ``extract -q`` as shipped (also streamed).

Then ``list --json`` (``--list`` sizes, default 7000 and 50000 entries: the real 7,166-entry
Better BibTeX export of ``bench/library_bench.py`` repeated with renamed keys), run once to
store every entry's text and then measured as it runs every day, next to the baseline in
the same run: the same bytes made from the stored table read whole
(:func:`citekit.api.list_json_bytes`, what ``list --json`` did before). Target: constant in
the library's size, i.e. the growth from the smallest to the largest library is the keys'
only (printed per 1,000 entries next to the baseline's).

Results go to ``bench/out/json-stream-<timestamp>.json`` (and ``json-stream-latest.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "bench" / "out"
TARGET = 5.0
BEFORE = """
import sys
from citekit import api
from citekit.cli.app import Streamed, stream_json
result = api.extract([sys.argv[1]], start=sys.argv[2])
stream_json({"mentions": Streamed((m.to_json() for m in result.mentions), len(result.mentions)),
    "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in result.problems]})
"""
LIST_WHOLE = """
import sys
from citekit import api
sys.stdout.buffer.write(api.list_json_bytes(sys.argv[1]) + b"\\n")
"""
WHOLE = """
import json, sys
from citekit import api
result = api.extract([sys.argv[1]], start=sys.argv[2])
sys.stdout.write(json.dumps({"mentions": [m.to_json() for m in result.mentions],
    "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in result.problems]},
    ensure_ascii=False, indent=2, sort_keys=False) + "\\n")
"""


TIME = Path("/usr/bin/time")
#: Markdown notes in the project's own corpus (headings, lists, tables, front matter)
MARKDOWN = REPO / "tests" / "data" / "notes" / "corpus"


def peak_mib(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(peak resident MiB, seconds) of one child process, its output thrown away.

    Measured by ``/usr/bin/time`` when there is one: Linux counts in a child's peak the
    memory its parent held when it forked, and this script holds the notes file and the
    libraries it builds; ``time`` is a small parent."""
    start = time.perf_counter()
    if TIME.exists():
        with open(os.devnull, "wb") as sink:
            proc = subprocess.run([str(TIME), "-f", "%M", *cmd], cwd=cwd, stdout=sink, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
        return int(proc.stderr.decode().strip().splitlines()[-1]) / 1024.0, seconds
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss / 1024.0, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=20.0, help="size of the notes file in MB (default 20)")
    parser.add_argument("--list", type=int, nargs="*", default=[7000, 50000], help="library sizes for list --json")
    parser.add_argument("--formats", nargs="*", default=["txt", "md"], choices=["txt", "md"],
                        help="the notes file's formats (default: both, the same text)")
    args = parser.parse_args(argv)
    python = sys.executable
    citekit = str(Path(python).with_name("citekit"))
    sources = {  # the bundled notes (plain text); the project's Markdown notes corpus
        "txt": "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "notes").glob("*.txt"))),
        "md": "\n\n".join(p.read_text(encoding="utf-8") for p in sorted(MARKDOWN.glob("*.md"))
                          if "bibtex" not in p.name),  # (pasted BibTeX is read whole, by design)
    }
    results: dict[str, dict] = {}
    for suffix in args.formats:
        source = sources[suffix]
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
            (root / "notes").mkdir()
            notes = root / "notes" / f"big.{suffix}"
            copies = max(1, int(args.mb * 1e6 / max(len(source.encode("utf-8")), 1)))
            notes.write_text("\n\n".join(source for _ in range(copies)), encoding="utf-8")
            size_mib = notes.stat().st_size / 2**20
            runs = {
                "extract --json (streamed)": peak_mib([citekit, "-C", str(root), "extract", "--json", str(notes)], root),
                "whole extraction (before)": peak_mib([python, "-c", BEFORE, str(notes), str(root)], root),
                "one JSON string (baseline)": peak_mib([python, "-c", WHOLE, str(notes), str(root)], root),
                "extract -q (streamed)": peak_mib([citekit, "-C", str(root), "extract", "-q", str(notes)], root),
            }
        print(f"notes file big.{suffix} {size_mib:.1f} MiB ({copies} copies of "
              f"{'the bundled notes' if suffix == 'txt' else 'the Markdown notes corpus'}); peak memory / file size")
        for name, (mib, secs) in runs.items():
            ratio = mib / size_mib
            mark = f"target <= {TARGET:g}x  {'ok' if ratio <= TARGET else 'MISSED'}" if "--json" in name else ""
            print(f"{name:<28} {mib:8.0f} MiB  {ratio:5.1f}x  {secs:6.1f} s  {mark}")
        results[suffix] = {"file_mib": round(size_mib, 2),
                           "runs": {k: {"peak_mib": round(v[0], 1), "ratio": round(v[0] / size_mib, 2),
                                        "seconds": round(v[1], 2)} for k, v in runs.items()}}
    listing = list_json_memory(citekit, python, args.list) if args.list else None
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"target_ratio": TARGET, "extract": results, "list_json": listing}
    for name in (f"json-stream-{stamp}.json", "json-stream-latest.json"):
        (OUT / name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


def list_json_memory(citekit: str, python: str, sizes: list[int]) -> dict | None:
    """Peak MiB of ``list --json`` (as shipped, warm) and of the whole-table baseline at
    each library size; printed, and returned for the results file."""
    sys.path.insert(0, str(REPO / "bench"))
    from library_bench import CORPUS, build_library

    if not CORPUS.exists():
        print(f"list --json: skipped ({CORPUS.name} not found beside the repository)")
        return None
    from citekit.bibtex.reader import read_bib_file

    source = read_bib_file(CORPUS).entries
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sorted(sizes):
            root = Path(tmp) / f"lib{size}"
            (root / "notes").mkdir(parents=True)
            (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
            build_library(root / "refs", size, source)
            hour_ago = time.time() - 3600  # as a library is on a normal day: its files' stat is
            for f in (root / "refs").iterdir():  # trusted (seconds-old files are hashed every run)
                os.utime(f, (hour_ago, hour_ago))
            cmd = [citekit, "-C", str(root), "list", "--json"]
            peak_mib(cmd, root)  # the first run stores every entry's text (a cost of its own)
            peak_mib(cmd, root)
            streamed = min(peak_mib(cmd, root) for _ in range(3))
            whole = min(peak_mib([python, "-c", LIST_WHOLE, str(root)], root) for _ in range(3))
            json_mib = len(subprocess.run(cmd, capture_output=True).stdout) / 2**20
            rows.append({"entries": size, "json_mib": round(json_mib, 1), "streamed_peak_mib": round(streamed[0], 1),
                         "streamed_s": round(streamed[1], 2), "whole_table_peak_mib": round(whole[0], 1),
                         "whole_table_s": round(whole[1], 2)})
            shutil.rmtree(root)
    print("list --json (warm)        entries  output MiB  peak MiB (s)      whole table (baseline) MiB (s)")
    for r in rows:
        print(f"{'':<25}{r['entries']:>8}  {r['json_mib']:>10.1f}  {r['streamed_peak_mib']:>8.0f} ({r['streamed_s']:.2f})"
              f"      {r['whole_table_peak_mib']:>8.0f} ({r['whole_table_s']:.2f})")
    out: dict = {"rows": rows}
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        per_k = 1000 / (b["entries"] - a["entries"])
        out["streamed_growth_mib_per_1k"] = round((b["streamed_peak_mib"] - a["streamed_peak_mib"]) * per_k, 2)
        out["whole_growth_mib_per_1k"] = round((b["whole_table_peak_mib"] - a["whole_table_peak_mib"]) * per_k, 2)
        out["output_mib_per_1k"] = round((b["json_mib"] - a["json_mib"]) * per_k, 2)
        print(f"growth {a['entries']} -> {b['entries']} entries, MiB per 1k entries: list --json "
              f"{out['streamed_growth_mib_per_1k']:.2f}, whole table (baseline) {out['whole_growth_mib_per_1k']:.2f}, "
              f"the output itself {out['output_mib_per_1k']:.2f}  (target: constant; what is left is the keys)")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
