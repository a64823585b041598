"""How well one source record fits what the notes say about a paper.

Every metadata service answers a title query with *something*: Crossref in particular
ranks a same-titled paper by other people, a "Part II" or an erratum above nothing at all.
So a high similarity is never enough on its own. A candidate may only be attached when the
title and the authors *both* agree (:attr:`MatchScore.agrees`); the numeric
:attr:`MatchScore.total` then ranks the candidates that passed that gate.

Titles agree fully when their folded forms are nearly equal. Papers are renamed between
versions (a workshop title becomes a conference title), so a *partial* title agreement (the
same subtitle, or one title's words contained in the other's) is accepted too, but only
when the record's author list is the notes' list (:func:`same_author_list`) and the venue
and year agree as well: a decoy that merely shares a subtitle has other authors and fails,
and so does a longer title that starts with the notes' one by the same first author and
someone else (``X: A Second Look``): a similar title is not the same paper, and sharing a
first author does not make it one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from rapidfuzz import fuzz

from citekit.core.model import Person
from citekit.core.resolution import Candidate, Mention
from citekit.core.text import latex_to_text, normalize_title, title_tokens
from citekit.core import venues
from citekit.matching.people import Name, author_overlap as people_overlap, name_of, name_of_person
from citekit.core.lazyre import lazy

#: A candidate must score at least this much (and agree) to be attached.
ACCEPT = 0.80
#: Title similarity from which two titles are "the same title".
TITLE_FULL = 0.90
#: Abstract similarity from which an abstract-only mention is "the same paper".
ABSTRACT_MIN = 0.85

# Words whose presence on one side only means a *different* document with a similar title.
_MARKERS = frozenset(
    "part ii iii iv v vi erratum errata correction corrigendum retraction retracted addendum reply comment "
    "commentary response rejoinder supplement supplementary".split()
)
_SUBTITLE_SPLIT = lazy(r"\s*(?::|\s[-–—]\s)\s*")
_WEIGHTS = {"title": 0.5, "authors": 0.3, "year": 0.1, "venue": 0.1}
_ANONYMOUS = {"anonymous", "anonymous authors", "anonymous author"}
_STOP = frozenset(normalize_title("a an the of on in for and or to with via by from at as is are be its it into "
                                  "over under toward towards we our do does can not no using").split())


def _norm(text: str) -> str:
    return normalize_title(text)


def _sig(text: str) -> list[str]:
    return title_tokens(text)


@dataclass(frozen=True)
class MatchScore:
    """The evidence for one (mention, candidate) pair.

    Components are ``None`` when one side does not know them (no authors in the notes,
    no venue on an arXiv record): unknown evidence neither helps nor hurts.
    """

    total: float
    agrees: bool
    title: float | None = None
    title_agreement: str = "none"  # full | partial | conflict | none | n/a
    authors: float | None = None
    matched_authors: int = 0
    year: float | None = None
    venue: float | None = None
    abstract: float | None = None
    why: str = ""


# --------------------------------------------------------------------------- titles


def title_similarity(a: str, b: str) -> float:
    """0..1 similarity of two titles after folding LaTeX, math, accents and punctuation.

    The comparison also runs on the space-free form, so ``$(L_0,L_1)$`` and ``(L0, L1)``
    (which fold to ``l 0 l 1`` and ``l0 l1``) count as the same text.
    """
    na, nb = _norm(a), _norm(b)
    if not na or not nb:
        return 0.0
    spaced = max(fuzz.ratio(na, nb), fuzz.token_sort_ratio(na, nb))
    compact = fuzz.ratio(na.replace(" ", ""), nb.replace(" ", ""))
    return max(spaced, compact) / 100.0


def _markers(title: str) -> set[str]:
    return {w for w in _norm(title).split() if w in _MARKERS}


def _digits(title: str) -> list[str]:
    return re.findall(r"\d+", _norm(title).replace(" ", ""))


def _parts(title: str) -> list[str]:
    """Main title and subtitle(s), split at a colon or a spaced dash outside math."""
    return [p for p in _SUBTITLE_SPLIT.split(latex_to_text(title, matching=True)) if p.strip()]


def title_agreement(a: str, b: str) -> tuple[str, float]:
    """``(level, similarity)`` where level is ``full``, ``partial``, ``conflict`` or ``none``.

    ``conflict`` means the titles are close but name different documents (a "Part II",
    an erratum, other numbers): never the same paper, whatever the authors say.
    """
    sim = title_similarity(a, b)
    if _markers(a) != _markers(b) or _digits(a) != _digits(b):
        return ("conflict" if sim >= 0.6 else "none"), sim
    if sim >= TITLE_FULL and not _unmatched_words(a, b):
        return "full", sim
    if _shares_subtitle(a, b) or _contained(a, b):
        return "partial", sim
    return "none", sim


def _joins(words: list[str]) -> set[str]:
    return {a + b for a, b in zip(words, words[1:])}


def _unmatched_words(a: str, b: str) -> list[str]:
    """Significant words of either title that the other lacks (typos and hyphenation forgiven).

    Character similarity alone calls "Flat Minima … Convex" and "Sharp Minima … Nonconvex"
    the same title; one changed word is a different claim. "Warm-up" and "warmup" are the
    same word, split differently.
    """
    missing: list[str] = []
    for x, y in ((a, b), (b, a)):
        words_x, words_y = _norm(x).split(), _norm(y).split()
        joins_x, other = _joins(words_x), set(words_y) | _joins(words_y)
        for i, word in enumerate(words_x):
            if word in _STOP or word in other:
                continue
            if any(j in other for j in joins_x if j.startswith(word) or j.endswith(word)):
                continue
            if len(word) > 3 and any(fuzz.ratio(word, w) >= 85 for w in other):
                continue
            missing.append(word)
    return missing


def _shares_subtitle(a: str, b: str) -> bool:
    """One title part (≥ 3 significant words) is the same on both sides."""
    pa, pb = _parts(a), _parts(b)
    if len(pa) < 2 and len(pb) < 2:
        return False
    for x in pa:
        if len(_sig(x)) < 3:
            continue
        for y in pb:
            if len(_sig(y)) >= 3 and title_similarity(x, y) >= 0.95 and not _unmatched_words(x, y):
                return True
    return False


def _contained(a: str, b: str) -> bool:
    """One title's significant words all occur in the other (a shortened or extended title)."""
    ta, tb = set(_sig(a)), set(_sig(b))
    small, large = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    return len(small) >= 4 and small <= large and len(small) / len(large) >= 0.6


