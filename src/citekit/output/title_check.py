"""What a reader marks when a sentence was made from the cited paper's title, read against that record.

A sentence made from a title reads fine to a reader when it is a sentence ("study gesture
recognition with a Wii controller"); the readers marked the ways a title goes wrong in prose,
each of which the record shows:

- the title's opening gerund made the authors' verb ("Constructing Virtual 3D Models ..." ->
  "construct virtual 3D models"), when the authors do not do that (no research verb, or the
  abstract never has them do it): the users construct the models, not the authors;
- the one-word name before the title's colon written in lower case ("study easigami");
- the subtitle tacked on after a comma ("..., with complexities of ...", "..., The democratization
  of invention"), which joins two phrases without saying how they relate, or glued on with
  "for" where the title has a colon before a gerund ("Accessibility in Context: Understanding
  ..." -> "accessibility in context for understanding ...");
- one word left with the title's capital mid-sentence ("large Workspace haptic devices") that
  the abstract writes in lower case;
- the end of an abstract the record cuts off, copied as the end of the sentence ("for
  variously-sized buttons placed."), so the sentence stops mid-clause;
- an abstract sentence copied with its "the X" that an earlier sentence of the abstract
  introduced ("the system" of "We built a system ... The system ..."): the reader of the
  related work never saw it.

Each test reads the sentence and the one record it cites; none needs a list of judged strings.
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy

#: verbs of inquiry: a paper explores, examines or evaluates its topic whatever the abstract says ("Exploring the Use
#: of Gestures ..." -> "explore the use of gestures ...")
INQUIRY_VERBS = frozenset(
    "explore examine investigate study evaluate compare analyze analyse assess measure characterize quantify survey "
    "review revisit rethink".split())
#: verbs of making: the authors' act only where the record says so, or where the title is all it says ("Combining
#: ... Displays" -> "combine ... displays"); "Designing for Learning ..." is a discussion of design, not a design.
#: Any other verb ("enjoy", "enable", "make", "type", "understand") is never the authors' act
MAKING_VERBS = frozenset(
    "present propose introduce develop design build create combine implement model simulate test describe demonstrate "
    "identify classify detect extend improve augment prototype fabricate apply integrate".split())
#: words of an abstract, beyond the title's, before it says more than the title (a publisher's blurb, "Official
#: Full-Text Publication: <title> on ResearchGate", has fewer): with fewer, the title is all a writer has
REAL_ABSTRACT = 20
_WORDS = lazy(r"[a-z0-9]+")
_AUTHORS = r"\b(?:we|this\s+(?:paper|work|study|article|note)|the\s+authors|our\s+\w+)\s+(?:\w+\s+){0,2}?"


def _tokens(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def _same_verb(word: str, gerund: str) -> bool:
    """Whether ``word`` is a form of the verb a gerund comes from ("types" and "Typing", "gets" and "Getting"), by
    their roots (:func:`citekit.output.word_roots.root`); a gerund's doubled consonant ("Getting") is undone."""
    from citekit.output.word_roots import root

    mine, theirs = root(word), root(gerund)
    return mine == theirs or len(theirs) > 3 and theirs[-1] == theirs[-2] and mine == theirs[:-1]


def _base(verb: str) -> str:
    """The plain form of a verb in the third person ("studies" -> "study", "makes" -> "make") when it is one of the
    verbs this module knows; the word as it is otherwise."""
    known = INQUIRY_VERBS | MAKING_VERBS
    for form in (verb, verb[:-3] + "y" if verb.endswith("ies") else "", verb[:-2] if verb.endswith("es") else "",
                 verb[:-1] if verb.endswith("s") else ""):
        if form in known:
            return form
    return verb


def real_abstract(title: str, abstract: str) -> bool:
    """Whether the abstract says more than the title: :data:`REAL_ABSTRACT` words beyond the title's."""
    wanted = set(_tokens(title))
    return len([w for w in _tokens(abstract) if w not in wanted]) >= REAL_ABSTRACT


def cut_off(abstract: str) -> bool:
    """Whether a record's abstract stops mid-sentence (a library snippet: no closing stop, or a closing ellipsis)."""
    end = abstract.rstrip().rstrip(")]\"'\u201d")
    return bool(end) and (not end.endswith((".", "!", "?")) or end.endswith(("...", "\u2026")))


def title_verb(predicate: str, title: str, abstract: str) -> str | None:
    """The verb a sentence took from the title's opening gerund, when the paper's authors do not do it; else None."""
    first = re.match(r"\s*([A-Z][a-z]+ing)\b", title)
    verb = re.match(r"\s*([a-z]+)\b", predicate)
    if not first or not verb or not _same_verb(verb.group(1), first.group(1)):
        return None
    said = verb.group(1)
    base = _base(said)
    if base in INQUIRY_VERBS:
        return None
    if base in MAKING_VERBS:
        if not real_abstract(title, abstract):
            return None  # the title is all the record says: "combine point force haptic and tactile displays"
        if cut_off(abstract):
            return None  # the record lost the abstract's end, where the authors may say they do it
        stem = first.group(1).lower()[:-3][:5]
        if re.search(_AUTHORS + re.escape(stem), abstract, re.I):
            return None  # the abstract has the authors do it
    return said


