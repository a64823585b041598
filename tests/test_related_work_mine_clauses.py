"""``--mine`` writes the user's side of a contrast as a whole, grammatical clause, and a TODO that says what is missing.

Made-up records and made-up user abstracts (no real paper's text), read through the API as a user's
project would be. What is checked is what a new user found on their own abstract:

- a claim too long to quote whole is cut after it says what the thing does ("we propose X, an optimizer
  that filters ..."), never right after the thing's kind ("we propose X, an optimizer.");
- what a cited paper does follows "focus on" as a noun phrase or a gerund: a question title's verb ("Can
  Lion Fine-tune ...?") becomes "fine-tuning ...", never "focus on fine-tune ...";
- "focus" agrees with the citation: "focuses" after one author, "focus" after several;
- a shared head noun is written in the plural papers use ("momentum matrices", not "matrixes");
- a TODO never contradicts itself: one that lists the words the papers share with the user's abstract does not
  say the abstract shares nothing with them, and one for an abstract that does say "We ..." does not ask
  for a sentence that stands on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.library.store import Library
from tests.helpers_positions import last_sentences, position_parts
from tests.helpers_project import make_project

TRANSFER = [
    ("ka2024lion", "Can Lion Fine-tune Adam-Pretrained Models?",
     "We ask whether the Lion optimizer can fine-tune models pretrained with Adam. We study the momentum matrix of "
     "Lion and the spectrum of its updates during transfer.", "transfer"),
    ("kb2025sharp", "Sharpness of Pretrained Weights",
     "We measure how sharp the loss is around pretrained weights, and how transfer changes it.", "transfer"),
    ("kc2023shampoo", "Distributed Shampoo at Scale",
     "We present a distributed implementation of Shampoo that shards the preconditioner across many accelerators.",
     "scale"),
    ("kd2024sharded", "Sharded Preconditioners for Large Batches",
     "We shard Kronecker preconditioners so that large batches train faster on many accelerators.", "scale"),
]
DRIFT = ("# Spectral Drift\n\n## Abstract\n\n"
         "We propose Spectral Drift, an optimizer that filters the spectrum of the momentum matrix before "
         "orthogonalization and keeps the update close to the pretrained weights.\n")


def section(tmp_path: Path, records: list[tuple[str, str, str, str]], paper: str,
            authors: dict[str, str] | None = None) -> str:
    """The Markdown section ``--mine`` writes for ``paper`` (topic "optimizers"), one paragraph per record tag."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    root = make_project(tmp_path, notes=False)
    lib = Library.load(root / "refs")
    for key, title, abstract, tag in records:
        author = (authors or {}).get(key, "Doe, Jane and Roe, Rick")
        lib.add(Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["optimizers", tag],
                      fields={"title": title, "author": author, "year": "2024"}))
    lib.save()
    (root / "paper.md").write_text(paper)
    groups = tuple(f"{tag.title()}={tag}" for tag in dict.fromkeys(r[3] for r in records))
    return related_work(root, tags=("optimizers",), fmt="markdown", mine=str(root / "paper.md"), groups=groups).text


def test_a_long_claim_is_cut_after_it_says_what_the_thing_does(tmp_path: Path) -> None:
    out = section(tmp_path, TRANSFER, DRIFT)
    parts = position_parts(last_sentences(out)["Transfer"])
    assert parts, out
    assert not parts["mine"].endswith("an optimizer"), parts  # the kind alone: cut before what it does
    assert parts["mine"] == "we propose Spectral Drift, an optimizer that filters the spectrum of the momentum matrix", \
        parts


def test_a_question_titles_verb_follows_focus_on_as_a_gerund(tmp_path: Path) -> None:
    out = section(tmp_path, TRANSFER, DRIFT)
    assert "focus on fine-tune" not in out, out
    parts = position_parts(last_sentences(out)["Transfer"])
    assert parts and parts["theirs"] == "fine-tuning Adam-pretrained models", parts


