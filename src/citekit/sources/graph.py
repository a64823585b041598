"""The citation graph as the graph services report it: papers and who cites whom.

``citekit suggest`` and ``citekit graph`` need, for each paper of the library, the papers it
cites and the papers that cite it, and a few facts about each neighbour (title, year, venue,
identifiers, how often it is cited overall, what kind of document it is). Semantic Scholar
and OpenAlex both answer that, in different shapes; each graph source turns its shape into
:class:`GraphPaper` values, so the ranking never sees a wire format.

A reference list is ``None`` when the service does not know it (OpenAlex lists no
references at all for some well-known papers): "unknown" is not "cites nothing", and the
ranking must not count it as such.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

#: document kinds that are not papers one cites in related work (S2's publicationTypes,
#: OpenAlex's ``type``), folded to lower case
NOT_PAPERS = frozenset({"dataset", "news", "editorial", "letterstocomments", "lettersandcomments", "erratum",
                        "paratext", "retraction", "peer-review", "grant", "standard", "supplementary-materials",
                        "other"})


@dataclass
class GraphPaper:
    """One paper of the citation graph, as one service knows it."""

    #: the service's own id (S2 ``paperId``, OpenAlex ``W…``)
    id: str
    source: str
    title: str = ""
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv: str | None = None
    #: how often the whole literature cites it (the service's count, not the library's)
    cited_by: int | None = None
    #: the kinds the service gives it (``JournalArticle``, ``Dataset``, ``article`` ...)
    kinds: list[str] = field(default_factory=list)
    #: author names as the service writes them (only where asked for: a title match checks them)
    authors: list[str] = field(default_factory=list)
    #: ids of the papers it cites; None: the service does not know
    references: list[str] | None = None
    #: ids of the papers citing it (as far as the service lists them); None: not asked
    citations: list[str] | None = None

    @property
    def is_paper(self) -> bool:
        """False for a dataset, an editorial, news, an erratum, or a record without a title."""
        if not self.title.strip():
            return False
        kinds = {k.lower() for k in self.kinds if k}
        return not kinds or not kinds <= NOT_PAPERS

    def ids(self) -> dict[str, str]:
        """Its identifiers for display and for adding: ``doi``, ``arxiv`` and the service's own."""
        out = {self.source: self.id}
        if self.doi:
            out["doi"] = self.doi
        if self.arxiv:
            out["arxiv"] = self.arxiv
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GraphPaper":
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__ if k in data})


class GraphSource(Protocol):
    """One citation-graph service behind ``suggest``."""

    name: str

    def seeds(self, ids: dict[str, tuple[str, str]]) -> dict[str, GraphPaper | None]:
        """Each library paper (by key, given as ``(scheme, value)`` with scheme doi/arxiv)
        with its references and citations; None for a paper the service does not know."""
        ...

    def papers(self, ids: list[str]) -> dict[str, GraphPaper | None]:
        """The records of the service's own ids (titles, years, counts), batched."""
        ...

    def recommend(self, positive: list[str], negative: list[str], limit: int) -> list[GraphPaper]:
        """Papers the service itself recommends for these seeds ([] when it has no such call)."""
        ...
