"""Which entries a set of filters allows: the one filter code of ``search`` and ``list``.

Status and tags come from the library's facets; authors, years, venues and keys from
each entry's search facts (:func:`.terms.entry_facts`), remembered in the parsed-library
cache, so filtering a large library decodes no entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Tuple

from citekit.core.text import fold
from citekit.library.search.query import Filters
from citekit.library.search.terms import entry_facts, words
from citekit.library.store import kinds

if TYPE_CHECKING:
    from citekit.library.store import Library

#: an entry's search facts (:func:`.terms.entry_facts`): keys, authors, year, venue words
Facts = Tuple[str, str, Any, str]


def facts_table(lib: Library) -> dict[str, Any]:
    """key -> search facts of every entry (remembered between commands)."""
    return lib.memo_table(kinds.SEARCH_FACTS, entry_facts)


def filter_keys(lib: Library, filters: Filters, keys: Iterable[str] | None = None, *,
                facts: dict[str, Any] | None = None) -> list[str]:
    """The keys (of ``keys``, default every key in key order) whose entries pass every filter
    (``facts``: those of ``keys`` when the caller has them, else every entry's are read)."""
    chosen = list(lib.sorted_keys() if keys is None else keys)
    if not filters:
        return chosen
    if filters.tags or filters.statuses:
        facets = lib.facets()
        if filters.tags:
            from citekit.library.tags import select

            chosen = select(chosen, filters.tags, any_=filters.any_tag, tags_of=lambda k: facets[k][1])
        for status in filters.statuses:
            chosen = [k for k in chosen if facets[k][0] == status]
    if filters.needs_facts():
        facts = facts_table(lib) if facts is None else facts
        tests = [*(_author_test(a) for a in filters.authors), *(_year_test(y) for y in filters.years),
                 *(_venue_test(v) for v in filters.venues), *(_key_test(k) for k in filters.keys)]
        for test in tests:  # one test at a time: each pass is shorter than the last
            chosen = [k for k in chosen if test(facts[k])]
    return chosen


def _author_test(value: str):  # type: ignore[no-untyped-def]
    """Every word of ``value`` is a word of one and the same author's name."""
    wanted = [f" {w} " for w in words(value, latex=False)]

    def test(facts: Facts) -> bool:
        names = facts[1]
        if not wanted or not all(w in names for w in wanted):  # the quick test, in C
            return False
        return len(wanted) == 1 or any(all(w in f" {name} " for w in wanted) for name in names.split("|"))

    return test


def _year_test(span: tuple[int | None, int | None]):  # type: ignore[no-untyped-def]
    lo, hi = span

    def test(facts: Facts) -> bool:
        year = facts[2]
        return year is not None and (lo is None or year >= lo) and (hi is None or year <= hi)

    return test


def _venue_test(value: str):  # type: ignore[no-untyped-def]
    """Every word of ``value`` is in the venue (its short name counts: ``icml``)."""
    wanted = [f" {w} " for w in words(value, latex=False)]

    def test(facts: Facts) -> bool:
        return bool(wanted) and all(w in facts[3] for w in wanted)

    return test


def _key_test(value: str):  # type: ignore[no-untyped-def]
    """The key, or one of its old keys, contains ``value`` (case does not matter)."""
    wanted = fold(value).strip()

    def test(facts: Facts) -> bool:
        return bool(wanted) and wanted in facts[0]

    return test


def first_author_test(values: list[str]):  # type: ignore[no-untyped-def]
    """Whether the first author of an entry (its facts) is the person every one of
    ``values`` (``author:`` filters) names: a paper the person wrote first ranks above one
    they co-wrote."""
    wanted = [[f" {w} " for w in words(v, latex=False)] for v in values]

    def test(facts: Facts) -> bool:
        names = facts[1]
        if not names:
            return False
        first = f" {names[1:].split('|', 1)[0].strip()} "
        return any(w and all(x in first for x in w) for w in wanted)

    return test