def test_focus_agrees_with_one_author_and_with_several(tmp_path: Path) -> None:
    one = section(tmp_path / "one", TRANSFER, DRIFT, {"ka2024lion": "Kato, Aiko"})
    assert "@ka2024lion focuses on fine-tuning" in one, one
    several = section(tmp_path / "several", TRANSFER, DRIFT)
    assert "@ka2024lion focus on fine-tuning" in several, several


def test_a_shared_head_noun_takes_the_plural_papers_write(tmp_path: Path) -> None:
    out = section(tmp_path, TRANSFER, DRIFT)
    assert "matrixes" not in out, out
    parts = position_parts(last_sentences(out)["Transfer"])
    assert parts and parts["ground"] == "momentum matrices", parts


def _todo(out: str, heading: str) -> str:
    """The TODO of the paragraph under ``heading``: a Markdown draft lists them after the draft, heading first."""
    return next(line for line in out.splitlines() if line.startswith(f"<!-- {heading} \u2014 TODO(citekit): contrast with"))


def test_a_todo_that_lists_shared_words_does_not_say_nothing_is_shared(tmp_path: Path) -> None:
    paper = ("# Sign Descent\n\n## Abstract\n\n"
             "We propose a sign-based optimizer whose state fits on small accelerators for fine-tuning.\n")
    out = section(tmp_path, TRANSFER, paper)
    # (Scale, which shares "accelerators" in passing, is now set apart by both records: "Where @kd2024sharded focus
    # on large batches, we propose ..."; Transfer shares "fine-tuning" and keeps its TODO)
    todos = [line for line in out.splitlines() if "TODO(citekit): contrast with" in line]
    assert todos and all("shared words: " in todo for todo in todos), out
    for todo in todos:
        assert "shares nothing" not in todo and "shares no word" not in todo, todo


def test_a_todo_for_an_abstract_that_says_we_asks_for_what_it_lacks(tmp_path: Path) -> None:
    # the abstract's one "We ..." sentence is a finding: it stands on its own, but sets nothing against a paper
    paper = ("# Sign Descent\n\n## Abstract\n\n"
             "We show that sign-based updates converge faster than Adam when the pretrained weights are sharp.\n")
    out = section(tmp_path, TRANSFER, paper)
    todos = [line for line in out.splitlines() if "TODO(citekit): contrast with" in line]
    assert todos, out
    for todo in todos:
        assert "stands on its own" not in todo, todo
        assert re.search(r"findings|too long", todo), todo


FRONTED = ("# Sign Descent\n\n## Abstract\n\n"
           "To learn whether sign-based updates help pretrained weights during transfer, we implement two sign-based "
           "optimizers for distributed Shampoo and compare each with Adam on many accelerators.\n")


def test_a_purpose_before_we_leaves_the_main_clause_to_say(tmp_path: Path) -> None:
    # "To learn whether ..., we implement ...": the main clause says what the paper does; no TODO asks for one
    out = section(tmp_path, TRANSFER, FRONTED)
    todos = [line for line in out.splitlines() if "TODO(citekit): contrast with" in line]
    assert not any("stands on its own" in todo for todo in todos), todos
    assert "Like @kc2023shampoo, our work deals with" in out, out


def test_a_name_at_the_head_of_a_shared_phrase_keeps_its_capital_and_number(tmp_path: Path) -> None:
    out = section(tmp_path, TRANSFER, FRONTED)
    assert "shampoos" not in out.lower(), out
    assert "our work deals with distributed Shampoo" in out, out


LEAN = [
    ("ma2025fast", "FastLion: Light and Fast Lion for Large Models",
     "We propose FastLion, an optimizer for training large models that builds on sign momentum and a small memory "
     "budget.", "memory"),
    ("mb2024tiny", "Tiny States for Sign Momentum",
     "We keep the states of sign momentum in eight bits, so that large models fit on one accelerator.", "memory"),
    *TRANSFER[2:],
]
SKETCHED = ("# Sketched Lion\n\n## Abstract\n\nWe propose a frugal Lion optimizer that combines sign momentum with a "
            "sketched approximation of the rotated update.\n")


