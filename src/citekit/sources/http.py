"""One polite HTTP client shared by every source.

The four services ask for different manners (arXiv: one request every three seconds and
one connection at a time; dblp: a second apart; Crossref: whatever its rate-limit headers
say), and resolution runs many mentions at once on a thread pool. Keeping timeouts,
retries, waiting and counting in one place means a source only has to say which service
it is talking to, and a test can replace the clock and ``sleep`` so nothing really waits.
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, TypeVar
from contextlib import contextmanager
from urllib.parse import urljoin, urlsplit

import requests

from citekit import __version__
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import safe_json
from citekit.core.lazyre import lazy

T = TypeVar("T")

#: one megabyte, the unit of ``sources.<name>.max_mb``
MB = 1024 * 1024
#: bytes taken from the network per step while reading an answer: a cut comes within
#: one step of the cap, and a compressed answer is never inflated more than a step at once
READ_STEP = 64 * 1024

#: statuses worth asking again: the service is busy or briefly broken, not refusing us.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def user_agent(mailto: str | None) -> str:
    """``citekit/VERSION (mailto:…)``: services contact the address instead of blocking us."""
    return f"citekit/{__version__} (mailto:{mailto})" if mailto else f"citekit/{__version__}"


@dataclass
class HostPolicy:
    """How gently to treat one service: seconds between requests, parallel requests, and a
    budget per minute.

    ``per_minute`` is a token bucket whose tokens come back one minute after they were
    spent: exactly a server's sliding one-minute window (OpenReview refuses a guest's 21st
    request in a minute), so the client never runs into it. ``after_answer`` measures
    ``min_interval`` from the end of the previous answer instead of from its start (arXiv:
    "3 seconds between requests" on one connection, however long the answer took).
    """

    min_interval: float = 0.0
    concurrency: int = 4
    #: follow limits the service announces in response headers (off when limits are disabled)
    adaptive: bool = True
    per_minute: float | None = None
    after_answer: bool = False
    #: the largest answer read from this service, in bytes, after decompression (None: no
    #: cap). An answer that says or turns out to be larger is cut off: reading on would
    #: only fill memory with something no paper record is this big
    max_bytes: int | None = 16 * MB


@dataclass
class Retry:
    """What a failed attempt says about trying again.

    ``wait`` is the server's own ``Retry-After`` in seconds (None: use backoff);
    ``unreachable`` marks transport failures, which make the service unavailable for the
    rest of the run once retries are spent.
    """

    reason: str
    wait: float | None = None
    unreachable: bool = False
    #: the host name did not resolve: no network (or a wrong URL), not worth retrying
    no_dns: bool = False
    #: a 429 refusal: its stated wait is honoured once, then the request gives up
    rate_limited: bool = False


class RetryableError(Exception):
    """Raised inside an attempt to ask :meth:`HttpClient.call` for another try."""

    def __init__(self, retry: Retry) -> None:
        super().__init__(retry.reason)
        self.retry = retry


class RedirectRefused(SourceError):
    """A redirect the caller's own rule would not follow (see ``redirect`` of
    :meth:`HttpClient.request`): that one request fails, the service stays up.

    ``status`` is the caller's short name for why (the web source's ``redirected``,
    ``unsafe-redirect``, ``redirect-loop``); ``location`` where the redirect pointed.
    """

    def __init__(self, source: str, message: str, *, status: str, location: str = "") -> None:
        super().__init__(source, message)
        self.status = status
        self.location = location


class ResponseTooLarge(SourceError):
    """An answer larger than its service's cap (``HostPolicy.max_bytes``).

    Not retried (the same request would bring the same flood) and never parsed in part:
    that request fails like a service that could not answer, and the paper is looked up
    again on the next sync.
    """


def too_large(bucket: str, what: str, cap: int) -> ResponseTooLarge:
    """The one message for an answer over the cap: which service, the cap, and the setting."""
    return ResponseTooLarge(bucket, f"{what}: the answer is larger than {cap / MB:g} MB, the most citekit reads "
                                    f"from {bucket}; stopped reading it. If {bucket} really sends answers that "
                                    f"big, raise sources.{bucket}.max_mb in citekit.yaml")


def read_capped(chunks: Iterable[bytes], cap: int | None, *, bucket: str, what: str,
                declared: str | None = None) -> bytes:
    """The whole body from ``chunks`` (already decompressed), or :class:`ResponseTooLarge`
    as soon as it passes ``cap`` bytes.

    ``declared`` is the ``Content-Length`` header: an answer announcing more than the cap
    is refused before a byte of it is read. The count is what arrives, not what is announced.
    """
    if cap is not None and declared is not None and declared.strip().isdigit() and int(declared) > cap:
        raise too_large(bucket, what, cap)
    parts: list[bytes] = []
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if cap is not None and total > cap:
            raise too_large(bucket, what, cap)
        parts.append(chunk)
    return b"".join(parts)


@dataclass
class ClientStats:
    """Requests actually sent, per service: what ``--stats`` and the cache tests count."""

    requests: Counter = field(default_factory=Counter)
    retries: Counter = field(default_factory=Counter)
    waited: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def as_dict(self) -> dict[str, Any]:
        return {"requests": dict(self.requests), "retries": dict(self.retries), "total": self.total,
                "waited_seconds": round(self.waited, 3)}


class _Gate:
    """A semaphore whose size can change while in use (Crossref announces its own limit)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = max(1, capacity)
        self._in_use = 0
        self._cond = threading.Condition()

    def resize(self, capacity: int) -> None:
        with self._cond:
            self._capacity = max(1, capacity)
            self._cond.notify_all()

    @property
    def capacity(self) -> int:
        return self._capacity

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._cond:
            while self._in_use >= self._capacity:
                self._cond.wait()
            self._in_use += 1
        try:
            yield
        finally:
            with self._cond:
                self._in_use -= 1
                self._cond.notify()


