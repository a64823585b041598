"""Finding the entries that are the same work: blocking, then scoring, then clusters.

Comparing every entry with every other is what makes a 100k-entry library take hours, so
entries are first put into small blocks that any two versions of one work are almost
certain to share: each identifier, each of a title's rarest words, the pair of its two
rarest words, and a sorted neighbourhood of normalized titles. Only pairs inside a block
are scored (rapidfuzz, in C), and only the few pairs whose titles are near-identical get
the slower author and year checks. Accepted pairs are joined with union-find.

The rules for "same work" are spelled out in ``docs/dedup.md``; :func:`compare` is their
single implementation.
"""

from __future__ import annotations

import gc
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from bibtexparser.middlewares.names import split_multiple_persons_names
from rapidfuzz import fuzz, process

from ..ids import ARXIV_DOI_PREFIX, normalize_arxiv
from ..model import Entry
from ..names import family_key, name_tokens, parse_name
from ..text import STOPWORDS  # the one stop-word list of title_tokens
from ..text import delatex, normalize_title
from .merge import STAGE_RANK, choose_survivor, version_stage

#: title similarity (rapidfuzz ratio of normalized titles, 0-100) needed to consider a pair
TITLE_THRESHOLD = 90.0
#: without authors on one side, only an (almost) exact title of some length will do
TITLE_ONLY_THRESHOLD = 97.0
#: below this title similarity a shared identifier also needs shared authors to count
ID_TITLE_FLOOR = 60.0
#: share of authors two versions must have in common (Jaccard on family names)
AUTHOR_THRESHOLD = 0.5
#: blocks bigger than this are not compared all-pairs (their word is too common to tell)
MAX_BLOCK = 250
#: how many of a title's rarest words each open a block
RARE_WORDS = 3
#: sorted-neighbourhood window over normalized titles
WINDOW = 4

_THESIS = {"phdthesis", "mastersthesis", "thesis"}
_BOOKISH = {"book", "mvbook", "proceedings", "mvproceedings", "collection", "mvcollection", "reference", "periodical"}
_LOOSE = {"misc", "unpublished", "online", "electronic", "preprint", "techreport", "report", "article"}
_KIND_WORDS = {
    "erratum": "erratum", "errata": "erratum", "corrigendum": "erratum", "corrigenda": "erratum",
    "correction": "erratum", "corrections": "erratum", "retraction": "retraction", "retracted": "retraction",
    "reply": "reply", "rejoinder": "reply", "response": "reply", "addendum": "addendum",
    "comment": "comment", "comments": "comment", "discussion": "comment", "supplement": "supplement",
    "supplementary": "supplement",
}
_SEQ_WORDS = {"part", "vol", "volume", "chapter", "book", "no", "number", "series", "episode", "paper", "section"}
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11, "xii": 12}
_DIGITS = re.compile(r"\d+")
_ORDINAL = {"one": 1, "two": 2, "three": 3, "four": 4, "first": 1, "second": 2, "third": 3, "fourth": 4}


# ---- what is compared -------------------------------------------------------------------

@dataclass(frozen=True)
class Author:
    """One author reduced to what survives every spelling of the name."""

    family: str
    tokens: frozenset[str]


_ACCENT_CMD = re.compile(r"\\(?:[`'^\"~=.]|[uvHckbdrt](?![A-Za-z]))\s*")
_LETTER_CMD = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])\s*")


def plain_name(raw: str) -> str:
    """A name without LaTeX, for matching only (never written anywhere).

    Accent commands are dropped rather than converted: matching folds accents away
    anyway, and the LaTeX parser costs a third of a millisecond per name. Anything
    else with a backslash still goes through :func:`citekit.text.delatex`.
    """
    if "\\" in raw or "$" in raw:
        stripped = _LETTER_CMD.sub(r"\1", _ACCENT_CMD.sub("", raw))
        if "\\" in stripped or "$" in stripped:
            return delatex(raw)
        raw = stripped
    return raw.replace("{", "").replace("}", "").strip()


@lru_cache(maxsize=262144)
def author_of(raw: str) -> Author | None:
    """One name as matching sees it; cached because authors recur across a library."""
    plain = plain_name(raw)
    if not plain:
        return None
    fam = family_key(parse_name(plain))
    return Author(fam, frozenset(name_tokens(plain))) if fam else None


