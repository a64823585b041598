"""Labelled detail lines (``URL:``, ``著者:``, ``作者:``, ``저자:``, ``Summary:``, ``arxiv:`` ...) in English, Japanese, Chinese and Korean.

One table maps every spelling a user may write to one field, so adding a label is a
one-line change and the extractor never compares label strings itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citekit.core.venues import from_text
from citekit.core.ids import normalize_arxiv, normalize_dblp, normalize_doi, normalize_openreview
from citekit.notes.memo import copied, per_text
from citekit.notes.urls import find_urls
from citekit.core.lazyre import lazy

Field = Literal[
    "url", "authors", "summary", "abstract", "project", "code", "slides", "video", "title", "pin", "venue", "tags",
    "kind", "speaker",
]

_LABELS: dict[str, Field] = {
    "url": "url", "link": "url", "paper": "url", "poster": "url", "oral": "url", "pdf": "url",
    "論文": "url", "リンク": "url", "链接": "url", "鏈接": "url", "링크": "url", "논문 링크": "url",
    "authors": "authors", "author": "authors", "by": "authors", "著者": "authors", "著者名": "authors",
    "作者": "authors", "저자": "authors",
    "summary": "summary", "tl;dr": "summary", "tldr": "summary", "まとめ": "summary", "要約": "summary",
    "概要": "summary", "一言": "summary", "总结": "summary", "總結": "summary", "요약": "summary", "한줄요약": "summary",
    # a remark on the paper is kept with it as its summary
    "notes": "summary", "note": "summary", "comment": "summary", "comments": "summary", "メモ": "summary",
    "感想": "summary", "コメント": "summary", "笔记": "summary", "筆記": "summary", "备注": "summary", "備註": "summary",
    "评论": "summary", "메모": "summary", "노트": "summary", "코멘트": "summary", "비고": "summary",
    "abstract": "abstract", "アブストラクト": "abstract", "要旨": "abstract", "摘要": "abstract", "초록": "abstract",
    "project page": "project", "project": "project", "website": "project", "homepage": "project",
    "page": "project", "プロジェクトページ": "project", "プロジェクト": "project",
    "code": "code", "github": "code", "repo": "code", "repository": "code", "コード": "code", "代码": "code", "代碼": "code", "코드": "code",
    "slides": "slides", "slide": "slides", "スライド": "slides",
    "video": "video", "動画": "video",
    "title": "title", "タイトル": "title", "题目": "title", "題目": "title", "标题": "title", "標題": "title",
    "论文": "title", "제목": "title", "논문": "title",
    "openreview": "pin", "doi": "pin", "arxiv": "pin", "dblp": "pin",
    "year": "venue", "年": "venue", "年份": "venue", "年度": "venue", "発表年": "venue", "연도": "venue", "발표": "venue",
    "venue": "venue", "conference": "venue", "booktitle": "venue", "journal": "venue", "会議": "venue",
    "学会": "venue", "発表": "venue", "会议": "venue", "會議": "venue", "期刊": "venue", "학회": "venue", "저널": "venue",
    # where the paper was published ("source"), as Chinese, Japanese and Korean notes label it
    "出处": "venue", "出處": "venue", "来源": "venue", "來源": "venue", "出典": "venue", "출처": "venue",
    "tags": "tags", "tag": "tags", "タグ": "tags", "标签": "tags", "標籤": "tags", "태그": "tags",
    "type": "kind", "種類": "kind",
    "speaker": "speaker", "speakers": "speaker", "presenter": "speaker", "host": "speaker", "発表者": "speaker",
    "講演者": "speaker", "attendees": "speaker",
}
#: Labels whose value must be a URL: otherwise the line is a title that merely starts with
#: the word (``Paper: ...`` is rare, ``Code: A Benchmark`` is not).
_URL_VALUED = {"url", "project", "code", "slides", "video"}
_LABEL_RE = lazy(r"^\s*(?P<label>[^:：]{1,24}?)\s*(?:::|[:：])\s*(?P<value>.*)$")
_AUTHOR_SEP_RE = lazy(r"\s*(?:⋅|·|・|•|;|；|、|，|\band\b|&)\s*|\s*,\s*")
_ET_AL_RE = re.compile(r",?\s*(?:et al\.?|and others|ほか|他|等人|等|외(?:\s*\d+\s*명)?)\s*$", re.I)


#: a year written after an author list on its label's line (``作者: Long Ouyang 等, 2022``,
#: ``Authors: A, B (2021)``): the paper's year, not an author
_TRAILING_YEAR_RE = lazy(r"[,;]?\s*[(（]?\s*((?:19|20)\d{2})\s*[)）]?\s*$")


#: a remark in brackets after the names, with no digit in it: the group or company the
#: authors are from (``Borgeaud et al. (DeepMind)``, ``Brown et al. (OpenAI)``), not a name
_TRAILING_AFFILIATION_RE = lazy(r"\s*[(（][^()（）\d]{2,40}[)）]\s*$")
#: names left out in the middle of a list: ``Schick, Dwivedi-Yu, … , Scialom``
_LEFT_OUT_RE = lazy(r"(?:^|(?<=[\s,;]))(?:…|\.\s?\.\s?\.)(?=[\s,;]|$)")


#: a venue and its year after the names, after a comma or in brackets (``作者: Peters 等,
#: NAACL 2018``, ``저자: He, Fan, Wu (CVPR 2020)``)
_TRAILING_VENUE_RE = lazy(r"(?:,|;|\s(?=[(（]))\s*[(（]?\s*(?P<venue>[A-Za-z][\w&\- ]{0,30}?\s*['’]?\s*(?:(?:19|20)\d{2}|\d{2}))\s*[)）]?\s*$")


#: a venue citekit has no list entry for, written as venues are: one word with two capitals
#: or more that ends on one (``NAACL``, ``MICCAI``, ``NeurIPS``), and a four-digit year; a
#: family name ends in lower case (``LeCun``, ``McCann``)
_VENUE_ACRONYM_RE = lazy(r"(?P<name>(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z][A-Za-z&\-]{0,10}[A-Z])\s*(?P<year>(?:19|20)\d{2})")


def _trailing_venue(value: str) -> re.Match[str] | None:
    """``_TRAILING_VENUE_RE.search(value)``, tried only when ``value`` ends (spaces aside)
    on a digit or a closing bracket, as every match does: the pattern, anchored at the
    end, is otherwise tried from every comma and space of the line."""
    end = value.rstrip()[-1:]
    return _TRAILING_VENUE_RE.search(value) if end in (")", "）") or end.isdecimal() else None


def _without_trailing_venue(value: str) -> tuple[str, int | None]:
    """``value`` without a venue and year written after the names, and that year; the
    venue must be one citekit knows (``NAACL 2018``), so a name is never taken for one."""
    m = _trailing_venue(value)
    if m is None or not value[:m.start()].strip():
        return value, None
    venue, year = from_text(m.group("venue"))
    if venue is None and (short := _VENUE_ACRONYM_RE.fullmatch(m.group("venue"))) is not None:
        venue, year = short.group("name"), int(short.group("year"))
    if venue is None or year is None:
        return value, None
    return value[:m.start()].rstrip(), year


def authors_and_year(value: str) -> tuple[str, int | None]:
    """An author label's value without the year written after the names, and that year
    (and without a bracketed affiliation or a venue after the names)."""
    value = _TRAILING_AFFILIATION_RE.sub("", value)
    value, venue_year = _without_trailing_venue(value)
    if venue_year is not None:
        return value, venue_year
    m = _TRAILING_YEAR_RE.search(value)
    if m is None or not value[:m.start()].strip():
        return value, None
    return value[:m.start()].rstrip(), int(m.group(1))


@dataclass(frozen=True)
class Label:
    """One recognised ``label: value`` line."""

    field: Field
    name: str  # the label as written, lower-cased (``arxiv``, ``プロジェクトページ``)
    value: str


_SPACES_RE = lazy(r"\s+")


@per_text
def parse_label(text: str) -> Label | None:
    """The label a line starts with, if it is one citekit knows."""
    if text.find(":", 0, 60) < 0 and text.find("：", 0, 60) < 0:  # (no copy of the first 60 characters)
        return None
    m = _LABEL_RE.match(text)
    if not m:
        return None
    name = _SPACES_RE.sub(" ", m.group("label").strip().strip("*_").strip()).lower()
    field = _LABELS.get(name)
    if field is None:
        return None
    value = m.group("value").strip()
    if m.group("label").strip().startswith(("**", "__")):
        value = value.lstrip("*_ ").strip()  # **Authors:** A, B
    if field in _URL_VALUED and not find_urls.shared(value):
        return None
    if field == "url" and not value.lower().startswith(("http", "<http", "[")):
        return None
    return Label(field, name, value)


_AND_SPLIT_RE = lazy(r"\s+and\s+")
_PAGE_LINK_RE = lazy(r"\[\[([^\[\]]+)\]\]")
_DOT_OR_SEMICOLON_RE = lazy(r"[⋅·;]")


@copied
def split_authors(value: str) -> list[str]:
    """Author strings exactly as written, split on ``⋅``, ``,``, ``;``, ``and``.

    A BibTeX-style list (``Schaipp, Fabian and Gower, Robert``) keeps its ``Family, Given``
    pairs together: it is split on ``and`` only.
    """
    value = _ET_AL_RE.sub("", _LEFT_OUT_RE.sub(",", value.strip()))
    if "[[" in value:
        # Roam/Logseq: Author:: [[Tomas Mikolov]], or one page link per person with only
        # spaces between them (``[[Diederik P. Kingma]] [[Jimmy Ba]]``): each link is a name
        links = _PAGE_LINK_RE.findall(value)
        if len(links) > 1 and not _PAGE_LINK_RE.sub("", value).strip(" ,;&"):
            return [" ".join(link.split()) for link in links if link.strip()]
        value = value.replace("[[", "").replace("]]", "")
    and_parts = [p.strip() for p in _AND_SPLIT_RE.split(value) if p.strip()]
    if len(and_parts) > 1 and all(p.count(",") == 1 for p in and_parts) and not _DOT_OR_SEMICOLON_RE.search(value):
        return and_parts
    semi_parts = [p.strip() for p in re.split(r"\s*;\s*(?:and\s+|&\s*)?", value) if p.strip()]
    if len(semi_parts) > 1 and all(p.count(",") == 1 for p in semi_parts):
        # ``Bottou, Léon; Curtis, Frank E.; Nocedal, Jorge`` (a Zotero report, APA's own
        # lists): family, given pairs, one between each pair of semicolons
        return semi_parts
    parts = [p.strip() for p in _AUTHOR_SEP_RE.split(value) if p and p.strip()]
    return _family_initials_pairs(parts) or parts


_INITIALS_RE = lazy(r"(?:[A-Z]\.\s*-?\s*)+")


def _family_initials_pairs(parts: list[str]) -> list[str] | None:
    """``Lakshminarayanan, B., Pritzel, A., Blundell, C.`` split at every comma: each family
    name followed by its initials alone (APA's list, the family name first), put back as
    ``Family, I.`` pairs; None when the parts do not alternate so."""
    if len(parts) < 4 or len(parts) % 2:
        return None
    families, initials = parts[0::2], parts[1::2]
    if not all(_INITIALS_RE.fullmatch(i) for i in initials) or any(_INITIALS_RE.fullmatch(f) or "." in f for f in families):
        return None
    return [f"{family}, {initial}" for family, initial in zip(families, initials)]


def author_list_incomplete(value: str) -> bool:
    """True when the list ends in ``et al.``/``and others`` or leaves names out in the
    middle (``A, B, … , Z``): more authors than written."""
    return (bool(_ET_AL_RE.search(value.strip())) or bool(re.search(r"\band\s+others\s*$", value.strip(), re.I))
            or bool(_LEFT_OUT_RE.search(value)))


_ARXIV_CLASS_RE = lazy(r"\s*\[[a-z-]+(?:\.[A-Za-z-]+)?\]\s*$")


def parse_pin(scheme: str, value: str) -> tuple[str, str] | None:
    """``(scheme, canonical id)`` for a pin line, or None when the value is not that kind of id."""
    scheme = scheme.lower()
    normalizers = {"doi": normalize_doi, "arxiv": normalize_arxiv, "openreview": normalize_openreview, "dblp": normalize_dblp}
    value = value.strip().strip("<>")
    if scheme == "arxiv":
        value = _ARXIV_CLASS_RE.sub("", value)  # arXiv:2203.15556 [cs.CL]: the primary class, as arXiv cites itself
    canonical = normalizers[scheme](value)
    return (scheme, canonical) if canonical else None


PIN_EXAMPLES = {
    "doi": "doi: 10.1234/abcd", "arxiv": "arxiv: 2605.12345", "openreview": "openreview: FSlTEObdLl",
    "dblp": "dblp: conf/icml/SiPLPX25",
}


#: A leading word that says what kind of thing a line names (``Invited talk — Percy Liang``,
#: ``Podcast: The Gradient``, ``招待講演：...``, ``Paper: Title — A, B``). It is written
#: before a colon or a title dash, or alone on the line.
_KIND_PREFIX_RE = lazy(
    r"^\s*(?:\*\*|__)?(?P<kind>"
    r"(?:invited|contributed|workshop|spotlight|oral|plenary|keynote|guest|lightning)\s+talk|talk|"
    r"keynote(?:\s+(?:talk|speech|address|lecture))?|plenary|panel(?:\s+discussion)?|fireside\s+chat|"
    r"podcast(?:\s+episode)?|episode|video|youtube|livestream|recording|tutorial|slides?|slide\s+deck|"
    r"interview|lecture(?:\s+notes)?|course|seminar|webinar|blog(?:\s*post)?|post|thread|tweet|"
    r"(?:x|twitter)\s+thread|newsletter|demo|"
    r"paper|article|preprint|publication|"
    r"論文|招待講演|基調講演|講演|パネル(?:ディスカッション)?|チュートリアル|スライド|動画|ブログ|ポッドキャスト|"
    r"インタビュー|講義|セミナー|トーク|ウェビナー|デモ"
    r")(?:\*\*|__)?\s*(?:[:：]|\s[—–]\s|\s-{1,2}\s|[—–]|$)\s*(?P<rest>.*)$",
    re.I,
)
#: kind words that mean "this is a paper"
PAPER_KIND_WORDS = frozenset({"paper", "article", "preprint", "publication", "論文", "inproceedings",
                              # Zotero's item types that are papers
                              "journal article", "conference paper", "report", "thesis", "manuscript", "book section"})


@per_text
def kind_prefix(text: str) -> tuple[str, str] | None:
    """``(kind, rest of the line)`` when ``text`` starts with a kind label, else None.

    The kind is lower-cased with spaces collapsed (``invited talk``, ``招待講演``, ``paper``).
    """
    m = _KIND_PREFIX_RE.match(text)
    if not m:
        return None
    return _SPACES_RE.sub(" ", m.group("kind").lower()), m.group("rest").strip()


#: To-read markers written before a title: ``Read later: "Title" by ...``, ``To read — ...``,
#: ``あとで読む: ...``, a reading verb and a colon (``read:``, ``skim:``, ``re-read:``: what to do
#: with the paper, said the way a to-do item is), and a bare ``Read`` before a link or a quoted title.
_TO_READ_RE = lazy(
    r"^\s*(?:(?:read\s+later|to[\s-]?read|must[\s-]read|reading\s+list|todo|later|あとで読む|後で読む|読む|要読|積読)"
    r"\s*(?:[:：]|\s[—–]\s|\s-{1,2}\s)|(?:re-?)?read\s*[:：]|skim(?:\s+later)?\s*[:：]|read\s+(?=[\[\"“「]))\s*",
    re.I,
)


@per_text
def strip_to_read(text: str) -> str:
    """``text`` without a leading to-read marker (a note to self, not part of the title)."""
    return _TO_READ_RE.sub("", text, count=1)
