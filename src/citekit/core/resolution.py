"""The values of resolution: what the notes say (:class:`Mention`), what a source returned
(:class:`Candidate`) and one paper with its versions (:class:`Work`).

They live apart from :mod:`citekit.core.model` (the library's records) so that the commands
that only read the library do not define them at start-up; this module imports the model,
never the other way.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from citekit.core.model import Ids, Location, Person


@dataclass
class Mention:
    """What the notes say about one paper, before any lookup.

    ``kind`` is ``titled`` (a title line, maybe with labelled details), ``url`` (a bare
    paper URL with no title), ``abstract`` (a paragraph of abstract text, no title), or
    ``cited`` (an author-year citation such as ``Kingma & Ba 2014``: authors and a year,
    no title; nothing can be searched by title, so it waits as pending).
    """

    kind: Literal["titled", "url", "abstract", "cited"]
    location: Location
    title: str | None = None
    authors: list[str] = field(default_factory=list)  # raw strings as written
    authors_incomplete: bool = False  # the notes wrote "et al." / "others": the list is partial
    urls: list[str] = field(default_factory=list)  # paper URLs (poster/oral, openreview, arxiv, doi)
    links: dict[str, str] = field(default_factory=dict)  # project/code/slides pages by label
    summary: str | None = None
    abstract: str | None = None
    hints: list[str] = field(default_factory=list)  # method names the text introduces
    venue: str | None = None  # short venue, e.g. "ICML"
    year: int | None = None
    ids: Ids = field(default_factory=Ids)  # identifiers read from URLs
    pins: Ids = field(default_factory=Ids)  # identifiers the user pinned explicitly
    hashtags: list[str] = field(default_factory=list)
    section: str | None = None  # nearest heading, for tag mapping
    #: the reference string as the notes wrote it, when the line is a pasted reference read
    #: by the reference parser: searched whole where a service is made for that (Crossref)
    reference: str | None = None
    #: the reference parser read the title of that string, but not surely (a pasted line
    #: the parser may have split wrong): an online sync also looks the string up by its
    #: other words when the title finds nothing
    title_unsure: bool = False
    #: ``venue`` and ``year`` are only the page's default (a heading such as "ICLR 2026"
    #: above the line), not said of this paper: a real year (a record's, an arXiv id's) beats it
    year_from_page: bool = False
    #: where a pasted reference says the paper appeared, as it wrote it: ``container`` (the
    #: journal or proceedings), ``volume``, ``number``, ``pages``; an entry built offline keeps them
    published: dict[str, str] = field(default_factory=dict)
    #: the people a heading or parent bullet above the mention names ("Egor Shulgin (KAUST)"
    #: over a list of his papers): not the author list (the notes do not say they wrote it
    #: alone), only a person a record must list before a title alone may confirm it
    heading_people: list[str] = field(default_factory=list)
    #: the citation key a pasted BibTeX entry gives itself (``@inproceedings{chen2023lion,``):
    #: an entry built from the notes takes it while it is free, so a library rebuilt from the
    #: notes cites the paper as the user did
    citekey: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["location"] = {"file": self.location.file, "line": self.location.line}
        if d["reference"] is None:
            del d["reference"]  # (most mentions are not pasted references)
        if not d["title_unsure"]:
            del d["title_unsure"]
        if not d["year_from_page"]:
            del d["year_from_page"]
        if not d["published"]:
            del d["published"]
        if not d["heading_people"]:
            del d["heading_people"]
        if d["citekey"] is None:
            del d["citekey"]
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Mention":
        """The mention :meth:`to_json` wrote (raises TypeError or KeyError on other data)."""
        d = dict(data)
        d["location"] = Location(str(d["location"]["file"]), int(d["location"]["line"]))
        d["ids"] = Ids(**d.get("ids") or {})
        d["pins"] = Ids(**d.get("pins") or {})
        return cls(**d)


@dataclass
class Candidate:
    """One record a source returned, normalized to what citekit needs.

    ``stage`` drives the version precedence; ``venue`` is short (``ICML 2026``),
    ``container`` the long booktitle/journal name.
    """

    source: str  # openreview | crossref | dblp | arxiv | notes
    id: str  # the source's own id for this record
    title: str
    authors: list[Person] = field(default_factory=list)
    year: int | None = None
    venue: str | None = None
    container: str | None = None
    entry_type: str = "misc"  # inproceedings | article | misc
    stage: str = "preprint"
    ids: Ids = field(default_factory=Ids)
    abstract: str | None = None
    url: str | None = None
    extra: dict[str, str] = field(default_factory=dict)  # volume, pages, publisher, month, ...
    score: float = 0.0  # set by matching
    raw: Any = None  # the payload, for provenance and debugging

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("raw", None)
        d["authors"] = [p.display() or p.raw for p in self.authors]
        return d


#: why a work is built from the notes alone: an offline run asked no source, and an online one
#: could not ask any (every source down). Both say only "not asked yet": a sync keeps the one an
#: entry already has (:func:`citekit.library.update._update_meta`), so switching runs rewrites nothing.
OFFLINE_REASON = "offline: built from the notes"
UNASKED_REASON = "no source could be asked about this"
#: a work left for the next sync because its conference list was skipped: not asked yet either
NOT_LOOKED_UP = "not looked up:"


def unasked(reason: str | None) -> bool:
    """Whether ``reason`` says only that no source was asked (see :data:`OFFLINE_REASON`):
    runs that learn nothing new about a work keep the reason it has, whichever of these it is."""
    return bool(reason) and reason.startswith((OFFLINE_REASON, UNASKED_REASON, NOT_LOOKED_UP))


@dataclass
class Work:
    """One paper as resolution sees it: every version found, the chosen one, and why."""

    mentions: list[Mention]
    chosen: Candidate | None = None
    versions: list[Candidate] = field(default_factory=list)
    status: str = "notes-only"
    score: float = 0.0
    reason: str = ""  # why not resolved, or how resolved
    runners_up: list[Candidate] = field(default_factory=list)
    #: what the user should check (a pinned record that contradicts the notes), for the report
    warnings: list[str] = field(default_factory=list)
    #: True when every source that could have answered was unreachable: the paper was not
    #: looked up at all, which the reports say once ("offline") rather than per paper
    unasked: bool = False
    #: what the pages the notes link gave when the work stayed unresolved ("… describes no
    #: one paper …"): the sync report says it beside a pending work, which has no entry
    page_note: str = ""
