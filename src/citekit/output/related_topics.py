"""What a paragraph's papers have in common, said only with words from their records.

A reader names a group of papers by the problem or method they share ("tangible 3D
modeling", "virtual volunteering"), not by words that happen to recur ("abstract",
"modeling: modeling"). Here the candidate names are the phrases of the papers' own titles
and abstracts (runs of one to three content words, never cut across punctuation or a
function word), scored by how many of the group's papers use them and how rare they are in
the whole selection. The same phrases give each paragraph its topic sentence ("Four systems
address tangible 3D modeling.") and, with ``--mine``, the sentence that places the user's
paper against the group: what it shares with them and what its own abstract claims that
none of them does. When the records give nothing shared, nothing is said: no topic
sentence is better than a hollow one.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from citekit.core.text import fold, latex_to_text
from citekit.core.lazyre import lazy
from citekit.output.function_words import FUNCTION_WORDS
from citekit.output.word_roots import root

#: words that describe papers in general, or a record's own structure: they never name a theme alone
GENERIC = frozenset(
    "paper papers work works study studies studied research article articles abstract approach approaches method "
    "methods result results show shows shown present presents presented introduce introduces propose proposes "
    "proposed new novel existing prior recent recently problem problems technique "
    "techniques designed user users people participants way ways number set sets example examples "
    "case cases issue issues question questions implication implications finding findings evaluation evaluate "
    "evaluated data analysis analyses important various different several key main simple "
    "effective efficient able ability support supports provide provides enable enables allow allows help helps "
    "make makes making made create creates created describe describes described discuss discusses report reports "
    # nouns that say only that there is something, and gerunds of verbs that say nothing of a topic:
    # "Both systems address subjects", "... address interests", "... address bringing"
    "subject subjects interest interests aspect aspects factor factors purpose purposes condition conditions "
    "difference differences bringing getting taking giving doing going coming showing allowing enabling "
    "providing including following increasing reducing improving helping becoming trying looking seeing "
    "keeping putting running working technology technologies motivation motivations benefit benefits "
    "explore explores part level levels area areas field fields aspect aspects type types form forms use usage "
    "process processes order range terms term application applications context contexts future current "
    "potential possible given specific general common related available creating requires require using enabling "
    "allowing build builds including include needed need providing consists learn via toward able connects connect "
    "demonstrate demonstrates achieve achieves improve improves improved improving specifically "
    # what any abstract argues with ("present a solution to ...", "graphical tasks"): never what papers share
    "solution solutions task tasks goal goals challenge challenges everyday".split())

#: words that name no theme on their own, though they do inside a longer phrase ("3D models", "physical objects")
WEAK_ALONE = frozenset(
    "object objects model models thing things shape shapes interaction interactions building human humans computer "
    "computers time times space people person group groups world activity activities content media material "
    "materials information knowledge experience experiences system systems tool tools design designs interface "
    "interfaces device devices experiment experiments empirical theoretical benchmark benchmarks dataset datasets "
    "evidence insight insights property properties optimization optimizer optimizers learning training algorithm "
    "algorithms practice complexity neural network networks deep performance function functions framework "
    "setting settings guarantees theory update updates".split())
#: generic nouns that, after a qualifier, name who a paper is for ("blind people", "novice users")
_POPULATION = frozenset("people users participants".split())
#: a word shaped as a name: an inner capital ("DiLoCo"), a digit ("INT4") or all capitals ("SAM"); a title's
#: "Eye-Gaze" is not one
_NAME_SHAPE = re.compile(r"[a-z][A-Z]|\d|^[A-Z]{2,}")
_ADJECTIVE = lazy(r"(?:ic|al|ed|ous|ive|ar|ent|ant|ble|ful|less|wise|based|free|aware)$")
_WORD = lazy(r"[a-z0-9][a-z0-9\-']*")
_BREAK = lazy(r"[.,;:!?()\[\]{}\"“”‘’/|]|\s-\s|\s--\s|—|–")
_NUMBERS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight"}


def _stem(word: str) -> str:
    """A word as phrases are matched: "models" and "model" are one."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


