"""Upgrading imported entries to the published version of the same work, keeping the key.

An imported ``.bib`` often cites the arXiv version of a paper that has since appeared at a
conference or in a journal. This module holds the three decisions of ``citekit upgrade``:
which entries are worth a lookup (:func:`wants_lookup`), what is asked about each
(:func:`mention_of`, the same query a line of notes gives), and whether what came back may
replace the entry (:func:`decide`). The lookups themselves are :mod:`citekit.resolve`'s
(batched, cached, within each service's limits); the move is :func:`citekit.library.merge.move_to_version`.

Nothing is swapped unless it is certain: the record must be a final version (published or
accepted), :func:`citekit.matching.works.same_work` must call it the same work or a
version of it, and the authors must agree (a similar title is not the same paper: the
classic failure is turning *Deep Learning* in Nature into a workshop talk).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from citekit.core.model import Entry, Ids, Location
from citekit.core.names import split_bibtex_names
from citekit.core.resolution import Candidate, Mention, Work
from citekit.core.text import latex_to_text
from citekit.library.merge import move_to_version
from citekit.library.records import fields_from_candidate
from citekit.matching.people import author_overlap, parse_authors
from citekit.matching.works import AUTHOR_THRESHOLD, FINAL_STAGES, entry_stage, same_work, stage_rank

#: statuses of entries nothing online has confirmed yet: the ones ``--all`` looks up
UNCONFIRMED = frozenset({"imported", "notes-only"})
#: entry types that are never a preprint of a paper (a program, a book, a whole proceedings)
_NOT_PAPERS = frozenset({"software", "book", "mvbook", "proceedings", "mvproceedings", "manual", "dataset",
                         "phdthesis", "mastersthesis", "thesis", "booklet", "collection", "patent"})
#: the services asked, and the one searched by title. dblp lists the published version of a
#: computer-science paper and, as CoRR, its arXiv preprint, so one search finds both;
#: arXiv answers identifiers only, in batches of up to 100 per request: a title search
#: there costs a request per entry (one every three seconds) and finds nothing dblp does
#: not. Crossref would mostly repeat, by DOI, the published record dblp already gave; it
#: is searched by title only for an entry with no identifier of which dblp knows nothing
#: (a journal article outside computer science: dblp does not list it, Crossref does), and
#: never asked by identifier (:data:`SEARCHED_WHEN_UNKNOWN`).
UPGRADE_SOURCES = ("dblp", "arxiv", "crossref")
SEARCHED = frozenset({"dblp"})
#: searched only for an entry with no identifier that the sources of :data:`SEARCHED` did
#: not find at all; the same "0 wrong" decision applies to what it finds
SEARCHED_WHEN_UNKNOWN = frozenset({"crossref"})
#: where a mention built from the library says it was written
LIBRARY_FILE = "refs/library.bib"

Action = Literal["upgrade", "confirm", "keep"]


def wants_lookup(entry: Entry, *, named: bool = False) -> str | None:
    """Why ``entry`` is not looked up, or None when it is.

    An entry already published has nothing to upgrade to; ``named`` (the user gave its key)
    also looks up entries other commands confirmed, as long as they are not final versions.
    """
    if entry.entry_type.lower() in _NOT_PAPERS:
        return f"a @{entry.entry_type} is not a paper with a preprint"
    if not entry.title.strip():
        return "no title to look up"
    stage = entry_stage(entry)
    if stage == "published":
        return "already the published version"
    if stage == "workshop":
        return "a workshop paper: its later versions are other papers (see 'citekit dedup --versions')"
    if not named and entry.status not in UNCONFIRMED:
        return f"already {entry.status}"
    return None


def mention_of(entry: Entry) -> Mention:
    """The query for ``entry``: its title, authors, year and identifiers, read as text."""
    raw = split_bibtex_names(entry.fields.get("author", ""))
    names = [latex_to_text(n) for n in raw if n.strip().lower() not in ("others", "et al.", "et al")]
    truncated = len(names) < len(raw)
    urls = [entry.fields["url"]] if entry.fields.get("url", "").startswith("http") else []
    return Mention(kind="titled", location=Location(file=LIBRARY_FILE, line=0),
                   title=latex_to_text(entry.title), authors=names, authors_incomplete=truncated,
                   urls=urls, year=entry.year, ids=entry.ids)


@dataclass
class Decision:
    """What ``citekit upgrade`` does with one entry, and why (shown to the user)."""

    key: str
    action: Action
    reason: str
    #: the record moved to (``upgrade``) or confirming the entry (``confirm``)
    record: Candidate | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"key": self.key, "action": self.action, "reason": self.reason}
        if self.record is not None:
            out["to"] = {"source": self.record.source, "id": self.record.id, "venue": self.record.venue,
                         "year": self.record.year, "stage": self.record.stage, "doi": self.record.ids.doi}
        return out


def published_entry(entry: Entry, record: Candidate, work: Work) -> Entry:
    """The record as a library entry under ``entry``'s key (the fields a sync would write)."""
    arxiv = entry.ids.arxiv or next((v.ids.arxiv for v in work.versions if v.ids.arxiv), None)
    entry_type, fields = fields_from_candidate(record, arxiv=arxiv)
    return Entry(key=entry.key, entry_type=entry_type, fields=fields, ids=record.ids.merged(entry.ids),
                 status="upgraded", provenance={k: record.source for k in fields}, origin=entry.origin)


