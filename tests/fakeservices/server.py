"""Loopback HTTP servers that answer like OpenReview, Crossref, dblp, arXiv and the
conferences' virtual sites (ICML, NeurIPS, ICLR, MLSys paper lists).

Each service runs its own ``ThreadingHTTPServer`` on 127.0.0.1, so "service down" is a
real refused connection and per-service latency, failures and request counts stay apart.
The services' real limits can be switched on: OpenReview refuses a guest's 21st request
in a minute (429 ``RateLimitError`` without ``Retry-After``), and arXiv's gaps between the
end of one answer and the start of the next request are recorded.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import socket
import struct
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable
from urllib.parse import parse_qs, unquote, urlsplit

from . import templates
from .world import World, arxiv_entry, arxiv_error, arxiv_feed, conference_events, dblp_bibtex, note_text, words

SERVICES = ("openreview", "crossref", "dblp", "arxiv", "conferences", "web")
#: path prefix standing for each service's API root (the conference server holds every
#: site under its own first path segment: ``/icml/static/virtual/data/...``)
PREFIX = {"openreview": "/openreview", "crossref": "/crossref", "dblp": "/dblp", "arxiv": "/arxiv/api/query",
          "conferences": "", "web": "/web"}
#: failure modes a test can inject
MODES = ("429", "403", "500", "reset", "drip", "junk", "truncated", "redirect", "redirect-same")
_ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v(\d+))?$")


@dataclass
class Failure:
    """An injected failure: ``mode`` in 429/403/500/reset; ``times`` None = until cleared."""

    mode: str
    times: int | None = None
    retry_after: str | None = "0"
    paths: tuple[str, ...] | None = None  # only these paths (after the prefix), or "METHOD /path"
    drip_interval: float = 5.0  # ``drip``: seconds between the bytes of the answer

    def applies(self, path: str, method: str = "GET") -> bool:
        return self.paths is None or path in self.paths or f"{method} {path}" in self.paths


class Reply:
    def __init__(self, status: int, body: str | bytes = b"", content_type: str = "application/json",
                 headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.body = body.encode("utf-8") if isinstance(body, str) else body
        self.content_type = content_type
        self.headers = headers or {}


def _json(status: int, payload: Any, headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, json.dumps(payload, ensure_ascii=False), "application/json; charset=utf-8", headers)


class ServiceState:
    """Counters and toggles shared by one service's handler threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.failure: Failure | None = None
        #: guests' requests a minute before 429 (OpenReview: 20); None = no limit
        self.per_minute: int | None = None
        self.window: deque[float] = deque()
        self.refused = 0
        #: when the previous answer was completely sent, and the gaps before each next request
        self.answered_at: float | None = None
        self.gaps: list[float] = []
        #: conference lists: results per page (None: the whole list in one answer)
        self.page_size: int | None = None
        self.not_modified = 0
        #: set when the server stops or failures are cleared: dripping answers end
        self.stopping = threading.Event()
        #: each dripped answer as ``[bytes sent so far, bytes in the whole answer]``
        self.drips: list[list[int]] = []
        #: every request as ``(arrival on time.monotonic, "METHOD path", its query parameters)``
        self.log: list[tuple[float, str, dict[str, str]]] = []

    def over_limit(self, now: float) -> float | None:
        """Seconds until the oldest request leaves the window, when this one is over the limit."""
        with self.lock:
            if not self.per_minute:
                return None
            while self.window and now - self.window[0] >= 60.0:
                self.window.popleft()
            if len(self.window) >= self.per_minute:
                self.refused += 1
                return 60.0 - (now - self.window[0])
            self.window.append(now)
            return None

    def arrived(self, now: float) -> None:
        with self.lock:
            if self.answered_at is not None:
                self.gaps.append(now - self.answered_at)

    def take_failure(self, path: str, method: str = "GET") -> Failure | None:
        with self.lock:
            f = self.failure
            if f is None or not f.applies(path, method):
                return None
            if f.times is not None:
                f.times -= 1
                if f.times <= 0:
                    self.failure = None
            return f


