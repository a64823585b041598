"""What a paragraph of studies shares as work: "Both studies evaluate gesture interfaces."

Readers asked for topic sentences that say what the papers do together ("both evaluate gesture
input"), and struck the phrase they merely share ("Both papers address gestures") as vacuous. A
study says it is one in its title ("Evaluation of ...", "Assessing the Usability of ...", "A
Comparative Usability Study of ...", "The Effect of X on Y") or in its contribution sentence ("We
evaluate ...", "We present an evaluation of ...", "This paper reports an investigation into ...").
When every paper of a group is a study, and every one writes the same run of words in its title or
in what its contribution sentence says it studies, the group opens with that: the kind of work
(studies), what they do ("evaluate" when every one evaluates, else "study") and the run of words. A
paper that only builds something, or a run of words one paper lacks, opens nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citekit.core.text import fold

#: a title's words that say the paper is an evaluation ("Evaluating", "Assessing the Usability of")
_EVALUATING = r"evaluation|evaluating|assessing|assessment|comparison|comparing|comparative|usability"
#: a title's words that say the paper is a study of something, not an evaluation of it
_STUDYING = r"study|studies|investigation|investigating|examining|effects?|impact|influence"
#: a study cue at the start of a title or of its part after a colon, after an article and qualifiers
_TITLE_CUE = re.compile(
    r"(?:^|:\s*)(?:(?:an?|the)\s+)?(?:(?:comparative|empirical|user|field|exploratory|qualitative|quantitative|"
    r"longitudinal|pilot|case|initial|controlled|usability|formal)\s+)*"
    r"(?P<cue>" + _EVALUATING + "|" + _STUDYING + r")\s+(?:study\s+)?(?:of|on|into|the)\b", re.I)
#: the contribution's verbs of a study, and the kind each says
_STUDY_VERBS = {"evaluate": "evaluate", "assess": "evaluate", "compare": "evaluate", "study": "study",
                "investigate": "study", "examine": "study"}
#: "present/report/describe/conduct/offer an evaluation of", "a ... study to examine": a study said as a noun
_STUDY_NOUN = re.compile(
    r"^(?:an?|the|two|three|several)\s+(?:(?!(?:and|or|with|for|of|to|in|on)\b)[\w\-]+\s+){0,3}?"
    r"(?P<noun>evaluation|study|studies|experiment|experiments|investigation|comparison|assessment)\b", re.I)
#: what a paper presents before its study makes it no study: "a loom controller and evaluation"
_MADE_FIRST = re.compile(r"\b(?:system|technique|interface|device|tool|toolkit|prototype|method|framework|"
                         r"application|platform)s?\b", re.I)
_NOUN_KIND = {"evaluation": "evaluate", "comparison": "evaluate", "assessment": "evaluate"}
_SAYING_VERBS = frozenset("present report describe conduct offer perform carry".split())


@dataclass(frozen=True)
class Study:
    """A paper its record says is a study: ``evaluate`` or ``study``, and the text that says what of."""

    kind: str
    text: str


def study_of(title: str, abstract: str) -> Study | None:
    """The study a paper's record says it is, or None when neither its title nor its contribution sentence
    says it is one (a paper that presents a system is no study, whatever it measures)."""
    from citekit.output.sentences import contribution

    found = contribution(abstract, title=title) if abstract else None
    kinds: list[str] = []
    m = _TITLE_CUE.search(title or "")
    if m:
        kinds.append("evaluate" if re.fullmatch(_EVALUATING, m.group("cue"), re.I) else "study")
    if found is not None:
        if found.verb in _STUDY_VERBS and not re.match(r"\s*\w+ing\b", found.rest):
            # ("We study mitigating staleness ...": a paper that does the thing, not a study of it)
            kinds.append(_STUDY_VERBS[found.verb])
        elif found.verb in _SAYING_VERBS and (n := _STUDY_NOUN.match(found.rest.strip())) \
                and not _MADE_FIRST.search(found.rest.strip()[:n.start("noun")]):
            kinds.append(_NOUN_KIND.get(n.group("noun").lower(), "study"))
    if not kinds:
        return None
    kind = "evaluate" if "evaluate" in kinds else "study"
    return Study(kind, f"{title} . {found.rest if found is not None else ''}")


#: heads of a run said in the plural: "gesture interface" -> "Both studies evaluate gesture interfaces"
_COUNTABLE = frozenset("interface device system technique method tool game display prototype application "
                       "controller sensor keyboard widget environment robot agent".split())


def shared_study(titles: list[str], abstracts: list[str], section: set[str] | None = None,
                 names: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """``("evaluate", "gesture interfaces")`` when every paper is a study (:func:`study_of`) and every one writes
    one run of words (title or contribution, :func:`shared_run`), else None: the verb is "evaluate" when every
    one evaluates, else "study"."""
    studies = [study_of(t, a) for t, a in zip(titles, abstracts)]
    if len(studies) < 2 or not all(studies):
        return None
    said = shared_run([s.text for s in studies], section, names)
    if said is None:
        return None
    return ("evaluate" if all(s.kind == "evaluate" for s in studies) else "study"), said


def shared_run(texts: list[str], section: set[str] | None = None, names: frozenset[str] = frozenset(),
               within: set[str] | None = None) -> str | None:
    """The longest run of words the first text writes whose every word the others write too (in some form), as
    it reads in a sentence ("gesture interfaces"), or None. It must end where its noun phrase ends in the first
    text, never on a describing word ("tangible"), name a topic (two words or more, or one that stands alone),
    and hold a word that is not the section's own (``section``): "Both studies evaluate usability" under
    ``usability`` says nothing. With ``within`` (stems), every word of the run is one of them."""
    from citekit.output.related_topics import _ADJECTIVE, FUNCTION_WORDS, GENERIC, _shown, _stem, _topic_word

    own = {w[:6] for w in section or set()}

    def words(text: str) -> list[str]:
        return re.findall(r"[^\W_][\w\-]*", text)

    others = [{_stem(fold(w).lower()) for w in words(t)} for t in texts[1:]]
    best: list[str] = []
    for chunk in re.split(r"[.,;:!?()\"“”]", texts[0]):
        run: list[str] = []
        for w in [*words(chunk), ""]:
            low = fold(w).lower()
            if (w and low not in FUNCTION_WORDS and low not in GENERIC and all(_stem(low) in o for o in others)
                    and (within is None or _stem(low) in within)):
                run.append(w)
                continue
            # the run must end where its noun phrase ends: "asynchronous pipeline" of "asynchronous pipeline
            # parallelism" is no thing either paper studies, and neither is "tangible" of "tangible maps"
            ends = not w or low in FUNCTION_WORDS
            if ends and run and not (_ADJECTIVE.search(run[-1].lower()) and not _topic_word(run[-1], names)) \
                    and _says(run, own, names) and len(" ".join(run)) > len(" ".join(best)):
                best = run
            run = []
    if not best:
        return None
    if _stem(best[-1].lower()) in _COUNTABLE and not best[-1].lower().endswith("s"):
        best = [*best[:-1], best[-1] + "s"]
    return _shown(" ".join(best), names)


def _says(run: list[str], own: set[str], names: frozenset[str]) -> bool:
    """Whether a run of words names a topic of its own: two words or more, or one that stands alone, with a word
    that is not the section's and not one that names nothing alone ("interface")."""
    from citekit.output.related_topics import WEAK_ALONE, _topic_word

    if not run or len(run) > 4:
        return False
    content = [w for w in run if w.lower()[:6] not in own]
    if not content or all(w.lower() in WEAK_ALONE for w in content):
        return False
    return len(run) > 1 or _topic_word(run[0], names)
