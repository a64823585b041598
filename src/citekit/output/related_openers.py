"""The sentence that opens a paragraph: how its papers relate, true of every paper it covers.

A reader keeps an opener that says what the papers do together ("Both papers diagnose oral
disease", "FingerGlass and Pointable are both bimanual techniques") and strikes one that says only
a word they share ("Half of these papers address sensors"). The records are read for, in order:
an action every paper writes on one object (:func:`.related_actions.shared_action`); the kind of
artefact every paper presents, with a word of how each describes it
(:func:`.related_actions.shared_approach`); and a phrase of their records all of them, or most of
them, use (:func:`.related_topics.topic_sentence`). When none of these holds there is no opener:
no sentence is better than a hollow one, and the draft says so in the check's terms
(``no-topic-sentence``) so the author knows what to write.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citekit.core.text import fold
from citekit.output.related_actions import paper_name, shared_action, shared_approach
from citekit.output.related_topics import _NUMBERS, Theme, topic_sentence
from citekit.output.word_roots import root

#: what the draft says where a paragraph gets no opener: the check's category, and what to write
NO_OPENER = ("no-topic-sentence: these papers' records share no action, artefact or phrase that is "
             "true of all of them; say first what they have in common")


def _names(names: list[str]) -> str:
    return names[0] + " and " + names[1] if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _all(count: int) -> str:
    return "both" if count == 2 else f"all {_NUMBERS.get(count, str(count)).lower()}"


def opener(titles: list[str], abstracts: list[str], themes: list[Theme], size: int, kind: str,
           section: set[str] | None = None) -> str | None:
    """The paragraph's first sentence, or None when its records give nothing true of all of them.

    ``titles`` and ``abstracts`` are the papers' (an abstract as far as it is one); ``themes`` the
    phrases they share (:meth:`.related_topics.Phrasebook.themes`, ranked); ``size`` how many papers
    the paragraph cites; ``kind`` what all of them are ("systems", "studies", "papers");
    ``section`` the section's own words, which never make a group's point.
    """
    texts = [f"{t} . {a}" for t, a in zip(titles, abstracts)]
    names = [paper_name(t, a) for t, a in zip(titles, abstracts)]
    named = len(names) == size <= 3 and all(names) and len(set(names)) == len(names)
    if len(texts) == size >= 2:
        action = shared_action(texts, section)
        if action:
            verb, thing = action
            if named:
                return f"{_names(names)} {_all(size)} {verb} {thing}."
            return f"{_counted(size, kind)} {verb} {thing}."
        made = shared_approach(titles, abstracts, section)
        if made:
            _, what = made
            if named:
                return f"{_names(names)} are {_all(size)} {what}."
            return f"{_counted(size, kind)} present {what}."
    # a phrase every paper writes (one word in any of its forms, "gestural" and "gestures" alike): "Most of these
    # papers address gestures" is vague, and false where all do; said of some of them it is no group's point
    everyone = [t for t in themes if _written_by_all(t, texts, size)]
    said = topic_sentence([replace(t, papers=size) for t in everyone], size, kind)
    if said is None:
        return None
    if named:
        # (what each made, by its name: "FingerGlass and Collapse-to-Zoom both address screens")
        verb = "examine" if kind == "studies" else "address"
        return f"{_names(names)} {_all(size)} {verb} {said[0].split(f' {verb} ', 1)[1]}"
    return said[0]


def _written_by_all(theme: Theme, texts: list[str], size: int) -> bool:
    """Whether every one of the ``size`` papers (``texts``, title then abstract) writes the phrase: a phrase of
    several words as such (:attr:`.related_topics.Theme.papers`), one word in any of its forms."""
    if theme.papers >= size:
        return True
    if len(theme.key) > 1 or len(texts) != size:
        return False
    want = root(theme.key[0])
    return all(want in {root(w) for w in re.findall(r"[a-z0-9]+", fold(t).lower())} for t in texts)


def _counted(size: int, kind: str) -> str:
    """The opener's subject when the papers are not named: "Both systems", "Three studies"."""
    return f"Both {kind}" if size == 2 else f"{_NUMBERS.get(size, 'All these')} {kind}"
