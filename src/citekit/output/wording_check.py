"""Wording a reader marks in a sentence about a paper, from the sentence alone.

The readers marked three slips that copying or rephrasing an abstract leaves in the verb
phrase after the cited subject, whatever the paper is about:

- two joined verbs that disagree ("propose and discusses": the abstract's "This paper proposes
  and discusses" with only its first verb put to the authors' plural);
- the verb hidden in a noun after a light verb ("give an evaluation of", "describe the
  demonstration of", "give a study on"), which says what the paper is about instead of what it does;
- a bare noun of study without its article ("study effects of task properties");
- a verb followed by another ("presented is part of ...": the abstract's subject, "The work
  presented", lost);
- results, findings or lessons named but not given ("describe the results from a study they
  performed", "report on their progress and findings"): the reader wants what was found.

- "study" before an infinitive ("study to have and to hold": a title that opens with "To").

and, anywhere in the sentence, things counted but never named ("addresses three main problems",
"identified a number of factors"), a reference to what the sentence never named ("addresses that
gap", "do the same with objects"), and what a title or a PDF's text leaves in prose: a possessive
without its apostrophe ("a users wrist", "observers ability to"), "3d" for 3D, a "+" for
"and", an em dash spaced on one side only ("crafting— related"), a question mark followed
by a full stop, and a sentence that stops on a word that needs more ("... the error rate for.") or on a dash
("... and machine learning—.").

Each message says what to write instead.
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy

#: light verbs that carry a noun of action ("give an evaluation of") in place of the verb itself
_LIGHT = lazy(r"^(give|gives|describe|describes|perform|performs|make|makes|carry out|carries out)\s+(?:a|an|the)\s+(?:\w+\s+)?(\w+(?:tion|ment|sis|ison))\s+of\b")
#: "give a study on", "provide an overview of": the act of study or survey put in a noun after a verb of giving
_GIVEN = lazy(r"^(give|gives|provide|provides|offer|offers)\s+(?:a|an)\s+(?:\w+\s+)?(study|survey|overview|account|review)"
              r"\s+(?:of|on)\b")
_GIVEN_VERBS = {"study": "study", "survey": "survey", "overview": "survey", "account": "describe", "review": "review"}
#: a verb of study and a noun that needs its article before "of" ("study effects of", "examine use of")
_BARE = lazy(r"^(stud(?:y|ies)|examines?|investigates?|explores?|analy[sz]es?|evaluates?|assess(?:es)?|measures?)\s+"
             r"(effects?|use|impact|role|influence|nature|importance|usefulness|feasibility|performance|"
             r"potential|benefits?)\s+of\b")
_TWO_VERBS = lazy(r"^([a-z]+(?:ed|s))\s+(is|are|was|were)\b")
#: results named and not given: "describe the results from a study", "report on their findings"
_UNGIVEN = lazy(r"^((?:describe|present|report|discuss|summari[sz]e|share)s?(?:\s+on)?\s+(?:the\s+|their\s+|its\s+|"
                r"some\s+|our\s+)?(?:\w+\s+and\s+)?(?:results|findings|outcomes|lessons(?:\s+learned)?|progress))\b"
                r"(?![^.;]*\b(?:that|showing|which show|:))")
_STUDY_TO = lazy(r"^(stud(?:y|ies)\s+to\s+\w+)")
_JOINED = lazy(r"^([a-z]{3,})\s+and\s+([a-z]{3,})\s+(?:the|a|an|their|its|how|whether|new|novel)\b")


#: nouns of action and the verbs a writer says instead
_VERBS = {"evaluation": "evaluate", "demonstration": "demonstrate", "investigation": "investigate",
          "exploration": "explore", "analysis": "analyse", "comparison": "compare", "assessment": "assess",
          "examination": "examine", "description": "describe", "presentation": "present", "implementation": "implement",
          "development": "develop", "interpretation": "interpret", "measurement": "measure",
          "characterization": "characterize", "validation": "validate", "exploitation": "exploit"}


def _verb_of(noun: str) -> str:
    """The verb a noun of action comes from ("evaluation" -> "evaluate"), or a placeholder for one not listed."""
    return _VERBS.get(noun.lower(), "the verb itself")


def _third_person(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def wording_defects(predicate: str) -> list[tuple[str, str]]:
    """``(category, message)`` for the wording slips of a sentence's verb phrase (the sentence after its subject)."""
    found: list[tuple[str, str]] = []
    text = predicate.strip()
    joined = _JOINED.match(text)
    if joined and _third_person(joined.group(1)) != _third_person(joined.group(2)):
        a, b = joined.group(1), joined.group(2)
        plain = [w[:-2] if w.endswith(("sses", "shes", "ches", "xes", "zes")) else w[:-1] if _third_person(w) else w
                 for w in (a, b)]
        found.append(("grammar", f"'{a} and {b}': the two verbs disagree in number; write "
                                 f"'{plain[0]} and {plain[1]}'"))
    light = _LIGHT.match(text)
    if light:
        found.append(("wordy", f"'{light.group(0)}' hides the verb in a noun: say '{_verb_of(light.group(2))} ...' "
                               "and what the paper found or built"))
    given = _GIVEN.match(text)
    if given:
        found.append(("wordy", f"'{given.group(0)}' hides the verb in a noun: say '{_GIVEN_VERBS[given.group(2)]} ...' "
                               "and what the paper found"))
    two = _TWO_VERBS.match(text)
    if two:
        found.append(("grammar", f"'{two.group(0)}': two verbs in a row, the abstract's subject lost; say what the "
                                 "paper does"))
    ungiven = _UNGIVEN.match(text)
    if ungiven:
        found.append(("no-claim", f"'{ungiven.group(1)}' names what was found without saying it: give the finding "
                                  "('show that ...')"))
    study_to = _STUDY_TO.match(text)
    if study_to:
        found.append(("grammar", f"'{study_to.group(1)}' reads as a purpose, not a topic: a title that opens with "
                                 "'To'; say what the paper studies or finds"))
    bare = _BARE.match(text)
    if bare:
        found.append(("grammar", f"'{bare.group(0)}' lacks its article: write '{bare.group(1)} the "
                                 f"{bare.group(2)} of', or say what the paper found"))
    return found