def test_the_users_clause_keeps_the_part_of_the_claim_the_group_lacks(tmp_path: Path) -> None:
    # cut to its first words the claim says only what these papers share ("... that combines sign momentum");
    # what it adds is the object of "with", said from what the optimizer does
    out = section(tmp_path, LEAN, SKETCHED)
    parts = position_parts(last_sentences(out)["Memory"])
    assert parts, out
    assert parts["mine"] == "our optimizer combines sign momentum with a sketched approximation of the rotated update", \
        parts


BOUNDS = [
    ("ka2025general", "General Analysis of Sign Optimizers: Beyond Bounded Noise",
     "We study sign optimizers beyond Bounded Noise. The analysis covers heavy-tailed noise and curvature drift, under "
     "relaxed smoothness.", "theory"),
    ("kb2024relaxed", "Relaxed Smoothness for Sign Descent",
     "We prove convergence of sign descent under relaxed smoothness with heavy-tailed gradients.", "theory"),
    *TRANSFER[2:],
]
RELAXED = ("# Sketched Lion\n\n## Abstract\n\nWe propose a frugal Lion optimizer that keeps a sketched momentum, and "
           "prove sample-complexity guarantees under relaxed smoothness.\n")


def test_what_a_cited_paper_does_never_opens_with_a_preposition(tmp_path: Path) -> None:
    # a title's "Beyond Bounded Noise" is how far the analysis goes, not a thing to "focus on"
    out = section(tmp_path, BOUNDS, RELAXED)
    assert not re.search(r"focus(?:es)? on (?:beyond|against|towards?|without|via)\b", out, re.I), out
    for sentence in last_sentences(out).values():
        parts = position_parts(sentence)
        first = parts["theirs"].split()[:1] if parts else []
        assert not first or first[0].lower() not in ("beyond", "against", "toward", "towards"), parts


def test_shared_ground_without_a_cited_difference_says_what_ours_adds(tmp_path: Path) -> None:
    # neither paper's title or claim names a difference; the user's clause names what both records lack
    out = section(tmp_path, BOUNDS, RELAXED)
    last = last_sentences(out)["Theory"]
    assert last == ("Like @kb2024relaxed and @ka2025general, our work deals with relaxed smoothness; unlike them, "
                    "we propose a frugal Lion optimizer that keeps a sketched momentum."), out
    assert "Theory — TODO(citekit)" not in out, out


def test_no_unlike_when_the_sharing_records_say_what_ours_does(tmp_path: Path) -> None:
    paper = ("# Sign Lion\n\n## Abstract\n\nWe propose a sign descent optimizer for heavy-tailed gradients, and prove "
             "convergence under relaxed smoothness.\n")
    out = section(tmp_path, BOUNDS, paper)
    assert "unlike them" not in out and "unlike @" not in out, out


def test_a_group_that_shares_nothing_is_set_apart_by_both_records(tmp_path: Path) -> None:
    # no phrase beyond the topic is shared: what the cited paper's title says it does against what ours does,
    # each side in words the other's record never uses
    out = section(tmp_path, BOUNDS, RELAXED)
    # (the claim's first half was said for Theory: Scale gets its second half, not the same words again)
    assert last_sentences(out)["Scale"] == ("Where @kd2024sharded focus on large batches, we prove sample-complexity "
                                            "guarantees under relaxed smoothness."), out
    assert "Scale — TODO(citekit)" not in out, out


def test_no_contrast_against_where_the_paper_starts(tmp_path: Path) -> None:
    # an abstract that says only where the paper starts: "where @a focuses on Q, our work starts from the
    # observation that ..." sets a focus against an observation; the TODO asks for a claim instead
    paper = ("# Sketched Lion\n\n## Abstract\n\nLarge models need optimizers that fit in the memory of one "
             "accelerator without losing accuracy. Sharded training moves the optimizer states between many "
             "accelerators at every step.\n")
    out = section(tmp_path, BOUNDS, paper)
    assert not re.search(r"^(?:Where|Like) @", out, re.M) and "; unlike" not in out, out
    assert "Scale — TODO(citekit)" in out and "Theory — TODO(citekit)" in out, out


