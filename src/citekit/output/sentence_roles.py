"""Which sentence of an abstract states the paper's contribution: a small learned ranker.

A related-work sentence must say what the paper does or finds, not its motivation or a
side result. Cue verbs alone ("we propose" first) pick a side result whenever the
contribution is said another way, so each sentence is scored by a logistic regression
over features that carry across fields: cue phrases ("we propose", "we show", "our
method"), where the sentence stands, whether it names the paper's own method, hedges,
numbers, words that mark a problem statement or an add-on ("additionally", "finally").

The weights are data (``citekit/data/sentence_roles.json``), fitted by
``bench/sentences_train.py`` on real abstracts that nobody on the team wrote, and read
only when a sentence is first ranked, so start-up stays light. The fitted model has no
title feature: its training labels come from the title (see the training script), and
the ranker must work where the title says little.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources
from citekit.core.lazyre import lazy

#: feature names, in the order of the weights in the model file
FEATURES: tuple[str, ...] = (
    "first", "last", "position", "propose", "develop", "study", "show", "we_subject", "this_paper",
    "our_method", "names_method", "hedge", "number", "problem", "background", "addon", "evidence", "length",
    "back_reference",
)

_PROPOSE = lazy(r"\b(?:we|this\s+(?:paper|work|article|study|note))\s+(?:\w+\s+)?"
                      r"(?:propose|introduce|present|describe)s?\b", re.I)
_DEVELOP = lazy(r"\b(?:develop|design|build|implement|devise|formulate|create|construct)(?:s|ed)?\b", re.I)
_STUDY = lazy(r"\b(?:we|this\s+(?:paper|work|study))\s+(?:\w+\s+)?(?:study|studies|investigate|analy[sz]e|"
                    r"explore|examine|revisit|characteri[sz]e|report)s?\b", re.I)
_SHOW = lazy(r"\b(?:show|prove|demonstrate|find|establish|reveal|indicate|suggest|confirm)(?:s|ed)?\s+that\b|"
                   r"\b(?:we|results?|findings?|experiments?|analysis)\s+(?:\w+\s+)?(?:show|prove|demonstrate|find|"
                   r"reveal|indicate)s?\b", re.I)
_WE_SUBJECT = lazy(r"^(?:[A-Z][\w\s,]{0,60},\s*)?we\b", re.I)
_THIS_PAPER = lazy(r"\b(?:this|the\s+present|our)\s+(?:paper|work|article|study|note)\b", re.I)
_OUR_METHOD = lazy(r"\bour\s+(?:\w+\s+)?(?:method|approach|system|framework|tool|technique|algorithm|model|"
                         r"design|prototype|optimizer|interface)s?\b", re.I)
_HEDGE = lazy(r"\b(?:may|might|could|possibly|potentially|perhaps|likely|suggests?)\b", re.I)
_NUMBER = lazy(r"\d")
_PROBLEM = lazy(r"\b(?:however|challenge|challenging|remains?|problem|difficult|lack|limited|limitation|"
                      r"unclear|bottleneck|suffer|costly|expensive|yet|but|despite)\b", re.I)
_BACKGROUND = lazy(r"\b(?:has\s+become|have\s+become|is\s+(?:a|an|the)\b|are\s+(?:widely|increasingly|often)|"
                         r"widely|increasingly|recent(?:ly)?|popular|emerged|growing)\b", re.I)
#: an opener that adds to what came before ("In addition, ...", "We also ..."): a side result, not the main one
_ADDON = lazy(r"^(?:additionally|also|furthermore|moreover|finally|in\s+addition|besides|lastly|we\s+also|"
                    r"we\s+further|we\s+then)\b", re.I)
_ALSO = lazy(r"\b(?:we|they)\s+also\b", re.I)
_EVIDENCE = lazy(r"\b(?:experiments?|evaluation|evaluated|participants|user\s+study|benchmarks?|outperforms?|"
                       r"compared|baselines?|datasets?|accuracy|significantly|empirical(?:ly)?)\b", re.I)
_BACK_REFERENCE = lazy(r"\b(?:this|these|such|the\s+latter|the\s+former)\s+[a-z]", re.I)


def is_addon(text: str) -> bool:
    """Whether a sentence (or the part of it before its finding) adds a result to one said before: an add-on
    opener, or "we also" anywhere ("Finally, we also found ...", "Our results, as we also show, ...")."""
    return bool(_ADDON.match(text.strip()) or _ALSO.search(text))


def sentence_features(sentences: list[str], index: int, name: str = "") -> list[float]:
    """The feature vector of ``sentences[index]`` in the order of :data:`FEATURES`."""
    s = sentences[index]
    n = len(sentences)
    words = s.split()
    named = bool(name) and len(name) > 2 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", s) is not None
    values = {
        "first": index == 0, "last": index == n - 1 and n > 1, "position": index / (n - 1) if n > 1 else 0.0,
        "propose": bool(_PROPOSE.search(s)), "develop": bool(_DEVELOP.search(s)), "study": bool(_STUDY.search(s)),
        "show": bool(_SHOW.search(s)), "we_subject": bool(_WE_SUBJECT.match(s)),
        "this_paper": bool(_THIS_PAPER.search(s)), "our_method": bool(_OUR_METHOD.search(s)), "names_method": named,
        "hedge": bool(_HEDGE.search(s)), "number": bool(_NUMBER.search(s)), "problem": bool(_PROBLEM.search(s)),
        "background": bool(_BACKGROUND.search(s)), "addon": bool(_ADDON.match(s)),
        "evidence": bool(_EVIDENCE.search(s)), "length": min(len(words), 80) / 40,
        "back_reference": bool(_BACK_REFERENCE.search(s)),
    }
    return [float(values[f]) for f in FEATURES]


@lru_cache(maxsize=1)
def _model() -> tuple[list[float], float]:
    """Weights and intercept from the packaged model file (read once, on first use)."""
    raw = json.loads(resources.files("citekit.data").joinpath("sentence_roles.json").read_text(encoding="utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise RuntimeError("citekit/data/sentence_roles.json was fitted on other features; "
                           "rerun bench/sentences_train.py to refit it.")
    return [float(w) for w in raw["weights"]], float(raw["intercept"])


def contribution_score(sentences: list[str], index: int, name: str = "") -> float:
    """How likely ``sentences[index]`` states the contribution, as a probability."""
    weights, intercept = _model()
    z = intercept + sum(w * x for w, x in zip(weights, sentence_features(sentences, index, name)))
    return 1 / (1 + math.exp(-z))
