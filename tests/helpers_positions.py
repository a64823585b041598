"""The parts of a ``--mine`` position sentence, whichever of its shapes it takes.

"Like @a, our work deals with P, but where @a focuses on Q, we ...", "Like @a, our work deals with P,
and like @b, with R, but where @a focuses on Q and @b S, we ...", "Like @a, our work deals
with P; unlike @a, who focuses on Q, we ...", "@a also deals with P, but focuses on Q; in
contrast, we ...", "Like @a, our work deals with P; unlike them, we ...", "Where @a focuses on Q, we
...": tests read the shared ground P, what the cited paper does Q and the user's clause from any of them.
"""

from __future__ import annotations

import re

from citekit.output.common_ground import AIM_WORDS, SLACK

#: the most words of the user's abstract a position sentence may copy in a row: its clause, a word or two
#: over the aim when that keeps it whole, and the "we" before it
LONGEST = AIM_WORDS + SLACK + 1

_CITES = r"@\S+(?: and @\S+)?"
_SHAPES = [
    # two links: "Like @a, our work deals with P, and like @b, with R, but where @a focuses on Q and @b S, we ..."
    re.compile(rf"^Like (?P<cites>{_CITES}), our work deals with (?P<ground>[^,;]+), and like (?P<second>@\S+), with "
               rf"(?P<ground2>[^;,]+), but where (?P<who>@\S+) focus(?:es)? on (?P<theirs>[^,]+?)"
               rf"(?:(?:,| and) @\S+ [^,]+?)*, (?P<mine>(?:we|our|in our) .*)\.$"),
    re.compile(rf"^Like (?P<cites>{_CITES}), our work deals with (?P<ground>[^,;]+), but where (?P<who>@\S+) "
               rf"focus(?:es)? on (?P<theirs>[^,]+?)(?: and @\S+ [^,]+)?, (?P<mine>(?:we|our|in our) .*)\.$"),
    re.compile(rf"^Like (?P<cites>{_CITES}), our work deals with (?P<ground>[^,;]+); unlike (?P<who>@\S+), (?:which|who) "
               rf"focus(?:es)? on (?P<theirs>[^,]+), (?P<mine>(?:we|our) .*)\.$"),
    re.compile(rf"^(?P<cites>{_CITES}) also deals? with (?P<ground>[^,;]+), but (?:(?P<who>@\S+) )?focus(?:es)? on "
               rf"(?P<theirs>[^;]+); in contrast, (?P<mine>(?:we|our) .*)\.$"),
    # what ours adds, where no cited paper names a difference of its own: "Like @a, our work deals with P; unlike
    # them, we ..." (``theirs`` is empty)
    re.compile(rf"^Like (?P<cites>{_CITES}), our work deals with (?P<ground>[^,;]+); unlike (?:them|(?P<who>@\S+)), "
               rf"(?P<theirs>)(?P<mine>(?:we|our) .*)\.$"),
    # a group that shares nothing beyond the topic, set apart by both records: "Where @a focuses on Q and @b R, we
    # ..." (``ground`` is empty)
    re.compile(rf"^Where (?P<cites>(?P<who>@\S+)) focus(?:es)? on (?P<theirs>[^,]+?)(?: and @\S+ [^,]+)?, "
               rf"(?P<ground>)(?P<mine>(?:we|our) .*)\.$"),
]


def position_parts(sentence: str) -> dict[str, str] | None:
    """``cites``, ``ground``, ``who`` (the paper whose difference is named), ``theirs`` and ``mine``, or None."""
    for shape in _SHAPES:
        m = shape.match(sentence)
        if m:
            parts = m.groupdict()
            parts["who"] = parts["who"] or parts["cites"].split(" and ")[0]
            return parts
    return None


def is_link_only(sentence: str) -> bool:
    """Whether a sentence says only what the user's paper shares with the cited ones ("Like @a, our work deals
    with P."): written where no difference is true of both records, and no position."""
    return bool(re.match(rf"^Like {_CITES}, our work deals with [^,;]+\.$", sentence))


def is_position(sentence: str) -> bool:
    """Whether a paragraph's last sentence places the user's paper (in any shape), with a difference."""
    return bool(re.match(r"Like @|@\S+(?: and @\S+)? also deals? with |Where @\S+ focus(?:es)? on ", sentence)) \
        and not is_link_only(sentence)


def last_sentences(out: str) -> dict[str, str]:
    """Heading -> the paragraph's last sentence (its position sentence, when it has one), of Markdown output."""
    found = {}
    for block in re.split(r"^### ", out, flags=re.M)[1:]:
        heading, _, body = block.partition("\n")
        text = " ".join(l for l in body.splitlines() if l and not l.startswith("<!--"))
        found[heading.strip()] = re.split(r"(?<=\.)\s+(?=[A-Z@])", text)[-1] if text else ""
    return found
