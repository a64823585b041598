"""The small typed values that flow through the pipeline.

notes → :class:`Mention` → sources → :class:`Candidate` → choose → :class:`Work` →
library → :class:`Entry` (one per citation key, what ``refs/`` holds).

These are plain dataclasses: every stage can build and read them without importing any
other stage, which keeps the data flow one-way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
    lower-case particles (``van``, ``de``) that BibTeX treats specially; ``jr`` the suffix
    (``Jr.``, ``III``, ``père``), which BibTeX reads only from ``von Family, Jr, Given``.
    """

    raw: str
    given: str = ""
    family: str = ""
    von: str = ""
    jr: str = ""

    def bibtex(self) -> str:
        """``von Family, Given`` — the form with which BibTeX never guesses."""
        fam = f"{self.von} {self.family}".strip() if self.von else self.family
        if not fam:
            return self.given
        if self.jr:
            return f"{fam}, {self.jr}, {self.given}"
        if not self.given:
            return "{" + fam + "}" if " " in fam and not self.von else fam
        return f"{fam}, {self.given}"

    def display(self) -> str:
        name = " ".join(p for p in (self.given, self.von, self.family) if p)
        return f"{name}, {self.jr}" if self.jr and name else name


@dataclass
class Location:
    """Where in the notes a mention was written (1-based line)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


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
    #: the key was made by citekit and has not left the library yet (exported, cited in a
    #: checked paper, written into related work): a later sync may still re-form it from a
    #: better year or first author (:mod:`citekit.library.keys`). False for imported and
    #: hand-written keys, and for records of older sidecars (frozen is the safe reading).
    key_provisional: bool = False
    #: what the entry's record looked like when it was last imported from a .bib file, so a
    #: re-import can tell "the file changed" from "the user changed it in citekit":
    #: ``{"file": its path (project- or home-relative), "key": its key there,
    #: "fields": {field or "@type": hash}, "tags": [the tags its keywords gave]}``
    import_record: dict[str, Any] = field(default_factory=dict)
    #: library.yaml parts the user edits (``summary``) that a git merge found changed
    #: differently on both branches: part -> the merged branch's value (ours stays in the
    #: part), until ``citekit resolve-conflict`` settles it
    conflicts: dict[str, str] = field(default_factory=dict)

    @property
    def tags(self) -> list[str]:
        """Effective tags: rule tags plus manual additions, minus manual removals."""
        removed = set(self.tags_removed)
        return sorted((set(self.tags_auto) | set(self.tags_added)) - removed)

    @property
    def keyword_tags(self) -> list[str]:
        """The tags written into ``keywords`` (``library.bib``, exports, a paper's refs.bib).

        An imported entry's ``keywords`` is the user's own field: it holds the keywords it was
        imported with and the tags added by hand, never what citekit's rules guessed from one
        word of a title ("theory" on "The Theory of Parsing"), which would land in the paper's
        refs.bib. Rule tags of imported entries stay in ``library.yaml`` (``list --tag``,
        ``related-work`` select by them). An entry citekit made from the notes carries all.
        """
        if self.origin != "import":
            return self.tags
        return sorted(set(self.tags_added) - set(self.tags_removed))

    @property
    def title(self) -> str:
        return self.fields.get("title", "")

    @property
    def year(self) -> int | None:
        y = self.fields.get("year", "")
        return int(y) if y.isdigit() else None
