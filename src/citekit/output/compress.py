"""Say a paper's contribution in a short clause of the abstract's own parts, not its whole sentence.

A careful co-author does not paste a 25-word abstract sentence into related work (a
plagiarism checker would flag it, and it carries hedges, evaluation detail and side
clauses the reader does not need). They keep the method's name, what it is and the main
finding, and drop the rest: "We present ILoveSketch, a 3D curve sketching system that
captures some of the affordances of pen and paper for professional designers, allowing
them to iterate directly on concept 3D curve models" becomes "built ILoveSketch, a 3D
curve sketching system for professional designers".

This module does that with rules over the clause's surface structure, so that it carries
to abstracts of any field: parentheticals, hedges and hype words go; a side clause after a
comma ("which ...", "allowing ...", "; ..."), a purpose clause ("in order to ...") and a
list after a colon go; a relative clause after a named thing ("X, a Y that ...") goes,
keeping a short "for Z" that ends it; an overlong clause is cut before a trailing
prepositional phrase. Nothing is added that the clause did not say: every word kept is
the abstract's, only fewer of them, and the verb is the one the sentence used or a plainer
one that says the same ("describe a system" -> "built a system").
"""

from __future__ import annotations

import re

from citekit.output.articles import indefinite_article
from citekit.output.sentences import EMPH_CLOSE, EMPH_OPEN
from citekit.core.lazyre import lazy

#: at most this many words after the verb: an author's clause about one paper, not the abstract's sentence
MAX_WORDS = 12
#: a finding ("show that X, whereas Y") needs a few more to say both halves
FINDING_WORDS = 16
#: how many words past the limit a clause may run to keep what the title says it is about
TITLE_WORDS = 8
#: spans that are never cut into or reworded: math and emphasis kept from the source
_PROTECT = lazy(rf"(?<!\\)\$\$?.*?(?<!\\)\$\$?|{EMPH_OPEN}.*?{EMPH_CLOSE}", re.S)
_MASK = re.compile(r"QXP(\d+)QX")
#: what a clause loses nothing by dropping: hype and hedges ("a novel yet simple technique": the "yet" goes with
#: "novel", or "a yet simple" is left)
_HYPE = lazy(
    r"\b(?:(?:a\s+)?(?:simple|lightweight)\s*,?\s+(?:yet|but|and)\s+(?:effective|powerful|efficient)|"
    r"(?:novel|innovative)(?:\s*,?\s+(?:yet|but)(?=\s+[a-z]))?|first-of-its-kind|effectively|successfully|significantly|substantially|"
    r"greatly|dramatically|highly|simply|(?:for\s+the\s+first\s+time,?)|to\s+the\s+best\s+of\s+(?:their|our)\s+knowledge,?|"
    r"potentially|arguably|indeed)\s+", re.I)
_NEW = lazy(r"\b(a|an|the)\s+new\s+", re.I)
#: a side clause after a comma: everything from it on goes (never ", compared with X": what a claim is measured
#: against is part of it)
_SIDE = lazy(
    r"\s*(?:,|\s-{1,3}|\s\u2014|\u2014)\s*(?:(?:both|all|each|one|some|many|most|none|either)\s+of\s+(?:which|whom)|which|where|whereby|while|whereas|thereby|thus|hence|so\s+that|such\s+that|"
    r"allowing|enabling|making|leading|resulting|yielding|providing|giving|focusing|including|such\s+as|"
    r"as\s+well\s+as|in\s+order\s+to|based\s+on|using|demonstrating|showing|achieving|offering|without|"
    r"especially|particularly|namely|e\.g\.|i\.e\.|and\s+(?:they|then|finally|thus|hence|therefore)|"
    r"even|in\s+which|through\s+which|by\s+which|with\s+which|that\s+is|via|"
    r"whose|who|when|after|before|because|since|as\s+it|as\s+they|unlike|along|together|"
    r"in\s+particular|specifically|respectively|along\s+with|followed|their\s+\w+\s+\w+|they|it\s+\w+s|(?:but|yet|though|although)(?![^,]{1,30},))\b"
    r"|\s+and\s+(?=(?:the|a|an|its|their|these|this)\s+[\w\-]+(?:\s+[\w\-]+){0,4}\s+(?:is|are|was|were|has|have|had|can)\b)"
    # "introduces X, presents Y, and assesses Z": the first action is the contribution, the rest a list of more
    r"|,\s+(?:and\s+)?(?=(?:presents|proposes|introduces|describes|evaluates|assesses|discusses|demonstrates|reports|"
    r"examines|explores|outlines|analy[sz]es|compares|points)\b)"
    r"|\.(?=[A-Z][a-z])|\s*;\s|\s*:\s|\s+(?:in\s+order\s+to|so\s+as\s+to|so\s+that|including|which|whereby|thereby)\s", re.I)
