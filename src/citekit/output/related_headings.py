"""A paragraph's heading: a noun phrase a reader would use for what its papers do or study.

Readers strike headings that are stray words of the abstracts ("However", "Taken", "Make"),
verb forms ("Playing", "Teaching"), the section's own topic word or a form of it ("Play"
under ``game``), and single words the papers mention in passing ("Keyboard", "Feedback": what
the papers replace or report, not what they are about). A heading they keep is one of the
papers' own phrases that says what this group does against the rest of the section
("Bimanual techniques", "Pneumatic tactile displays", "Dwell time").

So a heading is chosen from candidate phrases of the group's records, each of which must be
well formed by tests that do not depend on any list of words fitted to examples:

- it occurs as such (the same words, as :func:`.related_topics.phrases` reads them) in at
  least two of the group's papers, and the records use it as a noun phrase
  (:meth:`.related_topics.Phrasebook.usage`);
- it is not a discourse word: a word the records write only to open a sentence ("However,");
- alone, it is not verb morphology: a participle or gerund of a verb ("taken", "playing");
- it is not the section's topic or a form of it (roots compared by :func:`.word_roots.root`), nor, alone,
  a word the records fuse to the topic word or write as a verb right after it ("gameplay", "game playing");
- it is specific to the group: more of the group's papers use it than of the rest of the section (a
  single word in any of its forms);
- a single word must be a word of one of the group's titles (a title says what a paper is
  about; a word only its abstract uses is mentioned in passing).

Among those, phrases more of the group's titles use come first, then phrases more of its papers
use, then longer ones, then rarer ones. The artefact every paper says it presents, with the
word each describes it by ("bimanual techniques", :func:`.related_actions.shared_approach`),
is a candidate too. Where nothing passes, a plain heading from what the papers are
("Systems", "Studies") is better than a wrong one, when the papers' records say they do one
thing (:func:`.related_actions.shared_action`); a group of papers that share nothing gets no
heading at all: it is no group.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from citekit.core.lazyre import lazy
from citekit.core.text import fold
from citekit.output.related_topics import (FUNCTION_WORDS, ROOT_LETTERS, Phrasebook, _inside, _plain, _stem, heading_case,
                                          phrases)
from citekit.output.word_roots import root

#: a word shaped as a name ("DiLoCo", "INT4", "SAM"): never put in the plural
_NAME = re.compile(r"[a-z][A-Z]|\d|^[A-Z]{2,}")
#: a plain heading from what a group's papers are (:func:`.related_kinds.contribution`), where none of their
#: phrases names them
NEUTRAL = {frozenset({"system"}): "Systems", frozenset({"study"}): "Studies",
           frozenset({"system", "study"}): "Systems and studies"}


@lru_cache(maxsize=1)
def _words() -> frozenset[str]:
    from citekit.output.title_prose import lowercase_words

    return lowercase_words()


@lru_cache(maxsize=4096)
def verb_form(word: str) -> bool:
    """Whether one word is inflected verb morphology: a gerund ("playing", "teaching"), a past
    participle ("taken", "printed") of a verb the word list knows. A noun by its form
    ("building" stays a verb form here: alone it names an act, not a topic)."""
    from citekit.output.related_actions import _base, _is_verb

    low = fold(word).lower()
    words = _words()
    if low.endswith("ing") and len(low) > 5:
        return _base(low, words) is not None
    if low.endswith("ed") and len(low) > 4:
        stems = (low[:-2], low[:-1], low[:-3] if len(low) > 5 and low[-3] == low[-4] else "")
        return any(s and s in words and _is_verb(s, words) for s in stems)
    if low.endswith("en") and len(low) > 4:
        return low[:-1] in words and _is_verb(low[:-1], words) and low[:-1] + "s" in words
    return False


#: words that say how a paper argues, not what it works on: two papers that each compare something share no work
ARGUED = frozenset("comparison comparisons overview overviews review reviews survey surveys analysis analyses "
                   "evaluation evaluations investigation investigations exploration explorations assessment "
                   "assessments".split())


#: a comma within three words: what follows a word that opens a clause ("However, ...", "Taken together, ...")
_CLAUSE_COMMA = lazy(r"(?:\s+[\w\-]+){0,2}\s*,")


def discourse_word(word: str, texts: list[str]) -> bool:
    """Whether the records (``texts``: abstracts, not titles, whose first word opens nothing) write ``word``
    to open a sentence and a clause ("However, ...", "Taken together, ..."): at least half of its uses
    open a sentence and are followed by a comma within three words."""
    pattern = re.compile(r"(?<![\w\-])" + re.escape(word) + r"(?![\w\-])", re.I)
    total = opening = 0
    for text in texts:
        for m in pattern.finditer(text):
            total += 1
            i = m.start() - 1
            while i >= 0 and text[i].isspace():
                i -= 1  # (back to the character before it: a copy of all the text before each use made this quadratic)
            if (i < 0 or text[i] in ".!?:;") and _CLAUSE_COMMA.match(text, m.end()):
                opening += 1
    return bool(total) and opening * 2 >= total


@dataclass
class Candidate:
    """A phrase that could head a group: how it reads, and why it ranks where it does."""

    text: str
    key: tuple[str, ...]
    in_titles: int  # how many of the group's titles use it
    papers: int  # how many of the group's papers use it
    outside: int  # how many of the section's other papers use it
    rarity: float


@dataclass
class Selection:
    """The records of one section, as every heading of it is tested against them: ``titles`` and ``abstracts`` by
    index, as in ``book``, and ``topic``, the section's tag words. What is read of all the records (each one's word
    roots, its abstract as plain text, the facets of the topic) is read once, however many groups are headed."""

    book: Phrasebook
    titles: list[str]
    abstracts: list[str]
    topic: list[str]

    @cached_property
    def own(self) -> set[str]:
        """The roots of the section's tag words."""
        return _topic_roots(self.topic)

    def of_section(self, word_root: str) -> bool:
        """Whether a word's root (:func:`.word_roots.root`) is the section's own: a root of its tag words, or one
        of the book's section words (:attr:`.related_topics.Phrasebook.topic`, cut as :func:`.related_topics.term_root`
        cuts them)."""
        return word_root in self.own or word_root[:ROOT_LETTERS] in self.book.topic

    @cached_property
    def facets(self) -> frozenset[str]:
        """The roots of words the records write as facets of the topic (:func:`_facets`)."""
        return _facets(self.topic, self.book.plain)

    @cached_property
    def roots(self) -> list[frozenset[str]]:
        """Each paper's text (:attr:`.related_topics.Phrasebook.plain`) as the roots of its words."""
        return [frozenset(root(w) for w in re.findall(r"[a-z0-9]+", fold(t).lower())) for t in self.book.plain]

    @cached_property
    def bodies(self) -> list[str]:
        """The abstracts the book reads (:attr:`.related_topics.Phrasebook.bodies`) as plain text."""
        return [_plain(b) for b in self.book.bodies]

    @cached_property
    def title_phrases(self) -> list[dict[tuple[str, ...], str]]:
        """The phrases of each title (:func:`.related_topics.phrases`)."""
        return [phrases(t) for t in self.titles]

    @cached_property
    def _opens_clauses(self) -> dict[str, bool]:
        return {}

    def opens_clauses(self, word: str) -> bool:
        """:func:`discourse_word` of ``word`` over the section's abstracts, read once per word: every group's
        candidate headings ask it again, and each asking scanned every abstract."""
        said = self._opens_clauses.get(word)
        if said is None:
            said = self._opens_clauses[word] = discourse_word(word, self.bodies)
        return said


