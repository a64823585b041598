"""Folding resolved works into the library without breaking anything already there.

The rules, in order of strength:
1. a field the user edited by hand (``Entry.hand``) is never touched;
2. a key, once it left the library, never changes (a provisional one follows the fields,
   its old key kept as an alias: :mod:`citekit.library.keys`);
3. confirmed metadata is never downgraded by a later offline or inconclusive sync;
4. everything else follows the newest resolution.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any

from citekit.core.model import Entry, Ids, Location
from citekit.core.resolution import Candidate, Mention, Work, unasked
from citekit.core.text import normalize_title
from citekit.library.keys import make_key, reformed_key
from citekit.library.records import fields_from_candidate, fields_from_mentions
from citekit.library.store import Library
from citekit.matching.candidates import Byline, bylines_contradict
from citekit.matching.works import byline_of_fields


@dataclass
class ApplyResult:
    """What applying one work did to the library."""

    key: str | None  # None: the work could not become an entry (no title known yet)
    created: bool = False
    upgraded: bool = False  # notes-only → resolved
    #: the work is an entry that is missing from library.bib (deleted or unreadable):
    #: nothing was created, so its key is not replaced by a new one
    detached: str | None = None
    #: the entry's provisional key before this work re-formed it (now an alias)
    renamed_from: str | None = None


def pending_why(group: list[Mention]) -> str:
    """Why a work is pending, in the one set of words ``sync`` and ``list --status pending``
    both print (``identifier only``, ``abstract only``, ``title without authors``, ...)."""
    if any(m.title for m in group):
        return "title without authors"
    if all(m.kind == "abstract" for m in group):
        return "abstract only"
    if all(m.kind == "cited" for m in group):
        return "a pasted reference whose title could not be read" if any(m.reference for m in group) else "authors and year only"
    if any(m.urls or m.ids or m.pins for m in group):
        return "identifier only"
    return "project page only"


def pending_hint(group: list[Mention]) -> str:
    """What identifies a pending work that has no title yet (``arxiv:2602.50082``, a link,
    ``introduces DQGPM``, the reference as pasted)."""
    from citekit.notes.authoryear import cited_as

    for m in group:
        ids = list(m.pins.items()) + list(m.ids.items())
        if ids:
            return ", ".join(f"{k}:{v}" for k, v in ids)
    for m in group:
        if m.urls:
            return m.urls[0]
    for m in group:
        if m.hints:
            return "introduces " + ", ".join(m.hints[:4])
    for m in group:
        if m.kind == "cited" and m.reference:  # (the whole string: all the notes say of it)
            return m.reference[:120] + ("…" if len(m.reference) > 120 else "")
        if m.kind == "cited" and m.authors:
            return cited_as(m)
    for m in group:
        if m.links:
            return next(iter(m.links.values()))
        if m.abstract:
            return " ".join(m.abstract.split()[:12]) + "…"
    return ""


@dataclass
class Pending:
    """A mention that has no title yet (abstract or bare URL): kept until resolved online."""

    mentions: list[Mention] = field(default_factory=list)
    #: what the pages the notes link gave (:attr:`Work.page_note`), when one was read
    page: str = ""
    #: what the lookup of a pasted reference with no title read found, and where it asked
    #: (the work's reason: ``no source knows this pasted reference (Crossref with …)``)
    looked_up: str = ""

    def to_json(self) -> dict[str, Any]:
        m = self.mentions[0]
        text = (m.abstract or m.summary or "").strip()
        if m.kind == "cited" and not text and m.reference:
            text = m.reference  # a pasted reference whose title could not be read
        elif m.kind == "cited" and not text and m.authors:
            from citekit.notes.authoryear import cited_as

            text = cited_as(m)  # "Kingma & Ba 2014": all the notes say of it
        return {
            "kind": m.kind,
            "title": next((x.title for x in self.mentions if x.title), None),
            "where": [str(x.location) for x in self.mentions],
            "hints": sorted({h for x in self.mentions for h in x.hints}),
            "urls": sorted({u for x in self.mentions for u in x.urls + list(x.links.values())}),
            "authors": next((x.authors for x in self.mentions if x.authors), []),
            "text": text[:160] + ("…" if len(text) > 160 else ""),
            **({"page": self.page} if self.page else {}),
            **({"looked_up": self.looked_up} if self.looked_up else {}),
        }

    def reported(self) -> dict[str, Any]:
        """:meth:`to_json` (what ``library.yaml`` keeps) with the ``why`` and ``hint`` that
        ``list --status pending`` gives the same work, for a sync's report and ``--json``."""
        return {**self.to_json(), "why": pending_why(self.mentions), "hint": pending_hint(self.mentions)}


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


