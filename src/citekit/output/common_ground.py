"""What the user's paper really shares with one group of cited papers, and what each side does alone.

A reader judged "Like A and B, our work addresses mobile phones, but we find that ..." empty:
every paper of a section on mobile phones addresses mobile phones, and "but we find" contrasts
nothing. A co-author names the link the section's topic does not give (gestural input with
one paper, use while walking with another) and then says what the cited paper does and what
ours does instead. So, from the records alone:

* the shared ground is a phrase of the user's abstract (1-3 content words) that a record of
  the group also uses, matched by word roots (:mod:`.word_roots`: "gestural" meets "gestures"),
  none of whose words is the section's topic, used by no more than half the section (a word
  most of the section uses is the section's ground, not this group's), a single word only when
  a title names it and it is no vague noun ("tasks", "observations"); the candidates are ranked
  by TF-IDF over the section (:func:`grounds`) and tried best first;
* what a cited paper does is a phrase of its own title (else of its claim or another sentence
  that reports no result) whose telling word the user's abstract never uses and most of the
  section does not share, so "where X focuses on P, we ..." is a difference both records bear out;
* what the user's paper does is a claim or method statement of its abstract, never a finding
  ("we find that ...", "bezel gestures offered the fastest ..."), cut at a natural break to a
  short clause that keeps its verb (:func:`short_clause`), so no long run of the abstract is
  pasted and no fragment ("in our work, to enter a character") is written.

When no phrase is shared beyond the section's topic, nothing is said (the caller leaves a TODO).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from citekit.core.lazyre import lazy
from citekit.core.text import fold, latex_to_text
from citekit.output.articles import with_article
from citekit.output.title_prose import mid_sentence, title_words_in_prose
from citekit.output.word_roots import root

#: the longest user clause written (words); a statement longer than this is cut at a natural break
AIM_WORDS = 12
#: how far past AIM_WORDS a clause may run, whole or cut
SLACK = 2
#: a phrase more than this share of the section's records use is the section's ground, no group's
MOST = 0.5
#: what a shared phrase the paragraph's heading already names still counts for
SAID = 0.3
#: nouns that name no line of work, even at the head of a phrase: "real-world tasks", "various levels"
_VAGUE = frozenset("task tasks level levels demand demands factor factors status quo impact impacts presence speed "
                   "capability capabilities possibility possibilities kind kinds means role roles amount amounts "
                   "lot lots need needs one ones thing things part parts stage stages step steps side sides end "
                   "goal goals view views manner observation observations literature contribution contributions "
                   "effect effects affect affects change changes measure measures measurement measurements session "
                   "sessions combination production presentation exploration invention implementation challenge "
                   "challenges meaning meanings notion idea ideas advantage advantages direction directions "
                   "insight insights lesson lessons outcome outcomes trial trials requirement requirements type types "
                   "nature action actions design designs designing sense senses".split())
_VAGUE_ROOTS = frozenset({"task", "level", "factor", "capabil", "possibil"})

_TOKEN = lazy(r"[a-z0-9][a-z0-9\-']*")
#: where a clause can end: before a relative clause, a participle or a preposition that opens a modifier
_BREAK_AT = lazy(r"\s+(?=(?:that|which|who|whose|where|while|because|so|under|with|through|by|from|above|below|in|on|at|"
                 r"for|to|into|using|via|joined|consisting|based|including)\b)")
#: a clause cut here would end on a word that wants more: "possible", "implemented", "consisting", "it"
_DANGLING = lazy(r"(?:\b(?:possible|able|make|makes|allow|allows|enable|enables|is|are|be|been|it|its|sensitive|similar|"
                 r"close|due|prone|subject|related|equivalent|comparable|specific|relative|responsible|suitable|"
                 r"a|an|the|of|to|and|or|worn|built|made)|ly|ing|ed|[a-z]{3,}(?:able|ible))$", re.I)
#: words that add nothing a short clause needs ("several design factors" is "design factors")
_FILLER = lazy(r"\b(?:several|various|novel|new)\s+(?=[a-z])")
#: verbs and adverbs read as a shared "topic" only by accident: a word the user writes after a subject or "to"
_AS_VERB = lazy(r"(?:\b(?:we|they|it|to|can|could|may|might|will|would|should|must|not|paper|work|study|article|"
                r"which|that|who|also)|\b[a-z]+ly)\s+$|^\s*$")


#: what follows a transitive verb, never a noun: "senses the hover height", "determines the pose"
_OBJECT_NEXT = lazy(r"\s+(?:the|a|an|its|their|our|this|these|how|whether|what|which)\b", re.I)
#: words after which a run of an abstract is a noun phrase ("by participatory design", "a multi-touch sensor")
_NOUN_BEFORE = "a|an|the|of|for|on|in|with|by|from|about|through|into|towards?|between|its|their|which|what|whose|such"
#: adjectives that judge rather than say what a thing is: "a unique motion", "the latest prototype"
_EVALUATIVE = frozenset("unique major minor latest whole entire basic typical certain particular single "
                        "great good better best broad broader wide wider rich richer first last other practical "
                        "effective efficient simple".split())
#: words a run of a sentence can end on that are no noun: "a quote often", "folk music goes"
_NOT_HEAD = frozenset("often also goes comes becomes remains seems works allows makes takes gives shows century "
                      "decades years".split())
#: nouns that take no article in the singular: "pressure input", "tactile feedback"
_MASS = frozenset("input output feedback text ink audio sound music light data research motion touch force "
                  "pressure haptics energy power time space attention support access".split())
#: prepositions that open what follows them as a modifier: "focus on beyond bounded noise" is no phrase
_PREPOSITION = frozenset("beyond against around despite unlike along towards toward without via across versus among "
                         "within through over under about between into onto upon amid per".split())
#: a comparative at a phrase's end is a claim's, not a thing's: "expressiveness greater" of "... expressiveness greater
#: than ..."
_COMPARATIVE = lazy(r"more|less|(?:great|high|low|larg|small|fast|slow|strong|weak|wid|long|short|rich|eas|earl|bett|"
                    r"wors|deep|cheap|light|heav|simpl|hard|clos)(?:i)?er")
#: a title's pronouns speak to its reader: "Your Noise is My Command" has no "your noise" to focus on
_PRONOUNS = frozenset("your yours my mine our ours his her hers their theirs its me you us them".split())
#: words that link sentences; never what a paper is about
_LINKING = frozenset("therefore thus hence however moreover furthermore instead indeed rather whereas".split())


def words_of(text: str) -> set[str]:
    """Roots of every content word of ``text`` (hyphenated words also by their parts): "gestural" and
    "gestures" give one root (:func:`.word_roots.root`), so two abstracts that inflect a word apart share it."""
    from citekit.output.related_topics import FUNCTION_WORDS

    out: set[str] = set()
    for w in _TOKEN.findall(fold(latex_to_text(text)).lower()):
        for part in {w, *w.split("-")}:
            part = part.strip("'-")
            if part and part not in FUNCTION_WORDS:
                out.add(root(part))
    return out


def _topical(stem: str, section: set[str]) -> bool:
    """Whether a word is the section's topic: its first six letters, or its root's first five, are a topic word's
    ("printing" under "printing", "gestural" under "gestures")."""
    base = root(stem)[:5]
    return stem[:6] in section or stem.rstrip("s")[:6] in section or any(len(base) >= 4 and t[:5] == base
                                                                         for t in section)


@dataclass(frozen=True)
class Ground:
    """A phrase of the user's abstract that some records of a group use too, and how specific it is to them."""

    phrase: str  # as the user's abstract writes it ("gestures", "eyes-free gestures")
    sharers: tuple[int, ...]  # which of the group's records use it (indexes into the group's texts)
    score: float = 0.0  # how many of the group use it times its rarity in the section (ranks the candidates)
    key: tuple[str, ...] = ()  # the roots that are the link ("environ" of "mobile environments": no topic word)


