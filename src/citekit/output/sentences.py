"""From a paper's own record to one sentence about it, in the third person.

Related work must only say what the papers say. So a paper is described by its
contribution sentence ("We propose SoftSignum, a smooth relaxation ...") with the subject
swapped for its citation ("\\citet{key} propose SoftSignum, a smooth relaxation ..."). The
clause is then said short by :mod:`.compress` (its words, fewer of them). Nothing here
invents content: when no sentence fits, callers fall back to the title.

The functions work on the raw abstract (LaTeX math included); escaping for the target
format happens later, on the finished pieces.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from citekit.core.lazyre import lazy

#: contribution verbs, best first: a "we propose" sentence beats a "we show" one
VERB_PRIORITY: dict[str, int] = {
    "propose": 0, "introduce": 0, "present": 0,
    "develop": 1, "design": 1, "formulate": 1, "devise": 1,
    "study": 2, "investigate": 2, "analyze": 2, "analyse": 2, "examine": 2, "explore": 2, "revisit": 2,
    "characterize": 2, "consider": 2,
    "show": 3, "prove": 3, "demonstrate": 3, "establish": 3, "derive": 3, "provide": 3, "identify": 3,
    "find": 3, "report": 3, "reveal": 3,
    "contribute": 0, "adopt": 1, "argue": 3, "determine": 3, "outline": 2,
}
# "This paper describes X": HCI and systems abstracts say it this way more than "we propose"
VERB_PRIORITY["describe"] = 1
#: verbs the former rule (``ranker="rule"``) did not read, so that it is measured as it was
_NEW_VERBS = {"describe", "report", "reveal", "contribute", "adopt", "argue", "determine", "outline"}
_VERBS = "|".join(sorted(VERB_PRIORITY, key=len, reverse=True))


def conjugate(verb: str, plural: bool) -> str:
    """Verb form agreeing with the cited authors: "Huang et al. propose", "Smith proposes"."""
    if plural:
        return verb
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    return verb + "s"


_THIRD = {conjugate(v, False): v for v in VERB_PRIORITY}
_VERBS3 = "|".join(sorted(_THIRD, key=len, reverse=True))
_ADVERB = r"(?:(?:also|further|then|first|additionally|here|instead|now|therefore|thus|finally|formally)\s+)?"
# Openers that only link the sentence to the previous one; dropping them loses nothing.
_LEAD = (
    r"(?:(?:"
    r"(?:In|Within)\s+(?:this|the\s+present|our)\s+(?:paper|work|article|study|note|manuscript)"
    # "To provide a natural interface to the computer, we present X": a design purpose said before the claim (not
    # "To evaluate X, we ...", which opens the evaluation, a side result)
    r"|Here|To\s+(?:(?:this|that)\s+end|(?:address|fill|bridge|close|tackle|overcome|solve|remedy|resolve|mitigate|"
    r"provide|support|enable|facilitate|simplify|ease)\b[^,.;]{0,60})"
    r"|(?:Building|Based)\s+on\s+[^,.;]{1,80}"
    r"|Through\s+(?:a|an|the|extensive|comprehensive|careful)\s+[^,.;]{1,100}"
    r"|In\s+(?:particular|addition|contrast|response)|(?:Motivated|Inspired|Guided|Informed|Driven)\s+by\s+[^,.;]{1,80}"
    r"|First|Second|Third|Here\s+we\s+first"
    r"|Therefore|Thus|Hence|Consequently|However|Moreover|Furthermore|Additionally|Specifically|Finally|"
    r"Instead|Concretely|Accordingly|Overall|Technically|Theoretically|Empirically"
    r")\s*,?\s*)*"
)
_WE = re.compile(rf"^{_LEAD}(?:[Ww]e|I)\s+(?P<adv>{_ADVERB})(?P<verb>{_VERBS})\b(?P<rest>.*)$", re.S)
_THIS = re.compile(
    rf"^{_LEAD}[Tt]his\s+(?:paper|work|article|study|note|manuscript)\s+(?P<adv>{_ADVERB})"
    rf"(?P<verb3>{_VERBS3})\b(?P<rest>.*)$", re.S)
#: "Our results show that X": a finding whose subject is the paper's results
_FINDING = lazy(
    rf"^{_LEAD}(?:Our|The)\s+(?:(?:main|key|experimental|empirical|theoretical)\s+)?(?:results|findings|experiments|"
    rf"analysis|analyses|evaluation|study|studies)\s+(?P<adv>{_ADVERB})(?P<finding>show|shows|indicate|indicates|"
    rf"reveal|reveals|demonstrate|demonstrates|suggest|suggests)\s+(?P<rest>that\b.*)$", re.S)
_FINDING_VERB = {"show": "show", "indicate": "find", "reveal": "reveal", "demonstrate": "demonstrate",
                 "suggest": "find"}
#: "We created Deep Shot", "This article focuses on X", "We have developed software": any verb, for the ranker
_NOT_CLAIM = ("believe|think|hope|argue|am|conclude|discuss|note|begin|can|could|will|would|may|might|must|need|are|were|"
              "do|did|have|had|also|then|further|first|now|here|call|refer|use|used|uses|want|wish|aim|seek|try|"
              "would|should|assume|expect|know|see|recall|start|thank|"
              # what the field has seen, not what the paper does: "We have recently begun to see hardware support"
              "begun|began|seen|saw|witnessed|live|lived|all|often|increasingly|still|usually|typically|commonly|"
              "generally|rely|depend|face|encounter|experience|spend|interact|communicate|carry|get|got|tend|feel")
_WE_ANY = lazy(rf"^{_LEAD}(?:[Ww]e|I)\s+(?P<adv>{_ADVERB})(?P<aux>have\s+)?"
                     r"(?:(?:successfully|recently|already|intensively|extensively|carefully|systematically|"
                     rf"thoroughly|empirically|experimentally|theoretically)\s+)?(?!(?:{_NOT_CLAIM})\b|[a-z]+ly\b)"
                     rf"(?P<any>[a-z]{{3,}})\b(?P<rest>.*)$", re.S)
_THIS_ANY = lazy(rf"^{_LEAD}(?:[Tt]his|[Tt]he(?:\s+present)?)\s+(?:paper|work|article|study|note|manuscript|review|"
                       rf"research|thesis|chapter|demo|demonstration|poster|dissertation|report)\s+"
                       # "The work described herein involves X": the participle says which work, the verb follows
                       r"(?:(?:described|presented|reported|proposed|discussed|outlined)\s+(?:here(?:in)?|below|"
                       r"in\s+this\s+(?:paper|article|chapter))\s+)?"
                       rf"(?P<adv>{_ADVERB})(?!(?:is|was|has|uses|used|aims|aimed|seeks|sought|tries|tried|needed|based)\b)"
                       # "The research reported here investigates": a participle that qualifies the subject, not its verb
                       rf"(?P<any3>[a-z]{{3,}}s|[a-z]{{3,}}ed)\b(?!\s+(?:here|herein|hereafter|below|in\s+this|is|are|was|were|has|have)\b)"
                       rf"(?P<rest>.*)$", re.S)
#: "In this work, we use the body as a receiving antenna": a verb that is method, not claim, in most sentences ("We use
#: a camera to ...") says what the paper does when the sentence opens by naming the paper itself
_WE_HERE = lazy(r"^(?:In|Within)\s+(?:this|the\s+present|our)\s+(?:paper|work|article|study|note|manuscript|research)"
                r"\s*,?\s*(?:[Ww]e|I)\s+(?P<any>use|leverage|exploit|employ|apply|harness|repurpose)\b(?P<rest>.*)$", re.S)
#: "The aim of this study was to compare X", "Our approach is to use X", "This study sought to assess X": what the
#: paper sets out to do, said with the verb of its aim; ranked after every sentence that says what the paper did
#: (:func:`contributions`). Not "This paper will present X": its verb is said short as the noun's ("present
#: observations on X" -> "observe X"), which misreads the paper
_AIM = re.compile(
    rf"^{_LEAD}(?:"
    r"(?:The|the)\s+(?:main\s+|primary\s+|overall\s+)?(?:aim|goal|purpose|objective)s?\s+of\s+(?:this|the\s+present|our)"
    r"\s+(?:paper|work|article|study|research|project|note)\s+(?:is|was)\s+to"
    r"|(?:Our|our)\s+(?:main\s+)?(?:aim|goal|approach|objective|purpose|idea)\s+(?:is|was)\s+to"
    r"|(?:[Tt]his|[Tt]he\s+present)\s+(?:paper|work|article|study|research|project|note)\s+"
    r"(?:aims\s+to|aimed\s+to|seeks\s+to|sought\s+to|(?:is|was)\s+designed\s+to)"
    r"|[Ww]e\s+(?:aim|aimed|seek|sought)\s+to"
    r")\s+(?P<any>(?!be\b|have\b|make\s+(?:it|this)\b)[a-z]{3,})\b(?P<rest>.*)$", re.S)
#: "A pressure sensitive keyboard is presented that ...": the paper's claim in the passive
_PASSIVE = re.compile(rf"^{_LEAD}(?P<np>(?:A|An|a|an)\s+[^,;:.]{{3,80}}?)\s+(?:is|are)\s+(?P<passive>presented|"
                      r"proposed|introduced|described|developed|designed)\b(?P<rest>.*)$", re.S)
_PASSIVE_VERB = {"presented": "present", "proposed": "propose", "introduced": "introduce", "described": "describe",
                 "developed": "develop", "designed": "design"}
_PASSIVE_VERB.update({"studied": "study", "investigated": "investigate", "examined": "examine", "analyzed": "analyze",
                      "analysed": "analyse", "measured": "measure", "explored": "explore", "evaluated": "evaluate",
                      "characterized": "characterize", "characterised": "characterise", "surveyed": "survey",
                      "reviewed": "review", "defined": "define", "derived": "derive", "demonstrated": "demonstrate",
                      "built": "build", "implemented": "implement", "constructed": "construct",
                      "fabricated": "fabricate"})
#: "The absorption spectra of X were studied at 4 K": the claim of a field that writes in the passive
_PASSIVE_STUDY = re.compile(
    rf"^{_LEAD}(?P<np>(?:The|the|A|An|a|an|Several|several|Two|two|Three|three)\s+[^,;:]{{3,100}}?)\s+"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?P<passive>studied|investigated|examined|analy[sz]ed|measured|"
    r"explored|evaluated|characterized|characterised|surveyed|reviewed|defined|derived|demonstrated|developed|"
    r"designed|presented|proposed|introduced|described|built|implemented|constructed|fabricated)\b(?P<rest>.*)$", re.S)
#: what makes a passive sentence background, not the paper's claim: "has been studied extensively in the literature"
_PASSIVE_BACKGROUND = lazy(r"\b(?:in\s+the\s+literature|previously|in\s+the\s+past|by\s+(?:many|several|other)|"
                                 r"for\s+(?:decades|years|a\s+long\s+time)|widely|extensively|traditionally)\b", re.I)
#: present-tense verbs that end in "ed" ("We embed X" -> "Smith embeds X")
_PRESENT_ED = {"embed", "exceed", "proceed", "succeed", "need", "feed", "breed", "seed", "speed", "shed", "shred"}
_IRREGULAR_PAST = {"built", "made", "found", "ran", "wrote", "took", "gave", "brought", "sought", "held", "led",
                   "began", "chose", "drew", "grew", "taught", "thought", "understood", "undertook"}


def _base_of_third(word: str) -> str:
    """``focuses`` -> ``focus``, ``studies`` -> ``study``, ``brings`` -> ``bring``."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word in {"goes", "does", "echoes", "vetoes"}:
        return word[:-2]
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")) or word in _US_THIRD:
        return word[:-2]
    return word[:-1]  # "utilizes" -> "utilize", "analyses" -> "analyse", "causes" -> "cause"


