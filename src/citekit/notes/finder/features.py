"""What the finder sees of a line: its shape as CRF features, with a glance at its neighbours.

Each line becomes a list of ``name=value`` strings (python-crfsuite's item form): length,
indentation and its change from the line above, the leading marker (bullet, number,
``[12]``, heading, quote, table bar, timestamp, ``Name:``), the share of capitals, digits and
punctuation, years, ``et al.``, initials, quoted titles, page ranges, venue words, paper and
code links, identifiers, words that mark what is not a paper (to-dos, meetings, flights),
the place in the document, and a few of these for the lines above and below. Only the
standard library: the features are also what the benchmark times.
"""

from __future__ import annotations

import functools
import re
from sys import intern
from operator import itemgetter
from typing import NamedTuple

from citekit.core.lazyre import lazy

_BULLET = lazy(r"^(?:[-*+•◦▪‣·–]|\d{1,3}[.)]|\(\d{1,3}\)|\[\d{1,4}\]|[a-z][.)]|#{1,6}|>+|\|)\s")
_NUMBERED = lazy(r"^(?:\[\d{1,4}\]|\d{1,3}[.)]\s|\(\d{1,3}\)\s)")
_BRACKET_NUM = lazy(r"^\[\d{1,4}\]")
_TIMESTAMP = lazy(r"^\[?\(?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp][Mm])?\]?\)?")
_SPEAKER = re.compile(r"^(?:\[[^\]]{1,30}\]\s*)?@?[A-Z][\w.\-]*(?: [A-Z][\w.\-]*)?\s*[:>]\s")
_LABEL = re.compile(r"^(?:[-*•]\s+)?\**([A-Za-z][A-Za-z ]{1,18}|[^\x00-\x7f]{1,5})\**\s*(::?|：)\s*")
_EMAIL_HEADER = lazy(r"^(?:From|To|Cc|Subject|Date|Sent|Re|Fwd?):\s", re.I)
_YEAR = re.compile(r"(?<!\d)(?:1[89]\d\d|20[0-4]\d)[a-z]?(?!\d)")
_YEAR_PAREN = re.compile(r"\((?:1[89]\d\d|20[0-4]\d)[a-z]?\)|\b(?:1[89]\d\d|20[0-4]\d)[a-z]?\.\s")
_ET_AL = re.compile(r"\bet\.? al\b|\bet al\.|等|외", re.I)
_INITIALS = re.compile(r"(?:^|[\s,(])[A-Z]\.(?:\s?[A-Z]\.)*(?=[\s,])")
_FAMILY_INITIALS = re.compile(r"^[A-Z][\w'\-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+)")
_VANCOUVER = re.compile(r"^(?:\d{1,3}\.\s+)?[A-Z][\w'\-]+ [A-Z]{1,3}[,.]")
_QUOTED = re.compile(r"[\"“”«»《》「」]|''|``")
_PAGES = re.compile(r"\b(?:pp?\.\s*)?\d{1,5}\s*[-–—]{1,2}\s*\d{1,5}\b")
_VOLUME = re.compile(r"\b(?:vol\.?|volume|no\.|issue)\s*\d|\d+\s*\(\d+\)\s*[:,]", re.I)
_VENUE = re.compile(
    r"\b(?:proc(?:eedings|\.)|conference|conf\.|journal|trans(?:actions|\.)|symposium|workshop|"
    r"advances in|press|university|review|letters|NeurIPS|NIPS|ICML|ICLR|CVPR|ICCV|ECCV|ACL|EMNLP|NAACL|"
    r"AAAI|IJCAI|KDD|SIGIR|AISTATS|COLT|UAI|JMLR|TPAMI|SIAM|IEEE|ACM|PMLR|arXiv|preprint|CoRR|thesis|"
    r"Springer|Elsevier|Nature|Science)\b", re.I)
_IN = re.compile(r"(?:^|[.,]\s+)In(?::|\s+[A-Z])")
_URL = re.compile(r"https?://|www\.", re.I)
_PAPER_URL = re.compile(r"arxiv\.org|doi\.org|openreview\.net|aclanthology|proceedings\.|dl\.acm\.org|"
                        r"semanticscholar|ieeexplore|papers\.nips|jmlr\.org|springer\.com|sciencedirect|"
                        r"thecvf\.com|alphaxiv|/virtual/\d{4}/(?:poster|oral|spotlight)|huggingface\.co/papers/|"
                        r"paperswithcode\.com/paper/|mlr\.press|biorxiv|pubmed|ncbi\.nlm|nature\.com/articles", re.I)
