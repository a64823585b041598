"""Loopback fakes of the citation-graph services (Semantic Scholar, OpenAlex) over a planted graph.

The answers follow the recorded shapes in the shared API samples (``s2_*.json``,
``openalex_*.json``): S2's batch answers a list in request order with ``null`` for an
unknown id, nests ``references``/``citations`` as paper objects cut at 1,000, pages
``/references`` with ``offset``/``next`` (no ``next`` on the last page), lists some citing
papers with a ``null`` ``paperId`` and refuses with ``{"message": …, "code": "429"}``.

:func:`planted` builds the world the suggestion tests and ``bench/suggest_bench.py`` use: a
tagged library whose papers cite a known set of earlier works (and are cited by a known set
of later ones), with classics everyone cites, noise, a dataset, another version of a
library paper, and a library paper the service does not know.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

#: S2's cap on nested lists in a batch answer
NESTED_CAP = 1000


@dataclass
class Node:
    """One paper of the fake world."""

    s2: str
    title: str
    year: int
    venue: str = ""
    doi: str | None = None
    arxiv: str | None = None
    cited_by: int = 0
    kinds: list[str] = field(default_factory=lambda: ["JournalArticle"])
    refs: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=lambda: ["Jane Doe"])
    #: citing papers that S2 lists with a ``null`` paperId
    anonymous_citers: int = 0
    #: OpenAlex lists no references for it (a well-known paper with an empty ``referenced_works``)
    openalex_refs_missing: bool = False

    @property
    def openalex(self) -> str:
        return "W" + str(int(self.s2[:12], 16) % 10**10)


@dataclass
class GraphWorld:
    """The papers, who cites whom, and what the planted test expects."""

    nodes: dict[str, Node] = field(default_factory=dict)
    #: the library: key -> (node id or None for a paper S2 does not know, tags, ids given)
    library: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: planted works, strongest first: what a good ranking puts on top
    planted: list[str] = field(default_factory=list)
    classics: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    #: the largest batch answer the S2 fake sends (the service's own cap is 10 MB)
    s2_max_bytes: int = 10 * 1024 * 1024

    def citers(self, nid: str) -> list[str]:
        return [n.s2 for n in self.nodes.values() if nid in n.refs]

    def by_external(self, raw: str) -> Node | None:
        scheme, _, value = raw.partition(":")
        for n in self.nodes.values():
            if (scheme.upper() == "DOI" and n.doi == value.lower()) or (scheme.upper() == "ARXIV" and n.arxiv == value) \
                    or n.s2 == raw:
                return n
        return None


def _sid(rng: random.Random) -> str:
    return "%040x" % rng.getrandbits(160)


def planted(seed: int = 7, *, n_tag: int = 30, n_other: int = 10, noise_refs: int = 8) -> GraphWorld:
    """A library of ``n_tag`` papers tagged ``muon`` and ``n_other`` tagged ``vision``, citing a
    planted set of 10 co-cited works and cited by 5 planted coupling works, plus what must
    never be suggested or must not bury them (see the module docstring)."""
    rng = random.Random(seed)
    w = GraphWorld()

    def node(title: str, year: int, **kw: Any) -> Node:
        n = Node(s2=_sid(rng), title=title, year=year, **kw)
        w.nodes[n.s2] = n
        return n

    lib_nodes: list[tuple[str, Node, list[str]]] = []
    for i in range(n_tag + n_other):
        tag = "muon" if i < n_tag else "vision"
        n = node(f"Library paper {i} on {'orthogonal optimisers' if tag == 'muon' else 'image models'}",
                 2023 + i % 3, venue="ICML", doi=f"10.5555/lib.{i}", arxiv=f"2401.{10000 + i}",
                 cited_by=20 + i)
        lib_nodes.append((f"lib{i}", n, [tag]))
    muon = [n for _, n, tags in lib_nodes if "muon" in tags]
    others = [n for _, n, tags in lib_nodes if "vision" in tags]
    # co-cited works: cited by a share of the muon papers, from 80% down to 35%
    shares = [0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35]
    for j, share in enumerate(shares):
        p = node(f"Planted co-cited work {j}: spectral steps for matrix parameters", 2018 + j % 6,
                 venue="NeurIPS", doi=f"10.5555/planted.{j}", cited_by=150 + 40 * j)
        for citer in rng.sample(muon, round(share * len(muon))):
            citer.refs.append(p.s2)
        w.planted.append(p.s2)
    # coupling works: later papers citing several muon papers
    for j, k in enumerate((12, 10, 9, 8, 7)):
        c = node(f"Planted citing work {j}: scaling orthogonalised updates", 2025, venue="ICLR",
                 arxiv=f"2506.{20000 + j}", cited_by=5 + j)
        c.refs.extend(n.s2 for n in rng.sample(muon, k))
        w.planted.append(c.s2)
    # classics: cited by (nearly) every paper of the library, and by the whole field
    for j, title in enumerate(("Adam: A Method for Stochastic Optimization", "Deep Residual Learning",
                               "Attention Is All You Need")):
        k = node(title, 2014 + j, venue="ICLR", doi=f"10.5555/classic.{j}", cited_by=150000 - 20000 * j,
                 openalex_refs_missing=j == 0)
        for citer in muon + others:
            if rng.random() < 0.95:
                citer.refs.append(k.s2)
        w.classics.append(k.s2)
    # never suggested: another version of a library paper (same arXiv id, its own record),
    # a dataset everyone cites
    other_version = node(lib_nodes[0][1].title, 2023, venue="arXiv", arxiv=lib_nodes[0][1].arxiv, cited_by=3)
    dataset = node("ImageNet-Orthogonal: a benchmark set", 2020, kinds=["Dataset"], cited_by=900)
    for citer in rng.sample(muon, 20):
        citer.refs.extend([other_version.s2, dataset.s2])
    w.held.append(other_version.s2)
    # library papers cite each other
    for citer in muon:
        citer.refs.extend(n.s2 for n in rng.sample(muon, 3) if n is not citer)
    # noise: each library paper cites a few works nobody else cites; some works cite one of them
    for citer in muon + others:
        for _ in range(noise_refs):
            citer.refs.append(node(f"Unrelated work {rng.getrandbits(24)}", rng.randint(2005, 2025),
                                   cited_by=rng.randint(0, 400)).s2)
        if rng.random() < 0.5:
            node(f"Unrelated citing work {rng.getrandbits(24)}", 2025, cited_by=1).refs.append(citer.s2)
    # the vision papers share works the muon papers do not cite
    for j in range(3):
        v = node(f"Vision-only co-cited work {j}", 2021, doi=f"10.5555/vision.{j}", cited_by=300)
        for citer in others:
            citer.refs.append(v.s2)
    for n in muon[:4]:
        n.anonymous_citers = 2
    for key, n, tags in lib_nodes:
        w.library[key] = {"node": n.s2, "tags": tags, "doi": n.doi, "arxiv": n.arxiv, "title": n.title,
                          "year": n.year}
    # a library paper the service does not know (its DOI answers null in a batch)
    w.library["unknown0"] = {"node": None, "tags": ["muon"], "doi": "10.5555/not.in.s2", "arxiv": None,
                             "title": "A workshop note nobody indexed", "year": 2025}
    return w


# ------------------------------------------------------------------------------ S2 shapes


def s2_paper(n: Node, fields: set[str], world: GraphWorld) -> dict[str, Any]:
    ext: dict[str, Any] = {"CorpusId": int(n.s2[:8], 16)}
    if n.doi:
        ext["DOI"] = n.doi
    if n.arxiv:
        ext["ArXiv"] = n.arxiv
    full = {"paperId": n.s2, "externalIds": ext, "title": n.title, "year": n.year, "venue": n.venue,
            "citationCount": n.cited_by + len(world.citers(n.s2)), "publicationTypes": n.kinds,
            "journal": {"name": n.venue} if n.venue else None, "referenceCount": len(n.refs),
            "authors": [{"authorId": str(i), "name": a} for i, a in enumerate(n.authors)]}
    out = {k: v for k, v in full.items() if k in fields or k == "paperId"}
    if "references.paperId" in fields or "references" in fields:
        out["references"] = [{"paperId": r} for r in n.refs[:NESTED_CAP]]
    if "citations.paperId" in fields or "citations" in fields:
        cites = [{"paperId": c} for c in world.citers(n.s2)] + [{"paperId": None}] * n.anonymous_citers
        out["citations"] = cites[:NESTED_CAP]
    return out


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        #: answer this many requests with 429 before answering again
        self.refuse = 0
        self.retry_after: str | None = None
        #: what the last requests carried as an API key
        self.keys: list[str | None] = []
        #: OpenAlex: refuse list calls without ``api_key`` (the 2026 rule)
        self.require_key = False


def _s2_answer(world: GraphWorld, method: str, path: str, params: dict[str, str], body: Any) -> tuple[int, Any]:
    fields = set((params.get("fields") or "paperId").split(","))
    if method == "POST" and path == "/graph/v1/paper/batch":
        ids = (body or {}).get("ids") or []
        if not 1 <= len(ids) <= 500:
            return 400, {"error": "ids must contain between 1 and 500 ids"}
        answer = [s2_paper(n, fields, world) if (n := world.by_external(i)) else None for i in ids]
        if len(json.dumps(answer)) > world.s2_max_bytes:
            return 400, {"error": "Response would exceed maximum size. Please reduce the number of ids or fields."}
        return 200, answer
    if method == "GET" and path.startswith("/graph/v1/paper/") and path.endswith(("/references", "/citations")):
        pid, _, what = path[len("/graph/v1/paper/"):].rpartition("/")
        n = world.by_external(pid)
        if n is None:
            return 404, {"error": f"Paper with id {pid} not found"}
        offset, limit = int(params.get("offset") or 0), int(params.get("limit") or 100)
        items = ([{"citedPaper": {"paperId": r}} for r in n.refs] if what == "references"
                 else [{"citingPaper": {"paperId": c}} for c in world.citers(n.s2)])
        page: dict[str, Any] = {"offset": offset, "data": items[offset:offset + limit]}
        if offset + limit < len(items):
            page["next"] = offset + limit
        return 200, page
    if method == "GET" and path == "/graph/v1/paper/search/match":
        wanted = " ".join((params.get("query") or "").lower().split())
        best = next((n for n in world.nodes.values() if " ".join(n.title.lower().split()) == wanted), None)
        if best is None:
            return 404, {"error": "Title match not found"}
        return 200, {"data": [{**s2_paper(best, fields, world), "matchScore": 271.3}]}
    if method == "POST" and path.rstrip("/") == "/recommendations/v1/papers":
        positive = (body or {}).get("positivePaperIds") or []
        if not positive:
            return 400, {"error": "No positive paper examples given"}
        seeds = {n.s2 for i in positive if (n := world.by_external(i))}
        # the service's own similarity: works cited by two or more of the positive papers
        counts = Counter(r for s in seeds for r in world.nodes[s].refs if r not in seeds)
        limit = int(params.get("limit") or 100)
        best = [world.nodes[r] for r, c in counts.most_common() if c >= 2][:limit]
        return 200, {"recommendedPapers": [s2_paper(n, fields, world) for n in best]}
    return 404, {"error": f"no route {method} {path}"}


# ------------------------------------------------------------------------------ OpenAlex shapes

OA = "https://openalex.org/"


def openalex_work(n: Node, world: GraphWorld, select: set[str] | None) -> dict[str, Any]:
    """A work in OpenAlex's 2026 shape (no ``cited_by_api_url``, ``ids`` with URLs)."""
    doi = f"https://doi.org/{n.doi}" if n.doi else (f"https://doi.org/10.48550/arxiv.{n.arxiv}" if n.arxiv else None)
    refs = [] if n.openalex_refs_missing else [OA + world.nodes[r].openalex for r in n.refs]
    full = {"id": OA + n.openalex, "doi": doi, "title": n.title, "display_name": n.title,
            "publication_year": n.year, "ids": {"openalex": OA + n.openalex, **({"doi": doi} if doi else {})},
            "type": "dataset" if "Dataset" in n.kinds else "article", "is_paratext": False,
            "cited_by_count": n.cited_by + len(world.citers(n.s2)),
            "primary_location": {"source": {"display_name": n.venue, "type": "conference"} if n.venue else None},
            "referenced_works_count": len(refs), "referenced_works": refs}
    return {k: v for k, v in full.items() if select is None or k in select}


