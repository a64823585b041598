"""Which mentions of the notes are one work: the notes' grouping with matching's rule for
who wrote a paper, so two papers that share a title stay two works.

The grouping itself (shared identifiers and pages, one title, abstracts) is the notes'
(:func:`citekit.notes.group.group_mentions`); whether two descriptions of one title can be
one work is matching's (:func:`citekit.matching.candidates.bylines_contradict`, built on
the one same-person rule). This layer sees both, and every command that groups mentions
before resolving them (sync, ``add``, the pending list, ``extract``'s work count) groups
through here.
"""

from __future__ import annotations

from citekit.core.resolution import Mention
from citekit.matching.candidates import Byline, byline, bylines_contradict
from citekit.notes.group import group_mentions as _group


def byline_of(mention: Mention) -> Byline | None:
    """The mention's authors and year (not a year a heading implies: that is not said of the
    paper), or None when it names neither."""
    year = mention.year if mention.year and not mention.year_from_page else None
    said = byline(mention.authors, mention.authors_incomplete, year)
    return said if said.names or year is not None else None


def group_mentions(mentions: list[Mention]) -> list[list[Mention]]:
    """Mentions of the same work together (see :func:`citekit.notes.group.group_mentions`),
    mentions of one title apart when their authors or years say they are other papers."""
    return _group(mentions, describe=byline_of, contradict=bylines_contradict)