#: verbs in "-us" whose third person adds "es" ("focuses"); every other "-ses"/"-zes" only adds "s"
_US_THIRD = {"focuses", "focusses", "biases", "buses", "gases", "canvases", "discusses"}


_IRREGULAR_BASE = {"built": "build", "made": "make", "found": "find", "ran": "run", "wrote": "write", "took": "take",
                   "gave": "give", "brought": "bring", "sought": "seek", "held": "hold", "led": "lead",
                   "began": "begin", "chose": "choose", "drew": "draw", "grew": "grow", "taught": "teach",
                   "thought": "think", "understood": "understand", "undertook": "undertake",
                   # "-ited" verbs that keep their e ("visited", "edited" do not)
                   "cited": "cite", "invited": "invite", "united": "unite", "excited": "excite", "ignited": "ignite",
                   "incited": "incite", "recited": "recite", "united": "unite"}


@lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    """Words real bibliographies write in lower case (the list title casing uses): a verb's base form is one."""
    from importlib import resources

    text = resources.files("citekit.data").joinpath("lowercase_words.txt").read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def present_of(past: str) -> str | None:
    """``explored`` -> ``explore``, ``studied`` -> ``study``, ``planned`` -> ``plan``, ``built`` -> ``build``;
    None when no base form is a known word (a verb is never cut to a typo)."""
    if past in _IRREGULAR_BASE:
        return _IRREGULAR_BASE[past]
    if not past.endswith("ed") or past in _PRESENT_ED:
        return None
    stem = past[:-2]
    candidates = [stem[:-1] + "y"] if stem.endswith("i") else []
    # English drops a final e before -ed after these ("used", "proposed", "introduced", "compared", "observed")
    e_first = re.search(r"(?:[aeiou][cgsvz]|[^aeiou]v|rv|u|at|ut|ot|ur|or|ar|ir|ib|ud|id|od|ag|ok|ik|in|iz|yz|ys|"
                        r"[bcdfgkpt]l)$", stem)
    candidates += [stem + "e", stem] if e_first else [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:  # "planned" -> "plan"; "modelled" -> "model" after "modell"
        candidates.insert(0 if stem[-1] not in "lsfz" else len(candidates), stem[:-1])
    known = _known_words()
    return next((c for c in candidates if c in known), None)


def verb_phrase(found: "Contribution", plural: bool) -> str:
    """The verb as the cited subject says it: "propose"/"proposes", "has developed", and a past verb in the present
    like the other sentences of the paragraph ("This study explored X" -> "explore(s) X")."""
    if found.verb.startswith("have "):
        return ("have " if plural else "has ") + found.verb[5:]
    if found.verb.endswith("ed") and found.verb not in _PRESENT_ED or found.verb in _IRREGULAR_PAST:
        base = present_of(found.verb)
        return conjugate(base, plural) if base else found.verb
    return conjugate(found.verb, plural)


def present_clause(rest: str, plural: bool) -> str:
    """A second verb of the same subject in the present too: "operationalize X and evaluated its ..." -> "... and
    evaluate its ..." (only right after "and", before what it acts on; a past inside a relative clause stays)."""
    def fix(m: re.Match[str]) -> str:
        base = present_of(m.group(2))
        return f"{m.group(1)}{conjugate(base, plural)}" if base else m.group(0)

    # "compare three techniques in a study, and found that ...": the abstract's own second verb of a finding too
    return re.sub(r"(\band\s+)([a-z]+ed|found|built|made)(?=\s+(?:its|their|the|a|an|how|whether|what|that)\b)",
                  fix, rest)


_SUMMARY_VERB = lazy(rf"^(?P<adv>{_ADVERB})(?P<verb3>{_VERBS3})\b(?P<rest>.*)$", re.I | re.S)

_ABBREVIATIONS = {"e.g", "i.e", "et al", "vs", "cf", "fig", "eq", "sec", "resp", "approx", "etc", "no", "al"}
_MATH = lazy(r"(?<!\\)\$\$?.*?(?<!\\)\$\$?", re.S)
_BOUNDARY = lazy(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z(\\$\"'\[*0-9])")


@dataclass(frozen=True)
class Contribution:
    """A contribution sentence read as ``<subject> <verb> <rest>``."""

    sentence: str  # the sentence as written in the abstract
    verb: str  # base form, lower case ("propose")
    adverb: str  # "also " or ""
    rest: str  # everything after the verb, first person already turned into third
    priority: int
    index: int = -1  # which sentence of the abstract


#: what a work "involves" or "concerns" its authors study: "The work described herein involves X" -> "study X"
_WORK_VERB = {"involve": "study", "involved": "study", "concern": "study", "concerned": "study"}


def _base(m: re.Match[str]) -> str:
    """Base form of the matched verb, whichever group matched it."""
    groups = m.groupdict()
    if not groups.keys() - {"rest"}:  # "X is a ..." (:func:`_named_is`)
        return "present"
    if groups.get("passive"):
        return _PASSIVE_VERB[groups["passive"]]
    if groups.get("any3"):  # "This study explored X" keeps its past, as "We created X" does
        word = groups["any3"].lower()
        base = word if word.endswith("ed") else _base_of_third(word)
        return _WORK_VERB.get(base, base)
    if groups.get("any"):
        return ("have " if groups.get("aux") else "") + groups["any"].lower()
    if groups.get("finding"):
        return _FINDING_VERB[groups["finding"].lower().rstrip("s")]
    if groups.get("verb"):
        return groups["verb"].lower()
    return _THIRD[groups["verb3"].lower()]


def split_sentences(text: str) -> list[str]:
    """Sentences of an abstract; math, decimals and abbreviations do not end one."""
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    masked = _MATH.sub(lambda m: "x" * len(m.group(0)), text)
    sentences, start = [], 0
    for m in _BOUNDARY.finditer(masked):
        before = masked[start:m.start()].rstrip(".!?\"')]")
        last_word = re.split(r"\s+", before)[-1].lower() if before else ""
        two_words = " ".join(re.split(r"\s+", before)[-2:]).lower()
        if last_word in _ABBREVIATIONS or two_words in _ABBREVIATIONS or (len(last_word) == 1 and before[-1:].isupper()):
            continue
        sentences.append(text[start:m.start()].strip())
        start = m.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def is_cut_short(abstract: str) -> bool:
    """Whether the abstract stops mid-sentence, as exports that keep only its first 255 characters do.

    Its last sentence then ends wherever the cut fell ("a novel interaction concept for c",
    "a shape-changing device and a weight-shifting..."): quoting it would print a broken
    sentence, so it is never a candidate.
    """
    text = abstract.rstrip()
    return bool(text) and (text.endswith(("...", "\u2026")) or not re.search(r"[.!?][\"'\u201d)\]]*$", text))


#: where the whole part of a sentence cut off by the export may end: before a side clause after a comma ...
_CUT_SIDE = lazy(r",\s+(?:(?:both|all|each|one|some|many|most|none|either)\s+of\s+(?:which|whom)|where|which|while|whereas|whereby|thereby|allowing|enabling|so\s+that|such\s+that|as|but|"
                 r"in\s+order|with|by|using|including)\b")
#: ... or, failing that, before its last purpose or prepositional phrase, which the cut may have broken
_CUT_PHRASE = lazy(r"\s+(?:with\s+the\s+(?:aim|goal|purpose|intention)\s+of|in\s+order\s+to|so\s+as\s+to|so\s+that|"
                   r"in\s+terms\s+of|with|by|using|through|via|for|in|on|to|where|which|that)\s")


def whole_part(sentence: str) -> str | None:
    """The part of a sentence cut off mid-way that is whole, or None when too little of it is.

    "In this paper, we propose technologies for enhancing the immersive realization of virtual
    objects, where, by adapting tang" -> "... of virtual objects"; "we present button effects
    delivered by air-jet displays with the aim of" -> "... by air-jet displays". The part kept
    ends before a side clause after a comma or before the last phrase the cut fell into, so
    every word quoted is the abstract's and ends where a phrase of it ends.
    """
    text = re.sub(r"\s*(?:\.\.\.|\u2026)\s*$", "", sentence.strip())
    if not re.search(r"[\s,;:]$", sentence.rstrip(".\u2026")) and not sentence.rstrip().endswith(("...", "\u2026")):
        text = re.sub(r"\s*\S+$", "", text)  # the last word was cut mid-way ("tang")
    start = len(text.split()[0]) if text.split() else 0
    side = next((m for m in _CUT_SIDE.finditer(text) if len(text[:m.start()].split()) >= 6), None)
    if side:
        text = text[:side.start()]
    else:
        ends = [m.start() for m in _CUT_PHRASE.finditer(text + " ", start) if len(text[:m.start()].split()) >= 6]
        if not ends:
            return None
        text = text[:ends[-1]]
    text = re.sub(r"[\s,;:\-]+(?:and|or|of|the|a|an|its|their)?$", "", text).rstrip(" ,;:-")
    # what is kept must not still be waiting for its end: "switch between interacting", "by carefully"
    if re.search(r"\b(?:between|from)\s+(?:(?!\b(?:and|to)\b)[^,;])*$|(?:ing|ly)$", text):
        return None
    return text + "." if len(text.split()) >= 8 else None


#: heads of a title part that say what the paper made or is: "A Framework for ...", "X: A Survey"
_MADE_HEAD = lazy(r"\b(?:system|framework|interface|tool|toolkit|technique|method|approach|device|display|environment|"
                  r"platform|prototype|architecture|algorithm|model|engine|language|library|survey|review)s?$", re.I)


def _title_says_little(title: str) -> bool:
    """Whether no part of the title names what the paper made or is ("Rudiments for ...", "Air-Jet Button Effects
    in AR", "Enhancing Immersiveness in ..."), unlike "A Framework for ..." or "X: A Survey": a sentence made
    from it would only name a topic."""
    for part in re.split(r"[:?]\s+|\s*(?:\u2014|---|\\textemdash)\s*", title):
        head = re.split(r"\s(?:of|for|in|on|to|with|by|from|using|via|through|at|and|that)\s", part.strip(" .{}"), 1)[0]
        if _MADE_HEAD.search(head.strip(" {}")):
            return False
    return True


def _about_title(clause: str, title: str) -> bool:
    """Whether a clause shares a word root with the title: about the same thing, not a detail of it."""
    from citekit.core.text import title_tokens
    from citekit.output.word_roots import root

    wanted = {root(w) for w in title_tokens(title) if len(w) > 3}
    return bool(wanted & {root(w) for w in title_tokens(clause) if len(w) > 3})


def to_third_person(text: str) -> str:
    """First person to third person: "our method" -> "their method", "we" -> "they", "my" -> "their".

    A single author's "I argue ..., my analysis" becomes the singular "they"/"their", as an
    author writes about one cited person whose pronoun the record does not give.
    """
    text = re.sub(r"\bin\s+this\s+(?:paper|work|article|study|note)\b\s*,?\s*", "", text)
    swaps = {"we": "they", "We": "They", "our": "their", "Our": "Their", "ours": "theirs", "us": "them",
             "ourselves": "themselves", "my": "their", "My": "Their", "myself": "themselves", "mine": "theirs"}
    text = re.sub(r"\b(we|We|our|Our|ours|us|ourselves|my|My|myself|mine)\b", lambda m: swaps[m.group(1)], text)
    return re.sub(r"(?<![\w.\-])I(?=\s+[a-z])", "they", text)  # "I argue", never "Type I error"


def candidates(sentences: list[str]) -> list[int]:
    """Indices of the sentences that can be said with the paper as subject ("We propose X", "Our results show")."""
    return [i for i, s in enumerate(sentences) if _read(s)]


def _read(sentence: str) -> re.Match[str] | None:
    """The sentence read as subject-verb-rest with the paper as subject, or None."""
    return (_WE.match(sentence) or _THIS.match(sentence) or _FINDING.match(sentence) or _WE_ANY.match(sentence)
            or _WE_HERE.match(sentence)
            or _THIS_ANY.match(sentence) or _PASSIVE.match(sentence) or _passive_study(sentence)
            or _AIM.match(sentence))


def _title_lead(title: str) -> str:
    """"Stitching" of "Stitching: Pen Gestures That Span ...": one or two capitalized words before a colon."""
    m = re.match(r"^\{*([A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)?)\}*\s*:\s", title.strip())
    return m.group(1) if m else ""


def _named_is(name: str) -> re.Pattern[str] | None:
    """"StartleCam is a wearable video camera ...": the paper's own method, named and said what it is.

    Read as "present StartleCam, a wearable video camera ..."; only for the name the title
    gives, so a sentence about someone else's system is never taken for the paper's.
    """
    if not name or len(name) < 3:
        return None
    return re.compile(rf"^(?:The\s+)?{re.escape(name)}(?:\s+(?:system|tool|toolkit|prototype|device|interface|"
                      rf"framework|method|approach|algorithm|technique|language|library))?\s+(?:is|are)\s+"
                      rf"(?P<rest>(?:a|an)\s+.+)$", re.S)


def _passive_study(sentence: str) -> re.Match[str] | None:
    """"The spectra of X were studied at 4 K", unless it reports what others did ("... in the literature")."""
    m = _PASSIVE_STUDY.match(sentence)
    if not m or _PASSIVE_BACKGROUND.search(sentence):
        return None
    # the subject is one noun phrase ("The pure film was grown by ... and was characterized" is not), named
    # here, and the sentence says what was studied, not with which instrument ("characterized by X-ray ...")
    if re.search(r"\b(?:this|these|such|it|they|is|are|was|were|has|have|had|be|been|that|which|by)\b", m.group("np"),
                 re.I) or re.match(r"\s*(?:by|using|with|via|through|in\s+terms\s+of)\b", m.group("rest"), re.I):
        return None
    return m


#: what opens an abstract or one part of a structured one ("Objective: This research aimed to ...", "Aims: In this
#: paper, we propose ..."): a heading, not the sentence's subject, so the paper's claim after it is read
_LABEL = re.compile(r"^(?:(?:Abstract|ABSTRACT|Summary)[:.]?\s+|(?:Context|Background|Objectives?|Aims?|Purpose|"
                    r"Goals?|Methods?|Method\s+and\s+materials|Results?|Conclusions?|Motivation|Problem|Approach)"
                    r"\s*:\s*)(?=[A-Z])")


def contribution(abstract: str, name: str = "", accept: Callable[[str], bool] | None = None, *,
                 ranker: str = "model", title: str = "") -> Contribution | None:
    """The sentence that states the paper's contribution and stands on its own, or None: the first of
    :func:`contributions`."""
    found = contributions(abstract, name, accept, ranker=ranker, title=title)
    return found[0] if found else None


def contributions(abstract: str, name: str = "", accept: Callable[[str], bool] | None = None, *,
                  ranker: str = "model", title: str = "") -> list[Contribution]:
    """The sentences that can state the paper's contribution and stand on their own, best first.

    Candidates are the sentences that can be said with the paper as subject ("We propose
    X", "This paper describes X", "Our results show that X"). With ``ranker="model"`` the
    one the learned ranker (:mod:`.sentence_roles`) scores highest wins: it weighs cue
    verbs against position, the method's name, hedges and add-on openers, so a side
    result ("We also propose ...") loses to the main claim. ``ranker="rule"`` is the
    former order, kept for comparison: "we propose/introduce/present" over "we develop",
    then "we study", then "we show", earliest first. A candidate is first cleaned
    (:func:`clean_clause`: copied citations dropped, emphasis kept, a macro standing for
    the method resolved to ``name``, acronyms expanded from the abstract's own
    definitions, back-references rebuilt from the sentence they point to); one that still
    leans on a sentence the reader cannot see or keeps markup that cannot be resolved is
    passed over, and so is one that ``accept`` refuses.
    """
    from citekit.output.standalone import stand_alone, unexplained

    sentences = split_sentences(abstract)
    found: list[tuple[tuple[float, int], Contribution]] = []
    cut = len(sentences) - 1 if is_cut_short(abstract) else len(sentences)
    salvaged = -1
    if cut < len(sentences) and ranker != "rule" and _title_says_little(title):
        # the whole part of a sentence the export cut off may still say what the paper did, where the title does not
        whole = whole_part(sentences[-1])
        if whole:
            sentences = sentences[:-1] + [whole]
            salvaged = cut = len(sentences) - 1
            cut += 1

    # "Stitching is a new interaction technique ..." under "Stitching: Pen Gestures ...": the title's lead word
    # names the thing even when it is not read as a method name elsewhere
    own = name or _title_lead(title)
    named = _named_is(own) if ranker != "rule" else None
    for index, sentence in enumerate(sentences[:cut]):
        sentence = _LABEL.sub("", sentence)
        m = _read(sentence) or (named.match(sentence) if named else None)
        if not m or (ranker == "rule" and (m.re not in (_WE, _THIS) or _base(m) in _NEW_VERBS)):
            continue
        verb = _base(m)
        rest = m.group("rest").rstrip()
        if named is not None and m.re is named:  # "StartleCam is a wearable camera" -> "present StartleCam, a ..."
            rest = f"{own}, {rest}"
        if m.re in (_PASSIVE, _PASSIVE_STUDY):  # "A keyboard is presented that senses ..." -> "present a keyboard that senses ..."
            np = m.group("np")
            rest = np[0].lower() + np[1:] + rest
        rest = clean_clause(rest, name)
        if rest is not None and ranker != "rule":
            rest = stand_alone(rest, sentences[:index], abstract, name)
        if rest is None or len(rest.split()) < 3 or clause_defects(rest) or (accept and not accept(rest)):
            continue
        if index == salvaged and not _about_title(rest, title):
            continue  # a part of a cut sentence that shares nothing with the title may have lost what it was about
        if ranker == "rule":
            key: tuple[float, int] = (VERB_PRIORITY.get(verb, 4), index)
        else:
            from citekit.output.sentence_roles import contribution_score

            score = contribution_score(sentences, index, name)
            key = (-score / 2 if unexplained(rest, name) else -score, index)  # "what is PDA?" costs half
            if m.re is _AIM:  # what the paper set out to do: after every sentence that says what it did
                key = (key[0] + 1, index)
        found.append((key, Contribution(sentence=sentence, verb=verb, adverb="", rest=rest,
                                        priority=VERB_PRIORITY.get(verb, 4), index=index)))
    return [c for _, c in sorted(found, key=lambda t: t[0])]


# ---------------------------------------------------------------------------------------
# Making a clause stand on its own
# ---------------------------------------------------------------------------------------

#: markers for emphasis kept from the source; the renderer turns them into \emph{} or *..*
EMPH_OPEN, EMPH_CLOSE = "QXEMPHOPENQX", "QXEMPHCLOSEQX"

_YEAR = r"(?:19|20)\d{2}[a-z]?"
_SURNAME = r"[A-Z][\w'\u2019\-]+"
_AUTHORS = rf"{_SURNAME}(?:\s+(?:et\s+al\.?|(?:and|&)\s+{_SURNAME}))?"
#: ``(Mishkin et al., 2024)``, ``(Kingma & Ba, 2015; Loshchilov and Hutter, 2019)``, ``(see Smith, 2020)``
_PAREN_CITE = re.compile(rf"\s*\((?:(?:see|e\.g\.,?|cf\.)\s+)?[^()]*?{_AUTHORS}\.?,?\s+{_YEAR}"
                         rf"(?:\s*[;,]\s*[^();]*?{_YEAR})*\)")
#: ``Mishkin et al. [2024]``, ``Mishkin et al. (2024)``, ``Kingma and Ba [2015]``
_NARRATIVE_CITE = re.compile(rf"\s*\b{_AUTHORS}\s*[\[(]{_YEAR}[\])]")
#: ``[12]``, ``[3, 7]``, ``[4-6]``
_NUMERIC_CITE = re.compile(r"\s*\[\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\]")
#: ``\cite{x}``, ``\citep[p.~3]{x,y}``
_LATEX_CITE = lazy(r"\s*~?\\(?:cite[a-z]*|ref|eqref|autoref|footnote)\*?(?:\[[^\]]*\])*\{[^{}]*\}")
#: citation keys pasted as text: ``(xie2025structured; an2025asgo)``, ``jiang2026adaptive developed``
_KEY = r"[a-z][a-z\-]*(?:19|20)\d{2}[a-z][a-z0-9]*"
_KEY_PAREN = re.compile(rf"\s*\((?:{_KEY})(?:\s*[;,]\s*{_KEY})*\)")
_BARE_KEY = lazy(rf"\b{_KEY}\b")
_DANGLING_END = lazy(r"\b(?:of|by|in|from|to|see|and|with|as|like|following|e\.g\.)\s*[,;.]?\s*$", re.I)

EMPH_PATTERNS = (
    re.compile(r"\\(?:emph|textit|textbf|textsl|underline)\s*\{([^{}]*)\}"),
    re.compile(r"\{\\(?:em|it|bf|sl)\s+([^{}]*)\}"),
    re.compile(r"<(i|b|em|strong|u)(?:\s[^<>]*)?>(.*?)</\1\s*>", re.I | re.S),
    re.compile(r"<(jats:italic|jats:bold|mml:mi)(?:\s[^<>]*)?>(.*?)</\1\s*>", re.I | re.S),
    re.compile(r"\*\*(?!\s)(.+?)(?<!\s)\*\*"),
    re.compile(r"(?<![\w*\\])\*(?![\s*])([^*]+?)(?<![\s\\])\*(?![\w*])"),
    re.compile(r"(?<![\w\\])__(?!\s)(.+?)(?<!\s)__(?!\w)"),
)
FONT = re.compile(r"\\(?:texttt|textsf|textrm|textnormal|textup|textmd|textsc)\s*\{([^{}]*)\}"
                  r"|\{\\(?:sc|tt|rm|sf|scshape|ttfamily|normalfont)\s+([^{}]*)\}")
HTML_TAG = re.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")
_MACRO = lazy(r"\\([A-Za-z]+)\*?(?:\s*\{\})?")
_MATH_SPLIT = lazy(r"((?<!\\)\$\$?.*?(?<!\\)\$\$?)", re.S)
_CONNECTIVE_START = lazy(
    r"^(?:then|also|further|furthermore|moreover|additionally|in\s+addition|besides|similarly|likewise|"
    r"next|finally|second(?:ly)?|third(?:ly)?|lastly|however|thus|hence|therefore|consequently|instead)\b[,\s]*",
    re.I)
_ANAPHOR = lazy(r"\b(this|these|those|such)\s+([A-Za-z][\w\-]*)", re.I)
_PRONOUN_DEMONSTRATIVE = lazy(r"\b(?:the\s+(?:latter|former|aforementioned|above)|the\s+same\s+(?:problem|issue|"
                                    r"setting|question)|(?:do|does|did|doing|done)\s+(?:the\s+same(?!\s+[\w\-]+(?:\s+[\w\-]+){0,3}"
                                    r"\s+(?:as|that)\b)|so|likewise|similarly)|the\s+same(?!\s+[\w\-]+(?:\s+[\w\-]+){0,3}\s+(?:as|that)\b)"
                                    r"(?=\s*(?:[,.;:]|$|with|for|in|on|to|by|without|using))|similar\s+(?:ones?|results?"
                                    r"|findings?)(?!\s+(?:to|as)\b))\b", re.I)
_NOT_ANAPHORA = {"as", "that", "paper", "work", "article", "study", "note", "manuscript"}
_SELF_REFERENCE = {"paper", "work", "article", "study", "note", "manuscript"}


_LOGOS = {"BibTeX": "BibTeX", "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e", "XeTeX": "XeTeX",
          "LuaTeX": "LuaTeX", "ConTeXt": "ConTeXt", "MiKTeX": "MiKTeX"}


def source_markup(text: str) -> str:
    """Markup with a plain meaning: ``\\(x\\)`` is ``$x$``, ``\\BibTeX{}`` is BibTeX."""
    text = re.sub(r"(?<!\\)\\\((.*?)\\\)", r"$\1$", text)
    return re.sub(r"\\(" + "|".join(_LOGOS) + r")\b(?:\s*\{\})?", lambda m: _LOGOS[m.group(1)], text)


def emph_marker(m: re.Match[str]) -> str:
    body = m.group(m.lastindex or 1)
    return f"{EMPH_OPEN}{body.strip()}{EMPH_CLOSE}" if body.strip() else ""


def _known_macro(name: str) -> bool:
    from citekit.core.text import known_macros

    return name in known_macros()


def clean_clause(text: str, name: str = "") -> str | None:
    """A clause from an abstract made fit to quote, or None when it cannot be.

    Citations copied from the abstract are dropped (a reader of the related-work section
    cannot follow ``Mishkin et al. [2024]`` or ``[12]``); emphasis (``\\textbf{}``,
    ``<i>``, ``*...*``) is kept as emphasis markers; other HTML tags go; a macro from the
    authors' preamble (``\\nameA{}``) that stands in for the method becomes ``name``
    (the method named in the title) and its spelled-out twin in parentheses
    (``(\\fullname{})``) is dropped. First person becomes third person and connective
    adverbs that point to an unseen sentence ("to further mitigate", "also") are removed.
    """
    import html

    text = html.unescape(re.sub(r"\s+", " ", text)).strip()
    text = source_markup(_LATEX_CITE.sub("", text))
    for pattern in (_NARRATIVE_CITE, _PAREN_CITE, _NUMERIC_CITE, _KEY_PAREN):
        while True:
            m = pattern.search(text)
            if not m:
                break
            before = text[:m.start()]
            if _DANGLING_END.search(before):
                return None  # "introduced by Smith et al. (2020)": the citation is an object; no clean cut
            text = before + text[m.end():]
    if _BARE_KEY.search(_MATH_SPLIT.sub(" ", text)):
        return None
    for pattern in EMPH_PATTERNS:
        text = pattern.sub(emph_marker, text)
    # \\texttt{MetaDistill}: the source's typesetting, not ours
    text = FONT.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = HTML_TAG.sub("", text)
    text = _resolve_macros(text, name)
    if text is None:
        return None
    text = to_third_person(text)
    # "worn on a users wrist": an apostrophe the copy lost, after "a" no plural can follow
    text = re.sub(r"\b((?:a|an|each|every|one)\s+(?:user|student|child|participant|person|patient|driver|player|reader|"
                  r"wearer|teacher|designer|customer|visitor|listener|viewer|worker|operator|owner|pedestrian|caller|"
                  r"speaker|learner|musician|performer|author|writer))s(?=\s+[a-z])", r"\1's", text)
    # "the users perceptions", "observers ability": a plural whose apostrophe the copy lost, before an abstract
    # noun no verb looks like
    text = re.sub(r"\b((?:users|students|children|participants|people|persons|patients|drivers|players|readers|"
                  r"observers|teachers|designers|customers|visitors|listeners|viewers|workers|operators|learners|"
                  r"subjects|developers|programmers))(?=\s+[a-z]+(?:tions?|sions?|ity|ities|ments?|ness|ances?)\b)",
                  lambda m: m.group(1) + ("'s" if not m.group(1).endswith("s") else "'"), text)
    text = _CONNECTIVE_START.sub("", text.strip())
    text = re.sub(r"\b(to|they|and)\s+further\s+(?=[a-z])", r"\1 ", text)
    text = re.sub(r"(?<!\bbut\s)\balso\s+(?=[a-z])", "", text)
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"\(\s*\)", "", text)
    return re.sub(r"\s+", " ", text).strip(" ,;")


def _resolve_macros(text: str, name: str) -> str | None:
    """Resolve preamble macros outside math: the first one is the method's name, if the title gives one."""
    parts = _MATH_SPLIT.split(text)
    unknown = [m.group(1) for i, p in enumerate(parts) if i % 2 == 0 for m in _MACRO.finditer(p)
               if not _known_macro(m.group(1))]
    if not unknown:
        return text
    if not name:
        return None
    first = unknown[0]
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)
            continue
        # "(\\fullname{})": the spelled-out name of a macro-named method; nothing to resolve it to
        part = re.sub(r"\s*\(\s*\\([A-Za-z]+)\*?(?:\s*\{\})?\s*\)",
                      lambda m: m.group(0) if _known_macro(m.group(1)) or m.group(1) == first else "", part)
        part = _MACRO.sub(lambda m: name if m.group(1) == first else m.group(0), part)
        out.append(part)
    text = "".join(out)
    left = [m.group(1) for i, p in enumerate(_MATH_SPLIT.split(text)) if i % 2 == 0 for m in _MACRO.finditer(p)
            if not _known_macro(m.group(1))]
    return None if left else text


