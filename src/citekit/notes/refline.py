"""One line that names a paper and its authors: the shapes people type and paste.

Typed shapes put the title first (``Title — A, B``, ``Title by A and B``, ``Title (A & B,
ICML 2026)``, ``Title, A et al., NeurIPS'25``, ``Title. A; B; C. ICML 2026.``) or in quotes
(MLA, Chicago, IEEE); any other reference string (APA, Harvard, ACM, Vancouver, a ``.bbl``
line, a style nobody listed) is read by the learned reference parser
(:mod:`citekit.notes.refparse`), the last rule of the table. A quoted title cited inside
a sentence is read with the words around it (:func:`inline_references`).

Every rule needs an author list whose parts all read as personal names: that is the
evidence a line is a paper and not a remark with a dash or a parenthesis in it. A rule
that fails returns None and the next one is tried; the rule that matched is named in the
result, so ``citekit extract --explain`` can say why a line was taken.
"""

from __future__ import annotations

import functools
import re

from citekit.core.lazyre import lazy
import unicodedata
from typing import TYPE_CHECKING
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from citekit.core.venues import canonical, from_text, short_from_long
from citekit.notes.authoryear import Citation, _ordinary_words, _place_names, find_citations, leading_names
from citekit.notes.memo import clear_all, per_text
from citekit.notes.rules import Cue, LineRule, LineRules
from citekit.notes.shapes import SPEAKER_WORD_RE, strip_hashtags
from citekit.notes.textids import find_text_ids
from citekit.notes.titlecase import title_case
from citekit.core.text import squash_spaces
from citekit.notes.urls import strip_urls

if TYPE_CHECKING:
    from citekit.notes.refparse.result import ParsedReference

#: One word of a personal name: a capitalised word (``Agüera``, ``LeGresley``,
#: ``Marc'Aurelio``, ``Allen-Zhu``), an initial (``J.``, ``D.P.``), or a particle.
_NAME_WORD_RE = lazy(r"^(?:[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*\.?|(?:[^\W\d_]\.){1,3}|[^\W\d_]{1,3})$")
_PARTICLES = frozenset("van von der den de del della di da du la le dos das ter ten zu y bin al".split())
#: Words that never occur in a name, although capitalised (an event or a place is not an author).
_NOT_NAME_WORDS = frozenset(
    "the a an of on in for with and to at by from about via is are new session poster room "
    "university univ institute lab labs google meta deepmind microsoft openai research inc team group "
    "conference workshop keynote talk tutorial social lunch dinner coffee blog repo dataset model code "
    "slides video paper papers notes meeting todo done pdf arxiv".split()
)
#: (a list cut short by an ellipsis, ``Hoffmann, Borgeaud, Mensch …``, is as incomplete as one
#: ending in ``et al.``: the names written are kept, the list is marked incomplete)
_ET_AL_RE = lazy(r"(?:,?\s*(?:et\s+al\.?|and\s+others|others|ほか|他|等人|等|외(?:\s*\d+\s*명)?|…|\.\.\.))\s*$", re.I)
_QUOTES = "\"“”„«»「」『』《》"
_ANY_QUOTE_RE = lazy("[" + _QUOTES + "]")
_DASH_SPLIT_RE = lazy(r"\s+[—–]\s+|\s+-{1,2}\s+")
_YEAR_RE = lazy(r"(?<!\d)(?:19[5-9]\d|20[0-4]\d)(?!\d)")
_VENUE_TAIL_RE = lazy(
    r"(?:,|;)?\s*(?P<venue>[A-Z][A-Za-z&\-]{1,15}(?:\s+[A-Z][A-Za-z]{1,12})?)\s*(?:['’]\s*(?P<yy>\d{2})|\s+(?P<year>(?:19|20)\d{2}))\s*$"
)
_YEAR_TAIL_RE = lazy(r"(?:,|;)?\s*(?P<year>(?:19|20)\d{2})\s*$")
_INITIALS_RE = lazy(r"(?:[^\W\d_]\.)+")
_SEMICOLON_SPLIT_RE = lazy(r"\s*[;；]\s*(?:and\s+|&\s*)?")
_NAME_SPLIT_RE = lazy(r"\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*|\s*、\s*|\s*[⋅·]\s*")


@dataclass
class Reference:
    """What one line says about a paper."""

    title: str
    authors: list[str]
    rule: str  # which shape matched, e.g. ``apa``, ``title-dash-authors``
    incomplete: bool = False  # ``et al.`` was written: the list is not the whole list
    venue: str | None = None
    year: int | None = None
    #: the learned parser's reading, when it read the line: (label, text, confidence) runs
    model: tuple[tuple[str, str, float], ...] = ()
    #: the line as read (markup taken off), for a search made for whole citations
    source: str = ""
    #: where the reference parser read that the paper appeared (:func:`published_in`)
    published: dict[str, str] = field(default_factory=dict)

    @property
    def pasted(self) -> bool:
        """A pasted reference string (a citation style's output), not a typed note line."""
        return self.rule in ("reference model", "ieee", "mla", "chicago", "nature", "group-year-title")


# --- names ----------------------------------------------------------------------------


@per_text
def is_author_name(text: str, *, single_word: bool = False) -> bool:
    """A personal name as written in an author list (``J. Zico Kolter``, ``Kaiser``).

    ``single_word`` allows a family name alone (``Foret, Kleiner & Mobahi``); otherwise a
    name has two to five words.
    """
    words = text.split()
    if not words or len(words) > 5 or (len(words) == 1 and not single_word):
        return False
    if len(text) > 60:
        return False
    capitalised = 0
    for word in words:
        if word.lower() in _PARTICLES and not word[:1].isupper():
            continue
        if word.lower().strip(".") in _NOT_NAME_WORDS and not _INITIALS_RE.fullmatch(word):
            return False
        if not _NAME_WORD_RE.match(word) or not word[:1].isupper():
            return False
        capitalised += 1
    if capitalised == 0:
        return False
    if len(words) == 1:
        # a lone family name: a real word of letters, not an initial or an acronym
        w = words[0]
        return len(w) >= 2 and not w.isupper() and not w.endswith(".") and _short_venue_word(w) is None  # (not ``NeurIPS``)
    # a name has a word that is not an initial
    return any(len(w.rstrip(".")) > 1 and not _INITIALS_RE.fullmatch(w) for w in words)


def split_name_list(text: str, *, single_word: bool = False, min_names: int = 1) -> tuple[list[str], bool] | None:
    """``A, B and C`` / ``A & B`` / ``A; B`` / ``A et al.`` into names, or None when a part
    is not a name. The flag says ``et al.`` was written (the list is incomplete)."""
    text = text.strip().strip(",;").strip()
    incomplete = bool(_ET_AL_RE.search(text[-24:]))
    if incomplete:
        text = _ET_AL_RE.sub("", text).strip().rstrip(",")
    if not text:
        return None
    if ";" in text or "；" in text:
        parts = _SEMICOLON_SPLIT_RE.split(text)
    else:
        parts = _NAME_SPLIT_RE.split(text)
    parts = [p.strip() for p in parts if p and p.strip()]
    if len(parts) < min_names or not all(is_author_name(p, single_word=single_word) for p in parts):
        return None
    return parts, incomplete


_FAMILY_GIVEN_RE = lazy(r"^(?P<family>[^,]+),\s*(?P<given>[^,]+?)(?:(?:,\s*(?:and\s+)?|\s+and\s+)(?P<rest>.+))?$")


def _family_first_list(text: str) -> tuple[list[str], bool] | None:
    """MLA/Chicago ``Frankle, Jonathan, and Michael Carbin`` (only the first name inverted)."""
    text = text.strip().rstrip(".").strip()
    incomplete = bool(_ET_AL_RE.search(text))
    if incomplete:
        text = _ET_AL_RE.sub("", text).strip().rstrip(",")
    m = _FAMILY_GIVEN_RE.match(text)
    if not m:
        return None
    family, given = m.group("family").strip(), m.group("given").strip()
    if not is_author_name(family, single_word=True) or not is_author_name(given, single_word=True):
        return None
    if _GIVEN_INITIAL_RE.search(family) or (len(family.split()) > 1 and len(given.split()) > 1
                                            and all(w[:1].isupper() for w in family.split())):
        # ``Tom B. Brown, Benjamin Mann, …``, ``Tim Dettmers, Artidoro Pagnoni``: two whole
        # names, not a family name then given names (a family name holds no initial, and
        # ``van der Maaten, Laurens`` writes its particles in lower case)
        return None
    names = [f"{family}, {given}"]
    if m.group("rest"):
        rest = split_name_list(m.group("rest"))
        if rest is None:
            return None
        names += rest[0]
    return names, incomplete


_GIVEN_INITIAL_RE = lazy(r"(?:^|\s)[A-Z]\.(?:\s|$)")
_VANCOUVER_NAME_RE = lazy(r"(?P<family>[^\W\d_][^\W\d_'’\-]+(?:[\s\-][^\W\d_][^\W\d_'’\-]+){0,2})\s+(?P<init>[A-Z]{1,3})")


# --- venue and year --------------------------------------------------------------------


def venue_and_year(text: str) -> tuple[str | None, int | None]:
    """Venue (short name) and year named anywhere in a reference's tail."""
    venue, year = from_text(text)
    if venue is None:
        venue = short_from_long(text) or _short_venue_word(text)
    if year is None:
        years = _YEAR_RE.findall(text)
        year = int(years[0]) if years else None
    return venue, year


_LATIN_WORD_RE = lazy(r"[A-Za-z]+")
_JMLR_LONG_RE = lazy(r"\bJ\.?\s*Mach\.?\s*Learn\.?\s*Res")
_NEURIPS_LONG_RE = lazy(r"Adv\.?\s*Neural\s*Inf")


def _short_venue_word(text: str) -> str | None:
    from citekit.core.venues import canonical

    for word in _LATIN_WORD_RE.findall(text):
        v = canonical(word)
        if v and (word.isupper() or word == v):
            return v
    if _JMLR_LONG_RE.search(text):
        return "JMLR"
    if _NEURIPS_LONG_RE.search(text):
        return "NeurIPS"
    return None


# --- title clean-up ---------------------------------------------------------------------


_MARKUP_CHARS_RE = lazy(r"[*_~=`\[]")
#: What the reference rules cannot match without (see :data:`REFERENCE_RULES`): each cue
#: is a regex behind the plain substring it cannot match without; one regex with an
#: alternation tries every branch at every position, which made this gate a third of the
#: time spent on lines that name no paper.
_DASH_CUE = Cue(chars="—–", needles=("-",), pattern=re.compile(r"\s-{1,2}\s"))
_YEAR_CUE = Cue(needles=("19", "20"), pattern=re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)"))
_YY_CUE = Cue(needles=("'", "’"), pattern=re.compile(r"['’]\d{2}\b"))
_BY_CUE = Cue(needles=("by",), pattern=re.compile(r"\sby\s", re.I), fold=True)
_ARXIV_CUE = Cue(needles=("arxiv:",), pattern=re.compile(r"arxiv:\s?\d{4}\.\d{4,5}", re.I), fold=True)
_ET_AL_CUE = Cue(needles=("et al",), pattern=re.compile(r"\bet al", re.I), fold=True)
#: a line that ends on a list of names closed by ``&``/``and`` (``…, Kingma & Ba.``), maybe with its year
_CLOSED_END_CUE = Cue(needles=("&", " and "), pattern=re.compile(r"\s(?:&|and)\s+[A-Z][\w'’\-]+[.)\s]*(?:,?\s*\(?(?:19|20)\d{2}\)?[.\s]*)?$"))


def has_shape_signal(text: str) -> bool:
    """A line with none of the reference rules' cues cannot hold a title and its authors
    in any shape they know (the pre-filter derived from :data:`REFERENCE_RULES`)."""
    return REFERENCE_RULES.could_match(text)


@per_text
def strip_markup(text: str) -> str:
    """A title without Markdown around or inside it: emphasis, strike-through, code,
    wikilinks (``[[Target|alias]]`` gives ``Target``) and link syntax (the label stays)."""
    if not _MARKUP_CHARS_RE.search(text):
        return squash_spaces(text)
    for marker, pattern, replacement in _MARKUP_RES:
        if any(m in text for m in marker):  # a pattern cannot match without its marker
            text = replacement(text) if callable(replacement) else pattern.sub(replacement, text)
    return _SPACES_RE.sub(" ", text).strip()


_WIKILINK_RE = lazy(r"\[\[([^\]|]+)(?:\|[^\]]*)?\]\]")
_LINK_RE = lazy(r"!?\[([^\]]*)\]\([^)]*\)")
_WIKILINK_STOP_RE = lazy(r"[\]|]")


def _labels_of_wikilinks(text: str) -> str:
    """``_WIKILINK_RE.sub(r"\\1", text)`` in one pass over the text.

    The pattern tried at every ``[[`` reads to the next ``]`` or ``|`` (and past a ``|`` to
    the next ``]``), so on a line of ``[[`` without ``]]`` each try read the rest of the
    line: quadratic (a 100 KB line took seconds). A try that fails at ``[[`` fails the same
    way at every ``[[`` before the point it read to (they read to the same stop), so the
    search goes on from there, and stops when no ``]`` is left.
    """
    out: list[str] = []
    pos = done = 0
    while True:
        i = text.find("[[", pos)
        if i < 0:
            break
        m = _WIKILINK_RE.match(text, i)
        if m:
            out.append(text[done:i])
            out.append(m.group(1))
            pos = done = m.end()
            continue
        stop = _WIKILINK_STOP_RE.search(text, i + 2)
        if stop is None:
            break
        j = stop.start()
        if text[j] == "|" and j > i + 2:  # (an empty name fails before the ``|`` is read)
            j = text.find("]", j)
            if j < 0:
                break
        pos = j + 1
    out.append(text[done:])
    return "".join(out)


def _labels_of_links(text: str) -> str:
    """``_LINK_RE.sub(r"\\1", text)`` in one pass (see :func:`_labels_of_wikilinks`): a
    try at ``[`` that fails at its ``]`` fails at every ``[`` before it; one that finds no
    ``)`` after ``](`` means no later try can succeed."""
    out: list[str] = []
    pos = done = 0
    while True:
        i = text.find("[", pos)
        if i < 0:
            break
        start = i - 1 if i - 1 >= pos and text[i - 1] == "!" else i
        m = _LINK_RE.match(text, start)
        if m:
            out.append(text[done:start])
            out.append(m.group(1))
            pos = done = m.end()
            continue
        j = text.find("]", i + 1)
        if j < 0 or (text.startswith("](", j) and text.find(")", j + 2) < 0):
            break
        pos = j + 1
    out.append(text[done:])
    return "".join(out)