def _topic_roots(topic: list[str]) -> set[str]:
    return {root(w) for t in topic for w in re.split(r"[-_\s]+", fold(t).lower()) if w}


def _roots(text: str) -> set[str]:
    return {root(w) for w in re.findall(r"[a-z0-9]+", fold(text).lower()) if w not in FUNCTION_WORDS}


def why_not(sel: Selection, key: tuple[str, ...], idx: list[int]) -> str | None:
    """Why the phrase ``key`` cannot head the papers ``idx`` of the selection ``sel``, or None when it can."""
    book = sel.book
    written = book.written.get(key, " ".join(key))
    words = written.split()
    group = {book.paper[i] for i in idx}
    users = _users(sel, key)
    inside = len(users & group)
    if inside < 2:
        return "used by fewer than two of the group's papers"
    if not book.usage(key)[0] and not (len(key) == 1 and book._plural(key[0])):
        # ("tabletop computers", "product design": a word used before a noun names a topic only where a record
        # also writes it as a plural noun, "tabletops", "products")
        return "not a noun phrase as the records use it"
    if any(w.lower().strip("'") in FUNCTION_WORDS for w in (words[0], words[-1])):
        return "starts or ends with a function word"
    if len(words) == 1 and verb_form(words[0]):
        return "a verb form alone"
    if len(words) == 1 and fold(words[0]).lower() in ARGUED:
        return "how a paper argues, not what it works on"
    if sel.opens_clauses(words[0]):
        return "a discourse word"
    if (len(words) == 1 and root(fold(words[0]).lower()) in sel.own) or all(book._of_section(w) for w in words):
        return "the section's own topic"
    if _roots(written) and all(sel.of_section(r) for r in _roots(written)):
        return "the section's own topic"
    if all(sel.of_section(r) or r in sel.facets for r in _roots(written)):
        return "a facet of the section's topic"  # ("Play", "Game playing" under game)
    if inside <= len(users - group):
        # (one word counts in any of its forms: "play" where other papers write "playing", "playful")
        return "as many of the section's other papers use it"
    if len(words) == 1 and not any(key in sel.title_phrases[i] for i in idx):
        return "a single word none of the group's titles uses"
    return None


