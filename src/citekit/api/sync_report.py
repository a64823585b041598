"""What a sync found and did: its own module, so that a replayed sync (see
:mod:`citekit.api.sync_stamp`) builds its report without importing the sync stages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SyncReport:
    """What a sync found and did, for the summary table and ``--json``."""

    mentions: int = 0
    works: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {"resolved": 0, "notes-only": 0, "ambiguous": 0})
    created: list[str] = field(default_factory=list)
    upgraded: list[str] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    source_problems: list[str] = field(default_factory=list)
    offline: bool = False
    changed: bool = False
    requests: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)
    #: nothing was read or written: the inputs are those of the last sync, which changed nothing
    up_to_date: bool = False
    #: provisional keys this sync re-formed (a better year or first author): old key -> new key
    renamed: dict[str, str] = field(default_factory=dict)
    #: online: until when every service answer this sync relied on stays within its
    #: revalidation window (cache lifetime, a paper list's check interval); the same
    #: lookups before then give the same answers without a request (None: not known)
    answers_valid_until: float | None = None
    #: no service could be reached: when the works this sync could not look up are asked
    #: again (a plain sync before then folds them from the notes, without a request)
    retry_after: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "mentions": self.mentions,
            "works": self.works,
            "entries_written": len(self.entries),
            "counts": self.counts,
            "created": self.created,
            "upgraded": self.upgraded,
            "pending": self.pending,
            "problems": self.problems,
            "notices": self.notices,
            "source_problems": self.source_problems,
            "offline": self.offline,
            "changed": self.changed,
            "requests": self.requests,
            "works_detail": self.entries,
            "up_to_date": self.up_to_date,
            "renamed": self.renamed,
            "retry_after": self.retry_after,
        }
