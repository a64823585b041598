"""Near-identical titles found through an index give exactly what comparing every pair gives."""

from __future__ import annotations

import random

import pytest

from citekit.notes.group import _near_identical, near_identical_pairs

WORDS = ("deep learning muon optimizer fast light large models attention is all you need graph neural "
         "networks on the of a for with 2 3 llama scaling laws über café 量子 transformer x").split()


def _typo(text: str, rnd: random.Random, edits: int) -> str:
    chars = list(text)
    for _ in range(edits):
        op, pos = rnd.random(), rnd.randrange(len(chars) + 1)
        if op < 0.4 and pos < len(chars):
            del chars[pos]
        elif op < 0.8:
            chars.insert(pos, rnd.choice("abcdefgh 1é"))
        elif pos < len(chars):
            chars[pos] = rnd.choice("xyz")
    return "".join(chars)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@pytest.mark.parametrize("seed,longest", [(1, 4), (2, 12), (3, 30)])
def test_index_finds_exactly_the_pairs_of_the_all_pairs_rule(seed: int, longest: int) -> None:
    rnd = random.Random(seed)
    titles = []
    for _ in range(250):
        title = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, longest)))
        titles.append(title)
        titles.extend(_typo(title, rnd, rnd.randint(1, 6)) for _ in range(rnd.randint(0, 3)))
    titles = sorted(set(titles))
    brute = {frozenset((a, b)) for i, a in enumerate(titles) for b in titles[i + 1:] if _near_identical(a, b)}
    fast = {frozenset(p) for p in near_identical_pairs(titles)}
    assert brute  # the data has typo pairs to find
    assert fast == brute


def test_numbers_and_empty_titles() -> None:
    pairs = near_identical_pairs(["llama 2 open foundation and chat models", "llama 3 open foundation and chat models",
                                  "llama 2 open foundation and chat modles", ""])
    assert {frozenset(p) for p in pairs} == {frozenset(("llama 2 open foundation and chat models",
                                                        "llama 2 open foundation and chat modles"))}
