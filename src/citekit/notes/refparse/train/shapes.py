"""The note line shapes citekit already reads, written out from corpus records with their labels.

``Title — A, B``, ``Title (A & B, ICLR 2018)``, ``"Title" by A and B``,
``Title. A; B. ICML 2026.``, ``Title, A et al., NeurIPS'25``, ``[Title](url) — A``,
``论文: 《Title》 作者: A 等`` and ``Title — Family, Family``: the shapes of
``docs/notes-format.md``, labelled by construction.
"""

from __future__ import annotations

import random
import re

from citekit.notes.refparse.train.corpus import Record
from citekit.notes.refparse.tokens import tokenize

Piece = tuple[str, str]  # text, label


def _full(n: dict[str, str]) -> str:
    return " ".join(p for p in (n.get("given", ""), n.get("non-dropping-particle", ""), n.get("family", "")) if p)


def _venue(rec: Record) -> str:
    m = re.search(r"\b([A-Z][A-Za-z]*[A-Z]{2,}[A-Za-z]*)\b", rec.container)
    short = m.group(1) if m else (rec.container.split(",")[0][:40] if rec.container else "")
    return short


def _authors(rec: Record, rng: random.Random, sep: str = ", ", last: str = ", ") -> tuple[str, bool]:
    names = [_full(n) for n in rec.authors]
    if len(names) > 3 and rng.random() < 0.5:
        return names[0] + rng.choice((" et al.", " et al", " and others")), True
    if len(names) == 1:
        return names[0], False
    return sep.join(names[:-1]) + last + names[-1], False


def note_line(rec: Record, rng: random.Random) -> list[Piece]:
    """One note line naming ``rec``, as (text, label) pieces."""
    title = rec.title
    venue = _venue(rec)
    year = str(rec.year or "")
    shape = rng.randrange(9)
    bullet: list[Piece] = [(rng.choice(("-", "*", "- [ ]", "1.", "- TODO")), "other")] if rng.random() < 0.6 else []
    if shape == 0:
        a, _ = _authors(rec, rng)
        bold = rng.random() < 0.3
        t = f"**{title}**" if bold else title
        return bullet + [(t, "title"), (rng.choice(("—", "–", "-", "--")), "other"), (a, "author")]
    if shape == 1:
        fams = [n["family"] for n in rec.authors]
        a = f"{fams[0]} et al." if len(fams) > 2 else " & ".join(fams)
        tail = [(venue, "container")] if venue else []
        return bullet + [(title, "title"), ("(" + a + ",", "author")] + tail + [(year + ")", "date")]
    if shape == 2:
        a, _ = _authors(rec, rng, last=" and ")
        return bullet + [(f"\"{title}\"" if rng.random() < 0.5 else title, "title"), ("by", "other"), (a, "author")]
    if shape == 3:
        names = "; ".join(_full(n) for n in rec.authors[:6])
        tail = [(venue, "container"), (year + ".", "date")] if venue and year else []
        return bullet + [(title + ".", "title"), (names + ".", "author")] + tail
    if shape == 4:
        a, _ = _authors(rec, rng)
        tail = [(f"{venue}'{year[2:]}", "container")] if venue and year else []
        return bullet + [(title + ",", "title"), (a + ",", "author")] + tail
    if shape == 5:
        a, _ = _authors(rec, rng)
        url = rec.url or (f"https://arxiv.org/abs/{rec.arxiv}" if rec.arxiv else "")
        if url:
            return bullet + [(f"[{title}]({url})", "title"), ("—", "other"), (a, "author")]
        return bullet + [(f"[[{title}]]", "title"), ("—", "other"), (a, "author")]
    if shape == 6:
        first = _full(rec.authors[0])
        more = len(rec.authors) > 1
        if rng.random() < 0.5:
            return bullet + [("论文:", "other"), (f"《{title}》", "title"), ("作者:", "other"),
                             (first + (" 等" if more else ""), "author")]
        return bullet + [("論文:", "other"), (title, "title"), ("著者:", "other"),
                         (first + (" ほか" if more else ""), "author")]
    if shape == 7:
        fams = ", ".join(n["family"] for n in rec.authors[:5])
        return bullet + [(title, "title"), ("—", "other"), (fams, "author")]
    a, _ = _authors(rec, rng, last=", and ")
    ids = [(f"arXiv:{rec.arxiv}", "identifier")] if rec.arxiv else []
    return [(a + ".", "author"), (title + ".", "title")] + ([(f"In {venue},", "container")] if venue else []) + \
        ([(year + ".", "date")] if year else []) + ids


def labelled_line(rec: Record, rng: random.Random) -> tuple[str, list[str], list[str]]:
    tokens: list[str] = []
    labels: list[str] = []
    for text, lab in note_line(rec, rng):
        toks = [t.text for t in tokenize(text)]
        tokens += toks
        labels += [lab] * len(toks)
    return " ".join(tokens), tokens, labels
