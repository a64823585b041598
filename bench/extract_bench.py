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
     .org file is the org corpus file repeated (headings with property drawers);
  4. the same figures on ~20 MB .md, .txt and .org files whose lines are all different
     (generated: new titles, authors, identifiers, URLs and prose on every line, in the
     shapes real notes have: headings, lists, Logseq properties, Obsidian callouts and
     wiki links, pasted references, wrapped paragraphs, org drawers and links). The
     repeated files above are partly answered from the per-line caches; users' notes do
     not repeat, so this is the honest figure, against the same targets.

  5. one paragraph of pasted abstracts with math and "we propose"/"named" cues, 35 KB to
     280 KB, each in a fresh process (target: linear; the method names of an abstract were
     once found by reading the text before every cue again: 140 KB took 25-35 s).
     ``--abstract-only`` runs only this.

``--src DIR`` measures the package under another ``src`` folder (an older checkout) on
the same generated files, to compare before and after a change.

Run: .venv/bin/python bench/extract_bench.py  (or `make bench`); --quick for smaller sizes.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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



_WORDS = ("adaptive sparse stochastic gradient descent momentum curvature preconditioned second-order "
          "low-rank attention transformer diffusion flow matching contrastive self-supervised federated "
          "robust private efficient scalable distributed asynchronous local global implicit explicit "
          "neural operator kernel bayesian variational causal graph mixture experts routing tokens "
          "language vision speech reinforcement offline online policy value reward model-based planning "
          "exploration calibration uncertainty quantization pruning distillation compression memory "
          "retrieval reasoning chain alignment preference feedback safety interpretability sharpness "
          "minima generalization overparameterized lazy feature learning dynamics scaling laws "
          "hyperparameter transfer width depth normalization residual initialization spectral "
          "orthogonal muon shampoo adam weight decay learning-rate schedules warmup convergence "
          "nonconvex saddle escape noise heavy-tailed clipping variance reduction sampling "
          "langevin score energy equivariant geometric molecules proteins climate tabular time-series "
          "forecasting anomaly detection segmentation detection captioning multimodal agents tools "
          "benchmarks datasets evaluation contamination synthetic data curriculum continual forgetting "
          "meta-learning few-shot in-context emergent sparse-autoencoders circuits probing").split()
_CAP = ("Towards", "On", "Rethinking", "Understanding", "Learning", "Scaling", "Beyond", "When", "Why",
        "Provable", "Fast", "Efficient", "Revisiting", "Training", "Taming", "A Theory of", "Improving")
_FIRST = ("Ana Bo Cy Dana Eli Fatima Goro Hana Ivan Jun Kira Liam Mei Nora Omar Priya Quinn Rui Sara Taro "
          "Uma Victor Wen Xia Yuki Zoe Ahmed Björn Chloé Dmitri Élodie Farid Giulia Hiroshi Ines Jakub "
          "Kenji Lena Mateo Nadia Oskar Pavel Rania Soo-jin Tomás Ulla Vikram Wiebke Yara Zheng").split()
_LAST = ("Lima Chen Dee Okafor Schmidt Tanaka Rossi Novak Haddad Kim Park Silva Müller Nakamura Garcia "
         "Kowalski Ivanova Larsen Moreau Singh Kaur Wang Zhang Liu Yamada Suzuki Fischer Weber Costa "
         "Ferreira Dubois Petrov Nguyen Tran Cohen Levi Ahmadi Khan Osei Mensah Andersson Berg Jensen "
         "Eriksen Horvat Popescu Yilmaz Demir Rahman").split()
_VENUES = ("ICML", "NeurIPS", "ICLR", "COLT", "AISTATS", "CVPR", "ACL", "UAI", "MLSys")
_REMARKS = ("coffee with {p} ({org})", "lunch w/ {p} and the {w} group", "poster session {n} — busy, skipped half",
            "ask {p} about the {w} code release", "dinner at the harbour with {p}", "keynote by {p} on {w} {w2}",
            "TODO reread the {w} appendix before the reading group", "{p} recommended looking at {w} baselines")
