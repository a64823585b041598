"""The sync stage: notes → mentions → works → entries in ``refs/``, in that order.

A reader follows one mention from the notes to ``library.bib`` here: extraction and
grouping (``notes``), resolution (``resolve``, skipped offline), then folding each work
into the library (``library.update``), tags, and one transaction that writes ``refs/``.
Network work happens before the project lock is taken; under the lock the library is
read again and the works are applied to that fresh copy, so a ``tag`` (or any other
write) made while the sync was resolving is kept rather than overwritten.
"""

from __future__ import annotations

from typing import Any

from .config import Config, display_path
from .library.keys import TakenKeys
from .library.lock import ProjectLock
from .library.store import Library
from .library.update import LibraryIndex, Pending, apply_work, index_keys, look_alike_notices
from .model import Entry, Mention, Work
from .notes import extract_paths, group_mentions
from .sync_report import SyncReport


def run(cfg: Config, *, offline: bool = False, refresh: bool = False, jobs: int = 8, progress: bool = False,
        ascii: bool | None = None, command: str = "sync", not_replayed: str | None = None) -> SyncReport:
    """One sync of the project ``cfg``; see :func:`citekit.api.sync`.

    When notes, configuration, library and options are exactly those of the last sync and
    that sync changed nothing, its report is returned without redoing it (see
    :mod:`citekit.sync_stamp`). ``not_replayed``: the inputs' digest, when the caller
    already found that no report stands for it (the notes are listed and hashed once).
    """
    from . import sync_stamp

    digest = not_replayed
    if digest is None and not refresh:
        digest = sync_stamp.inputs(cfg, offline=offline, ascii=ascii)
        replayed = sync_stamp.replay(cfg, digest, offline=offline)
        if replayed is not None:
            return replayed
    report = _run(cfg, offline=offline, refresh=refresh, jobs=jobs, progress=progress, ascii=ascii, command=command)
    if digest is not None:
        sync_stamp.record(cfg, digest, report)
    return report


def _run(cfg: Config, *, offline: bool, refresh: bool, jobs: int, progress: bool, ascii: bool | None,
         command: str) -> SyncReport:
    report = SyncReport(offline=offline)
    extracted = extract_paths([cfg.notes_dir], root=cfg.root, follow_out=cfg.follow_out_of_notes)
    report.problems.extend(str(p) for p in extracted.problems)
    groups = group_mentions(extracted.mentions)
    for group in groups:
        titled = [m for m in group if m.title]
        for other in titled[1:]:
            _warn_if_titles_differ(report, "one paper (a shared identifier)", titled[:1], [other])
    report.mentions = len(extracted.mentions)
    report.works = len(groups)

    # the library is read first: a damaged one stops the sync before any request is made
    first = Library.load(cfg.refs_dir)
    works = _resolve(cfg, groups, report, offline=offline, refresh=refresh, jobs=jobs, progress=progress)
    with ProjectLock(cfg.refs_dir, command):
        # again, under the lock: keeps what others wrote meanwhile (the first read when
        # neither file changed since: same bytes, same library)
        lib = first.reloaded()
        report.problems.extend(str(p) for p in lib.problems)
        configured_ascii = (cfg.data.get("bibtex") or {}).get("ascii")
        if ascii is not None or configured_ascii is not None:
            lib.ascii = bool(ascii if ascii is not None else configured_ascii)
        apply_works(lib, works, report, formula=cfg.key_formula, rules=_tag_rules(cfg))
        report.changed = lib.save()
    return report


def apply_works(lib: Library, works: list[Work], report: SyncReport, *, formula: str, rules: Any) -> None:
    """Fold resolved works into the library: entries created or updated, tags, pending, counts."""
    pending: list[Pending] = []
    seen: dict[str, list[Mention]] = {}  # key -> every mention that landed on it this run
    index = LibraryIndex(list(lib.entries.values()), lambda e: lib.memo("index-keys", e, index_keys))
    detached = LibraryIndex(lib.detached_entries()) if lib.detached else None
    taken = TakenKeys(lib.taken_keys())
    for work in works:
        result = apply_work(lib, work, formula=formula, index=index, detached=detached, taken=taken,
                            claimed=seen)
        if result.detached:
            where = ", ".join(str(m.location) for m in work.mentions[:2])
            report.problems.append(
                f"{where}: this paper's entry '{result.detached}' is missing from {display_path(lib.bib_path)} "
                "(deleted, or unreadable: see above); it was not recreated under a new key. Restore it "
                "(e.g. `git checkout -- refs/library.bib`), or delete it from library.yaml to let citekit rebuild it"
            )
            continue
        if result.key is None:
            pending.append(Pending(work.mentions))
            continue
        entry = lib.entries[result.key]
        if result.key in seen:
            # two groups of mentions turned out to be one work (e.g. a bare oral link and
            # its title): the entry keeps both sets of mentions
            _warn_if_titles_differ(report, f"entry {result.key}", seen[result.key], work.mentions)
            seen[result.key].extend(work.mentions)
            entry.mentions = _locations(seen[result.key])
            _apply_tags(entry, seen[result.key], rules)
            continue
        seen[result.key] = list(work.mentions)
        _apply_tags(entry, work.mentions, rules)
        if result.created:
            report.created.append(result.key)
        if result.upgraded:
            report.upgraded.append(result.key)
        report.entries.append(_work_json(entry, work))
    report.notices.extend(look_alike_notices(index, [lib.entries[k] for k in seen]))
    rule_tags = _rules_memo_kind(rules)
    for entry in lib.entries.values():
        if entry.key not in seen:
            # imported or no longer mentioned: rules still apply, and give what they gave
            # last time unless the entry or the rules changed (kept in the parsed cache)
            entry.tags_auto = list(lib.memo(rule_tags, entry, lambda e: _auto_tags(e, [], rules)))
            if entry.origin == "notes":
                entry.mentions = []  # the notes no longer mention it; the entry itself stays
    lib.pending = [p.to_json() for p in pending]
    report.pending = lib.pending
    for e in report.entries:
        status = lib.entries[e["key"]].status
        report.counts[status] = report.counts.get(status, 0) + 1


