"""What the user's paper really shares with one group of cited papers, and what each side does alone.

A reader judged "Like A and B, our work addresses mobile phones, but we find that ..." empty:
every paper of a section on mobile phones addresses mobile phones, and "but we find" contrasts
nothing. A co-author names the link the section's topic does not give (gestural input with
one paper, use while walking with another) and then says what the cited paper does and what
ours does instead. So, from the records alone:

* the shared ground is a phrase of the user's abstract (1-3 content words) that a record of
  the group also uses, none of whose words is the section's topic and at least one of whose
  words is rare in the section (a word half the section uses is the section's ground, not
  this group's);
* what a cited paper does is a phrase of its own title (else of its abstract) none of whose
  words the user's abstract uses, so "where X addresses P, we ..." is a difference both
  records bear out;
* what the user's paper does is a claim or method statement of its abstract, never a finding
  ("we find that ...", "bezel gestures offered the fastest ..."), cut at a natural break to a
  short clause (:func:`short_clause`) so no long run of the abstract is pasted.

When no phrase is shared beyond the section's topic, nothing is said (the caller leaves a TODO).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from citekit.core.lazyre import lazy
from citekit.core.text import fold, latex_to_text

#: the longest user clause written (words); a statement longer than this is cut at a natural break
AIM_WORDS = 12
#: a word used by at least this share of the section's records (and by three) is the section's ground, not a group's
COMMON_SHARE = 0.34

_TOKEN = lazy(r"[a-z0-9][a-z0-9\-']*")
#: a statement that reports what the paper found, not what it does: it is no contrast to another paper
_FINDING = lazy(r"^we\s+(?:find|found|show|showed|observe|observed|confirm|conclude|report|learn|learned|"
                r"discover|discovered|demonstrate)\b|\b(?:results?|findings?)\b|"
                r"\b(?:offered|outperformed|performed|was|were|led|yielded|significant(?:ly)?|faster|fastest|"
                r"slower|slowest|better|best|worse|most\s+accurate)\b", re.I)
#: where a clause can end: before a relative clause, a participle or a preposition that opens a modifier
_BREAK_AT = lazy(r"\s+(?=(?:that|which|who|whose|where|while|because|so|under|with|through|by|from|above|below|in|on|at|"
                 r"for|to|into|using|via|joined|consisting|based|including)\b)")
#: a clause cut here would end on a word that wants more: "possible", "implemented", "consisting", "it"
_DANGLING = lazy(r"(?:\b(?:possible|able|make|makes|allow|allows|enable|enables|is|are|be|been|it|its|"
                 r"a|an|the|of|to|and|or)|ly|ing|ed)$", re.I)
#: words that add nothing a short clause needs ("several design factors" is "design factors")
_FILLER = lazy(r"\b(?:several|various|novel|new)\s+(?=[a-z])")
#: verbs and adverbs read as a shared "topic" only by accident: a word the user writes after a subject or "to"
_AS_VERB = lazy(r"(?:\b(?:we|they|it|to|can|could|may|might|will|would|should|must|not|paper|work|study|article|"
                r"which|that|who|also)|\b[a-z]+ly)\s+$|^\s*$")


#: what follows a transitive verb, never a noun: "senses the hover height", "determines the pose"
_OBJECT_NEXT = lazy(r"\s+(?:the|a|an|its|their|our|this|these|how|whether|what|which)\b", re.I)
#: words that link sentences; never what a paper is about
_LINKING = frozenset("therefore thus hence however moreover furthermore instead indeed rather whereas".split())


def words_of(text: str) -> set[str]:
    """Stems of every word of ``text`` (hyphenated words also by their parts), as phrase keys are stemmed."""
    from citekit.output.related_topics import FUNCTION_WORDS, _stem

    out: set[str] = set()
    for w in _TOKEN.findall(fold(latex_to_text(text)).lower()):
        for part in {w, *w.split("-")}:
            part = part.strip("'-")
            if part and part not in FUNCTION_WORDS:
                out.add(_stem(part))
    return out


def _topical(stem: str, section: set[str]) -> bool:
    return stem[:6] in section or stem.rstrip("s")[:6] in section


@dataclass(frozen=True)
class Ground:
    """A phrase of the user's abstract that some records of a group use too."""

    phrase: str  # as the user's abstract writes it ("gestures", "eyes-free gestures")
    sharers: tuple[int, ...]  # which of the group's records use it (indexes into the group's texts)