#: people (and things) whose plural takes a possessive: "users", "observers", "participants", "students"
_PLURAL = r"[a-z]{2,}(?:ers|ors|ants|ents|ists|ees|ians)"
#: what they have: a noun by its form or a part of the body ("ability", "immersion", "wrist")
_HAD = (r"(?:[a-z]+(?:ity|ion|ment|ness|ance|ence|ship)|wrists?|hands?|arms?|fingers?|eyes?|faces?|heads?|bod(?:y|ies)|"
        r"needs|behaviou?r|experiences?|attention|performance)")
_POSSESSIVE = lazy(rf"\b(?:(?:a|an|each|every)\s+{_PLURAL}\s+[a-z]+|{_PLURAL}\s+{_HAD})(?=\s+(?:of|to|in|on|with|for|"
                   r"and|by|when|while|that|as|during|at|from|under|over|across|after|before)\b|[,.;:]|$)")
#: "that gap", "that problem": a demonstrative on a noun that points back (the sentence's own noun is fine)
_THAT_HEAD = lazy(r"\bthat\s+(gap|problem|issue|limitation|challenge|question|need|shortcoming|drawback|mismatch|"
                  r"discrepancy|tradeoff|trade-off|difficulty|bottleneck)s?\b(?!\s+(?:of|between|in|is|was)\b)")
#: "do the same", "achieve the same": the same as what?
_THE_SAME = lazy(r"\b(?:do|does|did|doing|achieve|achieves|show|shows)\s+the\s+same\b"
                 r"(?=\s+(?:with|for|by|in|on|using|without|to|at|from|through)\b|\s*[.,;]|\s*$)")
#: things counted and left unnamed: "three main problems", "a number of factors", "two important ... factors"
_COUNTED = lazy(r"\b(?:two|three|four|five|six|seven|several|a\s+number\s+of|a\s+few|some|many|various)\s+"
                r"(?:[a-z\-]+\s+){0,3}?(?:problems|factors|issues|challenges|aspects|requirements|limitations|"
                r"findings|lessons|insights|implications|guidelines|principles|steps|stages|phases|techniques|strategies|"
                r"themes|dimensions|categories)\b(?!\s*(?::|\(|,?\s+(?:including|such as|"
                r"namely|like|of|for|in|on|about|that|which|to)\b))")
#: a word no sentence ends on: an article, a preposition that takes an object, a conjunction ("... for.")
_OPEN_END = lazy(r"\s(?:a|an|the|of|for|with|and|or|by|from|into|between|than|its|their)\s*\.?\s*$")


def prose_defects(plain: str) -> list[tuple[str, str]]:
    """``(category, message)`` for what a title or a PDF's text leaves in a sentence (``plain``: no citations)."""
    found: list[tuple[str, str]] = []
    possessive = _POSSESSIVE.search(plain)
    if possessive:
        found.append(("grammar", f"'{possessive.group(0)}' lacks an apostrophe: a possessive ('users' wrist', "
                                 "'observers' ability')"))
    lower = re.search(r"\b[234]d\b", plain)
    if lower:
        found.append(("grammar", f"'{lower.group(0)}': write '{lower.group(0).upper()}'"))
    if re.search(r"[A-Za-z]\s+\+\s+[A-Za-z]", plain):
        found.append(("grammar", "a '+' from a title joins two phrases: write 'and', or say how they relate"))
    dash = re.search(r"\w+[\u2014\u2013]\s+\w+|\w+\s+[\u2014\u2013]\w+", plain)
    if dash:
        found.append(("grammar", f"'{dash.group(0)}': a title's dash left half-spaced; write 'and' or a comma"))
    if re.search(r"\?[\"\u201d'\u2019]*\s*\.\s*$", plain):
        found.append(("grammar", "a question mark and a full stop end the sentence: say what the paper asks in the "
                                 "sentence's own words ('ask what ...')"))
    counted = _COUNTED.search(plain)
    if counted:
        found.append(("vague", f"'{counted.group(0)}' are counted but never named: say which, or the most important"))
    unseen = _THAT_HEAD.search(plain)
    if unseen and not re.search(rf"\b{unseen.group(1)[:5]}", plain[:unseen.start()], re.I):
        found.append(("definite-reference", f"'{unseen.group(0)}' refers to something the sentence never named: "
                                            "say which"))
    same = _THE_SAME.search(plain)
    if same:
        found.append(("definite-reference", f"'{same.group(0)}' refers to something the sentence never named: say "
                                            "what is done"))
    dangling = re.search(r"(?:[\u2014\u2013,;:]|\s-)\s*\.\s*$", plain)
    if dangling:
        found.append(("truncated", "the sentence ends on a dash or a comma: the clause after it is missing; complete "
                                   "it or end the sentence before it"))
    end = _OPEN_END.search(plain)
    if end:
        found.append(("truncated", f"the sentence stops on '{end.group(0).strip(' .')}', which needs more: "
                                   "complete the clause or end it earlier"))
    return found