#: "provide the first analysis showing that X": the finding is X
_SHOWING = lazy(r"^(?:(?:a|an|the)\s+)?(?:[\w\-]+\s+){0,3}(?:analysis|analyses|study|studies|evidence|proof|"
                      r"proofs|experiments?|evaluation|results?|findings?)\s+(?:showing|demonstrating|revealing|"
                      r"indicating|which\s+shows?|that\s+shows?)\s+(?=that\s)", re.I)
#: "that while AdamW degrades, Muon is robust": the main clause is the claim
_FRONTED = lazy(r"^that\s+(?:while|whereas|although|though|even\s+though)\s+[^,]{3,120},\s*(?=\S)"
                      r"|^that,\s+[^,]{3,60},\s*(?=\S)", re.I)
#: "an approach based on supervised learning to infer X": how it is built, not what it does
_BASED_ON = lazy(r"\s+based\s+on\s+[^,;]{1,60}?(?=\s+(?:to|for|that)\s)", re.I)
#: ", based on three levels of abstraction, that allows ...": an aside between commas
_ASIDE = lazy(r",\s+(?:based\s+on|using|via|e\.g\.|i\.e\.|such\s+as|including|in\s+particular|"
                    r"for\s+example|for\s+instance|among\s+others|if\s+any|in\s+turn)\s+[^,;:]{1,80},\s*(?=[a-z])", re.I)
#: a subordinate clause opened and not closed: a comma cut there leaves "while AdamW degrades" alone
_OPEN_SUBORDINATE = lazy(r"\b(?:while|whereas|although|though|if|when|since|because|unless|after|before)\b[^,]*$",
                               re.I)
#: "provide a detailed description of X" -> "describe X": the action the noun names, said as the verb
_NOMINAL = lazy(
    r"^(?:out\s+|on\s+)?(?:(?:a|an|the)\s+)?(?:(?:detailed|comprehensive|thorough|brief|systematic|extensive|in-depth|"
    r"careful|formal|empirical|experimental|theoretical|qualitative|quantitative)\s+)*"
    r"(?P<noun>description|analysis|analyses|evaluation|investigations?|examination|exploration|comparison|"
    r"assessment|characterization|characterisation|implementation|observation|observations|measurements?|"
    r"derivation|formalization|verification|exploration|demonstration)\s+(?:of|into|on)\s+(?=\S)", re.I)
_NOMINAL_VERB = {"description": "describe", "analysis": "analyze", "analyses": "analyze", "evaluation": "evaluate",
                 "investigation": "investigate", "investigations": "investigate", "examination": "examine",
                 "exploration": "explore", "comparison": "compare", "assessment": "assess",
                 "characterization": "characterize", "characterisation": "characterise",
                 "implementation": "implement", "observation": "observe", "observations": "observe",
                 "measurement": "measure", "measurements": "measure", "derivation": "derive",
                 "formalization": "formalize", "verification": "verify", "demonstration": "demonstrate"}
#: "present the results of a user test" -> "report a user test": the results are the study's
_RESULTS_OF = lazy(r"^(?:the\s+)?(?:results|findings)\s+(?:of|from)\s+(?=(?:an?|their|two|three|several)\s)", re.I)
#: "a case study where they compare X": what the study did is the paper's action
_STUDY_WHERE = lazy(r"^(?P<study>(?:a|an)\s+(?:[\w\-]+\s+){0,2}(?:study|experiment|evaluation))\s+(?:where|in\s+which)\s+"
                    r"they\s+(?P<verb>[a-z]{3,})\s+(?P<rest>(?:the|a|an|how|whether|their|two|three)\b.+)$", re.I)
#: wordy stock phrases and the word a writer uses for them
#: ("in the context of other X" stays: "electronics building in the context of other crafts" compares it with them,
#: "in other crafts" is a different claim, which a reader struck; "in the context of a task" is only its setting)
_STOCK = ((lazy(r"\b(?:with)?in\s+the\s+context\s+of\b(?!\s+(?:the\s+)?(?:other|another|similar|related|different|"
                r"existing|traditional|prior|earlier|broader|wider|comparable)\b)", re.I), "in"),
          (lazy(r"\ba\s+(?:wide\s+)?(?:variety|range)\s+of\b", re.I), "various"),
          (lazy(r"\bthe\s+possibilit(?:y|ies)\s+of\s+(?=\w+ing\b)", re.I), ""),
          # plain words for padded ones: "a number of factors" -> "several factors", "leverages X" -> "uses X",
          # "seven different materials" -> "seven materials" (a count already says they differ)
          (lazy(r"\ba\s+(?:large\s+|small\s+)?number\s+of\b(?=\s+[a-z])"), "several"),
          (lazy(r"\bleverag(?=e\b|es\b|ed\b|ing\b)"), "us"),
          (lazy(r"\b(two|three|four|five|six|seven|eight|nine|ten|twelve|\d+)\s+different\s+(?=[a-z])", re.I),
           r"\1 "))
