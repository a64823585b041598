"""A sentence about a paper made from its title's words alone, for papers with no usable abstract.

"Non-Euclidean Gradient Descent Operates at the Edge of Stability" becomes "show that
non-Euclidean gradient descent operates at the edge of stability"; "{LiMuon}: Light and
Fast {Muon} Optimizer for Large Models" becomes "present LiMuon, a light and fast Muon
optimizer for large models"; "Can {Muon} Fine-tune {Adam}-Pretrained Models?" becomes
"ask whether Muon can fine-tune Adam-pretrained models". Only the title's own words are
used, in its own order, plus the few function words English needs (a verb that says what
kind of title it is, an article, "whether"); nothing is claimed that the title does not.

:func:`title_clause` returns the predicate; the caller puts the citation in front.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from collections import Counter
from collections.abc import Callable

from citekit.bibtex.values import protect_title, protected_words
from citekit.output.articles import indefinite_article, with_article
from citekit.output.function_words import FUNCTION_WORDS
from citekit.output.sentences import conjugate
from citekit.core.lazyre import lazy

_PREPOSITIONS = {"of", "for", "in", "on", "with", "via", "through", "under", "without", "at", "by", "from", "to",
                 "against", "beyond", "within", "across", "over", "into", "towards", "toward", "using", "as",
                 "between", "among", "after", "before", "during", "near", "around", "versus", "vs"}
_DETERMINERS = {"the", "a", "an", "its", "their", "our", "your", "this", "these", "any", "all", "every", "each"}
_WH = {"when", "what", "how", "why", "where", "whether", "which", "who"}
_AUX = {"can", "could", "do", "does", "did", "is", "are", "was", "were", "should", "will", "would", "may", "might",
        "must", "has", "have"}
#: heads of noun phrases that name a thing the authors made: "present a ... method"
_ARTIFACTS = {"method", "algorithm", "framework", "optimizer", "model", "approach", "scheme", "technique",
              "estimator", "benchmark", "library", "system", "architecture", "network", "procedure", "solver",
              "toolkit", "dataset", "scheduler", "pipeline", "protocol", "variant", "recipe", "tool", "language",
              "platform", "layer", "loss", "regularizer", "initialization", "strategy", "principle", "way",
              # things an engineering or HCI paper builds: "present a pneumatic ... actuator array"
              "interface", "device", "display", "prototype", "array", "actuator", "sensor", "controller",
              "environment", "editor", "simulator", "keyboard", "widget", "wearable", "instrument",
              "glove", "mechanism", "vehicle", "assistant"}
#: things made that a title names in the plural when the authors made them ("Interaction Techniques for ...");
#: a plural "Methods"/"Models"/"Networks" more often names a class the paper surveys or studies
_PLURAL_ARTIFACTS = {"technique", "tool", "interface", "device", "display", "prototype", "actuator", "sensor", "widget"}
#: analysis nouns that have a verb of their own: "Evaluation of X" -> "evaluate X", never "give an evaluation of X"
_ANALYSIS_VERB = {"evaluation": "evaluate", "investigation": "investigate", "comparison": "compare",
                  "analysis": "analyze", "exploration": "explore", "examination": "examine", "assessment": "assess",
                  "characterization": "characterize", "characterisation": "characterise", "analyses": "analyze",
                  "evaluations": "evaluate", "investigations": "investigate", "comparisons": "compare",
                  # "A Study on X" -> "study X", never "give a study on X"
                  "study": "study", "survey": "survey", "review": "review"}
#: gerunds that say what research does: "Accessibility in Context: Understanding X" -> "understand X"
_RESEARCH_GERUNDS = {"understanding", "exploring", "investigating", "examining", "evaluating", "studying",
                     "characterizing", "measuring", "comparing", "assessing", "analyzing", "analysing", "designing",
                     "supporting", "enabling", "improving", "reducing", "detecting", "predicting", "modeling",
                     "towards", "toward"}
#: heads of noun phrases that name an analysis: "give a geometry-based view of ..."
_ANALYSES = {"analysis", "view", "perspective", "exploration", "investigation", "survey", "look", "anatomy",
             "characterization", "account", "treatment", "theory", "study", "examination", "understanding",
             "evaluation", "comparison", "assessment", "critique", "overview", "introduction", "tutorial"}
#: a subtitle that only says what kind of work the paper is, and the verb that says it
_KIND_OF_WORK = {"a survey": "survey", "survey": "survey", "a review": "review", "review": "review",
                 "a systematic review": "systematically review", "a literature review": "review the literature on",
                 "an overview": "give an overview of", "a tutorial": "give a tutorial on",
                 "a critical review": "critically review", "a comparative study": "compare"}
_PERSPECTIVES = {"perspective", "view", "viewpoint", "lens", "standpoint"}
#: -ing words that usually start a noun phrase ("Learning Rate Schedules"), a gerund only before "the", "when"...
_NOUNISH_ING = {"training", "learning", "scaling", "computing", "sampling", "clustering", "modeling", "modelling",
                "reasoning", "pretraining", "fine-tuning", "finetuning", "programming", "planning", "matching",
                "embedding", "hashing", "pruning", "forecasting", "tuning", "processing", "smoothing", "clipping",
                "merging", "routing", "thinking", "teaching", "coding", "rendering", "engineering", "ranking",
                "decoding", "encoding", "caching", "batching", "warming", "warm-up", "prompting", "sharpening"}
#: what people do with technology: a title opening with one names the activity studied ("Typing with Eye-Gaze and
#: Tooth-Clicks" -> "study typing with ..."), not the authors' action ("type with ...")
_USER_ACTIVITIES = {"typing", "reading", "writing", "walking", "driving", "enjoying", "playing", "browsing", "shopping",
                    "texting", "talking", "pointing", "gesturing", "sketching", "drawing", "painting", "listening",
                    "watching", "navigating", "commuting", "cooking", "eating", "sleeping", "exercising", "running",
                    "cycling", "dancing", "singing", "knitting", "sewing", "handcrafting", "tapping", "swiping",
                    "scrolling", "dialing", "messaging", "chatting", "collaborating", "working", "living", "aging",
                    "ageing", "parenting", "volunteering", "caring", "dating", "touching", "holding", "grasping",
                    "wearing", "carrying", "sitting", "standing", "looking", "gazing", "blinking", "breathing",
                    "skimming", "searching", "sharing", "remembering", "forgetting", "waiting", "traveling",
                    "travelling", "flying", "swimming", "hiking", "gardening", "socializing", "socialising"}
#: nouns an -ing word before them qualifies ("Reading Speed", "Walking Posture", "Drawing Tools"): no verb there
_QUALIFIED_BY_ING = {"speed", "speeds", "rate", "rates", "time", "times", "style", "styles", "performance",
                     "behavior", "behaviors", "behaviour", "behaviours", "habits", "patterns", "errors", "error",
                     "accuracy", "skills", "skill", "strategies", "comprehension", "ability", "abilities",
                     "difficulties", "blocks", "aids", "posture", "distance", "fluency", "load", "effort", "comfort"}
#: finite verbs that make a title a claim ("Clipping Makes ... Robust"): "show that ..."
_FINITE = {"is", "are", "was", "were", "can", "cannot", "does", "do", "has", "have", "makes", "make", "enables",
           "enable", "adapts", "adapt", "operates", "operate", "helps", "help", "improves", "improve", "matters",
           "matter", "works", "work", "beats", "beat", "outperforms", "outperform", "scales", "scale", "needs", "need",
           "fails", "fail", "learns", "learn", "reduces", "reduce", "yields", "yield", "meets", "meet", "remains",
           "remain", "becomes", "become", "generalizes", "generalize", "converges", "converge", "emerges", "emerge",
           "explains", "explain", "solves", "solve", "requires", "require", "suffices", "suffice", "leads", "lead",
           "drives", "drive", "causes", "cause", "hurts", "hurt", "benefits", "benefit", "implies", "imply",
           "achieves", "achieve", "provides", "provide", "reveals", "reveal", "accelerates", "accelerate",
           "stabilizes", "stabilize", "unlocks", "unlock", "boosts", "boost", "breaks", "break", "depends", "depend",
           "mitigates", "mitigate", "prevents", "prevent", "follows", "follow", "fits", "fit", "wins", "win",
           # (a slogan before a colon: "TabLETS Get Physical: Non-Visual Text Entry on Tablets" names no system)
           "get", "gets", "goes", "go", "comes", "come"}


def _top_level(text: str) -> list[tuple[int, str]]:
    """``(index, char)`` of the characters outside braces and ``$...$`` math."""
    out, depth, math = [], 0, False
    for i, ch in enumerate(text):
        if ch == "$" and (i == 0 or text[i - 1] != "\\"):
            math = not math
        elif ch == "{" and not math:
            depth += 1
        elif ch == "}" and not math:
            depth -= 1
        elif depth == 0 and not math:
            out.append((i, ch))
    return out


def _split_outside(text: str, seps: str) -> tuple[str, str, str]:
    """``text`` split at the first of ``seps`` (followed by a space) outside braces and math."""
    for i, ch in _top_level(text):
        if ch in seps and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i].strip(), ch, text[i + 1:].strip()
    return text.strip(), "", ""


def _words(text: str) -> list[str]:
    """Whitespace-separated words, keeping braced groups and math whole."""
    cuts = [i for i, ch in _top_level(text) if ch.isspace()]
    bounds = [-1, *cuts, len(text)]
    return [text[a + 1:b] for a, b in zip(bounds, bounds[1:]) if text[a + 1:b]]


def _bare(word: str) -> str:
    return re.sub(r"[{}]", "", word).strip(",;.!?").lower()


class _Caser:
    """Sentence case for title words: proper names, acronyms and braced words keep their capitals."""

    def __init__(self, context: str) -> None:
        # A word the abstract writes with a capital in mid-sentence is a name ("Riemannian"),
        # unless it sits in a run of capitalized words (a title quoted in the abstract) or
        # the abstract also writes it in lower case.
        tokens = re.findall(r"[A-Za-z][\w\-]*|[.!?:;]", context)
        lower = {t for t in tokens if t.islower()}
        cap = lambda t: bool(re.fullmatch(r"[A-Z][a-z][\w\-]*", t))  # noqa: E731
        seen = Counter(t for i, t in enumerate(tokens)
                       if cap(t) and i and tokens[i - 1] not in ".!?:;" and t.lower() not in lower
                       and not (cap(tokens[i - 1]) or (i + 1 < len(tokens) and cap(tokens[i + 1]))))
        self.names = {t for t, n in seen.items() if n >= 2}  # once may be a keyword list's capital
        self.listed = protected_words()

    def word(self, word: str) -> str:
        parts = re.split(r"-(?![^{]*\})", word)  # hyphens outside braces: {Frank-Wolfe} stays whole
        return "-".join(self.part(p) for p in parts)

    def part(self, part: str) -> str:
        if not part or part[0] in "{$\\" or not part[0].isalpha():
            return part
        core = part.rstrip(",;.!?")
        if (len(core) == 1 and core != "A") or any(c.isupper() for c in core[1:]) or any(c.isdigit() for c in core):
            return part
        if core in self.names or core in self.listed or core.rstrip("s") in self.listed \
                or re.search(r"(?:ian|ean)s?$", core) or core.removesuffix("'s") in place_names():
            return part
        return part.lower()

    def phrase(self, words: list[str]) -> str:
        return " ".join(self.word(w) for w in words)


def _gerund_base(word: str) -> str:
    """``Mitigating`` -> ``mitigate``, ``Delving`` -> ``delve``, ``Exploiting`` -> ``exploit``."""
    w = re.sub(r"[{}]", "", word).lower()  # "{{Improving}}": braces are case protection, not letters
    prefix = ""
    if "-" in w:
        prefix, _, w = w.rpartition("-")
        prefix += "-"
    stem = w[:-3]
    if w.endswith("ying"):
        base = stem
    elif len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsfz":
        base = stem[:-1]
    elif re.search(r"(?:[^aeiou][vcz]|[^aeiouln]g|[^aeiou]at|[^aeiou]ut|[^aeiou]ur|[bcdfgkpt]l|[^aeiou]id|"
                   r"[^aeiou]od|uat|[aeiou]ag|[iy]z|[hr]ang|[^aeiou]is|[^aeiou]in|yp|yl|[^aeiou]us|uir|ir|ov|iv|iev|eiv|uc|[^aeiou]as|plor|gnor|[^i]stor|scor|ador)$",
                   stem) \
            or re.fullmatch(r"[^aeiou]*[aeiou][bcdfgklmnprstvz]", stem) or stem in {"us", "ow"}:
        base = stem + "e"
    else:
        base = stem
    return prefix + base


def _is_gerund(words: list[str]) -> bool:
    first = _bare(words[0])
    if first.endswith(("thing", "spring", "string", "morning", "evening", "ceiling", "wedding")):
        return False  # "Everything You Know ...": a noun that ends in -ing, not a verb
    if not first.endswith("ing") or len(first) < 6 or not first[:1].isalpha() or "-" in first or len(words) < 2:
        return False  # (braces are case protection, not another word: ``{{Identifying}}`` is a gerund;
        # a gerund alone, "Volunteering", is a topic, not something the authors do)
    nxt = _bare(words[1]) if len(words) > 1 else ""
    if first in _NOUNISH_ING:
        return nxt in _DETERMINERS or nxt in _WH or nxt in {"to", "into", "from", "beyond", "with"}
    # "Reading Speed", "Typing Errors", "Building Blocks": the -ing word qualifies a noun, the title names a thing
    if nxt in _QUALIFIED_BY_ING and first not in _RESEARCH_GERUNDS:
        return False
    return True


def _ing_modifies(words: list[str], context: str) -> bool:
    """Whether a title's opening -ing word qualifies the noun compound after it rather than acting on it.

    "Moving Image Theory", "Emerging Market Dynamics": two or more capitalised words after it and no function word
    (no article, no preposition: "Designing for X", "Moving the Needle" act), and the abstract never uses the verb
    ("move", "moves", "moved"), so nothing says the authors do it. When the record does not say, the title is read
    as a topic: a sentence that says less is better than one with a false verb.
    """
    first = _bare(words[0])
    if first in _RESEARCH_GERUNDS or len(words) < 3:
        return False
    rest = [re.sub(r"[{}]", "", w) for w in words[1:]]
    if any(_bare(w) in FUNCTION_WORDS or not w[:1].isupper() for w in rest):
        return False
    base = _gerund_base(words[0])
    forms = {base, base + "s", base + "es", base + "d", base + "ed", first[:-3] + "ed", first[:-3] + "s"}
    said = set(re.findall(r"[a-z]+", context.lower()))
    return not forms & said


def _third_person(word: str) -> str:
    """The verb a title's imperative or gerund starts with, for "which ...": "Fix" -> "fixes",
    "{{Identifying}}" -> "identifies" (never "identifyings")."""
    bare = _bare(word)
    if bare.endswith("ing") and len(bare) >= 6:
        bare = _gerund_base(bare)
    return conjugate(bare, False)


def _is_name(words: list[str]) -> bool:
    """A method name before a colon: ``{LiMuon}``, ``Singularity-aware {Adam}``, ``Neural {QAOA}$^2$``."""
    if not 1 <= len(words) <= 3:
        return False
    if len(words) == 1 and _is_coined(words[0]):
        return True
    if len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)+-[A-Z][a-z]+", re.sub(r"[{}]", "", words[0])):
        return True  # "Collapse-to-Zoom": a hyphenated phrase with its own capitals is a coined name
    if any(_bare(w) in _PREPOSITIONS | _DETERMINERS for w in words):
        return False
    if any(_bare(w) in ("and", "or") for w in words):
        return False
    return any("{" in w or "$" in w or any(re.search(r"^.+[A-Z]|\d", p) for p in w.split("-")) for w in words)


#: endings of ordinary English nouns and adjectives: a single such word before a colon is a topic
#: ("Volunteering:", "Interaction:"), any other capitalized word there is a coined name ("Easigami:")
_ORDINARY_ENDINGS = ("ing", "tion", "sion", "ness", "ity", "ment", "ics", "ism", "ence", "ance", "ship", "ure", "al",
                     "ive", "ous", "ful", "less", "able", "ible", "ory", "ary", "ogy", "phy", "ies", "ers")


def _is_coined(word: str) -> bool:
    """One capitalized word that reads as a made-up name rather than an English noun."""
    bare = _bare(word)
    letters = re.sub(r"[{}]", "", word).rstrip(",;.!?")
    return (bool(re.fullmatch(r"[A-Z][a-z]{3,}", letters)) and not bare.endswith(_ORDINARY_ENDINGS)
            and bare not in _ARTIFACTS | _ANALYSES | _PERSPECTIVES)


def _finite_at(words: list[str]) -> int:
    """Index of the finite verb of a claim title ("Clipping Makes ..."), or -1."""
    for i, w in enumerate(words[1:], start=1):
        b = _bare(w)
        if b in _FINITE and _bare(words[i - 1]) not in _DETERMINERS | {"to", "that", "which", "who"} | _PREPOSITIONS:
            return i
    return -1


def _head(words: list[str]) -> str:
    """The head noun of a noun phrase: its last word before the first preposition."""
    end = len(words)
    for i, w in enumerate(words):
        if i and _bare(w) in _PREPOSITIONS:
            end = i
            break
    # "A ... Modeling System Controllable by X", "A Tool Based on Y": an adjective or participle after the noun
    # qualifies it; the noun before it is the head
    while end > 1 and re.search(r"[a-z]{3,}(?:able|ible|ed)$|^(?:worn|built|made|driven)$", _bare(words[end - 1])) \
            and end < len(words):
        end -= 1
    return _bare(words[end - 1]).split("-")[-1]


def _plural(noun: str) -> bool:
    return noun.endswith("s") and not noun.endswith(("ss", "us", "is", "sis"))


def _article(words: list[str], caser: _Caser) -> str:
    """"a"/"an"/"" before a noun phrase whose head names a thing or an analysis."""
    if _bare(words[0]) in _DETERMINERS:
        return ""
    head = _head(words)
    if _plural(head) or head not in _ARTIFACTS | _ANALYSES:
        return ""
    upto = words[:words.index(next(w for w in words if _bare(w).endswith(head)))]
    if any(_bare(w) in ("and", "or") and i and re.search(r"(?:ing|tion|ment|ness|ity|ure|ics|s)$", _bare(upto[i - 1]))
           for i, w in enumerate(upto)):
        return ""  # "graph partitioning and parameter initialization" is two things
    return indefinite_article(caser.word(words[0])) + " "


def _singular(noun: str) -> str:
    """``techniques`` -> ``technique``, ``displays`` -> ``display``: a plural head names things made too."""
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    return noun[:-1] if _plural(noun) else noun


def _first_listed(words: list[str]) -> list[str] | None:
    """The first item of a title that lists three things or more, the first with an article ("A Novel X System, X
    Task, Technology and Evaluation" -> "A Novel X System"), or None. Said whole, the list reads as the verb's
    one object ("give a X system, X task, technology and evaluation", which a reader marked broken); the
    article says the first item is the thing the paper is about, the rest its parts."""
    if len(words) < 5 or _bare(words[0]) not in ("a", "an"):
        return None
    commas = [i for i, w in enumerate(words) if w.endswith(",")]
    if len(commas) < 2 or not any(_bare(w) == "and" for w in words[commas[-1] + 1:]):
        return None
    first = words[:commas[0] + 1]
    first[-1] = first[-1].rstrip(",")
    # ("An Analysis of X, Y and Z": the list is what is analysed, one object)
    return first if len(first) >= 3 and not any(_bare(w) in _PREPOSITIONS for w in first) else None


#: head nouns that only say "research" after the verb "study", and what may follow them there
_RESEARCH_HEADS = {"research", "researches"}
_AFTER_RESEARCH = {"based", "on", "in", "into", "using", "with", "for", "of", "from", "through", "via"}


def _np_clause(words: list[str], caser: _Caser) -> tuple[str, str]:
    """(verb, object) for a noun-phrase title: present a method, evaluate X, study the effects of X.

    An analysis noun with a verb of its own opens the title ("An Investigation into X",
    "Evaluation of X"): the verb says it ("investigate X"), as an author would. A bare noun
    followed by "of" ("Effects of X on Y", "Use of X") takes "the".
    """
    listed = _first_listed(words)
    if listed:  # "A Novel X System, X Task, Technology and Evaluation": the system is what the paper presents
        words = listed
    start = 1 if _bare(words[0]) in ("a", "an", "the") and len(words) > 2 else 0
    lead = _bare(words[start])
    if lead in _ANALYSIS_VERB and len(words) > start + 2 and _bare(words[start + 1]) in ("of", "into", "on"):
        return _ANALYSIS_VERB[lead], caser.phrase(words[start + 2:])
    head = _head(words)
    if _plural(head) and _singular(head) in _PLURAL_ARTIFACTS:
        head = _singular(head)
    if head in _PROPOSALS:  # "Principles for Designing X": the paper puts principles forward, it does not study them
        return "propose", _article(words, caser) + caser.phrase(words)
    at = next((i for i, w in enumerate(words) if _bare(w).split("-")[-1] == head), -1)
    if head in ("mechanism", "mechanisms") and at + 1 < len(words) and _bare(words[at + 1]) == "of":
        return "study", ("" if _bare(words[0]) in _DETERMINERS else "the ") + caser.phrase(words)  # how X arises
    verb = "present" if head in _ARTIFACTS else "give" if head in _ANALYSES else "study"
    if verb == "study" and head in _RESEARCH_HEADS and 0 < at < len(words) - 1 \
            and _bare(words[at + 1]) in _AFTER_RESEARCH:
        # "Hand Gesture Recognition Research Based on EMG": "study hand gesture recognition research based on"
        # says "study" twice (a reader struck it as a pasted title); the research is what "study" already says
        words = words[:at] + words[at + 1:]
    if _bare(words[0]) in ("on", "about", "regarding") and len(words) > 1:
        words, verb = words[1:], "study"
    elif verb == "study" and len(words) > 2 and _bare(words[1]) == "of" and _bare(words[0]) not in _DETERMINERS \
            and words[0][:1].isalpha() and not re.search(r"[A-Z].*[A-Z]|\d", words[0]):
        return verb, "the " + caser.phrase(words)
    return verb, _article(words, caser) + caser.phrase(words)


def _question(words: list[str], caser: _Caser) -> str | None:
    """"Can Muon Fine-tune X?" -> "whether Muon can fine-tune X"; "When Is Rank-1 Enough?" -> "when rank-1 is enough"."""
    words = [w.rstrip("?") for w in words if w.rstrip("?")]
    lead = _bare(words[0]) if words else ""
    wh = ""
    if lead in _WH:
        wh, words = lead, words[1:]
        lead = _bare(words[0]) if words else ""
    if lead not in _AUX or len(words) < 3:
        return None
    aux, rest = lead, words[1:]
    size = 2 if _bare(rest[0]) in _DETERMINERS and len(rest) > 2 else 1
    subject, tail = rest[:size], rest[size:]
    if _bare(subject[0]) in ("we", "i", "you"):  # the generic "we" of "Why Do We Need Warm-up?"
        subject = ["one"]
        if aux in ("do", "does") and tail:
            return f"{wh or 'whether'} one {conjugate(caser.word(tail[0]).lower(), False)} {caser.phrase(tail[1:])}".strip()
        aux = {"are": "is", "have": "has", "do": "does"}.get(aux, aux)
    if aux in ("do", "does") and tail:
        verb = caser.word(tail[0])
        verb = conjugate(verb.lower(), False) if aux == "does" and verb[:1].isalpha() and verb.istitle() \
            or aux == "does" and verb.islower() else verb
        return _generic(f"{wh or 'whether'} {caser.phrase(subject)} {verb} {caser.phrase(tail[1:])}".strip())
    if aux == "did" and tail:
        return _generic(f"{wh or 'whether'} {caser.phrase(subject)} {caser.phrase(tail)}")
    return _generic(f"{wh or 'whether'} {caser.phrase(subject)} {aux} {caser.phrase(tail)}".strip())


def _generic(clause: str) -> str:
    """The generic "we"/"our" of a question title ("what can we do", "our universe"), made impersonal."""
    swaps = {"we": "one", "us": "one", "our": "the", "ours": "one's", "ourselves": "oneself"}
    return re.sub(r"\b(we|us|our|ours|ourselves)\b", lambda m: swaps[m.group(1).lower()], clause, flags=re.I)


def _clean_title(title: str) -> str:
    """Markup a title may carry: emphasis kept as emphasis markers, font commands and HTML tags dropped."""
    from citekit.output.sentences import EMPH_PATTERNS, FONT, HTML_TAG, emph_marker, source_markup

    title = source_markup(title)
    for pattern in EMPH_PATTERNS:
        title = pattern.sub(emph_marker, title)
    title = HTML_TAG.sub("", FONT.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), title))
    return re.sub(r":(?:\s*:)+", ":", title)  # "The Vocal Joystick:: Evaluation" (an exporter's doubled colon)


_BRACED_WORDS = lazy(r"\{+([^{}\\$]*)\}+")


def _title_case_braces_dropped(title: str, prose_lower: frozenset[str] = frozenset()) -> str:
    """The title without braces that protect every capitalized word, which carry no case information.

    Some exporters (Better BibTeX's ``{{Utilizing 3D Printed Tools}} for {{Interaction}}``)
    brace each title-case run, so a brace no longer says "a name": read literally, prose
    would paste "Tools for Interaction" with its capitals. When at least two braced groups
    hold ordinary capitalized words and nearly all capitalized words after the first stand
    inside braces, those braces are dropped; :func:`protect_title` then braces what needs it
    (acronyms, mixed case, listed names) by the same rules as any other title. ``prose_lower``: words the
    paper's own abstract writes in lower case, ordinary words too though no word list knows them
    ("{{Percussion Instruments}}" when the abstract says "percussion").
    """
    groups = [m.group(1) for m in _BRACED_WORDS.finditer(title)]
    ordinary = [g for g in groups if re.search(r"\b[A-Z][a-z]+\b", g)]
    if len(ordinary) < 2 and not _title_tail_braced(title, ordinary, prose_lower):
        return title
    braced = sum(len(re.findall(r"\b[A-Z][a-z]+\b", g)) for g in ordinary)
    outside = _BRACED_WORDS.sub(" ", title)
    loose = [w for w in re.findall(r"[A-Za-z][\w']*", outside)[1:] if re.fullmatch(r"[A-Z][a-z]+", w)]
    if braced < 3 * len(loose):  # (a few loose ones are the exporter's stop-word exceptions: "That", "-Air")
        return title
    ordinary_words = lowercase_words()

    def unbraced(m: re.Match[str]) -> str:
        if not re.search(r"[a-z]", m.group(1)):
            return m.group(0)  # {{BYO}}: an acronym stays braced
        return re.sub(r"[A-Z][a-z]+(?:'s)?", lambda w: w.group(0) if _ordinary(w.group(0), ordinary_words)
                      or w.group(0).lower() in prose_lower else "{" + w.group(0) + "}", m.group(1))

    return _BRACED_WORDS.sub(unbraced, title)


def _title_tail_braced(title: str, ordinary: list[str], prose_lower: frozenset[str]) -> bool:
    """One braced run that holds the whole rest of a title after its first word, in ordinary words only.

    Better BibTeX writes "Moving {{Image Theory}}" and "Direct {{Manipulation Through Surrogate Objects}}": the
    first word needs no brace (sentence case keeps its capital), so a single run covers every capital after it.
    Read as a name, the run kept its capitals in prose ("address direct Manipulation Through Surrogate Objects")
    and hid the title's shape ("Moving Image Theory" became "move Image Theory", a claim no record makes). Only
    when every capitalized word in the run is an ordinary word (or one the abstract writes in lower case) and no
    capitalized word stands outside it after the first: "{{Mechanical Turk}}" or "{{Google Glass}}" stay names.
    """
    if len(ordinary) != 1:
        return False
    caps = re.findall(r"\b[A-Z][a-z]+\b", ordinary[0])
    outside = re.findall(r"[A-Za-z][\w']*", _BRACED_WORDS.sub(" ", title))
    if len(caps) < 2 or not outside or any(w[:1].isupper() for w in outside[1:]):
        return False
    words = lowercase_words()
    return all(_ordinary(w, words) or w.lower() in prose_lower for w in caps)


def _ordinary(word: str, ordinary_words: frozenset[str]) -> bool:
    """An ordinary word, or an inflection of one ("Newcomers" from "newcomer")."""
    w = word.lower().removesuffix("'s")
    forms = {w, w.removesuffix("s"), w.removesuffix("es"), w.removesuffix("ed"), w.removesuffix("d"),
             w.removesuffix("ing"), w.removesuffix("ing") + "e", w.removesuffix("ly")}
    return bool(forms & ordinary_words)


@lru_cache(maxsize=1)
def place_names() -> frozenset[str]:
    """Countries, states, regions and large cities (``data/place_names.txt``): a title's "Maryland" keeps its
    capital in prose, which the abstract alone may not show (a short abstract never names the place)."""
    text = resources.files("citekit.data").joinpath("place_names.txt").read_text(encoding="utf-8")
    return frozenset(w.strip() for w in text.split("\n") if w.strip() and not w.startswith("#"))


@lru_cache(maxsize=1)
def lowercase_words() -> frozenset[str]:
    """Words real bibliographies write in lower case (fitted by ``bench/casing_words.py``)."""
    text = resources.files("citekit.data").joinpath("lowercase_words.txt").read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def _acronym_compounds(title: str) -> str:
    """"STEM-Rich", "AR-Based", "PIN-Entry" in a Title Case title: the word after the acronym is capitalized only
    by the title's case, so it is lowered when it is an ordinary word (a braced "{BERT-Large}" stays)."""
    words = [w for w in re.findall(r"[A-Za-z][\w']*", re.sub(r"\{[^{}]*\}", " ", title)) if len(w) > 3]
    if not words or sum(w[0].isupper() for w in words) < 0.7 * len(words):
        return title  # sentence case: a capital there is the authors'
    return re.sub(r"(?<![{\w\-])([A-Z0-9]*[A-Z][A-Z0-9]+)-([A-Z][a-z]+)(?![\w}\-])",
                  lambda m: f"{m.group(1)}-{m.group(2).lower()}" if _ordinary(m.group(2), lowercase_words())
                  else m.group(0), title)


#: a braced run of capitalized words that opens a subtitle ("Modeler: {{A}} Generative System") or goes on from a
#: hyphen inside a word ("Agent-{{Based Gesture Tracking}}"): where an exporter braced the capitals title case gave
_CASE_BRACES = lazy(r"(?:(?<=:\s)|(?<=[a-z]-))\{+((?:A|[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)*)\}+(?=[\s\-,.:;!?]|$)")


def _case_only_braces(title: str, context: str = "") -> str:
    """A title without the braces an exporter set around a subtitle's first word or the rest of a hyphenated word.

    Zotero's exports brace a capital that sentence case would lower ("Fresh Press Modeler: {{A}} Generative
    System", "Agent-{{Based Gesture Tracking}}"); read literally, prose keeps "present Fresh Press Modeler, A
    generative system" and "study agent-Based Gesture Tracking". Such a brace says only where the capital came
    from, so when every word in it is an ordinary word (:func:`lowercase_words`) that the paper's own text
    (``context``) never writes with a capital alone, it is dropped and the words are cased like the rest of the
    title; a name there ("{{TRIZ}}", a "{{Kinect}}" the abstract names) keeps its braces.
    """
    words = lowercase_words()
    # (a capitalized word beside another is a title quoted or a scanned page's header, no name)
    tokens = re.findall(r"[A-Za-z][\w\-]*|[.!?:;]", context)
    cap = [bool(re.fullmatch(r"[A-Z][a-z][\w\-]*", t)) for t in tokens]
    named = {tokens[i] for i in range(1, len(tokens)) if cap[i] and tokens[i - 1] not in ".!?:;"
             and not cap[i - 1] and not (i + 1 < len(tokens) and cap[i + 1])}
    named -= {t.capitalize() for t in tokens if t.islower()}

    def ordinary(word: str) -> bool:
        return word == "A" or (_ordinary(word, words) and word not in named)

    return _CASE_BRACES.sub(lambda m: m.group(1) if all(ordinary(w) for w in m.group(1).split()) else m.group(0),
                            title)


def _protected(title: str, context: str = "") -> str:
    """The title with its names braced; one holding unknown commands is kept as written (and escaped later).
    ``context``: the paper's abstract, whose lower-case words are ordinary words (see
    :func:`_title_case_braces_dropped`)."""
    from citekit.core.text import known_macros

    prose_lower = frozenset(re.findall(r"(?<![\w\-])[a-z][a-z']+(?![\w\-])", context)) if context else frozenset()
    title = _title_case_braces_dropped(re.sub(r"\s+", " ", title).strip(), prose_lower)
    title = _acronym_compounds(_case_only_braces(title, context))
    outside_math = re.sub(r"(?<!\\)\$.*?(?<!\\)\$", " ", title)
    if any(m not in known_macros() for m in re.findall(r"\\([A-Za-z]+)", outside_math)):
        return title
    return protect_title(title)


def title_words_in_prose(phrase: str, context: str = "") -> str:
    """Part of a title in sentence case, as prose writes it: names, acronyms and places keep their capitals."""
    text = _protected(_clean_title(phrase), context).strip()
    return unbrace(_Caser(context).phrase(_words(text)))


def title_clause(title: str, plural: bool = True, context: str = "") -> str:
    """The predicate of a sentence about a paper, from its title (see :func:`_title_clause`).

    A "we" in a title is generic ("What We Know About ...", "How Far Are We?"): it is made
    impersonal, so the sentence never reads as the citing authors speaking.
    """
    return _generic(_title_clause(title, plural, context))


#: an abstract this long that never uses a title's verb says the paper is about something else than doing it
_SAYS_ENOUGH = 25
#: gerunds of light verbs, whose phrases are idioms ("Making Sense of", "Taking Stock of", "Getting Started")
_LIGHT_GERUNDS = {"making", "taking", "getting", "giving", "bringing", "putting", "keeping", "letting", "going",
                  "coming", "having", "doing", "turning", "setting"}


def _verb_unsaid(words: list[str], context: str) -> bool:
    """Whether the gerund that opens a title's part before its colon names an act its abstract never mentions.

    "Automating Amateurs in the 3D Printing Community" read as "automates amateurs ..." is a claim the record does
    not make (its abstract is a case study of a home-built printer and the deskilling debate): a title's gerund
    may be a figure of speech. Where an abstract of some length (:data:`_SAYS_ENOUGH` words) never writes the
    verb in any form ("automate", "automates", "automated", "automating"), the title is said as the topic studied,
    not as what the authors did. Research gerunds ("Exploring", "Designing") say how the paper works, and an
    abstract need not repeat them; light verbs ("Making Sense of X", "Taking Stock") are idioms whose verb no
    abstract writes. Only the part before a colon is read so (a slogan goes there; a title without one names
    what the paper does plainly: "Applying X to Y")."""
    first = _bare(words[0])
    if first in _RESEARCH_GERUNDS or first in _USER_ACTIVITIES or first in _LIGHT_GERUNDS:
        return False
    said = re.findall(r"[a-z]+", context.lower())
    if len(said) < _SAYS_ENOUGH:
        return False
    base = _gerund_base(words[0]).rpartition("-")[2]
    stem = first.rpartition("-")[2][:-3]
    forms = {base, base + "s", base + "es", base + "d", base + "ed", stem + "ed", stem + "s", stem + "ing",
             first.rpartition("-")[2]}
    return not forms & set(said)


def _title_clause(title: str, plural: bool = True, context: str = "") -> str:
    """The predicate of a sentence about a paper, from its title: "present LiMuon, a light ...".

    ``plural`` conjugates the verb for the cited subject ("Huang et al. present",
    "Huang presents"); ``context`` (the paper's abstract or summary) tells names that
    keep their capital ("Riemannian") from ordinary title-case words.
    """
    caser = _Caser(context)
    text = _protected(_clean_title(title), context).rstrip(". ").lstrip(":;,.- ")
    if not text:
        return f"{conjugate('present', plural)} an untitled work"
    main, sep, sub = _split_outside(text, ":?")
    if not sep:  # "Ontology Visualization Methods\u2014a Survey": a dash sets the subtitle off as a colon does
        dashed = re.sub(r"\s*(?:---|\u2014|\\textemdash(?:\{\})?)\s*|\s+(?:--|\u2013|-)\s+", ": ", text, count=1)
        if dashed != text:
            main, sep, sub = _split_outside(dashed, ":")
            if not sep:
                main, sep, sub = text, "", ""
    if not sep and re.search(r"[a-z]\.\s+[A-Z]", text):  # "Diagnosis of X. Synthesis of Y": two sentences
        main, sep, sub = _split_outside(re.sub(r"(?<=[a-z])\.(?=\s+[A-Z])", ":", text, count=1), ":")
    if sep == "?":
        question, main = main + "?", ""
    else:
        question = ""
        if main.endswith("?"):
            question, main = main, ""
    main_words, sub_words = _words(main), _words(sub)
    v = lambda verb: conjugate(verb, plural)  # noqa: E731

    def render(words: list[str]) -> str:
        """One part of a title as a predicate."""
        if not words:
            return ""
        first = _bare(words[0])
        if first in ("towards", "toward") and len(words) > 1:
            return f"{v('work')} {first} {caser.phrase(words[1:])}"
        if _is_gerund(words) and first in _USER_ACTIVITIES and first not in _RESEARCH_GERUNDS:
            # "Typing with Eye-Gaze", "Enjoying Virtual Handcrafting": what users do, never what the authors did
            return f"{v('study')} {first} {caser.phrase(words[1:])}"
        if _is_gerund(words) and first == "designing" and _bare(words[1]) == "for":
            # "Designing for Learning with X": the paper is about design for it, it designs nothing named
            return f"{v('study')} design {caser.phrase(words[1:])}"
        if _is_gerund(words) and (_ing_modifies(words, context)
                                  or (sub_words and words is main_words and _verb_unsaid(words, context))):
            # "Moving Image Theory": the -ing word qualifies a noun compound, the paper moves nothing ("move Image
            # Theory" was struck as nonsense); the topic is said, no action claimed
            return f"{v('study')} {caser.phrase(words)}"
        if _is_gerund(words):
            if len(words) > 3 and _bare(words[1]) in ("and", "or") and _bare(words[2]).endswith("ing"):
                # "Evaluating and Improving X" -> "evaluate and improve X"
                return f"{v(_gerund_base(words[0]))} {_bare(words[1])} {v(_gerund_base(words[2]))} " \
                       f"{caser.phrase(words[3:])}"
            return f"{v(_gerund_base(words[0]))} {caser.phrase(words[1:])}".strip()
        if first in ("on", "about", "regarding") and len(words) > 1:
            return f"{v('study')} {caser.phrase(words[1:])}"
        if first == "using" and len(words) > 3 and any(_bare(w) == "to" for w in words[2:]):
            return f"{v('use')} {caser.phrase(words[1:])}"  # "Using Mobile Devices to Support X" -> "use mobile devices to ..."
        if first in ("how", "why") and len(words) > 2:  # "How Analysis Can Hinder ..." -> "show how analysis can ..."
            return f"{v('show' if first == 'how' else 'explain')} {caser.phrase(words)}"
        at = _finite_at(words)
        if at > 0:
            return f"{v('show')} that {caser.phrase(words)}"
        surveyed = _surveyed(words)
        if surveyed:  # "State of the Art in Methods for X" -> "survey methods for X"
            verb, rest = surveyed
            return f"{v(verb.split()[0])} {' '.join(verb.split()[1:] + [caser.phrase(rest)])}".strip()
        verb, obj = _np_clause(words, caser)
        return f"{v(verb)} {obj}"

    def attach(words: list[str]) -> str:
        """A subtitle after the main predicate."""
        if not words:
            return ""
        if words[-1].endswith("?"):
            # "What to Build Next?" cannot be said as "whether ...": a hook to the reader, which says nothing
            # the main part does not
            asked = _question(words, caser)
            return f" and {v('ask')} {asked}" if asked else ""
        first = _bare(words[0])
        if first in _PREPOSITIONS:
            return " " + caser.phrase(words)
        if _bare(words[-1]) in _PERSPECTIVES and (first in ("a", "an") or len(words) <= 3):
            return " from " + _article(words, caser) + caser.phrase(words)
        if _is_gerund(words):
            return f" for {caser.phrase(words)}" if not _is_gerund(main_words) else f", {caser.phrase(words)}"
        if _finite_at(words) > 0:
            return f", showing that {caser.phrase(words)}"
        if len(words) > 1 and _bare(words[1]) in _DETERMINERS:  # "Fix the Norm, Not the Gradient"
            return f", which {_third_person(words[0])} {caser.phrase(words[1:])}"
        if first == "the" and len(words) > 2 and _bare(words[1]) in ("case", "example") and _bare(words[2]) == "of":
            return " in " + caser.phrase(words)  # "X: The Case of Y" -> "X in the case of Y"
        if first == "the" and _head(words) not in _ARTIFACTS and not _is_gerund(main_words):
            # "... in Education: The Democratization of Invention": a figure of speech after the topics, which a
            # comma would leave dangling; the topics say what the paper is about ("Achieving Ubiquity: The New
            # Third Wave" keeps it: there it says what the object of the action is)
            return ""
        if first in ("a", "an", "the"):
            kind = _head(words)
            return (" with " if kind in _ANALYSES | {"approach"} else ", ") + caser.phrase(words)
        if first == "related":  # "Contour Crafting\u2014Related Robotics and ..." -> "... and related robotics ..."
            return " and " + caser.phrase(words)
        return ", with " + caser.phrase(words)

    if question and (main_words or sub_words) and re.search(r"\b(?:you|your)\b", question, re.I):
        # "Have You Ever Missed a Call While Moving? The Optimal ...": a hook to the reader, not what was studied
        question = ""
        if not main_words:
            main_words, sub_words = sub_words, []
    if question and (main_words or sub_words) and not _question(_words(question), caser):
        # "Put That Where? Voice and Gesture at ...": a question that is no "whether"/"how" clause is a hook; the
        # other part says what the paper is about
        question = ""
        if not main_words:
            main_words, sub_words = sub_words, []
    if question:
        asked = _question(_words(question), caser)
        clause = f"{v('ask')} {asked}" if asked else f"{v('address')} the question ``{_generic(question)}''"
        if main_words:
            return f"{render(main_words)} and {clause}"
        if sub_words and _bare(sub_words[-1]) in _PERSPECTIVES:
            return clause + attach(sub_words)
        if sub_words:
            return f"{render(sub_words)} and {clause}"
        return clause
    # "X: A Retrospective", "A Special Editorial: X": the title says what kind of writing it is, and no study is
    # claimed for it (a reader struck "study CHI and the future robot enslavement of humankind, a retrospective")
    if main_words and sub_words and (genre := _writing_kind(sub_words)):
        return f"{v('write')} {genre} on {caser.phrase(main_words)}"
    if main_words and sub_words and (genre := _writing_kind(main_words)):
        return f"{v('write')} {genre} on {caser.phrase(sub_words)}"
    kind = " ".join(_bare(w) for w in sub_words)
    study = _study_kind(sub_words)
    if main_words and study and kind not in _KIND_OF_WORK and _is_gerund(main_words) and not study[2]:
        # "Measuring X: A Longitudinal Study" -> "measure X in a longitudinal study"
        return f"{render(main_words)} in {caser.phrase(sub_words)}"
    if main_words and study and kind not in _KIND_OF_WORK and _finite_at(main_words) < 0 \
            and not _is_gerund(main_words) and _bare(main_words[0]) not in _WH | {"on", "about", "towards", "toward"} \
            and not _is_name(main_words):
        # "X: A Longitudinal Study" -> "report a longitudinal study of X", never "study X with a longitudinal study";
        # "X: A Survey of Motorists in Maryland" -> "survey motorists in Maryland about X"
        noun, adjectives, of = study
        versus = next((i for i, w in enumerate(main_words) if _bare(w) in ("vs", "versus")), -1)
        if of and 0 < versus < len(main_words) - 1:
            # "Task Performance vs. Learning Outcomes: A Study of X": the two are what the study compares
            verb = {"survey": "survey", "study": "study", "review": "review"}.get(noun, "study")
            return f"{v(verb)} {caser.phrase(of)}, comparing {caser.phrase(main_words[:versus])} with " \
                   f"{caser.phrase(main_words[versus + 1:])}"
        if of and len(main_words) <= 3 and _unsaid(main_words, context):
            # "Serial Hook-Ups: A Comparative Usability Study of Secure Device Pairing Methods": a short phrase the
            # abstract never uses is a pun, and "study X about serial hook-ups" a topic the record does not support;
            # the study is said whole, its kind kept ("comparative usability"). A longer one is the topic, said or
            # not ("Open Source Software User Communities: A Study of ...")
            return f"{v('report')} {with_article(caser.phrase(_without_article(sub_words)))}"
        if of:
            verb = {"survey": "survey", "study": "study", "review": "review"}.get(noun, "study")
            return f"{v(verb)} {caser.phrase(of)} about {_np_clause(main_words, caser)[1]}"
        lead = " ".join(caser.phrase(adjectives).split() + [noun])
        return f"{v('report')} {with_article(lead)} of {_np_clause(main_words, caser)[1]}"
    if main_words and kind in _KIND_OF_WORK and _is_gerund(main_words) and study and not study[2]:
        # "Exploring the Use of X: A Comparative Study" -> "explore the use of X in a comparative study", never
        # "compare exploring the use of X"
        return f"{render(main_words)} in {caser.phrase(sub_words)}"
    if main_words and kind in _KIND_OF_WORK:  # "Large Workspace Haptic Devices: A Survey" -> "survey large ..."
        return f"{v(_KIND_OF_WORK[kind])} {caser.phrase(main_words)}"
    if sub_words and len(main_words) <= 3 and _finite_at(main_words) > 0 and _bare(main_words[0]) not in _WH:
        return render(sub_words)  # a slogan ("Sharing Is Caring: ...") says nothing the subtitle does not
    if sub_words and _bare(main_words[0]) == "the" and not _is_name(main_words) and _bare(sub_words[0]) in ("a", "an") \
            and len(sub_words) > 2 and _head(sub_words) in _ARTIFACTS - {"approach", "framework", "way", "principle"}:
        # "The Sound of One Hand: A Wrist-Mounted ... Interface": the subtitle says what was made,
        # the phrase before the colon is a figure of speech that would read as the object studied
        return f"{v('present')} {caser.phrase(sub_words)}"
    if sub_words and not _is_name(main_words) and _is_gerund(sub_words) and not _is_gerund(main_words) \
            and _finite_at(main_words) < 0 and not main_words[-1].endswith("?"):
        if _bare(sub_words[0]) in _RESEARCH_GERUNDS and len(sub_words) >= 5:
            return render(sub_words)  # "Accessibility in Context: Understanding the ... of X" -> "understand the ... of X"
        if any(_bare(w) in ("and", "or") for w in main_words):
            # "Blind People and Text Entry: Acknowledging the Need for Different Flavors": a stance
            # after two topics cannot be joined on without garbling it; the topics alone are said
            return render(main_words)
    if sub_words and _bare(main_words[0]) == "the" and not _is_name(main_words) and not _named_in(main_words, context) \
            and _is_gerund(sub_words) and len(sub_words) >= 4 and _finite_at(main_words) < 0:
        # "The Frame of the Game: Blurring the Boundary between X and Y": the phrase before the colon is a figure
        # of speech; the subtitle says what the paper is about
        return f"{v('study')} {caser.phrase(sub_words)}"
    if sub_words and len(main_words) <= 5 and (any(_bare(w) in ("me", "you", "it", "us", "them", "i") for w in main_words)
                                               or (2 <= len(main_words) <= 4 and _bare(main_words[1]) in ("that", "this"))) \
            and not _is_name(main_words):
        # "Take Me by the Hand: Haptic Compasses ...", "Follow That Sound: Using Sonification ...": a figure of speech
        # (an imperative with a pronoun or a pointing word), the subtitle says it
        return render(sub_words)
    if sub_words and 1 <= len(main_words) <= 3 and _finite_at(sub_words) > 0 and _finite_at(main_words) < 0 \
            and not _is_name(main_words) and not _named_in(main_words, context) and not _is_gerund(main_words) \
            and _bare(main_words[0]) not in _WH and not sub_words[-1].endswith("?"):
        # "Hard Lessons: Effort-Inducing Interfaces Benefit Spatial Learning": the subtitle is the claim, the
        # phrase before it a slogan that "study hard lessons" would present as the object studied
        return f"{v('show')} that {caser.phrase(sub_words)}"
    if sub_words and main_words and (_is_name(main_words) or _named_in(main_words, context)):
        name = " ".join(main_words)
        if _bare(main_words[0]) == "the":  # "The Gesture Pendant: A ..." -> "present the Gesture Pendant, a ..."
            name = "the " + " ".join(main_words[1:])
        if _is_gerund(sub_words) or (len(sub_words) > 2 and re.fullmatch(r"[a-z]{4,}ly", _bare(sub_words[0]))
                                     and _is_gerund(sub_words[1:])):
            # ("KidCAD: Digitally Remixing Toys ...": an adverb before the gerund) -> "present KidCAD for digitally ..."
            return f"{v('present')} {name} for {caser.phrase(sub_words)}"
        if _finite_at(sub_words) > 0:
            return f"{v('present')} {name} and {v('show')} that {caser.phrase(sub_words)}"
        analysis = sub_words[1:] if _bare(sub_words[0]) in ("a", "an", "the") else sub_words
        if len(analysis) > 3 and _bare(analysis[0]) in _ANALYSIS_VERBS and _bare(analysis[1]) == "of" \
                and _bare(analysis[2]) in ("a", "an"):
            # "MOGCLASS: Evaluation of a Collaborative System ..." -> "evaluate MOGCLASS, a collaborative system ..."
            return f"{v(_ANALYSIS_VERBS[_bare(analysis[0])])} {name}, {caser.phrase(analysis[2:])}"
        if len(sub_words) > 1 and _bare(sub_words[1]) in _DETERMINERS:
            return f"{v('present')} {name}, which {_third_person(sub_words[0])} " \
                   f"{caser.phrase(sub_words[1:])}"
        if len(sub_words) > 9:
            # "GesRec3D: A Real-Time Coded Gesture-to-Speech System with Automatic Segmentation and Recognition
            # Thresholding Using ...": what the thing is, not every part of how it works
            how = next((i for i, w in enumerate(sub_words) if i >= 4 and _bare(w) in ("with", "using", "via", "based")),
                       0)
            sub_words = sub_words[:how] if how else sub_words
        return f"{v('present')} {name}, {_article(sub_words, caser)}{caser.phrase(sub_words)}"
    if sub_words and _bare(main_words[0]) in ("beyond", "from") and not _is_name(sub_words):
        return f"{render(sub_words)}, {caser.phrase(main_words)}"
    tail = attach(sub_words)
    if tail.startswith(", with ") and _is_gerund(main_words) and "," in " ".join(sub_words):
        # "Understanding Newcomers to X: Motivations, Workflows, and Barriers of Y": a list the subtitle gives is
        # what the main part covers, said in parentheses, never joined by "with"
        return f"{render(main_words)} ({caser.phrase(sub_words)})"
    if tail.startswith(", ") and sub_words and _bare(sub_words[0]) in ("a", "an") and _head(sub_words) in _ARTIFACTS \
            and render(main_words).startswith(v("study") + " ") and not _is_gerund(main_words):
        # "Situated Modeling: A Shape-Stamping Interface ...": the subtitle says the paper made the thing it names
        return f"{v('present')} {caser.phrase(main_words)}{tail}"
    if tail.startswith(", with ") and not _is_gerund(main_words) and _finite_at(main_words) < 0:
        return _described(main_words, sub_words, caser, v, render)
    return render(main_words) + tail


#: "Evaluation of X" as a subtitle: the verb that says what the paper does to X
_ANALYSIS_VERBS = {"evaluation": "evaluate", "analysis": "analyze", "comparison": "compare", "assessment": "assess",
                   "investigation": "investigate", "exploration": "explore", "examination": "examine",
                   "characterization": "characterize", "review": "review", "survey": "survey", "study": "study",
                   "critique": "critique", "design": "design", "implementation": "implement",
                   "development": "develop", "measurement": "measure", "modeling": "model", "modelling": "model",
                   "synthesis": "synthesize", "simulation": "simulate", "estimation": "estimate",
                   "detection": "detect", "recognition": "recognize", "prediction": "predict"}


def _described(main_words: list[str], sub_words: list[str], caser: "_Caser", v: Callable[[str], str],
               render: Callable[[list[str]], str]) -> str:
    """A "Main: Subtitle" title that no other shape fits, said as a description, never "study X, with Y".

    The subtitle usually says what the paper does ("The Vocal Joystick: Evaluation of
    Voice-Based Cursor Control" -> "evaluate voice-based cursor control"; "RP vs Workshop:
    How Modelling Methods Affect ..." -> "study how modelling methods affect ..."); a short
    pair of topics ("Design Thinking: Engineering Education") is said as both topics.
    """
    words = sub_words[1:] if _bare(sub_words[0]) in ("a", "an", "the") else sub_words
    first = _bare(words[0]) if words else ""
    if first in _WH:
        return f"{v('study')} {caser.phrase(sub_words)}"
    if first in ("findings", "results", "lessons", "evidence", "insights", "experiences", "observations", "data"):
        return f"{v('report')} {caser.phrase(words)} on {caser.phrase(main_words)}"  # "... from a survey on X"
    if first in _ANALYSIS_VERBS and len(words) > 2 and _bare(words[1]) in ("of", "for"):
        said = caser.phrase(words[2:])
        # "Synthesis of X and Measurement of Y" -> "synthesize X and measure Y", never "synthesize X and measurement of Y"
        said = re.sub(r"\band\s+(\w+)\s+of\s+", lambda m: f"and {v(_ANALYSIS_VERBS[m.group(1).lower()])} "
                      if m.group(1).lower() in _ANALYSIS_VERBS else m.group(0), said)
        return f"{v(_ANALYSIS_VERBS[first])} {said}"
    main = render(main_words)
    if first.rstrip("s") in _PERSPECTIVES and len(words) > 2 and _bare(words[1]) in ("from", "of", "by"):
        # "Tactile Graphics in School Education: Perspectives from Pupils": whose view is how the topic was
        # studied, never the topic itself ("study perspectives from pupils" says nothing of tactile graphics)
        return f"{main} from the perspective of {caser.phrase(words[2:])}"
    cased = caser.phrase(main_words).split()
    named = any(re.search(r"[A-Z]", w) for w in cased[1:]) or (cased and _bare(cased[0]) not in ("a", "an", "the")
                                                               and re.search(r"[A-Z]", cased[0]) is not None)
    if not main.startswith(v("study")) or named:
        # the main part says what was done ("explore non-Euclidean gradient descent") or names what was
        # studied ("Lions and Muons"): it stays, the subtitle describes it in parentheses
        return f"{main} ({caser.phrase(sub_words)})"
    if len(sub_words) >= 3:
        return render(sub_words)
    return f"{v('study')} {caser.phrase(main_words)} and {caser.phrase(sub_words)}"


#: heads of titles that put something forward for others to use: "Principles for ...", "Guidelines for ..."
_PROPOSALS = {"principles", "guidelines", "recommendations", "heuristics", "implications", "requirements",
              "considerations", "patterns"}
#: kinds of writing that report no research of their own: a title that names one says what the paper is
_WRITING_KINDS = {"retrospective", "editorial", "essay", "commentary", "reflection", "reflections", "manifesto",
                  "provocation", "opinion", "viewpoint", "polemic", "satire", "parody", "column", "foreword", "preface",
                  "tribute", "obituary", "rant", "letter", "memoir", "keynote"}
#: "position paper", "position statement": two words that name a kind of writing
_WRITING_PAIRS = {("position", "paper"), ("position", "statement"), ("opinion", "piece"), ("personal", "view")}


#: title openings that name a survey of what follows: "State of the Art in X", "An Overview and Recent Advances in X"
_SURVEY_OPENINGS: tuple[tuple[tuple[str, ...], str, tuple[str, ...]], ...] = (
    (("the", "state", "of", "the", "art", "in"), "survey", ()),
    (("state", "of", "the", "art", "in"), "survey", ()),
    (("the", "state", "of", "the", "art", "of"), "survey", ()),
    (("state", "of", "the", "art", "of"), "survey", ()),
    (("state-of-the-art", "in"), "survey", ()),
    (("an", "overview", "and", "recent", "advances", "in"), "give an overview of", ("recent", "advances", "in")),
    (("an", "overview", "of"), "give an overview of", ()),
)


def _surveyed(words: list[str]) -> tuple[str, list[str]] | None:
    """``(verb, object words)`` of a title part that opens by naming a survey ("State of the Art in Methods and
    Representations for X" -> survey "methods and representations for X"), else None: "study the state of the art in
    X" would make a survey a study of a state."""
    bare = [_bare(w) for w in words]
    for opening, verb, kept in _SURVEY_OPENINGS:
        n = len(opening)
        if tuple(bare[:n]) == opening and len(words) > n:
            return verb, list(kept) + words[n:]
    return None


def _writing_kind(words: list[str]) -> str | None:
    """"a retrospective", "a special editorial", "reflections" when ``words`` name only a kind of writing (with an
    article and at most two modifiers), else None."""
    bare = [_bare(w) for w in words]
    if bare and bare[0] in ("a", "an"):
        bare = bare[1:]
    if not bare or len(bare) > 3 or any(b in _PREPOSITIONS | _DETERMINERS | {"and", "or"} for b in bare):
        return None
    if bare[-1] in _WRITING_KINDS or tuple(bare[-2:]) in _WRITING_PAIRS:
        lead = " ".join(bare)
        if _bare(words[0]) in ("a", "an") or not lead.endswith("s"):
            lead = with_article(lead)
        return lead
    return None


#: the nouns of a subtitle that only says what kind of study the paper is ("A Longitudinal Study")
_STUDY_NOUNS = {"study", "survey", "review", "analysis", "evaluation", "investigation", "experiment", "trial"}


def _study_kind(words: list[str]) -> tuple[str, list[str], list[str]] | None:
    """``(noun, adjectives, of-object)`` of "A Longitudinal Study" or "A Survey of Motorists in Maryland", else None."""
    if not words or _bare(words[0]) not in ("a", "an"):
        return None
    for i, w in enumerate(words[1:5], start=1):
        b = _bare(w)
        if b in _STUDY_NOUNS:
            adjectives = words[1:i]
            if any(_bare(a) in _PREPOSITIONS | _DETERMINERS | {"and", "or"} for a in adjectives):
                return None
            rest = words[i + 1:]
            if not rest:
                return b, adjectives, []
            if _bare(rest[0]) in ("of", "among") and len(rest) > 1:
                return b, adjectives, rest[1:]
            return None
    return None


def mid_sentence(word: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` (with its capitals) where a sentence does not start."""
    for m in re.finditer(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", text):
        before = text[:m.start()].rstrip()
        if before and not before.endswith((".", "!", "?", ":")):
            return True
    return False


def _without_article(words: list[str]) -> list[str]:
    return words[1:] if words and _bare(words[0]) in ("a", "an", "the") else words


def _unsaid(words: list[str], context: str) -> bool:
    """Whether the abstract (``context``) uses none of the content words of a title's phrase, in any form: the
    phrase is then a pun or a slogan ("Serial Hook-Ups"), not the topic the paper studies. False with no abstract,
    which cannot tell."""
    from citekit.core.text import fold
    from citekit.output.function_words import FUNCTION_WORDS
    from citekit.output.word_roots import root

    if not context.strip():
        return False
    content = {root(w) for w in re.findall(r"[a-z0-9]+", fold(unbrace(" ".join(words))).lower())
               if len(w) > 2 and w not in FUNCTION_WORDS}
    said = {root(w) for w in re.findall(r"[a-z0-9]+", fold(context).lower())}
    return bool(content) and not content & said


def _named_in(words: list[str], context: str) -> bool:
    """Whether the phrase before a title's colon is a name because the abstract writes it as one ("We present
    Pointable, an ...", "the Gesture Pendant can ...") though its words look like ordinary English."""
    if not 1 <= len(words) <= 4:
        return False
    core = words[1:] if _bare(words[0]) == "the" else words
    phrase = unbrace(" ".join(core)).strip(",;.")
    return bool(core) and phrase[:1].isupper() and mid_sentence(phrase, context)


def unbrace(text: str) -> str:
    """``{Muon}`` -> ``Muon`` in running text; braces around math or commands stay."""
    parts = re.split(r"((?<!\\)\$.*?(?<!\\)\$)", text)
    keep = lambda m: m.group(0) if m.group(1) or not m.group(2) else m.group(2)  # noqa: E731  \\textbackslash{}
    return "".join(p if i % 2 else re.sub(r"(\\[A-Za-z]+)?\{([^{}\\$]*)\}", keep, p) for i, p in enumerate(parts))


def method_name(title: str) -> str:
    """The name a title gives its method ("{OLion}: Approaching ..." -> "OLion"), or ""."""
    main, sep, _ = _split_outside(_protected(title), ":")
    words = _words(main)
    if sep != ":" or not _is_name(words):
        return ""
    name = unbrace(" ".join(words))
    return "" if "$" in name or "\\" in name else name
