"""Notes extraction: quality per note style, speed, memory and how time grows.

Prints:
  1. precision, recall, author-list exact-match and venue/year accuracy per note style on
     the corpus in tests/data/notes/corpus (targets: precision >= 0.99, recall >= 0.97,
     authors exact >= 0.95);
  2. how time grows with the size of a notes file, 1k -> 50k lines, for a hard-wrapped
     paragraph (once a quadratic path) and for ordinary paper notes, in .txt and .md
     (target: linear, i.e. time per line at 50k within 2x of time per line at 1k), and the
     throughput at the largest size: the paper notes have a distinct title on every line,
     so unlike the 50 MB files below they show the speed on lines never seen before;
  3. throughput and peak memory on a ~50 MB notes file, each measured in a fresh process
     (targets: >= 1 MB/s of notes per CPU-second, so that other work on a shared machine
     does not count against it (wall time is printed too), and peak memory growth <= 10x
     the file size). The .txt file is the bundled trip report repeated (~2 mentions/kB);
     the .md file is the style corpus repeated (~5 mentions/kB, every line a paper); the
     .org file is the org corpus file repeated (headings with property drawers).

Run: .venv/bin/python bench/extract_bench.py  (or `make bench`); --quick for smaller sizes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "src"))

PARAGRAPH_LINE = "the optimizer keeps a running estimate of the curvature and rescales each step by it, which"
PAPER_BLOCK_TXT = (
    "• Paper Number {i}: Adaptive Methods at Scale — Ana Lima, Bo Chen, Cy Dee\n"
    "  • URL: https://arxiv.org/abs/2401.{n:05d}\n"
    "  • まとめ: A short summary sentence about what the paper shows.\n"
    "• Coffee w/ Jane Doe (MIT)\n"
)
PAPER_BLOCK_MD = (
    "- **Paper Number {i}: Adaptive Methods at Scale** — Ana Lima, Bo Chen, Cy Dee [arXiv](https://arxiv.org/abs/2401.{n:05d})\n"
    "  - Summary: A short summary sentence about what the paper shows.\n"
    "- Lunch with the optimizer group\n"
)


def quality() -> bool:
    from notes_scoring import score_corpus

    by_style, total, counts = score_corpus()
    print(f"== quality on the note-style corpus: {counts['files']} files, {counts['papers']} papers, "
          f"{counts['non_papers']} non-paper lines, {counts['problems']} problem(s) reported")
    print(f"{'style':30} {'found':>5} {'expect':>6} {'prec':>6} {'recall':>6} {'authors':>7} {'venue':>7}")
    for style, s in sorted(by_style.items()):
        venue = f"{s.venue_right}/{s.venue_checked}" if s.venue_checked else "-"
        print(f"{style:30} {s.found:5d} {s.expected:6d} {s.precision:6.3f} {s.recall:6.3f} {s.authors_rate:7.3f} {venue:>7}")
    venue = f"{total.venue_right}/{total.venue_checked}"
    print(f"{'ALL':30} {total.found:5d} {total.expected:6d} {total.precision:6.3f} {total.recall:6.3f} {total.authors_rate:7.3f} {venue:>7}")
    for line in total.misses:
        print(f"   missed: {line}")
    for line in total.false:
        print(f"   not a paper: {line}")
    for line in total.wrong_authors:
        print(f"   authors: {line}")
    ok = total.precision >= 0.99 and total.recall >= 0.97 and total.authors_rate >= 0.95
    print(f"targets precision>=0.99 recall>=0.97 authors>=0.95: {'MET' if ok else 'NOT MET'}")
    return ok


def _time(text: str, file: str) -> float:
    from citekit.notes import extract_text
    from citekit.notes.memo import clear_all

    clear_all()  # each run starts cold: a repeat must not be answered by the previous run's caches
    start = time.process_time()  # CPU time: other work on a shared machine does not count
    extract_text(text, file)
    return time.process_time() - start


def _paragraph(lines: int) -> str:
    return "\n".join(PARAGRAPH_LINE for _ in range(lines)) + "\n"


def _papers(lines: int, block: str) -> str:
    per = block.count("\n")
    return "".join(block.format(i=i, n=i % 100000) for i in range(max(1, lines // per)))


def scaling(sizes: list[int]) -> bool:
    print("\n== time against file size (CPU seconds; per-line cost relative to the smallest size)")
    ok = True
    shapes = [
        ("hard-wrapped paragraph", ".txt", _paragraph),
        ("hard-wrapped paragraph", ".md", _paragraph),
        ("paper notes", ".txt", lambda n: _papers(n, PAPER_BLOCK_TXT)),
        ("paper notes", ".md", lambda n: _papers(n, PAPER_BLOCK_MD)),
    ]
    for name, suffix, make in shapes:
        row = []
        base = None
        for n in sizes:
            text = make(n)
            seconds = min(_time(text, "bench" + suffix) for _ in range(3 if n <= 10_000 else 1))
            per_line = seconds / n
            base = base or per_line
            row.append((n, seconds, per_line / base))
        growth = row[-1][2]
        ok &= growth <= 2.0
        cells = "  ".join(f"{n // 1000}k: {s:6.2f}s (x{r:.2f})" for n, s, r in row)
        rate = len(text.encode("utf-8")) / 1e6 / row[-1][1]  # every line distinct: no repeat is answered from a cache
        print(f"{name + ' ' + suffix:28} {cells}   {'linear' if growth <= 2.0 else 'NOT LINEAR'}  ({rate:.2f} MB/s)")
    return ok


_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {src!r})
from pathlib import Path
from citekit.notes import extract_paths
path = Path({path!r})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
cpu = time.process_time()
result = extract_paths([path], root=path.parent)
seconds = time.perf_counter() - start
cpu = time.process_time() - cpu
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"seconds": seconds, "cpu": cpu, "rss_before_kb": before, "rss_after_kb": after, "mentions": len(result.mentions), "problems": len(result.problems)}}))
"""