FOCI = [
    ("ke2021antenna", "Your Noise is My Command: Sensing Gestures Using the Body as an Antenna",
     "We sense gestures from the electrical noise the body picks up as an antenna.", "sensing"),
    ("kf2022wrist", "Wrist Bands That Hear Tendons",
     "We present a wrist band that hears tendon sounds, and find its expressiveness greater than a camera's.",
     "sensing"),
    *TRANSFER[2:],
]


def test_what_a_cited_paper_does_is_no_pronoun_phrase_and_no_comparison(tmp_path: Path) -> None:
    out = section(tmp_path, FOCI, RELAXED)
    assert not re.search(r"focus(?:es)? on (?:an? )?(?:your|my)\b", out, re.I), out
    assert not re.search(r"focus(?:es)? on [^,;]*\bgreater\b", out), out


def test_a_participles_phrase_cut_at_its_comma_is_no_clause_of_ours(tmp_path: Path) -> None:
    # "Corresponding to X, a Y is kept." cut at its comma leaves "in our work, corresponding to X": no clause,
    # never said, and the paragraph is placed by the claim instead
    paper = ("# Sketched Lion\n\n## Abstract\n\nWe propose a frugal Lion optimizer that keeps a sketched momentum under "
             "relaxed smoothness. Corresponding to the accelerator budget described in this paper, a sharded sketch "
             "of the Shampoo preconditioner is kept.\n")
    out = section(tmp_path, BOUNDS, paper)
    assert "corresponding to" not in out.lower(), out
    assert position_parts(last_sentences(out)["Theory"]), out


def test_a_name_past_the_first_comma_does_not_stretch_the_clause(tmp_path: Path) -> None:
    # "..., named HugBot, used to steer ..." is no apposition of the claim's object: the clause ends at the first
    # comma, whole, where it once ran on past the name and found no break that fit (and no contrast was said)
    paper = ("# HugBot\n\n## Abstract\n\nWe describe the design process of a plush control toy, named HugBot, used to "
             "steer a character in a tablet game. HugBot lets players change the mood of the character.\n")
    out = section(tmp_path, BOUNDS, paper)
    parts = position_parts(last_sentences(out)["Scale"])
    assert parts and parts["mine"] == "we describe the design process of a plush control toy", out


def test_the_shared_ground_is_no_part_cut_from_a_longer_term(tmp_path: Path) -> None:
    # the user writes "sign-based variance reduction", the cited paper "sign-based variance reduced technique":
    # "our work deals with sign-based variance" names half of a term, which neither paper works on
    records = [
        ("ma2025fast", "FastLion: Light and Fast Lion for Large Models",
         "We propose FastLion, an optimizer for large models that builds on the sign-based variance reduced technique "
         "and a small memory budget.", "memory"),
        ("mb2024tiny", "Tiny States for Large Models",
         "We keep optimizer states in eight bits, so that large models fit on one accelerator.", "memory"),
        *TRANSFER[2:],
    ]
    paper = ("# Sketched Lion\n\n## Abstract\n\nWe propose a frugal Lion optimizer that combines sign-based variance "
             "reduction with a sketched approximation of the rotated update.\n")
    out = section(tmp_path, records, paper)
    # (the whole term is true ground: "reduction" and "reduced" are one word)
    assert not re.search(r"deals? with sign-based variance(?! reduction)", out), out


