"""Related-work snippets: the library's papers on a topic, grouped, one sentence each.

Every sentence about a paper comes from that paper's own record: the contribution sentence
of its abstract in the third person, else its title. The user's own note on a paper (the
``summary`` the notes give it, "Classic; bias correction of moments") is private: it never
becomes a sentence, a heading or an opener. Papers are grouped into paragraphs by the tags they share (or by groups the user
names), and everything taken from records or notes is escaped for the target format, so
a hostile title can never run LaTeX or pandoc code.

:func:`related_work` is pure and deterministic: same entries, same text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Iterator

import yaml
from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

from citekit.core.errors import CitekitError
from citekit.library.tags import TagRules, normalize_tag
from citekit.core.model import Entry
from citekit.core.text import fold, latex_to_text, math_name, plural, title_tokens
from citekit.bibtex.values import GLYPH_COMMANDS, sanitize
from citekit.output.compress import compress, unstylized
from citekit.output.findings import is_finding, with_finding
from citekit.output.naming import name_artefact
from citekit.output.word_roots import root
from citekit.output.drafts import marker
from citekit.output.markdown_text import escape_markdown
from citekit.output.sentences import (
    EMPH_CLOSE,
    EMPH_OPEN,
    Contribution,
    contributions,
    conjugate,
    present_clause,
    same_claim,
    verb_phrase,
    trim,
)
from citekit.output.title_prose import method_name, title_clause, unbrace
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.output.common_ground import Ground
    from citekit.output.positioning import Statement

FORMATS = ("latex", "markdown")
CITE_STYLES = ("natbib", "biblatex")
#: citation keys that can be written into ``\cite{...}`` and ``@key`` without escaping
SAFE_KEY = lazy(r"^[A-Za-z0-9_][A-Za-z0-9_:.\-+/]*$")
_WORD = lazy(r"[a-z][a-z0-9\-]+")
_STOP = frozenset(
    "a an the of on in for and or to with via by from at as is are be its it into over under this that these those "
    "we our us they their can not no using use used based than then such which while also both more most new "
    "show shows propose proposes method methods paper work results approach problem problems "
    # function words: they rank no paper closer to the user's and name nothing in a TODO's list of shared words
    "them was were has have had been being how what when where who whom why all any each other some one two "
    "across between about through within without there here do does did so may might should would could will "
    "only very many much well after before up out just i he she you your his her him my me".split())


class RelatedWorkError(CitekitError, ValueError):
    """The request cannot be turned into a snippet; the message says what to change."""

    exit_code = 2
    NEXT_STEP = "Change the options or citekit.yaml's related_work section as the message says."


@dataclass
class Mine:
    """The user's own paper, to rank the library against (from ``--mine`` or ``--abstract``)."""

    title: str = ""
    abstract: str = ""
    tags: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    name: str = "mine.yaml"  # shown in the placeholder comments


@dataclass
class GroupSpec:
    """A paragraph the user names: papers carrying all of ``tags`` go under ``name``."""

    name: str
    tags: list[str]

    @classmethod
    def parse(cls, text: str) -> "GroupSpec":
        """``"Muon analysis=theory"`` or ``"Analysis=theory,convergence"`` (all tags needed)."""
        name, sep, tags = text.partition("=")
        tag_list = [normalize_tag(t) for t in tags.split(",") if t.strip()]
        if not sep or not name.strip() or not tag_list:
            raise RelatedWorkError(f"group {text!r}: write it as NAME=TAG[,TAG...], e.g. \"Muon analysis=theory\".")
        return cls(name=name.strip(), tags=tag_list)


def load_mine(path: Path) -> Mine:
    """Read ``paper.yaml`` (title, abstract, tags, optional claims)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RelatedWorkError(f"{path}: cannot read it ({exc}); give a UTF-8 YAML file with title, abstract, tags.") from exc
    return mine_from_yaml(text, Path(path).name, str(path))


def mine_from_yaml(text: str, name: str = "mine.yaml", path: str | None = None) -> Mine:
    """The YAML description of the user's paper (title, abstract, tags, optional claims)."""
    path = path or name
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise RelatedWorkError(f"{path}: cannot read it ({exc}); give a UTF-8 YAML file with title, abstract, tags.") from exc
    if not isinstance(data, dict):
        raise RelatedWorkError(f"{path}: expected a mapping with title, abstract, tags (and optional claims).")
    tags = data.get("tags") or []
    claims = data.get("claims") or []
    if isinstance(tags, str):
        tags = [t for t in re.split(r"[,\s]+", tags) if t]
    if isinstance(claims, str):
        claims = [claims]
    mine = Mine(title=str(data.get("title") or ""), abstract=str(data.get("abstract") or ""),
                tags=[normalize_tag(str(t)) for t in tags], claims=[str(c) for c in claims], name=name)
    if not (mine.title or mine.abstract or mine.tags):
        raise RelatedWorkError(f"{path}: give at least a title, an abstract or tags of your paper.")
    return mine


