"""Which papers the library lacks, ranked by how strongly they tie to a set of its papers.

Two ties come from the citation graph (docs/suggest.md says why these two):

* co-citation: a work that several of the seed papers *cite* (their shared background);
* bibliographic coupling: a work that *cites* several of the seed papers (what built on them).

A third, weaker one is a service's own recommendation. The ties are counted per seed, so a
reason can name the exact keys ("cited by 5 of your 7 `muon` papers: …"). A paper cited by
the whole field (Adam, ResNet) would top every list by raw counts; the score divides the share
of seeds tied by a slowly growing function of the paper's citations in the whole literature,
so a specific work cited by half the seeds outranks a classic cited by all of them, and such
classics are flagged. Recent work gets a small lift, since it is what a reader is likeliest
to have missed. Papers the library holds (under any identifier, version or title), papers
the user dismissed, and records that are not papers (datasets, editorials) are never
suggested.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from citekit.core.model import Entry
from citekit.core.text import normalize_title
from citekit.sources.graph import GraphPaper

#: cited this often in the whole literature: a classic, flagged as such
CLASSIC_CITATIONS = 10_000
#: citations at which the specificity damping halves a tie's weight, about
DAMPING_SCALE = 500.0
#: the lift a paper of this year gets, fading to none over :data:`RECENT_YEARS`
RECENT_LIFT = 0.3
RECENT_YEARS = 10
#: how many of the involved keys a reason names before "and N more" (the JSON lists all)
NAMED_KEYS = 6


@dataclass
class Suggestion:
    """One paper the library lacks, with the exact ties that put it here."""

    paper: GraphPaper
    score: float = 0.0
    #: seed keys that cite it (co-citation)
    cited_by: list[str] = field(default_factory=list)
    #: seed keys it cites (bibliographic coupling)
    cites: list[str] = field(default_factory=list)
    #: the graph services that recommended it for the seeds (``Semantic Scholar``)
    recommended_by: list[str] = field(default_factory=list)
    #: the graph services whose answers tie it to the seeds
    sources: list[str] = field(default_factory=list)
    #: cited :data:`CLASSIC_CITATIONS` times or more in the whole literature
    classic: bool = False
    reason: str = ""
    #: its place in the list, 1-based (what ``--add 1,3`` names)
    rank: int = 0

    @property
    def ties(self) -> int:
        return len(self.cited_by) + len(self.cites)

    @property
    def recommended(self) -> bool:
        return bool(self.recommended_by)

    def to_json(self) -> dict[str, Any]:
        p = self.paper
        return {"rank": self.rank, "title": p.title, "year": p.year, "venue": p.venue, "ids": p.ids(),
                "score": round(self.score, 4), "reason": self.reason, "cited_by": self.cited_by,
                "cites": self.cites, "recommended_by": self.recommended_by, "classic": self.classic,
                "citations_overall": p.cited_by, "sources": self.sources}


class Held:
    """What the library already holds, under every name a graph record may carry."""

    def __init__(self, entries: Iterable[Entry], *, graph_ids: Iterable[str] = (),
                 noted: Iterable[tuple[str, str]] = ()) -> None:
        """``noted``: ``(scheme, value)`` identifiers the notes already name (a paper added
        but not resolved yet is still the user's, not a suggestion)."""
        self.dois: set[str] = {v.lower() for s, v in noted if s == "doi" and v}
        self.arxivs: set[str] = {v for s, v in noted if s == "arxiv" and v}
        self.titles: set[str] = set()
        self.graph_ids: set[str] = set(graph_ids)
        for e in entries:
            if e.ids.doi:
                self.dois.add(e.ids.doi.lower())
            if e.ids.arxiv:
                self.arxivs.add(e.ids.arxiv)
            self._title(e.title or "")
            for version in e.versions:  # other versions of the work: the preprint, the published paper
                source, vid = str(version.get("source") or ""), str(version.get("id") or "")
                if source == "arxiv" and vid:
                    self.arxivs.add(vid.split("v")[0] if vid[:4].isdigit() else vid)
                elif vid.startswith("10."):
                    self.dois.add(vid.lower())
                self._title(str(version.get("title") or ""))

    def _title(self, text: str) -> None:
        title = normalize_title(text)
        if len(title) >= 12:  # a very short title is no evidence of sameness
            self.titles.add(title)

    def holds(self, p: GraphPaper) -> bool:
        return (p.id in self.graph_ids or (p.doi or "").lower() in self.dois or (p.arxiv or "") in self.arxivs
                or normalize_title(p.title or "") in self.titles)


def ties(seeds: dict[str, GraphPaper]) -> dict[str, tuple[list[str], list[str]]]:
    """For every neighbour of the seeds: (seed keys citing it, seed keys it cites), seeds themselves left out."""
    own = {p.id for p in seeds.values()}
    out: dict[str, tuple[list[str], list[str]]] = {}
    for key, p in seeds.items():
        for ref in dict.fromkeys(p.references or []):
            if ref not in own:
                out.setdefault(ref, ([], []))[0].append(key)
        for citer in dict.fromkeys(p.citations or []):
            if citer not in own:
                out.setdefault(citer, ([], []))[1].append(key)
    return out


def shortlist(found: dict[str, tuple[list[str], list[str]]], recommended: Iterable[str], *, seeds: int,
              most: int = 500) -> list[str]:
    """The neighbours worth fetching records for: tied to two seeds or more (one when there
    are fewer than three seeds), or recommended; the most tied first, at most ``most``."""
    floor = 2 if seeds >= 3 else 1
    rec = set(recommended)
    keep = [pid for pid, (a, b) in found.items() if len(a) + len(b) >= floor or pid in rec]
    keep.sort(key=lambda pid: (-(len(found[pid][0]) + len(found[pid][1])), pid not in rec, pid))
    return keep[:most]


def score(s: Suggestion, seeds: int, this_year: int) -> float:
    """Share of the seeds tied (a recommendation counts half a tie), damped by overall
    citations, lifted for recent work (docs/suggest.md)."""
    share = (s.ties + (0.5 if s.recommended else 0.0)) / max(1, seeds)
    cited = max(0, s.paper.cited_by or 0)
    specificity = 1.0 / (1.0 + math.log10(1.0 + cited / DAMPING_SCALE))
    age = this_year - s.paper.year if s.paper.year else RECENT_YEARS
    recency = 1.0 + RECENT_LIFT * max(0.0, 1.0 - max(0, age) / RECENT_YEARS)
    return share * specificity * recency


def neighbours(seeds: dict[str, GraphPaper], records: dict[str, GraphPaper | None], *,
               recommended: Iterable[str] = (), service: str) -> list[Suggestion]:
    """The neighbours of ``seeds`` that have a record, each with its exact ties, unscored:
    one service's view (``service`` names it in reasons)."""
    found = ties(seeds)
    rec = set(recommended)
    out = []
    for pid, paper in records.items():
        if paper is None:
            continue
        cited_by, cites = found.get(pid, ([], []))
        if cited_by or cites or pid in rec:
            out.append(Suggestion(paper=paper, cited_by=list(cited_by), cites=list(cites),
                                  recommended_by=[service] if pid in rec else [], sources=[service]))
    return out


def merge(views: Iterable[list[Suggestion]]) -> list[Suggestion]:
    """Several services' neighbours as one list: records of one work (the same DOI, arXiv id
    or title) become one suggestion whose ties are the union of what each service reported."""
    merged: list[Suggestion] = []
    index: dict[str, Suggestion] = {}
    for view in views:
        for s in view:
            names = _names(s.paper)
            into = next((index[n] for n in names if n in index), None)
            if into is None:
                into = Suggestion(paper=s.paper)
                merged.append(into)
            else:
                p, q = into.paper, s.paper
                p.doi, p.arxiv, p.venue = p.doi or q.doi, p.arxiv or q.arxiv, p.venue or q.venue
                p.year = p.year or q.year
                p.cited_by = max(p.cited_by or 0, q.cited_by or 0) if (p.cited_by or q.cited_by) else None
                p.kinds = p.kinds or q.kinds
            into.cited_by = sorted(set(into.cited_by) | set(s.cited_by), key=_natural)
            into.cites = sorted(set(into.cites) | set(s.cites), key=_natural)
            into.recommended_by = list(dict.fromkeys(into.recommended_by + s.recommended_by))
            into.sources = list(dict.fromkeys(into.sources + s.sources))
            for n in _names(into.paper):
                index.setdefault(n, into)
    return merged


def _names(p: GraphPaper) -> list[str]:
    """What identifies a work across services: a DOI that is not arXiv's own, its arXiv id, its title."""
    names = []
    if p.doi and not p.doi.startswith("10.48550/arxiv."):
        names.append("doi:" + p.doi.lower())
    if p.arxiv:
        names.append("arxiv:" + p.arxiv)
    title = normalize_title(p.title or "")
    if len(title) >= 12:
        names.append("title:" + title)
    return names


def rank(candidates: list[Suggestion], held: Held, *, dismissed: Iterable[str] = (), seed_count: int,
         group: str = "", this_year: int, limit: int = 20) -> list[Suggestion]:
    """The suggestions, best first: the ``candidates`` (from :func:`neighbours`, :func:`merge`)
    that the library does not hold, the user did not dismiss, and that are papers.

    ``seed_count`` is the size of the seed set as the user sees it (seeds the services do
    not know included), the share's denominator; ``group`` names it in reasons ("your 7
    `muon` papers").
    """
    group = group or f"the {seed_count} seed papers"
    no = set(dismissed)
    out: list[Suggestion] = []
    for s in candidates:
        if not s.paper.is_paper or held.holds(s.paper) or _dismissed(s.paper, no):
            continue
        s.classic = (s.paper.cited_by or 0) >= CLASSIC_CITATIONS
        s.score = score(s, seed_count, this_year)
        s.reason = reason(s, group)
        out.append(s)
    out.sort(key=lambda s: (-s.score, -s.ties, s.paper.title))
    for i, s in enumerate(out[:limit], 1):
        s.rank = i
    return out[:limit]


def _dismissed(p: GraphPaper, no: set[str]) -> bool:
    return bool(no) and any(f"{scheme}:{value}".lower() in no for scheme, value in p.ids().items())


def reason(s: Suggestion, group: str) -> str:
    """``cited by 5 of your 7 `muon` papers: a, b, …; cites 3 of them: …; recommended by …``."""
    parts = []
    if s.cited_by:
        parts.append(f"cited by {len(s.cited_by)} of {group}: {_named(s.cited_by)}")
    if s.cites:
        them = "them" if s.cited_by else group
        parts.append(f"cites {len(s.cites)} of {them}: {_named(s.cites)}")
    if s.recommended_by:
        parts.append(f"recommended by {' and '.join(s.recommended_by)} for these papers")
    if s.classic:
        parts.append(f"a classic, cited {s.paper.cited_by:,} times overall: likely known already")
    return "; ".join(parts)


def _named(keys: list[str]) -> str:
    shown = ", ".join(keys[:NAMED_KEYS])
    return shown + (f" and {len(keys) - NAMED_KEYS} more" if len(keys) > NAMED_KEYS else "")


def _natural(key: str) -> list[Any]:
    """``lib2`` before ``lib10``: keys as people read them."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", key)]
