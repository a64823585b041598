"""A loopback fake of OpenReview, Crossref, dblp, arXiv, the conferences' paper lists and
the web pages notes link (project pages) for tests and benchmarks, answering in the shapes recorded in ``tests/fixtures/api/``.

Usage in a test (the fixture also sets ``CITEKIT_*_URL`` for the duration of the test)::

    def test_sync(fake_services):
        fake_services.latency = 0.1                  # seconds added to every request
        fake_services.sleep = waits.append           # ... recorded instead of slept
        fake_services.real_limits()                  # OpenReview 20/min for guests, no Retry-After
        fake_services.fail("crossref", "429", times=2)
        fake_services.fail("dblp", "drip")           # one byte every 5 s, never finishing
        fake_services.down("dblp")                   # connections are refused
        ...
        assert fake_services.requests("openreview") == 3
        assert fake_services.counts("openreview")["GET /notes/search"] == 2
        assert min(fake_services.arxiv_gaps()) >= 3.0
        assert all(sent < size for sent, size in fake_services.drips("dblp"))  # cut off, not waited out

Register it for a whole test suite with ``pytest_plugins = ["tests.fakeservices.plugin"]`` in
``tests/conftest.py``, or import the fixture into a test module.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator

import pytest

from .server import MODES, PREFIX, SERVICES, Failure, ServiceState, make_handler
from .world import DATA, World

from http.server import ThreadingHTTPServer

ENV = {"openreview": "CITEKIT_OPENREVIEW_URL", "crossref": "CITEKIT_CROSSREF_URL",
       "dblp": "CITEKIT_DBLP_URL", "arxiv": "CITEKIT_ARXIV_URL", "web": "CITEKIT_WEB_URL"}
#: conference sites served by the ``conferences`` server, each under its own path
SITES = ("icml", "neurips", "iclr", "mlsys")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class FakeServices:
    """Four loopback servers over one small world of records (``data/*.json``)."""

    def __init__(self, data_dir: Path = DATA, *, latency: float = 0.0) -> None:
        self.world = World.load(data_dir)
        self.latency = latency
        #: how a request's ``latency`` is spent (a test may record the waits instead of sitting through them)
        self.sleep: Callable[[float], None] = time.sleep
        self._state = {s: ServiceState() for s in SERVICES}
        self._servers: dict[str, _Server] = {}
        self._ports: dict[str, int] = {}
        #: the ports of services that are :meth:`down`, kept bound (not listening) meanwhile
        self._held: dict[str, socket.socket] = {}

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> "FakeServices":
        for service in SERVICES:
            self._serve(service, 0)
        return self

    def _serve(self, service: str, port: int) -> None:
        handler = make_handler(service, self.world, self._state[service], lambda: self.latency,
                               lambda seconds: self.sleep(seconds))
        server = _Server(("127.0.0.1", port), handler)
        self._servers[service] = server
        self._ports[service] = server.server_address[1]
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name=f"fake-{service}",
                         daemon=True).start()

    def stop(self) -> None:
        for state in self._state.values():
            state.stopping.set()
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        self._servers.clear()
        for held in self._held.values():
            held.close()
        self._held.clear()

    def __enter__(self) -> "FakeServices":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses --------------------------------------------------------------------
    def url_for(self, service: str) -> str:
        """The API root to configure, e.g. ``http://127.0.0.1:PORT/openreview``, or a
        conference site's root (``icml`` -> ``http://127.0.0.1:PORT/icml``)."""
        if service in SITES:
            return f"http://127.0.0.1:{self._ports['conferences']}/{service}"
        if service not in self._ports:
            raise KeyError(f"unknown service {service!r}; choose from {', '.join(SERVICES)}")
        return f"http://127.0.0.1:{self._ports[service]}{PREFIX[service]}"

    def env(self) -> dict[str, str]:
        """``CITEKIT_*_URL`` variables pointing every source (and site) at this fake."""
        out = {ENV[s]: self.url_for(s) for s in SERVICES if s in ENV}
        out.update({f"CITEKIT_{site.upper()}_URL": self.url_for(site) for site in SITES})
        return out

    # -- the services' real limits ----------------------------------------------------------
    def real_limits(self, openreview_per_minute: int = 20) -> None:
        """OpenReview refuses a guest's request over ``openreview_per_minute`` in any minute."""
        self._state["openreview"].per_minute = openreview_per_minute

    def arxiv_gaps(self) -> list[float]:
        """Seconds between the end of each arXiv answer and the arrival of the next request."""
        with self._state["arxiv"].lock:
            return list(self._state["arxiv"].gaps)

    def drips(self, service: str) -> list[tuple[int, int]]:
        """Each dripped answer of ``service`` as (bytes sent so far, bytes in the whole answer)."""
        with self._state[service].lock:
            return [(sent, size) for sent, size in self._state[service].drips]

    def refused(self, service: str = "openreview") -> int:
        """Requests refused for being over the per-minute limit."""
        return self._state[service].refused

    def page_size(self, size: int | None) -> None:
        """Serve conference lists in pages of ``size`` results, linked by ``next``."""
        self._state["conferences"].page_size = size

    def not_modified(self) -> int:
        """Conditional requests for a conference list answered 304."""
        return self._state["conferences"].not_modified

    def web_page(self, url: str, body: str | bytes, *, status: int = 200,
                 content_type: str = "text/html; charset=utf-8") -> None:
        """Serve ``body`` as the page ``url`` (``https://host/path``) from the ``web`` fake."""
        from .pages import page_key

        data = body.encode("utf-8") if isinstance(body, str) else body
        self.world.pages[page_key(url)] = (status, content_type, data)

    def web_redirect(self, url: str, location: str, *, status: int = 301) -> None:
        """Make the page ``url`` answer ``status`` with ``Location: location`` (sent as given:
        an absolute ``https://host/path`` as real sites send, or a relative path)."""
        from .pages import page_key

        self.world.pages[page_key(url)] = (status, "", location.encode("utf-8"))

    # -- toggles ----------------------------------------------------------------------
    def fail(self, service: str, mode: str, *, times: int | None = None, retry_after: str | None = "0",
             paths: tuple[str, ...] | None = None, drip_interval: float = 5.0) -> None:
        """Answer ``service`` with a failure: ``429`` (with Retry-After), ``403`` (OpenReview:
        ChallengeRequiredError), ``500``, ``reset`` (connection reset), ``drip`` (the real
        answer, one byte every ``drip_interval`` s), ``junk`` (an HTML page labelled JSON),
        ``truncated`` (the first half of the real answer), ``redirect`` (to another origin)
        or ``redirect-same`` (to the same URL on the same origin), ``times`` times or until
        :meth:`clear`; ``paths`` limits it to some API paths (e.g. ``("/notes",)``)."""
        if mode not in MODES:
            raise ValueError(f"unknown failure mode {mode!r}; use one of {', '.join(MODES)}")
        self._state[service].failure = Failure(mode, times, retry_after, paths, drip_interval)

    def down(self, service: str) -> None:
        """Stop ``service``: connections to it are refused until :meth:`up`.

        Its port stays taken meanwhile (bound, not listening: the kernel refuses every
        connection to it). Freed, the port went back to the machine's pool, where any
        server started meanwhile (another test run on the machine, a test's own server)
        could take it and answer in the place of the "down" service, which then was
        not down at all: a test of "connection refused" passed or failed by chance.
        """
        server = self._servers.pop(service, None)
        if server is not None:
            server.shutdown()
            server.server_close()
            held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            # connections the server accepted before may still hold the port (keep-alive)
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                held.bind(("127.0.0.1", self._ports[service]))
            except OSError:
                held.close()
            else:
                self._held[service] = held

    def up(self, service: str) -> None:
        held = self._held.pop(service, None)
        if held is not None:
            held.close()
        if service not in self._servers:
            self._serve(service, self._ports[service])

    def clear(self) -> None:
        """Forget failures and request counts (latency stays)."""
        for service, state in self._state.items():
            state.stopping.set()  # a dripping answer of the last test ends
            with state.lock:
                state.failure = None
                state.counts.clear()
                state.window.clear()
                state.gaps.clear()
                state.answered_at = None
                state.refused = 0
                state.not_modified = 0
                state.drips.clear()
                state.log.clear()
            state.stopping = threading.Event()
            self.up(service)

    # -- counting ---------------------------------------------------------------------
    def counts(self, service: str) -> Counter[str]:
        """Requests received per ``METHOD path``."""
        with self._state[service].lock:
            return Counter(self._state[service].counts)

    def log(self, service: str) -> list[tuple[float, str, dict[str, str]]]:
        """Requests of one service in arrival order: (``time.monotonic()`` at arrival,
        ``METHOD path``, query parameters)."""
        with self._state[service].lock:
            return list(self._state[service].log)

    def requests(self, service: str | None = None) -> int:
        """Requests received by one service, or by all of them."""
        names = [service] if service else list(SERVICES)
        return sum(sum(self.counts(s).values()) for s in names)


@pytest.fixture
def fake_services(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServices]:
    """The four services on loopback ports, with ``CITEKIT_*_URL`` set to them."""
    with FakeServices() as fake:
        for name, value in fake.env().items():
            monkeypatch.setenv(name, value)
        yield fake


__all__ = ["FakeServices", "fake_services", "SERVICES"]
