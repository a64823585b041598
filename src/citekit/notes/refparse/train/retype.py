"""Corpus records printed again as books, chapters, reports, theses and web pages.

The shared corpora are mostly computer-science articles and proceedings papers, so the
strings rendered from them rarely show where a book's title ends and its place and
publisher begin (``Beck, U. 1992. Risk Society. London: Sage.``), a chapter's title and
the edited book that holds it (``In: Jones M (ed) Handbook of X. Oxford University
Press``), a report's institution or a thesis's university; nor authors that are bodies
(``World Health Organization``). A seeded share of the training records is printed a
second time re-typed as one of those, with a publisher, place, book title, editors and
corporate author drawn from the corpora's own fields, so each shape is labelled by
construction. Records whose title is in another language than English are always among
them, since the corpora hold few.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from citekit.notes.refparse.train.corpus import Record

#: the share of training records printed a second time as another type (``--retyped-share``;
#: 0 keeps the recipe of the shipped model)
RETYPED_SHARE = 0.0
#: what a re-typed record becomes, and its odds
KINDS = (("book", 0.35), ("chapter", 0.3), ("report", 0.15), ("thesis", 0.12), ("webpage", 0.08))
#: the share of re-typed records whose author is a body (``World Health Organization``)
CORPORATE_SHARE = 0.12
#: the words that say a publisher, institution or school is a body that can sign a work
_BODY_RE = re.compile(r"\b(?:Association|Society|Institute|Organi[sz]ation|Council|Agency|Committee|Foundation|"
                      r"Laborator(?:y|ies)|Consortium|Academy|Bureau|Office|Commission|Department|Center|Centre|"
                      r"Research|Group|Ministry|Service|Board|Federation|Union|Network|Corporation)\b")
_FOREIGN = frozenset("""le la les des du une un pour dans sur aux der die das und zur zum über eine einer von mit
für auf el los las del para por con una di della delle per il nel em uma dos het een voor""".split())
_ENGLISH = frozenset("the of and for with on in to a an".split())
_THESIS_GENRES = ("PhD thesis", "Ph.D. dissertation", "Doctoral dissertation", "Master's thesis", "PhD Thesis")
_REPORT_GENRES = ("Technical Report", "Tech. Rep.", "Report", "Working Paper", "")


def foreign_title(title: str) -> bool:
    """Whether a title reads as written in another language than English (French, German …)."""
    words = re.findall(r"\w+", title.lower())
    other = sum(w in _FOREIGN for w in words)
    return other >= 2 and other > sum(w in _ENGLISH for w in words)


def _clean(value: str) -> bool:
    """A field value worth printing: no LaTeX macro left, no BibTeX string name (``MITaddr``)."""
    return 3 <= len(value) <= 70 and not re.search(r"[~\\{}@]|addr$|^[A-Z]+[a-z]*[A-Z]{2,}|https?:", value) \
        and value.lower() not in ("online", "usa")


@dataclass
class Pools:
    """The corpora's own publishers, places, schools, bodies and book titles, sorted so a
    seeded draw is the same on every run."""

    publishers: list[str]
    places: list[str]
    schools: list[str]
    bodies: list[str]
    books: list[str]
    editors: list[list[dict[str, str]]]


def pools(records: list[Record]) -> Pools:
    publishers = sorted({r.publisher for r in records if _clean(r.publisher)})
    places = sorted({r.place for r in records if _clean(r.place) and not re.search(r"\d", r.place)})
    schools = sorted({p for p in publishers if re.search(r"Universit|College|School|Institut", p)}
                     | {r.publisher for r in records if "thesis" in r.entry_type and _clean(r.publisher)})
    bodies = sorted({p for p in publishers if _BODY_RE.search(p) and not re.search(r"Press|Verlag|Publish", p)})
    books = sorted({r.title for r in records if r.entry_type == "book" and len(r.title) < 120}
                   | {r.container for r in records if r.entry_type in ("incollection", "inbook") and _clean(r.container)})
    editors = [r.authors[:3] for r in records if r.authors and all("given" in n for n in r.authors[:3])]
    return Pools(publishers, places, schools or publishers, bodies or publishers, books, editors)


def _latex(value: str) -> str:
    return re.sub(r"([&%#_$])", r"\\\1", value)


def _bib_names(names: list[dict[str, str]]) -> str:
    out = []
    for n in names:
        if "literal" in n:
            out.append("{" + _latex(n["literal"]) + "}")
            continue
        family = " ".join(p for p in (n.get("non-dropping-particle"), n.get("family")) if p)
        out.append(f"{{{_latex(family)}}}, {_latex(n['given'])}" if n.get("given") else f"{{{_latex(family)}}}")
    return " and ".join(out)


def _kind(rng: random.Random) -> str:
    x = rng.random()
    for kind, odds in KINDS:
        if x < odds:
            return kind
        x -= odds
    return KINDS[-1][0]


def retyped(rec: Record, p: Pools, rng: random.Random) -> Record:
    """A copy of ``rec`` printed as another kind of work, its ``.bib`` fields saying the same."""
    kind = _kind(rng)
    if kind == "webpage" and not rec.url:
        kind = "report"
    authors, others = rec.authors, rec.others
    if rng.random() < CORPORATE_SHARE:
        authors, others = [{"literal": rng.choice(p.bodies)}], False
    new = replace(rec, key=rec.key + "-retyped", authors=authors, others=others, editors=[], container="",
                  volume="", issue="", pages="", doi="", arxiv="", month=None, publisher="", place="", genre="")
    place = rng.choice(p.places) if rng.random() < 0.7 else ""
    bib: dict[str, str] = {"title": rec.bib.get("title", rec.title), "author": _bib_names(authors)}
    if rec.year:
        bib["year"] = str(rec.year)
    if kind == "book":
        new.entry_type, new.publisher, new.place = "book", rng.choice(p.publishers), place
        bib.update(publisher=_latex(new.publisher))
    elif kind == "chapter":
        new.entry_type, new.publisher, new.place = "incollection", rng.choice(p.publishers), place
        new.container = rng.choice(p.books)
        new.editors = rng.choice(p.editors) if rng.random() < 0.7 else []
        a = rng.randrange(1, 400)
        new.pages = rec.pages or f"{a}–{a + rng.randrange(8, 40)}"
        bib.update(publisher=_latex(new.publisher), booktitle=_latex(new.container), pages=new.pages.replace("–", "--"))
        if new.editors:
            bib["editor"] = _bib_names(new.editors)
    elif kind == "report":
        new.entry_type, new.publisher, new.place = "techreport", rng.choice(p.bodies + p.schools), place
        new.genre = rng.choice(_REPORT_GENRES)
        bib.update(institution=_latex(new.publisher))
    elif kind == "thesis":
        new.entry_type, new.publisher, new.place = "phdthesis", rng.choice(p.schools), place
        new.genre = rng.choice(_THESIS_GENRES)
        bib.update(school=_latex(new.publisher))
    else:
        new.entry_type, new.container = "online", rng.choice(p.bodies + p.publishers)
        bib.update(url=new.url, note="Online")
        new.bib = bib
        return new
    if place:
        bib["address"] = _latex(place)
    new.bib = bib
    return new


def with_other_types(records: list[Record], seed: int, share: float = RETYPED_SHARE) -> list[Record]:
    """A re-typed copy (:func:`retyped`) of a seeded ``share`` of ``records``, and of every
    record whose title is not in English."""
    rng = random.Random(seed)
    p = pools(records)
    return [retyped(rec, p, rng) for rec in records if rng.random() < share or foreign_title(rec.title)]
