"""A ranked text index of the library: BM25 over title, abstract, venue and authors.

Field-weighted BM25 (BM25F): a term's frequency in each field is normalised by that
field's length against its average, weighted (a word of the title counts more than one
of the abstract), summed, and saturated once; rare terms weigh more (idf). Every word and
phrase of a query must occur (AND), then the filters apply, then the score orders.

The index is derived from the entries' terms (remembered per entry) and kept in the
parsed-library cache as an answer about the whole library: postings are packed arrays,
so loading it decodes only the few terms a query asks for. Any change to the library
builds it again from the remembered terms of the unchanged entries.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from citekit.library.search.filters import facts_table, filter_keys, first_author_test
from citekit.library.search.query import Query
from citekit.library.search.terms import entry_facts, entry_terms, query_words, words
from citekit.library.store import kinds

if TYPE_CHECKING:
    from citekit.library.store import Library

#: weight of a term in the title, abstract, venue and author names
WEIGHTS = (3.0, 1.0, 1.5, 2.0)
#: length normalisation per field, and the saturation of the summed frequency
B = (0.75, 0.75, 0.5, 0.3)
K1 = 1.2
#: added to the score of an entry whose first author is the one an ``author:`` filter names
#: (a word in the title of one more field weighs about this much)
FIRST_AUTHOR_BONUS = 1.0
#: a term's frequency per field is packed in one 32-bit word: title, abstract, venue, authors
_SHIFT = (0, 8, 20, 26)
_MASK = (0xFF, 0xFFF, 0x3F, 0x3F)
_NFIELDS = len(WEIGHTS)


@dataclass
class Hit:
    """One entry a search found, with its score (0.0 for a query of filters only)."""

    key: str
    score: float


def terms_table(lib: Library) -> dict[str, list[str]]:
    """key -> the entry's words per field (remembered between commands)."""
    return lib.memo_table(kinds.SEARCH_TERMS, entry_terms)


def build_index(lib: Library) -> dict[str, Any]:
    """The inverted index as plain data: keys, field lengths and averages, and per term
    its postings (document number, packed frequencies) as bytes of an ``array('I')``."""
    table = terms_table(lib)
    keys = list(table)
    lengths: list[int] = []
    postings: dict[str, list[int]] = {}
    totals = [0] * _NFIELDS
    fields = list(zip(range(_NFIELDS), _SHIFT, _MASK))
    for doc, key in enumerate(keys):
        counts: dict[str, int] = {}
        get = counts.get
        for (f, shift, mask), text in zip(fields, table[key]):
            tokens = text.split()
            lengths.append(len(tokens))
            totals[f] += len(tokens)
            for term, n in Counter(tokens).items():
                counts[term] = get(term, 0) | ((n if n <= mask else mask) << shift)
        for term, packed in counts.items():
            post = postings.get(term)
            if post is None:
                postings[term] = [doc, packed]
            else:
                post += (doc, packed)
    n = max(len(keys), 1)
    return {"keys": keys, "lengths": array("I", lengths).tobytes(), "avg": [max(t / n, 1.0) for t in totals],
            "postings": {t: array("I", p).tobytes() for t, p in postings.items()}}


#: an index stored before later writes is patched (the changed entries scored apart) while
#: they are fewer than this share of the library, or this many; then it is built again
PATCH_SHARE = 20
PATCH_MIN = 256


def library_index(lib: Library) -> dict[str, Any]:
    """The index of ``lib``, kept in the cache; after a write it is patched, not rebuilt."""
    return lib.remembered_apart(kinds.SEARCH_INDEX, lambda: build_index(lib),
                                lambda index, changed: patch_index(lib, index, changed))


