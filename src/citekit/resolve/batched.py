"""Searches of many works sent as one request, and each answer's entries given back to the
works they fit.

arXiv wants three seconds between requests, and its API takes one ``search_query`` of
clauses joined by ``OR``: the works that reach their arXiv search wait for one another
and are asked about together. The answer mixes the entries of every clause, so each
entry goes only to the works it fits under the matching rules that judge every other
search answer (:func:`citekit.matching.candidates.scored`): an entry reaches a work when
it agrees with that work's notes, or, as the "closest" record its reason line may quote,
when no other work of the batch fits it better. An entry that agrees with no work is
never the answer of any, exactly as when it came from a search of its own.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any, Callable, Protocol, Sequence

from citekit.core.resolution import Candidate, Mention
from citekit.matching.candidates import scored
from citekit.sources.base import SourceError

#: what a work is handed back: its entries, or the source's failure raised when called
Answer = Callable[[], list[Candidate]]


class BatchSearching(Protocol):
    """A source that answers many mentions' searches in few requests."""

    name: str

    def search_many(self, mentions: Sequence[Mention],
                    authors: Sequence[Sequence[str]] = ()) -> list[list[Candidate]]: ...


def batched_answers(source: BatchSearching, mentions: Sequence[Mention],
                    authors: Sequence[Sequence[str]] = ()) -> list[Answer]:
    """One answer per mention, from ``source.search_many`` (one request per batch).

    ``authors`` are the by-author queries an earlier title may need next (family names):
    they ride in the same requests, and the source stores their answers for later.
    A failure of the batch fails each mention's answer with the same error, so every work
    reports it the way a failed search of its own would (once per run, by the pipeline).
    """
    try:
        lists = source.search_many(mentions, authors) if authors else source.search_many(mentions)
    except SourceError as err:
        failure = err

        def failed() -> list[Candidate]:
            raise failure
        return [failed for _ in mentions]
    kept = fitting(mentions, lists)
    return [(lambda entries=entries: entries) for entries in kept]


def fitting(mentions: Sequence[Mention], lists: Sequence[Sequence[Candidate]]) -> list[list[Candidate]]:
    """For each mention, the entries of its list that fit it.

    An entry stays with a mention when it agrees with the mention's notes, or when it does
    not but this mention is, of all the mentions whose lists hold it, the one it scores
    best against (it is then only a "closest" record: it can never be chosen).
    """
    best: dict[tuple[str, str], tuple[float, int]] = {}
    scores: list[list[tuple[Candidate, bool, float]]] = []
    for i, (mention, entries) in enumerate(zip(mentions, lists)):
        row = []
        for entry in entries:
            _, result = scored(mention, entry)
            row.append((entry, result.agrees, result.total))
            key = (entry.source, entry.id)
            if key not in best or result.total > best[key][0]:
                best[key] = (result.total, i)
        scores.append(row)
    out: list[list[Candidate]] = []
    for i, row in enumerate(scores):
        out.append([entry for entry, agrees, _ in row if agrees or best[(entry.source, entry.id)][1] == i])
    return out


class SharedBatch:
    """One batched search shared by the works of a run, sent while they go on.

    Each work says once whether it takes part (:meth:`join`, with its query, or
    :meth:`skip`); when the last one has, the batch goes out on ``submit`` (a thread of its
    own), while every work carries on with the sources before the batched one. A work that
    reaches the batched source takes its :meth:`answer` then: waiting for the batch when it
    is under way, or stopping (None) when others have not said yet.
    """

    def __init__(self, source: BatchSearching, expected: int,
                 submit: Callable[[Callable[[], dict[int, Answer]]], "Future[dict[int, Answer]]"]) -> None:
        self.source = source
        self._left = expected
        self._submit = submit
        self._lock = threading.Lock()
        self._keys: list[int] = []
        self._mentions: list[Mention] = []
        self._authors: list[Sequence[str]] = []
        self.future: Future[dict[int, Answer]] | None = None
        if expected <= 0:
            self._send_now()

    def join(self, key: int, mention: Mention, authors: Sequence[Sequence[str]] = ()) -> None:
        """Work ``key`` takes part with ``mention``'s query and these by-author queries."""
        with self._lock:
            self._keys.append(key)
            self._mentions.append(mention)
            self._authors += [a for a in authors if a not in self._authors]
        self.skip()

    def skip(self) -> None:
        """A work has said (joined, or will not take part)."""
        with self._lock:
            self._left -= 1
            last = self._left == 0
        if last:
            self._send_now()

    def _send_now(self) -> None:
        keys, mentions, authors = list(self._keys), list(self._mentions), list(self._authors)

        def send() -> dict[int, Any]:
            if not mentions:
                return {}
            return dict(zip(keys, batched_answers(self.source, mentions, authors)))
        self.future = self._submit(send)

    def answer(self, key: int) -> Answer | None:
        """Work ``key``'s answer (waits for the batch when called); None until the batch is out."""
        future = self.future
        if future is None:
            return None
        return lambda: future.result()[key]()
