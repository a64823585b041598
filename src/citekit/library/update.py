"""Folding resolved works into the library without breaking anything already there.

The rules, in order of strength:
1. a field the user edited by hand (``Entry.hand``) is never touched;
2. a key, once issued, never changes;
3. confirmed metadata is never downgraded by a later offline or inconclusive sync;
4. everything else follows the newest resolution.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ..model import Candidate, Entry, Ids, Location, Mention, Work
from ..text import normalize_title
from .keys import make_key
from .records import fields_from_candidate, fields_from_mentions
from .store import Library


@dataclass
class ApplyResult:
    """What applying one work did to the library."""

    key: str | None  # None: the work could not become an entry (no title known yet)
    created: bool = False
    upgraded: bool = False  # notes-only → resolved
    #: the work is an entry that is missing from library.bib (deleted or unreadable):
    #: nothing was created, so its key is not replaced by a new one
    detached: str | None = None


@dataclass
class Pending:
    """A mention that has no title yet (abstract or bare URL): kept until resolved online."""

    mentions: list[Mention] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        m = self.mentions[0]
        text = (m.abstract or m.summary or "").strip()
        return {
            "kind": m.kind,
            "title": next((x.title for x in self.mentions if x.title), None),
            "where": [str(x.location) for x in self.mentions],
            "hints": sorted({h for x in self.mentions for h in x.hints}),
            "urls": sorted({u for x in self.mentions for u in x.urls + list(x.links.values())}),
            "authors": next((x.authors for x in self.mentions if x.authors), []),
            "text": text[:160] + ("…" if len(text) > 160 else ""),
        }


def work_ids(work: Work) -> Ids:
    """Every identifier known for a work: chosen record, versions, then the notes' URLs and pins."""
    ids = work.chosen.ids if work.chosen else Ids()
    for v in work.versions:
        ids = ids.merged(v.ids)
    for m in work.mentions:
        ids = ids.merged(m.pins).merged(m.ids)
    return ids


def work_titles(work: Work) -> set[str]:
    titles = {normalize_title(m.title) for m in work.mentions if m.title}
    titles |= {normalize_title(v.title) for v in work.versions if v.title}
    if work.chosen:
        titles.add(normalize_title(work.chosen.title))
    return {t for t in titles if t}


def find_entry(lib: Library, work: Work, built: tuple[str, dict[str, str]] | None = None) -> Entry | None:
    """The library entry that already stands for this work.

    In order: a shared identifier; a title any version ever had; the paper URL the notes
    gave (so fixing a typo in a title in the notes does not create a second entry); and
    last the dedup rule (near-identical title with compatible authors), so a work that
    was imported from an old .bib is recognised instead of duplicated.
    """
    return _find_in(list(lib.entries.values()), work, built)  # file order: deterministic, no re-sort per work


def _find_in(entries: list[Entry], work: Work, built: tuple[str, dict[str, str]] | None) -> Entry | None:
    ids = work_ids(work)
    if ids:
        for entry in entries:
            if entry.ids.shares_any(ids):
                return entry
    titles = work_titles(work)
    if titles:
        for entry in entries:
            known = {normalize_title(t) for t in [entry.title, *(v.get("title") or "" for v in entry.versions)]}
            if titles & known:
                return entry
    prints = {_fingerprint(m.abstract) for m in work.mentions if m.abstract}
    if prints:
        for entry in entries:
            if prints & {p for v in entry.versions for p in v.get("fingerprints", [])}:
                return entry
    urls = {u for m in work.mentions for u in m.urls}
    if urls:
        for entry in entries:
            known_urls = {entry.fields.get("url")} | {u for v in entry.versions for u in v.get("urls", [])}
            if urls & known_urls:
                return entry
    if built is not None and entries:
        return _same_work_by_dedup_rule(entries, Entry(key="", entry_type=built[0], fields=built[1]))
    return None


def _same_work_by_dedup_rule(entries: list[Entry], probe: Entry) -> Entry | None:
    from rapidfuzz import fuzz, process

    from ..works import is_same_work

    target = normalize_title(probe.title)
    # shortlist on a cheap folding first, then fold properly and apply the dedup rule
    rough = {i: _rough(e.title) for i, e in enumerate(entries)}
    for _t, _s, i in process.extract(_rough(probe.title), rough, scorer=fuzz.ratio, score_cutoff=70, limit=10):
        if fuzz.ratio(target, normalize_title(entries[i].title)) >= 85 and is_same_work(probe, entries[i]):
            return entries[i]
    return None


