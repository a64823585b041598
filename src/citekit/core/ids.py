"""Identifiers found in pasted URLs and strings, in their canonical bare form.

Every stage that sees an identifier goes through here, so ``10.48550/ARXIV.2605.31324``,
``https://arxiv.org/abs/2605.31324v2`` and ``arXiv:2605.31324`` all become the same value.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlparse, urlsplit

from citekit.core.model import Ids
from citekit.core.lazyre import lazy

_NEW_ARXIV = r"\d{4}\.\d{4,5}"
_OLD_ARXIV = r"[a-z-]+(?:\.[A-Z]{2})?/\d{7}"
ARXIV_RE = lazy(rf"(?P<id>{_NEW_ARXIV}|{_OLD_ARXIV})(?:v(?P<version>\d+))?")
#: a DOI; ``<...::...>`` is part of it only in the SICI shape (``41:6<391::AID-ASI1>3.0.CO;2-9``)
DOI_RE = lazy(r"\b(10\.\d{4,9}/(?:[^\s\"<>{}]|<[^\s\"<>{}]*::[^\s\"<>{}]*>)+)")
OPENREVIEW_ID_RE = re.compile(r"^[A-Za-z0-9_-]{6,20}$")
ARXIV_DOI_PREFIX = "10.48550/arxiv."
_DOI_RESOLVER = lazy(r"^(?:https?://)?(?:dx\.)?doi\.org/", re.I)
_DOI_LABEL = lazy(r"^doi:\s*", re.I)
_ARXIV_LABEL = lazy(r"^arxiv:\s*", re.I)
_ARXIV_URL = lazy(r"arxiv\.org/(?:abs|pdf|html)/(.+?)(?:\.pdf)?(?:[?#].*)?$", re.I)
_DBLP_LABEL = lazy(r"^DBLP:")
_DBLP_URL = lazy(r"dblp\.(?:org|uni-trier\.de|dagstuhl\.de)/rec/(?:bib/|bibtex/|html/|xml/)?(.+?)(?:\.(?:bib|html|xml))?(?:[?#].*)?$")
_DBLP_KEY = lazy(r"(?:conf|journals|books|phd|series|reference|tr|persons|homepages|ms|www)/[\w.+-]+/[\w.+-]+")


def normalize_doi(value: str) -> str | None:
    """Bare, lower-case DOI, or None when ``value`` holds none."""
    value = unquote(value.strip())
    value = _DOI_LABEL.sub("", _DOI_RESOLVER.sub("", value))
    m = DOI_RE.search(value)
    if not m:
        return None
    return _without_trailing_punctuation(m.group(1)).lower()


def _without_trailing_punctuation(doi: str) -> str:
    """``doi`` without the punctuation of the sentence around it; a closing parenthesis is the
    DOI's own when it closes one the DOI opened (``0893-6080(89)90020-8``, ``(SICI)...(1999)``)."""
    while doi and (doi[-1] in ".,;:]" or doi[-1] == ")" and doi.count(")") > doi.count("(")):
        doi = doi[:-1]
    return doi


def normalize_arxiv(value: str) -> str | None:
    """arXiv id without version (``2605.31324``), from an id, URL or arXiv DOI."""
    value = value.strip()
    low = value.lower()
    if low.startswith(ARXIV_DOI_PREFIX):
        value = value[len(ARXIV_DOI_PREFIX):]
    value = _ARXIV_LABEL.sub("", value)
    m = _ARXIV_URL.search(value)
    if m:
        value = m.group(1)
    m = ARXIV_RE.fullmatch(value.strip().rstrip("/"))
    return m.group("id") if m else None


def arxiv_version(value: str) -> int | None:
    """The ``vN`` of an arXiv id or URL, if it names one."""
    m = re.search(rf"(?:{_NEW_ARXIV}|{_OLD_ARXIV})v(\d+)", value)
    return int(m.group(1)) if m else None


#: ``https://openreview.net/forum?id=ID`` with a valid id first in the query: the id
#: urlparse and parse_qs read from it (any other shape is parsed in full).
_OPENREVIEW_FORUM_RE = lazy(r"https?://[^/?#]*/(?:forum|pdf|attachment)/?\?id=([A-Za-z0-9_-]{6,20})(?=[&#]|$)")


def normalize_openreview(value: str) -> str | None:
    """OpenReview forum id from ``forum?id=``/``pdf?id=`` URLs or a bare id."""
    value = value.strip()
    if "openreview.net" in value:
        # ``&noteId=`` read as the HTML entity ``&not`` once is ``¬eId=``: the separator is lost
        value = value.replace("\u00aceId=", "&noteId=")
        m = _OPENREVIEW_FORUM_RE.match(value)
        if m is not None and value.isascii() and not _URLSPLIT_SPECIAL_RE.search(value):
            return m.group(1)  # (what the parse below gives for this common shape, without it)
        parsed = urlparse(value)
        if parsed.path.rstrip("/") in ("/forum", "/pdf", "/attachment"):
            ids = parse_qs(parsed.query).get("id")
            if ids and OPENREVIEW_ID_RE.match(ids[0]):
                return ids[0]
        return None
    return value if OPENREVIEW_ID_RE.match(value) and not value.isdigit() else None


def normalize_dblp(value: str) -> str | None:
    """dblp record key (``conf/icml/SiPLPX25``) from a key, ``DBLP:`` citekey or URL."""
    value = value.strip()
    value = _DBLP_LABEL.sub("", value)
    m = _DBLP_URL.search(value)
    if m:
        value = m.group(1)
    if _DBLP_KEY.fullmatch(value):
        return value
    return None


#: An http(s) URL's host and path, cut where urlsplit cuts them (see :func:`netloc_and_path`).
_HTTP_PARTS_RE = lazy(r"https?://([^/?#]*)([^?#]*)")
#: Characters urlsplit removes or checks (tabs and newlines, IPv6 brackets): a URL holding
#: one goes through urlsplit itself.
_URLSPLIT_SPECIAL_RE = lazy(r"[\[\]\t\r\n]")


def netloc_and_path(url: str) -> tuple[str, str]:
    """``urlsplit(url).netloc`` and ``.path``. An ASCII ``http(s)://`` URL without tabs,
    newlines or brackets (the URLs notes hold) is cut by one anchored pattern, at the
    first ``/``, ``?`` or ``#`` as urlsplit cuts it; building the whole split for every
    URL was a few percent of reading notes. Anything else goes through urlsplit, whose
    answers (and errors) stay the reference."""
    if url.isascii() and (m := _HTTP_PARTS_RE.match(url)) is not None and not _URLSPLIT_SPECIAL_RE.search(url):
        return m.group(1), m.group(2)
    parts = urlsplit(url)
    return parts.netloc, parts.path


def ids_from_url(url: str) -> Ids:
    """The identifiers one pasted URL carries (empty :class:`Ids` when none)."""
    host = netloc_and_path(url)[0].lower()
    ids = Ids()
    if "arxiv.org" in host:
        ids.arxiv = normalize_arxiv(url)
    elif "openreview.net" in host:
        ids.openreview = normalize_openreview(url)
    elif "doi.org" in host:
        doi = normalize_doi(url)
        if doi and doi.startswith(ARXIV_DOI_PREFIX):
            ids.arxiv = normalize_arxiv(doi)
        ids.doi = doi
    elif "dblp" in host:
        ids.dblp = normalize_dblp(url)
    elif host.endswith(("huggingface.co", "alphaxiv.org")) or host in ("hf.co", "www.hf.co") or host.endswith("semanticscholar.org") and "/arxiv/" in url:
        # paper pages named by the arXiv id: huggingface.co/papers/ID (or its short address
        # hf.co/papers/ID), alphaxiv.org/abs/ID
        m = _ARXIV_PAGE.search(url)
        ids.arxiv = normalize_arxiv(m.group(1)) if m else None
    elif "/doi/" in url:
        ids.doi = normalize_doi(url[url.index("/doi/") + 5:].removeprefix("abs/").removeprefix("full/").removeprefix("pdf/"))
    return ids


#: the arXiv id in the path of a page that names a paper by it (Hugging Face, alphaXiv)
_ARXIV_PAGE = lazy(r"/(?:papers|abs|overview|pdf|arxiv)/(\d{4}\.\d{4,5}(?:v\d+)?)(?=[/?#.]|$)")


#: an ACL Anthology paper page or PDF: new-style ids (``2020.acl-main.1``) and old-style ones
#: from 2016 on (``P18-1001``), the years the ACL registers every paper as ``10.18653/v1/<id>``;
#: ``aclweb.org/anthology/`` is the Anthology's old address
_ACL_PAGE = lazy(r"(?:aclanthology\.org/(?:anthology/)?|aclweb\.org/anthology/(?:[A-Z]/[A-Z]\d\d/)?)"
                       r"(\d{4}\.[a-z0-9]+-[a-z0-9]+\.\d+|[A-Z](?:1[6-9])-\d{4})(?:\.pdf)?/?(?:[?#]|$)", re.I)
#: a PMLR paper page or PDF: ``proceedings.mlr.press/v202/kim23a.html``, ``…/v202/kim23a/kim23a.pdf``
_PMLR_PAGE = lazy(r"proceedings\.mlr\.press/(v\d+)/([a-z0-9_-]+?)(?:\.html|\.pdf|/[a-z0-9_-]+\.pdf)?/?(?:[?#]|$)",
                        re.I)


def acl_doi(url: str) -> str | None:
    """The DOI of an ACL Anthology paper page, which the ACL derives from the page's id."""
    m = _ACL_PAGE.search(url)
    return f"10.18653/v1/{m.group(1)}".lower() if m else None


def pmlr_id(url: str) -> str | None:
    """``v202/kim23a`` for a PMLR paper's page or PDF (PMLR registers no DOIs: this pair,
    volume and paper, is the only name a PMLR paper has)."""
    m = _PMLR_PAGE.search(url)
    return f"{m.group(1).lower()}/{m.group(2).lower()}" if m else None


def linked_ids(url: str) -> dict[str, str]:
    """The paper identifiers a link on a page carries: what :func:`ids_from_url` reads, and
    for proceedings that name papers their own way, an ACL Anthology page's DOI (``doi``)
    and a PMLR paper's volume and name (``pmlr``)."""
    found = {k: v for k, v in ids_from_url(url).as_dict().items() if v}
    if found:
        return found
    if doi := acl_doi(url):
        return {"doi": doi}
    if pid := pmlr_id(url):
        return {"pmlr": pid}
    return {}
