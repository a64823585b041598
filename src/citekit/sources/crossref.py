"""Crossref through habanero: DOIs, journal articles and proceedings with publishers' metadata.

habanero talks httpx2 and hands back only the parsed JSON, so two things are added
around it: every call runs under the shared client's limiter and retry loop, and a thin
tap on habanero's HTTP module reports each response to us, which is how Crossref's
``x-rate-limit-*`` / ``x-concurrency-limit`` headers and ``Retry-After`` reach the limiter.
"""

from __future__ import annotations

import html
import re
import threading
from typing import Any, Callable
from urllib.parse import urlsplit

import habanero
import habanero.request as habanero_request
import habanero.request_class as habanero_request_class
import httpx2
from habanero.exceptions import RequestError

from citekit.core import venues
from citekit.core.ids import ARXIV_DOI_PREFIX, normalize_arxiv, normalize_doi
from citekit.core.model import Ids, Person
from citekit.core.resolution import Candidate, Mention
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import LookupCache, safe_json
from citekit.sources.http import (READ_STEP, connection_reason, RETRY_STATUSES, HttpClient, Retry, RetryableError, declared_length, parse_retry_after,
                   parse_try_again, read_capped, user_agent)
from citekit.sources.queries import author_families, reference_terms, title_terms
from citekit.sources.settings import SourceSettings
from citekit.core.lazyre import lazy

#: fields a search asks for: enough to build a candidate, small enough to be quick
SELECT = ["DOI", "title", "author", "container-title", "short-container-title", "issued", "published",
          "created", "type", "score", "URL", "event", "volume", "issue", "page", "publisher", "abstract", "relation"]

#: Crossref work type → (BibTeX entry type, stage)
TYPES: dict[str, tuple[str, str]] = {
    "proceedings-article": ("inproceedings", "published"),
    "journal-article": ("article", "published"),
    "posted-content": ("misc", "preprint"),
}

_local = threading.local()


