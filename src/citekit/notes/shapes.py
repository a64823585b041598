"""What an unlabelled note line looks like: a person, a list of authors, a summary, a title.

Trip reports mix papers with people met, meals and talks. These small predicates are the
evidence the extractor weighs; each is deliberately narrow, so a line is only called a
summary or an author list when it clearly is one.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from citekit.core.lazyre import lazy

from citekit.notes.memo import copied, per_text
from citekit.notes.urls import URL_RE

_LATIN_NAME_WORD = r"[A-Za-zÀ-ɏḀ-ỿ][A-Za-zÀ-ɏḀ-ỿ.'’\-]*"
_NAME_RE = lazy(rf"^(?:{_LATIN_NAME_WORD}|[\"“”‘’'][^\"“”‘’']+[\"“”‘’'])(?:\s+(?:{_LATIN_NAME_WORD}|[\"“”‘’'(][^\"“”‘’'()]+[\"“”‘’')]))" + r"{0,5}$")
_PERSON_RE = lazy(r"^(?P<name>[^()]{2,60}?(?:\([^()]{1,20}\)[^()]{0,30})?)\s*[(（](?P<affil>[^()（）]{1,60})[)）]$")
_AUTHOR_SEPS = lazy(r"\s*(?:⋅|·|・)\s*")
_SENTENCE_END_RE = lazy(r"[。．.！!]\s*$")
_ET_AL_END_RE = lazy(r"\bet al\.\s*$")
_HASHTAG_RE = lazy(r"(?<![\w/#&\\])#(?P<tag>[^\W\d_][\w\-]*)")
_SEPARATOR_RE = lazy(r"^\s*([-*_=])(\s*\1){2,}\s*$")

#: Words that mark meals, chats, socials and sessions rather than papers. Only consulted
#: when a line has no hard evidence of being a paper (a paper URL or labelled details).
#: The English ones, whole words: an ASCII line holding none of them (lower case) is not an event.
_EVENT_WORDS = ("w/", "social", "reception", "party", "dinner", "lunch", "breakfast", "coffee", "chat", "meetup",
                "meet-up", "banquet", "session", "keynote", "tutorial", "workshop", "panel", "invited talk", "booth")
_EVENT_RE = lazy(
    r"\b(?:" + "|".join(map(re.escape, _EVENT_WORDS)) + r")\b|^(?:w/)|"
    r"朝食|昼食|夕食|ランチ|ディナー|コーヒー|チャット|レセプション|懇親会|セッション|パーティ|飲み会|会話|ソーシャル|移動",
    re.I,
)
_DAY_RE = lazy(r"^(?:day\s*\d+|\d+日目)\b|^\d{1,2}/\d{1,2}\b|(?<![A-Z])[A-Z]{3}\s*(?:->|→)\s*[A-Z]{3}(?![A-Z])", re.I)
#: :data:`_DAY_RE` in two parts: the line's start, and a trip ``HND->GMP`` (only tried when
#: an arrow is written); one search with the unanchored part tried every branch everywhere.
_DAY_START_RE = lazy(r"(?:day\s*\d+|\d+日目)\b|\d{1,2}/\d{1,2}\b", re.I)
_TRIP_RE = lazy(r"(?<![A-Z])[A-Z]{3}\s*(?:->|→)\s*[A-Z]{3}(?![A-Z])", re.I)  # (three letters a side: a trip, not "Reformer → Ring")


#: What a line names when it is not a paper: consulted when nothing on or under the line
#: (an author list, a paper link, an identifier) says it is one.
_NON_PAPER_RE = lazy(
    r"\b(?P<w>blog(?:\s*post)?|repo|repository|datasets?|data set|model weights|checkpoints?|slides?|"
    r"video|youtube|recording|talk|keynote|tutorial|podcast|episode|tweet|docs|documentation|library|notebook|"
    r"colab|newsletter|lecture|seminar|panel|meeting|meetup|leaderboard|pypi)\b"
    r"|^(?P<v>email|e-mail|call|book|buy|ask|remember|check|renew|write up|todo|read|reply|send|submit|prepare)\b"
    r"|(?P<j>ブログ|リポジトリ|データセット|スライド|動画|講演|発表資料|予約|メール"
    # (the same kinds in Chinese and Korean, as their labels are read: 博客 blog, 仓库 repository,
    # 数据集 data set, 幻灯片 slides, 视频 video, 讲座 lecture, 课程 course, 教程 tutorial, 教材
    # textbook; 블로그, 저장소, 데이터셋, 슬라이드, 동영상, 강의, 강연, 튜토리얼, 교재)
    r"|博客|仓库|倉庫|数据集|幻灯片|视频|讲座|课程|教程|教材|블로그|저장소|데이터셋|슬라이드|동영상|강의|강연|튜토리얼|교재)",
    re.I,
)


@per_text
def non_paper_words(text: str) -> str | None:
    """The word that makes ``text`` a blog, repository, dataset, talk or to-do, if any."""
    m = _NON_PAPER_RE.search(text)
    return (m.group("w") or m.group("v") or m.group("j")).lower() if m else None


def is_name(text: str) -> bool:
    """A personal name in Latin script: 1–6 words, nicknames in quotes allowed, no digits."""
    return bool(_NAME_RE.match(text.strip())) and len(text) <= 60


_PARENS_RE = lazy(r"\([^()]*\)")
#: the small words of an English title, which no personal name holds (``Deep Residual
#: Learning for Image Recognition (ResNet)`` is a title with its short name, not a person);
#: name particles (``van``, ``de``, ``von``) are not among them
_TITLE_FUNCTION_WORD_RE = lazy(r"\s(?:for|of|with|the|via|in|on|to|from|by|is|are|an?|without|towards?|through|into|using|beyond|across|at|as)\s", re.I)
_PERSON_NAMES_SPLIT_RE = lazy(r"\s+(?:and|&)\s+|\s*,\s*")


def is_plain_name(text: str) -> bool:
    """:func:`is_name`, and none of a title's small words in it (``Warm Restarts for Small
    Batches`` is capitalised as a name is, but ``for`` is no part of a name)."""
    return is_name(text) and not _TITLE_FUNCTION_WORD_RE.search(f" {text} ")


@per_text
def is_person_line(text: str) -> bool:
    """``Fabian Schaipp (Flatiron)``, ``Wonbong (Won) JANG (Meta, UCL)``: a name and an affiliation."""
    if ")" not in text and "）" not in text:
        return False
    m = _PERSON_RE.match(text.strip())
    if not m:
        return False
    name = _PARENS_RE.sub(" ", m.group("name")).strip()
    parts = [p for p in _PERSON_NAMES_SPLIT_RE.split(name) if p]
    return bool(parts) and all(is_name(p) and not _TITLE_FUNCTION_WORD_RE.search(p) for p in parts)


_HEADING_NAME_RE = lazy(r"^[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){1,2}$")


def person_heading(text: str) -> str | None:
    """The name in a heading that names one person and an affiliation (``Egor Shulgin
    (KAUST)``), else None. Two or three capitalized name words and no digit in the
    parentheses, so that ``Optimization (Day 2)`` or ``Poster Session (Hall 3)`` is no person."""
    text = text.strip().lstrip("#").strip()
    m = _PERSON_RE.match(text) if text.endswith((")", "）")) else None  # (the pattern ends on a bracket)
    if not m or not is_person_line(text) or any(c.isdigit() for c in m.group("affil")):
        return None
    name = m.group("name").strip()
    if not _HEADING_NAME_RE.match(name) or looks_like_event(name) or non_paper_words(name):
        return None
    return name


_NAME_LIST_SPLIT_RE = lazy(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+")


@copied
def authors_line(text: str) -> list[str] | None:
    """The names of an unlabelled author list (``A ⋅ B ⋅ C``, or ``A, B and C``), else None.

    Only lines where every part is a plain name qualify: a comma-separated comment or a
    person with an affiliation is not an author list.
    """
    text = text.strip()
    if "(" in text or "://" in text and URL_RE.search(text):  # (a URL holds ``://``)
        return None
    if "⋅" in text or "·" in text or "・" in text:  # (``_AUTHOR_SEPS.search``: its spaces are optional)
        parts = [p for p in _AUTHOR_SEPS.split(text) if p]
    else:
        if "," not in text and ";" not in text and "and" not in text:
            return None  # (no separator of ``_NAME_LIST_SPLIT_RE``: one part, too few for a list)
        parts = [p for p in _NAME_LIST_SPLIT_RE.split(text) if p]
        if len(parts) < 3:  # "A and B" or "A, B" is too easily a phrase
            return None
        if not all(all(w[:1].isupper() or w in ("van", "von", "de", "der", "den", "di", "da", "du", "la", "le") for w in p.split()) for p in parts):
            return None
    if len(parts) < 2 or not all(is_name(p) for p in parts):
        return None
    return parts


def ends_a_sentence(text: str) -> bool:
    """``_SENTENCE_END_RE.search(text)``: the last character before any trailing space is
    a full stop or an exclamation mark (one look at the end instead of a search that
    tries every position; ``str.rstrip`` and the pattern's ``\\s`` strip the same spaces)."""
    last = text.rstrip()[-1:]
    return bool(last) and last in "。．.！!"


def is_summary_sentence(text: str) -> bool:
    """A line that reads like the note's own summary: a full sentence, not a remark.

    Ending in 。 or a period is what separates ``...を示す研究。`` from a remark such as
    ``Robert M. Gower での Guest Researcher`` or a question the user asks themself.
    """
    text = text.strip()
    if len(text) < 20 or URL_RE.fullmatch(text) or ("et al." in text and _ET_AL_END_RE.search(text)):
        return False
    return ends_a_sentence(text) and not is_person_line(text)


def is_long_remark(text: str) -> bool:
    """A long unlabelled line: the fallback summary when no full sentence is found."""
    text = text.strip()
    return len(text) >= 40 and " " in text and not URL_RE.fullmatch(text) and not is_person_line(text)


_LATIN_LETTER_RE = lazy(r"[A-Za-z\u00c0-\u024f]")


def latin_share(text: str) -> float:
    """Share of Latin letters among all letters (0.0 for a text without letters)."""
    if text.isascii():  # every ASCII letter is Latin
        return 1.0 if any(map(str.isalpha, text)) else 0.0
    letters = sum(map(str.isalpha, text))
    if not letters:
        return 0.0
    return len(_LATIN_LETTER_RE.findall(text)) / letters


@per_text
def looks_like_event(text: str) -> bool:
    """Meals, chats, socials, sessions, day and travel headings."""
    low = text.lower()
    if not text.isascii() or any(w in low for w in _EVENT_WORDS):  # (an ASCII line without them cannot match)
        if _EVENT_RE.search(text):
            return True
    text = text.strip()
    return bool(_DAY_START_RE.match(text) or (("->" in text or "→" in text) and _TRIP_RE.search(text)))


@per_text
def looks_like_title(text: str) -> bool:
    """Could this line be a paper title, judged on its own (used when evidence is soft)?"""
    text = text.strip()
    words = text.split()
    return (
        len(words) >= 2
        and latin_share(text) >= 0.6
        and not is_person_line(text)
        and not looks_like_event(text)
        and not text.endswith(("。", "、"))
        and not _PROGRESSION_RE.search(text)
        and not (len(words) <= 10 and _PLUS_RE.search(text))
    )


#: words on both sides of an arrow (``S4 → Mamba``, ``~~Reformer~~ → Ring Attention``) or
#: of a spaced plus (``Positional Interpolation (Chen et al.) + YaRN``): a step from one
#: thing to another, or two things read together, not one title
_PROGRESSION_RE = lazy(r"[\w~*)]\s*(?:→|->|⟶|⇒|=>)\s*[\w~*(]")
_PLUS_RE = lazy(r"[\w~*)]\s\+\s[\w~*(]")  # (looked for in a short text only: a remark may say "X + Y" of its paper)


#: ``Related: [[Meeting notes 2026-07-08]]``, ``See also: [week 2](week2.md)``: a line that
#: points at other notes pages (a wiki link, or a link to a file rather than a web page)
_PAGE_LINK_RE = lazy(r"\[\[[^\]]+\]\]|\]\((?![a-z][a-z0-9+.-]*://)[^)\s]+\)|\(\([^)]+\)\)", re.I)
_LABELLED_RE = lazy(r"^[^\W\d_][\w -]{0,24}::?\s")


def looks_like_section_label(text: str) -> bool:
    """A short plain line that names what follows (``Day2 (7/7 Tue)``, ``所感``, ``ICML 2026 Papers``).

    Not a prose line that links other notes pages under a label (``Related: [[Meeting
    notes]]``, ``Prev:: [[2026-07-07]]``): that names a page elsewhere, not the papers below
    it, and taken for a section it became the section of every paper after it.
    """
    text = text.strip()
    if not (0 < len(text) <= 80) or ends_a_sentence(text) or URL_RE.fullmatch(text):
        return False
    if _MESSAGE_HEADER_RE.match(text):
        return False  # "Ana Souza  10:02 AM": who posted the messages below, not their section
    return not (_LABELLED_RE.match(text) and _PAGE_LINK_RE.search(text))


#: a chat message's header as the app copies it: a name, then the time it was posted
_MESSAGE_HEADER_RE = lazy(r"^[^\d\n]{1,60}?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?$")


@copied
def hashtags(text: str) -> list[str]:
    """Inline ``#tags`` of a line, lower-case, URLs and ``C#``-like words ignored."""
    if "#" not in text:
        return []
    return [m.group("tag").lower() for m in _HASHTAG_RE.finditer(URL_RE.sub(" ", text))]


def is_tags_only(text: str) -> bool:
    """A line of inline ``#tags`` and nothing else (``#nlp #moe``): the tags of the paper
    above, written on a line of their own; it never goes on the prose above it."""
    return "#" in text and not strip_hashtags(text) and bool(hashtags(text))


_SPACE_RUN_RE = lazy(r"\s{2,}")


#: words only a message holds, never a title: its speaker or its addressee (``I'd``, ``we're``,
#: ``you``, ``anyone``); read by the chat-message checks of the line reader and of extraction
SPEAKER_WORD_RE = lazy(r"(?<![\w'’])(?:I|I['’](?:m|d|ve|ll)|me|my|we|we['’](?:re|ve|d)|us|our|you|your|anyone|someone|folks|ppl)"
                       r"(?![\w'’])", re.I)


@per_text
def strip_hashtags(text: str) -> str:
    """The line without its inline hashtags."""
    if "#" not in text:
        return text.strip() if "  " not in text else _SPACE_RUN_RE.sub(" ", text).strip()
    return _SPACE_RUN_RE.sub(" ", _HASHTAG_RE.sub("", text)).strip()


#: Roam/Logseq block references and embeds (``((a1b2c3d4e))``, ``{{embed: ((…))}}``): pointers
#: to other blocks, never part of a title
_BLOCK_REF_RE = lazy(r"\(\([\w-]{6,40}\)\)|\{\{[^{}]{0,300}\}\}")
#: pictographs and symbols an app or a poster puts before a line (Notion's callout icon, "🚨 New paper")
_LEADING_ICONS_RE = lazy(r"^(?:[\u2190-\u2bff\u2700-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+\s*)+")


#: status marks after a line (``Self-RAG ✅``, ``… ⭐⭐``): pictographs and dingbats only
#: (arrows and math symbols, which a title may end with, are not among them)
_TRAILING_ICONS_RE = lazy(r"(?:\s*[\u2600-\u27bf\u2b50\u2b55\U0001f000-\U0001faff\ufe0f\u200d]+)+\s*$")


def strip_decorations(text: str) -> str:
    """``text`` without block references, embeds and the icons before and after it."""
    if "((" in text or "{{" in text:
        text = _BLOCK_REF_RE.sub(" ", text)
    if text[:1] > "\u218f":
        text = _LEADING_ICONS_RE.sub("", text)
    if text[-1:] > "\u25ff":
        text = _TRAILING_ICONS_RE.sub("", text) or text
    return text


#: a line that a review copy's margin numbers: the number, then the line's own text (if any)
_MARGIN_NUMBER_RE = lazy(r"^(\d{1,4})(?:[ \t]+(?=\S)|$)")
#: the most a margin number may rise from one copied line to the next (a figure or a page
#: break between them skips lines the copy did not keep)
_MARGIN_STEP = 120
#: how many numbered lines with text make a margin: fewer could be a list written "1 …"
_MARGIN_MIN_LINES = 3


def cut_margin_numbers(lines: list[str]) -> list[str]:
    """``lines`` with the line numbers a review copy of a paper prints in its margin taken
    off the lines that carry them (``864 [1] Nicolas …``): copied with the text, they stand
    before the first word of a line and hide its shape (a reference's ``[1]``, a wrapped
    line going on). A margin is a run of lines opening on a bare number that rises down the
    text, by at most :data:`_MARGIN_STEP` from one to the next, holding at least
    :data:`_MARGIN_MIN_LINES` lines with text after their number. Not a margin: numbers
    that all read as years (a list by year: ``2017 Title``) or that count 1, 2, 3 from one
    (a list numbered without a dot). A number alone on its line is left (a page number
    reads the same). The list is returned as it is when no margin is found."""
    chains: list[list[tuple[int, int, bool]]] = []  # each: (index, number, has text) rising
    for at, line in enumerate(lines):
        if not line[:1].isdigit():
            continue
        m = _MARGIN_NUMBER_RE.match(line)
        if m is None:
            continue
        number = int(m.group(1))
        for chain in chains:
            if 0 < number - chain[-1][1] <= _MARGIN_STEP:
                chain.append((at, number, m.end() < len(line)))
                break
        else:
            chains.append([(at, number, m.end() < len(line))])
            if len(chains) > 8:  # (a file of many numbered lines: the shortest run dropped)
                chains.remove(min(chains, key=len))
    cut = [at for chain in chains if _is_margin(chain) for at, _, text in chain if text]
    if not cut:
        return lines
    out = list(lines)
    for at in cut:
        out[at] = out[at][_MARGIN_NUMBER_RE.match(out[at]).end():]
    return out


def _is_margin(chain: list[tuple[int, int, bool]]) -> bool:
    """Whether a rising run of numbered lines is a margin (see :func:`cut_margin_numbers`)."""
    numbers = [number for _, number, text in chain if text]
    if len(numbers) < _MARGIN_MIN_LINES or all(1900 <= n <= 2099 for n in numbers):
        return False
    return not (numbers[0] == 1 and all(b - a == 1 for a, b in zip(numbers, numbers[1:])))


def strip_leading_icon(text: str) -> str:
    """A line without the icon before it (``📄 arxiv.org/abs/…``, ``🚨 New paper: …``); a line
    that is only icons is kept as it is."""
    if text[:1] <= "\u218f":
        return text
    return _LEADING_ICONS_RE.sub("", text).strip() or text


#: who said it and when, before a chat message: ``[10:32] Alice: …``, ``[10:32 AM] Alice
#: Smith: …``, ``10:32 <alice> …``, ``[2024-02-03 10:32] alice: …``
_CHAT_PREFIX_RE = lazy(
    r"^\s*(?:\[(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?\]|(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?:\s*[AaPp][Mm])?)"
    r"\s*(?:<[^<>\s]{1,40}>|[^\W\d][\w.\- ]{0,40}?:)\s+")


def strip_chat_prefix(text: str) -> str:
    """A chat message without its time and speaker (``[10:32] Alice: Title — A, B``)."""
    if ":" not in text[:32]:
        return text
    m = _CHAT_PREFIX_RE.match(text)
    return text[m.end():] if m else text


def is_separator(text: str) -> bool:
    """``---``, ``***``, ``===``: a thematic break, never content."""
    return bool(_SEPARATOR_RE.match(text))


#: one item of a relation property in a Notion export: the page's name, then its file in
#: brackets, URL-encoded, ending in the page's 32-hex id (``DPO (../Papers%20DB%20…/DPO%20c81f….md)``)
_RELATED_PAGE_RE = lazy(r"(?P<name>[^(),]+?)\s*\((?P<path>[^()\s]*?(?P<file>[^/()\s]+)%20[0-9a-f]{32}\.md)\)")
_RELATION_LABEL_RE = lazy(r"^[^\W\d_][\w ]{0,30}[:：]\s*")


def related_pages(text: str) -> list[str]:
    """The page names of a ``Key: Name (Name%20<id>.md), …`` relation property, each name
    the one its file spells (exactly the shape the export writes; a long name's file spells
    its start only, cut wherever the export's length limit fell); none when any item is not
    such a page."""
    return [name for name, _path in related_page_items(text)]


def related_page_items(text: str) -> list[tuple[str, str]]:
    """:func:`related_pages` with each page's file path as the export wrote it (decoded):
    its folder is the database the page belongs to (``../Papers DB …/DPO ….md``)."""
    label = _RELATION_LABEL_RE.match(text)
    if label is None:
        return []
    rest, items, at = text[label.end():], [], 0
    for m in _RELATED_PAGE_RE.finditer(rest):
        spelled = unquote(m.group("file")).strip()
        if rest[at:m.start()].strip(" ,") or not spelled or not m.group("name").strip().startswith(spelled):
            return []
        items.append((m.group("name").strip(), unquote(m.group("path"))))
        at = m.end()
    return items if items and not rest[at:].strip(" ,") else []


#: words of a relation property's label or of its pages' database folder that say the related
#: pages are papers (``Related papers``, ``Cites``, ``../Papers DB …/``); ``Sessions``,
#: ``Project``, ``Meetings`` relate other pages of the workspace
_PAPER_RELATION_RE = lazy(
    r"\b(?:papers?|references?|citations?|cites|cited|readings|reading list|related work|literature|articles?|"
    r"preprints?|publications?|bibliography)\b", re.I)


def relation_names_papers(text: str, path: str) -> bool:
    """Whether a relation property's item is a paper by the property's own word or its
    page's: the label (``Related papers:``) or the database folder the page lives in
    (``../Papers DB …/``) names papers. A page's name alone does not tell: a long meeting
    page's name reads as a title as well as a paper's does."""
    label = _RELATION_LABEL_RE.match(text)
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    return bool(label and _PAPER_RELATION_RE.search(label.group())) or bool(_PAPER_RELATION_RE.search(folder))