#: What :func:`strip_markup` removes, in order: wikilinks, links, paired emphasis and
#: strike-through, single ``*``/``_`` emphasis, code; each with the text it cannot match without.
_MARKUP_RES = [
    (("[[",), _WIKILINK_RE, _labels_of_wikilinks),
    (("](",), _LINK_RE, _labels_of_links),
    (("**", "__", "~~", "=="), re.compile(r"(\*\*|__|~~|==)(.+?)\1"), r"\2"),
    (("*",), re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?!\w)"), r"\1"),
    (("_",), re.compile(r"(?<![\w_])_(?!\s)([^_]+?)(?<!\s)_(?![\w])"), r"\1"),
    (("`",), re.compile(r"`([^`]+)`"), r"\1"),
]
_SPACES_RE = lazy(r"\s+")


def unquote_title(text: str) -> str:
    """``"Title"``, ``“Title,”`` → ``Title`` (only when the quotes wrap the whole text)."""
    text = text.strip()
    if len(text) > 2 and text[0] in _QUOTES and text[-1] in _QUOTES + ".,":
        inner = text[1:].rstrip(".,").rstrip(_QUOTES).rstrip(".,")
        if not any(q in inner for q in _QUOTES):
            return inner.strip()
    return text


def _title_ok(title: str) -> bool:
    words = title.split()
    return bool(words) and len(title) >= 4 and len(words) <= 40 and title[0] not in "([{<" and any(c.isalpha() for c in title)


# --- the shapes -------------------------------------------------------------------------


#: a title in quotes: Western (``"…"``, ``“…”``, ``„…“``, ``«…»``) or East Asian (``《…》``,
#: ``『…』``, ``「…」``, the brackets Chinese, Japanese and Korean notes put titles in)
_QUOTED_TITLE_RE = lazy(r"[\"“„«](?P<title>[^\"“”„«»]{4,300}?)[\"”»]|《(?P<t2>[^《》]{4,300}?)》|『(?P<t3>[^『』]{4,300}?)』|「(?P<t4>[^「」]{4,300}?)」")
#: ``[7] `` / ``7. `` before a pasted reference
#: ``[7] ``, ``(7) ``, ``7. `` before a reference of a numbered list (the one pattern for it:
#: the outline splits numbered lists at it, a pasted reference is searched without it)
REFERENCE_NUMBER_RE = re.compile(r"^\s*(?:\[\d{1,4}\]\s*|(?:\(\d{1,4}\)|\d{1,4}[.)])\s+)(?=\S)")
_REMARK_TAIL_RE = lazy(r"\s*[(（][a-z][^()（）]*[)）]\s*$")


#: the counter a thread's post opens with (``3/7 ``, ``12/12 ``): no part of what the post names
_POST_COUNTER_RE = lazy(r"^\d{1,2}/(?:\d{1,2})?\s+(?=[^\W\d_])")


#: a remark after an arrow pointing back at what the line names (``<-- this is vLLM``, ``← read first``)
_ARROW_REMARK_RE = lazy(r"\s+(?:<-+|←)\s.*$")


#: a remark in lower case after a spaced dash or a full stop, right after a bracketed
#: citation that closes on its year (``2024``, ``'23``) or its ``et al.`` (``… (Okafor et al.
#: 2024) — no pairs needed``, ``… (Park et al., UIST '23). the HCI crowd got there first``): the
#: writer's words, not the reference's (other papers it names are read from the line on their own)
_DASH_REMARK_AFTER_CITATION_RE = lazy(r"((?:(?:19|20)\d{2}[a-z]?|['’]\d{2}|\bet\.? al\.?)\s*[)）])(?:\s+(?:[—–]|--?)|\.)\s+[a-z].*$")


def _without_dash_remark(text: str, *, after_stop: bool) -> str:
    """``text`` without a remark after a spaced dash that follows its bracketed citation
    (:data:`_DASH_REMARK_AFTER_CITATION_RE`), when the citation is the line's only bracket
    and no sentence ends before it: a line that names one paper, not prose that cites
    several (``…; BN (Ioffe & Szegedy 2015), no dropout. Compare Highway Networks (…) — …``).
    ``after_stop``: the remark after a full stop instead, cut only after a title in title case."""
    m = _DASH_REMARK_AFTER_CITATION_RE.search(text)
    if m is None:
        return text
    head = text[: m.start()]
    if head.count("(") + head.count("（") > 1 or ";" in head or _SENTENCE_BREAK_RE.search(head):
        return text
    if (text[m.end(1):m.end(1) + 1] == ".") != after_stop:
        return text  # (a remark after a full stop is tried only when the whole line reads as no reference)
    if after_stop and not title_case(_POST_COUNTER_RE.sub("", head[: head.rfind("(")]).strip()):
        return text  # (and only after a title: "not 2023 but …: Chinchilla (…). every …" is prose)
    if _PAREN_CITATION_RE.search(text, m.end(1)) or _QUOTED_TITLE_RE.search(text, m.end(1)):
        return text  # (the remark cites another paper, in brackets or by a quoted title: prose citing several)
    return text[: m.end(1)]


_YEAR_BEFORE_TITLE_RE = lazy(r"[.,]?\s*\(?((?:19|20)\d{2})[a-z]?\)?[.,:]?$")  # ``Robbins & Monro 1951, "Title"``
#: a venue and its year between a citation's names and its quoted title (``Keskar et al. ICLR’17``)
_VENUE_BEFORE_TITLE_RE = lazy(r"[.,]?\s*\(?(?P<v>[A-Z][A-Za-z]{1,15}\s*(?:['’]\d{2}|(?:19|20)\d{2}))\)?[.,:]?$")
_INITIALS_FIRST_RE = lazy(r"^(?:[^\W\d_]\.\s*-?)+\s*[^\W\d_]")


def _quoted(text: str) -> Reference | None:
    """Any shape with the title in quotes: IEEE, MLA, Chicago, ``"Title" by A`` and
    ``"Title" — A, B``."""
    m = _QUOTED_TITLE_RE.search(text) if _ANY_QUOTE_RE.search(text) else None
    if not m:
        return None
    title = (m.group("title") or m.group("t2") or m.group("t3") or m.group("t4")).strip().rstrip(",.").strip()
    before, after = text[: m.start()].strip(), text[m.end():].strip()
    if m.group(0)[0] in "《『「":
        # the title's own label before it (``论文：《Title》``) names no one; an author label
        # after it (``作者: A, B 等``) is the author list
        before = _TITLE_LABEL_RE.sub("", before).strip()
        after = _AUTHOR_LABEL_RE.sub("— ", after, count=1).strip()
    if not _title_ok(title):
        return None
    if before:
        before = REFERENCE_NUMBER_RE.sub("", before).strip()
        year = None
        venue = None
        vm = _VENUE_BEFORE_TITLE_RE.search(before)
        if vm is not None and (vy := _venue_year_short(vm.group("v")))[0] is not None and vy[1] is not None:
            # ``Keskar et al. ICLR’17 “Title”``, ``Dinh et al. (ICML 2017) “Title”``
            venue, year = vy
            before = before[: vm.start()].strip()
        elif (ym := _YEAR_BEFORE_TITLE_RE.search(before)) is not None:
            year = int(ym.group(1))
            before = before[: ym.start()].strip()
        before = before.rstrip(".,:").strip()
        parsed = None
        rule = "quoted-title"
        if _INITIALS_FIRST_RE.match(before):  # IEEE: initials first
            parsed = split_name_list(before, single_word=False)
            rule = "ieee"
        if parsed is None:
            parsed = _family_first_list(before)
            rule = "mla" if year is None else "chicago"
        if parsed is None:
            parsed = split_name_list(before)
            rule = "quoted-title"
        if parsed is None and (year is not None or _ET_AL_RE.search(before) or _JOINED_NAMES_RE.search(before)):
            # ``Houlsby et al. 2019, “Title”``, ``Hinton & Dean (2015) “Title”``: family names
            # alone, where a year or ``et al.`` says they are a citation
            parsed = split_name_list(before, single_word=True)
        if parsed is None and (families := _comma_families(before)) is not None:
            parsed = families, False  # ``Chen, Kornblith, Norouzi, Hinton. “Title”``
        avenue, vyear = venue_and_year(after)
        if parsed is None and (year or vyear) and _corporate_author(before):
            parsed = [before], False  # ``OpenAI. “GPT-4 technical report.” arXiv …, 2023.``
        if parsed is None:
            return None
        return Reference(title, parsed[0], rule, parsed[1], venue or avenue, year or vyear)
    # the title leads: "Title" by A and B / "Title" — A, B / “Title” (A & B, ICML 2026)
    if title.rstrip()[-1:] in ".!?" and not title_case(title):
        return None  # a quoted sentence, not a title
    ref = _after_title(title, after, quoted=True)
    return ref


#: the laboratories and companies that sign papers as authors, by the name they sign with
_CORPORATE_AUTHORS = frozenset(("openai", "deepmind", "google deepmind", "google", "google research", "meta",
                                "meta ai", "microsoft", "microsoft research", "anthropic", "nvidia", "mistral ai"))


def _corporate_author(text: str) -> bool:
    """A company or a group as the whole author list of a reference (``OpenAI``, ``Gemini
    Team``), with a year beside the title to say it is a reference."""
    text = text.strip().rstrip(".").strip()
    return text.lower() in _CORPORATE_AUTHORS or _GROUP_AUTHOR_RE.fullmatch(text) is not None


#: ``Recht & Vinyals``, ``Kleiner and Mobahi``: family names joined as an author list is
_JOINED_NAMES_RE = lazy(r"[^\W\d_][\w'’\-]+,?\s+(?:&|and)\s+[^\W\d_][\w'’\-]+$")
_TITLE_LABEL_RE = lazy(r"^(?:论文|論文|题目|題目|标题|標題|제목|논문|paper|title)\s*[:：]?$", re.I)
_AUTHOR_LABEL_RE = lazy(r"^(?:作者|著者|저자|authors?)\s*[:：]\s*", re.I)


_QUOTED_START_RE = lazy(r"^[\"“„«](?P<q>[^\"“”„«»]+)[\"”»]")


def _quoted_sentence(text: str) -> bool:
    """``"All models are wrong, but some are useful." — George Box``: a quotation."""
    m = _QUOTED_START_RE.match(text) if text[:1] in ("\"", "“", "„", "«") else None
    return bool(m) and m.group("q").rstrip()[-1:] in ".!?" and not title_case(m.group("q"))


_BY_NAMES_RE = lazy(r"^(?:by|By|BY)\s+(?P<names>.+)$")
_DASH_NAMES_RE = lazy(r"^(?:[—–]|-{1,2})\s*(?P<names>.+)$")
_PAREN_NAMES_RE = lazy(r"^[(（](?P<inner>[^()（）]+)[)）]\.?$")


def _after_title(title: str, after: str, *, quoted: bool) -> Reference | None:
    """The authors written after a title: ``by A and B``, ``— A, B``, ``(A & B, ICML 2026)``, ``, A et al.``."""
    after = after.strip()
    m = _BY_NAMES_RE.match(after)
    if m:
        parsed = _names_with_tail(m.group("names"))
        if parsed:
            return Reference(title, parsed[0], "title-by-authors", parsed[1], parsed[2], parsed[3])
    m = _DASH_NAMES_RE.match(after)
    if m:
        parsed = _names_with_tail(m.group("names"))
        if parsed:
            return Reference(title, parsed[0], "title-dash-authors", parsed[1], parsed[2], parsed[3])
    m = _PAREN_NAMES_RE.match(after)
    if m:
        parsed = _paren_authors(m.group("inner"))
        if parsed:
            return Reference(title, parsed[0], "title-paren-authors", parsed[1], parsed[2], parsed[3])
    if quoted and after.startswith(","):
        parsed = _names_with_tail(after[1:])
        if parsed:
            return Reference(title, parsed[0], "title-comma-authors", parsed[1], parsed[2], parsed[3])
    if quoted and after and after[0] not in "([{<—–-,:;":
        # 『Title』 Jonathan Ho, Ajay Jain: the brackets end the title, the names follow
        parsed = _names_with_tail(after)
        if parsed and (len(parsed[0]) >= 2 or parsed[1]):
            return Reference(title, parsed[0], "title-then-authors", parsed[1], parsed[2], parsed[3])
    return None


def _surnames_title(title: str, *, words: int = 3) -> bool:
    """A title strong enough to take a list of bare surnames (``Title — Schaipp, Gower``):
    three words or more (two, in title case, before a list closed by ``&`` in citation
    syntax), and not a meal, a session or a talk (``Dinner — Paris, Rome``)."""
    from citekit.notes.shapes import looks_like_event, non_paper_words

    return _title_ok(title) and len(title.split()) >= words and not looks_like_event(title) and not non_paper_words(title)


#: ``— ICML 2015`` / ``, NeurIPS'25`` / ``(ICML 2026)`` at the end of an author list
_DASHED_TAIL = lazy(r"\s*(?:[—–]|-{1,2}|,|\()\s*(?P<v>[^,()—–]*?(?:19|20)\d{2}|[^,()—–]*?['’]\d{2})\s*\)?$")
#: ``. NeurIPS 2023`` at the end of an author list, as a reference writes it (the period after
#: a name of two letters or more: ``J. 2020`` is an initial's)
_PERIOD_TAIL = lazy(r"(?<=[^\W\d_]{2})\.\s+(?P<v>[^,()—–.]*?(?:19|20)\d{2}|[^,()—–.]*?['’]\d{2})\s*$")
#: a remark in brackets after a list of names, in lower case and with no digit
#: (``(outstanding paper runner-up)``, ``(oral)``): no name, no venue
_REMARK_AT_END_RE = lazy(r"\s*\((?=[a-z])[^()\d]*\)$")
#: ``, ICML 2026`` at the end of a parenthesised author list
_COMMA_TAIL = lazy(r",\s*(?P<v>[^,]*?(?:(?:19|20)\d{2}|['’]\d{2}))\s*$")


#: the venue and year closing the authors in brackets, after a comma or a spaced dash
#: (``Gu, Goel, Ré — ICLR ’22``: the dash, not the comma before the last name, opens it)
_PAREN_TAIL = lazy(r"(?:,|\s[—–])\s*(?P<v>[^,—–]*?(?:(?:19|20)\d{2}|['’]\d{2}))\s*$")


def _cut_venue_tail(text: str, tail_re: re.Pattern[str]) -> tuple[str, str | None, int | None]:
    """``text`` without a trailing venue/year, and that venue and year (kept when it is not one)."""
    if not ("19" in text or "20" in text or "'" in text or "’" in text):
        return text, None, None  # (both tails end in a year or an apostrophe and two digits)
    tail = tail_re.search(text)
    if tail:
        venue, year = _venue_year_short(tail.group("v"))
        if venue is None and year is not None:
            # ``Mikolov, Chen, Corrado, Dean 2013``, ``Hoffmann, Mensch … 2022``: what stands
            # before the year is the list's last name (or its ellipsis), not a venue
            lead = _YEAR_AT_END_RE.sub("", tail.group("v")).strip()
            name = _ET_AL_RE.sub("", lead).strip()
            # (one word: ``Am Stat 2016``, ``PLoS Med 2005`` are a journal's short name)
            if lead and (_ET_AL_RE.fullmatch(lead) or (len(name.split()) == 1 and is_author_name(name, single_word=True))):
                return (text[: tail.start("v")] + lead).strip(), None, year
        if venue or year:
            return text[: tail.start()].strip(), venue, year
    return text, None, None


