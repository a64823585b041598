"""One root for the forms of a word, so two abstracts that say "gestural" and "gestures" are seen to share it.

A reader names the link between two papers by the thing both study, however each abstract
inflects it: "gestural input" and "touch-screen gestures", "while moving" and "movement",
"attentional load" and "visual attention". Plural folding alone ("menus" -> "menu") misses
those, so a word is reduced here by stripping at most two derivational or inflectional
endings (a light suffix stripper in the spirit of Porter's, without its measure rules: the
roots are only ever compared with each other, never shown). A root keeps at least three
letters, so short words ("use", "bus") stay as they are; an adjective's "-ic" goes only from a root
of four letters or more, so "robotic" meets "robot" and "haptics" "haptic", but "topic" and
"music" stay whole; an adverb's "-ally" goes as one ending, so "magnetically" meets "magnetic" and "magnet".
"""

from __future__ import annotations

#: endings stripped, longest first; each pass strips one, and a word gets at most two passes
_ENDINGS = ("isation", "ization", "ational", "ations", "ation", "ional", "ities", "ments", "ment", "ness",
            "ings", "ions", "ity", "ing", "ion", "ive", "ies", "ied", "ous", "ful", "al", "ic", "es", "ed", "ally", "ly", "s", "e")
#: Latin plurals papers write, by their singular: no ending stripped makes one of the other
_LATIN = {"matrices": "matrix", "vertices": "vertex", "indices": "index", "simplices": "simplex",
          "appendices": "appendix"}
#: the fewest letters a root keeps
MIN_ROOT = 3


def _strip_once(word: str) -> str:
    for end in _ENDINGS:
        if not word.endswith(end) or len(word) - len(end) < MIN_ROOT:
            continue
        if end == "s" and word.endswith("ss"):
            return word  # "glass": no plural to fold ("menus" is one: "corpus" loses its "s" on both sides alike)
        if end == "ic" and len(word) - 2 < MIN_ROOT + 1:
            return word  # "music", "topic", "basic" stay whole ("robotic" -> "robot", "haptics" -> "hapt")
        if end in ("ies", "ied"):
            return word[:-3] + "y"
        return word[:-len(end)]
    return word


def root(word: str) -> str:
    """The root of one lower-case word: "gestural", "gestures", "gesture" -> "gestur";
    "moving", "movement" -> "mov"; "attentional", "attention" -> "attent"."""
    word = word.lower().strip("'-")
    word = _LATIN.get(word, word)  # ("matrices" is "matrix": no ending strips one to the other)
    once = _strip_once(word)
    out = _strip_once(once) if once != word else once
    # the Latin "-duce"/"-duct" verbs: "reduced" -> "reduc" but "reduction" -> "reduct"; one root for both
    # ("reduce", "reduction", "production", "produces", "construct", "construction" -> "reduc", "produc", "construc")
    return out[:-1] if out.endswith("uct") and len(out) > MIN_ROOT + 2 else out
