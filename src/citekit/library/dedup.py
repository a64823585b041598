"""Finding the entries that are the same work: blocking, then scoring, then clusters.

Comparing every entry with every other is what makes a 100k-entry library take hours, so
entries are first put into small blocks that any two versions of one work are almost
certain to share: each identifier, each of a title's rarest words, the pair of its two
rarest words, and a sorted neighbourhood of normalized titles. Only pairs inside a block
are scored (rapidfuzz, in C), and only the few pairs whose titles are near-identical get
the slower author and year checks. Accepted pairs are joined with union-find.

The rules for "same work" live in :mod:`citekit.matching.works` (spelled out in ``docs/dedup.md``);
this module only finds which pairs to ask about, and groups the answers.
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, combinations

from rapidfuzz import fuzz, process

from citekit.core.model import Entry
from citekit.core.text import STOPWORDS
from citekit.core.unionfind import UnionFind
from citekit.matching.works import TITLE_THRESHOLD, Record, compare, prepare

#: blocks bigger than this are not compared all-pairs (their word is too common to tell)
MAX_BLOCK = 250
#: how many of a title's rarest words each open a block
RARE_WORDS = 3
#: sorted-neighbourhood window over normalized titles
WINDOW = 4


@dataclass
class Match:
    """Two entries judged to be one work (or versions of one), and why."""

    a: int
    b: int
    reason: str
    kind: str = "same"


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
    """Blocks keyed by each of a title's rarest words and by each pair of them.

    A pair block is a subset of the block of each of its words, and every pair in a word
    block is scored (a word block holds at most :data:`MAX_BLOCK` titles), so a pair block
    is built only where both words are too common to have a block of their own: the
    pairs it would bring are found all the same, without scoring them twice.
    """
    uniq = [set(r.norm.split()) - STOPWORDS for r in records]  # each record's words, as a set
    df: Counter[str] = Counter(chain.from_iterable(uniq))
    # one global order of words, rarest first (ties by spelling, so runs are reproducible);
    # a word no other title has (often a typo) cannot bring a partner and is left out
    vocab = sorted((w for w, n in df.items() if n > 1), key=lambda w: (df[w], w))
    rank = {w: i for i, w in enumerate(vocab)}
    unique = len(vocab)
    rank.update((w, unique) for w, n in df.items() if n == 1)
    ranked = rank.__getitem__
    blocks: dict[str, list[int]] = defaultdict(list)
    for r, words in zip(records, uniq):
        if not words:
            if r.norm:
                blocks["=" + r.norm].append(r.index)
            continue
        rarest = [vocab[i] for i in sorted(map(ranked, words))[:RARE_WORDS] if i < unique]
        if not rarest:
            continue
        common = []
        for w in rarest:
            if df[w] <= MAX_BLOCK:
                blocks[w].append(r.index)
            else:
                common.append(w)
        # pairs of rare words: specific even when every word is common, and one typo
        # leaves the other pairs intact
        if len(rarest) == 1 and common:
            blocks["+" + common[0]].append(r.index)
        if len(common) > 1:
            for a, b in combinations(sorted(common), 2):
                blocks[a + "+" + b].append(r.index)
    return blocks


#: (200 - threshold) / threshold: how much longer than another a title may be and still match it
_LENGTH_SLACK = (200.0 - TITLE_THRESHOLD) / TITLE_THRESHOLD


def longest_partner(length: int) -> int:
    """The longest title that can reach :data:`TITLE_THRESHOLD` against one of ``length`` characters.

    rapidfuzz's ratio is ``100 * (1 - indel / (len1 + len2))``, and the indel distance is at
    least the difference in length, so the ratio is at most ``200 * shorter / (len1 + len2)``:
    a longer title than this bound cannot be similar enough, whatever its characters. It is
    rounded up by one, so a pair that could pass is never left out.
    """
    return int(length * _LENGTH_SLACK) + 1


def _scored_pairs(members: Sequence[int], norms: Sequence[str], window: int | None) -> Iterable[tuple[int, int]]:
    """Pairs in a block whose titles are similar enough to look at closely."""
    if window is not None:
        return _similar_within(sorted(members, key=norms.__getitem__), norms, window)
    if len(members) <= 12:  # a few direct calls beat setting up a C loop
        return _similar_within(members, norms, len(members))
    return _similar_extracted(members, norms)


def _similar_within(order: Sequence[int], norms: Sequence[str], window: int) -> Iterator[tuple[int, int]]:
    """Pairs of ``order`` at most ``window`` places apart whose titles reach the threshold."""
    titles = [norms[i] for i in order]
    lengths = [len(t) for t in titles]
    longest = [longest_partner(n) for n in lengths]
    ratio, cutoff, n = fuzz.ratio, TITLE_THRESHOLD, len(order)
    for p in range(n - 1):
        title, length, most = titles[p], lengths[p], longest[p]
        for q in range(p + 1, min(p + 1 + window, n)):
            # titles of too different lengths are not scored: they cannot reach the threshold
            if lengths[q] <= most and length <= longest[q] and ratio(title, titles[q], score_cutoff=cutoff):
                i, j = order[p], order[q]
                yield (i, j) if i < j else (j, i)


def _similar_extracted(members: Sequence[int], norms: Sequence[str]) -> Iterator[tuple[int, int]]:
    """Every pair of a larger block whose titles reach the threshold, each row scored in C."""
    titles = [norms[i] for i in members]
    for pos in range(len(members) - 1):
        hits = process.extract(titles[pos], titles[pos + 1:], scorer=fuzz.ratio,
                               score_cutoff=TITLE_THRESHOLD, limit=None)
        i = members[pos]
        for _choice, _score, k in hits:
            j = members[pos + 1 + k]
            yield (i, j) if i < j else (j, i)


def _content_pairs(records: Sequence[Record]) -> set[tuple[int, int]]:
    """Records without a title that say exactly the same thing (only an author, say)."""
    blocks: dict[object, list[int]] = defaultdict(list)
    for r in records:
        if not r.norm and r.content[1]:
            blocks[r.content].append(r.index)
    return {(a, b) for members in blocks.values() if 1 < len(members) <= MAX_BLOCK
            for i, a in enumerate(members) for b in members[i + 1:]}


def candidate_pairs(records: Sequence[Record]) -> set[tuple[int, int]]:
    """Every pair worth deciding: shared identifiers, similar titles within a block, or
    identical untitled records."""
    pairs = _id_pairs(records) | _content_pairs(records)
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

@dataclass
class Cluster:
    """Entries of one work: their keys in input order, the one that survives, and why."""

    keys: list[str]
    kept: str
    reason: str
    indices: list[int] = field(default_factory=list, repr=False)
    kind: str = "same"

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


def find_matches(entries: Sequence[Entry], *, parents: Sequence[Entry] = ()) -> list[Match]:
    """Every pair of entries that are one work, versions of one, or share a stale identifier.

    ``parents`` are further entries that ``crossref`` fields may name (not compared).
    """
    with _no_cyclic_gc():
        records = prepare([*entries, *parents])[:len(entries)] if parents else prepare(entries)
        matches = []
        for a, b in sorted(candidate_pairs(records)):
            verdict = compare(records[a], records[b])
            if verdict:
                matches.append(Match(a, b, verdict.reason, verdict.kind))
    return matches


@dataclass
class Analysis:
    """What dedup found: clusters to merge, works with several versions, stale identifiers."""

    clusters: list[Cluster]
    versions: list[Cluster]
    stale_ids: list[Cluster]
    #: pairs that look like one line of work but are separate papers: listed, never merged
    related: list[Cluster] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"clusters": [c.to_json() for c in self.clusters],
                "versions": [c.to_json() for c in self.versions],
                "stale_ids": [c.to_json() for c in self.stale_ids],
                "related": [c.to_json() for c in self.related]}


def _groups(n: int, matches: Iterable[Match]) -> list[tuple[list[int], list[str]]]:
    uf = UnionFind(n)
    matches = list(matches)
    for m in matches:
        uf.union(m.a, m.b)
    reasons: dict[int, list[str]] = defaultdict(list)
    for m in matches:
        root = uf.find(m.a)
        if m.reason not in reasons[root]:
            reasons[root].append(m.reason)
    # only entries in some pair can be in a group of two or more: the others are not visited
    members: dict[int, list[int]] = defaultdict(list)
    for i in sorted({i for m in matches for i in (m.a, m.b)}):
        members[uf.find(i)].append(i)
    return [(members[r], reasons[r]) for r in sorted(members) if len(members[r]) > 1]


def analyse(entries: Sequence[Entry], *, precedence: Sequence[str] | None = None,
            parents: Sequence[Entry] = ()) -> Analysis:
    """Clusters of entries that are the same work, plus version links and stale identifiers.

    ``entries`` should be in issue order (library order, or file order for a .bib file):
    on a tie between equally good versions, the first one's key survives. ``precedence``
    is ``resolve.precedence`` from citekit.yaml: it picks the survivor.
    """
    matches = find_matches(entries, parents=parents)
    return analyse_matches(entries, [m for m in matches if m.kind == "same"],
                           [m for m in matches if m.kind != "same"], precedence, parents)


def analyse_matches(entries: Sequence[Entry], same_matches: Sequence[Match], other_matches: Sequence[Match],
                    precedence: Sequence[str] | None = None, parents: Sequence[Entry] = ()) -> Analysis:
    """Clusters, version groups and stale identifiers from already decided pairs."""
    from citekit.matching.works import parent_index

    matches = [*same_matches, *other_matches]
    n = len(entries)
    index: dict[str, Entry] = {}

    def context(group: Sequence[Entry]) -> dict[str, Entry]:
        """Entries by key, where a group's ``crossref``s are looked up: built once, and only when a
        group has one (an entry without the field never reads it)."""
        if not index and any("crossref" in e.fields for e in group):
            index.update(parent_index([*entries, *parents]))
        return index

    def clusters(kind: str, pick: bool) -> list[Cluster]:
        out = []
        for members, reasons in _groups(n, (m for m in matches if m.kind == kind)):
            group = [entries[i] for i in members]
            kept = _survivor_among(group, context(group), precedence) if pick else group[0].key
            out.append(Cluster(keys=[e.key for e in group], kept=kept, reason="; ".join(reasons), indices=members,
                               kind=kind))
        return out

    same = clusters("same", True)
    merged_into = {i: c for c in same for i in c.indices}
    version_links = [m for m in matches if m.kind == "versions"
                     and not (m.a in merged_into and merged_into.get(m.a) is merged_into.get(m.b))]
    versions = []
    for members, reasons in _groups(n, version_links):
        group = [entries[i] for i in members]
        versions.append(Cluster(keys=[e.key for e in group], kept=_survivor_among(group, context(group), precedence),
                                reason="; ".join(reasons), indices=members, kind="versions"))
    stale = [Cluster(keys=[entries[m.a].key, entries[m.b].key], kept="", reason=m.reason, indices=[m.a, m.b],
                     kind="stale-id") for m in matches if m.kind == "stale-id"]
    related = [Cluster(keys=[entries[m.a].key, entries[m.b].key], kept="", reason=m.reason, indices=[m.a, m.b],
                       kind="related") for m in matches if m.kind == "related"]
    return Analysis(same, versions, stale, related)


def _survivor_among(group: Sequence[Entry], parents: dict[str, Entry], precedence: Sequence[str] | None) -> str:
    from citekit.matching.works import inherited_fields, survivor_order

    fields = [inherited_fields(e, parents) for e in group]
    return group[survivor_order(group, precedence, fields)[0]].key


def find_clusters(entries: Sequence[Entry], *, precedence: Sequence[str] | None = None) -> list[Cluster]:
    """Groups of entries that are the same work (what ``dedup --apply`` merges), in input order."""
    return analyse(entries, precedence=precedence).clusters
