"""Splitting personal names into family and given parts, honestly.

Crossref splits names itself; OpenReview, dblp, arXiv and the notes give one string. The
rules here cover the cases researchers meet: two-word family names we cannot know about
(kept as the source wrote them), particles (``van Breugel``), nicknames in quotes, dblp's
homonym numbers (``Wei Chen 0001``), and family-first order written by the notes' author.
"""

from __future__ import annotations

import re
import unicodedata

from citekit.core.model import Person
from citekit.core.lazyre import lazy

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "dos", "das", "ter", "ten", "zu", "y"}
_NICKNAME_RE = lazy(r"\s*[\"“”'‘’(][^\"“”'‘’()]+[\"“”'‘’)]\s*")
_DBLP_NUMBER_RE = lazy(r"\s+\d{4}$")

# Family names common enough that a two-token name starting with one, followed by a token
# that is not itself one, is read family-first ("Hu Yiwen", "Tanaka Tsunehiko").
_EAST_ASIAN_FAMILY = {
    "wang", "li", "zhang", "liu", "chen", "yang", "huang", "zhao", "wu", "zhou", "xu", "sun", "ma", "zhu",
    "hu", "guo", "he", "lin", "luo", "gao", "zheng", "liang", "xie", "tang", "song", "xu", "han", "feng",
    "deng", "cao", "peng", "zeng", "xiao", "tian", "dong", "pan", "yuan", "cai", "jiang", "yu", "du", "ye",
    "cheng", "wei", "su", "lu", "ding", "ren", "shen", "yao", "jin", "qiu", "fu", "qi", "fan", "liew",
    "kim", "lee", "park", "choi", "jung", "kang", "cho", "yoon", "jang", "lim", "shin",
    "tanaka", "suzuki", "takahashi", "watanabe", "ito", "yamamoto", "nakamura", "kobayashi", "sato",
    "kato", "yoshida", "yamada", "sasaki", "matsumoto", "inoue", "kimura", "hayashi", "shimizu",
    "matsunaga", "nitanda", "takezawa", "izawa", "minegishi", "naganuma", "oi",
}
# Of those, the ones English also writes as a word ("he", "song", "park"): only the others are
# surely a name when a lower-case citation writes them ("liu et al 2019").
_FAMILY_ALSO_WORDS = {
    "he", "ma", "song", "sun", "fan", "pan", "park", "shin", "lee", "tang", "ding", "jin", "han", "oi", "su",
    "lu", "ye", "yu", "cho", "du", "qi", "ren", "kang", "lim", "jang", "ito", "wei", "lin", "dong", "cao",
    "yang", "jung", "kim", "fu", "gao", "xu",
}


def is_family_name_not_word(word: str) -> bool:
    """Whether ``word`` (any case) is a common family name English never writes as a word
    (``liu``, ``zhang``, ``tanaka``): a word list fitted on titles may hold it because a
    title quoted it in lower case, yet in a citation it is the name."""
    low = word.lower()
    return low in _EAST_ASIAN_FAMILY and low not in _FAMILY_ALSO_WORDS


# Slavic family-name endings: "Khrushchev Mikhail" is Mikhail Khrushchev.
_SLAVIC_FAMILY_RE = lazy(r"(?:ov|ev|ova|eva|in|ina|sky|ski|skiy|skaya|enko|uk|yuk|vich)$", re.I)
_SLAVIC_GIVEN = {
    "mikhail", "ivan", "egor", "dmitry", "dmitrii", "alexander", "aleksandr", "sergey", "sergei", "andrey",
    "andrei", "nikita", "pavel", "roman", "oleg", "anton", "maxim", "artem", "eduard", "vladimir", "yury",
    "anastasia", "anastasiia", "elena", "olga", "maria", "natalia", "ekaterina", "daria", "alexey", "aleksei",
}


#: how a BibTeX name list says it is incomplete (`` and others``; "et al." as typed in notes)
ET_AL_NAMES = frozenset({"others", "{others}", "et al.", "et al"})


def is_et_al(name: str) -> bool:
    """Whether one name of a BibTeX list is the `` and others`` that marks the list
    incomplete: no person, so never listed as an author (BibTeX keeps it as written)."""
    return name.strip().lower() in ET_AL_NAMES


#: what separates words in a BibTeX name list (a tie ``~`` and other Unicode spaces do not)
_LIST_SPACE = " \r\n\t"


