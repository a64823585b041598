"""Inline #tags on a summary or abstract line are tags of the paper, not summary text."""

from __future__ import annotations

import pytest

from citekit.notes.extract import extract_text

CASES = [
    ("- Old Optimizer, New Norm — Jeremy Bernstein, Laker Newhouse\n  - Summary: Adam, Shampoo and Prodigy are steepest descent under particular norms. #optim\n",
     "Adam, Shampoo and Prodigy are steepest descent under particular norms.", ["optim"]),
    ("- Old Optimizer, New Norm — Jeremy Bernstein, Laker Newhouse\n  - TL;DR: #optim #muon steepest descent under the spectral norm\n",
     "steepest descent under the spectral norm", ["optim", "muon"]),
    ("- Old Optimizer, New Norm — Jeremy Bernstein, Laker Newhouse\n  - まとめ: Adamはノルムの下での最急降下法である。 #最適化 #optim\n",
     "Adamはノルムの下での最急降下法である。", ["最適化", "optim"]),
    ("- Old Optimizer, New Norm — Jeremy Bernstein, Laker Newhouse\n  - Adam, Shampoo and Prodigy are steepest descent under particular norms. #optim\n",
     "Adam, Shampoo and Prodigy are steepest descent under particular norms.", ["optim"]),
]


@pytest.mark.parametrize("text,summary,tags", CASES)
@pytest.mark.parametrize("name", ["n.md", "n.txt"])
def test_hashtags_leave_the_summary_and_stay_tags(text, summary, tags, name):
    (mention,) = extract_text(text, name).mentions
    assert mention.summary == summary
    assert "#" not in mention.summary
    for tag in tags:
        assert tag in mention.hashtags


def test_a_c_sharp_word_is_not_a_tag():
    text = "- Typed Holes for C# Programs — Alice Zhang, Bob Li\n  - Summary: A type checker for C# that fills holes.\n"
    (mention,) = extract_text(text, "n.md").mentions
    assert mention.summary == "A type checker for C# that fills holes."
