"""How close two papers are in what they do, read from the phrases of their records.

A reader groups papers by the problem, method or artifact they share ("bimanual target
selection", "percussion sound diagnosis", "large displays"), never by the section's own
topic: under a ``display`` tag every paper is about displays, so "displays" says nothing about
which papers belong together. Each paper is read as its content words and the pairs of
adjacent content words (a root each, :func:`.related_topics.term_root`, so "gestural" and "gestures", "diagnosis"
and "diagnostic" meet), weighted by
how rare they are in the selection. Words of the section (the tag's own words and words most
of its papers use), and words that name no theme alone ("system", "devices"), weigh nothing,
nor do phrases made only of them ("mobile devices" under ``mobile``). Terms only one paper uses
cannot link two papers, so they dilute the others only a little.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from citekit.core.text import fold
from citekit.output.related_topics import _BREAK, FUNCTION_WORDS, GENERIC, WEAK_ALONE, _plain, of_section
from citekit.output.related_topics import term_root as root

__all__ = ["of_section", "section_of", "terms", "closeness"]

#: words that say how an abstract argues, not what the paper is about
_TALK = frozenset(
    "we our paper investigate investigates investigated investigation examine examines examined explore "
    "explored exploring therefore however thus furthermore moreover solution solutions task tasks conduct "
    "conducted experiment experiments experimental found find finds suggest suggests indicate indicates "
    "result resulting significant significantly measure measured compare compared comparison demonstrated "
    "describes described discuss discussed focus focuses paper also well first finally addition additionally "
    "approach propose present presents introduce novel new based within without user users participant "
    "participants people system systems built build builds".split())
#: size words that do say what a paper is about inside a phrase ("large displays", "small screens")
_KEEP = frozenset("large small high low technique techniques".split())
STOP = (FUNCTION_WORDS | GENERIC | _TALK) - _KEEP
#: word stems that name no theme alone (a topic sentence's rule), as :func:`.related_topics.term_root` writes them
_WEAK = frozenset(w for w in WEAK_ALONE | {"use", "time", "way", "real"})
#: combining forms a word is written with, closed up, in front of a word it is a kind of: "ferromagnetic"
#: sensing is magnetic sensing, "piezoelectric" is electric
COMBINING = ("electro", "ferro", "hydro", "magneto", "micro", "opto", "photo", "piezo", "thermo", "vibro")
#: the fewest letters the word after a combining form needs to count as that word too ("microphone" is no phone,
#: "photograph" no graph)
COMBINED_MIN = 6




def terms(text: str) -> Counter[tuple[str, ...]]:
    """The content words of ``text`` and the pairs of adjacent ones, as stems, with their counts; a compound
    ("vibro-tactile") also as the one word it is written as elsewhere ("vibrotactile").

    A pair is never read across punctuation or a word of :data:`STOP`.
    """
    out: Counter[tuple[str, ...]] = Counter()
    for chunk in _BREAK.split(_plain(text)):
        for compound in re.findall(r"[A-Za-z]{3,}(?:-[A-Za-z]+)+", chunk):
            # ("vibro-tactile" is "vibrotactile", "multi-touch" "multitouch": one word written two ways)
            joined = fold(compound.replace("-", "")).lower()
            if joined not in STOP:
                out[(root(joined),)] += 1
        prev = None
        for raw in re.findall(r"[A-Za-z0-9]+", chunk):  # (a compound, "AR-based", "air-jet", as its words)
            low = fold(raw).lower()
            if low in STOP or low.isdigit() or (len(low) < 3 and not re.search(r"\d", low) and not raw.isupper()):
                # (two letters say something only as an acronym: "AR", "VR", "3D")
                prev = None
                continue
            word = root(low)
            out[(word,)] += 1
            kind = _after_combining(low)
            if kind:
                out[(kind,)] += 1  # ("ferromagnetic" sensing beside "magnetic" field: both magnetic)
            if prev:
                out[(prev, word)] += 1
            prev = word
    return out


def writes_phrase(first: str, last: str, text: str, between: int = 2) -> bool:
    """Whether ``text`` writes the word ``first`` (a root, or a closed-up combining form in front of it) and then
    ``last`` (a root) in one phrase: at most ``between`` content words apart, with no punctuation or word of
    :data:`STOP` between ("mobile thumb input" writes "mobile ... input"; "a robot that takes speech" does not
    write "robotic speech"). What an "<adjective> <topic>" heading needs a paper to say."""
    for chunk in _BREAK.split(_plain(text)):
        since = None  # (content words read since the last ``first``)
        for raw in re.findall(r"[A-Za-z0-9]+", chunk):
            low = fold(raw).lower()
            if low in STOP:
                since = None
                continue
            word = root(low)
            if since is not None and word == last:
                return True
            if word == first or _after_combining(low) == first:
                since = 0
            elif since is not None:
                since = since + 1 if since < between else None
    return False


def _after_combining(word: str) -> str:
    """The root of the word a closed-up combining form is written in front of ("ferromagnetic" -> that of
    "magnetic"), or "" when ``word`` has none or what follows is short (:data:`COMBINED_MIN`)."""
    for form in COMBINING:
        if word.startswith(form) and len(word) - len(form) >= COMBINED_MIN:
            return root(word[len(form):])
    return ""


#: a sentence in which the authors say what they did: "We present ...", "In this paper ..."
_CLAIM = re.compile(r"\b(?:we|this (?:paper|work|article|study|video|note)|in this (?:paper|work|article|study|video))\b"
                    r"[^.]*?\b(?:present|propose|describe|introduce|develop|design|build|report|examine|investigate"
                    r"|explore|study|evaluate|compare|contribute|demonstrate|show)"
                    r"|\b(?:present|propos|describ|report)ed (?:in|by) this (?:paper|work|article|study)\b", re.I)
#: a sentence about what the authors did before ("In our previous work, we developed ..."): background, no claim
_EARLIER = re.compile(r"\b(?:previous|prior|earlier|past) (?:work|study|studies|paper|research)\b", re.I)


def claim(text: str) -> str:
    """The title and the sentence of the abstract that says what the paper does (the first "we present ...", "in
    this paper ...", "the research presented in this paper ...", not one about the authors' previous work; else the
    title alone): what a reader groups a paper by. A word an abstract writes only about
    the setting ("... estimated from magnetic resonance imaging data, scientists need ...") is not what the paper
    does. ``text`` is :func:`.related_groups.entry_text`'s: title, title, abstract."""
    parts = text.split(" . ", 2)
    title, body = parts[0], parts[2] if len(parts) > 2 else ""
    said = next((s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", body) if _CLAIM.search(s) and not _EARLIER.search(s)),
                "")
    return f"{title} . {said}" if said else title


def in_abstract(text: str) -> set[tuple[str, ...]]:
    """The terms of a record's abstract (and summary), its title left out: a title word the abstract never
    writes ("Move to Get Moved: A Search for Methods ...") may be a figure of speech, not what the paper does.
    ``text`` is :func:`.related_groups.entry_text`'s."""
    parts = text.split(" . ", 2)
    return set(terms(parts[2])) if len(parts) > 2 else set()


def section_of(texts: list[str], topic: list[str]) -> set[str]:
    """Roots (:func:`.related_topics.term_root`) of the section's own words: the tag's words, and from five papers up (in a
    smaller selection a shared word may still be a group's own) the words more than half its papers
    write as a topic of their own: a noun a phrase of their records can be (:func:`.related_topics.phrases`:
    "displays", "gestures"), never an adjective or a part of a compound ("social" in "social interaction",
    "digital" in "digital fabrication", "gesture" in "gesture-based" name a group). The one definition
    grouping, headings and topic sentences use."""
    from citekit.output.related_topics import phrases

    n = len(texts)
    out = {root(fold(w).lower()) for t in topic for w in re.split(r"[-_\s]+", t) if w}
    if n >= 5:
        df = Counter(w for t in texts for w in {root(k[0]) for k in phrases(t) if len(k) == 1})
        out |= {w for w, c in df.items() if c * 2 > n}
    return out


#: how much more a term of the paper's title counts than one of its abstract only
TITLE = 2.0
#: how much a term only one paper uses counts in that paper's length: little, so a long abstract is not far
#: from everything, but some, so one shared word is not all a short record has
ALONE = 0.35


def closeness(texts: list[str], topic: list[str]):  # noqa: ANN201  (a square numpy array, and term sets)
    """Cosine of the papers' weighted terms: how much of what each says the other also says; and each
    paper's terms that count and that another paper also uses (what it can share with a group).

    A term weighs its rarity (idf), a pair of words half again as much as one; the section's own
    words and words that name nothing alone weigh nothing; a term one paper uses weighs :data:`ALONE` of
    its idf, only in that paper's length.
    """
    import numpy as np

    per_paper = [terms(t) for t in texts]
    # (a title says what the paper is about: its terms count double; each text starts with its title)
    in_title = [set(terms(t.split(" . ", 1)[0])) for t in texts]
    n = len(per_paper)
    df = Counter(k for p in per_paper for k in p)
    section = section_of(texts, topic)
    weak = {root(w) for w in _WEAK}
    keys = sorted(k for k in df if not all(w in section or w in weak for w in k))
    if not keys or n < 2:
        return np.eye(n), [set() for _ in texts]
    index = {k: j for j, k in enumerate(keys)}
    weight = np.array([math.log((n + 1) / df[k]) * (1.5 if len(k) > 1 else 1.0) * (1.0 if df[k] >= 2 else ALONE)
                       for k in keys])
    matrix = np.zeros((n, len(keys)))
    for i, p in enumerate(per_paper):
        for k, c in p.items():
            if k in index:
                matrix[i, index[k]] = (1 + math.log(c)) * (TITLE if k in in_title[i] else 1.0)
    matrix *= weight
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix = matrix / np.where(norms > 0, norms, 1)
    sim = matrix @ matrix.T
    # one shared word is thin evidence ("sensitive" in "touch-sensitive" and "pressure-sensitive"): a pair
    # that shares a single term counts half
    shared = (matrix > 0).astype(float) @ (matrix > 0).astype(float).T
    sim = sim * np.minimum(1.0, shared / 2)
    np.fill_diagonal(sim, 1.0)
    return sim, [{k for k in p if k in index and df[k] >= 2} for p in per_paper]


#: the fewest letters an acronym no record defines needs before a phrase whose initials spell it is taken for its long
#: form ("SAM" and "Sharpness-Aware Minimization"); two letters ("AR", "ZO") match too many phrases by chance
SPELLED_MIN = 3


def long_forms(texts: list[str]) -> dict[str, str]:
    """What the selection's acronyms stand for: the long form a record defines ("sharpness-aware minimization (SAM)",
    :func:`.standalone.definitions`), else, for an acronym of :data:`SPELLED_MIN` letters or more that no record
    defines, the one name a title writes whose initials spell it exactly ("Adaptive Sharpness-Aware Minimization with
    ..." beside "Understanding SAM through ..."; see :func:`_spelling`). An acronym two records define differently,
    or whose initials two names spell, stands for nothing certain and is left out; so is one every reader knows
    (:data:`.standalone.WELL_KNOWN`: "LLM", "GPU"), which names the setting many papers share, not what one does
    (joining "LLM quantization" to "pre-trained large language models" drew a paragraph on large language models out
    of six quantization papers). ``texts`` are :func:`.related_groups.entry_text`'s: each opens with its title."""
    from citekit.output.standalone import WELL_KNOWN, definitions, is_acronym

    defined: dict[str, set[str]] = {}
    for text in texts:
        for acronym, long in definitions(text).items():
            if _singular(acronym) not in WELL_KNOWN:
                defined.setdefault(acronym, set()).add(_said(long))
    out = {a: next(iter(forms)) for a, forms in defined.items() if len(forms) == 1}
    used = {_singular(t) for text in texts
            for t in re.findall(r"(?<![\w\-])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w])", text) if is_acronym(t)}
    for acronym in sorted(used - {_singular(a) for a in defined} - WELL_KNOWN):
        letters = acronym.lower()
        if len(letters) < SPELLED_MIN or not letters.isalpha():
            continue
        found = {_said(p) for text in texts for p in _spelling(text.split(" . ", 1)[0], letters)}
        if len(found) == 1:
            out[acronym] = found.pop()
    return out


def _singular(acronym: str) -> str:
    """"APIs" is "API"."""
    return acronym[:-1] if acronym.endswith("s") and acronym[:-1].isupper() and len(acronym) > 2 else acronym


def _said(phrase: str) -> str:
    """A long form as one spelling: lower case, one space ("Sharpness-Aware  Minimization" is "sharpness-aware
    minimization")."""
    return " ".join(phrase.split()).lower()


def _spelling(title: str, letters: str) -> list[str]:
    """The names in a title whose initials (each part of a hyphenated word counts) are exactly ``letters``: runs of
    capitalized words that end where the title's name ends (at its end, a colon or comma, or a function word:
    "Sharpness-Aware Minimization with ..."), never a run cut inside a longer one ("Empirical Studies Comparing
    Static Checkers" spells no "ESC")."""
    words = re.findall(r"[A-Za-z][A-Za-z\-]*[A-Za-z]|[A-Za-z]|[:;,.?!()]", title)
    found = []
    for i in range(len(words)):
        initials = ""
        for j in range(i, len(words)):
            if not words[j][:1].isupper() or words[j].lower() in FUNCTION_WORDS:
                break
            initials += "".join(p[0] for p in words[j].split("-") if p).lower()
            if not letters.startswith(initials):
                break
            after = words[j + 1] if j + 1 < len(words) else ""
            if initials == letters and (not after or not after[:1].isalpha() or after.lower() in FUNCTION_WORDS):
                found.append(" ".join(words[i:j + 1]))
                break
    return found


def as_one_term(texts: list[str], forms: dict[str, str]) -> list[str]:
    """Each text with the long form of each acronym it uses said after it, once per use, as a sentence of its own
    ("Understanding SAM through ..." -> "Understanding SAM through ... . sharpness-aware minimization"), so that a
    paper that writes only the acronym and one that writes only the long form share the term: a reader takes them as
    one. The text itself is left as written, so its own phrases still name a group ("LMO-based optimizers"; written
    out in place it read "linear minimization oracle (LMO) based optimizers"); a use right after its long form
    adds nothing."""
    out = []
    for text in texts:
        added = []
        for acronym, long in sorted(forms.items(), key=lambda t: -len(t[0])):
            for m in re.finditer(rf"(?<![\w\-]){re.escape(acronym)}s?(?![\w]|-[A-Z0-9])", text):
                if not _said(text[max(0, m.start() - len(long) - 3):m.start()]).rstrip(" (").endswith(long):
                    added.append(long)
        out.append(" . ".join([text, *added]) if added and text.strip() else text)
    return out


def define_in(opener: str, forms: dict[str, str], rest: str) -> str:
    """The paragraph's opener with "(SAM)" after a long form it names when the sentences after it (``rest``) use the
    acronym: "Three papers address sharpness-aware minimization (SAM)." defines it where the reader meets it first
    (the papers grouped as one term are then written as their records write them)."""
    for acronym, long in forms.items():
        if re.search(rf"\({re.escape(acronym)}s?\)", opener) \
                or not re.search(rf"(?<![\w\-]){re.escape(acronym)}s?(?![\w]|-[A-Z0-9])", rest):
            continue
        m = re.search(r"\b" + r"\s+".join(map(re.escape, long.split())) + r"\b", opener, re.I)
        if m:
            opener = f"{opener[:m.end()]} ({acronym}){opener[m.end():]}"
    return opener


#: what a sentence cites or links: a natbib or biblatex command with its keys, a pandoc citation, a Markdown link
#: ("[Title](url)", ``--links``), a URL; never rewritten
_CITATION = re.compile(r"\\[A-Za-z]*cite[A-Za-z]*\*?(?:\[[^\]]*\])*\{[^}]*\}|\[@[^\]]*\]|@[\w:.\-+/]*\w"
                       r"|\[[^\]]*\]\([^)]*\)|\\(?:url|href)\{[^}]*\}|https?://\S+")


def define_first(sentences: list[str], forms: dict[str, str]) -> list[str]:
    """A paragraph's sentences with each acronym of ``forms`` defined where the reader meets it first: "(SAM)"
    after the long form when a sentence writes the long form before any writes the acronym, else the long form
    before the first use ("SAM" -> "sharpness-aware minimization (SAM)", "an LMO-based method" -> "a linear
    minimization oracle (LMO)-based method"), or after it where it ends a name ("Ideogramic UML (unified
    modeling language)"). A paragraph with no opener has no sentence of its own to define a
    term in, and a reader flags an acronym a paragraph never spells out. One already written with its long form,
    used by no sentence, or a name rather than an acronym ("LiMuon", :func:`.standalone.is_acronym`) is left as it
    is; citation keys are never touched."""
    from citekit.output.standalone import is_acronym

    out = list(sentences)
    for acronym, long in sorted(forms.items(), key=lambda t: -len(t[0])):
        if not is_acronym(acronym) or not long.strip():
            continue
        used = re.compile(rf"(?:\b(?P<article>[Aa]n?) |(?<![\w\-])(?P<name>[A-Z][\w\-]*) )?(?<![\w\-]){re.escape(acronym)}s?(?![\w]|-[A-Z0-9])")
        spelled = re.compile(r"(?<![\w\-])" + r"[\s\-]+".join(map(re.escape, re.split(r"[\s\-]+", long.strip())))
                             + r"(?![\w\-])", re.I)
        for i, sentence in enumerate(out):
            prose = " ".join(_CITATION.split(sentence))  # (the text between citations, which alone is prose)
            if re.search(rf"\({re.escape(acronym)}s?\)", prose):
                break  # (defined already, as the record wrote it)
            first_long, first_used = spelled.search(prose), used.search(prose)
            if not first_long and not first_used:
                continue
            if first_used and (not first_long or first_used.start() < first_long.start()):
                out[i] = _in_prose(sentence, used, lambda m: _spelled_out(m, acronym, long))
            elif any(used.search(" ".join(_CITATION.split(s))) for s in out[i:]):
                out[i] = _in_prose(sentence, spelled, lambda m: f"{m.group(0)} ({acronym})")
            break
    return out


def _spelled_out(match: re.Match[str], acronym: str, long: str) -> str:
    """The use ``match`` of ``acronym`` with its long form before it, and its article made to fit the long form
    ("an LMO" -> "a linear minimization oracle (LMO)")."""
    from citekit.output.articles import indefinite_article

    used = match.group(0)
    if match.group("name"):  # (a part of a name, "Ideogramic UML", is not split: its long form follows it)
        return f"{used} ({long})"
    if match.group("article"):
        used = used[len(match.group("article")) + 1:]
        article = indefinite_article(long)
        article = article.capitalize() if match.group("article")[0].isupper() else article
        return f"{article} {long} ({used})"
    return f"{long} ({used})"


def _in_prose(sentence: str, pattern: re.Pattern[str], how) -> str:  # noqa: ANN001
    """``sentence`` with the first match of ``pattern`` outside its citations replaced by ``how(match)``."""
    pieces = re.split(f"({_CITATION.pattern})", sentence)
    for n, piece in enumerate(pieces):
        if n % 2 == 0 and pattern.search(piece):
            pieces[n] = pattern.sub(how, piece, count=1)
            break
    return "".join(pieces)
