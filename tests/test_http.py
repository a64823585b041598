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


# ------------------------------------------------------------------------------ real limits


def test_guest_budget_is_a_bucket_whose_tokens_return_after_a_minute():
    ft = FakeTime()
    client = make_client(ft, policies={"openreview": HostPolicy(min_interval=0.0, concurrency=1, per_minute=20)})
    starts = []
    with responses.RequestsMock() as rsps:
        rsps.get(URL, json={"notes": []})
        for _ in range(45):
            client.request("openreview", "GET", URL)
            starts.append(ft.now)
    # never more than 20 request starts in any 60-second window, and no waiting before the 21st
    assert all(b - a >= 60.0 for a, b in zip(starts, starts[20:]))
    assert starts[19] == starts[0] and starts[20] > starts[0] + 60.0
    assert ft.now - starts[0] < 2 * 60 + 5  # 45 requests take just over two minutes, not more


def test_arxiv_spacing_counts_from_the_end_of_the_previous_answer():
    ft = FakeTime()
    client = make_client(ft, policies={"arxiv": HostPolicy(min_interval=3.0, concurrency=1, after_answer=True)})
    ends, starts = [], []

    def slow_answer(request):
        starts.append(ft.now)
        ft.now += 2.5  # the answer itself takes 2.5 s
        ends.append(ft.now)
        return 200, {}, "<feed xmlns='http://www.w3.org/2005/Atom'/>"

    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.GET, URL, callback=slow_answer)
        for _ in range(3):
            client.request("arxiv", "GET", URL, expect="xml")
    assert [b - a for a, b in zip(ends, starts[1:])] == [3.0, 3.0]


@responses.activate
def test_openreview_429_without_retry_after_waits_what_its_message_says_once():
    ft = FakeTime()
    body = {"name": "RateLimitError", "message": "Too many requests: You have made 21 requests, surpassing the "
            "limit of 20 requests. Please try again in 39 seconds (2026-07-08-0000039)", "status": 429,
            "details": {"limit": 20, "remaining": 0, "used": 21}}
    responses.get(URL, status=429, json=body)
    responses.get(URL, status=429, json=body)
    responses.get(URL, json={"ok": True})
    client = make_client(ft, retries=4)
    with pytest.raises(SourceError, match="refused again after waiting 39 s"):
        client.request("openreview", "GET", URL)
    assert ft.sleeps == [39.0]  # once, what it asked; not a blind backoff loop
    assert client.stats.requests["openreview"] == 2


@responses.activate
def test_a_single_429_with_a_stated_wait_then_succeeds():
    ft = FakeTime()
    responses.get(URL, status=429, json={"name": "RateLimitError", "message": "Please try again in 1 minute and "
                                         "5 seconds (x)", "status": 429, "details": {}})
    responses.get(URL, json={"ok": True})
    client = make_client(ft)
    assert client.request("openreview", "GET", URL).json() == {"ok": True}
    assert ft.sleeps == [65.0]


# ------------------------------------------------------------------------------ hostile networks


@pytest.mark.parametrize("body, content_type, expect", [
    ('{"notes": [{"id": "abc"', "application/json", "json"),  # truncated
    ("<!DOCTYPE html><html><body>maintenance</body></html>", "application/json", "json"),  # junk labelled JSON
    ("<feed xmlns='http://www.w3.org/2005/Atom'><entry>", "application/atom+xml", "xml"),
    ("<html><body>Too many requests</body></html>", "text/html", "bibtex"),
])
def test_malformed_answers_are_retried_then_mark_the_service_down(body, content_type, expect):
    ft = FakeTime()
    client = make_client(ft, retries=4)
    with responses.RequestsMock() as rsps:
        rsps.get(URL, body=body, content_type=content_type)
        with pytest.raises(SourceUnavailable, match="not (complete|a complete)"):
            client.request("svc", "GET", URL, expect=expect)
        assert len(rsps.calls) == 3  # counted like refused connections: down after three in a row
        with pytest.raises(SourceUnavailable):
            client.request("svc", "GET", URL, expect=expect)
        assert len(rsps.calls) == 3  # nothing more is sent to a service marked down


@responses.activate
def test_a_redirect_to_another_origin_is_not_followed_and_marks_the_service_down():
    responses.get(URL, status=302, headers={"Location": "https://portal.example.net/login"})
    client = make_client(FakeTime())
    with pytest.raises(SourceUnavailable, match="redirected to another site .https://portal.example.net"):
        client.request("svc", "GET", URL)
    assert len(responses.calls) == 1


@responses.activate
def test_a_redirect_within_the_origin_is_followed():
    responses.get(URL, status=301, headers={"Location": "/thing/v2"})
    responses.get("https://api.example.test/thing/v2", json={"moved": True})
    client = make_client(FakeTime())
    assert client.request("svc", "GET", URL, expect="json").json() == {"moved": True}


