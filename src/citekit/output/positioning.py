"""Where the user's paper stands against one group of cited papers (``related-work --mine``).

A co-author places their paper against each line of work by what it does that those papers
do not: in a section on pen input the paper about *hover* says hover, not its first abstract
sentence again. So the contrast is chosen per group, lexically and from the records alone:

* the user's abstract is read as statements it can say in its own voice — its claims ("we
  present ..."), its method sentences ("in our work, the prototype is composed of ...") and,
  when it states no claim, its problem ("our work starts from the observation that ...");
* each statement is weighed by TF-IDF over the section (a word every paper uses says
  nothing), and scored by how much of its weight lies in words *none* of the group's records
  use: the statement most specific to the user and least covered by the group wins, so two
  groups get different statements when their records cover different parts of the abstract;
* a statement already said for an earlier group counts for less, so the section does not
  repeat one sentence in every paragraph.

What the paper shares with the group, what the cited papers do instead, and the sentence that
says both are :mod:`.common_ground`'s and ``related_work._position``'s. Every clause is word for
word the user's abstract (subject and tense put in the first person).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from citekit.core.text import fold, latex_to_text
from citekit.output.related_topics import _SECOND_CLAIM
from citekit.core.lazyre import lazy

#: where a claim goes on to a second one: "..., and prove Y", "...; ...", "..., and we implement Y"
_TWO_CLAIMS = lazy(_SECOND_CLAIM.pattern + r"|,?\s+and\s+we\s+(?=[a-z]{3,}\b)")

#: shortest and longest statement worth quoting (words); a longer one is cut at a natural break first
MIN_WORDS, MAX_WORDS = 6, 40
#: how much a statement said for an earlier group still counts (the section should not repeat itself)
REUSE = 0.35
#: prior weight of each kind of statement: a claim places the paper best, a bare problem least
PRIOR = {"claim": 1.0, "method": 0.85, "problem": 0.7}

_CONTENT = lazy(r"[a-z][a-z0-9\-]+")
_NOT_QUOTABLE = lazy(r"https?://|www\.|\bview full abstract\b|\bweb extra\b|\bspecial issue\b|"
                           r"\bcopyright\b|\ball rights reserved\b|\bthis (?:article|paper) is part of\b|"
                           r"[$\\{}^_\u2070-\u209f\u00b2\u00b3\u00b9]", re.I)  # (a Greek letter is a word; a script is a formula)
#: a catalogue field, not prose: "NII論文ID(NAID) : 130003753672", "ISSN : 0389-9705"
_FIELD = re.compile(r"\S\s+:\s+\S|\b(?:ISSN|ISBN|DOI|NAID|PMID)\b|^(?:Published|Appeared|Presented)\s+in\b|"
                    r"\b\d+\s*\(\d+\),\s*(?:pp\.\s*)?\d+\s*[-\u2013]\s*\d+")  # (a citation: volume(issue), pages)


def is_prose(sentence: str) -> bool:
    """A sentence of words a reader can take as the paper's own: most of its characters are in
    words (not identifiers, codes or catalogue fields). Library records often hold a catalogue
    page where the abstract should be, and "our work starts from the observation that
    NAID : 130003753672" is a claim about nothing."""
    if _FIELD.search(sentence):
        return False
    letters = sum(len(w) for w in re.findall(r"[^\W\d_]+", sentence))
    visible = sum(1 for ch in sentence if not ch.isspace())
    return visible > 0 and letters / visible >= 0.6


#: a sentence opening that points back to one the reader cannot see
_LEANS_BACK = lazy(r"^(?:this|these|those|such|it|they|their|its|here|there|thus|hence|therefore|however|"
                         r"moreover|furthermore|additionally|also|finally|then|second|third|in addition|as a result|"
                         r"to this end|to do so|to address this|in this way|for example|for instance|both|each|"
                         r"the latter|the former|the results?|the findings?|results?|findings?)\b", re.I)
#: a sentence in which the authors already speak: "We ...", "Our ...", "To create X, we set out to ..."
_VOICED = lazy(r"^(?:We|Our|Ours)\b|^(?:By|In|To|Instead|At|Without|While|Because|Although|Using|With|After|"
                     r"For|Through|Unlike|Compared)\b[^,]{3,120},\s+(?:we|our)\s+[a-z]+")