def _facets(topic: list[str], texts: list[str]) -> frozenset[str]:
    """The roots of words a record fuses to the section's topic word ("gameplay") or writes as a verb form right
    after the topic word ("game playing"): under ``game``, "play" is then a facet of the section's topic, not a
    group's own ("game environment", "game gestures" make no such facet). A fused word is cut after the topic word
    as the tag writes it too, not only after its root ("gam" leaves "eplay" of "gameplay")."""
    own = _topic_roots(topic)
    prefixes = own | {w for t in topic for w in re.split(r"[-_\s]+", fold(t).lower()) if w}
    found: set[str] = set()
    for text in texts:
        words = re.findall(r"[a-z0-9]+", fold(text).lower())
        for a, b in zip(words, words[1:]):
            if root(a) in own and verb_form(b):
                found.add(root(b))
        for w in set(words):
            for o in prefixes:
                if len(w) > len(o) and w.startswith(o) and root(w) not in own:
                    found.add(root(w[len(o):]))
    return frozenset(found)


def _users(sel: Selection, key: tuple[str, ...]) -> set[int]:
    """The papers (:attr:`.related_topics.Phrasebook.paper`) that use a phrase; for one word, any word of its
    root ("play" in "players", "playful", "gameplay"'s records alike): a word is specific to a group only if
    the rest of the section does not write it in another form."""
    book = sel.book
    if len(key) > 1:
        return {book.paper[j] for j in range(book.n) if key in book.per_paper[j]}
    want = root(key[0])
    return {book.paper[j] for j, words in enumerate(sel.roots) if want in words}


def candidates(sel: Selection, idx: list[int]) -> list[Candidate]:
    """Well-formed phrases of the papers ``idx`` (see :func:`why_not`), best first."""
    book = sel.book
    group = {book.paper[i] for i in idx}
    keys = {k for i in idx for k in book.per_paper[i]}
    out = []
    for key in keys:
        if why_not(sel, key, idx):
            continue
        users = _users(sel, key)
        in_titles = len({book.paper[i] for i in idx if key in sel.title_phrases[i]})
        text = book.written[key]
        if len(key) == 1 and not _NAME.search(text):
            # (a noun alone is said as the records write its plural, "Tabletops", "Gestures": a bare singular
            # reads as a mass noun or a modifier cut from its noun)
            text = book._plural(key[0]) or text
        out.append(Candidate(text, key, in_titles, len(users & group), len(users - group),
                             math.log((book.n + 1) / max(1, len(users)))))
    # (a phrase inside a longer one the same papers use says less: "tactile displays" in "pneumatic tactile displays")
    out = [c for c in out if not any(_inside(c.key, d.key) and d.papers >= c.papers for d in out)]
    need = max(2, math.ceil(len(group) / 2))
    # (a phrase at least half the group uses first, since a heading is true only of the papers that write it;
    # then more of the group's titles, a longer phrase before a single word, more papers, rarer)
    out.sort(key=lambda c: (c.papers < need, c.in_titles < 2, -(len(c.key) > 1), -c.papers, -c.rarity,
                            c.outside, c.text))
    return out