def parse_authors(value: str) -> tuple[list[Author], bool]:
    """Authors of a BibTeX ``author`` field, and whether the list ends in ``and others``."""
    authors: list[Author] = []
    truncated = False
    for raw in split_multiple_persons_names(value or ""):
        if raw.strip().lower() in ("others", "et al.", "et al"):
            truncated = True
            continue
        author = author_of(raw.strip())
        if author is not None:
            authors.append(author)
    return authors, truncated


def same_person(a: Author, b: Author) -> bool:
    """Same author across spellings: initials, family-first order, accents, two-word families."""
    if a.family == b.family or a.family in b.tokens or b.family in a.tokens:
        return True
    short, long_ = sorted((a.family, b.family), key=len)
    if len(short) >= 3 and long_.endswith(short):  # "compagnoni" in "monziocompagnoni"
        return True
    return len(short) >= 5 and fuzz.ratio(a.family, b.family) >= 85  # mangled accents


def author_overlap(a: Sequence[Author], b: Sequence[Author], truncated: bool = False) -> tuple[float, int]:
    """(share of authors in common, number matched); ``truncated`` compares against the shorter list."""
    used = [False] * len(b)
    matched = 0
    for person in a:
        for j, other in enumerate(b):
            if not used[j] and same_person(person, other):
                used[j] = True
                matched += 1
                break
    denom = min(len(a), len(b)) if truncated else len(a) + len(b) - matched
    return (matched / denom if denom else 0.0), matched


_MARKER_WORDS = frozenset(_KIND_WORDS) | frozenset(_ROMAN) | frozenset(_ORDINAL)


