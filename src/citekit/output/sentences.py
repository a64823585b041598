"""From a paper's own record to one sentence about it, in the third person.

Related work must only say what the papers say. So a paper is described by its
contribution sentence ("We propose SoftSignum, a smooth relaxation ...") with the subject
swapped for its citation ("\\citet{key} propose SoftSignum, a smooth relaxation ..."); the
rest of the sentence is kept word for word. Nothing here invents content: when no sentence
fits, callers fall back to the title.

The functions work on the raw abstract (LaTeX math included); escaping for the target
format happens later, on the finished pieces.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: contribution verbs, best first: a "we propose" sentence beats a "we show" one
VERB_PRIORITY: dict[str, int] = {
    "propose": 0, "introduce": 0, "present": 0,
    "develop": 1, "design": 1, "formulate": 1, "devise": 1,
    "study": 2, "investigate": 2, "analyze": 2, "analyse": 2, "examine": 2, "explore": 2, "revisit": 2,
    "characterize": 2, "consider": 2,
    "show": 3, "prove": 3, "demonstrate": 3, "establish": 3, "derive": 3, "provide": 3, "identify": 3,
}
_VERBS = "|".join(sorted(VERB_PRIORITY, key=len, reverse=True))


def conjugate(verb: str, plural: bool) -> str:
    """Verb form agreeing with the cited authors: "Huang et al. propose", "Smith proposes"."""
    if plural:
        return verb
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    return verb + "s"


_THIRD = {conjugate(v, False): v for v in VERB_PRIORITY}
_VERBS3 = "|".join(sorted(_THIRD, key=len, reverse=True))
_ADVERB = r"(?:(?:also|further|then|first|additionally|here|instead|now|therefore|thus|finally|formally)\s+)?"
# Openers that only link the sentence to the previous one; dropping them loses nothing.
_LEAD = (
    r"(?:(?:"
    r"(?:In|Within)\s+(?:this|the\s+present|our)\s+(?:paper|work|article|study|note|manuscript)"
    r"|Here|To\s+(?:this\s+end|address|fill|bridge|close|tackle|overcome|solve|remedy|resolve|mitigate)[^,.;]{0,60}"
    r"|(?:Building|Based)\s+on\s+[^,.;]{1,80}"
    r"|In\s+(?:particular|addition|contrast|response)|(?:Motivated|Inspired)\s+by\s+[^,.;]{1,80}"
    r"|Therefore|Thus|Hence|Consequently|However|Moreover|Furthermore|Additionally|Specifically|Finally|"
    r"Instead|Concretely|Accordingly|Overall|Technically|Theoretically|Empirically"
    r")\s*,?\s*)*"
)
_WE = re.compile(rf"^{_LEAD}[Ww]e\s+(?P<adv>{_ADVERB})(?P<verb>{_VERBS})\b(?P<rest>.*)$", re.S)
_THIS = re.compile(
    rf"^{_LEAD}[Tt]his\s+(?:paper|work|article|study|note|manuscript)\s+(?P<adv>{_ADVERB})"
    rf"(?P<verb3>{_VERBS3})\b(?P<rest>.*)$", re.S)
_SUMMARY_VERB = re.compile(rf"^(?P<adv>{_ADVERB})(?P<verb3>{_VERBS3})\b(?P<rest>.*)$", re.I | re.S)

_ABBREVIATIONS = {"e.g", "i.e", "et al", "vs", "cf", "fig", "eq", "sec", "resp", "approx", "etc", "no", "al"}
_MATH = re.compile(r"(?<!\\)\$\$?.*?(?<!\\)\$\$?", re.S)
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z(\\$\"'\[*0-9])")


@dataclass(frozen=True)
class Contribution:
    """A contribution sentence read as ``<subject> <verb> <rest>``."""

    sentence: str  # the sentence as written in the abstract
    verb: str  # base form, lower case ("propose")
    adverb: str  # "also " or ""
    rest: str  # everything after the verb, first person already turned into third
    priority: int


def _base(m: re.Match[str]) -> str:
    """Base form of the matched verb, whichever group matched it."""
    groups = m.groupdict()
    if groups.get("verb"):
        return groups["verb"].lower()
    return _THIRD[groups["verb3"].lower()]


def split_sentences(text: str) -> list[str]:
    """Sentences of an abstract; math, decimals and abbreviations do not end one."""
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    masked = _MATH.sub(lambda m: "x" * len(m.group(0)), text)
    sentences, start = [], 0
    for m in _BOUNDARY.finditer(masked):
        before = masked[start:m.start()].rstrip(".!?\"')]")
        last_word = re.split(r"\s+", before)[-1].lower() if before else ""
        two_words = " ".join(re.split(r"\s+", before)[-2:]).lower()
        if last_word in _ABBREVIATIONS or two_words in _ABBREVIATIONS or len(last_word) == 1:
            continue
        sentences.append(text[start:m.start()].strip())
        start = m.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def to_third_person(text: str) -> str:
    """First-person plural to third person: "our method" -> "their method", "we" -> "they"."""
    text = re.sub(r"\bin\s+this\s+(?:paper|work|article|study|note)\b\s*,?\s*", "", text)
    swaps = {"we": "they", "We": "They", "our": "their", "Our": "Their", "ours": "theirs", "us": "them",
             "ourselves": "themselves"}
    return re.sub(r"\b(we|We|our|Our|ours|us|ourselves)\b", lambda m: swaps[m.group(1)], text)


def _clean(sentence: str) -> str:
    """Drop Markdown emphasis some abstracts carry (``**DDSVM**``) and tidy spaces."""
    sentence = re.sub(r"\*\*(.+?)\*\*", r"\1", sentence)
    sentence = re.sub(r"(?<!\w)__(.+?)__(?!\w)", r"\1", sentence)
    return re.sub(r"\s+", " ", sentence).strip()


def contribution(abstract: str) -> Contribution | None:
    """The sentence that states the paper's contribution, or None when there is none.

    "We propose/introduce/present" wins over "we develop", then "we study/analyze", then
    "we show/prove"; among equals the earliest sentence wins.
    """
    best: Contribution | None = None
    for sentence in split_sentences(abstract):
        sentence = _clean(sentence)
        m = _WE.match(sentence) or _THIS.match(sentence)
        if not m:
            continue
        verb = _base(m)
        rest = m.group("rest").rstrip()
        if len(rest.split()) < 3:
            continue
        found = Contribution(sentence=sentence, verb=verb, adverb=m.group("adv").lower(),
                             rest=to_third_person(rest), priority=VERB_PRIORITY[verb])
        if best is None or found.priority < best.priority:
            best = found
    return best


def trim(rest: str, max_words: int = 45) -> str:
    """Shorten an overlong clause at a natural break, never mid-phrase.

    Only cuts before a trailing relative/participle clause, so what is kept is still
    exactly what the abstract says.
    """
    rest = rest.rstrip().rstrip(".")
    if len(rest.split()) <= max_words:
        return rest
    for m in re.finditer(r",\s+(?:which|where|while|thereby|enabling|allowing|leading|and\s+(?:they|then))\b|;\s", rest):
        if 8 <= len(rest[:m.start()].split()) <= max_words:
            cut = rest[:m.start()]
            if _MATH.sub("", cut).count("$") == 0:
                return cut
    return rest


def summary_verb(summary: str) -> tuple[str, str, str] | None:
    """``(adverb, verb, rest)`` when a summary starts with a contribution verb ("Proposes X")."""
    m = _SUMMARY_VERB.match(summary.strip())
    if not m:
        return None
    return m.group("adv").lower(), _base(m), m.group("rest").rstrip()


_CJK_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH KATAKANA")


def is_english(text: str) -> bool:
    """Whether a summary can go into an English paragraph (mostly Latin letters).

    The bundled notes summarise in Japanese with English technical terms; such a summary
    would break an English paragraph, so it is skipped rather than translated.
    """
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    if any(unicodedata.name(c, "").startswith(_CJK_SCRIPTS) for c in letters):
        return False
    latin = sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    return latin / len(letters) >= 0.9
