"""``add``: one paper (a DOI, an arXiv id, a link, a reference, BibTeX or a title) into the notes and the library.

The notes stay the source of truth: ``add`` looks the paper up with the rules of a sync,
writes it in the inbox notes file (``paths.inbox``, default ``notes/inbox.md``) the way a
person would note it, then runs a sync in which only that paper is looked up, so the entry comes from the notes
like every other one and a later sync finds the very same paper there; no other work of
the notes is asked about. A paper the library already holds is named and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.api.project import config_of
from citekit.core.config import ConfigError, Config
from citekit.core.errors import CitekitError, UsageError

#: how a picker is asked to choose: (the thing as given, the records that fit) -> index, or None
Picker = Callable[[str, list[dict[str, Any]]], "int | None"]


class NotAPaperError(UsageError):
    """An argument of ``add`` names no paper."""

    NEXT_STEP = ("Give a DOI, an arXiv id, a paper link, a reference, one BibTeX entry or a title in quotes "
                 "(`citekit add -h` has examples).")


@dataclass
class Added:
    """What became of one thing given to ``add``."""

    thing: str
    kind: str
    #: resolved | ambiguous | notes-only | pending | offline | already (``offline``: recorded
    #: in the notes but not looked up, because of ``--offline`` or no service could be reached)
    status: str = ""
    key: str | None = None
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    #: the record chosen: {"source", "id", "stage", "score"}
    record: dict[str, Any] | None = None
    #: the closest other record, shown when the choice was not certain
    runner_up: dict[str, Any] | None = None
    #: when several records fit equally well: each of them (``--pick`` chooses among these)
    fits: list[dict[str, Any]] = field(default_factory=list)
    #: where it was written in the notes (``notes/inbox.md:12``) and what
    where: str | None = None
    recorded: str = ""
    message: str = ""
    #: the identifiers the thing itself gave (``arxiv:2001.08361``): advice never asks for them again
    given_ids: list[str] = field(default_factory=list)
    #: True when the paper was to be looked up but no service that could answer was reachable
    unreachable: bool = False

    @property
    def resolved_later(self) -> bool:
        """Recorded in the notes but not looked up or found yet (no entry: pending, or one built
        from the notes alone while offline: notes-only), never counted as "added"."""
        return self.status != "already" and (not self.key or self.status == "offline")

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class AddReport:
    """What ``add`` did, for the summary and ``--json``."""

    items: list[Added] = field(default_factory=list)
    inbox: str = ""
    offline: bool = False
    changed: bool = False
    requests: int = 0
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    #: True when ``--offline`` was asked (``offline`` alone is also set when nothing could be reached)
    asked_offline: bool = False

    @property
    def unasked(self) -> list[Added]:
        """Papers recorded but not looked up although the run was online: no service answered."""
        return [i for i in self.items if i.unreachable and i.status != "already"]

    @property
    def findings(self) -> int:
        """Exit 1 when a paper was recorded but not found for certain (notes-only, ambiguous,
        pending) or could not be looked up on an online run (no service reachable: run again
        online); recorded with ``--offline`` or already there is nothing to act on."""
        unsure = {"notes-only", "ambiguous", "pending"}
        return 1 if any(i.status in unsure for i in self.items) or self.unasked else 0

    def to_json(self) -> dict[str, Any]:
        return {"added": [i.to_json() for i in self.items], "inbox": self.inbox, "offline": self.offline,
                "changed": self.changed, "requests": self.requests, "problems": self.problems,
                "notices": self.notices, "not_looked_up": [i.where or i.thing for i in self.unasked]}


def add(things: Sequence[str], start: str | Path | None = None, *, tags: Sequence[str] = (), offline: bool = False,
        pick: Picker | None = None, jobs: int = 8, notes: Sequence[str] = ()) -> AddReport:
    """Record each of ``things`` in the inbox notes file and sync; see the module docstring.

    ``pick`` is asked to choose when several records fit a thing equally well (``--pick``);
    its choice is written as a pin, so later syncs keep it. ``notes`` (one per thing, e.g.
    ``suggested-by: …``) are written above each record as a comment no notes reader takes for text.
    """
    from citekit.notes.thing import NotAPaper, read_thing, valid_tag

    cfg = config_of(start)
    if not cfg.notes_dir.is_dir():
        raise CitekitError(f"no notes folder at {cfg.notes_dir}. Create it (or run `citekit init`), or set "
                           f"paths.notes in {cfg.path or 'citekit.yaml'}.", exit_code=2)
    inbox = _inbox(cfg)
    bad = [t for t in tags if not valid_tag(t)]
    if bad:
        raise UsageError(f"'{bad[0]}' cannot be a tag: use letters, digits, '-', '_', '/' or '.', no spaces.")
    from citekit.notes.reader import notes_name

    name = notes_name(inbox, cfg.root)
    read = []
    for text in things:
        try:
            read.append(read_thing(text, file=name))
        except NotAPaper as exc:
            raise NotAPaperError(str(exc)) from None
    report = AddReport(inbox=name, offline=offline, asked_offline=offline)
    from citekit.library.store import Library

    lib = Library.load(cfg.refs_dir)  # first, as a sync does: a damaged library stops before any request
    report.problems.extend(str(p) for p in lib.problems)
    # the index a sync matches with, kept with the parsed-library cache (the entries are not
    # decoded to be indexed again: at 50,000 entries seconds and hundreds of MiB); read
    # once, and carried through the import and the sync below with the library itself
    from citekit.library.match_index import library_index

    # (stored only when nothing is written: a write leaves it to be patched by the next command)
    index = library_index(lib, keep=False) if lib.keys() else None
    # a paper the library already holds by the identifier or title given is named before any
    # request: adding it again changes nothing, so nothing needs to be asked
    known = [_already_given(lib, thing, index) for thing in read]
    works = _look_up(cfg, read, report, offline=offline, jobs=jobs, skip={i for i, e in enumerate(known) if e})
    records: list[tuple[Added, str, Any]] = []
    # what the inbox already notes: asked only of a thing that is not BibTeX (a pasted entry
    # is always recorded, see _says_more), so pasting BibTeX does not read a growing inbox
    noted_before, authored = _inbox_marks(inbox, name) if any(t.kind != "bibtex" for t in read) else ([], set())
    for at, (thing, work) in enumerate(zip(read, works)):
        item = Added(thing=thing.text, kind=thing.kind,
                     given_ids=[f"{s}:{v}" for s, v in thing.mention.ids.items() if s in ("doi", "arxiv")])
        report.items.append(item)
        _describe(item, work)
        item.unreachable = work.unasked and not offline
        entry = known[at] or _already(lib, work, index)
        if entry is not None:
            item.status, item.key = "already", entry.key
            item.message = f"already in the library as '{entry.key}' ({entry.status}); nothing changed" + (
                f". To tag it: citekit tag {entry.key} {' '.join('+' + t for t in tags)}" if tags else "")
            continue
        noted = _noted(thing.mention, work, noted_before)
        if noted and not (pick is not None and work.status == "ambiguous") \
                and not _says_more(thing, authored, noted):  # a pick settles a noted one
            item.status, item.where = "already", noted
            item.message = "pending (no key yet): `citekit sync` online looks it up; nothing changed"
            continue
        noted_before.append(_marks(thing.mention, work, f"{name} (this command)"))
        note = notes[len(report.items) - 1] if len(notes) >= len(report.items) else ""
        records.append((item, _comment(inbox, note) + _recorded(thing, work, item, tags, pick), thing))
    if not records:
        lib.keep_memos()  # the index as loaded (built or patched above), for the next command
        return report
    _append(cfg, inbox, name, records)
    pasted = [(item, thing) for item, _, thing in records if thing.kind == "bibtex"]
    from citekit.api.sync_pipeline import run

    # a sync in which only the added papers are looked up: the other works of the notes
    # are folded as an offline sync folds them (resolved entries stay resolved), so adding
    # one paper never sends a request about another
    places = {item.where for item, _, _ in records}
    if not offline and any(item.unreachable for item, _, _ in records) and \
            all(item.unreachable or thing.kind == "bibtex" for item, _, thing in records):
        report.offline = True  # nothing answered a moment ago: the sync asks no one again
    # the papers no service could be reached about wait for their next try, as a sync's do
    tried = {item.where for item, _, _ in records if item.unreachable} if not offline else set()
    landed: list[Any] = []
    synced, _ = run(cfg, offline=report.offline, jobs=jobs, command="add",
                    look_up=lambda group: any(str(m.location) in places for m in group),
                    library=lib, index=index, before=_importer(cfg, pasted) if pasted else None,
                    then=lambda written, folded: landed.extend((written, folded.index)),
                    unreached=(lambda group: any(str(m.location) in tried for m in group)) if tried else None)
    report.requests += synced.requests
    report.changed = True
    report.problems.extend(synced.problems)
    _land(cfg, report, [item for item, _, _ in records], tags, synced.entries, *landed)
    return report


def _inbox(cfg: Config) -> Path:
    """The inbox file, which must lie inside the notes folder (a sync reads only that)."""
    import os

    inbox = cfg.inbox
    inside = os.path.normpath(inbox)
    if not inside.startswith(os.path.normpath(cfg.notes_dir) + os.sep) or inbox.suffix.lower() not in (".md", ".markdown", ".txt", ".org"):
        raise ConfigError(f"{cfg.path or 'citekit.yaml'}: paths.inbox must name a .md, .txt or .org file inside the "
                          f"notes folder {cfg.notes_dir} (got {inbox}).")
    return inbox


def _look_up(cfg: Config, read: list[Any], report: AddReport, *, offline: bool, jobs: int,
             skip: set[int] = frozenset()) -> list[Any]:  # type: ignore[assignment]
    """One work per thing: resolved online with the sync's rules, or from the notes offline
    (the things at ``skip``, already in the library, are not looked up).
    A pasted BibTeX entry is not looked up here: it goes in as the user's own record (as
    ``import`` takes it), and the sync that follows treats it as any BibTeX in the notes."""
    from citekit.core.resolution import OFFLINE_REASON, Work

    works: list[Any] = [Work(mentions=[t.mention], reason=OFFLINE_REASON) for t in read]
    online = [i for i, t in enumerate(read) if t.kind != "bibtex" and i not in skip]
    if offline or not online:
        return works
    from citekit.api.sync_pipeline import resolve_works
    from citekit.api.sync_report import SyncReport

    scratch = SyncReport()
    found = resolve_works(cfg, [[read[i].mention] for i in online], scratch, jobs=jobs)
    for i, work in zip(online, found):
        works[i] = work
    report.requests += scratch.requests
    report.notices.extend(scratch.notices)
    if scratch.offline:
        report.offline = True
    return works


def _describe(item: Added, work: Any) -> None:
    chosen = work.chosen
    if chosen is not None:
        item.title, item.year, item.venue = chosen.title, chosen.year, chosen.venue or chosen.container
        item.authors = [p.display() for p in chosen.authors]
        item.record = _record(chosen)
    else:
        m = work.mentions[0]
        item.title, item.authors, item.year, item.venue = m.title, list(m.authors), m.year, m.venue
    if work.runners_up and (work.status != "resolved" or work.score < 0.9):
        item.runner_up = _record(work.runners_up[0])
    if work.status == "ambiguous":
        item.fits = [_record(c) for c in [work.chosen, *work.runners_up] if c is not None]
    item.status = work.status
    item.message = work.reason


def _record(c: Any) -> dict[str, Any]:
    return {"source": c.source, "id": c.id, "stage": c.stage, "score": round(float(c.score), 3), "title": c.title,
            "authors": [p.display() for p in c.authors], "year": c.year, "venue": c.venue or c.container}


def _already(lib: Any, work: Any, index: Any) -> Any:
    """The library's entry for this work, found as a sync finds it (identifiers, titles, the
    same-work rule) in the library's match ``index``, or None."""
    from citekit.library.records import fields_from_candidate, fields_from_mentions
    from citekit.library.update import work_ids

    if index is None or not lib.keys():
        return None
    if work.chosen is not None and work.status == "resolved":
        built = fields_from_candidate(work.chosen, [], arxiv=work_ids(work).arxiv)
    else:
        built = fields_from_mentions(work.mentions)
    return index.find(work, built)