_ORGS = ("MIT", "KAIST", "GDM", "UBC", "ETH", "Mila", "Tokyo", "CMU", "Oxford", "EPFL", "Meta", "NVIDIA")


class _Notes:
    """Random but reproducible note pieces; every title, id and sentence is new."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def title(self) -> str:
        r = self.r
        words = [r.choice(_WORDS) for _ in range(r.randint(3, 7))]
        head = r.choice(_CAP)
        t = f"{head} {' '.join(words)}"
        if r.random() < 0.4:
            t = f"{r.choice(_WORDS).capitalize()}{r.choice(_WORDS)[:4].capitalize()}: " + t
        return t[0].upper() + t[1:]

    def person(self) -> str:
        return f"{self.r.choice(_FIRST)} {self.r.choice(_LAST)}"

    def authors(self) -> list[str]:
        return [self.person() for _ in range(self.r.randint(1, 6))]

    def arxiv(self) -> str:
        return f"{self.r.randint(18, 26)}{self.r.randint(1, 12):02d}.{self.r.randint(0, 99999):05d}"

    def openreview(self) -> str:
        return "".join(self.r.choice("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(10))

    def url(self) -> str:
        r = self.r.random()
        if r < 0.45:
            return f"https://arxiv.org/abs/{self.arxiv()}"
        if r < 0.7:
            return f"https://openreview.net/forum?id={self.openreview()}"
        if r < 0.85:
            return f"https://proceedings.mlr.press/v{self.r.randint(100, 267)}/{self.r.choice(_LAST).lower()}{self.r.randint(20, 26)}{self.r.choice('abcdefgh')}.html"
        return f"https://doi.org/10.{self.r.randint(1000, 9999)}/{self.openreview().lower()}"

    def sentence(self) -> str:
        r = self.r
        words = [r.choice(_WORDS) for _ in range(r.randint(8, 18))]
        return f"{' '.join(words).capitalize()} {r.choice(('shows', 'beats', 'matches', 'explains'))} {r.choice(_WORDS)} at {r.randint(2, 999)}x less compute."

    def venue(self) -> str:
        return f"{self.r.choice(_VENUES)} {self.r.randint(2015, 2026)}"

    def remark(self) -> str:
        r = self.r
        return r.choice(_REMARKS).format(p=self.person(), org=r.choice(_ORGS), w=r.choice(_WORDS), w2=r.choice(_WORDS), n=r.randint(1, 40))

    def wrapped(self, indent: str = "") -> str:
        text = " ".join(self.sentence() for _ in range(self.r.randint(2, 5)))
        lines, line = [], ""
        for word in text.split():
            if len(line) + len(word) > 78:
                lines.append(indent + line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(indent + line)
        return "\n".join(lines) + "\n"

    def tag(self) -> str:
        return "#" + self.r.choice(_WORDS).replace("-", "")


Shape = Callable[["_Notes", str, list[str]], str]

#: each style's block shapes: (notes generator, title, authors) -> text
_MD_SHAPES: tuple[Shape, ...] = (
    lambda g, t, a: f"- **{t}** — {', '.join(a)} [arXiv]({g.url()})\n  - Summary: {g.sentence()}\n",
    lambda g, t, a: f"- [{t}]({g.url()}) {g.tag()}\n",
    lambda g, t, a: f"### {t}\n- Authors: {', '.join(a)}\n- URL: {g.url()}\n\n{g.wrapped()}\n",
    lambda g, t, a: (f"- {g.r.choice(('TODO ', 'DONE ', ''))}{t}\n  authors:: {', '.join(a)}\n  url:: {g.url()}\n"  # Logseq
                     f"  tags:: {g.r.choice(_WORDS)}, {g.r.choice(_WORDS)}\n"),
    lambda g, t, a: f"- [ ] [[{t}]] — {', '.join(a)} {g.tag()}\n",  # Obsidian
    lambda g, t, a: f"> [!note] {t}\n> Authors: {', '.join(a)}\n> {g.url()}\n\n",
    lambda g, t, a: f"{g.r.randint(1, 30)}. {a[0].split()[-1]}, {a[0][0]}. ({g.r.randint(2015, 2026)}). {t}. In {g.venue()}.\n",
    lambda g, t, a: f"\n{g.wrapped()}\n",
    lambda g, t, a: f"- {g.remark()}\n",
    lambda g, t, a: f"- {t} ({g.venue()})\n  - {', '.join(a)}\n  - {g.sentence()}\n",
    lambda g, t, a: f"- {t} arXiv:{g.arxiv()}\n",
    lambda g, t, a: f"- [ ] read {t} — {', '.join(a)}, {g.url()}\n  - {g.remark()}\n",
)

_TXT_SHAPES: tuple[Shape, ...] = (
    lambda g, t, a: f"• {t}\n  • URL: {g.url()}\n  • 著者: {' ⋅ '.join(a)}\n  • まとめ: {g.sentence()}\n",
    lambda g, t, a: f"• {g.remark()}\n\n",
    lambda g, t, a: f"- {t} — {', '.join(a)}\n    {g.url()}\n",
    lambda g, t, a: f"{t} {g.url()}\n",
    lambda g, t, a: f"\n{g.wrapped()}\n",
    lambda g, t, a: f"  * {t} ({g.venue()})\n    - Authors: {', '.join(a)}\n    - {g.sentence()}\n",
    lambda g, t, a: f"{a[0].split()[-1]}, {a[0].split()[0]}, and {a[-1]}. \"{t}.\" {g.venue()}.\n",
    lambda g, t, a: f"• {t}\n  • {', '.join(a)}\n  • {g.wrapped('    ').strip()}\n",
    lambda g, t, a: f"{g.r.randint(1, 40)}) {t}, arXiv:{g.arxiv()}\n",
    lambda g, t, a: f"• {t}\n  • Poster: https://icml.cc/virtual/2026/poster/{g.r.randint(10000, 99999)}\n  • {g.remark()}\n",
)

_ORG_SHAPES: tuple[Shape, ...] = (
    lambda g, t, a: (f"** {g.r.choice(('TODO ', 'DONE ', ''))}{t}\n   :PROPERTIES:\n   :AUTHORS:  {', '.join(a)}\n"
                     f"   :URL:      {g.url()}\n   :END:\n   {g.sentence()}\n"),
    lambda g, t, a: (f"** {t}   :{g.r.choice(_WORDS).replace('-', '')}:\n   :PROPERTIES:\n   :ARXIV:    {g.arxiv()}\n"
                     f"   :AUTHORS:  {' and '.join(a)}\n   :END:\n"),
    lambda g, t, a: f"** {t}\n   - Authors: {', '.join(a)}\n   - Link: {g.url()}\n",
    lambda g, t, a: f"- [[{g.url()}][{t}]] — {', '.join(a)}\n",
    lambda g, t, a: f"\n{g.wrapped()}\n",
    lambda g, t, a: f"** {g.remark()}\n",
    lambda g, t, a: f"** {t} ({g.venue()})\n   {', '.join(a)}\n   {g.sentence()}\n",
    lambda g, t, a: f"- {t} arXiv:{g.arxiv()}\n",
)


def _styled_block(shapes: tuple[Shape, ...], every: int, heading: Callable[["_Notes"], str]) -> Callable[["_Notes", int], str]:
    """Block ``i`` of a style: its ``heading`` every ``every`` blocks, else one of its
    ``shapes`` at random. The shape, title and authors are drawn first in every block, so
    one seed always gives the same text."""
    def block(g: _Notes, i: int) -> str:
        k = g.r.randrange(len(shapes))
        t, a = g.title(), g.authors()
        return heading(g) if i % every == 0 else shapes[k](g, t, a)

    return block


_md_block = _styled_block(_MD_SHAPES, 60, lambda g: f"\n## {g.venue()} — day {g.r.randint(1, 6)}, {g.remark()}\n\n")
_txt_block = _styled_block(_TXT_SHAPES, 50, lambda g: f"\nDay{g.r.randint(1, 6)} ({g.venue()}, {g.remark()})\n\n")
_org_block = _styled_block(_ORG_SHAPES, 40, lambda g: f"\n* {g.venue()} {g.r.choice(_WORDS)} notes  :{g.r.choice(_WORDS).replace('-', '')}:\n")


DISTINCT_BLOCKS = {".md": _md_block, ".txt": _txt_block, ".org": _org_block}


def distinct_blocks(suffix: str, megabytes: float, seed: int = 13) -> Iterator[str]:
    """About ``megabytes`` of notes in the style of ``suffix``, block by block, every
    title, name list, identifier and sentence drawn anew (same seed, same text)."""
    g = _Notes(seed)
    make = DISTINCT_BLOCKS[suffix]
    target = int(megabytes * 1_000_000)
    size, i = 0, 0
    if suffix == ".org":
        yield "#+TITLE: Conference notes\n#+FILETAGS: :notes:\n\n"
    while size < target:
        block = make(g, i)
        yield block
        size += len(block.encode("utf-8"))
        i += 1


def distinct_notes(suffix: str, megabytes: float, seed: int = 13) -> str:
    return "".join(distinct_blocks(suffix, megabytes, seed))


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


#: The child's peak memory: Linux's ``VmHWM`` (this process's own high-water mark) where
#: there is one. ``ru_maxrss`` keeps the parent's peak across fork and exec, so after the
#: in-process runs above it started higher than anything the extraction reached and the
#: growth read as near zero; it is the fallback elsewhere.
_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {src!r})
from pathlib import Path
from citekit.notes import extract_paths
def peak_kb():
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
path = Path({path!r})
before = peak_kb()
start = time.perf_counter()
cpu = time.process_time()
result = extract_paths([path], root=path.parent)
seconds = time.perf_counter() - start
cpu = time.process_time() - cpu
after = peak_kb()
print(json.dumps({{"seconds": seconds, "cpu": cpu, "rss_before_kb": before, "rss_after_kb": after, "mentions": len(result.mentions), "problems": len(result.problems)}}))
"""


