"""Fit the contribution-sentence ranker and write it to ``src/citekit/data/sentence_roles.json``.

Data, split and labels: see ``bench/sentences_data.py`` (real HCI abstracts; a quarter held
out by key hash and never used here; the sentence that restates the title is the positive).
The ranker chooses among the sentences that can be said with the paper as subject
(:func:`citekit.output.sentences.candidates`), so it is fitted on those: abstracts with at
least two such sentences, one of them the title-restating one.
The model is scikit-learn's logistic regression (L2, C=1, balanced classes) over
:data:`citekit.output.sentence_roles.FEATURES`; the same data and code give the same
weights. Measure it with ``bench/sentences_bench.py``.

Run: .venv/bin/python bench/sentences_train.py
"""

from __future__ import annotations

import json

from sentences_data import HCI, MORE, REPO, distant_label, held_out, load_hci


def training_rows() -> tuple[list[list[float]], list[int], int]:
    """Feature rows and labels of every labelled sentence outside the held-out quarter."""
    from citekit.output.sentence_roles import sentence_features
    from citekit.output.sentences import candidates, split_sentences
    from citekit.output.title_prose import method_name

    xs, ys, abstracts = [], [], 0
    for key, title, abstract in load_hci([HCI, *MORE]):
        if held_out(key):
            continue
        sentences = split_sentences(abstract)
        label = distant_label(title, sentences)
        among = candidates(sentences)
        if label is None or label not in among or len(among) < 2:
            continue
        abstracts += 1
        name = method_name(title)
        for i in among:
            xs.append(sentence_features(sentences, i, name))
            ys.append(int(i == label))
    return xs, ys, abstracts


def main() -> None:
    from sklearn.linear_model import LogisticRegression

    from citekit.output.sentence_roles import FEATURES

    xs, ys, abstracts = training_rows()
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=2000)
    model.fit(xs, ys)
    out = {
        "about": "contribution-sentence ranker; fitted by bench/sentences_train.py, see bench/sentences_data.py",
        "features": list(FEATURES),
        "weights": [round(float(w), 4) for w in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 4),
        "trained_on": {"abstracts": abstracts, "sentences": len(ys)},
    }
    path = REPO / "src" / "citekit" / "data" / "sentence_roles.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"fitted on {abstracts} abstracts ({len(ys)} sentences); wrote {path.relative_to(REPO)}")
    for name, w in sorted(zip(FEATURES, out["weights"]), key=lambda t: -abs(t[1])):
        print(f"  {name:15} {w:+.3f}")


if __name__ == "__main__":
    main()