_YEAR_AT_END_RE = lazy(r"\s*(?:(?:19|20)\d{2}|['’]\d{2})$")


def _names_with_tail(text: str, *, surnames: bool = False) -> tuple[list[str], bool, str | None, int | None] | None:
    """Names, maybe followed by ``, ICML 2026`` / ``(ICML 2026)`` / ``— ICML 2015``.

    ``surnames`` also accepts two or more capitalised family names alone (``Schaipp, Gower,
    Taylor``); a family name alone is also taken before ``et al.`` (``Kaplan et al.``)."""
    text = text.strip().rstrip(".").strip()
    if text.endswith(")"):
        text = _REMARK_AT_END_RE.sub("", text).rstrip(".").strip()
    text, venue, year = _cut_venue_tail(text, _DASHED_TAIL)
    if venue is None and year is None and "." in text:
        text, venue, year = _cut_venue_tail(text, _PERIOD_TAIL)
    parsed = split_name_list(text, single_word=True, min_names=2) if surnames else split_name_list(text)
    if parsed is None and _ET_AL_RE.search(text[-24:]):
        one = split_name_list(text, single_word=True)
        parsed = one if one is not None and len(one[0]) == 1 and one[1] else None
    if parsed is None or _mostly_places(parsed[0]):
        return None
    return parsed[0], parsed[1], venue, year


