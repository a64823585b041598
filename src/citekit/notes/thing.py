"""What a user handed to ``citekit add``, and the notes lines that record it.

One home for the decision "what kind of thing is this" (an identifier or paper link, a
pasted BibTeX entry, a pasted reference, a bare title), so ``add`` never guesses in two
places. The decision is the extractor's own: a thing is read exactly as a line of the
notes would be, so what ``add`` records is, by construction, what a later sync reads back.
Only a bare title, which the notes rules rightly do not take on its own (a heading, a
to-do and a title look alike), becomes a mention here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citekit.core.ids import acl_doi
from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.core.lazyre import lazy

#: what a thing can be, as ``add --json`` reports it
KINDS = ("doi", "arxiv", "openreview", "dblp", "url", "bibtex", "reference", "title")

_BIBTEX_START = lazy(r"^\s*@\s*[A-Za-z]+\s*[{(]")
_TAG = lazy(r"^[\w][\w\-/.]*$")


@dataclass
class Thing:
    """One argument of ``citekit add``, read."""

    text: str
    kind: str
    #: the mention it stands for (its location is a placeholder until it is recorded)
    mention: Mention
    #: the paper link it gives, if any (doi.org, arxiv.org, openreview.net, a proceedings page…)
    url: str | None = None
    tags: list[str] = field(default_factory=list)


class NotAPaper(ValueError):
    """The text names no paper the notes rules can read (and is not a title)."""


def read_thing(text: str, *, file: str = "citekit add") -> Thing:
    """Classify ``text`` and give the mention it stands for.

    Raises :class:`NotAPaper` for text that is neither an identifier, a paper link, a
    BibTeX entry, a reference nor something shaped like a title.
    """
    from citekit.notes.extract import extract_text
    from citekit.notes.urls import add_missing_schemes

    text = add_missing_schemes(text.strip())  # (as the notes reader does: what is recorded reads back the same)
    if not text:
        raise NotAPaper("an empty argument names no paper")
    if _BIBTEX_START.match(text):
        mentions = extract_text(text + "\n", file).mentions
        if len(mentions) != 1:
            raise NotAPaper("this BibTeX text holds no paper entry (or more than one): add one entry at a time, "
                            "or use `citekit import FILE` for a whole file")
        return Thing(text, "bibtex", mentions[0], url=(mentions[0].urls or [None])[0])
    if "\n" not in text:
        mentions = extract_text(f"- {text}\n", file).mentions
    else:  # a reference copied with its hard wraps
        text = " ".join(text.split())
        mentions = extract_text(text + "\n", file).mentions
    many = len(mentions) if len(mentions) > 1 else len(mentions[0].urls) if mentions and mentions[0].kind == "url" else 0
    if many > 1:
        raise NotAPaper(f"'{_short(text)}' names {many} papers: give each as an argument of its own")
    if mentions:
        m = mentions[0]
        if m.kind == "url":
            kind = next((s for s in ("doi", "arxiv", "openreview", "dblp") if getattr(m.ids, s)), "url")
            if kind == "url" and m.urls and (doi := acl_doi(m.urls[0])):
                m.ids.doi = doi  # the page names no title; its DOI does, at Crossref
            return Thing(text, kind, m, url=(m.urls or [None])[0])
        if m.kind == "titled" and (m.authors or m.urls or m.venue or m.year):
            return Thing(text, "reference", m, url=(m.urls or [None])[0])
    title = " ".join(text.strip("\"'“”«»「」『』《》 ").split())
    if len(title.split()) < 2 or title.startswith(("http://", "https://")) or len(title) > 400:
        raise NotAPaper(f"'{_short(text)}' is not a DOI, arXiv id, paper link, BibTeX entry, reference or title")
    return Thing(text, "title", Mention(kind="titled", location=Location(file, 1), title=title))


def valid_tag(tag: str) -> bool:
    """A tag the notes read back as ``#tag`` (letters, digits, ``-``, ``_``, ``/``, ``.``)."""
    return bool(_TAG.match(tag))


def tag_suffix(tags: list[str]) -> str:
    return "".join(f" #{t}" for t in tags)


def recorded_lines(thing: Thing, *, title: str | None = None, authors: list[str] | None = None,
                   url: str | None = None, pin: tuple[str, str] | None = None, tags: list[str] = ()) -> str:
    """The notes text that records ``thing`` (ending with a newline).

    With a ``title`` and ``authors`` (the record a lookup found), the paper is written the way
    a person notes it: the title line with its tags, ``Authors:``, ``URL:`` and, when the user
    picked among look-alikes, a pin, so a later sync lands on the very same record.
    Without them (offline, or nothing found), the thing itself is written so that the next
    sync looks it up: a link or identifier as a bare line, a reference as pasted, a title
    with an empty ``Summary: …`` line (a title alone is not read as a paper), BibTeX in a fenced block.
    """
    suffix = tag_suffix(list(tags))
    if thing.kind == "bibtex":
        return f"```bibtex\n{thing.text.strip()}\n```\n"  # its tags are given by hand (``tag``)
    if title and authors:
        lines = [f"- {_one_line(title)}{suffix}", f"  - Authors: {' ⋅ '.join(_one_line(a) for a in authors)}"]
        link = url or thing.url
        if link:
            lines.append(f"  - URL: {link}")
        if pin:
            lines.append(f"  - {pin[0]}: {pin[1]}")
        return "\n".join(lines) + "\n"
    if thing.kind == "title":
        # a title alone is no paper to the notes rules; an empty summary (yours to fill in)
        # makes it one, and "…" has no words to leak into related work or tag rules
        return f"- {_one_line(thing.mention.title or thing.text)}{suffix}\n  - Summary: …\n"
    text = thing.url if thing.kind in ("doi", "arxiv", "openreview", "dblp", "url") and thing.url else thing.text
    return f"- {_one_line(text)}{suffix}\n"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _short(text: str) -> str:
    text = _one_line(text)
    return text if len(text) <= 60 else text[:57] + "..."
