"""``suggest``: papers the library lacks that its papers' neighbours keep citing, each with its reason.

The seed set is a tag's papers (``--tag``), the library papers a draft cites (``--mine``)
or keys given by hand (``--key``). Each seed goes to the citation-graph service by DOI or
arXiv id (a title alone is not enough to name a paper there without risk of a wrong one, so
such seeds are left out and counted); the ranking is :mod:`citekit.library.suggest`'s.
Everything the service answers is cached, so a second run asks nothing; when the service
cannot be reached, what the cache holds is used and the report says so.

``--add`` records chosen suggestions in the notes inbox through ``add`` (a
``suggested-by`` comment above each, the tag on it), so they reach the library like any
paper; ``--dismiss`` remembers a "no" in ``.citekit/suggest-dismissed.json``.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from citekit.api.project import config_of
from citekit.core.errors import CitekitError, UsageError
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.core.config import Config
    from citekit.core.model import Entry
    from citekit.library.suggest import Suggestion
    from citekit.sources.graph import GraphPaper

#: the file of dismissed suggestions, in the project's state folder
DISMISSED_FILE = "suggest-dismissed.json"
#: seeds without a DOI or arXiv id looked up by title in one run (a request each, then cached)
TITLE_MATCHES = 25
#: positive ids sent to the recommendations call (the service takes a few hundred; more add little)
RECOMMEND_SEEDS = 100
RECOMMEND_LIMIT = 100


class NoSeeds(CitekitError):
    """The seed selection holds no paper: a finding, nothing to suggest from."""

    exit_code = 1


@dataclass
class SuggestReport:
    """What ``suggest`` found and did, for the listing and ``--json``."""

    #: how the seed set reads in reasons (``muon``, ``cited by your paper``, ``given``)
    label: str = ""
    seeds: list[str] = field(default_factory=list)
    #: seed keys the service does not know, and seed keys without a DOI or arXiv id (not asked)
    unknown: list[str] = field(default_factory=list)
    no_ids: list[str] = field(default_factory=list)
    #: seed keys without identifiers that Semantic Scholar's title match placed, certainly
    by_title: list[str] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    requests: int = 0
    #: the graph services asked, and the requests each was sent
    sources: list[str] = field(default_factory=list)
    requests_by_source: dict[str, int] = field(default_factory=dict)
    #: requests the shared HTTP client had to repeat (429 and 5xx answers)
    retries: int = 0
    from_cache_only: bool = False
    #: why a graph service could not be reached this run ("no network (the host name does
    #: not resolve)", "connection refused"); empty when every service asked answered
    unreachable: str = ""
    notices: list[str] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    dismissed: list[dict[str, Any]] = field(default_factory=list)
    #: why there is nothing to suggest from (no seed, or none known to the service)
    problem: str = ""
    #: which seed cites which other seeds (key -> keys), as the services report it
    seed_links: dict[str, list[str]] = field(default_factory=dict)
    #: seed keys with their titles (the picture labels them)
    seed_titles: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"problem": self.problem, "label": self.label, "seeds": self.seeds, "unknown_to_service": self.unknown,
                "without_ids": self.no_ids, "found_by_title": self.by_title, "suggestions": [s.to_json() for s in self.suggestions],
                "sources": self.sources, "requests": self.requests, "requests_by_source": self.requests_by_source,
                "retries": self.retries, "from_cache_only": self.from_cache_only,
                "unreachable": self.unreachable, "notices": self.notices, "added": self.added, "dismissed": self.dismissed}


def suggest(start: str | Path | None = None, *, tags: Sequence[str] = (), mine: str | None = None,
            keys: Sequence[str] = (), limit: int = 20, add: Sequence[int] = (), dismiss: Sequence[int] = (),
            refresh: bool = False, this_year: int | None = None, sources: Sequence[str] = (),
            progress: bool = False, offline: bool = False) -> SuggestReport:
    """Suggestions for one seed set (exactly one of ``tags``, ``mine``, ``keys``); see the module docstring.

    ``sources``: the graph services asked (default: Semantic Scholar, and OpenAlex too when
    ``CITEKIT_OPENALEX_API_KEY`` is set). ``progress``: a bar on stderr, a step per call of
    each service (seeds, recommendations, records). ``offline``: no request at all, only
    what earlier runs cached.

    ``add`` and ``dismiss`` are 1-based places in the list this same call ranks (the list
    the previous run printed, since the ranking is deterministic and cached).
    """
    from citekit.library.store import Library

    from citekit.sources.registry import GRAPH_SOURCE_NAMES

    unknown_sources = [n for n in sources if n not in GRAPH_SOURCE_NAMES]
    if unknown_sources:
        raise UsageError(f"--source {unknown_sources[0]}: choose from {', '.join(GRAPH_SOURCE_NAMES)}.")
    if sum(bool(x) for x in (tags, mine, keys)) != 1:
        raise UsageError("give exactly one of --tag TAG, --mine PAPER or --key KEY (see `citekit suggest -h`).")
    if limit < 1:
        raise UsageError("--limit must be 1 or more.")
    cfg = config_of(start)
    lib = Library.load(cfg.refs_dir)
    entries = lib.sorted_entries()
    try:
        seeds, label = _seeds(lib, entries, tags=tags, mine=mine, keys=keys, root=cfg.root)
    except NoSeeds as exc:
        return SuggestReport(problem=str(exc))
    report = SuggestReport(label=label, seeds=[e.key for e in seeds],
                           seed_titles={e.key: e.title or e.key for e in seeds})
    dismissed = load_dismissed(cfg)
    try:
        suggestions = _rank(cfg, seeds, entries, report, dismissed=dismissed, limit=limit, refresh=refresh,
                            this_year=this_year or datetime.date.today().year, sources=sources, progress=progress, offline=offline)
    except NoSeeds as exc:
        report.problem = str(exc)
        return report
    chosen_add = _picked(add, suggestions, "--add")
    chosen_no = _picked(dismiss, suggestions, "--dismiss")
    if chosen_no:
        for s in chosen_no:
            dismissed.update(_marks(s.paper))
            report.dismissed.append({"rank": s.rank, "title": s.paper.title, "ids": s.paper.ids()})
        save_dismissed(cfg, dismissed)
    if chosen_add:
        report.added = _add(cfg, chosen_add, tags=tags, label=label, offline=offline)
    gone = {id(s) for s in chosen_add + chosen_no}
    report.suggestions = [s for s in suggestions if id(s) not in gone]
    return report


# -- the seed set -------------------------------------------------------------------------


def _seeds(lib: Any, entries: list[Entry], *, tags: Sequence[str], mine: str | None, keys: Sequence[str],
           root: Path) -> tuple[list[Entry], str]:
    from citekit.library.tags import select, tag_counts, unknown_tags, unknown_tags_message

    if tags:
        chosen = select(entries, list(tags))
        if not chosen:
            in_use = [t for t, _ in tag_counts(entries)]
            unknown = unknown_tags(tags, in_use)
            why = f": {unknown_tags_message(unknown, in_use)}" if unknown else ""
            raise NoSeeds(f"no paper of the library has the tag(s) {' '.join(tags)}{why}; `citekit tags` lists the "
                          "tags in use.")
        return chosen, "`" + " ".join(tags) + "`"
    if keys:
        chosen = []
        for key in keys:
            entry = lib.get(key)
            if entry is None:
                raise UsageError(f"--key {key}: no entry of the library has that key (or had it); "
                                 "`citekit list` shows the keys.")
            chosen.append(entry)
        return _unique(chosen), "given"
    assert mine is not None
    path = Path(mine) if Path(mine).is_absolute() else root / mine
    if not path.is_file() and Path(mine).is_file():
        path = Path(mine)
    if path.is_file():
        cited = cited_keys(path)
        chosen = _unique([e for e in (lib.get(k) for k in cited) if e is not None])
        if not chosen:
            raise NoSeeds(f"--mine {mine}: it cites no paper of the library ({len(cited)} citation keys read); "
                          "add the papers it cites first, or name keys with --key.")
        return chosen, "cited"
    entry = lib.get(mine)
    if entry is None:
        raise UsageError(f"--mine {mine}: no such file, and no entry of the library has that key; give a .tex, "
                         ".aux or .md file of your paper, or a library key.")
    return [entry], "given"


def cited_keys(path: Path) -> list[str]:
    """The citation keys a paper cites: its ``.aux`` or ``.tex`` (``\\cite`` family), or a
    Markdown draft's pandoc citations (``[@key]``, ``@key``)."""
    suffix = path.suffix.lower()
    if suffix in (".md", ".markdown"):
        text = path.read_text(encoding="utf-8", errors="replace")
        return list(dict.fromkeys(m.group(1).rstrip(".:") for m in _PANDOC_CITE.finditer(text)))
    from citekit.paper.cited import read_citations

    cited = read_citations(aux=path) if suffix == ".aux" else read_citations(tex=path)
    return list(cited.keys)