class Section:
    """The section's records as root sets, to tell a group's ground from the whole section's."""

    def __init__(self, texts: list[str], section: set[str], also: tuple[str, ...] = ()) -> None:
        from citekit.output.word_kin import Kin

        self.docs = [words_of(t) for t in texts]
        # words the records (and ``also``, the user's abstract) write in each other's place: "tactile", "haptic"
        self.kin = Kin([*texts, *also])
        self.grams = [_rooted(_both(t)) for t in texts]
        self.section = {root(w)[:6] for w in section} | section
        self.n = len(self.docs)

    def share(self, key: tuple[str, ...]) -> int:
        """How many of the section's records use the phrase (one word: in any form; more: as a phrase)."""
        if len(key) == 1:
            return sum(key[0] in d for d in self.docs)
        return sum(key in g for g in self.grams)

    def weight(self, stem: str) -> float:
        n = sum(root(stem) in d for d in self.docs)
        return math.log((self.n + 1) / (n + 1)) + 1.0


def _rooted(found: dict[tuple[str, ...], str]) -> dict[tuple[str, ...], str]:
    """Phrase keys by the roots of their words ("touch-screen gestures" and "gestural" meet at "gestur")."""
    out: dict[tuple[str, ...], str] = {}
    for key, written in found.items():
        rooted = tuple(root(w) for w in key)
        if rooted not in out or written.islower() and not out[rooted].islower():
            out[rooted] = written  # (running text's "gestures" over a title's "Gesture")
    return out


def _both(text: str) -> dict[tuple[str, ...], str]:
    from citekit.output.related_topics import phrases

    return phrases(text.replace("-", " ")) | phrases(text)


def _reads_bare(word: str) -> bool:
    """Whether one word reads as a topic without an article: a plural ("gestures") or a noun by its form
    ("perception", "navigation"), not a singular count noun ("actuator", "surface")."""
    if re.search(r"(?:tion|sion|ment|ness|ity|ics|ism|ance|ence|ure|ogy|phy|ship|age|ery|acy|ency|ware|sis|ia)$", word):
        return True
    if word in _MASS or word.endswith("ing") and len(word) > 5 and not word.endswith("ating"):
        return True  # (and a gerund: "scrolling", "sketching"; not a process verb's "incorporating")
    return word.endswith("s") and not word.endswith(("ous", "ss", "ess"))


#: endings of adjectives, never a head noun: "virtual", "robotic", "interactive", "wearable"
_ADJECTIVE_END = lazy(r"(?:al|ic|ive|ous|ful|able|ible|less|ary|ed|ing|ly)$")