#: what a paper says about itself, not what it does: "we conclude by discussing limitations and future directions"
_ASIDE = lazy(r"\b(?:future (?:work|directions|research)|limitations|conclude by|the rest of (?:the|this) paper|"
                    r"(?:is|are) organi[sz]ed)\b", re.I)
#: a conclusion drawn from sentences not quoted ("... therefore may offer", "in fact, ...")
_CONCLUDES = lazy(r"\b(?:therefore|thus|hence|consequently|in fact|as such)\b", re.I)
#: a phrase that points to something said elsewhere in the abstract
_POINTS_BACK = lazy(r"\b(?:this|these|those|such)\s+(?!paper\b|work\b|article\b|study\b|note\b)[a-z]|"
                          r"\b(?:they|them|their)\b|"
                          r"\bthe\s+(?:latter|former|above|same)\b", re.I)
_ADDED = lazy(r"^((?:We|we)\s+)(?:also|further|then|additionally|finally|moreover)\s+")
#: a past event is no observation a paper starts from ("Two hundred years ago, ... asked")
_PAST = lazy(r"\b(?:was|were|had|did|ago|has been|have been|recently|in recent years|traditionally)\b", re.I)
_OUR_STUDY = lazy(r"^In\s+(?:a|an|the)\s+((?:[a-z\-]+\s+)?(?:study|studies|experiment|experiments|evaluation|"
                        r"survey|trial|deployment))\b")
_AUTHORS = re.compile(r"\b(?:[Tt]he\s+authors?)\b")


@dataclass(frozen=True)
class Statement:
    """One thing the user's abstract says, ready to follow a comma in the user's voice."""

    index: int  # which sentence of the abstract
    part: int  # 0: the whole sentence; 1, 2: its clauses when it makes two claims ("we propose X, and prove Y")
    clause: str  # "we present a haptic wristwatch prototype that ..." (no capital, no final stop)
    kind: str  # "claim" | "method" | "problem"
    rank: int  # a claim's rank among the abstract's claims (0 = its contribution sentence)
    words: tuple[str, ...]  # content stems, for the lexical contrast

    @property
    def key(self) -> tuple[int, int]:
        return self.index, self.part

    @property
    def voiced(self) -> bool:
        """Whether the clause opens with the authors as subject ("we ...", "our ...")."""
        return bool(re.match(r"(?:we|our)\b", self.clause))


def stems(text: str) -> list[str]:
    """Content stems of ``text``: lower case, each word by its root (:func:`.word_roots.root`: "menus" and
    "menu", "gestural" and "gestures" alike), function and generic words left out."""
    from citekit.output.related_topics import FUNCTION_WORDS, GENERIC
    from citekit.output.word_roots import root

    words = _CONTENT.findall(fold(latex_to_text(text)).lower())
    return [root(w) for w in words if w not in FUNCTION_WORDS and w not in GENERIC and len(w) > 2]