#: verbs that only carry such a noun: "provide/present/give/perform/conduct/carry out/report on an analysis of"
_LIGHT_VERBS = {"provide", "present", "give", "perform", "conduct", "carry", "report", "make", "offer", "describe",
                "have carried", "have performed", "have made", "conducted", "performed", "carried", "made",
                "presented", "described", "provided", "gave", "reported"}
#: "converting a model | into a multilayer model": the verb needs what follows
_COMPLEMENT = lazy(r"\b(?:convert|transform|translat|turn|map|compil|decompos|split|chang|integrat|embed|"
                         r"reduc|extend|adapt|apply|appli|port|lift|encod|rewrit|assist|help|allow|enabl)\w*"
                         r"(?:\s+\S+){1,6}$", re.I)
#: "combine X | with Y": the verb needs its "with"
_WITH_NEEDED = lazy(r"\b(?:combin|integrat|pair|augment|equip|replac|compar|associat|interact|collaborat|"
                          r"communicat|align|merg|couple|coupling|synchroni[sz])\w*(?:\s+\S+){1,6}$", re.I)
#: nouns whose "with ..." names the other party: "interaction with a humanoid robot"
_WITH_PARTNER = lazy(r"\b(?:interaction|interactions|collaboration|communication|conversation|dialogue|dialog)$", re.I)
#: "X, a Y that ...": the relative clause after a named thing
_RELATIVE = re.compile(r"\s+(?:that|which|who|whose)\s+(?!is\b|are\b)", re.I)
#: prepositions before which an overlong clause may end: what follows only narrows it
_PREP = lazy(r"\s+(?=(?:for|in|on|with|through|across|via|using|by|from|under|at|during|over|within|without|"
                   r"toward|towards|into|while|where|as|that|which|who|to)\s)"
                   r"|,(?=\s+(?!and\b|or\b|an?\b|the\b))", re.I)
#: what a made thing is called when the paper built it (a system, not a method)
_BUILT = lazy(r"\b(?:system|tool|toolkit|prototype|device|interface|"
                    r"application|app|environment|editor|platform|display|controller|glove|wristband|bracelet|"
                    r"sensor|robot|game|plugin|plug-in|browser|keyboard|camera|watch|handset|tabletop|stylus|headset|"
                    r"compiler|debugger|library)s?\b", re.I)
_METHOD_HEAD = lazy(r"\b(?:method|approach|algorithm|technique|"
                          r"framework|model|scheme|optimizer|procedure|strategy|architecture|process)s?\b", re.I)
_ARTICLE = lazy(r"\b(a|an|A|An)\s+(?=(\S+))")


def _kind(text: str) -> str:
    """"built" when the thing the clause names first is a made artefact (a system, a tool), "method" when it is
    a method, else "": read from the head noun among its first words ("a tool for analyzing object models")."""
    # the first noun phrase: after a leading name ("ReCrash, a technique"), before its first preposition or clause
    head = re.sub(r"^[^\s,]+(?:\s+[^\s,]+)?,\s+", "", " ".join(text.split()[:12]))
    head = re.split(r"\s(?:of|for|in|on|to|that|which|who|with|by|from|using|via|,)\s|,", head, maxsplit=1)[0]
    # English puts the head noun last: "a library-based approach" is an approach
    built = [m.end() for m in _BUILT.finditer(head)]
    method = [m.end() for m in _METHOD_HEAD.finditer(head)]
    if built and not method and not re.search(r"\b(?:process|methodology|model|study|analysis|set)\b", head, re.I):
        return "built"  # "a development process and tools" is not something one builds
    return "method" if method else ""


def _mask(text: str) -> tuple[str, list[str]]:
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return f"QXP{len(spans) - 1}QX"

    return _PROTECT.sub(keep, text), spans


def _unmask(text: str, spans: list[str]) -> str:
    return _MASK.sub(lambda m: spans[int(m.group(1))], text)


def _words(text: str) -> int:
    return len(text.split())


