"""Whether a reader would mark a related-work sentence: a small logistic model over the features of
:mod:`citekit.output.check_features`, fitted on blind readers' verdicts.

The weights are data (``citekit/data/check_model.json``), fitted by ``bench/check_train.py``
with fixed seeds, and read on first use only: a check with no records never loads them.
The model gives a probability; a sentence is flagged at or above the file's threshold, and the
flag names the fault class (:data:`citekit.output.check_features.FAULT`) of the feature that
adds most to the score, with what to do about it.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def _model() -> dict:
    from citekit.output.check_features import FEATURES

    raw = json.loads(resources.files("citekit.data").joinpath("check_model.json").read_text(encoding="utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise RuntimeError("citekit/data/check_model.json was fitted on other features; "
                           "refit it with bench/check_train.py")
    return raw


def weighed_rules() -> frozenset[str]:
    """The hand rules the model weighs (some reader kept a sentence they fired on); every other rule flags alone."""
    return frozenset(_model()["weighed"])


def contributions(features: list[float], model: dict | None = None) -> list[float]:
    """Each feature's part of the score: its weight times its value, scaled as the model was fitted."""
    model = model or _model()
    return [w * (x - m) / s for w, x, m, s in zip(model["weights"], features, model["means"], model["scales"])]


def probability(features: list[float], model: dict | None = None) -> float:
    """How likely a reader is to mark the sentence (edit or rewrite)."""
    model = model or _model()
    z = model["intercept"] + sum(contributions(features, model))
    return 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))


def decide(features: list[float], model: dict | None = None) -> tuple[str, str] | None:
    """``(fault class, what to do)`` when a reader would mark the sentence, else None."""
    from citekit.output.check_features import ABSENT_FAULTS, ADVICE, FAULT, FEATURE_ADVICE, FEATURES

    model = model or _model()
    if probability(features, model) < model["threshold"]:
        return None
    parts = contributions(features, model)
    # the class of the feature that pushes most among those the sentence has (more of it than the judged sentences
    # had on average), or whose absence is the fault (no artefact, no finding named): a missing copy names no fault
    means = model["means"]
    eligible = [i for i in range(len(FEATURES)) if parts[i] > 0
                and (features[i] > means[i] or FEATURES[i] in ABSENT_FAULTS and not features[i])]
    if not eligible:
        return "no-claim", ADVICE["no-claim"]
    feature = FEATURES[max(eligible, key=parts.__getitem__)]
    category = FAULT[feature]
    return category, FEATURE_ADVICE.get(feature) or ADVICE.get(
        category, "a reader would mark this sentence: say what the paper does or finds")