@functools.lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    """Countries, regions and large cities as English writes them (``data/place_names.txt``)."""
    from importlib import resources

    text = resources.files("citekit.data").joinpath("place_names.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _mostly_places(names: list[str]) -> bool:
    """``Title — Toronto, Mountain View``: where the work was done, not who wrote it (half
    the "names" or more are places; a family name that is also a place, ``Jordan``, is one
    among people)."""
    places = _place_names()
    return sum(1 for n in names if n in places) * 2 >= len(names)


def _places_line(text: str) -> bool:
    """``Toronto, Mountain View``: a list of places (half or more of its parts known places)."""
    text, _venue, _year = _cut_venue_tail(text.strip().rstrip("."), _DASHED_TAIL)
    parts = [p.strip() for p in _NAME_SPLIT_RE.split(text) if p and p.strip()]
    return bool(parts) and all(is_author_name(p, single_word=True) for p in parts) and _mostly_places(parts)


def names_line(text: str) -> tuple[list[str], bool, str | None, int | None] | None:
    """An unlabelled line of author names, maybe with a venue (``A, B — ICML 2015``): two or
    more names, or one name with a venue or ``et al.``."""
    parsed = _names_line(text)
    return None if parsed is None else (list(parsed[0]), *parsed[1:])


@per_text
def _names_line(text: str) -> tuple[list[str], bool, str | None, int | None] | None:
    parsed = _names_with_tail(text)
    if parsed is None or not (len(parsed[0]) >= 2 or parsed[1] or parsed[2] or parsed[3]):
        return None
    return parsed


_VENUE_YY_RE = lazy(r"(?P<v>.*?)\s*['’]\s*(?P<yy>\d{2})")
_VENUE_YEAR_RE = lazy(r"(?P<v>.*?)\s*(?P<y>(?:19|20)\d{2})")
_VENUE_WORDS_RE = lazy(r"[A-Za-z][A-Za-z&'\-]*(?:\s+[A-Za-z]+){0,3}")


def _venue_year_short(text: str) -> tuple[str | None, int | None]:
    text = text.strip()
    m = _VENUE_YY_RE.fullmatch(text)
    if m:
        venue = _short_venue_word(m.group("v")) if m.group("v") else None
        yy = int(m.group("yy"))
        return venue, (2000 + yy if yy < 60 else 1900 + yy)
    m = _VENUE_YEAR_RE.fullmatch(text)
    if m:
        v = m.group("v").strip()
        if v and not _VENUE_WORDS_RE.fullmatch(v):
            return None, None
        return (_short_venue_word(v) if v else None), int(m.group("y"))
    return None, None


def _paren_authors(inner: str, *, dash_tail: bool = True) -> tuple[list[str], bool, str | None, int | None] | None:
    """``A & B, ICML 2026`` / ``Kwon et al., SOSP 2023`` / ``Chen, Liang, Huang, Real et al.``;
    ``dash_tail``: the venue may follow a spaced dash (``Gu, Goel, Ré — ICLR ’22``) — not after
    a short name, whose brackets are read as its citation (``SAC (Haarnoja, …, Levine — ICML 2018)``)."""
    inner, venue, year = _cut_venue_tail(inner.strip(), _PAREN_TAIL if dash_tail else _COMMA_TAIL)
    parsed = split_name_list(inner, single_word=True)
    if parsed is None:
        return None
    names, incomplete = parsed
    if not (venue or year or incomplete or len(names) >= 2):
        return None  # "Jane Doe (Stanford)": one name and nothing else is an affiliation
    return names, incomplete, venue, year


def _affiliation(title: str, parsed: tuple[list[str], bool, str | None, int | None]) -> bool:
    """``Guy Wolf (Mila, UdeM)``: a person with affiliations, not a title with its authors.

    A paper's short name in title case reads as a name too (``Ring Attention (Liu, Zaharia,
    Abbeel)``): the parentheses hold people, not places of work, when no part is written
    with inner capitals as institutions are (``UdeM``, ``KAUST``) and there are three
    names or more, or two and the "name" before them is made of two words or more that
    titles write in lower case (``ring``, ``attention``; ``Guy Wolf`` has one)."""
    if parsed[2] or parsed[3] or not is_author_name(title):
        return False
    names = parsed[0]
    if any(n in _place_names() for n in names):
        return True  # ``Rose Wolf (Mila, Montreal)``: where she works
    if parsed[1] or any(sum(1 for c in n if c.isupper()) > 1 and "-" not in n and " " not in n for n in names):
        return not parsed[1]
    ordinary = sum(1 for w in title.split() if w.lower() in _ordinary_words())
    return not (len(names) >= 3 or (len(names) >= 2 and ordinary >= 2))


#: a paper's coined name, one word with a second capital or a digit (``GPTQ``, ``SparseQ``,
#: ``LLM.int8()``, ``T5``): not a word of English, so a dash and names with a venue after it cite it
_CODED_NAME_RE = lazy(r"[A-Z](?=[\w.()\-]*[A-Z0-9])[\w.()\-]{1,24}")


#: a paper's short name before its authors in parentheses (``GQA``, ``ViT``, ``T5``): shorter
#: than a title may be elsewhere, so only with two names or more
_SHORT_NAME_RE = lazy(r"[A-Za-z][A-Za-z0-9\-]{1,2}")


#: (the spaces after each ``;`` belong to the next name: written ``(?:[^;]+;\s*)+``, the
#: pattern could split them between the two in every way, and a 500-character line of
#: "Title. A; B; Title. A; B; ..." took longer than anyone waits; the last ``\s*`` keeps
#: the matches the same)
_SEMICOLON_SHAPE_RE = lazy(r"^(?P<title>[^;]+?[^\s.][?!]?)\.\s+(?P<authors>(?:[^;]+;)+\s*[^;]+?)\.\s+(?P<rest>[^;]*)$")
_PAREN_SHAPE_RE = lazy(r"^(?P<title>.+?)\s*[(（](?P<inner>[^()（）]+)[)）]\.?$")
#: a bracket closed, then a comma or a semicolon and more words: a list of items, each with
#: its own brackets (``RetNet, QRWK ("…"), Hyrax``), never one title
_LISTED_BRACKET_RE = lazy(r"[)）]\s*[,;]\s*\S")
_BY_RE = lazy(r"\s+by\s+")
_COMMA_GAP_RE = lazy(r",\s+")


#: a narrative citation opening a line: ``Zhao et al. (2024)``, ``Kim & Lee 2021``
_LEADING_CITATION_RE = lazy(
    r"^(?P<names>[^\W\d_][^()\d,;:]{0,60}?(?:\s+et\s+al\.?|\s+(?:&|and)\s+[^\W\d_][\w'’\-]+))"
    r",?\s*[(（]?(?:19|20)\d\d[a-z]?[)）]?(?=\s)"
)


def _leads_with_authors(text: str) -> bool:
    """``Ioffe & Szegedy, Batch Normalization: … by Reducing …``: the text opens with an
    author list (names joined by ``&``/``and``, or ``et al.``) before a comma, so a ``by``
    later in it is a word of the title, not its authors."""
    cited = _LEADING_CITATION_RE.match(text)
    if cited is not None and split_name_list(cited.group("names"), single_word=True) is not None:
        return True  # ``Zhao et al. (2024) GaLore: … Training by Gradient …``: the authors came first
    head = text.split(",", 1)[0] if "," in text else ""
    if not head or not (_JOINED_NAMES_RE.search(head) or _ET_AL_RE.search(head)):
        return False
    return split_name_list(head, single_word=True) is not None


def _words_not_people(names: list[str]) -> bool:
    """``… Training by Gradient Low-Rank Projection``, ``Sparse Routing by Token Choice``: every
    "name" after a ``by`` is made of words titles write in lower case, so the ``by`` is the
    title's own word and what follows is the rest of the title, not its authors."""
    ordinary = _ordinary_words()
    return all(all(part.lower() in ordinary for word in name.split() for part in word.split("-") if part)
               for name in names)


#: a list of names closed by ``&``/``and`` and its last name, then a remark in lower case
#: after a comma or a semicolon (``Fedus, Zoph & Shazeer, top-1 routing``)
_CLOSED_NAMES_REMARK_RE = lazy(r"^(?P<names>[^,;]+(?:,\s*[^,;]+)*?\s*(?:&|\band\b)\s*[A-Z][\w'’\-]+)\s*[,;]\s+[a-z].*$")


def _title_first(text: str) -> Reference | None:
    """The typed shapes: ``Title — A, B``, ``Title by A``, ``Title (A & B, ICML 2026)``,
    ``Title, A et al., NeurIPS'25``, ``Title. A; B; C. ICML 2026.``."""
    # Title. A; B; C. Venue Year.  (each shape is tried only when the text has the
    # character it cannot match without: most lines name no paper)
    m = ";" in text and _SEMICOLON_SHAPE_RE.match(text)
    if m and _title_ok(m.group("title")):
        parsed = split_name_list(m.group("authors"))
        if parsed:
            venue, year = venue_and_year(m.group("rest"))
            return Reference(m.group("title").strip(), parsed[0], "title-semicolon-authors", parsed[1], venue, year)
    # Title (A & B, Venue Year)
    m = (")" in text or "）" in text) and _PAREN_SHAPE_RE.match(text)
    if m and _holds_sentences(m.group("title")):
        m = None  # sentences before the brackets: prose that names things in them, not a title
    if m and _LISTED_BRACKET_RE.search(m.group("title")):
        m = None  # ``QRWK ("…"), Hyrax (Poli et al.)``: items of a list, the brackets the last one's
    if m and (_title_ok(m.group("title")) or _SHORT_NAME_RE.fullmatch(m.group("title").strip())):
        parsed = _paren_authors(m.group("inner"), dash_tail=_title_ok(m.group("title")))
        if parsed and (_title_ok(m.group("title")) or len(parsed[0]) >= 2) and not _affiliation(m.group("title").strip(), parsed):
            return Reference(m.group("title").strip().rstrip(",.:"), parsed[0], "title-paren-authors", parsed[1], parsed[2], parsed[3])
    # Title — A, B, C  (the last dash whose right side is a list of names)
    pieces = _DASH_SPLIT_RE.split(text) if ("-" in text or "—" in text or "–" in text) else (text,)
    for cut in range(len(pieces) - 1, 0, -1):
        title = " — ".join(pieces[:cut]).strip()
        names = " — ".join(pieces[cut:])
        parsed = _names_with_tail(names)
        if parsed and _title_ok(title):
            return Reference(title, parsed[0], "title-dash-authors", parsed[1], parsed[2], parsed[3])
        if _surnames_title(title) and _places_line(names):
            return Reference(title, [], "title-dash-places")  # where it was done, nobody named
        if (closed := _CLOSED_NAMES_REMARK_RE.match(names)) is not None:
            names = closed.group("names")  # "Fedus, Zoph & Shazeer, top-1 routing": a remark after the list
        parsed = _names_with_tail(names, surnames=True)
        if parsed and (_surnames_title(title) or (closed is not None and _surnames_title(title, words=2) and title_case(title))):
            return Reference(title, parsed[0], "title-dash-surnames", parsed[1], parsed[2], parsed[3])
        if parsed and parsed[2] is not None and parsed[3] is not None and _CODED_NAME_RE.fullmatch(title):
            # ``GPTQ -- Frantar, Ashkboos, Hoefler, Alistarh, ICLR 2023``: a paper's coined name, then
            # its authors closed by a venue and a year (what a list of people alone never has)
            return Reference(title, parsed[0], "name-dash-surnames-venue", parsed[1], parsed[2], parsed[3])
    # Title by A, B and C
    for m in reversed(list(_BY_RE.finditer(text)) if "by" in text else []):
        title, rest = text[: m.start()].strip(), text[m.end():]
        parsed = _names_with_tail(rest)
        if (parsed and _title_ok(title) and (len(parsed[0]) >= 2 or len(parsed[0][0].split()) >= 2 or parsed[1])
                and not _leads_with_authors(title) and not _words_not_people(parsed[0])):
            # (one surname is an author when ``et al.`` follows it: ``by Okafor et al. (2024)``)
            return Reference(title, parsed[0], "title-by-authors", parsed[1], parsed[2], parsed[3])
    # Title, A et al., NeurIPS'25  /  Title, A and B, ICML'16
    tail = _VENUE_TAIL_RE.search(text) if text.rstrip()[-1:].isdigit() else None
    if tail:
        venue, year = _venue_year_short((tail.group("venue") or "") + ("'" + tail.group("yy") if tail.group("yy") else " " + (tail.group("year") or "")))
        head = text[: tail.start()].strip().rstrip(",")
        commas = [m.start() for m in _COMMA_GAP_RE.finditer(head)]
        for pos in commas:
            title, names = head[:pos].strip(), head[pos:].lstrip(", ")
            parsed = split_name_list(names)
            if parsed and _title_ok(title) and all(len(n.split()) >= 2 for n in parsed[0]):
                return Reference(title, parsed[0], "title-comma-authors", parsed[1], venue, year)
    return None


#: a list of names closed in citation syntax at the end of the line (``A & B``, ``A and B``,
#: ``A et al.``), maybe with its year and a full stop
_CLOSED_LIST_RE = lazy(r"(?:\s(?:&|and)\s+[^\W\d_][\w'’\-]+|\bet\s+al\.?)\s*(?:,?\s*[(（]?(?:19|20)\d{2}[)）]?)?\s*\.?\s*$")
#: a spaced dash: where a title would end if the line had one (``DDPM — Ho, Jain & Abbeel``)
_SPACED_DASH_RE = lazy(r"\s(?:[—–]|-{1,2})\s")


def _title_comma_surnames(text: str) -> Reference | None:
    """``Title, Kingma & Ba.``: after a title and a comma, a list of names closed as a
    citation closes it (``&``/``and`` before the last name, or ``et al.``) ends the line,
    maybe with its year (a title with a spaced dash in it is read by the dash rules). The list must hold a word that is no ordinary lower-case word
    (``Theory & Practice`` after a comma is more of the title), and the title must be
    strong enough to take bare surnames (three words or more, no event)."""
    for m in _COMMA_GAP_RE.finditer(text):
        title, names = text[: m.start()].strip(), text[m.end():]
        if not _CLOSED_LIST_RE.search(names) or _SPACED_DASH_RE.search(title) or not _surnames_title(title):
            continue
        parsed = _names_with_tail(names, surnames=True)
        if parsed and _not_all_ordinary(parsed[0]):
            return Reference(title, parsed[0], "title-comma-surnames", parsed[1], parsed[2], parsed[3])
    return None


def _not_all_ordinary(names: list[str]) -> bool:
    """Some word of ``names`` is no word real titles write in lower case (a family name,
    not ``Theory`` or ``Practice``)."""
    ordinary = _ordinary_words()
    return any(word.lower() not in ordinary for name in names for word in name.split())


def parse_reference(text: str) -> Reference | None:
    """The paper a single line names with its authors, or None.

    ``text`` is the line without its bullet, URLs and hashtags; Markdown emphasis around
    the title is allowed (``**Title** — A, B``).
    """
    ref = _parse_reference(text)
    return None if ref is None else replace(ref, authors=list(ref.authors))  # a copy: mentions keep the list


@per_text
def _parse_reference(text: str) -> Reference | None:
    if len(text) < 8 or len(text) > 2000 or not REFERENCE_RULES.could_match(text):
        return None
    text = squash_spaces(text)
    plain = strip_markup(text)
    if ")" in plain or "）" in plain:
        plain = _REMARK_TAIL_RE.sub("", plain)  # "(read it already)": a remark
        plain = _without_dash_remark(plain, after_stop=False)  # "(Okafor et al. 2024) — skim §3": a remark
    if _quoted_sentence(plain):
        return None
    if plain[:1].isdigit():
        plain = _POST_COUNTER_RE.sub("", plain)  # "5/7 Title (…)": a thread's post counter
    if "<-" in plain or "←" in plain:
        plain = _ARROW_REMARK_RE.sub("", plain)  # "… SOSP 2023  <-- this is vLLM": a remark pointing back
    ref = REFERENCE_RULES.first(plain)
    if ref is None and ")." in plain and (cut := _without_dash_remark(plain, after_stop=True)) != plain:
        plain, ref = cut, REFERENCE_RULES.first(cut)  # "Title (Park et al., UIST '23). the HCI crowd …": a remark
    if ref is not None:
        ref.source = plain
        ref.title = unquote_title(strip_markup(ref.title)).strip().rstrip(",")
        if "- " in ref.title:
            from citekit.notes.refparse.fields import rejoin_broken_words

            ref.title = rejoin_broken_words(ref.title)
        ref.title = _ANNOUNCEMENT_RE.sub("", ref.title, count=1)
        if ref.authors and _journal_abbreviation(ref.authors[-1]):
            # ``— Ioannidis, PLoS Med``: the journal after the names, not a last author
            journal = ref.authors.pop()
            ref.venue = ref.venue or journal
        if not _title_ok(ref.title) and not (ref.rule == "title-paren-authors" and len(ref.authors) >= 2
                                             and _SHORT_NAME_RE.fullmatch(ref.title)):
            return None
        if _CLAIM_OF_ORIGIN_RE.match(ref.title):
            return None  # ``RoPE is from RoFormer (Su et al., 2021)``: a claim, its citation read on its own
        if _cites_inside(ref.title):
            return None  # prose that cites papers ("the Lion paper (Chen, Liang, 2023) and …"), read on as citations
        if ref.pasted and not ref.published:
            ref.published = _published_where_model_agrees(plain, ref.title)
    return ref


def _cites_inside(title: str) -> bool:
    """``title`` holds an author-year citation with its year (``… the Lion paper (Chen,
    Liang, Huang, 2023) and Shampoo …``, ``… the survey by Zhao et al. (2023) and …``): a
    title names no other paper by its authors and year, so the words are a sentence that
    cites papers, each read as a citation of its own."""
    return any(c.year is not None for c in find_citations(title)) if _YEAR_IN_TEXT_RE.search(title) else False


_YEAR_IN_TEXT_RE = lazy(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def _published_where_model_agrees(text: str, title: str) -> dict[str, str]:
    """Where a pasted reference a citation-style rule read says the paper appeared
    (container, volume, pages), as the learned reference parser reads the same string,
    taken only when the parser finds the same title: its fields then end where the
    rule's do (``[4] …, "Title," in Proc. IEEE ICCV, 2019, pp. 120–128.``)."""
    from citekit.notes import refparse

    text = REFERENCE_NUMBER_RE.sub("", text, count=1)
    parsed = refparse.parse(text)
    if not parsed.title or _title_key(unquote_title(parsed.title)) != _title_key(title):
        return {}
    out = published_in(parsed)
    container = out.get("container", "")
    if container.count("(") != container.count(")") or _OTHER_FIELD_RE.search(container):
        out.pop("container")  # cut by a wrap, or a year or pages read into it: not the container as written
    if "pages" in out and _cut_number(text, (parsed.pages or "").strip(" ,.;:()")):
        out.pop("pages")  # "pp. 10 347–10 357": a page number the PDF spaced, read only in part
    return out


#: what a container's name never holds: a year, or pages after a volume (``JMLR, 12:2825–2830``)
_OTHER_FIELD_RE = lazy(r"(?<!\d)(?:19|20)\d{2}(?!\d)|\d+\s*:\s*\d+|\d+\s*[–—-]\s*\d+")


def _cut_number(text: str, read: str) -> bool:
    """``read`` (a field as the parser read it) ends inside a longer number of ``text``:
    digits follow it directly or after one space (``10`` of ``10 347``)."""
    at = text.find(read) if read else -1
    return at >= 0 and re.match(r"\s?\d", text[at + len(read):]) is not None


def _title_key(title: str) -> str:
    """A title's letters and digits, lower-cased: two readings of one title compare equal
    whatever quotes, commas and spaces each kept around it."""
    return "".join(c for c in title.lower() if c.isalnum())


#: a post's announcement before the title it announces (``New paper: Title``, ``our new
#: preprint — Title``): the poster's words, never the paper's
_ANNOUNCEMENT_RE = lazy(r"^(?:(?:our|a|my)\s+)?(?:new|latest)\s+(?:paper|preprint|work)"
                        r"(?:\s+(?:from|by)\s+[^:—–]{1,40}?)?\s*(?:[:—–]|!+:?)\s*(?=\S)", re.I)

def announced_title(text: str) -> str | None:
    """The title a post announces on a line of its own (``New paper: Tree of Thoughts:
    Deliberate Problem Solving with Large Language Models``): the announcement says the
    words after it are a paper's title. Three words or more in title case, no sentence
    after them (``New paper: we show that …`` is the poster's own words)."""
    m = _ANNOUNCEMENT_RE.match(text)
    if m is None:
        return None
    title = text[m.end():].strip().rstrip(" ,;:")
    title = title.rstrip(" 🧵👇📄🚨🔥✨🎉").strip()
    words = title.split()
    if not 3 <= len(words) <= 30 or title[-1:] in ".!…":
        return None
    if title[:1].isupper() and title_case(title) or _ANNOUNCED_NAMED_RE.fullmatch(title):
        return title
    return None


#: a coined name (in any case, ``s1``, ``o3-mini``), a colon and a subtitle opening on a
#: capital, no sentence end inside (``s1: Simple test-time scaling``): after an announcement,
#: a paper's title in sentence case, as many are written
_ANNOUNCED_NAMED_RE = lazy(r"[^\W_][\w.\-]{0,24}:\s+[A-Z][^.!?:;]{8,200}")


#: the words of an abbreviated journal name (ISO 4 / NLM: ``PLoS Med``, ``Nat. Mach. Intell.``,
#: ``J Mach Learn Res``, ``Proc Natl Acad Sci``), which a list of family names cannot hold all of
_JOURNAL_WORDS = frozenset("""plos med nat sci rev lett proc natl acad j res intell mach learn comput ann
    trans ieee acm phys biol stat math appl neurosci psychol am soc assoc bmj jama pnas n engl lancet
    cell genet mol chem eng inf syst artif""".split())


def _journal_abbreviation(name: str) -> bool:
    """An abbreviated journal name read as a person: two or more words, every one a word
    of abbreviated journal names (``PLoS Med``, ``Nat Mach Intell``); a person's name holds
    a word outside them (``Nat Friedman``)."""
    words = [w.strip(".,").lower() for w in name.split()]
    return len(words) >= 2 and all(w in _JOURNAL_WORDS for w in words)


_POSSESSIVE_RE = lazy(r"^(?P<name>[A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?)['’]s\s+(?P<title>[^\W\d_].+?)"
                     r"(?:\s*[(（,]\s*(?P<year>(?:19|20)\d{2})[)）]?)?[.]?$")


def _possessive_title(text: str) -> Reference | None:
    """``Shazeer's Fast Transformer Decoding: One Write-Head is All You Need``: the first
    author's family name in the possessive, then the title in title case (three words or
    more); a name that is an ordinary word (``Today's``) or a title that reads as prose
    (``Kaplan's scaling laws paper``) is no reference."""
    m = _POSSESSIVE_RE.match(text)
    if m is None:
        return None
    name, title = m.group("name"), m.group("title").strip()
    if name.lower() in _ordinary_words() or not is_author_name(name, single_word=True):
        return None
    from citekit.notes.shapes import non_paper_words

    if len(title.split()) < 3 or not title_case(title) or title[-1:] in "!?" or _holds_sentences(title):
        return None
    if not title.split()[-1][:1].isupper() or non_paper_words(title):
        return None  # ``Karpathy's Neural Networks: Zero to Hero course``: a title in title case ends so
    return Reference(title, [name], "possessive-title", year=int(m.group("year")) if m.group("year") else None)


#: The remembered answer itself, for callers that only read it (as ``copied`` rules offer).
parse_reference.shared = _parse_reference  # type: ignore[attr-defined]


def _dash_title_with_inner_quotes(text: str) -> Reference | None:
    """``Über Horváth’s “Gradient” Methods — Samuel Horváth``: quotes inside a title followed
    by a title dash and its authors are part of the title, not the title itself."""
    if not _ANY_QUOTE_RE.search(text) or text[:1] in _QUOTES or not _DASH_SPLIT_RE.search(text):
        return None
    ref = _title_first(text)
    if ref is None or not ref.rule.startswith("title-dash") or unquote_title(ref.title) != ref.title.strip():
        return None
    return ref


#: Where a clause of prose ends: a sentence's end, a dash or arrow between words, a
#: parenthesis, a semicolon, a colon before a space.
_CLAUSE_END_RE = lazy(r"(?<!\bal)(?<!\b[A-Z])[.!?;](?=\s)|\s[—–→]\s|\s-{1,2}\s|[()（）]|:\s")
_OPEN_QUOTE_RE = lazy("[\"“„«《『「]")


def may_cite_inline(text: str) -> bool:
    """The text has a quote that may open a cited title, or a bracketed citation with a year
    that may close one, or a named title as an item of a list (what :func:`inline_references` needs)."""
    return (_OPEN_QUOTE_RE.search(text) is not None
            or ("(" in text and (_PAREN_CITATION_RE.search(text) is not None or "et al" in text and _PAREN_ET_AL_RE.search(text) is not None))
            or (": " in text and _LISTED_NAMED_TITLE_RE.search(text) is not None))


#: an item of a list in prose that is a paper's whole title, its name, a colon and words in
#: title case (``…, Toolformer: Language Models Can Teach Themselves to Use Tools, and …``),
#: between the list's commas (or its closing ``and``/the sentence's end)
_LISTED_NAMED_TITLE_RE = lazy(
    r"(?:[,;]\s+|\b(?:and|or)\s+)(?P<t>[A-Z][\w\-]{2,24}:\s+[A-Z][^,;:()\[\]\"“”!?]{14,160}?)"
    r"(?=\s*(?:[,;!?]|\.(?:\s|$)|$))")
#: the rest of such a title: five words or more
_TITLE_WORDS_MIN = 5
#: words that label what follows their colon rather than name a paper (``Update: …``)
_LABEL_WORDS = frozenset(
    "update updates agenda reminder note notes todo subject topic title paper papers venue where when time "
    "location room deadline status summary edit question answer idea plan goal result results".split())


def listed_named_titles(text: str) -> list[Reference]:
    """The titles a sentence lists as items by their name, a colon and the rest in title case
    (``Toolformer: Language Models Can Teach Themselves to Use Tools``): no author is written,
    but a name and a subtitle in title case are a paper's title, not a remark (a remark after
    a label is a sentence, not title case)."""
    return [Reference(m.group("t").strip(), [], "name-colon-title listed in a sentence")
            for m in _LISTED_NAMED_TITLE_RE.finditer(text) if is_named_title(m.group("t").strip())]


#: a coined name, a colon and the rest (``Toolformer: Language Models Can …``), with no comma
#: (``StyleGAN: Karras, Laine, Aila``: a name and its authors)
_NAMED_TITLE_RE = lazy(r"^[A-Z][\w\-]{2,24}:\s+[A-Z][^,;:()\[\]\"“”!?]{14,160}$")


#: a remark in lower case after a spaced dash, to the end (``… -- got the best paper award``)
_DASH_REMARK_RE = lazy(r"\s+(?:[—–]|-{1,2})\s+[a-z][^—–]*$")


def named_title_before_remark(text: str) -> str | None:
    """The named title (:func:`is_named_title`) a line opens with, before a remark in lower
    case after a spaced dash (``Lanternfish: Small Models … Routes -- got an award``); None
    when the line is not such a title, with or without its remark."""
    m = _DASH_REMARK_RE.search(text)
    head = text[:m.start()].rstrip() if m else ""
    if head and is_named_title(head):
        return head
    return text if is_named_title(text) else None


def is_named_title(text: str) -> bool:
    """``Toolformer: Language Models Can Teach Themselves to Use Tools``: a coined name, a
    colon and five words or more in title case, the shape of a paper's own title (a remark
    after a label is a sentence, not title case; a label word is no name)."""
    from citekit.notes.shapes import looks_like_title, non_paper_words

    if _NAMED_TITLE_RE.match(text) is None:
        return False
    name, _, rest = text.partition(":")
    rest = rest.strip()
    return (name.lower() not in _LABEL_WORDS and len(rest.split()) >= _TITLE_WORDS_MIN and title_case(rest)
            and looks_like_title(text) and not non_paper_words(text))


#: a citation in brackets with its year, after the title it cites: ``(Song, Dhariwal, Chen,
#: Sutskever, ICML 2023)``, ``(Ho & Salimans, 2022)``
_PAREN_CITATION_RE = lazy(r"\((?P<inner>[^()]{3,200}?(?:19|20)\d{2})\)")
#: a citation in brackets that is one name and ``et al.`` alone (``(Lightman et al.)``): a
#: citation with no year, which nothing but a paper's authors is written as
_PAREN_ET_AL_RE = lazy(r"\((?P<inner>[A-Z][\w'’\-]+(?:\s+[A-Z][\w'’\-]+)?\s+et\s+al\.?)\)")
#: the words a title in title case may hold in lower case
_TITLE_SMALL_WORDS = frozenset("a an the of for in on with and to via from by at as or vs is are".split())
_TITLE_TOKEN_RE = lazy(r"[^\s]+")


#: the marks that open and close a quoted title (the title marks of Chinese, Japanese and
#: Korean text, guillemets, curly double quotes): the title's words lie between them
_OPENING_TITLE_MARKS = "“«《『「"
_CLOSING_TITLE_MARKS = "”»》』」"


def _title_before(text: str, end: int) -> str | None:
    """The run of title-case words that ends at ``end`` (read backwards up to a clause's
    punctuation or a lower-case word that is no title's small word): two words or more,
    opening and closing on a capitalised word; None when there is none."""
    words = _TITLE_TOKEN_RE.findall(text[:end])
    run: list[str] = []
    for word in reversed(words):
        opened = max(word.rfind(mark) for mark in _OPENING_TITLE_MARKS)
        core = word[opened + 1:].strip("“”\"'‘’*_" + _CLOSING_TITLE_MARKS)
        if not core or core[-1:] in ".;,!?)]" or core in ("—", "–", "-", "--", "→", "=", "|"):
            break
        if core[:1].isupper() or core[:1].isdigit() or core.lower() in _TITLE_SMALL_WORDS:
            run.append(core)
            if opened >= 0:
                break  # (the title opens at its quote mark: ``原文《Title》``, ``the original «Title»``)
            continue
        break
    run.reverse()
    while run and (not run[0][:1].isupper() or len(run) > 2 and run[0].lower() in _POINTING_WORDS):
        run.pop(0)  # (``Compare Highway Networks (…)``: the sentence's own verb, capitalised as it opens it)
    if len(run) < 2 or not run[-1][:1].isupper() or sum(1 for w in run if w[:1].isupper()) < 2:
        return None
    return " ".join(run)


#: words a sentence of notes opens with to point at a work, before its title (``Compare …``,
#: ``See …``, ``Also …``): never a title's first word when a title in title case follows
_POINTING_WORDS = frozenset("compare see cf also read skim contrast vs versus".split())


def _ordinary_count(text: str) -> int:
    """How many words of ``text`` are words real titles write in lower case."""
    return sum(1 for w in text.split() if w.lower().strip(":,") in _ordinary_words())


def _titles_before_citations(text: str) -> list[Reference]:
    """``… — Consistency Models (Song, Dhariwal, Chen, Sutskever, ICML 2023). map any …``: a
    title in title case right before a bracketed author list with its year, inside prose.
    The brackets must hold two names or more (or ``et al.``) and the year, so a name in
    brackets after a person (``Bob Smith (Ng, 2019)``) is no title; or one name and ``et
    al.`` alone (``Let's Verify Step by Step (Lightman et al.)``), which no person is written
    as, after three words or more (two, ``Temperature Scaling (Keller et al.)``, name a method)."""
    out = []
    found = [*_PAREN_CITATION_RE.finditer(text), *(_PAREN_ET_AL_RE.finditer(text) if "et al" in text else ())]
    for m in sorted(found, key=lambda m: m.start()):
        parsed = _paren_authors(m.group("inner"))
        if parsed is None or not (m.re is _PAREN_ET_AL_RE and parsed[1] or parsed[3] is not None and (len(parsed[0]) >= 2 or parsed[1])):
            continue
        title = _title_before(text, m.start())
        if (title is None or not _title_ok(title) or (is_author_name(title) and _ordinary_count(title) < 2)
                or _CLAIM_OF_ORIGIN_RE.match(title)):
            continue  # (``Bob Smith``: a person; ``Consistency Models``: words titles write; ``RoPE is from RoFormer``: a claim)
        if m.re is _PAREN_ET_AL_RE and len(title.split()) < 3:
            continue  # (``Temperature Scaling (Keller et al.)``: with no year, two words name a method, not a title)
        out.append(Reference(title, parsed[0], "title-paren-authors, inside a sentence", parsed[1], parsed[2], parsed[3]))
    return out
_CAPITALISED_RE = lazy(r"(?<![\w'’])[^\W\d_][\w'’\-]*")


_PAREN_AFTER_RE = lazy(r"\s*[(（][^()（）]{2,200}[)）]")


def _balanced(window: str) -> str:
    window = window.strip(" .,;:")
    if window.startswith(("(", "（")) and window.count("(") + window.count("（") > window.count(")") + window.count("）"):
        window = window[1:].strip()
    if window.endswith((")", "）")) and window.count(")") + window.count("）") > window.count("(") + window.count("（"):
        window = window[:-1].strip()
    return window


def _windows(text: str, ends: list[int], quote: re.Match[str]) -> Iterator[str]:
    """The pieces of ``text`` around one quoted title, most likely first: from each
    capitalised word of its clause (the clause may open with prose) and from the clause's
    start, then the same one and two clauses further back (the authors sit before a
    parenthesis); each up to the end of the clause after the title, then up to the title's
    closing quote."""
    tail = next((e for e in ends if e >= quote.end()), len(text))
    paren = _PAREN_AFTER_RE.match(text, quote.end())
    if paren is not None:
        tail = paren.end()  # “Title” (Meng, Xia, Chen): the parenthesis is the citation
    before = [e for e in ends if e <= quote.start()]
    starts: list[int] = []
    edge = quote.start()
    for back in (1, 2, 3):
        if len(before) < back:
            break
        start = before[-back]
        starts += [w.start() for w in _CAPITALISED_RE.finditer(text, start, edge) if w.group()[:1].isupper()]
        if back == 1:
            starts.append(quote.start())  # the title leads: “Title” (Huang, Sun, Liu)
        starts.append(start)
        edge = start
    for a in dict.fromkeys(starts):
        for b in dict.fromkeys((tail, quote.end())):
            yield _balanced(text[a:b])


def _same_text(title: str, quote: re.Match[str]) -> bool:
    """The title read is the quoted text (not prose next to it taken for a title)."""
    inner = next(g for g in quote.groups() if g is not None)
    return squash_spaces(title).strip(" .,").lower() == squash_spaces(unquote_title(inner)).strip(" .,").lower()


def inline_references(text: str) -> list[Reference]:
    """Papers cited inside a line of prose by a quoted title with its authors around it
    (``the adapters they mean are Houlsby et al. 2019, “Parameter-Efficient Transfer
    Learning for NLP”. cite as …``): each quoted title is read with the words next to it as
    a line of its own, by the rules and the model that read a reference line."""
    if len(text) > 4000 or not may_cite_inline(text):
        return []
    found: list[Reference] = []
    seen: set[str] = set()
    if "(" in text:
        for ref in _titles_before_citations(text):
            if ref.title not in seen:
                seen.add(ref.title)
                found.append(ref)
    if ": " in text:
        for ref in listed_named_titles(text):
            if ref.title not in seen and not any(ref.title in f.title or f.title in ref.title for f in found):
                seen.add(ref.title)
                found.append(ref)
    if not _OPEN_QUOTE_RE.search(text):
        return found
    ends = [0] + [m.end() for m in _CLAUSE_END_RE.finditer(text)] + [len(text)]
    for quote in _QUOTED_TITLE_RE.finditer(text):
        for window in _windows(text, ends, quote):
            ref = parse_reference(window) if len(window) < len(text) or not found else None
            if ref is not None and _same_text(ref.title, quote):
                if ref.title not in seen:
                    seen.add(ref.title)
                    found.append(replace(ref, rule=f"{ref.rule}, inside a sentence"))
                break
    return found


@per_text
def names_a_paper(text: str) -> bool:
    """A line that on its own names a paper: a reference string (title and author list,
    a pasted citation) or a paper identifier. Such a line starts an item of its own even
    without a bullet or a blank line before it; a line that does not (a hard-wrapped
    continuation) belongs to the line above."""
    # (the remembered answers themselves: only their presence is read)
    return bool(find_text_ids.shared(text)) or (len(text) <= 1500 and parse_reference.shared(strip_hashtags(strip_urls(text))) is not None)


#: How sure the reference parser must be of a field (the mean marginal probability of its
#: tokens' labels) before its reading of a line is taken (chosen on the development set of
#: notes written blind: 0.5-0.9 found the same papers, 0.7 read the most titles and
#: authors right).
MODEL_SURE = 0.7
#: A pasted reference's title read with less than this (the mean marginal probability of
#: its tokens' labels) is taken, but marked unsure: an online sync also looks the string up
#: by its other words when that title finds nothing. On AnyStyle's gold references, 10 of
#: the 29 titles the model read between 0.7 and 0.9 were read wrong (an author list or
#: the journal run into them), against few above.
TITLE_SURE_ONLINE = 0.9
#: A line the typed shapes left unread is given to the model only when it holds a year or
#: ``et al.`` (every citation style writes one of them) and something that reads as an
#: author list: ``et al.``, an initial before a name (``J. Smith``, ``Smith, J.``, ``Smith J,``)
#: or names between commas. Most notes lines have none, and the model costs about half a
#: millisecond a line.
_MODEL_YEAR_RE = lazy(r"(?<!\d)(?:19|20)\d{2}(?!\d)|\bet\.? al\b|\barxiv:\s?\d{4}\.\d{4,5}", re.I)  # (an arXiv id dates the paper)
#: (a lower-case run is any letter but A-Z, so ``Jürgen`` and ``Stanisław`` are names too)
_MODEL_NAMES_RE = lazy(
    r"\bet\.? al\b|\b[A-Z]\.(?:\s?-?[A-Z]\.)*\s+(?:[a-z]{1,3}\s+)?[A-Z][\w'’\-]+|[A-Z][\w'’\-]+,\s+[A-Z]\.|"
    r"\b[A-Z][\w'’\-]+\s[A-Z]{1,3}[,.]|[A-Z][^\W\d_A-Z]+\s[A-Z][\w'’\-]+,?\s+(?:and\s+|&\s*)?[A-Z][^\W\d_A-Z]+\s[A-Z]|"
    r"\b[A-Z][\w'’\-]+\s+(?:&|and)\s+[A-Z][\w'’\-]+,|"
    r"\b[A-Z][\w'’\-]+\s+and\s+[A-Z][^\W\d_A-Z]+\s[A-Z][\w'’\-]+\.|"  # ``Diederik P Kingma and Jimmy Ba.``
    r"^(?:\[\d{1,4}\]\s*)?[A-Z]{1,2}\s[A-Z][^\W\d_A-Z][\w'’\-]*,\s+[A-Z]{1,2}\s[A-Z][^\W\d_A-Z]|"  # ``A Okafor, B Lindqvist.`` (initials without stops)
    r"^(?:\[\d{1,4}\]\s*)?[A-Z][A-Z'’\-]+(?:\s[A-Z][A-Z'’\-]+)*,\s+[A-Z]|"  # ``PASHLEY, D W, 1965.`` (ISO 690 and ABNT capitals)
    # the authors, then the year between full stops, then the title: ACM and ACL
    # (``[2] S Takeuchi and K Suzuki. 1999. Stacking …``, ``Yen-Kuang Kuo and … 2012. Advantages …``)
    r"^(?:\[\d{1,4}\]\s*)?[A-Z][^.\d]{2,300}?[^\W\d_]\.\s(?:19|20)\d{2}[a-z]?\.\s+[^\W\d_]|"
    # one author then the year, as ACM and APA write a paper of one author
    # (``[9] Noam Shazeer. 2020. GLU Variants …``, ``Noam Shazeer (2020).``)
    r"^(?:\[\d{1,4}\]\s*)?[A-Z][^\W\d_A-Z]+(?:\s[A-Z]\.)*\s[A-Z][\w'’\-]+(?:\.\s|\s\()(?:19|20)\d{2}[a-z]?[.)]|"
    # family names alone, then the title (``Okafor, Lindqvist, Brandt. Title. ICML 2023.``)
    r"^[A-Z][^\W\d_A-Z][\w'’\-]*(?:,\s[A-Z][^\W\d_A-Z][\w'’\-]*)+(?:,?\s(?:and|&)\s[A-Z][^\W\d_A-Z][\w'’\-]*)?\.\s+[^\W\d_]|"
    # one author, then the title, in a numbered list (``[3] Noam Shazeer. GLU variants …``):
    # the list's number says a reference starts, the model reads the rest
    r"^\[\d{1,4}\]\s*[A-Z][^\W\d_A-Z]+(?:\s[A-Z]\.)*\s[A-Z][^\W\d_A-Z][\w'’\-]*\.\s+[^\W\d_]"
)


def title_unsure(model: tuple[tuple[str, str, float], ...]) -> bool:
    """Whether the learned parser's reading of a line (its ``(label, text, confidence)``
    runs) holds a title it was not sure of (:data:`TITLE_SURE_ONLINE`)."""
    return any(label == "title" and p < TITLE_SURE_ONLINE for label, _text, p in model)


def _contiguous(labels: list[str], label: str) -> bool:
    """The tokens labelled ``label`` form one run (a title split around an author list is
    a misreading, not a title)."""
    seen = ended = False
    for lab in labels:
        if lab == label:
            if ended:
                return False
            seen = True
        elif seen:
            ended = True
    return seen


def _as_written(person) -> str:
    """A name as the line writes it, with the family name put first behind a comma when the
    line writes it first without one (Vancouver's ``Moreau L`` -> ``Moreau, L``): a name
    string must say which part is the family name."""
    raw = " ".join(person.raw.split())
    if person.given and person.family and "," not in raw and raw.startswith(person.family + " "):
        return f"{person.family}, {raw[len(person.family):].strip()}"
    return raw


def uncapitalised(family: str) -> str:
    """A family name printed in capitals, as ABNT and ISO 690 print it (``FRANKLE``,
    ``LEE-THORP``), in the case a name is written in (``Frankle``, ``Lee-Thorp``); any
    other text as it is."""
    letters = [c for c in family if c.isalpha()]
    if len(letters) < 2 or not all(c.isupper() for c in letters):
        return family
    return re.sub(r"[^\W\d_]+", lambda m: m.group()[:1] + m.group()[1:].lower(), family)


#: initials without full stops after a family name and its comma (``PASHLEY, D W``, ``Borg, BM``)
_BARE_INITIALS_RE = lazy(r"[A-Z](?:\s?[A-Z]){0,2}")
_HYPHENATED_INITIALS_RE = lazy(r"\b([A-Z])\.\s?-\s?([A-Z])\.")


def _reads_as_name(raw: str) -> bool:
    """An author of the model's reading is a personal name as written (``Kingma, D. P.``,
    ``H. Zhang``, ``Moreau L``, ``Houlsby``), not prose taken into the author list."""
    raw = " ".join(raw.replace("{", "").replace("}", "").split()).strip(" ,;")
    # hyphenated initials of a hyphenated given name (``T.-Y. Liu``, ``C.-J. Hsieh``) are initials
    raw = _HYPHENATED_INITIALS_RE.sub(r"\1. \2.", raw)
    if not raw.isascii():
        # a PDF copies an accent as a character of its own beside the letter (``Jastrz˛ebski``)
        raw = "".join(c for c in raw if unicodedata.category(c) != "Sk")
    if "," in raw:
        family, _, given = raw.partition(",")
        family = uncapitalised(family.strip())
        given = re.sub(r"(?<=\w)\s[A-Z]$", "", given.strip())  # ``Dick, Kimberly A``: an initial without its stop
        return is_author_name(family, single_word=True) and (not given.strip() or is_author_name(given.strip(), single_word=True) or bool(_INITIALS_RE.fullmatch(given.replace(" ", "")))
                                                              or bool(_BARE_INITIALS_RE.fullmatch(given.strip())))
    if raw.startswith("A ") and not raw.startswith("A A"):
        raw = "A." + raw[1:]  # ``A Okafor``: the model read an author, so the ``A`` is an initial, not the article
    return is_author_name(raw, single_word=True) or bool(_VANCOUVER_NAME_RE.fullmatch(raw))


#: a group that signs a paper among its people (``and OpenAI Dota Team``, ``The Hugging Face
#: team``): capitalised words closed by the word that says it is a group
_GROUP_AUTHOR_RE = lazy(r"(?:The\s+)?(?:[A-Z][\w\-]*\s+){1,3}(?:Team|team|Group|Consortium|Collaboration|Contributors)")
_LEAD_RE = lazy(r"^.*(?:\s--?\s|\s[—–=→]\s|:\s|[(（])")


def _name_in(raw: str) -> str | None:
    """The personal name an author span of the model's reading holds: the span itself, or
    the name left when a word before it (``DQN -- Mnih``, ``LDM = Rombach``) or a venue
    after its comma (``Liu, TACL)``) was taken into it; None when no name is there."""
    raw = raw.strip()
    if _reads_as_name(raw) or _GROUP_AUTHOR_RE.fullmatch(raw.rstrip(".,;")) or _corporate_author(raw):
        return raw
    lead = _LEAD_RE.sub("", raw).strip()
    if lead != raw and lead and _reads_as_name(lead):
        return lead
    family = lead.partition(",")[0].strip()
    if "," in lead and is_author_name(family, single_word=True):
        return family
    return None


#: what may end a reference's title: a full stop, comma, colon, question or exclamation mark,
#: a closing quote or bracket (a field of a reference ends where its punctuation says)
_FIELD_END = frozenset(".,:;?!\"”’»)]》』」")


#: words a title or a sentence does not end with: text that ends with one goes on on the
#: next line (a wrapped line of prose, a title cut off)
OPEN_ENDED_WORDS = frozenset(
    "a an the of for to with in on at by from and or as that which via vs versus is are was were its their our".split())


def _title_delimited(tokens: list[str], labels: list[str]) -> bool:
    """The title ends where a field ends: at punctuation, at the end of the text, or before
    a bracket. Prose read as a reference has its "title" stop in the middle of a sentence
    (``Goyal et al. (2017) introduced gradual warmup for | large minibatch SGD``)."""
    last = max(i for i, label in enumerate(labels) if label == "title")
    if tokens[last][-1:] in _FIELD_END:
        return True
    if last + 1 >= len(tokens):
        return tokens[last].lower() not in OPEN_ENDED_WORDS  # (a line cut in mid-sentence: "… warmup for")
    return tokens[last + 1][:1] in "([{<" or tokens[last + 1] in ("--", "—", "–", "-", "|")


#: `` -- only for the autoencoder part``: a remark after a dash, in lower case, is no part of a title
_REMARK_AFTER_DASH_RE = lazy(r"\s+(?:--?|—|–)\s+[a-z][^—–]*$")


def _sure_of_title_and_authors(_tokens: list[str], labels: list[str], probs: list[float]) -> bool:
    """The labelling has a title and an author list, each in one piece, and the model is
    sure of both (the mean probability of their tokens' labels)."""
    for field in ("title", "author"):
        ps = [p for label, p in zip(labels, probs) if label == field]
        if not ps or sum(ps) / len(ps) < MODEL_SURE or not _contiguous(labels, field):
            return False
    return True


_VOLUME_RE = lazy(r"^\s*(?:vol(?:ume)?\.?\s*)?(?P<vol>\d{1,5})\s*(?:\(\s*(?P<num>[\w\-–]{1,12})\s*\))?\s*$", re.I)
_PAGES_RE = lazy(r"^(?P<a>[eE]?\d+)(?:[-–—]+(?P<b>\d+))?$")


def published_in(parsed: "ParsedReference") -> dict[str, str]:
    """Where a reference the parser read says the paper appeared (its fields, shaped for BibTeX):
    the container as written, volume and number (``521(7553)``), pages (``436--444``); an arXiv
    "preprint" container is no venue, and a field that does not read as one is left out."""
    out: dict[str, str] = {}
    container = (parsed.container or "").strip(" ,.;:")
    if container and len(container) <= 300 and not re.search(r"\barxiv\b|\bpreprint\b|\bcorr\b", container, re.I):
        out["container"] = container
    if parsed.volume and (m := _VOLUME_RE.match(parsed.volume.strip(" ,.;:"))):
        out["volume"] = m.group("vol")
        if m.group("num"):
            out["number"] = m.group("num")
    if parsed.pages and (m := _PAGES_RE.match(parsed.pages.strip(" ,.;:()"))):
        out["pages"] = f"{m.group('a')}--{m.group('b')}" if m.group("b") else m.group("a")
    return out


#: a sentence's end: a full stop after a word of two letters or more (not an initial's ``N.``)
_SENTENCE_STOP_RE = lazy(r"(?<=[^\W\d_]{2})\.\s+|(?<=\d)\.\s+")


def _title_dot_names_venue(text: str) -> Reference | None:
    """``Title. Given Family, Given Family, …. Venue Year.``: three sentences, the middle
    one only people's full names (:func:`names_line`), the last a venue and its year. The
    title may be one word (``Dropout``): the names and venue around it say it is a title.
    The learned parser glued such a venue to the last name (``Alex Krizhevsky. JMLR``)."""
    stops = [m for m in _SENTENCE_STOP_RE.finditer(text)]
    if len(stops) < 2:
        return None
    title = text[:stops[0].start()].strip()
    tail = text[stops[-1].end():].strip().rstrip(".").strip()
    venue, year = _venue_year_short(tail)
    if year is None or not _title_ok(title) or not title[:1].isupper():
        return None
    listed = names_line(text[stops[0].end():stops[-1].start()].strip())
    if listed is None or len(listed[0]) < 2 or listed[2] is not None or listed[3] is not None:
        return None
    return Reference(title, listed[0], "title-dot-names-venue", listed[1], venue, year)


#: a bracket that opens on the names and closes with a colon after it (``(Fu, Dao et al., ICLR 2023):``)
_BRACKET_COLON_RE = lazy(r"[)）]\s*[:：]")


def _summary_after_bracketed_names(text: str, title: str, first_family: str) -> bool:
    """The title read after a citation written in brackets and closed by a colon (``hungry
    hungry hippos (Fu, Dao et al., ICLR 2023): two SSMs + gating, …``): the names are in the
    brackets of what the line names before them, and the colon opens the writer's summary
    of it, never the title (a citation written bare, ``Okafor et al. (2021): Title``, keeps it)."""
    at, names_at = text.find(title), text.find(first_family)
    if at < 0 or names_at <= 0 or text[:names_at].rstrip()[-1:] not in ("(", "（"):
        return False
    colon = _BRACKET_COLON_RE.search(text, names_at, at)
    return colon is not None and not text[colon.end():at].strip()


def _model(text: str) -> Reference | None:
    """Any other citation style: the learned reference parser (``citekit.notes.refparse``)
    reads the line, and its reading is taken when it is sure of a title and of an author
    list, each in one piece, and the names read as people's names."""
    if len(text) < 20 or len(text) > 1200 or not _MODEL_YEAR_RE.search(text) or not _MODEL_NAMES_RE.search(text):
        return None
    from citekit.notes import refparse

    parsed = refparse.parse_if(text, _sure_of_title_and_authors)
    if parsed is None or not parsed.title or not parsed.authors:
        return None
    if not (parsed.year or parsed.container or parsed.authors_incomplete or len(parsed.authors) >= 2):
        return None  # one name and a title alone: too little to call it a reference
    names = []
    for person in parsed.authors:
        name = _name_in(person.raw)
        if name is None:
            return None
        name = _as_written(person) if name == person.raw.strip() else name
        if "," in name:
            family, _, given = name.partition(",")
            name = f"{uncapitalised(family.strip())},{given}"
        names.append(name)
    title = _REMARK_AFTER_DASH_RE.sub("", unquote_title(parsed.title))
    title, names = _names_spilt_into_title(title, names)
    if not _title_ok(title) or len(title.split()) < 2 or not _title_delimited(parsed.tokens, parsed.labels):
        return None
    if title.count("(") != title.count(")") or title.count("[") != title.count("]"):
        return None  # a piece of a sentence with its brackets cut, not a title
    if not parsed.year and title[:1].islower() and not title_case(title):
        return None  # names then a clause ("Gotmare et al. say warmup …"): a title is capitalised or follows a year
    if _reads_as_claim(title) and _cited_in_a_sentence(list(parsed.spans())):
        return None  # names, a year, then what the work did ("GaLore showed … saves memory"): a claim, no title
    if _holds_sentences(title) and any(label in ("container", "date") for label in parsed.labels[:parsed.labels.index("title")]):
        return None  # names, a venue, then remarks in sentences ("Press & Lewis, ICLR 2022. Adds …"): no title
    if _summary_after_bracketed_names(text, title, names[0].split(",")[0].split()[-1]):
        return None  # ``hungry hungry hippos (Fu, Dao et al., ICLR 2023): two SSMs + …``: the writer's summary
    if _opens_on_venue(title):
        return None  # the venue read into the title ("Kwon et al., SOSP ’23. KV cache as …"): names, venue, remark
    if title[:1].islower() and not title_case(title) and SPEAKER_WORD_RE.search(title):
        return None  # a chat message ("also for anyone … I'd read Name (remark)"): a title speaks as nobody
    venue, year = venue_and_year(parsed.container or "")
    spans = tuple((label, text, parsed.confidence.get(label, 0.0)) for label, text in parsed.spans())
    return Reference(title, names, "reference model", parsed.authors_incomplete, venue, parsed.year or year, spans,
                     published=published_in(parsed))


#: a clause opening on its verb in the past tense: the work's one-word name (no plural,
#: which a participle may follow: ``Networks trained with …``) or nothing, then a lower-case
#: word in ``-ed`` with more lower-case words after it (``GaLore showed low-rank …``)
_CLAIM_OPENING_RE = lazy(r"^(?:[A-Z][\w\-]*[^\Ws]\s+)?(?:[a-z]{2,}ed|" + "|".join(
    # the finite verbs not in ``-ed`` a note's claim opens on (past tense, ``has``, modals); not
    # ``is``/``are``, which sentence-case titles open on (``Attention is all you need``)
    "found made gave took saw led ran held became beat brought built kept left lost met put said sent "
    "set spent told won wrote got did does has had was were can could may might will would should must".split())
    + r")\s+[a-z]")
#: the work's coined name (``GaLore``, ``BERT``, ``GPT-4``), then a verb in the present tense
#: (``GaLore saves memory by …``); after a common word it may be a plural (``Sentence embeddings
#: using …``), after a coined name it is the clause's verb
_CODED_NAME_VERB_RE = lazy(r"^[A-Z](?=[\w\-]*[A-Z0-9])[\w\-]*\s+[a-z]{2,}[^siu\W]s\s+[a-z]")
#: what the work did as a ``that``-clause: ``GaLore shows that …``, ``found that …``
_THAT_CLAUSE_RE = lazy(r"^(?:[A-Z][\w\-]*\s+)?[a-z]{2,}\s+that\s")


def _reads_as_claim(title: str) -> bool:
    """The words the parser read as a title are a sentence about the work cited before them
    (``Zhao et al. (2024) GaLore showed …``, ``… GaLore saves memory by …``, ``… found that …``):
    not in title case, and a clause whose finite verb comes right after its subject (a past
    tense, a modal, a present tense after a coined name, or any verb opening a ``that``-clause).
    A title names a work and says little of what it did; one that opens so is rarer than a
    note's claim, and a title in title case (``Shampoo: Preconditioned …``) is kept whatever
    its words, as is a sentence-case one whose plural subject has a bare verb (``Learned
    sparse routers scale …``): the development notes hold no claim of that shape."""
    if title_case(title):
        return False
    return any(rx.match(title) is not None for rx in (_CLAIM_OPENING_RE, _CODED_NAME_VERB_RE, _THAT_CLAUSE_RE))


def _cited_in_a_sentence(spans: list[tuple[str, str]]) -> bool:
    """The year the parser read right before the title is not closed by a full stop, as a
    reference list closes it (``Weng. 2023. LLM powered …``, ``(2024).``): the citation is
    the subject of a sentence going on (``Zhao et al. (2024) GaLore showed …``)."""
    at = next((i for i, (label, _) in enumerate(spans) if label == "title"), 0)
    return at > 0 and spans[at - 1][0] == "date" and not spans[at - 1][1].rstrip().endswith((".", ":"))


#: a title that opens on the end of its author list: names, the ``and`` before the last
#: one, the last name, a full stop, then the title (``Ana Lima, and Eva Roth. Title``)
_NAMES_OPEN_TITLE_RE = lazy(r"^(?P<names>[^.]{2,300}?(?:,\s*|\s)(?:and|&)\s+[^.,]{2,60}?)\.\s+(?P<rest>\S.*)$")


def _names_spilt_into_title(title: str, names: list[str]) -> tuple[str, list[str]]:
    """The title and authors with the end of the author list that the model read into the
    title put back among the authors (``Kai Lu, Bo Tan,`` | ``Li Wu, and Jo Ma. Title``). A
    family name alone first (``Maren`` | ``Solheim, and Hana Baek. Title``) completes the
    model's last author, a given name alone. Returned as they are when the title's opening
    is not such a list."""
    m = _NAMES_OPEN_TITLE_RE.match(title)
    if m is None or not names:
        return title, names
    split = split_name_list(m.group("names"), single_word=True, min_names=2)
    rest = m.group("rest").strip()
    if split is None or split[1] or len(rest.split()) < 2 or not _title_ok(rest):
        return title, names
    parts = split[0]
    if len(parts[0].split()) == 1:
        if len(names[-1].split()) != 1:
            return title, names
        names = [*names[:-1], f"{names[-1]} {parts[0]}"]
        parts = parts[1:]
    if not all(len(part.split()) >= 2 for part in parts):
        return title, names
    return rest, [*names, *parts]


#: a title's first sentence when it is a venue and its year (``SOSP ’23.``, ``ICLR 2022.``)
_VENUE_SENTENCE_RE = lazy(r"^(?P<v>[A-Z][A-Za-z]{1,11})\s*(?:['’]\s?\d{2}|(?:19|20)\d{2})\.\s")


def _opens_on_venue(title: str) -> bool:
    """What was read as a title opens on a sentence that is only a venue (one citekit knows,
    or a word in capitals) and its year."""
    m = _VENUE_SENTENCE_RE.match(title)
    if m is None:
        return False
    word = m.group("v")
    return canonical(word) is not None or (word.isupper() and len(word) >= 3)


#: one sentence ending and another starting inside what was read as a title (``… per head,
#: slopes are a geometric sequence. Extrapolates with …``): a title is one phrase, so this
#: is a remark; abbreviations that end in a full stop (``vs.``, ``e.g.``) are no sentence end
_SENTENCE_BREAK_RE = lazy(r"(?P<word>[\w)\]]+)\.\s+[A-Z][a-z]+\s+\S+\s+\S")
_ABBREVIATIONS = frozenset(("vs", "al", "eg", "ie", "cf", "etc", "no", "vol", "pp", "ch", "sec", "fig", "eq", "st", "jr", "dr", "mr", "ms"))


#: a claim about where a method comes from (``Background: RoPE is from RoFormer``, ``GSR is
#: based on SparseNet``): one name, "is" and a preposition, then another name; a title that
#: says "X is …" goes on with what X is (``Attention Is All You Need``), never where it is from
_CLAIM_OF_ORIGIN_RE = lazy(
    r"^(?:[^\W\d_][\w ]{0,20}:\s+)?[^\W\d_][\w.\-]*\s+(?:is|was|are|were|comes)\s+(?:just\s+|basically\s+|really\s+|also\s+)?"
    r"(?:from|in|by|based\s+on|like|taken\s+from|borrowed\s+from)\s+[^\W\d_][\w.\-]*\s*[,:;]?\s*$", re.I)


def _holds_sentences(title: str) -> bool:
    """A sentence ends and another starts inside ``title``: the lower-case (or digit) end
    of a word, a full stop, then a capitalised word and more."""
    return any(m.group("word")[-1:].islower() or m.group("word")[-1:].isdigit() or m.group("word")[-1:] in ")]"
               for m in _SENTENCE_BREAK_RE.finditer(title) if m.group("word").lower() not in _ABBREVIATIONS
               and not (len(m.group("word")) == 1 and m.group("word").isalpha()))


#: an English title's opening article, alone between a citation's names and its title
_ARTICLE_RE = lazy(r"\s*(?:A|An|The)\s+")


#: a line that opens with names joined in citation syntax (``Loshchilov & Hutter, …``)
_LEAD_NAMES_CUE = Cue(needles=("&", " and ", "et al", "等"),
                      pattern=re.compile(r"^(?![a-z])[^\W\d_][\w'’.\-]*(?:[ ,]+[^\W\d_][\w'’.\-]*){0,8}?[ ,]*(?:&| and |et al|等)"))


#: three family names or more joined by commas, then a full stop (``Smith, Kindermans, Ying, Le. …``)
_FAMILIES_STOP_CUE = Cue(needles=(", ",), pattern=re.compile(r"^[A-Z][\w'’\-]+(?:,\s*[A-Z][\w'’\-]+){2,9}\.\s"))


#: a paper's short name before the citation that names it (``VAE = Kingma & Welling, …``,
#: ``WGAN: Arjovsky, Chintala & Bottou, …``): one or two words, then ``=``, ``:`` or a dash
_SHORT_NAME_LEAD_RE = lazy(r"^[^\W_][\w.\-]{0,15}(?:\s[^\W_][\w.\-]{0,15})?\s*(?:=|:|\s(?:--?|—|–))\s+(?=[^\W\d_])")


def _short_name_lead(text: str) -> re.Match[str] | None:
    """``_SHORT_NAME_LEAD_RE.match(text)``, tried only when ``text`` holds one of the signs
    that end the short name (an equals sign, a colon, a dash): most lines have none."""
    if "=" in text or ":" in text or "-" in text or "—" in text or "–" in text:
        return _SHORT_NAME_LEAD_RE.match(text)
    return None


#: what closes a citation after its title: the venue and year in parentheses
#: (``(ICLR 2014)``, ``(NeurIPS '19)``, ``(2019)``) or after a comma (``, ICML 2018``), at the
#: end of the line or before a remark in a sentence of its own (``(ICLR 2024). keep the …``)
_VENUE_YEAR_TAIL_RE = lazy(r"(?:\s*[(（](?:[A-Za-z][\w.&\- ]{0,40}\s)?(?:(?:19|20)\d{2}|['’]\d{2})[)）]"
                           r"|,\s*[A-Z][\w.&\-]{1,20}\s?(?:(?:19|20)\d{2}|['’]\d{2}))(?:[.,;]?\s*$|[.;]\s+(?=\S))")


#: a year, maybe with the letter author-year styles add (``2022b``), and its separator, at
#: the start of a title
_YEAR_OPENS_RE = lazy(r"(?:19|20)\d{2}[a-z]?\b\)?[,.:;]?\s+")


#: a remark after the title's full stop, in lower case (``… Language Supervision. zero-shot
#: baseline for the probe table?``): a title's next sentence starts with a capital
_REMARK_AFTER_STOP_RE = lazy(r"(?<=[A-Za-z0-9)])\.\s+(?=[a-z])(?!(?:e\.g|i\.e|vs|al|et)\b).*$")
#: a venue and its year in brackets at the end of the title the parser read
_VENUE_CLOSES_TITLE_RE = lazy(r"\s*[(（]\s*(?P<v>[A-Za-z][\w&.\- ]{1,30}?\s*['’]?\s*\d{2,4})\s*[)）]$")


#: a sentence's end inside a title, a capital after it (``Some Title Here. Good read``)
_STOP_THEN_CAPITAL_RE = lazy(r"(?<=[A-Za-z0-9)])\.\s+(?=[A-Z])")


def _without_remark_sentence(title: str) -> str:
    """The title without a last sentence that is a remark on it: the title is written in
    title case and the sentence after its full stop is not (``Some Title Here. Good read``);
    a subtitle after a full stop is in title case as its title is (``… Designs: I. The
    Method of Paired Comparisons``)."""
    stops = list(_STOP_THEN_CAPITAL_RE.finditer(title)) if ". " in title else []
    if not stops:
        return title
    head, tail = title[:stops[-1].start()], title[stops[-1].end():]
    return head if title_case(head) and len(head.split()) >= 2 and not title_case(tail) else title


def _citation_first(text: str) -> Reference | None:
    """``Loshchilov & Hutter, Decoupled Weight Decay Regularization``, ``Bartlett & Mendelson
    2002, Rademacher and Gaussian complexities``: an author list in citation syntax opens the
    line (read exactly, :func:`citekit.notes.authoryear.leading_names`), maybe after the
    paper's short name (``VAE = Kingma & Welling, …``), and the learned reference parser says
    where the title after it is; taken only when it is sure of that title
    (:data:`MODEL_SURE`) and the title lies wholly after the names. Where the parser is not
    sure, or reads names into the title, a citation closed by its venue and year
    (``Chizat, Oyallon & Bach, On Lazy Training in Differentiable Programming (NeurIPS
    2019)``) has its title exactly between the two."""
    if len(text) < 20 or len(text) > 600:
        return None
    lead = leading_names(text)
    if lead is None and (short := _short_name_lead(text)) is not None:
        text = text[short.end():]
        lead = leading_names(text)
    one_name = False
    if lead is None:
        lead = _one_name_and_year(text)
        one_name = lead is not None
    if lead is None:
        return _families_dash_title(text)
    from citekit.notes import refparse

    def sure_of_title(_tokens: list[str], labels: list[str], probs: list[float]) -> bool:
        if one_name and not (labels[:1] == ["author"] and probs[0] >= MODEL_SURE):
            return False  # (one capitalised word and a year: a person only where the parser, too, reads an author: not ``Paris 2024, …``)
        ps = [p for label, p in zip(labels, probs) if label == "title"]
        return bool(ps) and sum(ps) / len(ps) >= MODEL_SURE and _contiguous(labels, "title")

    parsed = refparse.parse_if(text, sure_of_title)
    title = "" if parsed is None or not parsed.title else \
        _REMARK_AFTER_STOP_RE.sub("", _REMARK_AFTER_DASH_RE.sub("", unquote_title(parsed.title))).strip().rstrip(",.;:")
    title = _without_remark_sentence(title)
    if lead.year and title and (year_first := _YEAR_OPENS_RE.match(title)) is not None:
        # the citation's own year, which the parser, not knowing its letter (``Bai et al.
        # 2022b, …``: the second paper of that year), read into the title
        title = unquote_title(title[year_first.end():]).strip()
    if title and (closing := _VENUE_CLOSES_TITLE_RE.search(title)) is not None and venue_and_year(closing.group("v"))[0]:
        title = title[:closing.start()].rstrip()  # ``Adam: A Method … (ICLR 2015)``: the venue closes the title, it is none of it
    at = text.find(title, lead.end) if title else -1
    if at > lead.end and _ARTICLE_RE.fullmatch(text[lead.end:at]):
        # ``Keller, Moreau & Obi, A Simple Baseline …``: the names were read exactly and end
        # before "A"; the parser read "Obi, A" as a name and an initial, but the article
        # between the names and the title can only open the title
        at, title = lead.end + len(text[lead.end:at]) - len(text[lead.end:at].lstrip()), text[lead.end:at].strip() + " " + title
    if at < 0 or not _title_ok(title) or len(title.split()) < 2 or not _title_delimited(parsed.tokens, parsed.labels):
        return _title_before_tail(text, lead)
    if title.count("(") != title.count(")") or not (lead.year or title_case(title)):
        return None  # names then a sentence ("Smith & Jones, thanks for …"): a title is capitalised or follows a year
    if _holds_sentences(title):
        return None  # names, venue and year, then remarks ("… ICLR 2022. Adds a bias per head. Works …"): prose, no title
    venue, year = venue_and_year(text[at + len(title):])
    spans = tuple((label, part, parsed.confidence.get(label, 0.0)) for label, part in parsed.spans())
    return Reference(title, list(lead.authors), "citation-first (reference model)", lead.incomplete,
                     lead.venue or venue, lead.year or year, spans)


#: one family name and a year opening a line, then a comma or a colon: ``Shazeer 2019, Title``
_ONE_NAME_YEAR_RE = lazy(r"^(?P<name>[A-Z][a-z][\w'’\-]*)\s+\(?(?P<year>(?:19|20)\d{2})[a-z]?\)?\s*[,:]\s+(?=[A-Z\"“])")


def _one_name_and_year(text: str) -> Citation | None:
    """``Shazeer 2019, Fast Transformer Decoding: …``: one author's family name and the
    year, the citation of a one-author paper, opening the line before its title. Only a
    word that reads as a family name (no ordinary word, place, month, venue or acronym:
    ``December 2019, …``, ``Paris 2024, …``, ``NeurIPS 2019: …``), and only a capitalised
    or quoted title after it; the parser must read the word as an author and be sure where
    the title is (:func:`_citation_first`)."""
    m = _ONE_NAME_YEAR_RE.match(text)
    name = m.group("name") if m is not None else ""
    if not name or name.lower() in _ordinary_words() or name in _place_names() or not is_author_name(name, single_word=True):
        return None
    if venue_and_year(m.group(0))[0] is not None:
        return None
    return Citation((m.group("name"),), False, int(m.group("year")), None, 0, m.end())


#: three or more family names joined by commas alone, then a dash: ``Xiao, Tian, Chen, Han —``
_FAMILIES_DASH_RE = lazy(r"^(?P<names>[A-Z][\w'’\-]+(?:,\s*[A-Z][\w'’\-]+){2,9})(?:\s+(?:—|–|--?)|\.)\s+(?=\S)")
#: the rest of such a line when no marks set its title off: the title to a full stop, then
#: nothing but an identifier (``… Increase the Batch Size. 1711.00489``)
_PLAIN_TITLE_RE = lazy(r"(?P<t>[^.!?]{8,300}?)\s*(?:\.\s*(?:(?:arxiv\s*:?\s*)?\d{4}\.\d{4,5}(?:v\d+)?)?)?\s*$", re.I)
#: a title set off by emphasis or quotes right after the names
_MARKED_TITLE_RE = lazy(r"^(?:\*\*?|_)(?P<t1>[^*_]{4,300}?)(?:\*\*?|_)(?!\w)|^[\"“](?P<t2>[^\"“”]{4,300}?)[\"”]")


_COMMA_FAMILIES_RE = lazy(r"[A-Z][\w'’\-]+(?:,\s*[A-Z][\w'’\-]+){2,9}")


def _comma_families(text: str) -> list[str] | None:
    """Three or more family names joined by commas alone (``Chen, Kornblith, Norouzi,
    Hinton``), each read as a name and most of them no ordinary word; else None."""
    if _COMMA_FAMILIES_RE.fullmatch(text) is None:
        return None
    names = [n.strip() for n in text.split(",")]
    ordinary = sum(1 for n in names if n.lower() in _ordinary_words())
    if ordinary * 2 >= len(names) or not all(is_author_name(n, single_word=True) for n in names):
        return None  # (a family name may be a word too, "Chen", "Long"; most are not)
    return names


def comma_families(text: str) -> list[str] | None:
    """A line that is only family names joined by commas (``Muennighoff, Yang, Shi, Li``):
    the names (:func:`_comma_families`), or None."""
    return _comma_families(text.strip().rstrip("."))


def _families_dash_title(text: str) -> Reference | None:
    """``Xiao, Tian, Chen, Han, Lewis — *Efficient Streaming Language Models with Attention
    Sinks* (ICLR 2024)``: family names joined by commas alone, a dash, then a title set off
    by emphasis or quotes, or closed by its venue and year. Every name must read as a family
    name (capitalised, most not ordinary words), so a list of things is no author list."""
    m = _FAMILIES_DASH_RE.match(text)
    names = None if m is None else _comma_families(m.group("names"))
    if names is None:
        return None
    lead = Citation(tuple(names), False, None, None, 0, m.end())
    marked = _MARKED_TITLE_RE.match(text, m.end())
    if marked is None:
        return _title_before_tail(text, lead) or _plain_title_after_families(text, lead)
    title = (marked.group("t1") or marked.group("t2")).strip().rstrip(",.;:")
    if not _title_ok(title) or len(title.split()) < 2 or not title_case(title):
        return None
    venue, year = venue_and_year(text[marked.end():marked.end() + 40])
    return Reference(title, names, "citation-first (family names, a dash, a marked title)", False, venue, year)


def _plain_title_after_families(text: str, lead: "Citation") -> Reference | None:
    """``Smith, Kindermans, Ying, Le. Don't Decay the Learning Rate, Increase the Batch Size.
    1711.00489``: family names, a full stop or a dash, then the rest of the line in title case
    (maybe closed by a full stop and an identifier) is the title, as a reading list writes a
    reference with no venue or year."""
    rest = _PLAIN_TITLE_RE.fullmatch(text, lead.end)
    if rest is None:
        return None
    title = rest.group("t").strip().rstrip(",;:")
    if not _title_ok(title) or len(title.split()) < 3 or not title[:1].isupper() or not title_case(title):
        return None
    return Reference(title, list(lead.authors), "citation-first (family names, a title in title case)")


def _title_before_tail(text: str, lead: "Citation") -> Reference | None:
    """The title of a citation written ``names, Title (Venue Year)``: the words between the
    names and the venue-and-year tail, taken when they read as a title (two words or more,
    in title case, no sentence inside, brackets balanced)."""
    tail = _VENUE_YEAR_TAIL_RE.search(text, lead.end)
    if tail is None:
        return None
    title = unquote_title(text[lead.end:tail.start()].strip().rstrip(",;:")).strip()
    if (not _title_ok(title) or len(title.split()) < 2 or not title_case(title) or re.search(r"[.!?]\s", title)
            or title.count("(") != title.count(")") or title.count("[") != title.count("]")):
        return None
    venue, year = venue_and_year(text[tail.start():])
    return Reference(title, list(lead.authors), "citation-first (names, title, venue and year)", lead.incomplete,
                     lead.venue or venue, lead.year or year)


#: one name as Nature and Science print it: the family name, a comma, the initials
#: (``LeCun, Y.``, ``Rumelhart, D. E.``, ``Kalai, A. T.``, ``van der Maaten, L.``)
_NATURE_NAME = r"(?:[a-z]+ ){0,2}[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?, (?:[A-Z]\.(?:[ \-]?[A-Z]\.){0,3})"
#: a Nature-style reference: its names (``A, B. & C, D.``, ``A, B. et al.``), then the
#: title in sentence case up to the full stop before the journal, the year or the end
_NATURE_RE = lazy(rf"^(?P<names>{_NATURE_NAME}(?:,? {_NATURE_NAME})*(?:,? (?:&|and) {_NATURE_NAME}| et al\.)?)"
                  r" (?![A-Z][.,]|(?:19|20)\d{2}[a-z]?:)(?P<title>[A-Z0-9“\"][^.?!]*?(?:[.?!](?! )[^.?!]*?)*[.?!])(?= [A-Z(]|\s*$)")
_BOOK_TAIL_RE = lazy(r"\s*\([^()]*\b(?P<year>(?:19|20)\d{2})\)$")
_NATURE_CUE = Cue(needles=(", ",), pattern=re.compile(r"^(?:\[\d{1,4}\]\s*|\(?\d{1,4}[.)]\s+)?(?:[a-z]+ ){0,2}[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?, [A-Z]\."))


def _nature_style(text: str) -> Reference | None:
    """``Robbins, H. & Monro, S. A stochastic approximation method. Ann. Math. Stat. 22,
    400–407 (1951).``: Nature's and Science's references put every name as family name,
    comma, initials, then the title in sentence case; the initials end on a full stop, so
    the names end exactly where a word that is no initial begins, and the title at the
    next full stop."""
    text = REFERENCE_NUMBER_RE.sub("", text)  # ``4. Robbins, H. & …``
    m = _NATURE_RE.match(text)
    if m is None:
        return None
    title = m.group("title").rstrip(".").strip()
    venue, year = venue_and_year(text[m.end():])
    if (book := _BOOK_TAIL_RE.search(title)) is not None:
        # a book: ``Deep Learning (MIT Press, 2016).``, its publisher and year in brackets
        title, year = title[: book.start()].strip(), year or int(book.group("year"))
    elif title.count("(") > title.count(")"):
        title = title[: title.rindex("(")].strip()  # ``Convex Optimization (Cambridge Univ. Press, 2004)``
    if len(title.split()) < 2 or re.match(_NATURE_NAME, m.group("title")) or "&" in title or "…" in title or "..." in title:
        return None  # a name read as the title: the names went on (``Manning, C. D., & Finn, C. (2023)``, APA)
    if split_name_list(title, single_word=True, min_names=2) is not None:
        return None  # names written given name first (``Ana Lima, B. C. Ode, and Eva Roth. Title``): no Nature list
    names = m.group("names")
    incomplete = names.endswith("et al.")
    names = names.removesuffix(" et al.")
    # the particle group of a name (``van der``) also takes a joining ``and``: it is no part of the name
    authors = [re.sub(r"^and\s+", "", a.strip()) for a in re.findall(_NATURE_NAME, names)]
    return Reference(title, authors, "nature", incomplete, venue, year)


#: a group as the author, then the year, then the title (ACM, APA: ``OpenAI. 2023. GPT-4
#: Technical Report.``, ``Gemini Team (2023). Gemini: …``)
_GROUP_YEAR_TITLE_RE = lazy(r"^(?P<group>[A-Z][\w&\- ]{1,40}?)[.,]?\s+\(?(?P<year>(?:19|20)\d{2})[a-z]?\)?[.,]\s+"
                            r"(?P<title>[A-Z0-9][^.?!]*?(?:[.?!](?! )[^.?!]*?)*)(?:[.?!](?=\s|$)|$)")


#: where a group's paper is found, written after its title: an archive's identifier or a DOI
_PAPER_AFTER_RE = lazy(r"arxiv|doi|\b10\.\d{4,}/|preprint|proceedings|journal", re.I)
#: a group's report, a paper by its title alone (``GPT-4 Technical Report``, ``… System Card``)
_REPORT_TITLE_RE = lazy(r"\b(?:technical report|tech report|system card|model card|whitepaper)\b", re.I)


def _group_year_title(text: str) -> Reference | None:
    """``OpenAI. 2023. GPT-4 Technical Report. arXiv:2303.08774``: a laboratory or a team
    that signs as the author (:func:`_corporate_author`, an exact list), its year, then the
    title up to the next full stop; the learned parser reads the title's first word as a
    volume there (one name, a year, a short title: too little for it)."""
    text = REFERENCE_NUMBER_RE.sub("", text)  # ``[18] OpenAI. 2023. …``
    m = _GROUP_YEAR_TITLE_RE.match(text)
    if m is None or not _corporate_author(m.group("group")):
        return None
    title = m.group("title").strip().rstrip(".").strip()
    if len(title.split()) < 2:
        return None
    rest = text[m.end():]
    venue, _year = venue_and_year(rest)
    if venue is None and not _PAPER_AFTER_RE.search(rest) and not _REPORT_TITLE_RE.search(title):
        return None  # ``MosaicML NLP Team. 2023. Introducing MPT-7B …``: a group's post, no paper's place or identifier
    return Reference(title, [m.group("group").strip()], "group-year-title", False, venue, int(m.group("year")))


#: family names parted by slashes after a title and a comma (``Consistency Models, Song /
#: Dhariwal / Chen / Sutskever``), maybe a venue after them, then the end or a dash's remark
_SLASH_NAMES_RE = lazy(r",\s+(?P<names>[A-Z][\w'’\-]+(?:\s*/\s*[A-Z][\w'’\-]+){1,9})"
                       r"(?:,\s*(?P<venue>[A-Z][A-Za-z]{1,12}\s*(?:['’]\d{2}|(?:19|20)\d{2})))?\s*(?:$|\s(?:—|–|--?)\s)")
#: what ends the words before a title on its line: an icon, a colon, a dash, an arrow, ``=``
_BEFORE_TITLE_RE = lazy(r".*(?:[\U0001F000-\U0001FAFF\u2600-\u27BF]|[:=→]\s|\s[—–]\s|[.!?]\s)")


def _title_slash_names(text: str) -> Reference | None:
    """``one-step generation 👀 Consistency Models, Song / Dhariwal / Chen / Sutskever``: a
    title, a comma, then family names parted by slashes (how a post or an annotation lists
    them); the title starts after the last icon, colon, dash or sentence before it, and is
    written in title case."""
    m = _SLASH_NAMES_RE.search(text)
    if m is None:
        return None
    head = text[: m.start()]
    cut = _BEFORE_TITLE_RE.match(head)
    title = head[cut.end():].strip() if cut else head.strip()
    names = [n.strip() for n in m.group("names").split("/")]
    if len(title.split()) < 2 or not title_case(title) or any(n.lower() in _SLASH_NOT_NAMES for n in names):
        return None
    venue, year = _venue_year_short(m.group("venue")) if m.group("venue") else (None, None)
    return Reference(title, names, "title-slash-names", False, venue, year)


_SLASH_NOT_NAMES = frozenset(("and", "or", "the", "input", "output", "train", "test", "dev", "yes", "no"))


#: The shapes of a line that names a paper with its authors, tried in order (the first
#: answer wins), each with the cues it cannot match without. The pre-filter of
#: :func:`_parse_reference` is derived from these rows: a rule added here (or with
#: ``REFERENCE_RULES.add``) brings its own cues, so its lines are never skipped unread.
REFERENCE_RULES: LineRules[Reference] = LineRules([
    # ``Über Horváth’s “Gradient” Methods — Samuel Horváth``: inner quotes, a title dash
    LineRule("dash-title-inner-quotes", (_DASH_CUE,), _dash_title_with_inner_quotes),
    # IEEE, MLA, Chicago, ``"Title" by A``, ``"Title" — A, B``: the title in quotes
    LineRule("quoted-title", (Cue(chars='"“”„«《『「'),), _quoted),
    # ``Robbins, H. & Monro, S. A stochastic approximation method. Ann. Math. Stat. …``: Nature
    LineRule("nature", (_NATURE_CUE,), _nature_style),
    # ``OpenAI. 2023. GPT-4 Technical Report.``: a group, its year, the title
    LineRule("group-year-title", (_YEAR_CUE,), _group_year_title),
    # ``Title — A, B``, ``Title by A``, ``Title (A & B, ICML 2026)``, ``Title, A et al., NeurIPS'25``,
    # ``Title. A; B; C. ICML 2026.``
    LineRule("title-first", (Cue(chars="(（;"), _DASH_CUE, _BY_CUE, _ET_AL_CUE, _YEAR_CUE, _YY_CUE), _title_first),
    # ``Loshchilov & Hutter, Decoupled Weight Decay Regularization``: names in citation
    # syntax, then a title the reference parser finds
    LineRule("citation-first", (_LEAD_NAMES_CUE, _FAMILIES_STOP_CUE), _citation_first),
    # ``Adam: A Method for Stochastic Optimization, Kingma & Ba.``: a closed list of names ends the line
    LineRule("title-comma-surnames", (_CLOSED_END_CUE, _ET_AL_CUE), _title_comma_surnames),
    # ``Consistency Models, Song / Dhariwal / Chen / Sutskever``: names parted by slashes
    LineRule("title-slash-names", (Cue(needles=("/",), pattern=re.compile(r"[A-Za-z]\s*/\s*[A-Z]")),), _title_slash_names),
    # ``Dropout. Nitish Srivastava, Geoffrey Hinton, Alex Krizhevsky. JMLR 2014.``: title, full names, venue
    LineRule("title-dot-names-venue", (_YEAR_CUE,), _title_dot_names_venue),
    # any other citation style, read by the learned reference parser
    LineRule("reference-model", (_YEAR_CUE, _ET_AL_CUE, _ARXIV_CUE), _model),
    # ``Shazeer's Fast Transformer Decoding: One Write-Head is All You Need (2019)``
    LineRule("possessive-title", (Cue(needles=("'s ", "’s "), pattern=re.compile(r"[A-Za-z]['’]s\s")),), _possessive_title),
], on_change=clear_all)


@dataclass(frozen=True)
class UnsureReference:
    """A pasted reference the parser is not sure of: what could be read of it, and the
    string itself, which an online sync looks up whole (Crossref's ``query.bibliographic``)."""

    reference: str
    authors: tuple[str, ...]
    incomplete: bool
    year: int | None


def unsure_reference(text: str) -> UnsureReference | None:
    """A line that stands in a reference list (the caller knows: its number, or the
    finder) and reads as a reference string (a year and an author list, as every citation
    style writes them) but whose title the parser is not sure of. The authors are kept only
    when every one of them reads as a person's name; the title is left unread (an online
    match must find the record's own title in the string)."""
    body = REFERENCE_NUMBER_RE.sub("", text).strip()
    if not 30 <= len(body) <= MAX_UNSURE_CHARS or not _MODEL_YEAR_RE.search(body) or not _MODEL_NAMES_RE.search(body):
        return None
    if may_cite_inline(body) and inline_references(body):
        return None  # a sentence that cites a quoted title with its authors: that is read, not the line whole
    from citekit.notes import refparse

    parsed = refparse.parse(body)
    names = [_name_in(person.raw) for person in parsed.authors]
    authors = tuple(n for n in names if n) if names and all(names) else ()
    year = parsed.year if parsed.year and 1900 <= parsed.year <= 2099 else None
    if year is None:  # (pages read as a date, "9:1735-80": the year is a 19xx or 20xx of its own)
        years = re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", body)
        year = int(years[-1]) if years else None
    return UnsureReference(body, authors, parsed.authors_incomplete and bool(authors), year)


#: the longest line read as one pasted reference (a longer one is a paragraph)
MAX_UNSURE_CHARS = 600
