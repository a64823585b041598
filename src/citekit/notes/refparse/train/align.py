"""Labels by construction: each token of a rendered reference string traced back to the field it came from.

A token is a candidate for every field whose words contain it (names also by their
initials). The labelling chosen is the one with the fewest changes of label that gives
every token one of its candidates; tokens no field claims (``and``, ``In``, ``pp.``,
``&``) join their neighbours' field when that saves a change, as AnyStyle labels them.
"""

from __future__ import annotations

import re

from citekit.notes.refparse.tokens import core, fold

#: Words that belong to the field after them, as AnyStyle labels them.
PREFIXES = {
    "container": {"in", "in:", "proc", "proceedings"},
    "pages": {"pp", "p", "pages", "page", "s"},
    "volume": {"vol", "volume", "no", "nr", "issue", "iss", "number", "bd"},
    "identifier": {"doi", "arxiv", "isbn"},
    "url": {"url", "available", "at", "online", "from", "retrieved"},
    "author": {"and", "et", "al", "others", "&", "等", "ほか", "u", "a"},
}
_MONTH_WORDS = {
    1: "january jan", 2: "february feb", 3: "march mar", 4: "april apr", 5: "may", 6: "june jun",
    7: "july jul", 8: "august aug", 9: "september sep sept", 10: "october oct", 11: "november nov",
    12: "december dec",
}


def _words(text: str) -> set[str]:
    parts = {core(w) for w in re.split(r"[\s\-–—/]+", text)} | {core(w) for w in text.split()}
    return {w for w in parts if w}


def name_words(names: list[dict[str, str]]) -> set[str]:
    """Every form a name's words take in print: whole, initials, joined initials."""
    out: set[str] = set()
    for n in names:
        for part in ("family", "non-dropping-particle", "literal"):
            out |= _words(n.get(part, ""))
        given = n.get("given", "")
        gw = [w for w in re.split(r"[\s.]+", given) if w]
        out |= _words(given)
        inits = []
        for w in gw:
            subs = [s for s in w.split("-") if s]
            i = "".join(core(s)[:1] for s in subs)
            inits.append(i)
            out |= {core(s)[:1] for s in subs if core(s)}
            out.add(i)
        if inits:
            out.add("".join(inits))
    out.discard("")
    return out


def field_words(fields: dict[str, object]) -> dict[str, set[str]]:
    """The candidate words of each label, from a record's field values."""
    out: dict[str, set[str]] = {}
    for label, value in fields.items():
        if value is None or value == "" or value == []:
            continue
        if label in ("author", "other-names"):
            out[label] = name_words(value)  # type: ignore[arg-type]
        elif label == "pages":
            words = _words(str(value))
            words.add(core(str(value)))
            out[label] = words
        elif label == "url":
            out[label] = {core(str(value))}
        elif label == "identifier":
            out[label] = set()
            for v in str(value).split():
                out[label] |= {core(v), core("doi:" + v), core("https://doi.org/" + v), core("http://dx.doi.org/" + v)}
                out[label] |= {core("arxiv:" + v), core("https://arxiv.org/abs/" + v)}
        else:
            out[label] = _words(str(value))
    return out


#: the order in which a tie goes: a word both title and container hold is the title's
PRIORITY = ("title", "author", "date", "volume", "pages", "identifier", "url", "container", "note", "other")