def make_handler(service: str, world: World, state: ServiceState, latency: Callable[[], float],
                 sleep: Callable[[float], None] = time.sleep) -> type:
    """The request handler of one service; ``sleep`` adds the latency (a test may record it instead)."""
    answer = {"openreview": _openreview, "crossref": _crossref, "dblp": _dblp, "arxiv": _arxiv,
              "conferences": _conferences, "web": _web}[service]
    prefix = PREFIX[service]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def setup(self) -> None:
            super().setup()
            # headers and body go out in two writes: without this, Nagle's algorithm and the
            # client's delayed ACK add ~40 ms to every keep-alive request
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def _handle(self, method: str) -> None:
            arrived = time.monotonic()
            state.arrived(arrived)
            url = urlsplit(self.path)
            path = url.path[len(prefix):] if url.path.startswith(prefix) else url.path
            params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with state.lock:
                state.counts[f"{method} {path or '/'}"] += 1
                state.log.append((arrived, f"{method} {path or '/'}", params))
            delay = latency()
            if delay:
                sleep(delay)
            failure = state.take_failure(path or "/", method)
            if failure is not None and failure.mode == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            wait = None
            if service == "openreview" and not self.headers.get("Authorization"):
                wait = state.over_limit(arrived)
            if failure is not None and failure.mode in ("drip", "junk", "truncated", "redirect", "redirect-same"):
                reply = self._hostile(failure, world, method, path, params, body)
                if reply is None:
                    return
            elif failure is not None:
                reply = _failure(service, failure)
            elif wait is not None:
                reply = _rate_limited(state, wait)
            elif not url.path.startswith(prefix):
                reply = Reply(404, "not found", "text/plain")
            else:
                reply = answer(world, method, path, params, body, headers=self.headers, state=state)
            self._send(reply)

        def _send(self, reply: Reply) -> None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.end_headers()
            try:
                self.wfile.write(reply.body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client stopped reading (an answer over its cap)
                return
            with state.lock:
                state.answered_at = time.monotonic()

        def _hostile(self, failure: Failure, world: World, method: str, path: str, params: dict[str, str],
                     body: bytes) -> Reply | None:
            """The misbehaviours of real networks: answers that never end, junk, redirects."""
            if failure.mode == "redirect":  # another origin: a captive portal, a moved API
                return Reply(302, "", "text/html", {"Location": "http://localhost:9/login?next=" + path})
            if failure.mode == "redirect-same":
                sep = "&" if "?" in self.path else "?"
                return Reply(307, "", "text/html", {"Location": self.path + sep + "redirected=1"})
            if failure.mode == "junk":
                return Reply(200, "<!DOCTYPE html><html><body><h1>Service maintenance</h1></body></html>",
                             "application/json; charset=utf-8")
            real = answer(world, method, path, params, body, headers=self.headers, state=state)
            if failure.mode == "truncated":
                return Reply(200, real.body[: max(1, len(real.body) // 2)], real.content_type)
            # drip: headers at once, then one byte every few seconds, until the client gives up
            self.send_response(200)
            self.send_header("Content-Type", real.content_type)
            self.send_header("Content-Length", str(len(real.body)))
            self.end_headers()
            progress = [0, len(real.body)]
            with state.lock:
                state.drips.append(progress)
            try:
                for i in range(len(real.body)):
                    self.wfile.write(real.body[i:i + 1])
                    self.wfile.flush()
                    progress[0] += 1
                    if state.stopping.wait(failure.drip_interval):
                        break  # the test is over: stop dripping
            except OSError:
                pass  # the client hung up, as it should
            self.close_connection = True
            return None

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

    return Handler


def _rate_limited(state: ServiceState, wait: float) -> Reply:
    """OpenReview's refusal of a guest over budget: JSON body, no ``Retry-After`` header."""
    with state.lock:
        used = len(state.window) + 1
    limit = state.per_minute or 0
    seconds = max(1, math.ceil(wait))
    return _json(429, templates.openreview_rate_limit(
        f"Too many requests: You have made {used} requests, surpassing the limit of {limit} requests. "
        f"Please try again in {seconds} seconds (2026-07-08-{seconds:07d})", limit, used))


def _failure(service: str, f: Failure) -> Reply:
    headers = {"Retry-After": f.retry_after} if f.retry_after is not None else {}
    if f.mode == "429":
        if service == "openreview":
            return _json(429, templates.openreview_rate_limit(
                "Too many requests: You have made 37 requests, surpassing the limit of 36 requests. "
                "Please try again in 1 second (2026-08-31-4689127)", 36, 37), headers)
        if service == "dblp":
            return Reply(429, b"", "text/html", headers)  # dblp: empty body
        return Reply(429, "Too Many Requests", "text/plain", headers)
    if f.mode == "403":
        if service == "openreview":
            return _json(403, templates.openreview_challenge())
        return Reply(403, "<html><body>Forbidden</body></html>", "text/html")
    return Reply(500, "Internal Server Error", "text/plain")


# ------------------------------------------------------------------------------ OpenReview


def _openreview(world: World, method: str, path: str, params: dict[str, str], body: bytes,
                **_: Any) -> Reply:
    if method == "POST" and path == "/login":
        return _json(200, templates.openreview_login("fake-token", "~Test_User1"))
    if method == "POST" and path == "/notes/search":
        try:
            ids = json.loads(body or b"{}").get("ids") or []
        except ValueError:
            return _json(400, {"name": "BadRequestError", "message": "body must be JSON", "status": 400})
        notes = [n for n in (world.note(i) for i in ids) if n]
        return _json(200, templates.openreview_notes(notes, len(notes)))
    if method == "GET" and path == "/notes":
        notes = world.notes
        if "id" in params:
            found = world.note(params["id"])
            if found is None:
                return _json(404, templates.openreview_not_found(f"The Note {params['id']} was not found",
                                                                 "id", params["id"]))
            notes = [found]
        for key, value in params.items():
            if key == "forum":
                notes = [n for n in notes if n["forum"] == value]
            elif key == "domain":
                notes = [n for n in notes if n["domain"] == value]
            elif key.startswith("content."):
                name = key[len("content."):]
                notes = [n for n in notes if (n["content"].get(name) or {}).get("value") == value]
        return _page(notes, params)
    if method == "GET" and path == "/notes/search":
        term = params.get("term", "")
        if not term.strip():
            return _json(400, {"name": "BadRequestError", "message": "term is required", "status": 400})
        group = params.get("group", "all")
        venueid = params.get("venueid")
        wanted = [w for w in words(term)]
        scored = []
        for note in world.notes:
            if group != "all" and not (note["domain"].startswith(group)
                                       or note["content"]["venueid"]["value"].startswith(group)):
                continue
            if venueid and note["content"]["venueid"]["value"] != venueid:
                continue
            title, everything = note_text(note, params.get("content", "all"))
            in_title = sum(w in title for w in wanted) / max(1, len(wanted))
            anywhere = sum(w in everything for w in wanted) / max(1, len(wanted))
            if in_title >= 0.5 or anywhere >= 0.7:
                scored.append((in_title + anywhere, note))
        scored.sort(key=lambda t: -t[0])
        return _page([n for _, n in scored], params)
    return _json(404, templates.openreview_not_found(f"no route {method} {path}"))


def _page(notes: list[dict[str, Any]], params: dict[str, str]) -> Reply:
    offset = int(params.get("offset") or 0)
    limit = int(params.get("limit") or 1000)
    return _json(200, templates.openreview_notes(notes[offset:offset + limit], len(notes)))


# ------------------------------------------------------------------------------ Crossref

_CROSSREF_HEADERS = {"x-api-pool": "polite", "x-rate-limit-limit": "50", "x-rate-limit-interval": "1s",
                     "x-concurrency-limit": "5"}
_QUERY_FIELDS = {"query", "query.bibliographic", "query.title", "query.author", "query.container-title",
                 "query.event-name", "query.event-acronym"}


def _crossref(world: World, method: str, path: str, params: dict[str, str], body: bytes,
              **_: Any) -> Reply:
    path = re.sub(r"^/v1", "", path)
    if path.startswith("/works/"):
        doi = unquote(path[len("/works/"):])
        if any(k.startswith("query") for k in params):
            return _json(400, templates.crossref_invalid("query.*", "This route does not support field query "
                                                                      "parameters"), _CROSSREF_HEADERS)
        item = world.crossref_item(doi)
        if item is None:
            return Reply(404, "Resource not found.", "text/plain", _CROSSREF_HEADERS)
        return _json(200, templates.crossref_work(dict(item, score=1)), _CROSSREF_HEADERS)
    if path == "/works":
        bad = [k for k in params if k.startswith("query") and k not in _QUERY_FIELDS]
        if bad:
            return _json(400, templates.crossref_invalid(bad[0], f"{bad[0]} is not a valid parameter"),
                         _CROSSREF_HEADERS)
        query = " ".join(v for k, v in params.items() if k in _QUERY_FIELDS)
        wanted = set(words(query))
        scored = []
        for entry in world.crossref_items:
            item = entry["item"]
            text = set(words(item["title"][0] + " " + " ".join(a.get("family", "") for a in item.get("author", []))))
            overlap = len(wanted & text) / max(1, len(wanted))
            scored.append((round(4.0 + 40.0 * overlap + entry.get("bias", 0.0) * overlap, 5), item))
        scored.sort(key=lambda t: -t[0])  # Crossref answers every query with *something*
        rows = int(params.get("rows") or 20)
        offset = int(params.get("offset") or 0)
        select = [s for s in (params.get("select") or "").split(",") if s]
        items = []
        for score, item in scored[offset:offset + rows]:
            out = dict(item, score=score)
            if select:
                out = {k: v for k, v in out.items() if k in select}
            items.append(out)
        return _json(200, templates.crossref_list(items, len(scored), rows, offset, query), _CROSSREF_HEADERS)
    return Reply(404, "Resource not found.", "text/plain", _CROSSREF_HEADERS)


# ------------------------------------------------------------------------------ dblp


def _dblp(world: World, method: str, path: str, params: dict[str, str], body: bytes,
          **_: Any) -> Reply:
    if path.startswith("/rec/") and path.endswith(".bib"):
        key = path[len("/rec/"):-len(".bib")]
        hit = world.dblp.get(key)
        if hit is None:
            return Reply(404, "<html><body>Error 404: record not found</body></html>", "text/html")
        return Reply(200, dblp_bibtex(hit, world.dblp_bib.get(key)), "text/x-bibtex; charset=utf-8")
    if path == "/search/publ/api":
        if params.get("format", "xml") != "json":
            return Reply(200, "<?xml version=\"1.0\"?><result/>", "application/xml")
        query = [w for w in words(params.get("q", "")) if len(w) > 1]
        hits = []
        for hit in world.dblp.values():
            authors = hit["authors"]["author"]
            names = " ".join(a["text"] for a in (authors if isinstance(authors, list) else [authors]))
            text = words(f"{hit['title']} {names} {hit['venue']} {hit['year']}")
            if query and all(any(t.startswith(q) for t in text) for q in query):  # dblp: AND of word prefixes
                hits.append(hit)
        first, h = int(params.get("f") or 0), int(params.get("h") or 30)
        page = hits[first:first + h]
        return _json(200, templates.dblp_search(params.get("q", ""), page, len(hits), first))
    return Reply(404, "<html><body>Error 404</body></html>", "text/html")


# ------------------------------------------------------------------------------ arXiv

_CLAUSE = re.compile(r'(ti|abs|au|all|id):(?:"([^"]*)"|(\S+))')
_QUERY_TOKEN = re.compile(r'\(|\)|\b(?:ANDNOT|AND|OR)\b|(?:ti|abs|au|all|id):(?:"[^"]*"|[^\s()]+)|[^\s()]+')
#: the most rows one answer holds, whatever ``max_results`` asks (the API's slice limit)
ARXIV_MAX_ROWS = 2000


def _parse_query(text: str) -> Any:
    """``search_query`` as the API reads it: ``field:word`` or ``field:"a phrase"`` clauses,
    ``AND``, ``OR``, ``ANDNOT`` (upper case) and parentheses; clauses side by side without
    an operator are ANDed; a bare word searches ``all``. Returns a tree of tuples:
    ``("clause", field, words)``, ``("and"|"or"|"andnot", left, right)``."""
    tokens = _QUERY_TOKEN.findall(text)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def atom() -> Any:
        nonlocal pos
        tok = peek()
        if tok is None:
            raise ValueError("the query ends where a term was expected")
        pos += 1
        if tok == "(":
            node = disjunction()
            if peek() != ")":
                raise ValueError("unbalanced parentheses")
            pos += 1
            return node
        m = _CLAUSE.fullmatch(tok)
        if m:
            return ("clause", m.group(1), words(m.group(2) if m.group(2) is not None else m.group(3)))
        return ("clause", "all", words(tok.strip('"')))

    def conjunction() -> Any:
        nonlocal pos
        node = atom()
        while peek() not in (None, ")", "OR"):
            op = peek()
            if op in ("AND", "ANDNOT"):
                pos += 1
            node = ("andnot" if op == "ANDNOT" else "and", node, atom())
        return node

    def disjunction() -> Any:
        nonlocal pos
        node = conjunction()
        while peek() == "OR":
            pos += 1
            node = ("or", node, conjunction())
        return node

    tree = disjunction()
    if pos != len(tokens):
        raise ValueError(f"unexpected {tokens[pos]!r}")
    return tree


def _relevance(tree: Any, fields: dict[str, list[str]]) -> float:
    """How well a paper answers ``tree``: 0 for no match; else the share of each matched
    clause's field its words cover, summed (a title that is the phrase ranks first)."""
    kind = tree[0]
    if kind == "clause":
        _, field, wanted = tree
        have = fields[field]
        if not wanted or not all(w in have for w in wanted):
            return 0.0
        return len(wanted) / max(len(have), 1)
    left, right = _relevance(tree[1], fields), _relevance(tree[2], fields)
    if kind == "and":
        return left + right if left and right else 0.0
    if kind == "andnot":
        return left if left and not right else 0.0
    return left + right


def _arxiv(world: World, method: str, path: str, params: dict[str, str], body: bytes,
           **_: Any) -> Reply:
    start = int(params.get("start") or 0)
    max_results = min(int(params.get("max_results") or 10), ARXIV_MAX_ROWS)
    echo = "&".join(f"{k}={v}" for k, v in params.items())
    entries: list[str] = []
    if params.get("id_list"):
        for raw in params["id_list"].split(","):
            m = _ARXIV_ID.match(raw.strip())
            if not m:
                return Reply(400, arxiv_error(raw.strip()), "application/atom+xml; charset=utf-8")
            paper = world.arxiv.get(m.group(1))
            if paper is not None:
                version = int(m.group(2)) if m.group(2) else None
                if version is None or version <= len(paper["arxiv"]["versions"]):
                    entries.append(arxiv_entry(paper, version))
    elif params.get("search_query"):
        try:
            tree = _parse_query(params["search_query"])
        except ValueError:
            return Reply(400, arxiv_error(params["search_query"]), "application/atom+xml; charset=utf-8")
        ranked: list[tuple[float, int, dict[str, Any]]] = []
        for n, paper in enumerate(world.arxiv.values()):
            latest = paper["arxiv"]["versions"][-1]
            fields = {"ti": words(latest["title"]), "abs": words(paper["abstract"]),
                      "au": words(" ".join(paper["authors"])), "id": [paper["arxiv"]["id"]]}
            fields["all"] = fields["ti"] + fields["abs"] + fields["au"]
            relevance = _relevance(tree, fields)
            if relevance:
                ranked.append((relevance, n, paper))
        ranked.sort(key=lambda t: (-t[0], t[1]))  # relevance first, as the API sorts by default
        entries = [arxiv_entry(paper) for _, _, paper in ranked]
    total = len(entries)
    return Reply(200, arxiv_feed(echo, entries[start:start + max_results], total, start, max_results),
                 "application/atom+xml; charset=utf-8")


# ------------------------------------------------------------------------------ conference sites

_LIST_RE = re.compile(r"^/(?P<site>[a-z]+)/static/virtual/data/(?P<conf>[a-z]+)-(?P<year>\d{4})-"
                      r"(?P<kind>orals-posters|abstracts)\.json$")
#: venue-years the fake sites publish: ICML 2026 (abstracts apart, as ICML 2026 does)
_PUBLISHED = {("icml", 2026)}
_LAST_MODIFIED = "Mon, 29 Jun 2026 08:00:00 GMT"
_lists_lock = threading.Lock()
#: generated once per process for each world's papers (the list is deterministic)
_lists: dict[str, tuple[list[dict[str, Any]], dict[str, str]]] = {}
_pages: dict[tuple[str, int, int], tuple[bytes, str]] = {}


def _world_key(world: World) -> str:
    return hashlib.sha1(json.dumps([p["title"] for p in world.papers]).encode("utf-8")).hexdigest()


def _list_of(world: World) -> tuple[list[dict[str, Any]], dict[str, str]]:
    key = _world_key(world)
    with _lists_lock:
        if key not in _lists:
            _lists[key] = conference_events(world)
        return _lists[key]


def _page_of(world: World, base: str, page: int, size: int | None) -> tuple[bytes, str]:
    """One page of the list as sent (body, ETag), serialised once per process."""
    events, _ = _list_of(world)
    size = size or len(events)
    key = (_world_key(world) + base, page, size)
    with _lists_lock:
        if key not in _pages:
            chunk = events[(page - 1) * size: page * size]
            payload = templates.conference_page(
                chunk, len(events), f"{base}?page={page + 1}" if page * size < len(events) else None,
                f"{base}?page={page - 1}" if page > 1 else None)
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            _pages[key] = (body, '"' + hashlib.sha1(body).hexdigest()[:20] + '"')
        return _pages[key]


def _conferences(world: World, method: str, path: str, params: dict[str, str], body: bytes, *,
                 headers: Any = None, state: ServiceState | None = None, **_: Any) -> Reply:
    m = _LIST_RE.match(path)
    if not m or m.group("site") != m.group("conf") or (m.group("site"), int(m.group("year"))) not in _PUBLISHED:
        return Reply(404, "<!DOCTYPE html><html><head><title>Page Not Found</title></head><body>404</body></html>",
                     "text/html; charset=utf-8")
    events, abstracts = _list_of(world)
    if m.group("kind") == "abstracts":
        return _json(200, abstracts, {"Last-Modified": _LAST_MODIFIED})
    base = f"/{m.group('site')}/static/virtual/data/{m.group('conf')}-{m.group('year')}-orals-posters.json"
    text, etag = _page_of(world, base, int(params.get("page") or 1), state.page_size if state else None)
    if headers is not None and headers.get("If-None-Match") == etag:
        if state is not None:
            with state.lock:
                state.not_modified += 1
        return Reply(304, b"", "application/json", {"ETag": etag, "Last-Modified": _LAST_MODIFIED})
    return Reply(200, text, "application/json", {"ETag": etag, "Last-Modified": _LAST_MODIFIED})


# ------------------------------------------------------------------------------ web pages

_NOT_FOUND_PAGE = ("<!DOCTYPE html><html><head><title>Site not found &middot; GitHub Pages</title></head>"
                   "<body><h1>404</h1><p><strong>There isn't a GitHub Pages site here.</strong></p></body></html>")


def _web(world: World, method: str, path: str, params: dict[str, str], body: bytes, **_: Any) -> Reply:
    """``/web/<host>/<path>``: the page ``https://<host>/<path>`` (``CITEKIT_WEB_URL``'s layout)."""
    host, _, rest = path.strip("/").partition("/")
    found = world.pages.get(f"{host.lower()}/{rest}".rstrip("/"))
    if found is None or method != "GET":
        return Reply(404, _NOT_FOUND_PAGE, "text/html; charset=utf-8")
    status, content_type, text = found
    if 300 <= status < 400:  # a moved page: the body is where it went, sent as Location
        location = text.decode("utf-8")
        if location.startswith("/") and not location.startswith("//"):
            location = f"/web/{host}{location}"  # a path on the page's own host, as that host means it
        return Reply(status, b"", "text/html; charset=utf-8", {"Location": location})
    return Reply(status, text, content_type, {"Last-Modified": _LAST_MODIFIED})