# --------------------------------------------------------------------------- authors


def is_anonymous(authors: Sequence[Person]) -> bool:
    """True when a record hides its authors (double-blind submissions)."""
    return not authors or all((p.raw or p.display()).strip().lower() in _ANONYMOUS for p in authors)


def author_overlap(written: Sequence[str], persons: Sequence[Person]) -> tuple[float, int]:
    """``(share, matched)``: authors matched one-to-one by
    :func:`citekit.matching.people.same_person`, over the shorter list.

    Dividing by the shorter list tolerates notes that list only the first few authors
    and a later version that gained an author.
    """
    if not written or is_anonymous(persons):
        return 0.0, 0
    return people_overlap([name_of(name) for name in written], [name_of_person(p) for p in persons], shorter=True)


#: a record whose title only partly agrees may list one author more or fewer than the notes
#: (a co-author added at publication) when at least this many of the notes' authors are on it
RENAMED_LIST_SLACK = 3


def same_author_list(n_written: int, n_found: int, matched: int, incomplete: bool) -> bool:
    """The record's author list is the notes' list: what a renamed version keeps.

    Every author the notes name is on the record (``matched``, one to one) and the record
    names no one else; when at least :data:`RENAMED_LIST_SLACK` of them are on it, one author
    more or fewer is forgiven (the renamed ICML paper that gained an author). Notes that end
    ``et al.`` (``incomplete``) say nothing of the rest: all the authors they name must be on
    the record, and at least two. A first author alone never makes a list: a longer title by
    the same first author and another co-author is another paper.
    """
    if n_written == 0 or matched == 0:
        return False
    missing, extra = n_written - matched, n_found - matched
    if incomplete:
        return missing == 0 and matched >= 2
    if missing == 0 and extra == 0:
        return True
    return matched >= RENAMED_LIST_SLACK and missing + extra <= 1


def one_author_list(n1: int, incomplete1: bool, n2: int, incomplete2: bool, matched: int) -> bool:
    """Two author lists the user wrote (two library entries, two mentions in the notes) are
    one list: two whole lists by :func:`same_author_list` (the same people, one more or fewer
    forgiven from three agreeing); a list cut short (``et al.``, ``and others``) when every
    author it names is on the other (one is enough here: unlike a search result, the other
    list was not found by looking for this title, so it is no decoy a search brought up).
    """
    if incomplete1 or incomplete2:
        named = min(n1, n2) if incomplete1 and incomplete2 else n1 if incomplete1 else n2
        return matched >= 1 and matched == named
    return same_author_list(n1, n2, matched, False)


