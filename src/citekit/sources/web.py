"""Web pages the notes link (a project page, a lab's page of the paper, a repository): read
once for the paper they describe, the way Zotero's embedded-metadata translator reads them.

A page is fetched once (one request, HTML only, capped at ``sources.web.max_mb``, cached
like every answer) and reduced to :class:`PageFacts`: what the page says about one paper,
read in Zotero's order — Highwire/Google Scholar ``citation_*`` meta tags, then Dublin
Core / PRISM / ``og:`` tags, a JSON-LD ``ScholarlyArticle``, COinS — then the paper
identifiers the page links (arXiv, DOI, OpenReview, an ACL Anthology page's DOI, a PMLR
paper's volume and name: :func:`citekit.core.ids.linked_ids`) and a BibTeX block
on the page. A GitHub repository is read through its ``CITATION.cff``, or else its README
(an arXiv badge or link, a BibTeX block). Nothing here decides whether the page is the
paper of a notes line: resolution checks the records it leads to as it checks any other.

``CITEKIT_WEB_URL`` (``sources.web.url``) puts every page behind one address, for tests
and mirrors: ``https://host/path`` is fetched as ``$CITEKIT_WEB_URL/host/path``.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Callable
from urllib.parse import urljoin, urlsplit

from citekit.core.ids import linked_ids, normalize_arxiv, normalize_doi
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.cache import LookupCache
from citekit.sources.http import HttpClient, RedirectRefused, ResponseTooLarge
from citekit.sources.settings import SourceSettings
from citekit.core.lazyre import lazy

#: how a page's outcome reads in a report, by status
OUTCOMES = {
    "paper": "describes a paper",
    "no-paper": "describes no one paper (no citation tags, scholarly JSON-LD, COinS or BibTeX block)",
    "not-found": "answered 404: the page is gone",
    "refused": "refused to answer",
    "not-html": "is not an HTML page",
    "too-large": "is larger than sources.web.max_mb; not read",
    "redirected": "redirected to another site: not read",
    "unsafe-redirect": "redirected to an address that is not a public web page (another scheme, a private or "
                       "loopback address): not read",
    "redirect-loop": "redirected more than 3 times: not read",
    "unreachable": "could not be reached: not read; asked again on a sync an hour from now",
}
#: how long a site that could not be reached (no such host, connection refused, timing
#: out) is left alone: long enough that syncs in a row do not each wait for it, short
#: enough that a site back up is read the same day. Not stored as the page's answer.
UNREACHABLE_SECONDS = 3600.0
#: redirects followed within one site (``http:`` → ``https:``, ``/p`` → ``/p/``, a renamed
#: repository) before a page counts as going round in circles
MAX_REDIRECTS = 3
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown", "application/octet-stream", "text/yaml",
               "application/x-yaml")
_BIB_ENTRY = lazy(r"@(article|inproceedings|misc|conference|incollection|techreport|phdthesis|book|online)"
                        r"\s*\{", re.I)
_ARXIV_IN_TEXT = lazy(r"arxiv[:\s-]*(?:abs/)?(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
_GITHUB_REPO = lazy(r"^/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$")


@dataclass
class PageFacts:
    """What one page says about a paper; ``status`` is a key of :data:`OUTCOMES`."""

    url: str
    status: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    #: identifiers the page's own metadata gives for its paper (scheme → value)
    ids: dict[str, str] = field(default_factory=dict)
    #: identifiers the page links (buttons, links, badges), most often linked first
    linked: list[tuple[str, str]] = field(default_factory=list)
    #: where the facts came from: ``citation_* tags``, ``JSON-LD``, ``BibTeX block`` …
    read_from: list[str] = field(default_factory=list)
    #: where a redirect that was not followed pointed (the user can note that page instead)
    moved_to: str | None = None
    #: why a site could not be reached ("no such host", "connection refused"); never stored
    cause: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "status": self.status, "title": self.title, "authors": self.authors,
                "year": self.year, "ids": self.ids, "linked": [list(x) for x in self.linked],
                "read_from": self.read_from, "moved_to": self.moved_to}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "PageFacts":
        return cls(url=data["url"], status=data["status"], title=data.get("title"), authors=list(data.get("authors") or []),
                   year=data.get("year"), ids=dict(data.get("ids") or {}),
                   linked=[(str(a), str(b)) for a, b in data.get("linked") or []], read_from=list(data.get("read_from") or []),
                   moved_to=data.get("moved_to"))

    def outcome(self) -> str:
        """One line for a report: what the page gave."""
        said = OUTCOMES.get(self.status, self.status)
        if self.moved_to and self.status == "redirected":
            said = said.replace(": not read", f" ({self.moved_to}): not read; note that address if it is the paper's")
        elif self.moved_to and self.status == "unsafe-redirect":
            said = f"{said} (it pointed to {self.moved_to})"
        elif self.cause and self.status == "unreachable":
            said = said.replace(":", f" ({self.cause}):", 1)
        return f"{self.url} {said}"


# ------------------------------------------------------------------------------ reading HTML


class _PageParser(HTMLParser):
    """Meta tags, JSON-LD, COinS spans, links and ``<pre>``/``<code>`` text of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, list[str]] = {}
        self.jsonld: list[str] = []
        self.coins: list[str] = []
        self.links: list[str] = []
        self.pre: list[str] = []
        self.title = ""
        self._in: list[str] = []
        self._buf: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "meta":
            key = (a.get("name") or a.get("property") or "").strip().lower()
            if key and "content" in a:
                self.meta.setdefault(key, []).append(" ".join(a["content"].split()))
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"].strip())
        elif tag == "span" and "z3988" in a.get("class", "").lower() and a.get("title"):
            self.coins.append(a["title"])
        elif tag == "script" and a.get("type", "").lower() == "application/ld+json":
            self._open("ldjson")
        elif tag in ("pre", "code", "textarea", "title"):
            self._open(tag)

    def _open(self, what: str) -> None:
        if not self._in:
            self._buf = []
        self._in.append(what)

    def handle_endtag(self, tag: str) -> None:
        what = "ldjson" if tag == "script" else tag
        if what not in self._in:
            return
        while self._in and self._in[-1] != what:
            self._in.pop()
        self._in.pop()
        if self._in:
            return
        text = "".join(self._buf)
        if what == "ldjson":
            self.jsonld.append(text)
        elif what == "title":
            self.title = " ".join(text.split())
        else:
            self.pre.append(text)

    def handle_data(self, data: str) -> None:
        if self._in:
            self._buf.append(data)


