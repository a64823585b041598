"""dblp: the computer-science bibliography, with PMLR/ICML records that carry no DOI.

Search uses the JSON search API, whose quirks are handled here: one author is an object
not a list, ``ee`` and ``venue`` may be a string or a list, zero hits drop the ``hit``
key, titles end with a full stop. A lookup by record key reads ``/rec/<key>.bib``: the
search API does not index keys, and the BibTeX is the record itself (404 for an unknown
key), so it is the robust way. CoRR records (``journals/corr/abs-…``) are arXiv preprints.
"""

from __future__ import annotations

import html
import re
from typing import Any

import bibtexparser
from bibtexparser.middlewares.names import split_multiple_persons_names

from citekit.core import venues
from citekit.core.ids import ids_from_url, normalize_arxiv, normalize_dblp, normalize_doi
from citekit.core.model import Ids, Person
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.core.text import latex_to_text
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HttpClient, body_json
from citekit.sources.queries import plain_words, reference_search, title_terms
from citekit.sources.settings import SourceSettings
from citekit.core.lazyre import lazy

_HOMONYM_RE = lazy(r"\s+\d{4}$")
_CORR_KEY_RE = lazy(r"^journals/corr/abs-(\d{4})-(\d{4,5})$")
_TYPES = {
    "Conference and Workshop Papers": ("inproceedings", "published"),
    "Journal Articles": ("article", "published"),
    "Informal and Other Publications": ("misc", "preprint"),
    "Informal Publications": ("misc", "preprint"),
    "Books and Theses": ("book", "published"),
    "Parts in Books or Collections": ("incollection", "published"),
    "Editorship": ("book", "published"),
}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("text", "")
    return html.unescape(" ".join(str(value).split()))


def strip_title(title: str) -> str:
    """dblp ends every title with ``.``; drop it unless it belongs (``?``/``!`` stay)."""
    title = " ".join(title.split())
    return title[:-1] if title.endswith(".") and not title.endswith("..") else title


def person(name: str) -> Person:
    """A dblp name without its homonym number (``Wei Chen 0001`` → ``Wei Chen``)."""
    clean = _HOMONYM_RE.sub("", " ".join(name.split()))
    return parse_name(clean, family_first=False)


def corr_arxiv_id(key: str) -> str | None:
    """``journals/corr/abs-2605-31324`` → ``2605.31324``."""
    m = _CORR_KEY_RE.match(key)
    return f"{m.group(1)}.{m.group(2)}" if m else None


def _classify(key: str, dblp_type: str, venue_name: str | None) -> tuple[str, str]:
    if key.startswith("journals/corr/"):
        return "misc", "preprint"
    entry_type, stage = _TYPES.get(dblp_type, ("misc", "published"))
    if entry_type == "inproceedings" and venue_name and "workshop" in venue_name.lower():
        stage = "workshop"
    return entry_type, stage


def _venue(key: str, venue_name: str | None, year: int | None) -> tuple[str | None, str | None]:
    """``(short venue, container)``: ``conf/icml/…`` with venue ``ICML`` → ICML 2025 + long name."""
    short = venues.canonical(venue_name or "") or venues.canonical(key.split("/")[1] if key.count("/") >= 2 else "")
    if short and not key.startswith("journals/corr/"):
        return (f"{short} {year}" if year else short), venues.long_name(short, year) or venue_name
    return venue_name, venue_name


