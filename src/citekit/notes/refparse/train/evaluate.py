"""Scoring a labelling against gold labels: token error rate and field F1 (exact and token-level).

A field's value is all the tokens given its label, joined (words split at a line end put
back together), folded and stripped to letters and digits: "exact" means the parser's
value and the gold value are that same string. A sequence counts as a true positive for a
field when both have it and agree; as a false positive when the parser has it and it
differs (or gold has none); as a false negative when gold has it and the parser's
differs or is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citekit.notes.refparse.fields import join_tokens
from citekit.notes.refparse.tokens import core

FIELDS = ("title", "author", "container", "date", "volume", "pages", "identifier", "url")


def field_value(tokens: list[str], labels: list[str], label: str) -> str:
    return core(join_tokens([t for t, lab in zip(tokens, labels) if lab == label]))


@dataclass
class Score:
    tokens: int = 0
    token_errors: int = 0
    sequences: int = 0
    sequence_errors: int = 0
    exact: dict[str, list[int]] = field(default_factory=dict)  # field -> [tp, fp, fn]
    token: dict[str, list[int]] = field(default_factory=dict)

    def add(self, tokens: list[str], gold: list[str], pred: list[str]) -> None:
        self.sequences += 1
        self.tokens += len(tokens)
        wrong = sum(g != p for g, p in zip(gold, pred))
        self.token_errors += wrong
        self.sequence_errors += wrong > 0
        for f in FIELDS:
            g, p = field_value(tokens, gold, f), field_value(tokens, pred, f)
            c = self.exact.setdefault(f, [0, 0, 0, 0])
            c[3] += bool(g)
            if g and p and g == p:
                c[0] += 1
            else:
                c[1] += bool(p)
                c[2] += bool(g)
            t = self.token.setdefault(f, [0, 0, 0])
            for gl, pl in zip(gold, pred):
                t[0] += gl == f and pl == f
                t[1] += pl == f and gl != f
                t[2] += gl == f and pl != f

    @staticmethod
    def f1(c: list[int]) -> float:
        tp, fp, fn = c[:3]
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0

    def exact_f1(self, f: str) -> float:
        return self.f1(self.exact.get(f, [0, 0, 0]))

    def token_f1(self, f: str) -> float:
        return self.f1(self.token.get(f, [0, 0, 0]))

    @property
    def token_error_rate(self) -> float:
        return self.token_errors / max(self.tokens, 1)

    @property
    def sequence_error_rate(self) -> float:
        return self.sequence_errors / max(self.sequences, 1)

    def report(self, name: str) -> str:
        lines = [f"{name}: {self.sequences} references, {self.tokens} tokens",
                 f"  token error rate {self.token_error_rate:.4f}   sequence error rate {self.sequence_error_rate:.4f}",
                 f"  {'field':11s} {'exact F1':>9s} {'token F1':>9s} {'gold has':>9s}"]
        for f in FIELDS:
            c = self.exact.get(f, [0, 0, 0, 0])
            if c[3]:
                lines.append(f"  {f:11s} {self.exact_f1(f):9.4f} {self.token_f1(f):9.4f} {c[3]:9d}")
        return "\n".join(lines)


def score(sequences: list[tuple[str, list[str], list[str]]]) -> Score:
    """Label every sequence with the current model and score it."""
    from citekit.notes.refparse import model
    from citekit.notes.refparse.tokens import features

    s = Score()
    for _, tokens, gold in sequences:
        pred, _ = model.tag(features(tokens))
        s.add(tokens, gold, pred)
    return s
