"""``upgrade``: imported preprints moved to their published versions, keys kept.

The entries to upgrade are looked up by the resolver a sync uses (one batched arXiv request
for all their arXiv ids, then one dblp search each, and a Crossref search for an
``@article`` with no identifier that dblp does not know at all: the services of
:data:`citekit.library.upgrade.UPGRADE_SOURCES`; every answer cached), outside the project
lock; the decisions (:mod:`citekit.library.upgrade`) and the one write happen under it, on
the library as it is then. Named ``upgrading`` so that the module does not shadow the
function :func:`citekit.api.upgrade`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.api.project import open_project, precedence
from citekit.core.errors import UsageError


@dataclass
class UpgradeReport:
    """What ``upgrade`` did (or, with ``dry_run``, would do) to each entry it considered."""

    decisions: list[Any] = field(default_factory=list)  # citekit.library.upgrade.Decision
    #: entries not looked up, with why (already published, a book, ...)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: entries that were to be looked up but were not: the run was offline, or every service
    #: that could answer about them was unreachable (they stay as they are)
    unasked: list[str] = field(default_factory=list)
    requests: int = 0
    problems: list[str] = field(default_factory=list)
    #: services that could not be reached, with why ("connection failed: connection refused")
    unreachable: dict[str, str] = field(default_factory=dict)
    #: services not asked because one they wait for could not be reached: service -> that one
    waited: dict[str, str] = field(default_factory=dict)
    dry_run: bool = False
    offline: bool = False
    #: True when the user named the entries (``upgrade KEY...``): each skipped one is worth a line
    named: bool = False

    def of(self, action: str) -> list[Any]:
        return [d for d in self.decisions if d.action == action]

    @property
    def exit_code(self) -> int:
        """1 when a named entry could not be upgraded or a service failed: something to look at."""
        return 1 if self.problems or self.unreachable else 0

    def again(self) -> str:
        """The command that looks up the entries not looked up this time."""
        if not self.unasked:
            return "citekit upgrade --all"
        return "citekit upgrade " + (" ".join(self.unasked) if len(self.unasked) <= 3 else "--all")

    def to_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "upgraded": [d.to_json() for d in self.of("upgrade")],
            "confirmed": [d.to_json() for d in self.of("confirm")],
            "kept": [d.to_json() for d in self.of("keep")],
            "skipped": [{"key": k, "reason": r} for k, r in self.skipped],
            "not_looked_up": list(self.unasked),
            "offline": self.offline,
            "requests": self.requests,
            "problems": list(self.problems),
            "unreachable": dict(self.unreachable),
            "not_asked": dict(self.waited),
        }


def upgrade(keys: list[str] | tuple[str, ...] = (), *, all_entries: bool = False, dry_run: bool = False,
            refresh: bool = False, jobs: int = 4, progress: bool = False, offline: bool = False,
            start: str | Path | None = None) -> UpgradeReport:
    """Look imported (and notes-only) entries up and move each to its published version.

    ``offline`` sends nothing: the report lists the entries a run online would look up.
    """
    from citekit.library import upgrade as rules
    from citekit.library.lock import writing
    from citekit.library.store import Library

    if bool(keys) == bool(all_entries):
        raise UsageError("name the entries to upgrade (citekit upgrade KEY...) or pass --all, not both or neither")
    project = open_project(start)
    cfg = project.config
    report = UpgradeReport(dry_run=dry_run, offline=offline, named=bool(keys))
    lib = Library.load(cfg.refs_dir)
    wanted = _selected(lib, list(keys), report)
    if not wanted:
        return report
    if offline:
        report.unasked = [e.key for e in wanted]
        return report
    works, report.requests, problems, unreachable = _look_up([rules.mention_of(e) for e in wanted], wanted, cfg,
                                                             refresh=refresh, jobs=jobs, progress=progress)
    _say_unreachable(report, problems, unreachable)
    with writing(cfg.refs_dir, "upgrade", write=not dry_run):
        lib = Library.load(cfg.refs_dir)  # as it is now, under the lock
        changed = False
        for looked, work in zip(wanted, works):
            entry = lib.get(looked.key)
            if entry is None:
                continue  # removed meanwhile
            if work.unasked:
                report.unasked.append(looked.key)  # nothing could be asked: no verdict on it
                continue
            decision = rules.decide(entry, work)
            report.decisions.append(decision)
            if decision.action != "keep" and not dry_run:
                after = rules.apply(entry, decision, work, precedence=precedence(cfg))
                entry.__dict__.update(after.__dict__)  # in place: the entry keeps its key and its place
                changed = True
        if changed:
            from citekit.api.dedup import save_library

            save_library(lib)
    if keys:
        report.problems += [f"{d.key}: kept ({d.reason})" for d in report.of("keep")]
    return report


#: why a source that waits for dblp was not asked (:class:`_WhenUnknown`)
_WAITS_FOR_DBLP = "dblp unreachable"


def _say_unreachable(report: UpgradeReport, problems: list[str], unreachable: dict[str, str]) -> None:
    """Split the services that could not be reached (or were not asked because one they wait
    for could not be) from the run's other problems: the command says them once, together,
    with what to do next, rather than one line per service in the words of the pipeline."""
    for name, why in unreachable.items():
        if why == _WAITS_FOR_DBLP and "dblp" in unreachable:
            report.waited[name] = "dblp"
        else:
            report.unreachable[name] = why
    said = tuple(f"{name} unreachable (" for name in unreachable)
    report.problems = [p for p in problems if not p.startswith(said)]


def _selected(lib: Any, keys: list[str], report: UpgradeReport) -> list[Any]:
    from citekit.library import upgrade as rules
    from citekit.library.errors import LibraryError

    if not keys:
        out = []
        for entry in lib.entries.values():
            why = rules.wants_lookup(entry)
            if why is None:
                out.append(entry)
            elif entry.status in rules.UNCONFIRMED:
                report.skipped.append((entry.key, why))
        return out
    out = []
    for key in keys:
        entry = lib.get(key)
        if entry is None:
            raise LibraryError(f"no entry '{key}' in the library; 'citekit list' shows the keys", exit_code=2)
        why = rules.wants_lookup(entry, named=True)
        if why is None:
            out.append(entry)
        else:
            report.skipped.append((entry.key, why))
    return out


def _look_up(mentions: list[Any], entries: list[Any], cfg: Any, *, refresh: bool, jobs: int,
             progress: bool) -> tuple[list[Any], int, list[str], dict[str, str]]:
    """One work per mention, from the services (batched and cached as a sync does); the
    requests sent, the run's problems, and the services that could not be reached."""
    from citekit.library import upgrade as rules
    from citekit.resolve.pipeline import resolve_groups
    from citekit.sources import build_client, build_sources, open_cache
    from citekit.sources.settings import SourceSettings

    settings = SourceSettings.from_env(cfg.data, cfg.root)
    settings.refresh = refresh
    client = build_client(settings)
    cache = open_cache(settings)
    try:
        found: set[int] = set()  # mentions a searched source found (id) or answered at all (-id)
        articles = {m.title for m, e in zip(mentions, entries) if e.entry_type.lower() == "article"}
        sources = [_Noting(s, found) if s.name in rules.SEARCHED else
                   _WhenUnknown(s, found, articles) if s.name in rules.SEARCHED_WHEN_UNKNOWN else _LookupsOnly(s)
                   for s in build_sources(settings, client=client, cache=cache) if s.name in rules.UPGRADE_SOURCES]
        resolved = resolve_groups([[m] for m in mentions], sources, jobs=jobs, progress=progress,
                                  precedence=precedence(cfg))
    finally:
        client.close()
        cache.close()
    return resolved.works, client.stats.total, list(resolved.problems), dict(resolved.unreachable)


