"""Merging the entries of one work into a single surviving entry.

A merge must never cost the user anything: the best version's fields win, gaps are filled
from the other versions, the surviving entry's hand edits are kept, the absorbed entries'
fields are recorded among the versions, and every key that was ever used stays valid as an
alias of the survivor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from citekit.core.model import Entry, Ids
from citekit.matching.people import written_more_fully
from citekit.matching.works import choose_survivor, cleanliness, entry_stage, inherited_fields, parent_index, survivor_order

#: fields that describe one version (where and how it appeared): never copied across versions
VERSION_FIELDS = frozenset({
    "journal", "journaltitle", "booktitle", "volume", "number", "issue", "pages", "publisher", "series",
    "address", "location", "organization", "month", "year", "date", "howpublished", "type", "school",
    "institution", "edition", "note", "doi", "url", "isbn", "issn", "eventtitle", "venue", "pubstate",
    "crossref", "chapter", "version", "part", "eid",
})
#: fields of people's names: written more fully by another record of the work, the fuller list wins
NAME_FIELDS = ("author", "editor")
_STATUS_RANK = {"upgraded": 2, "resolved": 2, "ambiguous": 1, "notes-only": 0, "imported": 0}


@dataclass
class MergeResult:
    """The surviving entry and the keys it absorbed (each now an alias of it)."""

    entry: Entry
    absorbed: list[str] = field(default_factory=list)

    def key_map(self) -> dict[str, str]:
        """old key → surviving key, for every key that stopped being a primary key."""
        return {old: self.entry.key for old in self.absorbed}


def merge_entries(entries: Sequence[Entry], *, key: str | None = None, reason: str = "",
                  precedence: Sequence[str] | None = None) -> MergeResult:
    """One entry for a cluster of entries of the same work.

    ``key`` forces which entry's key survives (import keeps the library's key); by
    default :func:`citekit.matching.works.choose_survivor` decides. Fields come from the version
    to cite by ``precedence`` (``resolve.precedence``), the cleanest and most complete
    among equals, so a survivor that is the older preprint still ends up citing the
    published paper.
    """
    if not entries:
        raise ValueError("merge_entries needs at least one entry")
    keeper = next((e for e in entries if e.key == key), None) if key else choose_survivor(entries, precedence)
    if keeper is None:
        raise ValueError(f"key '{key}' is not one of the entries being merged")
    parents = parent_index(entries)
    order = survivor_order(entries, precedence, [inherited_fields(e, parents) for e in entries])
    ranked = [entries[i] for i in order]
    best = ranked[0]
    # the survivor's own fields, unless a better version (or, at the same stage, a cleaner
    # record) exists; hand edits of the survivor are applied on top either way
    same_stage = entry_stage(keeper) == entry_stage(best)
    base = keeper if same_stage and (keeper.hand or cleanliness(keeper) <= cleanliness(best)) else best
    others = [e for e in ranked if e is not base]

    merged = replace(
        base,
        key=keeper.key,
        fields=dict(base.fields),
        ids=Ids.from_dict(base.ids.as_dict()),
        provenance=dict(base.provenance),
        generated=dict(base.generated),
        hand=list(base.hand),
        key_provisional=False,  # the key map now sends the absorbed keys to it: it never changes
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
    counts as a hand edit (see ``store.reconcile.manual_entry``), so letting an absorbed entry's hand
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
        other_version = not _one_version(base, other)
        for name, value in other.fields.items():
            if name in merged.fields or name in hand or not value.strip():
                continue
            if other_version and name in VERSION_FIELDS:
                # the preprint's "journal = arXiv" must not leak into the paper, nor a conference
                # paper's booktitle into the journal article; kept in ``versions`` instead
                continue
            merged.fields[name] = value
            _copy_meta(merged, other, name)
            if name in other.hand:
                hand.add(name)  # the user's own text: no sync may overwrite it
    for name in NAME_FIELDS:
        if name not in hand:
            _take_fuller_names(merged, others, name)
    merged.hand = sorted(hand)


def _take_fuller_names(merged: Entry, others: Sequence[Entry], name: str) -> bool:
    """Give ``merged`` the first of ``others``' ``name`` lists that writes its people more
    fully ("Kaiming He" where it has "K. He"); the caller has checked the user did not edit
    the field. Returns whether it changed."""
    for other in others:
        value = other.fields.get(name, "")
        if value and written_more_fully(merged.fields.get(name, ""), value):
            merged.fields[name] = value
            _copy_meta(merged, other, name)
            return True
    return False


def fill_gaps(entry: Entry, other: Entry) -> list[str]:
    """Fill ``entry`` in place from ``other``, another record of the same work met again (an
    import of it): the fields ``entry`` lacks, and names ``other`` writes more fully;
    returns the names of the fields changed, in ``other``'s order.

    The user's values are never overwritten: a field the user edited (or deleted) in
    ``library.bib`` is left as it is, and a field ``entry`` has is only ever replaced by
    the same names written more fully. The fields of where and how the work appeared come
    only from a record of the same version (a preprint's pages never go on the paper).
    """
    hand = set(entry.hand)
    same_version = _one_version(entry, other)
    changed: list[str] = []
    for name, value in other.fields.items():
        if name in entry.fields or name in hand or not value.strip():
            continue
        if name in VERSION_FIELDS and not same_version:
            continue
        entry.fields[name] = value
        _copy_meta(entry, other, name)
        changed.append(name)
    for name in NAME_FIELDS:
        if name not in hand and name not in changed and _take_fuller_names(entry, [other], name):
            changed.append(name)
    return changed


_CONTAINERS = ("booktitle", "journal", "journaltitle")


def _one_version(base: Entry, other: Entry) -> bool:
    """True when ``other`` is the same publication as ``base`` (a duplicate, not another version),
    so its venue fields may fill ``base``'s gaps: same stage and type, and no year or venue
    of one contradicting the other's."""
    if entry_stage(other) != entry_stage(base) or other.entry_type.lower() != base.entry_type.lower():
        return False
    y1, y2 = base.fields.get("year", "").strip(), other.fields.get("year", "").strip()
    if y1 and y2 and y1 != y2:
        return False
    for name in _CONTAINERS:
        c1, c2 = base.fields.get(name, "").strip().lower(), other.fields.get(name, "").strip().lower()
        if c1 and c2 and c1 != c2:
            return False
    return True


def _copy_meta(merged: Entry, other: Entry, name: str) -> None:
    if name in other.provenance:
        merged.provenance[name] = other.provenance[name]
    if name in other.generated:
        merged.generated[name] = other.generated[name]
    else:
        merged.generated.pop(name, None)


def _version_record(entry: Entry, *, absorbed: bool, merged: Entry | None = None) -> dict[str, Any]:
    """How an absorbed entry is remembered: its stage and the fields the merged entry lacks.

    Only what differs from the merged entry is kept (a field it does not have, or has with
    another value), so nothing the user wrote in an absorbed entry is lost, while an
    identical copy costs a line rather than a second copy of every field.
    """
    record: dict[str, Any] = {
        "source": "library", "id": entry.key, "title": entry.title,
        "venue": entry.fields.get("booktitle") or entry.fields.get("journal") or "",
        "year": entry.year, "stage": entry_stage(entry),
    }
    kept = merged.fields if merged is not None else {}
    differing = {k: v for k, v in entry.fields.items() if kept.get(k) != v}
    if absorbed and differing:
        record["fields"] = dict(sorted(differing.items()))
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
        record = _version_record(e, absorbed=e.key != keeper.key, merged=merged)
        if record not in versions:
            versions.append(record)
    merged.versions = versions
    # a hand-written entry is "resolved" only by convention (nothing checked it online)
    checked = [merged] + [e for e in others if e.origin != "manual"]
    merged.status = max((e.status for e in checked), key=lambda s: _STATUS_RANK.get(s, -1))
    merged.origin = keeper.origin


def move_to_version(entry: Entry, published: Entry, *, reason: str = "", published_as: dict[str, Any] | None = None,
                    precedence: Sequence[str] | None = None) -> Entry:
    """``entry`` moved to ``published`` (another version of the same work), keeping its key.

    The same merge as a dedup (:func:`merge_entries` with the entry's key): the published
    record's fields win, the user's hand edits, tags, summary and mentions stay, and the
    record the entry was before is kept among its ``versions`` with every field that changed,
    so nothing it said is lost and ``citekit show`` tells where it came from.
    ``published_as`` describes the published record there (its source and id).
    """
    merged = merge_entries([entry, published], key=entry.key, reason=reason, precedence=precedence).entry
    merged.aliases = [a for a in merged.aliases if a != published.key]
    before = _version_record(entry, absorbed=True, merged=merged)
    merged.versions = [*entry.versions, *([published_as] if published_as else []), before]
    merged.reason = reason or entry.reason
    return merged