def group_heading(sel: Selection, idx: list[int], kinds: list[str], used: set[str], neutral: bool = True,
                  every: bool = False) -> tuple[str, list[int]]:
    """The heading of the papers ``idx`` (indices into the selection ``sel``), not one
    of ``used`` (lower case) nor sharing a word with one, and the papers of ``idx`` it is true of; ``("", [])``
    when there is none. With ``every``, only a heading true of every paper of ``idx`` (a leftover joining
    a group needs a heading the whole group writes, never one that leaves a paper out). With ``neutral``, a group whose papers share no phrase is headed by what they are
    (``kinds``, each paper's :func:`.related_kinds.contribution`: "Systems", "Studies", "Systems and
    studies"), when each says.

    A phrase heading is true of the papers that write it: a paper of ``idx`` that does not is not
    about what the heading says (a study of colour selection under "Gestures"), and the caller can
    leave it out of the group."""
    from citekit.output.related_actions import shared_action, shared_approach

    book, titles, abstracts = sel.book, sel.titles, sel.abstracts
    found = shared_approach([titles[i] for i in idx], [abstracts[i] for i in idx], book.topic, book.names)
    if found:
        said = heading_case(found[1], book.names)
        if said.lower() not in used and not _overlaps(said, used) and not _roots(said) <= sel.own:
            return said, list(idx)
    for c in candidates(sel, idx):
        said = heading_case(c.text, book.names)
        if said.lower() not in used and not _overlaps(said, used):
            users = _users(sel, c.key)
            true_of = [i for i in idx if book.paper[i] in users]
            if every and len(true_of) < len(idx):
                continue
            return said, true_of
    plain = NEUTRAL.get(frozenset(kinds)) if kinds and all(kinds) else None
    if neutral and plain and shared_action([f"{titles[i]} . {abstracts[i]}" for i in idx], book.topic, book.names):
        # (only papers whose records say they do one thing, "Both systems diagnose gum disease", are a group
        # without a phrase of their own; two systems that share nothing are none)
        for said in (plain, "Further " + plain.lower()):
            if said.lower() not in used:
                return said, list(idx)
    return "", []


def _overlaps(phrase: str, used: set[str]) -> bool:
    """Whether a heading would share a content word with one already given ("Modeling" after "3D modeling")."""
    words = _roots(phrase)
    return any(words & _roots(h) for h in used)


def written_by(heading: str, title: str, abstract: str) -> bool:
    """Whether a paper's record writes every content word of ``heading`` in some form, close together ("3D
    models" for "3D modeling", "machine knitting" for "Knitting machines"): the heading is then true of it,
    though its records do not say the heading's phrase as such. Words far apart ("social video ... interactive
    process" for "Social interaction") say something else."""
    words = _roots(heading)
    if not words:
        return False
    said = [root(w) for w in re.findall(r"[a-z0-9]+", fold(f"{_plain(title)} . {_plain(abstract)}").lower())
            if w not in FUNCTION_WORDS]
    span = len(words) + 1
    return any(words <= set(said[n:n + span]) for n in range(len(said)))


def stray_word(heading: str, titles: list[str], abstracts: list[str], topic: list[str],
               book: Phrasebook | None = None) -> bool:
    """Whether a heading, read against its paragraph's records, is one a reader strikes: a single word
    that is a verb form, a discourse word, a word of how a paper argues (:data:`ARGUED`: "Comparison"), the
    section's topic or a form of it, or a word none of the
    paragraph's titles uses. (A bench's count: generated headings pass :func:`why_not` by construction.)"""
    words = re.findall(r"[A-Za-z0-9][\w\-]*", heading)
    if not words:
        return True
    texts = [_plain(a) for a in abstracts]
    if _roots(heading) and _roots(heading) <= _topic_roots(topic):
        return True
    if len(words) > 1 or heading in NEUTRAL.values():
        return False
    word = words[0]
    if fold(word).lower() in ARGUED:
        return True  # ("Comparison" of a comparison of leashes and one of feeding schedules: how, not what)
    in_titles = any(re.search(r"(?<![\w\-])" + re.escape(root(fold(word).lower())), fold(_plain(t)).lower())
                    for t in titles)
    if book is not None and not book.usage((_stem(fold(word).lower()),))[0]:
        return True  # ("Rich" of "rich user interaction" and "STEM-Rich": a modifier, not a topic)
    return verb_form(word) or discourse_word(word, texts) or not in_titles