def _openalex_answer(world: GraphWorld, state: "_State", path: str, params: dict[str, str]) -> tuple[int, Any]:
    if state.require_key and not params.get("api_key"):
        return 403, {"error": "API key required", "message": "List calls need an API key since 2026."}
    if path != "/works":
        return 404, {"error": "Not found"}
    per_page = int(params.get("per-page") or 25)
    if not 1 <= per_page <= 100:
        return 400, {"error": "Invalid query parameters error.", "message": "per-page must be between 1 and 100"}
    field_, _, values = (params.get("filter") or "").partition(":")
    wanted = [v for v in values.split("|") if v]
    if len(wanted) > 100:
        return 400, {"error": "Invalid query parameters error.", "message": "Maximum 100 values in an OR filter"}
    by_oa = {n.openalex: n for n in world.nodes.values()}
    if field_ == "doi":
        keys = {v.lower().removeprefix("https://doi.org/") for v in wanted}
        hits = [n for n in world.nodes.values()
                if (n.doi and n.doi in keys) or (n.arxiv and f"10.48550/arxiv.{n.arxiv}" in keys)]
        hits = [n for n in hits if n.doi or not any(m.doi and m.arxiv == n.arxiv for m in hits if m is not n)]
    elif field_ == "openalex":
        hits = [by_oa[v] for v in wanted if v in by_oa]
    elif field_ == "cites":
        targets = {by_oa[v].s2 for v in wanted if v in by_oa}
        hits = [n for n in world.nodes.values() if targets & set(n.refs)]
    else:
        return 400, {"error": "Invalid query parameters error.", "message": f"unknown filter {field_}"}
    page = int(params.get("page") or 1)
    select = set(params["select"].split(",")) if params.get("select") else None
    chunk = hits[(page - 1) * per_page: page * per_page]
    return 200, {"meta": {"count": len(hits), "db_response_time_ms": 12, "page": page, "per_page": per_page,
                          "groups_count": None},
                 "results": [openalex_work(n, world, select) for n in chunk], "group_by": []}


