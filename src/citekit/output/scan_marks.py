"""Page and scan markers that a PDF's text layer leaves in an exported abstract, taken out before it is read.

Some library exports fill the abstract with the first page of the scanned paper: "Page 1. MAGIC: A
Motion Gesture Design Tool Daniel Ashbrook1,2 ... Abstract- The main idea ...". A reader met "Page"
as a paragraph heading and the page header quoted as a finding. The marker says nothing of the paper,
and where the scan's own "Abstract" label follows the page header, what stands before that label is
the header (title, authors, affiliations), not the abstract. This is the one place that knows it:
:func:`.related_work.abstract_of` reads every cited abstract through it, and the user's own abstract
(``--mine``) goes through it too.
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy

#: "Page 1.", "Page 2 of 12", "p. 3" standing where a sentence starts (the abstract's start or after a stop)
_PAGE_MARK = lazy(r"(?:^|(?<=[.!?;]\s))\s*(?:Page|PAGE|pg\.?|p\.)\s*\d{1,4}(?:\s+of\s+\d{1,4})?\s*[.:;]?\s*")
#: the scan's own label of the abstract ("Abstract-", "ABSTRACT.", "Abstract —") after a page header
_ABSTRACT_LABEL = lazy(r"\b(?:Abstract|ABSTRACT)\s*(?:[-—–:.]+\s*|\s+(?=[A-Z]))")
#: how far into a scanned page its abstract label may stand and still end the page header (characters)
HEADER_CHARS = 400


def without_scan_marks(abstract: str) -> str:
    """``abstract`` without page markers; when it opened with one and the scan's "Abstract" label follows within
    the page header, only what follows that label. Text with no marker is returned as it is."""
    if not abstract or not _PAGE_MARK.search(abstract):
        return abstract
    scanned = bool(_PAGE_MARK.match(abstract))
    text = _PAGE_MARK.sub(lambda m: " " if m.start() else "", abstract).strip()
    text = re.sub(r"\s{2,}", " ", text)
    if scanned:
        label = _ABSTRACT_LABEL.search(text[:HEADER_CHARS])
        if label and label.end() < len(text):
            text = text[label.end():].lstrip()
    return text
