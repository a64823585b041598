"""From the outline of a notes file to :class:`~citekit.model.Mention` values.

A line becomes a paper mention only on evidence: a paper URL, labelled details
(``著者:``, ``まとめ:``, pins), or — for titles mentioned again later without details — an
author list or a summary sentence below it. People, meals, talks and socials never carry
that evidence, and a talk URL (``/invited-talk/``, a tutorial) rules a line out outright.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from ..ids import ids_from_url
from ..model import Ids, Location, Mention
from ..venues import from_text, from_url
from .abstracts import looks_like_abstract, method_hints
from .labels import PIN_EXAMPLES, Label, parse_label, parse_pin, split_authors
from .outline import Node, parse_outline
from .reader import split_lines
from .result import ExtractResult, Problem
from .shapes import (
    authors_line, hashtags, is_long_remark, is_person_line, is_summary_sentence, looks_like_section_label,
    looks_like_title, strip_hashtags,
)
from .urls import classify_url, find_urls, is_url_only, markdown_links, strip_urls


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


def _add_url(details: _Details, url: str, label: str | None, *, hard: bool) -> None:
    """File one URL under the title by what kind of page it is."""
    kind = classify_url(url)
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
    elif kind == "slides":
        details.links.setdefault("slides", url)
    else:
        details.links.setdefault("pdf" if kind == "document" else "link", url)
        details.soft = details.soft or kind == "document"


def _apply_label(details: _Details, label: Label, node: Node, file: str, problems: list[Problem]) -> None:
    if label.field in ("url", "project", "code", "slides", "video"):
        for url in find_urls(label.value):
            _add_url(details, url, label.field, hard=True)
    elif label.field == "authors":
        details.authors = details.authors or split_authors(label.value)
        details.hard = details.hard or bool(details.authors)
    elif label.field == "summary" and label.value:
        details.summary = details.summary or label.value
        details.hard = True
    elif label.field == "abstract" and label.value:
        details.abstract = details.abstract or label.value
        details.hard = True
    elif label.field == "title" and label.value:
        details.title = details.title or label.value
    elif label.field == "pin":
        pin = parse_pin(label.name, label.value)
        if pin is None:
            problems.append(Problem(file, node.line, f"{label.name} pin {label.value!r} is not a valid {label.name} identifier; write it like `{PIN_EXAMPLES[label.name]}`"))
            return
        setattr(details.pins, pin[0], pin[1])
        details.hard = True
        for url in find_urls(label.value):
            _add_url(details, url, None, hard=True)


def _read_children(node: Node, file: str, problems: list[Problem]) -> _Details:
    """Details from the lines directly below a title (lines with children of their own are
    sub-items, not details)."""
    details = _Details()
    for child in node.children:
        details.hashtags.extend(hashtags(child.text))
        label = parse_label(child.text)
        if label is not None:
            _apply_label(details, label, child, file, problems)
            continue
        if child.children:
            continue
        text = strip_hashtags(child.text)
        if is_url_only(text):
            for url in find_urls(text):
                _add_url(details, url, None, hard=False)
        elif (names := authors_line(text)) is not None:
            details.authors = details.authors or names
            details.soft = True
        elif is_person_line(text):
            continue
        elif is_summary_sentence(text):
            details.summary = details.summary or text
            details.soft = True
        elif is_long_remark(text) and details.fallback_summary is None:
            details.fallback_summary = text
    return details


def _title_and_inline(node: Node, details: _Details) -> str:
    """The title as written, with the line's own URLs and hashtags moved into ``details``."""
    text = node.text
    own = parse_label(text)
    if own is not None and own.field == "title":
        text = own.value
    for _label, url in markdown_links(text):
        _add_url(details, url, None, hard=True)
    for url in find_urls(_without_markdown_links(text)):
        _add_url(details, url, None, hard=True)
    details.hashtags[:0] = hashtags(text)
    title = strip_hashtags(strip_urls(text))
    title = title.strip().rstrip(" -–—:|").strip()
    if len(title) > 4 and title[:2] == title[-2:] and title[:2] in ("**", "__"):
        title = title[2:-2].strip()
    return details.title or title


def _without_markdown_links(text: str) -> str:
    """``text`` with Markdown links removed (their URLs are read separately)."""
    return re.sub(r"\[[^\]]*\]\(https?://[^)\s]+\)", " ", text)


