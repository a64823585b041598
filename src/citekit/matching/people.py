"""Whether two written names are one person: the one same-person rule.

Dedup and import compare two BibTeX author lists; resolution compares the names the notes
wrote with the names a source returned. Both ask the same question, so both use
:func:`same_person` on a :class:`Name`, the part of a name that survives every spelling of
it: a ``Family, Given`` string, family-first order ("Hu Yiwen"), initials ("B. M. Boyd"),
LaTeX accents (``Horv{\\'a}th``) or none (``Horvath``), a two-word family name written
whole or in part ("Monzio Compagnoni", "Compagnoni").

The rule: the family names agree (the same, one written inside the other's name, the
last word of a two-word family name, or close enough that only accents were spelled
another way) and the given names do not contradict each other (when both sides have given
names or initials, they share an initial: "Jian Li" is neither "Ke Li" nor "K. Li", "J. Li"
may be "Jian Li").

Before this module dedup compared family names only (any two people named Li were one
author) and resolution compared words as written (``Horv{\\'a}th`` was not ``Horvath``,
an initial could not refute a given name); ``tests/test_people.py`` checks that every
spelling of one name still agrees and that these are the only decisions that changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from citekit.core.model import Person
from citekit.core.names import family_key, is_et_al, name_initials, name_tokens, parse_name, split_bibtex_names
from citekit.core.text import latex_to_text
from citekit.core.lazyre import lazy

_ACCENT_CMD = lazy(r"\\(?:[`'^\"~=.]|[uvHckbdrt](?![A-Za-z]))\s*")
_LETTER_CMD = lazy(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])\s*")


@dataclass(frozen=True)
class Name:
    """One name reduced to what survives every spelling of it.

    ``family`` is the folded family name in letters only (``monziocompagnoni``);
    ``family_tokens`` its words; ``tokens`` the words of the whole name of two letters or
    more; ``initials`` the words of one letter (``B. M.``), which only given names have.
    """

    family: str
    family_tokens: frozenset[str]
    tokens: frozenset[str]
    initials: frozenset[str] = frozenset()


def plain_name(raw: str) -> str:
    """A name without LaTeX, for matching only (never written anywhere).

    Accent commands are dropped rather than converted: matching folds accents away
    anyway, and the LaTeX parser costs a third of a millisecond per name.
    """
    if "\\" in raw or "$" in raw:
        stripped = _LETTER_CMD.sub(r"\1", _ACCENT_CMD.sub("", raw))
        if "\\" in stripped or "$" in stripped:
            return latex_to_text(raw, matching=True)
        raw = stripped
    return raw.replace("{", "").replace("}", "").strip()


@lru_cache(maxsize=262144)
def name_of(raw: str) -> Name | None:
    """A name as written (a BibTeX name, a name in the notes); cached because authors recur."""
    plain = plain_name(raw)
    if not plain:
        return None
    return _name(parse_name(plain), plain)


def name_of_person(person: Person) -> Name | None:
    """A name a source split itself: its family name is taken as the source gave it."""
    return _name(person, plain_name(person.raw or person.display()))


def _name(person: Person, whole: str) -> Name | None:
    family = family_key(person)
    if not family:
        return None
    family_tokens = frozenset(name_tokens(plain_name(person.family))) if person.family else frozenset()
    return Name(family, family_tokens, frozenset(name_tokens(whole)), frozenset(name_initials(whole)))


def parse_authors(value: str) -> tuple[list[Name], bool]:
    """Authors of a BibTeX ``author`` field, and whether the list ends in ``and others``."""
    authors: list[Name] = []
    truncated = False
    for raw in split_bibtex_names(value or ""):
        if is_et_al(raw):
            truncated = True
            continue
        author = name_of(raw.strip())
        if author is not None:
            authors.append(author)
    return authors, truncated


def same_person(a: Name, b: Name) -> bool:
    """Same person across spellings: the family names agree and the given names do not disagree.

    A name may agree with the other's in more than one way ("Chen Wei" against "Wei Chen":
    either word may be the family name); the names are one person when, for some way, the
    words left over as given names share an initial or one side has none.
    """
    if a.tokens == b.tokens and a.initials == b.initials and a.tokens:
        return True
    return any(_initials_agree(_initials_of(a.tokens - drop_a, a), _initials_of(b.tokens - drop_b, b))
               for drop_a, drop_b in _family_agreements(a, b))


def _family_agreements(a: Name, b: Name) -> list[tuple[set[str], set[str]]]:
    """Each way the family names agree, as the words it takes from each side's given names."""
    if a.family == b.family:
        family = set(a.family_tokens | b.family_tokens) | {a.family}
        return [(family, family)]
    ways: list[tuple[set[str], set[str]]] = []
    for x, y in ((a, b), (b, a)):
        # x's family name is written in y's name (as one word, or word by word)
        if x.family in y.tokens or (x.family_tokens and x.family_tokens <= y.tokens):
            family = set(x.family_tokens) | {x.family}
            ways.append((family, family))
    short, long_ = (a, b) if len(a.family) <= len(b.family) else (b, a)
    # the last word of a two-word family name ("Compagnoni" of "Monzio Compagnoni"), a family
    # name written in two words ("Le Cun" of "LeCun"; "Le" then is no given name), or the same
    # name with its accents spelled another way ("Muller", "Mueller")
    ends = len(short.family) >= 3 and long_.family != short.family and long_.family.endswith(short.family)
    joined = {t for t in short.tokens if long_.family == t + short.family} if ends else set()
    if (ends and (short.family in long_.family_tokens or joined)) or (
            len(short.family) >= 5 and fuzz.ratio(a.family, b.family) >= 85):
        drop_short = set(short.family_tokens) | {short.family} | joined
        drop_long = set(long_.family_tokens) | {long_.family}
        ways.append((drop_short, drop_long) if short is a else (drop_long, drop_short))
    return ways


