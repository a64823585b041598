"""Words of praise a paper gives itself, left out of the sentence that describes it unless its record bears them out.

A reader asked to drop "novel" from "present Cursive, a novel interaction technique" and "efficient"
from "present BezelCopy, an efficient cross-application copy-paste technique" (the title's own claim,
which a cut-off record shows no result for). Related work says what each record says: "novel", "new"
and "innovative" say nothing a reader can check and are always dropped where they describe what the
paper made ("a novel X" -> "an X"); "efficient", "effective" and "powerful" are a claim, kept only where
the abstract says it in a sentence of its own (outside the title, which the sentence may have copied).
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy
from citekit.output.articles import indefinite_article

#: praise that says nothing checkable: always left out before what the paper made
_EMPTY = ("novel", "new", "innovative")
#: praise that is a claim: kept only where the abstract states it
_CLAIMS = ("efficient", "effective", "powerful")
_PRAISED = lazy(r"\b(a|an|A|An)\s+(" + "|".join(_EMPTY + _CLAIMS) + r")(?:\s*,\s*|\s+)"
                r"(?:(?:yet|but|and|or)\s+(?=[a-z]))?(?=[A-Za-z0-9])")


def unpraised(sentence: str, abstract: str = "", title: str = "") -> str:
    """``sentence`` without the paper's own praise of what it made (see the module's docstring): the article is
    made to fit the next word ("a novel interaction technique" -> "an interaction technique"). A conjunction that
    joined the praise to another adjective goes with it: "a novel yet simple technique" -> "a simple technique"
    (a reader struck the "a yet simple" left behind)."""
    said = abstract.replace(title, " ") if title else abstract

    def one(m: re.Match[str]) -> str:
        word = m.group(2)
        if word in _CLAIMS and re.search(rf"\b{word}(?:ly)?\b", said, re.I):
            return m.group(0)
        rest = sentence[m.end():]
        article = indefinite_article(rest)
        if m.group(1)[0].isupper():
            article = article.capitalize()
        return f"{article} "

    return _PRAISED.sub(one, sentence)
