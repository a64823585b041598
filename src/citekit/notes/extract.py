"""From the outline of a notes file to :class:`~citekit.core.resolution.Mention` values.

A line becomes a paper mention only on evidence: a paper URL, labelled details
(``著者:``, ``まとめ:``, pins), or — for titles mentioned again later without details — an
author list or a summary sentence below it. People, meals, talks and socials never carry
that evidence, and a talk URL (``/invited-talk/``, a tutorial) rules a line out outright.
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from urllib.parse import urlsplit

from citekit.core.ids import ids_from_url
from citekit.core.model import Ids, Location
from citekit.core.names import name_tokens
from citekit.core.resolution import Mention
from citekit.core.venues import canonical, from_proceedings_url, from_text, from_url
from citekit.notes.abstracts import looks_like_abstract, method_hints
from citekit.notes.authoryear import Citation, _ordinary_words, cited_as, find_citations, has_cue as has_citation_cue, leading_names
from citekit.notes.labels import PAPER_KIND_WORDS, authors_and_year, PIN_EXAMPLES, kind_prefix, strip_to_read, Label, author_list_incomplete, parse_label, parse_pin, split_authors
from citekit.notes.memo import per_text
from citekit.notes.chatcopy import has_link_previews, with_link_titles
from citekit.notes.quotations import without_quoted_passages
from citekit.notes.zoteroreport import looks_like_report, rewrite_report
from citekit.core.text import normalize_title
from citekit.notes.refline import REFERENCE_NUMBER_RE, announced_title, comma_families, listed_named_titles, named_title_before_remark, title_unsure, unsure_reference, Reference, inline_references, may_cite_inline, names_a_paper, names_line, parse_reference, split_name_list, strip_markup, unquote_title, venue_and_year
from citekit.notes.titlecase import title_case
from citekit.notes.textids import find_text_ids, without_text_ids
from citekit.notes.outline import SURE_CONTINUES, Node, outline_pieces, split_labelled_fields
from citekit.notes.formats import Transcript, format_of
from citekit.notes.result import ExtractResult, Problem
from citekit.notes.shapes import (
    authors_line, hashtags, is_long_remark, is_plain_name, strip_decorations, is_person_line, person_heading, is_summary_sentence, looks_like_event, looks_like_section_label,
    looks_like_title, non_paper_words, related_page_items, relation_names_papers, strip_hashtags, SPEAKER_WORD_RE,
)
from citekit.notes.urls import NOT_PAPER_KINDS, classify_url, doi_in_url, find_urls, is_url_only, markdown_link_places, markdown_links, replace_markdown_links, strip_urls, title_in_url
from citekit.core.lazyre import lazy


@dataclass
class Decision:
    """What extraction decided about one line, for ``citekit extract --explain``."""

    line: int
    outcome: str  # "mention" | "rejected"
    reason: str
    text: str
    mention: Mention | None = None
    #: the reference parser's reading of the line: (label, text, confidence) runs
    model: tuple[tuple[str, str, float], ...] = ()
    #: the mention finder's label of the line and its confidence, where it was asked
    finder: tuple[str, float] | None = None
    #: what became of the pages the mention links, one line each (filled in by the API
    #: from what the last sync read: extraction itself never fetches a page)
    pages: list[str] = field(default_factory=list)


#: a label value left to fill in: "…", "...", "?", "TBD"
_PLACEHOLDER_RE = lazy(r"\s*(?:[.…?\-–—]+|tbd|todo)\s*", re.I)

_PAPER_KINDS = PAPER_KIND_WORDS



#: a section's own words that what it lists is not papers (an exact statement, not a guess)
_NO_PAPERS_RE = lazy(r"\b(?:not|non|no)[- ]?papers?\b|\bother than papers\b", re.I)


@per_text
def _says_not_papers(text: str) -> bool:
    """``_NO_PAPERS_RE.search(text)``, remembered by text (the section's headings are asked
    again for every line under them) and not tried on an ASCII text without "paper" (every
    branch needs the word; on other text case folding may match letters ASCII lowers
    do not, so the pattern is always tried)."""
    if text.isascii() and "paper" not in text.lower():
        return False
    return _NO_PAPERS_RE.search(text) is not None


@dataclass
class _Scope:
    """Where we are in the file: the nearest section label and the venue it implies."""

    file: str
    headings: list[tuple[int, str, str | None, int | None]] = field(default_factory=list)  # level, text, venue, year
    label: str | None = None  # latest plain-text section label
    plain_venue: tuple[str | None, int | None] = (None, None)

    def enter_heading(self, level: int, text: str) -> None:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        venue, year = from_text(text)
        self.headings.append((level, text, venue, year))
        self.label = None

    def enter_label(self, text: str) -> None:
        self.label = text
        venue, year = from_text(text)
        if venue:
            self.plain_venue = (venue, year)

    @property
    def section(self) -> str | None:
        if self.label:
            return self.label
        return self.headings[-1][1] if self.headings else None

    @property
    def says_no_papers(self) -> bool:
        """The section (a heading over it or its label) says what it lists is not papers
        (``## Not papers but worth it``, ``misc / not papers:``, ``RESOURCES (non-paper)``)."""
        texts = [text for _level, text, _v, _y in self.headings] + ([self.label] if self.label else [])
        return any(_says_not_papers(text) for text in texts)

    @property
    def people(self) -> list[str]:
        """The people the enclosing headings name (``## Egor Shulgin (KAUST)``)."""
        return [name for _level, text, _v, _y in self.headings if (name := person_heading(text))]

    @property
    def venue(self) -> tuple[str | None, int | None]:
        for _level, _text, venue, year in reversed(self.headings):
            if venue:
                return venue, year
        return self.plain_venue


@dataclass
class _Details:
    """What the lines under a title say about it."""

    urls: list[str] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    authors: list[str] = field(default_factory=list)
    summary: str | None = None
    fallback_summary: str | None = None
    abstract: str | None = None
    title: str | None = None
    pins: Ids = field(default_factory=Ids)
    hashtags: list[str] = field(default_factory=list)
    hard: bool = False  # labelled details or a paper URL on the title line
    soft: bool = False  # unlabelled: bare URL, author list, summary sentence
    talk: bool = False
    incomplete: bool = False  # "et al." in the author list
    venue: tuple[str | None, int | None] = (None, None)  # written on the line or in a label
    kind_label: str | None = None  # a ``type::`` label: paper, talk, blog ...
    said_not_paper: str | None = None  # a line below that says the work is none (``(blog post, not a paper)``)
    speaker: bool = False  # a Speaker:/Presenter: line: a talk unless other evidence says paper
    rule: str = ""  # what made this a paper, for --explain
    soft_sources: set[str] = field(default_factory=set)
    model: tuple[tuple[str, str, float], ...] = ()  # the reference parser's reading (for --explain)
    reference: str | None = None  # the pasted reference string the line is
    published: dict[str, str] = field(default_factory=dict)  # its journal/proceedings, volume, pages
    unused: list[Node] = field(default_factory=list)  # lines below that nothing was read from (for --explain)
    link_kinds: set[str] = field(default_factory=set)  # dataset, model, blog, video ... (for --explain)  # "code" when a code/project link is all there is


def _add_url(details: _Details, url: str, label: str | None, *, hard: bool) -> None:
    """File one URL under the title by what kind of page it is (none: a URL that cannot be
    split, such as a bracket in its host, is not a link anyone can follow)."""
    try:
        kind = classify_url(url)
    except ValueError:
        return
    if kind == "talk":
        details.talk = True
    elif kind == "paper" or (label == "url" and kind in ("document", "other")):
        if url not in details.urls:
            details.urls.append(url)
        details.hard = details.hard or hard
        details.soft = True
    elif label in ("project", "code", "slides", "video"):
        details.links.setdefault(label, url)
        details.hard = details.hard or (hard and label in ("project", "code"))
    elif kind in ("code", "project"):
        details.links.setdefault(kind, url)
        details.soft = True
        details.soft_sources.add("code")
    elif kind == "slides":
        details.links.setdefault("slides", url)
    else:
        details.links.setdefault("pdf" if kind == "document" else "link", url)
        details.link_kinds.add(kind)
        details.soft = details.soft or kind == "document"


_TAG_SPLIT_RE = lazy(r"[,\s]+")


def _apply_label(details: _Details, label: Label, node: Node, file: str, problems: list[Problem]) -> None:
    if label.field in ("url", "project", "code", "slides", "video"):
        for url in find_urls.shared(label.value):
            _add_url(details, url, label.field, hard=True)
    elif label.field == "authors":
        if not details.authors:
            names, year = authors_and_year(label.value)
            details.authors = split_authors(names)
            details.incomplete = author_list_incomplete(names)
            if year is not None and details.venue[1] is None:
                details.venue = (details.venue[0], year)
        details.hard = details.hard or bool(details.authors)
        details.rule = details.rule or f"{label.name}: label"
    elif label.field == "venue":
        ids = find_text_ids.shared(label.value)
        venue, year = venue_and_year(without_text_ids(label.value, ids) if ids else label.value)
        if venue or year:  # (``Year: 2016`` then ``Venue: CVPR``: each line adds its part)
            details.venue = (venue or details.venue[0], year or details.venue[1])
        for found in ids:  # ``出处: NIPS 2014, arXiv:1409.3215``: the paper's identifier, written beside its venue
            _add_url(details, found.url, None, hard=True)
    elif label.field == "tags":
        details.hashtags.extend(t.strip().lstrip("#").lower() for t in _TAG_SPLIT_RE.split(label.value) if t.strip().lstrip("#"))
    elif label.field == "kind":
        details.kind_label = label.value.strip().lower()
    elif label.field == "speaker":
        details.speaker = True
    elif label.field == "summary" and label.value:
        if not _PLACEHOLDER_RE.fullmatch(label.value):  # ("Summary: …", as `citekit add` writes it, is yet to be filled)
            details.summary = details.summary or strip_hashtags(label.value) or None  # "#optim" is a tag, read as one
        details.hard = True
    elif label.field == "abstract" and label.value:
        details.abstract = details.abstract or strip_hashtags(label.value) or None
        details.hard = True
    elif label.field == "title" and label.value:
        details.title = details.title or unquote_title(label.value)
    elif label.field == "pin":
        pin = parse_pin(label.name, label.value)
        if pin is None:
            problems.append(Problem(file, node.line, f"{label.name} pin {label.value!r} is not a valid {label.name} identifier; write it like `{PIN_EXAMPLES[label.name]}`"))
            return
        setattr(details.pins, pin[0], pin[1])
        details.hard = True
        details.rule = details.rule or f"{label.name}: pin"
        for url in find_urls.shared(label.value):
            _add_url(details, url, None, hard=True)


#: a line that is one Markdown link and nothing else (``[pdf](https://arxiv.org/abs/…)``): a link below a title
_LINK_ONLY_RE = lazy(r"\[[^\]\n]{0,40}\]\(\s*<?https?://[^)\s]+>?\s*\)")


#: How sure the finder must be that a line with only non-paper links is no paper (a blog post
#: with its author, a talk, a notebook: the shapes a paper line has, learned apart from it)
SURE_NO_PAPER = 0.99


#: How sure the finder must be that a line cites a paper before a quoted span in sentence case on it is a title
SURE_QUOTED_TITLE = 0.97


def _finder_says(node: Node, label: str, sure: float) -> bool:
    """The learned finder gives the line ``label`` with at least ``sure`` confidence: what it
    said when it read the line's block, or (asked only for the few lines that need it) what
    it says of the line alone."""
    said = node.found.get(node.line)
    if said is None:
        from citekit.notes import finder

        found = finder.find([node.text])[0]
        said = (found.label, found.confidence)
    return said[0] == label and said[1] >= sure


def _finder_says_no_paper(node: Node) -> bool:
    """The learned finder is sure the line is no paper (``other``)."""
    return _finder_says(node, "other", SURE_NO_PAPER)


def _read_children(node: Node, file: str, problems: list[Problem]) -> _Details:
    """Details from the lines directly below a title (lines with children of their own are
    sub-items, not details)."""
    details = _Details()
    for child in node.children:
        details.hashtags.extend(hashtags.shared(child.text))
        label = child.label
        if label is not None:
            _apply_label(details, label, child, file, problems)
            continue
        if child.children:
            continue
        text = strip_hashtags(child.text)
        if _says_not_a_paper(strip_urls(text)):
            details.said_not_paper = text  # the writer's own word on what the title names
            for url in find_urls.shared(text):
                _add_url(details, url, None, hard=False)
        elif is_url_only(text) or _LINK_ONLY_RE.fullmatch(text):
            for url in find_urls.shared(text):
                _add_url(details, url, None, hard=False)
        elif (remark := _link_remark(text)) is not None:
            for url in find_urls.shared(text):  # "https://… (read §3)": the link, and a remark on it that is no summary
                _add_url(details, url, None, hard=False)
            if remark:
                details.unused.append(child)
        elif ";" in text and not details.title and not details.authors and _names_no_title(node.text) \
                and (split := _title_then_names(text)) is not None:
            details.title, details.authors = split  # under a bare link: "Title; Given Family, Given Family"
            details.soft = True
            details.soft_sources.add("authors")
        elif (names := authors_line(text)) is not None:
            details.authors = details.authors or names
            details.soft = True
            details.soft_sources.add("authors")
        elif not details.authors and (listed := names_line(text)) is not None:
            details.authors, details.incomplete = listed[0], listed[1]
            if listed[2] or listed[3]:
                details.venue = (listed[2], listed[3])
            details.soft = True
            details.soft_sources.add("authors")
        elif is_person_line(text):
            details.unused.append(child)
        elif is_summary_sentence(text):
            details.summary = details.summary or text
            details.soft = True
        elif is_long_remark(text) and details.fallback_summary is None:
            details.fallback_summary = text
        elif not details.summary or text != details.summary:
            details.unused.append(child)
    return details


def _without_ids(text: str) -> str:
    """``text`` without the identifiers written in it as plain text."""
    return without_text_ids(text, find_text_ids(text))


def _names_no_title(text: str) -> bool:
    """The line is a link or an identifier and nothing else: the lines below it are where
    its title is written."""
    return not any(c.isalpha() for c in _without_ids(strip_urls(strip_hashtags(text))).replace("*", ""))


def _title_then_names(text: str) -> tuple[str, list[str]] | None:
    """``Title; Given Family, Given Family``: one semicolon, the title before it and the
    author list after it. A list of names with commas that a semicolon sets apart from
    what comes first says that first part is no name of the list; with one name after the
    semicolon, the part before it must not read as a name (``Ada Lovelace; Charles
    Babbage`` is two people)."""
    head, semicolon, tail = text.partition(";")
    head, tail = head.strip().rstrip("."), tail.strip().rstrip(".")
    if not semicolon or ";" in tail or len(head.split()) < 2 or not head[:1].isupper():
        return None
    listed = names_line(tail)
    if listed is not None and len(listed[0]) >= 2:
        return head, listed[0]
    if is_plain_name(tail) and not is_plain_name(head) and len(tail.split()) >= 2:
        return head, [tail]
    return None


#: a link followed by a remark in brackets (``https://… (blog post)``, ``https://… [slides]``)
_LINK_REMARK_RE = lazy(r"^\s*(?:<?https?://\S+>?\s*)+[(\[（](?P<remark>[^()\[\]（）]*)[)\]）]\s*$")


def _link_remark(text: str) -> str | None:
    """The remark in brackets after a line's link(s), or None when the line is not a link
    and a bracketed remark: such a line is a detail, its remark never the paper's summary."""
    m = _LINK_REMARK_RE.match(text) if "http" in text else None
    return m.group("remark").strip() if m else None


def _title_and_inline(node: Node, details: _Details) -> str:
    """The title as written, with the line's own URLs, identifiers and hashtags moved into
    ``details``; an author list written on the line itself (``Title — A, B``, a pasted
    reference string) is read here too."""
    line = _read_title_line(node.text)
    for url in line.urls:
        _add_url(details, url, None, hard=True)
    details.hashtags[:0] = line.hashtags
    if line.kind is not None:
        details.kind_label = details.kind_label or line.kind  # "Invited talk — ...", "Paper: ..."
    ref = line.ref
    if node.source == "table row" and not details.authors and (quoted := _quoted_then_names(node.text, details)):
        return quoted
    cites = _citations_in(node.text) if node.source == "table row" and not details.authors else ()
    if len(cites) == 1 and _JOINS_ANOTHER_RE.match(strip_urls(strip_markup(node.text)), cites[0].end):
        cites = ()  # | Temperature Scaling (Keller et al.) + Top-2 Gating |: two works read together, no one title
    if cites:
        # a title cell that cites (``PPO crash course (Schulman et al. 2017) — skim``, ``LLM.int8
        # (Dettmers et al.) + GPTQ (Frantar et al.)``) in a table with no author column: read
        # by its citations, each a paper's, not as one reference string
        ref = None
        if len(cites) == 1 and not line.urls and line.title:
            return _take_cell_citation(details, cites[0], strip_urls(strip_markup(node.text)), line.title)
    if ref is not None and details.authors and ref.authors and not _share_a_name(details.authors, ref.authors):
        # the labelled authors below name none of the people the line's split found: the
        # split was wrong, and the line is a title (``… Network Training by Reducing Internal
        # Covariate Shift`` above ``Author  Sergey Ioffe``)
        ref = None
    if ref is not None and not details.title and not details.authors and _remark_after_named_citation(node.text, ref.title):
        return ""  # (the short name is the paper's, the citation its authors, the rest a remark: no title is written)
    if ref is not None and not details.title:
        if not details.authors:
            details.authors, details.incomplete = list(ref.authors), ref.incomplete
        if ref.venue or ref.year:
            details.venue = (ref.venue or details.venue[0], ref.year or details.venue[1])
        details.hard = True
        details.rule = f"authors on the title line ({ref.rule})"
        details.model = ref.model
        if ref.pasted:
            details.reference = REFERENCE_NUMBER_RE.sub("", ref.source)  # ("[7] " is not part of it)
            details.published = dict(ref.published)
        return ref.title
    if line.id_rule:
        details.rule = details.rule or line.id_rule
    if not line.title:
        return details.title or ""
    if line.venue is not None:
        details.venue = line.venue  # "Title (ICML 2026)"
    return details.title or line.title


#: a short name, then its citation in brackets, opening a line (``KTO (Ethayarajh et al. 2024) …``)
_NAMED_CITATION_START_RE = lazy(r"^\s*[A-Z][\w\-]{1,20}\s*[(（][^()（）]{2,80}?(?:et\s+al\.?|&|\b(?:19|20)\d\d)[^()（）]{0,20}[)）]\s*")


def _remark_after_named_citation(text: str, title: str | None) -> bool:
    """The words after ``KTO (Ethayarajh et al. 2024)`` are a remark on the paper so named
    (``only needs binary … labels, no pairs``) when they are not written as a title: lower
    case first and not in title case."""
    if not title or title[:1].isupper() or title_case(title):
        return False
    m = _NAMED_CITATION_START_RE.match(text)
    return m is not None and text[m.end():].lstrip().startswith(title[:20])


#: what only a sentence written to someone holds: a sentence ending inside the text, a
#: speaker or an addressee (``I'd read …``, ``has anyone looked at …``, ``if you want …``)
_MESSAGE_SENTENCE_END_RE = lazy(r"(?<![\w.])(?P<word>[\w.]*[a-z0-9)])[.?!](?=\s+\S)")  # (from a word's start only: linear on long runs of letters)
#: words a full stop abbreviates rather than ends a sentence after (``et al. 2022``, ``sec. 5``)
_ABBREVIATIONS = frozenset("al vs cf sec fig eq p pp no ed eds vol e.g i.e approx".split())


def _is_message_prose(text: str) -> bool:
    """The words beside a link are a message, never a title: not written in title case,
    and they end a sentence inside them or speak to someone or as someone (a title names a
    work; it says neither "I" nor "you" unless written in title case as a title)."""
    text = strip_markup(text).strip()
    if title_case(text) or len(text.split()) < 4:
        return False
    if SPEAKER_WORD_RE.search(text) is not None:
        return True
    return any(m.group("word").lower() not in _ABBREVIATIONS for m in _MESSAGE_SENTENCE_END_RE.finditer(text))


def _code_linked_in_remark(text: str, title: str) -> bool:
    """Every code link of the line is a Markdown link written after the title's sentence has
    ended (``Karras et al. 2022 “Title”. preconditioning + … impl in [k-diffusion](https://github.com/…)``):
    a remark pointing at an implementation of the paper, not the reference's own link (a
    reference to software gives its repository as its address: ``PEFT: … https://github.com/…``)."""
    at = text.find(title)
    if at < 0:
        return False
    end = at + len(title)
    stop = _MESSAGE_SENTENCE_END_RE.search(text, end)
    code = [(start, url) for start, url in markdown_link_places(text) if classify_url(url) == "code"]
    return bool(code) and stop is not None and all(start > stop.start() for start, _url in code) \
        and not any(classify_url(u) == "code" for u in find_urls(_MD_LINK_STRIP_RE.sub(" ", text)))


_MD_LINK_STRIP_RE = lazy(r"\[[^\]]*\]\([^)]*\)")


def _only_its_label(node: Node, title: str) -> bool:
    """The title read off a ``URL: …`` or ``arXiv: …`` line is only its label: a link or an
    identifier whose title line was left behind (across a blank line, under a list heading)."""
    label = node.label
    return label is not None and label.field in ("url", "pin") and title.strip(" *_:：").lower() == label.name


def _share_a_name(some: list[str], others: list[str]) -> bool:
    """Some word of a name in ``some`` is a word of a name in ``others`` (initials aside)."""
    words = {w for raw in some for w in name_tokens(raw) if len(w) > 1}
    return any(w in words for raw in others for w in name_tokens(raw) if len(w) > 1)


class _TitleLine(NamedTuple):
    """What a title line says on its own, whatever lies below it (so it is read once per
    distinct text); :func:`_title_and_inline` weighs it against the details below.
    (A named tuple: immutable like the remembered answer it is, and quick to make.)"""

    urls: tuple[str, ...]  # links, bare URLs, then identifiers written as text, in order
    hashtags: tuple[str, ...]
    kind: str | None  # a leading kind word: "invited talk", "paper"
    ref: Reference | None  # the line read as a reference string (title and authors)
    id_rule: str  # "arxiv identifier in the text" when one is written, for --explain
    title: str  # the title when the line is not taken as a reference string
    venue: tuple[str | None, int | None] | None  # "(ICML 2026)" after that title


#: a wiki link's page name opening a line, names right after it (``[[Toy Models of
#: Superposition]] Elhage et al. 2022``): the page is the paper's title, closed by the brackets
_WIKI_TITLE_LEAD_RE = lazy(r"^\[\[(?P<title>[^\[\]|]{8,300})\]\]\s+(?=[A-Z])")


def _wiki_title_quoted(text: str) -> str:
    """A line opening with a wiki link to a page named as a title, then its authors'
    citation, with the page name in quotes: its brackets end the title as quotes would."""
    m = _WIKI_TITLE_LEAD_RE.match(text) if text.startswith("[[") else None
    if m is None or not looks_like_title(m.group("title")) or not find_citations(text[m.end():]) \
            or find_citations(text[m.end():])[0].start != 0:
        return text
    return f"“{m.group('title')}” {text[m.end():]}"


@per_text
def _read_title_line(text: str) -> _TitleLine:
    own = parse_label(text)
    if own is not None and own.field == "title":
        text = unquote_title(own.value)  # 论文: 《Title》
    text = _wiki_title_quoted(text)
    text = strip_to_read(_without_task_marker(strip_decorations(text)))  # before links become their text: "Read [Title](url)"
    if "zotero://" in text:
        text = without_zotero_links(text)
    urls = [url for _label, url in markdown_links(text)] + find_urls.shared(_without_markdown_links(text))
    tags = tuple(hashtags.shared(text))
    title = strip_hashtags(strip_urls(_GENERIC_LINK_RE.sub(" ", text) if "](" in text else text))
    title = strip_to_read(_without_task_marker(title))
    kind = kind_prefix(title)
    if kind is not None:
        title = kind[1]
    text_ids = find_text_ids.shared(title)  # (only read)
    urls += [t.url for t in text_ids]
    title = title.strip().rstrip(" -–—:|").strip()
    ref = parse_reference.shared(title) if title else None  # (never changed: its authors are copied where kept)
    id_rule = ""
    if text_ids:
        id_rule = f"{text_ids[0].scheme} identifier in the text"
        rest = without_text_ids(title, text_ids).strip(" -–—:|,;()[]")
        # "Title arXiv:2401.00001": a title before a trailing id; anything else is a remark
        trailing = text_ids[0].start > 0 and not title[text_ids[-1].end:].strip(" .)]")
        title = rest if trailing and looks_like_title(rest) else ""
    title, venue = _title_venue(title) if title else (title, None)
    return _TitleLine(tuple(urls), tags, kind[0] if kind else None, ref, id_rule, title, venue)


_VENUE_IN_PARENS_END_RE = lazy(r"[(（]\s*[A-Za-z]+\s*['’]?\s*\d{2,4}\s*[)）]\s*$")
_PARENS_END_RE = lazy(r"\s*[(（][^()（）]*[)）]\s*$")


def _title_venue(title: str) -> tuple[str, tuple[str | None, int | None] | None]:
    """The title without emphasis, quotes and a trailing ``(ICML 2026)``, and that venue."""
    if len(title) > 4 and title[:2] == title[-2:] and title[:2] in ("**", "__"):
        title = title[2:-2].strip()
    title = unquote_title(strip_markup(title)) if _has_markup(title) else title
    venue, year = from_text(title)
    if venue and _VENUE_IN_PARENS_END_RE.search(title):
        return _PARENS_END_RE.sub("", title), (venue, year)
    return title, None


#: ``[arXiv](https://...)``, ``[pdf](...)``: a link whose label only names the kind of page.
_GENERIC_LINK_RE = lazy(
    r"\[(?:arxiv|pdf|paper|link|code|github|openreview|doi|project(?: page)?|slides|video|poster|html|abs|here|\d{1,3}|論文|リンク|コード)\]\(https?://[^)\s]+\)",
    re.I,
)
_TASK_MARKER_RE = lazy(r"^(?:\[[ xX\-/]\]\s+)?(?:(?:TODO|DONE|LATER|NOW|DOING|WAITING|WAIT|CANCELED|CANCELLED|IN-PROGRESS)\s+)?")
#: the characters a task box or keyword starts with (the pattern is case-sensitive)
_TASK_MARKER_FIRST = frozenset("[TDLNWCI")


def _without_task_marker(text: str) -> str:
    """``text`` without a leading task box or keyword (``[ ] TODO``); the pattern is
    anchored, so one match at the start replaces a substitution that tries every position."""
    if text[:1] not in _TASK_MARKER_FIRST:
        return text  # (the pattern matches nothing but the empty start)
    end = _TASK_MARKER_RE.match(text).end()  # type: ignore[union-attr]  (every part is optional: it always matches)
    return text[end:] if end else text


_HAS_MARKUP_RE = re.compile(r"\*|_|~~|==|`|\[\[|\]\(|^[\"“„«]")


def _has_markup(title: str) -> bool:
    """``_HAS_MARKUP_RE.search(title)`` as substring tests (the pattern tries each branch
    at every position)."""
    return ("*" in title or "_" in title or "~~" in title or "==" in title or "`" in title or "[[" in title
            or "](" in title or title[:1] in ("\"", "“", "„", "«"))


def _without_markdown_links(text: str) -> str:
    """``text`` with Markdown links removed (their URLs are read separately)."""
    return replace_markdown_links(text, lambda _m: " ") if "](" in text else text  # (one pass: a line of "[" is not read from each)


#: a line that opens on a few words and a colon (``Last edited time: …``): a property
_PROPERTY_RE = lazy(r"^[^\W\d_][\w ]{0,30}[:：]\s")


def _first_line(node: Node) -> str:
    """The first line of a root's text, before the lines joined to it (a post's author line,
    then ``Show more``, ``Image``, … copied below it with no blank line)."""
    return node.text[:node.widths[0]] if node.merged and node.widths else node.text


def _families_listed(text: str) -> tuple[list[str], bool] | None:
    """``Muennighoff, Yang, Shi, Li, …``: a line of family names alone, as a post lists a
    paper's authors (the list is whole: no ``et al.``)."""
    names = comma_families(text)
    return (names, False) if names else None


def _without_cut_page_names(mentions: list[Mention], related: list[Mention]) -> list[Mention]:
    """``mentions`` without a relation property's page name that is only the start of a
    title the file writes whole elsewhere (``… Serving with PagedAtt`` beside ``… Serving
    with PagedAttention``): an export cuts long names short, and the cut name would stand
    as a title of its own that no record has."""
    cut = {id(m) for m in related
           if m.title and any(o.title and len(o.title) > len(m.title) and o.title.startswith(m.title) for o in mentions)}
    return [m for m in mentions if id(m) not in cut] if cut else mentions


#: a family name (two joined, or with ``et al.``) or a venue's short name, then a year, and
#: nothing else: a citation, never a title (``Peng et al. 2023``, ``Bai et al. 2022``, ``JMLR 2020``)
_CITATION_ONLY_RE = lazy(r"[A-Z][\w'’\-]+(?:\s+(?:&|and)\s+[A-Z][\w'’\-]+|\s+et\s+al\.?)?,?\s+\(?(?:19|20)\d\d[a-z]?\)?[.,]?")


#: a quote mark or a bracket: a line that holds one says more than a title alone
_QUOTE_OR_BRACKET_RE = lazy("[\"“”„«»《》『』「」(（]")


class _Extractor:
    """Walks one file's outline, keeping the section/venue scope, collecting mentions."""

    def __init__(self, file: str) -> None:
        self.scope = _Scope(file)
        self.file = file
        self.problems: list[Problem] = []
        self.trace: list[Decision] = []
        self.explaining = False  # keep a Decision per line (only --explain needs them)
        #: lines read whole as a reference to something that is not a paper (software, a
        #: post, documentation): the quoted title in them is not looked for again as a citation
        self.not_papers: set[int] = set()
        self.file_tags: list[str] = []
        self.bibtex: list = []
        self.skipped: list[tuple[int, str]] = []
        #: an exported file's transcript (Slack, Notion): its lines are mapped back at the end
        self.transcript: Transcript | None = None
        #: the people the parent bullets being visited name ("• Egor Shulgin (KAUST)")
        self.parent_people: list[str] = []
        #: the mentions a relation property's page names gave (``Papers: Title (Title%20<id>.md)``)
        self.related: list[Mention] = []

    def run(self, roots: list[Node]) -> list[Mention]:
        mentions: list[Mention] = []
        for i, node in enumerate(roots):
            found = self._root(node, roots[i + 1] if i + 1 < len(roots) else None, roots[i + 2] if i + 2 < len(roots) else None)
            if node.kind == "heading" and not any(m.location.line == node.line for m in found):
                found = self._annotated_item(node, _section_under(roots, i)) + found
            mentions.extend(found)
        mentions = _without_cut_page_names(mentions, self.related)
        mentions.sort(key=lambda m: m.location.line)
        return mentions

    def _root(self, node: Node, after: Node | None = None, later: Node | None = None) -> list[Mention]:
        """Mentions of one root line; ``after`` is the root that follows it (an announced
        title's author line, a paragraph of its own in a copied post), ``later`` the one after
        that (the author line below the post's text)."""
        if node.kind == "heading":
            if node.children or _is_paper_heading(node.text):
                found = self._visit(node)
                if found:
                    return found
            self.scope.enter_heading(node.level, strip_hashtags(node.text))
            # papers the heading cites (``*** TODO GAN baseline (Goodfellow et al. 2014, "Generative
            # Adversarial Nets")``): an org agenda's items are headings
            return self._inline(node, heading=True)
        if (not node.children and node.kind in ("plain", "bullet") and (title := announced_title(node.text)) is not None
                and not names_a_paper(node.text)):
            # ``🚨 New paper: Tree of Thoughts: …`` alone on its line: the post says the words are a paper's title
            details = _Details(hard=True, rule="a post's announcement before the title it announces")
            if after is not None and after.kind == "plain" and not after.children and (listed := names_line(after.text)):
                # ``🚨 New paper: Title`` / (blank) / ``Albert Gu, Tri Dao``: the post's next line names its authors
                details.authors, details.incomplete = listed[0], listed[1]
            elif (after is not None and after.kind == "plain" and not after.children and not names_a_paper(after.text)
                  and later is not None and later.kind == "plain" and not later.children
                  and (listed := names_line(_first_line(later)) or _families_listed(_first_line(later)))):
                # ``🚨 New paper: Title`` / a paragraph of what it does / ``Muennighoff, Yang, …``: the
                # post's text, then its authors
                details.authors, details.incomplete = listed[0], listed[1]
            return [self._mention("titled", node, details, title=title)]
        if node.kind != "heading" and "%20" in node.text and (related := related_page_items(node.text)):
            return self._related_titles(node, related)
        if node.kind == "bullet" or _is_link_line(node.text) or _is_titled_link_line(node.text) or names_a_paper(node.text):
            return self._visit(node)
        if node.children:
            return self._labelled_block(node)
        if looks_like_abstract(node.text):
            return [self._abstract(node)]
        if looks_like_section_label(node.text):
            # a short line that cites a paper by author and year (a chat message: ``Also
            # Shampoo (Gupta, Koren & Singer) since …``) says something, it names no section
            cited = self._cited(node, []) if node.kind == "plain" else []
            if cited:  # (and the title it cites, quoted before it: ``原文《Title》(Okafor 等, 2021) 读过了``)
                return self._inline(node) or cited
            self.scope.enter_label(node.text)
            return []
        unsure = self._unsure_reference(node)
        return [unsure] if unsure is not None else self._inline(node)

    def _related_titles(self, node: Node, items: list[tuple[str, str]]) -> list[Mention]:
        """The papers a page's relation property names (``Related papers: Title (Title%20<id>.md),
        …``): each item is another page of the export, named by its title; an item named as a
        title (four words or more, in title case) is that paper where the label or the page's
        database says the pages are papers (``Sessions: Reading Group Week 12 Scaling Laws …``
        relates a meeting page), a short name alone (``GCN``) is not enough to tell which
        paper it is."""
        out = []
        for name, path in items:
            words = name.split()
            if not relation_names_papers(node.text, path):
                if self.explaining:
                    self.trace.append(Decision(node.line, "rejected", "a relation property whose label and page database name no papers", name))
                continue
            if len(words) >= 4 and title_case(name) and looks_like_title(name) and not non_paper_words(name):
                details = _Details(hard=True, rule="a page's relation property naming the related page by its title")
                out.append(self._mention("titled", node, details, title=name))
        self.related.extend(out)
        return out

    def _unsure_reference(self, node: Node) -> Mention | None:
        """A line of a reference list (its number says so, or the finder that it starts a
        reference) that reads as a reference string but whose title the parser is not sure
        of: a mention with no title that keeps the string, for an online sync to look up
        whole (``query.bibliographic``) and accept only a record whose own title and first
        author the string holds. Never a title guessed here."""
        said = node.found.get(node.line)
        if node.kind != "plain" or node.children or node.label is not None or _PROPERTY_RE.match(node.text):
            return None  # (a ``Key: value`` line: a property, not a reference)
        if not (REFERENCE_NUMBER_RE.match(node.text) or said and said[0] == "ref" and said[1] >= SURE_CONTINUES):
            return None
        if kind_prefix(node.text) is not None or non_paper_words(node.text) or find_urls.shared(node.text):
            return None  # (software, a blog post, a web page: what a title-less string cannot rule out online)
        if len(_citations_in(node.text)) > 1:
            return None  # (two author-year citations: a sentence that cites papers, each read as a citation)
        ref = unsure_reference(node.text)
        if ref is None or not ref.authors and ref.year is None:
            return None  # (no author and no year read: a line of prose, nothing an online sync could confirm)
        details = _Details(authors=list(ref.authors), incomplete=ref.incomplete, hard=True, venue=(None, ref.year),
                           reference=ref.reference,
                           rule="a pasted reference whose title the parser is not sure of (looked up whole online)")
        mention = self._mention("cited", node, details)
        if self.explaining:
            self.trace[-1].text = ref.reference
        return mention

    def _annotated_item(self, node: Node, section: list[Node]) -> list[Mention]:
        """The paper a heading names when the section under it is a Zotero note's
        annotations of one item (``## Title`` over ``“…” ([Family et al., 2022, p. 1](zotero://select/…/ITEM))``):
        the heading is that item's title, its authors and year the annotations' citation.
        Nothing when the annotations cite several items or the heading is no title."""
        title = _annotated_item_title(node, section)
        if title is None:
            return []
        cite = next((c for n in section for link in _ZOTERO_ITEM_RE.finditer(n.text)
                     for c in _citations_in(n.text[n.text.rfind("[", 0, link.start()):link.start() + 1])), None)
        if cite is None:
            return []
        details = _Details(authors=list(cite.authors), incomplete=cite.incomplete, hard=True,
                           venue=(None, cite.year),
                           rule="a heading over a Zotero note's annotations of one item (its title)")
        return [self._mention("titled", node, details, title=title)]

    def _inline(self, node: Node, *, heading: bool = False) -> list[Mention]:
        """Papers cited inside a line of prose that is not a paper itself (a quoted title
        with its authors in a chat message or a remark, an author-year citation). Identifiers
        and links on the line are not given to them: which of the cited papers they belong
        to is not written."""
        if kind_prefix(node.text) is not None:
            return []
        found = []
        if (heading or not node.children) and (may_cite_inline(node.text) or "‘" in node.text):
            text = without_zotero_links(node.text) if "zotero://" in node.text else node.text
            for ref in inline_references(strip_hashtags(strip_urls(text))):
                if (said := _kind_after_title(node.text, ref.title)) is not None:
                    self._reject(node, f"a quoted title the line calls a {said}, not a paper", ref.title)
                    continue
                details = _Details(authors=list(ref.authors), incomplete=ref.incomplete, hard=True, model=ref.model,
                                   venue=(ref.venue, ref.year), rule=f"a quoted title cited in a sentence ({ref.rule})")
                found.append(self._mention("titled", node, details, title=ref.title))
            found += self._quoted_titles(node, found)
        if not node.children and "://" in node.text:
            found += self._bracketed_linked_titles(node, found)
        if "paper" in node.text and not node.children:
            found += self._titles_after_paper(node, found)
        return found + self._cited(node, found)

    def _titles_after_paper(self, node: Node, found: list[Mention]) -> list[Mention]:
        """A title in brackets right after the word "paper" (``ConvNeXt paper (A ConvNet for
        the 2020s) argues …``): the writer names the paper, then gives its title. Only a
        title written as one (title case, three words or more, no citation or year inside)."""
        have = {normalize_title(m.title) for m in found if m.title}
        out = []
        for m in _PAPER_THEN_TITLE_RE.finditer(strip_urls(node.text)):
            title = m.group("t").strip()
            if (len(title.split()) < 3 or not title_case(title) or not looks_like_title(title) or non_paper_words(title)
                    or _citations_in(title) or normalize_title(title) in have
                    or split_name_list(title, single_word=True, min_names=2) is not None
                    or _YEAR_OR_QUOTE_RE.search(title)):
                continue  # (``ViT+SAM paper (Chen, Hsieh, Gong)``: its authors; a year or a quote: a citation, read as one)
            details = _Details(hard=True, rule="a title in brackets after the word 'paper'")
            out.append(self._mention("titled", node, details, title=title))
        return out

    def _bracketed_linked_titles(self, node: Node, found: list[Mention]) -> list[Mention]:
        """A title written in brackets with its link after a comma, in a sentence (``the
        original routing paper (Sparse Gating for Cheap Experts, https://t.co/…) had …``):
        the bracket names a work and where to read it; its words are a title when written as
        one (four words or more, in title case) and the line names no blog, book or talk."""
        if _BOOK_RE.search(_LINKED_TITLE_RE.sub(" ", node.text)):
            return []
        have = {normalize_title(m.title) for m in found if m.title}
        out = []
        for m in _LINKED_TITLE_RE.finditer(node.text):
            title = m.group("t").strip()
            words = title.split()
            if not 4 <= len(words) <= 30 or not title_case(title) or not words[-1][:1].isupper() or normalize_title(title) in have:
                continue
            details = _Details(hard=True, rule="a title in brackets with its link, in a sentence")
            _add_url(details, m.group("u"), None, hard=True)
            out.append(self._mention("titled", node, details, title=title))
        return out

    def _inline_besides(self, node: Node, own: Mention) -> list[Mention]:
        """The papers a line cites inside its prose besides ``own``, the paper its link is:
        a citation that names only ``own``'s authors is that paper's, not a second one (the
        title quoted with it, ``(Azar et al 2023, arXiv 2310.12036 "A General …")``, is the
        link's; a phrase quoted beside a link that has its title is no second paper)."""
        known = set().union(*_name_words(own.authors))
        out = []
        for m in self._inline(node):
            if not (known and m.authors and {a.split()[-1].lower() for a in m.authors} <= known):
                out.append(m)
            elif m.title and own.title is None and title_case(m.title):
                own.title, own.kind = m.title, "titled"
        return out

    def _quoted_titles(self, node: Node, found: list[Mention]) -> list[Mention]:
        """Titles quoted in a sentence with no authors beside them (``can we add "Symbolic
        Discovery of Optimization Algorithms" to that list?``): a quoted span of four words
        or more written in title case, on a line that names no blog, book, talk or repository.
        A title may ask a question (``"Are Emergent Abilities of Large Language Models a
        Mirage?"``); one that ends a sentence (``.``, ``!``) is a quotation."""
        # (what the line says outside its quotes: a title's own words, "… from Multi-Head
        # Checkpoints", do not make the line name a model's weights or a book)
        outside = _outside_quotes(node.text)
        kind_said = _BOOK_RE.search(outside) is not None
        have = {normalize_title(m.title) for m in found if m.title}
        out = []
        text = strip_urls(node.text)
        for m in _quoted_spans(text):
            if kind_said:
                # a kind word speaks of what its sentence or an earlier one names: a sentence
                # before the quote's that says "there is no Nesterov paper" or cites a lecture
                # leaves a title quoted after it a paper; "… Great book." after it does not
                outside = _outside_quotes(text[_sentence_start(text, m.start()):])
                if _BOOK_RE.search(outside):
                    continue
            title = m.group("q").strip().rstrip(",")
            words = title.split()
            if not _CJK_TITLE_MARKS.get(m.group(0)[:1], 4) <= len(words) <= 30 or title[-1:] in ".!…" or normalize_title(title) in have:
                continue
            if len(words) < 4 and not (title.isascii() and title_case(title) and has_citation_cue(text)):
                continue  # (a short title in title marks, on a line that cites: ``「Visual Instruction Tuning」 LLaVA, Liu 等``)
            if "zotero://" in node.text and _ZOTERO_CITATION_AFTER_RE.match(text, m.end()):
                continue  # a Zotero annotation's highlight: the quoted words are the paper's text, not its title
            if non_paper_words(outside) and (_non_paper_word_near(text, m) or not title[:1].isupper()):
                continue  # (a word further off speaks of something else only beside a title written as one)
            if m.re is _CURLY_SINGLE_QUOTED_RE and not title_case(title):
                continue  # (a phrase in British quotes is a title only when it is written as one)
            if (said := _kind_after_title(text, title)) is not None:
                self._reject(node, f"a quoted title the line calls a {said}, not a paper", title)
                continue
            rule = "a title quoted in a sentence, in title case"
            details = _Details(hard=True, rule=rule)
            cited_beside = _citation_beside(text, m, details)
            if not title_case(title):
                if _quoted_phrase_as_modifier(text, m) or not (cited_beside or _finder_says(node, "ref", SURE_QUOTED_TITLE)):
                    continue
                # a title in sentence case (``has anyone read “Latent retrieval for weakly
                # supervised open domain question answering”?``) on a line the finder is sure
                # cites a paper, or with its authors right beside it: the quoted span is that paper's title
                details.rule = ("a title quoted in a sentence, its authors beside it" if cited_beside else
                                "a title quoted in a sentence, on a line the finder reads as citing a paper")
            if not cited_beside and _finder_says_no_paper(node):
                # a quoted phrase with nothing beside it that names its author, on a line the
                # finder reads as no paper (``exported via (“Add Note from Annotations” → Export …)``)
                if self.explaining:
                    self.trace.append(Decision(node.line, "rejected", "a quoted phrase with no author on a line the finder reads as no paper", title))
                continue
            out.append(self._mention("titled", node, details, title=title))
        return out

    def _cited(self, node: Node, found: list[Mention]) -> list[Mention]:
        """Author-year citations on the line (``Kingma & Ba 2014``, ``(Hsieh et al., 2024)``)
        that no mention of ``found`` (the line's own) already stands for: mentions with
        authors and a year but no title, which wait for an online sync as pending."""
        if not has_citation_cue(node.text):
            return []
        cites = _citations_by_line(node)
        if not cites:
            return []
        per_line = Counter(line for line, _ in cites)
        # "The Bitter Lesson (Sutton, 2019) … an essay, not a paper": the line says what it cites is none
        cites = [c for c in cites if per_line[c[0]] > 1 or not _says_not_a_paper_after(node, c)]
        # "the Goodfellow et al. Deep Learning book": the words after the names say what it is
        cites = [c for c in cites if _KIND_AFTER_CITATION_RE.match(_text_after(node, c)) is None]
        known = [(_name_words(m.authors), _title_words(m.title), m.year) for m in found if m.authors]
        out = []
        for line, cite in cites:
            if any((_names_all_known(cite, words) or _names_all_known(_past_title(cite, title), words))
                   and not _other_year(cite, year) for words, title, year in known):
                continue  # the line's reference or quoted title already names these authors
            if _gives_authors_to_title(cite, found):
                continue  # the quoted title read already is this citation's: it takes its authors
            if _publisher_of(cite, found):
                continue
            details = _Details(authors=list(cite.authors), incomplete=cite.incomplete, hard=True, venue=(cite.venue, cite.year),
                               rule="an author-year citation (authors and year, no title)")
            title = cite.title
            if cite.title:  # ``Kwon et al. SOSP '23 (Efficient Memory Management …)``
                details.rule = "an author-year citation and the title in brackets after it"
            elif (line == node.line and cite is cites[0][1] and "zotero://select" in node.text
                  and (title := _title_after_zotero_link(node.text)) is not None):
                details.rule = "a Zotero annotation's citation and the title written after its links"
            mention = self._mention("titled" if title else "cited", node, details, title=title)
            if line != node.line:  # a line joined into the block: the citation is written there
                mention.location = Location(self.file, line)
                if self.explaining:
                    self.trace[-1].line = line
            if self.explaining:
                self.trace[-1].text = cited_as(mention)
            out.append(mention)
        return out

    def _labelled_block(self, node: Node) -> list[Mention]:
        """A plain line with lines below it: a paper title, or a section label over a list."""
        problems = len(self.problems)
        found = self._visit(node)
        if any(m.location.line == node.line for m in found) or not looks_like_section_label(node.text):
            return found
        del self.problems[problems:]  # read again below, under the right section
        self.scope.enter_label(node.text)
        return self._visit(node)

    def _visit(self, node: Node) -> list[Mention]:
        """Mentions in ``node``'s subtree: the node itself when it is a paper, else its parts."""
        split_labelled_fields(node)
        person = person_heading(node.text) if node.children else None
        if person is not None:
            self.parent_people.append(person)
        try:
            return self._visit_node(node)
        finally:
            if person is not None:
                self.parent_people.pop()

    def _visit_node(self, node: Node) -> list[Mention]:
        inner: list[Mention] = []
        container = False
        remarks: list[Node] = []
        prose: list[Node] = []  # plain lines between the items, not read as items
        for child in node.children:
            if child.is_detail:
                continue  # (read with the details of ``node``; nothing below it is visited)
            if ";" in child.text and not child.children and _names_no_title(node.text) and _title_then_names(strip_hashtags(child.text)):
                continue  # (the bare link's title and authors: read with its details)
            if _is_remark_under_paper(node, child):
                remarks.append(child)  # read once ``node`` itself is known to be a paper
                continue
            stands_alone = not child.children and child.kind == "plain" and names_a_paper(child.text)
            visited = child.children or child.kind != "plain" or is_url_only(child.text) or stands_alone
            found = self._visit(child) if visited else []
            if not visited:
                prose.append(child)
            if any((child.children or stands_alone) and m.location.line == child.line for m in found):
                container = True  # a child is a paper with its own details, or a whole paper line
            elif (child.kind == "bullet" and not child.children and names_a_paper(child.text)
                  and any(m.location.line == child.line and m.kind == "titled" for m in found)):
                container = True  # a sub-item that is a whole reference (``- n-gram metrics:`` / ``  - Papineni, K., … (2002). BLEU: …``)
            inner.extend(found)
        if container or _lists_links(node):
            # (a comment written between the items of a list of papers, ``[JH] the QLoRA paper
            # (Dettmers et al. 2023) is about …``: the papers its prose cites are its own)
            cited = [m for child in prose if has_citation_cue(child.text) for m in self._cited(child, [])]
            return inner + cited + self._visit_remarks(remarks, None)
        own = self._as_mention(node)
        if (own is not None and own.kind == "titled" and node.source == "table row" and not own.authors
                and not own.urls and not own.pins and len(_citations_in(node.text)) > 1):
            # | Kaplan et al. 2020 + Chinchilla (Hoffmann et al. 2022) back to back |: each citation is a paper, the cell none
            if self.explaining:
                self.trace.pop()
            return [*self._cited(node, []), *self._visit_remarks(remarks, None)]
        if own is not None:
            # other papers the line cites by author and year; none when the line's own paper
            # names no authors (a citation there may well be that paper's: not a second one)
            # (a line that quotes several titles, its own the last, cites the others by name)
            if own.kind == "url" and (each := _one_per_paper(own, node.text)):
                return [*each, *self._visit_remarks(remarks, None)]
            if own.kind == "url" and own.title is None and _take_quoted_title_beside_id(own, node.text):
                apart = False  # ``Gu & Dao, "Mamba: …", arxiv 2312.00752``: the quoted title is the identifier's
            elif own.kind == "url" and own.authors and own.title is None:
                # authors read from the line's own citation: the title quoted before its
                # identifier's brackets is still the paper's (the brackets say whose it is)
                _take_bracketed_citation(own, node.text, keep_authors=True)
                apart = False
            else:
                apart = own.kind == "url" and not own.authors and (_take_bracketed_citation(own, node.text)
                                                                    or _remark_citing_titled_work(node.text))
            if own.kind == "url" and not own.authors and not apart:
                _take_citation_before_id(own, node.text)
            several = own.title is not None and len(_INNER_QUOTED_RE.findall(node.text)) > 1
            if apart:  # (the identifier is another name's: the line's titles and citations are other papers)
                return [own, *self._inline(node), *self._visit_remarks(remarks, own)]
            if own.kind == "url" and own.title is None and _is_message_prose(strip_urls(node.text)):
                # a message holding a link (``I'd read the GQA paper <link> and Xiong et al. 2020 …``):
                # the link is one paper, what else the message cites is read as in any sentence
                return [own, *self._inline_besides(node, own), *self._visit_remarks(remarks, own)]
            # (a table row's title cell may cite other papers beside the one its link is)
            cited = self._cited(node, [own]) if own.authors or several or node.source == "table row" else []
            _give_link_to_its_citation(own, cited, node.text)
            named = self._link_of_another_name(node, own)
            return [own, *cited, *named, *self._listed_titles(node, own), *self._visit_remarks(remarks, own),
                    *self._labelled_notes(node, own)]
        inner += self._visit_remarks(remarks, None)
        return inner or ([] if node.line in self.not_papers else self._inline(node))

    def _link_of_another_name(self, node: Node, own: Mention) -> list[Mention]:
        """A titled line's one identifier, alone in brackets right after another name
        (``… "Accelerating …" (Chen et al., 2023) — cite both. Medusa (arXiv 2401.10774)
        drops the draft model``): the brackets say the identifier is that name's paper, not
        the title's. The link leaves the title for a mention of its own."""
        if own.kind != "titled" or not own.title or len(own.urls) != 1 or own.pins.arxiv or own.pins.doi:
            return []
        value = own.ids.arxiv or own.ids.doi
        at = node.text.find(value) if value else -1
        if at < 0 or node.text.find(value, at + 1) >= 0:
            return []
        inside = _bracket_holding(node.text, at, at + len(value))
        opened = max(node.text.rfind(b, 0, at) for b in _BRACKETS_AROUND)
        if inside is None or opened <= 0 or not _ID_ONLY_RE.match(_ID_WORDS_RE.sub(" ", inside)):
            return []
        name = _NAME_BEFORE_BRACKET_RE.search(node.text, 0, opened)
        if name is None or name.group().strip().lower() in own.title.lower():
            return []
        details = _Details(hard=True, rule="an identifier alone in brackets after another name than the title")
        details.urls = list(own.urls)
        own.urls, own.ids = [], Ids()
        return [self._mention("url", node, details)]

    def _listed_titles(self, node: Node, own: Mention) -> list[Mention]:
        """Whole titles the line's sentence lists beside the paper its identifier is (``… CoT
        (Wei et al. 2022, arXiv 2201.11903), Toolformer: Language Models Can Teach Themselves
        to Use Tools, and …``): each another paper, named by its title alone."""
        if ": " not in node.text or node.children:
            return []
        out = []
        for ref in listed_named_titles(strip_urls(node.text)):
            if own.title and (ref.title in own.title or own.title in ref.title):
                continue
            details = _Details(hard=True, rule=f"a title {ref.rule}")
            out.append(self._mention("titled", node, details, title=ref.title))
        return out

    def _visit_remarks(self, remarks: list[Node], own: Mention | None) -> list[Mention]:
        """Papers the remarks under a paper's labelled details cite (a Zotero item's notes:
        ``Pair it with the AMSGrad counterexample (Reddi, Kale & Kumar, ICLR'18)``). They are
        the item's notes, never a list the item heads, so the item stays a paper of its own;
        a remark that is a whole reference or an identifier is read as one, any other for the
        titles and author-year citations in its prose, none of them the item's own paper."""
        out: list[Mention] = []
        for remark in remarks:
            if own is None:
                # (no paper above: a remark is read as any line under a title is)
                if not (names_a_paper(remark.text) or is_url_only(remark.text)):
                    continue
                found = self._visit(remark)
            elif is_url_only(remark.text):
                continue  # (the paper's own link, read with its details)
            elif names_a_paper(remark.text):
                found = self._visit(remark)
            else:
                found = self._inline(remark)
            out.extend(m for m in found if own is None or not _same_paper(m, own))
        return out

    def _labelled_notes(self, node: Node, own: Mention) -> list[Mention]:
        """Papers a paper's labelled note names (``笔记: … 后续的 FlashAttention-2 (Dao 2023,
        2307.08691) …``, ``Notes: … see Okafor et al. 2021``): the note is the paper's summary,
        and what it cites besides the paper itself are other papers, read as in any remark; an
        identifier in it is a paper of its own, with the citation in its brackets."""
        out: list[Mention] = []
        for child in node.children:
            label = child.label
            if label is None or label.field != "summary" or not label.value or child.children:
                continue
            note = Node("plain", child.line, label.value)
            found = self._inline(note)
            ids = find_text_ids(note.text)
            if len(ids) == 1 and not any(m.urls for m in found) and not (own.ids.arxiv or own.ids.doi or own.pins.arxiv) in (ids[0].value,):
                details = _Details(rule="an identifier in a paper's labelled note")
                _add_url(details, ids[0].url, None, hard=True)
                by_id = self._mention("url", note, details)
                _take_bracketed_citation(by_id, note.text)
                found = [m for m in found if not (m.kind == "cited" and m.authors == by_id.authors)] + [by_id]
            out.extend(m for m in found if not _same_paper(m, own))
        return out

    def _as_mention(self, node: Node) -> Mention | None:
        if self.explaining:
            for line in node.merged:
                said = node.found.get(line)
                why = (f"continues line {node.line} (the finder: {said[0]} {said[1]:.2f})" if said else
                       f"continues line {node.line} (no bullet or blank line before it, and it does not name a paper on its own)")
                self.trace.append(Decision(line, "merged", why, "", finder=said))
        details = _read_children(node, self.file, self.problems)
        title = _arrowed_page(node.text) or _named_title(_quoted_part(_title_and_inline(node, details)))
        if title and _only_its_label(node, title):
            title = None  # (``- URL: https://…`` on its own: the link stands alone, its label is no title)
        if title and details.urls and not details.authors and _is_message_prose(title):
            title = None  # (a chat message or remark holding a link: the link is the paper, the words a message)
        if title and not details.authors:
            _authors_beside_quote(node.text, title, details)
        if title and not details.authors and details.urls and _remark_citing_titled_work(title):
            title = None  # (the remark's words are no title: the link below stands alone, the cited paper apart)
        if details.talk:
            return self._reject(node, "a talk, tutorial or keynote page is linked")
        if details.kind_label and details.kind_label not in _PAPER_KINDS:
            kinds = sorted(details.link_kinds - {"other"})
            links = f"; links a {' and a '.join(kinds)} page" if kinds else ""
            return self._reject(node, f"marked as {details.kind_label!r} (a type label or a leading kind word), not a paper{links}")
        if not title:
            return self._url_mention(node, details)
        if details.said_not_paper:
            return self._reject(node, f"a line below says it is not a paper ({details.said_not_paper!r})", title)
        if self.scope.says_no_papers and not details.urls and not details.pins:
            # the writer's own word: the section lists what is not a paper; a line there that
            # links a paper page or gives an identifier is a paper all the same
            return self._reject(node, "under a heading or label that says its items are not papers", title)
        if node.source and not details.hard and looks_like_title(title) and title[:1] not in "([{":
            word = non_paper_words(title) or next((w for c in node.children if c.label is None and (w := non_paper_words(c.text))), None)
            if word:  # | Implicit Neural Representations | | just a blog |
                return self._reject(node, f"a {node.source} that names a {word}, not a paper", title)
            details.hard = True  # a row of a table whose header names a title column
            details.rule = f"{node.source} under a title column"
        if not details.hard and not _QUOTE_OR_BRACKET_RE.search(node.text) and (named := named_title_before_remark(title)) is not None:
            # ``- Sparse Gating: Routing Tokens to Cheap Experts at Scale`` alone on its line (a
            # remark after a dash aside): a coined name and a subtitle in title case are a
            # paper's own title, as in a sentence (a title quoted, or beside brackets, is read
            # with the citation around it)
            title = named
            details.hard = True
            details.rule = "a name, a colon and a title in title case"
        if not details.hard and is_person_line(title):
            return self._reject(node, "a person and an affiliation, not a title", title)
        if not details.hard:
            if not details.soft:
                kinds = sorted(details.link_kinds - {"other"}) or (["slides"] if "slides" in details.links else [])
                why = f"links a {' and a '.join(kinds)} page, not a paper; " if kinds else ""
                if looks_like_event(title):
                    why = "a meal, chat, social, session or day heading; " + why
                return self._reject(node, why + "no author list, paper link, identifier or labelled details", title)
            if not looks_like_title(title):
                return self._reject(node, "reads as a person, an event or a remark, not a title", title)
            if details.speaker or non_paper_words(title):
                return self._reject(node, f"names a {non_paper_words(title) or 'talk'}, not a paper", title)
            if details.soft_sources == {"code"} and len(title.split()) < 4 and ":" not in title:
                return self._reject(node, "a short name with only a code or project link: software, not a paper", title)
            if details.soft_sources == {"code"} and not details.urls and _reads_as_sentences(title):
                # ``Jia ran it with TRL's DPOTrainer ([github…]) … Had to use QLoRA (Dettmers et al., 2023) …``:
                # a remark on the code it links; the papers it cites are read as in any sentence
                return self._reject(node, "sentences of a remark with only a code link, not a title", title)
        elif not details.authors and not details.pins and not any(classify_url(u) == "paper" for u in details.urls) and non_paper_words(title):
            return self._reject(node, f"names a {non_paper_words(title)}, not a paper", title)
        if (details.model or details.reference or REFERENCE_NUMBER_RE.match(node.text)) and not details.urls and not details.pins and details.venue[0] is None and (
                details.links.get("code") and not _code_linked_in_remark(node.text, title) or details.link_kinds & NOT_PAPER_KINDS):
            # a reference to software, a blog post or documentation: its only link is that page
            # and it names no venue ("PEFT: … https://github.com/huggingface/peft, 2022"), read
            # by the model, pasted whole or numbered as in a reference list (``[15] PyTorch
            # Contributors, “torch.optim”, 2023. Available: https://pytorch.org/docs/…``)
            self.not_papers.add(node.line)
            return self._reject(node, f"a reference whose only link is a {'code' if details.links.get('code') else sorted(details.link_kinds & NOT_PAPER_KINDS)[0]} page and that names no venue: software or a web page, not a paper", title)
        if ((details.model or details.reference or REFERENCE_NUMBER_RE.match(node.text)) and not details.urls and not details.pins
                and details.venue[0] is None and not _PREPRINT_RE.search(node.text) and (word := _names_a_release(title))):
            # a reference with no venue whose title says what it is: a corpus, a library, its
            # documentation (``A. Gokaslan and V. Cohen. OpenWebText corpus. \url{…}, 2019.``)
            self.not_papers.add(node.line)
            return self._reject(node, f"a reference with no venue whose title names a {word}: not a paper", title)
        if (said := _release_field(node.text)) and not _PREPRINT_RE.search(node.text):
            # the reference says what it is: ``[Computer software]``, ``[Data set]``, ``Software
            # available from …``, ``GitHub repository`` (APA and the software citation styles)
            self.not_papers.add(node.line)
            return self._reject(node, f"a reference that says it is {said.group().strip(' []').lower()!r}, not a paper", title)
        if details.reference and not details.urls and not details.pins and _POST_FIELD_RE.search(details.reference):
            # ``A. Karpathy. A recipe for training neural networks. Blog post, \url{…}, 2019.``
            self.not_papers.add(node.line)
            return self._reject(node, "a reference that says it is a blog post, not a paper", title)
        if is_person_line(title) and not details.urls and not details.pins and not (
                node.source == "table row" and bool(details.authors) != bool(find_citations(title))):
            # (a table row whose own author cell names who wrote it is a work: ``Gradient noise
            # scale (the batch size paper) | McCandlish et al.`` only looks like ``Name (Affiliation)``;
            # a title cell that cites its authors in brackets is read by the citation rules, as the
            # "who" cell of a schedule may name the presenter; with no author cell, the cell's
            # citation gives them: ``RM overoptimization scaling laws (Gao, Schulman, Hilton)``)
            return self._reject(node, "a person and an affiliation", title)
        if (details.model and not details.urls and not details.pins and not details.links
                and not details.link_kinds and _finder_says_no_paper(node)):
            # the reference parser read a string no link backs (a signature's name, role and
            # extension; a disclaimer's firm and year) on a line the finder is sure is no paper
            return self._reject(node, "a reference only the parser reads, on a line the finder reads as no paper", title)
        if _CHAT_CHROME_RE.match(node.text) and not details.urls and not details.pins:
            return self._reject(node, "a chat app's note on a message (pinned, shared, edited by someone), not a paper", title)
        if not details.urls and not details.pins and (said := _kind_after_title(node.text, title)) is not None:
            # ``- Lilian Weng, "What are Diffusion Models?" (lilianweng.github.io, 2021)``
            self.not_papers.add(node.line)
            return self._reject(node, f"a quoted title the line calls a {said}, not a paper", title)
        if (details.links or details.link_kinds) and not details.urls and not details.pins \
                and not (details.authors and details.hard and "//" not in node.text) and _finder_says_no_paper(node):
            # its only links are pages that are no paper's own (a blog, a repository, a video), and it is no
            # title whose own detail lines name its authors and give its page (a paper noted with its lab's
            # page): the finder, which learned what the lines of blog posts, talks and packages look like, decides
            return self._reject(node, "its links are no paper pages, and the finder reads the line as no paper", title)
        if details.urls and (named := _take_own_citation(node, details)) and named != title and named in title:
            title = named  # (the rest of the line is the citation and a remark on the paper)
        if details.urls and _CITATION_ONLY_RE.fullmatch(title.strip()):
            # ``Peng et al. 2023, 2309.00071`` (a table's paper column), ``JMLR 2020, arXiv 1910.10683``:
            # the words beside the link are its citation or its venue, no title
            return self._url_mention(node, details)
        summary = details.summary or (details.fallback_summary if details.hard else None)
        if not details.rule:
            details.rule = "paper link on or under the line" if details.urls else ("labelled details" if details.hard else "title with an author list, paper link or summary below")
        return self._mention("titled", node, details, title=title, summary=summary)

    def _reject(self, node: Node, reason: str, title: str | None = None) -> None:
        if self.explaining:
            self.trace.append(Decision(node.line, "rejected", reason, title or node.text))
        return None

    def _url_mention(self, node: Node, details: _Details) -> Mention | None:
        """A bare URL line: a paper page, or a project/code page with no title (kept as a
        link so the work is not lost; resolution may name it later)."""
        if details.urls:
            _take_own_citation(node, details)
            details.rule = details.rule or "a paper link with no title"
            mention = self._mention("url", node, details, summary=details.summary)
            slug = next((t for u in details.urls if (t := title_in_url(u))), None)
            if slug:  # the title a Papers with Code or Semantic Scholar address spells out (words only)
                mention.title, mention.title_unsure = slug, True
            return mention
        if details.links.get("project"):
            details.rule = details.rule or "a project page with no title"
            return self._mention("url", node, details, summary=details.summary)
        if details.links.get("code"):
            return self._reject(node, "a code repository alone is not a paper (put it under the paper's title)")
        return self._reject(node, "a link that is not a paper page") if details.links else None

    def _mention(self, kind: str, node: Node, details: _Details, *, title: str | None = None, summary: str | None = None) -> Mention:
        ids = Ids()
        venue = year = None
        for url in details.urls:
            ids = ids.merged(ids_from_url(url))
            if ids.doi is None and (doi := doi_in_url(url)):
                ids.doi = doi
            if venue is None:
                v, y, _kind = from_url(url)
                venue, year = v, y
                if venue is None and year is None:
                    venue, year = from_proceedings_url(url)
        if venue is None and details.venue != (None, None):
            venue, year = details.venue
            if venue is None:
                venue = self.scope.venue[0] if self.scope.venue[1] == year else None
        from_page = False
        if venue is None and year is None:
            venue, year = self.scope.venue
            from_page = year is not None
        if title and title.endswith((")", "）")):
            title = _without_short_name_after(title)
        mention = Mention(
            kind=kind,  # type: ignore[arg-type]
            location=Location(self.file, node.line),
            title=title,
            authors=details.authors,
            urls=details.urls,
            links=details.links,
            summary=summary,
            abstract=details.abstract,
            venue=venue,
            year=year,
            ids=ids,
            pins=details.pins,
            hashtags=list(dict.fromkeys(details.hashtags + self.file_tags)),
            section=self.scope.section,
            authors_incomplete=details.incomplete,
            reference=details.reference,
            title_unsure=bool(title and details.reference and title_unsure(details.model)),
            year_from_page=from_page,
            published=dict(details.published),
            heading_people=list(dict.fromkeys(self.scope.people + self.parent_people)),
        )
        if self.explaining:
            self.trace.append(Decision(node.line, "mention", details.rule or kind, title or (details.urls[:1] or [""])[0], mention,
                                       model=details.model, finder=node.found.get(node.line)))
            for child in details.unused:
                self.trace.append(Decision(child.line, "dropped", f"a remark under the paper at line {node.line}: not a detail citekit reads", child.text))
        return mention

    def _abstract(self, node: Node) -> Mention:
        details = _Details()
        for url in find_urls.shared(node.text):
            _add_url(details, url, None, hard=False)
        details.hashtags = hashtags(node.text)
        mention = self._mention("abstract", node, details)
        mention.abstract = strip_hashtags(node.text) if "#" in node.text else node.text  # tags are tags, not abstract text
        mention.hints = method_hints(node.text)
        return mention


#: the work's short name in brackets after its title (``… through World Models (DreamerV3)``):
#: one word with a capital, not a year
_SHORT_NAME_AFTER_TITLE_RE = lazy(r"\s+[(（](?=[^()（）\s]*[A-Z])(?![12]\d{3}[)）])[^()（）\s]{2,20}[)）]$")


def _without_short_name_after(title: str) -> str:
    """``title`` without the short name the writer put in brackets after it (``Mastering
    Diverse Domains through World Models (DreamerV3)``): a paper's title hardly ever ends on
    one bracketed word, and a record's title has no such tail to match; three words of
    title stay before it or the title is kept whole."""
    m = _SHORT_NAME_AFTER_TITLE_RE.search(title)
    if m is None or len(title[:m.start()].split()) < 3:
        return title
    return title[:m.start()]


#: a book, a chapter, a thesis, a programme's videos, "not a paper": quoted titles of things that are not papers
#: a bracket holding a title and, after a comma, its link (``(Sparse Gating for Cheap Experts, https://t.co/Xy12)``)
_LINKED_TITLE_RE = lazy(r"[(（](?P<t>[A-Z0-9][^()（）,\"“”]{10,250}?)\s*,\s*(?P<u>https?://[^\s()（）]+)\s*[)）]")
_BOOK_RE = lazy(r"\b(?:books?|chapters?|thesis|essays?|(?-i:songs?)|movies?|films?|novels?|courses?|programs?|programmes?|videos?|"
                      r"lectures?|series|podcasts?|(?:is|was|not)\s+(?:not\s+)?a\s+paper|no\s+paper)\b|\bch\.\s*\d", re.I)
#: where a sentence of a line ends: a full stop, "!" or "?" after a word, a space, and a
#: capital or a quote (``ch. 8 "…"`` goes on: an abbreviation before a number)
_SENTENCE_GAP_RE = lazy(r"(?<=[^\W_]{2})[.!?]\s+(?=[A-Z\"“‘«])")


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence of ``text`` that holds position ``at`` starts."""
    start = 0
    for m in _SENTENCE_GAP_RE.finditer(text, 0, at + 1):  # (one more: the lookahead sees the quote at ``at``)
        if m.end() <= at:
            start = m.end()
    return start


def _outside_quotes(text: str) -> str:
    """``text`` without its quoted spans (a title's own words say nothing of its kind)."""
    return _CURLY_SINGLE_QUOTED_RE.sub(" ", _INNER_QUOTED_RE.sub(" ", text))


_OPENING_QUOTE_RE = lazy("[\"“„«《『「]")
_INNER_QUOTED_RE = lazy(r"[\"“„«《『「](?P<q>[^\"“”„«»《》『』「」]{8,300})[\"”»》』」]")
#: a span in curly single quotes, as British English quotes a title (``Shazeer 2019, ‘One
#: Write-Head is All You Need’``): the closing quote before no letter (``don’t`` is a word)
_CURLY_SINGLE_QUOTED_RE = lazy(r"(?<![\w‘’])‘(?P<q>[A-Z0-9][^‘’\"“”]{6,298}[^\s‘’])’(?![\w’])")


#: a word right after a closing quote: the quoted words modify it (``the "retrieve only when
#: needed" angle``) unless it says the quoted words name a paper
_WORD_AFTER_QUOTE_RE = lazy(r"\s+(?P<w>[^\W\d_][\w\-]*)")
_PAPER_NOUNS = frozenset(("paper", "papers", "preprint", "article", "work", "study"))


def _quoted_phrase_as_modifier(text: str, m: re.Match[str]) -> bool:
    """A quoted span in lower case with a word right after it (``likes "what changed between
    versions" questions``): a phrase used as an adjective, not a title; a title quoted in a
    sentence is followed by a bracket, a comma, a full stop or a word such as ``paper``."""
    if not m.group("q").lstrip()[:1].islower():
        return False
    after = _WORD_AFTER_QUOTE_RE.match(text, m.end())
    return after is not None and after.group("w").lower() not in _PAPER_NOUNS


#: the citation link Zotero writes right after an annotation's highlighted words (``“…”
#: ([Hu et al., 2021, p. 3](zotero://select/…))``), maybe after an ellipsis the writer put
#: where the highlight was cut (``“… DPO” ... ([Rafailov et al., 2023, p. 5](…))``)
_ZOTERO_CITATION_AFTER_RE = lazy(r"\s*(?:(?:\.{3}|…)\s*)?\(\[[^\]]{1,200}\]\(")
#: the title marks of Chinese, Japanese and Korean text (a work's title, not a quotation in
#: Chinese; a quotation too in Japanese): a Latin-script title in them may be short
_CJK_TITLE_MARKS = {"《": 3, "「": 3, "『": 3}
#: how many words before a quoted span and after it say what the quoted title is
_WORDS_BEFORE_QUOTE, _WORDS_AFTER_QUOTE = 5, 3


def _non_paper_word_near(text: str, m: re.Match[str]) -> bool:
    """A word that names a blog, a library, documentation or a to-do within a few words of
    the quoted span (``HF blog "The N Implementation Details …"``): the quote is that
    thing's title. One further off (``check "High-Dimensional Continuous Control …" defaults
    + Spinning Up docs``, ``… (1cycle). not in library yet``) speaks of something else."""
    outside = _CURLY_SINGLE_QUOTED_RE.sub(" ", _INNER_QUOTED_RE.sub(" ", text[:m.start()])).split()[-_WORDS_BEFORE_QUOTE:]
    after = _INNER_QUOTED_RE.sub(" ", text[m.end():]).split()[:_WORDS_AFTER_QUOTE]
    return non_paper_words(" ".join(outside)) is not None or non_paper_words(" ".join(after)) is not None


def _quoted_spans(text: str) -> list[re.Match[str]]:
    """The quoted spans of a line, in double quotes (any script's) or curly single ones, in order."""
    spans = list(_INNER_QUOTED_RE.finditer(text))
    if "‘" in text:
        spans += _CURLY_SINGLE_QUOTED_RE.finditer(text)
        spans.sort(key=lambda m: m.start())
    return spans


#: a span in single quotes, straight or curly: the opening quote after no letter and
#: before a capital, the closing one after no space and before no letter (``it's``,
#: ``Don’t`` inside a title are apostrophes, not quotes)
_SINGLE_QUOTED_RE = lazy(r"(?<![\w'‘’])['‘](?P<q>[A-Z0-9][^'‘\"“”]{6,298}?[^\s'‘’])['’](?![\w'’])")


#: a reference's field that says what it is when that is a post (``… networks. Blog post,
#: https://…``): a field of its own, after a full stop or a comma
_POST_FIELD_RE = lazy(r"(?:^|[.,]\s+)(?:blog\s*post|blog|web\s*page|website)\s*[,.]|\bwww\.[\w.\-]+/blog/", re.I)


#: what a reference's title calls the thing when it is a release, not a paper: a corpus or
#: data set, a library, its documentation, a blog post, a model card
_RELEASE_WORD_RE = lazy(r"\b(?P<w>corpus|dataset|data set|documentation|docs|library|toolkit|blog\s*post|model card|user guide|manual)\s*[.,]?$", re.I)


#: a line that says the thing it names is no paper (``an essay, not a paper``, ``NOT a paper``,
#: ``不是论文``, ``논문이 아니``, ``論文ではない``)
_SAYS_NOT_A_PAPER_RE = lazy(r"\b(?:not|isn'?t|isn’t|no)\s+(?:a\s+|an?\s+actual\s+)?paper\b|不是论文|不是論文|논문이?\s*아니|論文ではな", re.I)


def _says_not_a_paper(text: str) -> bool:
    """``_SAYS_NOT_A_PAPER_RE.search(text)``, not tried on an ASCII line without "paper"
    (every branch an ASCII line can match ends on the word; the pattern ignores case, so
    other text is always searched)."""
    if text.isascii() and "paper" not in text.lower():
        return False
    return _SAYS_NOT_A_PAPER_RE.search(text) is not None


#: right after a quoted title's closing quote: the word that says what it is when that is no
#: paper (``Lilian Weng's "What are Diffusion Models?" post``), or a bracket that gives a web
#: site where a paper gives its venue (``"What are Diffusion Models?" (lilianweng.github.io, 2021)``)
_KIND_AFTER_TITLE_RE = lazy(
    r"[\"”»’'』」》]\s*(?:(?P<w>(?:blog\s*)?posts?|blog|talks?|lectures?|videos?|threads?|courses?|books?|essays?|podcasts?|"
    r"tutorials?|keynotes?|newsletters?|notebooks?|slides|series|chapters?)\b|[(（]\s*(?P<site>[\w\-]+(?:\.[\w\-]+)*\."
    r"(?:github\.io|substack\.com|medium\.com|com|org|net|io|blog|dev|ai)\b/?)\s*[,)）])", re.I)


def _kind_after_title(text: str, title: str) -> str | None:
    """What the line calls the thing whose quoted title is ``title``, when it says it is no
    paper right after the quote (a post, a talk, a web site); None otherwise."""
    at = text.find(title)
    if at < 0:
        return None
    m = _KIND_AFTER_TITLE_RE.match(text, at + len(title))
    if m is None:
        return None
    return m.group("w").lower() if m.group("w") else "web page"


def _publisher_of(cite: Citation, found: list[Mention]) -> bool:
    """One name and the year of a reference the line is, whose authors are written out in
    full: its publisher and year (``… pages 139--183. North-Holland, 1988.``), no other paper."""
    return (len(cite.authors) == 1 and not cite.incomplete and cite.year is not None
            and any(m.year == cite.year and any(len(name.split()) > 1 for name in m.authors) for m in found))


def _gives_authors_to_title(cite: Citation, found: list[Mention]) -> bool:
    """``cite`` holds a title that a mention of ``found`` with no authors already has (the
    title quoted in the bracket of names, ``(Gu, Goel, Ré — "Title")``, read first as a
    quoted title): that mention takes the citation's authors and year, and no second
    mention is made."""
    if not cite.title:
        return False
    key = normalize_title(cite.title)
    same = next((m for m in found if not m.authors and m.title and normalize_title(m.title) == key), None)
    if same is None:
        return False
    same.authors, same.authors_incomplete = list(cite.authors), cite.incomplete
    if same.year is None and cite.year is not None:
        same.year = cite.year
    return True


def _name_words(authors: list[str]) -> list[set[str]]:
    """Each name's first and last words, lower-cased, in order (``Smith, J.`` and ``J. Smith``
    both hold ``smith``)."""
    return [{name.replace(",", " ").split()[0].lower(), name.split()[-1].lower()} for name in authors if name.strip()]


def _title_words(title: str | None) -> frozenset[str]:
    """The words of a mention's title, lower-cased."""
    return frozenset(w.lower() for w in re.findall(r"[^\W\d_][\w'’\-]*", title)) if title else frozenset()


def _past_title(cite: Citation, title: frozenset[str]) -> Citation:
    """``cite`` without the leading names that are words of the line's title: the last
    word of a title before ``, Okafor and Lindqvist, 2024`` is no author of its citation."""
    authors = cite.authors
    while len(authors) > 1 and authors[0].split()[-1].lower() in title:
        authors = authors[1:]
    return replace(cite, authors=authors) if authors is not cite.authors else cite


def _other_year(cite: Citation, year: int | None) -> bool:
    """The citation gives a year, and the mention whose authors it names another: the same
    people's other paper (``(cf. Srivastava et al. 2014, JMLR)`` beside ``Highway Networks
    (Srivastava, Greff, Schmidhuber 2015)``), not that mention again."""
    return cite.year is not None and year is not None and cite.year != year


def _names_all_known(cite: Citation, words: list[set[str]]) -> bool:
    """The citation's first name is among a mention's names, and its later names are the
    mention's in the same places as far as both lists go: it cites that paper again (``Mamba (Gu & Dao)`` beside S4 by Gu, Goel
    and Ré is another paper; ``(Gu, Goel, Ré)`` beside a reading of ``Gu, Goel`` is not)."""
    families = [name.split()[-1].lower() for name in cite.authors]
    if not families or not any(families[0] in known for known in words):
        return False  # (the first name anywhere: ``Aidan Clark, et al. 2022`` in a reference that lists Clark later)
    return all(family in known for family, known in zip(families[1:], words[1:]))


#: what may stand between a quoted title and the bracket of its citation
_BEFORE_BRACKET_RE = lazy(r"[\s,]*[(（]")


#: words of a remark before the citation it makes (``Directly pushes back on Wei et al. 2022 (…)``)
_REMARK_WORDS_BEFORE = 3


def _remark_citing_titled_work(text: str) -> bool:
    """A line of prose that cites a paper by its authors and the title in brackets after
    them, a few words into the line (``Directly pushes back on Wei et al. 2022 (Emergent
    Abilities of Large Language Models, TMLR)``): a remark naming that paper, never a title;
    a link under it is the post's own paper, not the cited one."""
    return any(c.title and len(text[:c.start].split()) >= _REMARK_WORDS_BEFORE for c in _citations_in(text))


def _authors_beside_quote(text: str, title: str, details: _Details) -> None:
    """The authors written beside the quoted span that is the line's title (``the 155-page
    "Sparks of …" (Bubeck et al.) is an experience`` over the paper's link)."""
    plain = strip_urls(text)
    span = next((m for m in _quoted_spans(plain) if m.group("q").strip().rstrip(",.").strip() == title), None)
    if span is None:
        return
    venue = details.venue
    if _citation_beside(plain, span, details) and venue != (None, None):
        details.venue = venue  # (the line's own venue and year stand)


def _citation_beside(text: str, m: re.Match[str], details: _Details) -> bool:
    """The citation written right beside the quoted title ``m`` (its possessor, names and a
    year after or before it, a citation in brackets after it, names after a comma) put in
    ``details``; False when none is."""
    if (owner := _POSSESSOR_RE.search(text, 0, m.start())) is not None:
        details.authors = [owner.group("name")]  # ``Shazeer's "Fast Transformer Decoding …"``
    elif (cite := _CITE_AFTER_TITLE_RE.match(text, m.end())) is not None:
        # ``(“FlashAttention-2: …”, Dao 2023)``: the name and year after the title are its citation
        details.authors = [cite.group("first"), *([cite.group("second")] if cite.group("second") else [])]
        details.incomplete = bool(cite.group("etal"))
        details.venue = (None, int(cite.group("year")))
    elif (before := _CITE_BEFORE_TITLE_RE.search(text, max(0, m.start() - 80), m.start())) is not None \
            and before.group("first").lower() not in _ordinary_words():
        # ``Shazeer 2019, ‘One Write-Head is All You Need’``: the citation right before the title is its own
        details.authors = [before.group("first"), *([before.group("second")] if before.group("second") else [])]
        details.incomplete = bool(before.group("etal"))
        details.venue = (None, int(before.group("year")))
    elif (bracketed := _citation_in_brackets_after(text, m.start(), m.end())) is not None:
        # ``"Efficiently Modeling … State Spaces" (Gu, Goel, Ré, ICLR 22)``: the citation
        # in brackets right after the title is its own, not a second paper
        details.authors, details.incomplete = list(bracketed.authors), bracketed.incomplete
        details.venue = (bracketed.venue, bracketed.year)
    elif (names := _NAMES_AFTER_TITLE_RE.match(text, m.end())) is not None and names.group("first").lower() not in _ordinary_words():
        # ``"Improving language models by …", Borgeaud et al. DeepMind``, ``"Scalable Diffusion
        # Models with Transformers", Peebles & Xie — why …``: names after a comma, no year
        details.authors = [names.group("first"), *([names.group("second")] if names.group("second") else [])]
        details.incomplete = bool(names.group("etal"))
    elif (dash := _DASH_AFTER_TITLE_RE.match(text, m.end())) is not None and (lead := leading_names(text[dash.end():])) is not None:
        # ``"Are Emergent … a Mirage?" — Schaeffer, Miranda & Koyejo. deservedly …``: the
        # author list after a dash, in citation syntax, up to the separator that ends it
        details.authors, details.incomplete = list(lead.authors), lead.incomplete
        if lead.year is not None:
            details.venue = (lead.venue, lead.year)
    elif (names := _NAMES_BEFORE_TITLE_RE.search(text, max(0, m.start() - 60), m.start())) is not None \
            and (names.group("etal") or not {names.group("first").lower(), names.group("second").lower()} <= _ordinary_words()):
        # ``mamba — Gu & Dao, "Mamba: Linear-Time …"``: two names or ``et al.`` and a comma
        # right before the title, no year: its authors as a reader writes them
        details.authors = [names.group("first"), *([names.group("second")] if names.group("second") else [])]
        details.incomplete = bool(names.group("etal"))
    elif (venue := _VENUE_IN_BRACKETS_RE.match(text, m.end())) is not None and canonical(venue.group("v")) is not None:
        # ``AMSGrad = "on the convergence of adam and beyond" (ICLR'18)``: a venue and its year
        # in brackets right after the quoted words say where they were published, no author named
        yy = venue.group("yy")
        details.venue = (canonical(venue.group("v")), int(venue.group("y")) if venue.group("y") else 2000 + int(yy) if yy else None)
    else:
        return False
    return True


#: a venue's short name and its year alone in brackets (``(ICLR'18)``, ``(NeurIPS 2020)``)
_VENUE_IN_BRACKETS_RE = lazy(r"\s*[(（]\s*(?P<v>[A-Z][A-Za-z]{1,11})\s*(?:['’]\s?(?P<yy>\d{2})|(?P<y>(?:19|20)\d{2}))\s*[)）]")


#: names right before a quoted title and a comma, with ``et al.`` or a second name, no year,
#: after the line's start, a dash, a colon or a bracket
_NAMES_BEFORE_TITLE_RE = lazy(r"(?:^|[—–:;(]\s*|\s--\s*)(?P<first>[A-Z][\w'’\-]+)(?:\s+(?P<etal>et\s+al\b\.?)|\s+(?:&|and)\s+(?P<second>[A-Z][\w'’\-]+))\s*,\s*$")


#: a spaced dash right after a quoted title's closing quote (what follows may be its authors)
_DASH_AFTER_TITLE_RE = lazy(r"\s+(?:[—–]|--?)\s+")


#: names right after a quoted title and a comma, with ``et al.`` or a second name, no year:
#: the names end at a dash, a bracket, punctuation, the line's end or a capitalised word
_NAMES_AFTER_TITLE_RE = lazy(r"\s*,\s*(?P<first>[A-Z][\w'’\-]+)(?:\s+(?P<etal>et\s+al\b\.?)|\s+(?:&|and)\s+(?P<second>[A-Z][\w'’\-]+))"
                             r"(?=\s*(?:[—–,;.!?()]|--|$)|\s+[A-Z])")


def _take_own_citation(node: Node, details: _Details) -> str | None:
    """The authors of a line's own paper, when the line links it or gives its identifier and
    names no authors in a shape the title rules read, but cites them beside the paper's name
    (:func:`_own_citation`); and that name (its linked title or short name), if the citation
    follows it."""
    if details.authors or node.children and any(c.label is not None and c.label.field == "authors" for c in node.children):
        return None
    found = _own_citation(node.text)
    if found is None:
        return None
    cite, name = found
    details.authors, details.incomplete = list(cite.authors), cite.incomplete
    if cite.year is not None and details.venue == (None, None):
        details.venue = (cite.venue, cite.year)
    return name


#: an identifier opening a bracket (``(arXiv 2402.01306)``, ``(2310.12036``, ``(doi:10.…``)
_ID_IN_BRACKETS_RE = lazy(r"\s*[(（]\s*(?:arxiv\s*[:：]?\s*|doi\s*[:：]?\s*)?(?:\d{4}\.\d{4,5}|10\.\d{4,9}/)", re.I)
_ID_RE = lazy(r"\barxiv\b|\b\d{4}\.\d{4,5}\b|\b10\.\d{4,9}/", re.I)
#: what may stand before the bracket of a paper's own citation: its short name alone, maybe
#: after a label (``ORPO (Hong, Lee, Thorne)``, ``optional: SimPO (…)``)
_SHORT_NAME_BEFORE_RE = lazy(r"^(?:[^\W\d][\w ]{0,20}[:：]\s*)?(?P<name>[^\s()]{2,30})\s*[(（]$")


def _own_citation(text: str) -> tuple[Citation, str | None] | None:
    """The one author-year citation a line writes beside the paper it links, when its place
    says it is that paper's: in brackets right after the paper's linked title or its short
    name at the start (``[Title](…) (Christiano, Leike, …)``, ``ORPO (Hong, Lee, Thorne) — …``),
    in brackets with the identifier (``GAE (Schulman et al., ICLR 2016, arXiv:1506.02438)``),
    or right before the identifier in brackets (``Ethayarajh et al. 2024 (arXiv 2402.01306)``).
    A citation elsewhere on the line (``follow-up to Smith et al. 2020: [Title](…)``) is of
    another paper, and a line with two cites more than one. With the citation, the linked
    title or short name it follows, if it follows one."""
    if "(" not in text and "（" not in text:
        return _opening_citation(text)
    labels: list[str] = []

    def label(m: re.Match[str]) -> str:
        labels.append(m.group(1))
        return m.group(1) + "\x01"

    text = _without_task_marker(text)  # (``WAITING [[…][SGT -- Okafor et al. 2021]]``: the keyword is no name)
    plain = replace_markdown_links(text, label) if "](" in text else text
    link_ends = [pos - n for n, pos in enumerate(i for i, ch in enumerate(plain) if ch == "\x01")]
    plain = plain.replace("\x01", "")
    cites = find_citations(plain)
    if len(cites) != 1:
        return _opening_citation(plain) if not cites else None
    cite = cites[0]
    before = plain[:cite.start].rstrip()
    if not before.endswith(("(", "（")):
        return (cite, None) if _ID_IN_BRACKETS_RE.match(plain, cite.end) else _opening_citation(plain)
    stem = before[:-1].rstrip()
    linked = next((labels[i].strip() for i, end in enumerate(link_ends) if stem and end == len(stem)), None)
    short = _SHORT_NAME_BEFORE_RE.match(before)
    name = linked or (short.group("name") if short else None)
    close = plain.find(")", cite.start)
    if name or _ID_RE.search(plain[cite.start:close if close > 0 else len(plain)]):
        return cite, name
    return None


#: what ends the words after a line's opening citation: a link, or a colon or dash before one
_BEFORE_LINK_RE = lazy(r"\s*(?:[:：—–]\s*)?(?:<?https?://|\[|www\.|arxiv\.org|$)", re.I)


#: a paper's short name and a dash or colon, before the citation of its authors (``SGT --
#: Okafor et al. 2021``, ``SGT: Okafor & Lindqvist, ICLR 2021``)
_SHORT_NAME_LEAD_RE = lazy(r"^(?P<name>[^\s()\[\]:：]{2,30})\s*(?:--|[—–:：])\s*")


def _opening_citation(text: str) -> tuple[Citation, str | None] | None:
    """The citation a linking line opens with, maybe after the paper's short name and a dash
    (``Okafor et al. SPARK paper https://…``, ``Lindqvist & Mbeki, the routing one: https://…``,
    ``[SGT -- Okafor et al. 2021](https://…)``): the linked paper's authors, as a citation in
    brackets after its name would be; with the short name, or else the words between the
    names and the link (a short name or a remark on it), if any."""
    if "(" in text or "（" in text or not has_citation_cue(text):
        return None
    lead = _SHORT_NAME_LEAD_RE.match(text)
    at = lead.end() if lead else 0
    cites = find_citations(text[at:])
    cite = cites[0] if len(cites) == 1 and cites[0].start == 0 else (leading_names(text[at:]) if not cites else None)
    if cite is None:
        return None
    if lead:
        return cite, lead.group("name")
    rest = text[cite.end:].lstrip(" ,.;:—–-")
    end = _BEFORE_LINK_RE.search(rest)
    name = rest[: end.start()].strip() if end else ""
    return cite, name or None


def _citation_in_brackets_after(text: str, start: int, end: int) -> Citation | None:
    """The author-year citation that opens a bracket right after the quoted title at
    ``start``-``end`` (``"Title" (Gu, Goel, Ré, ICLR 22)``, ``“Title” (Liu et al., TACL
    2024)``), read with the title before it so the names are known to follow a quote."""
    gap = _BEFORE_BRACKET_RE.match(text, end)
    if gap is None:
        return None
    piece = text[start:gap.end() + 200]
    opened = gap.end() - start
    # (a short name may come first: ``《Learning Transferable …》(CLIP, Radford et al., ICML 2021)``)
    named = _SHORT_NAME_FIRST_RE.match(piece, opened)
    starts = (opened, opened + 1, *((named.end(),) if named else ()))
    return next((c for c in find_citations(piece) if c.start in starts), None)


#: a short name opening the brackets after a title, before its citation (``(CLIP, Radford et al., …)``)
_SHORT_NAME_FIRST_RE = lazy(r"\s*[A-Z][\w\-]{1,20}\s*,\s*")


def _is_remark_under_paper(node: Node, child: Node) -> bool:
    """``child`` is a plain remark under a line whose own labelled details name its authors
    (``Authors: …``, as a Zotero report's item is rewritten): a note on that paper."""
    return (child.kind == "plain" and not child.children and child.label is None
            and any(c.is_detail and c.label is not None and c.label.field == "authors" for c in node.children))


def _other_ids(mention: Mention, own: Mention) -> bool:
    """``mention`` carries an identifier of a scheme ``own`` knows, with another value."""
    known = dict(own.pins.items())
    known.update(own.ids.items())
    return any(known.get(k) not in (None, v) for k, v in mention.ids.items())


def _same_paper(mention: Mention, own: Mention) -> bool:
    """A mention in a paper's remarks that stands for that paper itself: the same title, or
    an author-year citation of its first author."""
    if mention.title and own.title:
        return normalize_title(mention.title) == normalize_title(own.title)
    if mention.title or not mention.authors or not own.authors:
        return False
    if mention.year is not None and own.year is not None and mention.year != own.year and not (mention.year_from_page or own.year_from_page):
        return False  # (its first author's paper of another year: ``FlashAttention-2 (Dao 2023, …)`` under Dao's 2022 paper)
    if _other_ids(mention, own):
        return False
    first = mention.authors[0].replace(",", " ").split()
    return bool(first) and any(first[-1].lower() in name.lower().replace(",", " ").split() for name in own.authors[:1])


def _says_not_a_paper_after(node: Node, found: tuple[int, Citation]) -> bool:
    """The line of the one citation ``found`` says, after it, that it is no paper (what
    such a remark follows is what it speaks of: ``Kamradt's test — not a paper … RULER
    (Hsieh et al., 2024) is …`` keeps RULER)."""
    line, cite = found
    if not _read_whole(node):
        part = next((text for number, text in _lines_of(node) if number == line), node.text)
        return _SAYS_NOT_A_PAPER_RE.search(strip_urls(strip_markup(part)), cite.end) is not None
    # a citation the wrap cut (``(Sutton,`` / ``2019), an essay, not a paper``) ends on a
    # later line than it starts: the remark is looked for after its end, to the end of that line
    spans = _line_spans(node)
    end = next(begin for number, begin, _ in spans if number == line) + cite.end
    stop = next((stop for _, begin, stop in spans if begin <= end <= stop), len(node.text))
    return _SAYS_NOT_A_PAPER_RE.search(node.text, end, stop) is not None


#: a family name in the possessive just before a quoted title (``Shazeer's "…"``,
#: ``Rahimi’s “…”``): the title's author, as a possessive citation names them
_POSSESSOR_RE = lazy(r"(?:^|(?<=[\s(]))(?P<name>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)['’]s\s+$")

#: a reference's own word for what it cites when that is software or data: APA's bracketed
#: description, "Software available from …", a repository or package named as the container
_RELEASE_FIELD_RE = lazy(r"\[(?:computer\s+)?(?:software|program|code|data\s*set|dataset)(?:\s+and\s+data\s*set)?\]"
                         r"|\bsoftware\s+available\s+(?:from|at)\b|\bgithub\s+repository\b|\bcomputer\s+(?:software|program)\b"
                         r"|\b(?:python|r|julia)\s+package\s+version\b", re.I)

#: what :data:`_RELEASE_FIELD_RE` cannot match without, in a lower-cased ASCII text: one
#: of these for each branch (a bracketed field opens on its word; "github" alone is in
#: every repository's address, "repository" is not)
_RELEASE_FIELD_WORDS = ("software", "[program", "[code", "[data", "repository", "computer", "package")


def _release_field(text: str) -> re.Match[str] | None:
    """``_RELEASE_FIELD_RE.search(text)``, not tried on an ASCII line with none of the
    words one of its branches needs (almost every line): the pattern ignores case, so on
    other text, where letters such as ``ſ`` match ``s``, it is always tried."""
    if text.isascii():
        low = text.lower()
        if not any(word in low for word in _RELEASE_FIELD_WORDS):
            return None
    return _RELEASE_FIELD_RE.search(text)


#: what a chat app writes under a message when it is copied out of the window (``Pinned by
#: Jana Novak``, ``Shared by …``, ``Edited by …``): one word, ``by`` and a person
_CHAT_CHROME_RE = lazy(r"^(?:Pinned|Unpinned|Added|Shared|Posted|Edited|Saved|Forwarded|Bookmarked|Removed|Deleted)\s+by\s+\S.{0,60}$")



#: a citation right after a quoted title, in the same parenthesis or sentence (``“…”, Dao
#: 2023``, ``"…", Tay et al., 2022``, ``"…", Gu & Dao 2023``)
_CITE_AFTER_TITLE_RE = lazy(r"\s*,\s*(?P<first>[A-Z][\w'’\-]+)(?:\s+(?P<etal>et\s+al\.?)|\s+(?:&|and)\s+(?P<second>[A-Z][\w'’\-]+))?"
                            r",?\s+(?P<year>(?:19|20)\d{2})\b")

#: a citation right before a quoted title, a comma or colon between them (``Shazeer 2019,
#: ‘…’``, ``Jumper et al. 2021, "…"``)
_CITE_BEFORE_TITLE_RE = lazy(r"(?<![\w.'’\-])(?P<first>[A-Z][\w'’\-]+)(?:\s+(?P<etal>et\s+al\.?)|\s+(?:&|and)\s+(?P<second>[A-Z][\w'’\-]+))?"
                             r",?\s+(?P<year>(?:19|20)\d{2})\s*[,:]\s*$")

#: a preprint is a paper, whatever its title calls the data it describes
_PREPRINT_RE = lazy(r"\barxiv\b|\bpreprint\b|\bcorr\b", re.I)


#: right after a citation's names, what the writer calls the work when it is no paper: up
#: to three capitalised words of its name, then the kind (``Goodfellow et al. Deep Learning
#: book``, ``Karpathy's Zero to Hero lectures``); a lower-case word between ends the name, and
#: a word that is a verb too (``talks``, ``lectures``) says it only after a name (``Okafor et
#: al. 2021 talks about …`` cites the paper)
_KIND_AFTER_CITATION_RE = lazy(
    r"\s*(?:'s\s+|’s\s+)?(?:(?:[A-Z][\w\-]*\s+){0,3}(?:text)?(?:books?|blog\s*posts?|blog|courses?|slides|videos?|podcasts?|"
    r"tutorials?|keynotes?|newsletters?|notebooks?|chapters?|essays?)|(?:[A-Z][\w\-]*\s+){1,3}(?:talks?|lectures?))\b")


def _text_after(node: Node, found: tuple[int, Citation]) -> str:
    """What the node says after the citation ``found`` (which may end on a later line than
    it starts, in a paragraph read whole), to the end of the node or of its line."""
    line, cite = found
    if not _read_whole(node):
        part = next((text for number, text in _lines_of(node) if number == line), node.text)
        return strip_urls(strip_markup(part))[cite.end:]
    return node.text[next(begin for number, begin, _ in _line_spans(node) if number == line) + cite.end:]


#: the word "paper", then a bracket holding what may be its title (``ConvNeXt paper (A ConvNet for the 2020s)``)
_PAPER_THEN_TITLE_RE = lazy(r"\bpaper\s*[(（](?P<t>[^()（）\d]{8,200}?(?:\b\d{2,4}s?\b[^()（）]{0,100}?)?)[)）]", re.I)


#: a year (not a decade, ``the 2020s``) or a quotation mark: a bracket that cites, not a bare title
_YEAR_OR_QUOTE_RE = lazy(r"\b(?:19|20)\d{2}\b(?!s)|[\"“”«»]")


def _names_a_release(title: str) -> str | None:
    """The word at the end of a reference's title that names a release (``OpenWebText
    corpus``, ``torch.optim — PyTorch 2.1 documentation``), read with words a wrap cut
    joined again (``docu- mentation``); None for a title that names a study of one (``A
    Large Annotated Corpus for Learning Natural Language Inference`` ends on other words)."""
    m = _RELEASE_WORD_RE.search(re.sub(r"(?<=[a-z])- (?=[a-z])", "", title.strip()))
    return m.group("w").lower() if m else None


def _quoted_part(title: str) -> str:
    """The quoted title in a line of prose taken whole (``task arithmetic, "Editing Models
    with Task Arithmetic"``, ``… citing today: Jumper et al. 2021, "Highly accurate …",
    Nature.``): the one quoted span of three words or more, when only punctuation, a venue
    or a parenthesis follows it; a title with a quoted word inside (``Über Horváth’s
    “Gradient” Methods``) keeps its quotes."""
    if not title:
        return title
    if _OPENING_QUOTE_RE.search(title) is None:
        # single quotes (a post's ``dropped: 'Title'. …``, British ``‘Title’``): only a span
        # written as a title, so an apostrophe (``Song et al's``) starts none
        spans = [m for m in _SINGLE_QUOTED_RE.finditer(title) if title_case(m.group("q"))] \
            if "'" in title or "‘" in title else []  # (the pattern opens on one of these)
        if len(spans) != 1:
            return title
    else:
        spans = list(_INNER_QUOTED_RE.finditer(title))
    if len(spans) > 1:
        # several quoted spans (a Zotero highlight, then the titles of the papers it cites):
        # the line's paper is the title that ends it, where its identifier stood
        # (``“the standard pipeline” i.e. … + PPO from Schulman … (“Proximal Policy
        # Optimization Algorithms”, arXiv:1707.06347)``), written as a title
        last = spans[-1]
        quoted = last.group("q").strip().rstrip(",.").strip()
        after = title[last.end():].strip()
        if len(quoted.split()) >= 3 and (not after or after[0] in ",.;:()（）[]") and title_case(quoted):
            return quoted
        return title
    if not spans:
        return title
    m = spans[0]
    quoted = m.group("q").strip().rstrip(",.").strip()
    if m.start() == 0 and m.end() == len(title) or len(quoted.split()) < 3:
        return title
    after = title[m.end():].strip()
    if not title[:m.start()].strip():
        # a quoted title first and a short name or remark after it (``《…》 (InstructGPT)``,
        # ``"…" — reread``); a colon after it is the title's own (``"Why Should I Trust
        # You?": Explaining …``), so only a parenthesis, comma or dash ends it
        return quoted if after[:1] in ("(", "（", ",", ";", "—", "–") else title
    if after and after[0] not in ",.;:()（）[]—–-":
        return title
    return quoted


#: a remark, an arrow, then one page link that ends the line (Roam, Logseq, Obsidian:
#: ``the ICS explanation is probably wrong → [[How Does Batch Normalization Help Optimization?]]``)
_ARROWED_PAGE_RE = lazy(r"^(?P<pre>[^\[\]]*\S)\s*(?:→|->|=>|⇒)\s*\[\[(?P<page>[^\[\]|]+)\]\]\s*$")


def _arrowed_page(text: str) -> str | None:
    """The page a remark points at with an arrow, when that page is named like a title:
    the remark is what the writer thinks of the paper, the page is the paper."""
    m = _ARROWED_PAGE_RE.match(text) if "[[" in text else None
    if m is None:
        return None
    page = m.group("page").strip()
    return page if len(page.split()) >= 3 and looks_like_title(page) else None


#: a paper's short name with its title in parentheses after it (``Contriever (Unsupervised
#: Dense Information Retrieval with Contrastive Learning)``): one or two words, no colon, or
#: several such names it goes by, joined by slashes (``Latent diffusion / Stable Diffusion (…)``)
_NAME_THEN_TITLE_RE = lazy(r"^(?P<name>[^\s():：/]+(?:\s[^\s():：/]+)?(?:\s*/\s*[^\s():：/]+(?:\s[^\s():：/]+)?)*)"
                           r"\s*[(（](?P<title>[^()（）]+)[)）]$")


#: a paper's short name, a spaced dash, then its title (``AdamW — Decoupled Weight Decay
#: Regularization``): one or two words before the dash, no colon
_NAME_DASH_TITLE_RE = lazy(r"^(?P<name>[^\s():：]+(?:\s[^\s():：]+)?)\s+[—–]\s+(?P<title>[^—–]+)$")


#: a paper's short name said to be the title after it, maybe after a few words that label the
#: line (``S4 = Efficiently Modeling …``, ``read first: S4 = …``)
_NAME_IS_TITLE_RE = lazy(r"^(?:[^\W\d][\w ]{0,20}[:：]\s*)?(?P<name>[^\s=:：]{1,20})\s*=\s*(?P<title>[^=]+)$")


def _named_title_match(title: str) -> re.Match[str] | None:
    """The first of the three short-name shapes that ``title`` (stripped) has, each pattern
    tried only when the title holds what it cannot match without: a closing bracket at the
    end, a dash, an equals sign (most lines have none, and each pattern is tried from the start)."""
    return ((_NAME_THEN_TITLE_RE.match(title) if title.endswith((")", "）")) else None)
            or (_NAME_DASH_TITLE_RE.match(title) if "—" in title or "–" in title else None)
            or (_NAME_IS_TITLE_RE.match(title) if "=" in title else None))


def _named_title(title: str) -> str:
    """The title in parentheses after a short name, or after a dash or ``=`` that follows it (the name
    is what people call the paper, the rest what it is called): four words or more that read
    as a title and hold no year or citation, so ``ResNet (He et al. 2016)`` and ``Chinchilla —
    the compute-optimal one`` stay as written."""
    m = _named_title_match(title.strip()) if title else None
    if m is None:
        return title
    inner = m.group("title").strip()
    if (len(inner.split()) < 4 or any(c.isdigit() for c in inner) or "et al" in inner
            or not inner[:1].isupper() or not looks_like_title(inner)):
        return title
    return inner


#: ``([Hu et al., 2021, p. 2](zotero://select/library/items/7QK3ZP9D))``, ``([pdf](zotero://open-pdf/…))``:
#: what Zotero writes after each annotation of a note exported with its links
_ZOTERO_LINK_RE = lazy(r"\(?\[[^\[\]]*\]\(zotero://[^()\s]*(?:\([^()\s]*\)[^()\s]*)*\)\)?")


def without_zotero_links(text: str) -> str:
    """``text`` without the links a Zotero note puts after each annotation: the citation of
    the annotated item (read as an author-year citation, not as the authors of the quoted
    words before it) and the link to the page of the PDF."""
    return _ZOTERO_LINK_RE.sub(" ", text)


#: what may stand between an annotation's links and the title the writer adds (``= Title``,
#: ``→ Title``, ``: Title``)
_TITLE_LEAD_RE = lazy(r"^\s*(?:=|→|->|=>|:|—|–)?\s*")
#: where that title ends: a dash, a sentence's end, a parenthesis, or a comma before the
#: authors (``, Song / Meng / Ermon``, ``, Song et al.``) or a venue (``, ICLR'21``)
_TITLE_END_RE = lazy(r"\s+(?:—|–|--|-)\s|[.;!?]\s|\s*[(（]|,\s*(?=[A-Z][^\s,]*(?:\s*/|\s+et al|\s*&|\s+and\s|['’]?\s*\d))")

#: a paper's short name said to be the title that follows (``EDM = "…"``, ``DDIM: "…"``; a
#: colon before unquoted words is the title's own: ``BERT: Pre-training of …``)
_NICKNAME_IS_RE = lazy(r"^[A-Z][\w.-]{1,15}\s*(?:=\s*(?=[\"“A-Z])|:\s*(?=[\"“]))")


def _title_after_zotero_link(text: str) -> str | None:
    """The title a writer puts after an annotation's citation link in a Zotero note
    (``“…” ([Song et al., 2021, p. 1](zotero://select/…)) ([pdf](…)) = Denoising Diffusion
    Implicit Models, Song / Meng / Ermon, ICLR'21 — NOT the SDE one``): the words right after
    the last link, up to a dash, a sentence's end or the names, when they are three words
    or more written in title case; a remark (``deterministic sampler → …``) is none."""
    links = list(_ZOTERO_LINK_RE.finditer(text))
    if not links or "zotero://select" not in text:
        return None
    after = _TITLE_LEAD_RE.sub("", text[links[-1].end():], count=1)
    after = _NICKNAME_IS_RE.sub("", after, count=1)  # ``EDM = "Title"``: the paper's short name first
    end = _TITLE_END_RE.search(after)
    title = unquote_title((after[: end.start()] if end else after).strip().rstrip(".,:;"))
    if not 3 <= len(title.split()) <= 30 or not title[:1].isupper() or not title_case(title):
        return None
    return title


#: the brackets an identifier is written in, or that open right after it
_BRACKETS_AROUND = "(（"
_CLOSING = {"(": ")", "（": "）"}


def _give_link_to_its_citation(own: Mention, cited: list[Mention], text: str) -> None:
    """A titled line's one identifier, written inside the brackets of another paper's
    author-year citation (``MQA is Shazeer's "Fast …" (2019); GQA (Ainslie et al. 2023,
    arxiv.org/abs/2305.13245) is …``), is that citation's paper: the brackets say whose it
    is. The link moves from the title to the citation's mention, which it makes a paper
    known by its identifier."""
    if own.kind != "titled" or len(own.urls) != 1 or own.pins.arxiv or own.pins.doi:
        return
    value = own.ids.arxiv or own.ids.doi
    start = text.find(value) if value else -1
    if start < 0 or text.find(value, start + 1) >= 0:
        return
    inside = _bracket_holding(text, start, start + len(value))
    cites = find_citations("(" + re.sub(r"\S*" + re.escape(value) + r"\S*", " ", inside) + ")") if inside else ()
    if len(cites) != 1 or _share_a_name(list(cites[0].authors), own.authors):
        return
    taker = next((m for m in cited if m.kind == "cited" and not m.urls and _share_a_name(m.authors, list(cites[0].authors))), None)
    if taker is None:
        return
    taker.urls, taker.ids, taker.kind = own.urls, own.ids, "url"
    own.urls, own.ids = [], Ids()


def _bracket_holding(text: str, start: int, end: int) -> str | None:
    """What the brackets around ``text[start:end]`` hold (``(Hoffmann et al. 2022,
    arXiv:2203.15556)``), or the brackets that open right after it (``arxiv 2307.03172
    (Liu et al., Stanford)``); None when neither is written."""
    opened = max(text.rfind(b, 0, start) for b in _BRACKETS_AROUND)
    if opened >= 0 and not any(c in text[opened:start] for c in ")）"):
        closed = text.find(_CLOSING[text[opened]], end)
        if closed >= 0 and not any(c in text[end:closed] for c in "(（"):
            return text[opened + 1:closed]
    after = re.match(r"\s*([(（])([^()（）]{1,200})[)）]", text[end:])
    return after.group(2) if after else None


def _one_per_paper(own: Mention, text: str) -> list[Mention]:
    """A line's links split into one mention each when they carry two different identifiers
    of one scheme (two arXiv ids, two DOIs): one paper has one of each, so the line names
    several papers (``this one is CAI (2212.08073), the earlier one is "Training a Helpful
    …" (2204.05862)``). A title quoted right before an identifier's brackets is that
    paper's. Empty when the links may all be one paper's."""
    per_url = [(url, ids_from_url(url)) for url in own.urls]
    seen: dict[str, str] = {}
    if not any(seen.setdefault(k, v) != v for _, ids in per_url for k, v in ids.items()):
        return []
    titles = _titles_before_ids(text)
    out = []
    for url, ids in per_url:
        if not ids.items():
            continue  # (a link with no identifier: whose it is, is not written)
        title = titles.get(ids.arxiv or ids.doi or "")
        out.append(replace(own, urls=[url], ids=ids, title=title, kind="titled" if title else "url",
                           authors=[], authors_incomplete=False))
    return out


def _quoted_before(text: str, at: int) -> str | None:
    """The quoted title that ends right before the brackets holding position ``at``."""
    opened = max(text.rfind(b, 0, at) for b in _BRACKETS_AROUND)
    if opened < 0:
        return None
    before = text[:opened].rstrip()
    quote = next((q for q in _quoted_spans(text) if q.end() == len(before)), None)
    if quote is None or not 3 <= len(quote.group("q").split()) <= 30:
        return None
    return quote.group("q").strip()


def _titles_before_ids(text: str) -> dict[str, str]:
    """Identifiers written in brackets right after a quoted title (``"Title" (2204.05862)``),
    each with that title."""
    out = {}
    quotes = _quoted_spans(text)
    for found in find_text_ids(text):
        opened = max(text.rfind(b, 0, found.start) for b in _BRACKETS_AROUND)
        if opened < 0 or text[opened + 1:found.start].strip(" ,;:") or text[found.end:].lstrip()[:1] not in ")）":
            continue
        before = text[:opened].rstrip()
        quote = next((q for q in quotes if q.end() == len(before)), None)
        if quote is not None and 3 <= len(quote.group("q").split()) <= 30:
            out[found.value] = quote.group("q").strip()
    return out


#: what brackets around an identifier may hold besides it when they name nothing else
_ID_ONLY_RE = lazy(r"^[\s,;:.]*(?:(?:19|20)\d\d)?[\s,;:.]*$")
#: an identifier written whole in brackets, with the word naming its scheme (``arXiv 2401.10774``)
_ID_WORDS_RE = lazy(r"\S*\d{4}\.\d{4,5}\S*|\S*10\.\d{4,9}/\S*|\b(?:arxiv|doi)\b\s*[:：]?", re.I)
#: a name right before the brackets that hold an identifier alone (``Atlas (arXiv:2208.03299)``)
_NAME_BEFORE_BRACKET_RE = lazy(r"[\w\-’']{2,40}\s*$")


#: what may stand between a quoted title and its identifier written after it, no brackets
#: around it (``"Title", arxiv 2312.00752``; ``"Title" — doi:10.…``)
_TITLE_TO_ID_RE = lazy(r"[\s,;:—–-]*(?:(?:arxiv|doi|preprint)\b[\s:]*)?", re.I)


def _take_quoted_title_beside_id(own: Mention, text: str) -> bool:
    """A paper known by its one identifier, written right after a quoted title with nothing
    but a comma or a dash between them: the line names one paper by both, so the quoted
    words are its title and the citation beside them (``Gu & Dao, "…"``) its authors."""
    ids = find_text_ids(text)
    if len(ids) != 1 or len(own.urls) != 1 or own.title is not None:
        return False
    quote = next((q for q in _quoted_spans(text) if q.end() <= ids[0].start
                  and _TITLE_TO_ID_RE.fullmatch(text, q.end(), ids[0].start)), None)
    if quote is None:
        return False
    title = quote.group("q").strip().rstrip(",.").strip()
    if not 3 <= len(title.split()) <= 30 or not title_case(title):
        return False
    own.title, own.kind = title, "titled"
    details = _Details()
    if not own.authors and _citation_beside(text, quote, details):
        own.authors, own.authors_incomplete = list(details.authors), details.incomplete
        if details.venue[1] is not None and own.year is None:
            own.year = details.venue[1]
    return True


#: a title in quotes or title marks opening a cell (``《Distilling …》 Hinton, Vinyals, Dean 2015``)
_LEADING_QUOTED_RE = lazy(r"\s*[《「『“\"](?P<q>[^》」』”\"]{3,300})[》」』”\"]")


def _quoted_then_names(text: str, details: _Details) -> str | None:
    """A table cell that opens with a quoted title and then lists its authors (and a year or
    venue): the title, its authors put in ``details``; None when the rest is no author list."""
    lead = _LEADING_QUOTED_RE.match(text)
    if lead is None:
        return None
    rest = text[lead.end():].strip(" ,;:—–-")
    names, year = authors_and_year(rest) if rest else ("", None)
    listed = authors_line(names) if names else None
    if not listed:
        return None
    details.authors, details.incomplete = listed, author_list_incomplete(names)
    if year is not None:
        details.venue = (details.venue[0], year)
    details.hard = True
    details.rule = "a table row's quoted title and the authors after it"
    return lead.group("q").strip()


#: a sentence's end inside a text, a new one starting after it (``… 1 epoch. Had to use …``)
_SENTENCE_INSIDE_RE = lazy(r"[a-z0-9)]\.\s+[A-Z]")


def _reads_as_sentences(text: str) -> bool:
    """Fifteen words or more holding a full stop that a new sentence follows: prose, which a
    title (one phrase, at most a colon before its subtitle) never is."""
    return len(text.split()) >= 15 and _SENTENCE_INSIDE_RE.search(text) is not None


def _take_cell_citation(details: _Details, cite: Citation, text: str, title: str) -> str:
    """A table row's title cell that cites its paper, in a table with no author column (a
    schedule's "who" names the presenter): the citation gives the authors and the year, and
    the title is the one the citation reads with it, else the words before it (``PPO crash
    course (Schulman et al. 2017) — skim``), else the cell as read."""
    details.authors, details.incomplete = list(cite.authors), cite.incomplete
    if cite.year is not None or cite.venue:
        details.venue = (cite.venue or details.venue[0], cite.year or details.venue[1])
    details.hard = True
    details.rule = "a table row's title cell and the citation in it"
    before = text[:cite.start].rstrip(" ([（—–-,:;").strip()
    if cite.title:
        return cite.title
    if before and title.startswith(before):
        return before
    after = _TITLE_AFTER_DASH_RE.match(text, cite.end) if not before else None
    return after.group("title").strip() if after is not None else title


#: what joins a second work to the one a citation ends (``A (Keller et al.) + B``, ``→ B``, ``vs B``)
_JOINS_ANOTHER_RE = lazy(r"[\s)）\]]*(?:\+|→|->|&|and\s|vs\.?\s|then\s)", re.I)
#: the words after a citation that opens a cell, set off by a dash or a colon: the title
_TITLE_AFTER_DASH_RE = lazy(r"\s*(?:[—–:]|-{1,2}\s)\s*(?P<title>\S.*)$")


#: what may stand between a citation and the identifier after it: a comma or a bracket, and
#: the venue and year the citation was published in (``Silver et al. Nature 2016 (10.1038/…)``)
_VENUE_BEFORE_ID_RE = lazy(r"[\s,;:.]*(?:[A-Z][\w.&'’ -]{0,30}?\s*(?P<year>(?:19|20)\d{2}))?[\s,;:.(（]*")


def _take_citation_before_id(own: Mention, text: str) -> None:
    """A paper known by its one identifier takes the authors of the author-year citation
    written right before it, with only a comma between (``batchnorm :: Ioffe & Szegedy 2015,
    arXiv:1502.03167``, ``CoT — Wei et al. 2022, 2201.11903``): the citation and the
    identifier name the same paper, as a reference's authors and its identifier do."""
    ids = find_text_ids(text)
    if len(ids) != 1 or len(own.urls) != 1:
        return
    cites = find_citations(text[:ids[0].start])
    between = _VENUE_BEFORE_ID_RE.fullmatch(text, cites[-1].end, ids[0].start) if cites else None
    if between is None:
        return
    year = cites[-1].year or (int(between.group("year")) if between.group("year") else None)
    if year is None:
        return  # (names alone before an identifier may be anyone's: a citation has its year)
    own.authors, own.authors_incomplete = list(cites[-1].authors), cites[-1].incomplete
    if own.year is None or own.year_from_page:
        own.year, own.year_from_page = year, False


def _take_bracketed_citation(own: Mention, text: str, *, keep_authors: bool = False) -> bool:
    """A paper known by its one identifier takes the authors of the citation written in
    the same brackets as that identifier, or in brackets right after it: the brackets say
    whose paper the identifier is (``Chinchilla (Hoffmann et al. 2022, arXiv:2203.15556)``).
    A citation elsewhere on the line is left alone: it may cite another paper.

    True when the brackets hold the identifier alone right after a name (``… and Atlas
    (arXiv:2208.03299) if you have the compute``): the identifier is that name's, so the
    titles and citations elsewhere on the line are other papers."""
    ids = find_text_ids(text)
    if len(ids) != 1 or len(own.urls) != 1:
        return False
    inside = _bracket_holding(text, ids[0].start, ids[0].end)
    if inside is None:
        return False
    rest = inside.replace(text[ids[0].start:ids[0].end], " ")
    if _ID_ONLY_RE.match(rest):
        opened = max(text.rfind(b, 0, ids[0].start) for b in _BRACKETS_AROUND)
        return opened > 0 and _NAME_BEFORE_BRACKET_RE.search(text, 0, opened) is not None
    cites = find_citations("(" + rest + ")")
    if len(cites) != 1:
        return False
    if not keep_authors:  # (authors the line's own citation already gave stand; its title is still read here)
        own.authors, own.authors_incomplete = list(cites[0].authors), cites[0].incomplete
    if own.title is None and (quoted := _quoted_before(text, ids[0].start)) is not None:
        own.title, own.kind = quoted, "titled"  # ``E5 = "Text Embeddings by …" (Wang et al. 2022, 2212.03533)``
    if cites[0].year is not None and (own.year is None or own.year_from_page):
        own.year, own.year_from_page = cites[0].year, False
    return False


@per_text
def _citations_in(text: str) -> tuple:
    """The author-year citations of one line as read (links by their labels, no URLs),
    remembered per text: the same line is often looked at again."""
    return tuple(find_citations(strip_urls(strip_markup(text)))) if has_citation_cue(text) else ()


def _citations_by_line(node: Node) -> list[tuple[int, Citation]]:
    """The author-year citations of ``node``, each with the line it starts on (its offsets
    that line's). A wrapped
    paragraph is read whole, so a citation the wrap cut (``(Künzel, Sekhon,`` / ``Bickel &
    Yu, PNAS 2019)``) is read as written; where links or markup make the read text differ
    from the paragraph's (offsets would not map), each line is read on its own."""
    if not _read_whole(node):
        return [(line, cite) for line, part in _lines_of(node) for cite in _citations_in(part)]
    out, starts = [], _line_spans(node)
    for cite in _citations_in(node.text):
        line, begin, _ = next(span for span in reversed(starts) if span[1] <= cite.start)
        out.append((line, replace(cite, start=cite.start - begin, end=cite.end - begin)))  # (offsets in its line, as read line by line)
    return out


def _read_whole(node: Node) -> bool:
    """``node`` is a wrapped paragraph whose citations are read in its whole text: more than
    one line, and no links or markup that would make the read text differ from it."""
    return len(_lines_of(node)) > 1 and strip_urls(strip_markup(node.text)) == node.text


def _line_spans(node: Node) -> list[tuple[int, int, int]]:
    """Each line joined into ``node``: its number and where it begins and ends in the node's text."""
    out, at = [], 0
    for line, part in _lines_of(node):
        out.append((line, at, at + len(part)))
        at += len(part) + 1
    return out


def _lines_of(node: Node) -> list[tuple[int, str]]:
    """The lines joined into ``node`` (a wrapped paragraph, a chat message), each with its
    number; the node's text as one line when nothing was joined."""
    if not node.widths or len(node.widths) != 1 + len(node.merged):
        return [(node.line, node.text)]
    out, at = [], 0
    for line, width in zip((node.line, *node.merged), node.widths):
        out.append((line, node.text[at:at + width]))
        at += width + 1
    return out


def _is_link_line(text: str) -> bool:
    """Only URLs (and maybe hashtags) on the line."""
    return is_url_only(strip_hashtags(text))


def _is_titled_link_line(text: str) -> bool:
    """``Title https://arxiv.org/...`` on one plain line: a title with its paper URL."""
    urls = find_urls.shared(text)
    if not urls or not any(classify_url(u) == "paper" for u in urls):
        return False
    rest = strip_hashtags(strip_urls(text)).rstrip(" -–—:|")
    return looks_like_title(rest)


#: the item a Zotero annotation's citation links to (``](zotero://select/library/items/7QK3ZP9D)``)
_ZOTERO_ITEM_RE = lazy(r"\]\(zotero://select/(?:library|groups/\d+)/items/(?P<key>[A-Za-z0-9]+)\)")


def _section_under(roots: list[Node], at: int) -> list[Node]:
    """The nodes under the heading ``roots[at]``, down to the next heading of its level or above."""
    level = roots[at].level
    out = []
    for node in roots[at + 1:]:
        if node.kind == "heading" and node.level <= level:
            break
        out.append(node)
    return out


def _annotated_item_title(node: Node, section: list[Node]) -> str | None:
    """The heading's text when the section under it annotates one Zotero item (every
    citation link in it points at the same item) and the text is written as a title."""
    keys: set[str] = set()
    stack = list(section)
    while stack:
        child = stack.pop()
        if "zotero://" in child.text:  # (what the pattern cannot match without; most lines have none)
            keys.update(m.group("key") for m in _ZOTERO_ITEM_RE.finditer(child.text))
        stack.extend(child.children)
    if len(keys) != 1:
        return None
    title = strip_hashtags(node.text).strip()
    return title if 3 <= len(title.split()) <= 30 and looks_like_title(title) else None


def _is_paper_heading(text: str) -> bool:
    """A heading with nothing below it that is still a paper on its own: a paper URL, a
    title linked to its paper page, or a title with its authors."""
    text = strip_hashtags(text)
    return (_is_link_line(text) and any(classify_url(u) == "paper" for u in find_urls.shared(text))) or _is_titled_link_line(text) or names_a_paper(text)


def _lists_links(node: Node) -> bool:
    """Two or more bare links to the same site under one line, or to pages of two different
    papers (two DOIs, two arXiv ids: one paper has one of each, whatever sites give them):
    a list of papers, not one paper's links."""
    links = [
        find_urls.shared(c.text)[0]
        for c in node.children
        if not c.children and _is_link_line(c.text) and classify_url(find_urls.shared(c.text)[0]) in ("paper", "code", "project")
    ]
    hosts = [urlsplit(url).netloc.lower() for url in links]
    return len(hosts) != len(set(hosts)) or _names_two_papers(links)


def _names_two_papers(links: list[str]) -> bool:
    """Two of ``links`` carry different identifiers of one scheme (two DOIs, two arXiv ids)."""
    seen: dict[str, str] = {}
    for url in links:
        ids = ids_from_url(url)
        if ids.doi is None and (doi := doi_in_url(url)):
            ids.doi = doi
        for scheme, value in ids.items():
            if seen.setdefault(scheme, value) != value:
                return True
    return False


def _outline(held: list[str], file: str, extractor: "_Extractor") -> Iterator[list[Node]]:
    """The outline of the text in ``held`` by the reader of its format (the
    :data:`~citekit.notes.formats.FORMATS` row of its suffix), piece by piece: a big file's
    nodes are built, read and dropped one piece at a time. An exported file (Slack, Notion)
    is transcribed into notes text first; pasted BibTeX entries are cut out next, whatever
    the format."""
    from citekit.notes.formats.bibtex import cut_bibtex_entries, problems_of

    fmt = format_of(file)
    text = held.pop()
    transcribe = fmt.load_transcriber()
    if transcribe is not None:
        from citekit.notes.urls import add_missing_schemes

        extractor.transcript = transcribe(text, file)
        text = add_missing_schemes(extractor.transcript.text)
    text, entries = cut_bibtex_entries(text, file)
    if looks_like_report(text):
        text = rewrite_report(text)  # a Zotero report copied as text: one bullet per item
    text = without_quoted_passages(text)  # “words of the paper” (He et al., 2022, p. 1): its text, not its title
    if "\n--" in text or "\n> --" in text:
        text = without_signatures(text)  # an e-mail's signature blocks: a name, a title, a quip
    if "intended" in text or "addressee" in text:
        text = without_disclaimers(text)  # "… intended recipient … Marlow, Keane & Partners (2024)": a firm, no authors
    if ":" in text:
        text = without_address_lines(text)  # From:, To:, Cc:, Sent: and "On … wrote:" lines (last: they say the text is an e-mail)
    if has_link_previews(text):
        text = with_link_titles(text)  # a chat copied out of the app: each preview's title beside its link
    extractor.bibtex = entries
    extractor.problems.extend(problems_of(entries, file))
    if not text or text.isspace():
        return  # (nothing but pasted BibTeX, as ``add`` is handed: no reader to load or run)
    held.append(text)
    del text  # the reader takes the text out of ``held`` and frees it as it goes
    yield from fmt.load()(held, file, extractor)


#: an e-mail's header or reply line: the text is (or quotes) an e-mail
_MAIL_HEADER_RE = lazy(r"^(?:>[ \t]*)*(?:From|Subject|To|Sent|Date):\s|wrote:[ \t]*$|(?<!-)-{3,}[ \t]*Forwarded message", re.M)
#: what :data:`_MAIL_HEADER_RE` cannot match without (it is case-sensitive)
_MAIL_HEADER_NEEDLES = ("From:", "Subject:", "To:", "Sent:", "Date:", "wrote:", "Forwarded message")


def _mail_header(text: str) -> bool:
    """``_MAIL_HEADER_RE.search(text)``, tried only when ``text`` holds one of the words the
    pattern needs: its alternation was tried at every character of the whole file (about
    50 ms of 2 MB of notes that hold no e-mail), where a substring test is a fast scan."""
    return any(n in text for n in _MAIL_HEADER_NEEDLES) and _MAIL_HEADER_RE.search(text) is not None
#: the line that opens an e-mail's signature (``-- `` alone, maybe quoted)
_SIGNATURE_RE = lazy(r"^(?P<q>(?:>\s*)*)--\s?$")


#: a header line of an e-mail that says who sent it, to whom and when (maybe quoted); the
#: subject is kept, a paper's title may be it
_ADDRESS_LINE_RE = lazy(r"^(?:>[ \t]*)*(?:From|To|Cc|CC|Bcc|BCC|Sent|Date|Reply-To):[ \t].*$", re.M)


#: the line a reply quotes its message under, maybe wrapped onto a second or third line
#: (``On Tue, 4 Jun 2024 at 09:12, Okafor, Tomas`` / ``(2021 cohort) <t@example.org> wrote:``):
#: a date (a digit soon after its first word) and a sender, whose "Family, Given (year …)"
#: reads as a citation
_REPLY_LINE_RE = lazy(r"^(?:>[ \t]*)*(?:On|Am|Le)\s[^\n\d]{0,40}\d[^\n]{0,200}(?:\n(?:>[ \t]*)*(?!On\s)[^\n]{0,200}){0,2}?"
                      r"(?:\bwrote|\bschrieb|\ba\s+écrit)\s*:[ \t]*$", re.M)


#: what only an e-mail writes: a sender's address in a From: line, Outlook's Sent: line, a
#: reply line, or the line a forward or a reply opens its copied message with
_SENDER_RE = lazy(r"^(?:>[ \t]*)*From:[^\n]*[@<]|^(?:>[ \t]*)*Sent:\s|wrote:[ \t]*$|schrieb[^\n]*:[ \t]*$|a\s+écrit\s*:[ \t]*$"
                  r"|(?:-{3,}|_{8,})[ \t]*(?:Forwarded message|Original Message)|^Begin forwarded message", re.M | re.I)


def without_address_lines(text: str) -> str:
    """``text`` with the lines of its e-mails' headers that name people and dates blanked
    (the same number of lines): ``To: Brandt, Jonas (2021 cohort)`` is an address, and the
    reply line ``On …, Brandt, Jonas (2019) <…> wrote:`` a sender, not a citation. Only in an
    e-mail (:data:`_SENDER_RE`): a notes page's ``Date: June 13, 2024`` property or a ``To:``
    line of its own is no header."""
    if not _mail_header(text) or _SENDER_RE.search(text) is None:
        return text
    text = _ADDRESS_LINE_RE.sub("", text)
    if "wrote:" in text or "schrieb" in text or "écrit" in text:
        text = _REPLY_LINE_RE.sub(lambda m: "\n" * m.group().count("\n"), text)  # "On …, Okafor, Tomas (2021 cohort) <…> wrote:"
    return text


#: the words of an e-mail's legal disclaimer (no paper writes them of itself)
_DISCLAIMER_RE = lazy(r"\bintended\s+(?:recipient|addressee)|\bsolely\s+for\s+the\s+addressee|\bsole\s+use\s+of\s+the\s+(?:intended|addressee)", re.I)


def without_disclaimers(text: str) -> str:
    """``text`` with each paragraph of an e-mail's legal disclaimer blanked (the same number
    of lines): its firm and year (``Marlow, Keane & Partners (2024)``, ``Smith & Jones LLP,
    2024``) read as a citation or a reference. A paragraph is a disclaimer when it speaks
    of the intended recipient or addressee, in a few lines (a long run of lines with no blank
    one between is a message written unbroken, not a disclaimer). Only in a text with an
    e-mail's header or reply line."""
    if not _mail_header(text) or _SENDER_RE.search(text) is None:
        return text
    paragraphs = re.split(r"(\n[ \t>]*\n)", text)
    return "".join("\n" * part.count("\n") if i % 2 == 0 and part.count("\n") < _DISCLAIMER_LINES and _DISCLAIMER_RE.search(part) else part
                   for i, part in enumerate(paragraphs))


#: the most lines a disclaimer runs to without a blank line
_DISCLAIMER_LINES = 10


def without_signatures(text: str) -> str:
    """``text`` with the lines of each e-mail signature blanked (the same number of lines):
    after a line that is ``--`` alone, up to the next blank line, the sender's name, title
    and quip (``"All models are wrong" -- yes, we know.``) cite nothing. Only in a text with an
    e-mail's header or reply line."""
    if not _mail_header(text):
        return text
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _SIGNATURE_RE.match(lines[i])
        if m is None:
            i += 1
            continue
        quote = m.group("q")
        while i < len(lines) and lines[i][len(quote):].strip() and lines[i].startswith(quote):
            lines[i] = ""
            i += 1
    return "\n".join(lines)


def extract_text(text: str, file: str) -> ExtractResult:
    """Mentions in one notes text; ``file`` is the name used in locations and problems.

    ``.md`` files are read through markdown-it-py, ``.org`` files through orgparse, and
    everything else (``.txt``) by the indentation outline reader; pasted BibTeX entries
    are cut out first in every format.
    """
    return _run([text], file).result


def extract_owned(held: list[str], file: str) -> ExtractResult:
    """:func:`extract_text` on the one text in ``held``, which it takes out of the list:
    when the caller keeps no other reference, the text is freed as soon as it has been
    cut into pieces (a 50 MB file is not held twice while its mentions are built)."""
    return _run(held, file).result


def explain_text(text: str, file: str) -> tuple[list[Decision], list[Problem]]:
    """Every decision extraction made on ``text``, in line order (``extract --explain``),
    and the problems met."""
    run = _run([text], file, explaining=True)
    seen: set[tuple[int, str, str]] = set()
    decisions = []
    for d in sorted(run.trace, key=lambda d: (d.line, d.outcome != "mention")):
        # a line looked at twice (as section, then as paper) once; several papers on one
        # line (a chat message, a Notion page written on one line) each keep their own
        if (d.line, d.outcome, d.text) not in seen:
            seen.add((d.line, d.outcome, d.text))
            decisions.append(d)
    taken = {d.line for d in decisions if d.outcome == "mention"}
    judged = {d.line for d in decisions if d.outcome != "dropped"}  # a line judged on its own needs no "dropped"
    return [d for d in decisions if (d.outcome == "mention" or d.line not in taken) and (d.outcome != "dropped" or d.line not in judged)], run.result.problems


def _to_file_lines(transcript: Transcript, mentions: list[Mention], extractor: _Extractor) -> None:
    """Every line number of a transcribed file's results put back to the exported file's
    line it came from; the transcriber's own problems (already in file lines) join them."""
    from dataclasses import replace

    at = transcript.file_line
    for mention in mentions:
        mention.location = replace(mention.location, line=at(mention.location.line))
    for decision in extractor.trace:
        decision.line = at(decision.line)
    extractor.problems = [p if p.line is None else replace(p, line=at(p.line)) for p in extractor.problems]
    extractor.problems.extend(transcript.problems)


@dataclass
class _Run:
    result: ExtractResult
    trace: list[Decision]


@contextmanager
def _collect_per_piece() -> Iterator[bool]:
    """Switch the automatic cycle collector off while a file is read; the caller collects
    the youngest generation once per piece instead (when the collector was on).

    Extraction allocates many small objects that live until the end (mentions); the
    automatic collector keeps re-walking them, which cost a tenth of the time and made it
    grow with the file. The outline holds no reference cycles, so reference counting frees
    each piece; the one collection per piece catches anything cyclic all the same, and
    walks each surviving object once.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield enabled
    finally:
        if enabled:
            gc.enable()


def _run(held: list[str], file: str, *, explaining: bool = False) -> _Run:
    with _collect_per_piece() as collect:
        return _run_unguarded(held, file, explaining, collect)


def _run_unguarded(held: list[str], file: str, explaining: bool, collect: bool = False) -> _Run:
    extractor = _Extractor(file)
    extractor.explaining = explaining
    mentions: list[Mention] = []
    # The readers yield each piece without keeping it (a generator suspended at ``yield
    # roots`` still holds ``roots``): the piece is freed here as soon as it is read, not
    # when the next one is made, so the collection below does not walk its whole outline
    # (half of what it walked) only to see it freed a moment later.
    for roots in _outline(held, file, extractor):
        mentions.extend(extractor.run(roots))
        del roots
        if collect:
            gc.collect(0)
    for entry in extractor.bibtex:
        mention = entry.mention(file, extractor.scope.venue)
        if mention is not None:
            mentions.append(mention)
            extractor.trace.append(Decision(entry.line, "mention", "a pasted BibTeX entry", mention.title or "", mention))
        else:
            extractor.trace.append(Decision(entry.line, "rejected", entry.why_not or "a BibTeX entry without a title", entry.key))
    for line, why in extractor.skipped:
        extractor.trace.append(Decision(line, "skipped", why, ""))
    if extractor.transcript is not None:
        _to_file_lines(extractor.transcript, mentions, extractor)
    mentions.sort(key=lambda m: m.location.line)
    return _Run(ExtractResult(mentions=mentions, problems=sorted(extractor.problems, key=lambda p: p.line or 0)), extractor.trace)


def stream_held(held: list[str], file: str, problems: list[Problem]) -> Iterator[Mention]:
    """The mentions of the one notes text in ``held`` (taken out of it), yielded piece by
    piece as its reader makes them; the problems met are added to ``problems`` at the end.

    What :func:`extract_owned` gives, without holding all the mentions: for a big file of a
    format read in pieces (Markdown: :func:`~citekit.notes.formats.markdown.markdown_pieces`)
    whose text needs none of the whole-text steps that place mentions after the pieces are
    read (pasted BibTeX, an export's transcript), checked by the caller
    (:func:`citekit.notes.stream.streamable`). The pieces come in line order and each
    piece's mentions are sorted, so the order is the whole reading's."""
    extractor = _Extractor(file)
    yield from _piece_by_piece(_outline(held, file, extractor), extractor, problems)


def stream_plain(lines: Iterator[str], file: str, problems: list[Problem], *, total: int | None = None) -> Iterator[Mention]:
    """The mentions of a plain-text notes file given line by line (``lines`` as
    :func:`~citekit.notes.formats.plain.split_lines` cuts the whole text), yielded piece by
    piece as they are found; the problems met are added to ``problems``, in line order,
    once the last mention has been yielded.

    What :func:`extract_text` gives, without ever holding the whole text or all the
    mentions: the outline is cut where a piece parses the same alone
    (:func:`~citekit.notes.outline.outline_pieces`), and every mention of a piece lies on a
    line of that piece, so sorting each piece's mentions sorts them all. Only for a text
    that needs none of the whole-text steps of :func:`_outline` (pasted BibTeX entries,
    whose mentions take the venue of the file's end; a Zotero report; a chat's link
    previews; an exported file's transcript): the caller checks that first
    (:func:`citekit.notes.stream.streamable`). ``total``: how many lines ``lines`` gives,
    so the mention finder places each line as in the whole text."""
    extractor = _Extractor(file)
    yield from _piece_by_piece(outline_pieces(lines, total=total), extractor, problems)


def _piece_by_piece(pieces: Iterator[list[Node]], extractor: "_Extractor", problems: list[Problem]) -> Iterator[Mention]:
    """Each piece's mentions, sorted by line, handed on before the next piece is read; the
    problems met are added to ``problems`` at the end. The piece and its mentions are
    dropped as soon as they are handed on (see :func:`_collect_per_piece`)."""
    with _collect_per_piece() as collect:
        for roots in pieces:
            found = sorted(extractor.run(roots), key=lambda m: m.location.line)
            del roots
            if collect:
                gc.collect(0)
            yield from found
            del found
        problems.extend(sorted(extractor.problems, key=lambda p: p.line or 0))