#: how often a thread queued behind a rate limit checks whether the service went down
#: (a tenth of a second: without network, a polite half-second slot waited out in full
#: was a third of what a plain sync cost)
_WAKE_STEP = 0.1
#: services whose host names do not resolve before a run counts as having no network
NO_NETWORK_AFTER = 2
#: the short why of a failed name lookup, as reasons and notices print it
NO_DNS_CAUSE = "no network (the host name does not resolve)"
#: seconds added to a spent token's minute: the server counts arrivals, which come a
#: little after our starts, so a token returned exactly at 60 s could still be refused
BUCKET_MARGIN = 0.5
#: a 429 body's own "Please try again in 39 seconds" (OpenReview sends no Retry-After)
_TRY_AGAIN_RE = lazy(r"try again in\s+((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+)", re.I)
_DURATION_PART = lazy(r"(\d+(?:\.\d+)?)\s*(hours?|h|minutes?|mins?|m|seconds?|secs?|s)\b", re.I)
#: redirect statuses followed within the same origin
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_MAX_REDIRECTS = 5


class _Limiter:
    """Spaces request starts ``min_interval`` apart, across threads.

    Each caller reserves the next free slot under a lock and sleeps outside it, so eight
    threads queue up neatly instead of all waking at once.
    """

    def __init__(self, policy: HostPolicy, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        self.policy = policy
        self.gate = _Gate(policy.concurrency)
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()
        #: start times of the last ``per_minute`` requests (the bucket's spent tokens)
        self._spent: deque[float] = deque()
        #: when the previous answer ended (``after_answer`` spacing)
        self._answered: float | None = None

    def _slot(self, now: float) -> float:
        """The earliest start not before ``now`` that both the interval and the bucket allow."""
        interval = 0.0 if self.policy.after_answer else self.policy.min_interval
        start = max(now, self._next)
        cap = int(self.policy.per_minute or 0)
        if cap > 0:
            while len(self._spent) > cap:
                self._spent.popleft()
            if len(self._spent) >= cap:
                start = max(start, self._spent[-cap] + 60.0 + BUCKET_MARGIN)
            self._spent.append(start)
        self._next = start + interval
        return start

    def pause(self, seconds: float) -> None:
        """Nobody starts a request for ``seconds`` (the service asked us to wait)."""
        with self._lock:
            self._next = max(self._next, self._clock() + seconds)

    def wait_answer_gap(self) -> float:
        """``after_answer`` services: sleep until ``min_interval`` after the previous answer ended.

        Called while holding the gate, so with one connection no other request can slip
        in between the end of the wait and the start of this request.
        """
        if not self.policy.after_answer or self._answered is None:
            return 0.0
        delay = self._answered + self.policy.min_interval - self._clock()
        if delay > 0:
            self._sleep(delay)
            return delay
        return 0.0

    def answered(self) -> None:
        self._answered = self._clock()

    def wait_turn(self, give_up: Callable[[], bool] | None = None) -> float:
        """Sleep until this caller's slot; with ``give_up``, wake early once it says so
        (the service went down while we queued: no point waiting out a polite interval)."""
        with self._lock:
            now = self._clock()
            start = self._slot(now)
        delay = start - now
        if delay <= 0:
            return 0.0
        if give_up is None:
            self._sleep(delay)
            return delay
        left = delay
        while left > 0 and not give_up():
            step = min(_WAKE_STEP, left)
            self._sleep(step)
            left -= step
        return delay - max(left, 0.0)

    def adapt(self, headers: Mapping[str, str]) -> None:
        """Follow the limits a service announces (Crossref's ``x-rate-limit-*`` headers)."""
        if not self.policy.adaptive:
            return
        limit = _int(headers.get("x-rate-limit-limit"))
        interval = parse_interval(headers.get("x-rate-limit-interval"))
        if limit and interval:
            with self._lock:
                self.policy.min_interval = interval / limit
        concurrency = _int(headers.get("x-concurrency-limit"))
        if concurrency:
            self.policy.concurrency = concurrency
            self.gate.resize(concurrency)


def _int(value: str | None) -> int | None:
    try:
        return int(str(value).strip()) if value is not None else None
    except ValueError:
        return None


def parse_interval(value: str | None) -> float | None:
    """``1s``/``60s``/``1m`` → seconds (the form of ``x-rate-limit-interval``)."""
    if not value:
        return None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*", value)
    if not m:
        return None
    factor = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}[m.group(2) or "s"]
    return float(m.group(1)) * factor


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if value is None or not str(value).strip():
        return None
    value = str(value).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class HttpClient:
    """Thread-safe, rate-limited, retrying HTTP for all sources.

    ``bucket`` (the source name) picks the limiter: one per service, which is one per host
    in production, and stays distinct when tests point every service at one loopback
    server. ``sleep``, ``clock``, ``wall`` and ``rng`` are injectable so tests assert the
    waits instead of sitting through them.
    """

    def __init__(
        self,
        *,
        user_agent: str = user_agent(None),
        timeout: float = 20.0,
        retries: int = 4,
        policies: Mapping[str, HostPolicy] | None = None,
        default_policy: HostPolicy | None = None,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        session: requests.Session | None = None,
        deadline: float | None = None,
    ) -> None:
        self.user_agent = user_agent
        #: seconds for one read *and* the overall cap of one request (a dripping server is cut off)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.clock = clock
        self.wall = wall
        self.rng = rng or random.Random()
        self.stats = ClientStats()
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = user_agent
        self._default_policy = default_policy or HostPolicy()
        self._policies = dict(policies or {})
        self._limiters: dict[str, _Limiter] = {}
        self._down: dict[str, str] = {}
        #: services whose host name did not resolve this run; two of them mean no network
        #: at all (one alone may be a mistyped address), and then nothing more is asked
        self._no_dns: list[str] = []
        #: why the run has no network ("" while it may have one)
        self.no_network = ""
        self._streak: Counter[str] = Counter()  # consecutive transport failures per service
        self._lock = threading.Lock()
        #: the whole run's network budget (``sources.deadline``), on ``clock``
        self.deadline = deadline
        self._deadline_at = clock() + deadline if deadline else None
        self.deadline_passed = False

    def remaining(self) -> float | None:
        """Seconds left of the run's network budget (None: no budget)."""
        if self._deadline_at is None:
            return None
        return self._deadline_at - self.clock()

    def _is_down(self, down: str) -> bool:
        return down in self._down or bool(self.no_network)

    def _raise_down(self, down: str, bucket: str | None = None) -> None:
        if down not in self._down:  # not asked at all: the run has no network
            raise SourceUnavailable(bucket or down, self.no_network, cause=NO_DNS_CAUSE)
        raise SourceUnavailable(bucket or down, self._down[down], deadline=self.deadline_passed)

    def _name_not_resolved(self, down: str) -> None:
        """Count a service whose host name did not resolve; at the second, the run has no
        network: every service still to be asked is skipped at once (as ``--offline`` would),
        instead of each finding out with its own request, polite wait and retries."""
        with self._lock:
            if down not in self._no_dns:
                self._no_dns.append(down)
            if len(self._no_dns) >= NO_NETWORK_AFTER and not self.no_network:
                self.no_network = (f"no network (the host names of {' and '.join(self._no_dns[:2])} do not "
                                   "resolve): not asked; check the network, or use --offline")

    def _check_deadline(self, bucket: str) -> None:
        left = self.remaining()
        if left is not None and left <= 0:
            self.deadline_passed = True
            message = (f"the sync's network deadline of {self.deadline:g} s (sources.deadline) has passed; "
                       "what is left stays as it is and is looked up on the next sync")
            self._mark_down(bucket, message)
            raise SourceUnavailable(bucket, message, deadline=True)

    # -- limits -----------------------------------------------------------------------
    def limiter(self, bucket: str) -> _Limiter:
        with self._lock:
            lim = self._limiters.get(bucket)
            if lim is None:
                base = self._policies.get(bucket, self._default_policy)
                lim = _Limiter(replace(base), self.clock, self._sleep_counted)
                self._limiters[bucket] = lim
            return lim

    def per_minute(self, bucket: str) -> float | None:
        """The requests a minute ``bucket`` allows (None: no such limit, or limits off)."""
        return self.limiter(bucket).policy.per_minute

    def sent(self, bucket: str) -> int:
        """Requests sent to ``bucket`` so far by this client."""
        with self._lock:
            return self.stats.requests[bucket]

    def adapt(self, bucket: str, headers: Mapping[str, str]) -> None:
        """Let a service's announced limits replace the configured defaults."""
        self.limiter(bucket).adapt({k.lower(): v for k, v in headers.items()})

    def _sleep_counted(self, seconds: float) -> None:
        with self._lock:
            self.stats.waited += seconds
        self.sleep(seconds)

    # -- the retry loop ---------------------------------------------------------------
    def call(self, bucket: str, attempt: Callable[[], T], *, what: str = "request",
             max_seconds: float | None = None, scope: str | None = None) -> T:
        """Run ``attempt`` under ``bucket``'s limits, retrying what it marks retryable.

        ``attempt`` performs exactly one HTTP request and raises :class:`RetryableError`
        for busy/broken answers; anything else it raises passes straight through. An
        attempt that has not finished within ``timeout`` seconds (or what is left of the
        run's deadline) counts as a transport failure, however slowly bytes still trickle.
        ``scope`` narrows what a transport failure takes down to one part of the service (the
        web source's host: one unreachable site is not every page's), under its limits still.
        """
        down = f"{bucket} {scope}" if scope else bucket
        if self._is_down(down):
            self._raise_down(down, bucket)
        limiter = self.limiter(bucket)
        last: Retry | None = None
        waited_429 = False
        skip_turn = False  # this thread just slept what a 429 asked: its turn is now
        for n in range(self.retries + 1):
            if self._is_down(down):  # another thread found it down meanwhile (or the network gone)
                self._raise_down(down, bucket)
            self._check_deadline(bucket)
            # while the service is failing, queued threads wake early if it is declared down
            # (and, once a host name did not resolve, once the run turns out to have no network)
            failing = self._streak[down] > 0 or n > 0 or bool(self._no_dns)
            if not skip_turn:
                limiter.wait_turn(give_up=(lambda: self._is_down(down)) if failing else None)
            skip_turn = False
            if self._is_down(down):  # found down while this thread waited for its turn
                self._raise_down(down, bucket)
            with limiter.gate.held():
                limiter.wait_answer_gap()
                self._check_deadline(bucket)
                with self._lock:
                    self.stats.requests[bucket] += 1
                try:
                    result = self._bounded(attempt, max_seconds)
                    self._streak[down] = 0
                    return result
                except RetryableError as exc:
                    last = exc.retry
                finally:
                    limiter.answered()
            if last.unreachable:
                with self._lock:
                    self._streak[down] += 1
                    streak = self._streak[down]
                if streak > UNREACHABLE_RETRIES:
                    # consecutive transport failures across all threads: the service is down,
                    # and every waiting thread would otherwise spend its own retries finding out
                    message = f"{what} failed {streak} times in a row ({last.reason}); run sync again later"
                    self._mark_down(down, message)
                    raise SourceUnavailable(bucket, message, cause=last.reason)
            if last.unreachable and (last.no_dns or _no_name_resolution(last.reason)):
                # No DNS means no network (or a mistyped URL): retrying in seconds cannot help.
                message = f"{what}: no network (the host name does not resolve); check the network or the URL"
                self._mark_down(down, message)
                if scope is None:  # (a page's site that is gone says nothing of the network)
                    self._name_not_resolved(down)
                raise SourceUnavailable(bucket, message, cause=last.reason)
            if last.wait is not None and last.wait > self.max_retry_after:
                message = (f"{what}: the service asks to wait {last.wait:.0f} s ({last.reason}); "
                           "skipping it for this run, run sync again later")
                self._mark_down(down, message)
                raise SourceUnavailable(bucket, message)
            if last.rate_limited and last.wait is not None:
                if waited_429:
                    # the service refused again after we waited what it asked: it knows
                    # better than a blind retry loop; this request gives up
                    raise SourceError(bucket, f"{what} was refused again after waiting {last.wait:g} s as asked "
                                              f"({last.reason}); run sync again later")
                waited_429 = True
                limiter.pause(last.wait)  # every thread of this service waits, not only this one
                skip_turn = True
            if n == self.retries:
                break
            with self._lock:
                self.stats.retries[bucket] += 1
            self._sleep_counted(self._delay(n, last))
        assert last is not None
        message = f"{what} failed after {n + 1} attempts ({last.reason}); run sync again later"
        if last.unreachable:
            self._mark_down(down, message)
            raise SourceUnavailable(bucket, message, cause=last.reason)
        raise SourceError(bucket, message)

    def _bounded(self, attempt: Callable[[], T], max_seconds: float | None = None) -> T:
        """``attempt()`` with an overall time limit.

        Read timeouts restart with every byte, so a server dripping one byte every few
        seconds never trips them; the attempt runs on a daemon thread instead, and the
        caller stops waiting after ``timeout`` seconds (or what is left of the run's
        deadline), treating the silence as a transport failure.
        """
        limit = max_seconds if max_seconds is not None else self.timeout
        left = self.remaining()
        if left is not None:
            limit = max(0.0, min(limit, left))
        box: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                box["result"] = attempt()
            except BaseException as exc:  # handed to the caller below
                box["error"] = exc
            finally:
                done.set()

        worker = threading.Thread(target=run, name="citekit-http", daemon=True)
        worker.start()
        if not done.wait(limit):
            box["abandoned"] = True
            raise RetryableError(Retry(f"no complete answer within {limit:g} s", unreachable=True))
        if "error" in box:
            raise box["error"]
        return box["result"]

    def _delay(self, n: int, retry: Retry) -> float:
        if retry.wait is not None:
            return retry.wait
        base = min(self.max_backoff, self.backoff * (2 ** n))
        return base + self.rng.uniform(0, self.backoff)

    def _mark_down(self, bucket: str, message: str) -> None:
        with self._lock:
            self._down[bucket] = message

    def mark_down(self, bucket: str, message: str) -> None:
        """Skip ``bucket`` for the rest of the run (a source found a reason the client cannot see)."""
        self._mark_down(bucket, message)

    # -- requests-based convenience ------------------------------------------------------
    def request(
        self,
        bucket: str,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        expect: str | None = None,
        max_seconds: float | None = None,
        redirect: Callable[[str, str, int], str] | None = None,
        scope: str | None = None,
    ) -> requests.Response:
        """One logical request: answers other than 429/5xx (404, 403, 400…) are returned.

        The caller decides what a 404 or 403 means for its service; only "try later"
        answers, transport failures and malformed answers are retried here. ``expect``
        (``json``, ``xml``, ``atom`` or ``bibtex``) says what a 200 answer must hold: a truncated or
        junk body is that service failing, retried and counted towards marking it down.
        Redirects are followed only within the same origin; one to another origin marks
        the service down for the run (a captive portal, a moved API, a hijacked name).
        ``max_seconds`` replaces ``timeout`` as the cap of the whole request (a download of
        several megabytes may take longer than any single API answer should).
        ``redirect`` replaces the same-origin rule for a caller that fetches anyone's pages
        (the web source): called as ``redirect(current, location, hop)`` for every redirect,
        it returns the address to fetch next or raises :class:`RedirectRefused`, which fails
        this request alone; one page moving elsewhere says nothing about the next page.
        """

        what = f"{method} {_path(url)}"

        def attempt() -> requests.Response:
            target, verb, body = url, method, json
            query = params
            for hop in range(_MAX_REDIRECTS + 1):
                try:
                    resp = self.session.request(verb, target, params=query, json=body, headers=headers,
                                                timeout=self.timeout, allow_redirects=False, stream=True)
                except requests.RequestException as exc:
                    raise _transport_failure(exc, bucket, what, self.timeout) from exc
                if resp.status_code not in _REDIRECTS or not resp.headers.get("Location"):
                    break
                resp.close()  # a redirect's own body is never read
                nxt = urljoin(resp.url or target, resp.headers["Location"])
                if redirect is not None:
                    nxt = redirect(target, nxt, hop)
                elif _origin(nxt) != _origin(target):
                    message = (f"{method} {_path(url)} was redirected to another site ({_origin(nxt)}); "
                               f"not following it. Check sources.{bucket}.url, or the network (a login portal?)")
                    self._mark_down(bucket, message)
                    raise SourceUnavailable(bucket, message)
                target, query = nxt, None
                if resp.status_code == 303 or (resp.status_code in (301, 302) and verb == "POST"):
                    verb, body = "GET", None
            else:
                raise RetryableError(Retry(f"more than {_MAX_REDIRECTS} redirects", unreachable=True))
            self._read_body(bucket, resp, what)
            self.adapt(bucket, resp.headers)
            if resp.status_code in RETRY_STATUSES:
                wait = parse_retry_after(resp.headers.get("Retry-After"), now=self.wall())
                if resp.status_code == 429 and wait is None:
                    wait = parse_try_again(resp.text)
                raise RetryableError(Retry(f"HTTP {resp.status_code}", wait=wait,
                                           rate_limited=resp.status_code == 429))
            if resp.status_code == 200 and expect:
                problem = malformed(resp, expect)
                if problem:
                    raise RetryableError(Retry(problem, unreachable=True))
            return resp

        return self.call(bucket, attempt, what=what, max_seconds=max_seconds, scope=scope)

    def max_bytes(self, bucket: str) -> int | None:
        """The largest answer ``bucket`` may send (its policy's ``max_bytes``)."""
        return self.limiter(bucket).policy.max_bytes

    def _read_body(self, bucket: str, resp: requests.Response, what: str) -> None:
        """Read ``resp``'s body into it, decompressed, stopping at the service's cap.

        The body arrives in :data:`READ_STEP` pieces, so neither a flood within the
        timeout nor a small compressed answer that inflates to gigabytes ever holds more
        than the cap and one step in memory.
        """
        try:
            resp._content = read_capped(resp.iter_content(READ_STEP), self.max_bytes(bucket), bucket=bucket,
                                        what=what, declared=declared_length(resp.headers))
            resp._content_consumed = True
        except requests.RequestException as exc:
            raise _transport_failure(exc, bucket, what, self.timeout) from exc
        finally:
            resp.close()

    def close(self) -> None:
        self.session.close()


