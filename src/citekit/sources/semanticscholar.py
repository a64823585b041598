"""Semantic Scholar's Graph and Recommendations APIs: who cites whom, in batches.

One ``POST /graph/v1/paper/batch`` answers up to 500 papers (``DOI:…``, ``ARXIV:…``,
``CorpusId:…`` or S2 ids) in request order, ``null`` for an id it does not know; with
``fields=references.paperId,citations.paperId`` each paper brings its nested reference and
citation lists, which the service cuts at 1,000 items. Seeds go 25 a request, since those
lists are large and the service refuses an answer over 10 MB (a refused chunk is asked
again in halves). A reference list cut there is read
on through ``/paper/{id}/references`` (``offset``/``next``, no ``next`` on the last page);
citations are not (a paper cited 10,000 times is a classic, its first 1,000 citers say as
much as all of them). Some listed papers have a ``null`` ``paperId``: they are skipped.
``POST /recommendations/v1/papers/`` takes positive and negative ids.

Without ``CITEKIT_S2_API_KEY`` the service is a shared pool that answers 429 routinely: the
HTTP client waits and tries again, and a refusal that outlasts its retries is reported in
plain words with the way out (a key). Everything answered is kept in the lookup cache, one
row per paper, so a second run asks nothing.
"""

from __future__ import annotations

from typing import Any

from citekit.core.ids import normalize_arxiv, normalize_doi
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import LookupCache
from citekit.sources.graph import GraphPaper
from citekit.sources.http import HttpClient, body_json
from citekit.sources.settings import SourceSettings

#: ids per batch request: the service's own maximum
BATCH = 500
#: seeds per batch request: each brings two nested lists of up to 1,000 ids (~55 bytes each),
#: and the service refuses an answer over 10 MB; 25 seeds stay under 3 MB at worst
SEED_BATCH = 25
#: the service cuts nested lists (``references``, ``citations`` of a batch answer) here
NESTED_CAP = 1000
#: items per page of ``/paper/{id}/references`` (the service's maximum)
PAGE = 1000
#: what a paper record holds for the ranking and the display
PAPER_FIELDS = "paperId,title,year,venue,externalIds,citationCount,publicationTypes,journal"
#: a seed also brings who it cites and who cites it
SEED_FIELDS = PAPER_FIELDS + ",referenceCount,references.paperId,citations.paperId"
#: the cache's name for this service
NAME = "semanticscholar"


def s2_id(scheme: str, value: str) -> str | None:
    """The service's form of a library identifier: ``DOI:10.…``, ``ARXIV:2101.00001``; an
    ``s2`` id (a title match found it) as it is."""
    if scheme == "s2":
        return value or None
    if scheme == "doi":
        doi = normalize_doi(value)
        return f"DOI:{doi}" if doi else None
    if scheme == "arxiv":
        aid = normalize_arxiv(value)
        return f"ARXIV:{aid}" if aid else None
    return None


def paper_from(data: dict[str, Any]) -> GraphPaper | None:
    """One S2 paper object as a :class:`GraphPaper` (None for a ``null`` id)."""
    pid = data.get("paperId")
    if not pid:
        return None
    ext = data.get("externalIds") or {}
    venue = data.get("venue") or ((data.get("journal") or {}).get("name")) or None
    year = data.get("year")
    paper = GraphPaper(id=str(pid), source=NAME, title=" ".join(str(data.get("title") or "").split()),
                       year=int(year) if isinstance(year, int) else None, venue=venue,
                       doi=normalize_doi(ext["DOI"]) if ext.get("DOI") else None,
                       arxiv=normalize_arxiv(ext["ArXiv"]) if ext.get("ArXiv") else None,
                       cited_by=data.get("citationCount") if isinstance(data.get("citationCount"), int) else None,
                       kinds=[str(k) for k in data.get("publicationTypes") or []],
                       authors=[str(a.get("name")) for a in data.get("authors") or []
                                if isinstance(a, dict) and a.get("name")])
    if "references" in data:
        paper.references = _ids(data.get("references"))
    if "citations" in data:
        paper.citations = _ids(data.get("citations"))
    return paper