def _first(meta: dict[str, list[str]], *keys: str) -> str | None:
    for key in keys:
        for value in meta.get(key, []):
            if value.strip():
                return value.strip()
    return None


def _year(text: str | None) -> int | None:
    m = re.search(r"\b(19|20)\d{2}\b", text or "")
    return int(m.group(0)) if m else None


def _person(name: str) -> str:
    """``Sarkar, Bidipta`` → ``Bidipta Sarkar``: names as the notes write them."""
    name = " ".join(name.split())
    if name.count(",") == 1:
        last, first = (p.strip() for p in name.split(","))
        if first and last:
            return f"{first} {last}"
    return name


def _ids_of(text: str | None) -> dict[str, str]:
    """Paper identifiers in one value: an arXiv id or link, a DOI or DOI link."""
    if not text:
        return {}
    out = linked_ids(text) if "/" in text else {}
    if "arxiv" not in out:
        aid = normalize_arxiv(text) if re.fullmatch(r"\s*(arXiv:)?\d{4}\.\d{4,5}(v\d+)?\s*", text, re.I) else None
        m = aid or (_ARXIV_IN_TEXT.search(text).group(1) if _ARXIV_IN_TEXT.search(text) else None)
        if m:
            out["arxiv"] = normalize_arxiv(m) or m
    if "doi" not in out:
        doi = normalize_doi(text) if re.search(r"\b10\.\d{4,9}/\S+", text) else None
        if doi:
            out["doi"] = doi
    return out