def _handler(world: GraphWorld, state: _State, oa: "_State | None" = None) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _go(self, method: str) -> None:
            url = urlsplit(self.path)
            params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            if url.path.startswith("/openalex") and oa is not None:
                self._openalex(url.path[len("/openalex"):], params)
                return
            path = url.path[len("/s2"):] if url.path.startswith("/s2") else url.path
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            with state.lock:
                state.counts[f"{method} {path}"] += 1
                state.keys.append(self.headers.get("x-api-key"))
                refuse = state.refuse > 0
                if refuse:
                    state.refuse -= 1
            if refuse:
                status, payload = 429, {"message": "Too Many Requests. Please wait and try again or apply for a key "
                                                   "for higher rate limits. https://www.semanticscholar.org/product/"
                                                   "api#api-key-form", "code": "429"}
            else:
                status, payload = _s2_answer(world, method, path, params, json.loads(raw) if raw else None)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if refuse and state.retry_after is not None:
                self.send_header("Retry-After", state.retry_after)
            self.end_headers()
            self.wfile.write(data)

        def _openalex(self, path: str, params: dict[str, str]) -> None:
            assert oa is not None
            with oa.lock:
                oa.counts[f"GET {path}"] += 1
                oa.keys.append(params.get("api_key"))
                refuse = oa.refuse > 0
                if refuse:
                    oa.refuse -= 1
            if refuse:  # OpenAlex's per-second limit answers 403
                status, payload = 403, {"error": "Rate limit exceeded", "message": "Too many requests per second"}
            else:
                status, payload = _openalex_answer(world, oa, path, params)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._go("GET")

        def do_POST(self) -> None:
            self._go("POST")

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class FakeGraph:
    """The graph services on one loopback port (``/s2``, ``/openalex``) over one :class:`GraphWorld`."""

    def __init__(self, world: GraphWorld | None = None) -> None:
        self.world = world or planted()
        self.s2 = _State()
        self.openalex = _State()
        self._server: _Server | None = None

    def start(self) -> "FakeGraph":
        self._server = _Server(("127.0.0.1", 0), _handler(self.world, self.s2, self.openalex))
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeGraph":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    def env(self) -> dict[str, str]:
        return {"CITEKIT_S2_URL": f"http://127.0.0.1:{self.port}/s2",
                "CITEKIT_OPENALEX_URL": f"http://127.0.0.1:{self.port}/openalex", "CITEKIT_RATE_LIMITS": "off"}

    def _of(self, service: str) -> _State:
        return self.openalex if service == "openalex" else self.s2

    def requests(self, service: str | None = None) -> int:
        """Requests one service received (``s2``, ``openalex``), or both."""
        return sum(sum(self.counts(s).values()) for s in ([service] if service else ["s2", "openalex"]))

    def counts(self, service: str = "s2") -> Counter[str]:
        state = self._of(service)
        with state.lock:
            return Counter(state.counts)

    def clear(self) -> None:
        for state in (self.s2, self.openalex):
            with state.lock:
                state.counts.clear()
                state.keys.clear()
                state.refuse = 0


@pytest.fixture
def fake_graph(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGraph]:
    """The graph services over :func:`planted`, with ``CITEKIT_S2_URL``/``CITEKIT_OPENALEX_URL`` pointing at them."""
    with FakeGraph() as fake:
        for name, value in fake.env().items():
            monkeypatch.setenv(name, value)
        yield fake


def write_project(root: Any, world: GraphWorld) -> Any:
    """A project at ``root`` whose library holds ``world.library``, tagged as planted."""
    from pathlib import Path

    from citekit.core.model import Entry, Ids
    from citekit.library.store import Library

    root = Path(root)
    (root / "notes").mkdir(parents=True, exist_ok=True)
    (root / "refs").mkdir(exist_ok=True)
    (root / "citekit.yaml").write_text("# suggestion test project\n", encoding="utf-8")
    lib = Library.load(root / "refs")
    for key, row in world.library.items():
        lib.add(Entry(key=key, entry_type="inproceedings",
                      fields={"title": row["title"], "author": "Doe, Jane", "year": str(row["year"]),
                              "booktitle": "ICML"},
                      ids=Ids(doi=row["doi"], arxiv=row["arxiv"]), tags_added=list(row["tags"]), status="resolved"))
    lib.save()
    return root
