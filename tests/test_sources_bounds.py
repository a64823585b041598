"""What a service sends is bounded and made safe before it reaches a file.

* an answer larger than its service's cap is cut at the cap with one message naming the
  service, the cap and the setting that raises it (however long it streams, and however
  small it is before it inflates);
* a lone surrogate in a service's JSON (``"\\ud800"``, valid JSON) becomes U+FFFD, so the
  cache, the library and the sidecar can always be written;
* an answer to an identifier the notes link, that describes another paper, is asked
  again on the next sync instead of standing for the paper until ``--refresh``.
"""

from __future__ import annotations

import json
import socket
import zlib
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.cli import main
from citekit.sources import HostPolicy, HttpClient, LookupCache, SourceError

from .conftest import LoopbackServer

MB = 1024 * 1024


# ---- a server that floods ----------------------------------------------------------------

class FloodServer(LoopbackServer):
    """Answers one request with ``body_size`` bytes of a JSON array, sent in 64 KB pieces
    until the client stops reading, and counts what it managed to send."""

    url_path = "/search"

    def __init__(self, body_size: int, *, declare: bool, gzip_bomb: bool = False) -> None:
        self.body_size = body_size
        self.declare = declare
        self.gzip_bomb = gzip_bomb
        self.sent = 0
        super().__init__()

    def answer(self, conn: socket.socket) -> None:
        conn.settimeout(None)  # the client reads at its own pace until the cap
        head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
        if self.gzip_bomb:
            body = _gzip_of_spaces(self.body_size)
            conn.sendall((head + f"Content-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n").encode())
            conn.sendall(body)
            self.sent += len(body)
            return
        if self.declare:
            head += f"Content-Length: {self.body_size}\r\n"
        conn.sendall((head + "\r\n").encode())
        piece = b"[" + b" " * (64 * 1024 - 1)
        while self.sent < self.body_size and not self._stop.is_set():
            conn.sendall(piece)
            self.sent += len(piece)
            piece = b" " * len(piece)

    def close(self, wait: float = 5) -> None:
        super().close(wait)


