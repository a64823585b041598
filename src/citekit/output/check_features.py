"""What a reader weighs in one related-work sentence, as numbers: the inputs of the check's learned decision.

Blind readers marked sentences for reasons no one rule covers alone: a long run copied from
the abstract is kept by one reader and marked by the next, a title's words are fine as a
topic and wrong as a claim, a short sentence that names its artefact passes where one that
names neither artefact nor finding does not. Each reason here is a feature that carries to
papers nobody judged (how much of the sentence is the abstract's or the title's words, the
capitals and definite articles a pasted phrase leaves, whether an artefact or a finding is
named, whether the verb is one a paper does), together with the hand rules' verdicts
(:mod:`citekit.output.related_check` passes the rules that fired, :func:`rule_id`). The weights
are fitted in ``bench/check_train.py``; :mod:`citekit.output.check_model` applies them.

Every feature belongs to a fault class (:data:`FAULT`), so that a flag says what is wrong
and what to do: the class of the feature that pushed the sentence over most.
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy
from citekit.output.sentences import split_sentences
from citekit.output.title_check import INQUIRY_VERBS, MAKING_VERBS, real_abstract

#: the hand rules whose verdicts are features (the exact ones, markup or a non-paper cited, flag on their own): a
#: category, or a category and the kind of its message where one category holds rules readers weigh differently (a
#: name written in lower case is always marked, a title's capitals not always)
RULES = ("definite-reference", "acronym", "no-claim:verb", "no-claim:short", "no-claim:ungiven",
         "pasted-title:capitals", "pasted-title:quoted", "pasted-title:study", "pasted-title:short-study",
         "pasted-title:name", "pasted-title:subtitle", "pasted-title:glued",
         "pasted-title:capital", "run-on", "grammar", "wordy", "vague", "truncated", "wrong-verb", "side-result",
         "verbatim")
#: how a message tells the rule that wrote it, within its category
_KINDS = (("no-claim", "short", r"too short"), ("no-claim", "ungiven", r"names what was found"),
          ("no-claim", "verb", r""), ("pasted-title", "capitals", r"keeps the title's capitals"),
          ("pasted-title", "quoted", r"is quoted from"),
          ("pasted-title", "short-study", r"title of three words or fewer"),
          ("pasted-title", "study", r"title pasted after"),
          ("pasted-title", "name", r"is the name"), ("pasted-title", "subtitle", r"subtitle tacked"),
          ("pasted-title", "glued", r"glues on"), ("pasted-title", "capital", r"keeps the capital of"))


def rule_id(category: str, message: str) -> str:
    """The rule a hand-rule defect comes from, as :data:`RULES` names it."""
    for cat, kind, pattern in _KINDS:
        if cat == category and re.search(pattern, message):
            return f"{cat}:{kind}"
    return category


#: every feature, in the order of the weights file
FEATURES = tuple(f"rule:{r}" for r in RULES) + (
    "copy_run",  # longest run of words shared with the cited abstract, in tens
    "copy_share",  # share of the sentence's words inside a run of five or more shared with the abstract
    "title_share",  # share of the title's words the sentence repeats
    "title_run",  # longest run shared with the title, over the title's length
    "length",  # words after the subject, in twenties
    "short",  # five words or fewer after the subject
    "definite",  # "the X" phrases whose X the cited abstract introduced earlier ("a system ... the system")
    "pointer",  # "the proposed", "this", "these", "such", "the same", "the above": points to what is not there
    "capitals",  # words mid-sentence with the title's capital that are no name (not before its colon, not capitalized
    # mid-sentence by the abstract), per ten words
    "acronyms",  # all-capital words
    "verb_study",  # the sentence opens with "study"/"studies"
    "verb_make",  # present, propose, introduce, develop, design, build, create
    "verb_find",  # show, find, report, demonstrate, reveal
    "verb_vague",  # describe, discuss, explore, investigate, examine, address, consider, look at
    "artefact",  # names what the paper built (a system, a tool, an interface ...)
    "finding",  # states a finding ("show that", "improves", "faster", "reduces")
    "purpose",  # says what for ("to ...", "for ...ing", "so that")
    "gerund_object",  # a verb of making or finding followed by an -ing form ("present using ..."; "study designing"
    # names a topic and does not count)
    "repeated_word",  # a content word said twice ("a gesture spotting method that combines gesture spotting")
    "tense_mix",  # present verb joined to a past one ("compare ... and found")
    "commas",  # commas, in threes
    "many_cited",  # the sentence cites more than one paper
    "thin_record",  # the cited abstract says little more than the title
    "position",  # the sentence places the author's own paper
    "verb_odd",  # the sentence's first word is no verb a paper does ("have begun", "give a study", "built")
    "first_copied",  # the sentence restates the abstract's first sentence
    "overview",  # the paper is a survey or overview, said as "present an overview"
    "stale_new",  # "a new"/"a novel": the abstract's own boast, stale in a related-work section
    "stacked_for",  # prepositions stacked ("for language development for deaf children")
    "counted",  # things counted and not named ("five technical steps", "two studies", "various interfaces")
    "their_own",  # "their system", "its own ...": the abstract's "our" turned round, pointing at nothing named
    "praise",  # the paper's praise of itself ("robust", "efficient", "seamless"), which the reader cannot check
    "parenthesis",  # a parenthetical aside (most often a title's subtitle or an abstract's gloss pasted in)
    "bare_artefact",  # names what was built and nothing of what it does or finds ("propose a sensing technique.")
)

#: each feature's fault class: the category a flag carries when that feature weighs most, and what to do
FAULT = {
    **{f"rule:{r}": r.partition(":")[0] for r in RULES},
    "copy_run": "verbatim", "copy_share": "verbatim",
    "title_share": "pasted-title", "title_run": "pasted-title", "capitals": "pasted-title",
    "verb_study": "pasted-title", "gerund_object": "grammar",
    "length": "wordy", "commas": "wordy", "repeated_word": "wordy",
    "short": "no-claim", "verb_vague": "no-claim", "thin_record": "no-claim", "verb_make": "no-claim",
    "verb_find": "no-claim", "artefact": "no-claim", "finding": "no-claim", "purpose": "no-claim",
    "definite": "definite-reference", "pointer": "definite-reference",
    "verb_odd": "wrong-verb", "first_copied": "verbatim", "overview": "no-claim", "stale_new": "wordy",
    "stacked_for": "wordy", "counted": "vague",
    "acronyms": "acronym", "tense_mix": "grammar", "many_cited": "unrelated-join", "position": "no-contrast",
    "their_own": "definite-reference", "praise": "wordy",
    "parenthesis": "pasted-title", "bare_artefact": "no-claim",
}
#: features whose absence is the fault (no artefact, no finding, no purpose named, no verb of making or finding): a
#: flag may name their class when they are missing; any other feature names its class only when the sentence has it
ABSENT_FAULTS = frozenset({"artefact", "finding", "purpose", "verb_make", "verb_find"})
#: the direction a feature may push, by what it means: +1 a fault (more of it can only make a mark likelier), -1 a
#: virtue (an artefact or a finding named), 0 either. The fit drops a feature whose weight comes out against its
#: meaning: in drafts made from abstracts, "nothing copied" goes with "the title pasted", which an author's own words
#: are not
SIGN = {f: (-1 if f in ABSENT_FAULTS else 0 if f in ("short", "verb_study", "verb_vague", "overview", "position")
            else 1) for f in FEATURES}
#: what to do when one feature weighs most, where it says more than its class's advice
FEATURE_ADVICE = {
    "thin_record": "the record says little beyond the title, so the sentence is the title in other words: say what "
                   "the paper does or finds, from the paper itself",
    "length": "the sentence is long (most often a clause copied from the abstract): cut it to what the paper does and "
              "finds",
    "commas": "the sentence strings clauses together with commas: cut it to what the paper does and finds",
    "stale_new": "'a new'/'a novel' is the abstract's own boast: drop it and say what is new",
    "stacked_for": "prepositions are stacked ('for ... for ...', 'of ... of ... of ...'): say it in two plainer parts",
    "capitals": "words keep the title's capitals mid-sentence: write them in lower case, or say it in your own words",
    "verb_odd": "the sentence's verb is not something a paper does (a title's or an abstract's word in its place): "
                "say 'present', 'study', 'show' ... and what",
    "gerund_object": "an -ing form follows the verb ('present using ...'): say what the paper presents",
    "pointer": "'the proposed ...', 'this', 'these' or 'such' point to something the reader has not seen: name it",
    "definite": "a 'the ...' names something the abstract introduced earlier, which the reader has not seen: name it",
    "acronyms": "an abbreviation is never written out: write it out or drop it",
    "counted": "things are counted but never named: say which, or the most important",
    "verb_study": "'study' before the title's words says what the paper is about, not what it does or finds",
    "artefact": "the sentence names neither what the paper built nor what it found: say one of them",
    "their_own": "'their ...' echoes the abstract's 'our ...': name what it is ('a system that ...')",
    "praise": "the paper's praise of itself ('robust', 'efficient', 'seamless') is not something the reader can "
              "check: drop it, or give the result that shows it",
    "parenthesis": "a parenthetical aside (often the title's subtitle) is pasted in: say it in the sentence or drop it",
    "bare_artefact": "the sentence names what was built but not what it does or finds: add what it is for or what "
                     "it showed",
}
#: what to do about each fault class, for a flag no hand rule explains
ADVICE = {
    "verbatim": "most of the sentence is the abstract's own words: say it in your own words, or quote it",
    "pasted-title": "the sentence is the title's words in prose: say what the paper does or finds",
    "wordy": "the sentence is long or says a word twice: cut it to what the paper does and finds",
    "no-claim": "the sentence names neither what the paper built nor what it found: say one of them",
    "definite-reference": "a 'the ...' or 'this ...' points to something the reader has not seen: name it",
    "acronym": "an abbreviation is never written out: write it out or drop it",
    "grammar": "the verb phrase does not read as a sentence (verbs that disagree in tense or number, a verb followed "
               "by an -ing form): say what the paper does with one plain verb",
    "unrelated-join": "two papers share one sentence: give each its own claim, or say what they share",
    "wrong-verb": "the verb is not what the paper does: say 'present', 'study', 'show' and what",
    "vague": "things are counted but never named: say which, or the most important",
    "no-contrast": "a reader marks this placing of your paper: say what your method does against what these papers "
                   "do, from your abstract and theirs ('Unlike X, which ..., we ...'), not a topic or a copied "
                   "sentence",
}

_WORDS = lazy(r"[a-z0-9]+")
_MAKE = frozenset("present presents propose proposes introduce introduces develop develops design designs build builds "
                  "create creates contribute contributes".split())
_FIND = frozenset("show shows find finds found report reports demonstrate demonstrates reveal reveals confirm "
                  "confirms observe observes".split())
_VAGUE = frozenset("describe describes discuss discusses explore explores investigate investigates examine examines "
                   "address addresses consider considers look looks review reviews outline outlines".split())
_ARTEFACT = lazy(r"\b(?:system|interface|device|tool|toolkit|technique|method|prototype|platform|application|app|"
                 r"environment|framework|display|sensor|game|engine|glove|widget|controller|editor|algorithm|model|"
                 r"language|library|kit|installation|optimi[sz]er|network|architecture|estimator|dataset|"
                 r"benchmark|corpus|"
                 r"metric|protocol|scheme|approach|pipeline|simulator|visuali[sz]ation|notation|taxonomy|"
                 r"guidelines?|principles?|questionnaire|scale)s?\b")
#: a coined name after a verb of making ("present ECO", "propose LiMuon", "introduce Paper Walls"): an artefact named
_NAMED = lazy(r"^\s*(?:present|presents|propose|proposes|introduce|introduces|develop|develops|build|builds|built|"
              r"design|designs|describe|describes)\s+(?:the\s+)?(?:[A-Z][a-z]*[A-Z0-9][\w\-]*|[A-Z]{2,}[\w\-]*|"
              r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\s*,)")
#: a finding stated in a related-work sentence, whose subject (the citation) is gone: "show ... that", or a
#: comparison or change ("improves", "faster", "fewer"). Not :data:`citekit.output.findings._CUE`, which wants the
#: abstract's own subject ("we found that", "our results show that") and so never fires on a cited sentence's
#: predicate, nor :data:`citekit.output.common_ground._OUTCOME`, an abstract's outcome words ("was", "were",
#: "performed") that most predicates hold. The feature is defined by this pattern as it was fitted
#: (bench/check_train.py); the shipped weights give it 0, so changing it changes no decision until a refit
_FINDING = lazy(r"\b(?:show(?:s|ed)?|find(?:s)?|found|report(?:s|ed)?|demonstrat\w+|reveal\w*)\s+"
                r"(?:\w+\s+){0,3}?that\b|"
                r"\b(?:improv\w+|reduc\w+|increas\w+|outperform\w*|faster|slower|better|worse|more|fewer|less|"
                r"higher|lower|significant\w*|preferred|prefer)\b")
_PURPOSE = lazy(r"\b(?:to\s+[a-z]+|for\s+[a-z]+ing|so\s+that|in\s+order\s+to|that\s+(?:lets|allows|enables|helps|"
                r"supports)|which\s+(?:lets|allows|enables|helps|supports))\b")
_POINTER = lazy(r"\b(?:the\s+(?:proposed|above|same|former|latter|aforementioned|resulting|previous)|this|these|those|"
                r"such)\s+[a-z]", re.I)
_GERUND_OBJECT = lazy(r"^\s*[a-z]+\s+(?:[a-z]+ing)\b")
_PAST = lazy(r"\b(?:found|showed|proposed|developed|conducted|evaluated|compared|designed|presented|studied|"
             r"examined|investigated|reported|observed|demonstrated)\b")
#: verbs a sentence about a paper opens with, as citekit and authors write them, and those the title checks know
#: (inquiry: "rethink", "revisit"; making: "fabricate"): any other first word is a title's or an abstract's word put
#: in the verb's place
_RESEARCH_VERBS = frozenset(
    "present propose introduce develop design build create describe discuss explore investigate examine address "
    "consider study evaluate compare measure analyze analyse assess survey review report show find demonstrate reveal "
    "use apply extend combine implement model simulate test identify detect classify augment enable support provide "
    "offer contribute examine characterize quantify derive argue outline summarize summarise track recognize "
    "estimate predict improve reduce increase visualize map conduct perform let allow help teach ask built found "
    "learn".split()) | INQUIRY_VERBS | MAKING_VERBS
_THEIR_OWN = lazy(r"\b(?:their|its)\s+(?:own\s+)?(?:[a-z\-]+\s+){0,2}?(?:system|approach|method|technique|work|"
                  r"tool|prototype|framework|design|study|model|device|interface|solution|algorithm|application|"
                  r"project)s?\b")
#: a paper's praise of what it made, which only its results can bear out (citekit.output.self_praise drops some)
_PRAISE = lazy(r"\b(?:novel|innovative|robust|efficient|effective|powerful|seamless(?:ly)?|intuitive|elegant|"
               r"flexible|unique|rich|compelling|promising|superior|state-of-the-art|cutting-edge|lightweight)\b")
#: what a sentence says a thing it names does, is for, or found: a purpose, a relative clause, a means
_SAYS_WHAT = lazy(r"\b(?:that|which|where|who|whose|to|for|by|using|with|so|while|when|in\s+which)\b")
#: (a count after "in", "over", "with" ... is a study's scope, which names what it counts: "over four weeks in three
#: schools", "with twelve participants")
_COUNTED = lazy(r"(?<!\bin\s)(?<!\bover\s)(?<!\bwith\s)(?<!\bacross\s)(?<!\bamong\s)(?<!\bfrom\s)(?<!\bfor\s)"
                r"\b(?:two|three|four|five|six|seven|eight|several|various|a\s+number\s+of|a\s+few|many)\s+"
                r"(?:[a-z\-]+\s+){0,2}?[a-z]+s\b")
_INQUIRY = frozenset("study studies explore explores examine examines investigate investigates evaluate evaluates "
                     "compare compares analyze analyzes analyse analyses assess assesses survey surveys review "
                     "reviews discuss discusses consider considers address addresses".split())
_STOP = frozenset("the a an of and or for with in on to by from as at that which this these their its is are was were "
                  "be using use how what when where who while into than more most can not".split())


def _tokens(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def shared_runs(mine: list[str], theirs: list[str], least: int = 5) -> tuple[int, float]:
    """The longest run of words ``mine`` shares with ``theirs``, and the share of ``mine`` inside runs of ``least``
    or more: how much of a sentence is another text's words in their order."""
    if not mine or not theirs:
        return 0, 0.0
    covered = [False] * len(mine)
    best = 0
    previous = [0] * (len(theirs) + 1)
    for i, word in enumerate(mine, start=1):
        current = [0] * (len(theirs) + 1)
        for j, other in enumerate(theirs, start=1):
            if word == other:
                run = current[j] = previous[j - 1] + 1
                best = max(best, run)
                if run >= least:
                    for k in range(i - run, i):
                        covered[k] = True
        previous = current
    return best, sum(covered) / len(mine)