class _HttpxTap:
    """Stands in for the ``httpx2`` module inside habanero's request modules.

    Every attribute is the real module's; ``get`` additionally shows the response to the
    observer the current thread registered, so headers that habanero drops still reach us,
    and reads the body streamed, stopping at the cap the current thread set (Crossref's
    ``max_bytes``): habanero would otherwise hold whatever arrives within the timeout.
    It also hands every call one shared TLS context: habanero opens a new client per
    request, and building the certificate store each time costs ~100 ms of CPU.
    """

    def __init__(self, module: Any) -> None:
        self._module = module
        self._ssl: Any = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def _ssl_context(self) -> Any:
        with self._lock:
            if self._ssl is None:
                self._ssl = self._module.create_ssl_context()
            return self._ssl

    def get(self, url: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("verify", self._ssl_context())
        cap = getattr(_local, "max_bytes", None)
        with self._module.stream("GET", url, *args, **kwargs) as resp:
            resp._content = read_capped(resp.iter_bytes(READ_STEP), cap, bucket="crossref",
                                        what=f"GET {urlsplit(str(url)).path}",
                                        declared=declared_length(resp.headers))
        observer = getattr(_local, "observer", None)
        if observer is not None:
            observer(resp)
        return resp


def _install_tap() -> None:
    for module in (habanero_request, habanero_request_class):  # the two places habanero sends from
        if not isinstance(module.httpx2, _HttpxTap):
            module.httpx2 = _HttpxTap(module.httpx2)


class _NotFound(Exception):
    """Crossref answered 404: an answer, cached as a negative."""


#: tags that separate blocks of text (a paragraph, a section title): they become a space
_BLOCK_TAG_RE = lazy(r"</?(?:jats:)?(?:p|title|sec|br|list|list-item|abstract|label)\b[^>]*>", re.I)
#: every other tag is inline (``<scp>T</scp>reebase``, ``<i>E. coli</i>``): it vanishes
_TAG_RE = lazy(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")


def _strip_markup(text: str | None) -> str | None:
    """Plain text from Crossref's JATS/HTML fragments and entities.

    Inline markup is removed without a trace (``<scp>T</scp>reebase`` is "Treebase", not
    "T reebase"); block tags become spaces; ``&amp;`` and friends become characters, once.
    """
    if not text:
        return None
    out = _TAG_RE.sub("", _BLOCK_TAG_RE.sub(" ", text))
    out = " ".join(html.unescape(out).split())
    return out or None


def _first(value: Any) -> str | None:
    """The first of a list (Crossref wraps titles in lists), as plain text."""
    if isinstance(value, list):
        value = value[0] if value else None
    return _strip_markup(str(value)) if value else None


def _date_parts(item: dict[str, Any]) -> list[int]:
    for key in ("issued", "published", "published-print", "published-online", "posted", "created"):
        parts = (item.get(key) or {}).get("date-parts") or []
        if parts and parts[0] and parts[0][0]:
            return [int(p) for p in parts[0] if p is not None]
    return []


def _person(author: dict[str, Any]) -> Person | None:
    given, family = (author.get("given") or "").strip(), (author.get("family") or "").strip()
    suffix = (author.get("suffix") or "").strip()
    if family or given:
        raw = " ".join(p for p in (given, family) if p) + (f", {suffix}" if suffix else "")
        # BibTeX's three-part form "Family, Jr., Given" keeps the suffix in its place
        return Person(raw=raw, given=given, family=f"{family}, {suffix}" if suffix and family else family)
    name = (author.get("name") or "").strip()  # organisations
    return Person(raw=name, family=name) if name else None


def _short_venue(item: dict[str, Any], year: int | None) -> str | None:
    event = item.get("event") or {}
    for text in (event.get("name"), event.get("acronym"), _first(item.get("container-title"))):
        if text:
            short, y = venues.from_text(text)
            if short:
                return f"{short} {y or year}" if (y or year) else short
    return _first(item.get("short-container-title")) or _strip_markup(event.get("acronym")) or \
        _first(item.get("container-title"))


def item_to_candidate(item: dict[str, Any]) -> Candidate:
    """One Crossref work item as a candidate."""
    doi = normalize_doi(item.get("DOI") or "") or ""
    entry_type, stage = TYPES.get(item.get("type", ""), ("misc", "published"))
    parts = _date_parts(item)
    year = parts[0] if parts else None
    extra: dict[str, str] = {}
    for src, dst in (("volume", "volume"), ("issue", "number"), ("page", "pages"), ("publisher", "publisher")):
        if item.get(src):
            extra[dst] = str(item[src])
    if len(parts) > 1:
        extra["month"] = str(parts[1])
    if item.get("type"):
        extra["crossref_type"] = str(item["type"])
    if "score" in item:
        extra["relevance"] = str(item["score"])
    ids = Ids(doi=doi or None)
    if doi.startswith(ARXIV_DOI_PREFIX):
        ids.arxiv = normalize_arxiv(doi)
    authors = [p for p in (_person(a) for a in item.get("author") or []) if p is not None]
    return Candidate(
        source="crossref",
        id=doi,
        title=_first(item.get("title")) or "",
        authors=authors,
        year=year,
        venue=_short_venue(item, year) if stage == "published" else None,
        container=_first(item.get("container-title")),
        entry_type=entry_type,
        stage=stage,
        ids=ids,
        abstract=_strip_markup(item.get("abstract")),
        url=item.get("URL") or (f"https://doi.org/{doi}" if doi else None),
        extra=extra,
        raw=item,
    )


class CrossrefSource:
    """DOI lookups and bibliographic search on Crossref's REST API, via habanero."""

    name = "crossref"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        _install_tap()
        self.client = client
        self.cache = cache
        self.settings = settings
        self.cr = habanero.Crossref(base_url=settings.url("crossref").rstrip("/"), mailto=settings.mailto,
                                    ua_string=user_agent(settings.mailto), timeout=settings.timeout)

    def lookup(self, scheme: str, value: str) -> Candidate | None:
        if scheme != "doi":
            return None
        doi = normalize_doi(value)
        if not doi or doi.startswith(ARXIV_DOI_PREFIX):  # DataCite DOIs are not in Crossref
            return None
        payload = self.cache.fetch(self.name, "work", {"doi": doi}, lambda: self._work(doi))
        if not payload:
            return None
        return item_to_candidate(payload["message"])

    def _work(self, doi: str) -> dict[str, Any] | None:
        try:
            return self._call(lambda: self.cr.works(ids=doi), what=f"DOI {doi}")
        except _NotFound:
            return None

    def search(self, mention: Mention) -> list[Candidate]:
        title = title_terms(mention)
        reference = reference_terms(mention)
        if not title and not reference:  # Crossref indexes titles and authors, not abstracts
            return []
        # a pasted reference goes whole, its title read or not: query.bibliographic is made
        # for citation strings, and the venue, year and pages in it rank the right record first
        query = reference or " ".join([title or "", *author_families(mention)])
        params = {"query.bibliographic": query, "rows": 5}
        payload = self.cache.fetch(self.name, "search", params, lambda: self._search(query))
        items = ((payload or {}).get("message") or {}).get("items") or []
        return [item_to_candidate(i) for i in items]

    def _search(self, query: str) -> dict[str, Any] | None:
        try:
            body = self._call(lambda: self.cr.works(query_bibliographic=query, limit=5, select=SELECT),
                              what="search")
        except _NotFound:
            return None
        return body if (body.get("message") or {}).get("items") else None

    def _call(self, fn: Callable[[], Any], *, what: str) -> Any:
        """One habanero call under the shared limits, with its errors made ours."""
        seen: dict[str, Any] = {}

        def observe(resp: Any) -> None:
            seen["response"] = resp
            self.client.adapt(self.name, resp.headers)

        def attempt() -> Any:
            seen.clear()
            _local.observer = observe
            _local.max_bytes = self.client.max_bytes(self.name)
            try:
                body = fn()
            except SourceError:
                raise  # ours already (an answer over the size cap): not habanero's to classify
            except Exception as exc:  # habanero's errors vary by code path; the response does not
                resp = seen.get("response")
                if resp is not None and 300 <= resp.status_code < 400:
                    self._redirected(resp, what)
                if resp is not None and resp.status_code >= 400:
                    message = str(exc.error) if isinstance(exc, RequestError) else resp.text
                    self._raise_status(resp.status_code, resp.headers, message, what)
                if isinstance(exc, (httpx2.TransportError, RuntimeError)):
                    raise RetryableError(Retry(f"connection failed: {connection_reason(exc)}", unreachable=True)) from exc
                if isinstance(exc, RequestError):
                    raise SourceError(self.name, f"{what}: unexpected answer ({exc})") from exc
                if isinstance(exc, ValueError) or (resp is not None and resp.status_code == 200):
                    # truncated JSON, or an HTML page labelled JSON: the service failing,
                    # retried and counted towards marking it down like a refused connection
                    kind = resp.headers.get("content-type", "?") if resp is not None else "?"
                    raise RetryableError(Retry(f"answered {kind} that is not complete JSON", unreachable=True)) from exc
                raise
            finally:
                _local.observer = None
            resp = seen.get("response")
            if resp is not None and 300 <= resp.status_code < 400:
                self._redirected(resp, what)
            if not isinstance(body, dict):
                raise RetryableError(Retry(f"answered {type(body).__name__} where a JSON object belongs",
                                           unreachable=True))
            return safe_json(body)

        return self.client.call(self.name, attempt, what=what)

    def _redirected(self, resp: Any, what: str) -> None:
        """Crossref's API does not redirect; a redirect is a portal or a wrong URL."""
        target = resp.headers.get("location", "?")
        elsewhere = "another site" if urlsplit(str(target)).netloc not in ("", urlsplit(self.cr.base_url).netloc) \
            else "another address"
        message = (f"{what} was redirected to {elsewhere} ({target}); not following it: Crossref's API does not "
                   "redirect. Check sources.crossref.url, or the network (a login portal?)")
        self.client.mark_down(self.name, message)
        raise SourceUnavailable(self.name, message)

    def _raise_status(self, status: int, headers: Any, text: str, what: str) -> None:
        if status in RETRY_STATUSES:
            wait = parse_retry_after(headers.get("Retry-After"))
            if status == 429 and wait is None:
                wait = parse_try_again(text)
            raise RetryableError(Retry(f"HTTP {status}", wait=wait, rate_limited=status == 429))
        if status == 404:
            raise _NotFound()
        raise SourceError(self.name, f"{what}: Crossref answered {status}: {text[:200]}")
