"""Benchmark of streamed JSON output: peak memory of ``extract --json`` against the notes
file's size, next to the whole-document writer it replaced and to ``extract -q``.

Run from the repository root::

    .venv/bin/python bench/json_stream_bench.py            # a 20 MB notes file
    .venv/bin/python bench/json_stream_bench.py --mb 50

The bundled notes are repeated into one Markdown file of about ``--mb`` megabytes; each
command runs in a child process, and its peak resident memory (``ru_maxrss``) is divided by
the file's size. Printed, in the same run:

- ``extract --json`` as shipped (mentions encoded one at a time), target <= 5x the file;
- the baseline: the same mentions turned into one JSON string first (the writer before);
- ``extract -q`` (no JSON at all), the floor the extraction itself sets.

Results go to ``bench/out/json-stream-<timestamp>.json`` (and ``json-stream-latest.json``).
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

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "bench" / "out"
TARGET = 5.0
WHOLE = """
import json, sys
from citekit import api
result = api.extract([sys.argv[1]], start=sys.argv[2])
sys.stdout.write(json.dumps({"mentions": [m.to_json() for m in result.mentions],
    "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in result.problems]},
    ensure_ascii=False, indent=2, sort_keys=False) + "\\n")
"""


def peak_mib(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(peak resident MiB, seconds) of one child process, its output thrown away."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss / 1024.0, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=20.0, help="size of the notes file in MB (default 20)")
    args = parser.parse_args(argv)
    python = sys.executable
    citekit = str(Path(python).with_name("citekit"))
    source = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "notes").glob("*.txt")))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
        (root / "notes").mkdir()
        notes = root / "notes" / "big.txt"
        copies = max(1, int(args.mb * 1e6 / max(len(source.encode("utf-8")), 1)))
        notes.write_text("\n\n".join(source for _ in range(copies)), encoding="utf-8")
        size_mib = notes.stat().st_size / 2**20
        runs = {
            "extract --json (streamed)": peak_mib([citekit, "-C", str(root), "extract", "--json", str(notes)], root),
            "one JSON string (baseline)": peak_mib([python, "-c", WHOLE, str(notes), str(root)], root),
            "extract -q (no JSON)": peak_mib([citekit, "-C", str(root), "extract", "-q", str(notes)], root),
        }
    print(f"notes file {size_mib:.1f} MiB ({copies} copies of the bundled notes); peak memory / file size")
    for name, (mib, secs) in runs.items():
        ratio = mib / size_mib
        mark = f"target <= {TARGET:g}x  {'ok' if ratio <= TARGET else 'MISSED'}" if "streamed" in name else ""
        print(f"{name:<28} {mib:8.0f} MiB  {ratio:5.1f}x  {secs:6.1f} s  {mark}")
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"file_mib": round(size_mib, 2), "target_ratio": TARGET,
              "runs": {k: {"peak_mib": round(v[0], 1), "ratio": round(v[0] / size_mib, 2), "seconds": round(v[1], 2)}
                       for k, v in runs.items()}}
    for name in (f"json-stream-{stamp}.json", "json-stream-latest.json"):
        (OUT / name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
