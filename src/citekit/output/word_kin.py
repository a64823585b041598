"""Words a section's records use in each other's place ("tactile feedback", "haptic feedback"), from the records alone.

A reader struck "Like A, our work deals with gestures, but where A focuses on tactile feedback,
we present a haptic wristwatch": the user's paper is about haptic feedback too, it only calls
it "haptic". Word roots (:mod:`.word_roots`) do not join "tactile" and "haptic", and a word list
of synonyms would hold only the words someone thought of. So two words are taken as kin when the
section's own records write them in the same slots: both right before "feedback" and both
right after "pneumatic" ("pneumatic tactile display", "pneumatic haptic feedback actuator").
This is distributional similarity over adjacent words (each word's left and right neighbours,
by root, as a count vector, compared by cosine), which finds words that stand in for each other;
document co-occurrence (TF-IDF/LSA over ten abstracts) was tried and joins words of one topic
("tactile" with "display", "force", "size") rather than words of one meaning.

It is only ever used to hold a difference back (a cited paper's focus whose telling word is
kin to a word of the user's abstract is no difference), so a pair joined by accident costs a
contrast, never writes a false one.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from citekit.core.lazyre import lazy
from citekit.core.text import fold, latex_to_text
from citekit.output.word_roots import root

#: the fewest distinct neighbours two words must share to be kin (one shared neighbour is chance)
MIN_SHARED = 2
#: the least cosine of their neighbour counts
MIN_COSINE = 0.2

_PIECE = lazy(r"[.,;:!?()\[\]\"“”]")
_WORD = lazy(r"[a-z][a-z0-9\-']*")


class Kin:
    """Which words the texts write in the same slots, by root."""

    def __init__(self, texts: list[str]) -> None:
        from citekit.output.related_topics import FUNCTION_WORDS

        self._slots: dict[str, Counter[str]] = defaultdict(Counter)
        for text in texts:
            for piece in _PIECE.split(fold(latex_to_text(text or "")).lower()):
                words = _WORD.findall(piece)
                for i, w in enumerate(words):
                    if w in FUNCTION_WORDS:
                        continue
                    if i + 1 < len(words) and words[i + 1] not in FUNCTION_WORDS:
                        self._slots[root(w)]["R:" + root(words[i + 1])] += 1
                    if i > 0 and words[i - 1] not in FUNCTION_WORDS:
                        self._slots[root(w)]["L:" + root(words[i - 1])] += 1
        # (each root's squared length, summed once: :meth:`of` compares one root with every other)
        self._norm2 = {w: sum(v * v for v in slots.values()) for w, slots in self._slots.items()}
        self._cache: dict[str, frozenset[str]] = {}

    def similarity(self, a: str, b: str) -> float:
        """How alike the slots of two roots are: 0 unless they share :data:`MIN_SHARED` neighbours."""
        left, right = self._slots.get(a), self._slots.get(b)
        if not left or not right or a == b:
            return 0.0
        shared = left.keys() & right.keys()
        if len(shared) < MIN_SHARED:
            return 0.0
        dot = sum(left[k] * right[k] for k in shared)
        return dot / math.sqrt(self._norm2[a] * self._norm2[b])

    def of(self, word_root: str) -> frozenset[str]:
        """The roots written in the same slots as ``word_root`` ("tactil" -> {"hapt"} in a haptics section)."""
        if word_root not in self._cache:
            self._cache[word_root] = frozenset(o for o in self._slots
                                               if self.similarity(word_root, o) >= MIN_COSINE)
        return self._cache[word_root]

    def said_by(self, word_root: str, words: set[str]) -> bool:
        """Whether ``words`` (roots) hold ``word_root`` or a word of its kin."""
        return word_root in words or bool(self.of(word_root) & words)
