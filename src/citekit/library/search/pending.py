"""Pending works (mentions not resolved yet) found by a search, marked as pending.

A pending work has no entry: only what the notes say (a title without authors, an
abstract, a link, the method names an abstract introduces). A search finds it by those
words, ranked among the pending works alone (their text is too short to score against
the entries' BM25), and lists it after the entries. Filters a pending work cannot meet
(a year, a venue, a tag, a key, a status other than ``pending``) leave it out.
"""

from __future__ import annotations

from typing import Any

from citekit.library.search.query import Query
from citekit.library.search.terms import query_words, words

#: weight of a word in a pending work's title, against its other text
TITLE_WEIGHT = 3.0


def _allowed(query: Query) -> bool:
    f = query.filters
    if f.statuses and "pending" not in f.statuses:
        return False
    return not (f.years or f.venues or f.keys or f.tags)


def _text_words(item: dict[str, Any]) -> tuple[list[str], list[str]]:
    title = words(item.get("title") or "")
    rest = " ".join([str(item.get("text") or ""), " ".join(item.get("hints") or []),
                     " ".join(str(u) for u in item.get("urls") or [])])
    return title, words(rest, latex=False)


def _has_author(item: dict[str, Any], value: str) -> bool:
    wanted = words(value, latex=False)
    return any(all(w in words(str(name), latex=False) for w in wanted) for name in item.get("authors") or [])


def search_pending(pending: list[dict[str, Any]], query: Query) -> list[tuple[dict[str, Any], float]]:
    """The pending works matching ``query`` (every word and phrase, and the filters they can
    meet), best first, each with its score (0 for a query of filters only)."""
    if not pending or not _allowed(query):
        return []
    wanted = list(dict.fromkeys(query_words(" ".join(query.words)))) if query.words else []
    phrases = [words(p, latex=False) for p in query.phrases]
    found = []
    for item in pending:
        if any(not _has_author(item, a) for a in query.filters.authors):
            continue
        title, rest = _text_words(item)
        every = title + rest
        if any(w not in every for w in wanted + [w for p in phrases for w in p]):
            continue
        if any(p and f" {' '.join(p)} " not in f" {' '.join(title)} " and f" {' '.join(p)} " not in f" {' '.join(rest)} "
               for p in phrases):
            continue
        score = sum(TITLE_WEIGHT * title.count(w) + rest.count(w) for w in wanted)
        found.append((item, float(score)))
    found.sort(key=lambda pair: (-pair[1], (pair[0].get("where") or [""])[0]))
    return found