class Section:
    """The section's records as word sets, to tell a group's ground from the whole section's."""

    def __init__(self, texts: list[str], section: set[str]) -> None:
        self.docs = [words_of(t) for t in texts]
        self.section = section
        n = len(self.docs)
        df: dict[str, int] = {}
        for d in self.docs:
            for w in d:
                df[w] = df.get(w, 0) + 1
        self.idf = {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in df.items()}
        least = max(3, math.ceil(COMMON_SHARE * n))
        #: words half the section uses: true of every group, so never a group's shared ground
        self.common = {w for w, c in df.items() if c >= least}
        self.default_idf = math.log(n + 1) + 1.0

    def weight(self, stem: str) -> float:
        return self.idf.get(stem, self.default_idf)

    def own(self, key: tuple[str, ...]) -> bool:
        """Whether a phrase says something beyond the section: no topic word, one word the section rarely uses."""
        return not any(_topical(w, self.section) for w in key) and any(w not in self.common for w in key)


def _keyed(found: dict[tuple[str, ...], str]) -> dict[tuple[str, ...], str]:
    """Phrase keys with every plural folded alike ("menus" and "menu" are one; the phrase reader keeps
    words in "-us" as they are)."""
    from citekit.output.positioning import _plural_folded

    out: dict[tuple[str, ...], str] = {}
    for key, written in found.items():
        out.setdefault(tuple(_plural_folded(w) for w in key), written)
    return out


def _both(text: str) -> dict[tuple[str, ...], str]:
    from citekit.output.related_topics import phrases

    return _keyed(phrases(text.replace("-", " ")) | phrases(text))


def _reads_bare(word: str) -> bool:
    """Whether one word reads as a topic without an article: a plural ("gestures") or a noun by its form
    ("perception", "navigation"), not a singular count noun ("actuator", "surface")."""
    if re.search(r"(?:tion|sion|ment|ness|ity|ics|ism|ance|ence|ure|ogy|phy|ship|age|ery|acy|ency|ware|sis|ia)$", word):
        return True
    return word.endswith("s") and not word.endswith(("ous", "ss", "ess"))


def _plain_words(text: str) -> dict[tuple[str, ...], str]:
    """Every word of ``text`` keyed as a one-word phrase (its stem), as the text writes it."""
    from citekit.output.related_topics import _stem

    out: dict[tuple[str, ...], str] = {}
    for w in _TOKEN.findall(fold(latex_to_text(text))):
        out.setdefault((_stem(w.lower()),), w)
    return out