_PANDOC_CITE = lazy(r"(?<![\w.])@([A-Za-z0-9_][\w:.#$%&+?<>~/-]*)")


def _unique(entries: list[Entry]) -> list[Entry]:
    return list({e.key: e for e in entries}.values())


# -- asking the graph and ranking ---------------------------------------------------------


#: how reasons and notices name each graph source
SERVICE_NAMES = {"semanticscholar": "Semantic Scholar", "openalex": "OpenAlex"}


def _rank(cfg: Config, seeds: list[Entry], entries: list[Entry], report: SuggestReport, *,
          dismissed: set[str], limit: int, refresh: bool, this_year: int,
          sources: Sequence[str], progress: bool = False, offline: bool = False) -> list[Suggestion]:
    from citekit.library.suggest import Held, merge, rank
    from citekit.sources import build_client, open_cache
    from citekit.sources.settings import SourceSettings

    ids: dict[str, tuple[str, str]] = {}
    for e in seeds:
        if e.ids.doi:
            ids[e.key] = ("doi", e.ids.doi)
        elif e.ids.arxiv:
            ids[e.key] = ("arxiv", e.ids.arxiv)
        else:
            report.no_ids.append(e.key)
    settings = SourceSettings.from_env(cfg.data, cfg.root)
    settings.refresh = refresh
    names = list(sources) or ["semanticscholar"] + (["openalex"] if settings.openalex_api_key else [])
    report.sources = names
    report.from_cache_only = offline
    client, cache = build_client(settings), open_cache(settings)
    views: list[list[Suggestion]] = []
    graph_ids: list[str] = []
    unknown: set[str] | None = None
    import sys

    from tqdm import tqdm

    bar = tqdm(total=3 * len(names), desc="asking", unit="step", file=sys.stderr, disable=not progress, leave=False)
    try:
        if "semanticscholar" in names and report.no_ids:
            _match_titles([e for e in seeds if e.key in set(report.no_ids)], ids, report, settings, client, cache,
                          offline=offline)
        for name in names:
            bar.set_description(SERVICE_NAMES[name])
            view, known, missing = _one_source(name, settings, client, cache, ids, report, dismissed, bar.update,
                                               offline=offline)
            if view is None:
                continue
            views.append(view)
            graph_ids.extend(known)
            unknown = missing if unknown is None else unknown & missing
        report.unknown = sorted(unknown or ())
        if not views:
            service = " or ".join(SERVICE_NAMES[n] for n in names)
            if report.unreachable:
                # the problem names the failure first: the per-request notices would say it twice
                report.notices = [n for n in report.notices if not n.startswith(_UNREACHABLE_NOTICES)]
            raise NoSeeds(_no_seed_known(service, len(seeds), has_ids=bool(ids), offline=offline,
                                         unreachable=report.unreachable or report.from_cache_only))
        held = Held(entries, graph_ids=graph_ids, noted=noted_ids(cfg))
        return rank(merge(views), held, dismissed=dismissed, seed_count=len(seeds),
                    group=group_phrase(report.label, len(seeds)), this_year=this_year, limit=limit)
    finally:
        report.requests = client.stats.total
        report.requests_by_source = {n: client.stats.requests[n] for n in names}
        report.retries = sum(client.stats.retries.values())
        if client.stats.retries["semanticscholar"] and not report.unreachable:
            # (an unreachable service's retries are failed connections, not refusals)
            report.notices.append(
                f"Semantic Scholar asked citekit to slow down (429); {client.stats.retries['semanticscholar']} "
                "request(s) were repeated after waiting" + ("" if settings.s2_api_key else
                                                           " (the shared pool without a key: CITEKIT_S2_API_KEY "
                                                           "gives a pool of your own)"))
        if client.stats.retries["openalex"]:
            report.notices.append(f"OpenAlex answered 403 (its per-second limit); {client.stats.retries['openalex']} "
                                  "request(s) were repeated after waiting a second")
        cache.close()
        bar.close()


