"""What the reference parser hands back: fields, people, identifiers and how sure it was."""

from __future__ import annotations

from dataclasses import dataclass, field

from citekit.core.model import Ids, Person

#: The labels the parser gives tokens.
LABELS = ("author", "title", "container", "date", "volume", "pages", "identifier", "url", "note", "other")


@dataclass
class ParsedReference:
    """One reference string read field by field.

    ``confidence`` maps each field that was found to the mean CRF marginal probability of
    its tokens' labels; ``tokens`` and ``labels`` are the labelling itself, for an
    ``--explain`` view.
    """

    text: str
    title: str | None = None
    authors: list[Person] = field(default_factory=list)
    authors_incomplete: bool = False
    container: str | None = None
    year: int | None = None
    date: str | None = None
    volume: str | None = None
    pages: str | None = None
    identifiers: Ids = field(default_factory=Ids)
    url: str | None = None
    note: str | None = None
    confidence: dict[str, float] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    def spans(self) -> list[tuple[str, str]]:
        """The labelling as (label, text) runs, in order: what ``--explain`` would show."""
        out: list[tuple[str, str]] = []
        for tok, lab in zip(self.tokens, self.labels):
            if out and out[-1][0] == lab:
                out[-1] = (lab, out[-1][1] + " " + tok)
            else:
                out.append((lab, tok))
        return out