def hit_to_candidate(info: dict[str, Any]) -> Candidate:
    """One ``result.hits.hit[].info`` object as a candidate."""
    key = str(info.get("key", ""))
    authors = [person(_text(a)) for a in _as_list((info.get("authors") or {}).get("author"))]
    year = int(info["year"]) if str(info.get("year", "")).isdigit() else None
    venue_name = _text(_as_list(info.get("venue"))[0]) if info.get("venue") else None
    entry_type, stage = _classify(key, str(info.get("type", "")), venue_name)
    short, container = _venue(key, venue_name, year)
    ees = [str(e) for e in _as_list(info.get("ee"))]
    ids = Ids(dblp=normalize_dblp(key) or key or None)
    if info.get("doi"):
        ids.doi = normalize_doi(str(info["doi"]))
    for ee in ees:
        found = ids_from_url(ee)
        ids = ids.merged(Ids(doi=found.doi, arxiv=found.arxiv, openreview=found.openreview))
    ids.arxiv = ids.arxiv or corr_arxiv_id(key)
    extra: dict[str, str] = {}
    for field in ("pages", "volume", "number"):
        if info.get(field):
            extra[field] = _text(info[field])
    if info.get("type"):
        extra["dblp_type"] = str(info["type"])
    if len(ees) > 1:
        extra["ee"] = " ".join(ees)
    return Candidate(
        source="dblp",
        id=key,
        title=strip_title(_text(info.get("title", ""))),
        authors=authors,
        year=year,
        venue=short,
        container=container,
        entry_type=entry_type,
        stage=stage,
        ids=ids,
        url=ees[0] if ees else info.get("url"),
        extra=extra,
        raw=info,
    )


def _bib_names(value: str) -> list[Person]:
    return [person(latex_to_text(n, matching=True)) for n in split_multiple_persons_names(" ".join(value.split())) if n.strip()]


#: BibTeX entry type of a ``/rec/<key>.bib`` record -> dblp's publication type
_BIB_TYPES = {
    "inproceedings": "Conference and Workshop Papers",
    "article": "Journal Articles",
    "book": "Books and Theses",
    "phdthesis": "Books and Theses",
    "mastersthesis": "Books and Theses",
    "incollection": "Parts in Books or Collections",
    "proceedings": "Editorship",
}
#: fields that hold a URL or an identifier, where ``\_`` is only BibTeX's escaping
_VERBATIM = ("doi", "url", "ee", "biburl", "eprint")
_ESCAPED = lazy(r"\\([_%&#$])")


def _unescape_verbatim(value: str) -> str:
    """``10.1007/978-3-030\\_12`` → ``10.1007/978-3-030_12``: dblp escapes ``_``/``%``/``&``."""
    return _ESCAPED.sub(r"\1", value)


def bibtex_to_candidate(text: str, key: str) -> Candidate | None:
    """A ``/rec/<key>.bib`` answer as a candidate: the record itself, not the
    ``@proceedings`` volume dblp appends to a paper (unless the key *is* that volume)."""
    library = bibtexparser.parse_string(text)
    entries = list(library.entries)
    entry = next((e for e in entries if e.entry_type.lower() != "proceedings"), None) or \
        next((e for e in entries if e.key.removeprefix("DBLP:") == key), None) or (entries[0] if entries else None)
    if entry is None:
        return None
    f = {fld.key.lower(): " ".join(str(fld.value).split()) for fld in entry.fields}
    for name in _VERBATIM:
        if f.get(name):
            f[name] = _unescape_verbatim(f[name])
    year = int(f["year"]) if f.get("year", "").isdigit() else None
    bib_type = entry.entry_type.lower()
    venue_name = latex_to_text(f.get("booktitle") or f.get("journal") or f.get("series") or "", matching=True) or None
    dblp_type = _BIB_TYPES.get(bib_type, "Informal and Other Publications")
    entry_type, stage = _classify(key, dblp_type, venue_name)
    if bib_type in ("book", "proceedings"):
        entry_type = "book"
        venue_name = latex_to_text(f.get("series") or f.get("publisher") or "", matching=True) or None
    elif bib_type == "phdthesis":
        entry_type = "phdthesis"
    short = venues.canonical(key.split("/")[1]) if key.count("/") >= 2 else None
    if short and not key.startswith("journals/corr/") and bib_type in ("inproceedings", "article"):
        venue, container = (f"{short} {year}" if year else short), venues.long_name(short, year) or venue_name
    else:
        venue, container = venue_name, venue_name
    ids = Ids(dblp=key, doi=normalize_doi(f["doi"]) if f.get("doi") else None)
    if f.get("url"):
        found = ids_from_url(f["url"])
        ids = ids.merged(Ids(doi=found.doi, arxiv=found.arxiv, openreview=found.openreview))
    if f.get("eprint") and f.get("eprinttype", "").lower() == "arxiv":
        ids.arxiv = ids.arxiv or normalize_arxiv(f["eprint"])
    ids.arxiv = ids.arxiv or corr_arxiv_id(key)
    extra = {k: latex_to_text(f[k], matching=True) for k in ("pages", "volume", "number", "publisher", "series", "school") if f.get(k)}
    if f.get("editor"):
        extra["editor"] = " and ".join(p.display() for p in _bib_names(f["editor"]))
    if f.get("isbn"):
        extra["isbn"] = f["isbn"]
    authors = _bib_names(f.get("author", "")) or (_bib_names(f["editor"]) if bib_type == "proceedings" and f.get("editor") else [])
    return Candidate(
        source="dblp",
        id=key,
        title=strip_title(latex_to_text(f.get("title", ""), matching=True)),
        authors=authors,
        year=year,
        venue=venue,
        container=container,
        entry_type=entry_type,
        stage=stage,
        ids=ids,
        url=f.get("url"),
        extra=extra,
        raw=text,
    )