class _Extractor:
    """Walks one file's outline, keeping the section/venue scope, collecting mentions."""

    def __init__(self, file: str) -> None:
        self.scope = _Scope(file)
        self.file = file
        self.problems: list[Problem] = []

    def run(self, roots: list[Node]) -> list[Mention]:
        mentions: list[Mention] = []
        for node in roots:
            mentions.extend(self._root(node))
        mentions.sort(key=lambda m: m.location.line)
        return mentions

    def _root(self, node: Node) -> list[Mention]:
        if node.kind == "heading":
            if node.children:
                found = self._visit(node)
                if found:
                    return found
            self.scope.enter_heading(node.level, strip_hashtags(node.text))
            return []
        if node.kind == "bullet" or _is_link_line(node.text) or _is_titled_link_line(node.text):
            return self._visit(node)
        if node.children:
            return self._labelled_block(node)
        if looks_like_abstract(node.text):
            return [self._abstract(node)]
        if looks_like_section_label(node.text):
            self.scope.enter_label(node.text)
        return []

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
        inner: list[Mention] = []
        container = False
        for child in node.children:
            found = self._visit(child) if (child.children or child.kind != "plain" or is_url_only(child.text)) and not child.is_detail else []
            if any(child.children and m.location.line == child.line for m in found):
                container = True  # a child is a paper with its own details
            inner.extend(found)
        if container or _lists_links(node):
            return inner
        own = self._as_mention(node)
        if own is not None:
            return [own]
        return inner

    def _as_mention(self, node: Node) -> Mention | None:
        details = _read_children(node, self.file, self.problems)
        title = _title_and_inline(node, details)
        if details.talk:
            return None
        if not title:
            return self._url_mention(node, details)
        if not details.hard:
            if not details.soft or not looks_like_title(title):
                return None
        summary = details.summary or (details.fallback_summary if details.hard else None)
        return self._mention("titled", node, details, title=title, summary=summary)

    def _url_mention(self, node: Node, details: _Details) -> Mention | None:
        """A bare URL line: a paper page, or a project/code page with no title (kept as a
        link so the work is not lost; resolution may name it later)."""
        if details.urls:
            return self._mention("url", node, details, summary=details.summary)
        project = details.links.get("project") or details.links.get("code")
        if project:
            return self._mention("url", node, details, summary=details.summary)
        return None

    def _mention(self, kind: str, node: Node, details: _Details, *, title: str | None = None, summary: str | None = None) -> Mention:
        ids = Ids()
        venue = year = None
        for url in details.urls:
            ids = ids.merged(ids_from_url(url))
            if venue is None:
                v, y, _kind = from_url(url)
                venue, year = v, y
        if venue is None:
            venue, year = self.scope.venue
        return Mention(
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
            hashtags=list(dict.fromkeys(details.hashtags)),
            section=self.scope.section,
        )

    def _abstract(self, node: Node) -> Mention:
        details = _Details()
        for url in find_urls(node.text):
            _add_url(details, url, None, hard=False)
        details.hashtags = hashtags(node.text)
        mention = self._mention("abstract", node, details)
        mention.abstract = node.text
        mention.hints = method_hints(node.text)
        return mention


def _is_link_line(text: str) -> bool:
    """Only URLs (and maybe hashtags) on the line."""
    return is_url_only(strip_hashtags(text))


def _is_titled_link_line(text: str) -> bool:
    """``Title https://arxiv.org/...`` on one plain line: a title with its paper URL."""
    urls = find_urls(text)
    if not urls or not any(classify_url(u) == "paper" for u in urls):
        return False
    rest = strip_hashtags(strip_urls(text)).rstrip(" -–—:|")
    return looks_like_title(rest)


def _lists_links(node: Node) -> bool:
    """Two or more bare links to the same site under one line: a list of papers, not one paper's links."""
    hosts = [
        urlsplit(find_urls(c.text)[0]).netloc.lower()
        for c in node.children
        if not c.children and _is_link_line(c.text) and classify_url(find_urls(c.text)[0]) in ("paper", "code", "project")
    ]
    return len(hosts) != len(set(hosts))


def _is_org(file: str) -> bool:
    return PurePosixPath(file).suffix.lower() == ".org"


def extract_text(text: str, file: str) -> ExtractResult:
    """Mentions in one notes text; ``file`` is the name used in locations and problems."""
    extractor = _Extractor(file)
    roots = parse_outline(split_lines(text), org=_is_org(file))
    mentions = extractor.run(roots)
    return ExtractResult(mentions=mentions, problems=sorted(extractor.problems, key=lambda p: p.line or 0))
