"""The shared HTTP client: retries, Retry-After, limits, counting, and the no-internet guard."""

from __future__ import annotations

import email.utils
import random
import socket
import threading
import time

import pytest
import requests
import responses

from citekit import __version__
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.http import HostPolicy, HttpClient, parse_interval, parse_retry_after, user_agent

URL = "https://api.example.test/thing"


class FakeTime:
    """A clock that only moves when the client sleeps: waits are recorded, never sat through."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += seconds

    def clock(self) -> float:
        return self.now


def make_client(ft: FakeTime, **kwargs) -> HttpClient:
    kwargs.setdefault("retries", 3)
    return HttpClient(sleep=ft.sleep, clock=ft.clock, wall=lambda: 1_800_000_000.0, rng=random.Random(7), **kwargs)


@responses.activate
def test_429_retry_after_seconds_is_honoured():
    ft = FakeTime()
    responses.get(URL, status=429, headers={"Retry-After": "7"}, body="")
    responses.get(URL, json={"ok": True})
    client = make_client(ft)
    resp = client.request("svc", "GET", URL)
    assert resp.json() == {"ok": True}
    assert ft.sleeps == [7.0]
    assert client.stats.requests["svc"] == 2
    assert client.stats.retries["svc"] == 1


@responses.activate
def test_retry_after_http_date_is_honoured():
    ft = FakeTime()
    wall = 1_800_000_000.0
    responses.get(URL, status=503, headers={"Retry-After": email.utils.formatdate(wall + 30, usegmt=True)})
    responses.get(URL, body="fine")
    client = make_client(ft)
    assert client.request("svc", "GET", URL).text == "fine"
    assert ft.sleeps == [pytest.approx(30.0, abs=1.0)]


@responses.activate
def test_retry_after_beyond_the_cap_gives_up_and_skips_the_service():
    ft = FakeTime()
    responses.get(URL, status=429, headers={"Retry-After": "3600"})
    client = make_client(ft, max_retry_after=120)
    with pytest.raises(SourceUnavailable, match="3600"):
        client.request("svc", "GET", URL)
    assert ft.sleeps == []
    assert len(responses.calls) == 1
    with pytest.raises(SourceUnavailable):  # the rest of the run does not ask again
        client.request("svc", "GET", URL)
    assert len(responses.calls) == 1


@responses.activate
def test_5xx_backs_off_exponentially_with_jitter_then_fails():
    ft = FakeTime()
    responses.get(URL, status=502)
    client = make_client(ft, retries=3, backoff=1.0)
    with pytest.raises(SourceError, match="after 4 attempts") as info:
        client.request("svc", "GET", URL)
    assert not isinstance(info.value, SourceUnavailable)
    assert len(responses.calls) == 4
    assert len(ft.sleeps) == 3
    for n, slept in enumerate(ft.sleeps):
        assert 2 ** n <= slept < 2 ** n + 1
    assert client.stats.requests["svc"] == 4


@responses.activate
def test_connection_errors_are_retried_then_reported_unavailable():
    ft = FakeTime()
    responses.get(URL, body=requests.ConnectionError("Connection reset by peer"))
    client = make_client(ft, retries=2)
    with pytest.raises(SourceUnavailable, match="connection failed"):
        client.request("svc", "GET", URL)
    assert len(responses.calls) == 3


@responses.activate
def test_timeout_is_retried_and_can_recover():
    ft = FakeTime()
    responses.get(URL, body=requests.ReadTimeout("read timed out"))
    responses.get(URL, body="late but fine")
    client = make_client(ft, timeout=0.5)
    assert client.request("svc", "GET", URL).text == "late but fine"
    assert len(ft.sleeps) == 1


@responses.activate
def test_client_errors_are_returned_not_retried():
    ft = FakeTime()
    responses.get(URL, status=404, json={"name": "NotFoundError"})
    client = make_client(ft)
    assert client.request("svc", "GET", URL).status_code == 404
    assert len(responses.calls) == 1 and ft.sleeps == []


def test_connection_reset_by_a_real_server_is_retried(resetting_server):
    server = resetting_server(resets=2, body=b'{"answer": 42}')
    ft = FakeTime()
    client = make_client(ft, retries=3, timeout=5)
    resp = client.request("svc", "GET", server.url + "/x")
    assert resp.json() == {"answer": 42}
    assert server.connections == 3
    assert client.stats.requests["svc"] == 3


def test_requests_to_one_service_are_spaced_by_its_interval():
    ft = FakeTime()
    client = make_client(ft, policies={"arxiv": HostPolicy(min_interval=3.0, concurrency=1)})
    with responses.RequestsMock() as rsps:
        rsps.get(URL, body="x")
        for _ in range(3):
            client.request("arxiv", "GET", URL)
        client.request("other", "GET", URL)  # other services are not held back
    assert ft.sleeps == [3.0, 3.0]


def test_concurrency_limit_holds_across_threads():
    in_flight = 0
    peak = 0
    lock = threading.Lock()

    def slow(request):
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.02)
        with lock:
            in_flight -= 1
        return 200, {}, "ok"

    client = HttpClient(policies={"arxiv": HostPolicy(0.0, 1), "crossref": HostPolicy(0.0, 3)})
    for bucket, limit in (("arxiv", 1), ("crossref", 3)):
        peak = 0
        with responses.RequestsMock() as rsps:
            rsps.add_callback(responses.GET, URL, callback=slow)
            threads = [threading.Thread(target=client.request, args=(bucket, "GET", URL)) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert 1 <= peak <= limit
    assert client.stats.total == 16


@responses.activate
def test_announced_rate_limit_headers_are_followed():
    responses.get(URL, body="x", headers={"x-rate-limit-limit": "5", "x-rate-limit-interval": "1s",
                                          "x-concurrency-limit": "1"})
    client = HttpClient(policies={"crossref": HostPolicy(0.0, 3)})
    client.request("crossref", "GET", URL)
    limiter = client.limiter("crossref")
    assert limiter.policy.min_interval == pytest.approx(0.2)
    assert limiter.gate.capacity == 1


@responses.activate
def test_disabled_limits_ignore_announced_headers():
    responses.get(URL, body="x", headers={"x-rate-limit-limit": "1", "x-rate-limit-interval": "10s"})
    client = HttpClient(policies={"crossref": HostPolicy(0.0, 3, adaptive=False)})
    client.request("crossref", "GET", URL)
    assert client.limiter("crossref").policy.min_interval == 0.0


@responses.activate
def test_user_agent_names_citekit_and_mailto():
    responses.get(URL, body="x")
    HttpClient(user_agent=user_agent("me@example.org")).request("svc", "GET", URL)
    assert responses.calls[0].request.headers["User-Agent"] == f"citekit/{__version__} (mailto:me@example.org)"


def test_parsers_of_limit_headers():
    assert parse_interval("1s") == 1.0
    assert parse_interval("2m") == 120.0
    assert parse_interval("bogus") is None
    assert parse_retry_after("12") == 12.0
    assert parse_retry_after("") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0 - 60) == pytest.approx(60.0)


def test_no_internet_guard_blocks_outside_addresses():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(RuntimeError, match="must not reach the internet"):
            sock.connect(("93.184.216.34", 80))
    finally:
        sock.close()
    with pytest.raises(Exception, match="must not"):
        requests.get("http://example.com/", timeout=2)


def test_consecutive_transport_failures_mark_a_service_down_for_all_threads():
    from citekit.sources.base import SourceUnavailable
    from citekit.sources.http import HttpClient, Retry, RetryableError

    sleeps: list[float] = []
    client = HttpClient(sleep=sleeps.append, retries=4)
    attempts = []

    def refused():
        attempts.append(1)
        raise RetryableError(Retry("connection refused", unreachable=True))

    with pytest.raises(SourceUnavailable):
        client.call("arxiv", refused)
    assert len(attempts) == 3  # not retries+1 = 5: a refusing host is down after 3 in a row
    with pytest.raises(SourceUnavailable):
        client.call("arxiv", refused)  # every other paper is spared the attempts
    assert len(attempts) == 3
    assert client.call("dblp", lambda: "ok") == "ok"  # other services are unaffected