class DblpSource:
    """dblp search API and per-record BibTeX."""

    name = "dblp"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings, hits: int = 10) -> None:
        self.client = client
        self.cache = cache
        self.base = settings.url("dblp").rstrip("/")
        self.hits = hits

    def lookup(self, scheme: str, value: str) -> Candidate | None:
        if scheme == "dblp":
            key = normalize_dblp(value)
        elif scheme == "arxiv" and (aid := normalize_arxiv(value)) and re.fullmatch(r"\d{4}\.\d{4,5}", aid):
            key = "journals/corr/abs-" + aid.replace(".", "-")  # CoRR keys are computable from the id
        else:
            return None
        if not key:
            return None
        text = self.cache.fetch(self.name, "record", {"key": key}, lambda: self._record(key))
        return bibtex_to_candidate(text, key) if text else None

    def _record(self, key: str) -> str | None:
        resp = self.client.request(self.name, "GET", f"{self.base}/rec/{key}.bib", params={"param": 1},
                                   expect="bibtex")
        if resp.status_code in (404, 410):
            return None
        if resp.status_code != 200:
            raise SourceError(self.name, f"record {key} answered {resp.status_code}")
        if "@" not in resp.text:
            raise SourceError(self.name, f"record {key}: expected BibTeX, got {resp.headers.get('Content-Type')}; "
                                         "dblp may be throttling, run sync again later")
        return resp.text

    def search(self, mention: Mention) -> list[Candidate]:
        query = title_terms(mention)
        if query is None and (words := reference_search(mention)):
            # a pasted reference with no title read: the field most likely its title and the
            # first author's family name (dblp ANDs the words, matching their beginnings)
            query = " ".join(w for w in words if w)
        if query is None and mention.hints:  # dblp indexes titles: a method name may be in one
            query = plain_words(mention.hints[0])
        if not query:
            return []
        params = {"q": query, "format": "json", "h": self.hits}
        payload = self.cache.fetch(self.name, "search", params, lambda: self._search(params))
        hits = _as_list((((payload or {}).get("result") or {}).get("hits") or {}).get("hit"))
        return [hit_to_candidate(h["info"]) for h in hits if isinstance(h, dict) and h.get("info")]

    def _search(self, params: dict[str, Any]) -> dict[str, Any] | None:
        resp = self.client.request(self.name, "GET", f"{self.base}/search/publ/api", params=params, expect="json")
        if resp.status_code != 200:
            raise SourceError(self.name, f"search answered {resp.status_code}")
        try:
            body = body_json(resp)
        except ValueError:
            raise SourceError(self.name, "search did not answer JSON (dblp may be throttling); "
                                         "run sync again later") from None
        result = body.get("result") if isinstance(body, dict) else None
        if not isinstance(result, dict):
            raise SourceError(self.name, "unexpected search answer: no 'result' object")
        return body if (result.get("hits") or {}).get("hit") else None
