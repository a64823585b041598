"""``python -m citekit.notes.finder.train``: build the datasets, train the CRF, write the model, print the figures.

Fixed seeds and fixed training settings: the same inputs give the same model. Writes
``src/citekit/data/finder.crfsuite`` (or ``--out``); takes under a minute on one core.
``--cv 4`` instead trains four times, each without a quarter of AnyStyle's training
documents, and scores each model on the quarter it did not see (for choosing settings
without touching the three documents held out for measurement). ``--corpus-out`` trains
without the project's notes corpus and scores on it: the nearest thing to real notes that
training has not seen (its labels come from a rule, and the templates were written after
its shapes, so it is no blind measure either).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from citekit.notes.finder.model import MODEL_PATH, label_lines, tagger
from citekit.notes.finder.train.datasets import SEED, build, score

#: L-BFGS with elastic-net regularisation: c1 keeps the model small (unused features drop to zero);
#: c1 = 1.0 and 0.2 tie in 4-fold cross-validation over AnyStyle's 12 training documents (--cv 4:
#: ref F1 0.948 and 0.946, cont F1 0.956 and 0.955, at the time); 1.0 makes the smaller model (about 50 KB, not 89 KB)
PARAMS = {"c1": 1.0, "c2": 0.001, "max_iterations": 150, "feature.possible_transitions": True,
          "feature.minfreq": 2}


def train(out: Path, seed: int = SEED, iterations: int | None = None, overrides: dict | None = None,
          **build_args) -> dict:  # type: ignore[no-untyped-def]
    """Train on the seeded datasets, write the model to ``out``, and return the figures."""
    import pycrfsuite

    started = time.perf_counter()
    sequences, data = build(seed, **build_args)
    built = time.perf_counter() - started
    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, labels in sequences:
        trainer.append(feats, labels)
    params = dict(PARAMS)
    if iterations:
        params["max_iterations"] = iterations
    params.update(overrides or {})
    trainer.set_params(params)
    out.parent.mkdir(parents=True, exist_ok=True)
    started_training = time.perf_counter()
    trainer.train(str(out))
    trained = time.perf_counter() - started_training
    crf = tagger(out)
    held = {source: score(docs, lambda lines: [x.label for x in label_lines(lines, crf)])
            for source, docs in data.held_out.items()}
    return {"counts": data.counts, "build_seconds": round(built, 1), "train_seconds": round(trained, 1),
            "model_bytes": out.stat().st_size, "params": params, "held_out": held}


def cross_validate(folds: int, seed: int = SEED, iterations: int | None = None, overrides: dict | None = None) -> dict:
    """AnyStyle's training documents in ``folds`` seeded folds: train without each fold, score on it, pool the lines.

    The three documents held out for measurement take no part (tuning on them would make
    their figure a tuned one); each fold's model trains on the other folds only.
    """
    import random
    import tempfile

    from citekit.notes.finder.train.datasets import generated_split, pdf_split, ttx_split

    files, measured = ttx_split(seed)
    random.Random(seed).shuffle(files)
    generated = generated_split(seed)
    pdf = pdf_split(seed)
    per_fold, pooled = [], {"lines": 0, "right": 0}
    tallies: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(folds):
            held = files[k::folds]
            result = train(Path(tmp) / f"fold{k}.crfsuite", seed, iterations, overrides, ttx_held=held + measured,
                           generated=generated, pdf=pdf, score_only=held)
            s = result["held_out"]["anystyle"]
            per_fold.append({"held_out": [p.name for p in held], "accuracy": round(s["accuracy"], 4),
                             **{label: {m: round(s[label][m], 3) for m in ("precision", "recall", "f1")}
                                for label in ("ref", "cont")}})
            pooled["lines"] += s["lines"]
            pooled["right"] += round(s["accuracy"] * s["lines"])
            for label in ("ref", "cont"):
                t = tallies.setdefault(label, [0, 0, 0])  # true positives, predicted, gold
                t[0] += round(s[label]["recall"] * s[label]["support"])
                t[1] += round(s[label]["recall"] * s[label]["support"] / s[label]["precision"]) if s[label]["precision"] else 0
                t[2] += s[label]["support"]
    summary = {"accuracy": round(pooled["right"] / pooled["lines"], 4), "lines": pooled["lines"]}
    for label, (tp, n_pred, n_gold) in tallies.items():
        p, r = tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0
        summary[label] = {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}
    return {"folds": per_fold, "pooled": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--iterations", type=int, default=None, help="fewer L-BFGS iterations, to iterate fast")
    parser.add_argument("--cv", type=int, default=0, metavar="K",
                        help="instead: K-fold cross-validation over AnyStyle's documents (writes no model)")
    parser.add_argument("--corpus-out", action="store_true",
                        help="instead: train without the notes corpus and score on it (writes no model)")
    parser.add_argument("--c1", type=float, help=f"L1 weight (default {PARAMS['c1']})")
    parser.add_argument("--c2", type=float, help=f"L2 weight (default {PARAMS['c2']})")
    parser.add_argument("--anystyle-repeat", type=int, help="AnyStyle's documents this many times (default: datasets.ANYSTYLE_REPEAT)")
    parser.add_argument("--dev-repeat", type=int, help="the first development set of notes this many times (default: datasets.DEV_REPEAT)")
    args = parser.parse_args()
    from citekit.notes.finder.train import datasets

    if args.anystyle_repeat is not None:
        datasets.ANYSTYLE_REPEAT = args.anystyle_repeat
    if args.dev_repeat is not None:
        datasets.DEV_REPEAT = args.dev_repeat
    overrides = {k: v for k, v in (("c1", args.c1), ("c2", args.c2)) if v is not None}
    if args.cv:
        print(json.dumps(cross_validate(args.cv, args.seed, args.iterations, overrides), indent=1))
        return
    if args.corpus_out:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            result = train(Path(tmp) / "no-corpus.crfsuite", args.seed, args.iterations, overrides, with_corpus=False)
        print(json.dumps(result["held_out"]["corpus"], indent=1))
        return
    print(json.dumps(train(args.out, args.seed, args.iterations, overrides), indent=1))


if __name__ == "__main__":
    main()