def _used_as_verb(word: str, text: str) -> bool:
    """Whether the user's abstract writes ``word`` only as a verb or an adverb ("we probe", "to support",
    "this paper investigates", "Facet automatically determines"): no occurrence follows a word that can
    open a noun phrase (an article, a preposition, an adjective)."""
    spots = list(re.finditer(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", text, re.I))
    return not spots or word.lower().endswith("ly") or all(
        _AS_VERB.search(text[:m.start()]) or _OBJECT_NEXT.match(text[m.end():]) for m in spots)


def common_ground(mine_text: str, group_texts: list[str], section: Section) -> Ground | None:
    """The phrase the user's abstract shares with records of this group and not with the whole section, or None.

    Score: the summed rarity (IDF over the section) of the phrase's words, times how many of the
    group's records use it; a longer phrase wins a tie. A bare word counts when it is no verb in the
    user's abstract ("probe", "support") and not a word too vague alone (``phrases`` drops those).
    """
    from citekit.output.related_topics import _stem, phrases

    own = _keyed(phrases(mine_text))  # ("eyes-free" is one word of the user's: its "eyes" is no shared ground)
    # ... but a compound's head is what it names: "multi-display" is a display, "touch-screen" a screen
    heads = _keyed({(_stem(m.group(1)),): m.group(1) for m in re.finditer(r"\b[A-Za-z]+-([a-z]{4,})\b", mine_text)})
    theirs = [_both(t) for t in group_texts]
    best: tuple[tuple[float, int], Ground] | None = None
    for key, written in [*own.items(), *((k, w) for k, w in heads.items() if k not in own)]:
        if not section.own(key):
            continue
        head = key in heads and key not in own
        if len(key) == 1 and (key[0] in _LINKING or len(key[0]) < 4 or key[0].endswith(("ed", "ing")) or not head and (
                _used_as_verb(written, mine_text)
                or not re.search(rf"(?<![\w\-]){re.escape(written.lower())}(?![\w\-])", mine_text))):
            continue  # (a bare word also needs to be written in lower case: "Widgets" of "Hover Widgets" is a name)
        sharers = tuple(i for i, t in enumerate(theirs) if key in t)
        if not sharers:
            continue
        if len(key) == 1 and not _reads_bare(written.lower()):
            # "our work involves actuator" wants an article: the plural a sharing record writes reads bare
            written = next((w for i in sharers for k, w in _keyed(_plain_words(group_texts[i])).items()
                            if k == key and _reads_bare(w.lower())), "")
            if not written:
                continue
        score = sum(section.weight(w) for w in key if w not in section.common) * len(sharers)
        rank = (round(score, 6), len(key))
        if best is None or rank > best[0]:
            # (as running text writes it: "Menus" of a title is "menus", "HoverPen" stays a name)
            shown = " ".join(w if re.search(r"[a-z][A-Z]|\d|^[A-Z]{2,}", w) else w.lower() for w in written.split())
            best = (rank, Ground(shown, sharers))
    return best[1] if best else None


def their_focus(title: str, text: str, mine_text: str, section: Section) -> str | None:
    """What a cited paper does that the user's abstract never mentions: a phrase of its title, else of its record.

    The phrase has two or three words (one word says too little of what a paper does), no word of
    the section's topic and no word the user's abstract uses, so the difference is true of both.
    """
    from citekit.output.related_topics import _ADJECTIVE, GENERIC, WEAK_ALONE, phrases

    mine = words_of(mine_text)
    # a title's plain part first: "Take Me by the Hand: Haptic Compasses in ..." says what it does after the colon
    parts = [p for p in re.split(r"[:?]\s+", latex_to_text(title)) if p.strip()]
    for source in [*sorted(parts, key=lambda p: p is parts[0] and len(parts) > 1), text]:
        best: tuple[float, str] | None = None
        for key, written in phrases(source).items():
            if len(key) < 2 or any(w in mine or _topical(w, section.section) for w in key):
                continue
            if source is text and not re.search(rf"\b(?:a|an|the|of|for|on|in|with|and|its|their)\s+{re.escape(written)}\b",
                                                 text, re.I):
                continue  # (from an abstract, only a noun phrase: "construct audio-tactile messages" is a verb's)
            if key[-1] in GENERIC or key[-1] in WEAK_ALONE and len(key) < 3 or not re.search(r"[a-z]", written) \
                    or _ADJECTIVE.search(key[-1]) or key[0].endswith("ing"):
                continue  # (a phrase ends in its noun and does not open with a verb: not "Exploring Gestural Mode")
            score = sum(section.weight(w) for w in key)
            if best is None or score > best[0]:
                best = (score, written)
        if best:
            return _as_prose(best[1], text)
    return None


def _as_prose(phrase: str, text: str) -> str:
    """A phrase of a title as running text writes it: as the record's abstract writes it, else in lower
    case but for the words shaped as names ("3D", "PocketNavigator")."""
    m = re.search(rf"(?<![\w\-]){re.escape(phrase)}(?![\w\-])", text, re.I)
    if m:
        return m.group(0)
    return " ".join(w if re.search(r"[a-z][A-Z]|\d|^[A-Z]{2,}", w) else w.lower() for w in phrase.split())


def short_clause(clause: str, limit: int = AIM_WORDS) -> str | None:
    """A claim or method clause cut to at most ``limit`` words at a natural break, or None when none reads.

    "we probe several design factors for touch-screen gestures, under various levels of ..." ->
    "we probe design factors for touch-screen gestures": the first comma ends the clause unless what
    follows it is an apposition to a name ("we present Facet, a multi-display ..."); then a relative
    clause, a participle or a preposition past the limit is where it stops.
    """
    opening = re.match(r"(our work starts from the observation that|in our work,|in our [a-z\- ]+?,)\s+", clause)
    if opening:  # the observation itself is what is cut ("... that pen menus are slow | because ...")
        rest = short_clause(clause[opening.end():], limit)  # (the opening is citekit's, not a copied run)
        return f"{opening.group(1)} {rest}" if rest else None
    text = _FILLER.sub("", clause).strip()
    appositive = re.match(r"^(.*?\b[A-Z][\w\-]*),\s+((?:a|an)\s+[^,;]*)", text)
    if appositive:
        text = f"{appositive.group(1)}, {appositive.group(2)}"
    else:
        text = re.split(r"[,;:]\s+|\s+\(", text, maxsplit=1)[0]
    words = text.split()
    if len(words) <= limit:
        out = text
    else:
        cuts = [m for m in _BREAK_AT.finditer(text) if 4 <= len(text[:m.start()].split()) <= limit]
        if not cuts:
            return None
        # the last break that fits after a word a clause can end on: not "... that makes it possible | to"
        from citekit.output.related_topics import FUNCTION_WORDS

        whole = [m for m in cuts if not _DANGLING.search(text[:m.start()])
                 and text[:m.start()].split()[-1].lower() not in FUNCTION_WORDS]
        if not whole:
            return None
        out = text[:whole[-1].start()]
    from citekit.output.related_topics import FUNCTION_WORDS

    out = out.rstrip(" ,;:")
    if len(out.split()) < 3 or out.split()[-1].lower() in FUNCTION_WORDS:
        return None
    return out


def is_finding(clause: str) -> bool:
    """Whether a statement reports what the paper found (no contrast to what another paper does)."""
    return bool(_FINDING.search(clause))
