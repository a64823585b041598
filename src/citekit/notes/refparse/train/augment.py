"""Corpus records copied with other family names, so the parser learns where a name stands.

The shared corpora name the same few thousand researchers again and again, and a CRF
that sees ``w=bengio`` a thousand times learns the word, not the place: a family name it
never saw that is also a word of titles (``Recht``, ``Le``, ``Ying``, ``Law``) was read as
the start of the title. A seeded share of the records is printed a second time with
family names drawn from the words of other records' titles, so the labels must come
from what a name's position and punctuation say (after a given name, before ``, and``).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

from citekit.notes.refparse.train.corpus import Record

#: words a family name is not drawn from: they are cues of other fields (``In``, ``Vol``)
#: or join names (``and``, ``et``), and a string that used them would teach the wrong thing
_NOT_DRAWN = frozenset("""in on of and the a an for to with by from at as et al vol no pp proc conf journal
press university preprint arxiv eds ed editor editors volume pages page und von van de der la le des du di""".split())
_WORD_RE = re.compile(r"[^\W\d_]{2,12}")


def name_pool(records: list[Record]) -> list[str]:
    """Capitalised forms of the words of the records' titles, sorted (a seeded draw from it
    is the same on every run)."""
    words = {w.lower() for rec in records for w in _WORD_RE.findall(rec.title)}
    return sorted(w[:1].upper() + w[1:] for w in words if w not in _NOT_DRAWN)


def _bib_name(n: dict[str, str]) -> str:
    if "literal" in n:
        return f"{{{n['literal']}}}"
    family = " ".join(p for p in (n.get("non-dropping-particle"), n.get("family")) if p)
    return f"{{{family}}}, {n['given']}" if n.get("given") else f"{{{family}}}"


#: what closes the name of a group that signs a paper among its people (``OpenAI Dota Team``)
GROUP_WORDS = ("Team", "Group", "Consortium", "Collaboration", "Contributors")


def renamed(rec: Record, pool: list[str], rng: random.Random, *, per_name: float = 0.5, group: float = 0.08,
            article: float = 0.25) -> Record:
    """A copy of ``rec`` whose authors' family names are, each with ``per_name`` odds, a word
    of the pool (at least one is); with ``group`` odds the last author is a group
    (``Nimbus Robotics Team``, printed as written); with ``article`` odds the title opens
    with ``A`` or ``The``. Its ``.bib`` fields say the same."""
    authors = [dict(n) for n in rec.authors]
    swap = [i for i in range(len(authors)) if rng.random() < per_name] or [rng.randrange(len(authors))]
    for i in swap:
        authors[i]["family"] = rng.choice(pool)
        authors[i].pop("non-dropping-particle", None)
    if len(authors) > 1 and rng.random() < group:
        words = [rng.choice(pool) for _ in range(rng.choice((1, 2)))]
        authors[-1] = {"literal": " ".join([*words, rng.choice(GROUP_WORDS)])}
    title = rec.title
    if rng.random() < article and title[:1].isalpha() and not re.match(r"(?:A|An|The)\s", title):
        # ``Okafor A, Lindqvist B. A simple baseline …``: an article opening the title right
        # after an initial is the title's, a thing few titles of the corpora show
        title = rng.choice(("A", "The", "An" if title[:1].lower() in "aeiou" else "A")) + " " + title[:1].lower() + title[1:] \
            if not title.split()[0].isupper() else rng.choice(("A", "The")) + " " + title
    bib = dict(rec.bib)
    bib["title"] = title if title == rec.title else "{" + title[0] + "}" + title[1:]
    bib["author"] = " and ".join([_bib_name(n) for n in authors] + (["others"] if rec.others else []))
    return replace(rec, key=rec.key + "-renamed", authors=authors, title=title, bib=bib)


def with_other_names(records: list[Record], seed: int, share: float) -> list[Record]:
    """A renamed copy (:func:`renamed`) of a seeded ``share`` of ``records``."""
    rng = random.Random(seed)
    pool = name_pool(records)
    return [renamed(rec, pool, rng) for rec in records if rng.random() < share]