def _name_first(text: str, name: str) -> str:
    """"a light and fast Muon (LiMuon) optimizer for X" -> "LiMuon, a light and fast Muon optimizer for X".

    The method's name leads, as an author writes it, instead of hiding in a parenthesis.
    """
    m = re.match(r"^(an?|the)\s+([^,;()]{1,80}?)\s*\(([^()\s]{2,30})\)\s*(.*)$", text, re.I)
    # the title's name, or a coined one in mixed case ("LiMuon"; an acronym like "PSD" only abbreviates)
    if not m or not (m.group(3) == name or re.fullmatch(r"[A-Z][\w\-]*[a-z][\w\-]*[A-Z][\w\-]*|[A-Z][a-z]+[A-Z]\w*",
                                                         m.group(3))):
        return text
    name = m.group(3)
    if re.search(rf"(?<![\w\-]){re.escape(name)}(?![\w\-])", m.group(4)):
        return text
    article = "a" if m.group(1).lower() == "the" else m.group(1).lower()
    return f"{name}, {article} {m.group(2)} {m.group(4)}".strip()


#: "their system called MobileASL for X", "an interactive tool named SILK that ...", "a framework, namely the MagicPad,
#: inspired by X": the thing, then its name
_CALLED = re.compile(r"^(?:their|our|its|an?|the)\s+(?P<kind>(?:[\w\-]+\s+){0,5}?[\w\-]+)\s*,?\s+"
                     r"(?:called|named|dubbed|termed|namely(?:\s+the)?)\s+(?P<name>[A-Za-z][\w\-]*[A-Za-z0-9])(?P<comma>,)?"
                     r"(?P<rest>(?:\s.*)?)$")


#: a word set in capitals then lower case ("HANDset", "EXTRAordinary"): a typographic flourish when the word is ordinary
_STYLIZED = lazy(r"\b([A-Z]{2,})([a-z]{2,})\b")


def unstylized(text: str, record: str) -> str:
    """"a finger-ring shaped wearable HANDset" -> "... handset" when the record also writes "handset" in lower case.

    An abstract may set part of a word in capitals for effect (the product's name is the title's
    ordinary "Handset"); in a sentence about the paper it reads as a typo. Only a word the record
    itself writes all in lower case somewhere is lowered, so "BERTology" or "GANs" stay.
    """
    def plain(m: re.Match[str]) -> str:
        word = m.group(0).lower()
        return word if re.search(rf"(?<![\w\-]){re.escape(word)}(?![\w\-])", record) else m.group(0)
    return _STYLIZED.sub(plain, text)


def _called_first(text: str) -> str:
    """"their system called MobileASL for real-time video" -> "MobileASL, a system for real-time video".

    An author names the thing, then says what it is; "our system called X" is the abstract's voice
    ("their system called X" once the subject is the citation). Only a coined name (a capital
    letter in it) moves; the article is set right later (:func:`_articles`).
    """
    m = _CALLED.match(text)
    if not m or not re.search(r"[A-Z]", m.group("name")):
        return text
    rest = m.group("rest").strip()
    if rest.split(" ", 1)[0].lower() == m.group("kind").split()[-1].lower():
        return text  # "a criterion called Invariant-coverage criterion for ...": the name holds the kind, as written
    if m.group("comma"):  # "a tool named X, which lets ...": what it does now defines the tool, said with "that"
        rest = re.sub(r"^which\b", "that", rest)
    return f"{m.group('name')}, a {m.group('kind')}{' ' + rest if rest else ''}"


def _drop_parentheticals(text: str, name: str = "") -> str:
    """"(n = 12)", "(e.g., X, Y)", "(see below)" go; an acronym defined and used again ("(ZO)") stays,
    and so does the paper's own method name."""
    kept: list[str] = []
    while True:
        m = re.search(r"\s*\(([^()]*)\)", text)
        if not m:
            return re.sub(r"QXK(\d+)QX", lambda k: kept[int(k.group(1))], text)
        inner = m.group(1).strip()
        used_again = re.fullmatch(r"[A-Z][A-Za-z0-9\-]*s?", inner) and \
            re.search(rf"(?<![\w\-]){re.escape(inner.rstrip('s'))}s?(?![\w\-])", text[m.end():])
        if used_again or (name and inner == name):
            kept.append(m.group(0))
            text = text[:m.start()] + f"QXK{len(kept) - 1}QX" + text[m.end():]
        else:
            text = text[:m.start()] + text[m.end():]