def big_file(megabytes: float) -> bool:
    print(f"\n== a {megabytes:g} MB notes file, extracted in a fresh process")
    ok = True
    seeds = {
        ".txt": (REPO / "notes" / "notes-icml2026-trip-report.txt").read_text(encoding="utf-8"),
        ".md": "\n".join(p.read_text(encoding="utf-8").split("---\n", 2)[-1] if p.read_text(encoding="utf-8").startswith("---") else p.read_text(encoding="utf-8")
                         for p in sorted((REPO / "tests" / "data" / "notes" / "corpus").glob("*.md"))),
        ".org": "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "tests" / "data" / "notes" / "corpus").glob("*.org"))),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for suffix, seed in seeds.items():
            path = Path(tmp) / f"big{suffix}"
            target = int(megabytes * 1_000_000)
            unit = seed.encode("utf-8")
            copies = max(1, target // len(unit))
            with path.open("wb") as fh:
                for _ in range(copies):
                    fh.write(unit)
                    fh.write(b"\n\n")
            size = path.stat().st_size
            out = subprocess.run([sys.executable, "-c", _CHILD.format(src=str(REPO / "src"), path=str(path))],
                                 capture_output=True, text=True, check=True)
            data = json.loads(out.stdout.strip().splitlines()[-1])
            mb = size / 1e6
            wall_rate = mb / data["seconds"]
            rate = mb / data["cpu"]  # CPU time: what the extraction costs, whatever else runs on the machine
            growth_mb = (data["rss_after_kb"] - data["rss_before_kb"]) / 1024 * 1.048576
            ratio = growth_mb / mb
            met = rate >= 1.0 and ratio <= 10
            ok &= met
            print(f"{suffix:5} {mb:6.1f} MB  {data['cpu']:7.1f} s CPU ({data['seconds']:.1f} s wall, {wall_rate:.2f} MB/s)  "
                  f"{rate:5.2f} MB/s  peak memory +{growth_mb:7.0f} MB "
                  f"({ratio:4.1f}x the file)  {data['mentions']} mentions  {'MET' if met else 'NOT MET'}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (for a fast look)")
    parser.add_argument("--big-only", action="store_true", help="only the 50 MB file")
    args = parser.parse_args()
    if args.big_only:
        big_file(50)
        return
    load = resource.getrusage(resource.RUSAGE_SELF)  # noqa: F841 (the process baseline)
    q = quality()
    s = scaling([1000, 5000, 10_000] if args.quick else [1000, 5000, 10_000, 20_000, 50_000])
    b = big_file(5 if args.quick else 50)
    print(f"\nextraction bench: quality {'MET' if q else 'NOT MET'}, linear {'MET' if s else 'NOT MET'}, "
          f"speed/memory {'MET' if b else 'NOT MET'}")


if __name__ == "__main__":
    main()