def _highwire(meta: dict[str, list[str]]) -> tuple[str | None, list[str], int | None, dict[str, str]]:
    title = _first(meta, "citation_title")
    authors = [_person(a) for a in meta.get("citation_author", []) if a.strip()]
    if not authors and _first(meta, "citation_authors"):
        authors = [_person(a) for a in re.split(r"\s*;\s*", _first(meta, "citation_authors") or "") if a]
    year = _year(_first(meta, "citation_publication_date", "citation_date", "citation_online_date", "citation_year"))
    ids: dict[str, str] = {}
    if _first(meta, "citation_arxiv_id"):
        aid = normalize_arxiv(_first(meta, "citation_arxiv_id") or "")
        if aid:
            ids["arxiv"] = aid
    if _first(meta, "citation_doi"):
        doi = normalize_doi(_first(meta, "citation_doi") or "")
        if doi:
            ids["doi"] = doi
    for key in ("citation_pdf_url", "citation_abstract_html_url", "citation_public_url"):
        for k, v in _ids_of(_first(meta, key)).items():
            ids.setdefault(k, v)
    return title, authors, year, ids


def _dublin_core(meta: dict[str, list[str]]) -> tuple[str | None, list[str], int | None, dict[str, str]]:
    title = _first(meta, "dc.title", "dcterms.title", "prism.title")
    authors = [_person(a) for a in meta.get("dc.creator", []) + meta.get("dcterms.creator", []) if a.strip()]
    year = _year(_first(meta, "dc.date", "dcterms.issued", "dcterms.date", "prism.publicationdate"))
    ids: dict[str, str] = {}
    for value in meta.get("dc.identifier", []) + meta.get("dcterms.identifier", []) + meta.get("prism.doi", []):
        for k, v in _ids_of(value).items():
            ids.setdefault(k, v)
    return title, authors, year, ids