def _articles(text: str) -> str:
    """"a" or "an" by the word that now follows it ("a novel approach" -> "an approach")."""
    def fix(m: re.Match[str]) -> str:
        article = indefinite_article(m.group(2))
        return (article.capitalize() if m.group(1)[0].isupper() else article) + " "
    return _ARTICLE.sub(fix, text)


def _cut_side(text: str, finding: bool = False) -> str:
    """Everything from the first side clause on goes, when enough is left to say something.

    In a finding, "..., whereas X" is the other half of the claim ("Muon is sensitive to
    the learning rate, whereas MuonMax is robust") and stays.
    """
    for m in _SIDE.finditer(text):
        if finding and re.match(r"\W*(?:while|whereas)\b", m.group(0).lstrip(" ,"), re.I):
            continue
        if m.group(0).lstrip().startswith(",") and _OPEN_SUBORDINATE.search(text[:m.start()]):
            continue
        head = _dangling(text[:m.start()])
        # after a comma, dash or semicolon three words may stand; a bare "which"/"in which" needs more before it
        enough = 3 if re.match(r"\s*[,;:\u2014.-]", m.group(0)) else 5
        if _words(head) >= enough and len(re.findall(r"[A-Za-z]{4,}", head)) >= 2:
            return head
    return text


def _cut_relative(text: str) -> str:
    """"X, a Y that does Z for W" -> "X, a Y for W": the named thing and what it is, not how it works.

    Only after an appositive that already says what the thing is (six words with the name),
    so "a tool that takes logs as input" keeps its relative clause: "a tool" says nothing.
    """
    m = re.match(r"^(\S+(?:\s+\S+)?,\s+(?:an?|the)\s+[^,]+?)(?=\s+(?:that|which|who)\s)", text)
    if not m or _words(m.group(1)) < 6:
        return text
    tail = text[m.end():]
    audience = re.search(r"\s(for\s+(?:[\w\-]+\s+){0,2}[\w\-]+)$", tail)
    return m.group(1) + (" " + audience.group(1) if audience else "")


def _cap(text: str, limit: int) -> str:
    """:func:`_cut_at` within ``limit`` words; when no cut there is allowed, the first one a few words past it."""
    if _words(text) <= limit:
        return text
    out = _cut_at(text, limit)
    if out == text:
        out = _cut_at(text, limit + 6, shortest=True)
    return out


def _cut_at(text: str, limit: int, shortest: bool = False) -> str:
    """An overlong clause ends before its last prepositional phrases, keeping the first ``limit`` words' sense.

    Never inside a "whether/how/what ..." clause, whose verb may not have come yet
    ("assess whether replacing a component of a system" says nothing); a participle or
    adverb left at the end ("feedback obtained", "memory dynamically allocated") goes with
    the phrase it introduced.
    """
    if _words(text) <= limit:
        return text
    cuts = [m.start() for m in _PREP.finditer(text)
            if (3 if m.group(0).startswith(",") and not re.match(r",\s+(?:that|which|who)\b", text[m.start():])
                else 6 if re.match(r",?\s+(?:that|which|who)\b", text[m.start():]) else 5)
            <= _words(text[:m.start()]) <= limit
            and not re.search(r"\b(?:whether|how|what|why|if|when)\b", text[:m.start()], re.I)
            and not (m.group(0).startswith(",") and (_OPEN_SUBORDINATE.search(text[:m.start()])
                                                     or re.match(r",\s+(?:whereas|while)\b", text[m.start():])))]
    cuts = [c for c in cuts if not re.search(r"\d$", text[:c])  # "almost 1 | in 5 merges"
            # "a common interaction technique | across devices": common to what? the phrase that says it stays
            and not re.search(r"\b(?:common|shared|same|similar|consistent|unified|uniform|different|various|"
                              r"comparable|equivalent)\s+(?:[\w\-]+\s+){0,2}[\w\-]+$", text[:c], re.I)
            # "levels of environmental demands | on attention": demands on what?
            and not (re.match(r"\s+(?:on|upon)\s", text[c:]) and re.search(
                r"\b(?:demands?|effects?|impacts?|influences?|load|pressure|constraints?|reliance|dependence|"
                r"emphasis|focus|limits?|restrictions?)$", text[:c], re.I))
            and not (re.match(r"\s+to\s", text[c:]) and _TO_NEEDED.search(text[:c]))
            and not (re.match(r"\s+(?:into|to|in|onto)\s", text[c:]) and _COMPLEMENT.search(text[:c]))
            and not (re.match(r"\s+with\s", text[c:]) and _WITH_NEEDED.search(text[:c]))
            # "and show | that Hampi is faster": the verb's "that" clause is its object, not a relative clause
            and not (re.match(r"\s+that\s", text[c:]) and re.search(
                r"\b(?:show|find|found|prov|demonstrat|argu|conclud|suggest|reveal|indicat|observ|note|claim|report|"
                r"confirm|establish|hypothesi[sz]|predict|verif|ensur|guarantee)\w*$", text[:c], re.I))]
    # never at a comma of a list ("recording, reproducing, and minimizing"; "a lightweight, practical mechanism")
    cuts = [c for c in cuts if text[c] != "," or not (
        re.match(r",\s+(?:[^,\s]+(?:\s+[^,\s]+){0,3},\s*)*[^,\s]+(?:\s+[^,\s]+){0,3},?\s+(?:and|or)\s", text[c:])
        or re.search(r"\b(?:a|an|the)\s+[\w\-]+$", text[:c]))]
    if not cuts:
        return text
    return _end(text[:cuts[0] if shortest else cuts[-1]])


