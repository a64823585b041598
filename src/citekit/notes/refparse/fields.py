"""From labelled tokens to field values: joining wrapped words, trimming punctuation, ids."""

from __future__ import annotations

import re

from citekit.core.ids import ids_from_url, normalize_arxiv, normalize_doi
from citekit.core.model import Ids
from citekit.notes.authoryear import _ordinary_words
from citekit.notes.refparse.names import split_authors
from citekit.notes.refparse.result import ParsedReference
from citekit.notes.refparse.tokens import clean
from citekit.core.lazyre import lazy

_YEAR_RE = lazy(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_PAGES_RE = lazy(r"[A-Za-z]?\d+(?:\s*[-–—]+\s*[A-Za-z]?\d+)?")
_ARXIV_TEXT_RE = lazy(r"arxiv\s*[:.]?\s*(?:abs/)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
_OPEN = "\"“‘'«„《「『([{*_"
_CLOSE = "\"”’'»》」』)]}*_"
_LEADING_IN_RE = lazy(r"^(?:in|In|IN)\s*:?\s+")


#: words after a hyphen and a space that show the hyphen was written so (``pre- and
#: post-training``, ``first- or second-order``): the text is left as it is
_AFTER_SUSPENDED = frozenset(("and", "or", "to", "nor", "vs", "versus"))


def _broken_word(left: str, right: str) -> str | None:
    """How ``left-`` at a line end and ``right`` on the next line go back together: one word
    (``conver-`` ``gence``), a hyphenated compound (``machine-`` ``learning``, both halves
    words and their join none), or None (``pre-`` ``and``: the hyphen and space were written)."""
    a = "".join(c for c in left if c.isalpha()).lower()
    b = "".join(c for c in right if c.isalpha()).lower()
    if b in _AFTER_SUSPENDED:
        return None
    words = _ordinary_words()  # (words real bibliographies write in lower case)
    if (a + b) not in words and (a + b).rstrip("s") not in words and a in words and b in words and len(a) > 2:
        return left + "-" + right
    return left + right


def join_tokens(tokens: list[str]) -> str:
    """Tokens joined by spaces, with a word split at a line end put back together.

    ``representa- tions`` -> ``representations``; ``machine- learning`` ->
    ``machine-learning`` (the halves are words and their join is none);
    ``Martin- Facklam`` -> ``Martin-Facklam`` (the next part starts with a capital: the
    hyphen was the name's own).
    """
    out = ""
    for raw in tokens:
        tok = clean(raw)
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and tok[:1].isalpha() and not out.endswith(" -"):
            if tok[0].islower() and out[-2].islower():
                head, _, left = out[:-1].rpartition(" ")
                joined = _broken_word(left, tok)
                out = f"{out} {tok}" if joined is None else (f"{head} {joined}" if head else joined)
            else:
                out = out + tok
        else:
            out = f"{out} {tok}" if out else tok
    return out


#: a word cut at a line end and joined back with a space: ``conver- gence``
_BROKEN_RE = lazy(r"(?<![^\W\d_])([^\W\d_]*[^\W\d_A-Z])- ([^\W\d_A-Z][^\W\d_]*)")  # (``high-perfor- mance``: the last part of a compound)


def rejoin_broken_words(text: str) -> str:
    """``Some methods of speeding up the conver- gence`` -> ``... the convergence``: the words a
    PDF's line ends cut in two, put back (see :func:`join_tokens`)."""
    if "- " not in text:
        return text
    return _BROKEN_RE.sub(lambda m: _broken_word(m.group(1), m.group(2)) or m.group(0), text)


def trim(text: str) -> str:
    """Surrounding quotes, brackets and trailing punctuation off a field value."""
    text = text.strip()
    for _ in range(3):
        before = text
        text = text.strip(" ,;:/")
        if text.endswith(".") and not re.search(r"(?:\b[A-Z]|\b(?:al|etc|Proc|Conf|Int|J|Vol|No|pp))\.$", text):
            text = text[:-1]
        if text[:1] in _OPEN and (text[-1:] in _CLOSE or not any(c in text[1:] for c in _CLOSE)):
            text = text[1:]
        if text[-1:] in _CLOSE and not any(c in text[:-1] for c in _OPEN if c not in "'"):
            text = text[:-1]
        if text == before:
            break
    return text.strip()


#: a given name as the model reads it at a title's end: one capitalised word, nothing after it
_GIVEN_NAME_RE = lazy(r"^[A-Z][a-z]+(?:-[A-Z][a-z]+)?$")
#: a family name that ends a person before the next one (``He,``): one capitalised word, a comma
_FAMILY_ENDS_RE = lazy(r"^[A-Z][\w'’\-]*,$")


def given_name_out_of_title(tokens: list[str], labels: list[str]) -> list[str]:
    """``labels`` with the first author's given name moved back out of the title, where the
    model read it there: ``… for Image Recognition. Kaiming | He, Xiangyu Zhang, …``. The
    title's last sentence is then that one word, right after the title's own full stop, and
    the author list opens on a family name alone though the next author is written given
    name first: the word is the first author's given name (a title never ends on a
    sentence of one name)."""
    if "title" not in labels or "author" not in labels:
        return labels
    last = max(i for i, label in enumerate(labels) if label == "title")
    if (last < 2 or last + 2 >= len(tokens) or labels[last + 1] != "author" or labels[last + 2] != "author"
            or not tokens[last - 1].endswith(".") or not _GIVEN_NAME_RE.match(tokens[last])
            or not _FAMILY_ENDS_RE.match(tokens[last + 1]) or not _GIVEN_NAME_RE.match(tokens[last + 2].rstrip("."))
            or tokens[last + 2].endswith((",", "."))):
        return labels
    return [*labels[:last], "author", *labels[last + 1:]]


#: one person of an author list as written: given names or initials, then the family name
_PERSON_PART_RE = lazy(r"(?:[A-Z][\w'’\-]*\.?\s){1,3}[A-Z][\w'’\-]+")
_LIST_SPLIT_RE = lazy(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
#: the most tokens the model may read as something else inside one author list
_MOST_INSIDE = 8


def names_inside_authors(tokens: list[str], labels: list[str]) -> list[str]:
    """``labels`` with the names the model read as something else inside the author list
    (short names it did not know, ``…, Brian Ichter, | Fei Xia, | Ed Chi, Quoc V Le, and |
    Denny Zhou.``) read as authors: the text from the first author token to the last is a
    list of people, each written given name first, so all of it is the author list."""
    at = [i for i, label in enumerate(labels) if label == "author"]
    if len(at) < 2:
        return labels
    first, last = at[0], at[-1]
    inside = [i for i in range(first, last + 1) if labels[i] != "author"]
    if not inside or len(inside) > _MOST_INSIDE:
        return labels
    parts = [part for part in _LIST_SPLIT_RE.split(" ".join(tokens[first:last + 1]).rstrip(".,;")) if part]
    if len(parts) < 2 or not all(_PERSON_PART_RE.fullmatch(part) for part in parts):
        return labels
    return [*labels[:first], *["author"] * (last + 1 - first), *labels[last + 1:]]


def title_inside_container(labels: list[str]) -> list[str]:
    """``labels`` with a second run of title tokens that the model read after the container
    began (``In Proceedings of …, Volume 1 | (Long and Short Papers), | pages …``) read as the
    container's: a reference has one title, and it comes before where it was published."""
    if "title" not in labels or "container" not in labels:
        return labels
    first_end = next(i for i in range(labels.index("title"), len(labels) + 1)
                     if i == len(labels) or labels[i] != "title")
    container = next((i for i in range(first_end, len(labels)) if labels[i] == "container"), None)
    if container is None or "title" not in labels[container:]:
        return labels
    return [*labels[:container], *["container" if label == "title" else label for label in labels[container:]]]


def _runs(tokens: list[str], labels: list[str], probs: list[float]) -> dict[str, tuple[list[str], list[float]]]:
    out: dict[str, tuple[list[str], list[float]]] = {}
    for tok, lab, p in zip(tokens, labels, probs):
        toks, ps = out.setdefault(lab, ([], []))
        toks.append(tok)
        ps.append(p)
    return out


def identifiers(text: str, url_tokens: list[str]) -> Ids:
    """DOI and arXiv id written anywhere in the reference, and what its URLs name."""
    ids = Ids()
    for tok in text.split():
        if "10." in tok and not ids.doi:
            ids.doi = normalize_doi(tok)
    m = _ARXIV_TEXT_RE.search(text)
    if m:
        ids.arxiv = normalize_arxiv(m.group(1))
    for tok in url_tokens:
        ids = ids.merged(ids_from_url(tok.strip("<>.,;()")))
    return ids


def assemble(text: str, tokens: list[str], labels: list[str], probs: list[float]) -> ParsedReference:
    """A :class:`ParsedReference` from one labelled sequence."""
    runs = _runs(tokens, labels, probs)
    ref = ParsedReference(text=text, tokens=list(tokens), labels=list(labels))
    ref.confidence = {lab: round(sum(ps) / len(ps), 4) for lab, (_, ps) in runs.items() if lab != "other"}

    def value(label: str) -> str | None:
        if label not in runs:
            return None
        v = trim(join_tokens(runs[label][0]))
        return v or None

    ref.title = value("title")
    if ref.title:
        ref.title = re.sub(r"^\\newblock\s*", "", ref.title)
    container = value("container")
    if container:
        container = trim(_LEADING_IN_RE.sub("", container))
    ref.container = container or None
    if "author" in runs:
        ref.authors, ref.authors_incomplete = split_authors(join_tokens(runs["author"][0]))
    ref.date = value("date")
    years = _YEAR_RE.findall(ref.date or "") or ([] if ref.date else _YEAR_RE.findall(" ".join(
        t for t, lab in zip(tokens, labels) if lab not in ("title", "identifier", "url", "pages", "volume"))))
    ref.year = int(years[0]) if years else None
    ref.volume = value("volume")
    pages = value("pages")
    if pages:
        m = _PAGES_RE.search(pages)
        pages = re.sub(r"\s*[-–—]+\s*", "–", m.group()) if m else pages
    ref.pages = pages
    url_tokens = runs.get("url", ([], []))[0]
    ref.url = next((trim(t).strip("<>") for t in url_tokens if re.match(r"(?:https?://|www\.)", trim(t), re.I)), None)
    ref.identifiers = identifiers(clean(text), url_tokens)
    ref.note = value("note")
    return ref
