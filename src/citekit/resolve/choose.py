"""Which records are versions of one paper, and which version to cite.

A paper lives several lives: a workshop title, an arXiv v1 and v2, a rejected ICLR
submission with anonymous authors, the accepted ICML record, later a journal article.
Records are linked as versions of one work when the evidence is hard (a shared
identifier: arXiv id, OpenReview forum, DOI, dblp key, or an OpenReview record's arXiv
link) or when the same people wrote a near-identical title. The version to cite is then
picked by a precedence of stages (published > accepted > preprint > other submissions by
default), preferring among the final versions the venue the notes name.
"""

from __future__ import annotations

from typing import Sequence

from ..model import Candidate, Ids
from .. import venues
from .match import abstract_similarity, author_overlap, authors_agree, is_anonymous, title_agreement

#: Default order of stages, best first (``citekit.yaml`` ``precedence:`` may replace it).
DEFAULT_PRECEDENCE: tuple[str, ...] = ("published", "accepted", "preprint", "submitted", "rejected", "workshop", "notes")
#: Stages that are a paper's final form; the notes' venue is preferred among these.
FINAL_STAGES = frozenset({"published", "accepted"})
# Among equal stages, the source whose record carries the most citation metadata first;
# a preprint is best cited from arXiv itself (eprint, version), not from its dblp mirror.
_SOURCE_ORDER = {"dblp": 0, "crossref": 1, "openreview": 2, "arxiv": 3, "notes": 4}
_PREPRINT_SOURCE_ORDER = {"arxiv": 0, "dblp": 1, "crossref": 2, "openreview": 3, "notes": 4}


def same_work(a: Candidate, b: Candidate) -> bool:
    """True when ``a`` and ``b`` are versions of one paper.

    A shared identifier decides. Without one, both records must name the same authors
    and agree on the title; an anonymous record (a double-blind submission) can only be
    linked by an identifier or by a near-identical title *and* abstract.
    """
    if a.ids.shares_any(b.ids):
        return True
    level, sim = title_agreement(a.title, b.title)
    if level != "full":
        return False
    if is_anonymous(a.authors) or is_anonymous(b.authors):
        if a.abstract and b.abstract:
            return sim >= 0.95 and abstract_similarity(a.abstract, b.abstract) >= 0.8
        return False
    share, matched = author_overlap([p.raw or p.display() for p in a.authors], b.authors)
    return authors_agree(share, matched, len(a.authors), len(b.authors)) and share >= 0.6


def group_versions(candidates: Sequence[Candidate]) -> list[list[Candidate]]:
    """Partition records into works (linking is transitive: v1 ~ v2 ~ accepted record).

    Groups keep the order in which their first record appeared, records their own order.
    """
    parent = list(range(len(candidates)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(candidates)):
        for j in range(i + 1, len(candidates)):
            if find(i) != find(j) and same_work(candidates[i], candidates[j]):
                parent[find(j)] = find(i)
    groups: dict[int, list[Candidate]] = {}
    for i, cand in enumerate(candidates):
        groups.setdefault(find(i), []).append(cand)
    return list(groups.values())


def stage_rank(stage: str, precedence: Sequence[str] | None = None) -> int:
    """Position of ``stage`` in the precedence; unknown stages come last."""
    order = list(precedence or DEFAULT_PRECEDENCE)
    return order.index(stage) if stage in order else len(order)


def names_venue(candidate: Candidate, venue: str | None, year: int | None) -> bool:
    """True when the candidate is at the venue (and year) the notes name."""
    if not venue or not candidate.venue:
        return False
    found, found_year = venues.from_text(candidate.venue)
    wanted = venues.canonical(venue) or venue
    if found != wanted:
        return False
    return year is None or found_year is None or found_year == year


def choose_version(
    versions: Sequence[Candidate],
    *,
    precedence: Sequence[str] | None = None,
    venue: str | None = None,
    year: int | None = None,
) -> Candidate:
    """The version to cite.

    A final version (published or accepted) at the venue the notes name wins first: a
    researcher who wrote down the ICML poster wants the ICML paper even when a journal
    extension exists. Otherwise the precedence of stages decides, then the source whose
    records carry the most metadata, then the record with the most identifiers.
    """
    if not versions:
        raise ValueError("choose_version needs at least one version; resolve the work first")

    def key(c: Candidate) -> tuple[int, int, int, int, float]:
        preferred = c.stage in FINAL_STAGES and names_venue(c, venue, year)
        return (
            0 if preferred else 1,
            stage_rank(c.stage, precedence),
            (_PREPRINT_SOURCE_ORDER if c.stage == "preprint" else _SOURCE_ORDER).get(c.source, len(_SOURCE_ORDER)),
            -len(c.ids.items()),
            -c.score,
        )

    return min(versions, key=key)


def merged_ids(versions: Sequence[Candidate]) -> Ids:
    """All identifiers the versions carry, the first version's winning on conflicts."""
    ids = Ids()
    for cand in versions:
        ids = ids.merged(cand.ids)
    return ids
