""""a" or "an" in the sentences related-work writes: one rule, by how the next word is said.

The title sentences, the shortened clauses and the sentences whose praise is taken out each chose
the article by a rule of their own, and each got some words wrong ("a analysis", "an UML model",
"a LLM"); these are the words on which they disagreed.
"""

from __future__ import annotations

import pytest

from citekit.output.articles import indefinite_article, with_article
from citekit.output.compress import _articles
from citekit.output.self_praise import unpraised


@pytest.mark.parametrize("word, article", [
    ("analysis", "an"), ("isolated", "an"), ("unusual", "an"), ("interactive", "an"),
    ("user", "a"), ("unified", "a"), ("one-shot", "a"), ("European", "a"), ("ubiquitous", "a"),
    ("LLM", "an"), ("SQL", "an"), ("X-ray", "an"), ("UML", "a"), ("GPU", "a"), ("LoRA", "a"),
    ("hour", "an"), ("8-bit", "an"), ("80", "a"), ("{LLM}", "an"),
    # braces inside a word only keep its case ("({H}ow)" in a plume-bib title): a word, not a spelled letter
    ("({H}ow)", "a"), ("{E}fficient", "an"),
])
def test_the_article_follows_the_sound_of_the_next_word(word: str, article: str) -> None:
    assert indefinite_article(word) == article
    assert with_article(word) == f"{article} {word}"


def test_a_shortened_clause_and_a_sentence_without_praise_agree() -> None:
    # (the clause shortener read "ana" as "a": "a analysis")
    assert _articles("implement it as a analysis and a UML model") == "implement it as an analysis and a UML model"
    assert _articles("An LLM and A user") == "An LLM and A user"
    # (the praise-dropping rule said "a LLM")
    assert unpraised("We present a novel LLM agent.") == "We present an LLM agent."
