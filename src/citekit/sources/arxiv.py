"""arXiv's Atom API: preprints, by id (many per request) or by title.

arXiv asks for one request every three seconds, so ids are batched: one ``id_list=``
request answers up to :data:`BATCH` papers, and each entry is cached on its own so a
later run with a different mix of ids still hits. Title and abstract searches are batched
the same way (:meth:`ArxivSource.search_many`): one ``search_query`` of up to
:data:`SEARCH_BATCH` clauses joined by ``OR``, the answer cached under each mention's own
query; which entry belongs to which mention is decided by the caller (``citekit.resolve``),
under the matching rules, not here. The API signals a bad query with an
``Error`` entry, sometimes with status 200 and sometimes 400; both are detected.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any, Iterable, Sequence

from citekit.core.ids import ARXIV_DOI_PREFIX, arxiv_version, normalize_arxiv, normalize_doi
from citekit.core.model import Ids
from citekit.core.resolution import Candidate, Mention
from citekit.core.text import fold
from citekit.core.names import parse_name
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HttpClient
from citekit.sources.queries import abstract_phrase, plain_words, reference_search, title_terms
from citekit.sources.settings import SourceSettings
from citekit.core.lazyre import lazy

NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom",
      "opensearch": "http://a9.com/-/spec/opensearch/1.1/"}
#: ids per request: well under the API's page limit, and a short URL
BATCH = 100
SEARCH_ROWS = 5
#: clauses per OR'ed search: the answer holds :data:`SEARCH_ROWS` rows per clause, well
#: under the API's 2,000 rows per request, and the URL stays short (about 2 KB)
SEARCH_BATCH = 20
#: the most rows one request may ask for (the API's slice limit)
MAX_ROWS = 2000

for _prefix, _uri in NS.items():
    if _prefix != "atom":
        ET.register_namespace(_prefix, _uri)
ET.register_namespace("", NS["atom"])


def _text(el: ET.Element | None) -> str | None:
    if el is None or el.text is None:
        return None
    text = " ".join(el.text.split())
    return text or None


def parse_feed(xml_text: str) -> list[ET.Element]:
    """The feed's entries; raises :class:`SourceError` for the API's error entry."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise SourceError("arxiv", f"the API answered something that is not Atom XML ({exc}); "
                                   "check sources.arxiv.url or run sync again later") from None
    entries = root.findall("atom:entry", NS)
    for entry in entries:
        eid = _text(entry.find("atom:id", NS)) or ""
        if "/api/errors" in eid or (_text(entry.find("atom:title", NS)) == "Error" and "/abs/" not in eid):
            summary = _text(entry.find("atom:summary", NS)) or "unknown error"
            raise SourceError("arxiv", f"the API rejected the query: {summary}")
    return entries


def entry_to_candidate(entry: ET.Element) -> Candidate:
    """One Atom ``<entry>`` as a candidate (the arXiv record itself is always a preprint)."""
    eid = _text(entry.find("atom:id", NS)) or ""
    aid = normalize_arxiv(eid) or eid
    version = arxiv_version(eid)
    published = _text(entry.find("atom:published", NS)) or ""
    year = int(published[:4]) if published[:4].isdigit() else None
    authors = [parse_name(n) for n in (_text(a.find("atom:name", NS)) for a in entry.findall("atom:author", NS)) if n]
    ids = Ids(arxiv=normalize_arxiv(aid))
    doi = _text(entry.find("arxiv:doi", NS))
    if doi:
        ids.doi = normalize_doi(doi)
    extra: dict[str, str] = {"eprinttype": "arxiv", "eprint": aid}
    if version:
        extra["version"] = str(version)
    primary = entry.find("arxiv:primary_category", NS)
    if primary is not None and primary.get("term"):
        extra["primaryclass"] = primary.get("term", "")
    for tag, key in (("arxiv:comment", "comment"), ("arxiv:journal_ref", "journal_ref")):
        value = _text(entry.find(tag, NS))
        if value:
            extra[key] = value
    if published[5:7].isdigit():
        extra["month"] = str(int(published[5:7]))
    return Candidate(
        source="arxiv",
        id=aid,
        title=_text(entry.find("atom:title", NS)) or "",
        authors=authors,
        year=year,
        venue="arXiv",
        container=None,
        entry_type="misc",
        stage="preprint",
        ids=ids,
        abstract=_text(entry.find("atom:summary", NS)),
        url=f"https://arxiv.org/abs/{aid}",
        extra=extra,
        raw=ET.tostring(entry, encoding="unicode"),
    )


def _quote(words: str) -> str:
    return '"' + words.replace('"', " ") + '"'


def _reference_clause(guess: str, family: str | None) -> str:
    return f"ti:{_quote(guess)}" + (f" AND au:{_quote(family)}" if family else "")