#: how many letters of a word's root (:func:`.word_roots.root`) grouping compares: "diagnosis" and "diagnostic"
#: keep different roots ("diagnosi", "diagnostic") but are one term to a reader
ROOT_LETTERS = 7


def term_root(word: str) -> str:
    """A word as grouping and headings compare it: its root, cut to :data:`ROOT_LETTERS` letters."""
    return root(word)[:ROOT_LETTERS]


def of_section(word: str, section: set[str]) -> bool:
    """Whether a word (or phrase) is the section's own: every part of it, a compound's parts too, is in
    ``section`` (:func:`.related_terms.section_of`, as :func:`term_root` writes them): "wrist-worn"
    under smartwatch, where most papers say "wrist" and "worn". The one definition grouping, headings and
    topic sentences all use."""
    parts = [p for p in re.split(r"[-_\s]+", fold(word).lower()) if p]
    return bool(parts) and all(term_root(p) in section for p in parts)


def _plain(text: str) -> str:
    return latex_to_text(re.sub(r"(?<!\\)\$[^$]*\$", " . ", text or ""))


#: :data:`WEAK_ALONE` as phrase keys write them (stems)
_WEAK_STEMS = frozenset(_stem(w) for w in WEAK_ALONE)


def phrases(text: str) -> dict[tuple[str, ...], str]:
    """Phrase key (stems) -> the phrase as written, for every run of 1-3 content words of ``text``."""
    out: dict[tuple[str, ...], str] = {}
    for chunk in _BREAK.split(_plain(text)):
        words = [w.strip("'-") for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-']*", chunk)]
        run: list[str] = []
        for word in [*words, ""]:
            low = fold(word).lower()
            if word and low not in FUNCTION_WORDS and not low.isdigit():
                run.append(word)
                continue
            for size in (1, 2, 3):
                for i in range(len(run) - size + 1):
                    gram = run[i:i + size]
                    lows = [fold(g).lower() for g in gram]
                    if lows[0] in GENERIC or len("".join(lows)) < 4 or (
                            lows[-1] in GENERIC and not (size > 1 and lows[-1] in _POPULATION)):
                        continue  # ("blind people", "older users": a population is what such papers address)
                    if size == 1 and (lows[0] in WEAK_ALONE or _ADJECTIVE.search(lows[0])):
                        continue  # "physical", "objects": a heading needs what they qualify
                    key = tuple(_stem(w) for w in lows)
                    out.setdefault(key, " ".join(gram))
            run = []
    return out


def proper_names(bodies: list[str], texts: list[str], titles: list[str] | None = None) -> set[str]:
    """Words the records write as names: capitalized inside a sentence of an abstract ("Shampoo",
    "Muon", "Thingiverse") or of a title in sentence case ("a light and fast Muon optimizer"), and
    never in lower case anywhere. Title case says nothing about names."""
    lower = {w for t in texts for w in re.findall(r"\b[a-z][a-z\-]+\b", _plain(t))}
    low_count = Counter(w for t in bodies for w in re.findall(r"\b[a-z][a-z\-]+\b", _plain(t)))
    # (a word of a longer name, "the Gesture Watch", is not a name alone: only capitals not followed by another count)
    capital = Counter(m.group(1) for t in bodies
                      for m in re.finditer(r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z][\w\-]*)\b(?!\s+[A-Z])", _plain(t)))
    names = set()
    for title in titles or []:
        words = re.findall(r"[A-Za-z][\w\-]*", _plain(title))
        if sum(w[0].islower() and w.lower() not in FUNCTION_WORDS for w in words) < 2:
            continue  # a title in title case: its capitals are style, not names
        names.update(w for w in words[1:] if w[0].isupper() and w[1:].islower() and w.lower() not in lower)
    for body in bodies:
        for m in re.finditer(r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z][\w\-]*)", _plain(body)):
            if m.group(1).lower() not in lower or capital[m.group(1)] > 2 * low_count[m.group(1).lower()]:
                names.add(m.group(1))  # (written "Muon" far more often than "muon": a name all the same)
    return names