def mine_from_abstract(path: Path) -> Mine:
    """The user's paper given as a plain-text abstract file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RelatedWorkError(f"{path}: cannot read it ({exc}); give a UTF-8 text file with your abstract.") from exc
    if not text.strip():
        raise RelatedWorkError(f"{path}: the file is empty; put your abstract in it.")
    return Mine(abstract=text.strip(), name=Path(path).name)


# ---------------------------------------------------------------------------------------
# Ranking against the user's paper
# ---------------------------------------------------------------------------------------

def _tokens(text: str) -> list[str]:
    """Roots of the content words of ``text`` (:func:`.word_roots.root`, the one rule for a word's forms)."""
    from citekit.output.word_roots import root

    words = _WORD.findall(fold(latex_to_text(text)))
    return [root(w) for w in words if w not in _STOP]


def _entry_text(entry: Entry) -> str:
    return " ".join(t for t in (entry.title, abstract_of(entry)) if t)


def abstract_of(entry: Entry) -> str:
    """The paper's abstract: the sidecar's (from the services), else the ``abstract`` field.

    Imported and hand-written entries keep it only in ``library.bib``, LaTeX-encoded
    (``{LiMuon}``, ``\\&``, ``\\emph``); that markup is turned into text so the sentence
    reads like a service abstract, while ``$math$`` stays as written (both are raw LaTeX).
    """
    if entry.abstract and entry.abstract.strip():
        return _repaired(entry.abstract)
    raw = entry.fields.get("abstract", "")
    if not raw.strip():
        return ""
    parts = re.split(r"((?<!\\)\$\$?.*?(?<!\\)\$\$?)", raw, flags=re.S)
    return _repaired("".join(p if i % 2 else latex_to_text(p, keep_edges=True) for i, p in enumerate(parts)))


def abstract_prose(entry: Entry) -> str:
    """:func:`abstract_of` as far as it is an abstract: its sentences a reader takes as prose, by the one
    decision ``--mine`` makes too (:func:`.positioning.is_prose`); nothing when most of it is a catalogue
    page ("NII論文ID(NAID) : 130003753672", "ISSN : 0389-9705", "PMID: 4160180"). Grouping and naming read
    this: identifiers two catalogue pages share say nothing of what the papers do."""
    from citekit.output.positioning import is_prose
    from citekit.output.sentences import split_sentences

    sentences = split_sentences(abstract_of(entry))
    kept = [s for s in sentences if is_prose(s)]
    if sum(map(len, kept)) * 2 < sum(map(len, sentences)):
        return ""
    return " ".join(kept)


def _repaired(abstract: str) -> str:
    """An abstract as copied from a PDF, mended where the copy broke it: a word split at a
    line end ("de- vice", kept apart when the joined word is not one real bibliographies
    write, so "two- and three-dimensional" stays) is joined, so is one whose halves are no
    words ("resis-tant"), and a last sentence cut off
    mid-word ("... concept for c") is left out rather than quoted."""
    from citekit.output.scan_marks import without_scan_marks
    from citekit.output.title_prose import lowercase_words

    words = lowercase_words()
    abstract = without_scan_marks(abstract)
    text = re.sub(r"\b([A-Za-z]+)- ([a-z]+)\b",
                  lambda m: m.group(1) + m.group(2) if (m.group(1) + m.group(2)).lower() in words else m.group(0),
                  abstract)
    # "resis-tant": a hyphen the copy kept inside a word whose halves are no words at all
    text = re.sub(r"\b([a-z]{2,})-([a-z]{2,})\b", lambda m: m.group(1) + m.group(2) if (m.group(1) + m.group(2)) in words
                  and m.group(1) not in words and m.group(2) not in words else m.group(0), text)
    if not re.search(r"[.!?][\"')\]]*\s*$", text):
        end = max(text.rfind(". "), text.rfind("! "), text.rfind("? "))
        if end > 0:
            text = text[:end + 1]
    return text


#: entry types that name something other than a paper (BibTeX, biblatex and CSL spellings)
NOT_PAPER_TYPES = frozenset({"online", "electronic", "www", "webpage", "post", "post-weblog", "software", "dataset",
                             "data", "video", "audio", "music", "movie", "image", "artwork", "performance",
                             "codefragment", "softwaremodule", "softwareversion", "speech", "interview"})
#: what a ``howpublished`` or ``type`` field says when the record is not a paper ("Blog post", "GitHub repository")
_NOT_PAPER_KIND = lazy(
    r"^\s*(?:an?\s+|the\s+)?(?:blog(?:\s*post)?|web\s*(?:page|site)|website|software|source\s+code|code|"
    r"computer\s+program|(?:github\s+|gitlab\s+|git\s+)?repository|dataset|data\s+set|slides|video|talk|keynote|"
    r"podcast|tweet|thread|newsletter)\b", re.I)


def not_a_paper(entry: Entry) -> str | None:
    """Why a record is not a paper (its type says "blog post", "software"...), or None for a paper.

    Related work cites papers for what they show; a blog post described as "X derive Muon"
    reads as a publication it is not. Only what the record declares counts (its entry
    type, its ``howpublished``, ``type`` or ``entrysubtype`` field), never a guess from
    the title.
    """
    kind = entry.entry_type.lower()
    if kind in NOT_PAPER_TYPES:
        return kind
    for name in ("howpublished", "type", "entrysubtype"):
        value = latex_to_text(entry.fields.get(name, "") or "")
        if _NOT_PAPER_KIND.match(value):
            return re.sub(r"\s+", " ", value).strip().lower()[:40]
    return None


def _cosine(a: Counter[str], b: Counter[str], idf: dict[str, float]) -> float:
    dot = sum(a[t] * b[t] * idf.get(t, 0.0) ** 2 for t in a.keys() & b.keys())
    na = math.sqrt(sum((c * idf.get(t, 0.0)) ** 2 for t, c in a.items()))
    nb = math.sqrt(sum((c * idf.get(t, 0.0)) ** 2 for t, c in b.items()))
    return dot / (na * nb) if na and nb else 0.0


def closeness(entries: list[Entry], mine: Mine) -> dict[str, float]:
    """Key -> closeness to the user's paper in [0, 1]: TF-IDF cosine of the texts plus shared tags.

    IDF is computed over the papers being ranked, so words every paper uses (``optimizer``
    in an optimizer library) count for little and distinctive ones for a lot.
    """
    docs = {e.key: Counter(_tokens(_entry_text(e))) for e in entries}
    own = Counter(_tokens(" ".join([mine.title, mine.abstract, *mine.claims])))
    df: Counter[str] = Counter()
    for counts in (*docs.values(), own):
        df.update(counts.keys())
    n = len(docs) + 1
    idf = {t: math.log((1 + n) / (1 + d)) + 1.0 for t, d in df.items()}
    mine_tags = set(mine.tags)
    scores = {}
    for e in entries:
        text_sim = _cosine(docs[e.key], own, idf)
        tag_sim = len(mine_tags & set(e.tags)) / len(mine_tags) if mine_tags else 0.0
        scores[e.key] = round(0.6 * text_sim + 0.4 * tag_sim if mine_tags else text_sim, 6)
    return scores


# ---------------------------------------------------------------------------------------
# Grouping
# ---------------------------------------------------------------------------------------

@dataclass
class _Group:
    heading: str
    members: list[Entry]
    core: bool = False  # the papers that share no sub-topic
    words: list[str] = field(default_factory=list)  # what the papers share, when no tag names them
    closing: bool = False  # the papers that fit no group
    themes: list = field(default_factory=list)  # phrases its papers share (related_topics.Theme), best first
    kind: str = "papers"  # what most of its papers are: "systems", "studies" or "papers"
    texts: dict[str, str] = field(default_factory=dict)  # key -> the paper's text the themes came from
    section: set[str] = field(default_factory=set)  # the section's own words (:func:`.related_terms.section_of`)
    names: frozenset[str] = frozenset()  # words the selection's records write as names (related_topics.proper_names)
    forms: dict[str, str] = field(default_factory=dict)  # what its acronyms stand for (related_terms.long_forms)

    def spelled(self, texts: list[str]) -> list[str]:
        """``texts`` (its papers' titles or abstracts) with each acronym beside its long form, as the groups were
        drawn (:func:`.related_terms.as_one_term`): an opener is read from what the grouping read."""
        from citekit.output.related_terms import as_one_term

        return as_one_term(texts, self.forms) if self.forms else texts


def _with_names(groups: list[_Group], entries: list[Entry]) -> list[_Group]:
    """``groups`` (the user's own paragraphs, which take every paper) with the words their records write as names
    (:func:`.related_topics.proper_names`), read as a selection's are: from these records, never from an earlier
    call's."""
    from citekit.output.related_groups import entry_text
    from citekit.output.related_topics import proper_names

    abstracts = [abstract_prose(e) for e in entries]
    texts = [entry_text(e, a, "") for e, a in zip(entries, abstracts)]
    bodies = abstracts
    names = frozenset(proper_names(bodies, texts, [e.title or e.key for e in entries]))
    for g in groups:
        g.names = names
    return groups


def _universal_tags(entries: list[Entry]) -> set[str]:
    """Tags on every one of ``entries``: they cannot split the selection into paragraphs."""
    return set.intersection(*(set(e.tags) for e in entries)) if entries else set()


def _topic(entries: list[Entry], tags: list[str] | None) -> list[str]:
    if tags is not None:
        return [normalize_tag(t) for t in tags if not t.startswith(("-", "not:")) and normalize_tag(t)]
    common = set.intersection(*(set(e.tags) for e in entries)) if entries else set()
    return sorted(common)


# ---------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------

def _authors(entry: Entry) -> list[str]:
    """Family names of the authors (or editors), braces removed."""
    raw = entry.fields.get("author") or entry.fields.get("editor") or ""
    names = []
    for person in split_multiple_persons_names(raw) if raw.strip() else []:
        parts = parse_single_name_into_parts(person, strict=False)
        family = " ".join([*parts.von, *parts.last]) or " ".join(parts.first)
        names.append(latex_to_text(family))
    return names


def _plural(entry: Entry) -> bool:
    """Whether the cited subject reads as plural ("Huang et al. propose"); unknown counts as plural."""
    authors = _authors(entry)
    return len(authors) != 1 or authors[0].lower() == "others"


def _url(entry: Entry) -> str | None:
    """The best web address of a record, for ``--links``; only http(s) is ever linked."""
    url = entry.fields.get("url", "").strip()
    if not url and entry.ids.doi:
        url = f"https://doi.org/{entry.ids.doi}"
    if not url and entry.ids.arxiv:
        url = f"https://arxiv.org/abs/{entry.ids.arxiv}"
    if not url and entry.ids.openreview:
        url = f"https://openreview.net/forum?id={entry.ids.openreview}"
    if not re.match(r"^https?://[^\s<>\"]+$", url or ""):
        return None
    return url.replace("(", "%28").replace(")", "%29")


@dataclass
class _Style:
    """How citations and text are written in one target format."""

    fmt: str
    cite: str
    links: bool

    def text(self, raw: str) -> str:
        """Untrusted LaTeX-ish record text made inert for the target.

        A name an abstract set in math (``$LoRDO$``) is written as the name; real math
        stays math in LaTeX and is written as a reader would type it in Markdown (``ℓ∞``).
        """
        raw = _names_out_of_math(_TEXT_IN_MATH.sub(r"{\\\1}", raw))
        if self.fmt == "latex":
            return sanitize(_unicode_to_latex(raw))
        return escape_markdown(latex_to_text(_MATH_SEGMENT.sub(_formula_for_markdown, raw), prose=True))

    def formulas_shown(self, raw: str) -> str:
        """``raw`` with each formula this format cannot show as math written as its text
        (``$\\weird{L}$`` -> ``weirdL``), for text that must be used whatever it holds (a title)."""
        return _MATH_SEGMENT.sub(lambda m: m.group(0) if self.renders(m.group(0)) else _bare_formula(m.group(0)), raw)

    def renders(self, raw: str) -> bool:
        """Whether every formula of ``raw`` comes out as the author's math, not as markup shown as text.

        In Markdown a formula whose text still holds a backslash (a command the reading of
        LaTeX does not know) would print as code; in LaTeX a formula built from commands
        that are not safe to run is escaped into visible ``\\$`` and backslashes. Either
        way a reader sees markup, so such a sentence is not used.
        """
        raw = _names_out_of_math(_TEXT_IN_MATH.sub(r"{\\\1}", raw))
        for m in _MATH_SEGMENT.finditer(raw):
            math = m.group(0).replace(EMPH_OPEN, "").replace(EMPH_CLOSE, "")
            if self.fmt == "latex" and not sanitize(math).startswith("$"):
                return False
            if self.fmt == "markdown" and "\\" in latex_to_text(math, prose=True):
                return False
        return True

    def prose(self, raw: str) -> str:
        """:meth:`text`, with the emphasis kept from the source as ``\\emph{}`` or ``*...*``."""
        out = self.text(raw)
        if self.fmt == "latex":
            return out.replace(EMPH_OPEN, "\\emph{").replace(EMPH_CLOSE, "}")
        return out.replace(EMPH_OPEN, "*").replace(EMPH_CLOSE, "*")

    def title(self, entry: Entry) -> str:
        return self.text(entry.title or entry.key)

    def citet(self, entry: Entry) -> str:
        if self.fmt == "latex":
            return ("\\textcite{%s}" if self.cite == "biblatex" else "\\citet{%s}") % entry.key
        if self.links:
            return f"{self.text(_author_label(entry, year=False))} ({self.link(entry)})"
        return f"@{_pandoc_key(entry.key)}"

    def citep(self, entries: list[Entry]) -> str:
        keys = ",".join(e.key for e in entries)
        if self.fmt == "latex":
            return ("\\parencite{%s}" if self.cite == "biblatex" else "\\citep{%s}") % keys
        if self.links:
            return "(" + "; ".join(self.link(e) for e in entries) + ")"
        return "[" + "; ".join(f"@{_pandoc_key(e.key)}" for e in entries) + "]"

    def link(self, entry: Entry) -> str:
        url = _url(entry)
        return f"[{self.title(entry)}]({url})" if url else f"*{self.title(entry)}*"

    def comment(self, text: str) -> str:
        text = re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()
        if self.fmt == "latex":
            return f"% {text}"
        return "<!-- " + text.replace(">", "") + " -->"

    def heading(self, text: str) -> str:
        if self.fmt == "latex":
            return f"\\paragraph{{{self.text(text.rstrip('.'))}.}}"
        return f"### {self.text(text)}"


#: one ``$...$`` formula of record text (``$$`` and escaped ``\\$`` included)
_MATH_SEGMENT = lazy(r"(?<!\\)\$\$?(.*?)(?<!\\)\$\$?", re.S)


def _names_out_of_math(raw: str) -> str:
    """``$LoRDO$``, ``$\\emph{SCENT}$`` -> ``LoRDO``, ``SCENT``: a name the abstract set in math
    (see :func:`citekit.core.text.math_name`); any emphasis inside it goes with the math."""
    if "$" not in raw:
        return raw

    def one(m: re.Match[str]) -> str:
        inner = m.group(1).replace(EMPH_OPEN, "\\emph{").replace(EMPH_CLOSE, "}")
        name = math_name(inner)
        return name if name else m.group(0)

    return _MATH_SEGMENT.sub(one, raw)


def _formula_for_markdown(m: re.Match[str]) -> str:
    """A formula kept for the reading of LaTeX, or, when that reading leaves a command it does
    not know (``\\foo``), its text without the backslashes: a formula's LaTeX source never
    reaches Markdown, where it would print as code. Sentences are chosen so that this is a
    last resort (see :meth:`_Style.renders`); a title or summary may still need it."""
    return m.group(0) if "\\" not in latex_to_text(m.group(0), prose=True) else _bare_formula(m.group(0))


def _bare_formula(math: str) -> str:
    """A formula's text with no command left: what can be shown of it outside math."""
    text = latex_to_text(math, prose=True)
    return re.sub(r"\\([A-Za-z]+|.)", r"\1", text).replace("{", "").replace("}", "").replace("$", "")


#: ``$\\textemdash$``: a text glyph some services wrap in math; LaTeX rejects it there
_TEXT_IN_MATH = lazy(r"\$\s*\\(" + "|".join(sorted(GLYPH_COMMANDS, key=len, reverse=True)) + r")\s*\$")


def _pandoc_key(key: str) -> str:
    """``key`` as pandoc reads it; keys ending in punctuation need braces."""
    return key if re.match(r"^[A-Za-z0-9_].*[A-Za-z0-9_]$|^[A-Za-z0-9_]$", key) else "{" + key + "}"


def _author_label(entry: Entry, *, year: bool = True) -> str:
    authors = [a for a in _authors(entry) if a.lower() != "others"]
    if not authors:
        label = "Anonymous"
    elif len(authors) == 1 and not _authors(entry)[1:]:
        label = authors[0]
    elif len(authors) == 2 and len(_authors(entry)) == 2:
        label = f"{authors[0]} and {authors[1]}"
    else:
        label = f"{authors[0]} et al."
    return f"{label} {entry.fields.get('year', '')}".strip() if year else label


def _unicode_to_latex(text: str) -> str:
    """Non-ASCII characters as LaTeX (pdflatex chokes on Greek letters and many symbols)."""
    if text.isascii():
        return text
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    encoder = UnicodeToLatexEncoder(non_ascii_only=True, replacement_latex_protection="braces",
                                    unknown_char_policy="keep")
    out = encoder.unicode_to_latex(text)
    return re.sub(r"\\ensuremath\{(\\[A-Za-z]+)\}", r"$\1$", out)


def _finish(sentence: str) -> str:
    sentence = sentence.rstrip()
    return sentence if sentence.endswith((".", "!", "?")) else sentence + "."


def _context(entry: Entry) -> str:
    """The paper's own text, minus copies of its title (whose title case says nothing about names)."""
    # (the abstract as stored: a last sentence cut off mid-word still names things, "We present Pointable, an")
    text = entry.abstract or abstract_of(entry) or ""
    title = latex_to_text(entry.title or "")
    for part in {title, *re.split(r"[:?]\s+", title)}:
        if len(part) > 12 and " " in part.strip():  # (one word, "Collapse-to-Zoom", is a name the text may use)
            text = re.sub(re.escape(part[1:]), " ", text, flags=re.I)
    return text


def describe(entry: Entry, style: _Style) -> str:
    """One sentence about a paper from its own record.

    The abstract's contribution sentence (cleaned so it stands alone, see
    :func:`~.sentences.contribution`), and when it gives no sentence that reads on its own, one
    made from the title's words (:func:`~.title_prose.title_clause`). A sentence made from the
    record that ``--check`` would flag gives way to the next one that it would not
    (:func:`_unflagged`): the draft never carries what its own check reports where the record
    offers a better sentence. The user's note on the paper (``entry.summary``: "Classic; bias
    correction of moments", "Must read") is never one: it says what the user thinks of the paper,
    not what the paper does, and pasted into a paper it reads as a claim about the cited work.
    """
    return _unflagged(_sentences_about(entry, style), entry, style.fmt)


#: how many of the abstract's contribution sentences, best first, are tried before the title
_TRIED_CONTRIBUTIONS = 3


def _sentences_about(entry: Entry, style: _Style) -> "Iterator[tuple[str, bool]]":
    """``(sentence, plain)``: the sentences the record supports about a paper, the one related-work has always
    written first.

    Then the fallbacks, most informative first: the same claim without the finding joined on, the
    abstract's next-ranked contribution sentences, the title's sentence with and without a finding,
    and plainer shapes of the title's (:func:`_plain_title_clauses`). Nothing is added that the
    record does not say; each is only a different choice among its sentences or fewer of its words.
    ``plain`` marks the title's own sentences without a finding: they say least, so they are the safest.
    """
    abstract = abstract_of(entry)
    found = contributions(abstract, method_name(entry.title or ""), accept=style.renders,
                          title=latex_to_text(entry.title or "")) if abstract else []
    first = _from_contribution(entry, style, found[0], abstract) if found else None
    yield first or _from_title(entry, style, abstract), True
    for c in found[:_TRIED_CONTRIBUTIONS]:
        for finding in (True, False):
            sentence = _from_contribution(entry, style, c, abstract, finding=finding)
            if sentence:
                yield sentence, False
    yield _from_title(entry, style, abstract), False
    yield _from_title(entry, style, abstract, finding=False), True
    for clause in _plain_title_clauses(entry, style, abstract):
        yield _title_sentence(entry, style, clause, abstract), True


#: what moves no sentence aside: "a side result" weighs the abstract's sentences against one the writer could not
#: say (a formula it cannot show, an opening it cannot read) or against the finding it joined on ("compare X, and
#: find that Y" restates "We find that Y"); its fallbacks lost the finding or the claim
_KEPT_DESPITE = frozenset({"side-result"})
#: what claims more than the record says ("find that better methods are available": better than what?); an
#: unsupported sentence is worse than any wording fault, so the title's plainer sentence with one such fault wins
_UNSUPPORTED = frozenset({"unsupported"})
_UNSUPPORTED_WEIGHT = 3


def _unflagged(sentences: "Iterator[tuple[str, bool]]", entry: Entry, fmt: str) -> str:
    """The first of ``sentences`` (see :func:`_sentences_about`) unless ``--check`` would certainly flag it.

    Read by :func:`~.related_check.sentence_defects` (the check's own code) with the paper's record. Only
    the rules no reader ever overruled move a sentence aside ("delve into X": the title's gerund made the
    authors' verb; a subtitle tacked on after a comma); what the learned reading alone weighs does not: on
    sentences made with care (a finding kept, a thing named with what it is) its fallbacks read worse. The
    first fallback the check passes whole replaces it; when none does, the plain sentence of the title with
    the fewest certain defects, if it has fewer than the first one.
    """
    from citekit.output.record_check import CitedRecord
    from citekit.output.related_check import sentence_defects

    record = CitedRecord(entry.key, latex_to_text(entry.title or ""), abstract_of(entry) or "", not_a_paper(entry))

    def certain(sentence: str) -> int:
        return sum(_UNSUPPORTED_WEIGHT if c in _UNSUPPORTED else 1
                   for c, _ in sentence_defects(sentence, fmt, record, sure=True) if c not in _KEPT_DESPITE)

    first, _ = next(sentences)
    sure = certain(first)
    if not sure:
        return first
    best = (sure, first)
    seen = {first}
    # an unsupported first sentence gives way to the title's plain one even where that was written before as a
    # fallback with a finding (none to join on: the same words), which a wording fault alone does not
    unsupported = any(c in _UNSUPPORTED for c, _ in sentence_defects(first, fmt, record, sure=True))
    for sentence, plain in sentences:
        if sentence in seen and not (plain and unsupported):
            continue
        if sentence not in seen and not sentence_defects(sentence, fmt, record):
            return sentence
        seen.add(sentence)
        count = certain(sentence) if plain else best[0]
        if count < best[0]:
            best = (count, sentence)
    return best[1]


def _from_contribution(entry: Entry, style: _Style, found: "Contribution", abstract: str, *,
                       finding: bool = True) -> str | None:
    """The sentence an abstract's contribution gives, in a short clause of its parts; None when the clause only
    repeats the title ("We study deep analysis and extensions" says less than the title does)."""
    from citekit.output.self_praise import unpraised

    plural = _plural(entry)
    name = method_name(entry.title or "")
    title = latex_to_text(entry.title or "")

    def short(keep_title: bool) -> tuple[str, str]:
        verb, rest = compress(found.rest, found.verb, name, finding=re.match(r"that\b", found.rest) is not None,
                              title=title if keep_title else "")
        return name_artefact(rest, verb, title, abstract, name)

    verb, rest = short(True)
    found = replace(found, verb=verb, rest=rest)
    # "We introduce a finger-ring shaped handset" says what the paper made even when its words are the
    # title's; "We study deep analysis and extensions" says less than the title, which is used instead
    if not rest or (found.priority > 1 and _echoes_title(rest, entry.title or "")):
        return None
    if finding:
        # the finding, when the abstract states one, is worth more than the title's words kept past the limit
        rest = with_finding(rest, verb_phrase(found, plural), abstract, found.index, name,
                            plural, shorter=lambda: other[1] if (other := short(False))[0] == verb else None)
    if verb_phrase(found, plural) != found.verb:  # the verb said in the present: a second one too
        rest = present_clause(rest, plural)
    rest = unstylized(rest, f"{title} {abstract}")
    return _finish(f"{style.citet(entry)} {verb_phrase(found, plural)} {unpraised(style.prose(rest), abstract, title)}")


def _title_clause_of(entry: Entry, style: _Style, abstract: str, title: str | None = None) -> str:
    """The predicate the title gives (``title``: a part of it), its verb true to the record's kind of work."""
    clause = title_clause(style.formulas_shown(title or entry.title or entry.key), _plural(entry), _context(entry))
    return _kind_from_record(clause, entry, abstract, _plural(entry))


def _from_title(entry: Entry, style: _Style, abstract: str, *, finding: bool = True) -> str:
    """The sentence the title gives; with ``finding``, what the abstract found joined on."""
    clause = _title_clause_of(entry, style, abstract)
    if abstract and finding:  # the title says what the paper is about; the abstract may still say what it found
        clause = with_finding(clause, clause.split()[0], abstract, -1, method_name(entry.title or ""), _plural(entry))
    return _title_sentence(entry, style, clause, abstract)


def _title_sentence(entry: Entry, style: _Style, clause: str, abstract: str) -> str:
    from citekit.output.self_praise import unpraised

    return _finish(f"{style.citet(entry)} "
                   f"{unpraised(style.prose(unbrace(clause)), abstract, latex_to_text(entry.title or ''))}")


#: verbs (by their root) whose object is what a paper is about: "Mitigating staleness in X" addresses staleness in X,
#: "Delving into Muon" addresses Muon (not "reduce": "Reducing the use of nullable types" does not address their use)
_TOPIC_GERUNDS = frozenset(root(v) for v in (
    "mitigate", "tackle", "overcome", "alleviate", "handle", "resolve", "combat", "counter", "fight",
    "prevent", "avoid", "fix", "delve", "dive", "unveil", "uncover", "unpack", "demystify", "probe", "untangle"))


def _plain_title_clauses(entry: Entry, style: _Style, abstract: str) -> list[str]:
    """Plainer predicates from the title, for when the title's own sentence would be flagged.

    A subtitle tacked on after a comma joins two phrases without saying how they relate: the part before the
    colon with the subtitle in parentheses ("enhance programming learning with LLMs (prompt engineering and
    flipped interaction)"), else that part alone, when it has four words or more (a shorter one is a name or a
    slogan: "address Call Me Maybe" says nothing). Where the title's opening gerund became the authors' verb
    although they do not do that ("Delving into X" -> "delve into X"), its object said with "address"
    ("address X"), when the gerund is one whose object is the paper's topic (:data:`_TOPIC_GERUNDS`).
    "Exploiting X for Y" gets no such shape: "address X" would make X the problem, and "address exploiting X"
    reads worse than the title's own verb."""
    from citekit.output.title_check import glued_subtitle, tacked_subtitle, title_verb
    from citekit.output.title_prose import title_words_in_prose

    title = entry.title or entry.key
    plain_title = latex_to_text(title)
    whole = _title_clause_of(entry, style, abstract)
    colon = re.search(r"\s*[:?]\s+|\s+(?:---|--|\u2014)\s+", title)
    main, sub = (title[:colon.start()], title[colon.end():].strip()) if colon else (title, "")
    joined = tacked_subtitle(latex_to_text(whole), plain_title) or glued_subtitle(latex_to_text(whole), plain_title)
    clauses: list[str] = []
    if joined and len(main.split()) >= 4:
        short = _title_clause_of(entry, style, abstract, main)
        if sub:
            clauses.append(f"{short} ({title_words_in_prose(style.formulas_shown(sub), _context(entry))})")
        clauses.append(short)
    for clause in clauses + [whole]:
        verb = title_verb(latex_to_text(clause), plain_title, abstract)
        if verb and root(verb) in _TOPIC_GERUNDS:
            rest = clause.split(None, 1)[1] if " " in clause else ""
            rest = re.sub(r"^(?:into|on|upon|in|with)\s+", "", rest)
            if len(rest.split()) >= 2:
                clauses.append(f"{conjugate('address', _plural(entry))} {rest}")
    return clauses


#: an abstract that opens by saying the record is the report of a meeting ("Report from Dagstuhl Seminar 14361",
#: "This report documents the program and the outcomes of ...")
_EVENT_REPORT = lazy(r"^\W*(?:Report\s+(?:from|of|on)\s+(?:the\s+)?(?:[\w\-]+\s+){0,3}(?:Seminar|Workshop|Symposium|"
                     r"Panel|Meeting|Summit)\b)|^\W*This\s+report\s+(?:documents|summari[sz]es)\b|\b(?:Dagstuhl|Shonan)\s+"
                     r"(?:Seminar|Perspectives\s+Workshop)\b")


#: an abstract that is the call of a meeting it organizes ("This workshop invites researchers ...", "The panel brings
#: together ..."): the paper is the workshop, and calling it a study claims work its record does not report
_EVENT_CALL = lazy(r"(?:^|[.!?]\s+)(?:This|The|Our)\s+(?:(?:one|two|full|half)-day\s+)?"
                   r"(?P<kind>workshop|panel|symposium|special\s+interest\s+group|SIG|course|tutorial)\s+"
                   r"(?:invites|brings|aims|will|seeks|welcomes|calls|gathers|offers|explores|focuses|convenes)\b")


def _kind_from_record(clause: str, entry: Entry, abstract: str, plural: bool) -> str:
    """A title's clause whose verb makes the paper a study ("study guided gesture support in the Paper PDA"), said
    with a neutral verb when the record says the paper built something and ran no study of its own
    (:func:`.related_kinds.contribution`): the kind a sentence gives a paper comes from its record, never from the
    verb a noun-phrase title gets by default."""
    from citekit.output.related_kinds import contribution as kind_of

    m = re.match(r"(stud(?:y|ies))\s+(?!of\b)", clause)
    if not m or not abstract:
        return clause
    if _EVENT_REPORT.search(abstract[:300]):  # a seminar's report studies nothing: it reports on the meeting's topic
        return ("report on" if plural else "reports on") + clause[len(m.group(1)):]
    event = _EVENT_CALL.search(abstract)
    if event:  # "This workshop invites researchers ...": a call for a meeting, not a study of its topic
        kind = re.sub(r"\s+", " ", event.group("kind")).lower()
        kind = "SIG" if kind == "sig" else kind
        verb = "give" if kind in ("course", "tutorial") else "organize"
        from citekit.output.articles import with_article

        return f"{conjugate(verb, plural)} {with_article(kind)} on" + clause[len(m.group(1)):]
    if kind_of(f"{latex_to_text(entry.title or '')} . {abstract}") != "system":
        return clause
    return ("address" if plural else "addresses") + clause[len(m.group(1)):]


def _echoes_title(rest: str, title: str) -> bool:
    """Whether a contribution clause only repeats the title ("We study deep analysis").

    Such a sentence tells the reader less than the title does, so the paper is
    described from its title instead.
    """
    words = title_tokens(latex_to_text(rest))
    if not words:
        return True
    known = set(title_tokens(latex_to_text(title)))
    return sum(w in known for w in words) >= 0.8 * len(words)


def _join_pairs(sentences: list[tuple[str, bool]]) -> list[str]:
    """Two short neighbouring sentences that make the same claim become one: "A and B both ..." is not invented.

    ``(sentence, opens_with_citation)`` pairs. Only a sentence whose subject is its
    citation is appended, after a semicolon, and only when :func:`same_claim` holds: two
    unrelated papers joined by ";" read as if they were related. No contrast ("while") is
    implied, and no capital letter ends up inside a sentence.
    """
    out: list[str] = []
    i = 0
    while i < len(sentences):
        a = sentences[i][0]
        if i + 1 < len(sentences):
            b, b_cites = sentences[i + 1]
            if b_cites and len(a.split()) + len(b.split()) <= 40 and a.endswith(".") and b.endswith(".") \
                    and same_claim(a, b):
                out.append(f"{a[:-1]}; {b}")
                i += 2
                continue
        out.append(a)
        i += 1
    return out


def _groups(entries: list[Entry], topic: list[str], specs: list[GroupSpec], rules: TagRules) -> list[_Group]:
    """User-named groups first, then groups of papers that are about the same thing, then the rest.

    See :mod:`.related_groups`: TF-IDF over each paper's text plus its topic tags,
    groups of 2-6 papers named after what they share. Papers close to no other go to a
    closing paragraph. A selection of at most three papers, or one that splits into no
    group, stays one paragraph named after the topic.
    """
    from citekit.output.related_groups import (ATTACH_FLOOR, MAX_SIZE, MIN_SIZE, THRESHOLDS, WHOLE_POINT, Similarity, attach_leftovers, cluster,
                                               entry_text, name_group, of_topic, title_pairs, topic_tags)
    from citekit.output.related_actions import task_groups
    from citekit.output.related_headings import Selection, group_heading, stray_word, written_by
    from citekit.output.related_terms import as_one_term, long_forms, section_of, terms
    from citekit.output.related_topics import (Phrasebook, heading_case, kind_of, proper_names, ranked_names,
                                              topic_sentence)

    core_heading = " and ".join(rules.label(t) for t in topic) if topic else "Related work"
    groups: list[_Group] = []
    left = list(entries)
    for spec in specs:
        members = [e for e in left if set(spec.tags) <= set(e.tags)]
        if members:
            groups.append(_Group(spec.name, members))
            left = [e for e in left if e not in members]
    if not left:
        return _with_names(groups, entries)
    skip = set(topic) | _universal_tags(left)
    abstracts = [abstract_prose(e) for e in left]
    texts = [entry_text(e, a, "") for e, a in zip(left, abstracts)]
    bodies = list(abstracts)
    # an acronym and its long form are one term: "SAM" in one record is "sharpness-aware minimization" in another
    forms = long_forms(texts)
    texts, bodies, abstracts = (as_one_term(x, forms) for x in (texts, bodies, abstracts))
    titles = as_one_term([e.title or e.key for e in left], forms)
    # the words these records write as names, read from them alone: what an earlier selection wrote changes nothing
    names = frozenset(proper_names(bodies, texts, titles))
    for g in groups:
        g.names = names

    def whole() -> list[_Group]:
        """The selection as one paragraph, opened by what its papers share if they share anything."""
        everyone = list(range(len(left)))
        book = Phrasebook(texts, topic, bodies, titles, section_of(texts, topic), names)
        themes = ranked_names(book.themes(everyone), len(left))
        return [_Group(core_heading, left, core=True, themes=themes, kind=kind_of(texts), section=book.topic,
                       names=names)]

    if len(left) <= 3 and not groups:
        return whole()
    tags = [topic_tags(e, skip, rules) for e in left]
    similarity = Similarity(left, texts, tags, topic, names)
    book = Phrasebook(texts, topic, bodies, titles, similarity.section, names)
    counts = Counter(t for e in left for t in e.tags)
    # papers whose titles name one task ("Hand Gesture Recognition") do the same work: a paragraph of their own
    # (:func:`.related_actions.task_groups`); the others keep the groups the closeness draws, without them (drawn
    # among all the papers: a few left over would otherwise all be "few papers alone" at the strictest threshold)
    tasked = task_groups(titles, texts, MAX_SIZE)
    in_task = {i for idx, _ in tasked for i in idx}
    clusters = [kept for c in cluster(similarity.sim, list(range(len(left))))
                for kept in _split_small([i for i in c if i not in in_task]) if kept]
    rest_idx = attach_leftovers(similarity.sim, clusters, tags, points=similarity.points, book=book, whole=WHOLE_POINT,
                                titled=similarity.titled)
    found = []
    used = {core_heading.lower(), *(g.heading.lower() for g in groups)}
    labels = {rules.label(t).lower() for t in rules.rules}
    selection = Selection(book, titles, abstracts, topic)

    def heading_of(idx: list[int], taken: set[str], neutral: bool = True, every: bool = False) -> tuple[str, list[int]]:
        """A noun phrase of the papers' own that says what they do (:mod:`.related_headings`), else their kind;
        and the papers of ``idx`` it is true of."""
        said, true_of = group_heading(selection, idx, [similarity.kinds[i] for i in idx],
                                      taken - {core_heading.lower()}, neutral, every)
        return ("", []) if said.lower() in taken else (said, true_of)

    def taken_by(heading: str, final: list[tuple[list[int], str, list[str]]]) -> set[str]:
        """The headings other than ``heading`` given so far (lower case): a group's own heading is not taken."""
        return {core_heading.lower(), *(g.heading.lower() for g in groups),
                *(h.lower() for _, h, _ in final if h != heading)}

    def pair_up(leftovers: list[int], claims: bool = False) -> list[int]:
        """Leftovers that share a phrase of their own ("handcrafting with ToolDevices"), or a term of their
        titles, are a group after all (added to ``named``); with ``claims`` (the last leftovers, once every group
        has its heading), also a term of what they say they do; returns the rest."""
        while len(leftovers) >= MIN_SIZE:
            pair = next((t for t in book.themes(leftovers) if len(t.members) <= MAX_SIZE
                         and len(heading_of(list(t.members), used, neutral=False)[1]) >= MIN_SIZE), None)
            if pair is None:
                break
            heading, true_of = heading_of(list(pair.members), used, neutral=False)
            used.add(heading.lower())
            named.append((true_of, heading, []))
            leftovers = [i for i in leftovers if i not in true_of]
        # (leftovers whose titles alone share a term, "Diagnosis" and "Diagnostic", are a group all the same; then
        # those whose titles or "we present ..." sentences do: "Magnetic", "magnetically driven", "ferromagnetic")
        # (a term each claim and abstract writes, and no other paper's claim, is the evidence: however little else
        # the abstracts share, as in a title pair)
        for said, read, floor in ((similarity.titled, [t if e.title else "" for e, t in zip(left, titles)], ATTACH_FLOOR),
                                  (similarity.claimed, similarity.claims, 0.0))[:2 if claims else 1]:
            for pair_idx, name in title_pairs(similarity.sim, leftovers, said, read, floor):
                own = name  # (the group's own word: "Mobile input" may follow "Magnetic input", the topic is shared)
                if said is similarity.claimed and stray_word(name, [titles[i] for i in pair_idx],
                                                             [abstracts[i] for i in pair_idx], topic, book):
                    name = of_topic(name, topic, [similarity.claims[i] for i in pair_idx]) or name
                if heading_case(name, names).lower() not in used and not _overlaps(own, used - {core_heading.lower()}) \
                        and not stray_word(name, [titles[i] for i in pair_idx], [abstracts[i] for i in pair_idx], topic, book):
                    used.add(heading_case(name, names).lower())
                    if said is similarity.claimed:
                        # (true of every paper by construction; said again, a phrase two of them share would
                        # send the third away: "Input device" of "Magnetic input")
                        labels.add(heading_case(name, names).lower())
                    named.append((pair_idx, heading_case(name, names), []))
                    leftovers = [i for i in leftovers if i not in pair_idx]
        return leftovers

    def pair_off(i: int, final: list[tuple[list[int], str, list[str]]]) -> bool:
        """A leftover that no group's heading is true of, but that does what one paper of a group does (the paper
        it is closest to, at least as close as a paper must be to join a group), makes a pair with that paper under
        a phrase both write, taking it from a group that keeps two or more ("Genetic programming": GenProg beside
        a study of automated repair that ran it, from "Automated program repair"). The group's heading stays
        true of the papers it keeps; the pair's is true of both. Adds the pair to ``final``; whether it did."""
        near = sorted(((float(similarity.sim[i][j]), j, n) for n, (idx, _, _) in enumerate(final)
                       if len(idx) > MIN_SIZE for j in idx), reverse=True)
        for sim_ij, j, n in near[:PAIR_TRIES]:
            if sim_ij < CLOSE_ENOUGH:
                return False
            taken = {core_heading.lower(), *(g.heading.lower() for g in groups), *(h.lower() for _, h, _ in final)}
            heading, true_of = heading_of([i, j], taken, neutral=False)
            # (a phrase of two words or more: "Concepts", "Elimination" or "Translations" is true of both and says
            # nothing of what they do together; and one a sentence can say bare: "Both papers address commercial
            # tool" is no English, "refactoring tools" or "genetic programming" is)
            if len(heading.split()) > 1 and _reads_bare(heading.split()[-1]) and len(true_of) == 2 \
                    and not _overlaps(heading, taken - {core_heading.lower()}) \
                    and not stray_word(heading, [titles[i], titles[j]], [abstracts[i], abstracts[j]], topic, book):
                idx, said, words = final[n]
                final[n] = ([k for k in idx if k != j], said, words)
                final.append(([j, i], heading, []))
                return True
        return False

    unnamed: list[int] = []
    named: list[tuple[list[int], str, list[str]]] = []
    for idx in sorted((c for c in clusters if len(c) >= MIN_SIZE), key=lambda c: (-len(c), c)):
        members = [left[i] for i in idx]
        heading, words = name_group(members, idx, similarity, skip, rules, counts)
        if heading.lower() not in labels or heading.lower() in used:
            # a tag's label names a sub-topic; words that merely recur ("Taken", "Make") name nothing
            heading, true_of = heading_of(idx, used)
            if len(true_of) < MIN_SIZE:
                heading = ""
        if not heading:
            unnamed += idx  # papers that share no phrase have no point together: each joins its closest group
            continue
        used.add(heading.lower())
        named.append((idx, heading, words))
    task_heads: set[str] = set()
    for idx, task in tasked:
        # (named after the groups by closeness: a task's words, often the section's, never keep them from a heading)
        heading = heading_case(task, names)
        if heading.lower() in used:
            rest_idx += idx  # (a paragraph already has the name: the papers are grouped as any others)
            continue
        used.add(heading.lower())
        labels.add(heading.lower())  # (like a tag's label, the task is said of every paper: never said again)
        task_heads.add(heading.lower())
        named.insert(0, (idx, heading, []))
    if unnamed and named:
        # (a task's paragraph takes no paper that does not name the task)
        clusters = [idx for idx, h, _ in named if h.lower() not in task_heads] + [[i] for i in unnamed]
        unnamed = attach_leftovers(similarity.sim, clusters, tags, points=similarity.points, book=book)  # grows ``named``
    rest_idx, unnamed = pair_up(rest_idx + unnamed), []
    for i in list(rest_idx):
        # a leftover that uses the very phrase a group is about ("mobile device") belongs with it: the
        # group's topic sentence then says what it has in common with the others
        for idx, _heading, _words in named:
            said = topic_sentence(ranked_names(book.themes(idx), len(idx)), len(idx), "papers", names)
            if said and said[1].key in book.per_paper[i] and len(idx) < MAX_SIZE:
                idx.append(i)
                rest_idx.remove(i)
                break
    # the heading is said again of the papers each group has now, and a paper it is not true of leaves the
    # group (a study of colour selection under "Gestures"): a heading is true of every paper under it
    final: list[tuple[list[int], str, list[str]]] = []
    for n, (idx, heading, words) in enumerate(named):
        if heading.lower() in labels:
            final.append((idx, heading, words))
            continue
        others = {h.lower() for m, (_, h, _) in enumerate(named) if m != n} | {g.heading.lower() for g in groups}
        said, true_of = heading_of(idx, others | {core_heading.lower()})
        if len(true_of) < MIN_SIZE:
            said, true_of = heading, idx
        # (a paper whose title shares a term, not the heading's own, with every title the heading is true of
        # stays: "Sound as a Diagnostic Aid" beside two papers titled "Diagnosis of Gum Disease ...")
        own = set(terms(said))
        every = set.intersection(*(similarity.titled[i] for i in true_of)) - own if true_of else set()
        true_of = [i for i in idx if i in true_of or similarity.titled[i] & every]
        final.append((true_of, said, words))
        rest_idx += [i for i in idx if i not in true_of]
    for true_of, said, _words in final:
        # a leftover that writes a group's heading phrase is about what the group is about ("WristFlex: Low-Power
        # Gesture Input ..." beside two gesture interfaces): it joins, if the heading stays the same and true of it
        for i in list(rest_idx):
            if len(true_of) < MAX_SIZE and said.lower() not in labels \
                    and heading_of(true_of + [i], taken_by(said, final)) == (said, true_of + [i]):
                true_of.append(i)
                rest_idx.remove(i)
    named = []
    used = {core_heading.lower(), *(g.heading.lower() for g in groups), *(h.lower() for _, h, _ in final)}
    rest_idx = pair_up(rest_idx, claims=True)
    final += named
    for i in sorted(rest_idx, key=lambda i: -max((_closeness(similarity.sim, i, t) for t, _, _ in final), default=0.0)):
        # a leftover close to a group by what it does joins it, under a heading said again of the whole group
        # (a broader phrase they all write, or their shared kind and action, "Systems"); never one it is not true of
        near = sorted(((_closeness(similarity.sim, i, t), n) for n, (t, h, _) in enumerate(final)
                       if len(t) < MAX_SIZE and h.lower() not in labels), reverse=True)
        for closeness, n in near[:2]:
            if closeness < CLOSE_ENOUGH:
                break
            idx, said, words = final[n]
            if written_by(said, titles[i], abstracts[i]):
                heading = said  # the group's heading is true of it too, in another form
            else:
                # (``every``: a heading is given only where it is true of every paper, the leftover too)
                heading = heading_of(idx + [i], taken_by(said, final), every=True)[0]
                if heading and stray_word(heading, [titles[j] for j in idx + [i]], [abstracts[j] for j in idx + [i]],
                                          topic, book):
                    heading = ""
            if heading:
                final[n] = (idx + [i], heading, words)
                rest_idx.remove(i)
                break
    for i in sorted(rest_idx, key=lambda i: -max((_closeness(similarity.sim, i, t) for t, _, _ in final), default=0.0)):
        if pair_off(i, final):
            rest_idx.remove(i)
    for n, (idx, heading, words) in enumerate(final):
        if heading.lower() not in labels:
            # a group drawn by closeness whose every title names one task is headed by it ("Code generation", not
            # "Generated codes"): a task named by more papers than a paragraph holds was left to the closeness
            task = next((t for members, t in task_groups([titles[i] for i in idx], [texts[i] for i in idx], len(idx))
                         if len(members) == len(idx)), "")
            said = heading_case(task, names) if task else ""
            if said and said.lower() not in {h.lower() for _, h, _ in final} | used:
                heading = said
                final[n] = (idx, heading, words)
        themes = ranked_names(book.themes(idx), len(idx))
        found.append(_Group(heading, [left[i] for i in idx], words=words, themes=themes,
                            kind=kind_of([texts[i] for i in idx]), texts={left[i].key: texts[i] for i in idx},
                            section=similarity.section, names=names, forms=forms))
    rest = [left[i] for i in rest_idx + unnamed]
    if not found and not groups:
        return whole()
    groups += found
    if rest:
        # (no opener: the leftovers share nothing, and a list of what each is about, "Other work addresses computer
        # game, seamful design and shape writing", is a keyword list a reader strikes)
        groups.append(_Group("Other related work" if groups else core_heading, rest, core=True, closing=True,
                             texts={left[i].key: texts[i] for i in rest_idx + unnamed}, names=names))
    return groups


def _split_small(idx: list[int]) -> list[list[int]]:
    """A group that papers left is kept if it still has :data:`.related_groups.MIN_SIZE` papers, else each paper
    stands alone (and may join another group, or close the section)."""
    from citekit.output.related_groups import MIN_SIZE

    return [idx] if len(idx) >= MIN_SIZE else [[i] for i in idx]


def _reads_bare(word: str) -> bool:
    """Whether the last word of a heading reads without an article in "Both papers address <heading>": a plural
    ("tools"), a noun by its form that names an activity or a field ("programming", "verification"), or a
    name ("Java")."""
    return (word.endswith("s") and not word.endswith(("ss", "us", "is"))) or not word[:1].islower() \
        or bool(re.search(r"(?:tion|sion|ment|ness|ity|ing|ics|ism|ance|ence|ogy|phy|ure|sis)$", word))


#: how many of a leftover's closest papers in groups it may pair with (:func:`_groups`' ``pair_off``): the few
#: nearest, never a far one because it shares a word
PAIR_TRIES = 3

CLOSE_ENOUGH, LINK_MARGIN = 0.12, 0.04
"""The closeness (:func:`_closeness`, over :class:`.related_groups.Similarity`) to a group's papers at which a
leftover may join it (the loosest threshold but one at which papers form a group at all), and the margin taken
off its similarity to the group's closest paper."""


def _closeness(sim, i: int, idx: list[int]) -> float:  # noqa: ANN001  (a square numpy array)
    """How close paper ``i`` is to the papers ``idx``: its mean similarity to them, or, if higher, its similarity
    to the closest of them less a margin (a paper close to one member is as close as one near to all; the
    groups themselves are built by single linkage, :func:`.related_groups.cluster`)."""
    if not idx:
        return 0.0
    near = [float(sim[i][j]) for j in idx]
    return max(sum(near) / len(near), max(near) - LINK_MARGIN)


def _builds_on(entry: Entry, earlier: list[Entry]) -> tuple[str, Entry] | None:
    """``(method name, paper)`` of an earlier paper of the paragraph whose method this paper's abstract names.

    A relation is said only where a record says it: the later paper's abstract names the
    earlier one's method (the coined name its title gives, "ReForm", "DiLoCo"), and the
    earlier paper is older. A name the later paper's own title also gives is its own, not a
    basis.
    """
    abstract = latex_to_text(abstract_of(entry))
    own = method_name(entry.title or "")
    year = entry.year or 0
    for other in reversed(earlier):
        name = method_name(other.title or "")
        if not name or len(name) < 3 or name == own or not (other.year and year and other.year < year):
            continue
        if not re.search(r"[A-Z].*[A-Z]|[a-z][A-Z]|\d", name):
            continue  # a coined name ("ReForm", "MixFab", "LiMuon"), never a plain word of the title
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", abstract):
            return name, other
    return None


def _overlaps(phrase: str, used: set[str]) -> bool:
    """Whether a heading would share a word with one already given ("Modeling" after "3D modeling")."""
    from citekit.output.related_topics import FUNCTION_WORDS, _stem

    words = {_stem(w) for w in re.findall(r"[a-z0-9][\w\-]*", phrase.lower())} - FUNCTION_WORDS
    return any(words & {_stem(w) for w in re.findall(r"[a-z0-9][\w\-]*", h)} for h in used)


def _position(group: _Group, mine: Mine, plan: "_MinePlan", style: _Style) -> str | None:
    """The sentence that sets the user's paper against a group, from both abstracts, or None.

    Said only on real shared ground (:func:`.common_ground.grounds`: a phrase of the user's abstract
    the group's records use and at most half the section does, never the section's topic), and with
    a difference true of both: what a sharing paper does (a phrase of its title or claim that the
    user's abstract never uses) against what the user's paper does (its claim or method statement
    least covered by the group, :func:`.positioning.choose`, cut short, never a finding). The
    candidate links are tried best first until one has a paper with such a difference. Sentences
    take turns among three shapes, so a section does not say "Like ..., but where ..." every time:

    - "Like \\citet{a}, our work deals with P, but where \\citet{a} focuses on Q, we ...";
    - "Like \\citet{a}, our work deals with P; unlike \\citet{a}, who focuses on Q, we ...";
    - "\\citet{a} also deals with P, but focuses on Q; in contrast, we ...";

    and, when another paper of the group shares another phrase (:func:`_second_link`), "Like \\citet{a},
    our work deals with P, and like \\citet{b}, with R, but where \\citet{a} focuses on Q and \\citet{b} S, we ...".

    None when nothing but the topic is shared, no paper shows a difference, or the abstract states
    no claim or method: the caller leaves a TODO that says which.
    """
    from citekit.output.common_ground import grounds, their_focus
    from citekit.output.positioning import REUSE, choose

    texts = [group.texts.get(e.key) or " ".join((e.title or "", abstract_of(e))) for e in group.members]
    titles = (mine.title, [e.title or "" for e in group.members])
    found = grounds(plan.text, texts, plan.sec, "" if group.closing else group.heading, titles)
    # a link said for an earlier paragraph counts for less: the section should not say "gestures" every time
    plan.link = ""
    ranked = sorted(found, key=lambda g: -g.score * REUSE ** plan.linked[g.phrase])
    if not plan.aims:
        plan.link = _link_only(group, ranked, mine, plan, style)  # (the shared ground is true without our clause)
        return None
    picked = choose(plan.aims, texts, plan.idf, plan.used, plan.section)
    statement = picked.statement if picked else min(plan.aims, key=lambda st: (plan.used[st.key], st.index))
    statement = replace(statement, clause=_clause_for(statement, group, plan))
    focused = False  # whether some sharing paper names a difference of its own (then ours is what is missing)
    for ground in ranked:
        sharers = _owning(group, ground)
        focus = [(e, f) for e in sharers
                 if (f := their_focus(e.title or "", abstract_of(e), plan.text, plan.sec, ground.phrase))]
        focused = focused or bool(focus)
        where = [(e, f) for e, f in focus if _ours_differs(statement.clause, e, ground.phrase, plan)]
        if where:
            break
    else:
        added = _what_ours_adds(group, ranked, statement, mine, plan, style) if ranked else \
            _where_they_differ(group, statement, plan, style)
        if added:
            return added
        plan.missing = ("ours_covered" if focused else "no_difference") if ranked else "no_ground"
        plan.ground = ranked[0].phrase if ranked else ""
        plan.tried = statement.clause
        plan.link = _link_only(group, ranked, mine, plan, style)
        return None
    plan.linked[ground.phrase] += 1
    other = _second_link(group, ground, found, sharers, plan, statement.clause)
    plan.used[statement.key] += 1
    clause = style.prose(statement.clause)
    voiced = bool(re.match(r"(?:we|our)\b", clause))
    shape = plan.turns % 3 if voiced else 0  # ("unlike X, which ..., in our work, ..." reads as no contrast)
    plan.turns += 1
    ground_text = style.text(ground.phrase)
    cites = _cite_list(sharers, style)
    verb = {True: ("deal", "focus on"), False: ("deals", "focuses on")}

    def differences(pairs: list[tuple[Entry, str]]) -> list[str]:
        """"A focuses on Q", then "B S": each paper's difference, the verb said once."""
        return [f"{style.citet(e)} {verb[_plural(e)][1]} {style.text(f)}" if n == 0 else f"{style.citet(e)} {style.text(f)}"
                for n, (e, f) in enumerate(pairs)]

    if shape == 2 and len(where) == 1 and where[0][0] in sharers:
        e, f = where[0]
        many = len(sharers) > 1 or _plural(sharers[0])
        also = f"{cites} also {verb[many][0]} with {ground_text}"
        but = (f"but {verb[_plural(e)][1]} {style.text(f)}" if len(sharers) == 1 else
               f"but {style.citet(e)} {verb[_plural(e)][1]} {style.text(f)}")
        return _finish(f"{also}, {but}; in contrast, {clause}")
    like = f"Like {cites}, our work deals with {ground_text}"
    if other and voiced:
        # two links: "Like A, our work deals with P, and like B, with Q, but where A focuses on R and B S, we ..."
        (e2, g2, f2) = other
        parts = differences([*where, (e2, f2)])
        return _finish(f"{like}, and like {style.citet(e2)}, with {style.text(g2)}, but where {', '.join(parts[:-1])} "
                       f"and {parts[-1]}, {clause}")
    if shape == 1 and len(where) == 1:
        e, f = where[0]
        # ("who": the citation names the authors, "Smith et al. (2007), who focus on ...")
        return _finish(f"{like}; unlike {style.citet(e)}, who {verb[_plural(e)][1]} {style.text(f)}, {clause}")
    parts = differences(where)
    return _finish(f"{like}, but where {' and '.join(parts)}, {clause}")


#: how many words of the user's clause the sharing papers' records must all lack before "unlike them" is said
ADDS = 2


def _what_ours_adds(group: _Group, ranked: "list[Ground]", statement: "Statement", mine: Mine, plan: "_MinePlan",
                    style: _Style) -> str | None:
    """"Like @a, our work deals with P; unlike them, our optimizer combines X with Y.": what the user's paper shares
    with the group, then what it adds, where no cited paper shows a difference of its own, or None.

    A co-author places a paper by what it shares with a line of work and what it does that the line does not;
    the second half needs no phrase of the cited papers when the user's clause names things their records
    never say. Said only on a link that is a line of work (:func:`_link_only`'s test), in the authors' voice,
    and when the clause names at least :data:`ADDS` content words that none of the sharing records uses in
    any form (:func:`_new_words`): one word may be a record's silence, not a difference.
    """
    clause = style.prose(statement.clause)
    if statement.kind == "problem" or not re.match(r"(?:we|our)\b", clause):
        return None  # ("unlike them, in our work, ..." contrasts nothing; nor where the paper starts from)
    for ground in ranked:
        sharers = _owning(group, ground)
        if not sharers or not (len(ground.key) > 1 or _titles_name(
                ground.phrase, [mine.title, *(e.title or "" for e in sharers)])):
            continue
        if len(_new_words(statement.clause, sharers, ground.phrase, plan)) < ADDS:
            continue
        plan.linked[ground.phrase] += 1
        plan.used[statement.key] += 1
        plan.turns += 1
        them = "them" if len(sharers) > 1 or _plural(sharers[0]) else style.citet(sharers[0])
        return _finish(f"Like {_cite_list(sharers, style)}, our work deals with {style.text(ground.phrase)}; "
                       f"unlike {them}, {clause}")
    return None


def _where_they_differ(group: _Group, statement: "Statement", plan: "_MinePlan", style: _Style) -> str | None:
    """"Where @a focuses on Q and @b R, we ...": the user's paper set against a group it shares no line of work with,
    both sides by their own records, or None.

    A group that shares nothing with the user's abstract beyond the section's topic still stands for work the
    reader will compare: the sentence says what its closest papers do (:func:`.common_ground.their_focus`: a
    phrase of the title or claim whose telling word the user's abstract never uses) and what the user's paper
    does that their records never say (at least :data:`ADDS` words, :func:`_new_words`). Up to two papers, in
    the group's order (closest to the user's paper first); None when the user's clause is not in the authors'
    voice, was said for an earlier paragraph (readers struck the abstract's one sentence under every group),
    or no paper has both sides.
    """
    from citekit.output.common_ground import _reads_bare, their_focus, words_of

    from citekit.output.positioning import choose

    def said(st: "Statement") -> bool:
        """Whether the sentence was said for an earlier paragraph: this half, or for the whole any half, or for its
        first half the whole (cut short, the whole says its first half: "we propose X, and prove Y" -> "we propose
        X"), never the second half for the whole."""
        done = {k for k, n in plan.used.items() if n and k[0] == st.index}
        return st.key in done or st.part == 0 and bool(done) or st.part == 1 and (st.index, 0) in done

    if said(statement):  # (the weakest link does not repeat the user's sentence under every group: another, or none)
        fresh = [st for st in plan.aims if not said(st)]
        texts = [group.texts.get(e.key) or " ".join((e.title or "", abstract_of(e))) for e in group.members]
        picked = choose(fresh, texts, plan.idf, plan.used, plan.section) if fresh else None
        if not picked:
            return None
        statement = replace(picked.statement, clause=_clause_for(picked.statement, group, plan))
    clause = style.prose(statement.clause)
    if statement.kind == "problem" or not re.match(r"(?:we|our)\b", clause):
        return None  # (a focus against "our work starts from the observation that ..." is no parallel)

    def reads(focus: str) -> bool:
        """Whether the phrase follows "focus on" as it is: with its article, as a name, or bare ("3D sketching");
        not a singular count noun without one ("focus on OrthoZoom scroller")."""
        last = focus.split()[-1]
        return bool(re.match(r"(?:an?|the)\s", focus) or _reads_bare(last.lower()) or re.search(r"[A-Z]", last))

    pairs = [(e, f) for e in group.members
             if len(_new_words(statement.clause, [e], "", plan)) >= ADDS and not _shares_a_pair(statement.clause, e)
             and (f := their_focus(e.title or "", abstract_of(e), plan.text, plan.sec)) and reads(f)
             and words_of(f) <= words_of(e.title or "")][:2]  # (its title's: what the paper is about, not a detail)
    if not pairs:
        return None
    plan.used[statement.key] += 1
    plan.turns += 1
    verb = {True: "focus on", False: "focuses on"}
    said = [f"{style.citet(e)} {verb[_plural(e)]} {style.text(f)}" if n == 0 else f"{style.citet(e)} {style.text(f)}"
            for n, (e, f) in enumerate(pairs)]
    return _finish(f"Where {' and '.join(said)}, {clause}")


def _shares_a_pair(clause: str, entry: Entry) -> bool:
    """Whether the cited record writes two content words of the user's clause in a row, by their first five letters
    ("momentum-based variance reduced" against "momentum-based variance reduction"): then what the clause says is
    partly the cited paper's too, and "where @a focuses on Q, we <clause>" would set apart what both do."""
    from citekit.output.related_topics import FUNCTION_WORDS

    def pairs(text: str) -> set[tuple[str, str]]:
        words = [w[:5] for w in re.findall(r"[a-z0-9]+", fold(latex_to_text(text)).lower())
                 if w not in FUNCTION_WORDS and w not in ("we", "our")]
        return set(zip(words, words[1:]))

    return bool(pairs(clause) & pairs(" ".join((entry.title or "", abstract_of(entry)))))


def _link_only(group: _Group, ranked: "list[Ground]", mine: Mine, plan: "_MinePlan", style: _Style) -> str:
    """"Like X, our work deals with P.": the link alone, true of both records, where no difference is, when it is
    a line of work and not a word both happen to write: a phrase of two words or more, or one word both titles
    name ("gestures"; not "environment", which one paper models and the other's users are distracted by); the
    difference is the author's (the caller's TODO). Empty when none is."""
    for ground in ranked:
        sharers = _owning(group, ground)
        if sharers and (len(ground.key) > 1 or _titles_name(ground.phrase, [mine.title, *(e.title or "" for e in sharers)])):
            plan.linked[ground.phrase] += 1
            return _finish(f"Like {_cite_list(sharers, style)}, our work deals with {style.text(ground.phrase)}")
    return ""


def _owning(group: _Group, ground: "Ground") -> list[Entry]:
    """The first two papers of ``group`` that use the shared phrase and say it of themselves
    (:func:`.related_openers.owned_by_all`: in the title, the claim, or in a sentence past the abstract's
    opening): "Like
    Avrahami et al., our work deals with electronic devices" is false of a paper that names them only as what
    paper outdoes."""
    from citekit.output.related_openers import owned_by_all

    out = []
    for i in ground.sharers:
        e = group.members[i]
        if owned_by_all(ground.phrase, [e.title or ""], [abstract_prose(e)], once=True):
            out.append(e)
    return out[:2]


def _titles_name(phrase: str, titles: list[str]) -> bool:
    """Whether every one of ``titles`` names every content word of ``phrase`` (in any form: "gestural" meets
    "gestures")."""
    from citekit.output.common_ground import words_of

    want = words_of(phrase)
    return bool(want) and all(want <= words_of(t) for t in titles)


def _clause_for(statement: "Statement", group: _Group, plan: "_MinePlan") -> str:
    """The user's clause for this group: the one of its sayings that names most of what the group's records lack.

    A claim cut short to its first dozen words ("we propose a memory-light Muon optimizer that combines
    momentum-based variance reduction") keeps what it shares with a group and loses what it adds ("with a
    randomized low-rank approximation of the orthogonalized update"). The claim said from what the thing does
    (:func:`.common_ground.what_it_does`: "our optimizer combines ... with a randomized low-rank approximation
    ...") is taken instead when it names more words none of the group's records uses; the cut claim otherwise.
    """
    from citekit.output.common_ground import what_it_does

    whole = next((st.clause for st in plan.options if st.key == statement.key), statement.clause)
    restated = what_it_does(whole)
    if not restated or restated == statement.clause:
        return statement.clause
    lacked = [len(_new_words(c, group.members, "", plan)) for c in (statement.clause, restated)]
    return restated if lacked[1] > lacked[0] else statement.clause


def _ours_differs(clause: str, entry: Entry, ground: str, plan: "_MinePlan") -> bool:
    """Whether what the user's paper does (``clause``) says a content word that ``entry``'s record never uses,
    in any form or kin word, beyond the shared ``ground`` and the section's topic: a difference is true of
    both sides only then. A reader struck "unlike Kubota et al., who focus on computational intelligence, we
    study automatic gesture recognition for intelligent human-robot interaction": the cited paper recognises
    gestures for a robot too, so the user's side names nothing it lacks."""
    return bool(_new_words(clause, [entry], ground, plan))


def _new_words(clause: str, entries: list[Entry], ground: str, plan: "_MinePlan") -> set[str]:
    """The content words (roots) of ``clause`` that none of ``entries``' records uses, in any form or kin word,
    beyond the shared ``ground``, the section's topic, the field's generic words and words of manner
    (:func:`_ours_differs`)."""
    from citekit.output.common_ground import _topical, words_of
    from citekit.output.related_topics import GENERIC, WEAK_ALONE
    from citekit.output.word_roots import root

    theirs = set().union(*(words_of(" ".join((e.title or "", abstract_of(e)))) for e in entries))
    ours = words_of(clause) - words_of(ground) - {"we", "our", "us"}
    kin = plan.sec.kin if plan.sec is not None else None
    weak = _weak_roots(GENERIC | WEAK_ALONE)
    def covered(w: str) -> bool:
        """Whether the cited record says ``w``: as such, by a word of the same first seven letters ("intelligent",
        "intelligence"), or, for a compound, by each of its parts ("human-robot")."""
        if len(w) < 3 or _topical(w, plan.section) or w in theirs or w in weak:
            return True  # ("interaction", "system": a word any paper of the field may say is no difference)
        if len(w) >= 7 and any(t[:7] == w[:7] for t in theirs):
            return True
        return "-" in w and all(covered(root(p)) for p in w.split("-") if p)

    new = set()
    for w in ours:
        if covered(w):
            continue
        if w in _manner_roots():
            continue  # (nor a word of manner alone: "automatic" recognition against a paper's recognition)
        if kin is not None and kin.of(w) & theirs:
            continue
        if w in _generic_roots():
            continue
        new.add(w)
    main = {w for w in words_of(_main_part(clause)) & ours
            if len(w) >= 3 and w not in weak and w not in _generic_roots() and not _topical(w, plan.section)}
    if main and len(main & new) * 2 < len(main):
        # (the records state our kind of claim: "unlike LiMuon, ..., we prove sample-complexity guarantees under
        # layer-wise smoothness" denies a paper that proves sample-complexity bounds, under another smoothness)
        return set()
    return new


#: words that open what qualifies a claim ("... under layer-wise smoothness", "... with a low-rank update")
_QUALIFIERS = frozenset("under with for in on via using by from to that which where when whose across over through "
                        "without against while whereas than".split())


def _main_part(clause: str) -> str:
    """What ``clause`` claims before what qualifies it ("we prove sample-complexity guarantees under layer-wise
    smoothness" -> "we prove sample-complexity guarantees"): the kind of claim a cited record may state too."""
    words = clause.split()
    for n, word in enumerate(words):
        if n > 1 and (word.lower() in _QUALIFIERS or word.endswith((",", ";"))):
            return " ".join(words[:n + 1 if word.endswith((",", ";")) else n])
    return clause


#: words that say a paper does something, not what: no difference by themselves ("we present", "we study")
_GENERIC_WORDS = ("present propose introduce describe study explore investigate examine report show demonstrate "
                  "develop design build built use using evaluate conduct perform provide offer discuss make "
                  "new novel approach method technique system paper work way")


#: words that say how well or how a thing is done, not what: a difference of these alone is none
_MANNER = ("automatic automated intelligent interactive natural intuitive robust simple efficient effective fast "
           "accurate real-time realtime novel new smart adaptive easy low-cost practical general flexible "
           "better improved")


def _manner_roots() -> frozenset[str]:
    from citekit.output.word_roots import root

    return frozenset(root(w) for w in _MANNER.split())


def _weak_roots(words: frozenset[str]) -> frozenset[str]:
    from citekit.output.word_roots import root

    return frozenset(root(w) for w in words)


def _generic_roots() -> frozenset[str]:
    from citekit.output.word_roots import root

    return frozenset(root(w) for w in _GENERIC_WORDS.split())


def _second_link(group: _Group, ground: "Ground", found: "list[Ground]", sharers: list[Entry],
                 plan: "_MinePlan", clause: str = "") -> tuple[Entry, str, str] | None:
    """A second link of the user's paper to another paper of the group, or None: a shared phrase (from
    ``found``, best first) that none of ``sharers`` is cited for and that says no word of the first link,
    with a paper that shows its own difference (:func:`.common_ground.their_focus`).

    A reader named two links where the section gave one: gestural input with one paper, use on the move
    with another. Said only when both are real; a link said for an earlier paragraph is not said again.
    """
    from citekit.output.common_ground import their_focus, words_of

    first = words_of(ground.phrase)
    said = words_of("" if group.closing else group.heading)  # (the paragraph's topic sentence says it already)
    taken = {e.key for e in sharers}
    for g2 in found:
        if g2 is ground or plan.linked[g2.phrase] or set(g2.key) & (first | said) \
                or any(group.members[i].key in taken for i in g2.sharers):
            continue  # (a phrase the first paper shares too is no second link: it is the group's ground)
        for e2 in _owning(group, g2):
            f2 = their_focus(e2.title or "", abstract_of(e2), plan.text, plan.sec, f"{ground.phrase} {g2.phrase}")
            if f2 and (not clause or _ours_differs(clause, e2, f"{ground.phrase} {g2.phrase}", plan)):
                plan.linked[g2.phrase] += 1
                return e2, g2.phrase, f2
    return None


@dataclass
class _MinePlan:
    """What every position sentence of one section draws on: the user's statements, the section's word
    weights, the section's own topic words (never a difference) and which statements were said already."""

    options: list
    idf: dict[str, float]
    section: set[str]
    text: str
    sec: object = None  # the section's records as word sets (:class:`.common_ground.Section`)
    aims: list = field(default_factory=list)  # the claim and method statements, no finding, cut short
    used: Counter = field(default_factory=Counter)
    turns: int = 0  # position sentences written so far: each takes the next shape
    linked: Counter = field(default_factory=Counter)  # how often each shared phrase was said already
    missing: str = ""  # why the last group got none: "no_ground", "no_difference" (theirs) or "ours_covered"
    ground: str = ""  # the best phrase the last group shares with the user's abstract, when it got no position
    tried: str = ""  # the user's clause set against the last group, when it got no position
    link: str = ""  # the last group's shared ground alone ("Like X, our work deals with P."), when no difference holds


def _mine_plan(mine: Mine, entries: list[Entry], topic: list[str], style: _Style) -> "_MinePlan":
    from citekit.output.positioning import idf_of, named_title_statement, statements

    text = " ".join((mine.title, mine.abstract))
    options = statements(mine.abstract, mine.title, style.renders) if mine.abstract else []
    from citekit.output.common_ground import Section, short_clause
    from citekit.output.word_roots import root

    topic_words = [fold(w).lower() for t in topic for w in re.split(r"[-_\s]+", t) if w]
    section = {w[:6] for w in topic_words}
    # each also without its plural "s", and by its root: a statement's words are roots ("print" of "printing")
    section |= {w[:-1] for w in section if w.endswith("s")} | {root(w)[:6] for w in topic_words}

    # (in the authors' voice once cut: "To highlight X, we ..." cut at its comma is no clause of ours)
    aims = [replace(st, clause=short) for st in options if not is_finding(st.clause)
            and (short := short_clause(st.clause)) and re.match(r"(?:we|our|in our)\b", short)]
    if not any(st.kind != "problem" for st in aims):
        # an abstract that says only where the paper starts (or a snippet of it): a title that names what the paper
        # made and says what that is gives its claim ("we present BezelCopy, an efficient copy-paste technique ...")
        named = named_title_statement(mine.title)
        if named and (short := short_clause(named.clause)):
            aims = [*aims, replace(named, clause=short)]
    if any(st.kind != "problem" for st in aims):
        aims = [st for st in aims if st.kind != "problem"]  # what the paper does, when it says so, not where it starts
    # (never the title in the authors' voice, "we study children's intuitive gestures in ...": readers took it for
    # the title pasted; an abstract that gives only where the paper starts is placed by that, one that gives
    # nothing gets a TODO that says what to add)
    records = [_entry_text(e) for e in entries]
    return _MinePlan(options=options, idf=idf_of([*records, text]), section=section,
                     text=text, sec=Section(records, section, (text,)), aims=aims)


def _no_position_reason(plan: "_MinePlan", name: str, shared: bool) -> str:
    """What a TODO says is missing, exactly, when a group got no position sentence: a sentence of the user's
    abstract that says what the paper does; a phrase beyond the section's topic both sides use (the words
    listed beside it are single words, said in passing or by most of the section); a difference of the cited
    papers' own; or a word of the user's clause that their records lack. Each names the side to change."""
    if not plan.aims:
        if plan.options and all(st.kind == "problem" for st in plan.options):
            return (f"{name}'s abstract says where the paper starts, not what it does: add a sentence that does, "
                    f"'We propose ...', to get a contrast")
        if plan.options:
            return (f"{name}'s abstract says what the paper does only in findings or in sentences too long to cut "
                    f"to a whole clause: add a short one, 'We propose ...', to get a contrast")
        return (f"{name}'s abstract gives no sentence that stands on its own and says what the paper does, "
                f"'We propose ...': add one to get a contrast")
    if plan.missing == "ours_covered":
        return (f"they share '{plan.ground}' with {name}, and each names a focus of its own, but what {name} does "
                f"('{plan.tried}') these papers' records say too: name what your paper does that they do not")
    if plan.missing == "no_difference":
        return (f"they share '{plan.ground}' with {name}, but none of them shows a difference in its title or "
                f"claim: no phrase there, beyond the section's topic, that {name}'s abstract does not name; say what "
                f"these papers do instead")
    if shared:
        return (f"the words listed are said in passing, or are words most of the section uses: no phrase of "
                f"{name}'s abstract beyond the section's topic names what these papers work on; say what your paper "
                f"shares with them")
    return f"{name}'s abstract shares no word with these papers beyond the section's topic and words most of the section uses"


def _cite_list(entries: list[Entry], style: _Style) -> str:
    cites = [style.citet(e) for e in entries]
    return cites[0] if len(cites) == 1 else ", ".join(cites[:-1]) + " and " + cites[-1]


def _opening(group: _Group, first: bool) -> str:
    """A short sentence naming what a paragraph's papers do, for a section written around one's paper."""
    about = group.heading.rstrip(".")
    about = about[:1].lower() + about[1:] if about[1:2].islower() or len(about) < 2 else about
    if group.closing:
        return "Closest to our work are papers that share no single theme." if first else "Other work is related more loosely."
    if first:
        return f"Closest to our work is research on {about}."
    return f"Another line of related work concerns {about}."


def _shared_with_mine(entries: list[Entry], mine: Mine, everyone: list[Entry], limit: int = 4) -> list[str]:
    """Words the closest papers share with the user's abstract, most distinctive first.

    A word every paper of the selection uses ("muon" in a Muon section) says nothing about
    how these papers differ from the user's, so words are ranked by how many of the
    closest papers use them times their rarity in the whole selection.
    """
    own = Counter(_tokens(" ".join([mine.title, mine.abstract, *mine.claims])))
    df: Counter[str] = Counter()
    for e in everyone:
        df.update(set(_tokens(_entry_text(e))) & set(own))
    counts: Counter[str] = Counter()
    for e in entries:
        counts.update(set(_tokens(_entry_text(e))) & set(own))
    n = len(everyone)
    # a word most of the selection uses (the section's topic) is no word these papers share with the user's in particular
    score = {w: c * (math.log((n + 1) / (df[w] + 1)) + 1.0) for w, c in counts.items() if n < 4 or df[w] * 2 <= n}
    best = [w for w, _ in sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]
    # the tokens are stems ("smoothnes"); show the word as the user's abstract writes it
    written = {}
    for word in _WORD.findall(fold(latex_to_text(" ".join([mine.title, mine.abstract, *mine.claims])))):
        written.setdefault(_tokens(word)[0] if _tokens(word) else word, word)
    return [written.get(w, w) for w in best]


def related_work(entries: list[Entry], *, fmt: str = "latex", cite: str = "natbib", links: bool = False,
                 mine: Mine | None = None, groups: list[GroupSpec] | None = None, command_line: str = "",
                 tags: list[str] | None = None, rules: TagRules | None = None,
                 source: str = "refs/library.bib") -> str:
    """A paste-ready related-work snippet about ``entries``.

    ``tags`` is the selection the entries came from (default: the tags they all share); it
    names the core paragraph and is never used to split them further. ``rules`` supplies
    the paragraph headings (tag labels). Papers whose keys could not be cited safely are
    left out and counted in the header.
    """
    if fmt not in FORMATS:
        raise RelatedWorkError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}.")
    if cite not in CITE_STYLES:
        raise RelatedWorkError(f"unknown citation style {cite!r}; use one of {', '.join(CITE_STYLES)}.")
    if links and fmt != "markdown":
        raise RelatedWorkError("--links writes Markdown links; use it with --format markdown.")
    if mine is not None and mine.abstract:
        from citekit.output.scan_marks import without_scan_marks

        mine = replace(mine, abstract=without_scan_marks(mine.abstract))  # (a scanned page's "Page 1." is no claim)
    from citekit.library.tags import load_rules
    from citekit.output.related_openers import opener

    rules = rules or load_rules({})
    style = _Style(fmt=fmt, cite=cite, links=links)
    usable = [e for e in entries if SAFE_KEY.match(e.key)]
    skipped = len(entries) - len(usable)
    not_papers = [(e.key, why) for e in usable if (why := not_a_paper(e))]
    usable = [e for e in usable if not not_a_paper(e)]
    usable, twins = _one_record_per_paper(usable)
    scores = closeness(usable, mine) if mine else {}

    def order(e: Entry) -> tuple:
        return (-scores.get(e.key, 0.0), e.year or 9999, e.key)

    usable.sort(key=order)
    topic = _topic(usable, tags)
    paragraphs = _groups(usable, topic, groups or [], rules)
    for g in paragraphs:
        g.members.sort(key=order)
    if mine:
        position = {id(g): i for i, g in enumerate(paragraphs)}
        paragraphs.sort(key=lambda g: (g.closing, -max(scores[e.key] for e in g.members), position[id(g)]))

    command = command_line.strip() or "citekit related-work"
    noun = "paper" if len(usable) == 1 else "papers"
    lines: list[str] = []
    if skipped:
        lines.append(style.comment(f"{plural(skipped, 'entry')} left out: their keys contain characters that cannot be cited safely"))
    if not_papers:
        listed = "; ".join(f"{key} ({why})" for key, why in not_papers)
        lines.append(style.comment(f"left out, not papers: {listed}"))
    if twins:
        listed = "; ".join(f"{key} (the same title as {kept})" for key, kept in twins)
        lines.append(style.comment(f"left out, a second record of a cited paper: {listed}; "
                                   "`citekit dedup` can merge them"))
    plan = _mine_plan(mine, usable, topic, style) if mine else None
    #: a Markdown draft's TODO comments, said after the draft: a reader of the Markdown source reads a comment line
    #: under a paragraph as part of its text and has to cut it out; LaTeX's "%" line stays under its paragraph
    todos: list[str] = []
    for n, g in enumerate(paragraphs):
        lines.append(style.heading(g.heading))
        if fmt == "markdown":
            lines.append("")
        described = []
        for i, e in enumerate(g.members):
            sentence = describe(e, style)
            opens = sentence.startswith(style.citet(e))
            basis = _builds_on(e, g.members[:i]) if opens else None
            if basis:  # "Building on ReForm \citep{x}, \citet{y} ...": only where y's abstract names x's method
                name, earlier = basis
                sentence = f"Building on {style.text(name)} {style.citep([earlier])}, {sentence}"
                opens = False
            described.append((sentence, opens))
        body = _join_pairs(described)
        said = None
        if not g.closing and len(g.members) > 1:
            # how the papers relate, from their records (:func:`.related_openers.opener`), else the group's heading
            titles, abstracts = g.spelled([e.title or "" for e in g.members]), \
                g.spelled([abstract_prose(e) for e in g.members])
            # (never the heading said again, "Three papers address tangible user interfaces": readers struck it)
            said = opener(titles, abstracts, g.themes, _papers(g.members), g.kind, g.section, g.names)
        if said:
            from citekit.output.related_terms import define_in

            said = style.text(define_in(said, g.forms, " ".join(body)))
            body.insert(0, _with_means(said, g, style))
        if g.forms:
            from citekit.output.related_terms import define_first

            body = define_first(body, g.forms)
        lines.append(" ".join(body))
        if mine:
            position = _position(g, mine, plan, style)
            if position:
                lines[-1] += " " + position
            else:
                if plan.link:
                    lines[-1] += " " + plan.link
                closest = g.members[:3]
                keys = [e.key for e in closest]
                listed = keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]
                shared = _shared_with_mine(closest, mine, usable)
                words = f"; shared words: {', '.join(shared)}" if shared else ""
                why = _no_position_reason(plan, _safe_name(mine.name), bool(shared))
                todo = f"TODO(citekit): contrast with {listed} (closest to {_safe_name(mine.name)}{words}; {why})"
                if fmt == "markdown":  # (a comment line under a paragraph is part of its text: listed at the end)
                    todos.append(style.comment(f"{_safe_name(g.heading)} \u2014 {todo}"))
                else:
                    lines.append(style.comment(todo))
        lines.append("")
    if todos:
        lines += [style.comment("for you, one line per paragraph above (its heading first): write how your work "
                                "differs into that paragraph, then delete these lines"), *todos, ""]
    body = "\n".join(lines).rstrip() + "\n"
    # the marker hashes everything below the header, so an edit anywhere in it is seen
    # (see :mod:`.drafts`): a regenerated draft never replaces the author's edited one
    header = f"{command} ({len(usable)} {noun}; generated from {source}, edit freely; {marker(body)})"
    return style.comment(header) + "\n" + body