def _already_given(lib: Any, thing: Any, index: Any) -> Any:
    """The library's entry for what ``thing`` itself says (its identifiers, or its title),
    found before any lookup, or None. A pasted BibTeX entry is left to :func:`_already` after
    its own reading, and a mention with neither an identifier nor a title finds nothing."""
    from citekit.core.resolution import Work

    mention = thing.mention
    if thing.kind == "bibtex" or not (mention.ids or mention.title):
        return None
    return _already(lib, Work(mentions=[mention], reason="given"), index)


def _marks(mention: Any, work: Any, where: str) -> tuple[set[Any], str]:
    """What a noted paper is recognised by: its identifiers, links and folded title."""
    from citekit.core.text import normalize_title

    marks: set[Any] = set(mention.ids.items()) | set(mention.pins.items()) | set(mention.urls)
    if mention.title:
        marks.add(("title", normalize_title(mention.title)))
    for c in [work.chosen] if work.chosen is not None and work.status == "resolved" else []:
        marks |= set(c.ids.items())
    return marks, where


def _inbox_marks(inbox: Path, name: str) -> tuple[list[tuple[set[Any], str]], set[str]]:
    """The papers the inbox already notes (a paper added offline waits there, with no entry yet),
    and the places of those noted with their authors."""
    if not inbox.is_file():
        return [], set()
    from citekit.core.resolution import Work
    from citekit.notes import extract_text

    mentions = extract_text(inbox.read_text(encoding="utf-8", errors="replace"), name).mentions
    return ([_marks(m, Work(mentions=[m]), str(m.location)) for m in mentions],
            {str(m.location) for m in mentions if m.authors})


