"""The sentence that opens a paragraph: how its papers relate, true of every paper it covers.

A reader keeps an opener that says what the papers do together ("Both papers diagnose oral
disease", "FingerGlass and Pointable are both bimanual techniques") and strikes one that says only
a word they share ("Half of these papers address sensors"). The records are read for, in order:
an action every paper writes on one object (:func:`.related_actions.shared_action`), and the kind
of artefact every paper presents, with a word of how each describes it
(:func:`.related_actions.shared_approach`). When neither holds there is no opener: no sentence is
better than a hollow one, and ``--check`` says so (``no-topic-sentence``) so the author knows what
to write.

A phrase all the papers write is no opener on its own ("Both papers address gestures", "Three papers
address community"): it names what the papers are about, which the heading already says, not what
they do. Readers struck it as vacuous in 131 of the 152 paragraphs it opened over nine judged sets,
and in all 62 of the last four; such a phrase still names the paragraph and holds its papers together
(:func:`.related_groups`), it is only not said again as a sentence.
"""

from __future__ import annotations

import re

from citekit.core.text import fold
from citekit.output.related_actions import paper_name, shared_action, shared_approach
from citekit.output.related_topics import _NUMBERS, Theme
from citekit.output.word_roots import root

def _names(names: list[str]) -> str:
    return names[0] + " and " + names[1] if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _all(count: int) -> str:
    return "both" if count == 2 else f"all {_NUMBERS.get(count, str(count)).lower()}"


def opener(titles: list[str], abstracts: list[str], themes: list[Theme], size: int, kind: str,
           section: set[str] | None = None, record_names: frozenset[str] = frozenset()) -> str | None:
    """The paragraph's first sentence, or None when its records give nothing true of all of them.

    ``titles`` and ``abstracts`` are the papers' (an abstract as far as it is one); ``themes`` the
    phrases they share (:meth:`.related_topics.Phrasebook.themes`, ranked), which name the paragraph but
    open none; ``size`` how many papers
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
    # (a phrase every paper writes, "Both papers address gestures", only repeats the heading: no opener)
    return None


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


#: how a paper says what it works with: "using X", "based on X", "by means of X", "via X", "with the help of X"
_MEANS = re.compile(r"(?<![\w\-])(?P<how>using|based\s+on|by\s+means\s+of|via|with\s+the\s+help\s+of)\s+"
                    r"(?P<np>[^,;:.()\"“”]+)", re.I)
#: where the means' noun phrase ends: a clause or a purpose after it ("using the body as an antenna for ...")
_MEANS_END = re.compile(r"\s+(?:that|which|who|whom|where|when|while|whereas|to|for|in\s+order|so|thus|and\s+(?:we|it|they|"
                        r"then|show|present|evaluate|demonstrate|propose|describe|report|find)|is|are|was|were|can|"
                        r"could|has|have)\b.*$", re.I)
#: a means that points at something the sentence cannot show ("using the proposed system", "based on their texture")
_DEICTIC = re.compile(r"\b(?:their|its|this|these|those|our|such|proposed|above|same)\b", re.I)
#: the most words a means may have: a longer one is a clause, not a means
MEANS_WORDS = 8


def means_of(title: str, abstract: str, names: frozenset[str] = frozenset()) -> str | None:
    """What the paper works with, as its own contribution sentence (else its title) says it: "using elements of
    genetic programming", "based on surface EMG sensors and 2D-accelerometers", or None.

    A reader tells the papers of a group apart by their means ("@A with EMG and accelerometers, @B using the
    body as an antenna"); the phrase is the record's own, cut where a clause or a purpose begins."""
    from citekit.output.related_topics import FUNCTION_WORDS, GENERIC
    from citekit.output.sentences import contribution

    from citekit.core.text import latex_to_text

    title = latex_to_text(title or "")  # ("{{Sensing Gestures Using}} the {{Body}}": the title as it reads)
    from citekit.core.text import latex_to_text

    title = latex_to_text(title or "")  # ("{{Sensing Gestures Using}} the {{Body}}": the title as it reads)
    found = contribution(abstract, title=title) if abstract else None
    for text in ((found.rest if found else ""), title):
        m = _MEANS.search(text or "")
        if not m:
            continue
        if text[m.end():].lstrip().startswith("("):
            continue  # ("using a combination of Computer Aided Consumer Design (CACD) and ...": the phrase goes on)
        np = _MEANS_END.sub("", m.group("np").strip()).strip()
        np = re.sub(r"\s+(?:and|or|of|the|a|an|in|on|with|by)$", "", np)
        words = np.split()
        content = [w for w in re.findall(r"[a-z0-9][a-z0-9\-]*", fold(np).lower())
                   if w not in FUNCTION_WORDS and w not in GENERIC]
        if not content or len(words) > MEANS_WORDS or "\\" in np or "$" in np or _DEICTIC.search(np):
            continue
        how = re.sub(r"\s+", " ", m.group("how").lower())
        return f"{how} {_lowered(np, names) if text is title else np}"
    return None


def _lowered(phrase: str, names: frozenset[str] = frozenset()) -> str:
    """A title's phrase in sentence case: a capitalized word an English dictionary knows in lower case is lowered
    ("Elements of Genetic Programming" -> "elements of genetic programming"), and so is one the records never write
    as a name (``names``, :attr:`.related_topics.Phrasebook.names`); a name stays ("Hidden Markov Models" ->
    "hidden Markov models"), and so does a word with inner capitals or digits ("EMG", "2D")."""
    from citekit.output.title_prose import lowercase_words

    known = lowercase_words()

    def one(word: str) -> str:
        if "-" in word:
            return "-".join(one(p) for p in word.split("-"))
        title_case = word[:1].isupper() and word[1:].islower()
        return word.lower() if title_case and (word.lower() in known or word not in names) else word

    return " ".join(one(w) for w in phrase.split())


def differing_means(titles: list[str], abstracts: list[str], said: str,
                    names: frozenset[str] = frozenset()) -> list[str] | None:
    """Each paper's means (:func:`means_of`), when every paper of the group names one and no two name the same:
    what the opener adds to say how the papers differ ("..., @A using X and @B based on Y"). None when any paper
    names none, when two share their means (a shared means is no difference), or when a means only repeats what
    the opener ``said`` they share ("Both papers address hand tracking, @A based on hand tracking")."""
    if not 2 <= len(titles) <= MEANS_PAPERS or len(titles) != len(abstracts):
        return None
    said_roots = _roots_of(said, _SAID_SKIP)
    out: list[str] = []
    seen: list[set[str]] = []
    for title, abstract in zip(titles, abstracts):
        means = means_of(title, abstract, names)
        if means is None:
            return None
        own = _roots_of(re.sub(r"^(?:using|based on|by means of|via|with the help of)\s+", "", means), _SAID_SKIP)
        if not own or own & said_roots or any(2 * len(own & s) >= min(len(own), len(s)) for s in seen):
            return None  # (two means mostly alike, "surface muscle sensors" twice, are no difference)
        seen.append(own)
        out.append(means)
    return out


#: the most papers whose means an opener lists: past four it is a list of its own
MEANS_PAPERS = 4
#: words of an opener that say nothing of its topic
_SAID_SKIP = frozenset("both all two three four five six papers paper systems studies address examine present "
                       "are is these of the a an and or in on as with to for".split())
