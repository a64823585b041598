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
from typing import TYPE_CHECKING, Any

from citekit.library.search.filters import facts_table, filter_keys
from citekit.library.search.query import Query
from citekit.library.search.terms import entry_terms, query_words, words
from citekit.library.store import kinds

if TYPE_CHECKING:
    from citekit.library.store import Library

#: weight of a term in the title, abstract, venue and author names
WEIGHTS = (3.0, 1.0, 1.5, 2.0)
#: length normalisation per field, and the saturation of the summed frequency
B = (0.75, 0.75, 0.5, 0.3)
K1 = 1.2
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
    lengths = array("I")
    postings: dict[str, array] = {}
    totals = [0] * _NFIELDS
    for doc, key in enumerate(keys):
        counts: dict[str, int] = {}
        for f, text in enumerate(table[key]):
            tokens = text.split()
            lengths.append(len(tokens))
            totals[f] += len(tokens)
            shift, mask = _SHIFT[f], _MASK[f]
            for term, n in Counter(tokens).items():
                counts[term] = counts.get(term, 0) | (min(n, mask) << shift)
        for term, packed in counts.items():
            post = postings.get(term)
            if post is None:
                post = postings[term] = array("I")
            post.append(doc)
            post.append(packed)
    n = max(len(keys), 1)
    return {"keys": keys, "lengths": lengths.tobytes(), "avg": [max(t / n, 1.0) for t in totals],
            "postings": {t: p.tobytes() for t, p in postings.items()}}


def library_index(lib: Library) -> dict[str, Any]:
    """The index of ``lib``, kept in the cache until any entry changes."""
    return lib.remembered_apart(kinds.SEARCH_INDEX, lambda: build_index(lib))


def search(lib: Library, query: Query, *, limit: int | None = None) -> tuple[list[Hit], int]:
    """The entries matching ``query``, best first, and how many there are in all
    (``limit`` cuts the list, not the count). A query of filters only lists the newest first."""
    if not query.has_text():
        keys = filter_keys(lib, query.filters)
        facts = facts_table(lib)
        order = lambda k: (-(facts[k][2] or 0), k.lower())  # noqa: E731 - newest first, then by key
        top = heapq.nsmallest(limit, keys, key=order) if limit else sorted(keys, key=order)
        return [Hit(k, 0.0) for k in top], len(keys)
    index = library_index(lib)
    wanted = [*query_words(" ".join(query.words))]
    phrases = [words(p, latex=False) for p in query.phrases]
    wanted += [w for p in phrases for w in p]
    scores = _scores(index, list(dict.fromkeys(wanted)))
    if scores is None:
        return [], 0
    keys = index["keys"]
    if phrases:
        table = terms_table(lib)
        scores = {d: s for d, s in scores.items() if all(_has_phrase(table[keys[d]], p) for p in phrases if p)}
    if query.filters:
        allowed = set(filter_keys(lib, query.filters, (keys[d] for d in scores)))
        scores = {d: s for d, s in scores.items() if keys[d] in allowed}
    order = lambda ds: (-ds[1], keys[ds[0]].lower())  # noqa: E731 - best first, ties by key
    top = heapq.nsmallest(limit, scores.items(), key=order) if limit else sorted(scores.items(), key=order)
    return [Hit(keys[d], round(s, 4)) for d, s in top], len(scores)


def _scores(index: dict[str, Any], terms: list[str]) -> dict[int, float] | None:
    """doc -> BM25F score over ``terms``; None when some term occurs nowhere (AND)."""
    if not terms:
        return None
    n = len(index["keys"])
    lengths = array("I")
    lengths.frombytes(index["lengths"])
    avg = index["avg"]
    lists = []
    for term in terms:
        raw = index["postings"].get(term)
        if raw is None:
            return None
        post = array("I")
        post.frombytes(raw)
        lists.append(post)
    lists.sort(key=len)  # the rarest term first: the fewest documents to carry
    scores: dict[int, float] | None = None
    norms = [(WEIGHTS[f], 1 - B[f], B[f] / avg[f], _SHIFT[f], _MASK[f]) for f in range(_NFIELDS)]
    for post in lists:
        df = len(post) // 2
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        out: dict[int, float] = {}
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
            out[doc] = (0.0 if scores is None else scores[doc]) + idf * tf / (K1 + tf)
        scores = out
        if not scores:
            return None
    return scores


def _has_phrase(fields: list[str], phrase: list[str]) -> bool:
    """Whether the words of ``phrase`` stand together, in order, in one field."""
    needle = f" {' '.join(phrase)} "
    return any(needle in f" {text} " for text in fields)