def _authors_agree(entry: Entry, record_entry: Entry) -> str | None:
    """Why the two author lists do not name the same people, or None when they do."""
    mine, cut1 = parse_authors(entry.fields.get("author", ""))
    theirs, cut2 = parse_authors(record_entry.fields.get("author", ""))
    if not mine:
        return None  # nothing to compare: the title and identifiers decided
    if not theirs:
        return "the record names no authors"
    share, matched = author_overlap(mine, theirs, shorter=cut1 or cut2)
    if share < AUTHOR_THRESHOLD:
        return f"the authors differ ({matched} of {max(len(mine), len(theirs))} in common)"
    return None


def decide(entry: Entry, work: Work) -> Decision:
    """Whether ``work`` (what the services answered for ``entry``) may replace it."""
    chosen = work.chosen
    if work.status != "resolved" or chosen is None:
        why = work.reason or ("several records fit" if work.status == "ambiguous" else "not found online")
        return Decision(entry.key, "keep", why)
    if chosen.stage not in FINAL_STAGES or stage_rank(chosen.stage) >= stage_rank(entry_stage(entry)):
        found = f"found online, no published version yet ({chosen.source} {chosen.id})"
        if entry.origin != "import":  # an entry of the notes: sync fills it from the record it found
            return Decision(entry.key, "keep", f"{found}; 'citekit sync' resolves entries of the notes")
        return Decision(entry.key, "confirm", found, chosen)
    candidate = published_entry(entry, chosen, work)
    verdict = same_work(entry, _without_eprint(candidate))
    if verdict is None or verdict.kind not in ("same", "versions"):
        return Decision(entry.key, "keep", f"{chosen.source} {chosen.id} is not certainly the same work"
                        + (f" ({verdict.reason})" if verdict else ""))
    disagree = _authors_agree(entry, candidate)
    if disagree:
        return Decision(entry.key, "keep", f"{chosen.source} {chosen.id}: {disagree}")
    venue = chosen.venue or chosen.container or chosen.source
    return Decision(entry.key, "upgrade", f"{chosen.stage} in {venue} ({verdict.reason})", chosen)


def _without_eprint(entry: Entry) -> Entry:
    """``entry`` without the arXiv id it was given from the preprint (so it cannot vouch for itself)."""
    fields = {k: v for k, v in entry.fields.items() if k not in ("eprint", "archiveprefix", "primaryclass")}
    ids = Ids.from_dict({**entry.ids.as_dict(), "arxiv": None})
    return Entry(key=entry.key + ":published", entry_type=entry.entry_type, fields=fields, ids=ids)


def apply(entry: Entry, decision: Decision, work: Work, *, precedence: list[str] | None = None) -> Entry:
    """The entry after ``decision``: moved to the published record, or only marked confirmed."""
    if decision.action == "keep" or decision.record is None:
        return entry
    if decision.action == "confirm":
        entry.status = "resolved"
        entry.ids = entry.ids.merged(decision.record.ids)
        entry.reason = decision.reason
        return entry
    published = published_entry(entry, decision.record, work)
    published.key = entry.key + ":published"
    record = decision.record
    described = {"source": record.source, "id": record.id, "title": record.title, "stage": record.stage,
                 **({"venue": record.venue} if record.venue else {}), **({"year": record.year} if record.year else {})}
    moved = move_to_version(entry, published, reason=f"upgraded: {decision.reason}", published_as=described,
                            precedence=precedence)
    moved.status = "upgraded"
    moved.ids = published.ids.merged(entry.ids)
    return moved