def _rough(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def apply_work(lib: Library, work: Work, *, formula: str | None = None) -> ApplyResult:
    """Create or update the entry for ``work``; see the module docstring for the rules."""
    hints = sorted({h for m in work.mentions for h in m.hints})
    built: tuple[str, dict[str, str]] | None
    if work.chosen is not None and work.status == "resolved":
        built = fields_from_candidate(work.chosen, hints, arxiv=work_ids(work).arxiv)
    else:
        built = fields_from_mentions(work.mentions)
    entry = find_entry(lib, work, built)
    if entry is None and lib.detached:
        gone = _find_in(lib.detached_entries(), work, built)
        if gone is not None:
            return ApplyResult(key=None, detached=gone.key)
    if entry is None:
        if built is None:
            return ApplyResult(key=None)
        entry_type, fields = built
        key = make_key(fields, lib.taken_keys(), formula)
        entry = Entry(key=key, entry_type=entry_type, fields=fields, origin="notes")
        _set_provenance(entry, work)
        _update_meta(entry, work)
        lib.add(entry)
        return ApplyResult(key=key, created=True, upgraded=False)

    upgraded = entry.status != "resolved" and work.status == "resolved"
    downgrade = entry.status == "resolved" and work.status != "resolved"
    if built is not None and not downgrade and entry.origin != "manual":
        entry_type, fields = built
        hand = set(entry.hand)
        if entry.origin == "import" and work.status != "resolved":
            # an imported record is better than what the notes alone say: notes fill gaps only
            fields = {**fields, **entry.fields}
            entry_type = entry.entry_type
        elif entry.origin == "import":
            # a confirmed record wins, but fields the old .bib had and it lacks are kept
            fields = {**entry.fields, **fields}
        merged = {k: v for k, v in fields.items() if k not in hand}
        merged.update({k: v for k, v in entry.fields.items() if k in hand})
        entry.fields = merged
        if "entry_type" not in hand:
            entry.entry_type = entry_type
        _set_provenance(entry, work)
    _update_meta(entry, work, keep_status=downgrade)
    return ApplyResult(key=entry.key, upgraded=upgraded)


def _set_provenance(entry: Entry, work: Work) -> None:
    source = work.chosen.source if (work.chosen and work.status == "resolved") else "notes"
    kept = {k: v for k, v in entry.provenance.items() if k == "summary"}
    entry.provenance = {k: ("user" if k in entry.hand else source) for k in entry.fields} | kept


def _summary_mark(summary: str) -> str:
    """Provenance of a summary taken from the notes: lets a later sync tell it from a hand edit."""
    return "notes@" + hashlib.sha256(summary.encode("utf-8")).hexdigest()[:12]


def _fingerprint(text: str) -> str:
    """A short, stable identity for a pasted abstract (survives reflowing and re-casing)."""
    return hashlib.sha256(normalize_title(text)[:400].encode("utf-8")).hexdigest()[:16]


def _update_meta(entry: Entry, work: Work, *, keep_status: bool = False) -> None:
    locations: list[Location] = []
    for m in work.mentions:
        if all((m.location.file, m.location.line) != (x.file, x.line) for x in locations):
            locations.append(m.location)
    entry.mentions = locations
    entry.ids = entry.ids.merged(work_ids(work)) if keep_status else work_ids(work).merged(entry.ids)
    if not keep_status:
        entry.status = work.status
        entry.reason = work.reason
        entry.versions = [_version(v) for v in work.versions] or entry.versions
        if work.chosen and work.chosen.abstract:
            entry.abstract = work.chosen.abstract
    notes_version = _notes_version(work.mentions)
    if notes_version and notes_version not in entry.versions:
        entry.versions = [v for v in entry.versions if v.get("source") != "notes"] + [notes_version]
    notes_summary = next((m.summary for m in work.mentions if m.summary), None)
    if notes_summary and (not entry.summary or entry.provenance.get("summary") == _summary_mark(entry.summary)):
        # follow the notes until the user edits the summary in library.yaml
        entry.summary = notes_summary
        entry.provenance["summary"] = _summary_mark(notes_summary)
    if not entry.abstract:
        entry.abstract = next((m.abstract for m in work.mentions if m.abstract), None)


def _version(c: Candidate) -> dict[str, Any]:
    out: dict[str, Any] = {"source": c.source, "id": c.id, "title": c.title, "stage": c.stage}
    if c.venue:
        out["venue"] = c.venue
    if c.year:
        out["year"] = c.year
    if c.extra.get("presentation"):  # oral / spotlight / poster, from the conference's own list
        out["presentation"] = c.extra["presentation"]
    return out


def _notes_version(mentions: list[Mention]) -> dict[str, Any] | None:
    m = next((m for m in mentions if m.title), None) or next((m for m in mentions if m.abstract or m.urls), None)
    if m is None:
        return None
    out: dict[str, Any] = {"source": "notes", "id": m.location.file, "title": m.title or "", "stage": "notes"}
    raw_authors = next((x.authors for x in mentions if x.authors), [])
    if raw_authors:
        out["authors"] = list(raw_authors)  # exactly as written ("Khrushchev Mikhail"), for the record
    prints = sorted({_fingerprint(x.abstract) for x in mentions if x.abstract})
    if prints:
        out["fingerprints"] = prints
    urls = sorted({u for x in mentions for u in x.urls})
    if urls:
        out["urls"] = urls
    if m.venue:
        out["venue"] = f"{m.venue} {m.year}" if m.year else m.venue
    return out
