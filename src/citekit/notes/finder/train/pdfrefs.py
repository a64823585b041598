"""Reference lists as they come out of a PDF: real citation styles, hard-wrapped and damaged.

The finder's own reference styles (:mod:`.render`) are a handful written for it; a pasted
bibliography is printed by whatever style the paper used. Here the corpus records are
printed through the CSL styles the reference parser trains on (citeproc-py, ``make model``'s
extra), one style per document, then damaged line by line the way copying out of a PDF
damages a list: each reference hard-wrapped at the column's width with or without a hanging
indent (a new reference then looks like any wrapped line, save for where the line above
ends and how this one starts), words split by a hyphen at a line's end, ligatures, the
numbering the style prints or another (``[12]``, ``12.``) or none, blank lines between
references or not, and page breaks: a page number and a running header in the middle of
the list, now and then inside a reference. Every line is labelled by construction: a
reference's first line ``ref``, its other lines ``cont``, the page furniture ``other``.
"""

from __future__ import annotations

import random
import re

from citekit.notes.finder.train.render import Labelled

#: the running headers and footers a page of references carries (what a PDF copy keeps)
_HEADERS = (
    "Published as a conference paper at ICLR {y}", "Under review as a conference paper at ICLR {y}",
    "IEEE TRANSACTIONS ON NEURAL NETWORKS AND LEARNING SYSTEMS, VOL. XX, NO. X, MONTH {y}",
    "Conference’17, July 2017, Washington, DC, USA", "Proceedings of Machine Learning Research vol 1:1–{n}, {y}",
    "Journal of Machine Learning Research {n} ({y}) 1-{n}", "arXiv preprint", "{A} et al.", "Anon.",
    "Preprint. Under review.", "Advances in Neural Information Processing Systems {n} (NeurIPS {y}).",
    "Transactions on Machine Learning Research ({m} {y})", "{A} and {B}", "REFERENCES", "References (continued)",
    "Page {n} of {k}", "© {y} Association for Computing Machinery.", "Vol. {n}, No. {k}, Article {n}. Publication date: {m} {y}.",
)
_MONTHS = ("January", "March", "May", "June", "September", "December")
_FAMILIES = ("Zhang", "Smith", "Nguyen", "Müller", "García", "Kim", "Tanaka", "Okafor", "Rossi", "Ivanova")
_LIGATURES = (("ffi", "ﬃ"), ("ffl", "ﬄ"), ("fi", "ﬁ"), ("fl", "ﬂ"), ("ff", "ﬀ"))
_NUMBER_IN_FRONT = re.compile(r"^\s*(?:\[\d+\]|\(\d+\)|\d+\.(?=\s)|\d+(?=[A-Z\s]))\s*")


def page_furniture(rng: random.Random, page: int) -> list[str]:
    """The lines a page break leaves in a copied list: a page number, a running header, or both."""
    y, n = rng.randint(2015, 2026), rng.randint(2, 99)
    header = rng.choice(_HEADERS).format(y=y, n=n, k=n + rng.randint(1, 40), m=rng.choice(_MONTHS),
                                         A=rng.choice(_FAMILIES), B=rng.choice(_FAMILIES))
    number = " " * rng.choice((0, 20, 36, 42)) + str(page)
    if rng.random() < 0.3:  # a header and its page number on one line, as two-column layouts print them
        header = f"{header}{' ' * rng.randint(4, 20)}{page}" if rng.random() < 0.5 else f"{page}{' ' * rng.randint(4, 20)}{header}"
        return [header]
    lines = [number, header] if rng.random() < 0.5 else [header, number]
    return lines if rng.random() < 0.7 else [rng.choice(lines)]