def _shown(phrase: str, names: frozenset[str] = frozenset()) -> str:
    """A phrase in sentence case: "Tangible Interaction" -> "tangible interaction"; "3D", "ToolDevice" and
    the records' own names (``names``, :attr:`Phrasebook.names`: "Shampoo") stay. The names are passed, never
    kept between calls: a selection read earlier must not change how this one is written."""
    def one(w: str) -> str:
        if "-" in w and w not in names:  # "Low-Power", "Sharpness-Aware": each part as a word of its own
            parts = w.split("-")
            return w if any(p in names for p in parts) else "-".join(one(p) for p in parts)
        return w.lower() if w[:1].isupper() and w[1:].islower() and w not in names else w

    words = phrase.split()
    out = [one(w) for w in words]
    for i in range(1, len(words)):
        # a capitalized word right after a title-case word that is lowered is title case too, not a name the
        # records write: "Hand Tracking" is "hand tracking", never "hand Tracking" ("Augmented Reality", two
        # names, stays)
        if out[i] == words[i] and words[i][:1].isupper() and words[i][1:].islower() \
                and words[i - 1][:1].isupper() and words[i - 1][1:].islower() and out[i - 1] != words[i - 1]:
            out[i] = words[i].lower()
    return " ".join(out)


def heading_case(phrase: str, names: frozenset[str] = frozenset()) -> str:
    shown = _shown(phrase, names)
    return shown[:1].upper() + shown[1:]


@dataclass
class Theme:
    """A phrase some of a group's papers share: its words, how it reads, which papers use it."""

    key: tuple[str, ...]
    text: str
    members: list[int]
    score: float
    article: str = ""  # "the" when the records say "the visually impaired": how a sentence must say it
    papers: int = 0  # how many distinct papers use it (two records of one paper count once)


