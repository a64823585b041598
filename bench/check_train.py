"""Fit the check's learned reading on the blind readers' verdicts and write ``src/citekit/data/check_model.json``.

Data: every judged draft in ``tests/data/related_work/`` but set 10's (eleven readers; a reader's
set may hold two drafts of the same topics, ``before/`` and the later code's) with the records it
was made from. A sentence is labelled 1 when its reader marked it (edit or rewrite), 0 when kept. Its
features are :data:`citekit.output.check_features.FEATURES`, computed by the check itself
(:func:`citekit.output.related_check.reading`) on the draft it was judged in. Held-out sets
1-9 train it with the development sets; set 10 is its held-out measure
(``bench/related_reader_bench.py --check``) and is never read here.

Model: scikit-learn's logistic regression (L2, C below, balanced classes, liblinear, fixed
seed) on standardized features, a feature whose weight comes out against its meaning dropped
(:data:`citekit.output.check_features.SIGN`); the threshold is the one that, on the training
readers, best tells marked sentences from kept ones (the share of marked ones flagged less the
share of kept ones flagged: the readers keep few sentences, and a threshold set for a recall
alone flags most of those); the shipped model's threshold is the one that does so best on the
leave-one-reader-out readings, each sentence read by a fit that never saw its reader. A hand
rule no training reader overruled (kept a sentence it fired on) is exact: it flags on its own.

Figures: leave one reader out (fit on the others, score the one left out, which the model never
saw), each fold and the mean: the share of the left-out reader's marked sentences the check flags
(the learned reading or an exact rule) and the share of kept ones it flags.

Run: .venv/bin/python bench/check_train.py [--folds-only] [-v]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "related_work"
#: each reader's judged folders
READERS = {
    "reader 1 (blind_hci)": [DATA / "blind_hci"],
    "reader 2 (blind_hci_topics)": [DATA / "blind_hci_topics"],
    "reader 3 (blind_hci_heldout)": [DATA / "blind_hci_heldout"],
    "reader 4 (blind_hci_heldout_2)": [DATA / "blind_hci_heldout_2"],
    "reader 5 (blind_hci_heldout_3)": [DATA / "blind_hci_heldout_3" / "before", DATA / "blind_hci_heldout_3"],
    "reader 6 (blind_hci_heldout_4)": [DATA / "blind_hci_heldout_4" / "before", DATA / "blind_hci_heldout_4"],
    **{f"reader {n + 2} (blind_hci_heldout_{n})": [DATA / f"blind_hci_heldout_{n}" / "before",
                                                  DATA / f"blind_hci_heldout_{n}"] for n in range(5, 10)},
}
C = 0.1
SEED = 0


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w@:]+", " ", text.lower()).split())


def rows() -> list[dict]:
    """One row per judged sentence found in its draft: reader, label, features, and whether an exact rule flags it."""
    from citekit.output.record_check import CitedRecord
    from citekit.output.check_features import rule_id
    from citekit.output.related_check import _lint_sentence, _sentences, reading, snippet_context

    out = []
    for reader, folders in READERS.items():
        for folder in folders:
            judged = yaml.safe_load((folder / "judgements.yaml").read_text(encoding="utf-8"))
            by_tag: dict[str, list] = {}
            for draft in sorted(folder.glob("hci-*.md")):
                tag = draft.stem[len("hci-"):]
                records = json.loads((folder / f"hci-{tag}.records.json").read_text(encoding="utf-8"))
                cited = [CitedRecord(r["key"], r["title"] or "", r.get("abstract") or "") for r in records]
                text = draft.read_text(encoding="utf-8")
                context = snippet_context(text, "markdown", None, None, cited)
                for line in text.splitlines():
                    if not line.strip() or line.lstrip().startswith(("#", "<!--", "%")):
                        continue
                    for sentence in _sentences(line.strip()):
                        found = _lint_sentence(sentence, "markdown", context)
                        features = reading(sentence, "markdown", context, found)
                        if features is None:
                            continue
                        by_tag.setdefault(tag, []).append((_norm(sentence), features, {rule_id(c, m) for c, m in found},
                                                              sentence))
            for s in judged["sentences"]:
                mine = _norm(s["sentence"])
                hit = next((r for r in by_tag.get(s["tag"], [])
                            if r[0].startswith(mine[:80]) or mine.startswith(r[0][:80])), None)
                if hit is None:
                    continue
                out.append({"reader": reader, "label": int(s["verdict"] != "keep"), "features": hit[1],
                            "found": hit[2], "sentence": hit[3], "why": s.get("why", ""), "verdict": s["verdict"]})
    return out


def weighed_rules(train: list[dict]) -> list[str]:
    """The hand rules some reader kept a sentence despite: the learned reading weighs them against the rest of the
    sentence. A rule no reader overruled flags on its own."""
    from citekit.output.check_features import RULES

    return [r for r in RULES if any(r in row["found"] and not row["label"] for row in train)]


def _exact(row: dict, weighed: list[str]) -> bool:
    """Whether a rule the readers never overruled (or a mechanical one: markup, a copied citation) flags the row."""
    return any(c not in weighed for c in row["found"] if c not in ("hollow-topic",))


def fit(train: list[dict]) -> dict:
    """The model and threshold fitted on ``train``, as the check reads them (check_model.json's fields)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from citekit.output.check_features import FEATURES, SIGN

    x = np.array([r["features"] for r in train], dtype=float)
    y = np.array([r["label"] for r in train])
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    z = (x - means) / scales
    kept = [i for i, f in enumerate(FEATURES) if x[:, i].any()]
    while True:  # drop the features whose weight comes out against their meaning (SIGN), and fit again
        model = LogisticRegression(C=C, class_weight="balanced", solver="liblinear", random_state=SEED, max_iter=5000)
        model.fit(z[:, kept], y)
        wrong = [i for i, w in zip(kept, model.coef_[0]) if SIGN[FEATURES[i]] * w < 0]
        if not wrong:
            break
        kept = [i for i in kept if i not in wrong]
    weights = [0.0] * len(FEATURES)
    for i, w in zip(kept, model.coef_[0]):
        weights[i] = round(float(w), 4)
    out = {"features": list(FEATURES), "weights": weights,
           "intercept": round(float(model.intercept_[0]), 4), "means": [round(float(m), 4) for m in means],
           "scales": [round(float(s), 4) for s in scales], "threshold": 0.5, "weighed": weighed_rules(train)}
    out["threshold"] = _threshold(out, train)
    return out


def _threshold(model: dict, train: list[dict]) -> float:
    """The threshold at which the check (the learned reading and the exact rules) best tells the training readers'
    marked sentences from their kept ones (:func:`best_balance`)."""
    from citekit.output.check_model import probability

    return best_balance([(probability(r["features"], model), _exact(r, model["weighed"]), r["label"]) for r in train])


def best_balance(scored: list[tuple[float, bool, int]]) -> float:
    """Of ``(probability, an exact rule flags, marked)`` per sentence, the threshold with the most marked sentences
    flagged less the most kept ones flagged, each as a share (a missed mark and a flagged keep weigh the same,
    however many of each the readers left); of equal ones, the lowest."""
    marked = max(1, sum(label for _, _, label in scored))
    kept = max(1, len(scored) - marked)
    balances = []
    for candidate in sorted({round(p, 4) for p, exact, _ in scored if not exact}, reverse=True):
        flagged = [(exact or p >= candidate, label) for p, exact, label in scored]
        balances.append((sum(f for f, label in flagged if label) / marked
                         - sum(f for f, label in flagged if not label) / kept, candidate))
    if not balances:
        return 0.5
    best = max(b for b, _ in balances)
    return round(min(t for b, t in balances if b == best) - 1e-4, 4)


def score(model: dict, test: list[dict]) -> tuple[int, int, int, int]:
    """(marked flagged, marked, kept flagged, kept) on ``test``."""
    from citekit.output.check_model import probability

    flagged = [_exact(r, model["weighed"]) or probability(r["features"], model) >= model["threshold"] for r in test]
    marked = [f for f, r in zip(flagged, test) if r["label"]]
    kept = [f for f, r in zip(flagged, test) if not r["label"]]
    return sum(marked), len(marked), sum(kept), len(kept)


def _kappa(caught: int, marked: int, false: int, kept: int) -> float:
    """Cohen's kappa between the check's flags and a reader's marks: agreement beyond what their rates give by
    chance (0 for a reader who kept nothing or marked nothing: every agreement is then chance)."""
    n = marked + kept
    observed = (caught + kept - false) / n
    flagged = (caught + false) / n
    chance = flagged * marked / n + (1 - flagged) * kept / n
    return (observed - chance) / (1 - chance) if chance < 1 else 0.0


def folds(data: list[dict], verbose: bool = False) -> list[tuple[float, bool, int]]:
    """Leave one reader out: fit on the others, score the one left out. Returns every sentence as its fold read it,
    ``(probability, an exact rule flags, marked)``: the readings of readers no fit saw."""
    from citekit.output.check_model import probability

    shares = []
    unseen = []
    for reader in READERS:
        train = [r for r in data if r["reader"] != reader]
        test = [r for r in data if r["reader"] == reader]
        model = fit(train)
        unseen += [(probability(r["features"], model), _exact(r, model["weighed"]), r["label"]) for r in test]
        caught, marked, false, kept = score(model, test)
        shares.append((caught / max(marked, 1), false / kept if kept else None))
        agree = (caught + kept - false) / len(test)
        print(f"  left out {reader}: flags {caught}/{marked} marked ({caught / max(marked, 1):.2f}), "
              f"{false}/{kept} kept (threshold {model['threshold']:.2f}); agrees with the reader on {agree:.2f} of "
              f"sentences, kappa {_kappa(caught, marked, false, kept):.2f}")
        if verbose:
            for r in test:
                p = probability(r["features"], model)
                hit = _exact(r, model["weighed"]) or p >= model["threshold"]
                if hit != bool(r["label"]):
                    print(f"    {'flagged kept' if hit else 'missed':12} {p:.2f} {r['sentence'][:110]}\n"
                          f"{'':17}{r['why'][:150]}")
    kept_shares = [k for _, k in shares if k is not None]
    rules = [(sum(bool(r["found"]) for r in data if r["reader"] == reader and r["label"])
              / max(1, sum(r["label"] for r in data if r["reader"] == reader)),
              sum(bool(r["found"]) for r in data if r["reader"] == reader and not r["label"])
              / max(1, sum(not r["label"] for r in data if r["reader"] == reader)))
             for reader in READERS]
    kept_readers = [i for i, (_, k) in enumerate(shares) if k is not None]
    print(f"  hand rules alone (every rule flags): {sum(c for c, _ in rules) / len(rules):.2f} of marked sentences "
          f"flagged; {sum(rules[i][1] for i in kept_readers) / len(kept_readers):.2f} of kept ones")
    print(f"  mean over readers: {sum(c for c, _ in shares) / len(shares):.2f} of marked sentences flagged; "
          f"{sum(kept_shares) / len(kept_shares):.2f} of kept ones flagged (readers who kept any)")
    return unseen


def main() -> None:
    from citekit.output.check_features import FEATURES

    data = rows()
    print(f"{len(data)} judged sentences ({sum(r['label'] for r in data)} marked) from {len(READERS)} readers; "
          "leave one reader out:")
    unseen = folds(data, "-v" in sys.argv)
    if "--folds-only" in sys.argv:
        return
    model = fit(data)
    # (a fit's best balance on its own readers is flat over a wide range and lies at one edge of it; read on readers
    # each fold did not see, the balance says where a reader not yet seen is best served)
    model["threshold"] = best_balance(unseen)
    model = {"about": "whether a reader marks a related-work sentence; fitted by bench/check_train.py",
             **model, "trained_on": {"sentences": len(data), "marked": sum(r["label"] for r in data)}}
    path = REPO / "src" / "citekit" / "data" / "check_model.json"
    path.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    caught, marked, false, kept = score(model, data)
    print(f"fitted on all {len(data)}: threshold {model['threshold']:.2f}; on its own data flags {caught}/{marked} "
          f"marked, {false}/{kept} kept; wrote {path.relative_to(REPO)}")
    for name, w in sorted(zip(FEATURES, model["weights"]), key=lambda t: -abs(t[1]))[:12]:
        print(f"  {name:26} {w:+.3f}")


if __name__ == "__main__":
    main()