#: a verb or noun whose "to ..." completes it: "allows programmers | to annotate" cannot end there
_TO_NEEDED = lazy(r"\b(?:allow|enable|help|ask|want|encourage|permit|force|require|lead|cause|teach|invite|"
                        r"use|using|able|design|intend|aim|need|tend|how|what|way|attempt|try|tries|seek|sought|order|"
                        r"is|are|was|were|be|been|easy|easier|hard|harder|difficult|possible|impossible|able|unable|"
                        r"ready|likely|unlikely|free)\w*(?:\s+\S+){0,2}$", re.I)


def _end(head: str) -> str:
    """A clause cut short ends cleanly: a participle or adverb that introduced the cut phrase goes with it."""
    while True:
        # "error traces that lead", "mistakes that are detected": a relative clause with nothing left in it
        relative = re.search(r"\s+(?:that|which|who)\s+(?:(?:is|are|was|were|can|could|may|will)\s+(?:be\s+)?)?\S+$",
                             head)
        if relative and _words(head[:relative.start()]) >= 4:
            head = head[:relative.start()]
            continue
        # "a system that allows participants", "displays that provide easy": the verb's complement was cut
        relative = re.search(r"\s+(?:that|which|who)\s+(?:allow|let|help|permit|forc|ask|requir|encourag)\w*"
                             r"(?:\s+\S+){0,2}$", head)
        if relative and _words(head[:relative.start()]) >= 2:
            head = head[:relative.start()]
            continue
        m = re.search(r"\s+([a-z]{3,}ed|[a-z]{3,}ly|worn|built|made|shown|given|taken|held|known|seen|driven|written|"
                      r"done|found|kept|run|set|put|used)$", head)
        if not m or re.search(r"\b(?:a|an|the|is|are|was|were|be|been|being|has|have|had|to|their|its)$",
                              head[:m.start()], re.I) or _words(head[:m.start()]) < 4:
            return head
        head = head[:m.start()]


#: "Bluetooth Low Energy, ZigBee and ANT": a list of names (up to three words each) joined by commas and "and"/"or"
_NAME_LIST = lazy(r"(?:[\w\-]+(?:\s+[\w\-]+){0,2},\s+)+[\w\-]+(?:\s+[\w\-]+){0,2},?\s+(?:and|or)\s+[\w\-]+")


def _listed(text: str, at: re.Match[str]) -> bool:
    """Whether the word at ``at`` is a member of an "X, Y and Z" list."""
    return any(m.start() <= at.start() and at.end() <= m.end() for m in _NAME_LIST.finditer(text))


def _without_unexplained(text: str, name: str, spans: list[str]) -> str:
    """End the clause before the phrase that holds an acronym nobody defined ("... on the APAS Artemis").

    The reader's "what is APAS?" costs more than the phrase says; the clause keeps what
    comes before it when that still says something (four words or more). One name in a list
    of its kind ("Bluetooth Low Energy, ZigBee and ANT protocols") is said by the list: cutting
    there would leave "comparing Bluetooth Low Energy" and drop what it was compared with.
    """
    from citekit.output.standalone import unexplained

    for acronym in unexplained(_unmask(text, spans), name):
        at = re.search(rf"(?<![\w\-]){re.escape(acronym)}(?![\w\-])", text)
        if not at or _listed(text, at):
            continue
        cuts = [m.start() for m in _PREP.finditer(text[:at.start()]) if _words(text[:m.start()]) >= 4]
        if cuts:
            text = _dangling(_end(text[:cuts[-1]]))
    return text


