"""From a chosen record (or the notes alone) to the BibTeX fields of an entry.

This is the one place that decides what a citation of each kind of record looks like:
an accepted OpenReview paper, a published proceedings/journal article, an arXiv preprint,
or a notes-only entry built offline.
"""

from __future__ import annotations

import re

from citekit.core.model import Person
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.bibtex.writer import month_macro
from citekit.bibtex.values import author_field, protect_title, safe_url, sanitize
from citekit.core import venues
from citekit.library.keys import arxiv_year
from citekit.core.lazyre import lazy

def fields_from_candidate(c: Candidate, hints: list[str] | None = None, *, arxiv: str | None = None) -> tuple[str, dict[str, str]]:
    """``(entry type, fields)`` for a chosen record; every value LaTeX-safe.

    ``arxiv`` is the arXiv id of another version of the same work: citing the conference
    version with its ``eprint`` lets readers find the free copy. DOIs of other versions
    are not carried over (a DOI names one version).
    """
    hints = hints or []
    entry_type = c.entry_type if c.entry_type in {"inproceedings", "article", "misc", "book", "incollection", "phdthesis", "techreport"} else "misc"
    fields: dict[str, str] = {}
    if c.authors:
        fields["author"] = author_field(c.authors)
    fields["title"] = protect_title(c.title, hints)
    container = c.container or (venues.long_name(c.venue.split()[0], c.year) if c.venue else None)
    if entry_type == "inproceedings" and container:
        fields["booktitle"] = sanitize(container)
    elif entry_type == "article" and container:
        fields["journal"] = sanitize(container)
    elif entry_type in {"inproceedings", "article"}:
        entry_type = "misc"  # a proceedings entry without its proceedings would not compile cleanly
    if c.year:
        fields["year"] = str(c.year)
    for name in ("volume", "number", "publisher", "series", "address", "edition", "institution", "school"):
        if c.extra.get(name):
            fields[name] = sanitize(c.extra[name])
    if c.extra.get("pages"):
        fields["pages"] = sanitize(re.sub(r"\s*[-–—]+\s*", "--", c.extra["pages"]))
    month = month_macro(str(c.extra["month"])) if c.extra.get("month") else None
    if month:
        fields["month"] = month
    if c.ids.doi and not c.ids.doi.startswith("10.48550/"):
        fields["doi"] = c.ids.doi
    url = c.url or (f"https://openreview.net/forum?id={c.ids.openreview}" if c.ids.openreview else None)
    if url:
        fields["url"] = safe_url(url)
    if c.ids.arxiv or arxiv:
        fields["eprint"] = c.ids.arxiv or arxiv or ""
        fields["archiveprefix"] = "arXiv"
        if c.extra.get("primaryclass"):
            fields["primaryclass"] = c.extra["primaryclass"]
    return entry_type, fields


#: a container that names a meeting's proceedings rather than a journal
_PROCEEDINGS_RE = lazy(r"\b(?:proc(?:eedings|\.)?|conference|conf\.|workshop|symposium|meeting|congress)\b", re.I)


def fields_from_mentions(mentions: list[Mention]) -> tuple[str, dict[str, str]] | None:
    """What the notes alone say, as an entry; None when they hold no title or no authors.

    A title without authors would give an entry that BibTeX warns about and, worse, a
    citation key without a name in it that could never change afterwards; such works
    wait (``pending``) until an online sync finds their authors.
    """
    titled = [m for m in mentions if m.title]
    if not titled or not any(m.authors for m in mentions):
        return None
    title = titled[0].title or ""
    listing = next(m for m in mentions if m.authors)
    authors_raw = listing.authors
    venue, year = _venue_and_year(mentions)
    hints = [h for m in mentions for h in m.hints]
    people: list[Person] = [parse_name(a) for a in authors_raw if a.strip()]
    fields: dict[str, str] = {}
    if people:
        # "et al." in the notes: BibTeX's own convention, which bibtex and biber print as "et al."
        fields["author"] = author_field(people) + (" and others" if listing.authors_incomplete else "")
    fields["title"] = protect_title(_recase(title), hints)
    booktitle = venues.long_name(venue, year) if venue else None
    entry_type = venues.entry_type(venue) if booktitle else "misc"
    published = next((m.published for m in mentions if m.published.get("type")),  # pasted BibTeX first
                     next((m.published for m in mentions if m.published), {}))
    if published.get("type") and (published.get("container") or published["type"] == "misc"):
        # a pasted BibTeX entry: its type and its booktitle or journal as the user wrote them
        entry_type = "inproceedings" if published["type"] == "conference" else published["type"]
        booktitle = published.get("container")
    elif not booktitle and published.get("container"):
        # a pasted reference's journal or proceedings, as written: an offline entry keeps it
        container = published["container"]
        entry_type = "inproceedings" if _PROCEEDINGS_RE.search(container) else "article"
        booktitle = container
    if booktitle:
        fields["journal" if entry_type == "article" else "booktitle"] = sanitize(booktitle)
    for name in ("volume", "number", "pages"):
        if published.get(name) and entry_type != "misc":
            fields[name] = sanitize(published[name])
    if year:
        fields["year"] = str(year)
    url = next((u for m in mentions for u in m.urls), None)
    if url:
        fields["url"] = safe_url(url)
    ids = mentions[0].pins  # an identifier the user pinned under the paper says which record it is
    for m in mentions[1:]:
        ids = ids.merged(m.pins)
    for m in mentions:
        ids = ids.merged(m.ids)
    if ids.doi and not ids.doi.startswith("10.48550/"):
        fields["doi"] = ids.doi
    if ids.arxiv:
        fields["eprint"] = ids.arxiv
        fields["archiveprefix"] = "arXiv"
    if "year" not in fields and arxiv_year(fields):
        fields["year"] = arxiv_year(fields)  # a fact about the preprint: no "empty year" warning
    return entry_type, fields


def _venue_and_year(mentions: list[Mention]) -> tuple[str | None, int | None]:
    """The venue and year the notes give a paper: one said of the paper itself first, a
    page's default (a heading above it) only when nothing better is known.

    A page default is dropped, venue and all, when the paper's arXiv identifier is more
    than a year older: a 2021 preprint mentioned on an "ICLR 2026" page is an older paper
    cited there, not an ICLR 2026 paper (that gave SAM the key ``foret2026sharpnessaware``).
    """
    own = [m for m in mentions if not m.year_from_page]
    venue = next((m.venue for m in own if m.venue), None)
    year = next((m.year for m in own if m.year), None)
    if year is not None or venue is not None:
        return venue, year
    page = next((m for m in mentions if m.year_from_page and m.year), None)
    if page is None:
        return None, None
    preprint = next((arxiv_year({"eprint": i.arxiv}) for m in mentions for i in (m.ids, m.pins) if i.arxiv), "")
    if preprint and not 0 <= (page.year or 0) - int(preprint) <= 1:
        return None, None
    return page.venue, page.year


def _recase(title: str) -> str:
    """A title written ALL CAPS in the notes becomes Title Case (styles re-case the rest)."""
    letters = [c for c in title if c.isalpha()]
    if len(letters) > 12 and all(c.isupper() for c in letters):
        small = {"a", "an", "the", "of", "in", "on", "for", "and", "or", "to", "with", "via", "by", "at"}
        words = title.lower().split(" ")
        return " ".join(w if i and w in small else w[:1].upper() + w[1:] for i, w in enumerate(words))
    return title