class Phrasebook:
    """The phrases of every paper of a selection, and how many papers use each."""

    def __init__(self, texts: list[str], topic: list[str], bodies: list[str] | None = None,
                 titles: list[str] | None = None, section: set[str] | None = None,
                 names: frozenset[str] | None = None) -> None:
        # two records of one paper (the same title) are one paper: a phrase only they share is no theme
        first: dict[str, int] = {}
        self.paper = [first.setdefault(" ".join(re.findall(r"[a-z0-9]+", fold(t or "").lower())) or f"#{i}", i)
                      for i, t in enumerate(titles or [""] * len(texts))] if titles else list(range(len(texts)))
        #: the words these records write as names (:func:`proper_names`), for every phrase said of them
        # (``names``: the same, read already from the same records)
        self.names = names if names is not None else frozenset(proper_names(bodies or [], texts, titles))
        self.per_paper = [phrases(t) for t in texts]
        self.bodies = bodies or []
        self.df: Counter[tuple[str, ...]] = Counter(k for p in self.per_paper for k in p)
        self.n = len(texts)
        # the section's own words, as grouping reads them (``section``, :func:`.related_terms.section_of`: the
        # tag's words, and from five papers up, words more than half of them use; without it, the tag's words):
        # "Both papers address displays" under display would be true of every paper
        self.topic = set(section) if section is not None else \
            {term_root(fold(w).lower()) for t in topic for w in re.split(r"[-_\s]+", t) if w}
        written: dict[tuple[str, ...], Counter[str]] = {}
        for p in self.per_paper:
            for k, v in p.items():
                written.setdefault(k, Counter())[v] += 1
        self.written = {k: c.most_common(1)[0][0] for k, c in written.items()}
        for k, c in written.items():  # "displays" where any record writes it so: a bare singular reads as a mass noun
            # (and "mobile devices" over "mobile device": the head of a phrase too)
            plural = next((v for v in c if v[:1].islower() and v.endswith("s") and _stem(v.split()[-1].lower()) == k[-1]
                           and not v.lower().endswith(("ss", "us", "is"))), None)
            if plural and not self.written[k].lower().endswith("s") and self.written[k][:1].islower():
                self.written[k] = plural
        self.plain = [_plain(t) for t in texts]
        # what :meth:`usage` searches, for every phrase it is asked, and the same case-folded: a text without the
        # phrase's first word is not searched (the pattern, case-blind and open at its start, is slow to fail)
        self._folded = [fold(t) for t in self.plain]
        self._casefolded = [t.casefold() for t in self._folded]
        self._usage: dict[tuple[str, ...], tuple[bool, str]] = {}

    def usage(self, key: tuple[str, ...]) -> tuple[bool, str]:
        """(reads as a thing, article): how the records use a phrase, the only grammar citekit has.

        A phrase names what papers address only when the records use it as a noun phrase:
        not as a verb ("we investigate", "to investigate"), not as a modifier of a word that
        follows in most of its uses ("blind people", "motor impairments", "wrist rotation":
        the phrase is then the longer one). "the visually impaired" keeps its "the".
        """
        if key in self._usage:
            return self._usage[key]
        pattern = re.compile(r"(\w+)?[\s(]*\b" + r"[\s\-]+".join(re.escape(w) + r"[a-z]*" for w in key)
                             + r"\b(\s*[\w(]+|-\w+)?", re.I)
        before: Counter[str] = Counter()
        modifier = verb = total = head = 0
        first = key[0].casefold()
        for text, low in zip(self._folded, self._casefolded):
            if first not in low:
                continue
            for m in pattern.finditer(text):
                total += 1
                prev = (m.group(1) or "").lower()
                nxt = (m.group(2) or "").strip().lower()
                before[prev] += 1
                if nxt == "of" and prev == "the":
                    head += 1  # "the automatic generation of invariants": the phrase is only the head of a longer one
                if prev in ("we", "they", "to", "i", "us", "will", "can", "not"):
                    verb += 1
                elif nxt.startswith("-"):
                    modifier += 1  # "hands-free", "wrist-worn": the first half of a compound
                elif nxt and nxt[0].isalpha() and nxt not in FUNCTION_WORDS \
                        and (len(key) == 1 or _ADJECTIVE.search(key[-1]) and nxt not in GENERIC):
                    modifier += 1  # (a phrase of nouns followed by a verb, "blind people need", is a noun phrase)
        written = self.written.get(key, "")
        if len(key) == 1 and (written in self.names or _NAME_SHAPE.search(written)):
            modifier = 0  # a name before a noun ("INT4 weights", "Muon optimizer") still names what papers address
        if re.search(r"(?:tion|sion|ment|ness|ity|ing|ics|ism|ance|ence|ure|ogy|phy|ship)s?$", key[-1]):
            modifier = 0  # a noun by its form ("fabrication tools"): a noun before a noun still names a topic
        noun = bool(total) and verb * 2 < total and modifier * 2 < total and head * 2 < total \
            and not key[-1].endswith("ly") and not (key[0].endswith("ly") and before["the"] * 2 <= total) \
            and not (len(key) > 1 and _ADJECTIVE.search(key[-1]) and not key[-1].endswith("ed"))
        article = "the" if total and before["the"] * 2 > total else ""
        self._usage[key] = (noun, article)
        return noun, article

    def _of_section(self, word: str) -> bool:
        """Whether a word is the section's own (its tag's, or one most of its papers use), each part of a
        compound too ("wrist-worn" under smartwatch, where most papers say "wrist" and "worn")."""
        return of_section(word, self.topic)

    def _plural(self, stem: str) -> str | None:
        """The lower-case plural a record writes of ``stem`` ("gestures"), if one does and the word is a noun
        by its length (five letters or more), else None."""
        if len(stem) < 5 or stem.endswith("s"):
            return None
        plural = stem + "s"
        pattern = re.compile(r"(?<![\w\-])" + re.escape(stem) + r"s(?![\w\-])")
        # (only a text that holds the letters is searched: the pattern, opening on a look-behind, is slow to fail)
        return next((plural for text in self.plain if plural in text and pattern.search(text)), None)

    def themes(self, idx: list[int], least: int = 2) -> list[Theme]:
        """Phrases at least ``least`` of the papers ``idx`` use, best first.

        More papers first; then rarer in the selection (a word every paper of a "tangible"
        section uses says nothing about this group), longer phrases a little ahead. A phrase
        made only of the section's own topic words ("tangible" under the tag tangible) is
        skipped: it would repeat the section's heading.
        """
        counts: Counter[tuple[str, ...]] = Counter(k for i in {self.paper[i] for i in idx}
                                                   for k in set().union(*(self.per_paper[j] for j in idx
                                                                          if self.paper[j] == i)))
        out = []
        for key, c in counts.items():
            if c < least or all(w in _WEAK_STEMS or self._of_section(w) for w in key):
                continue  # ("mobile devices" under mobile: the section's word and one that names nothing alone)
            if len(idx) < self.n and self.n >= 6 and self.df[key] * 2 > self.n and c * 3 < self.df[key] * 2:
                # a phrase most of the section uses, most of them outside this group, names the section
                # ("gaze" under eye tracking), not the group; "digital fabrication" used only by the group names it
                continue
            noun, article = self.usage(key)
            written = self.written[key]
            if len(key) == 1 and not (noun and _topic_word(written, self.names)) and (plural := self._plural(key[0])):
                # ("gesture interface", "gesture input", "hand gestures"): a word the records mostly use before
                # another noun, or too short to say alone ("Gesture"), but also write as a plural noun, is a
                # topic said as that plural
                noun, written = True, plural
            if not noun:
                continue
            rarity = math.log((self.n + 1) / self.df[key]) + 0.3
            score = c * rarity * (1 + 0.35 * (len(key) - 1))
            members = [i for i in idx if key in self.per_paper[i]]
            out.append(Theme(key, written, members, score, article, c))
        out.sort(key=lambda t: (-t.papers, -t.score, t.text))
        # a phrase inside a longer one that the same papers use says less: keep the longer
        kept: list[Theme] = []
        for t in out:
            if any(set(t.members) <= set(k.members) and _inside(t.key, k.key) for k in kept):
                continue
            kept = [k for k in kept if not (set(k.members) == set(t.members) and _inside(k.key, t.key))]
            kept.append(t)
        kept.sort(key=lambda t: (-t.papers, -t.score, t.text))
        return kept


