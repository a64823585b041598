"""Test-wide guard: no test may reach the real internet.

Every socket connection to a non-loopback address fails loudly, so a test that forgot to
mock a service cannot pass by quietly asking the real one (or fail only on a laptop that
happens to be offline). Loopback servers (pytest-httpserver) keep working.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import threading
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["tests.fakeservices.plugin"]

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


class InternetAccessBlocked(RuntimeError):
    """Raised instead of opening a connection that would leave this machine."""


def _is_loopback_host(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode()
    host = str(host).strip("[]")
    if host in ("localhost", "localhost.localdomain", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _check_address(sock: socket.socket, address: Any) -> None:
    if sock.family == getattr(socket, "AF_UNIX", None):
        return
    host = address[0] if isinstance(address, tuple) else address
    if not _is_loopback_host(host):
        raise InternetAccessBlocked(f"tests must not reach the internet (tried {address!r}); "
                                    "mock the service with responses or a loopback pytest-httpserver")


def _guarded_connect(self: socket.socket, address: Any) -> None:
    _check_address(self, address)
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    _check_address(self, address)
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if not _is_loopback_host(host):
        raise InternetAccessBlocked(f"tests must not resolve {host!r}; use 127.0.0.1 or a mock")
    return _real_getaddrinfo(host, *args, **kwargs)


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", _guarded_getaddrinfo)


@pytest.fixture(autouse=True, scope="session")
def _private_state_home(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The key that seals journals naming files outside refs/ (rekey's sources) lives in
    $XDG_STATE_HOME: the tests keep theirs apart from the account's own."""
    import os

    saved = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state-home"))
    yield
    if saved is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = saved


# -- shared fixtures for the source tests ----------------------------------------------

API_FIXTURES = Path(__file__).parent / "fixtures" / "api"


@pytest.fixture
def api_fixture():
    """Text of a recorded-shape response body under ``tests/fixtures/api``."""

    def load(name: str) -> str:
        return (API_FIXTURES / name).read_text(encoding="utf-8")

    return load


class LoopbackServer:
    """A raw loopback TCP server on its own thread: one connection at a time, whose request
    is read and then answered by :meth:`answer`. For answers ``pytest-httpserver`` cannot
    give: a reset connection, a body streamed without end."""

    url_path = ""

    def __init__(self) -> None:
        self.connections = 0
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}{self.url_path}"
        self._stop = threading.Event()
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (socket.timeout, OSError):
                continue
            self.connections += 1
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                except OSError:
                    pass
                try:
                    self.answer(conn)
                except OSError:  # the client stopped reading and closed
                    pass
            self.done.set()

    def answer(self, conn: socket.socket) -> None:
        raise NotImplementedError

    def close(self, wait: float = 2) -> None:
        self._stop.set()
        self._thread.join(timeout=wait)
        self._sock.close()


class ResettingServer(LoopbackServer):
    """Resets the first ``resets`` connections, then answers 200.

    Stands in for a service whose connection drops mid-request (no HTTP answer at all).
    """

    def __init__(self, resets: int, body: bytes = b"{}", content_type: str = "application/json") -> None:
        self.resets = resets
        self.body = body
        self.content_type = content_type
        super().__init__()

    def answer(self, conn: socket.socket) -> None:
        if self.connections <= self.resets:
            # SO_LINGER 0: close() sends RST instead of FIN, "connection reset by peer"
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: {self.content_type}\r\n"
                f"Content-Length: {len(self.body)}\r\nConnection: close\r\n\r\n").encode()
        conn.sendall(head + self.body)


@pytest.fixture
def resetting_server():
    servers: list[ResettingServer] = []

    def make(resets: int, body: bytes = b"{}", content_type: str = "application/json") -> ResettingServer:
        server = ResettingServer(resets, body, content_type)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()