def _plain_verb(verb: str) -> str:
    """A verb without its third-person or past ending ("studies", "studied" -> "study"; "compared" -> "compare")."""
    for ending, added in (("ies", "y"), ("ied", "y"), ("ses", "s"), ("shes", "sh"), ("ches", "ch"), ("xes", "x"),
                          ("ed", ""), ("ed", "e"), ("s", "")):
        if verb.endswith(ending) and verb[:-len(ending)] + added in _RESEARCH_VERBS:
            return verb[:-len(ending)] + added
    return verb


def _title_case(word: str, titles: list[str], abstracts: list[str]) -> bool:
    """Whether a capitalized word mid-sentence has it from a title, not from being a name: a title writes it so, not
    in the name before its colon ("Clay Brush: ..."), and no abstract capitalizes it mid-sentence."""
    for title in titles:
        head, colon, rest = title.partition(":")
        if re.search(rf"\b{re.escape(word)}\b", rest if colon and len(head.split()) <= 3 else title):
            return not any(re.search(rf"(?<=[a-z,;]\s){re.escape(word)}\b", a) for a in abstracts)
    return False


def _introduced_elsewhere(predicate: str, abstracts: list[str]) -> int:
    """How many "the X" of the sentence name an X the cited abstract introduced ("a ... X") and the sentence did not:
    the reader of the related work never met it ("using the proposed system")."""
    count = 0
    for m in re.finditer(r"\bthe\s+(?:[a-z\-]+\s+){0,2}?([a-z]{3,})\b", predicate):
        head = m.group(1)
        if head in _STOP or re.search(rf"\b(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?{head}\b", predicate[:m.start()]):
            continue
        if any(re.search(rf"\b(?:a|an)\s+(?:[\w\-]+\s+){{0,3}}?{head}\b", a, re.I) for a in abstracts):
            count += 1
    return count