_CODE_URL = re.compile(r"github\.com|gitlab\.com|huggingface\.co/(?!papers)|youtube\.com|youtu\.be|"
                       r"twitter\.com|x\.com/|medium\.com|substack|notion\.site|\.github\.io|slideshare|"
                       r"speakerdeck|zoom\.us|meet\.google|calendar", re.I)
#: a link to what is not a paper but often sits beside one: a package index, docs, a notebook, a
#: data set or demo page, a blog, a leaderboard (learned as a signal, weighed with the rest)
_NONPAPER_URL = re.compile(r"pypi\.org|readthedocs|kaggle\.com|colab\.research|huggingface\.co/(?:datasets|spaces|docs|blog)|"
                           r"/blog/|blog\.|/docs?/|docs\.|leaderboard|/sota/|/dataset/|/method/|/author/|/events/", re.I)
#: a link written without its scheme (``arxiv.org/abs/…``, ``github.com/…``)
_SCHEMELESS = re.compile(r"(?<![/\w.@])(?:[a-z0-9-]+\.)+(?:org|com|net|io|ai|cc|press|edu)/\S", re.I)
_ARXIV = re.compile(r"\barxiv\s*[:.]?\s*\d{4}\.\d{4,5}|(?<![\w./])\d{4}\.\d{4,5}(?:v\d)?(?![\w/])", re.I)
_DOI = re.compile(r"\b10\.\d{4,9}/\S+")
_DASH_SEP = re.compile(r"\s[—–-]{1,2}\s")
_BY = re.compile(r"\sby\s+[A-Z]")
_HASHTAG = re.compile(r"(?:^|\s)#[A-Za-z]\w+")
_CHECKBOX = lazy(r"^(?:[-*+]\s+)?\[[ xX]\]")
_ORG_TODO = lazy(r"^(?:[-*]+\s+|\*+\s+)?(?:TODO|DONE|LATER|NOW|DOING|WAITING|NEXT)\b")
#: a Slack window copied as text: the sender's name and the time on a line of their own
_CHAT_HEAD = lazy(r"^[^\W\d_][\w.'’\-]*(?: [^\W\d_][\w.'’\-]*){0,3}\s{2,}\d{1,2}:\d{2}\s?[AaPp][Mm]$")
#: an org drawer or planning line (``:PROPERTIES:``, ``:END:``, ``CLOCK: [...]``, ``SCHEDULED: <...>``)
_ORG_META = lazy(r"^(?::[A-Za-z_]+:|(?:SCHEDULED|DEADLINE|CLOSED|CLOCK):)")
#: an HTML block line a notes app exports (Notion's callouts and toggles)
_HTML_TAG = lazy(r"^</?(?:aside|details|summary|div|p|span|br|blockquote)\b", re.I)
#: a reaction as a chat copy writes it (``:+1:``, ``:eyes:``)
_REACTION = lazy(r"^:[a-z0-9_+\-]+:$")
_QUOTE_DEPTH = lazy(r"^(?:>\s?)+")
_PAGE_REF = lazy(r"\bpp?\.\s?\d+\b")
_LEADERS = lazy(r"\.{4,}|(?:\. ){3,}|…{2,}")  # a table of contents' dot leaders
_WORD = lazy(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
#: a line that starts like a reference's author list: ``H. Zhang,``, ``Zhang, H.``, ``Hongyi Zhang,``,
#: ``Zhang H,``: what a new reference of an unnumbered list starts with
_NAME_START = lazy(r"^(?:[A-Z]\.(?:[\s-]?[A-Z]\.)*\s[A-Z][\w'’\-]+(?:,|\sand\s|\.)|"
                         r"[A-Z][\w'’\-]+,\s(?:[A-Z]\.[\s-]?)+|"
                         r"[A-Z][^\W\d_]+(?:\s(?:[A-Z]\.|[A-Z][^\W\d_'’\-]*(?:[-'’][^\W\d_]+)?)){1,3}(?:,|\sand\s)|"
                         r"[A-Z][\w'’\-]+\s[A-Z]{1,3},)")
#: a line that ends as a reference does: on a year, a page range or an identifier, and a full stop
_ENDS_REFERENCE = lazy(r"(?:(?:1[89]\d\d|20[0-4]\d)[a-z]?\)?|\d+[–-]\d+|\d{4}\.\d{4,5}|\])\.?$")
_CJK = lazy(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
#: words that say a line is about something other than a paper
_OTHER_WORDS = frozenset("""
todo meeting meet call lunch dinner breakfast coffee flight hotel train taxi buy book email reply
remind remember ask schedule agenda minutes zoom slack standup sync deadline review reviews submit
rebuttal travel visa party poster-session keynote talk tutorial invited panel workshop-dinner
repo github code library package install blog post tweet thread video slides dataset model weights
checkpoint docs documentation notebook demo website homepage lab office room thanks thank hi hello
cheers regards best ok okay lol yes no sure will can could should would please let lets we i you
leaderboard course lecture podcast newsletter api wiki release kaggle colab pip trainer hub spaces
""".split())
_PAPER_WORDS = frozenset("""
learning neural network networks deep model models via towards toward optimization training
language transformer transformers efficient scalable analysis theory approach method methods
generalization inference bayesian stochastic gradient adversarial graph representation
representations attention reinforcement estimation robust data large-scale
""".split())


def _any(*needles: str):
    """A cheap test run before a pattern: the lower-cased line holds one of ``needles``
    (every match of the pattern does), so the pattern's scan is skipped on most lines.
    (``map`` over ``in`` keeps the loop in C: a generator costs more than the tests.)"""
    return lambda _text, low, *_: any(map(low.__contains__, needles))


_VENUE_WORDS = frozenset(
    "proceedings proc conference conf journal transactions trans symposium workshop advances press university "
    "review letters neurips nips icml iclr cvpr iccv eccv acl emnlp naacl aaai ijcai kdd sigir aistats colt uai "
    "jmlr tpami siam ieee acm pmlr arxiv preprint corr thesis springer elsevier nature science".split())
_LETTERS = lazy(r"[a-z]+")


def _venue_word(_text: str, low: str, *_) -> bool:
    return not _VENUE_WORDS.isdisjoint(_LETTERS.findall(low))


def _has_digit(_text: str, _low: str, digit: bool, *_) -> bool:
    return digit


def _has_year(_text: str, _low: str, _digit: bool, _ascii: bool, year: object) -> bool:
    """(A year in parentheses or before a full stop is a year ``_YEAR`` finds.)"""
    return year is not None


def _has_range(text: str, _low: str, digit: bool, *_) -> bool:
    return digit and ("-" in text or "–" in text or "—" in text)


def _has_volume(text: str, low: str, digit: bool, ascii: bool, _year: object) -> bool:
    """A volume's cue word or a parenthesis (the cue words are looked for in ASCII lines
    only: a case-blind pattern also matches a dotless ``ı`` or a long ``ſ`` there)."""
    return digit and (not ascii or "vol" in low or "no." in low or "issue" in low or "(" in text)


def _has_quote(text: str, _low: str, _digit: bool, ascii: bool, _year: object) -> bool:
    """(Every quote mark but ``"``, ``''`` and ````` is outside ASCII.)"""
    return not ascii or '"' in text or "''" in text or "``" in text


#: (pattern, feature, cheap test or None): the feature is set when the pattern matches; the
#: cheap test holds for every line the pattern can match, and is tried first. It is given
#: the line, the line in lower case, whether it holds a digit, whether it is all ASCII, and
#: the line's first year (``_YEAR``'s match, or None).
_CHECKS = (
    (_YEAR, "year", _has_digit), (_YEAR_PAREN, "yearparen", _has_year), (_ET_AL, "etal", _any("et", "等", "외")),
    (_INITIALS, "initials", _any(".")), (_FAMILY_INITIALS, "familyfirst", _any(",")),
    (_VANCOUVER, "vancouver", _any(",", ".")), (_QUOTED, "quoted", _has_quote), (_PAGES, "pages", _has_range),
    (_VOLUME, "volume", _has_volume), (_VENUE, "venue", _venue_word), (_IN, "in", lambda text, *_: "In" in text),
    (_URL, "url", _any("http", "www.")),
    (_PAPER_URL, "paperurl", _any("arxiv.org", "doi.org", "openreview.net", "aclanthology", "proceedings.", "dl.acm.org",
                                  "semanticscholar", "ieeexplore", "papers.nips", "jmlr.org", "springer.com",
                                  "sciencedirect", "thecvf.com", "alphaxiv", "/virtual/")),
    (_CODE_URL, "codeurl", _any("github.com", "gitlab.com", "huggingface.co/", "youtube.com", "youtu.be", "twitter.com",
                                "x.com/", "medium.com", "substack", "notion.site", ".github.io", "slideshare",
                                "speakerdeck", "zoom.us", "meet.google", "calendar")),
    (_NONPAPER_URL, "nonpaperurl", _any("pypi", "readthedocs", "kaggle", "colab", "huggingface.co/", "blog", "doc",
                                         "leaderboard", "/sota/", "/dataset/", "/method/", "/author/", "/events/")),
    (_SCHEMELESS, "schemeless", _any(".org/", ".com/", ".net/", ".io/", ".ai/", ".cc/", ".press/", ".edu/")),
    (_ARXIV, "arxiv", lambda text, _l, digit, *_: digit and "." in text), (_DOI, "doi", _any("10.")),
    (_DASH_SEP, "dashsep", _any("-", "—", "–")), (_BY, "by", _any("by")), (_HASHTAG, "hashtag", _any("#")),
    (_SPEAKER, "speaker", lambda text, *_: ":" in text or ">" in text), (_LABEL, "label", None),
)


#: each ASCII character's class, for counting a line's letters, capitals, digits and spaces in
#: C (``bytes.translate`` then ``count``), not a Python call per character: ``U`` a capital,
#: ``l`` another letter, ``d`` a digit, ``s`` what ``str.isspace`` calls a space, ``p`` the rest
_ASCII_CLASS = bytes(
    ord("U" if chr(c).isupper() else "l" if chr(c).isalpha() else "d" if chr(c).isdigit()
        else "s" if chr(c).isspace() else "p")
    for c in range(256))


def _char_counts(text: str) -> tuple[int, int, int, int]:
    """The letters, capitals, digits and punctuation (neither alphanumeric nor space) of ``text``."""
    if text.isascii():
        classes = text.encode("ascii").translate(_ASCII_CLASS)
        upper = classes.count(b"U")
        letters = upper + classes.count(b"l")
        digits = classes.count(b"d")
        return letters, upper, digits, len(text) - letters - digits - classes.count(b"s")
    letters = sum(map(str.isalpha, text))
    digits = sum(map(str.isdigit, text))
    punct = len(text) - sum(map(str.isalnum, text)) - sum(map(str.isspace, text))
    return letters, sum(map(str.isupper, text)), digits, punct


def _bucket(value: float, edges: tuple[float, ...]) -> int:
    for i, edge in enumerate(edges):
        if value < edge:
            return i
    return len(edges)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t\u3000"))


def _marker(text: str) -> str:
    """The kind of thing the line starts with, after its indentation."""
    if not text:
        return "none"
    if _CHECKBOX.match(text):
        return "checkbox"
    c = text[0]
    if c == ":" and _REACTION.match(text):
        return "reaction"
    if (c == ":" or c.isupper()) and _ORG_META.match(text):
        return "orgmeta"
    if c == "<" and _HTML_TAG.match(text):
        return "html"
    if text[-1:] in "Mm" and _CHAT_HEAD.match(text):
        return "chathead"
    if _ORG_TODO.match(text):
        return "todo"
    if _BRACKET_NUM.match(text):
        return "bracketnum"
    if _NUMBERED.match(text):
        return "number"
    if _TIMESTAMP.match(text):
        return "time"
    if _EMAIL_HEADER.match(text):
        return "mailhead"
    if c == "#":
        return "hash" if len(text) > 1 and text[1] in "# " else "tag"
    if c == ">":
        return "quote"
    if c == "|":
        return "table"
    if c in "-+•◦▪‣·–":
        return "bullet"
    if c == "*":
        return "orghead" if text.startswith("* ") and not text.startswith("* [") else "star"
    if c.isdigit():
        return "digit"
    if c in "\"“«《「'‘":
        return "quoted"
    if c in "([{":
        return "paren"
    if c.isupper():
        return "upper"
    if c.islower():
        return "lower"
    if _CJK.match(c):
        return "cjk"
    return "punct"


def _strip_marker(text: str) -> str:
    text = _CHECKBOX.sub("", text, count=1).lstrip()
    for _ in range(3):
        m = _BULLET.match(text)
        if not m:
            break
        text = text[m.end():].lstrip()
    return text


#: How much of a line the shape checks read (see :func:`_core`).
_READ_CHARS = 400


class _Line(NamedTuple):
    """What the finder reads of one line's text: its own features, and those a neighbour
    copies, already with each neighbour's prefix."""

    core: tuple[str, ...]
    above: tuple[str, ...]  # as the line before the next one (``-1:``)
    below: tuple[str, ...]  # as the line after the previous one (``+1:``)
    above2: tuple[str, ...]  # as the second line before (``-2:``)


_BLANK = ("blank",)


@functools.lru_cache(maxsize=4096)
def _line(line: str) -> _Line:
    """The features of one line, remembered by its text (a line is read again as the
    neighbour of the next block's lines, and notes repeat lines); bounded, so no file grows it.
    Its features are interned: most are a few dozen strings (``len=3``, ``-1:mark=dash``)
    that every line makes anew, and the remembered lines held each its own copies (about
    12 MB when full, a third of every line cache together)."""
    core = tuple(map(intern, _core(line)))
    shared = [x for x in core if x.startswith(_NEIGHBOUR)]
    return _Line(core, tuple(intern("-1:" + x) for x in shared), tuple(intern("+1:" + x) for x in shared),
                 tuple(intern("-2:" + x) for x in shared))


def _core(line: str) -> list[str]:
    """The features of one line on its own."""
    text = line.strip()
    if not text:
        return ["blank"]
    full = n = len(text)
    if n > _READ_CHARS:
        # a paragraph of prose: its length says so, and its head says the rest (each check
        # below scans the text, and an abstract pasted as one line is thousands of characters)
        text = text[:_READ_CHARS]
        n = _READ_CHARS
    body = _strip_marker(text)
    words = _WORD.findall(body)
    nw = len(words)
    caps = sum(map(str.isupper, map(_FIRST, words)))
    letters, upper, digits, punct = _char_counts(text)
    lower_words = [w.lower() for w in words]
    f = [
        f"len={_bucket(full, (8, 20, 40, 60, 80, 120, 200))}",
        f"words={_bucket(nw, (2, 4, 7, 11, 16, 25))}",
        f"indent={_bucket(_indent(line), (1, 2, 4, 8, 16, 32))}",
        f"mark={_marker(text)}",
        f"caps={_bucket(caps / nw if nw else 0, (0.2, 0.4, 0.6, 0.8, 0.95))}",
        f"upper={_bucket(upper / letters if letters else 0, (0.05, 0.15, 0.5, 0.9))}",
        f"digits={_bucket(digits / n, (0.01, 0.05, 0.15, 0.4))}",
        f"punct={_bucket(punct / n, (0.03, 0.08, 0.15, 0.3))}",
        f"last={_last(text)}",
        f"first={_first(body)}",
    ]
    if words:
        w0 = lower_words[0]
        f.append(f"w0={w0[:14]}")
        if nw > 1:
            f.append(f"w1={lower_words[1][:14]}")
        if w0 in _OTHER_WORDS:
            f.append("w0other")
    others = sum(1 for w in lower_words if w in _OTHER_WORDS)
    if others:
        f.append(f"otherwords={min(others, 3)}")
    papers = sum(1 for w in lower_words if w in _PAPER_WORDS)
    if papers:
        f.append(f"paperwords={min(papers, 3)}")
    ascii = text.isascii()
    if not ascii and _CJK.search(text):
        f.append("cjk")
    low = text.lower()
    digit = digits > 0
    c0 = text[0]
    year = _YEAR.search(text) if digit else None
    label = _LABEL.match(text) if ":" in text or "：" in text else None  # (it ends on a colon)
    for regex, name, cheap in _CHECKS:
        if regex is _YEAR:
            hit = year is not None
        elif regex is _LABEL:
            hit = label is not None
        else:
            hit = (cheap is None or cheap(text, low, digit, ascii, year)) and regex.search(text)
        if hit:
            f.append(name)
    if year:
        f.append(f"yearat={_bucket(year.start() / n, (0.1, 0.4, 0.7))}")
    if label:
        f.append(f"labelword={label.group(1).strip().lower()[:12]}")
        if label.group(2) == "::":
            f.append("dblcolon")
    if text.count(",") >= 3:
        f.append("commas")
    if text.count(" and ") or "&" in text:
        f.append("and")
    if "**" in text or "__" in text:
        f.append("bold")
    if "*" in body and "**" not in body or body.startswith("_"):
        f.append("italic")
    if "[[" in text:
        f.append("wikilink")
    if c0 == ">":
        f.append(f"qdepth={min(_QUOTE_DEPTH.match(text).group().count('>'), 3)}")
    if text.endswith("wrote:"):
        f.append("wrote")
    if "zotero://" in text:
        f.append("zotero")
    if digit and _PAGE_REF.search(text):
        f.append("pageref")
    if "](" in text:
        f.append("mdlink")
    if text.endswith("-") and n > 1 and text[-2].isalpha():
        f.append("hyphenend")
    if text.count("|") >= 2:
        f.append("bars")
    if ("...." in text or ". . ." in text or "……" in text) and _LEADERS.search(text):
        f.append("leaders")
    if body[:1].isupper() and _NAME_START.match(body):
        f.append("namestart")
    if digit and _ENDS_REFERENCE.search(_last_word(text)):
        f.append("endsref")
    return f


_FIRST = itemgetter(0)


def _last_word(text: str) -> str:
    """The word that ends ``text`` (as a pattern's ``$`` reads it: before one final line
    break too), or "" where ``text`` ends on a space: a pattern anchored at the end with no
    space in it matches there or nowhere, and searching the word is not searching the line."""
    tail = text[:-1] if text.endswith("\n") else text
    if not tail or tail[-1].isspace():
        return ""
    return tail.rsplit(None, 1)[-1]


def _last(text: str) -> str:
    c = text[-1]
    if c in ".!?":
        return "stop"
    if c in ",;":
        return "comma"
    if c in ":：":
        return "colon"
    if c.isdigit():
        return "digit"
    if c.isalpha():
        return "letter"
    return "punct"


def _first(body: str) -> str:
    if not body:
        return "none"
    c = body[0]
    if c.isupper():
        return "upper"
    if c.islower():
        return "lower"
    if c.isdigit():
        return "digit"
    return "other"


#: the features of a neighbour worth copying onto a line (with a ``-1:``/``+1:`` prefix)
_NEIGHBOUR = ("blank", "mark=", "indent=", "last=", "first=", "year", "etal", "initials", "venue", "pages",
              "quoted", "url", "paperurl", "label", "len=", "familyfirst", "speaker", "hyphenend", "leaders",
              "yearat=", "words=", "namestart", "endsref", "qdepth=", "zotero", "nonpaperurl")


def line_features(lines: list[str], start: int = 0, end: int | None = None) -> list[list[str]]:
    """The CRF features of the lines ``start:end`` of a document (all of it by default).

    The neighbours are the nearest lines that are not blank (``-1:``, ``+1:``, ``-2:``), so a
    double-spaced bibliography looks like a single-spaced one; whether blank lines lie in
    between is a feature of its own. A part of a document gets the features it has in the
    whole (its place, its neighbours beyond the part): only the lines around it are read.
    """
    total = len(lines)
    end = total if end is None else end
    lo, seen = start, 0
    while lo > 0 and seen < 2:  # back to the second line with text before the part
        lo -= 1
        seen += bool(lines[lo].strip())
    hi, seen = end, 0
    while hi < total and seen < 1:  # on to the first line with text after it
        seen += bool(lines[hi].strip())
        hi += 1
    if hi < total:
        hi += 1  # (and the line after that: whether it is blank is a feature)
    read = {i: _line(lines[i]) for i in range(lo, hi)}
    cores = {i: r.core for i, r in read.items()}
    filled = [i for i in range(lo, hi) if cores[i] != _BLANK]
    rank = {i: k for k, i in enumerate(filled)}
    out: list[list[str]] = []
    for i in range(start, end):
        feats = cores[i]
        f = ["bias", *feats]
        f.append(f"pos={_bucket(i / total if total else 0, (0.1, 0.5, 0.9))}")
        if i == 0:
            f.append("first_line")
        if i == total - 1:
            f.append("last_line")
        if i > 0 and cores[i - 1] == _BLANK:
            f.append("after_blank")
        if i + 1 < total and cores[i + 1] == _BLANK:
            f.append("before_blank")
        if i in rank:
            k = rank[i]
            indent = _indent(lines[i])
            if k == 0 and filled[0] == i and not any(lines[j].strip() for j in range(0, lo)):
                f.append("dindent=start")
            else:
                d = indent - _indent(lines[filled[k - 1]])
                f.append("dindent=" + ("same" if d == 0 else "more" if d > 0 else "less"))
            if k > 0 and "namestart" in feats:
                # an author list after a line that ended as a reference ends (or on a full
                # stop): where an unnumbered, hard-wrapped list starts its next reference
                above = cores[filled[k - 1]]
                f.append("namestart_after=" + ("ref" if "endsref" in above else "stop" if "last=stop" in above else "open"))
            for off, tag, part in ((-1, "-1:", 1), (1, "+1:", 2), (-2, "-2:", 3)):
                m = k + off
                if 0 <= m < len(filled):
                    f.extend(read[filled[m]][part])
                else:
                    f.append(tag + "edge")
        out.append(f)
    return out