#: "the proposed system": the paper's own thing named by the abstract's earlier sentence, which a reader never sees
_OWN_THING_SOURCE = (r"\bthe\s+(?:proposed|presented|developed|described|introduced|above|aforementioned)\s+"
                     r"(?P<noun>(?:[\w\-]+\s+)?(?:method|system|approach|technique|framework|model|algorithm|design|"
                     r"tool|interface|prototype|device|scheme|architecture|game|application)s?)\b")
_OWN_THING = lazy(_OWN_THING_SOURCE, re.I)
#: the same as a trailing phrase that only points back: "a study of X | using the proposed system"
_OWN_THING_AT_END = lazy(rf"\s+(?:using|with|by|in|on|for|through|via|of)\s+{_OWN_THING_SOURCE}\s*$", re.I)
#: "a gesture spotting method that combines gesture spotting with X": the modifiers, the head, its relative clause
_ECHO = lazy(r"^(?P<art>an?|the)\s+(?P<mods>[\w\-]+(?:\s+[\w\-]+){0,2})\s+(?P<head>[a-z]+)\s+(?P<rel>(?:that|which)\s+.+)$")


def _no_echo(text: str) -> str:
    """"a gesture spotting method that combines gesture spotting with X" -> "a method that combines gesture spotting
    with X": the words before the head noun said again in its relative clause are said once, where they act."""
    m = _ECHO.match(text)
    if not m or not (_METHOD_HEAD.fullmatch(m.group("head")) or _BUILT.fullmatch(m.group("head"))):
        return text
    if not re.search(rf"(?<![\w\-]){re.escape(m.group('mods'))}(?![\w\-])", m.group("rel"), re.I):
        return text
    return f"{m.group('art')} {m.group('head')} {m.group('rel')}"


def own_thing(text: str) -> str:
    """"a study of X using the proposed system" -> "a study of X"; "the proposed method is reliable" -> "their
    method is reliable": a trailing phrase that only points back goes, the paper's own thing elsewhere is "their"."""
    m = _OWN_THING_AT_END.search(text)
    if m and _words(text[:m.start()]) >= 4:
        text = text[:m.start()]
    return _OWN_THING.sub(lambda m: "their " + m.group("noun"), text)


def _dangling(text: str) -> str:
    """No clause ends on a word that needs one after it ("... of", "... and")."""
    while True:
        out = re.sub(r"[\s,;:]+(?:and|or|but|of|for|to|with|the|a|an|in|on|by|that|which|from|as|at|via|its|their|"
                     r"while|than|both|either|into|such|not|they|we|this|these|up|down|each|every|particularly|"
                     r"especially|very|more|most|less|as\s+well|with\s+regard|with\s+respect|in\s+terms)$", "", text, flags=re.I).rstrip(" ,;:-")
        if out == text:
            return out
        text = out


def _clean_addition(head: str, added: str) -> bool:
    """Whether the words a later cut adds are one plain phrase that ends the clause well.

    No comma, dash or parenthesis (an aside, a list cut in two, a side clause), no second
    verb ("... and demonstrate X"), no second relative clause, no bare participle leading it
    ("mobile maps | provided for ..."), and no end that wants more ("in comparison",
    "supporting secondary").
    """
    if re.search(r"[,;:()\[\]\u2013\u2014]|\s-+\s|\\", added) or re.match(r"\s+[a-z]+ed\s", added):
        return False
    if re.search(r"\band\s+(?:demonstrate|describe|discuss|evaluate|report|present|propose|compare|show|analy[sz]e|"
                 r"provide|introduce|explore|examine|outline|highlight)s?\b", added):
        return False
    if re.search(r"\b(?:that|which|who)\b", head) and re.search(r"\b(?:that|which|who)\b", added):
        return False
    return not re.search(r"\bin\s+(?:comparison|contrast|addition|response|relation|order|terms)$|\band\s+[a-z]+ed$"
                         r"|(?:ary|al|ive|ous|ic|ful|less|able|ible)$", added)


def _roots(text: str) -> set[str]:
    """The roots (:func:`~.word_roots.root`) of a text's words."""
    from citekit.core.text import title_tokens
    from citekit.output.word_roots import root

    return {root(w) for w in title_tokens(text)}


def _title_stems(text: str, title: str) -> set[str]:
    """The title's significant words (by their roots, :func:`~.word_roots.root`) that ``text`` says."""
    from citekit.core.text import title_tokens
    from citekit.output.word_roots import root

    return {root(w) for w in title_tokens(title) if len(w) > 3} & _roots(text)


