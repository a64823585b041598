"""An entry's text as search terms, and the facts the filters read.

Text goes through the project's one LaTeX-to-text converter
(:func:`citekit.core.text.latex_to_text`), then accents and case are folded
(:func:`citekit.core.text.fold`: ``Horv{\\'a}th`` and ``Horváth`` both give ``horvath``),
then it is cut into words, each lightly stemmed (a plural ``s`` goes), so that a query
word meets the word however the entry wrote it. Query words go through the same
functions, so both sides always agree.
"""

from __future__ import annotations

from functools import lru_cache
from citekit.core.model import Entry
from citekit.core.names import is_et_al, split_bibtex_names
from citekit.core.text import STOPWORDS, fold, latex_to_text
from citekit.core.venues import short_from_long
from citekit.core.lazyre import lazy

_WORD_RE = lazy(r"\w+")
#: endings after which a final ``s`` is no plural (``loss``, ``focus``, ``analysis``)
_NOT_PLURAL = ("ss", "us", "is")

#: the fields ranked, in the order their terms are kept
FIELDS = ("title", "abstract", "venue", "authors")


def stem(word: str) -> str:
    """``optimizers`` -> ``optimizer``, ``studies`` -> ``study``; short words stay."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(_NOT_PLURAL) and not word.isdigit():
        return word[:-1]
    return word


#: a word's stem, remembered: a library's vocabulary is small beside its running text
_stemmed = lru_cache(maxsize=1 << 18)(stem)


def words(text: str, *, latex: bool = True) -> list[str]:
    """The folded, stemmed words of ``text`` in order (``latex``: convert LaTeX first)."""
    if not text:
        return []
    plain = latex_to_text(text, matching=True) if latex else text
    return list(map(_stemmed, _WORD_RE.findall(fold(plain).replace("_", " "))))


def query_words(text: str) -> list[str]:
    """The words of a query's free text, without the words too common to rank."""
    return [w for w in words(text, latex=False) if w not in STOPWORDS] or words(text, latex=False)


def venue_of(entry: Entry) -> str:
    """The entry's venue as written: proceedings, journal, or where it was published."""
    f = entry.fields
    return f.get("booktitle") or f.get("journal") or f.get("journaltitle") or f.get("howpublished") or ""


def entry_texts(entry: Entry) -> tuple[str, str, str, str]:
    """The entry's text of each ranked field (:data:`FIELDS`) as written: the author list whole."""
    abstract = entry.abstract or entry.fields.get("abstract", "")
    if entry.summary:  # the user's own words about the paper (from the notes) are searched with the abstract
        abstract = f"{abstract} {entry.summary}" if abstract else entry.summary
    return (entry.title, abstract, venue_of(entry), entry.fields.get("author", ""))


def entry_terms(entry: Entry) -> list[str]:
    """The entry's words per ranked field (:data:`FIELDS`), each field one space-joined
    string in text order: compact to remember, and phrases are found in it. The notes'
    summary of a paper counts as abstract text: a user searches what they wrote."""
    title, abstract, venue, author = entry_texts(entry)
    names = [name for name in split_bibtex_names(author) if not is_et_al(name)]
    return [" ".join(words(title)), " ".join(words(abstract)), " ".join(words(venue)),
            " ".join(w for name in names for w in words(name))]


def entry_facts(entry: Entry) -> tuple[str, str, int | None, str]:
    """What the filters read of an entry, as a few strings (a large library's facts load in
    milliseconds, and a word is found in them by a substring test in C):
    ``" key alias "`` folded, ``"| islamov rustem | ajroldi niccolo |"`` (each author's
    words between bars), the year, and ``" the venue words icml "`` with the venue's short
    name (``icml`` for the International Conference on Machine Learning)."""
    authors = [" ".join(words(name)) for name in split_bibtex_names(entry.fields.get("author", "")) if not is_et_al(name)]
    venue = venue_of(entry)
    venue_words = words(venue)
    short = short_from_long(latex_to_text(venue, matching=True)) if venue else None
    if short:
        venue_words.append(fold(short))
    keys = " ".join([entry.key.lower(), *(a.lower() for a in entry.aliases)])
    return (f" {keys} ", "| " + " | ".join(a for a in authors if a) + " |" if any(authors) else "", entry.year,
            f" {' '.join(dict.fromkeys(venue_words))} ")
