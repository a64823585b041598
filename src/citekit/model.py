"""The small typed values that flow through the pipeline.

notes → :class:`Mention` → sources → :class:`Candidate` → choose → :class:`Work` →
library → :class:`Entry` (one per citation key, what ``refs/`` holds).

These are plain dataclasses: every stage can build and read them without importing any
other stage, which keeps the data flow one-way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, asdict
from typing import Any, Literal

#: Status of a work in the library.
#: ``resolved``: metadata confirmed by an online source.
#: ``notes-only``: built from the notes alone (offline, or not found anywhere); upgraded later.
#: ``ambiguous``: several candidates fit and none clearly wins; the notes' data is kept.
Status = Literal["resolved", "notes-only", "ambiguous"]
STATUSES: tuple[str, ...] = ("resolved", "notes-only", "ambiguous")

#: Where a version of a paper stands, best first (the default precedence for choosing).
Stage = Literal["published", "accepted", "preprint", "submitted", "rejected", "workshop", "notes"]


@dataclass
class Ids:
    """Identifiers of one work, always bare and canonical.

    ``doi`` lower-case without ``https://doi.org/``; ``arxiv`` without version
    (``2605.31324``); ``openreview`` the forum id; ``dblp`` the record key
    (``conf/icml/SiPLPX25``).
    """

    doi: str | None = None
    arxiv: str | None = None
    openreview: str | None = None
    dblp: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"doi": self.doi, "arxiv": self.arxiv, "openreview": self.openreview, "dblp": self.dblp}

    def items(self) -> list[tuple[str, str]]:
        """The known identifiers as ``(scheme, value)`` pairs, in a fixed order."""
        return [(k, v) for k, v in self.as_dict().items() if v]

    def merged(self, other: "Ids") -> "Ids":
        """Fill this set's gaps from ``other`` (this one wins where both know a scheme)."""
        return Ids(
            doi=self.doi or other.doi,
            arxiv=self.arxiv or other.arxiv,
            openreview=self.openreview or other.openreview,
            dblp=self.dblp or other.dblp,
        )

    def shares_any(self, other: "Ids") -> bool:
        """True when both name the same value under some scheme."""
        return any(v and v == getattr(other, k) for k, v in self.as_dict().items())

    def __bool__(self) -> bool:
        return any(self.as_dict().values())

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "Ids":
        data = data or {}
        return cls(**{k: data.get(k) or None for k in ("doi", "arxiv", "openreview", "dblp")})


@dataclass
class Person:
    """One author name, split honestly.

    ``raw`` is exactly what the source wrote (kept for matching and for the sidecar);
    ``family``/``given`` are the split used for BibTeX ``Family, Given``. ``von`` holds
    lower-case particles (``van``, ``de``) that BibTeX treats specially.
    """

    raw: str
    given: str = ""
    family: str = ""
    von: str = ""

    def bibtex(self) -> str:
        """``von Family, Given`` — the form with which BibTeX never guesses."""
        fam = f"{self.von} {self.family}".strip() if self.von else self.family
        if not fam:
            return self.given
        if not self.given:
            return "{" + fam + "}" if " " in fam and not self.von else fam
        return f"{fam}, {self.given}"

    def display(self) -> str:
        return " ".join(p for p in (self.given, self.von, self.family) if p)


@dataclass
class Location:
    """Where in the notes a mention was written (1-based line)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Mention:
    """What the notes say about one paper, before any lookup.

    ``kind`` is ``titled`` (a title line, maybe with labelled details), ``url`` (a bare
    paper URL with no title), or ``abstract`` (a paragraph of abstract text, no title).
    """

    kind: Literal["titled", "url", "abstract"]
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

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["location"] = {"file": self.location.file, "line": self.location.line}
        return d


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


@dataclass
class Entry:
    """One entry of the library: the BibTeX fields plus everything BibTeX cannot hold.

    ``fields`` are the values exactly as written into ``library.bib`` (LaTeX-ready,
    braces protected, UTF-8). ``generated`` remembers what citekit itself last wrote for
    each field, so a later difference in ``library.bib`` is recognised as a hand edit and
    kept forever (``hand`` lists those fields).
    """

    key: str
    entry_type: str
    fields: dict[str, str] = field(default_factory=dict)
    ids: Ids = field(default_factory=Ids)
    status: str = "notes-only"
    summary: str | None = None
    abstract: str | None = None
    tags_auto: list[str] = field(default_factory=list)
    tags_added: list[str] = field(default_factory=list)
    tags_removed: list[str] = field(default_factory=list)
    mentions: list[Location] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)  # {source, id, title, venue, year, stage}
    provenance: dict[str, str] = field(default_factory=dict)  # field -> source
    generated: dict[str, str] = field(default_factory=dict)
    hand: list[str] = field(default_factory=list)
    origin: str = "notes"  # notes | import
    reason: str = ""

    @property
    def tags(self) -> list[str]:
        """Effective tags: rule tags plus manual additions, minus manual removals."""
        removed = set(self.tags_removed)
        return sorted((set(self.tags_auto) | set(self.tags_added)) - removed)

    @property
    def title(self) -> str:
        return self.fields.get("title", "")

    @property
    def year(self) -> int | None:
        y = self.fields.get("year", "")
        return int(y) if y.isdigit() else None