def _inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    return len(short) < len(long) and any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1))


def kind_of(texts: list[str]) -> str:
    """What all of the papers are, as their own texts say (each text the title, then the abstract):
    "systems" or "studies" only when every one is one (:func:`.related_kinds.contribution`), else "papers"."""
    from citekit.output.related_kinds import contribution, kind_of_all

    return kind_of_all([contribution(t) for t in texts])


def ranked_names(themes: list[Theme], size: int) -> list[Theme]:
    """Themes in the order they should name a group: those at least half the group (and two
    papers) use first, among them a phrase of two or three words before a single word."""
    need = max(2, math.ceil(size / 2))
    return sorted(themes, key=lambda t: (t.papers < need, len(t.key) == 1, -t.papers, -t.score, t.text))


def _said(theme: Theme, names: frozenset[str]) -> str:
    return (theme.article + " " if theme.article else "") + _shown(theme.text, names)


def _says_a_topic(theme: Theme, names: frozenset[str]) -> bool:
    """Whether a phrase can be what a topic sentence says papers address: a phrase of two or three words,
    or one word that is a name ("Shampoo", "DiLoCo") or a long noun by its form ("quantization",
    "perception"); a short word alone ("error", "subset", "machine") is too vague to say anything. Never a
    phrase whose last word is a singular agent noun ("3D printer", "music controller"): "address 3D printer"
    is not English without an article, and which one would be a claim no record makes."""
    head = theme.text.split()[-1] if theme.text.split() else ""
    if head[:1].islower() and head.endswith(("er", "or")) and len(head) > 4:
        return False
    return len(theme.key) > 1 or _topic_word(theme.text, names)


