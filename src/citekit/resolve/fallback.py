"""Lookups in place of a conference list that was skipped, within a budget per service.

A venue-year's paper list answers every mention of that venue-year with no request at all.
When its site fails (no DNS, refused, timeout, 5xx), those mentions would each be searched
in the other services instead: sixty ICML lines, sixty OpenReview searches at twenty a
minute for guests, three minutes for one dead site. One failure, one scope: of the works
that only the skipped list could have answered, the first :data:`FALLBACK_WORKS` are looked
up in the other services as usual (so each service is asked about that many at most, and
never past a per-minute limit the run has already reached), and the rest are left
pending, counted in the list's one sentence. The failure is remembered for a few minutes (``conferences.FAILED_TTL``); the
next sync after that looks them up in the list itself.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Callable, Mapping

#: works of skipped lists that may ask each service in one run: a handful of requests per
#: service (seconds, not minutes), far below OpenReview's twenty a minute for guests
FALLBACK_WORKS = 5


class FallbackBudget:
    """Which works of skipped lists may ask which service, shared by the worker threads.

    The first :attr:`works` works to ask a service in a skipped list's place are admitted,
    and ask every service as usual (so each service gets at most that many of them: one
    search each, whose cached answers their other steps reuse); every later one asks none
    and is left pending. ``limits`` are services' requests per minute and ``sent`` counts
    the requests the run has sent to a service so far: a service that has already had its
    minute's worth is not asked in a list's place at all (the fallback would only queue
    behind its limit, or meet its refusals).
    """

    def __init__(self, works: int = FALLBACK_WORKS, limits: Mapping[str, float | None] | None = None,
                 sent: Callable[[str], int] | None = None) -> None:
        self.works = works
        self.limits = dict(limits or {})
        self.sent = sent or (lambda _name: 0)
        self._lock = threading.Lock()
        self._works: set[int] = set()
        self._used: Counter[str] = Counter()
        self._admitted: set[tuple[int, str]] = set()

    def admit(self, key: int, service: str) -> bool:
        """Whether work ``key`` may ask ``service``."""
        with self._lock:
            if (key, service) in self._admitted:
                return True
            if key not in self._works:
                if len(self._works) >= self.works:
                    return False
                self._works.add(key)
            limit = self.limits.get(service)
            if limit and self.sent(service) >= limit:
                return False
            self._used[service] += 1
            self._admitted.add((key, service))
            return True

    def used(self, service: str) -> int:
        """Works admitted for ``service`` so far (at most :attr:`works`)."""
        with self._lock:
            return self._used[service]