#: transport failures (refused, reset, timed out) in a row, across threads, that a service
#: may have before it counts as down for the run; 429/5xx answers get ``retries`` per request
UNREACHABLE_RETRIES = 2

_DNS_FAILURES = ("NameResolutionError", "Name or service not known", "Temporary failure in name resolution",
                 "nodename nor servname", "getaddrinfo failed", "No address associated with hostname")


def _transport_failure(exc: requests.RequestException, bucket: str, what: str, timeout: float) -> Exception:
    """What a failure of requests means: timeouts and broken connections are retried (and
    count towards the service being down); anything else fails this request."""
    if isinstance(exc, requests.Timeout):
        return RetryableError(Retry(f"timed out after {timeout:g} s", unreachable=True))
    if isinstance(exc, (requests.ConnectionError, requests.exceptions.ChunkedEncodingError)):
        return RetryableError(Retry(f"connection failed: {connection_reason(exc)}", unreachable=True,
                                    no_dns=_no_name_resolution(str(exc))))
    if isinstance(exc, requests.exceptions.ContentDecodingError):
        return RetryableError(Retry(f"answered a body that does not decompress ({_short(exc)})", unreachable=True))
    return SourceError(bucket, f"{what} failed: {_short(exc)}")


def declared_length(headers: Mapping[str, str]) -> str | None:
    """``Content-Length`` when it counts the bytes we read: a compressed body's counts
    the compressed bytes, which says nothing about the size once inflated. ``headers``:
    any case-insensitive mapping (requests' or httpx's)."""
    if headers.get("Content-Encoding", "identity").strip().lower() not in ("", "identity"):
        return None
    return headers.get("Content-Length")


