"""The sentence that opens a paragraph: how its papers relate, true of every paper it covers.

A reader keeps an opener that says what the papers do together ("Both papers diagnose oral
disease", "FingerGlass and Pointable are both bimanual techniques") and strikes one that says only
a word they share ("Half of these papers address sensors"). The records are read for, in order:
an action every paper writes on one object (:func:`.related_actions.shared_action`); the kind of
artefact every paper presents, with a word of how each describes it
(:func:`.related_actions.shared_approach`); and a phrase of their records all of them use, each in
its title or the sentence that states its contribution (:func:`.related_topics.topic_sentence`). When none of these holds there is no opener:
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

def _names(names: list[str]) -> str:
    return names[0] + " and " + names[1] if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _all(count: int) -> str:
    return "both" if count == 2 else f"all {_NUMBERS.get(count, str(count)).lower()}"


def opener(titles: list[str], abstracts: list[str], themes: list[Theme], size: int, kind: str,
           section: set[str] | None = None, record_names: frozenset[str] = frozenset()) -> str | None:
    """The paragraph's first sentence, or None when its records give nothing true of all of them.

    ``titles`` and ``abstracts`` are the papers' (an abstract as far as it is one); ``themes`` the
    phrases they share (:meth:`.related_topics.Phrasebook.themes`, ranked); ``size`` how many papers
    the paragraph cites; ``kind`` what all of them are ("systems", "studies", "papers");
    ``section`` the section's own words, which never make a group's point; ``record_names`` the words the
    records write as names (:attr:`.related_topics.Phrasebook.names`).
    """
    texts = [f"{t} . {a}" for t, a in zip(titles, abstracts)]
    names = [paper_name(t, a) for t, a in zip(titles, abstracts)]
    named = len(names) == size <= 3 and all(names) and len(set(names)) == len(names)
    if len(texts) == size >= 2:
        action = shared_action(texts, section, record_names)
        if action:
            verb, thing = action
            if named:
                return f"{_names(names)} {_all(size)} {verb} {thing}."
            return f"{_counted(size, kind)} {verb} {thing}."
        made = shared_approach(titles, abstracts, section, record_names)
        if made:
            _, what = made
            if named:
                return f"{_names(names)} are {_all(size)} {what}."
            return f"{_counted(size, kind)} present {what}."
    # a phrase every paper writes (one word in any of its forms, "gestural" and "gestures" alike): "Most of these
    # papers address gestures" is vague, and false where all do; said of some of them it is no group's point
    everyone = [t for t in themes if _written_by_all(t, texts, size) and len(titles) == size
                and owned_by_all(" ".join(t.key), titles, abstracts)]
    said = topic_sentence([replace(t, papers=size) for t in everyone], size, kind, record_names)
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


def owned_by_all(phrase: str, titles: list[str], abstracts: list[str], *, once: bool = False) -> bool:
    """Whether every paper says the phrase of itself, every word of it in some form: in its title or the
    sentence of its abstract that states its contribution (:func:`.sentences.contribution`); else, for a
    phrase of two words or more, in a sentence of its abstract after the opening one (which sets the scene),
    or in the opening one when the title gives a word of it;
    for a single word, in two sentences of its abstract. Of three papers or more, one may use it only in
    passing. A word the papers use in passing makes no opener true: a reader struck "Three papers address mechanism." (one paper's only mechanism was the input
    mechanism of its test bed) and "Both papers address electronic devices." (one paper names them only in
    its opening, as what paper outdoes). With ``once``, one word also needs only one sentence past the opening
    (a link to one paper, which names the paper it is said of, not a claim about a group)."""
    from citekit.output.related_topics import FUNCTION_WORDS
    from citekit.output.sentences import contribution, split_sentences

    want = _roots_of(phrase, FUNCTION_WORDS)
    if not want or len(titles) != len(abstracts):
        return False
    owned = 0
    for title, abstract in zip(titles, abstracts):
        found = contribution(abstract, title=title) if abstract else None
        if want <= _roots_of(f"{title} . {found.sentence if found else ''}", frozenset()):
            owned += 1
            continue
        sentences = split_sentences(abstract) if abstract else []
        saying = [n for n, s in enumerate(sentences) if want <= _roots_of(s, frozenset())]
        # (the opening sentence counts for a phrase whose other word the title gives: "touch-based mobile devices"
        # opens a paper titled "... Mobile Touch-Based Text-Entry", but not "current electronic devices" one on paper)
        titled = bool(want & _roots_of(title, frozenset()))
        owned += (len(want) > 1 or once) and any(n > 0 or titled for n in saying) or len(want) == 1 and len(saying) >= 2
    # (of three papers or more, one may say it in passing: "Three papers address gestures" stays true of a
    # body-driven game whose players trigger actions with hand gestures; of two, both must say it)
    return owned >= len(titles) - (len(titles) >= 3)


def _roots_of(text: str, skip: frozenset[str]) -> set[str]:
    """The roots of the words of ``text``, hyphenated words also by their parts ("gesture-based": "gestur")."""
    words = re.findall(r"[a-z0-9][a-z0-9\-]*", fold(text).lower())
    return {root(p) for w in words for p in {w, *w.split("-")} if p and p not in skip}


def _counted(size: int, kind: str) -> str:
    """The opener's subject when the papers are not named: "Both systems", "Three studies"."""
    return f"Both {kind}" if size == 2 else f"{_NUMBERS.get(size, 'All these')} {kind}"
