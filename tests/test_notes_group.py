"""Grouping rules on hand-built mentions."""

from __future__ import annotations

from citekit.core.model import Ids, Location
from citekit.core.resolution import Mention
from citekit.notes import group_mentions


def titled(line: int, title: str, **kw: object) -> Mention:
    return Mention(kind="titled", location=Location("n.md", line), title=title, **kw)  # type: ignore[arg-type]


def lines(groups: list[list[Mention]]) -> list[list[int]]:
    return [[m.location.line for m in g] for g in groups]


def test_same_normalized_title_groups_and_order_is_by_first_appearance() -> None:
    mentions = [
        titled(1, "{LiMuon}: Light and Fast {Muon} Optimizer"),
        titled(2, "Other Paper"),
        titled(3, "LiMuon - light and fast muon optimizer."),
    ]
    assert lines(group_mentions(mentions)) == [[1, 3], [2]]


def test_near_identical_titles_group_but_similar_ones_do_not() -> None:
    mentions = [
        titled(1, "An Embarrassingly Simple Way to Optimize Orthogonal Matrices at Scale"),
        titled(2, "An Embarrasingly Simple Way to Optimize Orthogonal Matrices at Scale"),
        titled(3, "Zeroth-Order Optimization at the Edge of Stability"),
        titled(4, "Non-Euclidean Gradient Descent Operates at the Edge of Stability"),
        titled(5, "Why Do We Need Warm-up? A Theoretical Perspective"),
        titled(6, "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"),
    ]
    assert lines(group_mentions(mentions)) == [[1, 2], [3], [4], [5], [6]]


def test_shared_url_identifier_pin_or_project_page_groups() -> None:
    mentions = [
        titled(1, "Old Workshop Title", urls=["https://icml.cc/virtual/2026/poster/1"]),
        Mention(kind="url", location=Location("n.md", 2), urls=["http://www.icml.cc/virtual/2026/poster/1/"]),
        titled(3, "Paper A", ids=Ids(arxiv="2401.00001")),
        titled(4, "Paper A, renamed", pins=Ids(arxiv="2401.00001")),
        titled(5, "Paper B", links={"project": "https://b.github.io/"}),
        Mention(kind="url", location=Location("n.md", 6), links={"project": "https://b.github.io"}),
        titled(7, "Paper C", links={"slides": "https://b.github.io/"}),
    ]
    assert lines(group_mentions(mentions)) == [[1, 2], [3, 4], [5, 6], [7]]


def test_groups_are_transitive() -> None:
    mentions = [
        titled(1, "Title One", ids=Ids(doi="10.1/x")),
        titled(2, "Title Two", ids=Ids(doi="10.1/x"), urls=["https://arxiv.org/abs/2401.00002"]),
        Mention(kind="url", location=Location("n.md", 3), urls=["https://arxiv.org/abs/2401.00002"]),
    ]
    assert lines(group_mentions(mentions)) == [[1, 2, 3]]


def test_abstract_without_hints_stays_alone() -> None:
    mentions = [
        titled(1, "Light and Fast Optimizers"),
        Mention(kind="abstract", location=Location("a.md", 1), abstract="Light and fast optimizers are studied here at length."),
    ]
    assert lines(group_mentions(mentions)) == [[1], [1]]


def test_empty_input() -> None:
    assert group_mentions([]) == []


def test_titles_differing_by_a_number_are_different_works() -> None:
    mentions = [
        titled(1, "Llama 2: Open Foundation and Fine-Tuned Chat Models"),
        titled(2, "Llama 3: Open Foundation and Fine-Tuned Chat Models"),
        titled(3, "Paper Number 10 About Optimizers"),
        titled(4, "Paper Number 11 About Optimizers"),
    ]
    assert lines(group_mentions(mentions)) == [[1], [2], [3], [4]]
