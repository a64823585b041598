"""Putting the mentions of one work together, before anything is looked up online.

Two mentions are one work when they share a paper URL, an identifier or a project/code
page; an author-year citation with no title joins only the same citation in the same file.
Mentions with one title (the same normalized title, or near-identical ones: a typo, a
doubled space) are one work unless what they say of who wrote it contradicts: a similar
title is not the same paper, and two books both called "The Commercial Paper Market"
(Baxter 1966; Foulke & Roy 1931) are two works. What a mention says of who wrote it, and
when two such sayings contradict, is matching's decision
(:func:`citekit.matching.candidates.bylines_contradict`: no author of one is an author of
the other, or years more than two apart and the lists are not one list), handed in by the
resolution layer (:func:`citekit.resolve.grouping.group_mentions`); without it, one title
is one work. A mention of the
title without authors joins the one work of that title that has them; when there are
several, it is a work of its own (which of them it means is not known). An untitled
abstract joins a titled mention only on strong evidence: one of the method names it
introduces is that title's method, and most of the title's words occur in the abstract.
Anything weaker is left for online resolution to decide.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

from rapidfuzz import fuzz

from citekit.core.resolution import Mention
from citekit.core.text import normalize_title, title_tokens
from citekit.core.unionfind import UnionFind
from citekit.notes.abstracts import is_coinage
from citekit.notes.urls import url_key

#: rapidfuzz ratio (0–100) of normalized titles above which two titles are one.
NEAR_IDENTICAL = 95.0
#: share of a title's significant words an abstract must contain to be "about" it.
ABSTRACT_COVERAGE = 0.6


def identity_keys(mention: Mention) -> set[str]:
    """Every string that, shared by two mentions, makes them one work."""
    keys = {f"url:{url_key(u)}" for u in mention.urls}
    keys |= {f"link:{url_key(u)}" for label, u in mention.links.items() if label in ("project", "code")}
    keys |= {f"{scheme}:{value}" for scheme, value in mention.ids.items()}
    keys |= {f"{scheme}:{value}" for scheme, value in mention.pins.items()}
    if mention.title and normalize_title(mention.title):
        keys.add(f"title:{normalize_title(mention.title)}")
    if mention.kind == "cited" and mention.authors and mention.year and not mention.year_from_page:
        # the same author-year citation again in the same file ("Hu et al., 2021" on each
        # annotation of a Zotero note) is the same paper; in another file it may not be
        family = mention.authors[0].split()[-1].lower()
        keys.add(f"cited:{mention.location.file}:{family}:{mention.year}")
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


def _abstract_owner(abstract: Mention, titled: list[tuple[int, Mention]],
                    methods: dict[str, list[int]] | None = None,
                    positions: dict[int, int] | None = None) -> int | None:
    """Index of the one titled mention this abstract is clearly about, if any.

    ``methods`` (method name -> positions in ``titled``) narrows the search to titles
    naming one of the abstract's methods, so many abstracts do not scan every title.
    """
    hints = {h.lower() for h in abstract.hints}
    if not hints or not abstract.abstract:
        return None
    if methods is None:
        candidates = [m for m in titled if hints & title_methods(m[1])]
    else:
        candidates = [titled[p] for p in sorted({p for h in hints for p in methods.get(h, ())})]
    if not candidates:
        return None
    words = set(normalize_title(abstract.abstract).split())
    best: tuple[float, int] | None = None
    for index, mention in candidates:
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


#: the shorter of two near-identical titles of length L is at most this many edits
#: (insertions + deletions) from the other: d <= 0.05 (L + L') and L' <= L + d
_EDITS_PER_CHAR = (100.0 - NEAR_IDENTICAL) / 100.0 * 2 / (1 - (100.0 - NEAR_IDENTICAL) / 100.0)


def _max_edits(length: int) -> int:
    return int(length * _EDITS_PER_CHAR + 1e-9) + 1  # one more than the bound, for float safety


def _segments(length: int) -> list[tuple[int, int]]:
    """(start, length) of the pieces a title of ``length`` characters is cut into: one more
    piece than edits allowed, so a near-identical title contains at least one piece whole."""
    count = min(_max_edits(length) + 1, length)
    base, extra = divmod(length, count)
    out, start = [], 0
    for k in range(count):
        size = base + (1 if k >= count - extra else 0)
        out.append((start, size))
        start += size
    return out


def near_identical_pairs(titles: list[str]) -> list[tuple[str, str]]:
    """Pairs of distinct normalized titles that :func:`_near_identical` accepts, without
    comparing every pair.

    Exact, not a heuristic: if two titles are within d edits, cutting the shorter one into
    d + 1 pieces leaves at least one piece untouched, found in the longer one within d
    characters of where it was. Titles are indexed by their pieces (and by their numbers,
    which must match anyway), so each title is compared only with titles sharing a piece
    at about the same place: linear in the number of titles instead of quadratic.
    """
    ordered = sorted({t for t in titles if t}, key=lambda t: (len(t), t))
    index: dict[tuple[Any, ...], list[int]] = {}
    lengths: set[int] = set()
    pairs: list[tuple[str, str]] = []
    numbers = [tuple(re.findall(r"\d+", t)) for t in ordered]
    for b, long in enumerate(ordered):
        lb = len(long)
        seen: set[int] = set()
        for la in sorted(lengths):
            edits = _max_edits(la)
            if lb - la > edits:
                continue
            # with i insertions and e deletions (i + e <= edits, i - e = lb - la), a piece
            # moves right by at most i and left by at most e
            right = (edits + lb - la) // 2
            left = (edits - (lb - la)) // 2
            for k, (start, size) in enumerate(_segments(la)):
                for pos in range(max(0, start - left), min(lb - size, start + right) + 1):
                    for a in index.get((numbers[b], la, k, long[pos:pos + size]), ()):
                        if a not in seen:
                            seen.add(a)
                            if _near_identical(ordered[a], long):
                                pairs.append((ordered[a], long))
        for k, (start, size) in enumerate(_segments(lb)):
            index.setdefault((numbers[b], lb, k, long[start:start + size]), []).append(b)
        lengths.add(lb)
    return pairs


#: what a mention says of who wrote it (hashable, with ``names``: empty when it names no
#: author), or None when it says nothing; and whether two such sayings contradict
Describe = Callable[[Mention], Any]
Contradict = Callable[[Any, Any], bool]


def _join_one_title(members: list[int], groups: UnionFind, who: dict[int, set[Hashable]],
                    contradict: Contradict) -> None:
    """Join the mentions of one title (``members``, in document order) into works, as far as
    their authors and years allow; ``who`` holds what each current group says (by root)."""
    roots: list[int] = []
    for i in members:
        root = groups.find(i)
        if root not in roots:
            roots.append(root)
    if len(roots) < 2:
        return

    def join(a: int, b: int) -> None:
        ra, rb = groups.find(a), groups.find(b)
        if ra != rb:
            merged = who.pop(ra, set()) | who.pop(rb, set())
            groups.union(ra, rb)
            if merged:
                who[groups.find(ra)] = merged

    def fits(one: set[Any], other: set[Any]) -> bool:
        return not any(contradict(a, b) for a in one for b in other)

    works: list[int] = []  # one mention of each work of this title that names authors
    untold: list[int] = []  # groups that name no authors: nothing tells which work they are
    for root in roots:
        said = who.get(groups.find(root), set())
        if not any(w.names for w in said):
            untold.append(root)
            continue
        fitting = [w for w in works if fits(who.get(groups.find(w), set()), said)]
        if len(fitting) == 1:
            join(fitting[0], root)
        else:  # another work of the same title (or one that fits several: which is not known)
            works.append(root)
    if len(works) <= 1:
        for root in untold:
            join(works[0] if works else untold[0], root)
    else:  # the title alone, noted where several works bear it: a work of its own
        for root in untold[1:]:
            join(untold[0], root)


def group_mentions(mentions: list[Mention], *, describe: Describe | None = None,
                   contradict: Contradict | None = None) -> list[list[Mention]]:
    """Mentions of the same work together; groups in order of first appearance, each group
    in the order the mentions were given. ``describe`` and ``contradict`` (both or neither)
    keep mentions of one title apart when what they say of their authors contradicts (see
    the module docstring); without them one title is one work."""
    groups = UnionFind(len(mentions))
    owner_of_key: dict[str, int] = {}
    by_title: dict[str, list[int]] = {}
    for i, mention in enumerate(mentions):
        for key in identity_keys(mention):
            if key.startswith("title:"):
                by_title.setdefault(key[len("title:"):], []).append(i)
            elif key in owner_of_key:
                groups.union(owner_of_key[key], i)
            else:
                owner_of_key[key] = i
    if by_title:
        # one title: the same normalized title, or near-identical ones (compared once each)
        titles = list(by_title)
        position = {t: k for k, t in enumerate(titles)}
        same_title = UnionFind(len(titles))
        for a, b in near_identical_pairs(titles):
            same_title.union(position[a], position[b])
        clusters = [sorted(i for k in cluster for i in by_title[titles[k]]) for cluster in same_title.groups()]
        clusters = [c for c in clusters if len(c) > 1]
        if clusters and (describe is None or contradict is None):
            for members in clusters:
                for i in members[1:]:
                    groups.union(members[0], i)
        elif clusters:
            assert describe is not None and contradict is not None
            who: dict[int, set[Hashable]] = {}
            for i, mention in enumerate(mentions):
                said = describe(mention)
                if said is not None:
                    who.setdefault(groups.find(i), set()).add(said)
            for members in clusters:
                _join_one_title(members, groups, who, contradict)
    titled = [(i, m) for i, m in enumerate(mentions) if m.title]
    abstracts = [(i, m) for i, m in enumerate(mentions) if m.kind == "abstract"]
    if abstracts:
        methods: dict[str, list[int]] = {}
        for position_, (_i, m) in enumerate(titled):
            for name in title_methods(m):
                methods.setdefault(name, []).append(position_)
        for i, mention in abstracts:
            owner = _abstract_owner(mention, titled, methods)
            if owner is not None:
                groups.union(owner, i)
    return [[mentions[i] for i in group] for group in groups.groups()]
