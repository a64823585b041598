"""``python -m citekit.notes.finder.train``: build the datasets, train the CRF, write the model, print the figures.

Fixed seeds and fixed training settings: the same inputs give the same model. Writes
``src/citekit/data/finder.crfsuite`` (or ``--out``); takes a few minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from citekit.notes.finder.model import MODEL_PATH, label_lines, tagger
from citekit.notes.finder.train.datasets import SEED, build, score

#: L-BFGS with elastic-net regularisation: c1 keeps the model small (unused features drop to zero)
PARAMS = {"c1": 0.2, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True,
          "feature.minfreq": 2}


def train(out: Path, seed: int = SEED, iterations: int | None = None) -> dict:
    """Train on the seeded datasets, write the model to ``out``, and return the figures."""
    import pycrfsuite

    started = time.perf_counter()
    sequences, data = build(seed)
    built = time.perf_counter() - started
    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, labels in sequences:
        trainer.append(feats, labels)
    params = dict(PARAMS)
    if iterations:
        params["max_iterations"] = iterations
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--iterations", type=int, default=None, help="fewer L-BFGS iterations, to iterate fast")
    args = parser.parse_args()
    print(json.dumps(train(args.out, args.seed, args.iterations), indent=1))


if __name__ == "__main__":
    main()