def _no_name_resolution(reason: str) -> bool:
    return any(marker in reason for marker in _DNS_FAILURES) or NO_DNS_CAUSE in reason


#: what a failed connection's long urllib3 text means, in the words a user needs (first match wins)
_CONNECTION_REASONS = (
    (_DNS_FAILURES, NO_DNS_CAUSE),
    (("Connection refused", "Errno 111", "Errno 61", "WinError 10061"), "connection refused"),
    (("Connection reset", "Errno 104", "Errno 54"), "connection reset"),
    (("Network is unreachable", "Errno 101", "No route to host"), "no network (no route to the host)"),
    (("CERTIFICATE_VERIFY_FAILED", "SSLError", "SSL:"), "TLS handshake failed (a proxy or a certificate problem)"),
    (("RemoteDisconnected", "closed connection without response"), "the server closed the connection"),
)


def connection_reason(exc: BaseException) -> str:
    """One short phrase for a failed connection, not urllib3's "HTTPSConnectionPool(...): Max
    retries exceeded ... NameResolutionError(...)" (several lines per service on a terminal)."""
    text = str(exc)
    for markers, reason in _CONNECTION_REASONS:
        if any(m in text for m in markers):
            return reason
    return _short(exc)


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) < 200 else text[:197] + "..."


def parse_try_again(text: str | None) -> float | None:
    """Seconds from a refusal's own words: ``Please try again in 39 seconds`` or
    ``in 60 minutes and 13 seconds`` (OpenReview's 429 body; it sends no ``Retry-After``)."""
    m = _TRY_AGAIN_RE.search(text or "")
    if not m:
        return None
    total, found = 0.0, False
    for number, unit in _DURATION_PART.findall(m.group(1)):
        unit = unit.lower()
        total += float(number) * (3600 if unit.startswith("h") else 60 if unit.startswith("m") else 1)
        found = True
    return total if found else None