def _candidates(tok: str, words: dict[str, set[str]], pages: str) -> set[str]:
    c = core(tok)
    if not c:
        return set()
    found = {lab for lab, ws in words.items() if c in ws}
    if not found:
        # a token glued from several fields' words (``42(2-3),``, ``1997;9(8):1735-80``):
        # it goes with the field of its first part, when every part is some field's
        parts = [core(p) for p in re.split(r"[^\w]+", fold(tok)) if core(p)]
        if len(parts) > 1 and all(any(p in ws for ws in words.values()) for p in parts):
            found = {lab for lab, ws in words.items() if parts[0] in ws}
    # a URL printed whole, or a DOI/URL cut at a line end
    for lab in ("url", "identifier"):
        if lab in words and len(c) > 6 and ("/" in tok or ":" in tok) and any(c in w or w.startswith(c) or w.endswith(c) for w in words[lab]):
            found.add(lab)
    if pages and re.fullmatch(r"\d+[-–]\d+", re.sub(r"[^\d\-–]", "", tok)) and \
            re.sub(r"[^\d\-–]", "", tok).split("-")[0].split("–")[0] == re.split(r"[-–]", pages)[0]:
        found.add("pages")
    return found


_WEAK = frozenset("and the of in a an on for to with by at from und der die das de la le et al".split())


def _weak(tok: str) -> bool:
    c = core(tok)
    return len(c) <= 1 or c in _WEAK


#: the two rules of the retyped recipe (a word the title and its container share is the title's,
#: a bare ``A`` the title holds opens it); the trainer's ``--retyped-share`` turns them on
TITLE_FIRST = False


def align(tokens: list[str], fields: dict[str, object]) -> list[str]:
    """One label per token (``other`` for tokens no field explains)."""
    words = field_words(fields)
    if "other-names" in words:
        words["other"] = words.pop("other-names") | words.get("other", set())
    labels = [lab for lab in PRIORITY if lab in words or lab == "other"]
    pages = str(fields.get("pages") or "")
    n = len(tokens)
    cand = [_candidates(t, words, pages) for t in tokens]
    INF = 1e9
    cost = [[0.0] * len(labels) for _ in range(n)]
    for i, tok in enumerate(tokens):
        low = fold(tok).strip(".,:;()[]")
        for j, lab in enumerate(labels):
            if cand[i] and _weak(tokens[i]):
                # "and", "of", "A", "J.": words any field may hold go with their neighbours
                cost[i][j] = 0.0 if lab in cand[i] else 0.3
                if low in PREFIXES.get(lab, ()) and not (TITLE_FIRST and lab == "author" and tok == "A" and "title" in cand[i]):
                    # (a bare ``A`` the title holds opens the title: ``… et al. A Hand Gesture …``;
                    # the author bonus is for ``a``/``u`` joining names)
                    cost[i][j] = -0.1
            elif cand[i]:
                # a token two fields claim goes to the field with fewer words (a year: the date)
                # but a word both the title and the container hold is the title's (``Parsing”. In
                # Handbook of Parsing``): the change of label then falls at ``In``, not inside the title
                sizes = {c: len(words.get(c, ())) for c in cand[i]}
                if TITLE_FIRST and "title" in sizes and "container" in sizes:
                    del sizes["container"]
                smallest = min(sizes.values())
                cost[i][j] = 4.0 if lab not in cand[i] else 0.0 if sizes.get(lab) == smallest else 0.05
            elif tok.startswith("\\"):
                cost[i][j] = 0.0 if lab == "other" else 2.0  # \newblock, \bibitem{key}: markup, not text
            else:
                cost[i][j] = 0.0 if lab == "other" else 0.6
                if low in PREFIXES.get(lab, ()):
                    cost[i][j] = -0.1
    # Viterbi: unit cost per change of label
    best = [cost[0][:]]
    back: list[list[int]] = [[0] * len(labels)]
    for i in range(1, n):
        row, brow = [], []
        for j in range(len(labels)):
            k = min(range(len(labels)), key=lambda k: best[-1][k] + (0 if k == j else 1))
            row.append(best[-1][k] + (0 if k == j else 1) + cost[i][j])
            brow.append(k)
        best.append(row)
        back.append(brow)
    j = min(range(len(labels)), key=lambda k: best[-1][k])
    out = [""] * n
    for i in range(n - 1, -1, -1):
        out[i] = labels[j]
        j = back[i][j]
    return out