def _measure(path: Path, src: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD.format(src=str(src), path=str(path))],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _report(label: str, path: Path, data: dict) -> bool:
    mb = path.stat().st_size / 1e6
    wall_rate = mb / data["seconds"]
    rate = mb / data["cpu"]  # CPU time: what the extraction costs, whatever else runs on the machine
    growth_mb = (data["rss_after_kb"] - data["rss_before_kb"]) / 1024 * 1.048576
    ratio = growth_mb / mb
    met = rate >= 1.0 and ratio <= 10
    print(f"{label:5} {mb:6.1f} MB  {data['cpu']:7.1f} s CPU ({data['seconds']:.1f} s wall, {wall_rate:.2f} MB/s)  "
          f"{rate:5.2f} MB/s  peak memory +{growth_mb:7.0f} MB "
          f"({ratio:4.1f}x the file)  {data['mentions']} mentions  {'MET' if met else 'NOT MET'}")
    return met


def distinct_files(megabytes: float, src: Path = REPO / "src") -> bool:
    print(f"\n== {megabytes:g} MB notes files whose lines are all different, each extracted in a fresh process")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in (".md", ".txt", ".org"):
            path = Path(tmp) / f"distinct{suffix}"
            with path.open("w", encoding="utf-8") as fh:  # written as made: this process stays small (see _CHILD)
                fh.writelines(distinct_blocks(suffix, megabytes))
            ok &= _report(suffix, path, _measure(path, src))
            path.unlink()
    return ok