def malformed(resp: requests.Response, expect: str) -> str | None:
    """Why a 200 answer is not the ``expect`` kind of document (None when it is)."""
    kind = resp.headers.get("Content-Type", "?").split(";")[0].strip() or "?"
    text = resp.text
    if expect == "json":
        try:
            parsed = json.loads(text)
            # a lone surrogate can only come from a \uD8xx-\uDFxx escape: the walk that
            # replaces it (a copy of the whole answer) only where the text has one
            resp._citekit_json = safe_json(parsed) if _SURROGATE_ESCAPE.search(text) else parsed  # type: ignore[attr-defined]
        except ValueError as exc:
            return f"answered {kind} that is not complete JSON ({_short(str(exc))})"
        return None
    if expect in ("xml", "atom"):
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            return f"answered {kind} that is not complete XML ({exc})"
        if expect == "atom" and root.tag != "{http://www.w3.org/2005/Atom}feed":
            return f"answered {kind} that is not complete Atom XML (a <{root.tag}> document)"
        return None
    if expect == "bibtex":
        stripped = text.lstrip()
        if not stripped.startswith("@") or stripped.lower().startswith(("<!doctype", "<html")) or \
                text.count("{") != text.count("}"):
            return f"answered {kind} that is not a complete BibTeX record"
    return None


def body_json(resp: requests.Response) -> Any:
    """The JSON of an answer (parsed once, not twice, when ``expect="json"`` checked it),
    with lone surrogates (``"\\ud800"`` is valid JSON) replaced: no file can hold them."""
    if hasattr(resp, "_citekit_json"):
        return resp._citekit_json
    return safe_json(resp.json())


_SURROGATE_ESCAPE = lazy(r"\\u[dD][89a-fA-F]")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{(parts.netloc or '').lower()}"


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url) or url
