"""Paper identifiers written as text, not as links: ``arXiv:2602.09842``, ``2602.09842v2``,
``doi:10.1038/...``, a bare ``10.1145/...`` DOI.

A bare identifier is a paper on its own (an online sync fills in the rest), so each one
found becomes a canonical URL for the mention (``https://arxiv.org/abs/ID``,
``https://doi.org/DOI``): every later stage already knows how to read those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citekit.core.ids import normalize_doi
from citekit.notes.memo import copied
from citekit.notes.urls import URL_RE
from citekit.core.lazyre import lazy

# New-style arXiv ids: YYMM.NNNNN with a plausible month; "arXiv:" / "arXiv " before it makes
# any such number an id, without it the month must be real and the year 07 or later.
_ARXIV_LABELLED_RE = re.compile(r"\barxiv\s*[:：]?\s*(?:abs/)?(?P<id>\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b", re.I)
_ARXIV_BARE_RE = re.compile(r"(?<![\w./:-])(?P<id>(?:0[7-9]|[1-3]\d)(?:0[1-9]|1[0-2])\.\d{4,5})(?:v\d+)?(?![\w/]|\.\d)")
#: Old-style arXiv ids (``hep-th/9901001``, ``cs/9605103``, ``math.AG/0211159``) written bare: the archive
#: names arXiv used before April 2007, and a YYMM from 9108 to 0703
_OLD_ARCHIVES = ("acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|cond-mat|cs|"
                 "dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|mtrl-th|nlin|nucl-ex|nucl-th|patt-sol|physics|"
                 "plasm-ph|q-alg|q-bio|quant-ph|solv-int|supr-con")
_ARXIV_OLD_BARE_RE = re.compile(rf"(?<![\w./:-])(?P<id>(?:{_OLD_ARCHIVES})(?:\.[A-Z]{{2}})?/(?:9[1-9]\d\d|0[0-6]\d\d|07(?:0[1-3]))\d{{3}})"
                                rf"(?:v\d+)?(?![\w/]|\.\d)")
_DOI_RE = lazy(r"(?:\bdoi\s*[:：]\s*|(?<![\w/.]))(?P<id>10\.\d{4,9}/(?:[^\s\"<>{}|]|<[^\s\"<>{}|]*::[^\s\"<>{}|]*>)+)", re.I)


_DIGIT_RE = lazy(r"\d{4}")


@dataclass(frozen=True)
class TextId:
    scheme: str  # arxiv | doi
    value: str  # canonical
    start: int
    end: int

    @property
    def url(self) -> str:
        return f"https://arxiv.org/abs/{self.value}" if self.scheme == "arxiv" else f"https://doi.org/{self.value}"


def _outside_urls(text: str) -> str:
    """``text`` with URLs (and Markdown link targets) blanked, keeping every offset."""
    return URL_RE.sub(lambda m: " " * len(m.group(0)), text)


@copied
def find_text_ids(text: str) -> list[TextId]:
    """Identifiers written as plain text in ``text`` (those inside URLs are the URL's)."""
    if ("." not in text and "/" not in text) or not _DIGIT_RE.search(text):
        return []  # every identifier holds a dot (``10.1145/...``, ``2401.00001``) or a slash (``hep-th/9901001``)
    blank = text
    if "://" in text:  # (every URL has "://")
        blank = _outside_urls(text)
        if not _DIGIT_RE.search(blank):
            return []  # the digits were the URLs' (every identifier holds four in a row)
    found: list[TextId] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _DOI_RE.finditer(blank) if "10." in blank else ():
        doi = normalize_doi(m.group("id"))
        if doi and free(m.start(), m.end()):
            if doi.startswith("10.48550/arxiv."):
                found.append(TextId("arxiv", doi.split("arxiv.", 1)[1], m.start(), m.end()))
            else:
                found.append(TextId("doi", doi, m.start(), m.end()))
            taken.append((m.start(), m.end()))
    labelled = not blank.isascii() or "arxiv" in blank.lower()  # (an ASCII text without the word cannot match)
    regexes = (_ARXIV_LABELLED_RE, _ARXIV_BARE_RE) if labelled else (_ARXIV_BARE_RE,)
    if "/" in blank:
        regexes += (_ARXIV_OLD_BARE_RE,)
    for regex in regexes:
        for m in regex.finditer(blank):
            if free(m.start(), m.end()):
                found.append(TextId("arxiv", m.group("id"), m.start(), m.end()))
                taken.append((m.start(), m.end()))
    return sorted(found, key=lambda t: t.start)


_SPACES_RE = lazy(r"\s+")


def without_text_ids(text: str, found: list[TextId]) -> str:
    """``text`` with the identifiers (and their ``arXiv:``/``doi:`` prefixes) removed."""
    for t in sorted(found, key=lambda t: -t.start):
        text = text[: t.start] + " " + text[t.end:]
    return _SPACES_RE.sub(" ", text).strip()
