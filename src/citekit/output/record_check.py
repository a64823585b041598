"""Read a related-work sentence against the record of the paper it cites.

A reader judging a draft has each cited paper's record beside it (title, abstract, what
kind of work it is), and marks what only the record shows: a sentence copied word for word
from the abstract (a plagiarism checker flags it even when it is accurate), a title pasted
after "study" in place of what the paper does, the ways a title goes wrong in prose
(:mod:`citekit.output.title_check`), a paper said to "study" the system it
builds, a side result stated where the abstract names its contribution, an acronym the
abstract defines but the sentence does not, a blog post cited as a paper.
:mod:`citekit.output.related_check` holds the checks that need the text alone; these need
the record, so each takes the cited paper's :class:`CitedRecord`.

Each test is a feature that carries to papers nobody judged (a run of copied words, the
share of a title in the sentence, the ranker of :mod:`citekit.output.sentence_roles`), with
one threshold each, set on the development judgements (``bench/related_reader_bench.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from citekit.core.lazyre import lazy

#: words copied in a row from an abstract, outside quotation marks, before a reader calls the sentence copied: a
#: shorter run is a name and its gloss ("present WristFlex, an always-available on-body gestural interface")
VERBATIM_WORDS = 10
#: a title this long after "study" reads as pasted whatever it says; shorter ones that name a topic ("study gesture
#: recognition with a Wii controller") read as a sentence, unless three words or fewer ("study digital by material")
LONG_TITLE = 9
#: how much likelier the abstract's contribution sentence is than the one the sentence restates, before the
#: sentence counts as stating a side result
SIDE_MARGIN = 0.35

#: nouns for what a paper builds: a paper "presents" or "develops" them; it does not "study" its own
_ARTIFACT = lazy(r"\b(?:system|interface|device|tool|toolkit|technique|array|display|prototype|platform|assistant|"
                       r"environment|framework|application|app|glove|bracelet|sensor|widget|controller|editor)s?\b")
#: verbs of three letters or fewer that a paper's sentence may open with; any other is a stem a title was cut to
#: ("typ" from "Typing")
_SHORT_VERBS = frozenset("use uses run fit aid ask get see set map let add put try cut mix tag pin log win pay say fix "
                         "sum dig cap hit rig are is was can may has had did got led met ran saw won".split())
_STUDY = lazy(r"^(?:stud(?:y|ies))\s+(.*)$")
#: a sentence about earlier work, not the paper's own ("Previous research shows that ...")
_OTHERS = lazy(r"\b(?:previous|prior|earlier|existing|past|recent)\s+(?:research|work|works|studies|study|"
                     r"approaches|methods)\b", re.I)
#: a sentence that says what the paper made, in any voice: the ranker's cues miss the passive ("A novel
#: technique called X is introduced to ...")
_MADE = lazy(r"\b(?:novel|new)\s+\w+|\b(?:is|are)\s+(?:\w+ly\s+)?(?:introduced|presented|proposed|developed|"
                   r"described|designed)\b", re.I)
_WORDS = lazy(r"[a-z0-9]+")
_QUOTED = re.compile(r"[\"\u201c\u2018`']{1,2}[^\"\u201c\u201d\u2018\u2019`']{3,}[\"\u201d\u2019']{1,2}")


@dataclass(frozen=True)
class CitedRecord:
    """What the check knows of a cited paper: its record's title and abstract, and why it is no paper (or None)."""

    key: str
    title: str = ""
    abstract: str = ""
    not_paper: str | None = None


