"""Read a related-work snippet like a reviewer: every sentence must stand on its own.

:func:`check_snippet` works on the finished text (LaTeX or Markdown), not on how it was
made, so it also catches what a user pasted in or a future change let through. It looks
for the defects a careful author would fix before submitting: citations copied from an
abstract, macros and markup from someone else's source, first person left over from an
abstract, sentences that lean on one the reader cannot see ("such contamination", "this
mismatch", "then", "moreover"), definite references to nothing ("the mismatch"),
acronyms the text never defines ("ZO"), sentences about a paper that state no method
or finding, titles pasted into prose (see :mod:`citekit.output.title_check`), slips of
wording (:mod:`citekit.output.wording_check`), papers cited under no author's name, ";"
joins of papers that do not share a claim, sentences starting with a lower-case word, and
papers listed by quoted title instead of being described; and, per paragraph, a missing topic sentence and a heading that names
nothing or repeats another's.

With the cited records, the rules do not all speak alone: a learned reading
(:mod:`citekit.output.check_model`, fitted on blind readers' verdicts) decides whether a reader
would mark a sentence. The rules no reader ever overruled flag on their own; those some reader
overruled (a 10-word copy, a title after "study") are shown only when the reading marks the
sentence, and a sentence it marks with no rule behind it is given the fault of what weighed most.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from citekit.output.sentences import clause_defects, same_claim, unanchored_comparisons
from citekit.output.record_check import CitedRecord, acronym_hint, record_defects
from citekit.output.standalone import back_references, undefined_acronyms
from citekit.core.lazyre import lazy

#: defects in how text was copied: none of these may ever be in what citekit writes
MECHANICAL = frozenset({"copied-citation", "macro", "markup", "first-person", "anaphora", "connective",
                        "lowercase-start", "title-list", "undefined-citation"})
#: what a careful reader marks about the content: citekit avoids them where the records allow, and the check
#: names them where they could not be avoided (a paper known by its title only gives a pasted title)
READER = frozenset({"definite-reference", "acronym", "no-claim", "pasted-title", "unrelated-join", "run-on", "grammar",
                    "no-contrast", "hollow-topic", "truncated", "duplicate-paper", "verbatim", "wrong-verb",
                    "side-result", "not-a-paper", "wordy", "vague"})
#: what only the cited papers' records show (see :mod:`citekit.output.record_check`): the check needs them
RECORD = frozenset({"verbatim", "wrong-verb", "side-result", "not-a-paper"})
#: what a reader marks about a paragraph as a whole: it opens with no sentence saying what its papers share, or
#: its heading names nothing ("Modeling: modeling", "Organizations and Abstract") or repeats another's
PARAGRAPH = frozenset({"no-topic-sentence", "duplicate-heading", "hollow-heading", "topic-count", "template-repetition"})
#: the closing paragraph of papers that fit no group: it has no common point by definition
CLOSING = "other related work"
#: two clauses joined by a bare comma, copied from an abstract: "..., their techniques involve search pruning"
_RUN_ON = lazy(r",\s+(?:they|it|(?:their|its|these|this)\s+[a-z][\w\-]*)\s+(?:is|are|was|were|has|have|can|"
                     r"involve|achieve|use|uses|show|shows|make|makes|[a-z]+s)\b")


#: the sentence ``--mine`` writes to place the user's paper: its "we" and "our" are the author's own
_POSITION = lazy(r"^\s*(?:Like|Unlike|Where)\b.*\b(?:our|we)\b|\bbut none of them concerns\b.*\bas our work does\b|"
                       r";\s*in contrast,\s*(?:our|we)\b",
                       re.S)


@dataclass(frozen=True)
class Defect:
    line: int
    category: str
    message: str
    excerpt: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.category}: {self.message}: {self.excerpt}"


#: the citation a sentence about a paper opens with (its subject): ``\citet{k}`` or ``@k``
_SUBJECT = r"^\s*(?:\\(?:citet|textcite)\{[^{}]*\}|@[\w:.\-+/]+)"
#: a LaTeX citation, its keys in group 1: citekit's \citet and \citep, and what an author's draft holds besides
#: (\citeauthor, \citealp, \autocite, \cite[p.~3]{k}, \citet*)
_CITE_LATEX = re.compile(r"\\[A-Za-z]*cite[a-z]*\*?(?:\[[^\]]*\])*\{([^{}]*)\}")
_CITE_MD = re.compile(r"\[@[^\]]*\]|(?<![\\\w])@\{[^}]*\}|(?<![\\\w])@[A-Za-z0-9_][\w:.\-+/]*[A-Za-z0-9_]|"
                      r"(?<![\\\w])@[A-Za-z0-9_]")  # ("Float8\@2bits": an escaped @ cites nothing)
#: LaTeX headings and labels, not prose: citekit's own \paragraph{...}, and the \section{...}, \subsection*{...} and
#: \label{...} of an author's draft given to ``--check-file``
_LATEX_HEAD = lazy(r"^(?:\\(?:(?:sub){0,2}section|paragraph)\*?\{[^{}]*\}\s*|\\label\{[^{}]*\}\s*)+")
_MATH = lazy(r"(?<!\\)\$[^$]*(?<!\\)\$")
_CONNECTIVE = lazy(r"^(?:then|also|further|furthermore|moreover|additionally|in addition|besides|similarly|"
                         r"likewise|next|finally|however|thus|hence|therefore|consequently)\b", re.I)
_FIRST_PERSON = lazy(r"\b(?:[Ww]e|[Oo]ur|[Oo]urs|[Uu]s|[Oo]urselves|WE|OUR)\b")  # "US" is an acronym


def _latex_ok() -> frozenset[str]:
    from citekit.core.text import known_macros

    return known_macros() | {"emph", "textit", "textless", "textgreater", "textbar", "textquoteleft",
                             "textquoteright", "textquotedblleft", "textquotedblright"}


_LATEX_OK = _latex_ok()


def _sentences(text: str) -> list[str]:
    """Sentences of a paragraph line; "A propose X; B study Y." counts as two, "[@a; @b]" (Pandoc's citation of two
    papers, in an author's draft) is no cut."""
    masked = _MATH.sub(lambda m: "x" * len(m.group(0)), text)
    cuts, start = [], 0
    for m in re.finditer(r"(?<=[.!?])\s+(?=\\|@|[A-Z`\"])|;\s+(?=\\(?:citet|textcite)|@)", masked):
        before = masked[start:m.start()]
        if re.search(r"\b(?:al|e\.g|i\.e|vs|cf)\.$", before) or before.count("[") > before.count("]"):
            continue
        cuts.append(text[start:m.start()].strip())
        start = m.end()
    cuts.append(text[start:].strip())
    return [c for c in cuts if c]


#: a purpose clause that says what a study asked ("conducted a longitudinal study to find out how fast ..."): with
#: it, "conduct" or "evaluate" states the question the paper answers
_PURPOSE = lazy(r"\bto\s+(?:find\s+out|determine|understand|learn|investigate|examine|assess|measure|see)\b")


def _product_name(acronym: str, plain: str, cited: "list[CitedRecord]") -> bool:
    """Whether an undefined acronym is the name of a product, after its maker's name ("the Ultrahaptics STRATOS
    platform"), and the cited abstract never writes it out either: a reader takes it as a name."""
    from citekit.output.standalone import definitions

    return bool(re.search(rf"\b[A-Z][a-z]+\s+{re.escape(acronym)}\b", plain)) \
        and not any(acronym in definitions(r.abstract) for r in cited)


#: verbs after a cited subject that say how a paper worked or what it hopes, not what it proposes or finds
#: ("conduct a field trial", "support this with analysis", "ask whether ...", "discuss implications")
_NO_CLAIM_VERBS = {form for verb in (
    "conduct", "support", "complement", "discuss", "reflect", "conclude", "evaluate", "validate", "test", "compare",
    "draw", "believe", "note", "use", "illustrate", "release", "implement", "hope", "aim", "focus", "invite",
    "begin", "start", "seek", "try", "want", "wish", "thank", "recall")
    for form in (verb, verb + "s", verb + "es", verb + "d", verb + "ed", verb[:-1] + "ed" if verb.endswith("e") else verb)}


@dataclass(frozen=True)
class _Context:
    """What the whole snippet tells a reader, for the checks one sentence cannot settle alone."""

    fmt: str
    names: frozenset[str]  # acronyms defined or introduced in the text (check_snippet: so far), or named by a title
    written_titles: tuple[str, ...] = ()  # the cited papers' titles as plain text with their capitals
    prose_capitals: frozenset[str] = frozenset()  # words the cited abstracts capitalize mid-sentence
    records: "dict[str, CitedRecord] | None" = None  # the cited papers' records by key, for what only they show
    titled: frozenset[str] = frozenset()  # acronyms cited titles name, or use and their abstracts never write out


def cited_keys(sentence: str, fmt: str) -> list[str]:
    """The keys a sentence cites, in order: ``\\citet{a,b}`` gives a and b, ``@a`` and ``[@b]`` give a and b."""
    if fmt == "latex":
        return [k.strip() for m in _CITE_LATEX.finditer(sentence) for k in m.group(1).split(",") if k.strip()]
    return [m.group(1).rstrip(".:") for m in re.finditer(r"(?<![\\\w])@\{?([A-Za-z0-9_][\w:.\-+/]*)", sentence)]


def _lint_sentence(sentence: str, fmt: str, context: "_Context | None" = None) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    cite = _CITE_LATEX if fmt == "latex" else _CITE_MD
    has_cite = bool(cite.search(sentence))
    body = cite.sub(" ", sentence)
    plain = _MATH.sub(" ", body)
    if fmt == "markdown":
        plain = re.sub(r"\\([\\`*_\[\]<>#$@^~|&{}])", r"\1", plain)
    # Citations copied from an abstract
    if re.search(r"\b[A-Z][\w'\-]+(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'\-]+)?\s*[\[(](?:19|20)\d{2}[a-z]?[\])]",
                 plain) or re.search(r"\([^()]*[A-Z][\w'\-]+[^()]*,\s*(?:19|20)\d{2}[a-z]?\)", plain) \
            or re.search(r"\[\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\]", plain) \
            or re.search(r"\b[a-z][a-z\-]*(?:19|20)\d{2}[a-z][a-z0-9]*\b", plain):
        found.append(("copied-citation", "a citation copied from an abstract"))
    # Macros and markup from the source
    if fmt == "latex":
        if "\\textbackslash" in body or any(name not in _LATEX_OK for name in re.findall(r"\\([A-Za-z]+)", plain)):
            found.append(("macro", "a macro from the source's preamble"))
        if re.search(r"\\textless\{\}/?[A-Za-z]+|\\textbf|\*\*|(?<![\w*])\*[^*\s][^*]*\*", body):
            found.append(("markup", "HTML or Markdown markup from the source"))
    else:
        if re.search(r"\\[A-Za-z]{2,}", plain):
            found.append(("macro", "a macro from the source's preamble"))
        if re.search(r"</?[A-Za-z][\w:]*>|\*\*", plain):
            found.append(("markup", "HTML or Markdown markup from the source"))
    # a notes hashtag (#optim) carried into prose: in LaTeX it shows as \#optim
    hashtag = re.search(r"(?:^|\s)\\?#[A-Za-z][\w\-/]*", body if fmt == "latex" else plain)
    if hashtag:
        found.append(("markup", f"a notes hashtag ('{hashtag.group(0).strip()}') in the text"))
    if has_cite and _FIRST_PERSON.search(plain) and not _POSITION.search(plain):
        found.append(("first-person", f"'{_FIRST_PERSON.search(plain).group(0)}' left over from an abstract"))
    if has_cite:
        for problem in clause_defects(plain):
            found.append(("anaphora", problem))
        for problem in unanchored_comparisons(plain):
            found.append(("unsupported", problem))
        for phrase in back_references(plain):
            found.append(("definite-reference", f"'{phrase}' refers to something the reader has not seen"))
        cited = [context.records[k] for k in cited_keys(sentence, fmt)
                 if context and context.records and k in context.records]
        for acronym in undefined_acronyms(plain, context.names if context else frozenset()):
            if cited and _product_name(acronym, plain, cited):
                continue
            found.append(("acronym", f"'{acronym}' is never written out{acronym_hint(acronym, cited)}"))
        if cited and not _POSITION.search(plain):
            from citekit.core.text import latex_to_text

            # (LaTeX read as text: "\emph{x}" and "\&" from an abstract or a title are still its words)
            found += record_defects(re.sub(_SUBJECT + r"\s*", "", sentence),
                                    latex_to_text(plain) if fmt == "latex" else plain, cited)
        verb = re.match(_SUBJECT + r"\s+(\w+)", sentence)
        if verb and verb.group(1).lower() in _NO_CLAIM_VERBS and not _PURPOSE.search(plain):
            found.append(("no-claim", f"'{verb.group(1)}' states neither what the paper proposes nor what it finds"))
        if _RUN_ON.search(plain):
            found.append(("run-on", f"'{_RUN_ON.search(plain).group(0).lstrip(', ')}' starts a new sentence after a "
                                    "comma"))
        capitals = _title_capitals(plain, context.written_titles, context.prose_capitals) \
            if context and context.written_titles else None
        if capitals:
            found.append(("pasted-title", f"'{capitals}' keeps the title's capitals: a title pasted into the sentence"))
        elif context and context.written_titles and not cited:
            from citekit.output.title_check import tacked_subtitle

            # (no records: the titles alone show a subtitle joined on with ", with")
            tacked = next((t for title in context.written_titles if (t := tacked_subtitle(plain, title))), None)
            if tacked:
                found.append(("pasted-title", f"'{tacked} ...' is a title's subtitle tacked on after a comma: say how "
                                              "it relates to the rest ('and ...', 'a system for ...')"))
        from citekit.output.wording_check import prose_defects, wording_defects

        found += wording_defects(re.sub(_SUBJECT + r"\s*", "", sentence)) if not _POSITION.search(plain) else []
        found += prose_defects(plain)
        for pattern, problem in _BROKEN_CLAUSES:
            if pattern.search(plain):
                found.append(("grammar", problem))
        predicate = re.sub(_SUBJECT + r"\s*", "", sentence).rstrip(". ")
        if predicate != sentence.rstrip(". ") and len(predicate.split()) < 3:
            found.append(("no-claim", f"'{predicate}' is too short to say what the paper does"))
    found += _position_defects(plain) if has_cite and _POSITION.search(plain) else []
    hollow = _TOPIC.match(plain.strip()) or (_POSITION.search(plain) and _ADDRESSES.search(plain))
    if hollow and _bare_word(hollow.group(1)):
        found.append(("hollow-topic", f"'{hollow.group(1)}' alone names no topic (a modifier, a verb or a bare "
                                      "singular): say what the papers address"))
    if has_cite and _TRUNCATED.search(plain.rstrip()):
        found.append(("truncated", "the sentence ends mid-word, as an abstract cut short does"))
    if has_cite and _SPLIT_WORD.search(plain):
        found.append(("grammar", f"'{_SPLIT_WORD.search(plain).group(0)}' is a word split at a line end"))
    if _NO_SPACE.search(plain):
        found.append(("grammar", f"'{_NO_SPACE.search(plain).group(0)}' lacks a space after the punctuation"))
    found += _math_in_prose(body, fmt)
    lead = re.sub(r"^\s*(?:\\(?:citet|textcite)\{[^{}]*\}|@[\w:.\-+/]+|[A-Z][\w\-]+(?: et al\.)? \([^()]*\))\s*",
                  "", sentence) if has_cite and sentence.lstrip().startswith(("\\citet", "\\textcite", "@")) \
        else sentence.lstrip()
    if _CONNECTIVE.match(lead):
        found.append(("connective", f"'{_CONNECTIVE.match(lead).group(0)}' links to a sentence that is not there"))
    first = re.match(r"\s*([^\s]+)", sentence)
    if first and first.group(1)[:1].isalpha() and first.group(1)[:1].islower() and not has_cite_lead(first.group(1)):
        found.append(("lowercase-start", "the sentence starts with a lower-case word"))
    if re.search(r"``[^`']+''\s*(?:\\citep|\[@)|includes\s+``|includes\s+\*", sentence):
        found.append(("title-list", "papers listed by quoted title instead of described"))
    pasted = [f for f in found if f[0] == "pasted-title"]
    return [f for f in found if f[0] != "pasted-title" or f is pasted[0]]  # one reason a title is pasted is enough


#: a topic sentence as citekit writes it: "Three of these systems address mobile devices."
_TOPIC = lazy(r"^(?:Both|Two|Three|Four|Five|Six|Seven|Eight|All these|Most|Half|\d+)(?: of these)? (?:papers|systems|studies) "
                    r"(?:address|examine) ([^.;]+?)\.?$")
#: what a positioning sentence says the group addresses: "..., which address X, our ...", "our work addresses X, but"
_ADDRESSES = lazy(r"\baddress(?:es)? ([^,;.]+?)(?:[,;.]|$)")
#: a sentence cut off after one or two letters: "a novel interaction concept for c."
_TRUNCATED = lazy(r"\s(?!(?:it|us|up|on|in|so|do|go|to|be|by|at|of|or|as|is|an|no|we|me|ai|ml|ui|ux|3d|2d)\.?$)"
                        r"[a-z]{1,2}\.?$")
#: "de- vice", "con- trol": a word broken at a PDF line end ("two- and three-dimensional" is not)
_SPLIT_WORD = lazy(r"\b[a-z]{2,}- (?!(?:and|or|to|and/or)\b)[a-z]{2,}\b")
#: two words run together at a sentence or clause boundary, as a PDF's text layer gives them: "devices.We", "users,The"
_NO_SPACE = lazy(r"\b[a-z]{2,}[.,;:][A-Z][a-z]{2,}\b")
#: a name set in math, or a math mode font command around one: ``$LoRDO$``, ``$\emph{SCENT}$``
_NAME_IN_MATH = lazy(r"^\s*(?:\\(?:emph|textit|textbf|mathrm|text|mathit|mathbf)\s*)?\{?\s*[A-Za-z][A-Za-z\-]{2,}\s*\}?\s*$")
#: subscripts and superscripts written out in Markdown prose: ``SPS_{safe}``, ``ℓ_∞``, ``x^{2}``
_SCRIPT = lazy(r"[^\s_*]*[^\s_*]_(?:\{[^{}\s]*\}?|[^\x00-\x7f])|[^\s^]*\^\{[^{}\s]*\}?")


def _math_in_prose(body: str, fmt: str) -> list[tuple[str, str]]:
    """Math or markup where an author writes plain text: a name in math mode (``$LoRDO$`` is set in italics,
    letters spaced as a product), or TeX sub- and superscripts left in Markdown (``SPS_{safe}``)."""
    if fmt == "latex":
        for m in _MATH.finditer(body):
            if _NAME_IN_MATH.match(m.group(0)[1:-1]):
                return [("markup", f"'{m.group(0)}' sets a name in math: write it as text")]
        return []
    m = _SCRIPT.search(_MATH.sub(" ", body))
    return [("markup", f"'{m.group(0)}' is TeX notation in Markdown prose: write the name as text")] if m else []


#: the user's paper set against a group by one bare phrase: "our work concerns a bracelet", "none of them concerns X"
_SURFACE_CONTRAST = lazy(r"\b(?:none of them concerns|our work concerns|it does not concern|neither concerns)\s+"
                               r"(?:an?\s+|the\s+)?[^\s,.:;]+(?:\s+[^\s,.:;]+)?\s*(?:[.,:;]|$)")

#: a difference said after the shared phrase ("..., but where @a focuses on X, we ...", "; unlike @a, which ...",
#: "; in contrast, we ..."): the sentence states what each side does, so the shared phrase is no bare contrast
_STATED_CONTRAST = lazy(r"(?:\bbut\s+where\b|\bunlike\b|\bin\s+contrast\b|\bwhereas\b|\bwhile\s+(?:@|\\cite))", re.I)


def _bare_word(phrase: str) -> bool:
    """Whether a topic phrase is one lower-case word that names nothing on its own: an adjective or participle
    ("visually impaired", "worn"), a verb ("investigate") or a bare singular count noun ("wrist", "motor")."""
    words = phrase.strip().split()
    if len(words) != 1 or not words[0].islower() or not words[0].isalpha():
        return False
    word = words[0]
    if re.search(r"(?:tion|sion|ment|ness|ity|ing|ics|ism|ance|ence|ure|ogy|phy|ship|age|ery|acy|ency|dom|ware|"
                 r"ics|sis|ia)$", word):
        return False  # a noun by its form, which reads without an article ("perception", "quantization")
    return not word.endswith("s") or word.endswith(("ous", "ss", "ess"))


def _position_defects(plain: str) -> list[tuple[str, str]]:
    """What a reader marks in a sentence that places the user's paper: a likeness with no difference
    ("Like X, our work addresses Y; we present ..."), or a difference that is one surface phrase ("our work
    concerns a bracelet") rather than the user's method against what the group does."""
    found = []
    if re.match(r"\s*Like\b", plain) and not re.search(r",\s*but\b|\bunlike\b|\bin contrast\b|\bwhereas\b|\binstead\b",
                                                       plain):
        found.append(("no-contrast", "the sentence says only what the user's paper shares with these papers; "
                                     "say how its method differs"))
    surface = _SURFACE_CONTRAST.search(plain)
    if surface and not _STATED_CONTRAST.search(plain[surface.end():]):
        found.append(("no-contrast", "the difference is one phrase of the user's abstract, not what its method does "
                                     "against what these papers do"))
    return found


def has_cite_lead(word: str) -> bool:
    return word.startswith(("\\", "@"))


_SMALL = r"(?:of|and|for|the|a|an|in|on|to|with|by|from|via|as|at|or|is|are)"
_CAPITALS_RUN = lazy(rf"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z][\w'\-]*(?:\s+(?:(?:{_SMALL}|\d+[A-Z]+)\s+)*[A-Z][a-z][\w'\-]*)+")
#: grammar a title's words make when joined on wrongly: "which exploring", "present KidCAD, digitally remixing"
_BROKEN_CLAUSES = (
    (re.compile(r"\bwhich\s+(?!(?:existing|following|remaining|underlying|emerging|increasing|growing|leading|promising|"
                r"interesting|challenging|corresponding|surrounding|resulting|missing|changing|competing|evolving|ongoing|"
                r"upcoming|during)\b)\w{3,}ing\b"), "a relative clause whose verb is an -ing form"),
    (re.compile(r"\b(?:present|propose|introduce)s?\s+[^\s,]+,\s+(?:\w+ly\s+)?\w{3,}ing\b(?!\s+(?:system|tool|method|model))"),
     "a bare participle after the name: say what the thing is"),
)


def _capitalized_in_prose(abstracts: list[str]) -> frozenset[str]:
    """Words the abstracts write with a capital in mid-sentence: names, whatever a title does."""
    from citekit.core.text import latex_to_text

    found: set[str] = set()
    for abstract in abstracts:
        found.update(m.group(1) for m in re.finditer(r"(?<![.!?:]\s)(?<!^)(?<=\s)([A-Z][a-z][\w'\-]*)", latex_to_text(abstract)))
    return frozenset(found)


def _title_capitals(sentence: str, titles: tuple[str, ...], names_in_prose: frozenset[str] = frozenset()) -> str | None:
    """A run of two or more capitalized words mid-sentence that a cited title writes so ("Current
    Status and Future Prospects"): title case pasted into prose. A short name before a title's
    colon ("Makers' Marks: ...") is a name and may keep its capitals."""
    body = re.sub(_SUBJECT + r"\s*", "", sentence)
    names: set[str] = set()
    capitalized: set[str] = set()
    for title in titles:
        head, colon, _ = title.partition(":")
        if colon and len(head.split()) <= 3:
            names.update(head.split())
        capitalized.update(w for w in re.findall(r"[A-Z][a-z][\w'\-]*", title))
    for m in _CAPITALS_RUN.finditer(body):
        words = [w for w in re.findall(r"[A-Z][a-z][\w'\-]*", m.group(0)) if w not in names]
        if sum(w in capitalized and w not in names_in_prose for w in words) >= 2:
            return m.group(0)
    return None


def _names(text: str) -> frozenset[str]:
    """Acronyms a stretch of the snippet defines ("zeroth-order (ZO)") or introduces ("propose AdaGC")."""
    names = set(re.findall(r"\(([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9]*?)s?\)", text))
    names |= set(re.findall(r"\b([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9]*)\s+\([A-Z][a-z][^()]*\s[^()]*\)", text))  # "ASAA (Appl...)"
    names |= set(re.findall(r"\b(?:propose|proposes|introduce|introduces|present|presents|called|named|dubbed)"
                            r"\s+(?:\w+\s+)?([A-Z][\w\-]*)", text))
    return frozenset(names)


def _title_names(titles: list[str]) -> frozenset[str]:
    """The names cited titles give their papers: the words before a title's colon ("PRISM: ...", "LiMuon: ...") and
    what a title defines itself ("... Minimization (SAM)").

    A title that only uses an acronym ("Understanding SAM through Minimax Perspective", "General Analysis of
    LMO-based Optimizers") defines nothing: the reader of the related work never sees the title, so the acronym
    still needs its long form there (the former rule took every capitalized word of a cited title as a name, so
    --check passed "understand SAM through ..." and "LMO-based optimizers").
    """
    names: set[str] = set()
    for title in titles:
        head, colon, _ = title.partition(":")
        if colon and len(head.split()) <= 3:
            names |= set(re.findall(r"[A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*", head))
        names |= set(re.findall(r"\(([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9]*?)s?\)", title))
    return frozenset(names)


def _known_to_authors(records: "list[CitedRecord]") -> frozenset[str]:
    """Acronyms a cited paper writes bare in its title and never writes out in its abstract ("... on a PDA", "CHI
    2005", "LCDs"): its authors take them as known to their readers, and blind readers kept such sentences. Where
    the abstract writes the acronym out ("sharpness-aware minimization (SAM)") the draft needs the long form too, and
    a record with no abstract gives no evidence either way, so its title's acronyms define nothing."""
    from citekit.output.standalone import definitions, is_acronym

    known: set[str] = set()
    for record in records:
        if not record.title or not (record.abstract or "").strip():
            continue
        spelled = set(definitions(record.abstract)) | set(re.findall(r"\(([A-Z][A-Za-z0-9]*?)s?\)", record.abstract))
        for token in re.findall(r"(?<![\w\-])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w])", record.title):
            base = token[:-1] if token.endswith("s") and len(token) > 2 else token
            if is_acronym(token) and base not in spelled and token not in spelled:
                known |= {token, base}
    return frozenset(known)


def _unrelated_joins(line: str, fmt: str) -> list[tuple[str, str]]:
    """Sentences that join two papers with ";" although they do not make the same claim."""
    found = []
    cite = r"\\(?:citet|textcite)\{" if fmt == "latex" else r"@"
    for m in re.finditer(rf"([^.;]*?);\s+(?={cite})([^.;]*\.?)", line):
        a, b = m.group(1).strip(), m.group(2).strip()
        if re.match(rf"^\s*{cite}", a) and not same_claim(a + ".", b if b.endswith(".") else b + "."):
            found.append((m.group(0), "two unrelated papers joined by ';' as if they were related"))
    return found


_HEADING = {"latex": re.compile(r"^\\paragraph\{(?P<h>.*?)\.?\}\s*(?P<rest>.*)$"),
            "markdown": re.compile(r"^#{1,6}\s+(?P<h>.*?)\s*#*\s*$")}


def _paragraphs(text: str, fmt: str) -> list[tuple[int, str, str]]:
    """``(line of the heading, heading, body text)`` of every headed paragraph."""
    out: list[list] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        m = _HEADING[fmt].match(stripped)
        if m:
            out.append([number, m.group("h").strip(), m.groupdict().get("rest") or ""])
        elif out and stripped and not stripped.startswith(("%", "<!--")):
            out[-1][2] = (out[-1][2] + " " + stripped).strip()
    return [(n, h, b) for n, h, b in out]


def _opens_with_topic(body: str, fmt: str) -> bool:
    """Whether a paragraph's first sentence says something about its papers together, not one paper.

    A sentence with no citation ("Four systems address tangible 3D modeling.") or one that
    cites several papers as a group counts; one about a single paper does not.
    """
    sentences = _sentences(body)
    if not sentences:
        return False
    first = sentences[0]
    cite = _CITE_LATEX if fmt == "latex" else _CITE_MD
    keys = {k.strip() for m in cite.finditer(first) for k in re.split(r"[,;]", re.sub(r"^.*?\{|\}$|[\[\]@]", "",
                                                                                    m.group(0)))}
    words = re.findall(r"[A-Za-z]{3,}", cite.sub(" ", first))
    return len(words) >= 3 and len(keys) != 1


_COUNTS = {"Both": 2, "Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7, "Eight": 8}


def _duplicates(text: str, fmt: str) -> list[Defect]:
    """A paper cited twice under two keys: two sentences that present the same coined name ("present WristFlex")."""
    found = []
    seen: dict[tuple[str, str], str] = {}
    subject = re.compile(_SUBJECT + r"\s+(present|presents|propose|proposes|introduce|introduces)\s+"
                         r"(?:the\s+)?([A-Z][\w\-]*[A-Z][\w\-]*|[A-Z][a-z]+)\b")
    for number, line in enumerate(text.splitlines(), start=1):
        for sentence in _sentences(line.strip()):
            m = subject.match(sentence)
            if not m:
                continue
            key = re.match(_SUBJECT, sentence).group(0).strip()
            name = (m.group(1).rstrip("s"), m.group(2))
            if name in seen and seen[name] != key:
                found.append(Defect(number, "duplicate-paper", f"{seen[name]} already presents {m.group(2)}: two "
                                                               "records of one paper? cite it once",
                                    sentence if len(sentence) <= 120 else sentence[:117] + "..."))
            seen.setdefault(name, key)
    return found


def paragraph_defects(text: str, fmt: str = "latex") -> list[Defect]:
    """Paragraph-level defects: no topic sentence, a heading that names nothing or repeats another.

    A paragraph citing one paper needs no topic sentence; the closing "Other related work"
    paragraph has none by definition, but it must come last.
    """
    from citekit.output.related_groups import hollow

    found: list[Defect] = []
    paragraphs = _paragraphs(text, fmt)
    seen: dict[str, int] = {}
    cite = _CITE_LATEX if fmt == "latex" else _CITE_MD
    for i, (line, heading, body) in enumerate(paragraphs):
        low = heading.lower().rstrip(".")
        closing = low == CLOSING
        if low in seen:
            found.append(Defect(line, "duplicate-heading", f"the same heading as line {seen[low]}; name what sets "
                                                           "these papers apart", heading))
        seen.setdefault(low, line)
        if closing and i != len(paragraphs) - 1:
            found.append(Defect(line, "hollow-heading", "the catch-all paragraph must come last", heading))
        elif not closing and hollow(heading):
            found.append(Defect(line, "hollow-heading", "the heading names no theme (a repeated word, a record's "
                                                        "structure or only function words)", heading))
        cited = {m.group(0) for m in cite.finditer(body)}
        sentences = _sentences(body)
        counted = _TOPIC.match(sentences[0]) if sentences else None
        said = re.match(r"^(Both|Two|Three|Four|Five|Six|Seven|Eight)( of these)? (?:papers|systems|studies)\b",
                        sentences[0]) if counted else None
        if said and said.group(2) and _COUNTS[said.group(1)] < len(cited):
            found.append(Defect(line, "topic-count", f"the topic sentence counts {_COUNTS[said.group(1)]} of the "
                                                     f"{len(cited)} papers the paragraph cites: a reader takes it for "
                                                     "a miscount; say 'most of these' or name them", sentences[0]))
        elif said and not said.group(2) and _COUNTS[said.group(1)] != len(cited):
            found.append(Defect(line, "topic-count", f"the topic sentence counts {_COUNTS[said.group(1)]} papers and "
                                                     f"the paragraph cites {len(cited)}", sentences[0]))
        verbs = Counter(m.group(1).lower() for x in sentences if (m := re.match(_SUBJECT + r"\s+([a-z]+)\b", x)))
        # (naming what each paper made, "present X ... present Y", is how a systems paragraph reads; "study A. study
        # B. study C." is a title pasted three times)
        same = [v for v, n in verbs.items() if n >= 3 and v.rstrip("s") not in ("present", "propose", "introduce")]
        if same:
            found.append(Defect(line, "template-repetition", f"{verbs[same[0]]} sentences open with the same "
                                                             f"'{same[0]}': vary how the papers are introduced",
                                heading))
        if not closing and len(cited) > 1 and not _opens_with_topic(body, fmt):
            first = (_sentences(body) or [""])[0]
            found.append(Defect(line, "no-topic-sentence", "the paragraph opens with a single paper; say first what "
                                                           "its papers have in common",
                                first if len(first) <= 120 else first[:117] + "..."))
    return found


def snippet_context(text: str, fmt: str, titles: list[str] | None = None, abstracts: list[str] | None = None,
                    records: "list[CitedRecord] | None" = None) -> _Context:
    """What the whole snippet and the cited records tell a reader, for reading its sentences one by one."""
    from citekit.core.text import latex_to_text

    by_key = {r.key: CitedRecord(r.key, latex_to_text(r.title or ""), latex_to_text(r.abstract or ""), r.not_paper)
              for r in records or []}
    titles = list(titles or []) + [r.title for r in by_key.values() if r.title]
    abstracts = list(abstracts or []) + [r.abstract for r in by_key.values() if r.abstract]
    plain_titles = [latex_to_text(t) for t in titles]
    titled = _title_names(plain_titles) | _known_to_authors(list(by_key.values()))
    return _Context(fmt, titled | _names(text), tuple(plain_titles), _capitalized_in_prose(abstracts), by_key or None,
                    titled)


def check_snippet(text: str, fmt: str = "latex", titles: list[str] | None = None,
                  abstracts: list[str] | None = None, records: "list[CitedRecord] | None" = None) -> list[Defect]:
    """Every defect of a snippet, with its line; empty when a reviewer would pass it.

    ``titles`` (the cited papers' titles) lets the check see a title pasted as a sentence
    and a method name that a title defines; ``abstracts`` (theirs) tell the names they write with
    capitals mid-sentence from a title's capitals pasted into prose. ``records`` (the cited
    papers' :class:`CitedRecord`, by key; their titles and abstracts count as given) let it read
    each sentence against the paper it cites: copied from its abstract, its title pasted after
    "study", a side result, a record that is no paper.
    """
    context = snippet_context(text, fmt, titles, abstracts, records)
    defects: list[Defect] = []
    named = set(context.titled)  # (what the reader has been told so far: a long form written later comes too late)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("%", "<!--", "#")):
            named |= _names(stripped) if stripped.startswith("#") else set()  # (a Markdown heading is read too)
            continue
        named |= _names(_LATEX_HEAD.match(stripped).group(0)) if _LATEX_HEAD.match(stripped) else set()
        stripped = _LATEX_HEAD.sub("", stripped)
        if not stripped:
            continue
        for excerpt, message in _unrelated_joins(stripped, fmt):
            defects.append(Defect(number, "unrelated-join", message, excerpt[:117] + "..." if len(excerpt) > 120
                                  else excerpt))
        for sentence in _sentences(stripped):
            named |= _names(sentence)
            found = _written_later(_lint_sentence(sentence, fmt, replace(context, names=frozenset(named))), context)
            found += _undefined_citations(sentence, fmt, context)
            if context.records:  # with the records, the learned reading decides what a reader would mark
                found = _reader_decides(sentence, fmt, context, found)
            for category, message in found:
                excerpt = sentence if len(sentence) <= 120 else sentence[:117] + "..."
                defects.append(Defect(number, category, message, excerpt))
    return sorted(defects + _duplicates(text, fmt) + paragraph_defects(text, fmt), key=lambda d: d.line)


#: what the check says of a sentence that the choice of the sentence cannot mend: an acronym another paper's sentence
#: may define (only the whole snippet tells), and what is not about the sentence's wording
NOT_THE_SENTENCE = frozenset({"acronym", "undefined-citation", "not-a-paper", "duplicate-paper"})


def sentence_defects(sentence: str, fmt: str, record: CitedRecord, *, sure: bool = False) -> list[tuple[str, str]]:
    """``(category, message)`` of what ``--check`` marks in one sentence about one paper, read with that paper's
    record alone, as :func:`check_snippet` reads it in the finished snippet (the same rules and the same learned
    reading): related-work asks this before it writes a sentence, so that it never writes one its own check flags.

    With ``sure``, only what the rules no reader ever overruled find, which flag whatever the learned reading
    says: the defects a sentence certainly has, as against those the reading weighs (a copied run of words, a
    verb a reader might accept). Categories in :data:`NOT_THE_SENTENCE` are left out: another sentence of the
    snippet may settle them."""
    context = snippet_context(sentence, fmt, records=[record])
    found = _lint_sentence(sentence, fmt, context)
    if sure:
        from citekit.output.check_features import rule_id
        from citekit.output.check_model import weighed_rules

        found = [f for f in found if rule_id(*f) not in weighed_rules()]
    else:
        found = _reader_decides(sentence, fmt, context, found)
    return [f for f in found if f[0] not in NOT_THE_SENTENCE]


def _written_later(found: list[tuple[str, str]], context: "_Context") -> list[tuple[str, str]]:
    """An acronym the draft writes out only after its first use is still undefined where the reader meets it; the
    message says so, since "never written out" would send the author looking for a definition that is there."""
    out = []
    for category, message in found:
        m = re.match(r"'([^']+)' is never written out", message) if category == "acronym" else None
        if m and m.group(1) in context.names:
            message = f"'{m.group(1)}' is written out only after this sentence: define it at its first use"
        out.append((category, message))
    return out


def _undefined_citations(sentence: str, fmt: str, context: "_Context") -> list[tuple[str, str]]:
    """Keys a sentence cites that no record given to the check has: the citation prints as "?" (exact; only with
    the records, which say what the library holds)."""
    if not context.records:
        return []
    return [("undefined-citation", f"'{key}' is no record the check was given: a citation with no entry prints as "
                                   "'?'; add the paper to the library or fix the key")
            for key in dict.fromkeys(cited_keys(sentence, fmt)) if key not in context.records]


def reading(sentence: str, fmt: str, context: "_Context", found: list[tuple[str, str]]) -> list[float] | None:
    """The learned reading's features of one sentence (see :mod:`citekit.output.check_features`), or None for a
    sentence that cites no record the check has, or that is not shaped as the sentences the reading was fitted on.

    Those open with the paper they cite ("@k present ..."), as citekit writes them, or place the
    author's paper ("Unlike @k, we ..."). In an author's own draft a sentence may cite at its end or
    after a name ("Smith et al. [@k] describe ..."): the reading would take its first word for the
    verb and flag every one as a wrong verb, so the hand rules speak alone."""
    from citekit.output.check_features import rule_id, sentence_features

    if not re.match(_SUBJECT, sentence) and not _POSITION.search(sentence):
        return None
    keys = cited_keys(sentence, fmt)
    cited = [context.records[k] for k in keys if context.records and k in context.records]
    if not cited:
        return None
    cite = _CITE_LATEX if fmt == "latex" else _CITE_MD
    plain = _MATH.sub(" ", cite.sub(" ", sentence))
    if fmt == "latex":
        from citekit.core.text import latex_to_text

        plain = latex_to_text(plain)
    return sentence_features(plain, [r.title for r in cited if r.title],
                             [r.abstract for r in cited if r.abstract], {rule_id(c, m) for c, m in found},
                             len(set(keys)))


def _reader_decides(sentence: str, fmt: str, context: "_Context",
                    found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The exact defects of a sentence (those of rules no reader overruled), and the weighed ones only when the
    learned reading says a reader would mark the sentence: then the hand rules' messages that agree with its
    strongest fault class come first, or that class's advice when no rule fired."""
    from citekit.output.check_features import rule_id
    from citekit.output.check_model import decide, weighed_rules

    features = reading(sentence, fmt, context, found)
    if features is None:
        return found
    overruled = weighed_rules()
    exact = [f for f in found if rule_id(*f) not in overruled]
    weighed = [f for f in found if rule_id(*f) in overruled]
    verdict = decide(features)
    if verdict is None:
        return exact
    category, advice = verdict
    if _POSITION.search(sentence):  # (the user's paper placed: its fault is the contrast, whatever weighed most)
        from citekit.output.check_features import ADVICE

        category, advice = "no-contrast", ADVICE["no-contrast"]
    agreeing = [f for f in weighed if f[0] == category]
    said = agreeing or any(f[0] == category for f in exact)
    if said:
        return exact + agreeing + [f for f in weighed if f[0] != category]
    return [(category, advice)] + exact + weighed