def search_params(mention: Mention) -> dict[str, Any] | None:
    """The one query :meth:`ArxivSource.search` sends for ``mention`` (its title as a
    phrase, else a phrase of its abstract, else, for a pasted reference with no title
    read, the field of the string most likely its title as a phrase and the first author's
    family name; a title the parser read unsure, both), which is also the key its answer is
    cached under; None when the mention gives nothing to search."""
    title = title_terms(mention)
    reference = reference_search(mention if not title else replace(mention, title=None)) \
        if not title or mention.title_unsure else None
    if title:
        query = f"ti:{_quote(title)}"
        if reference and fold(reference[0]) != fold(title):
            # a title the parser was not sure of: the string's likeliest title field too, in
            # the same clause (no request of its own; what fits is decided by the caller)
            query = f"({query}) OR ({_reference_clause(*reference)})"
    elif reference:
        query = _reference_clause(*reference)
    else:
        phrase = abstract_phrase(mention) if mention.kind == "abstract" else None
        if not phrase:
            return None
        query = f"abs:{_quote(phrase)}"
    return {"search_query": query, "start": 0, "max_results": SEARCH_ROWS}


def author_params(families: Sequence[str]) -> dict[str, Any] | None:
    """The query :meth:`ArxivSource.by_authors` sends for these family names (the first
    three, ``AND``ed, newest first), also its cache key; None for fewer than two names."""
    names = [" ".join(plain_words(f).split()) for f in families if f and f.strip()][:3]
    if len(names) < 2:
        return None
    query = " AND ".join(f"au:{_quote(n)}" for n in names)
    return {"search_query": query, "start": 0, "max_results": 10, "sortBy": "submittedDate",
            "sortOrder": "descending"}


def _by_all(payload: Any, query: str) -> dict[str, Any] | None:
    """The entries of a batch's answer that an ``au:`` query of its own would give: by
    every author it names (each name's words among the entry's author names), newest
    first, at most as many as it asks for."""
    wanted = [plain_words(n).lower().split() for n in _AU.findall(query)]
    kept = []
    for xml in (payload or {}).get("entries", []):
        entry = ET.fromstring(xml)
        have = " ".join(_text(a.find("atom:name", NS)) or "" for a in entry.findall("atom:author", NS))
        words = set(plain_words(have).lower().split())
        if wanted and all(all(w in words for w in name) for name in wanted):
            kept.append((_text(entry.find("atom:published", NS)) or "", xml))
    kept.sort(key=lambda t: t[0], reverse=True)
    return {"entries": [xml for _, xml in kept[:10]]} if kept else None


_AU = lazy(r'au:"([^"]*)"')
_PHRASE = lazy(r'(ti|abs):"([^"]*)"')


def _without_author_only(payload: Any, queries: Sequence[str]) -> dict[str, Any] | None:
    """A batch's answer as its title and abstract clauses found it: without the entries
    that only its ``au:`` clauses brought (no clause's words in their title or abstract),
    which a search by title never gives."""
    wanted = [(field, plain_words(text).lower().split())
              for q in queries for field, text in _PHRASE.findall(q)]
    kept = []
    for xml in (payload or {}).get("entries", []):
        entry = ET.fromstring(xml)
        have = {"ti": set(plain_words(_text(entry.find("atom:title", NS)) or "").lower().split()),
                "abs": set(plain_words(_text(entry.find("atom:summary", NS)) or "").lower().split())}
        if any(words and all(w in have[field] for w in words) for field, words in wanted):
            kept.append(xml)
    return {"entries": kept} if kept else None


def _candidates(payload: Any) -> list[Candidate]:
    if not payload:
        return []
    return [entry_to_candidate(ET.fromstring(x)) for x in payload["entries"]]


