"""An author span cut into people: list separators found here, each name split by nameparser.

``et al.``, ``and others``, ``等`` and ``ほか`` are not people: they say the list is
incomplete, and :func:`split_authors` says so.
"""

from __future__ import annotations

import re

from citekit.core.model import Person
from citekit.core.lazyre import lazy

_ET_AL_RE = re.compile(r"(?:,?\s*(?:et\.?\s*al\b\.?|and\s+others\b|\bothers\b|等人?|ほか|他|など|u\.\s*a\.))", re.I)
_ELLIPSIS_RE = lazy(r"(?:\.\s*){3}|…")
_PIECE_SPLIT_RE = lazy(r"\s*(?:;|；|\band\b|&|\bund\b|\bet\b|、|·)\s*", re.I)
_INITIALS_RE = lazy(r"^(?:[^\W\d_][a-z]?\.\s*-?\s*){1,4}$|^[A-Z]{1,3}$")
_TRAILING_INITIALS_RE = lazy(r"^(?P<family>[^\W\d_][^\s,]*(?:\s+[^\W\d_][^\s,]*)*?)\s+(?P<given>[A-Z]{1,3})$")
#: a short label before the names (``DML: Chernozhukov, Chetverikov, …``): the paper's
#: nickname, no person (a name never ends on a colon)
_LABEL_RE = lazy(r"^[^\W_][\w.+-]{0,15}:\s+(?=[A-Z])")
#: two one-word family names and nothing else (``Yang, Hu``)
_SURNAME_PAIR_RE = lazy(r"([A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?), ([A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?)")
_PARTICLES = frozenset("van von der den de del della di da du la le dos das ter ten zu bin al".split())


def _initials_like(part: str) -> bool:
    return bool(_INITIALS_RE.match(part.strip())) and any(c.isupper() for c in part)


def _single_word(part: str) -> bool:
    return len(part.split()) == 1


def _family_names_only(pieces: list[list[str]]) -> bool:
    """A list of family names alone (``Reddi, Kale & Kumar``, ``Haarnoja, Zhou, Abbeel,
    Levine``), not ``Family, Given`` pairs: every name is one word, and either the last one
    stands alone after ``and``/``&`` (an inverted list ends on a pair too) or four or more
    are joined by commas only (inverted lists with whole given names separate people by
    ``;`` or ``and``)."""
    words = [p for parts in pieces for p in parts]
    if len(words) < 3 or not all(_single_word(p) and not _initials_like(p) for p in words):
        return False
    if len(pieces) > 1:
        return len(pieces[-1]) == 1
    return len(words) >= 4


def _capitals_family(part: str) -> bool:
    """A family name printed in capitals (ISO 690, ABNT: ``GU``, ``DE LUNA BUGALLO``)."""
    letters = [c for c in part if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters) and any(len(w) >= 2 for w in part.split())


def _capitals_pairs(parts: list[str]) -> bool:
    """``KODIGALA, Ashok, GU, Qing, PASHLEY, D W``: family names in capitals, each followed by
    its given names (which hold no word of three capitals or more): a family name of two
    capitals (``GU``) is then no pair of initials."""
    if len(parts) < 2 or len(parts) % 2 or not any(len(p) > 3 for p in parts[::2]):
        return False
    return all(_capitals_family(f) for f in parts[::2]) and not any(
        _capitals_family(g) and any(len(w) >= 3 for w in g.split()) for g in parts[1::2])


def _pieces(span: str) -> list[str]:
    """Names as written, in order: ``Zhang, H., Cisse, M. and Dauphin, Y. N.`` -> three names."""
    names: list[str] = []
    split = []
    for piece in _PIECE_SPLIT_RE.split(span):
        parts = [p.strip(" .,") if not _initials_like(p) else p.strip(" ,") for p in piece.split(",")]
        split.append([p for p in parts if p])
    split = [parts for parts in split if parts]
    if _family_names_only(split):
        return [p for parts in split for p in parts]
    if all(_capitals_pairs(parts) for parts in split):
        return [f"{parts[i]}, {parts[i + 1]}" for parts in split for i in range(0, len(parts), 2)]
    semicolons = ";" in span or "；" in span
    for parts in split:
        if semicolons and len(parts) == 2 and not _initials_like(parts[0]):
            # ``Wobbrock, Jacob ; Myers, Brad A ; Aung, Htet`` (DIN 1505, Zotero): the
            # semicolons part the people, so one comma inside a part is family, given
            names.append(f"{parts[0]}, {parts[1]}")
            continue
        i = 0
        while i < len(parts):
            cur = parts[i]
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            if nxt is not None and not _initials_like(cur) and (
                    _initials_like(nxt) or (_single_word(cur) and _single_word(nxt) and len(parts) % 2 == 0)):
                names.append(f"{cur}, {nxt}")
                i += 2
            else:
                names.append(cur)
                i += 1
    return names