#: words that need a noun after them: a clause that ends on one was cut ("We review and further enhance the main.",
#: an export that dropped the rest without a "..."), and quoting it prints half a claim
#: (not the words that stand alone as pronouns: "tag one another", "build on this", "help many")
_NEEDS_HEAD = frozenset("a an the its their our every various main following principal major respective".split())


def cut_end(text: str) -> bool:
    """Whether ``text`` ends on a word that needs a noun after it (a determiner, "main", "following")."""
    words = re.findall(r"[A-Za-z][\w\-']*", text.rstrip().rstrip(".!?\"')"))
    return bool(words) and words[-1].lower() in _NEEDS_HEAD and not text.rstrip().endswith(")")


#: a finding whose subject is a comparative ("that better methods are available"): better than what the abstract
#: said before, which the sentence does not carry; with no "than" it overclaims (a reader marked it unsupported)
_BARE_COMPARATIVE = lazy(r"(?:^|\bthat\s+)(?:(?:a|an|the|some|several|many)\s+)?(?:better|worse|superior|inferior|"
                         r"faster|slower|cheaper|simpler|stronger|weaker|fewer)\s+[a-z]+\s+(?:is|are|was|were|exist|"
                         r"exists|can|could|may|might|will|would)\b", re.I)


def clause_defects(text: str) -> list[str]:
    """What keeps a clause from standing on its own; empty when it reads alone.

    "this mismatch", "such contamination", "these methods" need an antecedent inside the
    clause itself ("... an optimizer mismatch; this mismatch ..." is fine); "the latter"
    never has one here.
    """
    found = []
    plain = _MATH_SPLIT.sub(" ", text)
    words_before: list[str] = []
    for m in _ANAPHOR.finditer(plain):
        det, noun = m.group(1).lower(), m.group(2).lower()
        if noun in _NOT_ANAPHORA and det != "this" or (det == "such" and noun in {"as", "that"}):
            continue
        if det in ("this", "these") and noun in _SELF_REFERENCE:
            found.append(f"'{m.group(0)}' points to the paper as if the reader were reading it")
            continue
        earlier = re.findall(r"[a-z][\w\-]*", plain[:m.start()].lower())
        words_before = earlier
        stem = noun[:5]
        if not any(w.startswith(stem) or stem.startswith(w[:5]) and len(w) >= 5 for w in words_before):
            found.append(f"'{m.group(0)}' refers to something outside the sentence")
    if _PRONOUN_DEMONSTRATIVE.search(plain):
        found.append(f"'{_PRONOUN_DEMONSTRATIVE.search(plain).group(0)}' refers to something outside the sentence")
    if re.match(r"^(?:this|these|it|they|that)\b(?!\s+(?:is|are)\s+(?:a|an)\b)", plain.strip(), re.I) \
            and not re.match(r"^that\b", plain.strip()):
        found.append("starts with a pronoun that refers to an earlier sentence")
    if cut_end(plain):
        found.append("ends on a word that needs a noun after it: the sentence was cut")
    return found