def title_markers(norm: str) -> frozenset[str]:
    """What tells apart works whose titles are otherwise the same.

    Numbers (``Part II``, ``GPT-3``, ``SemEval-2017``; digits inside words count, so
    ``Al_xIn_{1-x}`` and ``Al xIn 1-x`` agree), and words that make a different kind of
    publication (``Erratum``, ``Reply``, ``Comment on``).
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


def _year(entry: Entry) -> int | None:
    m = re.search(r"\d{4}", entry.fields.get("year") or entry.fields.get("date") or "")
    return int(m.group()) if m else None


def _type_class(entry_type: str) -> str:
    if entry_type in _THESIS:
        return "thesis"
    if entry_type in _BOOKISH:
        return "book"
    return "loose" if entry_type in _LOOSE else "paper"


class Record:
    """An entry prepared once for comparison; authors are parsed only if ever needed."""

    __slots__ = ("index", "entry", "norm", "words", "markers", "year", "rank", "cls", "arxiv", "doi",
                 "openreview", "dblp", "__dict__")

    def __init__(self, index: int, entry: Entry) -> None:
        self.index = index
        self.entry = entry
        self.norm = normalize_title(entry.fields.get("title", ""))
        self.words = [w for w in self.norm.split() if w not in STOPWORDS]
        self.markers = title_markers(self.norm)
        self.year = _year(entry)
        self.rank = STAGE_RANK[version_stage(entry)]
        self.cls = _type_class(entry.entry_type)
        doi = entry.ids.doi
        arxiv = entry.ids.arxiv
        if doi and doi.startswith(ARXIV_DOI_PREFIX):  # the arXiv DOI names the preprint, not a publication
            arxiv = arxiv or normalize_arxiv(doi)
            doi = None
        self.arxiv, self.doi = arxiv, doi
        self.openreview, self.dblp = entry.ids.openreview, entry.ids.dblp

    @property
    def author_text(self) -> str:
        return self.entry.fields.get("author") or self.entry.fields.get("editor") or ""

    @cached_property
    def authors(self) -> tuple[list[Author], bool]:
        return parse_authors(self.author_text)

    def identifiers(self) -> Iterable[tuple[str, str]]:
        for scheme in ("doi", "arxiv", "openreview", "dblp"):
            value = getattr(self, scheme)
            if value:
                yield scheme, value


# ---- deciding one pair ------------------------------------------------------------------

@dataclass
class Match:
    """Two entries judged to be the same work, and why."""

    a: int
    b: int
    reason: str


_ID_LABEL = {"doi": "DOI", "arxiv": "arXiv id", "openreview": "OpenReview forum", "dblp": "dblp key"}


def _authors_agree(r1: Record, r2: Record) -> bool:
    (a1, t1), (a2, t2) = r1.authors, r2.authors
    return bool(a1 and a2) and author_overlap(a1, a2, truncated=t1 or t2)[0] >= AUTHOR_THRESHOLD


def compare(r1: Record, r2: Record) -> str | None:
    """Why ``r1`` and ``r2`` are the same work, or None when they are not (or cannot be told)."""
    if r1.cls != r2.cls and ("thesis" in (r1.cls, r2.cls) or "loose" not in (r1.cls, r2.cls)):
        return None  # a thesis and the paper from it; a book and a paper of the same name
    ed1, ed2 = r1.entry.fields.get("edition"), r2.entry.fields.get("edition")
    if ed1 and ed2 and ed1.strip().lower() != ed2.strip().lower():
        return None
    if r1.doi and r2.doi and r1.doi != r2.doi:
        return None  # two publications (arXiv DOIs were set aside as arXiv ids)
    title_score = fuzz.ratio(r1.norm, r2.norm) if r1.norm and r2.norm else None
    for scheme, value in r1.identifiers():
        if getattr(r2, scheme) == value:
            if title_score is not None and title_score < ID_TITLE_FLOOR and not _authors_agree(r1, r2):
                break  # an identifier pasted onto an unrelated entry (reference managers do this)
            return f"same {_ID_LABEL[scheme]} {value}"
    if r1.arxiv and r2.arxiv and r1.arxiv != r2.arxiv:
        return None
    if title_score is None or title_score < TITLE_THRESHOLD or r1.markers != r2.markers:
        return None
    if r1.year and r2.year:
        gap = abs(r1.year - r2.year)
        published = STAGE_RANK["published"]
        if gap > (0 if r1.rank == published and r2.rank == published else 2):
            return None
    if r1.author_text and r1.author_text == r2.author_text:
        return f"same title ({title_score:.0f}) and authors"
    (a1, t1), (a2, t2) = r1.authors, r2.authors
    if not a1 or not a2:
        if title_score >= TITLE_ONLY_THRESHOLD and len(r1.words) >= 3:
            return f"same title ({title_score:.0f}), no authors to compare"
        return None
    share, matched = author_overlap(a1, a2, truncated=t1 or t2)
    if share < AUTHOR_THRESHOLD:
        return None
    return f"same title ({title_score:.0f}) and authors ({matched}/{max(len(a1), len(a2))})"


# ---- blocking -----------------------------------------------------------------------------

def _id_pairs(records: Sequence[Record]) -> set[tuple[int, int]]:
    blocks: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in records:
        for scheme, value in r.identifiers():
            blocks[(scheme, value)].append(r.index)
    pairs: set[tuple[int, int]] = set()
    for members in blocks.values():
        if 1 < len(members) <= MAX_BLOCK:
            pairs.update((a, b) for i, a in enumerate(members) for b in members[i + 1:])
    return pairs


def _title_blocks(records: Sequence[Record]) -> dict[str, list[int]]:
    """Blocks keyed by each of a title's rarest words and by each pair of them."""
    df: Counter[str] = Counter()
    uniq = [set(r.words) for r in records]
    for words in uniq:
        df.update(words)
    # one global order of words, rarest first (ties by spelling, so runs are reproducible);
    # a word no other title has (often a typo) cannot bring a partner and is left out
    vocab = sorted((w for w, n in df.items() if n > 1), key=lambda w: (df[w], w))
    rank = {w: i for i, w in enumerate(vocab)}.get
    blocks: dict[str, list[int]] = defaultdict(list)
    for r, words in zip(records, uniq):
        if not words:
            if r.norm:
                blocks["=" + r.norm].append(r.index)
            continue
        rarest = [vocab[i] for i in sorted([i for i in map(rank, words) if i is not None])[:RARE_WORDS]]
        if not rarest:
            continue
        for w in rarest:
            if df[w] <= MAX_BLOCK:
                blocks[w].append(r.index)
        # pairs of rare words: specific even when every word is common, and one typo
        # leaves the other pairs intact
        top = sorted(rarest)
        if len(top) == 1:
            blocks["+" + top[0]].append(r.index)
        for a, b in combinations(top, 2):
            blocks[a + "+" + b].append(r.index)
    return blocks