def _tokens(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def copied_run(sentence: str, abstract: str) -> str | None:
    """The longest run of at least :data:`VERBATIM_WORDS` words the sentence shares with the abstract, as the
    sentence writes it; None when there is none. Words inside quotation marks are quoted, not copied."""
    if not abstract:
        return None
    masked = _QUOTED.sub(lambda m: "|" * len(m.group(0)), sentence)
    spans = list(_WORDS.finditer(masked.lower()))
    mine = [m.group(0) for m in spans]
    theirs = _tokens(abstract)
    if len(mine) < VERBATIM_WORDS or len(theirs) < VERBATIM_WORDS:
        return None
    best, end = 0, 0
    previous = [0] * (len(theirs) + 1)
    for i, word in enumerate(mine, start=1):
        current = [0] * (len(theirs) + 1)
        for j, other in enumerate(theirs, start=1):
            if word == other:
                current[j] = previous[j - 1] + 1
                if current[j] > best:
                    best, end = current[j], i
        previous = current
    return sentence[spans[end - best].start():spans[end - 1].end()] if best >= VERBATIM_WORDS else None


def title_share(predicate: str, title: str) -> tuple[float, int]:
    """How much of the title the predicate repeats (by four-letter stems, in any order) and the title's length."""
    wanted = {w[:4] for w in _tokens(title) if len(w) > 2}
    words = {w[:4] for w in _tokens(predicate) if len(w) > 2}
    return (len(words & wanted) / len(wanted) if wanted else 0.0), len(_tokens(title))


def study_of_title(predicate: str, title: str) -> str | None:
    """What a reader marks in "study <title>": the paper is said to study the thing it builds, or a long title is
    pasted as the sentence. ``predicate`` is the sentence after its cited subject."""
    m = _STUDY.match(predicate.strip().rstrip("."))
    if not m or not title:
        return None
    share, length = title_share(m.group(1), title)
    if share < 0.8:
        return None
    # the head noun: the last word before the first preposition, clause or comma ("a ... actuator array for ...")
    head = re.split(r"\s+(?:of|for|with|to|that|which|who|by|on|in|using|via|through|from|into|at|as|under|and)\b|,",
                    m.group(1), maxsplit=1)[0].split()
    if head and _ARTIFACT.fullmatch(head[-1].lower()):
        return "wrong-verb"
    if length >= LONG_TITLE or length <= 3 or re.search(r"\bfor\s+\w+ing\b", m.group(1)) and ":" in title:
        return "pasted-title"
    return None


def _states_contribution(parts: list[str], index: int, name: str) -> bool:
    """Whether an abstract sentence can be the one that states the contribution: six words or more, in the paper's
    own voice ("we propose", "this paper", "our method", "we show"), not an add-on ("additionally, we") and not
    about earlier work ("previous research shows")."""
    from citekit.output.sentence_roles import FEATURES, sentence_features

    if len(parts[index].split()) < 6:
        return False
    values = dict(zip(FEATURES, sentence_features(parts, index, name)))
    cue = any(values[f] for f in ("propose", "study", "show", "we_subject", "this_paper", "our_method", "names_method"))
    return cue and not values["addon"] and not _OTHERS.search(parts[index])


def side_result(sentence: str, abstract: str, name: str = "") -> str | None:
    """The abstract's contribution sentence when ``sentence`` restates another of its sentences that the ranker
    scores well below it (a side result, a detail of the evaluation); None when it restates the contribution, or
    restates no sentence of the abstract closely enough to tell."""
    from citekit.output.sentence_roles import contribution_score
    from citekit.output.sentences import split_sentences

    parts = split_sentences(abstract)
    if len(parts) < 2:
        return None
    mine = {w for w in _tokens(sentence) if len(w) > 3}
    if len(mine) < 4:
        return None
    overlaps = [len(mine & {w for w in _tokens(p) if len(w) > 3}) / len(mine) for p in parts]
    restated = max(range(len(parts)), key=overlaps.__getitem__)
    if overlaps[restated] < 0.6 or _MADE.search(parts[restated]):
        return None
    scores = [contribution_score(parts, i, name) if _states_contribution(parts, i, name) else 0.0
              for i in range(len(parts))]
    best = max(range(len(parts)), key=scores.__getitem__)
    if best != restated and scores[best] - scores[restated] >= SIDE_MARGIN:
        return parts[best]
    return None


def record_defects(predicate: str, plain: str, records: list[CitedRecord]) -> list[tuple[str, str]]:
    """``(category, message)`` for what the cited records show about one sentence.

    ``predicate`` is the sentence after its cited subject, ``plain`` the sentence without
    citations or math.
    """
    found: list[tuple[str, str]] = []
    verb = re.match(r"\s*([a-z]+)\b", predicate)
    if verb and len(verb.group(1)) <= 3 and verb.group(1) not in _SHORT_VERBS:
        found.append(("grammar", f"'{verb.group(1)}' is no verb: a title's word cut to a stem; say what the paper does"))
    for record in records:
        quoted = [q for q in re.findall(r"[\"\u201c]([^\"\u201d]{2,})[\"\u201d]", predicate)
                  if q.lower() in record.title.lower()]
        if quoted:
            found.append(("pasted-title", f"'{quoted[0]}' is quoted from {record.key}'s title: say what the paper does "
                                          "instead"))
        if record.not_paper:
            found.append(("not-a-paper", f"{record.key} is a {record.not_paper}, not a paper: cite it in a footnote "
                                         "or leave it out of related work"))
        run = copied_run(plain, record.abstract)
        if run:
            words = _tokens(run)
            found.append(("verbatim", f"{len(words)} words copied word for word from {record.key}'s abstract "
                                      f"('{' '.join(run.split()[:6])} ...'): say it in your own words or quote it"))
        found += title_defects(predicate, plain, record)
        kind = study_of_title(predicate, record.title)
        if kind == "wrong-verb":
            found.append(("wrong-verb", f"{record.key} builds what the sentence says it studies: say 'present' or "
                                        "'develop' and what it does"))
        elif kind == "pasted-title" and title_share(predicate, record.title)[1] <= 3:
            found.append(("pasted-title", f"{record.key}'s title of three words or fewer pasted after "
                                          f"'{predicate.split()[0]}' says nothing a reader can follow: say what the "
                                          "paper does or finds"))
        elif kind == "pasted-title":
            found.append(("pasted-title", f"{record.key}'s title pasted after '{predicate.split()[0]}': say what "
                                          "the paper does or finds"))
        if len(records) == 1 and record.abstract:
            head, colon, _ = record.title.partition(":")
            better = side_result(plain, record.abstract, head.strip() if colon and len(head.split()) <= 3 else "")
            if better:
                found.append(("side-result", "the sentence restates a side result; the abstract's contribution is: "
                                             f"'{better[:90]}{'...' if len(better) > 90 else ''}'"))
    return found


def title_defects(predicate: str, plain: str, record: CitedRecord) -> list[tuple[str, str]]:
    """What a reader marks in a sentence made from the record's title or from the end of its cut-off abstract
    (see :mod:`citekit.output.title_check`)."""
    from citekit.output.title_check import (cut_copy, glued_subtitle, lowercased_name, stray_capital, tacked_subtitle,
                                            title_verb, unseen_references)

    found: list[tuple[str, str]] = []
    verb = title_verb(predicate, record.title, record.abstract)
    if verb:
        found.append(("wrong-verb", f"'{verb}' is {record.key}'s title's '{record.title.split()[0]}' made the authors' "
                                    "verb, which they do not do: say what the paper does (presents, studies, "
                                    f"evaluates) or who does it ('lets users {verb.rstrip('s')} ...')"))
    name = lowercased_name(plain, record.title, record.abstract)
    if name:
        head = record.title.partition(":")[0].strip()
        found.append(("pasted-title", f"'{name}' is the name {record.key}'s title writes '{head}': write it so, and "
                                      f"say what it is ('present {head}, a ... that ...')"))
    subtitle = tacked_subtitle(plain, record.title)
    if subtitle:
        found.append(("pasted-title", f"'{subtitle} ...' is {record.key}'s subtitle tacked on after a comma: say how "
                                      "it relates to the rest ('and ...', 'a system for ...', 'showing that ...')"))
    glued = glued_subtitle(plain, record.title)
    if glued:
        found.append(("pasted-title", f"'{glued}' glues on {record.key}'s subtitle where the title has a colon: say "
                                      "what the paper finds about it ('and show that ...')"))
    capital = stray_capital(plain, record.title, record.abstract)
    if capital:
        found.append(("pasted-title", f"'{capital}' keeps the capital of {record.key}'s title; the abstract writes "
                                      f"'{capital.lower()}'"))
    for phrase in unseen_references(plain, record.abstract):
        found.append(("definite-reference", f"'{phrase}' is introduced by an earlier sentence of {record.key}'s "
                                            "abstract, which the reader has not seen: name what it is"))
    cut = cut_copy(plain, record.abstract, record.title)
    if cut:
        found.append(("truncated", f"the sentence ends where {record.key}'s abstract is cut off ('... {cut}'): the "
                                   "clause is unfinished; complete it from the paper or end the sentence earlier"))
    return found


def acronym_hint(acronym: str, records: list[CitedRecord]) -> str:
    """How the cited abstract writes an acronym out ("zeroth-order (ZO)"), for the check's message; "" if none does."""
    from citekit.output.standalone import definitions

    for record in records:
        long = definitions(record.abstract or "").get(acronym)
        if long:
            return f": write it out as {record.key}'s abstract does, '{long} ({acronym})'"
    return ""