class LibraryIndex:
    """What a sync looks entries up by, built once per run and kept current as works land.

    Rescanning every entry (and re-folding every title) for each work made a sync
    quadratic: 3,200 works took a minute, 12,800 did not finish. Here every identifier,
    folded title, abstract fingerprint and URL maps to the entries that carry it, in
    file order, so each lookup costs the size of its answer. The near-identical-title
    rule (last resort) is shortlisted through the title words that are rarest in the
    library instead of comparing the title with every entry.
    """

    def __init__(self, entries: list[Entry], lookups: Mapping[str, Any] | None = None) -> None:
        """``lookups``, when given, maps each entry's key to its :func:`index_keys` (kept for
        unchanged entries in the parsed-library cache), so a run does not fold every title
        again."""
        self._order: dict[int, int] = {}
        self._entries: list[Entry] = []
        self._keys: dict[int, list[tuple[str, Any]]] = {}
        self._map: dict[tuple[str, Any], list[Entry]] = {}
        self._words: dict[str, set[int]] = {}
        self._rough: dict[int, str] = {}
        for entry in entries:
            self.add(entry, lookups.get(entry.key) if lookups is not None else None)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, entry: Entry, lookups: tuple[list[Any], str] | None = None) -> None:
        """Index a new entry, or re-index one whose ids, titles or URLs changed."""
        ident = id(entry)
        if ident in self._order:
            self._unindex(entry)
        else:
            self._order[ident] = len(self._entries)
            self._entries.append(entry)
        raw_keys, rough = lookups if lookups is not None else index_keys(entry)
        keys = [(kind, tuple(value) if isinstance(value, list) else value) for kind, value in raw_keys]
        # where the notes mentioned it last time (the sidecar's record): not cached, cheap
        keys = keys + [("at", str(loc)) for loc in entry.mentions]
        self._keys[ident] = keys
        for key in keys:
            bucket = self._map.setdefault(key, [])
            if not any(x is entry for x in bucket):
                bucket.append(entry)
        self._rough[ident] = rough
        for word in set(rough.split()):
            self._words.setdefault(word, set()).add(self._order[ident])

    def _unindex(self, entry: Entry) -> None:
        ident = id(entry)
        for key in self._keys.pop(ident, []):
            bucket = self._map.get(key, [])
            bucket[:] = [x for x in bucket if x is not entry]
        pos = self._order[ident]
        for word in set(self._rough.pop(ident, "").split()):
            self._words.get(word, set()).discard(pos)

    # what the lookups read, one method each: :class:`citekit.library.match_index.KeptIndex`
    # answers them from the index kept with the parsed-library cache
    def _bucket(self, key: tuple[str, Any]) -> list[Entry]:
        """The entries filed under ``key``."""
        return self._map.get(key, [])

    def filed_under(self, key: tuple[str, Any]) -> list[Entry]:
        """The entries filed under ``key`` (``("title", folded title)``, ``("id", (scheme, value))``)."""
        return list(self._bucket(key))

    def _own(self, entry: Entry) -> list[tuple[str, Any]]:
        """What ``entry`` is filed under."""
        return self._keys.get(id(entry), [])

    def _posting(self, word: str) -> set[int]:
        """The positions of the entries whose rough title has ``word``."""
        return self._words.get(word, set())

    def _rough_of(self, entry: Entry) -> str:
        return self._rough[id(entry)]

    def _rough_at(self, i: int) -> str:
        """The rough title of the entry at position ``i`` (a lazy index reads it by key)."""
        return self._rough_of(self._entries[i])

    def _first(self, kind: str, values: Any, fits: Any = None) -> Entry | None:
        """The earliest entry (file order) carrying any of ``values`` under ``kind`` (and
        that ``fits``, when given)."""
        best: Entry | None = None
        for value in values:
            for entry in self._bucket((kind, value)):
                if (best is None or self._order[id(entry)] < self._order[id(best)]) and (fits is None or fits(entry)):
                    best = entry
        return best

    def find(self, work: Work, built: tuple[str, dict[str, str]] | None) -> Entry | None:
        """The library entry that already stands for this work.

        In order: a shared identifier; the entry these mentions landed on last time; a
        title any version ever had; the abstract or the paper URL the notes gave (so fixing
        a typo in a title in the notes does not create a second entry); and last the dedup
        rule (near-identical title with compatible authors, :mod:`citekit.matching.works`),
        so a work that was imported from an old .bib is recognised instead of duplicated.
        """
        ids = work_ids(work)
        if ids:
            hit = self._first("id", ids.items())
            if hit is not None:
                return hit
        titles = work_titles(work)
        hit = self._previous(work, titles)
        if hit is not None:
            return hit
        shared_title = False
        if titles:
            # a title is not a paper: an entry of the same title whose authors are others (two
            # books called "The Commercial Paper Market") is another work's; and a work that
            # names no authors takes none of the entries of a title several works bear
            said = byline_of_fields(built[1]) if built is not None else Byline(())
            if said.names:
                hit = self._first("title", titles, lambda e: not bylines_contradict(said, byline_of_fields(e.fields)))
            else:
                hit = self._first("title", titles)
                shared_title = hit is not None and self._bears_others(titles, hit)
                hit = None if shared_title else hit
            if hit is not None:
                return hit
        prints = {_fingerprint(m.abstract) for m in work.mentions if m.abstract}
        if prints:
            hit = self._first("print", prints)
            if hit is not None:
                return hit
        urls = set(_noted_urls(work.mentions))
        if urls:
            hit = self._first("url", urls)
            if hit is not None:
                return hit
        if built is not None and self._entries and not shared_title:
            return self._same_work(Entry(key="", entry_type=built[0], fields=built[1]))
        return None

    def _bears_others(self, titles: set[str], entry: Entry) -> bool:
        """Whether an entry under one of ``titles`` is another work than ``entry`` (its
        authors contradict ``entry``'s)."""
        own = byline_of_fields(entry.fields)
        return any(other is not entry and bylines_contradict(own, byline_of_fields(other.fields))
                   for title in titles for other in self._bucket(("title", title)))

    def _previous(self, work: Work, titles: set[str]) -> Entry | None:
        """The entry these very mentions landed on last time, when it still answers to one of
        their titles (any title it ever had, notes' included).

        Asked before any title lookup: once the user fixes an entry's title by hand, it may
        equal another mention's title, and a title lookup would then hand that mention's data
        to the wrong entry. The title check keeps a shifted line (text inserted above it)
        from pointing a mention at its neighbour's entry.
        """
        if not titles:
            return None
        best: Entry | None = None
        for m in work.mentions:
            for entry in self._bucket(("at", str(m.location))):
                own = set(self._own(entry))
                if any(("title", t) in own for t in titles) and (
                        best is None or self._order[id(entry)] < self._order[id(best)]):
                    best = entry
        return best

    def look_alikes(self, entry: Entry) -> list[Entry]:
        """Other entries whose current title folds to this entry's: likely one work twice
        (e.g. after a title was fixed by hand), for the user to review with ``dedup``."""
        folded = normalize_title(entry.title)
        if not folded:
            return []
        return [e for e in self._bucket(("title", folded)) if e is not entry
                and normalize_title(e.title) == folded]

    def _shortlist(self, rough: str) -> set[int]:
        postings = {w: self._posting(w) for w in set(rough.split())}
        words = sorted(postings, key=lambda w: (len(postings[w]), w))
        return _bounded_shortlist([postings[w] for w in words])

    def _same_work(self, probe: Entry) -> Entry | None:
        from rapidfuzz import fuzz, process

        from citekit.matching.works import is_same_work

        rough = _rough(probe.title)
        shortlist = self._shortlist(rough)
        if not shortlist:
            return None
        choices = {i: self._rough_at(i) for i in sorted(shortlist)}
        target = normalize_title(probe.title)
        for _t, _s, i in process.extract(rough, choices, scorer=fuzz.ratio, score_cutoff=70, limit=10):
            entry = self._entries[i]
            if fuzz.ratio(target, normalize_title(entry.title)) >= 85 and is_same_work(probe, entry):
                return entry
        return None