#: how the notices of a service that could not be reached begin (left out when the problem says it)
_UNREACHABLE_NOTICES = ("title matches come from the cache only: ",) + tuple(f"{s}'s part comes" for s in SERVICE_NAMES.values())


def _no_seed_known(service: str, count: int, *, has_ids: bool, offline: bool, unreachable: str | bool) -> str:
    """Why no graph service gave anything about the seeds, and what to do next.

    "knows none" only when the service was asked and answered: with ``--offline`` it was
    never asked, and an unreachable one could not answer, so saying it knows none of the
    papers would send the user looking for a fault in their library that is not there.
    The failure comes first and plainly (``unreachable``: its short cause), with what to do.
    """
    seeds = f"the {count} seed paper{'s' if count != 1 else ''}"
    no_ids = " (none of them has a DOI or arXiv id, so they are matched by title, online)" if not has_ids else ""
    if offline:
        return (f"{service} was not asked (--offline), and nothing is cached for {seeds}{no_ids}; nothing to "
                "suggest from. Run the same command without --offline to ask it; later runs can use --offline.")
    if unreachable:
        cause = f": {unreachable}" if isinstance(unreachable, str) else ""
        return (f"{service} could not be reached{cause}. Nothing is cached for {seeds}, so there is nothing to "
                "suggest from: check the network (or the service's address) and run it again; once an online run "
                "has cached the answers, --offline works without a network.")
    why = " (none of them has a DOI or arXiv id, and no title matched for certain)" if not has_ids \
        else " (none of them has a record there)"
    return (f"{service} knows none of {seeds}{why}; nothing to suggest from. "
            "Seeds are found by DOI or arXiv id: `citekit upgrade` or a sync online fills them in.")


