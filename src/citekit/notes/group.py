"""Putting the mentions of one work together, before anything is looked up online.

Two mentions are one work when they share a normalized title, a paper URL, an identifier
or a project/code page, or when their titles are near-identical (a typo, a doubled
space). An untitled abstract joins a titled mention only on strong evidence: one of the
method names it introduces is that title's method, and most of the title's words occur in
the abstract. Anything weaker is left for online resolution to decide.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from ..model import Mention
from ..text import normalize_title, title_tokens
from .abstracts import is_coinage
from .urls import url_key

#: rapidfuzz ratio (0–100) of normalized titles above which two titles are one.
NEAR_IDENTICAL = 95.0
#: share of a title's significant words an abstract must contain to be "about" it.
ABSTRACT_COVERAGE = 0.6


class _Groups:
    """Union–find over mention indexes; the smallest index is each group's root."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def identity_keys(mention: Mention) -> set[str]:
    """Every string that, shared by two mentions, makes them one work."""
    keys = {f"url:{url_key(u)}" for u in mention.urls}
    keys |= {f"link:{url_key(u)}" for label, u in mention.links.items() if label in ("project", "code")}
    keys |= {f"{scheme}:{value}" for scheme, value in mention.ids.items()}
    keys |= {f"{scheme}:{value}" for scheme, value in mention.pins.items()}
    if mention.title and normalize_title(mention.title):
        keys.add(f"title:{normalize_title(mention.title)}")
    return keys


def title_methods(mention: Mention) -> set[str]:
    """Method names a titled mention is about, case-folded: the title's coinages
    (``LiMuon`` in ``LiMuon: Light and Fast ...``) and those its summary names."""
    names: set[str] = set()
    texts = [mention.title or "", mention.summary or ""]
    for text in texts:
        for token in re.findall(r"[^\s,;:()\[\]、。「」]+", text):
            token = token.strip(".!?\"'")
            # Japanese summaries glue names to particles: "Gluonは" -> "Gluon"
            token = re.match(r"[A-Za-z0-9α-ωΑ-Ω_^\-]+", token)
            if token and is_coinage(token.group(0)):
                names.add(token.group(0).lower())
    return names


def _abstract_owner(abstract: Mention, titled: list[tuple[int, Mention]]) -> int | None:
    """Index of the one titled mention this abstract is clearly about, if any."""
    hints = {h.lower() for h in abstract.hints}
    if not hints or not abstract.abstract:
        return None
    words = set(normalize_title(abstract.abstract).split())
    best: tuple[float, int] | None = None
    for index, mention in titled:
        if not hints & title_methods(mention):
            continue
        tokens = title_tokens(mention.title or "")
        coverage = sum(1 for t in tokens if t in words) / len(tokens) if tokens else 0.0
        if coverage >= ABSTRACT_COVERAGE and (best is None or coverage > best[0]):
            best = (coverage, index)
    return best[1] if best else None


def _near_identical(a: str, b: str) -> bool:
    """Normalized titles that differ by a typo; never by a number (``Llama 2`` vs ``Llama 3``)."""
    if re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return False
    return bool(fuzz.ratio(a, b, score_cutoff=NEAR_IDENTICAL))


def group_mentions(mentions: list[Mention]) -> list[list[Mention]]:
    """Mentions of the same work together; groups in order of first appearance, each group
    in the order the mentions were given."""
    groups = _Groups(len(mentions))
    owner_of_key: dict[str, int] = {}
    for i, mention in enumerate(mentions):
        for key in identity_keys(mention):
            if key in owner_of_key:
                groups.union(owner_of_key[key], i)
            else:
                owner_of_key[key] = i
    titled = [(i, m) for i, m in enumerate(mentions) if m.title]
    normalized = [(i, normalize_title(m.title or "")) for i, m in titled]
    for a in range(len(normalized)):
        for b in range(a + 1, len(normalized)):
            (i, ta), (j, tb) = normalized[a], normalized[b]
            if ta and tb and ta != tb and _near_identical(ta, tb):
                groups.union(i, j)
    for i, mention in enumerate(mentions):
        if mention.kind == "abstract":
            owner = _abstract_owner(mention, titled)
            if owner is not None:
                groups.union(owner, i)
    by_root: dict[int, list[Mention]] = {}
    for i, mention in enumerate(mentions):
        by_root.setdefault(groups.find(i), []).append(mention)
    return [by_root[root] for root in sorted(by_root)]