def _bounded_shortlist(postings: list[set[int]]) -> set[int]:
    """Entries worth a fuzzy comparison, from the postings of a title's words (rarest first).

    The entries carrying any of the rarest words, as long as each word is carried by at
    most :data:`_SHORTLIST_CAP` entries; a word carried by more says little about which
    paper this is, and comparing with all of them made a sync quadratic when titles share
    their words (10,000 works: 37 s where 5,000 took 10). Those common words still count
    together: the entries carrying all of them (narrowed word by word, rarest first) join
    the list, so "Language and Memory" retyped is still found among thousands of titles
    with "language" or "memory" in them; unless even the rarest of them is carried by
    more than :data:`_NARROW_FROM` entries (a title of only very common words), which
    would make every lookup cost a pass over a fixed share of the library.
    """
    postings = [p for p in postings if p]
    shortlist: set[int] = set()
    for posting in postings[:_RARE_WORDS]:
        if len(posting) <= _SHORTLIST_CAP:
            shortlist |= posting
    common = [p for p in postings if len(p) > _SHORTLIST_CAP]
    if common and len(common[0]) <= _NARROW_FROM:  # narrowing costs the size of what it starts from
        narrowed = common[0]
        for posting in common[1:]:
            if len(narrowed) <= _SHORTLIST_CAP:
                break
            narrowed = narrowed & posting
        if len(narrowed) <= _SHORTLIST_CAP:
            shortlist |= narrowed
    return shortlist


