"""One polite HTTP client shared by every source.

The four services ask for different manners (arXiv: one request every three seconds and
one connection at a time; dblp: a second apart; Crossref: whatever its rate-limit headers
say), and resolution runs many mentions at once on a thread pool. Keeping timeouts,
retries, waiting and counting in one place means a source only has to say which service
it is talking to, and a test can replace the clock and ``sleep`` so nothing really waits.
"""

from __future__ import annotations

import email.utils
import random
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, TypeVar
from contextlib import contextmanager

import requests

from .. import __version__
from .base import SourceError, SourceUnavailable

T = TypeVar("T")

#: statuses worth asking again: the service is busy or briefly broken, not refusing us.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def user_agent(mailto: str | None) -> str:
    """``citekit/VERSION (mailto:…)``: services contact the address instead of blocking us."""
    return f"citekit/{__version__} (mailto:{mailto})" if mailto else f"citekit/{__version__}"


@dataclass
class HostPolicy:
    """How gently to treat one service: seconds between request starts, parallel requests."""

    min_interval: float = 0.0
    concurrency: int = 4
    #: follow limits the service announces in response headers (off when limits are disabled)
    adaptive: bool = True


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


class RetryableError(Exception):
    """Raised inside an attempt to ask :meth:`HttpClient.call` for another try."""

    def __init__(self, retry: Retry) -> None:
        super().__init__(retry.reason)
        self.retry = retry


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
_WAKE_STEP = 0.5


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

    def wait_turn(self, give_up: Callable[[], bool] | None = None) -> float:
        """Sleep until this caller's slot; with ``give_up``, wake early once it says so
        (the service went down while we queued: no point waiting out a polite interval)."""
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.policy.min_interval
        delay = start - now
        if delay <= 0:
            return 0.0
        if give_up is None or delay <= _WAKE_STEP:
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
    ) -> None:
        self.user_agent = user_agent
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
        self._streak: Counter[str] = Counter()  # consecutive transport failures per service
        self._lock = threading.Lock()

    # -- limits -----------------------------------------------------------------------
    def limiter(self, bucket: str) -> _Limiter:
        with self._lock:
            lim = self._limiters.get(bucket)
            if lim is None:
                base = self._policies.get(bucket, self._default_policy)
                lim = _Limiter(HostPolicy(base.min_interval, base.concurrency, base.adaptive), self.clock,
                               self._sleep_counted)
                self._limiters[bucket] = lim
            return lim

    def adapt(self, bucket: str, headers: Mapping[str, str]) -> None:
        """Let a service's announced limits replace the configured defaults."""
        self.limiter(bucket).adapt({k.lower(): v for k, v in headers.items()})

    def _sleep_counted(self, seconds: float) -> None:
        with self._lock:
            self.stats.waited += seconds
        self.sleep(seconds)

    # -- the retry loop ---------------------------------------------------------------
    def call(self, bucket: str, attempt: Callable[[], T], *, what: str = "request") -> T:
        """Run ``attempt`` under ``bucket``'s limits, retrying what it marks retryable.

        ``attempt`` performs exactly one HTTP request and raises :class:`RetryableError`
        for busy/broken answers; anything else it raises passes straight through.
        """
        if bucket in self._down:
            raise SourceUnavailable(bucket, self._down[bucket])
        limiter = self.limiter(bucket)
        last: Retry | None = None
        for n in range(self.retries + 1):
            if bucket in self._down:  # another thread found it down meanwhile
                raise SourceUnavailable(bucket, self._down[bucket])
            # while the service is failing, queued threads wake early if it is declared down
            failing = self._streak[bucket] > 0 or n > 0
            limiter.wait_turn(give_up=(lambda: bucket in self._down) if failing else None)
            if bucket in self._down:  # found down while this thread waited for its turn
                raise SourceUnavailable(bucket, self._down[bucket])
            with limiter.gate.held():
                with self._lock:
                    self.stats.requests[bucket] += 1
                try:
                    result = attempt()
                    self._streak[bucket] = 0
                    return result
                except RetryableError as exc:
                    last = exc.retry
            if last.unreachable:
                with self._lock:
                    self._streak[bucket] += 1
                    streak = self._streak[bucket]
                if streak > UNREACHABLE_RETRIES:
                    # consecutive transport failures across all threads: the service is down,
                    # and every waiting thread would otherwise spend its own retries finding out
                    message = f"{what} failed {streak} times in a row ({last.reason}); run sync again later"
                    self._mark_down(bucket, message)
                    raise SourceUnavailable(bucket, message)
            if last.unreachable and (last.no_dns or _no_name_resolution(last.reason)):
                # No DNS means no network (or a mistyped URL): retrying in seconds cannot help.
                message = f"{what}: cannot resolve the host ({last.reason}); check the network or the URL"
                self._mark_down(bucket, message)
                raise SourceUnavailable(bucket, message)
            if last.wait is not None and last.wait > self.max_retry_after:
                message = (f"{what}: the service asks to wait {last.wait:.0f} s ({last.reason}); "
                           "skipping it for this run, run sync again later")
                self._mark_down(bucket, message)
                raise SourceUnavailable(bucket, message)
            if n == self.retries:
                break
            with self._lock:
                self.stats.retries[bucket] += 1
            self._sleep_counted(self._delay(n, last))
        assert last is not None
        message = f"{what} failed after {n + 1} attempts ({last.reason}); run sync again later"
        if last.unreachable:
            self._mark_down(bucket, message)
            raise SourceUnavailable(bucket, message)
        raise SourceError(bucket, message)

    def _delay(self, n: int, retry: Retry) -> float:
        if retry.wait is not None:
            return retry.wait
        base = min(self.max_backoff, self.backoff * (2 ** n))
        return base + self.rng.uniform(0, self.backoff)

    def _mark_down(self, bucket: str, message: str) -> None:
        with self._lock:
            self._down[bucket] = message

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
    ) -> requests.Response:
        """One logical request: answers other than 429/5xx (404, 403, 400…) are returned.

        The caller decides what a 404 or 403 means for its service; only "try later"
        answers and transport failures are retried here.
        """

        def attempt() -> requests.Response:
            try:
                resp = self.session.request(method, url, params=params, json=json, headers=headers,
                                            timeout=self.timeout)
            except requests.Timeout as exc:
                raise RetryableError(Retry(f"timed out after {self.timeout:g} s", unreachable=True)) from exc
            except requests.ConnectionError as exc:
                raise RetryableError(Retry(f"connection failed: {_short(exc)}", unreachable=True,
                                           no_dns=_no_name_resolution(str(exc)))) from exc
            except requests.RequestException as exc:
                raise SourceError(bucket, f"{method} {url} failed: {_short(exc)}") from exc
            self.adapt(bucket, resp.headers)
            if resp.status_code in RETRY_STATUSES:
                raise RetryableError(Retry(f"HTTP {resp.status_code}",
                                           wait=parse_retry_after(resp.headers.get("Retry-After"), now=self.wall())))
            return resp

        return self.call(bucket, attempt, what=f"{method} {_path(url)}")

    def close(self) -> None:
        self.session.close()


#: transport failures (refused, reset, timed out) in a row, across threads, that a service
#: may have before it counts as down for the run; 429/5xx answers get ``retries`` per request
UNREACHABLE_RETRIES = 2

_DNS_FAILURES = ("NameResolutionError", "Name or service not known", "Temporary failure in name resolution",
                 "nodename nor servname", "getaddrinfo failed", "No address associated with hostname")


def _no_name_resolution(reason: str) -> bool:
    return any(marker in reason for marker in _DNS_FAILURES)


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) < 200 else text[:197] + "..."


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url) or url
