"""``citekit search``: the library's entries matching a query, best first.

The query language and the ranking live in :mod:`citekit.library.search`; this reads the
library through the parsed-library cache (no entry is parsed or even decoded when the
cache is warm), and hands back rows in the shape of ``list --json`` with a score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.api.library import entry_json, list_line_of, load_library
from citekit.library.store import kinds


@dataclass
class SearchResult:
    """What a search found: the query, how many entries match in all, and the rows shown."""

    query: str
    total: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: pending works (mentions not resolved yet) that match, best first: no entry, no key
    pending: list[dict[str, Any]] = field(default_factory=list)
    #: the query asked for pending works (``status:pending``): they are then what it finds
    wants_pending: bool = False

    @property
    def found(self) -> bool:
        """Whether the search found what it was asked for, as ``grep`` means it (exit 0, else 1):
        an entry of the library, or, for ``status:pending``, a pending work. A pending work a
        search of the library meets on the way is listed and said, but is no entry to cite."""
        return bool(self.total or (self.wants_pending and self.pending))

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of ``citekit search --json``: ``results`` are ``list --json``
        rows, best first, each with its ``score`` (0 for a query of filters only); ``pending``
        the matching works not resolved yet (``status: pending``, where the notes name them);
        ``found``: what the exit status says."""
        return {"query": self.query, "total": self.total, "shown": len(self.rows), "results": self.rows,
                "pending": self.pending, "found": self.found}

    def pending_lines(self) -> list[str]:
        """One line per pending work: marked, its title (or what identifies it), where noted."""
        out = []
        for item in self.pending:
            what = item.get("title") or ", ".join(item.get("hints") or []) or ", ".join(item.get("urls") or []) \
                or item.get("text") or ""
            out.append(f"{'(pending)':32} {what}  [{', '.join(item.get('where') or [])}]")
        return out


def search_library(query: str, start: str | Path | None = None, *, limit: int | None = 20) -> SearchResult:
    """Entries matching ``query`` (words, ``"phrases"``, ``author:``, ``year:``, ``tag:``,
    ``status:``, ``venue:``, ``key:``; all must hold), ranked by BM25; ``limit`` None: all.
    Pending works of the notes that match are found too, listed apart (``pending``).

    A filter value that cannot be read is :class:`citekit.library.search.QueryError` (exit 2).
    """
    from citekit.library.search import parse_query, search as ranked, search_pending as ranked_pending

    parsed = parse_query(query)
    lib = load_library(start)
    cold: list[bool] = []
    hits, total = ranked(lib, parsed, limit=limit, on_cold=lambda: cold.append(True))
    rows, lines = [], []
    line_of = list_line_of(lib)
    for hit in hits:
        entry = lib.entry_at(hit.key)
        if entry is None:
            continue
        rows.append({**lib.memo(kinds.ENTRY_JSON, entry, entry_json), "score": hit.score})
        lines.append(lib.memo(kinds.LIST_LINE, entry, line_of))
    found = ranked_pending(list(lib.pending or []), parsed)
    pending = [{**item, "status": "pending", "score": round(score, 4)} for item, score in found[:limit or None]]
    lib.keep_memos()
    if cold:  # answered without the index: build it for the next search
        from citekit.api.search_index import build_index_later

        build_index_later(lib.refs_dir)
    return SearchResult(query, total, rows, lines, pending, wants_pending="pending" in parsed.filters.statuses)