def patch_index(lib: Library, index: dict[str, Any], changed: set[str]) -> dict[str, Any] | None:
    """``index`` brought up to date after writes that changed the entries ``changed``
    (added, edited or removed): their postings are void (``gone``) and their words kept
    beside it (``delta``), scored with the index's statistics. None when too much changed."""
    gone = set(index.get("gone", ())) | changed
    if len(gone) > max(PATCH_MIN, len(index["keys"]) // PATCH_SHARE):
        return None
    delta = {}
    for key in sorted(gone):
        entry = lib.entry_at(key)
        if entry is not None:
            delta[key] = entry_terms(entry)
    return {**index, "gone": sorted(gone), "delta": delta}


class _NotStored(Exception):
    """The index is not in the cache (nor can a stored one be patched)."""


def stored_index(lib: Library) -> dict[str, Any] | None:
    """The index kept in the cache (patched after writes), or None: nothing is built here."""
    def missing() -> dict[str, Any]:
        raise _NotStored

    try:
        return lib.remembered_apart(kinds.SEARCH_INDEX, missing, lambda index, changed: patch_index(lib, index, changed))
    except _NotStored:
        return None


def search(lib: Library, query: Query, *, limit: int | None = None,
           on_cold: Callable[[], None] | None = None) -> tuple[list[Hit], int]:
    """The entries matching ``query``, best first, and how many there are in all
    (``limit`` cuts the list, not the count). A query of filters only lists the newest first.

    Words are ranked on the stored index; without one (the first search after an import or a
    sync) they are ranked by one pass over the entries (:mod:`.scan`), with the same scores,
    and ``on_cold`` is called: the caller may build the index for the next search."""
    if not query.has_text():
        keys = filter_keys(lib, query.filters)
        facts = facts_table(lib)
        first = first_author_test(query.filters.authors) if query.filters.authors else (lambda _f: False)
        # the person's own papers (first author) first, then newest first, then by key
        order = lambda k: (not first(facts[k]), -(facts[k][2] or 0), k.lower())  # noqa: E731
        top = heapq.nsmallest(limit, keys, key=order) if limit else sorted(keys, key=order)
        return [Hit(k, 0.0) for k in top], len(keys)
    index = stored_index(lib)
    wanted = [*query_words(" ".join(query.words))]
    phrases = [words(p, latex=False) for p in query.phrases]
    wanted += [w for p in phrases for w in p]
    terms = list(dict.fromkeys(wanted))
    if index is None:
        if on_cold is not None:
            on_cold()
        scores = cold_scores(lib, terms)
    else:
        scores = _scores(index, terms)
    if not scores:
        return [], 0
    if phrases:
        fields_of = _fields_reader(lib, index, scores)
        scores = {k: s for k, s in scores.items() if all(_has_phrase(fields_of(k), p) for p in phrases if p)}
    if query.filters:
        few = index is None and query.filters.needs_facts()
        facts = {k: entry_facts(lib.entry_at(k)) for k in scores} if few else None  # type: ignore[arg-type]
        allowed = set(filter_keys(lib, query.filters, scores, facts=facts))
        scores = {k: s for k, s in scores.items() if k in allowed}
        if query.filters.authors:  # the person's own papers above those they co-wrote, other things equal
            first = first_author_test(query.filters.authors)
            known = facts if facts is not None else facts_table(lib)
            scores = {k: s + (FIRST_AUTHOR_BONUS if first(known[k]) else 0.0) for k, s in scores.items()}
    order = lambda ks: (-ks[1], ks[0].lower())  # noqa: E731 - best first, ties by key
    top = heapq.nsmallest(limit, scores.items(), key=order) if limit else sorted(scores.items(), key=order)
    return [Hit(k, round(s, 4)) for k, s in top], len(scores)


def cold_scores(lib: Library, terms: list[str]) -> dict[str, float]:
    """:func:`_scores` without the index, from one pass over the entries (:mod:`.scan`): the
    same statistics, counts and sums in the same order, so the same floats."""
    if not terms:
        return {}
    from citekit.library.search.scan import field_lengths, scan_entries, term_counts

    keys = lib.keys()
    scan = scan_entries(keys, (lib.entry_at(k) for k in keys))  # type: ignore[misc]
    n = len(keys)
    avg = [max(t / max(n, 1), 1.0) for t in scan.totals()]
    norms = [(WEIGHTS[f], 1 - B[f], B[f] / avg[f], _MASK[f]) for f in range(_NFIELDS)]
    lists = [(term, term_counts(scan, term)) for term in terms]
    idf = {term: math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5)) for term, docs in lists}
    if not all(docs for _term, docs in lists):
        return {}
    lists.sort(key=lambda td: len(td[1]))  # as the index: the rarest term first
    scores: dict[int, float] | None = None
    lengths: dict[int, list[int]] = {}
    for term, docs in lists:
        weight = idf[term]
        step: dict[int, float] = {}
        for doc, counts in docs.items():
            if scores is not None and doc not in scores:
                continue
            own = lengths.get(doc)
            if own is None:
                own = lengths[doc] = field_lengths(scan, doc)
            tf = 0.0
            for f, (w, one_b, b_avg, mask) in enumerate(norms):
                count = counts[f] if counts[f] <= mask else mask
                if count:
                    tf += w * count / (one_b + b_avg * own[f])
            step[doc] = (0.0 if scores is None else scores[doc]) + weight * tf / (K1 + tf)
        scores = step
        if not scores:
            break
    return {keys[d]: s for d, s in (scores or {}).items()}


