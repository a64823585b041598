"""Passages quoted out of a paper with the page they come from, as highlights are noted.

A reader who quotes a paper's words writes where they come from after them: the author-year
citation with a page locator (``“an encoder that operates only on the visible subset”
(He et al., 2022, p. 1)``, APA's way, and what a Zotero note copied as plain text keeps of
each annotation). The quoted words are the paper's text, never its title: a title is cited
whole, not from a page. The passage is taken out and the citation stays, so the line cites
the paper by its authors and year and the comment after it is read as any remark is.
"""

from __future__ import annotations

from citekit.core.lazyre import lazy

#: an author-year citation in brackets that ends with a page locator (``p. 3``, ``pp. 3–4``)
_PAGE_CITED = r"\((?:[^()\n]{1,160}?)[,\s](?:1[5-9]|20)\d{2}[a-z]?\s*,\s*pp?\.\s*\d+(?:\s*[-–]\s*\d+)?\s*\)"
#: a quoted passage (straight or curly double quotes, one line) right before that citation
_QUOTED = r"[“\"](?P<q>[^“”\"\n]{1,1000})[”\"]\s*"
_QUOTED_PASSAGE_RE = lazy(_QUOTED + "(?=" + _PAGE_CITED + ")")
_QUOTED_AND_CITED_RE = lazy(_QUOTED + _PAGE_CITED + r"\s*")


def without_quoted_passages(text: str) -> str:
    """``text`` with each passage quoted before a page-cited author-year citation taken out
    (the citation kept): the same lines, no quotation read as a paper's title."""
    if "p." not in text:
        return text
    return _QUOTED_PASSAGE_RE.sub("“…” ", text)


def without_own_highlights(line: str) -> str:
    """A note of an item's own (a Zotero report's ``Notes:``) without its highlights: the
    quoted passages and the page-cited citations after them, which cite the item itself;
    what the reader wrote after them stays."""
    if "p." not in line:
        return line
    return _QUOTED_AND_CITED_RE.sub("", line)
