"""The sync stage: notes → mentions → works → entries in ``refs/``, in that order.

A reader follows one mention from the notes to ``library.bib`` here, each stage called
once and never returned to: extraction and grouping (``notes``), resolution
(``resolve``, skipped offline), then, under the project lock, the library read once and
the works folded into it (``library.fold``: find or create each work's entry, merge the
work into it, keys, tags), and one transaction that writes ``refs/``. Whether the sync
runs at all is decided above it (:mod:`citekit.api.sync_stamp`, from :func:`citekit.api.sync`).

Network work happens before the project lock is taken. An online sync reads the library
first (a damaged one stops it before any request) and, under the lock, keeps that read
only when neither file changed meanwhile, so a ``tag`` (or any other write) made while it
was resolving is kept rather than overwritten. An offline sync has nothing to do before
the lock but read the notes: it reads the library once, under the lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from citekit.core.config import Config
from citekit.library.fold import Folded, fold_works
from citekit.library.lock import ProjectLock
from citekit.library.rekey import save_with_renames
from citekit.library.store import Library, fingerprint_now
from citekit.library.store.cache.unchanged import nothing_to_write
from citekit.core.resolution import OFFLINE_REASON, Mention, Work
from citekit.notes import extract_paths
from citekit.resolve.grouping import group_mentions
from citekit.notes.filememo import memo_path as notes_memo_path
from citekit.api.sync_report import SyncReport


def run(cfg: Config, *, offline: bool = False, refresh: bool = False, retry: bool = False, jobs: int = 8,
        progress: bool = False, ascii: bool | None = None, command: str = "sync",
        look_up: Callable[[list[Mention]], bool] | None = None, library: Library | None = None,
        index: Any = None, before: Callable[[Library, Any], Callable[[Any], None]] | None = None,
        then: Callable[[Library, Folded], None] | None = None,
        unreached: Callable[[list[Mention]], bool] | None = None) -> tuple[SyncReport, tuple[Any, ...] | None]:
    """One sync of the project ``cfg`` (see :func:`citekit.api.sync`), and, when it wrote
    nothing, the fingerprint of ``refs/`` as it left them, taken under its lock: what
    :func:`citekit.api.sync_stamp.record` remembers it by.

    ``retry`` looks up now the groups that wait for their next try
    (:mod:`citekit.api.pending_lookups`). ``look_up``, when given, says which groups are
    looked up online; the others are folded as an offline sync folds them (entries already
    resolved stay as they are). ``add`` uses it so that adding one paper never sends a
    request about any other.

    ``library`` (with its match ``index``), when given, is the library as the caller read
    it (``add``), kept under the lock when neither file changed since. ``before(lib,
    index)`` changes the library under the lock before the works are folded (``add``
    imports a pasted BibTeX entry there: the index it gets, None when the library was read
    again, is the one the fold uses) and returns what writes its other files in the same
    transaction as the library. ``then`` is called with the library as written and what
    the fold found, still under the lock (``add`` reads which entry its papers landed on).
    ``unreached`` names the groups the caller tried a moment ago and could reach no service
    about (``add``): they wait for their next try as a sync's own would
    (:func:`citekit.api.pending_lookups.note_unreached`).
    """
    report = SyncReport(offline=offline)
    extracted = extract_paths([cfg.notes_dir], root=cfg.root, follow_out=cfg.follow_out_of_notes,
                              memo=notes_memo_path(cfg.refs_dir))
    report.problems.extend(str(p) for p in extracted.problems)
    groups = group_mentions(extracted.mentions)
    report.mentions = len(extracted.mentions)
    report.works = len(groups)
    notes_problems = len(report.problems)

    # online, the library is read first: a damaged one stops the sync before any request
    first = library if library is not None else None if offline else Library.load(cfg.refs_dir)
    memo = _PendingMemo(cfg, groups, retry=retry) if look_up is None and not offline and not refresh else None
    if memo is not None and memo.known:
        look_up = memo.to_look_up
    if look_up is None or offline:
        works = _resolve(cfg, groups, report, offline=offline, refresh=refresh, jobs=jobs, progress=progress)
    else:
        chosen = [i for i, g in enumerate(groups) if look_up(g)]
        works = [Work(mentions=g, reason=OFFLINE_REASON) for g in groups]
        found = _resolve(cfg, [groups[i] for i in chosen], report, offline=False, refresh=refresh, jobs=jobs,
                         progress=progress) if chosen else []
        for i, work in zip(chosen, found):
            works[i] = work
        if memo is not None and chosen and report.requests and not report.source_problems and not report.offline:
            _back_online(cfg, groups, works, memo, report, refresh=refresh, jobs=jobs, progress=progress)
    if memo is not None:
        works = memo.restored(works)
        memo.skipped_until(report, looked_up=len(groups) - len(memo.known))
    with ProjectLock(cfg.refs_dir, command):
        # the one read (offline), or the first one kept when neither file changed since
        lib = Library.load(cfg.refs_dir) if first is None else first.reloaded()
        report.problems.extend(str(p) for p in lib.problems)
        configured_ascii = (cfg.data.get("bibtex") or {}).get("ascii")
        if ascii is not None or configured_ascii is not None:
            lib.ascii = bool(ascii if ascii is not None else configured_ascii)
        index = index if lib is library else None
        extra = before(lib, index) if before is not None else None
        folded = fold_works(lib, works, formula=cfg.key_formula, rules=_tag_rules(cfg), index=index)
        by_hand = dict(lib.renamed_by_hand)
        if extra is not None:  # the caller's change and the fold's: one transaction
            from citekit.library.journal import Transaction

            from citekit.library.errors import LibraryError

            txn = Transaction(cfg.refs_dir)
            try:  # (as an import says it: a value the .bib writer refuses, found before any write)
                report.changed = save_with_renames(lib, txn)
            except ValueError as exc:
                raise LibraryError(f"{exc} Nothing was written.") from exc
            extra(txn)
            txn.commit()
        else:  # nothing to write is known without rendering both files (at 50,000 entries a second)
            report.changed = False if nothing_to_write(lib) else save_with_renames(lib)  # (+ the key map)
            if not report.changed:  # what the fold derived from unchanged entries (a write stores it)
                lib.keep_memos()
        # still under the lock: the files are exactly those this sync found to be its result
        left = None if report.changed else fingerprint_now(cfg.refs_dir)
        if then is not None:
            then(lib, folded)
    if memo is not None:
        memo.keep(works, report)
    if unreached is not None:
        from citekit.api import pending_lookups
        from citekit.core.resolution import UNASKED_REASON

        pending_lookups.note_unreached(cfg, [g for g in groups if unreached(g)],
                                       f"{UNASKED_REASON} paper (no service could be reached)")
    if report.changed:  # a large library gets its search index built in the background (none yet)
        from citekit.api.search_index import index_after_write

        index_after_write(cfg.refs_dir, len(lib.keys()))
    _report_folded(report, folded, notes_problems)
    for old, new in sorted(by_hand.items()):
        report.renamed.setdefault(old, new)
        report.notices.append(f"'{old}' was renamed by hand to '{new}' in library.bib: '{old}' stays an alias "
                              f"and is in refs/keymap.yaml (`citekit rekey PAPER.tex` rewrites papers citing it)")
    return report, left


class _PendingMemo:
    """The groups of the notes an earlier online sync looked up and found nothing for, or
    could not look up at all (no service reachable): :mod:`citekit.api.pending_lookups`.
    This sync folds them as an offline sync would instead of looking them up again, until
    their next try is due (``retry``: now)."""

    def __init__(self, cfg: Config, groups: list[list[Mention]], *, retry: bool = False) -> None:
        import time

        from citekit.api import pending_lookups

        self.cfg = cfg
        self.groups = groups
        self.now = time.time()
        self.stored = pending_lookups.remembered(cfg)
        self.keys = [pending_lookups.group_key(g) for g in groups]
        self.known = {} if retry else {id(g): k for g, k in zip(groups, self.keys)
                                       if k in self.stored and not self.stored[k].due(self.now)}

    def to_look_up(self, group: list[Mention]) -> bool:
        return id(group) not in self.known

    def waiting_for_network(self) -> list[int]:
        """The indices of the skipped groups that wait because no service could be reached."""
        from citekit.api.pending_lookups import UNREACHABLE

        return [i for i, g in enumerate(self.groups)
                if id(g) in self.known and self.stored[self.known[id(g)]].why == UNREACHABLE]

    def asked_again(self, indices: list[int]) -> None:
        """The groups at ``indices`` were looked up after all: scheduled by what they found."""
        for i in indices:
            self.known.pop(id(self.groups[i]), None)

    def restored(self, works: list[Work]) -> list[Work]:
        """``works`` with each skipped group's work as its last lookup left it: nothing
        found (or nothing asked), for the reason it gave then."""
        from citekit.api.pending_lookups import UNREACHABLE

        out = []
        for g, w in zip(self.groups, works):
            if id(g) in self.known:
                was = self.stored[self.known[id(g)]]
                w = Work(mentions=g, status="notes-only", reason=was.reason, page_note=was.page,
                         unasked=was.why == UNREACHABLE)
            out.append(w)
        return out

    def skipped_until(self, report: SyncReport, *, looked_up: int) -> None:
        """The run's answers hold only until the first skipped group is due; say what
        waits, until when, and how to ask now. With nothing looked up and every skipped
        group waiting for the network, the sync was one from the notes alone."""
        from citekit.api.pending_lookups import NOTHING, UNREACHABLE, wait, when

        if not self.known:
            return
        waiting = [self.stored[k] for k in self.known.values()]
        until = min(s.until for s in waiting)
        current = report.answers_valid_until
        report.answers_valid_until = until if current is None else min(current, until)
        unreachable = [s for s in waiting if s.why == UNREACHABLE]
        nothing = [s for s in waiting if s.why == NOTHING]
        if unreachable:
            last = max(s.until - wait(s.why, s.tries) for s in unreachable)
            report.notices.append(
                f"{_works(len(unreachable))} not looked up: no service could be reached at the last try "
                f"({when(last, self.now)}); asked again from {when(min(s.until for s in unreachable), self.now)} "
                "(`citekit sync --retry` asks now)")
            if not looked_up and not nothing:
                report.offline = True
        if nothing:
            report.notices.append(
                f"{_works(len(nothing))} no source found {'was' if len(nothing) == 1 else 'were'} not looked up "
                f"again; next lookup from {when(min(s.until for s in nothing), self.now)} "
                "(`citekit sync --retry` looks them up now)")

    def keep(self, works: list[Work], report: SyncReport) -> None:
        """Schedule the groups this sync looked up and found nothing for (or could not ask:
        no service reachable), keep the skipped ones as they were, forget the rest."""
        import time

        from citekit.api import pending_lookups
        from citekit.api.pending_lookups import NOTHING, UNREACHABLE

        unreachable = report.offline and bool(report.source_problems)  # no service answered at all
        if report.source_problems and not unreachable:
            return  # some service failed: nothing new is remembered (what it failed on is asked again)
        now = time.time()
        out: dict[str, pending_lookups.Scheduled] = {}
        for group, key, work in zip(self.groups, self.keys, works):
            if id(group) in self.known:
                out[key] = self.stored[key]
                continue
            why = UNREACHABLE if unreachable else NOTHING if pending_lookups.found_nothing(work) else None
            if why is None or work.chosen is not None:
                continue
            before = self.stored.get(key)
            out[key] = (before.then(why, work.reason, work.page_note, now) if before is not None
                        else pending_lookups.first(why, work.reason, work.page_note, now))
        if unreachable and out:
            self._say_when(report, out, now, said=any(s.why == UNREACHABLE for s in
                                                        (self.stored[k] for k in self.known.values())))
        if out != self.stored:
            pending_lookups.remember(self.cfg, out)

    def _say_when(self, report: SyncReport, out: dict[str, Any], now: float, *, said: bool) -> None:
        """No service answered: the sync is one from the notes until the first group is
        due again, which the report says unless the skipped groups' line did (and the
        stamp of this sync lasts as long)."""
        from citekit.api.pending_lookups import when

        until = min(s.until for s in out.values())
        report.retry_after = until
        report.answers_valid_until = until
        if not said:
            report.notices.append(f"sources are asked again from {when(until, now)} "
                                  "(`citekit sync --retry` asks now)")


def _back_online(cfg: Config, groups: list[list[Mention]], works: list[Work], memo: _PendingMemo,
                 report: SyncReport, *, refresh: bool, jobs: int, progress: bool) -> None:
    """The services answered every request this sync sent: the works that wait only because
    an earlier sync could reach no one are looked up now too, not when their wait ends
    (the network is back). Their answers join the report's."""
    waiting = memo.waiting_for_network()
    if not waiting:
        return
    requests, until = report.requests, report.answers_valid_until
    found = _resolve(cfg, [groups[i] for i in waiting], report, offline=False, refresh=refresh, jobs=jobs,
                     progress=progress)
    for i, work in zip(waiting, found):
        works[i] = work
    memo.asked_again(waiting)
    report.requests += requests
    if until is not None:
        report.answers_valid_until = until if report.answers_valid_until is None else min(until, report.answers_valid_until)
    if report.offline:  # the network went again meanwhile: the first lookups were online all the same
        report.offline = False


