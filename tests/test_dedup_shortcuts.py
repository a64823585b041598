"""The shortcuts of dedup's blocking give exactly what the plain definitions give.

Blocking skips work that cannot change the answer: a block for a pair of rare words is
built only when both words are too common for blocks of their own, titles whose lengths
alone rule out the threshold are not scored, and clusters are grouped from the entries in
some pair only. Each shortcut is checked here against the plain definition it replaces,
on generated libraries: titles that share words (so blocks overlap), near-copies, LaTeX,
stop words, empty titles, and a block limit small enough that common words occur.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from citekit.library import dedup
from citekit.core.model import Entry, Ids
from citekit.matching.works import TITLE_THRESHOLD, prepare

WORDS = ["deep", "learning", "graph", "neural", "networks", "gan", "nanowires", "of", "the", "a", "in", "optical",
         "{{GaN}}", "Schr{\\\"o}dinger", "$\\ell_1$", "Type-\\{\\vphantom\\}{{II}}\\vphantom\\{\\}", "quantum", "dots",
         "x", "2", "II", "Part", "erratum", "müller", "Ünïcode", "-", ":", "networkss", "learnin"]

titles = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7).map(" ".join)


def _entries(draw_titles: list[str], dois: list[int | None]) -> list[Entry]:
    return [Entry(key=f"k{i}", entry_type="article", ids=Ids(doi=f"10.1/{d}" if d is not None else None),
                  fields={"title": t, "author": "Ada Lovelace" if i % 3 else "Alan Turing", "year": "2020"})
            for i, (t, d) in enumerate(zip(draw_titles, dois))]


def _reference_title_blocks(records) -> dict[object, list[int]]:  # type: ignore[no-untyped-def]
    """Blocks as they are defined: each of the rarest words, and every pair of them."""
    df: Counter[str] = Counter()
    uniq = [set(r.words) for r in records]
    for words in uniq:
        df.update(words)
    order = {w: (n, w) for w, n in df.items() if n > 1}
    blocks: dict[object, list[int]] = defaultdict(list)
    for r, words in zip(records, uniq):
        if not words:
            if r.norm:
                blocks[("=", r.norm)].append(r.index)
            continue
        rarest = sorted((w for w in words if w in order), key=order.__getitem__)[:dedup.RARE_WORDS]
        for w in rarest:
            if df[w] <= dedup.MAX_BLOCK:
                blocks[w].append(r.index)
        if len(rarest) == 1:
            blocks[("+", rarest[0])].append(r.index)
        for a, b in combinations(sorted(rarest), 2):
            blocks[(a, b)].append(r.index)
    return blocks


def _block_pairs(blocks: dict[object, list[int]], norms: list[str]) -> set[tuple[int, int]]:
    """Every block scored: all pairs where it is small, a sorted neighbourhood where it is not."""
    pairs: set[tuple[int, int]] = set()
    for members in blocks.values():
        if len(members) < 2:
            continue
        if len(members) > dedup.MAX_BLOCK:
            pairs.update(dedup._scored_pairs(members, norms, window=10))
            continue
        for a, b in combinations(members, 2):
            if fuzz.ratio(norms[a], norms[b]) >= TITLE_THRESHOLD:
                pairs.add((min(a, b), max(a, b)))
    return pairs


def _reference_candidate_pairs(records) -> set[tuple[int, int]]:  # type: ignore[no-untyped-def]
    norms = [r.norm for r in records]
    pairs = dedup._id_pairs(records) | dedup._content_pairs(records)
    titled = [r.index for r in records if r.norm]
    pairs.update(dedup._scored_pairs(titled, norms, window=dedup.WINDOW))
    return pairs | _block_pairs(_reference_title_blocks(records), norms)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.tuples(titles, st.none() | st.integers(0, 3)), min_size=0, max_size=40),
       st.sampled_from([2, 3, 5, 250]))
def test_candidate_pairs_are_those_of_every_block(library: list[tuple[str, int | None]], max_block: int) -> None:
    records = prepare(_entries([t for t, _ in library], [d for _, d in library]))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dedup, "MAX_BLOCK", max_block)  # small limits make common words, and big blocks
        norms = [r.norm for r in records]
        # the blocks alone find the same pairs (without the sorted neighbourhood that finds most of them too)
        assert _block_pairs(dedup._title_blocks(records), norms) == \
            _block_pairs(_reference_title_blocks(records), norms)
        assert dedup.candidate_pairs(records) == _reference_candidate_pairs(records)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_candidate_pairs_are_those_of_every_block_on_repeated_titles() -> None:
    """Many copies of a few titles: common words everywhere, so pair blocks are built and used."""
    base = ["Optical properties of GaN nanowires", "Optical properties of GaN nanowire arrays",
            "Quantum dots in GaN nanowires", "Deep learning of optical properties", "Optical GaN"]
    library = [base[i % len(base)] + ("" if i % 4 else " revisited") for i in range(60)]
    records = prepare(_entries(library, [None] * len(library)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dedup, "MAX_BLOCK", 8)
        got = dedup.candidate_pairs(records)
        assert got == _reference_candidate_pairs(records)
    assert len(got) > 100


text = st.text(st.sampled_from("abcde fgh"), max_size=30)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(text, min_size=0, max_size=14))
def test_blocks_and_neighbourhoods_score_exactly_the_pairs_above_the_threshold(block: list[str]) -> None:
    norms = [t for t in block]
    members = list(range(len(norms)))[::-1]  # any order of members
    expected = {(min(a, b), max(a, b)) for a, b in combinations(members, 2)
                if fuzz.ratio(norms[a], norms[b]) >= TITLE_THRESHOLD}
    assert set(dedup._scored_pairs(members, norms, window=None)) == expected
    for window in (1, 2, 4):  # a sorted neighbourhood: each title against the next ones in title order
        order = sorted(members, key=lambda i: norms[i])
        near = {(min(a, b), max(a, b)) for p, a in enumerate(order) for b in order[p + 1:p + 1 + window]
                if fuzz.ratio(norms[a], norms[b]) >= TITLE_THRESHOLD}
        assert set(dedup._scored_pairs(members, norms, window=window)) == near


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text, text, st.text(st.sampled_from("ab "), max_size=20))
def test_a_title_longer_than_the_longest_partner_cannot_match(a: str, b: str, extra: str) -> None:
    for other in (b, a + extra, extra + a):  # the closest pairs: one title inside the other
        if len(other) > dedup.longest_partner(len(a)):
            assert fuzz.ratio(a, other) < TITLE_THRESHOLD
        else:
            assert len(other) <= len(a) * 11 / 9 + 1
    # the bound is tight enough to matter: a title of 90 characters rules out one of 120
    assert dedup.longest_partner(90) < 120


def _reference_groups(n: int, matches: list[dedup.Match]) -> list[tuple[list[int], list[str]]]:
    """Connected entries (a walk from every entry in turn), with their matches' reasons in match order."""
    near: dict[int, set[int]] = defaultdict(set)
    for m in matches:
        near[m.a].add(m.b)
        near[m.b].add(m.a)
    component = [-1] * n
    out = []
    for start in range(n):
        if component[start] >= 0:
            continue
        component[start], todo, found = start, [start], [start]
        while todo:
            for other in near[todo.pop()]:
                if component[other] < 0:
                    component[other] = start
                    todo.append(other)
                    found.append(other)
        if len(found) > 1:
            reasons = list(dict.fromkeys(m.reason for m in matches if component[m.a] == start))
            out.append((sorted(found), reasons))
    return out


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, 30).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)), st.sampled_from("xyz")),
    max_size=20 if n else 0))))
def test_groups_are_those_of_every_entry(case: tuple[int, list[tuple[int, int, str]]]) -> None:
    n, raw = case
    matches = [dedup.Match(min(a, b), max(a, b), reason) for a, b, reason in raw if a != b]
    assert dedup._groups(n, matches) == _reference_groups(n, matches)