def _match_titles(entries: list[Entry], ids: dict[str, tuple[str, str]], report: SuggestReport, settings: Any,
                  client: Any, cache: Any, *, offline: bool = False) -> None:
    """Seeds with no identifier, placed by Semantic Scholar's title match only when it is
    certainly the same paper: the same title, years at most one apart, and an author in
    common (no authors on either side: not accepted). A wrong seed would put a stranger's
    references in every reason, so a doubtful match leaves the seed out."""
    from citekit.sources.base import SourceError
    from citekit.sources.registry import row

    source = row("semanticscholar").load()(client, cache, settings)
    source.offline = offline
    for entry in entries[:TITLE_MATCHES]:
        try:
            paper = source.match(entry.title or "")
        except SourceError as exc:
            # the rest come from what earlier runs cached: one failed request says the
            # service is out of reach, and asking again per seed would only wait longer
            report.notices.append(f"title matches come from the cache only: {exc}")
            report.unreachable = report.unreachable or unreachable_cause(exc)
            source.offline = True
            paper = source.match(entry.title or "")
        if paper is not None and same_paper(entry, paper):
            ids[entry.key] = ("s2", paper.id)
            report.by_title.append(entry.key)
            report.no_ids.remove(entry.key)


def same_paper(entry: Entry, paper: GraphPaper) -> bool:
    """The library entry and the graph record are one paper beyond doubt: the same title
    (folded), years at most one apart when both are known, and a person in common."""
    from citekit.core.text import normalize_title
    from citekit.matching.people import name_of, parse_authors, same_person

    if not paper.title or normalize_title(entry.title or "") != normalize_title(paper.title):
        return False
    if entry.year and paper.year and abs(entry.year - paper.year) > 1:
        return False
    mine, _ = parse_authors(entry.fields.get("author", ""))
    theirs = [n for n in (name_of(a) for a in paper.authors) if n is not None]
    return any(same_person(a, b) for a in mine for b in theirs)


