"""OpenAlex as a citation-graph source: works by DOI or OpenAlex id, and who cites them, 100 a request.

Three list calls do the work, each batching up to :data:`BATCH` ids with OpenAlex's OR
filter and ``select=`` keeping the answer small: ``filter=doi:A|B|…`` (the seeds, with their
``referenced_works``), ``filter=cites:W1|W2|…`` (works citing any seed: each result's
``referenced_works`` says which seeds it cites) and ``filter=openalex:W1|W2|…`` (the
neighbours' records). ``per-page`` is at most 100; pages beyond the first are asked with
``page=`` up to :data:`MAX_PAGES` (cursor paging needs a key). arXiv ids are asked as
arXiv's own DOIs (``10.48550/arXiv.…``), which OpenAlex indexes.

Since 2026 OpenAlex wants an API key (``CITEKIT_OPENALEX_API_KEY``, sent as ``api_key=``)
and list calls cost credits; over its per-second limit it answers 403, which is waited out
twice and then reported with the way out. Some works list no references at all (a
well-known paper with an empty ``referenced_works``): that is "unknown", not "cites
nothing", and their references stay ``None``. Reference ids that no longer resolve simply
get no record and are never suggested.
"""

from __future__ import annotations

from typing import Any, Callable

from citekit.core.ids import normalize_arxiv, normalize_doi
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import LookupCache
from citekit.sources.graph import GraphPaper
from citekit.sources.http import HttpClient, body_json
from citekit.sources.settings import SourceSettings

NAME = "openalex"
#: ids per OR filter, and results per page: OpenAlex's own maxima
BATCH = 100
PER_PAGE = 100
#: pages of citing works read per batch of seeds (``page=``; deeper needs cursor paging and a key)
MAX_PAGES = 3
#: 403 answers (the per-second limit) waited out before giving up
FORBIDDEN_RETRIES = 2
SELECT = "id,doi,display_name,publication_year,ids,cited_by_count,type,is_paratext,primary_location,referenced_works"
ARXIV_DOI = "10.48550/arxiv."


def short_id(url: str | None) -> str | None:
    """``https://openalex.org/W2741809807`` → ``W2741809807``."""
    if not url:
        return None
    tail = str(url).rstrip("/").rsplit("/", 1)[-1]
    return tail if tail[:1] in "Ww" and tail[1:].isdigit() else None


def work_from(data: dict[str, Any]) -> GraphPaper | None:
    """One OpenAlex work as a :class:`GraphPaper`; an empty ``referenced_works`` stays unknown (None)."""
    wid = short_id(data.get("id"))
    if not wid:
        return None
    doi = normalize_doi(data.get("doi") or (data.get("ids") or {}).get("doi") or "") or None
    arxiv = normalize_arxiv(doi[len(ARXIV_DOI):]) if doi and doi.startswith(ARXIV_DOI) else None
    source = ((data.get("primary_location") or {}).get("source") or {})
    refs = [r for r in (short_id(x) for x in data.get("referenced_works") or []) if r]
    kinds = [str(data["type"])] if data.get("type") else []
    if data.get("is_paratext"):
        kinds = ["paratext"]
    year = data.get("publication_year")
    return GraphPaper(id=wid, source=NAME, title=" ".join(str(data.get("display_name") or data.get("title") or "").split()),
                      year=year if isinstance(year, int) else None, venue=source.get("display_name") or None,
                      doi=doi, arxiv=arxiv,
                      cited_by=data.get("cited_by_count") if isinstance(data.get("cited_by_count"), int) else None,
                      kinds=kinds, references=refs or None)


def as_doi(scheme: str, value: str) -> str | None:
    """The DOI OpenAlex is asked by: the DOI itself, or arXiv's DOI for an arXiv id."""
    if scheme == "doi":
        return normalize_doi(value) or None
    if scheme == "arxiv":
        aid = normalize_arxiv(value)
        return f"{ARXIV_DOI}{aid}" if aid else None
    return None