def big_file(megabytes: float, src: Path = REPO / "src") -> bool:
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
            ok &= _report(suffix, path, _measure(path, src))
    return ok


#: a pasted abstract full of math and cues ("we propose", "named"): each cue once read the
#: whole text before it again (finding 11 of the reliability review: 140 KB took 25 s)
MATH_SENTENCE = ("We propose LiMuon{i}, a method with $O(\\epsilon^{{-3}})$ complexity; the step is named "
                 "ZoVH{i} and uses $\\lambda$-GRPO with $\\mathcal{{L}}_{{{i}}}$ loss. Experiments show gains. ")

_ABSTRACT_CHILD = """
import sys, time
sys.path.insert(0, {src!r})
from citekit.notes import extract_text
sentence = {sentence!r}
text, i = [], 0
while sum(map(len, text)) < {size}:
    text.append(sentence.format(i=i))
    i += 1
text = "".join(text)
cpu = time.process_time()
result = extract_text(text, "abstract.txt")
print(time.process_time() - cpu, len(result.mentions[0].hints) if result.mentions else 0)
"""


def math_abstract(sizes_kb: list[int], src: Path = REPO / "src", limit: float = 300.0) -> bool:
    """One paragraph of pasted abstracts with math, 35 KB to 280 KB, each in a fresh
    process (``--src`` measures an older checkout; a size past ``limit`` seconds is cut)."""
    print("\n== one pasted-abstract paragraph with math and many cues (CPU seconds, fresh process each)")
    row = []
    for kb in sizes_kb:
        code = _ABSTRACT_CHILD.format(src=str(src), sentence=MATH_SENTENCE, size=kb * 1000)
        try:
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=limit)
            seconds, hints = out.stdout.split()
            row.append((kb, float(seconds), int(hints)))
        except subprocess.TimeoutExpired:
            row.append((kb, float("inf"), 0))
    cells = "  ".join(f"{kb} KB: {s:6.2f}s ({h} names)" if s != float("inf") else f"{kb} KB: >{limit:.0f}s" for kb, s, h in row)
    first, last = row[0], row[-1]
    growth = (last[1] / last[0]) / (first[1] / first[0]) if first[1] > 0 else float("inf")
    ok = growth <= 2.0
    print(f"{cells}   per-KB cost x{growth:.2f} from {first[0]} to {last[0]} KB: {'linear' if ok else 'NOT LINEAR'}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (for a fast look)")
    parser.add_argument("--big-only", action="store_true", help="only the big files (repeated and all-different lines)")
    parser.add_argument("--distinct-mb", type=float, default=20, help="size of the all-different-lines files (default 20)")
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the src folder whose citekit is measured in the big files")
    parser.add_argument("--abstract-only", action="store_true", help="only the long pasted abstract with math")
    args = parser.parse_args()
    if args.abstract_only:
        math_abstract([35, 70, 140, 280], args.src)
        return
    if args.big_only:
        big_file(50, args.src)
        distinct_files(args.distinct_mb, args.src)
        return
    load = resource.getrusage(resource.RUSAGE_SELF)  # noqa: F841 (the process baseline)
    q = quality()
    s = scaling([1000, 5000, 10_000] if args.quick else [1000, 5000, 10_000, 20_000, 50_000])
    b = big_file(5 if args.quick else 50, args.src)
    d = distinct_files(2 if args.quick else args.distinct_mb, args.src)
    a = math_abstract([35, 70] if args.quick else [35, 70, 140, 280], args.src)
    print(f"\nextraction bench: quality {'MET' if q else 'NOT MET'}, linear {'MET' if s else 'NOT MET'}, "
          f"speed/memory repeated {'MET' if b else 'NOT MET'}, all lines different {'MET' if d else 'NOT MET'}, "
          f"abstract with math {'MET' if a else 'NOT MET'}")


if __name__ == "__main__":
    main()