def _resolve(cfg: Config, groups: list[list[Mention]], report: SyncReport, *, offline: bool, refresh: bool,
             jobs: int, progress: bool) -> list[Work]:
    if offline:
        return [Work(mentions=g, reason="offline: built from the notes") for g in groups]
    from .resolve.pipeline import resolve_groups
    from .sources import build_client, build_sources, open_cache
    from .sources.settings import SourceSettings

    settings = SourceSettings.from_env(cfg.data, cfg.root)
    settings.refresh = refresh
    client = build_client(settings)
    cache = open_cache(settings)
    try:
        sources = build_sources(settings, client=client, cache=cache)
        precedence = (cfg.data.get("resolve") or {}).get("precedence")
        resolved = resolve_groups(groups, sources, jobs=jobs, progress=progress, pins=_pins(cfg), precedence=precedence)
    finally:
        client.close()
        close = getattr(cache, "close", None)
        if close:
            close()
    report.requests = client.stats.total
    report.source_problems = list(resolved.problems)
    for work in resolved.works:
        report.problems.extend(work.warnings)
    names = [s.name for s in sources]
    if names and len(resolved.problems) >= len(names) and all(w.status == "notes-only" for w in resolved.works):
        report.offline = True
        report.notices.append(
            f"no source could be reached ({', '.join(names)}): entries were built from the notes "
            "and will upgrade on the next online sync (details: --json)"
        )
    else:
        report.notices.extend(resolved.problems)
    if not settings.mailto and report.requests and not report.offline:
        report.notices.append(
            "no contact address set: add 'mailto: you@example.org' under 'sources:' in citekit.yaml "
            "(or CITEKIT_MAILTO) so Crossref serves you from its polite pool and services can reach you"
        )
    return resolved.works


def _warn_if_titles_differ(report: SyncReport, what: str, first: list[Mention], second: list[Mention]) -> None:
    """Two differently titled notes landing on one entry is usually a wrong pin: say so."""
    from rapidfuzz import fuzz

    from .text import normalize_title

    a = next((m for m in first if m.title), None)
    b = next((m for m in second if m.title), None)
    if a and b and fuzz.token_set_ratio(normalize_title(a.title or ""), normalize_title(b.title or "")) < 80:
        report.problems.append(
            f"{a.location} and {b.location} resolve to the same record ({what}) although their titles differ; "
            "if they are different papers, check the pins and identifiers given for them"
        )


def _locations(mentions: list[Mention]) -> list[Any]:
    out = []
    for m in mentions:
        if m.location not in out:
            out.append(m.location)
    return sorted(out, key=lambda loc: (loc.file, loc.line))


def _pins(cfg: Config) -> dict[str, Any]:
    """``pins:`` of citekit.yaml, read with the same rule as a pin line in the notes."""
    from .model import Ids
    from .notes.labels import parse_pin
    from .text import normalize_title

    out: dict[str, Ids] = {}
    for title, spec in (cfg.data.get("pins") or {}).items():
        ids = Ids()
        for scheme, value in (spec or {}).items():
            parsed = parse_pin(str(scheme), _pin_text(str(scheme), value)) if str(scheme) in ids.as_dict() else None
            if parsed:
                setattr(ids, *parsed)
        out[normalize_title(str(title))] = ids
    return out


def _pin_text(scheme: str, value: Any) -> str:
    """A pin as text. YAML reads an unquoted arXiv id as a number (``2602.22890`` becomes
    2602.2289): new-style ids have five digits after the dot since 2015, four before."""
    if scheme == "arxiv" and isinstance(value, float):
        return f"{value:.5f}" if value >= 1501 else f"{value:.4f}"
    return str(value)


def _tag_rules(cfg: Config) -> Any:
    from .library.tags import load_rules

    return load_rules(cfg.data)


def _apply_tags(entry: Entry, mentions: list[Mention], rules: Any) -> None:
    entry.tags_auto = _auto_tags(entry, mentions, rules)


def _auto_tags(entry: Entry, mentions: list[Mention], rules: Any) -> list[str]:
    from .library.tags import compute_auto_tags

    texts = [t for m in mentions for t in (m.summary, m.abstract) if t]
    hashtags = [h for m in mentions for h in m.hashtags]
    sections = [m.section for m in mentions if m.section]
    return compute_auto_tags(entry, texts, hashtags, sections, rules)


def _rules_memo_kind(rules: Any) -> str:
    """A name for "tags these rules give an entry" that changes whenever the rules do."""
    import hashlib

    text = repr((sorted(rules.rules.items()), sorted(rules.sections.items())))
    return "rule-tags:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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