def _one_source(name: str, settings: Any, client: Any, cache: Any, ids: dict[str, tuple[str, str]],
                report: SuggestReport, dismissed: set[str],
                step: Any = lambda n=1: None, *,
                offline: bool = False) -> tuple[list[Suggestion] | None, list[str], set[str]]:
    """One graph service's neighbours of the seeds: (the view, the seeds' ids there, seed
    keys it does not know); the view is None when it knows none of the seeds."""
    from citekit.library.suggest import neighbours, shortlist, ties
    from citekit.sources.base import SourceError
    from citekit.sources.registry import row

    service = SERVICE_NAMES[name]
    source = row(name).load()(client, cache, settings)
    source.offline = offline

    def cached_only(exc: SourceError) -> None:
        report.from_cache_only = True
        report.unreachable = report.unreachable or unreachable_cause(exc)
        report.notices.append(f"{exc}; {service}'s part comes from what earlier runs cached")
        source.offline = True

    try:
        found = source.seeds(ids)
    except SourceError as exc:
        cached_only(exc)
        found = source.seeds(ids)
    step(1)
    known = {k: p for k, p in found.items() if p is not None}
    missing = {k for k in ids if k not in known}
    if not known:
        return None, [], missing
    key_of = {p.id: k for k, p in known.items()}
    for k, p in known.items():
        cited = {key_of[r] for r in p.references or [] if r in key_of and key_of[r] != k}
        if cited:
            report.seed_links[k] = sorted(set(report.seed_links.get(k, [])) | cited)
    negative = sorted(m.split(":", 1)[1] for m in dismissed if m.startswith(f"{name}:"))
    recs: list[GraphPaper] = []
    try:
        recs = source.recommend([p.id for p in known.values()][:RECOMMEND_SEEDS], negative, RECOMMEND_LIMIT)
    except SourceError as exc:
        report.notices.append(f"{service}'s recommendations left out: {exc}")
    step(1)
    wanted = shortlist(ties(known), [p.id for p in recs], seeds=len(known))
    records: dict[str, GraphPaper | None] = {p.id: p for p in recs}
    try:
        records.update(source.papers([pid for pid in wanted if pid not in records]))
    except SourceError as exc:
        cached_only(exc)
        records.update(source.papers([pid for pid in wanted if pid not in records]))
    step(1)
    return neighbours(known, records, recommended=[p.id for p in recs], service=service), \
        [p.id for p in known.values()], missing


def unreachable_cause(exc: Exception) -> str:
    """The short why of a failed request ("no network (the host name does not resolve)",
    "connection refused"), not the request line and the retry count around it."""
    cause = getattr(exc, "cause", "") or getattr(exc, "message", "") or str(exc)
    return cause.removeprefix("connection failed: ")