#: two descriptions of one title whose years are more than this apart (a preprint may come
#: two years before its paper) are two works unless their authors are one list
YEARS_APART = 2


@dataclass(frozen=True)
class Byline:
    """Who wrote a work and when, as one description of it says (a mention in the notes, a
    library entry): the names, whether the list is cut short (``et al.``), the year."""

    names: tuple[Name, ...]
    incomplete: bool = False
    year: int | None = None


def byline(authors: Sequence[str], incomplete: bool = False, year: int | None = None) -> Byline:
    """The byline of names as written (notes, BibTeX names)."""
    names = tuple(n for n in (name_of(a) for a in authors) if n is not None)
    return Byline(names, incomplete and bool(names), year)


@lru_cache(maxsize=65536)
def bylines_contradict(a: Byline, b: Byline) -> bool:
    """Two descriptions of one title that cannot be one work: both name authors and no one
    is on both lists (:func:`citekit.matching.people.same_person`), or their years are more
    than :data:`YEARS_APART` apart and the lists are not one list (:func:`one_author_list`).
    A side that names no authors contradicts nothing: a year alone does not tell two works
    apart (a reprint, a year written wrong)."""
    if not a.names or not b.names:
        return False
    _share, matched = people_overlap(a.names, b.names, shorter=True)
    if matched == 0:
        return True
    if a.year is not None and b.year is not None and abs(a.year - b.year) > YEARS_APART:
        return not one_author_list(len(a.names), a.incomplete, len(b.names), b.incomplete, matched)
    return False


def authors_agree(share: float, matched: int, n_written: int, n_found: int) -> bool:
    """Enough of the authors are the same people (≥ half, and ≥ 2 when both lists have ≥ 3)."""
    if matched == 0:
        return False
    if min(n_written, n_found) >= 3 and matched < 2:
        return False
    return share >= 0.5


# --------------------------------------------------------------------------- year, venue, abstract


def year_agreement(year: int | None, other: int | None) -> float | None:
    """1 for the same year, 0.5 one year apart (a preprint the year before), else 0."""
    if year is None or other is None:
        return None
    gap = abs(year - other)
    return 1.0 if gap == 0 else 0.5 if gap == 1 else 0.0


def venue_agreement(venue: str | None, year: int | None, candidate: Candidate) -> float | None:
    """1 when the candidate's venue is the one the notes name (``ICML`` ~ ``ICML 2026``)."""
    if not venue or not candidate.venue or candidate.stage == "preprint":
        return None  # arXiv/CoRR are where preprints sit, not a venue that could disagree
    wanted = venues.canonical(venue) or venue.lower()
    found_venue, found_year = venues.from_text(candidate.venue)
    if found_venue is None:
        first = candidate.venue.split()[0]
        found_venue = venues.canonical(first) or first.lower()
    if found_venue != wanted:
        return 0.0
    if year is not None and found_year is not None and found_year != year:
        return 0.0
    return 1.0


def abstract_similarity(a: str, b: str) -> float:
    """0..1 similarity of two abstracts (folded like titles: LaTeX, markup, case)."""
    na, nb = _norm(a), _norm(b)
    if not na or not nb:
        return 0.0
    return max(fuzz.ratio(na, nb), fuzz.token_sort_ratio(na, nb)) / 100.0


def hints_found(hints: Sequence[str], candidate: Candidate) -> bool:
    """Every method name the notes introduce appears in the candidate's title or abstract."""
    if not hints:
        return True
    text = f" {_norm(candidate.title)} {_norm(candidate.abstract or '')} "
    return all(f" {_norm(h)} " in text for h in hints if _norm(h))


# --------------------------------------------------------------------------- the score


def _weighted(parts: dict[str, float | None]) -> float:
    known = {k: v for k, v in parts.items() if v is not None}
    if not known:
        return 0.0
    weight = sum(_WEIGHTS[k] for k in known)
    return sum(_WEIGHTS[k] * v for k, v in known.items()) / weight


