"""The search query language: words, ``"quoted phrases"`` and ``field:value`` filters.

``author:islamov year:2024..2026 tag:muon "spectral sphere" optimizer`` means: by an
author named Islamov, from 2024 to 2026, tagged muon, with the phrase and the word in
its title, abstract or venue. Everything given must hold (AND). A value may be quoted
(``author:"rustem islamov"``). A word with an unknown ``field:`` prefix is a word.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citekit.core.errors import UsageError
from citekit.core.lazyre import lazy

#: the filter fields a query (and ``citekit list``) knows
FIELDS = ("author", "year", "tag", "status", "venue", "key")

_TOKEN_RE = lazy(r'(?:(?P<field>[A-Za-z]+):)?(?:"(?P<quoted>[^"]*)"?|(?P<bare>\S+))')
_YEARS_RE = lazy(r"^(?P<lo>\d{4})?(?:(?P<dots>\.\.|-)(?P<hi>\d{4})?)?$")


class QueryError(UsageError):
    """A filter value that cannot be read (``year:20x4``)."""

    NEXT_STEP = "See `citekit search -h` for the query language."


@dataclass
class Filters:
    """What an entry must be to be listed; every list is ANDed (empty: no condition)."""

    authors: list[str] = field(default_factory=list)
    years: list[tuple[int | None, int | None]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    any_tag: bool = False
    statuses: list[str] = field(default_factory=list)
    venues: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.authors or self.years or self.tags or self.statuses or self.venues or self.keys)

    def needs_facts(self) -> bool:
        """Whether a filter reads the entries' search facts (not only status and tags)."""
        return bool(self.authors or self.years or self.venues or self.keys)


@dataclass
class Query:
    """A parsed query: free words, phrases (each a list of words), and filters."""

    text: str
    words: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    filters: Filters = field(default_factory=Filters)

    def has_text(self) -> bool:
        return bool(self.words or self.phrases)


def parse_years(value: str) -> tuple[int | None, int | None]:
    """``2024`` -> (2024, 2024); ``2024..2026``; ``2024..`` (from); ``..2026`` (until)."""
    m = _YEARS_RE.match(value.strip())
    if not value.strip() or not m or (m.group("lo") is None and m.group("hi") is None):
        raise QueryError(f"year:{value} is not a year or a range; write year:2024, year:2024..2026, "
                         "year:2024.. or year:..2026.")
    lo = int(m.group("lo")) if m.group("lo") else None
    hi = int(m.group("hi")) if m.group("hi") else None
    if not m.group("dots"):
        hi = lo
    if lo is not None and hi is not None and lo > hi:
        raise QueryError(f"year:{value} runs backwards; write year:{hi}..{lo}.")
    return lo, hi


#: prefixes that start an identifier, not a filter ("arxiv:2101.03961", "doi:10.1145/...")
_ID_PREFIXES = frozenset({"arxiv", "doi", "http", "https", "isbn", "issn", "pmid", "dblp"})


def _unknown_filter(name: str) -> QueryError | None:
    """A word before a colon that looks like a filter but is none ("tags:", "venu:"): an error that
    names the filters, since searching it as a word only ever says "nothing matches"."""
    import difflib

    if not name.isalpha() or not name.islower() or name in _ID_PREFIXES or len(name) > 12:
        return None
    close = difflib.get_close_matches(name, FIELDS, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}:?)" if close else ""
    return QueryError(f"unknown filter '{name}:'{hint}; the filters are {', '.join(f + ':' for f in FIELDS)}. "
                      f"To search the text '{name}:' put it in quotes.")


_EXAMPLES = {"author": "islamov", "year": "2024..2026", "tag": "muon", "status": "resolved", "venue": "icml",
             "key": "foret2021sam"}


def parse_query(text: str) -> Query:
    """Read a query; free text keeps its words and phrases as typed (folded later)."""
    query = Query(text=text)
    f = query.filters
    for m in _TOKEN_RE.finditer(text):
        name = (m.group("field") or "").lower()
        quoted = m.group("quoted")
        value = quoted if quoted is not None else m.group("bare") or ""
        if name and name not in FIELDS:  # "arXiv:2101.03961", "e.g.:" — a word, not a filter
            if (error := _unknown_filter(m.group("field"))) is not None:
                raise error
            value, name = f"{m.group('field')}:{value}", ""
        if not name:
            if quoted is not None:
                if quoted.strip():
                    query.phrases.append(quoted.strip())
            elif value:
                if value.endswith(":") and value[:-1].lower() in FIELDS:  # "author:" with nothing after it
                    raise QueryError(f"{value} needs a value, e.g. {value}{_EXAMPLES[value[:-1].lower()]}.")
                query.words.append(value)
            continue
        value = value.strip()
        if not value:
            raise QueryError(f"{name}: needs a value, e.g. {name}:{_EXAMPLES.get(name, 'x')}.")
        if name == "author":
            f.authors.append(value)
        elif name == "year":
            f.years.append(parse_years(value))
        elif name == "tag":
            f.tags.append(value)
        elif name == "status":
            f.statuses.append(value.lower())
        elif name == "venue":
            f.venues.append(value)
        elif name == "key":
            f.keys.append(value)
    return query
