"""What is "the same work", what are "versions of one work", and which version to cite.

This is the one home of those decisions. Resolution (records from online sources), sync
(notes matched to library entries), import and dedup all ask it, so they cannot disagree.

Inputs are normalised before anything is compared (:func:`prepare`): ``crossref`` parents
are resolved (a child inherits the fields it lacks, so a plume-style entry whose venue
and year live in ``crossrefs.bib`` is compared with them), biblatex ``journaltitle`` and
``date`` are read as ``journal`` and ``year``, and titles and names are folded to text by
:mod:`citekit.core.text`, the one LaTeX-to-text converter. Normalising only changes what is
compared: the entries themselves are never modified.

The rules (:func:`compare`, each tested on the real case it came from, see docs/dedup.md):

- the same identifier (DOI, arXiv id, OpenReview forum, dblp key) is the same work,
  unless the entries sharing it disagree on the title: then the identifier is stale (a
  reference manager pasted it onto another entry) and it is reported, not merged;
- a near-identical title, compatible authors (:func:`citekit.matching.people.same_person`,
  the rule resolution uses too) and compatible years are the same work;
- different chapters, page ranges, parts, volumes, editions or versions of a manual, an
  erratum and its paper, a thesis and a paper are different works;
- a workshop paper and the conference or journal paper with the same title and authors,
  a technical report and the paper, two published records years apart: *versions* of one
  work, linked but merged only when the user asks (both keys may be cited on purpose).

Which version to cite follows ``resolve.precedence`` (published > accepted > preprint >
submitted > rejected > workshop by default) everywhere: for online records
(:func:`choose_version`) and for library entries (:func:`choose_survivor`), where ties go
to the most complete, cleanest record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import fuzz

from citekit.core import venues
from citekit.core.ids import ARXIV_DOI_PREFIX, normalize_arxiv
from citekit.core.model import Entry
from citekit.core.resolution import Candidate
from citekit.core.text import STOPWORDS, normalize_title
from citekit.core.unionfind import UnionFind
from citekit.matching.candidates import (Byline, abstract_similarity, authors_agree, is_anonymous, one_author_list,
                                         title_agreement)
from citekit.matching.candidates import author_overlap as written_overlap
from citekit.matching.people import Name, author_overlap, parse_authors
from citekit.core.lazyre import lazy

# ---- precedence of versions -----------------------------------------------------------------

#: Default order of stages, best first (``citekit.yaml`` ``resolve: precedence:`` may replace it).
DEFAULT_PRECEDENCE: tuple[str, ...] = ("published", "accepted", "preprint", "submitted", "rejected", "workshop", "notes")
#: Stages that are a paper's final form; the notes' venue is preferred among these.
FINAL_STAGES = frozenset({"published", "accepted"})


def stage_rank(stage: str, precedence: Sequence[str] | None = None) -> int:
    """Position of ``stage`` in the precedence (0 is best); unknown stages come last."""
    order = list(precedence or DEFAULT_PRECEDENCE)
    return order.index(stage) if stage in order else len(order)


# ---- thresholds -------------------------------------------------------------------------------

#: title similarity (rapidfuzz ratio of normalized titles, 0-100) needed to consider a pair
TITLE_THRESHOLD = 90.0
#: without authors on one side, only an (almost) exact title of some length will do
TITLE_ONLY_THRESHOLD = 97.0
#: below this title similarity, entries sharing an identifier are a stale identifier, not one work
ID_TITLE_FLOOR = 60.0
#: share of authors two versions must have in common (Jaccard on family names)
AUTHOR_THRESHOLD = 0.5

_THESIS = {"phdthesis", "mastersthesis", "thesis"}
_BOOKISH = {"book", "mvbook", "proceedings", "mvproceedings", "collection", "mvcollection", "reference", "periodical"}
_LOOSE = {"misc", "unpublished", "online", "electronic", "preprint", "techreport", "report", "article"}
#: types whose editions and releases are distinct works: their year, edition and version must agree
_RELEASED = {"manual", "software", "book", "mvbook", "booklet", "dataset", "proceedings", "mvproceedings",
             "collection", "mvcollection", "periodical"}
_VERSION_IN_TEXT = lazy(r"\b(?:version|release|v\.?|rev\.?|revision)\s*~?(\d+(?:\.\d+)*[a-z]?)", re.I)
_EDITION_IN_TEXT = lazy(r"\b(\d+|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)(?:st|nd|rd|th)?\s+ed(?:ition|\.)", re.I)
_FOUR_DIGITS = lazy(r"\d{4}")
_KIND_WORDS = {
    "erratum": "erratum", "errata": "erratum", "corrigendum": "erratum", "corrigenda": "erratum",
    "correction": "erratum", "corrections": "erratum", "retraction": "retraction", "retracted": "retraction",
    "reply": "reply", "rejoinder": "reply", "response": "reply", "addendum": "addendum",
    "comment": "comment", "comments": "comment", "discussion": "comment", "supplement": "supplement",
    "supplementary": "supplement",
}
_SEQ_WORDS = {"part", "vol", "volume", "chapter", "book", "no", "number", "series", "episode", "paper", "section"}
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11, "xii": 12}
_DIGITS = lazy(r"\d+")
_ORDINAL = {"one": 1, "two": 2, "three": 3, "four": 4, "first": 1, "second": 2, "third": 3, "fourth": 4}
_MARKER_WORDS = frozenset(_KIND_WORDS) | frozenset(_ROMAN) | frozenset(_ORDINAL)
#: a volume or number that is one (``14``, ``IV``, ``3-4``), not a placeholder such as ``ASAP``
_REAL_VOLUME = lazy(r"^\s*[\divxlcdm]+(?:\s*[-–/]\s*[\divxlcdm]+)?\s*$", re.I)


# ---- normalised inputs ----------------------------------------------------------------------

#: fields a ``crossref`` child never takes from its parent (they identify the parent itself)
_NOT_INHERITED = frozenset({"title", "ids", "crossref", "key", "keywords", "abstract", "file", "url", "doi"})


def inherited_fields(entry: Entry, parents: Mapping[str, Entry]) -> dict[str, str]:
    """The entry's fields as BibTeX/biber see them once ``crossref`` is resolved.

    The child keeps its own values and takes every other field from its parent (and the
    parent's parent); a parent ``@proceedings``'s title becomes the child's ``booktitle``
    as biber maps it. ``journaltitle``/``date`` are read as ``journal``/``year``.
    """
    fields = dict(entry.fields)
    seen = {entry.key.lower()}
    ref = fields.get("crossref", "").strip()
    while ref and ref.lower() not in seen:
        seen.add(ref.lower())
        parent = parents.get(ref.lower())
        if parent is None:
            break
        for name, value in parent.fields.items():
            if name not in fields and name not in _NOT_INHERITED:
                fields[name] = value
        if "booktitle" not in fields and parent.fields.get("title") and parent.entry_type in _BOOKISH:
            fields["booktitle"] = parent.fields["title"]
        ref = parent.fields.get("crossref", "").strip()
    if "journal" not in fields and fields.get("journaltitle"):
        fields["journal"] = fields["journaltitle"]
    if "year" not in fields and fields.get("date"):
        m = _FOUR_DIGITS.search(fields["date"])
        if m:
            fields["year"] = m.group()
    return fields


def parent_index(entries: Iterable[Entry]) -> dict[str, Entry]:
    """Entries by lower-cased key (BibTeX keys ignore case), for :func:`inherited_fields`."""
    index: dict[str, Entry] = {}
    for e in entries:
        index.setdefault(e.key.lower(), e)
    return index


# ---- the stage of one entry -------------------------------------------------------------

_PREPRINT_VENUE = lazy(
    r"\b(?:arxiv|corr|e-?prints?|preprint|biorxiv|medrxiv|chemrxiv|ssrn|techrxiv|psyarxiv|openreview\.net/forum)\b",
    re.I,
)
_WORKSHOP = lazy(r"\b(?:workshops?|wksp|wkshp|ws|symposium on .*student|doctoral (?:consortium|symposium))\b", re.I)
_ACCEPTED = lazy(r"\b(?:to appear|in press|accepted|forthcoming|inpress)\b", re.I)
_PUBLISHED_TYPES = {"article", "inproceedings", "conference", "incollection", "inbook", "book", "proceedings",
                    "phdthesis", "mastersthesis", "thesis", "mvbook", "collection", "periodical"}
_PREPRINT_TYPES = {"unpublished", "online", "electronic", "preprint"}
_REPORT_TYPES = {"techreport", "report"}


def entry_stage(entry: Entry, fields: Mapping[str, str] | None = None) -> str:
    """Where this version stands, in the words of ``resolve.precedence``.

    ``published`` (journal or proceedings that is not arXiv/CoRR, a thesis, a published
    book), ``accepted`` ("to appear"), ``workshop`` (a workshop's proceedings), ``preprint``
    (arXiv, CoRR, ``@unpublished``), ``submitted`` (a technical report, which is usually
    the longer or earlier version of a paper), else ``notes``.
    """
    f = fields if fields is not None else entry.fields
    kind = entry.entry_type
    container = f.get("journal") or f.get("booktitle") or f.get("journaltitle") or ""
    if not container and f.get("crossref") and kind in _PUBLISHED_TYPES:
        container = "(the crossref parent)"  # the proceedings are named in the parent entry
    has_notes = "note" in f or "pubstate" in f or "howpublished" in f
    notes = " ".join(f.get(k, "") for k in ("note", "pubstate", "howpublished")) if has_notes else ""
    if (container and _ACCEPTED.search(container)) or (notes and _ACCEPTED.search(notes)):
        return "accepted"
    preprint_container = bool(container) and (
        bool(_PREPRINT_VENUE.search(container)) or container[:4].lower() == "abs/"
    )
    if kind in _THESIS and (f.get("school") or f.get("institution")):
        return "published"
    if kind in ("book", "mvbook") and f.get("publisher"):
        return "published"
    if container and not preprint_container and kind in _PUBLISHED_TYPES:
        if f.get("volume", "")[:4].lower() != "abs/":  # dblp CoRR: volume = {abs/1909.05311}
            return "workshop" if _WORKSHOP.search(container) else "published"
    if preprint_container or kind in _PREPRINT_TYPES or (notes and _PREPRINT_VENUE.search(notes)):
        return "preprint"
    if entry.ids.arxiv or (entry.ids.doi or "").startswith(ARXIV_DOI_PREFIX) or f.get("eprint"):
        return "preprint"
    if kind in _REPORT_TYPES:
        return "submitted"
    return "notes"


# ---- what is compared -----------------------------------------------------------------------

def title_markers(norm: str) -> frozenset[str]:
    """What tells apart works whose titles are otherwise the same.

    Numbers (``Part II``, ``GPT-3``, ``SemEval-2017``), and words that make a different
    kind of publication (``Erratum``, ``Reply``, ``Comment on``).
    """
    out = {str(int(d)) for d in _DIGITS.findall(norm)}
    words = norm.split()
    if _MARKER_WORDS.isdisjoint(words):
        return frozenset(out)
    last = len(words) - 1
    for i, w in enumerate(words):
        prev = words[i - 1] if i else ""
        if w in _KIND_WORDS:
            out.add(_KIND_WORDS[w])
        elif w in _ROMAN and (len(w) > 1 or prev in _SEQ_WORDS or (i == last and i > 0)):
            out.add(str(_ROMAN[w]))
        elif w in _ORDINAL and prev in _SEQ_WORDS:
            out.add(str(_ORDINAL[w]))
    return frozenset(out)


def _year_of(fields: Mapping[str, str]) -> int | None:
    m = _FOUR_DIGITS.search(fields.get("year") or fields.get("date") or "")
    return int(m.group()) if m else None


def byline_of_fields(fields: Mapping[str, str]) -> Byline:
    """Who wrote an entry (its BibTeX ``author``, ``and others`` included) and its year
    (``year``, else biblatex's ``date``), as :func:`.candidates.bylines_contradict` compares them."""
    names, truncated = parse_authors(fields.get("author", ""))
    return Byline(tuple(names), truncated and bool(names), _year_of(fields))


def _type_class(entry_type: str) -> str:
    if entry_type in _THESIS:
        return "thesis"
    if entry_type in _BOOKISH:
        return "book"
    return "loose" if entry_type in _LOOSE else "paper"


_FIRST_NUMBER = lazy(r"[0-9ivxlcdm]+|[A-Za-z]?\d+", re.I)


def _first_page(pages: str) -> str:
    m = _FIRST_NUMBER.search(pages or "")
    return m.group().lower() if m else ""


class Record:
    """An entry prepared once for comparison (normalised fields).

    What blocking reads of every record (the normalised title and the identifiers) is
    computed up front; what only :func:`compare` reads (title words, stage, year, title
    markers, authors...) waits until a pair is asked about, which in a large import is a
    few dozen records out of thousands.
    """

    __slots__ = ("index", "entry", "fields", "norm", "arxiv", "doi", "openreview", "dblp", "__dict__")

    def __init__(self, index: int, entry: Entry, fields: Mapping[str, str] | None = None) -> None:
        self.index = index
        self.entry = entry
        self.fields = fields if fields is not None else entry.fields
        self.norm = normalize_title(self.fields.get("title", ""))
        doi = entry.ids.doi
        arxiv = entry.ids.arxiv
        if doi and doi.startswith(ARXIV_DOI_PREFIX):  # the arXiv DOI names the preprint, not a publication
            arxiv = arxiv or normalize_arxiv(doi)
            doi = None
        self.arxiv, self.doi = arxiv, doi
        self.openreview, self.dblp = entry.ids.openreview, entry.ids.dblp

    @cached_property
    def words(self) -> list[str]:
        """The title's words without stop words, in order."""
        return [w for w in self.norm.split() if w not in STOPWORDS]

    @cached_property
    def markers(self) -> frozenset[str]:
        return title_markers(self.norm)

    @cached_property
    def year(self) -> int | None:
        return _year_of(self.fields)

    @cached_property
    def stage(self) -> str:
        return entry_stage(self.entry, self.fields)

    @cached_property
    def cls(self) -> str:
        return _type_class(self.entry.entry_type)

    @property
    def author_text(self) -> str:
        return self.fields.get("author") or self.fields.get("editor") or ""

    @cached_property
    def authors(self) -> tuple[list[Name], bool]:
        return parse_authors(self.author_text)

    @cached_property
    def container(self) -> str:
        return normalize_title(self.fields.get("journal") or self.fields.get("booktitle") or self.fields.get("series") or "")

    @cached_property
    def content(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """Everything the entry says, folded: equal for records that differ only in spelling or line ends."""
        items = tuple(sorted((k, " ".join(v.split()).lower()) for k, v in self.entry.fields.items()
                             if k not in ("keywords", "ids", "file", "timestamp", "date-added", "date-modified",
                                          "owner", "groups") and v.strip()))
        return self.entry.entry_type, items + tuple(self.entry.ids.items())

    def identifiers(self) -> Iterable[tuple[str, str]]:
        for scheme in ("doi", "arxiv", "openreview", "dblp"):
            value = getattr(self, scheme)
            if value:
                yield scheme, value


def prepare(entries: Sequence[Entry]) -> list[Record]:
    """Records for comparison, with ``crossref`` parents resolved among ``entries``."""
    parents = parent_index(entries) if any("crossref" in e.fields for e in entries) else {}
    out = []
    for i, e in enumerate(entries):
        needs = "crossref" in e.fields or "journaltitle" in e.fields or ("date" in e.fields and "year" not in e.fields)
        out.append(Record(i, e, inherited_fields(e, parents) if needs else None))
    return out


# ---- deciding one pair ------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """What two records are: ``same`` (one entry's worth), ``versions`` (linked, kept apart),
    ``related`` (probably one line of work, but separate papers: listed, never merged), or ``stale-id``."""

    kind: str
    reason: str


_ID_LABEL = {"doi": "DOI", "arxiv": "arXiv id", "openreview": "OpenReview forum", "dblp": "dblp key"}


def release_of(fields: Mapping[str, str]) -> tuple[str, str]:
    """(version, edition) a record names, in its own fields or in its note ("Version 2.3.1")."""
    text = " ".join(fields.get(k, "") for k in ("note", "howpublished", "title"))
    version = fields.get("version", "").strip().lower()
    if not version:
        m = _VERSION_IN_TEXT.search(text)
        version = m.group(1).lower() if m else ""
    edition = fields.get("edition", "").strip().lower()
    if not edition:
        m = _EDITION_IN_TEXT.search(text)
        edition = m.group(1).lower() if m else ""
    edition = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5"}.get(edition, edition)
    edition = re.sub(r"(?<=\d)(st|nd|rd|th)$", "", edition)
    return version, edition


def _different_part(r1: Record, r2: Record) -> str | None:
    """Why two records with the same title are different parts or releases of something, or None."""
    f1, f2 = r1.fields, r2.fields
    for name in ("chapter", "part"):
        v1, v2 = f1.get(name, "").strip().lower(), f2.get(name, "").strip().lower()
        if v1 and v2 and v1 != v2:
            return f"different {name}s"
    (ver1, ed1), (ver2, ed2) = release_of(f1), release_of(f2)
    released = r1.entry.entry_type in _RELEASED or r2.entry.entry_type in _RELEASED
    if (ver1 or ver2) and ver1 != ver2 and (released or (ver1 and ver2)):
        return "different versions"
    if (ed1 or ed2) and ed1 != ed2 and (released or (ed1 and ed2)):
        return "different editions"
    if released and r1.year != r2.year:
        return "releases of different years"
    same_container = r1.container and r1.container == r2.container
    p1, p2 = _first_page(f1.get("pages", "")), _first_page(f2.get("pages", ""))
    if p1 and p2 and p1 != p2 and (same_container or r1.cls == r2.cls == "paper" and r1.year == r2.year):
        return "different page ranges"
    if same_container or r1.entry.entry_type in ("incollection", "inbook"):
        for name in ("volume", "number"):
            v1, v2 = f1.get(name, "").strip().lower(), f2.get(name, "").strip().lower()
            # a placeholder ("ASAP", "in press") is no volume at all
            if v1 and v2 and v1 != v2 and _REAL_VOLUME.match(v1) and _REAL_VOLUME.match(v2):
                return f"different {name}s of one container"
    return None


def compare(r1: Record, r2: Record) -> Verdict | None:
    """What ``r1`` and ``r2`` are to each other, or None when they are different works (or cannot be told)."""
    if r1.content == r2.content and r1.content[1]:
        return Verdict("same", "identical entries")
    if r1.cls != r2.cls and ("thesis" in (r1.cls, r2.cls) or "loose" not in (r1.cls, r2.cls)):
        return None  # a thesis and the paper from it; a book and a paper of the same name
    title_score = fuzz.ratio(r1.norm, r2.norm) if r1.norm and r2.norm else None
    for scheme, value in r1.identifiers():
        if getattr(r2, scheme) == value:
            if title_score is not None and title_score < ID_TITLE_FLOOR:
                return Verdict("stale-id", f"share the {_ID_LABEL[scheme]} {value} but not the title")
            part = _different_part(r1, r2) if title_score is not None and title_score >= TITLE_THRESHOLD else None
            if part:
                return None
            return Verdict("same", f"same {_ID_LABEL[scheme]} {value}")
    if r1.arxiv and r2.arxiv and r1.arxiv != r2.arxiv:
        return None
    if title_score is None or title_score < TITLE_THRESHOLD or r1.markers != r2.markers:
        return None
    if _different_part(r1, r2):
        return None
    if r1.author_text and r1.author_text == r2.author_text:
        why = f"same title ({title_score:.0f}) and authors"
    else:
        # a title that only partly agrees (one has words the other lacks: "X" and "X: A Second
        # Look") is one work only with one author list, as in resolution (same_author_list)
        partial = r1.norm != r2.norm and title_agreement(r1.fields.get("title", ""),
                                                         r2.fields.get("title", ""))[0] == "partial"
        (a1, t1), (a2, t2) = r1.authors, r2.authors
        if not a1 or not a2:
            if partial or not (title_score >= TITLE_ONLY_THRESHOLD and len(r1.words) >= 3):
                return None
            why = f"same title ({title_score:.0f}), no authors to compare"
        else:
            share, matched = author_overlap(a1, a2, shorter=t1 or t2)
            if share < AUTHOR_THRESHOLD:
                return None
            if partial and not one_author_list(len(a1), t1, len(a2), t2, matched):
                # "X" by A and "X: A Second Look" by A and B: a paper of its own, listed, never
                # merged, never taken as a version to upgrade to
                return Verdict("related", f"title only partly agrees ({title_score:.0f}) and the authors are not "
                                          f"one list ({matched} in common, of {len(a1)} and {len(a2)}): another paper")
            why = f"same title ({title_score:.0f}) and authors ({matched}/{max(len(a1), len(a2))})"
    return _same_or_versions(r1, r2, why)


def _same_or_versions(r1: Record, r2: Record, why: str) -> Verdict | None:
    """Same title and authors: one work. Whether the two records are one *entry* depends on where they appeared."""
    if r1.doi and r2.doi and r1.doi != r2.doi:
        if r1.year == r2.year or (r1.container and r1.container == r2.container):
            return None  # two publications of one place and time: two papers that share a title
        return Verdict("versions", f"{why}, but two DOIs (two publications)")
    stages = {r1.stage, r2.stage}
    f1, f2 = r1.fields, r2.fields
    if "workshop" in stages and len(stages) > 1 and stages != {"workshop", "preprint"}:
        return Verdict("versions", f"{why}; a workshop paper and a later version")
    reports = (r1.entry.entry_type in _REPORT_TYPES, r2.entry.entry_type in _REPORT_TYPES)
    if ("submitted" in stages and len(stages) > 1) or reports[0] != reports[1]:
        return Verdict("versions", f"{why}; a technical report and a paper")
    if stages == {"submitted"}:
        for name in ("number", "institution"):
            if f1.get(name) and f2.get(name) and normalize_title(f1[name]) != normalize_title(f2[name]):
                return Verdict("versions", f"{why}; two technical reports ({name} differs)")
    if r1.year and r2.year:
        for pub, other in ((r1, r2), (r2, r1)):
            if pub.stage in FINAL_STAGES and other.stage == "preprint" and not other.arxiv and other.year > pub.year:
                return Verdict("versions", f"{why}; a manuscript revised after the {pub.year} publication")
        gap = abs(r1.year - r2.year)
        flexible = bool(stages & {"preprint", "accepted"})  # a preprint may precede its paper by a year or two
        if gap and r1.stage in FINAL_STAGES and r2.stage in FINAL_STAGES and r1.norm != r2.norm:
            # a later journal article under another title ("Nets" → "Networks") is a paper of its
            # own unless an identifier links them (see compare): listed as related, never merged
            return Verdict("related", f"{why}; published {min(r1.year, r2.year)} and {max(r1.year, r2.year)} "
                                      "under different titles, no shared identifier")
        if gap > (2 if flexible else 0):
            return Verdict("versions", f"{why}; {min(r1.year, r2.year)} and {max(r1.year, r2.year)} versions")
        if gap == 0 and not flexible and not stages & FINAL_STAGES:
            m1, m2 = _month(f1.get("month", "")), _month(f2.get("month", ""))
            if m1 and m2 and m1 != m2:
                return Verdict("versions", f"{why}; two drafts of {r1.year}")
    if r1.stage in FINAL_STAGES and r2.stage in FINAL_STAGES and r1.container and r2.container:
        if fuzz.token_set_ratio(r1.container, r2.container) < 60 and not _same_venue(r1, r2):
            # "NAACL-HLT" and "Proceedings of the 2019 Conference of the North American Chapter..."
            # name one venue; a journal reprint has its own pages (a renamed journal keeps them)
            f1, f2 = r1.fields, r2.fields
            p1, p2 = _first_page(f1.get("pages", "")), _first_page(f2.get("pages", ""))
            if p1 and p2 and p1 != p2:
                return Verdict("versions", f"{why}; published in two places")
    return Verdict("same", why)


def _month(value: str) -> str:
    return value.strip().lower()[:3]


def _same_venue(r1: Record, r2: Record) -> bool:
    v1 = venues.from_text(r1.fields.get("journal") or r1.fields.get("booktitle") or "")[0]
    v2 = venues.from_text(r2.fields.get("journal") or r2.fields.get("booktitle") or "")[0]
    return v1 is not None and v1 == v2


def same_work(a: Entry, b: Entry, parents: Sequence[Entry] = ()) -> Verdict | None:
    """What two entries are to each other; ``parents`` are entries their ``crossref``s may name."""
    records = prepare([a, b, *parents])
    return compare(records[0], records[1])


def is_same_work(a: Entry, b: Entry) -> bool:
    """True when two entries are one work that belongs in one entry (not merely versions)."""
    verdict = same_work(a, b)
    return verdict is not None and verdict.kind == "same"


# ---- which entry to keep --------------------------------------------------------------------

_BROKEN_WORD = lazy(
    r"(?:\b[A-Za-z]+-[a-z]\b|\b(?:[Ff]fi|[Ff]fl|[Ff]f|[Ff]i|[Ff]l)\s+[A-Za-z]|\b[A-Z][a-z]?\s+(?:ffi|fi|fl)\w*|\b\w+\s+(?:ciency|cient|cation|cations|nition)\b)"
)


def broken_words(text: str) -> int:
    """How many places look like text damaged by PDF extraction ("High-e Ffi Ciency")."""
    return len(_BROKEN_WORD.findall(text or ""))


def cleanliness(entry: Entry) -> int:
    """Lower is cleaner: broken words in title/venue, and placeholder values (``volume = {ASAP}``)."""
    f = entry.fields
    bad = broken_words(f.get("title", "")) + broken_words(f.get("journal", "") + " " + f.get("booktitle", ""))
    for name in ("volume", "number"):
        if f.get(name) and not _REAL_VOLUME.match(f[name]) and not f[name].lower().startswith("abs/"):
            bad += 1
    for name in ("title", "author", "year"):
        if not f.get(name, "").strip():
            bad += 1
    return bad


def completeness(entry: Entry) -> int:
    return sum(1 for v in entry.fields.values() if v.strip())


def survivor_order(entries: Sequence[Entry], precedence: Sequence[str] | None = None,
                   fields: Sequence[Mapping[str, str]] | None = None) -> list[int]:
    """Indices of ``entries`` best first: precedence of stages, then cleanest, then most complete, then issue order."""
    def key(i: int) -> tuple[int, int, int, int]:
        e = entries[i]
        stage = entry_stage(e, fields[i] if fields is not None else None)
        return stage_rank(stage, precedence), cleanliness(e), -completeness(e), i

    return sorted(range(len(entries)), key=key)


def choose_survivor(entries: Sequence[Entry], precedence: Sequence[str] | None = None) -> Entry:
    """The entry that survives a merge: the version to cite by ``resolve.precedence``; among
    equals, the cleanest and most complete record; on a full tie the one that came first.

    ``entries`` must be in issue order (library order, or file order on import), which is
    what makes the choice stable from one run to the next.
    """
    if not entries:
        raise ValueError("choose_survivor needs at least one entry")
    parents = parent_index(entries)
    fields = [inherited_fields(e, parents) for e in entries]
    return entries[survivor_order(entries, precedence, fields)[0]]


# ---- online records (resolution) ------------------------------------------------------------

_SOURCE_ORDER = {"dblp": 0, "crossref": 1, "openreview": 2, "arxiv": 3, "notes": 4}
_PREPRINT_SOURCE_ORDER = {"arxiv": 0, "dblp": 1, "crossref": 2, "openreview": 3, "notes": 4}


def same_candidates(a: Candidate, b: Candidate) -> bool:
    """True when two online records are versions of one paper.

    A shared identifier decides. Without one, both must name the same authors and agree on
    the title; an anonymous record (a double-blind submission) can only be linked by an
    identifier or by a near-identical title *and* abstract.
    """
    if a.ids.shares_any(b.ids):
        return True
    level, sim = title_agreement(a.title, b.title)
    if level != "full":
        return False
    if is_anonymous(a.authors) or is_anonymous(b.authors):
        if a.abstract and b.abstract:
            return sim >= 0.95 and abstract_similarity(a.abstract, b.abstract) >= 0.8
        return False
    share, matched = written_overlap([p.raw or p.display() for p in a.authors], b.authors)
    return authors_agree(share, matched, len(a.authors), len(b.authors)) and share >= 0.6


#: how alike the abstracts of a renamed version must be (rapidfuzz ratio, 0..1): the same
#: abstract, edited; two papers of one group on one topic stay far below
RENAMED_ABSTRACT = 0.9
#: share of the significant title words a renamed version keeps (the subtitle, the method's name)
RENAMED_TITLE_WORDS = 0.4


def renamed_version(a: Candidate, b: Candidate) -> bool:
    """True when ``b`` is ``a`` under another title: a submission renamed on arXiv.

    Titles alone never decide it: both records must name the same authors (every author
    of each among the other's, none anonymous), carry near-identical abstracts, and keep a
    good part of the title's words (``From Muon to Gluon: Bridging …`` and ``Gluon: Making
    Muon & Scion Great Again! (Bridging …)``).
    """
    if not a.authors or not b.authors or is_anonymous(a.authors) or is_anonymous(b.authors):
        return False
    if len(a.authors) != len(b.authors) or not (a.abstract and b.abstract):
        return False
    share, matched = written_overlap([p.raw or p.display() for p in a.authors], b.authors)
    if matched < len(a.authors) or share < 1.0:
        return False
    if abstract_similarity(a.abstract, b.abstract) < RENAMED_ABSTRACT:
        return False
    wa, wb = set(_significant(a.title)), set(_significant(b.title))
    return bool(wa and wb) and len(wa & wb) / min(len(wa), len(wb)) >= RENAMED_TITLE_WORDS


def _significant(title: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", normalize_title(title)) if len(w) > 3]


def group_versions(candidates: Sequence[Candidate]) -> list[list[Candidate]]:
    """Partition records into works (linking is transitive: v1 ~ v2 ~ accepted record).

    Groups keep the order in which their first record appeared, records their own order.
    """
    links = UnionFind(len(candidates))
    for i in range(len(candidates)):
        for j in range(i + 1, len(candidates)):
            if links.find(i) != links.find(j) and same_candidates(candidates[i], candidates[j]):
                links.union(i, j)
    return [[candidates[i] for i in group] for group in links.groups()]


def names_venue(candidate: Candidate, venue: str | None, year: int | None) -> bool:
    """True when the candidate is at the venue (and year) the notes name."""
    if not venue or not candidate.venue:
        return False
    found, found_year = venues.from_text(candidate.venue)
    wanted = venues.canonical(venue) or venue
    if found != wanted:
        return False
    return year is None or found_year is None or found_year == year


def choose_version(
    versions: Sequence[Candidate],
    *,
    precedence: Sequence[str] | None = None,
    venue: str | None = None,
    year: int | None = None,
) -> Candidate:
    """The version to cite.

    A final version (published or accepted) at the venue the notes name wins first: a
    researcher who wrote down the ICML poster wants the ICML paper even when a journal
    extension exists. Otherwise the precedence of stages decides, then the source whose
    records carry the most metadata, then the record with the most identifiers.
    """
    if not versions:
        raise ValueError("choose_version needs at least one version; resolve the work first")

    def key(c: Candidate) -> tuple[int, int, int, int, float]:
        preferred = c.stage in FINAL_STAGES and names_venue(c, venue, year)
        return (
            0 if preferred else 1,
            stage_rank(c.stage, precedence),
            (_PREPRINT_SOURCE_ORDER if c.stage == "preprint" else _SOURCE_ORDER).get(c.source, len(_SOURCE_ORDER)),
            -len(c.ids.items()),
            -c.score,
        )

    return min(versions, key=key)