def sentence_features(plain: str, titles: list[str], abstracts: list[str], rules: set[str], cited: int) -> list[float]:
    """The features of one sentence about a paper, in :data:`FEATURES` order.

    ``plain`` is the sentence without citations or math, LaTeX read as text; ``titles``
    and ``abstracts`` are the cited papers' own; ``rules`` the hand rules that fired (:func:`rule_id`);
    ``cited`` how many papers it cites.
    """
    predicate = plain.strip()  # (the citations are out of it: what is left after the subject is the predicate)
    words = _tokens(predicate)
    n = max(len(words), 1)
    run, share = 0, 0.0
    for abstract in abstracts:
        r, s = shared_runs(words, _tokens(abstract))
        run, share = max(run, r), max(share, s)
    t_share, t_run = 0.0, 0.0
    for title in titles:
        theirs = _tokens(title)
        if not theirs:
            continue
        wanted = {w for w in theirs if w not in _STOP}
        t_share = max(t_share, len(wanted & set(words)) / max(len(wanted), 1))
        t_run = max(t_run, shared_runs(words, theirs, 3)[0] / len(theirs))
    verb = words[0] if words else ""
    body = re.sub(r"^\s*\S+\s*", "", predicate)
    mid = [w for w in re.findall(r"(?<=\s)[A-Z][a-z][\w'\-]*", " " + body) if _title_case(w, titles, abstracts)]
    content = [w for w in words[1:] if w not in _STOP and len(w) > 3]
    values = {
        **{f"rule:{r}": float(r in rules) for r in RULES},
        "copy_run": min(run / 10, 3.0),
        "copy_share": share,
        "title_share": t_share,
        "title_run": t_run,
        "length": min(len(words) / 20, 3.0),
        "short": float(len(words) <= 5),
        "definite": float(_introduced_elsewhere(predicate, abstracts)),
        "pointer": float(bool(_POINTER.search(predicate))),
        "capitals": 10 * len(mid) / n,
        "acronyms": float(len(re.findall(r"\b[A-Z]{2,}[a-z]?\b", predicate))),
        "verb_study": float(verb in ("study", "studies")),
        "verb_make": float(verb in _MAKE),
        "verb_find": float(verb in _FIND),
        "verb_vague": float(verb in _VAGUE),
        "artefact": float(bool(_ARTEFACT.search(predicate) or _NAMED.match(predicate))),
        "finding": float(bool(_FINDING.search(predicate))),
        "purpose": float(bool(_PURPOSE.search(predicate))),
        # ("study teaching for CAD" names a topic; "present using mobile devices" names no thing presented)
        "gerund_object": float(bool(_GERUND_OBJECT.match(predicate.lower())) and verb not in _INQUIRY),
        "repeated_word": float(len(content) != len(set(content))),
        "tense_mix": float(verb in ({*_MAKE, *_FIND, *_VAGUE, "study", "compare"} - {"found"})
                           and bool(_PAST.search(" ".join(words[1:])))),
        "commas": predicate.count(",") / 3,
        "many_cited": float(cited > 1),
        "thin_record": float(bool(titles) and not any(real_abstract(t, a) for t in titles for a in abstracts)),
        "position": float(bool(re.search(r"\b(?:our|we)\b", plain, re.I))),
    }
    first = 0.0
    for abstract in abstracts:
        parts = split_sentences(abstract)
        if len(parts) > 1:
            first = max(first, shared_runs(words, _tokens(parts[0]))[1])
    values.update({
        # (a verb the list knows is its own plain form, or has one the list knows)
        "verb_odd": float(bool(verb) and _plain_verb(verb) not in _RESEARCH_VERBS),
        "first_copied": first,
        "overview": float(bool(re.search(r"\b(?:overview|survey|review)\b", predicate, re.I))),
        "stale_new": float(bool(re.search(r"\b(?:a|an)\s+(?:new|novel)\b", predicate, re.I))),
        "stacked_for": float(len(re.findall(r"\bfor\b", predicate)) >= 2 or len(re.findall(r"\bof\b", predicate)) >= 3),
        "counted": float(bool(_COUNTED.search(predicate))),
        "their_own": float(bool(_THEIR_OWN.search(predicate.lower()))),
        "praise": float(len(_PRAISE.findall(predicate.lower()))),
        "parenthesis": float("(" in predicate),
        "bare_artefact": float(values["artefact"] > 0 and not values["finding"]
                               and not _SAYS_WHAT.search(predicate.lower())),
    })
    return [values[f] for f in FEATURES]
