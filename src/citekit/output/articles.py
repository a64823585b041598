""""a" or "an" before a word, by how the word is said: one rule for every sentence citekit writes.

A title clause ("an interactive system"), a clause cut short ("a novel approach" -> "an
approach") and a sentence whose praise is taken out ("a novel interaction technique" -> "an
interaction technique") all choose the article again; three rules that each knew a part of
English said "a analysis", "an UML model" or "a LLM" depending on which one wrote the sentence.
The sound decides, not the letter: an acronym said letter by letter takes "an" before a letter
whose name opens with a vowel ("an LLM", "an SQL query", "a UML model"); a word with a vowel
letter said as "you" or "w" takes "a" ("a user", "a unified", "a one-shot"); a silent "h" takes
"an" ("an hour").
"""

from __future__ import annotations

import re

#: letters whose names open with a vowel sound: "an F", "an LLM", "an X-ray"
_VOWEL_LETTER_NAMES = frozenset("AEFHILMNORSX")
#: a word said letter by letter: two capitals ("LLM", "GPU"), or one capital alone or before a digit or a mark
_SPELLED = re.compile(r"[A-Z](?:[A-Z]|[\d\W_]|$)")
#: numbers said with a vowel first: "an 8-bit", "an 11-layer", "an 18th-century"
_VOWEL_NUMBER = re.compile(r"(?:8|11|18)(?!\d)")
#: a vowel letter said as a consonant ("a user", "a unique", "a one-time", "a European", "a ubiquitous")
_CONSONANT_VOWEL = re.compile(r"(?:one\b|once|uni|use|usu|usa|uti|ubi|ura|ure|uro|eu|ewe)")
#: a silent "h": "an hour", "an honest"
_SILENT_H = re.compile(r"(?:hour|honest|honou?r|heir)")


def indefinite_article(word: str) -> str:
    """"a" or "an" for the word that follows the article (marks before it, "{", "$", a quote, are skipped)."""
    word = re.sub(r"(?<=\w)[{}]+", "", word.lstrip("{$\\(\"'“‘`"))  # "({H}ow)": braces inside a word are case marks
    if not word:
        return "a"
    if _SPELLED.match(word):
        return "an" if word[0] in _VOWEL_LETTER_NAMES else "a"
    if word[0].isdigit():
        return "an" if _VOWEL_NUMBER.match(word) else "a"
    low = word.lower()
    if _SILENT_H.match(low):
        return "an"
    if low[0] in "aeiou" and not _CONSONANT_VOWEL.match(low):
        return "an"
    return "a"


def with_article(phrase: str) -> str:
    """``phrase`` after its indefinite article: "an interactive system", "a user study"."""
    return f"{indefinite_article(phrase)} {phrase}"
