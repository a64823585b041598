"""A loopback Zotero: the local API of the running Zotero (``/api/users/0/...``) and the
zotero.org web API (``/users/ID/...``, ``/groups/ID/...``), in their recorded shapes.

Items are the web API's item objects (``{key, version, library, links, meta, data}``, as
in ``tests/fixtures/api/zotero/zotero_item_webapi_2026.json``). Listings are paged with
``start``/``limit`` and carry ``Total-Results``, ``Last-Modified-Version`` and a ``Link``
header; ``since=V`` keeps the items changed after version ``V``; ``/deleted?since=V``
lists deleted keys. The local API answers 403 ``Local API is not enabled`` until
``enabled`` is set, as Zotero does until the user ticks the setting; the web API answers
403 ``Forbidden`` without the right ``Zotero-API-Key``.

Usage::

    with FakeZotero() as z:
        z.add_item(data)             # a new version of the library; returns the item key
        z.update_item(key, title="...")
        z.delete_item(key)
        os.environ["CITEKIT_ZOTERO_URL"] = z.local_url
"""

from __future__ import annotations

import copy
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "api" / "zotero"
#: a user library of the web API (the recorded item's library)
USER_ID = 16916553
LOCAL_OFF = "Local API is not enabled"


def template_item() -> dict[str, Any]:
    """The recorded web API item: every field of a journalArticle, empty where unset."""
    return json.loads((SHAPES / "zotero_item_webapi_2026.json").read_text(encoding="utf-8"))["item"]


class FakeZotero:
    """One Zotero library served by both APIs (the local one and the web one)."""

    def __init__(self, *, enabled: bool = True, api_key: str = "secret-key", page_limit: int = 100) -> None:
        self.enabled = enabled
        self.api_key = api_key
        #: the largest ``limit`` honoured (Zotero's web API: 100)
        self.page_limit = page_limit
        self.version = 1
        self.items: dict[str, dict[str, Any]] = {}
        self.collections: dict[str, dict[str, Any]] = {}
        self.deleted: dict[str, int] = {}
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._n = 0
        self._server: ThreadingHTTPServer | None = None

    # -- the library ------------------------------------------------------------------
    def _new_key(self) -> str:
        self._n += 1
        return f"ITEM{self._n:04d}"

    def add_collection(self, name: str, parent: str | None = None) -> str:
        with self._lock:
            self.version += 1
            key = f"COLL{len(self.collections) + 1:04d}"
            self.collections[key] = {"key": key, "version": self.version,
                                     "library": {"type": "user", "id": USER_ID, "name": "fake"},
                                     "meta": {"numCollections": 0, "numItems": 0},
                                     "data": {"key": key, "version": self.version, "name": name,
                                              "parentCollection": parent or False, "relations": {}}}
            return key

    def add_item(self, data: dict[str, Any]) -> str:
        """Add an item (fields over the recorded template); returns its key."""
        with self._lock:
            self.version += 1
            item = template_item()
            key = data.get("key") or self._new_key()
            base = {k: v for k, v in item["data"].items()} if data.get("itemType", "journalArticle") == \
                "journalArticle" else {"itemType": data["itemType"], "title": "", "creators": [], "tags": [],
                                       "collections": [], "relations": {}, "extra": ""}
            base.update(copy.deepcopy(data))
            base["key"], base["version"] = key, self.version
            item.update(key=key, version=self.version, data=base)
            item["links"]["self"]["href"] = f"https://api.zotero.org/users/{USER_ID}/items/{key}"
            item["meta"] = {"creatorSummary": "", "numChildren": 0}
            self.items[key] = item
            return key

    def update_item(self, key: str, **fields: Any) -> None:
        with self._lock:
            self.version += 1
            item = self.items[key]
            item["data"].update(copy.deepcopy(fields))
            item["version"] = item["data"]["version"] = self.version

    def delete_item(self, key: str) -> None:
        with self._lock:
            self.version += 1
            del self.items[key]
            self.deleted[key] = self.version

    # -- the server -------------------------------------------------------------------
    def __enter__(self) -> "FakeZotero":
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def root(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    @property
    def local_url(self) -> str:
        """What ``CITEKIT_ZOTERO_URL`` is set to (the real one: http://127.0.0.1:23119/api/)."""
        return self.root + "api/"

    def answer(self, method: str, path: str, query: dict[str, str], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self.requests.append(f"{method} {path}?{urlencode(query)}" if query else f"{method} {path}")
            if path.startswith("/api/"):
                if not self.enabled:
                    return 403, {"Content-Type": "text/plain"}, LOCAL_OFF.encode()
                rest = path[len("/api/"):]
                if not rest.startswith("users/0/"):
                    return 404, {"Content-Type": "text/plain"}, b"Not found"
                rest = rest[len("users/0/"):]
            else:
                parts = path.strip("/").split("/", 2)
                if len(parts) < 3 or parts[0] not in ("users", "groups"):
                    return 404, {"Content-Type": "text/plain"}, b"Not found"
                if headers.get("zotero-api-key") != self.api_key:
                    return 403, {"Content-Type": "text/plain"}, b"Forbidden"
                if parts[1] != str(USER_ID) and parts[0] == "users":
                    return 403, {"Content-Type": "text/plain"}, b"Forbidden"
                rest = parts[2]
            since = int(query.get("since", "0") or 0)
            if rest == "items":
                rows = [i for i in self.items.values() if i["version"] > since]
            elif rest == "collections":
                rows = [c for c in self.collections.values() if c["version"] > since]
            elif rest == "deleted":
                body = {"collections": [], "searches": [], "tags": [], "settings": [],
                        "items": [k for k, v in self.deleted.items() if v > since]}
                return 200, self._headers(None, path, query), json.dumps(body).encode()
            else:
                return 404, {"Content-Type": "text/plain"}, b"Not found"
            rows.sort(key=lambda r: r["key"])
            start = int(query.get("start", "0") or 0)
            limit = min(int(query.get("limit", "25") or 25), self.page_limit)
            page = rows[start:start + limit]
            return 200, self._headers((len(rows), start, limit), path, query), json.dumps(page).encode()

    def _headers(self, paging: tuple[int, int, int] | None, path: str, query: dict[str, str]) -> dict[str, str]:
        out = {"Content-Type": "application/json", "Zotero-API-Version": "3",
               "Last-Modified-Version": str(self.version)}
        if paging is not None:
            total, start, limit = paging
            out["Total-Results"] = str(total)
            links = []
            if start + limit < total:
                links.append(f'<{self.root.rstrip("/")}{path}?{urlencode({**query, "start": start + limit})}>; rel="next"')
            last = max(0, (total - 1) // limit * limit)
            links.append(f'<{self.root.rstrip("/")}{path}?{urlencode({**query, "start": last})}>; rel="last"')
            out["Link"] = ", ".join(links)
        return out


def _handler(zotero: FakeZotero) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            status, headers, body = zotero.answer("GET", url.path, query, {k.lower(): v for k, v in self.headers.items()})
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler
