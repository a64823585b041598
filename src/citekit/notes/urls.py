"""Finding URLs in note lines and telling paper pages from talks, code and slides.

The distinction matters downstream: a paper URL identifies a work (and may carry an arXiv
id or an OpenReview forum id), a project or code page is kept as a link, and a talk page
means the line above it is not a paper at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import re
from typing import Literal
from urllib.parse import unquote, urlsplit, urlunsplit

from citekit.core.ids import netloc_and_path, normalize_doi
from citekit.core.text import squash_spaces
from citekit.core.venues import from_url
from citekit.notes.memo import copied, per_text
from citekit.core.lazyre import lazy

UrlKind = Literal["paper", "talk", "code", "project", "slides", "document", "dataset", "model", "blog", "video", "social", "docs", "deposit", "home", "other"]

#: characters of an address (parentheses only in balanced pairs, as in DOIs such as
#: ``10.1016/0893-6080(89)90020-8``: a closing one with no opening one ends the address)
_URL_CHARS = r"[^\s<>()\[\]{}\"'「」『』（）、。，]"
URL_RE = re.compile(rf"https?://{_URL_CHARS}+(?:\({_URL_CHARS}*\){_URL_CHARS}*)*", re.I)
_TRAILING = ".,;:!?'\"*_`"
#: (the URL bounded: no real one is this long, and each try at a ``[`` reads it)
_MD_LINK_RE = lazy(r"\[([^\]]*)\]\((https?://[^()\s]{1,4000}(?:\([^()\s]{0,200}\)[^()\s]{0,4000})*)\)")

#: Conference virtual-site page kinds that are papers; every other kind (invited-talk,
#: tutorial, workshop, social, expo, ...) is an event.
PAPER_EVENT_KINDS = frozenset({"poster", "oral", "spotlight", "spotlight-poster", "paper", "papers"})

_PAPER_HOSTS = frozenset((
    "arxiv.org", "alphaxiv.org", "doi.org", "proceedings.mlr.press", "proceedings.neurips.cc", "papers.nips.cc",
    "papers.neurips.cc", "aclanthology.org", "openaccess.thecvf.com", "jmlr.org", "ojs.aaai.org",
    "ieeexplore.ieee.org", "link.springer.com", "www.sciencedirect.com", "dl.acm.org", "nature.com", "science.org",
))
_CODE_HOSTS = frozenset(("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "huggingface.co"))
_PROJECT_HOST_SUFFIXES = (".github.io", ".gitlab.io", "sites.google.com")
_SLIDES_HOSTS = frozenset(("speakerdeck.com", "www.slideshare.net", "slideshare.net", "docs.google.com"))
_VIDEO_HOSTS = frozenset(("youtube.com", "www.youtube.com", "youtu.be", "vimeo.com", "www.bilibili.com", "slideslive.com"))
_SOCIAL_HOSTS = frozenset(("twitter.com", "x.com", "bsky.app", "mastodon.social", "www.linkedin.com", "threads.net"))
_BLOG_HOSTS = frozenset(("medium.com", "substack.com", "zenn.dev", "qiita.com", "note.com", "notion.site", "lesswrong.com", "www.lesswrong.com", "wordpress.com", "blogspot.com", "hashnode.dev"))
_NOTEBOOK_HOSTS = frozenset(("colab.research.google.com", "kaggle.com", "www.kaggle.com"))
_TALK_PATH_RE = lazy(r"tutorial|keynote|invited[-_]?talk")
_BLOG_PATH_RE = lazy(r"/(?:posts?|blog|articles?)/")
#: ACL Anthology pages that list papers (an event, a volume, a venue, a person) rather
#: than being one: the Anthology's own site sections, an exact set
_ACL_LISTING_PATHS = ("/events/", "/volumes/", "/venues/", "/people/", "/sigs/", "/search", "/info/", "/faq/")
#: the pages of paper sites that list papers rather than being one (an exact set, by site
#: syntax): a site's home page, arXiv's listings, author and search pages
#: (``arxiv.org/list/cs.LG/recent``, ``arxiv.org/a/…``), a volume or year index
#: (``proceedings.mlr.press/v202/``, ``proceedings.neurips.cc/paper_files/paper/2023``,
#: ``jmlr.org/papers/v24/``), a table of contents, a profile, a journal's or topic's page
_LISTING_PATH_RE = lazy(
    r"^/?$|^/(?:list|a|archive|catchup|search|advanced_search)(?:/|$)|^/(?:toc|profile|action/dosearch|journal|journals|subjects|author)(?:/|$)"
    r"|^/v\d+/?$|^/(?:paper_files/)?paper/\d{4}/?$|^/papers/v\d+/?$|^/xpl/(?:conhome|recentissue|mostrecentissue)"
    r"|^/(?:nature|natmachintell)/?$|^/menu/"
)
#: a software package's documentation: a ``docs.`` host, Read the Docs, or a ``/docs/`` path
#: on a site that is no publisher's (``pytorch.org/docs/stable/optim.html``)
_DOCS_HOST_SUFFIXES = (".readthedocs.io", ".readthedocs.org", ".rtfd.io")
_DOCS_PATH_RE = lazy(r"^/(?:docs?|documentation|api-docs|reference/api)(?:/|$)")
#: DOI prefixes of the open deposits where software and data sets get their DOIs (Zenodo,
#: figshare, Dryad, PANGAEA, Software Heritage): a DOI there is a release, not a paper's
_DEPOSIT_DOI_RE = lazy(r"^/?(?:10\.5281|10\.6084|10\.5061|10\.1594)/", re.I)
_DOI_IN_PATH_RE = lazy(r"/doi/(?:abs/|full/|pdf/|epdf/|book/)?(?P<doi>10\.\d{4,9}/[^?#\s]+)", re.I)
#: a Nature Portfolio article page: its name is the DOI's suffix under Nature's prefix 10.1038
#: (``nature.com/articles/nature16961`` is ``10.1038/nature16961``)
_NATURE_ARTICLE_RE = lazy(r"^https?://(?:www\.)?nature\.com/articles/(?P<id>[a-z0-9][a-z0-9.\-]{3,60}?)(?:\.pdf)?/?(?:[?#]|$)", re.I)


#: kinds of page (:func:`classify_url`) that are never a paper's own page: a reference or a
#: table row that links only such a page names software, a post, a talk or data
NOT_PAPER_KINDS: frozenset[UrlKind] = frozenset({"code", "blog", "dataset", "model", "video", "slides", "talk", "social", "docs", "deposit", "home"})


#: The paper sites people paste without ``https://`` (``arxiv.org/abs/1802.09568``,
#: ``huggingface.co/papers/2106.09685``): exact hosts and paths, so an address is only ever
#: completed where it can be nothing else.
_BARE_SITES = (
    r"arxiv\.org/(?:abs|pdf|html)/", r"(?:huggingface|hf)\.co/papers/", r"alphaxiv\.org/(?:abs|overview|pdf)/",
    r"paperswithcode\.com/paper/", r"semanticscholar\.org/(?:paper|arxiv)/", r"dl\.acm\.org/doi/",
    r"(?:dx\.)?doi\.org/10\.", r"openreview\.net/(?:forum|pdf)\?", r"aclanthology\.org/", r"proceedings\.mlr\.press/v",
    r"proceedings\.neurips\.cc/paper", r"papers\.nips\.cc/paper", r"openaccess\.thecvf\.com/content",
    r"nature\.com/articles/",
)
_BARE_URL_RE = lazy(
    r"(?<![\w/.@:%-])(?:www\.)?(?:" + "|".join(_BARE_SITES) + rf"){_URL_CHARS}*(?:\({_URL_CHARS}*\){_URL_CHARS}*)*", re.I)
_BARE_NEEDLES = ("arxiv.org/", "huggingface.co/papers/", "hf.co/papers/", "alphaxiv.org/", "paperswithcode.com/", "semanticscholar.org/",
                 "dl.acm.org/", "doi.org/", "openreview.net/", "aclanthology.org/", "mlr.press/", "neurips.cc/",
                 "nips.cc/", "thecvf.com/", "nature.com/")


#: what an address's host is written with (a run of them before a paper site's name is where
#: the address starts, ``www.`` or ``dx.`` included)
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-_")
_BARE_NEEDLE_RE = lazy("|".join(re.escape(n) for n in _BARE_NEEDLES), re.IGNORECASE)
#: the top-level part that ends every paper site's host (``.org/`` of ``arxiv.org/``): a
#: case-blind alternation of the whole names, tried at every character of a big file, took most
#: of the time scheme completion costs; this one is cheap, and the names are looked for only
#: around what it finds
_SITE_END = r"\.(?:org|com|net|co|press|cc)/"
_SITE_END_RE = lazy(_SITE_END, re.IGNORECASE)


def _needle_reach() -> tuple[int, int]:
    """How far a site's name reaches before its top-level part (``semanticscholar``) and
    after it (``papers/`` of ``huggingface.co/papers/``)."""
    spans = [(n, re.search(_SITE_END, n, re.IGNORECASE)) for n in _BARE_NEEDLES]
    missing = [n for n, m in spans if m is None]
    if missing:
        raise ValueError(f"paper sites without a listed top-level part: {missing}")
    return max(m.start() for _, m in spans), max(len(n) - m.end() for n, m in spans)


_NEEDLE_BEFORE, _NEEDLE_AFTER = _needle_reach()


def add_missing_schemes(text: str) -> str:
    """``text`` with ``https://`` put before the paper addresses written without one, so
    every later step sees them as the URLs they are (a line ``shampoo paper is
    arxiv.org/abs/1802.09568 btw`` names arXiv 1802.09568). Addresses with a scheme, and
    hosts inside e-mail addresses or longer host names, are left alone."""
    return add_missing_schemes_owned([text])


def add_missing_schemes_owned(held: list[str]) -> str:
    """:func:`add_missing_schemes` of the one text in ``held``, taken out of it: when the
    caller keeps no other reference, the text is freed before the completed one is made
    (a big notes file is read whole, and each copy of it is its size again in memory).
    The host names are looked for without a lower-cased copy of the text, too."""
    text = held.pop()
    starts: set[int] = set()
    for end in _SITE_END_RE.finditer(text):
        for hit in _BARE_NEEDLE_RE.finditer(text, max(0, end.start() - _NEEDLE_BEFORE), end.end() + _NEEDLE_AFTER):
            start = hit.start()
            while start > 0 and (text[start - 1].lower() in _HOST_CHARS):
                start -= 1  # (back to where the address would begin: the pattern is tried there only)
            starts.add(start)
    if not starts:
        return text
    out: list[str] = []
    done = 0
    for start in sorted(starts):
        if start < done:
            continue  # (inside an address already completed)
        m = _BARE_URL_RE.match(text, start)
        if m is not None:
            out += [text[done:start], "https://", m.group(0)]
            done = m.end()
    if not out:
        return text
    out.append(text[done:])
    del text, m, hit, end  # (each holds the whole text: the pieces in ``out`` are all that is needed)
    return "".join(out)


@copied
def find_urls(text: str) -> list[str]:
    """Every http(s) URL in ``text``, trailing punctuation removed, in order."""
    return [m.group(0).rstrip(_TRAILING) for m in URL_RE.finditer(text)]


def markdown_links(text: str) -> list[tuple[str, str]]:
    """``[label](url)`` pairs of Markdown links."""
    if "](" not in text:
        return []
    return [(m.group(1), m.group(2)) for m in _md_links(text)]


def markdown_link_places(text: str) -> list[tuple[int, str]]:
    """Where each ``[label](url)`` Markdown link starts, with its URL."""
    if "](" not in text:
        return []
    return [(m.start(), m.group(2)) for m in _md_links(text)]


def _md_links(text: str) -> Iterator[re.Match[str]]:
    """``_MD_LINK_RE.finditer(text)`` in one pass over the labels: a try at ``[`` reads its
    label to the next ``]``, so when it fails, every ``[`` before that ``]`` fails the same
    way and is skipped (a line of ``[`` without ``]`` was read from every bracket: 160 KB
    took minutes)."""
    pos = 0
    while True:
        i = text.find("[", pos)
        if i < 0:
            return
        m = _MD_LINK_RE.match(text, i)
        if m:
            yield m
            pos = m.end()
            continue
        j = text.find("]", i + 1)
        if j < 0:
            return
        pos = j + 1


def replace_markdown_links(text: str, replacement: Callable[[re.Match[str]], str]) -> str:
    """``_MD_LINK_RE.sub(replacement, text)`` through :func:`_md_links` (linear in the text)."""
    out, done = [], 0
    for m in _md_links(text):
        out.append(text[done:m.start()])
        out.append(replacement(m))
        done = m.end()
    out.append(text[done:])
    return "".join(out)


def _md_link_labels(text: str) -> str:
    return replace_markdown_links(text, lambda m: m.group(1))


#: brackets a removed URL left empty (a URL leaves a space; ``int8()`` right after a word is a
#: name's call, ``LLM.int8(): …``, and stays)
_EMPTY_BRACKETS_RE = lazy(r"(?!(?<=\w)\(\))[(<\[]\s*[)>\]]")
_LINK_PUNCTUATION_RE = lazy(r"[\s<>()\[\],;|]")


@per_text
def strip_urls(text: str) -> str:
    """``text`` without Markdown link targets and bare URLs (link labels are kept)."""
    if "://" in text:  # (both patterns need it: the common line without a URL skips them)
        text = _md_link_labels(text)
        text = URL_RE.sub(" ", text)
    if "(" in text or "<" in text or "[" in text:
        text = _EMPTY_BRACKETS_RE.sub(" ", text)  # brackets that held a URL
    return squash_spaces(text)  # (str.split and the regex's \s agree on what is a space)


@per_text
def is_url_only(text: str) -> bool:
    """True when a line holds one or more URLs and nothing else worth reading."""
    if "://" not in text:
        return False
    urls = find_urls.shared(text)
    return bool(urls) and not _LINK_PUNCTUATION_RE.sub("", URL_RE.sub("", text))


@per_text
def classify_url(url: str) -> UrlKind:
    """What kind of page ``url`` is, judged from host and path alone (no fetching)."""
    netloc, path = netloc_and_path(url)
    host = netloc.lower().split(":")[0]
    low_path = path.lower()
    if host in ("doi.org", "dx.doi.org", "www.doi.org") and _DEPOSIT_DOI_RE.match(path):
        return "deposit"
    _venue, _year, kind = from_url(url)
    if kind is not None:
        return "paper" if kind in PAPER_EVENT_KINDS else "talk"
    if _TALK_PATH_RE.search(low_path):
        return "talk"
    if "/slides/" in low_path or host in _SLIDES_HOSTS or "slides" in low_path.rsplit("/", 1)[-1]:
        return "slides"
    if host.endswith("openreview.net"):
        return "paper" if low_path.rstrip("/") in ("/forum", "/pdf", "/attachment") else "other"
    if host.endswith("dblp.org") or host.endswith("dblp.uni-trier.de"):
        return "paper" if low_path.startswith("/rec/") else "other"
    if host == "www.semanticscholar.org" or host == "semanticscholar.org":
        # (``/arxiv/<id>`` is the page of the paper with that arXiv id)
        return "paper" if low_path.startswith(("/paper/", "/arxiv/")) else "other"
    if host in ("huggingface.co", "hf.co") and low_path.startswith("/papers/"):  # (hf.co: the site's short address)
        return "paper"
    if host in ("paperswithcode.com", "www.paperswithcode.com"):
        return "paper" if low_path.startswith("/paper/") else "other"
    if host == "huggingface.co" and low_path.startswith("/datasets/") or "/datasets/" in low_path and host in _NOTEBOOK_HOSTS:
        return "dataset"
    if host == "huggingface.co" and not low_path.startswith(("/spaces/", "/docs/", "/blog/", "/learn/")) and low_path.count("/") >= 2:
        return "model"
    if _on_site(host, _VIDEO_HOSTS):
        return "video"
    if _on_site(host, _SOCIAL_HOSTS):
        return "social"
    if _on_site(host, _BLOG_HOSTS) or _BLOG_PATH_RE.search(low_path) and not _on_site(host, _PAPER_HOSTS):
        # (a journal's ``/articles/`` are its papers: ``nature.com/articles/s41586-…``)
        return "blog"
    if host in _NOTEBOOK_HOSTS:
        return "other"
    if host.endswith("aclanthology.org") and low_path.startswith(_ACL_LISTING_PATHS):
        return "other"  # a listing page: many papers, none of them named
    if _on_site(host, _PAPER_HOSTS) and _LISTING_PATH_RE.search(low_path):
        return "other"  # a publisher's or archive's listing, search, author or home page: many papers, none named
    if _on_site(host, _PAPER_HOSTS) or host in ("aclweb.org", "www.aclweb.org") and low_path.startswith("/anthology/"):
        return "paper"  # (aclweb.org/anthology/ is the ACL Anthology's old address)
    if host in _CODE_HOSTS or (host.startswith("www.") and host[4:] in _CODE_HOSTS):
        return "code"
    if host.startswith("docs.") or host.endswith(_DOCS_HOST_SUFFIXES) or _DOCS_PATH_RE.match(low_path):
        return "docs"
    if host.endswith(_PROJECT_HOST_SUFFIXES):
        return "project"
    if low_path.endswith(".pdf"):
        return "document"
    if not low_path.strip("/") and "?" not in url:
        return "home"  # a site's home page (``https://www.prolific.com``): a service or a product, no paper
    return "other"


def _on_site(host: str, sites: frozenset[str]) -> bool:
    """``host`` is one of ``sites`` or a subdomain of one (a set lookup per dot in the host,
    instead of a test per site)."""
    if host in sites:
        return True
    dot = host.find(".")
    while dot >= 0:
        if host[dot + 1:] in sites:
            return True
        dot = host.find(".", dot + 1)
    return False


def doi_in_url(url: str) -> str | None:
    """The DOI a publisher's page URL carries (``dl.acm.org/doi/10.1145/...``)."""
    m = _DOI_IN_PATH_RE.search(url)
    if m is None and (nature := _NATURE_ARTICLE_RE.match(url)) is not None:
        return normalize_doi("10.1038/" + nature.group("id"))
    return normalize_doi(m.group("doi")) if m else None


def url_key(url: str) -> str:
    """Comparable form of a URL: scheme, ``www.``, fragment and trailing slash ignored."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower()
    host = host[4:] if host.startswith("www.") else host
    return urlunsplit(("", host, parts.path.rstrip("/"), parts.query, "")).lstrip("/")


#: a Papers with Code paper page's slug ends in ``-1``, ``-2`` when two papers share a title
_PWC_DUPLICATE_RE = lazy(r"-\d$")
#: a slug word: letters, digits and the marks a title keeps inside a word
_SLUG_WORD_RE = lazy(r"^[^\W_][\w'’.:+]*$")


def title_in_url(url: str) -> str | None:
    """The title a paper page's address spells out, where the site writes it there by its
    own exact syntax: Papers with Code's ``/paper/<title-in-lower-case>`` and Semantic
    Scholar's ``/paper/<Title-Words-Family-Family>/<id>`` (the site appends the first two
    authors' family names). Words only: case, hyphens and punctuation are lost, so the
    result is a title to search by, not one to print (``title_unsure``). None for any
    other address, or a slug too short to be a title."""
    netloc, path = netloc_and_path(url)
    host = netloc.lower().split(":")[0].removeprefix("www.")
    parts = [p for p in path.split("/") if p]
    if len(parts) < 2 or parts[0].lower() != "paper":
        return None
    if host == "paperswithcode.com" and len(parts) == 2:
        words = _PWC_DUPLICATE_RE.sub("", parts[1]).split("-")
    elif host == "semanticscholar.org" and len(parts) == 3:
        words = unquote(parts[1]).split("-")
        if len(words) < 5 or not all(w[:1].isupper() for w in words[-2:]):
            return None  # (no room for a title and two family names)
        words = words[:-2]
    else:
        return None
    words = [w for w in (unquote(w) for w in words) if w]
    if len(words) < 2 or not all(_SLUG_WORD_RE.match(w) for w in words):
        return None
    title = " ".join(words)
    return title[:1].upper() + title[1:]
