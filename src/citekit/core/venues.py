"""Main ML venues: short names, their long proceedings titles, and URL/heading recognition.

The long names are what the venues themselves (and OpenReview/dblp) print as booktitle;
citing "ICML 2026" as "Forty-third International Conference on Machine Learning" is what
reviewers expect.
"""

from __future__ import annotations

import re
from citekit.core.lazyre import lazy

_ORDINALS = [
    "", "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
    "Eleventh", "Twelfth", "Thirteenth", "Fourteenth", "Fifteenth", "Sixteenth", "Seventeenth",
    "Eighteenth", "Nineteenth", "Twentieth",
]
_TENS = {20: "Twenty", 30: "Thirty", 40: "Forty", 50: "Fifty", 60: "Sixty"}
_TENS_ORD = {20: "Twentieth", 30: "Thirtieth", 40: "Fortieth", 50: "Fiftieth", 60: "Sixtieth"}


def ordinal_words(n: int) -> str:
    """``43`` → ``Forty-third`` (as venues spell their edition)."""
    if n <= 20:
        return _ORDINALS[n]
    tens, unit = divmod(n, 10)
    if unit == 0:
        return _TENS_ORD[tens * 10]
    return f"{_TENS[tens * 10]}-{_ORDINALS[unit].lower()}"