def _initials_of(given_words: set[str], name: Name) -> set[str]:
    return {t[0] for t in given_words} | name.initials


def _initials_agree(initials_a: set[str], initials_b: set[str]) -> bool:
    """No given name on one side, or a shared initial: "Jian Li" and "Ke Li" are two people,
    "J. Li" and "K. Li" too, "J. Monzio Compagnoni" may be "Jian Compagnoni"."""
    return not initials_a or not initials_b or not initials_a.isdisjoint(initials_b)


def author_overlap(a: Sequence[Name | None], b: Sequence[Name | None], *, shorter: bool = False) -> tuple[float, int]:
    """``(share, matched)``: authors matched one to one, in order, by :func:`same_person`.

    The share is over both lists together (``matched / (len(a) + len(b) - matched)``), or,
    with ``shorter``, over the shorter list: notes that list only the first authors, a
    BibTeX list cut with ``and others``, a later version that gained an author. A name
    that could not be read (``None``) matches nobody but still counts.
    """
    used = [False] * len(b)
    matched = 0
    for person in a:
        if person is None:
            continue
        for j, other in enumerate(b):
            if not used[j] and other is not None and same_person(person, other):
                used[j] = True
                matched += 1
                break
    denom = min(len(a), len(b)) if shorter else len(a) + len(b) - matched
    return (matched / denom if denom else 0.0), matched


def written_more_fully(ours: str, theirs: str) -> bool:
    """Whether the name list ``theirs`` is ``ours`` written more fully ("Kaiming He" for "K. He").

    The same people in the same order, each family name written exactly as in ``ours``
    (so an accent or a brace ``ours`` has is never lost), every given name ``ours``
    spells out spelled out in ``theirs`` too, and at least one given name that ``ours``
    gives only as an initial spelled out in ``theirs``. A merge takes such a list
    rather than keeping the abbreviated one; anything else is a different spelling that
    is the user's to choose.
    """
    mine, other = split_bibtex_names(ours or ""), split_bibtex_names(theirs or "")
    if not mine or len(mine) != len(other):
        return False
    fuller = False
    for a, b in zip(mine, other):
        if is_et_al(a) or is_et_al(b):
            if is_et_al(a) != is_et_al(b):
                return False
            continue
        pa, pb = parse_name(a), parse_name(b)
        na, nb = name_of(a), name_of(b)
        if na is None or nb is None or pa.family != pb.family or pa.von != pb.von or not same_person(na, nb):
            return False
        given_a, given_b = _spelled_given(pa.given), _spelled_given(pb.given)
        if not given_a <= given_b:
            return False
        fuller = fuller or len(given_b) > len(given_a)
    return fuller


def _spelled_given(given: str) -> set[str]:
    """The given names of a name spelled out, folded; initials left out: one letter (``K.``),
    and letters in capitals only (``RW`` in ``Olesinski, RW``, as PubMed writes initials)."""
    if not given:
        return set()
    words = [w for w in re.split(r"[\s.~-]+", plain_name(given)) if len(w) > 1 and any(c.islower() for c in w)]
    return name_tokens(" ".join(words))