def _first_person(text: str, keep: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    swaps = {"they": "we", "They": "We", "their": "our", "Their": "Our", "theirs": "ours", "them": "us",
             "themselves": "ourselves"}
    return re.sub(r"\b(they|They|their|Their|theirs|them|themselves)\b",
                  lambda m: m.group(1) if m.group(1).lower() in keep else swaps[m.group(1)], text)


def _own_voice(abstract: str) -> str:
    """An abstract written about its authors ("the authors outline ...; their method ...") in their voice.

    Some venues print abstracts in the third person; the user's related-work section speaks
    for the authors, so "the authors" and the "they/their" that follow it become "we/our". An
    abstract that never says "the authors" is left as it is ("they" there means something else).
    """
    if not _AUTHORS.search(abstract):
        return abstract
    text = _AUTHORS.sub(lambda m: "We" if m.group(0)[0] == "T" else "we", abstract)
    text = re.sub(r"(^|[.!?]\s+|,\s+)([Tt]hey|[Tt]heir)\b", lambda m: m.group(1) + _first_person(m.group(2)), text)
    return re.sub(r"\bIn this (?:article|paper), we\b", "We", text)


def _lower_first(sentence: str, context: str = "") -> str:
    """The sentence with its first word in lower case, unless that word is a name ("Bendy", "GPS", "Facet"
    when ``context``, the title and abstract, writes it with its capital after a sentence's start)."""
    from citekit.output.title_prose import lowercase_words

    from citekit.output.related_topics import FUNCTION_WORDS

    first = sentence.split(" ", 1)[0]
    if first.lower() in FUNCTION_WORDS:
        return sentence[:1].lower() + sentence[1:]
    if len(first) > 1 and first[1:2].isupper():
        return sentence
    if first[:1].isupper() and any(not re.search(r"(?:^|[.!?:]\s+)$", context[:m.start()])
                                   for m in re.finditer(rf"(?<![\w\-]){re.escape(first)}(?![\w\-])", context)):
        return sentence
    low = first.lower().split("-")[0]  # ("Direct-touch": "direct" is the word that is or is not a name)
    written_low = re.search(rf"(?<![\w\-]){re.escape(low)}(?![\w\-])", context)  # "a pen" elsewhere
    if not written_low and low not in lowercase_words() and low not in ("we", "our", "in", "by", "to", "a", "an", "the"):
        return sentence
    return sentence[:1].lower() + sentence[1:]


def statements(abstract: str, title: str = "", accept: Callable[[str], bool] | None = None) -> list[Statement]:
    """Everything the user's abstract lets the section say in the authors' voice, in abstract order.

    Claims are the sentences the contribution reader (:func:`~.sentences.contribution`) can
    say with the paper as subject, ranked as it ranks them; the other sentences that stand on
    their own (no "this X" pointing back, no URL, no formula) are method statements, or
    problem statements when they come before the first claim (what the paper sets out from).
    """
    from citekit.output.sentences import contribution, is_cut_short, split_sentences, trim
    from citekit.output.title_prose import method_name

    text = _own_voice(latex_to_text(abstract))
    # a record's heading pasted with its text ("ABSTRACT Most studies ...") and words split at a line
    # end ("a mobile wireless de- vice") are no part of what the authors wrote
    text = re.sub(r"^\s*(?:ABSTRACT|Abstract|Summary|SUMMARY)\b[:.\s]*", "", text)
    text = re.sub(r"\b([a-z]{2,})- (?!(?:and|or|to|nor)\b)([a-z]{2,})\b", r"\1\2", text)
    sentences = split_sentences(text)
    usable = len(sentences) - 1 if is_cut_short(text) else len(sentences)
    name = method_name(latex_to_text(title or ""))
    out: dict[int, Statement] = {}
    seen: set[str] = set()
    for rank in range(8):  # every claim, best first: each call returns the best one not taken yet
        found = contribution(text, name, accept=lambda r: r not in seen and (accept is None or accept(r)))
        if not found:
            break
        seen.add(found.rest)
        if found.index >= usable or found.index in out or _NOT_QUOTABLE.search(found.rest) or _ASIDE.search(found.rest):
            continue  # (a formula in the user's own claim is theirs to write, not citekit's to re-typeset)
        # (back in the first person only where the abstract said we/our: its own "them" is someone else)
        rest = _first_person(trim(found.rest, MAX_WORDS), keep=set(re.findall(r"\b(?:they|them|their|theirs|themselves)\b",
                                                                          found.sentence.lower())))
        if len(rest.split()) > MAX_WORDS + 5:
            continue
        verb = "have " + found.verb[5:] if found.verb.startswith("have ") else found.verb
        clause = f"we {verb} {rest}".strip()
        out[found.index] = [Statement(found.index, 0, clause, "claim", rank, tuple(stems(clause)))]
        # "we propose X, and prove Y": each claim can also be said alone, so a second group gets the other one
        splice = re.search(r",\s+we\s+(?=[a-z]+\b)", rest)  # "..., we implement X": a second claim after a comma
        if splice:
            rest = rest[:splice.start()] + ", and we " + rest[splice.end():]
            clause = f"we {verb} {rest}".strip()
            out[found.index] = [Statement(found.index, 0, clause, "claim", rank, tuple(stems(clause)))]
        parts = _TWO_CLAIMS.split(rest, maxsplit=1)
        tail = _TWO_CLAIMS.search(rest)
        if tail and tail.group(0).strip(" ,") != ";" and len(parts[0].split()) >= 3 and len(parts[1].split()) >= 3:
            second = re.sub(r"^,?\s+and\s+(?:we\s+)?", "", tail.group(0)).strip()
            for n, part in enumerate((f"we {verb} {parts[0].rstrip(' ,')}", " ".join(f"we {second} {parts[1]}".split())),
                                     1):
                if re.search(r"\b(?:it|its|this|these|they|them)\b", part):
                    continue  # "we demonstrate how it can be used": alone, the clause points to nothing
                out[found.index].append(Statement(found.index, n, part, "claim", rank, tuple(stems(part))))
    first_claim = min(out, default=len(sentences))
    # the names the paper gives its method: the title's, and any "We present NAME, ..." introduces
    names = {name} | set(re.findall(r"\b(?:present|introduce|propose|call|name)\s+([A-Z][\w\-]*[A-Z][\w\-]*|[A-Z][a-z]+)\b",
                                     text)) - {""}
    for i, sentence in enumerate(sentences[:usable]):
        if i in out:
            continue
        s = trim(sentence, MAX_WORDS).rstrip(".!? ")
        n = len(s.split())
        if n < MIN_WORDS or n > MAX_WORDS + 5 or _NOT_QUOTABLE.search(s) or _LEANS_BACK.match(s) or _CONCLUDES.search(s) \
                or _ASIDE.search(s) or not is_prose(s) \
                or re.search(r"[?\"“”]|\bI\b", s) or _POINTS_BACK.search(s):
            continue  # (a question, a quotation, "I", or "such an algorithm" pointing to a sentence not quoted)
        s = _ADDED.sub(lambda m: m.group(1), s)  # "We also show" -> "We show": nothing before it is quoted
        if accept is not None and not accept(s):
            continue
        first = s.split(" ", 1)[0].rstrip(",")
        if _VOICED.match(s):  # "We are developing ...", "To create X, we set out to ...": the authors speak already
            clause, kind = _lower_first(s, text), "method"
        elif re.search(r"\b(?:we|our|ours|us)\b", s):
            continue  # "... the physical actions we use": a "we" that may be anyone's; not said in the authors' name
        elif first in names:  # "TiltType is a novel text entry technique ...", "TUIC simulates finger touches ..."
            clause, kind = "our " + s, "claim" if re.match(rf"{re.escape(first)}\s+is\s+an?\b", s) else "method"
            first_claim = min(first_claim, i)
        elif i < first_claim and not _PAST.search(s):  # what the paper sets out from, before it says what it does
            clause, kind = "our work starts from the observation that " + _lower_first(s, text), "problem"
        elif _OUR_STUDY.match(s):  # "In a study with twelve participants, ..." -> "in our study with ..."
            clause, kind = _OUR_STUDY.sub(lambda m: f"in our {m.group(1)}", s, count=1), "method"
        else:
            clause, kind = "in our work, " + _lower_first(s, text), "method"
        out[i] = [Statement(i, 0, clause, kind, 99, tuple(stems(s)))]
    return [st for i in sorted(out) for st in out[i]]


def title_statement(title: str) -> Statement | None:
    """What the user's title says the paper does, as a claim in the authors' voice, or None.

    Some abstracts give nothing to say in the authors' name: a single problem sentence ("Novel
    vision-based game technologies aim to ..."), a catalogue page, a claim too long to cut. The
    title still names what the paper does ("Children's Intuitive Gestures in Vision-Based Action
    Games" -> "we study children's intuitive gestures in vision-based action games"), read as the
    per-paper sentences read a title (:func:`.title_prose.title_clause`); the caller uses it when
    the abstract gives no statement but where the paper starts, and then puts it first.
    """
    from citekit.output.title_prose import title_clause, unbrace

    plain = latex_to_text(title or "").strip().rstrip(".")
    if len(plain.split()) < 3 or not is_prose(plain):
        return None
    predicate = unbrace(title_clause(plain, True)).strip().rstrip(".")  # (its names kept in braces: "{3D}")
    words = predicate.split()
    if len(words) < 3 or len(words) > MAX_WORDS or _NOT_QUOTABLE.search(predicate) or not words[0].islower():
        return None
    clause = f"we {predicate}"
    return Statement(-1, 0, clause, "claim", 0, tuple(stems(clause)))


#: words that name a paper's genre before a colon, never a thing it made
_GENRE = frozenset("study studie case review survey guideline overview introduction tutorial position report editorial "
                   "keynote workshop panel demo demonstration lesson reflection perspective primer "
                   "experience note".split())


def named_title_statement(title: str) -> Statement | None:
    """The claim a title makes when it names what the paper made and says what that is ("BezelCopy: An Efficient
    Copy-Paste Technique for Smartphones" -> "we present BezelCopy, an efficient copy-paste technique for
    smartphones"), or None.

    Library records often hold only an abstract's opening (where the paper starts, or a snippet cut after a
    few words), and the section then could place the paper nowhere. A title of this shape is the paper's own
    one-line claim, said the way its authors introduce it, not a title pasted after "we study": only a name of
    one to three capitalised words before the colon and an "A"/"An" noun phrase after it qualify.
    """
    from citekit.output.related_topics import FUNCTION_WORDS
    from citekit.output.title_prose import title_words_in_prose, unbrace

    plain = latex_to_text(title or "").strip().rstrip(".")
    m = re.match(r"^([^:?]{2,60}):\s+(An?\s+[^:?]+)$", plain)
    if not m:
        return None
    name = unbrace(m.group(1)).strip()
    words = name.split()
    if not 0 < len(words) <= 3 or any(w.lower() in FUNCTION_WORDS or not re.match(r"[A-Z0-9]", w) for w in words) \
            or any(w.lower().rstrip("s") in _GENRE for w in words):
        return None  # ("Case Study: A ...", "Design Guidelines: An ..." name the paper's genre, nothing it made)
    what = title_words_in_prose(m.group(2), "").strip()
    if not re.match(r"an?\s", what) or len(what.split()) > MAX_WORDS or _NOT_QUOTABLE.search(what) \
            or not is_prose(what):
        return None
    clause = f"we present {name}, {what}"
    return Statement(-1, 0, clause, "claim", 0, tuple(stems(clause)))


@dataclass(frozen=True)
class Contrast:
    """The statement chosen for a group, and the words that set it apart from the group's records."""

    statement: Statement
    score: float
    novel: tuple[str, ...]  # the statement's words no record of the group uses, weightiest first


def idf_of(texts: list[str]) -> dict[str, float]:
    """Inverse document frequency of each stem over the section's texts (the user's abstract among them)."""
    df: Counter[str] = Counter()
    for t in texts:
        df.update(set(stems(t)))
    n = len(texts)
    return {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in df.items()}


def choose(options: list[Statement], group_texts: list[str], idf: dict[str, float], used: Counter[tuple[int, int]],
           section: set[str] = frozenset()) -> Contrast | None:  # type: ignore[assignment]
    """The statement that sets the user's paper apart from this group, or None when none does.

    Score: the share of the statement's TF-IDF weight in words none of the group's records
    uses, times the square root of that weight (a longer specific statement beats a short
    one, but not by its length alone), times its kind's prior and :data:`REUSE` for every
    earlier group it was said for. The section's own topic words never count as a
    difference. A statement whose new words are all rare in the section but weigh nothing
    (none at all) is no contrast.
    """
    covered = [set(stems(t)) for t in group_texts]
    claims = any(st.kind == "claim" for st in options)
    default = max(idf.values(), default=1.0)
    best: Contrast | None = None
    for st in options:
        weights: Counter[str] = Counter()
        for w in st.words:
            if w[:6] not in section:
                weights[w] += idf.get(w, default)
        total = sum(weights.values())
        if not total:
            continue
        share = {w: sum(w in c for c in covered) / max(len(covered), 1) for w in weights}
        novel_weight = sum(x * (1 - share[w]) for w, x in weights.items())
        novel = tuple(sorted((w for w in weights if share[w] == 0), key=lambda w: (-weights[w], w)))
        if not novel or novel_weight < 2 * min(idf.values(), default=1.0):
            continue
        prior = PRIOR[st.kind] * (1.15 if st.kind == "claim" and st.rank == 0 else 1.0)
        if st.kind == "problem" and claims:
            prior *= 0.45  # the problem places the paper mainly when the abstract states no claim of its own
        # said already: this statement counts for little, another clause of the same sentence for somewhat less
        said = used[st.key] + 0.5 * sum(n for k, n in used.items() if k[0] == st.index and k != st.key)
        score = novel_weight / total * math.sqrt(novel_weight) * prior * REUSE ** said
        if best is None or score > best.score:
            best = Contrast(st, score, novel)
    return best