def _with_means(said: str, group: _Group, style: _Style) -> str:
    """The opener (already in the target's text) with how its papers differ, when each names its own means
    (:func:`.related_openers.differing_means`): "Both papers address gestures: @A based on surface EMG sensors,
    @B using the body as an antenna." A reader asks a topic sentence for what the papers share and how they differ."""
    from citekit.output.related_openers import differing_means

    titles = group.spelled([e.title or "" for e in group.members])
    abstracts = group.spelled([abstract_prose(e) for e in group.members])
    means = differing_means(titles, abstracts, said, group.names)
    if not means or not said.endswith("."):
        return said
    # (a comma between them, as a reader lists them: "and" would read as part of the first means)
    return f"{said[:-1]}: " + ", ".join(f"{style.citet(e)} {style.text(m)}" for e, m in zip(group.members, means)) + "."


def _one_record_per_paper(entries: list[Entry]) -> tuple[list[Entry], list[tuple[str, str]]]:
    """The entries with one record per title, and ``(left-out key, kept key)`` for the others.

    Two records with the same title and first author are one paper to a reader ("WristFlex"
    cited twice, once as "present WristFlex, Low-power gesture input ..."; a conference paper
    and its journal version): the record with an abstract (else the first) is cited, the other
    named in a comment so the user can merge them.
    """
    by_title: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        # (and the same first author: "Introduction" by two people is two works)
        first = fold(_authors(e)[0]).lower() if _authors(e) else ""
        by_title.setdefault((_title_id(e), first), []).append(e)
    keep: set[str] = set()
    twins: list[tuple[str, str]] = []
    for same in by_title.values():
        best = next((e for e in same if abstract_of(e)), same[0])
        keep.add(best.key)
        twins += [(e.key, best.key) for e in same if e is not best]
    return [e for e in entries if e.key in keep], twins


def _title_id(entry: Entry) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fold(latex_to_text(entry.title or "")).lower())) or f"key:{entry.key}"


def _papers(entries: list[Entry]) -> int:
    """How many papers ``entries`` are: two records with one title are one paper (a topic sentence counts papers)."""
    return len({" ".join(re.findall(r"[a-z0-9]+", fold(e.title or e.key).lower())) or e.key for e in entries})


def _safe_name(name: str) -> str:
    return re.sub(r"[^\w.\-/ ]+", "_", name)[:80]