def _says_more(thing: Any, authored: set[str], where: str) -> bool:
    """Whether ``thing`` tells more than the line that already notes the paper: a BibTeX entry
    (the user's own record), or authors where that line had none. Such a thing is recorded too
    (the next sync reads both lines as one paper), never dropped as "already noted"."""
    return thing.kind == "bibtex" or bool(thing.mention.authors) and where not in authored


def _noted(mention: Any, work: Any, noted: list[tuple[set[Any], str]]) -> str | None:
    mine, _ = _marks(mention, work, "")
    return next((where for marks, where in noted if marks & mine), None)


def _recorded(thing: Any, work: Any, item: Added, tags: Sequence[str], pick: Picker | None) -> str:
    """The notes text for one thing: the record found (title, authors, link), the user's pick
    as a pin, or, when nothing was found for certain, the thing itself for the next sync."""
    from citekit.notes.thing import recorded_lines

    if thing.kind == "bibtex":
        return recorded_lines(thing)
    chosen = work.chosen if work.status == "resolved" else None
    pin = None
    if work.status == "ambiguous" and pick is not None:
        options = [c for c in [work.chosen, *work.runners_up] if c is not None]
        choice = pick(thing.text, [_record(c) for c in options]) if options else None
        if choice is not None and 0 <= choice < len(options):
            chosen = options[choice]
            pin = next(((s, v) for s, v in chosen.ids.items() if s in ("doi", "arxiv", "openreview", "dblp")), None)
            if pin is None:
                chosen = None  # a record with no identifier cannot be pinned: leave it to the next sync
            else:
                item.record = _record(chosen)
                item.title, item.authors = chosen.title, [p.display() for p in chosen.authors]
    if chosen is None or not chosen.authors:
        return recorded_lines(thing, tags=list(tags))
    url = thing.url or _id_url(chosen) or chosen.url
    return recorded_lines(thing, title=chosen.title, authors=[p.display() for p in chosen.authors], url=url,
                          pin=pin, tags=list(tags))


