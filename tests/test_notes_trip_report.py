"""The real Japanese ICML 2026 trip report, read as the fixture it is.

Every expected value here was read off ``notes/notes-icml2026-trip-report.txt`` by hand:
54 titled paper entries in the Day sections, three bare-URL entries (one project page, the
same oral URL twice), 25 titles mentioned again or first in the later sections.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.core.resolution import Mention
from citekit.notes import extract_paths, group_mentions
from citekit.notes.shapes import is_person_line

REPO = Path(__file__).resolve().parents[1]
TRIP = REPO / "notes" / "notes-icml2026-trip-report.txt"
FILE = "notes/notes-icml2026-trip-report.txt"

if not TRIP.exists():
    pytest.skip(f"{TRIP} is missing: the trip report is the fixture for these tests", allow_module_level=True)

# The distinct paper titles of the report, in order of first appearance.
EXPECTED_TITLES = [
    "Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data",
    "FOAM: Frequency and Operator-Error Based Adaptive Damping Method for Reducing Staleness-Oriented Error for Shampoo",
    "Flat Minima and Generalization: Insights from Stochastic Convex Optimization",
    "One-Step Gradient Delay is Not a Barrier for Large-Scale Asynchronous Pipeline Parallel LLM Pretraining",
    "Mitigating Staleness in Asynchronous Pipeline Parallelism via Basis Rotation",
    "On the Role of Batch Size in Stochastic Conditional Gradient Methods",
    "Why Do We Need Warm-up? A Theoretical Perspective",
    "Clipping Makes Distributed and Federated Asynchronous SGD Robust to Stragglers",
    "Factored Gossip DiLoCo: Reducing Blocking Communication within DiLoCo",
    "Adaptive Momentum and Nonlinear Damping for Neural Network Training",
    "Controlled LLM Training on Spectral Sphere",
    "LoRDO: Distributed Low-Rank Optimization with Infrequent Communication",
    "On the Interaction of Batch Noise, Adaptivity, and Compression, under $(L_0,L_1)$-Smoothness: An SDE Approach",
    "Per-example Gradients: a New Frontier for Understanding and Improving Optimizers",
    "Exploiting weight-space symmetries for approximating curvature",
    "OLion: Approaching the Hadamard Ideal by Intersecting Spectral and L inf Implicit Biases",
    "GradientStabilizer: Fix the Norm, Not the Gradient",
    "Beyond Structural Symmetries: Linear Mode Connectivity via Neuron Identifiability",
    "WildCat: Near-Linear Attention in Theory and Practice",
    "AdaGC: Enhancing LLM Pretraining Stability via Adaptive Gradient Clipping",
    "MODEL MERGING SCALING LAWS IN LARGE LANGUAGE MODELS",
    "Rethinking 1-bit Optimization Leveraging Pre-trained Large Language Models",
    "A Geometry-Based View of Mahalanobis OOD Detection",
    "When Is Rank-1 Enough? Geometry-Guided Initialization for Parameter-Efficient Fine-Tuning",
    "Path-conditioned training: a principled way to rescale ReLU neural networks",
    "Unveiling the Potential of Quantization with MXFP4: Strategies for Quantization Error Reduction",
    "PRISM: Distribution-free Adaptive Computation of Matrix Functions for Accelerating Neural Network Training",
    "LiMuon: Light and Fast Muon Optimizer for Large Models",
    "MixQuant: Pushing the Limits of Block Rotations in Post-Training Quantization",
    "Float8@2bits: Entropy Coding Enables Data-Free Model Compression",
    "From Flat Facts to Sharp Hallucinations: Detecting Stubborn Errors via Gradient Sensitivity",
    "Compute When Worth It: Risk Control for Reasoning on a Compute Budget",
    "Anatomy of Massive Activations and Attention Sinks",
    "FPTQuant: Function-Preserving Transforms for LLM Quantization",
    "Zeroth-Order Optimization at the Edge of Stability",
    "RubricRobustness: A Simple Framework for Evaluating the Robustness of Rubrics-Based Benchmarks",
    "Contribution Weights: A Geometrical Analysis of Self-Attention Transformers",
    "ECO: Quantized Training without Full-Precision Master Weights",
    "Geometric Rate-Distortion Invariance for Domain Generalization",
    "Riemannian Dueling Optimization",
    "Geometry-Preserving Orthonormal Initialization for Low-Rank Adaptation in Reinforcement Learning",
    "Improved Convergence Analysis of Topology Dependence in Decentralized SGD",
    "L-SR1: Learned Symmetric-Rank-One Preconditioning",
    "Gradient Smoothing: Coupling Layer-wise Updates for Improved Optimization",
    "An Exploration of Non-Euclidean Gradient Descent: Muon and its Many Variants",
    "An Embarrasingly Simple Way to Optimize Orthogonal Matrices at Scale",
    "Understanding SAM through Minimax Perspective",
    "Adaptive Sharpness-Aware Minimization with a Polyak-type Step size: A Theory-Grounded Scheduler",
    "General Analysis of LMO-based Optimizers: Beyond Bounded Variance",
    "Lions and Muons: Optimization via Stochastic Frank-Wolfe",
    "Can Muon Fine-tune Adam-Pretrained Models?",
    "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
    "Delving into Muon and Beyond: Deep Analysis and Extensions",
    "A Geometry-Aware Efficient Algorithm for Compositional Entropic Risk Minimization",
    "Non-Euclidean Gradient Descent Operates at the Edge of Stability",
    "From Muon to Gluon: Bridging Theory and Practice of LMO-based Optimizers for LLMs",
    "Depth scaling and Muon enable balanced expert usage in MoE training",
    "MuLoCo: Muon is a practical inner optimizer for DiLoCo",
    "A Theory of How Pretraining Shapes Inductive Bias in Fine-Tuning",
]
ORAL = "https://icml.cc/virtual/2026/oral/71156"


@pytest.fixture(scope="module")
def mentions() -> list[Mention]:
    result = extract_paths([TRIP], root=REPO)
    assert result.problems == []
    return result.mentions


@pytest.fixture(scope="module")
def groups(mentions: list[Mention]) -> list[list[Mention]]:
    return group_mentions(mentions)


def at(mentions: list[Mention], line: int) -> Mention:
    found = [m for m in mentions if m.location.line == line]
    assert len(found) == 1, f"expected one mention at line {line}, found {found}"
    return found[0]


def test_counts_read_by_hand(mentions: list[Mention], groups: list[list[Mention]]) -> None:
    kinds = [m.kind for m in mentions]
    assert len(mentions) == 82
    assert kinds.count("titled") == 79
    assert kinds.count("url") == 3
    assert len(groups) == 61


def test_distinct_titles_in_order(groups: list[list[Mention]]) -> None:
    titles = [g[0].title for g in groups if g[0].title]
    assert titles == EXPECTED_TITLES


def test_mentions_are_in_line_order_with_relative_posix_file(mentions: list[Mention]) -> None:
    lines = [m.location.line for m in mentions]
    assert lines == sorted(lines)
    assert {m.location.file for m in mentions} == {FILE}


@pytest.mark.parametrize(
    "line",
    [
        9,  # tutorial title: its only link is the tutorial PDF
        15, 17, 61, 78,  # breakfast, coffee chat, quick chat, chat "w/ ..."
        62, 63, 66, 67, 68,  # reception / Sakana AI Social and the people under them
        75, 219,  # invited talks
        158, 159, 160, 161, 163, 164,  # lunch, poster-session conversation, Meta Social
        291, 292, 293,  # quick chat with people
        322, 329, 339, 345, 352, 356,  # "Name (Affiliation)" people with papers under them
        318, 323, 330,  # remarks
    ],
)
def test_people_meals_talks_are_not_papers(mentions: list[Mention], line: int) -> None:
    assert [m for m in mentions if m.location.line == line] == []


def test_no_title_is_a_person_or_an_event(mentions: list[Mention]) -> None:
    titles = [m.title for m in mentions if m.title]
    assert not [t for t in titles if is_person_line(t)]
    for word in ("w/", "Social", "セッション", "レセプション", "Day", "->", "Schaipp", "How Far Can Quadratics", "What will be left"):
        assert not [t for t in titles if word in t], word


def test_japanese_labelled_entry(mentions: list[Mention]) -> None:
    m = at(mentions, 20)
    assert m.kind == "titled"
    assert m.title == "Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data"
    assert m.urls == ["https://icml.cc/virtual/2026/poster/62214"]
    assert m.authors == ["Hee-Sung Kim", "Hyeonseong Kim", "Sungyoon Lee"]
    assert m.summary is not None and m.summary.startswith("ラベルなしで計算できる local inconsistency")
    assert m.summary.endswith("汎化性能を改善する研究。")
    assert (m.venue, m.year) == ("ICML", 2026)
    assert m.section == "Day2 (7/7 Tue)"


def test_project_and_slides_pages_are_links_not_paper_urls(mentions: list[Mention]) -> None:
    damping = at(mentions, 56)
    assert damping.links == {"project": "https://github.com/rajit906/higher-order-damping-in-ml-v0"}
    sphere = at(mentions, 80)
    assert sphere.urls == ["https://icml.cc/virtual/2026/poster/66212"]
    assert sphere.links == {
        "slides": "https://icml.cc/media/icml-2026/Slides/71055.pdf",
        "project": "https://github.com/Unakar/Spectral-Sphere-Optimizer",
    }
    merging = at(mentions, 124)
    assert merging.links == {"project": "https://infix.io/research/MergingScalingLaw"}


def test_raw_author_strings_are_kept(mentions: list[Mention]) -> None:
    assert "Khrushchev Mikhail" in at(mentions, 32).authors
    assert "Zhangyang “Atlas” Wang" in at(mentions, 106).authors
    assert at(mentions, 86).authors[5] == "Shen"  # a one-word name stays one author
    assert len(at(mentions, 52).authors) == 10


def test_titles_kept_exactly_as_written(mentions: list[Mention]) -> None:
    assert at(mentions, 90).title == "On the Interaction of Batch Noise, Adaptivity, and Compression, under $(L_0,L_1)$-Smoothness: An SDE Approach"
    assert at(mentions, 124).title == "MODEL MERGING SCALING LAWS IN LARGE LANGUAGE MODELS"
    # the later PRISM line has an ideographic space (U+3000) typed inside; words are kept,
    # runs of whitespace become one plain space
    assert "Matrix\u3000Functions" in TRIP.read_text(encoding="utf-8").splitlines()[379]
    assert at(mentions, 380).title == at(mentions, 150).title


def test_oral_url_with_authors_only_child(mentions: list[Mention], groups: list[list[Mention]]) -> None:
    oral = at(mentions, 221)
    assert oral.kind == "url"
    assert oral.title is None
    assert oral.urls == [ORAL]
    assert oral.authors == ["Rustem Islamov", "Michael Crawshaw", "Jeremy Cohen", "Robert Gower"]
    assert (oral.venue, oral.year) == ("ICML", 2026)
    again = at(mentions, 255)
    assert again.kind == "url" and again.urls == [ORAL] and again.authors == []
    [group] = [g for g in groups if oral in g]
    assert [m.location.line for m in group] == [221, 255]


def test_project_page_alone_is_an_untitled_url_mention(mentions: list[Mention]) -> None:
    m = at(mentions, 198)
    assert m.kind == "url"
    assert m.title is None
    assert m.urls == []
    assert m.links == {"project": "https://eshyperscale.github.io/"}


def test_unlabelled_summary_child_counts(mentions: list[Mention]) -> None:
    m = at(mentions, 324)
    assert m.title == "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"
    assert m.summary is not None and m.summary.startswith("Stochastic optimization methods ごとの step-size sensitivity")
    assert m.section == "最適化理論系"
    assert m.urls == [] and m.authors == []
    # venue/year come from the document title "ICML2026 参加記"
    assert (m.venue, m.year) == ("ICML", 2026)


def test_summary_is_the_sentence_not_the_remark(mentions: list[Mention]) -> None:
    m = at(mentions, 365)
    assert m.section == "深く理解しとかないとなという論文"
    assert m.summary is not None and m.summary.startswith("Spectral Sphere Optimizer は weight と update")


def test_summary_written_at_the_title_depth_is_attached(mentions: list[Mention]) -> None:
    m = at(mentions, 335)
    assert m.summary is not None and m.summary.startswith("$(L_0,L_1)$-smoothness の下で SDE の観点から")
    assert [x for x in mentions if x.location.line == 336] == []


def test_question_remarks_are_not_summaries(mentions: list[Mention]) -> None:
    m = at(mentions, 391)
    assert m.summary == "pretraining が fine-tuning の inductive bias に与える影響を理論的に解析する研究。"


def test_repeated_papers_are_one_work_with_every_mention(groups: list[list[Mention]]) -> None:
    by_title = {g[0].title: [m.location.line for m in g] for g in groups if g[0].title}
    assert by_title["Controlled LLM Training on Spectral Sphere"] == [80, 365]
    assert by_title["Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"] == [277, 324]
    # written with a full-width space the second time: still the same work
    assert by_title["PRISM: Distribution-free Adaptive Computation of Matrix Functions for Accelerating Neural Network Training"] == [150, 380]
    assert sum(1 for g in groups if len(g) == 2) == 21
    assert all(len(g) <= 2 for g in groups)