def _topic_word(word: str, names: frozenset[str] = frozenset()) -> bool:
    """One word that a topic sentence may say on its own (see :func:`_says_a_topic`); ``names`` are the records'
    (:attr:`Phrasebook.names`)."""
    if word in names or _NAME_SHAPE.search(word):
        return True
    if len(word) >= 7 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return True  # a plural reads as what papers address ("displays"); a bare singular ("wrist") does not
    return len(word) >= 8 and bool(re.search(r"(?:tion|sion|ment|ness|ity|ing|ics|ism|ance|ence|ogy|phy)s?$",
                                             word.lower()))


def topic_sentence(themes: list[Theme], size: int, kind: str,
                   names: frozenset[str] = frozenset()) -> tuple[str, Theme] | None:
    """"Four systems address tangible 3D modeling." from the phrase most of the group uses, or None.

    Only a phrase that at least half the group (and two papers) use says what the group has in
    common; a second such phrase of other words is added ("... tangible modeling and 3D printing").
    """
    need = max(2, math.ceil(size / 2))
    common = [t for t in themes if t.papers >= need and _says_a_topic(t, names)]
    if not common:
        return None
    first = ranked_names(common, size)[0]
    about = _said(first, names)  # (a second phrase joined on, "X and Y", read as one odd thing: one phrase says it)
    subject = _subject(first.papers, size, kind)
    verb = "address" if kind != "studies" else "examine"
    return f"{subject} {verb} {about}.", first


def _subject(count: int, size: int, kind: str) -> str:
    """"Four systems", "Both papers", or for a phrase only some of the paragraph's papers use, "Most of
    these papers" / "Half of these papers": a number of some of them ("Two of these systems" above three
    cited) reads as a miscount to a reader, who cannot tell which two are meant."""
    if count >= size:
        return f"Both {kind}" if size == 2 else f"{_NUMBERS.get(size, 'All these')} {kind}"
    return f"{'Most' if 2 * count > size else 'Half'} of these {kind}"


def heading_sentence(heading: str, member_texts: list[str], size: int, kind: str,
                     names: frozenset[str] = frozenset()) -> str | None:
    """"All three papers address model merging and mode connectivity." from a group's heading (a tag's
    label, the user's name for it, or a phrase of its records), or None: only when every paper of the group
    writes every word of it, so the sentence says what each record says, and never for a heading that names
    no topic ("Systems", "Studies": "Three systems address systems" says nothing)."""
    words = [_stem(w) for w in re.findall(r"[a-z0-9][\w\-]*", fold(heading).lower()) if w not in FUNCTION_WORDS]
    if not words or len(words) > 6 or (len(words) == 1 and not _topic_word(heading.strip(), names)):
        return None
    if all(w in _WEAK_STEMS or w in GENERIC for w in words):
        return None
    users = sum(all(w in {_stem(x) for x in re.findall(r"[a-z0-9][\w\-]*", fold(_plain(t)).lower())} for w in words)
                for t in member_texts)
    if users < 2 or users < size:
        return None  # ("Most of these papers address ...": which of them, and what of the rest?)
    subject = _subject(users, size, kind)
    return f"{subject} {'examine' if kind == 'studies' else 'address'} {_shown(heading, names)}."