# short name -> (first year, edition in that year, long name template, OpenReview group pattern)
# ICML 1st edition (as a numbered "International Conference") was 1984; 2025 is the 42nd.
_VENUES: dict[str, tuple[int, int, str]] = {
    "ICML": (2025, 42, "{ord} International Conference on Machine Learning"),
    "ICLR": (2026, 14, "The {ord} International Conference on Learning Representations"),
    "NeurIPS": (2025, 39, "Advances in Neural Information Processing Systems"),
    "AISTATS": (2025, 28, "Proceedings of The {ord} International Conference on Artificial Intelligence and Statistics"),
    "COLT": (2025, 38, "Proceedings of the {ord} Conference on Learning Theory"),
    "UAI": (2025, 41, "Proceedings of the {ord} Conference on Uncertainty in Artificial Intelligence"),
    "CVPR": (2025, 0, "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
    "ICCV": (2025, 0, "Proceedings of the IEEE/CVF International Conference on Computer Vision"),
    "ECCV": (2024, 0, "European Conference on Computer Vision"),
    "ACL": (2025, 63, "Proceedings of the {ord} Annual Meeting of the Association for Computational Linguistics"),
    "EMNLP": (2025, 0, "Proceedings of the Conference on Empirical Methods in Natural Language Processing"),
    "NAACL": (2025, 0, "Proceedings of the Conference of the North American Chapter of the Association for "
                       "Computational Linguistics: Human Language Technologies"),
    "AAAI": (2025, 39, "Proceedings of the AAAI Conference on Artificial Intelligence"),
    "COLM": (2025, 2, "Second Conference on Language Modeling"),
    "TMLR": (2022, 0, "Transactions on Machine Learning Research"),
    "JMLR": (2000, 0, "Journal of Machine Learning Research"),
}
#: venues held every other year (edition counting must skip the off years)
_BIENNIAL = {"ICCV", "ECCV"}
#: venues whose records are journal articles
JOURNALS = {"TMLR", "JMLR"}

_ALIASES = {
    "neurips": "NeurIPS", "nips": "NeurIPS", "icml": "ICML", "iclr": "ICLR", "aistats": "AISTATS",
    "colt": "COLT", "uai": "UAI", "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV", "acl": "ACL",
    "emnlp": "EMNLP", "naacl": "NAACL", "aaai": "AAAI", "colm": "COLM", "tmlr": "TMLR", "jmlr": "JMLR",
}

#: conference sites whose virtual pages name the venue: host -> short name
_SITES = {
    "icml.cc": "ICML", "iclr.cc": "ICLR", "neurips.cc": "NeurIPS", "nips.cc": "NeurIPS",
    "aistats.org": "AISTATS", "virtual.aistats.org": "AISTATS", "colmweb.org": "COLM",
}


def canonical(short: str) -> str | None:
    """Canonical spelling of a venue short name (``neurips`` → ``NeurIPS``), or None."""
    return _ALIASES.get(short.strip().lower())


def long_name(short: str, year: int | None) -> str | None:
    """The proceedings title for ``short`` in ``year`` (None for an unknown venue)."""
    venue = canonical(short)
    if venue is None:
        return None
    base_year, base_edition, template = _VENUES[venue]
    if "{ord}" not in template:
        return template
    if year is None or base_edition == 0:
        return None
    step = 2 if venue in _BIENNIAL else 1
    edition = base_edition + (year - base_year) // step
    if edition <= 0:
        return None
    return template.format(ord=ordinal_words(edition))


def entry_type(short: str | None) -> str:
    """``article`` for journals, ``inproceedings`` for conferences."""
    return "article" if short and canonical(short) in JOURNALS else "inproceedings"


def openreview_group(short: str, year: int) -> str | None:
    """OpenReview venue id, e.g. ``ICML.cc/2026/Conference``."""
    venue = canonical(short)
    groups = {"ICML": "ICML.cc", "ICLR": "ICLR.cc", "NeurIPS": "NeurIPS.cc", "COLM": "colmweb.org",
              "AISTATS": "aistats.org", "UAI": "auai.org/UAI"}
    if venue not in groups:
        return None
    return f"{groups[venue]}/{year}/Conference"


_URL_RE = lazy(r"https?://(?:www\.)?(?P<host>[^/\s]+)/virtual/(?P<year>\d{4})/(?P<kind>[\w-]+)/(?P<num>\d+)")


def from_url(url: str) -> tuple[str | None, int | None, str | None]:
    """``(venue, year, event kind)`` from a conference virtual-site URL.

    ``https://icml.cc/virtual/2026/poster/62214`` → ``("ICML", 2026, "poster")``.
    """
    m = _URL_RE.search(url)
    if not m:
        return None, None, None
    host = m.group("host").lower()
    venue = _SITES.get(host)
    return venue, int(m.group("year")), m.group("kind").lower()


_HEADING_RE = lazy(
    r"\b(?P<venue>" + "|".join(sorted(_ALIASES, key=len, reverse=True)) + r")\s*(?:['’]?\s*(?P<year>(?:19|20)\d{2})\b|['’]\s*(?P<yy>\d{2})\b)",
    re.I,
)


#: What every match of :data:`_HEADING_RE` holds: a year, or an apostrophe and two digits.
#: Searched first: the pattern's long list of venue names is tried at every word otherwise.
_YEAR_HINT_RE = lazy(r"(?:19|20)\d{2}|['’]\s*\d{2}")


def from_text(text: str) -> tuple[str | None, int | None]:
    """``("ICML", 2026)`` from text such as ``ICML 2026 Papers``, ``ICML2026 参加記`` or ``ICML'26``."""
    if not ("19" in text or "20" in text or "'" in text or "’" in text) or not _YEAR_HINT_RE.search(text):
        return None, None  # (the substrings first: each branch of the hint needs one of them)
    m = _HEADING_RE.search(text)
    if not m:
        return None, None
    if m.group("year"):
        return canonical(m.group("venue")), int(m.group("year"))
    yy = int(m.group("yy"))
    return canonical(m.group("venue")), (2000 + yy if yy < 70 else 1900 + yy)


#: PMLR volume -> (venue, year) for the main venues published there.
_PMLR_VOLUMES = {
    267: ("ICML", 2025), 235: ("ICML", 2024), 202: ("ICML", 2023), 162: ("ICML", 2022), 139: ("ICML", 2021),
    119: ("ICML", 2020), 97: ("ICML", 2019), 80: ("ICML", 2018), 70: ("ICML", 2017), 48: ("ICML", 2016),
    37: ("ICML", 2015), 32: ("ICML", 2014), 28: ("ICML", 2013),
    258: ("AISTATS", 2025), 238: ("AISTATS", 2024), 206: ("AISTATS", 2023), 151: ("AISTATS", 2022),
    130: ("AISTATS", 2021), 108: ("AISTATS", 2020), 89: ("AISTATS", 2019), 84: ("AISTATS", 2018),
    54: ("AISTATS", 2017), 51: ("AISTATS", 2016), 38: ("AISTATS", 2015), 33: ("AISTATS", 2014), 9: ("AISTATS", 2010),
    291: ("COLT", 2025), 247: ("COLT", 2024), 195: ("COLT", 2023), 178: ("COLT", 2022), 134: ("COLT", 2021),
    286: ("UAI", 2025), 244: ("UAI", 2024), 216: ("UAI", 2023), 180: ("UAI", 2022),
}
_PMLR_RE = lazy(r"proceedings\.mlr\.press/v(?P<vol>\d+)/", re.I)
_NEURIPS_PROC_RE = lazy(r"(?:proceedings|papers)\.(?:neurips|nips)\.cc/paper(?:_files/paper)?/(?P<year>(?:19|20)\d{2})/", re.I)
_ACL_RE = lazy(r"aclanthology\.org/(?P<year>(?:19|20)\d{2})\.(?P<venue>[a-z]+)-", re.I)
_ACL_OLD_RE = re.compile(r"aclanthology\.org/(?P<letter>[A-Z])(?P<yy>\d{2})-", re.I)
_ACL_VENUES = {"acl": "ACL", "emnlp": "EMNLP", "naacl": "NAACL", "eacl": "EACL", "findings": None, "coling": "COLING", "tacl": "TACL"}
_CVF_RE = lazy(r"openaccess\.thecvf\.com/content/(?P<venue>CVPR|ICCV|WACV|ECCV)(?P<year>(?:19|20)\d{2})", re.I)


def from_proceedings_url(url: str) -> tuple[str | None, int | None]:
    """Venue and year from a proceedings page (PMLR volume, NeurIPS proceedings, ACL
    Anthology, CVF open access); ``(None, None)`` when the URL names neither."""
    m = _PMLR_RE.search(url)
    if m:
        return _PMLR_VOLUMES.get(int(m.group("vol")), (None, None))
    m = _NEURIPS_PROC_RE.search(url)
    if m:
        return "NeurIPS", int(m.group("year"))
    m = _ACL_RE.search(url)
    if m:
        return _ACL_VENUES.get(m.group("venue").lower(), m.group("venue").upper()), int(m.group("year"))
    m = _CVF_RE.search(url)
    if m:
        return m.group("venue").upper(), int(m.group("year"))
    return None, None


_LONG_PATTERNS = [
    ("ICML", r"international conference on machine learning"),
    ("ICLR", r"learning representations"),
    ("NeurIPS", r"neural information processing systems"),
    ("AISTATS", r"artificial intelligence and statistics"),
    ("COLT", r"conference on learning theory"),
    ("UAI", r"uncertainty in artificial intelligence"),
    ("CVPR", r"computer vision and pattern recognition"),
    ("ICCV", r"international conference on computer vision"),
    ("ECCV", r"european conference on computer vision"),
    ("EMNLP", r"empirical methods in natural language processing"),
    ("NAACL", r"north american chapter of the association for computational linguistics"),  # (before ACL's)
    ("ACL", r"association for computational linguistics"),
    ("AAAI", r"\baaai\b"),
    ("COLM", r"conference on language modeling"),
    ("TMLR", r"transactions on machine learning research"),
    ("JMLR", r"journal of machine learning research"),
]


_LONG_RES = [(short, re.compile(pattern)) for short, pattern in _LONG_PATTERNS]


def short_from_long(name: str) -> str | None:
    """``Forty-third International Conference on Machine Learning`` → ``ICML`` (None if unknown).

    A container that is only a short name (``booktitle = {ICLR}``, as many pasted entries
    write it) is that venue: no year follows it for :func:`from_text` to read."""
    short = canonical(name.strip().strip(".").strip())
    if short:
        return short
    low = name.lower()
    for short, pattern in _LONG_RES:
        if pattern.search(low):
            return short
    m = _HEADING_RE.search(name)
    return canonical(m.group("venue")) if m else None