def score(mention: Mention, candidate: Candidate) -> MatchScore:
    """Score ``candidate`` against ``mention`` and decide whether it may be attached."""
    if not mention.title and mention.abstract:
        return _score_abstract(mention, candidate)
    if not mention.title and mention.reference:
        return _score_reference(mention, candidate)
    result = _score_titled(mention, candidate)
    if not result.agrees and mention.reference and result.title_agreement != "conflict":
        # a pasted reference whose title was read wrong ("Long short-term memory Neural
        # Comput"): the record whose whole title and first author the string holds is its
        # paper all the same (never one the title calls another document: an erratum, a part II)
        by_reference = _score_reference(mention, candidate)
        if by_reference.agrees:
            return by_reference
    return result


def _score_titled(mention: Mention, candidate: Candidate) -> MatchScore:
    """The score of a mention with a title: title and authors must both agree."""
    year = year_agreement(mention.year, candidate.year)
    venue = venue_agreement(mention.venue, mention.year, candidate)
    authors: float | None = None
    matched = 0
    authors_ok = True
    if mention.authors:
        if is_anonymous(candidate.authors):
            authors_ok = False
        else:
            authors, matched = author_overlap(mention.authors, candidate.authors)
            authors_ok = authors_agree(authors, matched, len(mention.authors), len(candidate.authors))
    if not mention.title:
        return _score_authors_only(mention, candidate, authors, matched, authors_ok, year, venue)
    listed = mention.authors
    if not mention.authors and mention.heading_people:
        # A person heading over the mention: the record must list that person, and then
        # agrees as a notes author would (a same-title paper by others is refused).
        authors, matched = author_overlap(mention.heading_people[:1], candidate.authors)
        authors_ok = matched > 0
        listed = mention.heading_people[:1]

    level, sim = title_agreement(mention.title, candidate.title)
    total = _weighted({"title": sim, "authors": authors, "year": year, "venue": venue})
    common = dict(total=round(total, 4), title=round(sim, 4), title_agreement=level, authors=authors,
                  matched_authors=matched, year=year, venue=venue)
    if level in ("conflict", "none"):
        why = "a different document with a similar title" if level == "conflict" else "titles differ"
        return MatchScore(agrees=False, why=why, **common)
    if not authors_ok and not mention.authors:
        who = mention.heading_people[0]
        why = "authors are hidden" if is_anonymous(candidate.authors) else f"the heading's {who} is not among its authors"
        return MatchScore(agrees=False, why=f"title agrees but {why}", **common)
    if not authors_ok:
        why = "authors are hidden" if is_anonymous(candidate.authors) else "authors differ"
        return MatchScore(agrees=False, why=f"title agrees but {why}", **common)
    if level == "partial":
        # A renamed version keeps its author list: the record must list the notes' authors and
        # no one else (a person heading is one name, not a list), so a longer title by the same
        # first author and another co-author is refused, not taken for an extended version.
        if not (mention.authors and same_author_list(len(mention.authors), len(candidate.authors), matched,
                                                     mention.authors_incomplete)):
            whose = "the notes list no authors" if not mention.authors else (
                f"its authors are not the notes' list ({matched} of the {len(mention.authors)} listed"
                f"{' (et al.)' if mention.authors_incomplete else ''} among its {len(candidate.authors)})")
            return MatchScore(agrees=False, why=f"title only partly agrees and {whose}: another paper", **common)
        # The venue must not contradict the notes (a preprint has none) and the year must be
        # the notes' year or the one before (the preprint of a conference paper).
        if not (venue in (1.0, None) and year in (1.0, 0.5)):
            return MatchScore(agrees=False, why="title only partly agrees and the venue or year does not confirm it", **common)
        return MatchScore(agrees=True, why="renamed: title partly agrees, the same authors, venue and year agree", **common)
    if not listed and sim < 0.95:
        return MatchScore(agrees=False, why="title is close but the notes give no authors to confirm it", **common)
    if not mention.authors and listed:
        return MatchScore(agrees=True, why=f"title agrees and the heading's {listed[0]} is among its authors", **common)
    return MatchScore(agrees=True, why="title and authors agree" if mention.authors else "title agrees", **common)


def _score_authors_only(mention: Mention, candidate: Candidate, authors: float | None, matched: int,
                        authors_ok: bool, year: float | None, venue: float | None) -> MatchScore:
    """A URL-only mention that lists authors: every listed author must be on the record."""
    total = _weighted({"authors": authors, "year": year, "venue": venue})
    full = authors is not None and matched == len(mention.authors) and matched >= 2
    agrees = authors_ok and full and venue != 0.0 and year != 0.0
    why = "all listed authors agree" if agrees else "the notes give no title and the authors do not all agree"
    return MatchScore(total=round(total, 4), agrees=agrees, title_agreement="n/a", authors=authors,
                      matched_authors=matched, year=year, venue=venue, why=why)


