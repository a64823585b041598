"""Paragraphs a reader would draw: papers grouped by what they are about.

Two papers belong together when their texts (title and abstract) use the
same distinctive words, as TF-IDF over the selection measures, and when they carry the
same topic tags. Groups are built bottom-up (average linkage) and never grow past six
papers; a paper close to no other stays out of every group and ends up in a short
closing paragraph instead of a wrong one. A group is named after what its papers share:
a topic tag every one of them carries, else the distinctive words they all use.

The TF-IDF is computed here, with numpy, as scikit-learn's vectorizer would: importing
scikit-learn (SciPy with it) cost a four-paper draft some 2 s before it wrote a word.
"""

from __future__ import annotations

import math
import re
from typing import Any
from collections import Counter
from dataclasses import dataclass

from citekit.library.tags import TagRules
from citekit.core.model import Entry
from citekit.core.text import fold, latex_to_text
from citekit.output.related_topics import (FUNCTION_WORDS, GENERIC, WEAK_ALONE, Phrasebook, _stem, ranked_names,
                                           topic_sentence)
from citekit.core.lazyre import lazy

MIN_SIZE, MAX_SIZE = 2, 6
#: average similarity two groups need to be merged (phrase cosine and tag overlap mixed), tried
#: from the strictest down until few papers are left over; never looser than the last
THRESHOLDS = (0.3, 0.22, 0.16, 0.12, 0.08)
#: how close a paper left alone must be to a group to join it (the mean of its average and highest closeness
#: to the group's papers): looser than any grouping threshold, because joining also needs a term two of the
#: group's papers use and a phrase the group still shares (:func:`attach_leftovers`)
ATTACH_FLOOR = 0.05
#: how much closer a paper left alone counts to a group when its title has a term every title of the group has
#: and no other paper uses (the group's own point, not one member's word: "Sound as a Diagnostic Aid ..." beside
#: two papers titled "Diagnosis of Oral Disease by ...")
WHOLE_POINT = 2.0
#: how much closer (a share of their closeness) two papers of the same contribution kind are: two systems, two studies
KIND_BONUS = 0.25
#: how much closer two papers are whose records say they do the same thing (:meth:`Similarity._same_doing`)
DOES_BONUS = 0.15
_GENERIC = (
    "paper papers work works propose proposes proposed method methods approach approaches result results show shows "
    "shown study studies studied present presents introduce introduces new novel based using use used via "
    "problem problems existing prior recent recently demonstrate demonstrates experiments experimental empirical "
    "empirically theoretical theory analysis analyze provide provides achieve achieves performance significantly "
    "improve improves improved improving state art benchmark benchmarks support supports connects connect "
    "paper connects support approach theory experiments model models scale data task tasks "
    "key main simple effective efficient efficiently better best specifically finally furthermore moreover "
    "respectively code available github com https http www release released"
).split()


#: words too general to name a paragraph of an optimization library
_NAMELESS = frozenset(
    "optimization optimizer optimizers learning training method methods algorithm algorithms update updates "
    "practice complexity neural network networks deep model models large performance function functions way "
    "framework problem setting settings results analysis guarantees experiments".split())


_ADJECTIVE = lazy(r"(?:ic|al|ed|ous|ive|ar|ent|ant|ble|ful|less|wise|based|free|aware)$")


@dataclass
class Group:
    """One paragraph: its heading, its papers, and the words that named it."""

    heading: str
    members: list[Entry]
    words: list[str]
    closing: bool = False


def entry_text(entry: Entry, abstract: str, summary: str) -> str:
    """Title (twice: it says what the paper is about), abstract and summary, each its own sentence:
    a phrase is never read across the end of the title into the abstract ("pressure sensors WristFlex")."""
    return " . ".join(t.strip() for t in (entry.title, entry.title, abstract, summary) if t and t.strip())


def _plain(text: str) -> str:
    return latex_to_text(re.sub(r"(?<!\\)\$[^$]*\$", " ", text))


