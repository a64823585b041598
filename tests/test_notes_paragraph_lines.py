"""Lines without bullets or blank lines between them: one item per line that names a
paper on its own, while hard-wrapped continuation lines still join the line above."""

from __future__ import annotations

import pytest

from citekit.notes.extract import explain_text, extract_text

TWO_TITLES = (
    "Loss of plasticity in deep continual learning — Shibhansh Dohare, J. Fernando Hernandez-Garcia, Qingfeng Lan\n"
    "Rethinking the Role of Momentum — Pedro Savarese, David McAllester\n"
    "Grokking at the Edge of Numerical Stability by Lucas Prieto, Melih Barsbey and Tolga Birdal\n"
)

REFERENCE_LIST = (
    "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In International Conference on Learning Representations.\n"
    '[2] I. Loshchilov and F. Hutter, "Decoupled weight decay regularization," in Proc. ICLR, 2019.\n'
    'Vaswani, Ashish, et al. "Attention is all you need." Advances in Neural Information Processing Systems, 2017.\n'
    "He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. CVPR. 2016.\n"
    "Diederik P. Kingma and Max Welling. 2014. Auto-Encoding Variational Bayes. In ICLR.\n"
)


@pytest.mark.parametrize("name", ["list.txt", "list.md"])
def test_title_author_lines_without_blank_lines_are_separate_papers(name):
    mentions = extract_text(TWO_TITLES, name).mentions
    assert [m.title for m in mentions] == [
        "Loss of plasticity in deep continual learning",
        "Rethinking the Role of Momentum",
        "Grokking at the Edge of Numerical Stability",
    ]
    assert mentions[0].authors == ["Shibhansh Dohare", "J. Fernando Hernandez-Garcia", "Qingfeng Lan"]
    assert mentions[1].authors == ["Pedro Savarese", "David McAllester"]
    assert [m.location.line for m in mentions] == [1, 2, 3]


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_pasted_reference_list_one_per_line(name):
    mentions = extract_text(REFERENCE_LIST, name).mentions
    assert [m.title for m in mentions] == [
        "Adam: A method for stochastic optimization",
        "Decoupled weight decay regularization",
        "Attention is all you need",
        "Deep residual learning for image recognition",
        "Auto-Encoding Variational Bayes",
    ]
    # each line's venue is its own: nothing leaks from the next line
    assert [(m.venue, m.year) for m in mentions] == [("ICLR", 2015), ("ICLR", 2019), ("NeurIPS", 2017), ("CVPR", 2016), ("ICLR", 2014)]


def test_identifier_line_inside_a_paragraph_starts_its_own_item():
    text = "Mixture of Experts Scaling Laws — Jan Ludziejewski, Jakub Krajewski\nthe upcycling follow-up is 2212.05055v2\n"
    for name in ("ids.md", "ids.txt"):
        mentions = extract_text(text, name).mentions
        assert len(mentions) == 2
        assert mentions[0].ids.arxiv is None and mentions[0].pins.arxiv is None
        assert mentions[1].ids.arxiv == "2212.05055"


@pytest.mark.parametrize("name", ["wrap.txt", "wrap.md"])
def test_hard_wrapped_title_still_joins(name):
    text = (
        "Scaling Exponents Across Parameterizations and Optimizers —\n"
        "Katie Everett, Lechao Xiao, Mitchell Wortsman\n"
    )
    mentions = extract_text(text, name).mentions
    assert len(mentions) == 1
    assert mentions[0].title == "Scaling Exponents Across Parameterizations and Optimizers"
    assert mentions[0].authors == ["Katie Everett", "Lechao Xiao", "Mitchell Wortsman"]


def test_hard_wrapped_reference_continuation_joins_its_reference():
    text = (
        "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization.\n"
        "In International Conference on Learning Representations.\n"
        "Loshchilov, I., & Hutter, F. (2019). Decoupled weight decay regularization. In ICLR.\n"
    )
    mentions = extract_text(text, "wrapped.md").mentions
    assert [m.title for m in mentions] == ["Adam: A method for stochastic optimization", "Decoupled weight decay regularization"]


@pytest.mark.parametrize("heading", ["Posters", "ポスター"])
def test_indented_paper_lines_under_a_plain_label_in_txt(heading):
    text = (
        f"{heading}\n"
        "    Loss of plasticity in deep continual learning — Shibhansh Dohare, J. Fernando Hernandez-Garcia, Qingfeng Lan\n"
        "    Rethinking the Role of Momentum — Pedro Savarese, David McAllester\n"
        "    Step Size Stability in Stochastic Optimization — Fabian Schaipp, Robert Gower, Adrien Taylor\n"
    )
    mentions = extract_text(text, "posters.txt").mentions
    assert [m.location.line for m in mentions] == [2, 3, 4]
    assert mentions[2].authors == ["Fabian Schaipp", "Robert Gower", "Adrien Taylor"]


def test_explain_lists_merged_lines():
    text = "Scaling Exponents Across Parameterizations and Optimizers —\nKatie Everett, Lechao Xiao, Mitchell Wortsman\n"
    for name in ("wrap.txt", "wrap.md"):
        decisions, _ = explain_text(text, name)
        merged = [d for d in decisions if d.outcome == "merged"]
        assert [d.line for d in merged] == [2]
        assert "line 1" in merged[0].reason


@pytest.mark.parametrize("name", ["d.md", "d.txt"])
def test_explain_lists_lines_below_a_paper_that_were_dropped(name):
    text = (
        "- Rethinking the Role of Momentum — Pedro Savarese, David McAllester\n"
        "  Summary: momentum is implicit regularisation.\n"
        "  ask Pedro\n"
    )
    decisions, _ = explain_text(text, name)
    assert [(d.line, d.outcome) for d in decisions] == [(1, "mention"), (3, "dropped")]
    assert "line 1" in decisions[1].reason