def _comment(inbox: Path, note: str) -> str:
    """``note`` as a comment line of the inbox's format (plain text has none: left out)."""
    note = " ".join(note.replace("--", "-").split())
    if not note:
        return ""
    suffix = inbox.suffix.lower()
    if suffix in (".md", ".markdown"):
        return f"<!-- {note} -->\n"
    if suffix == ".org":
        return f"# {note}\n"
    return ""


def _id_url(c: Any) -> str | None:
    ids = c.ids
    if ids.doi:
        return f"https://doi.org/{ids.doi}"
    if ids.arxiv:
        return f"https://arxiv.org/abs/{ids.arxiv}"
    if ids.openreview:
        return f"https://openreview.net/forum?id={ids.openreview}"
    return None


def _append(cfg: Config, inbox: Path, name: str, records: list[tuple[Added, str, Any]]) -> None:
    """Append each record to the inbox (one atomic write, under the project lock so two
    ``add`` at once never lose a line), noting the line it starts on."""
    from citekit.library.lock import ProjectLock

    with ProjectLock(cfg.refs_dir, "add"):
        _append_unlocked(inbox, name, records)


def _append_unlocked(inbox: Path, name: str, records: list[tuple[Added, str, Any]]) -> None:
    from citekit.library.store.files import atomic_write

    text = inbox.read_text(encoding="utf-8") if inbox.exists() else "# Inbox\n\nPapers added with `citekit add`.\n"
    if not text.endswith("\n"):
        text += "\n"
    for item, lines, thing in records:
        text += "\n"
        first = text.count("\n") + 1
        if lines.startswith(("<!--", "# ")):
            first += 1  # a note's comment line comes first
        # a pasted BibTeX entry's mention is on the line after the fence
        item.where = f"{name}:{first + 1 if thing.kind == 'bibtex' else first}"
        item.recorded = lines
        text += lines
    atomic_write(inbox, text)