def noted_ids(cfg: Config) -> list[tuple[str, str]]:
    """The DOIs and arXiv ids the notes name: a paper added but not resolved yet is no suggestion."""
    from citekit.notes import extract_paths

    if not cfg.notes_dir.is_dir():
        return []
    out = []
    for m in extract_paths([cfg.notes_dir], root=cfg.root).mentions:
        out.extend((s, v) for s, v in list(m.ids.items()) + list(m.pins.items()) if s in ("doi", "arxiv"))
    return out


def group_phrase(label: str, n: int) -> str:
    """How reasons name the seed set: ``your 7 `muon` papers``, ``the 4 library papers your paper cites``."""
    papers = "paper" if n == 1 else "papers"
    if label == "cited":
        return f"the {n} library {papers} your paper cites"
    if label == "given":
        return f"the {n} {papers} given"
    return f"your {n} {label} {papers}"


# -- adding and dismissing ----------------------------------------------------------------


def _picked(places: Sequence[int], suggestions: list[Suggestion], option: str) -> list[Suggestion]:
    out = []
    for n in places:
        if not 1 <= n <= len(suggestions):
            raise UsageError(f"{option} {n}: the list has {len(suggestions)} suggestion(s), numbered from 1; "
                             "run `citekit suggest` with the same options to see them.")
        out.append(suggestions[n - 1])
    return list({id(s): s for s in out}.values())


def _marks(p: GraphPaper) -> set[str]:
    return {f"{scheme}:{value}".lower() for scheme, value in p.ids().items()}


def _thing(p: GraphPaper) -> str:
    if p.doi:
        return f"https://doi.org/{p.doi}"
    if p.arxiv:
        return f"https://arxiv.org/abs/{p.arxiv}"
    return p.title


def _add(cfg: Config, chosen: list[Suggestion], *, tags: Sequence[str], label: str,
         offline: bool = False) -> list[dict[str, Any]]:
    from citekit.api.adding import add

    plain = [t for t in tags if not t.startswith(("-", "not:"))]
    things = [_thing(s.paper) for s in chosen]
    notes = [f"suggested-by: citekit suggest ({s.reason})" for s in chosen]
    added = add(things, cfg.root, tags=plain, notes=notes, offline=offline)
    return [{"rank": s.rank, "title": s.paper.title, "thing": t, "status": item.status, "key": item.key,
             "where": item.where} for s, t, item in zip(chosen, things, added.items)]


def dismissed_list(start: str | Path | None = None) -> list[str]:
    """The identifiers of every dismissed suggestion (``--dismissed``), sorted."""
    return sorted(load_dismissed(config_of(start)))


def dismissed_path(cfg: Config) -> Path:
    from citekit.core.paths import state_dir

    return state_dir(cfg.refs_dir) / DISMISSED_FILE


def load_dismissed(cfg: Config) -> set[str]:
    """Every identifier of every dismissed suggestion (``doi:…``, ``arxiv:…``, ``semanticscholar:…``)."""
    path = dismissed_path(cfg)
    if not path.exists():
        return set()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise CitekitError(f"{path} is not readable JSON; fix or delete it (it only lists dismissed "
                           "suggestions).", exit_code=2) from None
    return {str(x).lower() for x in data.get("dismissed") or []}


def save_dismissed(cfg: Config, dismissed: set[str]) -> None:
    from citekit.library.lock import ProjectLock
    from citekit.library.store.files import atomic_write

    path = dismissed_path(cfg)
    path.parent.mkdir(parents=True, exist_ok=True)
    with ProjectLock(cfg.refs_dir, "suggest"):
        atomic_write(path, json.dumps({"dismissed": sorted(dismissed)}, indent=1) + "\n")


# -- the picture ----------------------------------------------------------------------------


@dataclass
class GraphReport:
    """What ``graph`` drew and where."""

    output: str
    papers: int
    suggestions: int
    edges: int
    suggest: SuggestReport

    def to_json(self) -> dict[str, Any]:
        return {"output": self.output, "library_papers": self.papers, "suggestions": self.suggestions,
                "edges": self.edges, "requests": self.suggest.requests, "notices": self.suggest.notices,
                "problem": self.suggest.problem}