def _split_von(family: str) -> tuple[str, str]:
    words = family.split()
    i = 0
    while i < len(words) - 1 and words[i].lower() in _PARTICLES and words[i][:1].islower():
        i += 1
    return " ".join(words[:i]), " ".join(words[i:])


#: words that make a name more than given names and a family name (titles, suffixes,
#: particles, conjunctions): such a name goes to nameparser
_NOT_PLAIN = frozenset("""jr jr. sr sr. ii iii iv v dr dr. prof prof. mr mr. ms ms. mrs mrs. phd ph.d. md
sir lord lady rev rev. hon hon. st st. y e and & of the vander vanden vande ben abu ibn mac""".split()) | _PARTICLES


def _plain_name(raw: str) -> tuple[str, str] | None:
    """``Hongyi Zhang``, ``Y. N. Dauphin``, ``Zhang, Hongyi``: (given, family) read directly
    (nameparser reads them the same, at a hundred times the cost); None for any other."""
    if raw.count(",") > 1:
        return None
    family_first = "," in raw
    family, _, given = raw.partition(",") if family_first else (None, None, None)
    words = (given.split() + family.split()) if family_first else raw.split()
    if not 2 <= len(words) <= 4 and not (family_first and 1 <= len(words) <= 4):
        return None
    if any(w.lower() in _NOT_PLAIN or not w[:1].isupper() or not w[:1].isalpha() for w in words):
        return None
    if family_first:
        if not family.strip() or not given.strip() or len(family.split()) != 1:
            return None
        return " ".join(given.split()), family.strip()
    return " ".join(words[:-1]), words[-1]


def person(raw: str) -> Person:
    """One name, split: ``Lopez-Paz, D.``, ``Y. N. Dauphin``, ``Hochreiter S``, ``Hongyi Zhang``."""
    from nameparser import HumanName

    raw = raw.strip()
    m = _TRAILING_INITIALS_RE.match(raw) if "," not in raw else None
    if m and len(m.group("family")) > 1 and not _initials_like(m.group("family")):
        von, family = _split_von(m.group("family"))
        return Person(raw=raw, given=" ".join(m.group("given")), family=family, von=von)
    if "," not in raw and len(raw.split()) == 1:
        return Person(raw=raw, family=raw)
    plain = _plain_name(raw)
    if plain is not None:
        given, family = plain
        von, family = _split_von(family)
        return Person(raw=raw, given=given, family=family, von=von)
    h = HumanName(raw)
    given = " ".join(p for p in (h.first, h.middle) if p).strip()
    family = h.last or ""
    if h.suffix:
        family = f"{family} {h.suffix}".strip()
    if not family:
        family, given = given, ""
    von, family = _split_von(family)
    return Person(raw=raw, given=given, family=family, von=von)


def split_authors(span: str) -> tuple[list[Person], bool]:
    """The people of an author span, and whether it said the list goes on (``et al.``)."""
    incomplete = bool(_ET_AL_RE.search(span))
    span = _ET_AL_RE.sub(" ", span)
    gap = _ELLIPSIS_RE.search(span)
    if gap is not None:
        # APA's "A, B, ... & Z": names were left out before the last one. Every name written
        # is kept (the last one is a real author, as an ``Authors:`` label keeps it), and the
        # list is marked incomplete (BibTeX "and others"), never shown as the whole list.
        after = re.sub(r"^(?:and\s+|&\s*)", "", span[gap.end():].lstrip(" ,;&"))
        span, incomplete = span[:gap.start()].rstrip(" ,;&") + (", " + after if after.strip() else ""), True
    span = re.sub(r"^\W+|[\s,;:(\[]+$", "", span.strip())
    span = re.sub(r"\s+", " ", span)
    span = _LABEL_RE.sub("", span, count=1)
    if incomplete and (pair := _SURNAME_PAIR_RE.fullmatch(span)) is not None:
        # ``Yang, Hu et al.``: two family names before ``et al.``; an inverted ``Family,
        # Given`` before ``et al.`` writes initials (``Yang, G. et al.``)
        return [person(pair.group(1)), person(pair.group(2))], incomplete
    people = [person(n) for n in _pieces(span) if any(c.isalpha() for c in n)]
    return people, incomplete