def _surface_forms(texts: list[str]) -> dict[str, str]:
    """Lower-case word -> the spelling the texts use most (``lmo`` -> ``LMO``, ``muon`` -> ``Muon``)."""
    counts: dict[str, Counter[str]] = {}
    for text in texts:
        for i, word in enumerate(re.findall(r"[A-Za-z][\w\-]*", text)):
            counts.setdefault(word.lower(), Counter())[word] += 1
    out = {}
    for low, c in counts.items():
        # A capital at the start of a sentence or title word says little: prefer a mixed/upper
        # form only when the texts use it at least as often as the lower-case one.
        best = max(c.items(), key=lambda kv: (kv[1] + (0.5 if kv[0] == low else 0), kv[0]))[0]
        if best[0].isupper() and best[1:].islower() and c.get(low, 0) > 0:
            best = low
        out[low] = best
    return out


#: the words of a title or abstract that are read as terms (folded text)
_TOKEN = lazy(r"(?u)\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b")


def english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop words, read from their module file alone: importing any
    part of scikit-learn loads the package (SciPy with it), some 2 s for a four-paper draft."""
    import importlib.util

    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        return frozenset(FUNCTION_WORDS)
    from pathlib import Path

    path = Path(list(spec.submodule_search_locations)[0]) / "feature_extraction" / "_stop_words.py"
    words = importlib.util.spec_from_file_location("_citekit_stop_words", path)
    if words is None or words.loader is None:
        return frozenset(FUNCTION_WORDS)
    module = importlib.util.module_from_spec(words)
    words.loader.exec_module(module)
    return frozenset(module.ENGLISH_STOP_WORDS)


def tfidf(plain: list[str], stop: set[str] | frozenset[str]) -> tuple[list[str], Any]:
    """The terms (words and two-word terms, stop words left out before pairing, sorted) and
    the row-normalized TF-IDF matrix of ``plain`` (numpy, one row per text), computed as
    scikit-learn's ``TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)`` does: tf
    ``1 + ln(count)``, idf ``ln((1 + n) / (1 + df)) + 1``, rows scaled to length 1. None for
    the matrix when the texts hold no word at all."""
    import numpy as np

    counts: list[Counter[str]] = []
    for text in plain:
        words = [w for w in _TOKEN.findall(fold(text)) if w not in stop]
        counts.append(Counter(words + [f"{a} {b}" for a, b in zip(words, words[1:])]))
    terms = sorted(set().union(*counts)) if counts else []
    if not terms:
        return [], None
    column = {t: i for i, t in enumerate(terms)}
    matrix = np.zeros((len(plain), len(terms)))
    for row, c in enumerate(counts):
        for term, k in c.items():
            matrix[row, column[term]] = math.log(k) + 1.0
    df = (matrix > 0).sum(axis=0)
    matrix *= np.log((1.0 + len(plain)) / (1.0 + df)) + 1.0
    norms = np.sqrt((matrix * matrix).sum(axis=1))
    norms[norms == 0.0] = 1.0
    return terms, matrix / norms[:, None]


class Similarity:
    """Pairwise closeness of papers: TF-IDF cosine of their texts, plus shared topic tags."""

    def __init__(self, entries: list[Entry], texts: list[str], topic_tags: list[set[str]],
                 topic: list[str] | None = None, names: frozenset[str] = frozenset()) -> None:
        """``names``: the words the records write as names (:func:`.related_topics.proper_names`), read from these
        records and passed, never left over from another selection."""
        self.entries = entries
        self.names = names
        self.plain = [_plain(t) for t in texts]
        self.terms, self.matrix = tfidf(self.plain, english_stop_words() | set(_GENERIC))
        self.df = [int(x) for x in (self.matrix > 0).sum(axis=0)] if self.matrix is not None else []
        self.forms = _surface_forms(self.plain)
        n = len(entries)
        import numpy as np

        from citekit.output.related_kinds import contribution
        from citekit.output.related_terms import claim, closeness, in_abstract, section_of, terms

        # what the papers do, without the section's own words (see :mod:`.related_terms`); the
        # TF-IDF above only names groups
        self.section = section_of(texts, list(topic or []))
        self.kinds = [contribution(t) for t in texts]
        text, self.points = closeness(texts, list(topic or []))
        # the terms of each title (its first sentence), that another paper also uses: what it says it is about
        self.titled = [{k for k in terms(t.split(" . ", 1)[0])} & p for t, p in zip(texts, self.points)]
        # the terms of what each paper says it does (its title and its "we present ..." sentence), that another
        # paper also uses: what a reader groups it by (:func:`.related_terms.claim`)
        self.claims = [claim(t) for t in texts]
        # (a term its abstract writes too: a title's figure of speech is not what a paper does)
        self.claimed = [set(terms(c)) & p & in_abstract(t) for c, p, t in zip(self.claims, self.points, texts)]
        text = np.asarray(text, dtype=float)
        same_kind = np.array([[bool(a) and a == b for b in self.kinds] for a in self.kinds], dtype=float)
        # two systems, or two studies, are a little closer: a reader groups by contribution too (a share of what
        # they already have in common: two systems that share nothing stay apart)
        text = np.clip(text * (1 + KIND_BONUS * same_kind) + DOES_BONUS * self._same_doing(texts), 0.0, 1.0)
        if any(topic_tags):
            # A tag most of the selection carries ("theory") says little about two papers: weigh by
            # rarity, and normalize by at least the weight of a tag only one paper carries, so sharing
            # nothing but a common tag counts for little.
            df = Counter(t for tags in topic_tags for t in tags)
            names = sorted(df)
            weight = np.array([math.log((n + 1) / df[t]) for t in names])
            has = np.array([[t in tags for t in names] for tags in topic_tags], dtype=float)
            shared = (has * weight) @ has.T
            own = has @ weight
            union = np.maximum(own[:, None] + own[None, :] - shared, math.log(n + 1))
            self.sim = 0.65 * text + 0.35 * shared / union
        else:
            self.sim = text

    def _same_doing(self, texts: list[str]):  # noqa: ANN202  (a square numpy array)
        """1 for two papers whose records say they do the same thing: an action on one object ("diagnose oral
        disease") or the same kind of artefact described alike ("bimanual techniques"), else 0. A reader
        groups papers by what they do; the words they share may be few."""
        import numpy as np

        from citekit.output.related_actions import action_of, actions, approach, approach_of
        from citekit.output.title_prose import lowercase_words

        words = lowercase_words()
        titles = [t.split(" . ", 1)[0] for t in texts]
        bodies = [t.split(" . ", 2)[2] if t.count(" . ") >= 2 else "" for t in texts]
        did = [actions(t, words) for t in texts]
        made = [approach(t, b) for t, b in zip(titles, bodies)]
        n = len(texts)
        out = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                if action_of([did[i], did[j]], self.section, self.names) \
                        or approach_of([made[i], made[j]], texts[i], self.section, self.names):
                    out[i, j] = out[j, i] = 1.0
        return out

    def shared_words(self, idx: list[int], limit: int = 2) -> list[str]:
        """The distinctive words (or two-word terms) the papers ``idx`` share, best first.

        Terms more of the papers use come first; among those, a two-word term ("quantization
        error", "pipeline parallelism") before a single word. Words most of the selection
        uses and words every optimization paper uses ("optimizer", "training") name nothing.
        """
        if self.matrix is None or not idx:
            return []
        rows = self.matrix[idx]
        common = max(2, len(self.entries) // 2)
        common_words = {t for t, d in zip(self.terms, self.df) if " " not in t and d > common}
        scored = []
        for t, term in enumerate(self.terms):
            col = rows[:, t]
            present = int((col > 0).sum())
            words = term.split()
            if present < 2 or self.df[t] > common or len(term) <= 3 or any(w in _NAMELESS for w in words) \
                    or any(w in GENERIC or w in FUNCTION_WORDS for w in words) \
                    or all(_section_word(w, self.section) or w in WEAK_ALONE for w in words):
                continue
            if len(words) > 1 and (len(set(words)) < len(words) or words[-1] in common_words):
                continue
            if len(words) == 1 and _ADJECTIVE.search(term):
                continue  # "stochastic", "federated": a heading needs the noun they qualify
            if len(words) == 1 and term in WEAK_ALONE:
                continue  # "objects", "systems": a heading needs what they are about (the topic sentences' rule)
            scored.append((-present, -len(words), -float(col.sum()), term))
        scored.sort()
        chosen: list[tuple[int, str]] = []
        for present, _, _, term in scored:
            if any({_stem(w) for w in term.split()} & {_stem(w) for w in c.split()} for _, c in chosen):
                continue  # (never "tabletop and tabletops")
            chosen.append((-present, term))
            if len(chosen) == limit or (len(chosen) == 1 and " " in term and -present == len(idx)):
                break
        return [" ".join(self.forms.get(w, w) for w in term.split()) for _, term in chosen]


def _section_word(word: str, section: set[str]) -> bool:
    """Whether a word is one of the section's own (the tag's, or one most of its papers use): it names no group."""
    from citekit.output.related_topics import of_section

    return of_section(word, section)  # ("wrist-worn" under smartwatch)


def cluster(sim, order: list[int]) -> list[list[int]]:  # noqa: ANN001  (a square numpy array)
    """Groups of papers: the strictest threshold of :data:`THRESHOLDS` that leaves few papers alone.

    A short closing paragraph is fine; one holding a quarter of the papers says the
    groups were drawn too tight, so the next (looser) threshold is tried.
    """
    allowed = max(3, len(order) // 4)
    for threshold in THRESHOLDS:
        groups = cluster_at(sim, order, threshold)
        if sum(1 for g in groups if len(g) < MIN_SIZE) <= allowed:
            return groups
    return groups


def cluster_at(sim, order: list[int], threshold: float) -> list[list[int]]:
    """Average-linkage groups of at most :data:`MAX_SIZE`, merged while closer than ``threshold``.

    The group-to-group closeness is kept in a matrix and updated after each merge
    (Lance-Williams), so a few hundred papers take milliseconds. ``order`` breaks ties, so
    the same papers always give the same groups.
    """
    import numpy as np

    n = len(order)
    link = np.array(sim, dtype=float)[np.ix_(order, order)]
    np.fill_diagonal(link, -np.inf)
    members = [[i] for i in order]
    alive = np.ones(n, dtype=bool)
    size = np.ones(n)
    while True:
        fits = (size[:, None] + size[None, :] <= MAX_SIZE) & alive[:, None] & alive[None, :]
        masked = np.where(fits, link, -np.inf)
        flat = int(np.argmax(masked))
        x, y = divmod(flat, n)
        if masked[x, y] < threshold:
            return [members[i] for i in range(n) if alive[i]]
        x, y = min(x, y), max(x, y)
        merged = (size[x] * link[x] + size[y] * link[y]) / (size[x] + size[y])
        link[x], link[:, x] = merged, merged
        link[x, x] = -np.inf
        members[x] = members[x] + members[y]
        size[x] += size[y]
        alive[y] = False
        link[y], link[:, y] = -np.inf, -np.inf


def attach_leftovers(sim, clusters: list[list[int]], tags: list[set[str]],  # noqa: ANN001
                     floor: float = ATTACH_FLOOR, points: list[set] | None = None,
                     book: Phrasebook | None = None, whole: float = 1.0,
                     titled: list[set] | None = None) -> list[int]:
    """Put each paper left alone into the group it is closest to, if close enough.

    A reader files a painting tool with the other handcrafting tools even when it missed the
    strict threshold, and a paper on large displays with the one other paper on large displays
    even when the rest of that group is about something else: closeness to a group is the mean
    of the paper's average and its highest closeness to the group's papers. Only a paper close
    to no group (under ``floor``) stays for "Other related work". Groups never grow past
    :data:`MAX_SIZE` this way, nor into a group whose papers all carry a topic tag
    (``tags``) the paper lacks: that group is the user's own sub-topic. With ``points`` (each
    paper's terms, :attr:`Similarity.points`), a paper joins only a group whose own point it
    shares: a term at least two of the group's papers use, so a paper that shares a word with
    one member ("monitoring" with a gesture pendant for medical monitoring) does not change what
    the group is about; with ``whole`` (:data:`WHOLE_POINT`) and ``titled`` (each paper's title terms), a paper
    whose title has a term every title of the group has, and no other paper uses, counts that much closer. With ``book`` (the selection's phrases), a paper never joins a group whose
    papers share a phrase a topic sentence can say unless the group still shares one with it: a
    group that says what it is about is not turned into one that says nothing. Changes
    ``clusters`` in place; returns the real leftovers.
    """
    groups = [c for c in clusters if len(c) >= MIN_SIZE]
    alone = [i for c in clusters if len(c) < MIN_SIZE for i in c]
    rest = []
    used = Counter(t for p in titled or points or [] for t in p)
    for i in alone:
        best, score = None, floor
        for g in groups:
            if len(g) >= MAX_SIZE or set.intersection(*(tags[j] for j in g)) - tags[i]:
                continue
            if points is not None and not any(sum(t in points[j] for j in g) >= 2 for t in points[i]):
                continue
            if book is not None and _says(book, g) and not _says(book, [*g, i]):
                continue
            avg = (float(sum(sim[i][j] for j in g)) / len(g) + max(float(sim[i][j]) for j in g)) / 2
            if titled is not None and any(used[t] == len(g) + 1 and all(t in titled[j] for j in g) for t in titled[i]):
                avg *= whole  # it uses the group's own term: every paper of the group uses it, and no other
            if avg >= score:
                best, score = g, avg
        if best is None:
            rest.append(i)
        else:
            best.append(i)
    clusters[:] = [*groups, *([[i] for i in rest])]
    return rest


def title_pairs(sim, leftovers: list[int], titled: list[set], titles: list[str],  # noqa: ANN001
                floor: float = ATTACH_FLOOR) -> list[tuple[list[int], str]]:
    """Groups of papers left alone whose titles, or the sentences that say what they do, share a term no other
    paper uses ("Diagnosis of Oral Disease by Percussion Sound", "Sound as a Diagnostic Aid ...": under a
    ``music`` tag, "diagnos"; three input devices whose titles or claims say "magnetic", "magnetically driven",
    "ferromagnetic"), each paper as close to another of them as a paper must be to join a group (``floor``); the
    most papers first, then a longer term, then the closest; each with a heading, the shared term as a title (else
    a claim) writes it ("Diagnosis"). Leftovers that do the same work are a paragraph, not entries of a catch-all.
    ``titled`` is each paper's title terms (:attr:`Similarity.titled`), or those of its claim
    (:attr:`Similarity.claimed`); ``titles`` the texts the heading is read from (titles, or claims)."""
    from citekit.output.related_terms import _KEEP, _WEAK
    from citekit.output.related_topics import term_root as root

    weak = {root(w) for w in _WEAK | _KEEP}
    used = Counter(t for p in titled for t in p)
    found = []
    for term in sorted({t for i in leftovers for t in titled[i]}):
        idx = [i for i in leftovers if term in titled[i]]
        if not MIN_SIZE <= len(idx) <= MAX_SIZE or used[term] != len(idx) or all(w in weak for w in term):
            continue
        if all(max(float(sim[i][j]) for j in idx if j != i) >= floor for i in idx):
            mean = sum(float(sim[i][j]) for i in idx for j in idx if i < j) / (len(idx) * (len(idx) - 1) / 2)
            found.append((-len(idx), -len(term), -mean, term, idx))
    out, taken = [], set()
    for _, _, _, term, idx in sorted(found):
        if taken & set(idx):
            continue
        # (as a title writes it before as a claim does: "Magnetic" of a title, not "magnetically" of an abstract)
        name = _as_written(term, [titles[i].split(" . ", 1)[0] for i in idx] + [titles[i] for i in idx])
        if name:
            taken |= set(idx)
            out.append((idx, name))
    return out


def of_topic(name: str, topic: list[str], claims: list[str]) -> str:
    """A word the papers write only before another ("Magnetic": "magnetic field", "magnetically driven",
    "ferromagnetic sensing") names, with the section's topic, the kind of it they do ("Magnetic input"), when
    the topic is one word every paper's claim (:func:`.related_terms.claim`) writes; else ""."""
    from citekit.output.related_terms import terms, writes_phrase
    from citekit.output.related_topics import term_root as root

    from citekit.output.related_headings import verb_form

    if len(topic) != 1 or " " in name or not claims or verb_form(name) \
            or not (_ADJECTIVE.search(name.lower()) or name.lower().endswith("ile")):  # ("mobile", "tactile")
        return ""  # (a word of the form of an adjective only: "Developed", "Taken", "Playing" are verbs')
    word = topic[0].replace("-", " ").strip()
    if " " in word or not all((root(word.lower()),) in terms(c) for c in claims):
        return ""
    # (a paper must write the two words as one phrase, "mobile thumb input": two robots that take speech are no
    # "Robotic speech", though both claims write "robot" and "speech")
    if not any(writes_phrase(root(name.lower()), root(word.lower()), c) for c in claims):
        return ""
    return f"{name} {word.lower()}"


def _as_written(term: tuple[str, ...], titles: list[str]) -> str:
    """The words of ``term`` (stems) as a title writes them, a noun by its form first ("Diagnosis" over
    "Diagnostic", "Surfaces" over "Surface"), or ""."""
    from citekit.output.related_topics import _plain
    from citekit.output.related_topics import term_root as root

    forms = []
    for title in titles:
        words = re.findall(r"[A-Za-z0-9]+", _plain(title))
        for i in range(len(words) - len(term) + 1):
            if tuple(root(fold(w).lower()) for w in words[i:i + len(term)]) == term:
                forms.append(" ".join(words[i:i + len(term)]))
    noun = re.compile(r"(?:s|sis|tion|sion|ment|ness|ity|ing|ics|ism|ance|ence|ure|ogy|phy)$", re.I)
    return min(forms, key=lambda f: (not noun.search(f), forms.index(f)), default="")


def _says(book: Phrasebook, idx: list[int]) -> bool:
    """Whether the papers ``idx`` share a phrase a topic sentence can say (:func:`.related_topics.topic_sentence`)."""
    return topic_sentence(ranked_names(book.themes(idx), len(idx)), len(idx), "papers", book.names) is not None


#: words that make a heading say nothing: a record's structure, or a word a paper uses about itself
_HOLLOW = frozenset("abstract introduction conclusion paper papers article work works study studies results "
                    "related other".split())


def hollow(heading: str) -> bool:
    """Whether a heading names nothing: a word repeated ("Modeling: modeling"), a record's
    structure ("Abstract"), or only function words."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9][\w\-]*", heading)]
    content = [w for w in words if w not in {"and", "or", "of", "the", "a", "an", "in", "on", "for", "with", "to"}]
    return not content or len(set(content)) < len(content) or any(w in _HOLLOW for w in content)


def name_group(members: list[Entry], idx: list[int], similarity: Similarity, skip: set[str],
               rules: TagRules, counts: Counter[str]) -> tuple[str, list[str]]:
    """A heading from what the papers share: a topic tag all of them carry, else their common words."""
    words = similarity.shared_words(idx)
    shared = set.intersection(*(set(e.tags) for e in members)) - skip
    # Only a distinctive tag names a paragraph: one most of the selection carries does not.
    total = max(counts.values(), default=0)
    shared = {t for t in shared if t in rules.rules and counts[t] <= max(len(members), total // 2)}
    if shared:
        tag = min(shared, key=lambda t: (counts[t], t))
        return rules.label(tag), words
    if words:
        phrase = " and ".join(words)
        return phrase[:1].upper() + phrase[1:], words
    return "", words


def topic_tags(entry: Entry, skip: set[str], rules: TagRules) -> set[str]:
    return {t for t in entry.tags if t not in skip and t in rules.rules}
