"""Read a related-work snippet like a reviewer: every sentence must stand on its own.

:func:`check_snippet` works on the finished text (LaTeX or Markdown), not on how it was
made, so it also catches what a user pasted in or a future change let through. It looks
for the defects a careful author would fix before submitting: citations copied from an
abstract, macros and markup from someone else's source, first person left over from an
abstract, sentences that lean on one the reader cannot see ("such contamination", "this
mismatch", "then", "moreover"), sentences starting with a lower-case word, and papers
listed by quoted title instead of being described.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citekit.output.sentences import clause_defects

@dataclass(frozen=True)
class Defect:
    line: int
    category: str
    message: str
    excerpt: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.category}: {self.message}: {self.excerpt}"


_CITE_LATEX = re.compile(r"\\(?:citet|citep|textcite|parencite|cite)\{[^{}]*\}")
_CITE_MD = re.compile(r"\[@[^\]]*\]|@\{[^}]*\}|@[A-Za-z0-9_][\w:.\-+/]*[A-Za-z0-9_]|@[A-Za-z0-9_]")
_MATH = re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")
_CONNECTIVE = re.compile(r"^(?:then|also|further|furthermore|moreover|additionally|in addition|besides|similarly|"
                         r"likewise|next|finally|however|thus|hence|therefore|consequently)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:we|our|ours|us|ourselves)\b", re.I)


def _latex_ok() -> frozenset[str]:
    from citekit.core.text import known_macros

    return known_macros() | {"emph", "textit", "textless", "textgreater", "textbar", "textquoteleft",
                             "textquoteright", "textquotedblleft", "textquotedblright"}


_LATEX_OK = _latex_ok()


def _sentences(text: str) -> list[str]:
    """Sentences of a paragraph line; "A propose X; B study Y." counts as two."""
    masked = _MATH.sub(lambda m: "x" * len(m.group(0)), text)
    cuts, start = [], 0
    for m in re.finditer(r"(?<=[.!?])\s+(?=\\|@|[A-Z`\"])|;\s+(?=\\(?:citet|textcite)|@)", masked):
        before = masked[start:m.start()]
        if re.search(r"\b(?:al|e\.g|i\.e|vs|cf)\.$", before):
            continue
        cuts.append(text[start:m.start()].strip())
        start = m.end()
    cuts.append(text[start:].strip())
    return [c for c in cuts if c]


def _lint_sentence(sentence: str, fmt: str) -> list[tuple[str, str]]:
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
    if has_cite and _FIRST_PERSON.search(plain):
        found.append(("first-person", f"'{_FIRST_PERSON.search(plain).group(0)}' left over from an abstract"))
    if has_cite:
        for problem in clause_defects(plain):
            found.append(("anaphora", problem))
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
    return found


def has_cite_lead(word: str) -> bool:
    return word.startswith(("\\", "@"))


def check_snippet(text: str, fmt: str = "latex") -> list[Defect]:
    """Every defect of a snippet, with its line; empty when a reviewer would pass it."""
    defects: list[Defect] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("%", "<!--", "#")):
            continue
        stripped = re.sub(r"^\\paragraph\{[^{}]*\}\s*", "", stripped)
        for sentence in _sentences(stripped):
            for category, message in _lint_sentence(sentence, fmt):
                excerpt = sentence if len(sentence) <= 120 else sentence[:117] + "..."
                defects.append(Defect(number, category, message, excerpt))
    return defects
