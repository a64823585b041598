"""Merging the entries of one work into a single surviving entry.

A merge must never cost the user anything: the best version's fields win, gaps are filled
from the other versions, the surviving entry's hand edits are kept, the absorbed entries'
fields are recorded among the versions, and every key that was ever used stays valid as an
alias of the survivor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..ids import ARXIV_DOI_PREFIX
from ..model import Entry, Ids

#: version stages, best first; the merge keeps the fields of the best one
STAGE_RANK: dict[str, int] = {"published": 3, "accepted": 2, "preprint": 1, "other": 0}
#: fields that describe one version (where and how it appeared): never copied across versions
VERSION_FIELDS = frozenset({
    "journal", "journaltitle", "booktitle", "volume", "number", "issue", "pages", "publisher", "series",
    "address", "location", "organization", "month", "year", "date", "howpublished", "type", "school",
    "institution", "edition", "note", "doi", "url", "isbn", "issn", "eventtitle", "venue", "pubstate",
})
_STATUS_RANK = {"resolved": 2, "ambiguous": 1, "notes-only": 0}

_PREPRINT_VENUE = re.compile(
    r"\b(?:arxiv|corr|e-?prints?|preprint|biorxiv|medrxiv|chemrxiv|ssrn|techrxiv|psyarxiv|openreview\.net/forum)\b",
    re.I,
)
_ACCEPTED = re.compile(r"\b(?:to appear|in press|accepted|forthcoming|inpress)\b", re.I)
_PUBLISHED_TYPES = {"article", "inproceedings", "conference", "incollection", "inbook", "book", "proceedings",
                    "phdthesis", "mastersthesis", "thesis", "mvbook", "collection", "periodical"}
_THESIS_TYPES = {"phdthesis", "mastersthesis", "thesis"}
_PREPRINT_TYPES = {"unpublished", "online", "electronic", "preprint"}


def version_stage(entry: Entry) -> str:
    """Where this version of the paper stands: published, accepted, preprint or other.

    BibTeX has no field for it, so it is read from what the entry cites: a journal or
    proceedings that is not arXiv/CoRR means published; "to appear" means accepted; an
    arXiv id, CoRR or an ``@unpublished`` means preprint.
    """
    f = entry.fields
    kind = entry.entry_type
    container = f.get("journal") or f.get("booktitle") or f.get("journaltitle") or ""
    has_notes = "note" in f or "pubstate" in f or "howpublished" in f
    notes = " ".join(f.get(k, "") for k in ("note", "pubstate", "howpublished")) if has_notes else ""
    if (container and _ACCEPTED.search(container)) or (notes and _ACCEPTED.search(notes)):
        return "accepted"
    preprint_container = bool(container) and (
        bool(_PREPRINT_VENUE.search(container)) or container[:4].lower() == "abs/"
    )
    if kind in _THESIS_TYPES and (f.get("school") or f.get("institution")):
        return "published"
    if kind in ("book", "mvbook") and f.get("publisher"):
        return "published"
    if container and not preprint_container and kind in _PUBLISHED_TYPES:
        if f.get("volume", "")[:4].lower() != "abs/":  # dblp CoRR: volume = {abs/1909.05311}
            return "published"
    if preprint_container or kind in _PREPRINT_TYPES or (notes and _PREPRINT_VENUE.search(notes)):
        return "preprint"
    if entry.ids.arxiv or (entry.ids.doi or "").startswith(ARXIV_DOI_PREFIX) or f.get("eprint"):
        return "preprint"
    return "other"


def stage_rank(entry: Entry) -> int:
    return STAGE_RANK[version_stage(entry)]


def choose_survivor(entries: Sequence[Entry]) -> Entry:
    """The entry whose key survives: the best version; on a tie the one that came first.

    ``entries`` must be in issue order (library order, or file order on import), which is
    what makes the choice stable from one run to the next.
    """
    best = entries[0]
    for entry in entries[1:]:
        if stage_rank(entry) > stage_rank(best):
            best = entry
    return best


@dataclass
class MergeResult:
    """The surviving entry and the keys it absorbed (each now an alias of it)."""

    entry: Entry
    absorbed: list[str] = field(default_factory=list)

    def key_map(self) -> dict[str, str]:
        """old key → surviving key, for every key that stopped being a primary key."""
        return {old: self.entry.key for old in self.absorbed}


def merge_entries(entries: Sequence[Entry], *, key: str | None = None, reason: str = "") -> MergeResult:
    """One entry for a cluster of entries of the same work.

    ``key`` forces which entry's key survives (import keeps the library's key); by
    default :func:`choose_survivor` decides. Fields come from the best version, so a
    survivor that is the older preprint still ends up citing the published paper.
    """
    if not entries:
        raise ValueError("merge_entries needs at least one entry")
    keeper = next((e for e in entries if e.key == key), None) if key else choose_survivor(entries)
    if keeper is None:
        raise ValueError(f"key '{key}' is not one of the entries being merged")
    ranked = sorted(entries, key=lambda e: -stage_rank(e))  # stable: ties keep issue order
    base = ranked[0] if stage_rank(ranked[0]) > stage_rank(keeper) else keeper
    others = [e for e in ranked if e is not base]

    merged = replace(
        base,
        key=keeper.key,
        fields=dict(base.fields),
        ids=Ids.from_dict(base.ids.as_dict()),
        provenance=dict(base.provenance),
        generated=dict(base.generated),
        hand=list(base.hand),
    )
    _merge_fields(merged, base, keeper, others)
    for other in others:
        merged.ids = merged.ids.merged(other.ids)
    _merge_metadata(merged, keeper, [e for e in entries if e is not merged])

    absorbed = [e.key for e in entries if e.key != keeper.key]
    aliases: list[str] = []
    for entry in entries:
        for alias in [entry.key, *entry.aliases]:
            if alias != keeper.key and alias not in aliases:
                aliases.append(alias)
    merged.aliases = aliases
    note = f"merged {', '.join(absorbed)}" + (f" ({reason})" if reason else "")
    merged.reason = "; ".join(r for r in (keeper.reason, note) if r) if absorbed else keeper.reason
    return MergeResult(entry=merged, absorbed=absorbed)


def _merge_fields(merged: Entry, base: Entry, keeper: Entry, others: Sequence[Entry]) -> None:
    """The surviving entry's hand edits win; the other entries only fill gaps.

    A hand edit belongs to the version it was made in. Everything in a hand-written entry
    counts as a hand edit (see ``store._manual_entry``), so letting an absorbed entry's hand
    fields override would put a preprint's year and "arXiv preprint" note on the published
    paper. Version fields therefore come only from versions at the same stage; what the
    absorbed entries said is kept in ``versions`` (see :func:`_version_record`).
    """
    hand = set(base.hand)
    if keeper is not base:
        for name in keeper.hand:
            if name in keeper.fields:
                merged.fields[name] = keeper.fields[name]
            else:
                merged.fields.pop(name, None)  # the user deleted it there: keep it deleted
            _copy_meta(merged, keeper, name)
            hand.add(name)
    for other in others:
        other_version = version_stage(other) != version_stage(base)
        for name, value in other.fields.items():
            if name in merged.fields or name in hand or not value.strip():
                continue
            if other_version and name in VERSION_FIELDS:
                continue  # the preprint's "journal = arXiv" must not leak into the paper
            merged.fields[name] = value
            _copy_meta(merged, other, name)
            if name in other.hand:
                hand.add(name)  # the user's own text: no sync may overwrite it
    merged.hand = sorted(hand)


def _copy_meta(merged: Entry, other: Entry, name: str) -> None:
    if name in other.provenance:
        merged.provenance[name] = other.provenance[name]
    if name in other.generated:
        merged.generated[name] = other.generated[name]
    else:
        merged.generated.pop(name, None)


def _version_record(entry: Entry, *, absorbed: bool) -> dict[str, Any]:
    """How an absorbed entry is remembered: its stage and every field it had.

    The fields are kept whole so nothing the user wrote in an absorbed entry is lost,
    even the parts that describe another version and so were not merged.
    """
    record: dict[str, Any] = {
        "source": "library", "id": entry.key, "title": entry.title,
        "venue": entry.fields.get("booktitle") or entry.fields.get("journal") or "",
        "year": entry.year, "stage": version_stage(entry),
    }
    if absorbed and entry.fields:
        record["fields"] = dict(sorted(entry.fields.items()))
    if absorbed and entry.hand:
        record["hand"] = sorted(entry.hand)
    return record


def _merge_metadata(merged: Entry, keeper: Entry, others: Sequence[Entry]) -> None:
    """Union of everything the sidecar knows: tags, mentions, versions, summary, status."""
    group = [merged, *others]
    added = sorted({t for e in group for t in e.tags_added})
    merged.tags_auto = sorted({t for e in group for t in e.tags_auto})
    merged.tags_added = added
    merged.tags_removed = sorted({t for e in group for t in e.tags_removed} - set(added))
    seen = set()
    mentions = []
    for e in group:
        for loc in e.mentions:
            if (loc.file, loc.line) not in seen:
                seen.add((loc.file, loc.line))
                mentions.append(loc)
    merged.mentions = mentions
    merged.summary = next((e.summary for e in [keeper, *group] if e.summary), None)
    merged.abstract = next((e.abstract for e in group if e.abstract), None)
    versions = list(merged.versions)
    for e in others:
        for v in e.versions:
            if v not in versions:
                versions.append(v)
        record = _version_record(e, absorbed=e.key != keeper.key)
        if record not in versions:
            versions.append(record)
    merged.versions = versions
    # a hand-written entry is "resolved" only by convention (nothing checked it online)
    checked = [merged] + [e for e in others if e.origin != "manual"]
    merged.status = max((e.status for e in checked), key=lambda s: _STATUS_RANK.get(s, -1))
    merged.origin = keeper.origin