def lowercased_name(sentence: str, title: str, abstract: str) -> str | None:
    """The name before the title's colon ("Easigami: ...") as the sentence writes it in lower case, or None.
    A head the abstract itself writes in lower case is a phrase, not a name."""
    head, colon, _ = title.partition(":")
    head = head.strip()
    words = head.split()
    # one word ("Easigami", "Fitter"), or a name's possessive and a word ("Daichi's Artworking"): two plain words
    # ("Situated Modeling", "Homebrew Databases") are a phrase a sentence may write in lower case
    if not colon or not (len(words) == 1 or len(words) == 2 and words[0].endswith(("'s", "\u2019s"))) \
            or not head[:1].isupper() or head.isupper():
        return None
    low = head.lower()
    m = re.search(rf"(?<![\w-]){re.escape(low)}(?![\w-])", sentence)
    if not m or head in sentence or re.search(rf"(?<![\w-]){re.escape(low)}(?![\w-])", abstract):
        return None
    return m.group(0)


def tacked_subtitle(sentence: str, title: str) -> str | None:
    """The title's subtitle joined on after a comma ("..., with complexities of ...", "..., The democratization ..."),
    as the sentence writes it; None when the sentence does not join it so."""
    _, colon, subtitle = title.partition(":")
    words = _tokens(subtitle)[:3]
    if not colon or len(words) < 2:
        return None
    m = re.search(r",\s+(?:with\s+)?(" + r"\W+".join(re.escape(w) for w in words) + r")\b", sentence, re.I)
    if not m:
        return None
    joined = sentence[m.start():m.end()].lstrip(", ")
    # "a shape-stamping interface" after a name is an appositive a reader keeps; "with X", a capital or a bare
    # participle ("..., getting the design right") is a paste
    return joined if joined.lower().startswith("with ") or m.group(1)[:1].isupper() \
        or re.fullmatch(r"[a-z]+ing", words[0]) else None


#: subtitles that say what a study does ("Understanding ...", "Acknowledging ..."): glued on with "for" they read as
#: the purpose of the title's topic; a tool's subtitle ("Creating Organic 3D Shapes ...") is its purpose and reads so
_STUDY_GERUNDS = frozenset("understanding acknowledging exploring examining investigating rethinking reflecting "
                           "revisiting questioning evaluating assessing comparing characterizing analyzing analysing "
                           "unpacking uncovering mapping".split())


def glued_subtitle(sentence: str, title: str) -> str | None:
    """The title's gerund subtitle glued on with "for" ("... in context for understanding the ..."), as the sentence
    writes it; None when it is not. A title that has the "for" itself ("... for Enhancing ...") wrote it so."""
    head, colon, subtitle = title.partition(":")
    first = re.match(r"\s*([A-Z][a-z]+ing)\b", subtitle)
    if not colon or not first or first.group(1).lower() not in _STUDY_GERUNDS \
            or re.search(rf"\bfor\s+{first.group(1)}", title, re.I):
        return None
    m = re.search(rf"\bfor\s+{first.group(1).lower()}\b", sentence)
    return m.group(0) if m else None


def stray_capital(sentence: str, title: str, abstract: str) -> str | None:
    """One word mid-sentence with the capital the title gives it ("large Workspace haptic devices") that the
    abstract writes in lower case and never with a capital mid-sentence; None if there is none."""
    if not abstract:
        return None
    for m in re.finditer(r"(?<=[a-z,]\s)([A-Z][a-z]{3,})\b", sentence):
        word = m.group(1)
        if re.search(rf"\b{word}\b", title) and re.search(rf"\b{word.lower()}\b", abstract) \
                and not re.search(rf"(?<![.!?:]\s)(?<=\s){word}\b", abstract):
            return word
    return None


def cut_copy(sentence: str, abstract: str, title: str = "") -> str | None:
    """The last words of a sentence when they are the last words of an abstract the record cuts off mid-sentence
    ("... buttons placed", "... a weight-shifting..."): the copy stops where the record does. None otherwise."""
    text = abstract.strip()
    cut = text.endswith(("...", "\u2026")) or not re.search(r"[.!?][\"')\]]*$", text)
    if not cut:
        return None
    mine, theirs = _tokens(sentence), _tokens(text)
    if len(mine) < 3 or len(theirs) < 3 or mine[-3:] != theirs[-3:] or _tokens(title)[-3:] == mine[-3:]:
        return None  # (an "abstract" that is the title again ends where the title does, which is no cut)
    return " ".join(sentence.rstrip(". ").split()[-3:])


def unseen_references(sentence: str, abstract: str) -> list[str]:
    """"the X" phrases of a sentence that restates one of the abstract's sentences, where X was introduced by an
    earlier sentence of the abstract and not in the sentence itself; empty when the sentence restates none."""
    from citekit.output.sentences import split_sentences
    from citekit.output.standalone import back_references

    parts = split_sentences(abstract)
    mine = {w for w in _tokens(sentence) if len(w) > 3}
    if len(parts) < 2 or len(mine) < 4:
        return []
    overlaps = [len(mine & {w for w in _tokens(p) if len(w) > 3}) / len(mine) for p in parts]
    restated = max(range(len(parts)), key=overlaps.__getitem__)
    if overlaps[restated] < 0.6 or restated == 0:
        return []
    # (a participle is no head: "the predicted and observed costs" names its noun after "and")
    return [p for p in back_references(sentence, " ".join(parts[:restated])) if not p.endswith("ed")]
