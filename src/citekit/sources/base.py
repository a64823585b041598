"""The interface every metadata source implements.

A source owns its wire format and nothing else: it turns identifiers and mentions into
:class:`~citekit.core.model.Candidate` records. Scoring, choosing and merging happen elsewhere
and know nothing about HTTP.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from citekit.core.resolution import Candidate, Mention


class SourceError(Exception):
    """A source could not answer (network down, server error after retries, bad payload).

    Resolution treats it as "this source is unavailable for now": the work keeps what it
    has and is retried on the next sync. Never cached as an answer.
    """

    def __init__(self, source: str, message: str, *, needs_credentials: bool = False) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source
        self.message = message
        self.needs_credentials = needs_credentials


class SourceUnavailable(SourceError):
    """The whole service is unreachable: skip it for the rest of this sync.

    ``deadline`` marks the run's overall network budget running out, which is one
    problem for the whole sync, not one per service. ``cause`` is the short why ("connection
    refused", "no network ..."), what a report line per service shows instead of ``message``.
    """

    def __init__(self, source: str, message: str, *, needs_credentials: bool = False, deadline: bool = False,
                 cause: str = "") -> None:
        super().__init__(source, message, needs_credentials=needs_credentials)
        self.deadline = deadline
        self.cause = cause


@runtime_checkable
class Source(Protocol):
    """One metadata service (OpenReview, Crossref, dblp, arXiv)."""

    #: short lower-case name, also the provenance label: ``openreview``, ``crossref``, ...
    name: str

    def lookup(self, scheme: str, value: str) -> Candidate | None:
        """The record for one identifier (``scheme`` in doi/arxiv/openreview/dblp).

        Returns None when the service does not know the identifier or does not handle
        that scheme; raises :class:`SourceError` when it could not answer.
        """
        ...

    def search(self, mention: Mention) -> list[Candidate]:
        """Candidate records for a mention (by title, authors, venue or abstract text).

        Returns what the service answered, unscored and unfiltered; raises
        :class:`SourceError` when it could not answer.
        """
        ...