def _importer(cfg: Config, items: list[tuple[Added, Any]]) -> Callable[[Any, Any], Callable[[Any], None]]:
    """A pasted BibTeX entry goes in as the user's own record, as ``import`` takes it: into
    the library the sync that follows holds under its lock, so the entry and the sync's
    work on it are one write (and the library is read once)."""

    def before(lib: Any, index: Any) -> Callable[[Any], None]:
        import tempfile

        from citekit.api.dedup import import_pasted

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "added.bib"
            path.write_text("\n\n".join(thing.text for _, thing in items) + "\n", encoding="utf-8")
            imported, write_maps = import_pasted(cfg, lib, [path], index=index)
        for (item, _), key in zip(items, list(imported.added)):
            item.key = key
        return write_maps

    return before


def _land(cfg: Config, report: AddReport, items: list[Added], tags: Sequence[str],
          details: list[dict[str, Any]], lib: Any = None, index: Any = None) -> None:
    """Which entry each recorded thing landed on after the sync (found by where its notes
    line is, so this is exactly what the sync read back), described as the entry now is
    (the sync may cite the published version of what the lookup found), and its tags for BibTeX."""
    from citekit.api.library import entry_json
    from citekit.library.store import Library

    if lib is None or index is None:  # (the sync's own library and index, as it wrote them)
        lib = Library.load(cfg.refs_dir)
        index = None
    detail_at = {where: d for d in details for where in d.get("mentions", ())}
    at = _at_places(lib, {item.where or "" for item in items}, index, detail_at)
    for item in items:
        entry = at.get(item.where or "")
        if entry is None and item.key:
            entry = lib.get(item.key)
        if entry is None and item.status == "ambiguous" and not report.offline:
            item.key = None
            item.message = _pin_hint(item)
            continue
        if entry is None:
            item.status = "offline" if report.offline else "pending"
            item.key = None
            if report.offline:
                item.message = _not_looked_up(item)
            elif item.kind == "url":
                item.message = (f"recorded at {item.where}, but no source knows this page: write the paper's title and "
                                "authors on that line, or add it by DOI or arXiv id")
            else:
                more = "authors" if item.given_ids else "authors, DOI or arXiv id"
                item.message = (f"recorded at {item.where}, but no source found its title and authors; the next sync "
                                f"tries again (or write its {more} under that line)")
            continue
        item.key = entry.key
        item.status = "offline" if report.offline and entry.status == "notes-only" else entry.status
        shown = entry_json(entry)
        item.title, item.year, item.venue = shown["title"], shown["year"], shown["venue"]
        item.authors = [_first_last(a) for a in shown["authors"]]
        chosen = (detail_at.get(item.where or "") or {}).get("chosen")
        if chosen and entry.status == "resolved":
            stages = {(v["source"], v["id"]): v["stage"] for v in detail_at[item.where or ""].get("versions", ())}
            item.record = {**(item.record or {}), **chosen, "stage": stages.get((chosen["source"], chosen["id"]), "")}
            for stale in ("title", "authors", "year", "venue", "score"):
                item.record.pop(stale, None)
        if item.kind == "bibtex" and tags:
            from citekit.api.library import tag

            tag(entry.key, [f"+{t}" for t in tags], cfg.root)
        if item.status == "notes-only" and item.unreachable:
            item.status = "offline"
        if item.status == "notes-only":
            advice = "Check the title or give its DOI or arXiv id" if not item.given_ids else \
                f"Check the title and authors ({', '.join(item.given_ids)} was given and is kept)"
            item.message = (f"recorded as notes-only: {entry.reason or 'no source knows this paper'}. "
                            f"{advice}; the next sync tries again")
        elif item.status == "offline":
            item.message = _not_looked_up(item, entry=True)
        elif item.status == "ambiguous":
            item.message = _pin_hint(item)


