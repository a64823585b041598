"""Reference strings damaged the way copying out of a PDF damages them.

Hard wraps split words at a hyphen (``representa- tions``) or cut URLs; ligatures
(``ﬁ``, ``ﬂ``) replace letter pairs; a citation number (``[7]``, ``7.``) is put in
front. Italics are already gone: the strings are rendered as plain text. Labels move
with their tokens: a split word keeps its label in both halves.
"""

from __future__ import annotations

import random
import re

_LIGS = (("ffi", "ﬃ"), ("ffl", "ﬄ"), ("fi", "ﬁ"), ("fl", "ﬂ"), ("ff", "ﬀ"))
_NUMBER_RE = re.compile(r"^(?:\[\d+\]|\(\d+\)|\d+\.?)$")


def strip_number(text: str) -> str:
    """A citation number citeproc printed in front of the reference, taken off (damage adds its own)."""
    return re.sub(r"^\s*(?:\[\d+\]|\(\d+\)|\d+\.(?=\s)|\d+(?=[A-Z]))\s*", "", text)


def damage(tokens: list[str], labels: list[str], rng: random.Random, *, number: float = 0.35,
           ligatures: float = 0.3, hyphens: float = 0.4, lower_title: float = 0.05) -> tuple[list[str], list[str]]:
    """A damaged copy of one labelled sequence.

    ``lower_title``: the share whose title's first word is put in lower case, as names
    like ``mixup`` and ``word2vec`` are written (no style prints them so by itself).
    """
    toks, labs = list(tokens), list(labels)
    if "title" in labs and rng.random() < lower_title:
        i = labs.index("title")
        t = toks[i]
        j = 1 if t[:1] in "\"“‘'«《" else 0
        toks[i] = t[:j] + t[j:j + 1].lower() + t[j + 1:]
    if rng.random() < ligatures:
        for i, t in enumerate(toks):
            if labs[i] in ("url", "identifier"):
                continue
            for plain, lig in _LIGS:
                t = t.replace(plain, lig)
            toks[i] = t
    if rng.random() < hyphens:
        for _ in range(rng.choice((1, 1, 2, 3))):
            i = rng.randrange(len(toks))
            t = toks[i]
            if labs[i] in ("url", "identifier"):
                if len(t) > 20 and rng.random() < 0.3:
                    cut = rng.randrange(10, len(t) - 5)
                    toks[i:i + 1], labs[i:i + 1] = [t[:cut], t[cut:]], [labs[i], labs[i]]
                continue
            m = re.fullmatch(r"([^\W\d_]{3,})([^\W\d_]{3,})(\W*)", t)
            if not m:
                continue
            word = m.group(1) + m.group(2)
            cut = rng.randrange(3, len(word) - 2)
            toks[i:i + 1], labs[i:i + 1] = [word[:cut] + "-", word[cut:] + m.group(3)], [labs[i], labs[i]]
    if rng.random() < number and not _NUMBER_RE.match(toks[0]):
        k = rng.randrange(1, 120)
        toks.insert(0, rng.choice((f"[{k}]", f"{k}.", f"({k})", f"{k}")))
        labs.insert(0, "other")
    return toks, labs
