"""Zotero's API: the running Zotero's local API and zotero.org's web API, read page by page.

Both speak the same protocol (Zotero serves its web API's JSON at
``http://127.0.0.1:23119/api/`` since Zotero 7): ``GET users/0/items`` (local) or
``users/ID/items`` / ``groups/ID/items`` (web), ``start``/``limit`` paging with the total
in ``Total-Results``, the library's version in ``Last-Modified-Version``, and ``since=V``
for the items changed after version ``V``. Requests go through the shared polite client
(:mod:`citekit.sources.http`): retries on 429/5xx, ``Retry-After`` and ``Backoff`` heeded.
The answers are handed back as they are; :mod:`citekit.library.zotero_items` maps them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from citekit.core.errors import CitekitError
from citekit.sources.base import SourceError
from citekit.sources.http import HttpClient, body_json
from citekit.core.lazyre import lazy

#: the running Zotero's local API (Zotero 7 and later)
LOCAL_URL = "http://127.0.0.1:23119/api/"
WEB_URL = "https://api.zotero.org/"
#: items per request: the web API's maximum
PAGE = 100
#: what Zotero answers while its local API is switched off
_LOCAL_OFF = ("Local API is not enabled",)
ENABLE_LOCAL_API = ("In Zotero open Settings (Edit > Settings; on macOS Zotero > Settings) > Advanced > General, "
                    "tick 'Allow other applications on this computer to communicate with Zotero', then run this "
                    "again (Zotero 7 or later).")
_LIBRARY = lazy(r"^(users|groups)/(\d+)$")


class ZoteroError(CitekitError):
    """Zotero could not be read: off, not running, a wrong library or key. Nothing was written."""

    exit_code = 2


@dataclass
class ZoteroAnswer:
    """Everything one read of a library gave: items and collections, and its version."""

    items: list[dict[str, Any]] = field(default_factory=list)
    collections: list[dict[str, Any]] = field(default_factory=list)
    #: ``Last-Modified-Version`` of the library when it was read
    library_version: int = 0
    #: item keys deleted since ``since`` (empty for a full read)
    deleted: list[str] = field(default_factory=list)
    requests: int = 0


def library_path(library: str) -> str:
    """``users/123`` or ``groups/456``, checked, with a message that says the form."""
    library = library.strip().strip("/")
    if not _LIBRARY.match(library):
        raise ZoteroError(f"'{library}' names no Zotero library; give users/ID (your user ID is on "
                          "https://www.zotero.org/settings/keys) or groups/ID (the number in the group's URL)", 2)
    return library


class ZoteroClient:
    """One Zotero library through the local or the web API."""

    def __init__(self, client: HttpClient, base_url: str, library: str, *, api_key: str | None = None,
                 local: bool = False) -> None:
        self.http = client
        self.base = base_url if base_url.endswith("/") else base_url + "/"
        self.library = library
        self.api_key = api_key
        self.local = local
        self.bucket = "zotero"
        self.requests = 0

    @classmethod
    def local_api(cls, client: HttpClient, env: Mapping[str, str] | None = None) -> "ZoteroClient":
        """The running Zotero (``CITEKIT_ZOTERO_URL`` moves it: another port, a test server)."""
        env = os.environ if env is None else env
        return cls(client, env.get("CITEKIT_ZOTERO_URL") or LOCAL_URL, "users/0", local=True)

    @classmethod
    def web_api(cls, client: HttpClient, library: str, env: Mapping[str, str] | None = None) -> "ZoteroClient":
        """A zotero.org library with ``ZOTERO_API_KEY`` (``CITEKIT_ZOTERO_WEB_URL`` moves the API)."""
        env = os.environ if env is None else env
        key = env.get("ZOTERO_API_KEY") or None
        if key is None:
            raise ZoteroError("reading a zotero.org library needs an API key: create one with read access at "
                              "https://www.zotero.org/settings/keys and set ZOTERO_API_KEY to it", 2)
        return cls(client, env.get("CITEKIT_ZOTERO_WEB_URL") or WEB_URL, library_path(library), api_key=key)

    @property
    def where(self) -> str:
        return f"Zotero's local API ({self.base})" if self.local else f"zotero.org library {self.library}"

    def _get(self, path: str, params: dict[str, Any]) -> Any:
        headers = {"Zotero-API-Version": "3"}
        if self.api_key:
            headers["Zotero-API-Key"] = self.api_key
        if self.local:  # Zotero refuses local requests that look like a web page's unless they carry it
            headers["Zotero-Allowed-Request"] = "1"
        url = f"{self.base}{self.library}/{path}"
        try:
            resp = self.http.request(self.bucket, "GET", url, params=params, headers=headers, expect="json")
        except SourceError as exc:
            if self.local:
                raise ZoteroError(f"Zotero is not answering at {self.base} ({exc.message}); start Zotero 7 or later "
                                  "and run this again (or set CITEKIT_ZOTERO_URL if it listens elsewhere)") from exc
            raise ZoteroError(f"zotero.org could not be read ({exc.message}); try again later") from exc
        self.requests += 1
        backoff = _int(resp.headers.get("Backoff"))
        if backoff:  # zotero.org under load: no request for that many seconds (its API documentation)
            self.http.limiter(self.bucket).pause(float(min(backoff, 300)))
        if resp.status_code == 403:
            text = (resp.text or "").strip()
            if self.local and (any(t in text for t in _LOCAL_OFF) or not text):
                raise ZoteroError(f"Zotero's local API is switched off ({text or 'HTTP 403'}). {ENABLE_LOCAL_API}")
            raise ZoteroError(f"{self.where} refused access ({text or 'HTTP 403'}); check that ZOTERO_API_KEY may "
                              f"read {self.library} (https://www.zotero.org/settings/keys)")
        if resp.status_code == 404:
            raise ZoteroError(f"{self.where} has no {path} ({(resp.text or '').strip() or 'HTTP 404'}); check the "
                              "library ID")
        if resp.status_code != 200:
            raise ZoteroError(f"{self.where} answered HTTP {resp.status_code} to {path}: "
                              f"{(resp.text or '').strip()[:200]}")
        return resp

    def _pages(self, path: str, params: dict[str, Any]) -> Iterator[tuple[Any, Any]]:
        """Every page of a listing, ``start`` moving by ``limit`` until ``Total-Results``."""
        start = 0
        while True:
            resp = self._get(path, {**params, "start": start, "limit": PAGE})
            rows = body_json(resp)
            if not isinstance(rows, list):
                raise ZoteroError(f"{self.where} answered {path} with something other than a list of items")
            yield resp, rows
            start += len(rows)
            total = _int(resp.headers.get("Total-Results"))
            if not rows or (total is not None and start >= total) or (total is None and len(rows) < PAGE):
                return

    def read(self, since: int | None = None) -> ZoteroAnswer:
        """Every item (or those changed since version ``since``), its collections, and what was deleted."""
        out = ZoteroAnswer()
        params: dict[str, Any] = {"format": "json", "includeTrashed": 1}  # a trashed item comes back marked deleted
        if since is not None:
            params["since"] = since
        for resp, rows in self._pages("items", params):
            out.items.extend(r for r in rows if isinstance(r, dict))
            out.library_version = max(out.library_version, _int(resp.headers.get("Last-Modified-Version")) or 0)
        for _resp, rows in self._pages("collections", {"format": "json"}):
            out.collections.extend(r for r in rows if isinstance(r, dict))
        if since is not None:
            out.deleted = self._deleted(since)
        out.requests = self.requests
        return out

    def _deleted(self, since: int) -> list[str]:
        """Items deleted since ``since`` (``/deleted``; a local API that lacks it gives none)."""
        try:
            resp = self._get("deleted", {"since": since})
        except ZoteroError:
            if self.local:
                return []
            raise
        data = body_json(resp)
        return [str(k) for k in (data.get("items") or [])] if isinstance(data, dict) else []


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
