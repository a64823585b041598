"""Author-year citations written inside a sentence: ``Kingma & Ba 2014``, ``(Hsieh et al.,
2024)``, ``Schulman et al. 2017 (PPO)``, ``Kwon et al SOSP '23``, ``Foret et al.``, ``Rombach 等, CVPR 2022``.

Chat messages, tweets, e-mails and reading notes name most papers this way, with no title
at all. The syntax is the citation syntax of author-year styles, which is exact: family
names joined by ``et al.``, ``&`` or ``and``, followed by a year (or a venue and a year);
a single family name only with a year, and only when the word is not an ordinary English
word, a month, a venue or a capitalised word of the sentence around it. Such a citation is
a mention with authors and a year but no title (``kind="cited"``): it cannot be looked up
by title, so it waits as *pending* with its authors and year, and is never folded into
another paper (it has no title or identifier to be grouped by).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from citekit.core.resolution import Mention
from citekit.core.names import is_family_name_not_word
from citekit.core.venues import canonical
from citekit.notes.memo import per_text
from citekit.notes.titlecase import title_case
from citekit.core.lazyre import lazy

#: one family name: a capitalised word (``Allen-Zhu``, ``O'Brien``, ``Ré``), maybe after
#: particles (``van der Maaten``, ``de Vries``)
_NAME = r"(?:(?:van|von|der|den|de|del|della|di|da|du|le|la|ter|ten)\s+){0,2}[^\W\d_][\w'’\-]*"
_JOIN = r"\s*(?:,\s*(?:and\s+|&\s*)?|\s(?:and|&)\s|&)\s*"
#: (an ellipsis cuts a list short as ``et al.`` does: ``Hoffmann, Borgeaud, Mensch … 2022``;
#: taken only with a year after it, as prose trails off with one too)
_ET_AL = r"(?:,?\s+et\.?\s?al\b\.?|\s*(?:等人|等|ほか|他|외)|,?\s*(?:…|\.\.\.)(?=\s*[(（]?(?:19|20)\d\d\b))"
#: ``Vaswani et al.``, ``Foret, Kleiner et al.``
_ET_AL_RE = re.compile(rf"(?<![\w.'’\-])(?P<names>{_NAME}(?:{_JOIN}{_NAME}){{0,3}}){_ET_AL}(?:['’]s\b)?")
#: ``Kingma & Ba``, ``Gupta, Koren & Singer``, ``Robbins and Monro``: two or more names joined
_JOINED_RE = lazy(rf"(?<![\w.'’\-])(?P<names>{_NAME}(?:\s*,\s*{_NAME}){{0,6}}\s*,?\s*(?:&|\band\b)\s*{_NAME})(?![\w'’\-])")
#: ``Williams 1992``, ``Dao (2023)``, ``(Houlsby, 2019)``: one name before a year (the year
#: is found first, then the name is read backwards from it: one search per year, not a try
#: at every position of the line)
_YEAR_RE = lazy(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: two family names joined by an en dash (``Benjamini–Hochberg``); a double-barrelled name
#: takes a hyphen (``Allen-Zhu``)
_EN_DASH_PAIR_RE = lazy(r"[A-Z][a-z'’]+–[A-Z][a-z'’]+")
_PARTICLES = frozenset("van von der den de del della di da du le la ter ten".split())
def _name_before(text: str, year: int) -> tuple[int, int] | None:
    """Where the one word right before the year at ``year`` starts and ends (with the
    particles before it: ``van der Maaten (2008)``), when a capitalised word is there (an
    acronym such as a venue, ``ICML 2024``, is not one)."""
    lo = max(0, year - 40)
    head = text[lo:year].rstrip(" \t,(（")
    if not head or not head[-1].isalpha():
        return None
    word = head.rsplit(None, 1)[-1]
    cut = 0
    while cut < len(word) and not word[cut].isalpha():
        cut += 1  # "(Dao" -> "Dao"
    word = word[cut:]
    if not word[:1].isupper() or len(word) > 1 and word[1].isalpha() and word[1].isupper():
        return None
    word_end = lo + len(head)
    if word.endswith(("'s", "’s")):
        word, word_end = word[:-2], word_end - 2  # "Bradley’s 2019 paper"
    start = word_end - len(word)
    before = text[max(0, start - 30):start].split()
    for particle in reversed(before[-2:]):
        if particle not in _PARTICLES:
            break
        start = text.rfind(particle, 0, start)
    return start, word_end

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
#: what may follow the names: ``, 2021``, `` (2020)``, ``, Feb 2024``, `` SOSP '23``, ``ICLR’17``,
#: ``, ACL 2019``, `` 23`` (after ``et al`` only), each maybe opening a parenthesis
_TAIL_RE = lazy(
    r"\s*[,;]?\s*\(?\s*"
    r"(?:(?:(?P<month>" + "|".join(_MONTHS) + r")[a-z]*\.?\s+)?(?P<year>(?:19|20)\d{2})(?!\d)[a-z]?"
    r"|(?P<venue>[A-Z][A-Za-z]{1,11})\s*(?:(?P<yy>['’]\s?\d{2})(?!\d)|(?P<vyear>(?:19|20)\d{2})(?!\d)))",
    re.I,
)
_SHORT_YEAR_RE = lazy(r"\s+(?P<yy>\d{2})(?![\d\w])")
#: a year in two digits after an apostrophe, right after the names (``Shazeer & Stern '18``)
_QUOTED_YY_RE = lazy(r"\s*,?\s*\(?['’‘](?P<yy>\d{2})(?![\d\w])\)?")
#: a title after the names and a dash (``Reddi, Kale & Kumar — on the convergence of adam and
#: beyond``, ``… & le — "don't decay the learning rate, …"``): to the end of the line or a
#: sentence's end or the bracket the citation is written in, four words or more
_DASH_TITLE_RE = lazy(r"\s+(?:—|–|--)\s+(?:[\"“](?P<q>[^\"“”]{12,200})[\"”]|(?P<t>[^\s\"“(][^.!?;()\"“”]{10,200}?))\s*(?:[.!?;()]|$)")

#: capitalised words that are never a family name in a citation: sentence words, months,
#: seasons, days, parts of a document
_NOT_NAMES = frozenset(
    "the a an this that these those there their our my your his her its we it in on at for from with to of as "
    "and or but if so also see cf both like unlike via per than then when where while what which who why how "
    "not no yes all any each every some many most more less other others such same new old first last next "
    "section chapter table figure fig eq equation appendix page part step table vol volume proc proceedings "
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec spring summer fall autumn winter "
    "monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday week month year "
    "paper papers work works model models method approach version v arxiv preprint github twitter "
    "whitepaper report thesis dissertation blog "
    "i ii iii iv v vi vii viii ix x ok okay thanks lol re fwd hi hey dear best cheers".split()
)


@dataclass(frozen=True)
class Citation:
    """One author-year citation: the family names as written, whether ``et al.`` followed
    them, the year (None when only ``et al.`` was written) and a venue named with it."""

    authors: tuple[str, ...]
    incomplete: bool
    year: int | None
    venue: str | None
    start: int
    end: int
    #: the title written in brackets right after the citation (``Kwon et al. SOSP '23
    #: (Efficient Memory Management for Large Language Model Serving with PagedAttention)``)
    title: str | None = None


#: a bracketed phrase right after a citation: its title when it reads as one (:func:`_title_after`)
_TITLE_AFTER_RE = lazy(r"\s*[(（](?P<t>[^()（）]{12,300})[)）]")


#: a title after the citation and a comma, up to a closing bracket, the line's end or a
#: sentence's end before a remark in lower case (a full stop before a capital may be the
#: title's own: ``… Designs: I. The Method of …``) (``Amershi et al. CHI 2019, Guidelines for Human-AI Interaction.``, ``(He et al.
#: 2020, Momentum Contrast for Unsupervised Visual Representation Learning)``)
_TITLE_AFTER_COMMA_RE = lazy(r",\s*(?P<t>[A-Z][^()（）;!?,]{10,250}?)(?=\s*(?:[)）]|[.;!?](?:\s+(?![A-Z0-9])|$)|$))")


#: a title right after a citation whose year is in brackets, up to the sentence's end
#: (``Okafor et al. (2018) Sparse Gating: Routing Tokens. See also …``): the bracket closed
#: the citation, so what follows in title case is what it cites, not more of its names
_TITLE_AFTER_BRACKET_RE = lazy(r"\s+(?P<t>[A-Z][^()（）;!?.]{10,250}?)(?=[.;!?](?:\s|$)|\s*$)")


def _title_after(text: str, end: int) -> str | None:
    """The title in brackets right after a citation that ends at ``end``, or after a comma
    there (:data:`_TITLE_AFTER_COMMA_RE`), or after the citation's closing bracket
    (:data:`_TITLE_AFTER_BRACKET_RE`): four words or more in title case, not a sentence
    (a remark in brackets, ``(see the appendix)``, is none)."""
    m = _TITLE_AFTER_RE.match(text, end) if "(" in text[end:end + 3] or "（" in text[end:end + 3] else None
    if m is None:
        m = _TITLE_AFTER_COMMA_RE.match(text, end) if text[end:end + 1] == "," else None
    if m is None and text[end:end + 1] == "," and _inside_bracket(text, end):
        m = _LOWER_TITLE_AFTER_COMMA_RE.match(text, end)
        if m is not None:  # (``(liu et al 2019, on the variance of the adaptive learning rate)``)
            title = m.group("t").strip().rstrip(".")
            return title if _lower_title_in_brackets(title) else None
    if m is None and text[end:end + 1] in (")", "）"):  # (the citation ends inside its bracket)
        m = _TITLE_AFTER_BRACKET_RE.match(text, end + 1)
    if m is None:
        return None
    title = _without_venue_after(m.group("t").strip().rstrip("."))
    words = title.split()
    if m.re is _TITLE_AFTER_COMMA_RE and _sentence_case_title_in_brackets(text, m, title):
        return title
    if len(words) < (3 if _every_word_capitalised(words) else 4) or not title_case(title) or not words[-1][:1].isupper() or title[-1:] in "!?":
        return None
    return title


#: words a remark is written with and a title in sentence case hardly ever holds: persons,
#: the verbs that make a clause of it, and what points into a paper (``see Table 3``)
_REMARK_WORDS = frozenset(
    "i we you he she they it our my your his her their its this these those us them me "
    "is are was were be been being has have had do does did can could should would will may might must "
    "see cf also e.g i.e eg ie compare table tables figure figures fig section sec appendix page pages p pp "
    "which who that but because so if".split())


def _sentence_case_title_in_brackets(text: str, m: re.Match[str], title: str) -> bool:
    """``(Radford et al. 2021, Learning transferable visual models from natural language
    supervision)``: the rest of the citation's own brackets after its year and a comma, in
    sentence case, is its title when it is five words or more and no word of it is one a
    remark is written with (:data:`_REMARK_WORDS`: ``(Smith et al. 2020, see Table 3 there)``,
    ``(…, which we follow)``)."""
    words = title.split()
    if text[m.end():m.end() + 1] not in (")", "）") or len(words) < 5 or not title[:1].isupper():
        return False
    return not any(w.strip(".,:;'’\"").lower() in _REMARK_WORDS for w in words)


#: the rest of a citation's own brackets after its year and a comma, in lower case
_LOWER_TITLE_AFTER_COMMA_RE = lazy(r",\s*(?P<t>[a-z][^()（）;!?,]{10,250}?)(?=\s*[)）])")
#: words of the writer's judgement or description, which a remark in a citation's brackets is
#: written with (``(Okafor et al. 2021, a nice follow-up on sparse models)``) and a title hardly ever is
_JUDGEMENT_WORDS = frozenset(
    "nice good great cool neat solid classic older newer old new similar same follow-up followup "
    "idea trick version v1 v2 etc ok okay best worst better worse favourite favorite "
    "paper papers preprint one work blog post thread talk".split())  # (``the two time-scale update rule paper``: what it is called)


def _inside_bracket(text: str, at: int) -> bool:
    """A bracket opens before ``at`` and is not closed again before it (the citation is
    written in its own brackets: ``(liu et al 2019, …``)."""
    opened = max(text.rfind("(", 0, at), text.rfind("（", 0, at))
    return opened >= 0 and max(text.rfind(")", opened, at), text.rfind("）", opened, at)) < 0


def _lower_title_in_brackets(title: str) -> bool:
    """The rest of a citation's own brackets after its year and a comma, all in lower case,
    is its title (a writer who types lower case types titles so: ``(liu et al 2019, on the
    variance of the adaptive learning rate and beyond)``) when it is five words or more and
    no word of it is one a remark or a judgement is written with."""
    words = title.split()
    if len(words) < 5 or not title.islower():
        return False
    return not any(w.strip(".,:;'’\"").lower() in _REMARK_WORDS | _JUDGEMENT_WORDS for w in words)


def _every_word_capitalised(words: list[str]) -> bool:
    """Every word of a short title starts with a capital (``Some Title Here``): three such
    words after a citation are its title, as four in title case are."""
    return all(w[:1].isupper() for w in words)


def _bracketed_title_after(text: str, end: int) -> tuple[str, int, str | None, int | None] | None:
    """The title in the bracket right after names (:func:`_title_after`), with the venue and
    year written after it in the same bracket (``(Decoupled Weight Decay Regularization,
    ICLR'19)``): the title, where the bracket ends, the venue and the year."""
    m = _TITLE_AFTER_RE.match(text, end)
    if m is None:
        return None
    written = m.group("t").strip()
    year_after = _YEAR_AFTER_RE.search(written)
    title = _without_venue_after(written[:year_after.start()] if year_after else written).strip().rstrip(".")
    words = title.split()
    if len(words) < 4 or not title_case(title) or not words[-1][:1].isupper() or title[-1:] in "!?":
        return None
    venue, year, _ = _tail(text, m.start("t") + m.group("t").find(title) + len(title), after_et_al=False)
    if venue is None and (word := _VENUE_AFTER_RE.search(written)) is not None:
        venue = canonical(word.group("v"))
    return title, m.end(), venue, year


#: a year after a bracketed title and a comma (``(Gated Momentum for Sparse Routers, 2021)``)
_YEAR_AFTER_RE = lazy(r",\s*(?:19|20)\d\d\s*$")


#: a venue's short name, maybe with a year, after the title in the same brackets
_VENUE_AFTER_RE = lazy(r",\s*(?P<v>[A-Za-z][\w\-]{1,15})(?:\s*['’]?\d{2,4})?\s*$")


def _without_venue_after(title: str) -> str:
    """The bracketed title without the venue written after it (``Emergent Abilities of Large
    Language Models, TMLR``): a known venue's short name, a comma before it."""
    m = _VENUE_AFTER_RE.search(title)
    return title[:m.start()].rstrip() if m and canonical(m.group("v")) else title


#: after three names or more joined by ``&``/``and``, the work's short name alone in brackets
#: makes them a citation with no year (``Duchi, Hazan & Singer (adagrad)``)
_SHORT_NAME_AFTER_RE = lazy(r"\s*[(（](?P<w>[A-Za-z][\w\-]{1,20})[)）]")


def _named_work_after(text: str, end: int, count: int) -> int | None:
    """Where the bracketed short name after three joined names or more ends; none after fewer
    names, or when the bracket says what the people are (``(organisers)``)."""
    m = _SHORT_NAME_AFTER_RE.match(text, end) if count >= 3 else None
    if m is None or _PEOPLE_BEFORE_RE.search(m.group("w")):
        return None
    return m.end()


#: a title in quotes, alone in brackets (``("diffusion models beat GANs")``)
_QUOTED_TITLE_AFTER_RE = lazy(r"\s*[(（]\s*[\"“](?P<t>[^\"“”()]{8,200})[\"”]\s*[)）]")


def _quoted_title_after(text: str, end: int) -> tuple[str, int] | None:
    """The title quoted alone in brackets right after names that end at ``end`` (in any
    case: the quotes say it is a title), three words or more, and where the bracket ends."""
    m = _QUOTED_TITLE_AFTER_RE.match(text, end)
    if m is None or len(m.group("t").split()) < 3:
        return None
    return m.group("t").strip(), m.end()


@lru_cache(maxsize=1)
def _ordinary_words() -> frozenset[str]:
    """Words real titles and abstracts write in lower case (the package's list): a
    capitalised one alone before a year is a sentence's word ("Spring 2024"), not a name."""
    from importlib import resources

    text = resources.files("citekit.data").joinpath("lowercase_words.txt").read_text(encoding="utf-8")
    return frozenset(text.split("\n"))  # (one word a line; a comment line, with spaces, is never a word)


#: the two-letter words English writes (the fitted list holds nearly every pair of letters,
#: a formula's variables, so it cannot tell ``of`` from the family names ``Ek``, ``Li``, ``Wu``)
_TWO_LETTER_WORDS = frozenset(
    "a am an as at be by do go he if in is it me my no of oh ok on or ox so to up us we".split())


def _ordinary_word(word: str) -> bool:
    """Whether a lower-case ``word`` is one of the sentence rather than a name: in the
    package's word list and not a family name English never writes as a word (the list
    holds ``liu`` from a title that quoted it, yet ``liu et al 2019`` cites); of two
    letters, only an English word is one."""
    if len(word) == 2:
        return word in _TWO_LETTER_WORDS
    return word in _ordinary_words() and not is_family_name_not_word(word)


@lru_cache(maxsize=1)
def _place_names() -> frozenset[str]:
    """Countries, regions and large cities (the package's list): ``Vienna 2024 — …`` is a
    trip, not a citation."""
    from importlib import resources

    text = resources.files("citekit.data").joinpath("place_names.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


_SPLIT_RE = lazy(_JOIN)


def _family_names(names: str, *, lower: bool = False) -> list[str] | None:
    """The family names of a joined list, or None when a part is not a family name.

    With ``lower``, a list written all in lower case (a chat's ``goyal et al``, ``robbins &
    monro 1951``) is one too, where the citation syntax around it is certain (``et al.``,
    or names joined by ``&``/``and`` and a year or a title after them): its names are
    given their capitals back, and none may be a word of the sentence (``the``, ``paper``)
    nor all of them ordinary words."""
    if lower and names.islower():
        parts = [p.strip() for p in _SPLIT_RE.split(names) if p and p.strip()]
        words = [p.split()[-1] for p in parts]
        if (not parts or any(not w.isalpha() or w in _NOT_NAMES for w in words) or _ordinary_word(words[0])
                or all(_ordinary_word(w) for w in words)):
            return None
        return [" ".join(p.split()[:-1] + [p.split()[-1][:1].upper() + p.split()[-1][1:]]) for p in parts]
    parts = [p.strip() for p in _SPLIT_RE.split(names) if p and p.strip()]
    out = []
    for part in parts:
        last = part.split()[-1]
        if len(last) < 2 or not last[0].isupper() or last[1].isupper() or not any(c.islower() for c in last):
            return None  # (two capitals first: an acronym or a venue, "MLSys", never a family name)
        if last.lower().strip("'’") in _NOT_NAMES or canonical(last) is not None or _camel_case_word(last):
            return None
        out.append(part)
    return out or None


#: the prefixes a family name writes before an inner capital (``McAllester``, ``MacKay``,
#: ``DeVries``, ``LeCun``, ``DiCarlo``, ``VanderPlas``, ``FitzGerald``)
_NAME_PREFIX_RE = lazy(r"^(?:Mc|Mac|De|Di|Da|Du|Le|La|Van|Vander|Von|Fitz|St|Ten|Ter|El|Al)(?=[A-Z])")
_INNER_CAPITAL_RE = lazy(r"[a-z][A-Z]")


def _camel_case_word(word: str) -> bool:
    """A word with a capital inside it after a small letter that no family name's prefix
    explains (``CheckList``, ``MoCo``, ``DeepSpeed``): a system's or a paper's short name
    (``CheckList, Ribeiro et al. ACL 2020``), not one of the people citing it."""
    if _INNER_CAPITAL_RE.search(word) is None:
        return False
    rest = _NAME_PREFIX_RE.sub("", word, count=1)
    return _INNER_CAPITAL_RE.search(rest) is not None or rest == word


def _tail(text: str, at: int, *, after_et_al: bool) -> tuple[str | None, int | None, int]:
    """The venue and year written right after the names (at ``at``) and where they end."""
    m = _TAIL_RE.match(text, at)
    if m is not None:
        if m.group("year"):
            return None, int(m.group("year")), m.end()
        word = m.group("venue")
        venue = canonical(word)
        if venue is not None or (word.isupper() and len(word) >= 2):  # a venue citekit does not list: "SOSP '23"
            if m.group("vyear"):
                return venue, int(m.group("vyear")), m.end()
            yy = int(m.group("yy").strip("'’ "))
            return venue, 2000 + yy if yy < 60 else 1900 + yy, m.end()
    if (q := _QUOTED_YY_RE.match(text, at)) is not None:  # "Shazeer & Stern '18"
        yy = int(q.group("yy"))
        return None, 2000 + yy if yy < 60 else 1900 + yy, q.end()
    if after_et_al:
        s = _SHORT_YEAR_RE.match(text, at)  # "Zheng et al 23"
        if s is not None:
            yy = int(s.group("yy"))
            return None, 2000 + yy if yy < 60 else 1900 + yy, s.end()
    return None, None, at


def _dash_title(text: str, at: int) -> tuple[str, int] | None:
    """The title after names and a dash (:data:`_DASH_TITLE_RE`), and where it ends: four
    words or more, written in quotes or running to the end of the sentence; a remark after
    a dash (``— great read``) is too short to be one."""
    m = _DASH_TITLE_RE.match(text, at)
    if m is None:
        return None
    title = (m.group("q") or m.group("t")).strip().rstrip(",")
    if not 4 <= len(title.split()) <= 25:
        return None
    return title, m.end("q") + 1 if m.group("q") else m.end("t")


#: a title after names and a comma (``Robertson & Zaragoza, The Probabilistic Relevance
#: Framework: BM25 and Beyond (2009)``): to a bracket, a sentence's end or the line's end,
#: with the year in brackets after it when one is written
_COMMA_TITLE_RE = lazy(r",\s+(?P<t>[A-Z][^.!?;()\[\]\"“”]{10,200}?)\s*(?:[(（](?P<y>(?:19|20)\d\d)[)）])?\s*(?:[.!?;(]|$)")


def _comma_title(text: str, at: int) -> tuple[str, int, int | None] | None:
    """The title written after names and a comma, where it ends and the year after it: four
    words or more in title case, its last word capitalised (a remark after names, ``Smith &
    Jones, they show that …``, is no title)."""
    m = _COMMA_TITLE_RE.match(text, at)
    if m is None:
        return None
    title = m.group("t").strip().rstrip(",:")
    words = title.split()
    if not 4 <= len(words) <= 25 or not title_case(title) or not words[-1][:1].isupper():
        return None
    return title, m.end("y") + 1 if m.group("y") else m.end("t"), int(m.group("y")) if m.group("y") else None


def _title_word_first(text: str, start: int, first: str) -> bool:
    """The first "name" of a list before ``et al.`` is a word titles write, right after
    another capitalised word (``(Small Routers with Scalable Training Strategies, Hu et
    al.)``): the end of the title the brackets hold before their citation, not an author."""
    return " " not in first.strip() and first.lower() in _ordinary_words() and _capitalised_before(text, start)


def _capitalised_before(text: str, start: int) -> bool:
    """A capitalised word (not an initial, not the sentence's first word) right before
    ``start``: the name is part of a longer capitalised phrase (``New York 2020``)."""
    before = text[:start].rstrip()
    if not before or before[-1] in ".!?:;,([\"“'’—–-/>*":
        return False
    word = before.split()[-1]
    return word[:1].isupper()


#: two or more capitalised words, each closed by a comma, right before a name
_LIST_ITEMS_BEFORE_RE = lazy(r"(?:(?<![\w'’\-])[A-Z][a-z'’\-]+\s*,\s*){2,}$")


def _list_before(text: str, start: int) -> tuple[int, list[str]] | None:
    """Where the comma list of capitalised words the name at ``start`` closes begins, and its
    items with that name (``Boston, Chicago, Denver, 2023``, ``Frantar, Ashkboos, Hoefler,
    2023``), or None when no such list comes before it: a citation of one author is never
    written as a list's tail, so the year goes with the whole list or with none of it."""
    at = max(0, start - 120)
    m = _LIST_ITEMS_BEFORE_RE.search(text[at:start])
    if m is None:
        return None
    name = _SHORT_NAME_RE.match(text, start)
    items = [p.strip() for p in m.group().split(",") if p.strip()]
    return at + m.start(), items + ([name.group()] if name else [])


_SHORT_NAME_RE = lazy(r"[^\W\d_][\w'’\-]*")


def _listed_families(names: list[str]) -> bool:
    """The items of a list before a year read as authors' family names: none a place (``NYC --
    Boston, Chicago, Denver, 2023`` dates a trip), an ordinary word (``Sales, Marketing``) or
    a venue, as :func:`_family_names` reads them."""
    return (_family_names(", ".join(names)) is not None
            and not any(n in _place_names() or _ordinary_word(n.lower()) for n in names))


def _citation_syntax(text: str, start: int, names_end: int, end: int) -> bool:
    """One name and a year are a citation only in citation syntax: ``(Dao 2023)``,
    ``(Houlsby, 2019)``, ``Dao (2023)``, ``Williams, 1992``, or ``Williams 1992 (REINFORCE)``
    (the short name after it); ``Vienna 2024`` in a sentence is not one."""
    between = text[names_end:end]
    if "(" in between or "," in between:
        return True
    if text[:start].rstrip()[-1:] in ("(", "（"):
        return True
    return text[end:].lstrip()[:1] in ("(", "（")


def _in_parentheses(text: str, start: int, end: int) -> bool:
    """The names are the whole of a parenthesis: ``(Gu & Dao)``."""
    return text[:start].rstrip()[-1:] in ("(", "（") and text[end:].lstrip()[:1] in (")", "）")


def _has_et_al(text: str) -> bool:
    if "et al" in text or "et." in text or "etal" in text or "…" in text or "..." in text:
        return True
    return not text.isascii() and ("等" in text or "ほか" in text or "他" in text or "외" in text)


def has_cue(text: str) -> bool:
    """Whether ``text`` may hold an author-year citation (a cheap test before the search)."""
    return _has_et_al(text) or "&" in text or " and " in text \
        or (("19" in text or "20" in text) and _YEAR_RE.search(text) is not None) \
        or (("(" in text or "（" in text) and _PAREN_LIST_START_RE.search(text) is not None) \
        or (("'" in text or "’" in text or "‘" in text) and _NAME_YY_RE.search(text) is not None)


#: a bracket that opens on two family names and a comma (a cheap test before :data:`_PAREN_LIST_RE`)
_PAREN_LIST_START_RE = lazy(r"[(（]\s*[^\W\d_][\w'’\-]*\*?\s*,\s*[^\W\d_][\w'’\-]*\*?\s*,")
#: a bracket holding three or more family names joined by commas alone, maybe with a venue and
#: a year after them (``DDIM (Song, Meng, Ermon)``, ``SAC (Haarnoja, Zhou, Abbeel, Levine — ICML
#: 2018)``, ``(Gu, Goel, Ré, ICLR 22)``, ``(Gao, Ma, Lin, Callan 2022)``), or after the bracket
#: (``(Chen, Lu, Grover, Mordatch) NeurIPS 21``), or with the title quoted after a dash
#: (``(Gu, Goel, Ré — "Efficiently Modeling …")``); ``*`` marks equal contribution
_PAREN_LIST_RE = lazy(
    rf"[(（]\s*(?P<names>{_NAME}\*?(?:\s*,\s*{_NAME}\*?){{2,11}})"
    r"(?:\s*(?:,|—|–|--)?\s*(?:(?P<venue>[A-Z][A-Za-z]{1,11})\s*)?(?P<year>['’]?\s?\d{2}(?:\d{2})?)(?!\d))?"
    r"(?:\s*(?:,|—|–|--|:)\s*[\"“](?P<title>[^\"“”()（）]{8,200})[\"”])?\s*[)）]"
    r"(?:\s*(?P<venue2>[A-Z][A-Za-z]{1,11})\s*(?P<year2>['’]?\s?\d{2}(?:\d{2})?)(?![\d\w]))?"
)


#: a word before a bracketed list that says the names are people present, not authors
_PEOPLE_BEFORE_RE = lazy(
    r"\b(?:attendees|attending|present|presenters?|presenting|speakers?|hosts?|organi[sz]ers?|people|folks|members|"
    r"team|everyone|reviewers?|students?|mentors?|committee|thanks|cc|with)\s*:?\s*$", re.I)


def _year_of(written: str | None) -> int | None:
    """A year written in four digits or two (``2018``, ``22``, ``’22``)."""
    if not written:
        return None
    digits = written.strip("'’ ")
    if len(digits) == 4:
        return int(digits) if digits[:2] in ("19", "20") else None
    yy = int(digits)
    return 2000 + yy if yy < 60 else 1900 + yy


def _bracketed_list(m: re.Match[str]) -> Citation | None:
    """The citation a bracketed list of family names makes (:data:`_PAREN_LIST_RE`): every
    part a family name, at most half of them ordinary words (``(Adam, Lion, Muon, Shampoo,
    Transformer)`` names methods, not people), and a venue only where citekit knows it or it
    is written in capitals."""
    parts = [p.strip() for p in m.group("names").replace("*", "").split(",")]
    venue_in_list = None
    if m.group("year") and (canonical(parts[-1]) is not None or parts[-1].isupper()):
        venue_in_list, parts = parts[-1], parts[:-1]  # ``(Gu, Goel, Ré, ICLR 22)``: the venue ends the list
    names = _family_names(", ".join(parts))
    if names is None or len(names) < 3:
        return None
    if not (m.group("year") or m.group("year2")) and _PEOPLE_BEFORE_RE.search(m.string, 0, m.start()):
        return None  # ``presenters (Priya, Marcus, Lena)``: the people in the room, not authors
    if sum(_ordinary_word(n.split()[-1].lower()) for n in names) * 2 > len(names):
        return None
    for venue_group, year_group in (("venue", "year"), ("venue2", "year2")):
        written = m.group(year_group)
        if written is None:
            continue
        word = m.group(venue_group) or (venue_in_list if venue_group == "venue" else None)
        if word is None and len(written.strip("'’ ")) != 4:
            return None  # (a bare two-digit number is no year)
        venue = canonical(word) if word else None
        if word and venue is None and not (word.isupper() and len(word) >= 2):
            return None
        year = _year_of(written)
        if year is None:
            return None
        return Citation(tuple(names), False, year, venue, m.start() + 1, m.end(), _quoted_in_list(m))
    return Citation(tuple(names), False, None, None, m.start() + 1, m.end(), _quoted_in_list(m))


def _quoted_in_list(m: re.Match[str]) -> str | None:
    """The title quoted inside a bracketed list of names, three words or more (the quotes
    say it is a title, in any case)."""
    title = m.group("title")
    return title.strip() if title and len(title.split()) >= 3 else None


def find_citations(text: str) -> list[Citation]:
    """The author-year citations in ``text``, in order, none overlapping another."""
    if len(text) > 20000 or not has_cue(text):
        return []
    return list(_citations(text))


#: names joined by ``and``/``&`` and then a comma: the list is closed there (what follows it
#: is another citation)
_CLOSED_LIST_RE = lazy(r"^.*(?:\band\b|&)[^,]*,\s*")
#: a comma, then ``and``/``&`` before the last name of a list ``et al.`` follows (a serial list
#: of the sentence's items, never one author list)
_SERIAL_AND_RE = lazy(r"^.*,\s*(?:and\b|&)\s*")


@per_text
def _citations(text: str) -> tuple[Citation, ...]:
    """:func:`find_citations`, remembered per text (notes repeat lines)."""
    found: list[Citation] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in (_ET_AL_RE.finditer(text) if _has_et_al(text) else ()):
        start, written = m.start(), m.group("names")
        joined = _CLOSED_LIST_RE.search(written)
        if joined is not None:
            # "Glorot and Bengio, He et al.": a list closed by "and" is a citation of its own;
            # "et al." goes with the names after it only
            start, written = start + joined.end(), written[joined.end():]
        elif (serial := _SERIAL_AND_RE.search(written)) is not None:
            # "…to Use Tools, and Park et al. 2023": "and" closes a list that "et al." says goes
            # on; after a comma it joins items of the sentence, and "et al." goes with the last name
            start, written = start + serial.end(), written[serial.end():]
        names = _family_names(written, lower=True)
        if names is not None and len(names) >= 2 and _title_word_first(text, start, names[0]):
            names = None  # (``… with Scalable Training Strategies, Hu et al.``: a title's last word, then the names)
        if names is None and "," in written:
            start, written, names = _after_short_name(start, written)
        if names is None and (" and " in written or "&" in written):
            start, written, names = _after_sentence_words(start, written)
        if names is None or not free(start, m.end()):
            continue
        venue, year, end = _tail(text, m.end(), after_et_al=True)
        found.append(Citation(tuple(names), True, year, venue, start, end, _title_after(text, end)))
        taken.append((start, end))
    if "&" in text or " and " in text:
        for m in _JOINED_RE.finditer(text):
            names = _family_names(m.group("names"), lower=True)
            if names is None or len(names) < 2 or not free(m.start(), m.end()):
                continue
            venue, year, end = _tail(text, m.end(), after_et_al=False)
            if all(n.split()[-1].lower() in _ordinary_words() for n in names):
                continue  # "Training and Inference 2024": words, not names
            # (names right after a quoted title are its authors: what follows their dash is a remark)
            after_quote = text[:m.start()].rstrip(" ,—–-")[-1:] in ("\"", "”", "»", "》")
            dashed = _dash_title(text, end) if year is None and not after_quote and (len(names) >= 3 or "&" in m.group("names")) else None
            lower = m.group("names").islower()
            if year is None and dashed is None and (lower or not _in_parentheses(text, m.start(), m.end())):
                quoted = _quoted_title_after(text, end) if not lower and not after_quote else None
                comma = (_comma_title(text, end) if quoted is None and not lower and not after_quote
                         and (len(names) >= 3 or "&" in m.group("names")) else None)
                if comma is not None and free(m.start(), comma[1]):
                    # ``Gao, Schulman & Hilton, Scaling Laws for Reward Model Overoptimization``
                    found.append(Citation(tuple(names), False, comma[2], None, m.start(), comma[1], comma[0]))
                    taken.append((m.start(), comma[1]))
                elif quoted is not None and free(m.start(), quoted[1]):
                    # ``Dhariwal & Nichol ("diffusion models beat GANs")``: the names and the title they wrote
                    found.append(Citation(tuple(names), False, None, None, m.start(), quoted[1], quoted[0]))
                    taken.append((m.start(), quoted[1]))
                elif (not lower and not after_quote and (bracketed := _bracketed_title_after(text, end)) is not None
                      and ("&" in m.group("names") or len(names) >= 3 or bracketed[3] is not None) and free(m.start(), bracketed[1])):
                    # ``Loshchilov & Hutter (Decoupled Weight Decay Regularization, ICLR'19)``
                    found.append(Citation(tuple(names), False, bracketed[3], bracketed[2], m.start(), bracketed[1], bracketed[0]))
                    taken.append((m.start(), bracketed[1]))
                elif not lower and not after_quote and (named := _named_work_after(text, m.end(), len(names))) is not None:
                    # ``Duchi, Hazan & Singer (adagrad)``
                    found.append(Citation(tuple(names), False, None, None, m.start(), named))
                    taken.append((m.start(), named))
                continue  # names alone are a citation only in parentheses: "Mamba (Gu & Dao)"
            if dashed is not None and year is None:
                found.append(Citation(tuple(names), False, None, None, m.start(), dashed[1], dashed[0]))
                taken.append((m.start(), dashed[1]))
                continue
            found.append(Citation(tuple(names), False, year, venue, m.start(), end, _title_after(text, end) if year else None))
            taken.append((m.start(), end))
    if "(" in text or "（" in text:
        # a bracketed list of family names, before a year after its last name is read as
        # that one name's citation (``(Peng, Quesnelle, Fan, Shippole 2023)``)
        for m in _PAREN_LIST_RE.finditer(text):
            cite = _bracketed_list(m)
            if cite is not None and free(cite.start, cite.end):
                found.append(cite)
                taken.append((cite.start, cite.end))
    if "19" in text or "20" in text:
        for year_at in _YEAR_RE.finditer(text):
            named = _name_before(text, year_at.start())
            if named is None:
                continue
            start, names_end = named
            names = _family_names(text[start:names_end])
            if names is None or len(names) != 1 or not free(start, year_at.end()):
                continue
            family = names[0].split()[-1]
            if family.lower() in _ordinary_words() or _capitalised_before(text, start):
                continue
            if (listed := _list_before(text, start)) is not None:
                # the name closes a comma list: the whole list is the citation's, or none is
                start, names = listed
                if not _listed_families(names):
                    continue
            venue, year, end = _tail(text, names_end, after_et_al=False)
            if year is None:
                continue
            if not _citation_syntax(text, start, names_end, end):
                # ``Williams 1992 — simple statistical gradient-following algorithms for …``:
                # a name and a year, then a dash and a title, cite that paper
                dashed = _dash_title(text, end) if family not in _place_names() else None
                if dashed is None or not free(start, dashed[1]):
                    continue
                found.append(Citation(tuple(names), False, year, venue, start, dashed[1], dashed[0]))
                taken.append((start, dashed[1]))
                continue
            if _EN_DASH_PAIR_RE.fullmatch(names[0]):
                names = names[0].split("–")  # ``Benjamini–Hochberg (1995)``: two authors, as a method named after them is written
            found.append(Citation(tuple(names), False, year, venue, start, end, _title_after(text, end)))
            taken.append((start, end))
    if "'" in text or "’" in text or "‘" in text:
        for m in _NAME_YY_RE.finditer(text):
            cite = _name_short_year(text, m)
            if cite is not None and free(cite.start, cite.end):
                found.append(cite)
                taken.append((cite.start, cite.end))
    found.sort(key=lambda c: c.start)
    return tuple(found)


#: one family name and a year in two digits after an apostrophe (``Christiano '17``)
_NAME_YY_RE = lazy(r"(?<![\w.'’\-])(?P<name>[A-Z][a-z][\w'’\-]*?)\s+['’‘](?P<yy>\d{2})(?![\d\w'’])")


def _name_short_year(text: str, m: re.Match[str]) -> Citation | None:
    """``Christiano '17 (Atari/MuJoCo prefs)``: one family name and its year cut to two digits
    after an apostrophe, the citation syntax of notes; not an ordinary word, a month, a season,
    a place or a venue (``Summer '19``, ``ICLR '24``), nor a word of a capitalised phrase."""
    names = _family_names(m.group("name"))
    if names is None or len(names) != 1:
        return None
    family = names[0]
    if (family.lower() in _ordinary_words() or family in _place_names() or canonical(family) is not None
            or _capitalised_before(text, m.start())):
        return None
    yy = int(m.group("yy"))
    return Citation((family,), False, 2000 + yy if yy < 60 else 1900 + yy, None, m.start(), m.end(), _title_after(text, m.end()))


def _after_short_name(start: int, written: str) -> tuple[int, str, list[str] | None]:
    """The names of ``written`` after the leading parts that are no names (``CLIP, Radford``
    of ``(CLIP, Radford et al., ICML 2021)``: the work's short name, then its citation), with
    where they start; no names when no tail of the list reads as names."""
    at = 0
    while (comma := written.find(",", at)) >= 0:
        at = comma + 1
        rest = written[at:].lstrip()
        names = _family_names(rest, lower=True)
        if names is not None:
            return start + len(written) - len(rest), rest, names
    return start, written, None


_AND_RE = lazy(r"\s(?:and|&)\s|&")


def _after_sentence_words(start: int, written: str) -> tuple[int, str, list[str] | None]:
    """The capitalised names of ``written`` after the sentence's words that ``and`` joins
    to them (``paper and Xiong`` of ``I'd read the GQA paper and Xiong et al. 2020``, ``RoFormer
    and Xiong``): the list the citation syntax matched began too early, at a word of the
    sentence; no names when no tail after an ``and`` reads as names."""
    for joined in _AND_RE.finditer(written):
        rest = written[joined.end():].lstrip()
        names = _family_names(rest) if rest[:1].isupper() else None
        if names is not None:
            return start + len(written) - len(rest), rest, names
    return start, written, None


#: an author list of family-name-first pairs with whole given names, closed by the year or a
#: full stop (``Frankle, Jonathan & Carbin, Michael (2019).``): no list of family names alone
_INVERTED_PAIRS_RE = lazy(r"^[^\W\d_][\w'’\-]+,\s+[A-Z][^\W\d_A-Z]+(?:\s+[A-Z]\.)*\s*,?\s*(?:&|and)\s+"
                          r"[^\W\d_][\w'’\-]+,\s+[A-Z][^\W\d_A-Z]+(?:\s+[A-Z]\.)*\s*(?:[(（](?:19|20)\d\d|\.\s)")
_LEAD_SEPARATOR_RE = lazy(r"\s*(?:[,.:;]|\s[—–]|\s--?)\s+")


def leading_names(text: str) -> Citation | None:
    """The author list a line opens with, in citation syntax (``Loshchilov & Hutter, …``,
    ``Kingma & Welling, …``, ``Bartlett & Mendelson 2002, …``, ``Houlsby et al. 2019: …``),
    up to the separator after it (``end``); None when the line does not open so. Joined
    names need no year here: what follows them is for the reference parser to read."""
    if not text[:1].isupper() or not has_cue(text):
        return None
    if _INVERTED_PAIRS_RE.match(text):
        return None  # ``Frankle, Jonathan & Carbin, Michael (2019).``: family, given pairs, for the parser
    m = _ET_AL_RE.match(text) or _JOINED_RE.match(text)
    if m is None:
        return None
    names = _family_names(m.group("names"))
    incomplete = m.re is _ET_AL_RE
    if names is None or (not incomplete and (len(names) < 2 or all(n.split()[-1].lower() in _ordinary_words() for n in names))):
        return None
    venue, year, end = _tail(text, m.end(), after_et_al=incomplete)
    if text[end:end + 1] == ")" and "(" in text[m.end():end]:
        end += 1
    sep = _LEAD_SEPARATOR_RE.match(text, end)
    if sep is None:
        return None
    return Citation(tuple(names), incomplete, year, venue, 0, sep.end())


def cited_as(m: Mention) -> str:
    """An author-year citation written back the usual way (``Kingma & Ba 2014``,
    ``Hsieh et al. SOSP 2024``): all the notes say of the paper, shown where it waits."""
    names = list(m.authors)
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
    if m.authors_incomplete:
        who += " et al."
    year = m.year if m.year and not m.year_from_page else None
    return " ".join(str(x) for x in (who, m.venue if year else None, year) if x)