def _at_places(lib: Any, places: set[str], index: Any, detail_at: dict[str, Any]) -> dict[str, Any]:
    """place -> the entry whose mentions include it (the last in library order when several
    do): those filed there in the match index (as loaded, or as the sync left it) and
    those the sync's works landed on; no other entry is decoded."""
    from citekit.library.match_index import library_index

    if index is None:
        index = library_index(lib)
    order: dict[str, int] = {}
    out: dict[str, Any] = {}
    for place in places:
        landed = lib.get((detail_at.get(place) or {}).get("key") or "")
        filed = {id(e): e for e in [*index.filed_under(("at", place)), *([landed] if landed else [])]}
        held = [e for e in filed.values() if any(str(loc) == place for loc in e.mentions)]
        if len(held) > 1 and not order:  # (library order only to choose among several)
            order = {k: i for i, k in enumerate(lib.keys())}
        if held:
            out[place] = max(held, key=lambda e: order.get(e.key, -1))
    return out


def _not_looked_up(item: Added, *, entry: bool = False) -> str:
    """Why a recorded paper was not looked up, and what looks it up."""
    state = "notes-only, not looked up" if entry else "pending, not looked up"
    made = "an entry from the notes alone; " if entry else ""
    if not item.unreachable:  # --offline
        return f"{state} (--offline): {made}`citekit sync` online looks it up"
    return f"{state} (no service could be reached): {made}run `citekit sync` when online"


def _pin_hint(item: Added) -> str:
    """What to do about a paper several records fit: choose with ``--pick``, or pin by hand."""
    ids = [r["id"] for r in item.fits] or [r["id"] for r in (item.record, item.runner_up) if r]
    return (f"several records fit equally well{' (' + ', '.join(ids) + ')' if ids else ''}; recorded at {item.where} "
            "without choosing: run `citekit add --pick` with the same text, or write the identifier of the one you "
            "mean under that line (e.g. `doi: 10...`)")


def _first_last(name: str) -> str:
    """``Nam, Kyunghun`` as ``Kyunghun Nam``, as the record and the notes line show names."""
    parts = [p.strip() for p in name.split(",")]
    return f"{parts[1]} {parts[0]}" if len(parts) == 2 and all(parts) else name