class _LookupsOnly:
    """A source asked by identifier only (see :data:`citekit.library.upgrade.SEARCHED`).

    A source with batched lookups (arXiv) answers only the identifiers of its batches: an
    arXiv id found later on a dblp CoRR record would cost one request (one every three
    seconds) for a preprint record the decision does not need.
    """

    def __init__(self, source: Any) -> None:
        self._source = source
        self.name = source.name
        self._batched: set[str] | None = None
        if hasattr(source, "lookup_many"):
            self._batched = set()
            self.lookup_many = self._lookup_many

    def _lookup_many(self, ids: Any) -> Any:
        ids = list(ids)
        if self._batched is not None:
            self._batched.update(ids)
        return self._source.lookup_many(ids)

    def lookup(self, scheme: str, value: str) -> Any:
        if self._batched is not None and value not in self._batched:
            return None
        return self._source.lookup(scheme, value)

    def search(self, mention: Any) -> list[Any]:
        return []


def _shares_an_author(mention: Any, record: Any) -> bool:
    """Whether ``record`` names one of the mention's authors (by a word of the name): the
    source knows this paper, not only another with its title."""
    import re

    def names(texts: list[str]) -> set[str]:
        return {w for t in texts for w in re.findall(r"\w{2,}", t.lower())}

    return bool(names(list(mention.authors)) & names([p.display() or p.raw for p in record.authors]))


class _Noting:
    """A searched source that notes which mentions it found a record of (one naming an
    author of the mention; see :class:`_WhenUnknown`)."""

    def __init__(self, source: Any, found: set[int]) -> None:
        self._source, self._found = source, found
        self.name = source.name
        if hasattr(source, "lookup_many"):
            self.lookup_many = source.lookup_many

    def lookup(self, scheme: str, value: str) -> Any:
        return self._source.lookup(scheme, value)

    def search(self, mention: Any) -> list[Any]:
        out = self._source.search(mention) or []  # a service down raises: the mention stays unanswered
        self._found.add(-id(mention))  # answered
        if any(_shares_an_author(mention, c) for c in out):
            self._found.add(id(mention))
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)


class _WhenUnknown:
    """A source searched only for a journal-shaped entry (``@article``, the titles in
    ``articles``) with no identifier that the searched sources found nothing for (Crossref,
    for a journal article dblp does not list), never asked by identifier: an entry dblp
    knows, or a talk, report or web page (``@misc``), costs it no request."""

    def __init__(self, source: Any, found: set[int], articles: set[str]) -> None:
        self._source, self._found, self._articles = source, found, articles
        self.name = source.name

    def lookup(self, scheme: str, value: str) -> Any:
        return None

    def search(self, mention: Any) -> list[Any]:
        if -id(mention) not in self._found:  # dblp could not be asked: whether it knows the paper is not known
            from citekit.sources.base import SourceUnavailable

            raise SourceUnavailable(self.name, "not asked while dblp is unreachable", cause=_WAITS_FOR_DBLP)
        if mention.ids or mention.pins or id(mention) in self._found or mention.title not in self._articles:
            return []
        return self._source.search(mention) or []
