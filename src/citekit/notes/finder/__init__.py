"""A learned mention finder: which lines of a notes file start a paper mention, which continue one, which are not papers.

``find(lines)`` gives each line a :class:`LineLabel`: ``ref`` (a reference or paper mention
starts here), ``cont`` (it continues the mention above: a hard-wrapped reference, a
``\\newblock``, an ``Authors:`` or ``url::`` detail line), ``other`` (not a paper) or
``blank``, with the CRF's marginal probability of that label. The model (a line-level CRF,
trained by :mod:`citekit.notes.finder.train`) is loaded on the first call only.
"""

from __future__ import annotations

from citekit.notes.finder.model import LABELS, LineLabel

__all__ = ["find", "LineLabel", "LABELS"]


def find(lines: list[str], start: int = 0, end: int | None = None) -> list[LineLabel]:
    """A label and its confidence for every line of a document, in order; or for the lines
    ``start:end`` only, read as they stand in the whole (their place and neighbours)."""
    from citekit.notes.finder.model import label_lines

    # Line ends need no stripping: the features read a line only through ``strip`` and
    # ``lstrip`` (its text, its indentation), so ``"x\r\n"`` reads as ``"x"``. A copy of
    # every line of the document per block asked (most callers ask for a few lines of a
    # long file) cost more than the features of those lines.
    return label_lines(lines, start=start, end=end)