def look_alike_notices(index: LibraryIndex, entries: list[Entry]) -> list[str]:
    """One line per pair of entries (among ``entries`` and the rest of the library) that now
    carry the same title. They are never merged here: whether they are one work is for
    ``citekit dedup`` and the user to decide."""
    out: list[str] = []
    said: set[tuple[str, str]] = set()
    for entry in entries:
        for other in index.look_alikes(entry):
            pair = (min(entry.key, other.key), max(entry.key, other.key))
            if pair not in said:
                said.add(pair)
                out.append(f"entries {pair[0]} and {pair[1]} now have the same title; if they are one paper, "
                           "review them with `citekit dedup` (nothing was merged)")
    return out


def index_keys(entry: Entry) -> tuple[list[Any], str]:
    """What :class:`LibraryIndex` files an entry under, and its rough title (plain data,
    so the parsed-library cache can keep it for unchanged entries)."""
    keys: list[Any] = [("id", item) for item in entry.ids.items()]
    titles = sorted({normalize_title(t) for t in [entry.title, *(v.get("title") or "" for v in entry.versions)]})
    keys += [("title", t) for t in titles]
    keys += [("print", p) for v in entry.versions for p in v.get("fingerprints", [])]
    urls = sorted(u for u in {entry.fields.get("url")} | {u for v in entry.versions for u in v.get("urls", [])} if u)
    keys += [("url", u) for u in urls]
    return keys, _rough(entry.title)


