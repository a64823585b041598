"""Which abstract sentence becomes a paper's related-work sentence: the learned ranker against the former rule.

Both run through :func:`citekit.output.sentences.contribution` in the same run:
``ranker="rule"`` is the former order ("we propose" > "we develop" > "we study" > "we
show", earliest first, only "We ..."/"This paper ..." sentences), ``ranker="model"`` the
learned ranker with the new readings ("This paper describes", "Our results show that") and
the stand-alone repairs. Figures, all on data never fitted or tuned on:

- judged: hand judgements (``tests/data/sentences/judged.yaml``) of held-out HCI abstracts
  (a test part never inspected, and a development part whose misses were read) and of the
  bundled ICML abstracts: the share of abstracts whose chosen sentence is one a
  co-author would quote (no sentence chosen counts as wrong; the title is used then);
- distant: held-out HCI abstracts whose title-restating sentence is clear (see
  ``bench/sentences_data.py``): the share where that sentence is chosen.

Run: .venv/bin/python bench/sentences_bench.py  (needs ../shared/corpora)
"""

from __future__ import annotations

import yaml

from sentences_data import REPO, distant_label, held_out, load_hci


def _pick(abstract: str, name: str, ranker: str) -> int | None:
    from citekit.output.sentences import contribution

    found = contribution(abstract, name, ranker=ranker)
    return found.index if found else None


def main() -> None:
    from citekit.output.sentences import split_sentences
    from citekit.output.title_prose import method_name

    judged = yaml.safe_load((REPO / "tests" / "data" / "sentences" / "judged.yaml").read_text(encoding="utf-8"))
    hci = {key: (title, abstract) for key, title, abstract in load_hci()}
    paragraphs = [p.strip() for p in (REPO / "notes" / "notes-icml2026-abstracts.txt").read_text(encoding="utf-8")
                  .split("\n\n") if len(p.strip()) > 200]
    cases = [(f"hci {k}", hci[k][1], method_name(hci[k][0]), set(v)) for k, v in judged["hci"].items() if v]
    cases += [(f"test {k}", hci[k][1], method_name(hci[k][0]), set(v)) for k, v in judged["hci_test"].items() if v]
    cases += [(f"bundled {i}", paragraphs[int(i)], "", set(v)) for i, v in judged["bundled"].items() if v]
    print(f"{'set':34} {'n':>4} {'rule':>6} {'model':>6}")
    for label, subset in (("judged: HCI test (never inspected)", [c for c in cases if c[0].startswith("test")]),
                          ("judged: HCI development", [c for c in cases if c[0].startswith("hci")]),
                          ("judged: bundled ICML", [c for c in cases if c[0].startswith("bundled")]),
                          ("judged: all", cases)):
        rule = sum(_pick(a, n, "rule") in ok for _, a, n, ok in subset)
        model = sum(_pick(a, n, "model") in ok for _, a, n, ok in subset)
        print(f"{label:34} {len(subset):4d} {rule / len(subset):6.2f} {model / len(subset):6.2f}")
    rows = []
    for key, (title, abstract) in hci.items():
        if not held_out(key):
            continue
        label = distant_label(title, split_sentences(abstract))
        if label is not None:
            rows.append((abstract, method_name(title), label))
    rule = sum(_pick(a, n, "rule") == y for a, n, y in rows)
    model = sum(_pick(a, n, "model") == y for a, n, y in rows)
    chosen_rule = sum(_pick(a, n, "rule") is not None for a, n, _ in rows)
    chosen_model = sum(_pick(a, n, "model") is not None for a, n, _ in rows)
    print(f"{'distant: HCI held-out':34} {len(rows):4d} {rule / len(rows):6.2f} {model / len(rows):6.2f}")
    print(f"{'  any sentence chosen (else title)':34} {len(rows):4d} {chosen_rule / len(rows):6.2f} "
          f"{chosen_model / len(rows):6.2f}")




def failures() -> None:
    """The judged abstracts where the model's choice is not one a co-author would quote (for -v)."""
    from citekit.output.sentences import contribution, split_sentences
    from citekit.output.sentence_roles import contribution_score
    from citekit.output.title_prose import method_name

    judged = yaml.safe_load((REPO / "tests" / "data" / "sentences" / "judged.yaml").read_text(encoding="utf-8"))
    hci = {key: (title, abstract) for key, title, abstract in load_hci()}
    paragraphs = [p.strip() for p in (REPO / "notes" / "notes-icml2026-abstracts.txt").read_text(encoding="utf-8")
                  .split("\n\n") if len(p.strip()) > 200]
    cases = [(k, hci[k][1], method_name(hci[k][0]), set(v)) for k, v in judged["hci"].items() if v]
    cases += [(i, paragraphs[int(i)], "", set(v)) for i, v in judged["bundled"].items() if v]
    for label, abstract, name, ok in cases:
        got = contribution(abstract, name, ranker="model")
        if got and got.index in ok:
            continue
        sentences = split_sentences(abstract)
        print(f"## {label} want {sorted(ok)} got {got.index if got else None}")
        for i, s in enumerate(sentences):
            print(f"  {i} {contribution_score(sentences, i, name):.2f} {s[:110]}")
        if got:
            print("  ->", got.rest[:150])


if __name__ == "__main__":
    import sys

    failures() if "-v" in sys.argv else main()