def test_a_term_half_shared_is_no_ground_and_no_difference(tmp_path: Path) -> None:
    # the cited paper's "sign-based variance reduced technique" is the user's "sign-based variance reduction":
    # not "our work deals with variance" (a word of the term), nor "light" (of "memory-light", an adjective), and
    # "where @ma2025fast focuses on ..., our optimizer combines sign-based variance reduction ..." would set apart
    # what both do
    records = [
        ("ma2025fast", "FastLion: Light and Fast Lion for Large Models",
         "We propose FastLion, a light optimizer for large models that builds on the sign-based variance reduced "
         "technique and a randomized sketch.", "memory"),
        ("mb2024tiny", "Tiny States for Large Models",
         "We keep optimizer states in eight bits, so that large models fit on one accelerator.", "memory"),
        *TRANSFER[2:],
    ]
    paper = ("# Sketched Lion\n\n## Abstract\n\nWe propose a memory-light Lion optimizer that combines sign-based "
             "variance reduction with a randomized approximation of the rotated update.\n")
    out = section(tmp_path, records, paper)
    assert not re.search(r"deals? with (?:variance|light|sign-based variance)\b(?! reduction)", out), out
    assert not re.search(r"Where @ma2025fast[^.]*, our optimizer combines sign-based variance reduction", out), out


def test_a_title_pasted_into_the_abstract_is_said_in_running_texts_case(tmp_path: Path) -> None:
    # the record's abstract pastes its title ("We study distribution-free Adaptive Sketching of ..."): what the paper
    # does is said as running text writes it, not in the title's capitals
    records = [
        ("kg2026prism", "PRISM: Distribution-free Adaptive Sketching of Kronecker Factors",
         "We study distribution-free Adaptive Sketching of Kronecker Factors. The paper connects relaxed smoothness, "
         "randomized sketching and Shampoo.", "theory"),
        BOUNDS[1],
        *TRANSFER[2:],
    ]
    out = section(tmp_path, records, RELAXED)
    assert "Adaptive Sketching" not in last_sentences(out)["Theory"], out
    assert "distribution-free adaptive sketching" in last_sentences(out)["Theory"], out


def test_groups_that_share_nothing_do_not_each_repeat_the_one_claim(tmp_path: Path) -> None:
    # one claim, two groups that share nothing with it: "Where @a ..., we propose X." once, not under every group
    paper = ("# Sketched Lion\n\n## Abstract\n\nWe propose a frugal Lion optimizer that keeps a sketched momentum.\n")
    out = section(tmp_path, [*FOCI[:2], *TRANSFER[2:]], paper)
    wheres = [s for s in last_sentences(out).values() if s.startswith("Where @")]
    assert len(wheres) == 1, out
    assert len([line for line in out.splitlines() if "TODO(citekit): contrast with" in line]) == 1, out


#: a cited optimizer that proves sample-complexity bounds too, under another smoothness
FRUGAL = [
    ("ka2025frugal", "FrugalSign: A Frugal Sign Optimizer for Huge Transformers",
     "We propose FrugalSign, a sign optimizer that combines momentum-based variance reduction with sketched "
     "preconditioners, for huge transformers. We prove that FrugalSign has a lower sample complexity under the relaxed "
     "smoothness condition.", "theory"),
    ("kb2024drift", "Curvature Drift in Sign Descent",
     "We measure how curvature drifts during sign descent on convolutional networks.", "theory"),
    *TRANSFER[2:],
]
LAYERED = ("# Layered Sign\n\n## Abstract\n\nWe propose a sign optimizer that combines momentum-based "
           "variance reduction with sketched preconditioners, and prove sample-complexity guarantees under "
           "layer-wise smoothness.\n")


def test_no_unlike_a_paper_whose_record_states_our_kind_of_claim(tmp_path: Path) -> None:
    """"unlike @ka2025frugal, who focus on huge transformers, we prove sample-complexity guarantees under
    layer-wise smoothness" would deny a paper that proves sample-complexity bounds (under relaxed smoothness): the
    claim's main words are in its record, so no contrast is set against it on that claim."""
    out = section(tmp_path, FRUGAL, LAYERED)
    assert not re.search(r"(?:unlike|[Ww]here) @ka2025frugal[^.;]*[,;] (?:in contrast, )?we prove sample", out), out
    assert not re.search(r"@ka2025frugal also deals? with [^.]*; in contrast, we prove sample", out), out