def _gzip_of_spaces(size: int) -> bytes:
    """``size`` bytes of a JSON array of spaces, gzipped: a few hundred KB per hundred MB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    out = [packer.compress(b"[")]
    block = b" " * MB
    for _ in range(size // MB):
        out.append(packer.compress(block))
    out.append(packer.flush())
    return b"".join(out)


@pytest.fixture
def flood():
    servers: list[FloodServer] = []

    def make(body_size: int, **kwargs) -> FloodServer:
        server = FloodServer(body_size, **kwargs)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()


def _client(cap: int) -> HttpClient:
    return HttpClient(policies={"dblp": HostPolicy(max_bytes=cap)}, retries=2, timeout=30.0,
                      sleep=lambda seconds: None)


@pytest.mark.parametrize("declare", [False, True], ids=["streamed", "content-length"])
def test_an_answer_over_the_cap_is_cut_at_the_cap_with_one_message(flood, declare):
    server = flood(1024 * MB, declare=declare)  # 1 GB, far more than the 1 MB cap
    client = _client(1 * MB)
    with pytest.raises(SourceError) as caught:
        client.request("dblp", "GET", server.url, expect="json")
    assert server.done.wait(10)
    message = str(caught.value)
    assert "larger than 1 MB" in message and "sources.dblp.max_mb" in message, message
    # the read stopped at the cap: what was sent is the cap plus what the sockets buffer
    assert server.sent < 64 * MB, server.sent
    assert server.connections == 1, "an answer over the cap is not asked for again"
    assert client.stats.requests["dblp"] == 1


def test_every_service_has_a_cap_without_any_setting(flood):
    server = flood(96 * MB, declare=False)
    client = HttpClient(retries=2, timeout=30.0, sleep=lambda seconds: None)  # no policy given
    with pytest.raises(SourceError) as caught:
        client.request("anything", "GET", server.url, expect="json")
    assert server.done.wait(10)
    assert "larger than 16 MB" in str(caught.value), caught.value
    assert server.sent < 48 * MB and server.connections == 1, (server.sent, server.connections)


def test_a_gzip_bomb_is_cut_at_the_cap_once_inflated(flood, monkeypatch):
    server = flood(256 * MB, declare=True, gzip_bomb=True)  # ~250 KB on the wire
    inflated = []
    real = requests.Response.iter_content

    def counting(self, *args, **kwargs):
        for chunk in real(self, *args, **kwargs):
            inflated.append(len(chunk))
            yield chunk

    monkeypatch.setattr(requests.Response, "iter_content", counting)
    with pytest.raises(SourceError) as caught:
        _client(1 * MB).request("dblp", "GET", server.url, expect="json")
    assert "larger than 1 MB" in str(caught.value)
    assert inflated and sum(inflated) <= 1 * MB + 64 * 1024, sum(inflated)  # read through iter_content, and cut


def test_answers_within_the_cap_are_read_whole(flood):
    server = flood(512 * 1024, declare=True)
    resp = _client(1 * MB).request("dblp", "GET", server.url)
    assert len(resp.content) == server.body_size and resp.text.startswith("[")


def test_crossref_answers_are_read_through_the_same_cap(httpserver, tmp_path):
    from citekit.core.model import Location
    from citekit.core.resolution import Mention
    from citekit.sources.crossref import CrossrefSource
    from citekit.sources.settings import SourceSettings

    huge = json.dumps({"status": "ok", "message": {"items": [{"DOI": "10.1/x", "title": ["x" * (2 * MB)]}]}})
    httpserver.expect_request("/works").respond_with_data(huge, content_type="application/json")
    settings = SourceSettings(urls={"crossref": httpserver.url_for("")}, cache_dir=tmp_path, timeout=5)
    client = HttpClient(retries=2, sleep=lambda seconds: None, policies={"crossref": HostPolicy(max_bytes=1 * MB)})
    source = CrossrefSource(client, LookupCache(settings.cache_path), settings)
    with pytest.raises(SourceError) as caught:
        source.search(Mention(kind="titled", location=Location("notes/a.md", 1), title="Some Paper Title Here",
                              authors=["Ann Author"]))
    assert "larger than 1 MB" in str(caught.value) and "sources.crossref.max_mb" in str(caught.value)
    assert len(httpserver.log) == 1  # not asked again


# ---- end to end: a small project whose only source is a loopback dblp ----------------------

TITLE = "Whose Opinions Do Language Models Reflect?"
AUTHORS = ["Shibani Santurkar", "Esin Durmus", "Faisal Ladhak", "Cinoo Lee", "Percy Liang", "Tatsunori Hashimoto"]
KEY = "conf/icml/SanturkarDLLLH23"


def _hit(title: str) -> dict:
    return {"@score": "12", "@id": "2370129",
            "info": {"authors": {"author": [{"@pid": str(i), "text": a} for i, a in enumerate(AUTHORS)]},
                     "title": title, "venue": "ICML", "pages": "29971-30004", "year": "2023",
                     "type": "Conference and Workshop Papers", "access": "open", "key": KEY,
                     "url": f"https://dblp.org/rec/{KEY}"}}


def _search(*hits: dict) -> str:
    return json.dumps({"result": {"query": "q", "status": {"@code": "200", "text": "OK"},
                                  "hits": {"@total": str(len(hits)), "@sent": str(len(hits)), "@first": "0",
                                           **({"hit": list(hits)} if hits else {})}}})


def _record(title: str, authors: list[str]) -> str:
    return (f"@inproceedings{{DBLP:{KEY},\n  author = {{{' and '.join(authors)}}},\n  title = {{{title}}},\n"
            f"  booktitle = {{International Conference on Machine Learning, {{ICML}} 2023}},\n"
            f"  year = {{2023}},\n  url = {{https://proceedings.mlr.press/v202/santurkar23a.html}}\n}}\n")


def _project(tmp_path: Path, monkeypatch, url: str, *, link: bool = False, extra: str = "") -> Path:
    for name in ("CITEKIT_DBLP_URL", "CITEKIT_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text(
        f"sources:\n  enabled: [dblp]\n  retries: 1\n  dblp:\n    url: {url}\n{extra}", encoding="utf-8")
    line = f"- {TITLE}\n  - Authors: {', '.join(AUTHORS)}\n"
    if link:
        line += f"  - https://dblp.org/rec/{KEY}\n"
    (root / "notes" / "icml.md").write_text("# ICML 2023\n\n" + line, encoding="utf-8")
    return root


def _sync(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), "sync", *args])


def _requests(httpserver, path: str) -> int:
    return sum(1 for request, _ in httpserver.log if request.path.startswith(path))


def test_a_sync_with_an_answer_over_the_cap_says_so_once_and_goes_on(httpserver, tmp_path, monkeypatch):
    flood = _search({"@score": "1", "@id": "0", "info": {"title": "x" * (2 * MB), "key": "conf/x/Y"}})

    def search(request):  # one paper's search floods, the other's answers as dblp does
        from werkzeug import Response

        body = _search(_hit(TITLE)) if "Opinions" in request.args.get("q", "") else flood
        return Response(body, content_type="application/json")

    httpserver.expect_request("/search/publ/api").respond_with_handler(search)
    root = _project(tmp_path, monkeypatch, httpserver.url_for("/"), extra="    max_mb: 1\n")
    with (root / "notes" / "icml.md").open("a", encoding="utf-8") as notes:
        notes.write("- Sparse Tangent Kernels Explain Nothing\n  - Authors: Una Nadie, Otra Persona\n")
    result = _sync(root)
    assert result.exit_code == 0, result.output
    lines = [l for l in result.output.splitlines() if "larger than 1 MB" in l]
    assert len(lines) == 1, result.output
    assert "sources.dblp.max_mb" in lines[0] and "dblp" in lines[0].split(":")[1], lines[0]
    assert "Traceback" not in result.output
    assert "resolved       1" in result.output and "notes-only     1" in result.output


def test_a_lone_surrogate_from_a_service_is_replaced_and_every_sync_succeeds(httpserver, tmp_path, monkeypatch):
    # "\ud800" is valid JSON; decoded it is a character UTF-8 cannot encode
    body = _search(_hit("Whose Opinions Do Language Models Reflect?")).replace("Reflect?", "Reflect\\ud800?")
    assert "\\ud800" in body
    httpserver.expect_request("/search/publ/api").respond_with_data(body, content_type="application/json")
    root = _project(tmp_path, monkeypatch, httpserver.url_for("/"))
    for _ in range(2):  # the second sync reads the answer back from the cache
        result = _sync(root)
        assert result.exit_code == 0, result.output
        for name in ("library.bib", "library.yaml"):
            text = (root / "refs" / name).read_bytes().decode("utf-8")  # valid UTF-8
            assert "Reflect\ufffd?" in text, text
    assert _requests(httpserver, "/search") == 1  # the second sync asked nothing


def test_an_answer_describing_another_paper_is_asked_again_on_the_next_sync(httpserver, tmp_path, monkeypatch):
    httpserver.expect_request("/search/publ/api").respond_with_data(_search(), content_type="application/json")
    wrong = _record("Sparse Tangent Kernels Explain Nothing", ["Una Nadie", "Otra Persona"])
    httpserver.expect_oneshot_request(f"/rec/{KEY}.bib").respond_with_data(wrong, content_type="text/plain")
    right = _record(TITLE, AUTHORS)
    httpserver.expect_request(f"/rec/{KEY}.bib").respond_with_data(right, content_type="text/plain")
    root = _project(tmp_path, monkeypatch, httpserver.url_for("/"), link=True)

    first = _sync(root, "--json")
    assert first.exit_code == 1, first.output  # the user is told: the link names another paper
    report = json.loads(first.output)
    assert report["counts"]["resolved"] == 0  # the linked record is another paper
    (problem,) = report["problems"]
    assert "'Sparse Tangent Kernels Explain Nothing', another paper than" in problem and "check the identifier" in problem

    second = _sync(root, "--json")  # the service answers right now: asked again, resolved
    assert second.exit_code == 0, second.output
    assert _requests(httpserver, "/rec/") == 2
    assert json.loads(second.output)["counts"]["resolved"] == 1

    third = _sync(root, "--json")  # resolved: a further sync asks nothing
    assert third.exit_code == 0, third.output
    assert _requests(httpserver, "/rec/") == 2
    assert json.loads(third.output)["requests"] == 0


# ---- any text a service sends can be stored ------------------------------------------------

#: every code point, lone surrogates included (hypothesis leaves them out by default)
_ANY_CHAR = st.characters(exclude_categories=())
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(_ANY_CHAR, max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(_ANY_CHAR, max_size=6), inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(payload=_JSON, query=st.text(_ANY_CHAR, max_size=12))
def test_any_answer_is_stored_read_back_and_encodable(payload, query):
    cache = LookupCache(None)
    stored = cache.put("svc", "search", {"q": query}, payload)
    hit = cache.get("svc", "search", {"q": query})
    assert hit is not None and hit.payload == stored
    json.dumps(stored, ensure_ascii=False).encode("utf-8")  # nothing UTF-8 cannot hold
    text = json.dumps(payload, ensure_ascii=False)
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert stored == payload  # text that was fine is kept exactly


def test_a_pinned_record_that_is_plainly_another_paper_is_kept_with_a_warning_and_asked_again(
        httpserver, tmp_path, monkeypatch):
    """A pin wins (the user decided), but a pinned record whose title and authors both differ
    from the notes' is said so, and is not trusted for months: the next sync asks again."""
    wrong = _record("Sparse Tangent Kernels Explain Nothing", ["Una Nadie", "Otra Persona"])
    httpserver.expect_oneshot_request(f"/rec/{KEY}.bib").respond_with_data(wrong, content_type="text/plain")
    httpserver.expect_request(f"/rec/{KEY}.bib").respond_with_data(_record(TITLE, AUTHORS), content_type="text/plain")
    root = _project(tmp_path, monkeypatch, httpserver.url_for("/"))
    with (root / "notes" / "icml.md").open("a", encoding="utf-8") as notes:
        notes.write(f"  - dblp: {KEY}\n")

    first = _sync(root)
    assert first.exit_code == 1, first.output  # a finding: the pin contradicts the notes
    assert "the pinned dblp:" in first.output and "check the identifier" in first.output, first.output
    assert "Sparse Tangent Kernels" in (root / "refs" / "library.bib").read_text(encoding="utf-8")  # pin kept

    second = _sync(root)  # asked again; the service's record is the notes' paper now
    assert second.exit_code == 0, second.output
    assert _requests(httpserver, "/rec/") == 2
    assert "Whose Opinions" in (root / "refs" / "library.bib").read_text(encoding="utf-8")

    third = _sync(root, "--json")  # agrees: a further sync asks nothing
    assert _requests(httpserver, "/rec/") == 2 and json.loads(third.output)["requests"] == 0


def test_a_pin_under_a_short_name_without_authors_is_not_called_another_paper(httpserver, tmp_path, monkeypatch):
    """"Switch Transformers" against the record's full title scores no title agreement; with
    no authors in the notes there is nothing to say, and the answer stays cached."""
    httpserver.expect_request(f"/rec/{KEY}.bib").respond_with_data(_record(TITLE, AUTHORS), content_type="text/plain")
    root = _project(tmp_path, monkeypatch, httpserver.url_for("/"))
    (root / "notes" / "icml.md").write_text(f"# ICML 2023\n\n- Whose Opinions\n  - dblp: {KEY}\n", encoding="utf-8")
    first = _sync(root)
    assert first.exit_code == 0 and "check the identifier" not in first.output, first.output
    _sync(root)
    assert _requests(httpserver, "/rec/") == 1