def split_bibtex_names(value: str) -> list[str]:
    """The names of a BibTeX ``author``/``editor`` value, as bibtexparser's
    ``split_multiple_persons_names`` gives them (keys and same-work matching used to call
    it; importing bibtexparser for this cost more start-up than some commands' work).

    An ``and`` between runs of space, tab or line break, outside braces, separates two
    names; each name is cut where the space before its ``and`` began (more spaces after
    the ``and`` are skipped); a backslash takes the next character with it, unseen. The
    tests compare this with bibtexparser on every name list beside the repository and on
    generated ones, quirks included (``A \\x and B`` splits before ``\\x``).
    """
    value = value.strip(_LIST_SPACE)
    if not value:
        return []
    # state: 0 in a word, 1 after space, 2 after " a", 3 after " an", 4 after " and",
    # 5 after " and " (the next word starts the next name)
    names: list[str] = []
    start = cut = 0
    state = depth = 0
    i, n = 0, len(value)
    while i < n:
        char = value[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            if state == 5:
                names.append(value[start:cut])
                start = i
            depth += 1
            state = 0
        elif char == "}":
            depth = depth - 1 if depth else 0
            state = 0
        elif depth:
            state = 0
        elif char in _LIST_SPACE:
            if state == 0 or state == 2 or state == 3:
                state, cut = 1, i
            elif state == 4:
                state = 5
        elif state == 5:
            names.append(value[start:cut])
            start, state = i, 0
        elif (state == 1 and char in "aA") or (state == 2 and char in "nN") or (state == 3 and char in "dD"):
            state += 1
        else:
            state = 0
        i += 1
    names.append(value[start:])
    return names


def _strip(name: str) -> str:
    name = _NICKNAME_RE.sub(" ", name)
    name = _DBLP_NUMBER_RE.sub("", name.strip())
    return re.sub(r"\s+", " ", name).strip()


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()


def looks_family_first(tokens: list[str]) -> bool:
    """Guess whether a two-token name was written family name first.

    Only two-token names are considered, and only when the evidence is one-sided: a
    Slavic family-name ending followed by a known given name, or a common East Asian
    family name followed by a token that is not one. Everything else stays as written.
    """
    if len(tokens) != 2:
        return False
    first, second = (_fold(t) for t in tokens)
    if _SLAVIC_FAMILY_RE.search(first) and second in _SLAVIC_GIVEN and first not in _SLAVIC_GIVEN:
        return True
    if first in _EAST_ASIAN_FAMILY and second not in _EAST_ASIAN_FAMILY and "-" not in second:
        # "Hu Yiwen": a one-syllable family name then a given name. Western given names
        # ("Li Shen" is ambiguous: both are family names) are left alone.
        return len(second) >= 4 and first not in {"lee", "kim", "park", "he", "ma", "su", "lin", "ye", "oi"}
    return False


def parse_name(raw: str, *, family_first: bool | None = None) -> Person:
    """Split one name string into a :class:`Person`.

    ``family_first`` forces the order (a source that knows, like a ``Family, Given``
    string); ``None`` means "Given Family" unless :func:`looks_family_first` is sure.
    """
    raw = raw.strip()
    if "," in raw:
        parts = _top_level_commas(raw)
        family, given = _strip(parts[0]), _strip(", ".join(parts[1:]))
        jr = ""
        if len(parts) == 3:  # BibTeX's "von Family, Jr, Given"
            jr, given = _strip(parts[1]), _strip(parts[2])
        von, family = _split_von(family)
        return Person(raw=raw, given=given, family=family, von=von, jr=jr)
    name = _strip(raw)
    tokens = name.split(" ")
    if len(tokens) == 1:
        return Person(raw=raw, family=tokens[0])
    if family_first is None:
        family_first = looks_family_first(tokens)
    if family_first:
        return Person(raw=raw, family=tokens[0], given=" ".join(tokens[1:]))
    # Particles start the family name: "Boris van Breugel".
    for i, tok in enumerate(tokens[1:-1], start=1):
        if tok.lower() in _PARTICLES and tok[0].islower():
            return Person(raw=raw, given=" ".join(tokens[:i]), von=" ".join(tokens[i:-1]), family=tokens[-1])
    return Person(raw=raw, given=" ".join(tokens[:-1]), family=tokens[-1])


def _top_level_commas(raw: str) -> list[str]:
    """``raw`` split at the commas outside braces (a braced ``{Smith, Jones}`` is one part)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(raw):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            parts.append(raw[start:i])
            start = i + 1
    return parts + [raw[start:]]


def _split_von(family: str) -> tuple[str, str]:
    tokens = family.split(" ")
    i = 0
    while i < len(tokens) - 1 and tokens[i].lower() in _PARTICLES and tokens[i][:1].islower():
        i += 1
    return " ".join(tokens[:i]), " ".join(tokens[i:])


def family_key(person: Person) -> str:
    """Accent-, case- and punctuation-free family name, for matching."""
    return re.sub(r"[^a-z]", "", _fold(person.family or person.raw.split(" ")[-1]))


def name_tokens(raw: str) -> set[str]:
    """All folded tokens of a name: matching that does not depend on which one is the family."""
    return {t for t in re.split(r"[^a-z]+", _fold(_strip(raw))) if len(t) > 1}


def name_initials(raw: str) -> set[str]:
    """The one-letter words of a name (``B. M. Boyd`` → ``{b, m}``): initials, which
    :func:`name_tokens` leaves out because they can neither confirm nor refute a family name."""
    return {t for t in re.split(r"[^a-z]+", _fold(_strip(raw))) if len(t) == 1}