def _head_noun(word: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` (any case) as the head of a noun phrase somewhere: after an article or a
    modifier and before a stop, a comma or a function word ("a home lighting robot that uses", "a humanoid
    robot as well as"), so its plural names the same kind of thing ("robots")."""
    from citekit.output.related_topics import FUNCTION_WORDS

    if _ADJECTIVE_END.search(word.lower()) or not word.isalpha():
        return False
    for m in re.finditer(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", text, re.I):
        after = re.match(r"\s*([.,;:)]|$|[A-Za-z]+)", text[m.end():])
        if after and (not after.group(1).isalpha() or after.group(1).lower() in FUNCTION_WORDS):
            return True
    return False


def _said_again(word_root: str, text: str) -> bool:
    """Whether ``text`` writes a word of this root twice or more (a topic it comes back to, not one in passing)."""
    return len(_plain_words(text).get(word_root, ())) >= 2


def _plural_of(word: str) -> str:
    """The plural of one count noun ("robot" -> "robots", "sensor box" is never asked); a Latin "-ix"/"-ex" as
    papers write it ("matrix" -> "matrices", "vertex" -> "vertices", never "matrixes")."""
    from citekit.core.text import plural

    low = word.lower()
    if re.search(r"(?:matr|append|ind|vert|cort|simpl)[ie]x$", low):
        return low[:-2] + "ices"
    return plural(2, low).split(" ", 1)[1]


def _plain_words(text: str) -> dict[str, list[str]]:
    """Every word of ``text`` by its root, in the forms the text writes it."""
    out: dict[str, list[str]] = {}
    for w in re.findall(r"[^\W_][\w']*", latex_to_text(text)):  # (case kept: a title's "Gesture" is not running text's)
        out.setdefault(root(w.lower()), []).append(w)
    return out


def _used_as_verb(word: str, text: str) -> bool:
    """Whether the user's abstract writes ``word`` only as a verb or an adverb ("we probe", "to support",
    "this paper investigates", "Facet automatically determines"): no occurrence follows a word that can
    open a noun phrase (an article, a preposition, an adjective)."""
    spots = list(re.finditer(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", text, re.I))
    return not spots or word.lower().endswith("ly") or all(
        _AS_VERB.search(text[:m.start()]) or _OBJECT_NEXT.match(text[m.end():]) for m in spots)


#: words that end no noun phrase: a phrase cut before a preposition's object is no line of work
_PREPOSITIONS = frozenset("above below beneath behind beside besides between beyond inside outside near toward towards "
                          "onto upon within without along amid around".split())


def _only_as_verb(word_root: str, text: str) -> bool:
    """Whether ``text`` writes the words of this root only as a verb ("to reduce communication", "we reduce the
    cost"): a record that does the thing names no topic the user's noun ("variance reduction") names."""
    forms = set(_plain_words(text).get(word_root, ()))
    return bool(forms) and all(_used_as_verb(w, text) for w in forms)


#: what can follow a noun that heads its phrase: a verb's forms, an adverb ("gestures offered", "input is"); and
#: a process done to it, which keeps the word's own sense ("gesture understanding", "energy harvesting")
_NOT_A_NOUN = lazy(r"[a-z]+(?:ed|ly|es|ing|tion|sion|ment|ance|ence|sis)|[a-z]+[^su]s")


def _modified_heads(word: str, text: str) -> set[str] | None:
    """The roots of the nouns ``word`` modifies when ``text`` writes it only in its singular before another noun
    ("input voltage swing", "the input voltage drops": {"voltag"}), or None when it is a phrase's head somewhere
    or what a process works on ("gesture recognition", "energy harvesting"), or itself a process ("prototyping
    tools"). A reader struck "like Printput, our work deals with input", where the user's abstract meant a charge
    pump's input voltage: such a word means the pair, and another paper shares it only by the same pair ("input
    devices" and "3D-input devices"; not "input widgets")."""
    from citekit.output.related_topics import FUNCTION_WORDS

    low = word.lower()
    if low.endswith("s") and not low.endswith("ss") or re.search(r"(?:ing|tion|sion|ment)$", low):
        return None  # (a plural heads its phrase: "gestures offered"; a process keeps its sense: "prototyping tools")
    from citekit.output.related_topics import GENERIC, WEAK_ALONE

    heads: set[str] = set()
    for m in re.finditer(rf"(?<![\w]){re.escape(low)}(?![\w\-])", text, re.I):  # (also "multi-touch." ending)
        after = re.match(r"\s+([A-Za-z][a-z\-]*)", text[m.end():])
        nxt = after.group(1).lower() if after else ""
        if not nxt or nxt in FUNCTION_WORDS or _NOT_A_NOUN.fullmatch(nxt) or len(nxt) < 3:
            return None  # (the phrase ends here: "the input is", "energy.", "power of")
        if nxt in GENERIC or nxt in WEAK_ALONE or nxt in _KIND_NOUNS:
            return None  # ("a gesture input mechanism": a kind of thing says no other sense of "input")
        heads.add(root(nxt))
    return heads or None


#: nouns that name a kind of artefact, not a sense: "input mechanism" and "input devices" are one "input"
_KIND_NOUNS = frozenset("mechanism mechanisms device devices method methods technique techniques modality modalities "
                        "tool tools system systems interface interfaces".split())


def _same_pair(word: str, heads: set[str], text: str) -> bool:
    """Whether ``text`` writes ``word`` (alone or as a compound's last part, "3D-input") before one of ``heads``."""
    for m in re.finditer(rf"(?<![\w]){re.escape(word.lower())}(?![\w\-])", text, re.I):
        after = re.match(r"\s+([A-Za-z][a-z\-]*)", text[m.end():])
        if after and root(after.group(1).lower()) in heads:
            return True
    return False


def _vague(word: str) -> bool:
    """A word that names no line of work alone or in a phrase's head ("tasks", "levels", "one")."""
    from citekit.output.related_topics import FUNCTION_WORDS, GENERIC

    low = word.lower()
    return low in FUNCTION_WORDS or low in GENERIC or low in _VAGUE or root(low) in _VAGUE_ROOTS or len(low) < 4


#: the second parts of compounds that make an adjective, not a noun: "memory-light", "eyes-free", "layer-wise"
_ADJECTIVE_HEADS = frozenset("light free based aware friendly intensive efficient rich heavy ready specific driven "
                             "centric oriented like wise proof safe level scale bound agnostic dependent sensitive "
                             "preserving related".split())


def _cut_from_longer(phrase: str, text: str) -> bool:
    """Whether ``text`` writes ``phrase`` only as the opening of a longer noun phrase ("momentum-based variance" in
    "momentum-based variance reduction"): a content word that can head the phrase follows it every time. "Like X,
    our work deals with momentum-based variance" then names a part of the user's term, not a line of work."""
    from citekit.output.related_topics import FUNCTION_WORDS

    spots = list(re.finditer(rf"(?<![\w\-]){re.escape(phrase)}(?![\w\-])", text, re.I))
    for m in spots:
        after = re.match(r"\s+([a-z][a-z\-]*)\b", text[m.end():])
        nxt = after.group(1) if after else ""
        if not nxt or nxt in FUNCTION_WORDS or re.search(r"(?:ed|ly)$", nxt) or _ADJECTIVE_END.search(nxt) \
                and not re.search(r"(?:tion|sion|ment|ance|ence)$", nxt):
            return False  # (the phrase ends here somewhere: "... gestures offered", "... smoothness.")
    return bool(spots)


def grounds(mine_text: str, group_texts: list[str], section: Section, heading: str = "",
            titles: tuple[str, list[str]] = ("", [])) -> list[Ground]:
    """Every phrase the user's abstract shares with records of this group and not with most of the section, best first.

    A candidate is a phrase of the user's abstract (one to three content words, matched by the
    roots of its words, so "gestural input" meets "gestures"); a record shares it when it uses the
    word in any form, or, for a longer phrase, the phrase itself. It counts only when it is
    specific: no word of the section's topic, and used by no more than :data:`MOST` of the section's
    records (a phrase most of the section uses is the section's ground; "gestures", which half a pen
    section uses, can still be this group's). Score: the records of the group that share it times
    its rarity in the section (TF-IDF), a longer phrase a little more, one the paragraph's
    ``heading`` already says (its topic sentence names it) for :data:`SAID` of that. A bare word
    must read as a noun in the user's abstract (no verb: "probe", "support"; no vague word:
    "tasks", "observations") and be named by a title (the user's, ``titles[0]``, or a sharing
    record's, ``titles[1]``) or be a noun both abstracts come back to (twice or more, "messages"):
    a word said in passing ("sessions", "parameters") is no line of work (a record's claim
    sentence was tried too: "implementing", "comparing" came through); a singular count noun is
    shown as a sharing record writes its plural ("actuators", never its gerund "displaying"), else
    in its plural when both sides write it as a noun phrase's head ("a lighting robot", "a
    humanoid robot": "robots").
    """
    from citekit.output.related_topics import WEAK_ALONE, phrases

    own = _rooted(phrases(mine_text))  # ("eyes-free" is one word of the user's: its "eyes" is no shared ground)
    # ... but a compound's head is what it names: "multi-display" is a display, "touch-screen" a screen
    heads = _rooted({(m.group(1),): m.group(1) for m in re.finditer(r"\b[A-Za-z]+-([a-z]{4,})\b", mine_text)
                     if not m.group(1).endswith(("ing", "ed")) and m.group(1) not in _ADJECTIVE_HEADS})
    # ("shape-changing" is no change, "memory-light" no light)
    said = words_of(heading)
    texts = [words_of(t) for t in group_texts]
    grams = [_rooted(_both(t)) for t in group_texts]
    found: dict[tuple[str, ...], Ground] = {}
    forms = _plain_words(mine_text)
    for key, written in [*own.items(), *((k, w) for k, w in heads.items() if k not in own)]:
        if len(key) == 1 and not written.islower():
            # "gestures", not a title's "Gesture": the form running text writes, a bare-reading one first
            lower = [w for w in forms.get(key[0], []) if w.islower()]
            written = max(lower, key=lambda w: (_reads_bare(w), lower.count(w))) if lower else written
        words = written.split()
        if words[-1].lower() in _PREPOSITIONS:
            continue  # ("hands above" of "the movement of hands above a display": no phrase, and no plural "aboves")
        if any(_topical(w, section.section) for w in key) or _vague(words[-1]) or len(key) == 1 and (
                words[0].lower() in WEAK_ALONE or words[0].lower() in _LINKING):
            continue
        if len(words) > 1 and _cut_from_longer(written, mine_text):
            continue  # ("momentum-based variance" of "momentum-based variance reduction": not what the user works on)
        head = key in heads and key not in own
        if len(key) == 1 and (key[0].endswith("ed") or not head and (
                _used_as_verb(written, mine_text)
                or not re.search(rf"(?<![\w\-]){re.escape(written.lower())}(?![\w\-])", mine_text)
                and not (key[0] in words_of(titles[0]) and any(
                    re.search(rf"(?<![\w\-]){re.escape(written.lower())}", t) for t in group_texts)))):
            # (a bare word also needs to be written in lower case: "Widgets" of "Hover Widgets" is a name; or be
            # the user's title's word that a record's running text writes in lower case: "Gesture Understanding")
            continue
        sharers = tuple(i for i, (t, g) in enumerate(zip(texts, grams)) if (key[0] in t if len(key) == 1 else key in g))
        pairs = _modified_heads(written, mine_text) if len(key) == 1 and not head else None
        if pairs is not None:
            # ("input" of "input voltage" is no "input" of "input widgets": the pair is the sense, not the word)
            sharers = tuple(i for i in sharers if _same_pair(written, pairs, group_texts[i]))
        if len(key) == 1 and _cut_from_longer(written, mine_text):
            # ("variance" the user writes only in "variance reduction": a record shares it by the same pair)
            after = {root(m.group(1).lower()) for m in re.finditer(
                rf"(?<![\w\-]){re.escape(written)}\s+([A-Za-z][\w\-]*)", mine_text, re.I)}
            sharers = tuple(i for i in sharers if _same_pair(written, after, group_texts[i]))
        if len(key) == 1 and not _used_as_verb(written, mine_text):
            # the user's noun is no record's verb: "variance reduction" is not what "to reduce communication" does
            sharers = tuple(i for i in sharers if not _only_as_verb(key[0], group_texts[i]))
        if len(key) == 1 and re.search(r"[a-z](?:ness|ity)$", written.lower()):
            # a property the user studies ("smoothness") is no record's adjective ("a smooth relaxation"): the record
            # says what its own thing is like, not that it works on the property
            sharers = tuple(i for i in sharers if any(w.lower().endswith(written.lower()[-4:])
                                                      for w in _plain_words(group_texts[i]).get(key[0], ())))
        if not sharers or "'" in written:
            continue  # (not "object's": a possessive is no topic)
        if len(key) == 1 and titles[0] + "".join(titles[1]) and not (
                key[0] in words_of(titles[0]) or any(key[0] in words_of(titles[1][i]) for i in sharers)):
            # one word is a topic when a title names it: "sessions", "parameters" in passing are none; or when
            # both abstracts come back to it, a noun each writes twice or more ("messages", "reminders")
            sharers = tuple(i for i in sharers if _said_again(key[0], group_texts[i]))
            if not sharers or not _said_again(key[0], mine_text) or not _reads_bare(written.lower()) \
                    or written.lower().endswith("ing"):
                continue
        used = max(section.share(key), len(sharers))
        if section.n and used / section.n > MOST:
            continue  # most of the section uses it: the section's ground, not this group's
        abstract = mine_text[len(titles[0]):] if titles[0] and mine_text.startswith(titles[0]) else mine_text
        # a name at the phrase's head ("distributed Shampoo", the optimizer) takes no plural and keeps its capital
        # (only after a plain modifier the abstract writes with it: "the Gesture Watch" is one name, its "Watch" no noun)
        named = len(words) > 1 and words[-1][:1].isupper() and words[-1][1:].islower() and words[-2].islower() \
            and mid_sentence(f"{words[-2]} {words[-1]}", abstract)
        if not named and not _reads_bare(words[-1].lower()):
            # "our work studies actuator" wants an article: the plural a sharing record writes reads bare
            plural = next((w for i in sharers for w in _plain_words(group_texts[i]).get(key[-1], [])
                           if _reads_bare(w.lower()) and w.islower() and w.endswith("s")), "")
            if not plural and _head_noun(words[-1], mine_text) and all(
                    _head_noun(words[-1], group_texts[i]) for i in sharers):
                plural = _plural_of(words[-1])  # ("a home lighting robot", "a humanoid robot": both deal with robots)
            if not plural:
                continue
            written = " ".join([*words[:-1], plural])
            if _vague(plural):
                continue
        score = len(sharers) * (math.log((section.n + 1) / (used + 1)) + 1.0) * (1 + 0.25 * (len(key) - 1))
        if any(w in said for w in key):
            score *= SAID  # the paragraph's heading says it already: a link beyond it tells the reader more
        # (as running text writes it: "Menus" of a title is "menus", "HoverPen" stays a name)
        shown = " ".join(w if re.search(r"[a-z][A-Z]|\d|^[A-Z]{2,}", w) or named and w == words[-1] else w.lower()
                         for w in written.split())
        if len(key) == 1:
            # the topic's own modifier kept where both sides write the pair: "mobile environments", not a bare
            # "environment" (the link is the word; the phrase is how both papers say it)
            pair = next((w for k, w in own.items() if len(k) == 2 and k[1] == key[0] and _topical(k[0], section.section)
                         and all(k in grams[i] for i in sharers) and _reads_bare(w.split()[-1].lower())), "")
            shown = pair.lower() if pair and not re.search(r"[a-z][A-Z]|\d", pair) else shown
        if key not in found or score > found[key].score:
            found[key] = Ground(shown, sharers, round(score, 6), key)
    ranked = sorted(found.values(), key=lambda g: (-g.score, -len(g.phrase.split()), g.phrase))
    # a phrase inside a longer one that the same records share says the same: keep the longer
    return [g for g in ranked if not any(o is not g and o.sharers == g.sharers and len(o.phrase) > len(g.phrase)
                                         and re.search(rf"(?<![\w\-]){re.escape(g.phrase)}(?![\w\-])", o.phrase)
                                         for o in ranked)]


def their_focus(title: str, text: str, mine_text: str, section: Section, ground: str = "") -> str | None:
    """What a cited paper does that the user's abstract never mentions: a phrase of its title or its contribution.

    The phrase has two or three words (one word says too little of what a paper does), no word of
    the section's topic, is no phrase of the user's abstract, and its telling word (the one the
    section uses least) is one the user's abstract never uses, so the difference is true of both.
    It is read from the title's plain part (not its name: "focus on magic desk") and the sentence in
    which the abstract says what the paper does (:func:`.sentences.contribution`), never from the
    abstract's other sentences: a reader struck "where Baudisch et al. focus on a ping-pong ball", an
    example of device size from the abstract's opening. None when neither gives one: the sentence
    then says the shared ground only, or nothing.
    """
    from citekit.output.related_topics import _ADJECTIVE, FUNCTION_WORDS, GENERIC, WEAK_ALONE, phrases

    mine = words_of(mine_text)
    avoid = words_of(ground)  # (what both share is no difference: not "where X addresses avatar gesture")
    own = _rooted(phrases(mine_text.replace("-", " ")) | phrases(mine_text))
    claim = _what_it_does(text, title)
    # the title's plain part, after its name ("Magic Desk: Bringing Multi-Touch Surfaces ...": the name is no focus)
    parts = [p for p in re.split(r"[:?]\s+|\.\s+(?=[A-Z])", latex_to_text(title)) if p.strip()]
    if len(parts) > 1 and _is_name(parts[0]):
        parts = parts[1:]
    # a title's plain part first: "Take Me by the Hand: Haptic Compasses in ..." says what it does after the colon
    parts = sorted(parts, key=lambda p: p is parts[0] and len(parts) > 1)
    for source in [*parts, *claim]:
        best: tuple[float, str] | None = None
        for key, written in phrases(source).items():
            if len(key) < 2 or any(_topical(p, section.section) for w in key for p in {w, *w.split("-")} if p) \
                    or tuple(map(root, key)) in own:  # (nor a compound's part: "connected-speech" under speech)
                continue
            # its telling word, the one the section uses least, is one the user's abstract never uses:
            # "participatory design" is no design study of the user's, "haptic compasses" no haptics paper's
            rarest = max(key, key=lambda w: (section.weight(w), -key.index(w)))
            # (nor one the user's abstract says in other words: "tactile feedback" of a haptic wristwatch)
            if section.kin.said_by(root(rarest), mine) or all(root(w) in mine for w in key) or _shares_modifier(written, mine) \
                    or any(root(w) not in mine and section.kin.of(root(w)) & mine for w in key) or section.n and \
                    section.share((root(rarest),)) / section.n > MOST:
                continue  # (nor one most of the section shares: "tactile feedback" is no difference in haptics)
            if _object_of_ground(written, ground, source) or _set_aside(written, source):
                continue  # ("Low-Fidelity Fabrication of 3D Objects": what both work on; "Substituting 3D Print")
            if source not in parts and not _as_noun_phrase(written, text):
                continue  # (from an abstract, only a noun phrase: "construct audio-tactile messages" is a verb's)
            if key[-1] in GENERIC or key[-1] in WEAK_ALONE and len(key) < 3 and _ADJECTIVE.search(key[0]) \
                    or not re.search(r"[a-z]", written) or any(root(w) in avoid for w in key) \
                    or _ADJECTIVE.search(key[-1]) or key[0].endswith("ing") and (
                        source.lstrip().startswith(written) or not _reads_bare(key[-1])) \
                    or key[0].lower() in _EVALUATIVE or key[-1].lower() in _NOT_HEAD \
                    or key[0].lower() in _PREPOSITION or key[-1].lower() in _PREPOSITION \
                    or _COMPARATIVE.fullmatch(key[-1].lower()) or any(w.lower() in _PRONOUNS for w in key) \
                    or re.fullmatch(r"[a-z]{3,}ed", key[0]) \
                    or any(re.search(rf"\b{re.escape(w)}'", source) for w in written.split()[:-1]) \
                    or any(re.fullmatch(r"[a-z]{3,}[^suic']s", w, re.I) for w in written.split()[:-1]):
                # (a phrase ends in its noun and does not open with a verb: not "Exploring Gestural Mode",
                # "fabricating multilayer"; nor with a judgement: "unique motion", "latest prototype"; nor with
                # a participle that reports a measure: "reported crash risk", "observed costs"; nor across a
                # possessive: "novices' design", nor one whose apostrophe a title dropped: "Novices Design"; nor a
                # preposition's phrase: "Beyond Bounded Variance" after "focus on")
                continue
            if all(re.match(r"\s+[a-z][\w\-]*", source[m.end():], re.I) and source[m.end():].split()[0].lower()
                   not in FUNCTION_WORDS for m in re.finditer(rf"(?<![\w\-]){re.escape(written)}", source)):
                continue  # (only ever a modifier of a longer name: "a wrist-mounted bio-acoustic fingertip | gesture")
            partner = re.search(rf"([\w\-]+),?\s+(?:and|or|&)\s+(?:(?!(?:of|for|in|on|to|with|by|from|at)\b)[\w\-]+\s+){{0,2}}"
                                rf"{re.escape(written)}", source, re.I)  # ("Design and Development of X": not X's pair)
            if partner and (root(partner.group(1).lower()) in mine or section.kin.of(root(partner.group(1).lower())) & mine
                            or _topical(partner.group(1).lower(), section.section)):
                continue  # (one half of "Haptic and Audio Interaction Design" is no difference to a haptic paper)
            score = sum(section.weight(w) for w in key)
            if best is None or score > best[0]:
                best = (score, written)
        if best:
            prose = _as_prose(best[1], text, title)
            last = prose.split()[-1]
            # (counted where the record writes "a <phrase>" and the phrase ends there: not "a participatory
            # design workshop")
            counted = re.search(rf"\b(?:a|an|one)\s+{re.escape(prose)}(?=\s*(?:[,.;:)]|$)|\s+(?:that|which|for|of|in|"
                                rf"on|with|to|and|or|by|from|as|at)\b)", text, re.I)
            written = re.search(rf"(?<![\w\-]){re.escape(prose)}\b", text, re.I)  # (else only the title says it)
            if counted or not written and not _reads_bare(last.lower()) and not re.search(r"[a-z][A-Z]|\d|^[A-Z]", prose):
                # "a bouncing ball game" (a title's count noun), but "tactile feedback" as the record writes it
                prose = with_article(prose)
            return _as_gerund(prose, source)
    return None


#: what a bare verb follows: "to fine-tune", "can fine-tune"; and a question's opening before its subject
_BEFORE_VERB = "to|can|could|may|might|will|would|should|must|cannot|does|do|did"
_QUESTION = lazy(rf"^\s*(?:{_BEFORE_VERB}|shall)\s+(?:[\w\-]+\s+){{1,3}}?$", re.I)


def _object_of_ground(written: str, ground: str, source: str) -> bool:
    """Whether ``source`` writes the phrase as what the shared ground is done to: "Low-Fidelity Fabrication of 3D
    Objects" under the shared "low fidelity". That is the extent of what both papers share, so "where A focuses
    on 3D objects, we ..." implies a difference neither record states."""
    last = [w for w in re.findall(r"[A-Za-z][\w]*", ground) if len(w) > 2]
    if not last:
        return False
    stem = re.escape(root(last[-1].lower())[:5])
    return bool(re.search(rf"\b{stem}\w*(?:\s+[\w\-]+)?\s+of\s+(?:the\s+|a\s+|an\s+)?{re.escape(written)}\b",
                          source, re.I))


#: words before what a paper moves away from: "by Substituting 3D Print with ...", "instead of menus"
_AWAY = lazy(r"\b(?:substitut\w*|replac\w*|instead\s+of|rather\s+than|without|eliminat\w*|avoid\w*|beyond)\s+"
             r"(?:the\s+|a\s+|an\s+)?$", re.I)


def _set_aside(written: str, source: str) -> bool:
    """Whether ``source`` writes the phrase only as what the paper sets aside ("Substituting 3D Print with
    Laser-Cut Plates"): "where A focuses on 3D print" would say the opposite of its record."""
    spots = list(re.finditer(rf"(?<![\w\-]){re.escape(written)}(?![\w\-])", source, re.I))
    return bool(spots) and all(_AWAY.search(source[:m.start()]) for m in spots)


def _shares_modifier(written: str, mine: set[str]) -> bool:
    """Whether a cited paper's phrase says how its thing is made or what kind it is by a word the user's abstract
    uses too ("laser-cut plates" against a paper that names laser cutters): "where X focuses on laser-cut plates,
    we ..." then implies the user's paper does not laser-cut, which its own abstract contradicts. Only the head
    (the last word) may be the difference."""
    from citekit.output.related_topics import FUNCTION_WORDS

    # (a compound modifier by its first part, what it is made with: "laser" of "laser-cut", not "pretrained" of
    # "Adam-pretrained", which says what was done to it)
    parts = [w.split("-")[0] for w in written.lower().split()[:-1]]
    parts = [p for p in parts if len(p) > 2 and p not in FUNCTION_WORDS]
    return any(root(p) in mine for p in parts)


def _as_gerund(phrase: str, source: str) -> str:
    """``phrase`` as it can follow "focus on": a phrase its source writes as a bare verb's ("Can Muon Fine-tune
    Adam-Pretrained Models?", "how to train sparse transformers") opens with that verb's gerund
    ("fine-tuning Adam-pretrained models"); "focus on fine-tune ..." is no sentence."""
    first, _, rest = phrase.partition(" ")
    m = re.search(rf"(?<![\w\-]){re.escape(first)}(?![\w\-])", source, re.I)
    if not rest or not m or not re.fullmatch(r"[a-z][a-z\-]*[a-z]", first) or first.endswith(("ing", "ed", "s")):
        return phrase
    before = source[:m.start()]
    opens = re.fullmatch(rf"\s*(?:{_BEFORE_VERB}|shall)\s+", before, re.I)  # ("Can Muon ...": its subject, no verb)
    if opens or not (re.search(rf"\b(?:{_BEFORE_VERB})\s+$", before, re.I) or _QUESTION.match(before)):
        return phrase
    return f"{_gerund(first)} {rest}"


def _gerund(verb: str) -> str:
    """The -ing form of a verb: "fine-tune" -> "fine-tuning", "train" -> "training", "run" -> "running",
    "apply" -> "applying"."""
    head, dash, last = verb.rpartition("-")
    if last.endswith("ie"):
        last = last[:-2] + "y"
    elif last.endswith("e") and not last.endswith(("ee", "ye", "oe")) and len(last) > 2:
        last = last[:-1]
    elif re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", last):
        last += last[-1]  # (one syllable, one vowel, one consonant: "run", "stop")
    return f"{head}{dash}{last}ing"


def _as_noun_phrase(phrase: str, text: str) -> bool:
    """Whether ``text`` writes ``phrase`` as a noun phrase somewhere: after an article, a preposition or a
    determiner ("a multi-touch sensor", "by participatory design", "which gestures"), but not as the subject of
    a relative clause ("games in which children move": "children move" is a subject and its verb)."""
    for m in re.finditer(rf"\b(?:{_NOUN_BEFORE})\s+(?={re.escape(phrase)}\b)", text, re.I):
        if not re.search(r"\b(?:in|on|by|at|for|from|with|through|under|to|of|during)\s+(?:which|whose)\s+$",
                         text[:m.end()], re.I):
            return True
    return False


def _is_name(part: str) -> bool:
    """Whether the part of a title before its colon is the name of what the paper made ("Magic Desk", "TUIC",
    "Air+touch"): a few words, each capitalised or written with a capital or sign inside, no function word."""
    from citekit.output.related_topics import FUNCTION_WORDS

    words = part.split()
    return 0 < len(words) <= 3 and all(re.match(r"[A-Z0-9]", w) or re.search(r"[A-Z+]", w[1:]) for w in words) \
        and not any(w.lower() in FUNCTION_WORDS for w in words)


def _what_it_does(text: str, title: str = "") -> list[str]:
    """The sentence of a cited abstract that says what the paper does (its contribution), or none.

    Only that one: the abstract's other sentences set the scene ("prototypes the size and shape of
    a ping-pong ball") or report a side result, and a difference drawn from them states a focus the
    paper does not have."""
    from citekit.output.sentences import contribution

    if not text:
        return []
    found = contribution(text, title=latex_to_text(title))
    return [found.sentence] if found else []


def _as_prose(phrase: str, text: str, title: str = "") -> str:
    """A phrase of a title as running text writes it: as the record's abstract writes it, else in lower
    case but for the words shaped as names ("3D", "PocketNavigator"). An abstract that pastes its title
    ("We study distribution-free Adaptive Computation of Matrix Functions ...") writes the title's casing,
    not running text's: a match whose capitalised words ``title`` writes just so is said as a title's words."""
    plain_title = latex_to_text(title)
    for m in re.finditer(rf"(?<![\w\-]){re.escape(phrase)}(?![\w\-])", text, re.I):
        words = m.group(0).split()
        if plain_title and len(words) > 1 and any(re.fullmatch(r"[A-Z][a-z]+", w) for w in words[1:]) and re.search(
                rf"(?<![\w\-]){re.escape(words[0])}\s+{re.escape(' '.join(words[1:]))}(?![\w\-])", plain_title, re.I) \
                and " ".join(words[1:]) in plain_title:
            return title_words_in_prose(phrase, text)
        # (a match in Title Case is the title's own casing, not running text's: "focus on Large Models")
        if len(words) == 1 or not all(w[:1].isupper() for w in words):
            first = words[0]
            before = text[:m.start()].rstrip()
            if first[1:].islower() and (not before or before.endswith((".", "!", "?", ":"))) \
                    and not mid_sentence(first, text):
                words[0] = first.lower()  # (a sentence's first word: "Large models are ..." -> "large models")
            return " ".join(words)
    return title_words_in_prose(phrase, text)


def short_clause(clause: str, limit: int = AIM_WORDS) -> str | None:
    """A claim or method clause cut to at most ``limit`` words at a natural break, or None when none reads.

    "we probe several design factors for touch-screen gestures, under various levels of ..." ->
    "we probe design factors for touch-screen gestures": the first comma ends the clause unless what
    follows it is an apposition to a name before it ("we present Facet, a multi-display ..."; not a name past
    the first comma: "we describe the design of a toy, named SenToy, used to ..." ends at "toy"); then a relative
    clause, a participle or a preposition past the limit is where it stops. A purpose or means fronted before
    the authors speak ("to understand whether X generalizes to other languages, we implement two merge tools for
    JavaScript, and ...") is left out: the main clause is the whole phrase that says what the paper does ("we
    implement two merge tools for JavaScript").
    """
    fronted = _FRONTED.match(clause)
    if fronted:
        clause = clause[fronted.end():]
    opening = re.match(r"(our work starts from the observation that|in our work,|in our [a-z\- ]+?,)\s+", clause)
    if opening:  # the observation itself is what is cut ("... that pen menus are slow | because ...")
        rest = short_clause(clause[opening.end():], limit)  # (the opening is citekit's, not a copied run)
        if not rest or _FRAGMENT.match(rest) or not _has_verb(rest):
            return None  # "in our work, to enter a character": the sentence's subject and verb were cut away
        return f"{opening.group(1)} {rest}"
    text = _FILLER.sub("", clause).strip()
    appositive = re.match(r"^([^,]*?\b[A-Z][\w\-]*),\s+((?:a|an)\s+[^,;]*|(?!(?:which|who|that|and|but|or|where|while|"
                          r"with|to|in|on|by|for)\b)[a-z][^,;]*)", text)  # ("BezelSwipe, bezel gestures for ...")
    if appositive:
        rest = text[appositive.end():]
        text = f"{appositive.group(1)}, {appositive.group(2)}"
        # a list of adjectives goes on to its noun: "DJammer, a digital, mobile, virtual, personal instrument"
        while (_ADJECTIVE_END.search(text.split()[-1]) or len(text.rsplit(", ", 1)[-1].split()) == 1) \
                and (more := re.match(r",\s+([^,;]+)", rest)):
            text, rest = f"{text}, {more.group(1)}", rest[more.end():]
    else:
        text = re.split(r"[,;:]\s+|\s+\(", text, maxsplit=1)[0]

    words = text.split()
    if len(words) <= limit + SLACK:
        options = [text]  # (a whole clause a word or two over is better than a cut that loses its object)
    else:
        # the breaks that fit, latest first, after a word a clause can end on: not "... that makes it
        # possible | to", nor on a word that says nothing yet: "we present Hover Widgets, a technique | for ..."
        options = _cuts(text, _BREAK_AT, limit)
    found = next((out for option in options if (out := _reads_whole(option.rstrip(" ,;:")))), None)
    if found and found != text.rstrip(" ,;:") and _HOLLOW_END.search(found):
        # "we propose Spectral Momentum, an optimizer | that filters ...": the cut stops before it says what the
        # thing does; a later break inside what follows keeps the thing and its claim ("an optimizer that filters
        # the spectrum of the momentum matrix"), else nothing of this sentence is said
        if _PAIRED.search(text) and (said := what_it_does(text, limit)):
            return said  # ("... that combines A with a sketched approximation | of B": the pairing said whole)
        later = [o for o in _cuts(text, _LATER_BREAK, limit) if len(o) > len(found) and not _HOLLOW_END.search(o)]
        found = next((out for option in later if (out := _reads_whole(option.rstrip(" ,;:")))), None)
    # no cut keeps a pairing whole ("we propose a memory-light Muon optimizer that combines A | with B" is too
    # long to end past B): said from what the thing does ("our optimizer combines A with B"), it fits
    return found or (what_it_does(text, limit) if _PAIRED.search(text) else None)


def _cuts(text: str, breaks: "re.Pattern[str]", limit: int) -> list[str]:
    """Where ``text`` can be cut at one of ``breaks`` to a clause that fits, latest first: after a word a clause
    can end on, not "... that makes it possible | to", nor on a word that says nothing yet: "we present Hover
    Widgets, a technique | for ..."."""
    from citekit.output.related_topics import FUNCTION_WORDS, GENERIC

    return [text[:m.start()] for m in reversed(list(breaks.finditer(text)))
            if 4 <= len(text[:m.start()].split()) <= limit + SLACK and not _DANGLING.search(text[:m.start()])
            and text[:m.start()].split()[-1].lower() not in FUNCTION_WORDS | GENERIC
            and not (text[m.end():].lstrip().startswith("that") and _SAYS.search(text[:m.start()]))
            and not (_WANTS_WITH.search(text[:m.start()]) and re.search(r"\bwith\b", text[m.start():]))]


#: a verb whose object goes on to its "with" ("combines A | with B", "merges drone imagery | with soil readings"),
#: and no "with" of its own yet: cut before that "with", the clause says half a pairing as the whole claim
_PAIRING_VERB = (r"\b(?:combin|merg|integrat|coupl|pair|fus|unif|interleav|augment|equipp?|replac|compar|"
                 r"complement|supplement|enrich|align)[a-z]*\b")
_WANTS_WITH = lazy(_PAIRING_VERB + r"(?:(?!\bwith\b).)*$", re.I)
#: the pairing said whole: "combines A with B"
_PAIRED = lazy(_PAIRING_VERB + r".*?\bwith\b", re.I)


#: a clause that ends on a bare kind ("we propose X, an optimizer", "we present a method", "we propose a
#: memory-light Muon optimizer"): it names what the paper made but not what it does
_HOLLOW_END = lazy(r"(?:,|\bwe\s+[a-z]+)\s+(?:a|an|the|our)\s+(?:[A-Za-z\-]+\s+){0,2}(?:optimizer|method|technique|approach|"
                   r"framework|system|algorithm|tool|toolkit|model|scheme|procedure|strategy|device|prototype|"
                   r"interface|architecture|variant|library|platform|solution)$")
#: the kinds of thing a paper makes, as "we propose X, an <kind> that ..." names them
_KINDS = ("optimizer|method|technique|approach|framework|system|algorithm|tool|toolkit|model|scheme|procedure|strategy|"
          "device|prototype|interface|architecture|variant|library|platform|solution")
#: "we propose a frugal Lion optimizer that combines sign momentum with ...": what the paper made, and what it does
_MADE_THAT = lazy(r"^we\s+(?:propose|present|introduce|develop|design|describe|build|derive|give)\s+"
                  r"(?:[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2},\s+)?(?:a|an)\s+(?:[\w\-]+\s+){0,4}?"
                  rf"(?P<kind>{_KINDS})\s+(?:that|which)\s+(?P<verb>(?!(?:is|was|has|does)\b)[a-z]{{3,}}s)\s+(?P<rest>.+)$")


def what_it_does(clause: str, limit: int = AIM_WORDS) -> str | None:
    """The user's claim said from what the thing they made does: "we propose a frugal Lion optimizer that combines
    sign momentum with a sketched approximation of the rotated update" -> "our optimizer combines sign momentum
    with a sketched approximation of the rotated update", or None when the claim is not of that shape.

    A claim cut at its first words says what it shares with a group as often as what it adds: the part after
    "that combines X" ("with Y") is where a claim usually differs, and cut to fit it is the first thing lost.
    Said from the relative clause, the whole of what the thing does fits; cut, it stops at a natural break
    (:func:`short_clause`'s), never inside a list ("combines A, B and C": None).
    """
    m = _MADE_THAT.match(clause)
    if not m:
        return None
    rest = re.split(r";|:|\s+\(|,\s+(?=(?:and|which|while|where|but|whereas|so)\b)", m.group("rest"), maxsplit=1)[0]
    if "," in rest:
        return None  # (a list or an aside: cut inside it, the clause would say part of a list as the whole)
    # a second predicate is a second claim: "filters X before Y | and keeps the update close to ..."
    rest = re.split(r"\s+and\s+(?=[a-z]{3,}s\s+(?:the|a|an|its|their|our|it|them)\b)", rest, maxsplit=1)[0]
    # ("our optimizer" is citekit's; what is quoted, the verb and its object, fits the aim and its slack)
    text = f"our {m.group('kind')} {m.group('verb')} {rest.strip()}".rstrip(" .")
    if len(text.split()) > limit + SLACK + 2:
        text = next(iter(_cuts(text, _LATER_BREAK, limit + 2)), "")
    from citekit.output.related_topics import FUNCTION_WORDS

    words = text.split()
    return text if len(words) >= 5 and words[-1].lower() not in FUNCTION_WORDS else None


#: breaks inside a relative clause, for a cut that must go past its verb: "... the momentum matrix | before ..."
_LATER_BREAK = lazy(_BREAK_AT.pattern.replace("including)", "including|before|after|without|across|over|against|"
                                                               "and|or|of|as|than)"))


def _reads_whole(out: str) -> str | None:
    """``out`` when it reads as a whole clause: three words or more, ending on no function word, with its
    verb ("our exploration of 3D printed surfaces" lost it) and its that-clause's ("we argue that Musicons")."""
    from citekit.output.related_topics import FUNCTION_WORDS

    if len(out.split()) < 3 or out.split()[-1].lower() in FUNCTION_WORDS:
        return None
    if not re.match(r"we\s", out) and not _has_verb(out):
        return None
    that = re.search(r"\bthat\s+(.*)$", out)
    tail = that.group(1).split(",")[0].split() if that else []
    relative = len(tail) >= 2 and not re.fullmatch(r"(?:the|a|an|this|these|those|we|they|it|its|our|their|"
                                                   r"he|she|there|some|many|most|all|each|no|if|when|while|because|"
                                                   r"although|as|since|whether|how|what|in|on|for|with|by|[A-Z]\w*)",
                                                   tail[0])
    if that and not relative and not _has_verb("that " + " ".join(tail)):
        return None  # (a relative clause's verb comes first: "gestures that let people answer calls")
    if tail and tail[0].lower() in ("if", "when", "while", "because", "although", "as", "since", "once", "unless"):
        return None  # "states that if a teacher is good": the clause the condition belongs to was cut
    if re.match(r"[A-Z][a-z]+ly,", out):
        return None  # "Correspondingly, the dwell time ...": it points back to a sentence not quoted
    return out


#: a purpose or means before the authors' own clause: "to understand whether ..., we implement ..."
_FRONTED = lazy(r"(?:to|in order to|by|through|using|with|after)\s+[^;:]{3,200}?,\s+(?=we\s+[a-z]{3,}\b)")
#: a verb whose "that" opens its object: "a quote ... states | that ..." cut there says nothing
_SAYS = lazy(r"\b(?:states?|show(?:s|ed)?|argues?|suggests?|finds?|found|indicates?|claims?|reveals?|demonstrates?|"
             r"notes?|observes?|believes?|says?|knows?|ensures?|means?|impl(?:y|ies)|assumes?|predicts?)$", re.I)
#: a clause that opens with what can only be a modifier: "to enter a character", "since DoubleFlip is ...",
#: "corresponding to the design procedure ..." (a participle's phrase, its clause cut away at the comma)
_FRAGMENT = lazy(r"(?:to|by|since|on|as|when|while|if|because|although|though|for|with|after|before|once|in|at|from|"
                 r"and|but|or|so|some|the\s+other\s+hand|given|compared|based|due|owing|according|"
                 r"[a-z]+ing\s+(?:to|on|upon|with|from|for)|[a-z]+ed\s+(?:to|by|with|on|from))\b", re.I)
#: a finite verb: an auxiliary, or a present or past form followed by what a verb takes ("revolves around",
#: "offers properties", "were designed and fabricated by")
_FINITE = lazy(r"\b(?:is|are|was|were|be|has|have|had|can|could|may|might|will|would|should|must|does|do|did)\b|"
               r"\b[a-z]{3,}(?:[^s\s']s|ed)\s+(?:the|a|an|its|their|our|that|how|whether|to|by|with|for|from|on|in|"
               r"into|around|about|as|and|[a-z]+s)\b")


def _has_verb(text: str) -> bool:
    """Whether a clause still has a finite verb after its subject (a crude reading: an auxiliary, or an
    "-s"/"-ed" word past the first followed by what a verb takes)."""
    words = text.split()
    return len(words) >= 2 and bool(_FINITE.search(" ".join(words[1:])))