#: what may stand right before a title inside a reference string: the start of the string,
#: or punctuation (a field boundary; TeX's opening quotes ``…'' too), never another word of a title
_FIELD_EDGE = "\"'`“”‘’«»《》「」『』()[].,;:!?–—-"
#: and right after it (not a colon or a dash: "Batch normalization" is not the title of a
#: string that goes on "Batch normalization: Accelerating …", it is a shorter one's)
_FIELD_END = "\"'“”‘’«»《》「」『』()[].,;!?"


def _folded(text: str) -> str:
    """A reference string as :func:`normalize_title` folds a title, punctuation kept: ligatures
    and accents undone, a word split at a PDF's line end joined (``optimi- zation``)."""
    import unicodedata

    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"([a-z])- ([a-z])", r"\1\2", text.lower()).split())


def title_in_reference(title: str, reference: str) -> bool:
    """The record's whole title is one field of the reference string: its words in order,
    with a field boundary (punctuation, or an end of the string) on both sides, so a title
    that is only the start or the end of the string's longer title does not count."""
    words = normalize_title(title).split()
    if len(words) < 2:
        return False
    text = _folded(reference)
    pattern = re.compile(r"\W+".join(re.escape(w) for w in words))
    for m in pattern.finditer(text):
        before, after = text[:m.start()].rstrip(), text[m.end():].lstrip()
        if (not before or before[-1] in _FIELD_EDGE) and (not after or after[0] in _FIELD_END):
            return True
    return False


def _score_reference(mention: Mention, candidate: Candidate) -> MatchScore:
    """A pasted reference whose title the parser could not read: the record is this paper
    only when the string holds the record's whole title as a field and its first author's
    family name, the years (where both say one) are at most one apart (a preprint's year),
    and any authors read from the string agree. Nothing is guessed from the string itself."""
    reference = mention.reference or ""
    year = year_agreement(mention.year, candidate.year)
    titled = bool(candidate.title) and title_in_reference(candidate.title, reference)
    first = candidate.authors[0] if candidate.authors and not is_anonymous(candidate.authors) else None
    family = normalize_title(first.family or first.raw) if first is not None else ""
    named = bool(family) and re.search(rf"(?<!\w){re.escape(family)}(?!\w)", normalize_title(reference)) is not None
    authors: float | None = None
    matched = 0
    authors_ok = True
    if mention.authors and first is not None:
        authors, matched = author_overlap(mention.authors, candidate.authors)
        authors_ok = authors_agree(authors, matched, len(mention.authors), len(candidate.authors))
    close_years = mention.year is None or candidate.year is None or abs(mention.year - candidate.year) <= 1
    agrees = titled and named and authors_ok and close_years
    total = _weighted({"title": 1.0 if titled else 0.0, "authors": authors if authors is not None else float(named),
                       "year": year if close_years else 0.0})
    if agrees:
        why = "the reference string holds its whole title and its first author"
    elif not titled:
        why = "its title is not a field of the pasted reference"
    elif not named:
        why = "its first author is not in the pasted reference"
    else:
        why = "the reference's authors or year disagree"
    return MatchScore(total=round(total, 4), agrees=agrees, title_agreement="reference" if titled else "none",
                      authors=authors, matched_authors=matched, year=year, why=why)


def _score_abstract(mention: Mention, candidate: Candidate) -> MatchScore:
    """An abstract pasted without title: the text itself must match, and its method names."""
    if not candidate.abstract:
        return MatchScore(total=0.0, agrees=False, title_agreement="n/a", why="the record has no abstract to compare")
    sim = abstract_similarity(mention.abstract or "", candidate.abstract)
    hints_ok = hints_found(mention.hints, candidate)
    agrees = sim >= ABSTRACT_MIN and hints_ok
    if agrees:
        why = "abstract agrees"
    elif sim >= ABSTRACT_MIN:
        why = "abstract is close but the method names differ"
    else:
        why = "abstracts differ"
    return MatchScore(total=round(sim, 4), agrees=agrees, title_agreement="n/a", abstract=round(sim, 4), why=why)


def scored(mention: Mention, candidate: Candidate) -> tuple[Candidate, MatchScore]:
    """A copy of ``candidate`` with its ``score`` set (sources may share their objects)."""
    from dataclasses import replace

    result = score(mention, candidate)
    return replace(candidate, score=result.total), result