def _ids(items: Any) -> list[str]:
    return [str(item["paperId"]) for item in items or [] if isinstance(item, dict) and item.get("paperId")]


class SemanticScholarGraph:
    """The Semantic Scholar Graph API as a :class:`~citekit.sources.graph.GraphSource`."""

    name = NAME

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.url = settings.url("s2")
        self.headers = {"x-api-key": settings.s2_api_key} if settings.s2_api_key else None
        self.keyed = bool(settings.s2_api_key)
        #: answer from the cache alone (the service could not be reached): what is not cached is left out
        self.offline = False

    # -- the seeds: library papers with their neighbours ---------------------------------
    def seeds(self, ids: dict[str, tuple[str, str]]) -> dict[str, GraphPaper | None]:
        wanted = {key: s2_id(*pair) for key, pair in ids.items()}
        found = self._cached_batch("seed", [i for i in wanted.values() if i], SEED_FIELDS, self._complete,
                                   size=SEED_BATCH)
        return {key: found.get(sid) if sid else None for key, sid in wanted.items()}

    def papers(self, ids: list[str]) -> dict[str, GraphPaper | None]:
        return self._cached_batch("paper", list(ids), PAPER_FIELDS, None)

    def _cached_batch(self, operation: str, ids: list[str], fields: str, finish: Any, *,
                      size: int = BATCH) -> dict[str, GraphPaper | None]:
        out: dict[str, GraphPaper | None] = {}
        missing: list[str] = []
        for sid in dict.fromkeys(ids):
            hit = self.cache.get(NAME, operation, {"id": sid})
            if hit is None:
                missing.append(sid)
            else:
                self.cache.hits += 1
                out[sid] = GraphPaper.from_json(hit.payload) if hit.payload else None
        if self.offline:
            return out
        for start in range(0, len(missing), size):
            chunk = missing[start:start + size]
            answers = self._batch(chunk, fields)
            for sid, data in zip(chunk, answers):
                paper = paper_from(data) if isinstance(data, dict) else None
                if paper is not None and finish is not None:
                    finish(paper, data)
                self.cache.misses += 1
                self.cache.put(NAME, operation, {"id": sid}, paper.to_json() if paper else None)
                out[sid] = paper
        return out

    def _batch(self, chunk: list[str], fields: str) -> list[Any]:
        """One batch answer, in request order; a chunk whose answer would pass the service's
        10 MB cap (400) is asked again in halves."""
        resp = self._call("POST", "/graph/v1/paper/batch", params={"fields": fields}, json={"ids": chunk})
        if resp.status_code == 400 and len(chunk) > 1 and "size" in _error(resp).lower():
            half = len(chunk) // 2
            return self._batch(chunk[:half], fields) + self._batch(chunk[half:], fields)
        if resp.status_code != 200:
            raise SourceError(NAME, f"the paper batch was refused ({resp.status_code}: {_error(resp)})")
        answers = body_json(resp)
        if not isinstance(answers, list) or len(answers) != len(chunk):
            raise SourceError(NAME, "the paper batch answer does not list one record per id asked; "
                                    "check sources.s2.url or run again later")
        return answers

    def _complete(self, paper: GraphPaper, data: dict[str, Any]) -> None:
        """Read on a reference list the batch answer cut at :data:`NESTED_CAP`."""
        total = data.get("referenceCount")
        refs = paper.references or []
        if len(data.get("references") or []) >= NESTED_CAP and isinstance(total, int) and total > len(refs):
            paper.references = self.references(paper.id)

    def references(self, pid: str) -> list[str]:
        """Every paper ``pid`` cites, page by page (``offset``/``next``)."""
        out: list[str] = []
        offset: int | None = 0
        while offset is not None:
            resp = self._call("GET", f"/graph/v1/paper/{pid}/references",
                              params={"fields": "paperId", "offset": offset, "limit": PAGE})
            if resp.status_code == 404:
                break
            if resp.status_code != 200:
                raise SourceError(NAME, f"the references of {pid} were refused ({resp.status_code}: {_error(resp)})")
            page = body_json(resp)
            out.extend(str(item["citedPaper"]["paperId"]) for item in page.get("data") or []
                       if isinstance(item, dict) and isinstance(item.get("citedPaper"), dict)
                       and item["citedPaper"].get("paperId"))
            nxt = page.get("next")
            offset = int(nxt) if isinstance(nxt, int) and nxt > offset else None
        return out

    # -- a paper by its title ----------------------------------------------------------
    def match(self, title: str) -> GraphPaper | None:
        """The service's one best title match (``/paper/search/match``), with its authors and
        year, for the caller to accept only when it is certainly the same paper; None when
        the service has no match (404 "Title match not found")."""
        query = " ".join(title.split())
        if not query:
            return None
        params = {"query": query}
        if self.offline:
            hit = self.cache.get(NAME, "match", params)
            return GraphPaper.from_json(hit.payload) if hit and hit.payload else None
        payload = self.cache.fetch(NAME, "match", params, lambda: self._match(query))
        return GraphPaper.from_json(payload) if payload else None

    def _match(self, query: str) -> dict[str, Any] | None:
        resp = self._call("GET", "/graph/v1/paper/search/match", params={"query": query,
                                                                          "fields": PAPER_FIELDS + ",authors"})
        if resp.status_code == 404:
            return None
        if resp.status_code != 200:
            raise SourceError(NAME, f"the title match was refused ({resp.status_code}: {_error(resp)})")
        data = (body_json(resp) or {}).get("data") or []
        paper = paper_from(data[0]) if data and isinstance(data[0], dict) else None
        return paper.to_json() if paper else None

    # -- recommendations -------------------------------------------------------------
    def recommend(self, positive: list[str], negative: list[str], limit: int) -> list[GraphPaper]:
        if not positive:
            return []  # the service answers 400 "No positive paper examples given"
        params = {"positive": sorted(positive), "negative": sorted(negative), "limit": limit}
        if self.offline:
            hit = self.cache.get(NAME, "recommend", params)
            return [GraphPaper.from_json(p) for p in (hit.payload or [])] if hit else []
        payload = self.cache.fetch(NAME, "recommend", params, lambda: self._recommend(positive, negative, limit))
        return [GraphPaper.from_json(p) for p in payload or []]

    def _recommend(self, positive: list[str], negative: list[str], limit: int) -> list[dict[str, Any]]:
        resp = self._call("POST", "/recommendations/v1/papers/", params={"fields": PAPER_FIELDS, "limit": limit},
                          json={"positivePaperIds": positive, "negativePaperIds": negative})
        if resp.status_code != 200:
            raise SourceError(NAME, f"recommendations were refused ({resp.status_code}: {_error(resp)})")
        data = body_json(resp)
        papers = (paper_from(p) for p in data.get("recommendedPapers") or [] if isinstance(p, dict))
        return [p.to_json() for p in papers if p is not None]

    # -- the wire --------------------------------------------------------------------
    def _call(self, method: str, path: str, *, params: dict[str, Any], json: Any = None) -> Any:
        try:
            return self.client.request(NAME, method, self.url + path, params=params, json=json,
                                       headers=self.headers, expect="json")
        except SourceUnavailable:
            raise
        except SourceError as exc:
            if "429" in exc.message:
                raise SourceError(NAME, busy_message(self.keyed)) from None
            raise


def busy_message(keyed: bool) -> str:
    """What to say when the service kept answering 429 after citekit backed off."""
    if keyed:
        return ("Semantic Scholar kept answering 429 (too many requests) for your API key after citekit "
                "waited and tried again; run again in a minute")
    return ("Semantic Scholar's shared pool (no API key) kept answering 429 (too many requests) after citekit "
            "waited and tried again; run again in a minute, or set CITEKIT_S2_API_KEY to a key of your own "
            "(https://www.semanticscholar.org/product/api#api-key-form)")


def _error(resp: Any) -> str:
    try:
        data = resp.json()
    except ValueError:
        return resp.text[:200]
    if isinstance(data, dict):
        return str(data.get("error") or data.get("message") or data)[:200]
    return str(data)[:200]