def _scores(index: dict[str, Any], terms: list[str]) -> dict[str, float]:
    """key -> BM25F score over ``terms`` of the entries holding every term (AND)."""
    if not terms:
        return {}
    keys = index["keys"]
    n = len(keys)
    gone = set(index.get("gone", ()))
    lengths = array("I")
    lengths.frombytes(index["lengths"])
    avg = index["avg"]
    norms = [(WEIGHTS[f], 1 - B[f], B[f] / avg[f], _SHIFT[f], _MASK[f]) for f in range(_NFIELDS)]
    lists = []
    for term in terms:
        post = array("I")
        post.frombytes(index["postings"].get(term, b""))
        lists.append((term, post))
    idf = {term: math.log(1 + (n - len(post) // 2 + 0.5) / (len(post) // 2 + 0.5)) for term, post in lists}
    out: dict[str, float] = {}
    if all(post for _term, post in lists):
        lists.sort(key=lambda tp: len(tp[1]))  # the rarest term first: the fewest documents to carry
        scores: dict[int, float] | None = None
        for term, post in lists:
            weight = idf[term]
            step: dict[int, float] = {}
            for i in range(0, len(post), 2):
                doc = post[i]
                if scores is not None and doc not in scores:
                    continue
                packed = post[i + 1]
                tf = 0.0
                base = _NFIELDS * doc
                for f, (w, one_b, b_avg, shift, mask) in enumerate(norms):
                    count = (packed >> shift) & mask
                    if count:
                        tf += w * count / (one_b + b_avg * lengths[base + f])
                step[doc] = (0.0 if scores is None else scores[doc]) + weight * tf / (K1 + tf)
            scores = step
            if not scores:
                break
        out = {keys[d]: s for d, s in (scores or {}).items() if not gone or keys[d] not in gone}
    for key, fields in (index.get("delta") or {}).items():  # entries changed since the index was built
        tokens = [text.split() for text in fields]
        score = 0.0
        for term in terms:
            tf = 0.0
            for f, (w, one_b, b_avg, _shift, _mask) in enumerate(norms):
                count = tokens[f].count(term)
                if count:
                    tf += w * count / (one_b + b_avg * len(tokens[f]))
            if not tf:
                break
            score += idf[term] * tf / (K1 + tf)
        else:
            out[key] = score
    return out


#: a phrase among at most this many entries is checked on their own words, not on the
#: remembered words of the whole library (tens of megabytes with abstracts)
FEW_FOR_PHRASE = 256


def _fields_reader(lib: Library, index: dict[str, Any] | None, keys: dict[str, float]):  # type: ignore[no-untyped-def]
    """key -> the entry's words per field, for the phrase check of ``keys`` (without an
    index, the remembered words may not exist yet: each entry's own are cut)."""
    delta = (index or {}).get("delta") or {}
    if index is None or len(keys) <= FEW_FOR_PHRASE:
        def own(key: str) -> list[str]:
            entry = lib.entry_at(key)
            return delta.get(key) or (entry_terms(entry) if entry is not None else [])
        return own
    table = terms_table(lib)
    return lambda key: delta.get(key) or table.get(key, [])


def _has_phrase(fields: list[str], phrase: list[str]) -> bool:
    """Whether the words of ``phrase`` stand together, in order, in one field."""
    needle = f" {' '.join(phrase)} "
    return any(needle in f" {text} " for text in fields)