def pdf_wrap(text: str, rng: random.Random, *, width: int, first: str, hang: str, hyphenate: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters as a typeset column breaks
    it: a word that does not fit is, now and then, split at a hyphen (``optimi-`` /
    ``zation``); ``first`` leads the first line, ``hang`` the others."""
    lines: list[str] = []
    line = first
    for word in text.split():
        sep = " " if line.strip() else ""
        if len(line) + len(sep) + len(word) <= width or not line.strip():
            line += sep + word
            continue
        room = width - len(line) - len(sep) - 1
        if (len(word) >= 6 and room >= 2 and word[:room].isalpha() and len(word) - room >= 2
                and rng.random() < hyphenate):
            cut = rng.randint(2, min(room, len(word) - 2))
            lines.append(line + sep + word[:cut] + "-")
            line = hang + word[cut:]
            continue
        lines.append(line)
        line = hang + word
    if line.strip():
        lines.append(line)
    return lines


def _ligatures(text: str) -> str:
    for plain, lig in _LIGATURES:
        text = text.replace(plain, lig)
    return text


def reference_list(strings: list[str], rng: random.Random) -> Labelled:
    """One copied reference list of ``strings`` (all printed by one style), labelled."""
    numbered_style = all(_NUMBER_IN_FRONT.match(s) for s in strings[:3])
    # (a numbered style's own numbers are those of the batch it was printed in: numbered anew)
    numbering = rng.choice(("bracket", "bracket", "dot", "paren", "none") if numbered_style else
                           ("none", "none", "none", "bracket", "dot"))
    width = rng.choice((64, 72, 80, 88, 96, 104))
    hang = " " * rng.choice((0, 0, 0, 2, 3, 4))
    hyphenate = rng.choice((0.0, 0.3, 0.6))
    ligatures = rng.random() < 0.4
    spaced = rng.random() < 0.15
    page_every = rng.randint(18, 50) if rng.random() < 0.6 else 0
    start = rng.choice((1, 1, rng.randint(2, 60)))
    out: Labelled = []
    page = rng.randint(8, 30)
    since_break = 0
    for i, text in enumerate(strings, start):
        text = " ".join(text.replace("~", " ").split())
        text = _NUMBER_IN_FRONT.sub("", text)
        if ligatures:
            text = _ligatures(text)
        first = {"none": "", "bracket": f"[{i}] ", "dot": f"{i}. ", "paren": f"({i}) "}[numbering]
        lines = pdf_wrap(text, rng, width=width, first=first, hang=hang, hyphenate=hyphenate)
        for k, line in enumerate(lines):
            out.append(("ref" if k == 0 else "cont", line))
            since_break += 1
            if page_every and since_break >= page_every and (k == len(lines) - 1 or rng.random() < 0.3):
                out.append(("blank", ""))
                out += [("other", x) for x in page_furniture(rng, page)]
                if rng.random() < 0.7:
                    out.append(("blank", ""))
                page += 1
                since_break = 0
        if spaced:
            out.append(("blank", ""))
    return out


def rendered_by_style(records: list, seed: int, per_style: int) -> dict[str, list[str]]:
    """Up to ``per_style`` records printed by each CSL style (a seeded sample per style)."""
    from citekit.notes.refparse.train.render import CSL_STYLES, render_csl

    rng = random.Random(seed)
    out: dict[str, list[str]] = {}
    for style in CSL_STYLES:
        sample = rng.sample(records, min(per_style, len(records)))
        try:
            printed = render_csl(sample, style)
        except Exception:  # noqa: BLE001 - a style citeproc-py cannot read: the others are enough
            continue
        texts = [text for text, _rec in printed if 20 <= len(text) <= 600]
        if texts:
            out[style] = texts
    return out


def documents(by_style: dict[str, list[str]], count: int, seed: int) -> list[tuple[str, Labelled]]:
    """``count`` documents, each a reference list in one style set in a few lines of notes."""
    from citekit.notes.finder.train.generate import other_line, paragraph

    rng = random.Random(seed)
    styles = sorted(by_style)
    out = []
    for i in range(count):
        style = styles[i % len(styles)]
        strings = rng.sample(by_style[style], min(len(by_style[style]), rng.randint(4, 24)))
        doc: Labelled = []
        if rng.random() < 0.5:
            doc += [("other", line) for line in paragraph(rng)] + [("blank", "")]
        if rng.random() < 0.8:
            doc += [("other", rng.choice(("References", "REFERENCES", "Bibliography", "## References",
                                          f"refs copied from the {rng.choice(('ICML', 'NeurIPS', 'ACL'))} paper, p. {rng.randint(8, 14)}")))]
            if rng.random() < 0.6:
                doc.append(("blank", ""))
        doc += reference_list(strings, rng)
        if rng.random() < 0.5:
            doc += [("blank", "")] + [("other", rng.choice(("- ", "* ", "", "-> ")) + other_line(rng))
                                      for _ in range(rng.randint(1, 4))]
        out.append((f"pdf:{style}", [(label if line.strip() else "blank", line) for label, line in doc]))
    return out