#: a near-identical title shares at least one of its three rarest words with the probe
#: (a typo changes one word, rarely three)
_RARE_WORDS = 3
#: the most entries one title is compared with by fuzzy matching (see _bounded_shortlist)
_SHORTLIST_CAP = 512
#: the largest posting a title's common words are narrowed from (see _bounded_shortlist)
_NARROW_FROM = 4096


def _rough(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def own_key(work: Work, taken: set[str]) -> str | None:
    """The key a pasted BibTeX entry of the work gives itself, when BibTeX can take it and no
    entry, alias or earlier key holds it (compared case-insensitively, as BibTeX does): the
    user chose it and may cite it already, so it is kept as chosen (never reformed later)."""
    from citekit.library.keys import TakenKeys, key_is_safe

    own = [m.citekey for m in work.mentions if m.citekey and key_is_safe(m.citekey)]
    if not own:
        return None
    lowered = taken if isinstance(taken, TakenKeys) else {t.lower() for t in taken}
    return next((key for key in own if key.lower() not in lowered), None)


def apply_work(lib: Library, work: Work, *, formula: str | None = None, index: LibraryIndex | None = None,
               detached: LibraryIndex | None = None, taken: set[str] | None = None,
               claimed: Any = None) -> ApplyResult:
    """Create or update the entry for ``work``; see the module docstring for the rules.

    A sync passes one ``index`` of the library (and of its detached records) and the
    ``taken`` key set for all its works, kept current here, so each work costs the same
    whatever the library's size.
    """
    hints = sorted({h for m in work.mentions for h in m.hints})
    built: tuple[str, dict[str, str]] | None
    if work.chosen is not None and work.status == "resolved":
        built = fields_from_candidate(work.chosen, hints, arxiv=work_ids(work).arxiv)
    else:
        built = fields_from_mentions(work.mentions)
    if index is None:
        index = LibraryIndex(list(lib.entries.values()))
    entry = index.find(work, built)
    if entry is None and lib.detached:
        detached = detached or LibraryIndex(lib.detached_entries())
        gone = detached.find(work, built)
        if gone is not None:
            return ApplyResult(key=None, detached=gone.key)
    if entry is None:
        if built is None:
            return ApplyResult(key=None)
        entry_type, fields = built
        taken = lib.taken_keys() if taken is None else taken
        own = own_key(work, taken)
        key = own or make_key(fields, taken, formula)
        entry = Entry(key=key, entry_type=entry_type, fields=fields, origin="notes", key_provisional=own is None)
        _set_provenance(entry, work)
        _update_meta(entry, work)
        lib.add(entry)
        taken.add(key)
        index.add(entry)
        return ApplyResult(key=key, created=True, upgraded=False)

    confirmed = entry.status in ("resolved", "upgraded")  # `citekit upgrade` confirmed it online too
    upgraded = not confirmed and work.status == "resolved"
    downgrade = confirmed and work.status != "resolved"
    if claimed is not None and entry.key in claimed and not upgraded:
        # another group of mentions already gave this entry its fields in this run: this
        # one fills gaps only, so the later note never drops the earlier one's venue or year
        _fill_gaps(entry, built)
        entry.ids = entry.ids.merged(work_ids(work))
        index.add(entry)
        renamed = _reform_key(lib, entry, formula, taken, work)
        return ApplyResult(key=entry.key, renamed_from=renamed)
    if built is not None and not downgrade and entry.origin != "manual":
        entry_type, fields = built
        hand = set(entry.hand)
        if entry.origin in ("import", "unknown") and work.status != "resolved":
            # an imported record is better than what the notes alone say: notes fill gaps only
            fields = {**fields, **entry.fields}
            entry_type = entry.entry_type
        elif entry.origin in ("import", "unknown"):
            # a confirmed record wins, but fields the old .bib had and it lacks are kept
            fields = {**entry.fields, **fields}
        merged = {k: v for k, v in fields.items() if k not in hand}
        merged.update({k: v for k, v in entry.fields.items() if k in hand})
        entry.fields = merged
        if "entry_type" not in hand:
            entry.entry_type = entry_type
        _set_provenance(entry, work)
    _update_meta(entry, work, keep_status=downgrade)
    index.add(entry)  # its ids, titles and URLs may have changed
    renamed = _reform_key(lib, entry, formula, taken, work)
    return ApplyResult(key=entry.key, upgraded=upgraded, renamed_from=renamed)


def _reform_key(lib: Library, entry: Entry, formula: str | None, taken: set[str] | None,
                work: Work | None = None) -> str | None:
    """Re-form a provisional key whose entry now has a better year or first author (the
    old key becomes an alias); returns the old key, or None when the key stays.

    A key the user pasted for the paper (``@inproceedings{he2016resnet,`` in the notes)
    beats a provisional one: the entry takes it, as a fresh build from the same notes
    would, and the provisional key stays an alias. Otherwise two clones of one project
    would cite the paper by different keys depending on when the entry was pasted."""
    if not entry.key_provisional or entry.origin != "notes":
        _alias_own_key(entry, work, taken if taken is not None else lib.taken_keys())
        return None
    taken = lib.taken_keys() if taken is None else taken
    own = own_key(work, taken) if work is not None else None
    new = own or reformed_key(entry.key, entry.fields, taken, formula)
    if new is None:
        return None
    old = entry.key
    lib.rename(old, new)
    taken.add(new)
    if own:
        entry.key_provisional = False  # the user's own key: never re-formed (as when it was created with it)
    return old


def _alias_own_key(entry: Entry, work: Work | None, taken: set[str]) -> None:
    """A pasted key for a paper whose key is already fixed (exported, cited, chosen by
    hand) becomes an alias of it: the key never changes, but ``\\cite{pasted}`` works."""
    own = own_key(work, taken) if work is not None else None
    if own is None:
        return
    entry.aliases = sorted([*entry.aliases, own])
    taken.add(own)


def _fill_gaps(entry: Entry, built: tuple[str, dict[str, str]] | None) -> None:
    """Fields of ``built`` the entry lacks; an author list cut short by "et al." gives way
    to a complete one of the same first author."""
    if built is None or entry.origin == "manual":
        return
    hand = set(entry.hand)
    for name, value in built[1].items():
        if name in hand:
            continue
        current = entry.fields.get(name)
        if current is None or (name == "author" and current.endswith(" and others")
                               and not value.endswith(" and others")
                               and value.split(" and ")[0] == current.split(" and ")[0]):
            entry.fields[name] = value
            entry.provenance[name] = "notes"


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
        if not (entry.status == work.status and unasked(entry.reason) and unasked(work.reason)):
            entry.reason = work.reason  # (offline, or online with every source down: the same "not asked yet")
        entry.status = work.status
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


def _noted_urls(mentions: list[Mention]) -> list[str]:
    """The paper links of the notes, and the page a line gives alone (a bare project page,
    the only thing that finds its entry again when the page cannot be read next time)."""
    return sorted({u for x in mentions for u in x.urls}
                  | {u for x in mentions if not (x.title or x.urls or x.abstract) for u in x.links.values()})


def _notes_version(mentions: list[Mention]) -> dict[str, Any] | None:
    m = next((m for m in mentions if m.title), None) or next((m for m in mentions if m.abstract or m.urls or m.links),
                                                             None)
    if m is None:
        return None
    out: dict[str, Any] = {"source": "notes", "id": m.location.file, "title": m.title or "", "stage": "notes"}
    listing = next((x for x in mentions if x.authors), None)
    if listing is not None:
        out["authors"] = list(listing.authors)  # exactly as written ("Khrushchev Mikhail"), for the record
        if listing.authors_incomplete:
            out["authors_incomplete"] = True  # the notes wrote "et al.": the entry says "and others"
    prints = sorted({_fingerprint(x.abstract) for x in mentions if x.abstract})
    if prints:
        out["fingerprints"] = prints
    urls = _noted_urls(mentions)
    if urls:
        out["urls"] = urls
    if m.venue:
        out["venue"] = f"{m.venue} {m.year}" if m.year else m.venue
    return out