def _works(n: int) -> str:
    return f"{n} work" if n == 1 else f"{n} works"


def _report_folded(report: SyncReport, folded: Folded, notes_problems: int) -> None:
    """What folding the works found, each line where a reader expects it: the warnings
    about groups of the notes right after the notes' own problems."""
    report.problems[notes_problems:notes_problems] = folded.group_warnings
    report.problems.extend(folded.problems)
    report.notices.extend(folded.notices)
    report.created, report.upgraded, report.entries = folded.created, folded.upgraded, folded.entries
    report.pending = folded.pending
    report.renamed = folded.renamed
    for status, n in folded.counts.items():
        report.counts[status] = report.counts.get(status, 0) + n


def resolve_works(cfg: Config, groups: list[list[Mention]], report: SyncReport, *, jobs: int = 8) -> list[Work]:
    """Look ``groups`` up online exactly as a sync does (same sources, cache, pins and
    precedence): what ``citekit add`` asks before it records a paper in the notes."""
    return _resolve(cfg, groups, report, offline=False, refresh=False, jobs=jobs, progress=False)


def _resolve(cfg: Config, groups: list[list[Mention]], report: SyncReport, *, offline: bool, refresh: bool,
             jobs: int, progress: bool) -> list[Work]:
    if offline:
        return [Work(mentions=g, reason=OFFLINE_REASON) for g in groups]
    from citekit.resolve.pipeline import resolve_groups
    from citekit.sources import build_client, build_sources, open_cache
    from citekit.sources.settings import SourceSettings

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
    report.answers_valid_until = getattr(cache, "valid_until", None)
    report.source_problems = list(resolved.problems)
    for work in resolved.works:
        report.problems.extend(work.warnings)
    # the services every paper is asked about; web pages are read only for the few papers
    # the notes know by a page alone, so a reachable page does not make a sync "online"
    from citekit.sources import registry

    names = [s.name for s in sources if s.name not in registry.SOURCE_NAMES or registry.row(s.name).searches_titles]
    nothing_learned = all(w.status == "notes-only" for w in resolved.works)
    if names and nothing_learned and (len(resolved.problems) >= len(names)
                                      or (resolved.unreachable and not resolved.answered)):
        # every source failed, or those asked could not be reached and none answered
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


def _pins(cfg: Config) -> dict[str, Any]:
    """``pins:`` of citekit.yaml, read with the same rule as a pin line in the notes."""
    from citekit.core.model import Ids
    from citekit.notes.labels import parse_pin
    from citekit.core.text import normalize_title

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
    from citekit.library.tags import load_rules

    return load_rules(cfg.data)