def compress(rest: str, verb: str, name: str = "", *, finding: bool = False, limit: int = MAX_WORDS,
             title: str = "") -> tuple[str, str]:
    """``(verb, clause)``: the contribution said short, from the words of ``rest``.

    ``verb`` is the base or past form the sentence used ("present", "created"); a plainer
    one that says the same may replace it ("describe"/"present" a system -> "built",
    "present" a method -> "propose"). ``finding`` marks a "show that ..." clause, whose
    relative clauses belong to the claim and are kept. ``name`` is the method's name from
    the title: it is never dropped, and leads when the clause hid it in a parenthesis.
    ``title``: a cut that would drop the title's words may end up to :data:`TITLE_WORDS`
    words later, so the platform or purpose the title names stays.
    """
    text, spans = _mask(rest.strip().rstrip("."))
    text = _drop_parentheticals(_called_first(_name_first(text, name)), name)
    text = _NEW.sub(lambda m: m.group(1) + " ", _HYPE.sub("", text))
    nominal = _NOMINAL.match(text) if verb in _LIGHT_VERBS or verb.startswith(("have ", "report")) else None
    if nominal and (verb not in {"describe", "described"} or nominal.group("noun").lower() != "description"):
        verb, text = _NOMINAL_VERB[nominal.group("noun").lower()], text[nominal.end():]
        text = _called_first(text)  # "implementation of a framework, namely the MagicPad" -> "MagicPad, a framework"
    for pattern, plain in _STOCK:
        text = pattern.sub(plain, text)
    text = re.sub(r"\s{2,}", " ", text)
    inner = _STUDY_WHERE.match(text) if verb in _LIGHT_VERBS else None
    if inner:  # "present a case study where they compare X" -> "compare X in a case study"
        from citekit.output.sentences import present_of

        said = inner.group("verb").lower()
        base = present_of(said) or said if said.endswith("ed") else said
        verb, text = base, f"{inner.group('rest')} in {inner.group('study')}"
    showing = _SHOWING.match(text)
    if showing and not finding:
        verb, text, finding = "show", text[showing.end():], True
    if finding:
        text = _FRONTED.sub("that ", text)
        limit = max(limit, FINDING_WORDS)
    text = _ASIDE.sub(" ", _BASED_ON.sub("", text))
    text = _cut_side(text, finding)
    if not finding:
        text = _cut_relative(text)
    capped = _dangling(_cap(text, limit))
    if title and capped != text:
        # the words the title shares with the cut tail ("on multitouch screens", "for large displays") are what the
        # authors thought the point was: a cut that drops them is moved later, a few words past the limit
        longer = _dangling(_cap(text, limit + TITLE_WORDS))
        # ... unless what it adds is an appositive or a phrase cut from the word it needs ("in comparison")
        said = _roots(capped)
        # (a root that one already said extends is the same word: "visual" after "visualizing")
        if any(not any(r.startswith(o) or o.startswith(r) for o in said) for r in _title_stems(longer, title) - said) \
                and longer.startswith(capped) \
                and _clean_addition(capped, longer[len(capped):]):
            capped = longer
    partner = re.match(r"\s+with\s+(?:an?|the)\s+[\w\-]+(?:\s+[\w\-]+)?(?=$|[\s,;.])", text[len(capped):]) \
        if text.startswith(capped) and _WITH_PARTNER.search(capped) else None
    if partner and _clean_addition(capped, partner.group(0)):
        # "for natural interaction | with a humanoid robot": interaction with whom is the setting, which stays
        capped += partner.group(0)
    text = _no_echo(own_thing(capped))
    text = re.sub(r"\s+", " ", _articles(_without_unexplained(text, name, spans))).strip(" ,;")
    if not text or _words(text) < 2:
        return verb, rest
    results = _RESULTS_OF.match(text) if verb in _LIGHT_VERBS else None
    # "present the results of a user test" -> "report a user test"; not when a clause says what the results show
    # ("results from a survey of users that show ..."), nor when what is left only repeats the title
    if results and not re.search(r"\b(?:that|which)\s+(?:show|indicate|suggest|reveal|demonstrate|are|were|have)\b",
                                 text):
        left = text[results.end():]
        content = re.findall(r"[A-Za-z]{4,}", left)
        if not (title and len(_title_stems(left, title)) * 5 >= 4 * len(content)):
            verb, text = "report", left
    clause = _unmask(text, spans)
    kind = _kind(text)
    if verb in {"describe", "introduce", "presented", "described", "introduced", "developed", "created", "designed"} \
            and kind == "built":
        verb = "present"  # a reader writes "present X", in the present like every other sentence
    elif verb in {"describe", "described"} and re.match(r"^(?:an?\s|[A-Z])", text):
        verb = "present"
    elif verb in {"present", "presented"} and kind == "method":
        verb = "propose"
    return verb, clause