def unanchored_comparisons(text: str) -> list[str]:
    """A finding whose subject is a comparative with nothing it is compared with: "find that better methods are
    available" (better than what the abstract said before it, which the sentence does not carry). Lifted alone,
    it claims more than the record does, so it reads as unsupported, not merely as unclear."""
    m = _BARE_COMPARATIVE.search(text)
    if not m or re.search(r"\bthan\b|\bcompared\s+(?:to|with)\b", text):
        return []
    return [f"'{m.group(0)}' compares with nothing the sentence says: better than what?"]


def trim(rest: str, max_words: int = 45) -> str:
    """Shorten an overlong clause at a natural break, never mid-phrase.

    Only cuts before a trailing relative/participle clause, so what is kept is still
    exactly what the abstract says.
    """
    rest = rest.rstrip().rstrip(".")
    if len(rest.split()) <= max_words:
        return rest
    for m in re.finditer(r",\s+(?:which|where|while|thereby|enabling|allowing|leading|and\s+(?:they|then))\b|;\s", rest):
        if 8 <= len(rest[:m.start()].split()) <= max_words:
            cut = rest[:m.start()]
            if _MATH.sub("", cut).count("$") == 0:
                return cut
    return rest


def _claim_words(sentence: str) -> set[str]:
    """The significant words of a sentence, citations and markup left out (stems of five letters)."""
    plain = re.sub(r"\\[A-Za-z]+\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})?|@[\w:.\-+/]+|\[@[^\]]*\]", " ", sentence)
    from citekit.core.text import latex_to_text, title_tokens

    return {w[:5] for w in title_tokens(latex_to_text(plain)) if len(w) > 3}