def graph(output: str | Path, start: str | Path | None = None, *, tags: Sequence[str] = (), mine: str | None = None,
          keys: Sequence[str] = (), limit: int = 15, refresh: bool = False, this_year: int | None = None,
          sources: Sequence[str] = (), progress: bool = False, offline: bool = False) -> GraphReport:
    """Draw the seeds, their top ``limit`` suggestions and the citations between them into
    ``output`` (``.svg`` or ``.html``); the seeds are chosen as for :func:`suggest`. With
    both ``tags`` and ``mine``, the tag's papers are the seeds and the user's paper is drawn
    among them, with an arrow to each library paper it cites."""
    from citekit.library.store.files import atomic_write
    from citekit.output.neighbourhood import Node, Picture, html_page, svg

    target = Path(output)
    if target.suffix.lower() not in (".svg", ".html", ".htm"):
        raise UsageError(f"-o {output}: name a .svg or .html file.")
    own = mine if tags and mine else None
    report = suggest(start, tags=tags, mine=None if own else mine, keys=keys, limit=limit, refresh=refresh,
                     this_year=this_year, sources=sources, progress=progress, offline=offline)
    if report.problem and not report.seeds:
        return GraphReport(str(target), 0, 0, 0, report)  # no paper to draw: nothing written
    # seeds no service could place are drawn too (unconnected): the picture is of the user's papers
    shown = list(report.seeds)
    what = {"cited": "the library papers your paper cites", "given": "the papers given"}.get(
        report.label, f"your {report.label} papers")
    picture = Picture(heading=f"The citation neighbourhood of {what}".replace("`", ""))
    for key in shown:
        picture.nodes.append(Node(id=key, label=key, title=report.seed_titles.get(key, key),
                                  hover=f"{key}: {report.seed_titles.get(key, key)}"))
    for key, cited in report.seed_links.items():
        picture.edges.extend((key, c) for c in cited)
    if own:
        picture.nodes.append(Node(id="#mine", label="your paper", title=Path(own).name, own=True,
                                  hover=f"your paper ({Path(own).name})"))
        picture.edges.extend(("#mine", k) for k in _own_cites(own, start) if k in set(shown))
    for s in report.suggestions:
        sid = f"#{s.rank}"
        words = s.paper.title.split()
        label = f"{s.rank}. " + " ".join(words[:4]) + ("…" if len(words) > 4 else "") + \
            (f" ({s.paper.year})" if s.paper.year else "")
        picture.nodes.append(Node(id=sid, label=label, title=s.paper.title, suggested=True, classic=s.classic,
                                  hover=f"{s.rank}. {s.paper.title}: {s.reason}", rank=s.rank))
        picture.edges.extend((k, sid) for k in s.cited_by)
        picture.edges.extend((sid, k) for k in s.cites)
    if not target.parent.is_dir():
        raise UsageError(f"-o {output}: the folder {target.parent} does not exist.")
    text = html_page(picture) if target.suffix.lower() in (".html", ".htm") else svg(picture)
    # (written last: a bad option or an unreadable draft above leaves no half-made file)
    atomic_write(target, text)
    return GraphReport(str(target), len(shown), len(report.suggestions), len(picture.edges), report)


def _own_cites(mine: str, start: str | Path | None) -> list[str]:
    """The library keys (aliases followed) the user's paper cites; a KEY names itself."""
    from citekit.library.store import Library

    cfg = config_of(start)
    lib = Library.load(cfg.refs_dir)
    path = Path(mine) if Path(mine).is_file() else cfg.root / mine
    if not path.is_file():
        entry = lib.get(mine)
        if entry is None:
            raise UsageError(f"--mine {mine}: no such file, and no entry of the library has that key.")
        return [entry.key]
    return [e.key for e in (lib.get(k) for k in cited_keys(path)) if e is not None]
