"""The paper's main finding, said short, to follow what the paper did ("..., and find that X").

Readers of related work want the result, not only the activity: "study the optimal
vibration frequency for perception in mobile environments" leaves them asking what the
frequency is. An abstract states its result in a sentence with a finding cue ("We found
that ...", "The results showed that ...", "... and found that ...") after the sentence
that says what the paper does. That sentence's "that" clause is the finding; it is said
short with :func:`~.compress.compress` and used only when it reads on its own (no pronoun
or "the same" pointing to an unseen sentence, no acronym nobody defined) and is short
enough to sit after the paper's action in one sentence.

A finding claimed by others ("Previous studies show that ...": the cue's subject is the
paper, its results or its study, said at the start of a sentence or clause) or added on
("We also found ...", "In addition, our results show ...") is not the paper's main result
and is never used. Nothing is added that the
abstract does not say: every word of the finding is the abstract's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from citekit.core.lazyre import lazy

#: the finding clause may run to this many words (after "that")
MAX_FINDING_WORDS = 16
#: and the whole clause after the paper's verb to this many
MAX_CLAUSE_WORDS = 30

_CUE_VERB = (r"(?:find|found|finds|show|shows|showed|shown|observe|observed|demonstrate|demonstrates|demonstrated|"
             r"reveal|reveals|revealed|indicate|indicates|indicated|confirm|confirms|confirmed|discover|discovered|"
             r"suggest|suggests|suggested)")
#: "We found that X", "Our results show that X", "The results of the study indicated that X", "... and found that X"
_CUE = lazy(
    rf"(?:(?:(?:^|,\s+|\band\s+)(?P<subject>(?:we|they|I)\s+(?:(?:have|had)\s+)?"
    rf"|(?:(?:the|our|these)\s+)?(?:(?:main|key|primary|overall|experimental|empirical|study|user\s+study)\s+)?"
    rf"(?:results?|findings?|data|analys[ie]s|evaluations?|experiments?|studies|study|observations?|evidence)"
    rf"(?:\s+of\s+(?:the|our|this|these)\s+[\w\-]+(?:\s+[\w\-]+)?)?\s+(?:(?:clearly|also|further)\s+)?))"
    # "We evaluated X and found that ...": the same subject, its second verb
    rf"|^(?:we|they)\b[^.;]{{0,200}}?\band\s+)"
    rf"(?!also\b)(?P<cue>{_CUE_VERB})\s+that\s+(?P<finding>.+)$", re.I | re.S)
#: what a statement that reports a result says besides a cue ("... found that ...", :data:`_CUE`):
#: an outcome word, a measure, or a verb of concluding the cue list does not hold
_OUTCOME = lazy(r"^we\s+(?:find|found|show|showed|observe|observed|conclude|report|learn|learned)\b|"
                r"\b(?:results?|findings?)\b|"
                r"\b(?:offered|outperformed|performed|was|were|led|yielded|significant(?:ly)?|faster|fastest|"
                r"slower|slowest|better|best|worse|most\s+accurate|attained|achieved|decreased|increased|dropped|"
                r"rose)\b|\d(?:\.\d+)?\s*(?:%|ms\b|wpm\b)", re.I)
#: no cut inside the finding's own clause: compress may only drop hedges, asides and side clauses
_WHOLE = 60
#: where a finding's first clause ends: a list of findings ("; that ...", ", and that ..."), a colon, a side clause
_FIRST_CLAUSE = lazy(r";\s+|:\s+|,?\s+and\s+(?:that|also)\s+|,\s+(?:whereas|while|which|as|suggesting|indicating|"
                           r"meaning|so|thus|but)\s+", re.I)
#: an end that needs more after it: "correlates strongly", "is compatible", "not only ...", "and felt"
_OPEN_END = lazy(r"\b(?:[a-z]+ly|only|and|or|but|than|as|once|felt|compatible|similar|comparable|different|"
                       r"equivalent|able|unable|difficult|easy|hard|likely|due|related|according|responsible)$"
                       r"|\bnot\s+only\b(?!.*\bbut\b)", re.I)
#: a condition said before the finding's subject: "in the presence of distractions, gestures ..."
_FRONTED = lazy(r"^(?P<condition>(?:in|under|with|without|for|during|across|on|at|after|when|compared\s+(?:to|with))\s"
                      r"[^,;:]{3,70}),\s+(?P<main>[a-z].+)$", re.I | re.S)
#: what a finding may not start with: a phrase that needs the clause it was cut from
_OPENS_PHRASE = lazy(r"^(?:in|under|with|without|for|during|across|on|at|after|before|when|while|if|although|as|"
                           r"because|since|compared|by|from|to|of)\b", re.I)
#: a finding that leans on what the reader has not seen
_LEANS = lazy(r"^(?:it|they|this|these|those|such|he|she|both|either|neither|the\s+(?:latter|former|same))\b"
                    r"|\bthe\s+same\b|\b(?:former|latter)\b|\(\d\)|\bas\s+(?:above|before)\b", re.I)


def is_finding(clause: str) -> bool:
    """Whether a statement reports what the paper found (no contrast to what another paper does): a finding cue
    (:data:`_CUE`) or an outcome (:data:`_OUTCOME`). ``--mine`` reads it to keep results out of what a paper does."""
    return bool(_CUE.search(clause) or _OUTCOME.search(clause))


def main_finding(abstract: str, after: int, name: str = "") -> str | None:
    """The abstract's main finding as a short ``that ...`` clause, or None.

    ``after`` is the index of the sentence the paper's action came from (-1 when it came
    from the title): the finding is the first cue sentence after it. Only the first is
    read: a later one is more often a side result than the main one. The finding is
    said whole, up to the end of its first clause ("; that ...", ", whereas ...", ", which
    ..."), never cut inside it: a cut finding ("CE correlates strongly", "their technique
    is compatible") misstates the result. A sentence cut off by the export is not read.
    """
    from citekit.output.compress import compress
    from citekit.output.sentences import (clause_defects, clean_clause, is_cut_short, split_sentences,
                                          unanchored_comparisons)
    from citekit.output.sentence_roles import is_addon
    from citekit.output.standalone import expand_acronyms, unexplained

    sentences = split_sentences(abstract)
    if is_cut_short(abstract):
        sentences = sentences[:-1]
    for index in range(max(after + 1, 1), len(sentences)):
        sentence = sentences[index]
        m = _CUE.search(sentence)
        if not m:
            continue
        if is_addon(sentence[:m.start("finding")]):
            return None
        finding = _FIRST_CLAUSE.split(m.group("finding").strip())[0]
        finding = clean_clause(finding.rstrip(" ."), name)
        if not finding:
            return None
        finding = expand_acronyms(finding, abstract, name)  # "VSD" written out as the abstract defined it
        # "in the presence of distractions, gestures offer gains": the claim first, its condition after it
        fronted = _FRONTED.match(finding)
        if fronted:
            finding = fronted.group("main")
        _verb, clause = compress("that " + finding, "find", name, finding=True, limit=_WHOLE)
        clause = re.sub(r"^that\s+", "", clause.strip().rstrip("."))
        clause = re.sub(r",\s+(?:(?:while|when|by|thus|thereby)\s+)?(?:[a-z]+ing|thus|thereby|which)\b.*$", "", clause)  # "..., improving the way they ..."
        if fronted:
            clause = f"{clause} {fronted.group('condition')[0].lower()}{fronted.group('condition')[1:]}"
        if not clause or unexplained(finding, name) or not _has_verb(clause) or _OPENS_PHRASE.match(clause) \
                or _OPEN_END.search(clause) or "$" in clause or "\\" in clause or _LEANS.search(clause) \
                or clause_defects(clause) or unanchored_comparisons(clause) or not 3 <= len(clause.split()) <= MAX_FINDING_WORDS:
            return None
        return clause
    return None


#: "Results showed significant interactions between size and movement.": the results as subject, what they showed
#: said as a noun phrase, with no "that" clause (:data:`_CUE` needs one)
_CUE_NP = lazy(r"^(?:(?:the|our)\s+)?(?:(?:main|key|experimental|study)\s+)?(?:results?|findings?|analys[ie]s|experiments?)"
               r"\s+(?:clearly\s+)?(?:show|showed|shown|reveal|revealed|indicate|indicated|demonstrate|demonstrated)"
               r"\s+(?!that\b)(?P<finding>[^;:]+?)\.?$", re.I | re.S)
#: what such a noun phrase must name to be a result, not a topic ("the following", "several aspects")
_RESULT_NOUN = lazy(r"\b(?:significant(?:ly)?|effects?|interactions?|differences?|improvements?|reductions?|increases?|"
                    r"decreases?|advantages?|benefits?|gains?|higher|lower|faster|slower|better|worse|fewer|more\s+\w+\s+than)\b"
                    r"|\d(?:\.\d+)?\s*%", re.I)


def main_outcome(abstract: str, after: int, name: str = "") -> str | None:
    """The abstract's main result said as a noun phrase ("significant interactions between size and movement"), or
    None: read only where :func:`main_finding` finds no "that" clause, from the first sentence after the paper's
    action whose subject is the results ("Results showed X."). The phrase must name a result (an effect, a
    difference, a comparison), read on its own and be short; every word of it is the abstract's."""
    from citekit.output.sentences import clause_defects, is_cut_short, split_sentences
    from citekit.output.standalone import unexplained

    sentences = split_sentences(abstract)
    if is_cut_short(abstract):
        sentences = sentences[:-1]
    for sentence in sentences[max(after + 1, 1):]:
        m = _CUE_NP.match(sentence.strip())
        if not m:
            continue
        phrase = _FIRST_CLAUSE.split(m.group("finding").strip())[0].rstrip(" .,")
        phrase = re.sub(r",\s+(?:[a-z]+ing|which|thus|thereby)\b.*$", "", phrase)
        if not _RESULT_NOUN.search(phrase) or _LEANS.search(phrase) or _OPENS_PHRASE.match(phrase) \
                or _OPEN_END.search(phrase) or unexplained(phrase, name) or clause_defects(phrase) \
                or "$" in phrase or "\\" in phrase or not 3 <= len(phrase.split()) <= MAX_FINDING_WORDS:
            return None
        return phrase
    return None


_AUX = {"is", "are", "was", "were", "be", "been", "has", "have", "had", "can", "could", "may", "might", "will",
        "would", "did", "does", "do", "should", "must"}


def _has_verb(clause: str) -> bool:
    """Whether the clause says something of its subject: an auxiliary, or a verb-like word with words after it
    ("the children's inventions differed from ..."; not "the children's inventions", cut before its verb)."""
    words = re.findall(r"[A-Za-z][\w'\-]*", clause)
    return any(w.lower() in _AUX for w in words[1:]) or \
        any(re.fullmatch(r"[a-z]{2,}(?:ed|s)", w) and not w.endswith("'s") for w in words[1:-1])


def with_finding(clause: str, verb: str, abstract: str, after: int, name: str = "",
                 plural: bool = True, shorter: Callable[[], str | None] | None = None) -> str:
    """``clause`` followed by ", and find(s) that <finding>" when the abstract states one and it fits.

    Not when the clause is itself a finding ("show that ...") or says a finding's verb
    already, and not when the sentence would grow past :data:`MAX_CLAUSE_WORDS` words;
    then ``shorter()``, the clause said shorter (without the title's words kept past the
    limit), is tried with the finding before the finding is given up.
    ``verb`` is the verb as written before ``clause`` ("present", "interviewed"): a past
    action is followed by "found", a present one by "find"/"finds".
    """
    # a clause that already says a finding, or joins a second action ("..., and demonstrate X"), takes no more
    if re.match(r"that\b", clause) or re.search(r"\b(?:find|found|show|showed|shows)\b", f"{verb} {clause}") \
            or re.search(r"\band\s+(?:(?:also|then)\s+)?(?:demonstrate|describe|discuss|evaluate|report|present|propose|"
                         r"compare|show|analy[sz]e|provide|introduce|explore|examine|outline|highlight)s?\b", clause):
        return clause
    finding = main_finding(abstract, after, name)
    said = "that " + finding if finding else None
    if not finding:
        finding = main_outcome(abstract, after, name)  # ("Results showed significant X": "..., and find significant X")
        said = finding
    if not finding:
        return clause
    if len(clause.split()) + len(finding.split()) + 3 > MAX_CLAUSE_WORDS:
        short = shorter() if shorter else None
        if not short or len(short.split()) + len(finding.split()) + 3 > MAX_CLAUSE_WORDS:
            return clause
        clause = short
    if re.search(r"(?:ed|built|made|ran|held|did)$", verb) and not verb.startswith(("has ", "have ")):
        find = "found"
    else:
        find = "find" if plural else "finds"
    return f"{clause.rstrip(' ,;.')}, and {find} {said}"