def same_claim(a: str, b: str) -> bool:
    """Whether two paper sentences say the same kind of thing, so one sentence may hold both.

    Same verb after the citation and at least half of the shorter sentence's significant
    words shared: "A propose sign-based optimizers for LLM training" and "B propose
    sign-based optimizers for vision" are; "A propose MixQuant" and "B study Muon" are not.
    """
    verb = re.compile(r"^\s*(?:\\\w+\{[^{}]*\}|@[\w:.\-+/]+|\S+(?: et al\.)?(?: \([^()]*\))?)\s+(\w+)")
    va, vb = verb.match(a), verb.match(b)
    if not va or not vb or va.group(1) != vb.group(1):
        return False
    # (the verb, already the same, is no shared word: "A study moving image theory" and "B study edge detection in
    # images" share one word, "image", not two)
    wa, wb = _claim_words(a) - {va.group(1)[:5]}, _claim_words(b) - {vb.group(1)[:5]}
    return bool(wa and wb) and len(wa & wb) >= max(2, min(len(wa), len(wb)) / 2)


def summary_verb(summary: str) -> tuple[str, str, str] | None:
    """``(adverb, verb, rest)`` when a summary starts with a contribution verb ("Proposes X")."""
    m = _SUMMARY_VERB.match(summary.strip())
    if not m:
        return None
    return m.group("adv").lower(), _base(m), m.group("rest").rstrip()


_CJK_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH KATAKANA")


def is_english(text: str) -> bool:
    """Whether a summary can go into an English paragraph (mostly Latin letters).

    The bundled notes summarise in Japanese with English technical terms; such a summary
    would break an English paragraph, so it is skipped rather than translated.
    """
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    if any(unicodedata.name(c, "").startswith(_CJK_SCRIPTS) for c in letters):
        return False
    latin = sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    return latin / len(letters) >= 0.9
