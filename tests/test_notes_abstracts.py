"""The real file of bare abstracts, and how abstracts meet titled mentions."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.notes import extract_paths, extract_text, group_mentions
from citekit.notes.abstracts import is_coinage, looks_like_abstract, method_hints

REPO = Path(__file__).resolve().parents[1]
NOTES = REPO / "notes"
ABSTRACTS = NOTES / "notes-icml2026-abstracts.txt"

needs_notes = pytest.mark.skipif(not ABSTRACTS.exists(), reason=f"{ABSTRACTS} is missing: the real abstracts file is the fixture")

# Line of each abstract paragraph -> the method names it introduces, read off the text.
EXPECTED_HINTS = {
    3: ["DQGPM"],
    5: [],  # learning when to stop MIP solvers: no named method
    7: ["λ-GRPO"],
    9: ["ZoVH"],
    11: ["RDNGD", "RDFW"],
    13: ["SoftSignum", "SoftMuon"],
    15: ["NCRS"],
    17: ["LiMuon"],
    19: ["MineDraft"],
    21: [],  # analysis of two classical proximal methods
    23: ["SW-DRSO"],
    25: ["DDSVM"],
    27: ["UniDrag"],
    29: ["Neural QAOA^2"],
    31: ["BaLoRA"],
    33: ["FedCDWA"],
    35: ["SPS_safe"],
    37: ["S-Adam", "LGI"],
    39: ["MetaDistill"],
}


@needs_notes
def test_nineteen_abstracts_with_their_hints() -> None:
    result = extract_paths([ABSTRACTS], root=REPO)
    assert result.problems == []
    assert [m.kind for m in result.mentions] == ["abstract"] * 19
    assert {m.location.line: m.hints for m in result.mentions} == EXPECTED_HINTS


@needs_notes
def test_heading_gives_venue_and_section_to_every_abstract() -> None:
    mentions = extract_paths([ABSTRACTS], root=REPO).mentions
    assert {(m.venue, m.year, m.section) for m in mentions} == {("ICML", 2026, "ICML 2026 Papers")}
    assert all(m.title is None and m.abstract for m in mentions)
    assert mentions[0].abstract.startswith("Synchronization over the special Euclidean group")


@needs_notes
def test_code_links_inside_abstracts() -> None:
    mentions = extract_paths([ABSTRACTS], root=REPO).mentions
    by_line = {m.location.line: m for m in mentions}
    assert by_line[19].links == {"code": "https://github.com/electron-shaders/MineDraft"}
    assert by_line[39].links == {"code": "https://github.com/Roki-Xing/MetaDistill"}
    assert by_line[19].urls == []


@needs_notes
def test_abstracts_join_titled_mentions_only_on_method_and_content() -> None:
    result = extract_paths([NOTES], root=REPO)
    groups = group_mentions(result.mentions)
    assert len(groups) == 61 + 19 - 2
    mixed = [g for g in groups if {m.kind for m in g} == {"abstract", "titled"}]
    summary = sorted((g[0].location.line, [m.title for m in g if m.title][0]) for g in mixed)
    assert summary == [(11, "Riemannian Dueling Optimization"), (17, "LiMuon: Light and Fast Muon Optimizer for Large Models")]


def test_abstract_naming_a_method_without_being_about_the_title_stays_alone() -> None:
    notes = (
        "- LiMuon: Light and Fast Muon Optimizer for Large Models\n"
        "  - URL: https://icml.cc/virtual/2026/poster/61819\n\n"
        "Graph neural networks struggle with heterophily. In this work we propose LiMuon, a message passing "
        "scheme for heterophilous graphs that reweights neighbours by learned signed attention. We prove that "
        "it separates classes under a stochastic block model. Experiments on nine benchmarks show consistent "
        "gains over strong baselines while keeping the cost linear in the number of edges.\n"
    )
    mentions = extract_text(notes, "n.md").mentions
    assert [m.kind for m in mentions] == ["titled", "abstract"]
    assert mentions[1].hints == ["LiMuon"]
    assert len(group_mentions(mentions)) == 2


def test_abstract_about_the_title_without_its_method_stays_alone() -> None:
    notes = (
        "- LiMuon: Light and Fast Muon Optimizer for Large Models\n"
        "  - Summary: Light Muon for large models.\n\n"
        "Large models need light and fast optimizers. We propose FastMuon, a light and fast Muon optimizer for "
        "large models built on variance reduction. We prove lower sample complexity for large models. "
        "Experiments show that the light and fast optimizer beats Muon on large models, and our analysis "
        "explains why the variance reduction helps when models are large.\n"
    )
    mentions = extract_text(notes, "n.md").mentions
    assert mentions[1].hints == ["FastMuon"]
    assert len(group_mentions(mentions)) == 2


def test_prose_impressions_are_not_abstracts() -> None:
    japanese = "自分が参加した optimization 関連のセッションでは、Stanford や CMU の affiliation を見る機会が想像より少なかった。" * 4
    personal = (
        "I thought the poster session was great. We talked to many people about optimizers. I was surprised "
        "by how many works study Muon. Experiments at scale were rare, and I found the theory talks the most "
        "useful. We should follow up with the authors next month about their code and their results."
    )
    assert not looks_like_abstract(japanese)
    assert not looks_like_abstract(personal)
    assert extract_text(personal + "\n", "n.txt").mentions == []


@pytest.mark.parametrize(
    ("token", "expected"),
    [("LiMuon", True), ("NCRS", True), ("S-Adam", True), ("SW-DRSO", True), ("λ-GRPO", True), ("ZoVH", True),
     ("Muon", False), ("Noisy-Comparison", False), ("LLMs", False), ("single-step", False), ("Frank–Wolfe", False)],
)
def test_coinages(token: str, expected: bool) -> None:
    assert is_coinage(token) is expected


def test_hints_from_bold_texttt_and_named() -> None:
    assert method_hints("We introduce **Graph Mixer (GMix)**, a model.") == ["GMix"]
    assert method_hints(r"In this paper we propose \texttt{TurboNet}, a fast method.") == ["TurboNet"]
    assert method_hints("We study a projection-free algorithm, named Dual Frank Wolfe (DFW), for X.") == ["DFW"]


def test_names_used_before_the_proposal_are_not_hints() -> None:
    text = "Group Relative Policy Optimization (GRPO) is popular. We propose GRPO with a fix, named FixGRPO."
    assert method_hints(text) == ["FixGRPO"]


def test_a_message_to_the_reader_is_no_abstract() -> None:
    """A forwarder's note above a digest (``my comments are inline``, ``please check``) is
    written to its readers: long prose with "we" in it, but a message, not an abstract."""
    message = (
        "Team -- the thread below is worth a read, my notes are inline with [RB]. To do: someone please "
        "check whether the routing numbers from the sparse experts paper still hold with our cache turned "
        "on, and whether we still need our own fp8 kernels at all. Omar, can you own the batching question "
        "for the Friday sync? It matters for the experiments we plan next quarter."
    )
    assert not looks_like_abstract(message)
    assert extract_text(message + "\n", "n.txt").mentions == []
