"""A leading kind word says what a line names: talks, panels, podcasts, videos, slides,
tutorials ... are not papers however paper-like the rest; ``Paper:``/``論文:`` is a paper."""

from __future__ import annotations

import pytest

from citekit.notes.extract import explain_text, extract_text
from citekit.notes.labels import kind_prefix

NON_PAPERS = [
    "Invited talk — Percy Liang",
    "Panel: The Future of Open Models — Yejin Choi, Percy Liang, Sasha Rush",
    "Podcast: The Gradient — Daniel Bashir",
    'Video: "Let\'s build GPT" — Andrej Karpathy',
    "Tutorial: Reinforcement Learning from Human Feedback — Nathan Lambert, Hamish Ivison",
    'Slides: "Scaling laws for everything" — Jared Kaplan',
    'Keynote: "The Future of Optimization" by Yann LeCun',
    "Workshop talk: Optimizers as Preconditioners — Jeremy Bernstein, Laker Newhouse",
    "Interview — Ilya Sutskever, Dwarkesh Patel",
    "Lecture: Convex Optimization for Deep Nets — Stephen Boyd",
    "Blog post: Deriving Muon — Jeremy Bernstein",
    "Thread: Why Adam Works — Lucas Beyer, Alexander Kolesnikov",
    "招待講演：最適化の未来 — Percy Liang",
    "基調講演: Scaling Reasoning Models — Noam Brown",
    "パネル: The Future of Open Models — Yejin Choi, Percy Liang, Sasha Rush",
    "チュートリアル：Reinforcement Learning from Human Feedback — Nathan Lambert, Hamish Ivison",
    "スライド: Scaling Laws for Everything — Jared Kaplan",
    "動画：Let's Build GPT — Andrej Karpathy",
]


@pytest.mark.parametrize("name", ["talks.md", "talks.txt"])
def test_leading_kind_labels_are_not_papers(name):
    text = "".join(f"- {line}\n" for line in NON_PAPERS)
    assert extract_text(text, name).mentions == []


def test_rejections_are_explained():
    text = "".join(f"- {line}\n" for line in NON_PAPERS[:3])
    decisions, _ = explain_text(text, "talks.md")
    rejected = [d for d in decisions if d.outcome == "rejected"]
    assert [d.line for d in rejected] == [1, 2, 3]
    assert "invited talk" in rejected[0].reason and "panel" in rejected[1].reason


@pytest.mark.parametrize("label", ["Paper:", "paper —", "論文:", "論文：", "Preprint:"])
@pytest.mark.parametrize("name", ["p.md", "p.txt"])
def test_paper_label_marks_a_paper_and_is_not_in_the_title(label, name):
    text = (
        "- Invited talk — Percy Liang\n"
        f"- {label} Rethinking the Role of Momentum — Pedro Savarese, David McAllester\n"
    )
    mentions = extract_text(text, name).mentions
    assert [(m.title, m.authors) for m in mentions] == [("Rethinking the Role of Momentum", ["Pedro Savarese", "David McAllester"])]


@pytest.mark.parametrize("title", [
    "Talking Heads: Understanding Inter-layer Communication in Transformer Language Models",
    "Video Diffusion Models",
    "Post-training Quantization for Vision Transformers",
    "Panelformer: Sequence Models for Panel Data",
])
def test_titles_that_merely_start_with_a_kind_word_stay_papers(title):
    assert kind_prefix(title) is None
    text = f"- {title} — Alice Zhang, Bob Li, Carol Wu\n"
    mentions = extract_text(text, "t.md").mentions
    assert [m.title for m in mentions] == [title]