class OpenAlexGraph:
    """OpenAlex's ``/works`` as a :class:`~citekit.sources.graph.GraphSource`."""

    name = NAME

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.url = settings.url("openalex")
        self.key = settings.openalex_api_key
        self.mailto = settings.mailto
        #: answer from the cache alone (the service could not be reached)
        self.offline = False

    # -- seeds ---------------------------------------------------------------------------
    def seeds(self, ids: dict[str, tuple[str, str]]) -> dict[str, GraphPaper | None]:
        dois = {key: as_doi(*pair) for key, pair in ids.items()}
        found = self._cached(
            "doi", [d for d in dois.values() if d],
            lambda chunk: {p.doi: p for p in self._list("doi", chunk) if p.doi})
        seeds = {key: found.get(d) if d else None for key, d in dois.items()}
        known = [p for p in seeds.values() if p is not None]
        citers = self._cached_citers([p.id for p in known])
        for p in known:
            p.citations = citers.get(p.id, [])
        return seeds

    def _cached_citers(self, wids: list[str]) -> dict[str, list[str]]:
        """Works citing each of ``wids`` (as far as :data:`MAX_PAGES` pages go), cached per seed;
        the citing works' records are cached too (they are neighbours)."""
        out: dict[str, list[str]] = {}
        missing = []
        for wid in dict.fromkeys(wids):
            hit = self.cache.get(NAME, "cited-by", {"id": wid})
            if hit is None:
                missing.append(wid)
            else:
                self.cache.hits += 1
                out[wid] = list(hit.payload or [])
        if self.offline:
            return out
        for start in range(0, len(missing), BATCH):
            chunk = missing[start:start + BATCH]
            wanted = set(chunk)
            got: dict[str, list[str]] = {wid: [] for wid in chunk}
            for work in self._list("cites", chunk, pages=MAX_PAGES):
                self.cache.put(NAME, "work", {"id": work.id}, work.to_json())
                for ref in set(work.references or []) & wanted:
                    got[ref].append(work.id)
            for wid, citing in got.items():
                self.cache.misses += 1
                self.cache.put(NAME, "cited-by", {"id": wid}, citing)
                out[wid] = citing
        return out

    def papers(self, ids: list[str]) -> dict[str, GraphPaper | None]:
        return self._cached("work", [i for i in ids if short_id(i)],
                            lambda chunk: {p.id: p for p in self._list("openalex", chunk)})

    def recommend(self, positive: list[str], negative: list[str], limit: int) -> list[GraphPaper]:
        return []  # OpenAlex has no recommendations call; its ``related_works`` are concept-based

    # -- cache and wire ---------------------------------------------------------------
    def _cached(self, operation: str, ids: list[str],
                fetch: Callable[[list[str]], dict[str, GraphPaper]]) -> dict[str, GraphPaper | None]:
        out: dict[str, GraphPaper | None] = {}
        missing = []
        for i in dict.fromkeys(ids):
            hit = self.cache.get(NAME, operation, {"id": i})
            if hit is None:
                missing.append(i)
            else:
                self.cache.hits += 1
                out[i] = GraphPaper.from_json(hit.payload) if hit.payload else None
        if self.offline:
            return out
        for start in range(0, len(missing), BATCH):
            chunk = missing[start:start + BATCH]
            got = fetch(chunk)
            for i in chunk:
                paper = got.get(i)
                self.cache.misses += 1
                self.cache.put(NAME, operation, {"id": i}, paper.to_json() if paper else None)
                out[i] = paper
        return out

    def _list(self, field: str, values: list[str], *, pages: int = 1) -> list[GraphPaper]:
        """``/works?filter=FIELD:v1|v2…&select=…&per-page=100``, ``pages`` pages at most."""
        out: list[GraphPaper] = []
        for page in range(1, pages + 1):
            params: dict[str, Any] = {"filter": f"{field}:{'|'.join(values)}", "select": SELECT,
                                      "per-page": PER_PAGE, "page": page}
            data = self._get("/works", params)
            results = data.get("results") or []
            out.extend(p for p in (work_from(r) for r in results if isinstance(r, dict)) if p is not None)
            count = (data.get("meta") or {}).get("count") or 0
            if page * PER_PAGE >= count or not results:
                break
        return out

    def _get(self, path: str, params: dict[str, Any]) -> dict[str, Any]:
        if self.key:
            params = {**params, "api_key": self.key}
        if self.mailto:
            params = {**params, "mailto": self.mailto}
        for attempt in range(FORBIDDEN_RETRIES + 1):
            try:
                resp = self.client.request(NAME, "GET", self.url + path, params=params, expect="json")
            except SourceUnavailable:
                raise
            if resp.status_code == 403 and attempt < FORBIDDEN_RETRIES:
                self.client.sleep(1.0)  # the per-second limit: the next second is a new budget
                self.client.stats.retries[NAME] += 1
                continue
            break
        if resp.status_code == 403:
            raise SourceError(NAME, "OpenAlex refused the request (403) after waiting: over its per-second limit, "
                                    "or a key is needed" + ("" if self.key else
                                                             "; set CITEKIT_OPENALEX_API_KEY to your key"),
                              needs_credentials=not self.key)
        if resp.status_code != 200:
            raise SourceError(NAME, f"/works answered {resp.status_code}; run again later")
        data = body_json(resp)
        if not isinstance(data, dict):
            raise SourceError(NAME, "/works answered something that is not a list page; check sources.openalex.url")
        return data