def _scored_pairs(members: Sequence[int], norms: Sequence[str], window: int | None) -> Iterable[tuple[int, int]]:
    """Pairs in a block whose titles are similar enough to look at closely."""
    if window is not None:
        order = sorted(members, key=lambda i: norms[i])
        for pos, i in enumerate(order):
            for j in order[pos + 1: pos + 1 + window]:
                if fuzz.ratio(norms[i], norms[j], score_cutoff=TITLE_THRESHOLD):
                    yield (i, j) if i < j else (j, i)
        return
    if len(members) <= 12:  # a few direct calls beat setting up a C loop
        for pos, i in enumerate(members):
            for j in members[pos + 1:]:
                if fuzz.ratio(norms[i], norms[j], score_cutoff=TITLE_THRESHOLD):
                    yield (i, j) if i < j else (j, i)
        return
    titles = [norms[i] for i in members]
    for pos in range(len(members) - 1):
        hits = process.extract(titles[pos], titles[pos + 1:], scorer=fuzz.ratio,
                               score_cutoff=TITLE_THRESHOLD, limit=None)
        i = members[pos]
        for _choice, _score, k in hits:
            j = members[pos + 1 + k]
            yield (i, j) if i < j else (j, i)


def candidate_pairs(records: Sequence[Record]) -> set[tuple[int, int]]:
    """Every pair worth deciding: shared identifiers, or similar titles within a block."""
    pairs = _id_pairs(records)
    norms = [r.norm for r in records]
    titled = [r.index for r in records if r.norm]
    pairs.update(_scored_pairs(titled, norms, window=WINDOW))
    seen: set[tuple[int, ...]] = set()
    for members in _title_blocks(records).values():
        if len(members) < 2:
            continue
        if len(members) == 2:
            a, b = members
            if (a, b) not in pairs and fuzz.ratio(norms[a], norms[b], score_cutoff=TITLE_THRESHOLD):
                pairs.add((a, b) if a < b else (b, a))
            continue
        group = tuple(members)
        if group in seen:  # the same titles often share several rare words
            continue
        seen.add(group)
        big = len(members) > MAX_BLOCK
        pairs.update(_scored_pairs(members, norms, window=10 if big else None))
    return pairs


# ---- clusters -----------------------------------------------------------------------------

class UnionFind:
    """Disjoint sets over 0..n-1; the smallest index is each set's root, for stable output."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass
class Cluster:
    """Entries of one work: their keys in input order, the one that survives, and why."""

    keys: list[str]
    kept: str
    reason: str
    indices: list[int] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, object]:
        return {"keys": list(self.keys), "kept": self.kept, "reason": self.reason}


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector while building many small acyclic objects.

    Blocking allocates hundreds of thousands of lists and tuples; each allocation burst
    makes the collector rescan every live record, which alone doubled the run time on a
    100k library. Nothing built here forms cycles, so reference counting frees it all.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def find_matches(entries: Sequence[Entry]) -> list[Match]:
    """Every pair of entries judged to be the same work (indices into ``entries``)."""
    with _no_cyclic_gc():
        records = [Record(i, e) for i, e in enumerate(entries)]
        matches = []
        for a, b in sorted(candidate_pairs(records)):
            reason = compare(records[a], records[b])
            if reason:
                matches.append(Match(a, b, reason))
    return matches


def find_clusters(entries: Sequence[Entry]) -> list[Cluster]:
    """Groups of entries that are the same work, in input order.

    ``entries`` should be in issue order (library order, or file order for a .bib file):
    on a tie between equally good versions, the first one's key survives.
    """
    matches = find_matches(entries)
    uf = UnionFind(len(entries))
    for m in matches:
        uf.union(m.a, m.b)
    groups: dict[int, list[int]] = defaultdict(list)
    reasons: dict[int, list[str]] = defaultdict(list)
    for m in matches:
        root = uf.find(m.a)
        if m.reason not in reasons[root]:
            reasons[root].append(m.reason)
    for i in range(len(entries)):
        groups[uf.find(i)].append(i)
    clusters = []
    for root in sorted(groups):
        members = groups[root]
        if len(members) < 2:
            continue
        group = [entries[i] for i in members]
        clusters.append(Cluster(
            keys=[e.key for e in group],
            kept=choose_survivor(group).key,
            reason="; ".join(reasons[root]),
            indices=members,
        ))
    return clusters


def same_work(a: Entry, b: Entry) -> str | None:
    """Why two entries are the same work, or None: the rule of :func:`compare` for one pair."""
    return compare(Record(0, a), Record(1, b))