def _scholarly(block: Any) -> dict[str, Any] | None:
    """The first ``ScholarlyArticle`` (or ``Article`` with authors) in a JSON-LD value."""
    if isinstance(block, list):
        for item in block:
            found = _scholarly(item)
            if found:
                return found
        return None
    if not isinstance(block, dict):
        return None
    if "@graph" in block:
        return _scholarly(block["@graph"])
    kinds = block.get("@type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if any(k in ("ScholarlyArticle", "Article", "TechArticle", "Report") for k in kinds if isinstance(k, str)):
        if "ScholarlyArticle" in kinds or block.get("author"):
            return block
    return None


def _jsonld(texts: list[str]) -> tuple[str | None, list[str], int | None, dict[str, str]]:
    for text in texts:
        try:
            article = _scholarly(json.loads(text))
        except ValueError:
            continue
        if not article:
            continue
        people = article.get("author") or []
        people = people if isinstance(people, list) else [people]
        authors = []
        for p in people:
            if isinstance(p, str):
                authors.append(_person(p))
            elif isinstance(p, dict) and p.get("@type", "Person") == "Person":
                name = p.get("name") or " ".join(x for x in (p.get("givenName"), p.get("familyName")) if x)
                if name:
                    authors.append(_person(str(name)))
        ids: dict[str, str] = {}
        for key in ("identifier", "sameAs", "url"):
            values = article.get(key)
            for v in values if isinstance(values, list) else [values]:
                if isinstance(v, dict):
                    v = v.get("value") or v.get("@id")
                if isinstance(v, str) and key != "url" or isinstance(v, str) and "arxiv.org" in v:
                    for k, x in _ids_of(v).items():
                        ids.setdefault(k, x)
        title = article.get("headline") or article.get("name")
        return (str(title) if title else None), authors, _year(str(article.get("datePublished") or "")), ids
    return None, [], None, {}


def _coins(spans: list[str]) -> tuple[str | None, list[str], int | None, dict[str, str]]:
    from urllib.parse import parse_qs

    for span in spans:
        q = {k: v for k, v in parse_qs(span).items()}
        title = (q.get("rft.atitle") or q.get("rft.title") or q.get("rft.btitle") or [None])[0]
        if not title:
            continue
        authors = [_person(a) for a in q.get("rft.au", [])]
        if not authors and q.get("rft.aulast"):
            authors = [" ".join(x for x in ((q.get("rft.aufirst") or [""])[0], q["rft.aulast"][0]) if x)]
        ids: dict[str, str] = {}
        for v in q.get("rft_id", []):
            ids.update({k: x for k, x in _ids_of(v).items() if k not in ids})
        return title, authors, _year((q.get("rft.date") or [""])[0]), ids
    return None, [], None, {}


def _bibtex_block(blocks: list[str]) -> tuple[str | None, list[str], int | None, dict[str, str]]:
    """The one BibTeX entry shown on the page (a block with several entries names no one paper)."""
    for text in blocks:
        entries = list(_BIB_ENTRY.finditer(text))
        if len(entries) != 1:
            continue
        import bibtexparser

        try:
            parsed = bibtexparser.parse_string(text[entries[0].start():])
        except Exception:  # a broken block on a web page is no paper, not a failure
            continue
        if not parsed.entries:
            continue
        fields = {f.key.lower(): " ".join(str(f.value).split()) for f in parsed.entries[0].fields}
        title = re.sub(r"[{}]", "", fields.get("title", "")).strip() or None
        authors = [_person(a) for a in re.split(r"\s+and\s+", fields.get("author", "")) if a.strip()]
        ids: dict[str, str] = {}
        for key in ("eprint", "doi", "url", "journal", "archiveprefix"):
            for k, v in _ids_of(fields.get(key)).items():
                ids.setdefault(k, v)
        if "arxiv" in ids and fields.get("eprint") is None and "arxiv" not in (fields.get("journal", "") + fields.get("url", "")).lower():
            ids.pop("arxiv")
        return title, authors, _year(fields.get("year")), ids
    return None, [], None, {}


def _linked(links: list[str], base: str) -> list[tuple[str, str]]:
    """Paper identifiers the page links, most often linked first (ties: first linked)."""
    counts: dict[tuple[str, str], int] = {}
    for href in links:
        url = urljoin(base, href)
        if not url.startswith(("http://", "https://")):
            continue
        for scheme, value in linked_ids(url).items():
            counts[(scheme, value)] = counts.get((scheme, value), 0) + 1
    return sorted(counts, key=lambda k: -counts[k])


def read_html(url: str, html: str) -> PageFacts:
    """The facts of one HTML page, in Zotero's order of embedded metadata."""
    p = _PageParser()
    try:
        p.feed(html)
        p.close()
    except Exception:  # html.parser is lenient; a page it still chokes on gives what was read
        pass
    facts = PageFacts(url=url, status="no-paper", linked=_linked(p.links, url))
    readers = (("citation_* tags", lambda: _highwire(p.meta)), ("Dublin Core/PRISM tags", lambda: _dublin_core(p.meta)),
               ("JSON-LD ScholarlyArticle", lambda: _jsonld(p.jsonld)), ("COinS", lambda: _coins(p.coins)),
               ("BibTeX block", lambda: _bibtex_block(p.pre)))
    for how, read in readers:
        title, authors, year, ids = read()
        if not (title or ids):
            continue
        facts.read_from.append(how)
        facts.title = facts.title or title
        facts.authors = facts.authors or authors
        facts.year = facts.year or year
        for k, v in ids.items():
            facts.ids.setdefault(k, v)
    if facts.title and not facts.authors and _first(p.meta, "author"):
        facts.authors = [_person(a) for a in re.split(r"\s*[;,]\s*(?=\S+\s)", _first(p.meta, "author") or "") if a]
    if facts.title or facts.ids:
        facts.status = "paper"
    return facts


# ------------------------------------------------------------------------------ GitHub


def github_repo(url: str) -> tuple[str, str] | None:
    """``(owner, repo)`` of a GitHub repository's own URL (not a file, issue or user page)."""
    parts = urlsplit(url)
    if parts.netloc.lower() not in ("github.com", "www.github.com"):
        return None
    m = _GITHUB_REPO.match(parts.path)
    return (m.group(1), m.group(2)) if m else None


def read_citation_cff(url: str, text: str) -> PageFacts:
    """A repository's ``CITATION.cff``: its ``preferred-citation`` when there is one."""
    import yaml

    facts = PageFacts(url=url, status="no-paper")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return facts
    if not isinstance(data, dict):
        return facts
    paper = data.get("preferred-citation") if isinstance(data.get("preferred-citation"), dict) else data
    title = paper.get("title")
    authors = []
    for a in paper.get("authors") or []:
        if isinstance(a, dict):
            name = " ".join(str(a[k]) for k in ("given-names", "name-particle", "family-names") if a.get(k)) or a.get("name")
            if name:
                authors.append(str(name))
    ids: dict[str, str] = {}
    for value in [paper.get("doi"), paper.get("url"), *(i.get("value") for i in paper.get("identifiers") or []
                                                        if isinstance(i, dict))]:
        if isinstance(value, str):
            for k, v in _ids_of(value).items():
                ids.setdefault(k, v)
    facts.read_from.append("CITATION.cff")
    facts.title, facts.authors, facts.ids = (str(title) if title else None), authors, ids
    facts.year = _year(str(paper.get("year") or paper.get("date-released") or ""))
    if facts.title or facts.ids:
        facts.status = "paper"
    return facts


def read_readme(url: str, text: str) -> PageFacts:
    """A repository's README: a BibTeX block, and the arXiv paper its badge or links name.

    Without a BibTeX block, the README names its repository's paper only by an arXiv
    badge (one paper's: shields.io's ``arXiv-2511.16652``) or by linking one arXiv paper and
    no other paper; a README that links several papers (its related work) names none of them.
    """
    facts = PageFacts(url=url, status="no-paper")
    blocks = re.findall(r"```[a-zA-Z]*\n(.*?)```", text, re.S)
    title, authors, year, ids = _bibtex_block(blocks)
    if title or ids:
        facts.read_from.append("BibTeX block")
        facts.title, facts.authors, facts.year, facts.ids = title, authors, year, ids
    counts: dict[tuple[str, str], int] = {}
    for m in re.finditer(r"https?://[^\s)\]>\"']+", text):
        for scheme, value in linked_ids(m.group(0).rstrip(".,;:!?")).items():  # a link ending a sentence
            counts[(scheme, value)] = counts.get((scheme, value), 0) + 1
    badges = list(dict.fromkeys(re.findall(r"arXiv-(\d{4}\.\d{4,5})", text)))  # shields.io: arXiv-2511.16652-b31b1b
    for aid in badges:
        counts[("arxiv", aid)] = counts.get(("arxiv", aid), 0) + 1
    facts.linked = sorted(counts, key=lambda k: -counts[k])
    if not (facts.title or facts.ids):
        if len(badges) == 1:
            facts.ids, how = {"arxiv": badges[0]}, "README arXiv badge"
        elif len(counts) == 1 and next(iter(counts))[0] == "arxiv":
            # arXiv only: a README's lone DOI is as often its software's or a data set's
            facts.ids, how = {"arxiv": next(iter(counts))[1]}, "README's one paper link"
        else:
            how = ""
        if how:
            facts.read_from.append(how)
    if facts.title or facts.ids:
        facts.status = "paper"
    return facts


# ------------------------------------------------------------------------------ the source


class WebPageSource:
    """Pages the notes link, read for the paper they describe (see the module's docstring)."""

    name = "web"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.base = settings.url("web").rstrip("/")

    def lookup(self, scheme: str, value: str) -> None:
        """Pages are not looked up by identifier."""
        return None

    def search(self, mention: Any) -> list:
        """Pages are read, not searched: see :meth:`read`."""
        return []

    def address(self, url: str) -> str:
        """Where ``url`` is fetched: itself, or ``$CITEKIT_WEB_URL/host/path`` behind an override."""
        if not self.base:
            return url
        parts = urlsplit(url)
        path = parts.path or "/"
        return f"{self.base}/{parts.netloc}{path}" + (f"?{parts.query}" if parts.query else "")

    def read(self, url: str) -> PageFacts:
        """The facts of the page at ``url``: one request the first time, none after (cached).

        A GitHub repository is read through its ``CITATION.cff``, else its README. Raises
        :class:`SourceError` only when the site could not answer (down, 5xx after retries):
        a missing, oversized or non-HTML page is an outcome, cached like any answer. A site
        that cannot be reached is that site's outcome alone (the other pages are still
        read), not stored, and the run's answers hold only :data:`UNREACHABLE_SECONDS`.
        """
        try:
            payload = self.cache.fetch(self.name, "page", {"url": url}, lambda: self._read(url).to_json())
        except SourceUnavailable as err:
            if err.deadline:
                raise
            self.cache.expires(self.cache.clock() + UNREACHABLE_SECONDS)
            return PageFacts(url=url, status="unreachable", cause=err.cause or None)
        return PageFacts.from_json(payload)

    def _read(self, url: str) -> PageFacts:
        repo = github_repo(url)
        if repo is not None:
            owner, name = repo
            raw = f"https://raw.githubusercontent.com/{owner}/{name}/HEAD"
            status, text, _ = self._get(f"{raw}/CITATION.cff", text_ok=True)
            if status == "ok":
                facts = read_citation_cff(url, text)
                if facts.status == "paper":
                    return facts
            status, text, moved = self._get(f"{raw}/README.md", text_ok=True)
            return read_readme(url, text) if status == "ok" else PageFacts(url=url, status=status, moved_to=moved)
        status, text, moved = self._get(url, text_ok=False)
        if status != "ok":
            return PageFacts(url=url, status=status, moved_to=moved)
        facts = read_html(moved or url, text)  # relative links are the final page's
        facts.url = url
        return facts

    def _get(self, url: str, *, text_ok: bool) -> tuple[str, str, str | None]:
        """``(status, text, final URL)`` of one page: status ``ok`` or a key of :data:`OUTCOMES`.
        The final URL is where same-site redirects led (None: not redirected), or for a
        refused redirect where it pointed."""
        followed: list[str] = [url]
        try:
            resp = self.client.request(self.name, "GET", self.address(url), redirect=self._judge(followed),
                                       headers={"Accept": "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5"},
                                       scope=(urlsplit(url).hostname or "").lower())
        except ResponseTooLarge:
            return "too-large", "", None
        except RedirectRefused as refused:
            return refused.status, "", refused.location
        moved = followed[-1] if len(followed) > 1 else None
        if resp.status_code in (404, 410):
            return "not-found", "", moved
        if resp.status_code != 200:
            return "refused", "", moved
        kind = (resp.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind not in _HTML_TYPES and not (text_ok and (kind in _TEXT_TYPES or not kind)):
            return "not-html", "", moved
        resp.encoding = resp.encoding or "utf-8"
        try:
            return "ok", resp.text, moved
        except (LookupError, UnicodeDecodeError) as exc:
            raise SourceError(self.name, f"{url}: the page's text could not be decoded ({exc})") from None

    # -- redirects --------------------------------------------------------------------------

    def page_url(self, address: str) -> str:
        """The page an address stands for: :meth:`address` undone behind the override."""
        if self.base and address.startswith(self.base + "/"):
            return "https://" + address[len(self.base) + 1:]
        return address

    def _judge(self, followed: list[str]) -> Callable[[str, str, int], str]:
        """The redirect rule of one page (``followed``: the pages it went through so far).

        A page moving within its own site is followed up to :data:`MAX_REDIRECTS` times;
        one sending the reader to another site is that page refused (the other site's page
        is not what the notes link, and a login portal or a parked domain is never a paper),
        the source stays up for the next page. Never to another scheme (``file:``, ``ftp:``)
        nor, unless every page comes from the ``CITEKIT_WEB_URL`` override, to a loopback or
        private address: a public page must not make citekit read the user's own network.
        """
        def judge(current: str, location: str, hop: int) -> str:
            there = self.page_url(location)
            parts = urlsplit(there)
            if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
                raise RedirectRefused(self.name, f"{followed[0]} redirects to {there}", status="unsafe-redirect",
                                      location=there)
            if not self.base and private_host(parts.hostname):
                raise RedirectRefused(self.name, f"{followed[0]} redirects to {there}", status="unsafe-redirect",
                                      location=there)
            if site(there) != site(followed[-1]):
                raise RedirectRefused(self.name, f"{followed[0]} redirects to {there}", status="redirected",
                                      location=there)
            if hop >= MAX_REDIRECTS:
                raise RedirectRefused(self.name, f"{followed[0]} redirects more than {MAX_REDIRECTS} times",
                                      status="redirect-loop", location=there)
            followed.append(there)
            return self.address(there)

        return judge


def site(url: str) -> str:
    """The site of a URL, as a reader sees it: its host without ``www.`` (the scheme and the
    port do not make another site: ``http://x.org`` moving to ``https://www.x.org`` stays)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


def private_host(host: str) -> bool:
    """``host`` is, or resolves to, a loopback, private, link-local or reserved address."""
    host = host.strip("[]").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None)
        except (OSError, UnicodeError):
            return False  # a name that does not resolve: the request itself fails and says so
        addresses = []
        for info in infos:
            try:
                addresses.append(ipaddress.ip_address(str(info[4][0]).split("%")[0]))
            except ValueError:
                continue
    return any(a.is_private or a.is_loopback or a.is_link_local or a.is_reserved or a.is_multicast
               or a.is_unspecified for a in addresses)
