"""Searching the library: a query language (words, phrases, ``field:value`` filters) over
a ranked text index.

:mod:`.query` reads a query, :mod:`.terms` turns an entry's text into index terms and
facts, :mod:`.filters` keeps the entries a set of filters allows (``citekit list`` uses
the same code), and :mod:`.index` ranks with BM25 over title, abstract, venue and authors.
Everything derived from entries is remembered in the parsed-library cache, so a search
of a large library parses nothing.
"""

from __future__ import annotations

from citekit.library.search.filters import filter_keys
from citekit.library.search.index import Hit, search
from citekit.library.search.pending import search_pending
from citekit.library.search.query import Filters, Query, QueryError, parse_query, parse_years

__all__ = ["Filters", "Hit", "Query", "QueryError", "filter_keys", "parse_query", "parse_years", "search",
           "search_pending"]