def _first_person(text: str) -> str:
    swaps = {"they": "we", "They": "We", "their": "our", "Their": "Our", "theirs": "ours", "them": "us",
             "themselves": "ourselves"}
    return re.sub(r"\b(they|They|their|Their|theirs|them|themselves)\b", lambda m: swaps[m.group(1)], text)


def own_claim(abstract: str, title: str = "", accept=None) -> tuple[str, str] | None:  # noqa: ANN001
    """``("propose", "a tangible block kit ...")``: the user's contribution sentence, or None.

    The same reading as a cited paper's (:func:`~.sentences.contribution`), put back in the
    first person, because the related-work section speaks for the authors.
    """
    from citekit.output.sentences import contribution, trim, verb_phrase
    from citekit.output.title_prose import method_name

    found = contribution(abstract, method_name(title or ""), accept=accept)
    if not found:
        return None
    return verb_phrase(found, True), _first_person(trim(found.rest))


#: where a contribution clause goes on to a second claim ("..., and prove guarantees"): the method ends there
_SECOND_CLAIM = re.compile(r",?\s+and\s+(?:we\s+)?(?:prove|show|demonstrate|evaluate|find|report|present|propose|describe|"
                           r"give|derive|establish|analy[sz]e|validate|test|compare|discuss)\b|;")


def own_method(claim: str) -> tuple[str, str] | None:
    """``("our haptic wristwatch prototype", "makes it possible to acquire ...")``: what the user made and
    what it does, from their contribution clause ("a haptic wristwatch prototype that makes ..."), or None.

    A contrast sets the user's method against what a group does, so it needs the method as a
    subject with its own verb: "a X that VERBs ..." and "a X consisting of ..." give one; a
    clause of another shape does not, and the whole claim is said instead.
    """
    from citekit.output.title_prose import lowercase_words

    claim = _SECOND_CLAIM.split(claim, maxsplit=1)[0].strip().rstrip(".,")
    named = re.match(r"^([A-Z][\w\-]*),\s+(?=(?:a|an|the)\s)", claim)  # "Facet, a multi-display system"
    claim = claim[named.end():] if named else claim
    m = re.match(r"^(?:a|an|the|our)\s+(?P<np>[^,;()]+?)\s+(?:(?:that|which)\s+(?P<verb>[a-z][\w\-]*s)\b|"
                 r"(?P<part>[a-z][\w\-]*ing)\b)(?P<rest>.*)$", claim)
    if not m or len(m.group("np").split()) > 8 or not m.group("rest").strip():
        return None
    np = re.sub(r"^(?:new|novel)\s+", "", m.group("np"))
    if m.group("verb"):
        verb = m.group("verb")
        if verb in ("is", "was", "has") and not re.search(r"\w", m.group("rest")):
            return None
    else:
        stem = m.group("part")[:-3]
        words = lowercase_words()
        base = stem + "e" if stem + "e" in words and stem not in words else stem
        if base not in words:
            return None  # a participle citekit cannot turn into a verb it knows
        verb = base + ("es" if base.endswith(("s", "sh", "ch", "x", "z")) else "s")
    if verb.lower() in FUNCTION_WORDS - {"is"}:
        return None
    # ("our multi-display wrist worn system, Facet, consists of ...": the name the paper gives it is kept)
    return f"our {np}" + (f", {named.group(1)}," if named else ""), f"{verb}{m.group('rest')}"


def novel_in(text: str, member_texts: list[str], topic: list[str] | None = None) -> list[str]:
    """Phrases of ``text`` (the user's) that none of ``member_texts`` uses: what a contrast can rest on."""
    group_words = {w for t in member_texts for k in phrases(t) for w in k}
    section = {_stem(fold(w).lower())[:6] for t in topic or [] for w in re.split(r"[-_\s]+", t) if w}
    return [v for k, v in phrases(text).items() if not set(k) <= group_words
            and (len(k) > 1 or k[0] not in WEAK_ALONE) and not all(w[:6] in section for w in k)]
