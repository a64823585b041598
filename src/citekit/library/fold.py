"""A sync's works folded into the loaded library: entries, their mentions and tags, pending.

This is the library end of ``citekit sync``: the notes have been read and grouped, each
group resolved (or built from the notes offline) into a :class:`~citekit.core.resolution.Work`,
and the library loaded once under the project lock. Each work then goes down in order:
:func:`citekit.library.update.apply_work` finds the entry that already stands for it
(identifier, the notes' last landing place, title, abstract, URL, then the "same work"
rule of :mod:`citekit.matching.works`), merges the work into it, or makes a new entry whose
key :mod:`citekit.library.keys` issues; the tag rules follow. Two groups of the notes that
turn out to be one paper (a preprint and its published version noted under two titles,
resolved to one record) land on one entry, which keeps both sets of mentions.

Everything here works on the ``Library`` it is given and returns plain values; the caller
(:mod:`citekit.api.sync_pipeline`) puts them in its report and saves the library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citekit.core.config import display_path
from citekit.core.model import Entry, Location
from citekit.core.resolution import Mention, Work
from citekit.library.keys import LaterTakenKeys
from citekit.library.store import Library, kinds
from citekit.library.match_index import library_index
from citekit.library.update import LibraryIndex, Pending, apply_work, look_alike_notices


@dataclass
class Folded:
    """What folding the works did, in the shapes of a sync report."""

    #: one line per group of mentions whose titles differ although they share an identifier
    #: (first in a report: they are about the notes, before anything was looked up)
    group_warnings: list[str] = field(default_factory=list)
    #: one line per entry that is missing from library.bib, or landed on by differing titles
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    upgraded: list[str] = field(default_factory=list)
    #: one record per entry the works landed on (``sync --json``'s ``works_detail``)
    entries: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    #: status -> entries landed on with it
    counts: dict[str, int] = field(default_factory=dict)
    #: provisional keys re-formed by this sync: old key -> new key
    renamed: dict[str, str] = field(default_factory=dict)
    #: the match index the works were looked up in, as they left it
    index: Any = field(default=None, repr=False, compare=False)


def fold_works(lib: Library, works: list[Work], *, formula: str, rules: Any,
               index: LibraryIndex | None = None) -> Folded:
    """Fold resolved works into ``lib``: entries created or updated, tags, pending, counts.

    ``index``: the match index of ``lib`` as it is now, when the caller holds one (``add``
    made it before importing a pasted entry, and filed that entry in it); left in
    ``Folded.index`` for the caller to read where the works landed."""
    out = Folded()
    for work in works:
        titled = [m for m in work.mentions if m.title]
        for other in titled[1:]:
            warning = titles_differ("one paper (a shared identifier)", titled[:1], [other])
            if warning:
                out.group_warnings.append(warning)
    pending: list[Pending] = []
    seen: dict[str, list[Mention]] = {}  # key -> every mention that landed on it this run
    if index is None:
        index = library_index(lib)  # kept with the parsed-library cache, patched per changed entry
    out.index = index
    detached = LibraryIndex(lib.detached_entries()) if lib.detached else None
    taken = LaterTakenKeys(lib.taken_keys)  # (lowered only if a work needs a new key)
    for work in works:
        result = apply_work(lib, work, formula=formula, index=index, detached=detached, taken=taken, claimed=seen)
        if result.detached:
            where = ", ".join(str(m.location) for m in work.mentions[:2])
            out.problems.append(
                f"{where}: this paper's entry '{result.detached}' is missing from {display_path(lib.bib_path)} "
                "(deleted, or unreadable: see above); it was not recreated under a new key. Restore it "
                "(e.g. `git checkout -- refs/library.bib`), or delete it from library.yaml to let citekit rebuild it"
            )
            continue
        if result.key is None:
            untitled_reference = any(m.reference and not m.title for m in work.mentions)
            pending.append(Pending(work.mentions, page=work.page_note,
                                   looked_up=work.reason if untitled_reference and "pasted reference" in work.reason else ""))
            continue
        entry = _entry(lib, result.key)
        if result.renamed_from:
            old = result.renamed_from
            out.renamed[old] = result.key
            if old in seen:  # an earlier group of this run landed on it under the old key
                seen[result.key] = seen.pop(old)
            why = ("the notes paste a BibTeX entry with that key" if any(m.citekey == result.key for m in work.mentions)
                   else "the entry now has a better year or first author")
            out.notices.append(f"key {old} -> {result.key}: {why} and its "
                               f"key was still provisional (never exported or cited); {old} stays an alias")
        if result.key in seen:
            # two groups of mentions turned out to be one work (e.g. a bare oral link and
            # its title): the entry keeps both sets of mentions
            warning = titles_differ(f"entry {result.key}", seen[result.key], work.mentions)
            if warning:
                out.problems.append(warning)
            seen[result.key].extend(work.mentions)
            entry.mentions = _locations(seen[result.key])
            entry.tags_auto = _auto_tags(entry, seen[result.key], rules)
            continue
        seen[result.key] = list(work.mentions)
        entry.tags_auto = _auto_tags(entry, work.mentions, rules)
        if result.created:
            out.created.append(result.key)
        if result.upgraded:
            out.upgraded.append(result.key)
        out.entries.append(_work_json(entry, work))
    out.notices.extend(look_alike_notices(index, [_entry(lib, k) for k in seen]))
    _unmentioned(lib, seen, rules)
    lib.pending = [p.to_json() for p in pending]
    out.pending = [p.reported() for p in pending]  # (with the labels `list --status pending` gives)
    if out.renamed:  # a key reported before a later work of this run re-formed it: its final key
        def final(key: str) -> str:
            while key in out.renamed and lib.entry_at(key) is None:
                key = out.renamed[key]
            return key

        out.created = [final(k) for k in out.created]
        out.upgraded = [final(k) for k in out.upgraded]
        for e in out.entries:
            e["key"] = final(e["key"])
    for e in out.entries:
        status = _entry(lib, e["key"]).status
        out.counts[status] = out.counts.get(status, 0) + 1
    return out


def _entry(lib: Library, key: str) -> Entry:
    """The entry under exactly ``key`` (on a cached load, only it is decoded)."""
    entry = lib.entry_at(key)
    if entry is None:
        raise KeyError(key)
    return entry


def _unmentioned(lib: Library, seen: dict[str, list[Mention]], rules: Any) -> None:
    """The entries no work of this run landed on: imported or no longer mentioned, rules
    still apply, and give what they gave last time unless the entry or the rules changed
    (kept in the parsed cache); one the notes made loses its mentions (it stays).

    Whether an entry needs either change is itself remembered per entry (the kind
    :func:`citekit.library.store.kinds.settled`), so on a cached load a sync that lands on
    three entries of 50,000 decodes those three and the few the rules now tag otherwise.
    (An entry it leaves alone is one these assignments would not have changed.)"""
    rule_tags = _rules_memo_kind(rules)

    def settle(entry: Entry) -> None:
        entry.tags_auto = list(lib.memo(rule_tags, entry, lambda e: _auto_tags(e, [], rules)))
        if entry.origin == "notes":
            entry.mentions = []  # the notes no longer mention it; the entry itself stays

    def settled(entry: Entry) -> bool:
        """Whether :func:`settle` would leave ``entry`` as it is."""
        tags = lib.memo(rule_tags, entry, lambda e: _auto_tags(e, [], rules))
        return list(tags) == list(entry.tags_auto) and not (entry.origin == "notes" and entry.mentions)

    table = lib.memo_table(kinds.settled(rule_tags), settled, ordered=False)
    for key in lib.keys():
        if key not in seen and not table.get(key, False):
            entry = lib.entry_at(key)
            if entry is not None:
                settle(entry)


def prepare(lib: Library, rules: Any) -> None:
    """Compute and remember what the next sync reads of every entry (the match index, the
    rule tags and whether they are settled), changing no entry: after an import of
    thousands of entries, the first sync then does what later ones do instead of deriving
    all of it anew (:func:`citekit.api.search_index.prepare_library`)."""
    library_index(lib)
    rule_tags = _rules_memo_kind(rules)

    def settled(entry: Entry) -> bool:
        tags = lib.memo(rule_tags, entry, lambda e: _auto_tags(e, [], rules))
        return list(tags) == list(entry.tags_auto) and not (entry.origin == "notes" and entry.mentions)

    lib.memo_table(kinds.settled(rule_tags), settled, ordered=False)


def titles_differ(what: str, first: list[Mention], second: list[Mention]) -> str | None:
    """Two differently titled notes landing on one entry is usually a wrong pin: the line
    that says so, or None when their titles agree."""
    from rapidfuzz import fuzz

    from citekit.core.text import normalize_title

    a = next((m for m in first if m.title), None)
    b = next((m for m in second if m.title), None)
    if a and b and fuzz.token_set_ratio(normalize_title(a.title or ""), normalize_title(b.title or "")) < 80:
        return (f"{a.location} and {b.location} resolve to the same record ({what}) although their titles differ; "
                "if they are different papers, check the pins and identifiers given for them")
    return None


def _locations(mentions: list[Mention]) -> list[Location]:
    out: list[Location] = []
    for m in mentions:
        if m.location not in out:
            out.append(m.location)
    return sorted(out, key=lambda loc: (loc.file, loc.line))


def _auto_tags(entry: Entry, mentions: list[Mention], rules: Any) -> list[str]:
    from citekit.library.tags import compute_auto_tags

    texts = [t for m in mentions for t in (m.summary, m.abstract) if t]
    hashtags = [h for m in mentions for h in m.hashtags]
    sections = [m.section for m in mentions if m.section]
    return compute_auto_tags(entry, texts, hashtags, sections, rules)


def _rules_memo_kind(rules: Any) -> str:
    """A name for "tags these rules give an entry" that changes whenever the rules do."""
    import hashlib

    text = repr((sorted(rules.rules.items()), sorted(rules.sections.items())))
    return kinds.rule_tags(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])


def _work_json(entry: Entry, work: Work) -> dict[str, Any]:
    chosen = work.chosen if work.status == "resolved" else None
    return {
        "key": entry.key,
        "status": entry.status,
        "title": entry.title,
        "chosen": {"source": chosen.source, "id": chosen.id} if chosen else None,
        "versions": [{"source": v.source, "id": v.id, "stage": v.stage} for v in work.versions],
        "score": round(work.score, 3),
        "reason": work.reason,
        "mentions": [str(m.location) for m in work.mentions],
    }