def test_a_dripping_server_is_cut_off_by_the_request_deadline(dripping_server):
    server = dripping_server(interval=0.2)  # the whole answer would take 46 s
    client = HttpClient(retries=0, timeout=1.5)
    with pytest.raises(SourceUnavailable, match="no complete answer within 1.5 s"):
        client.request("svc", "GET", server.url + "/slow")
    # the client gave up while the answer was still coming, instead of waiting it out
    assert 0 < server.sent < len(server.body), (server.sent, len(server.body))


def test_the_sync_deadline_stops_all_further_requests():
    ft = FakeTime()
    client = make_client(ft, deadline=10.0, policies={"arxiv": HostPolicy(min_interval=3.0, concurrency=1)})
    with responses.RequestsMock() as rsps:
        rsps.get(URL, body="<feed xmlns='http://www.w3.org/2005/Atom'/>")
        with pytest.raises(SourceUnavailable) as info:
            for _ in range(10):
                client.request("arxiv", "GET", URL)
        assert info.value.deadline and "sources.deadline" in info.value.message
        sent = len(rsps.calls)
        assert 3 <= sent <= 5
        with pytest.raises(SourceUnavailable):
            client.request("crossref", "GET", URL)
        assert len(rsps.calls) == sent


class _DrippingServer:
    """Sends a complete header, then the body one byte every ``interval`` seconds."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    #: the answer dripped out; ``sent`` counts its bytes sent so far
    body = b'{"notes": [], "count": 0, "padding": "' + b"x" * 200 + b'"}'
    sent = 0

    def _drip(self, conn: socket.socket) -> None:
        body = self.body
        try:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n")
            for i in range(len(body)):
                if self.stop.wait(self.interval):
                    break
                conn.sendall(body[i:i + 1])
                self.sent += 1
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


@pytest.fixture
def dripping_server():
    servers: list[_DrippingServer] = []

    def make(interval: float = 5.0) -> _DrippingServer:
        servers.append(_DrippingServer(interval))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def test_two_services_whose_names_do_not_resolve_mean_no_network():
    """One name that does not resolve may be a mistyped address (or a web page's dead site):
    the others are still asked. A second service's means no network: nothing more is sent,
    and none of it is retried (Crossref's client reports the failure in its own words)."""
    from citekit.sources.http import HttpClient, Retry, RetryableError

    client = HttpClient(sleep=lambda s: None, retries=4)
    sent: list[str] = []

    def no_dns(name: str):
        def attempt():
            sent.append(name)
            raise RetryableError(Retry("connection failed: no network (the host name does not resolve)",
                                       unreachable=True))
        return attempt

    with pytest.raises(SourceUnavailable):
        client.call("web", no_dns("web"), scope="gone.example")  # a page's site: not the network
    with pytest.raises(SourceUnavailable):
        client.call("crossref", no_dns("crossref"))
    assert sent == ["web", "crossref"]  # once each: retrying cannot bring DNS back
    assert client.call("dblp", lambda: "ok") == "ok" and not client.no_network
    with pytest.raises(SourceUnavailable):
        client.call("openreview", no_dns("openreview"))
    with pytest.raises(SourceUnavailable, match="no network"):
        client.call("arxiv", no_dns("arxiv"))
    assert sent == ["web", "crossref", "openreview"] and "crossref and openreview" in client.no_network


def test_a_request_queued_for_a_short_polite_slot_gives_up_as_soon_as_its_service_is_down():
    """Without network, threads queued behind a service's half-second interval used to wait
    their whole slot although the service had been found down meanwhile: a third of what a
    plain sync cost. They look every tenth of a second now (a fake clock: nothing waits)."""
    from citekit.sources.http import HttpClient, Retry, RetryableError

    now = [0.0]
    slept: list[float] = []
    client: HttpClient

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds
        client.mark_down("openreview", "connection failed: no network")  # another thread found it down

    client = HttpClient(sleep=sleep, clock=lambda: now[0], retries=0,
                        policies={"openreview": HostPolicy(min_interval=0.4)})

    def no_dns():
        raise RetryableError(Retry("connection failed: no network (the host name does not resolve)", unreachable=True))

    with pytest.raises(SourceUnavailable):
        client.call("crossref", no_dns)  # a name that did not resolve: the run may have no network
    assert client.call("openreview", lambda: "ok") == "ok"  # takes the slot; the next is 0.4 s on
    with pytest.raises(SourceUnavailable):
        client.call("openreview", lambda: "ok")
    assert sum(slept) <= 0.1 + 1e-9, slept