class ArxivSource:
    """The arXiv API (``export.arxiv.org/api/query``)."""

    name = "arxiv"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.url = settings.url("arxiv")

    def lookup(self, scheme: str, value: str) -> Candidate | None:
        if scheme == "doi":
            doi = normalize_doi(value) or ""
            if not doi.startswith(ARXIV_DOI_PREFIX):
                return None
            value = doi
        elif scheme != "arxiv":
            return None
        aid = normalize_arxiv(value)
        return self.lookup_many([aid])[aid] if aid else None

    def lookup_many(self, ids: Iterable[str]) -> dict[str, Candidate | None]:
        """Records for many arXiv ids, asking only for those not cached, ``BATCH`` per request.

        Keys of the result are the bare ids (versions dropped: the latest version is the
        record); ids that are not arXiv ids map to None without a request.
        """
        wanted: dict[str, str | None] = {}
        for raw in ids:
            wanted.setdefault(raw, normalize_arxiv(raw))
        bare = sorted({a for a in wanted.values() if a})
        found: dict[str, Any] = {}
        missing: list[str] = []
        for aid in bare:
            hit = self.cache.get(self.name, "id", {"id": aid})
            if hit is None:
                missing.append(aid)
            else:
                self.cache.hits += 1
                found[aid] = hit.payload
        for start in range(0, len(missing), BATCH):
            chunk = missing[start:start + BATCH]
            entries = self._fetch_ids(chunk)
            for aid in chunk:
                self.cache.misses += 1
                self.cache.put(self.name, "id", {"id": aid}, entries.get(aid))
                found[aid] = entries.get(aid)
        out: dict[str, Candidate | None] = {}
        for raw, aid in wanted.items():
            xml = found.get(aid) if aid else None
            cand = entry_to_candidate(ET.fromstring(xml)) if xml else None
            out[aid or raw] = cand
        return out

    def _fetch_ids(self, chunk: list[str]) -> dict[str, str]:
        params = {"id_list": ",".join(chunk), "max_results": len(chunk)}
        entries = parse_feed(self._get(params))
        by_id: dict[str, str] = {}
        for entry in entries:
            aid = normalize_arxiv(_text(entry.find("atom:id", NS)) or "")
            if aid in chunk:
                by_id[aid] = ET.tostring(entry, encoding="unicode")
        return by_id

    def search(self, mention: Mention) -> list[Candidate]:
        params = search_params(mention)
        if params is None:
            return []
        payload = self.cache.fetch(self.name, "search", params, lambda: self._search(params))
        if not payload:
            return []
        return [entry_to_candidate(ET.fromstring(x)) for x in payload["entries"]]

    def by_authors(self, families: list[str]) -> list[Candidate]:
        """Preprints by all of these authors (family names), newest first: where a paper
        renamed since its submission is found when its old title finds nothing."""
        params = author_params(families)
        if params is None:
            return []  # one family name alone matches too many papers to be worth a request
        payload = self.cache.fetch(self.name, "search", params, lambda: self._search(params))
        return _candidates(payload)

    def search_many(self, mentions: Sequence[Mention],
                    authors: Sequence[Sequence[str]] = ()) -> list[list[Candidate]]:
        """What :meth:`search` would give each mention, in one request per :data:`SEARCH_BATCH`.

        The clauses of the mentions not cached are joined by ``OR``; each mention gets the
        whole answer of its batch (the entries of every clause, relevance first), which is
        also stored under its own single query, so a later run asks nothing. The caller
        keeps, for each mention, only the entries that fit it.

        ``authors`` are :meth:`by_authors` queries (family names) that the same requests
        carry as ``au:`` clauses: each one's answer (the entries by all those authors,
        newest first, as :meth:`by_authors` asks) is stored under its own query, where
        :meth:`by_authors` then finds it without a request of its own.
        """
        out: list[list[Candidate]] = [[] for _ in mentions]
        todo: list[tuple[int, dict[str, Any]]] = []
        for i, mention in enumerate(mentions):
            params = search_params(mention)
            if params is None:
                continue
            hit = self.cache.get(self.name, "search", params)
            if hit is not None:
                self.cache.hits += 1
                out[i] = _candidates(hit.payload)
            else:
                todo.append((i, params))
        extra: list[tuple[int, dict[str, Any]]] = []
        for families in authors:
            params = author_params(families)
            if params is not None and self.cache.get(self.name, "search", params) is None \
                    and all(params != p for _, p in extra):
                extra.append((-1, params))
        jobs = todo + extra
        for start in range(0, len(jobs), SEARCH_BATCH):
            chunk = jobs[start:start + SEARCH_BATCH]
            clauses = list(dict.fromkeys(p["search_query"] for _, p in chunk))
            query = clauses[0] if len(clauses) == 1 else " OR ".join(f"({c})" for c in clauses)
            rows = min(MAX_ROWS, sum(p["max_results"] for p in {p["search_query"]: p for _, p in chunk}.values()))
            payload = self._search({"search_query": query, "start": 0, "max_results": rows})
            phrases = [p["search_query"] for i, p in chunk if i >= 0]
            for i, params in chunk:
                self.cache.misses += 1
                if i >= 0:
                    answer = _without_author_only(payload, phrases) if len(phrases) < len(chunk) else payload
                    out[i] = _candidates(self.cache.put(self.name, "search", params, answer))
                else:
                    self.cache.put(self.name, "search", params, _by_all(payload, params["search_query"]))
        return out

    def _search(self, params: dict[str, Any]) -> dict[str, Any] | None:
        entries = parse_feed(self._get(params))
        if not entries:
            return None
        return {"entries": [ET.tostring(e, encoding="unicode") for e in entries]}

    def _get(self, params: dict[str, Any]) -> str:
        resp = self.client.request(self.name, "GET", self.url, params=params, expect="atom")
        if resp.status_code == 200 or (resp.status_code == 400 and "<feed" in resp.text):
            return resp.text  # a 400 carries the error entry, which parse_feed reports
        raise SourceError(self.name, f"the API answered {resp.status_code}; run sync again later")
