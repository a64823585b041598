"""Every kind of value derived from the library and kept in the parsed-library cache.

A *kind* names a table of values derived from each entry (:meth:`Library.memo`,
:meth:`Library.memo_table`) or an answer derived from the whole library
(:meth:`Library.remembered`). Each name carries a version: bump it when what its compute
function returns changes shape, and the values stored under the old name are dropped (a
new ``family:version`` replaces the tables of its family). The compute functions stay
with the code that needs them (``api``, ``paper``, ...); only the names live here, so the
store need not import the layers above it, and a test (``tests/library/test_kinds.py``)
fails on a kind written as a string anywhere else.

Each constant says why it is kept and who computes it.
"""

from __future__ import annotations

#: the shape of :func:`citekit.api.library.entry_json` and of the list line; bump when
#: either changes: older stored values are dropped
JSON_SHAPE = 2

#: (status, effective tags) of each entry: what ``--tag``/``--status`` filters and
#: ``tags`` read (:meth:`citekit.library.store.Library.facets`)
FACETS = "facets:1"
#: each entry's search keys for the library index of a sync (:func:`citekit.library.fold`:
#: ``index_keys``), so a sync indexes only entries changed since
INDEX_KEYS = "index-keys"
#: each entry's description for key suggestions (:mod:`citekit.paper.cited`: ``descriptor``)
DESCRIPTOR = "descriptor"
#: each entry's facts for finding its published twin (:func:`citekit.paper.check.twin_facts`,
#: read by ``api.paper``'s check)
TWIN_FACTS = "twin-facts:1"
#: whether an entry exports as its own text alone, with no crossref parent (``api.export``)
EXPORT_PLAIN = "export-plain:2"
#: each entry's ``list --json`` row (:func:`citekit.api.library.entry_json`)
ENTRY_JSON = f"json:{JSON_SHAPE}"
#: the same row as indented JSON text in UTF-8 (``api.library``: ``list --json``)
ENTRY_JSON_UTF8 = f"json-utf8:{JSON_SHAPE}"
#: each entry's line in the plain ``list`` (``api.library``)
LIST_LINE = f"list-line:{JSON_SHAPE}"

#: each entry's words per ranked field, for the search index (:mod:`citekit.library.search.terms`)
SEARCH_TERMS = "search-terms:3"
#: each entry's key, authors, year and venue as the search filters read them
#: (``search``, ``list --author/--year/--venue/--key``)
SEARCH_FACTS = "search-facts:2"
#: the library's ranked text index, a large answer about the whole library kept in a file
#: of its own (``remembered_apart``; :mod:`citekit.library.search.index`)
SEARCH_INDEX = "search-index:3"
#: what a sync matches works against (identifiers, titles, abstract prints, URLs, where the
#: notes put each entry last time, rough-title words), a large answer kept apart too and
#: patched per changed entry (:mod:`citekit.library.match_index`)
MATCH_INDEX = "match-index:1"

#: prefixes of the kinds made per parameter (below)
EXPORT_TEXT_FAMILY = "export-utf8:"
RULE_TAGS_FAMILY = "rule-tags:"
PUBLISHED_TWIN_FAMILY = "published-twin:"
SETTLED_FAMILY = "settled:"


def export_text(ascii: bool) -> str:
    """Each entry's BibTeX export text in UTF-8 bytes, for one ``ascii`` choice (``api.export``)."""
    return f"{EXPORT_TEXT_FAMILY}{'ascii' if ascii else 'utf8'}"


def rule_tags(rules_digest: str) -> str:
    """The tags a set of tag rules gives each entry (``library.fold``); ``rules_digest``
    changes whenever the rules do, and a new digest drops the tables of the old ones."""
    return f"{RULE_TAGS_FAMILY}{rules_digest}"


def settled(rule_tags_kind: str) -> str:
    """Whether a sync that lands on no work of an entry leaves it as it is (its rule tags
    as they are, no notes mentions to clear): ``library.fold`` decodes only the entries
    this says it changes. Per set of tag rules, like :func:`rule_tags`."""
    return f"{SETTLED_FAMILY}{rule_tags_kind.split(':', 1)[1]}"


def published_twin(key: str) -> str:
    """The published twin found for one library entry (:func:`citekit.paper.check`'s
    ``remember``), an answer about the whole library kept until any entry changes."""
    return f"{PUBLISHED_TWIN_FAMILY}{key}"


#: every fixed kind, for the tests and for ``doctor``
FIXED = (FACETS, INDEX_KEYS, DESCRIPTOR, TWIN_FACTS, EXPORT_PLAIN, ENTRY_JSON, ENTRY_JSON_UTF8, LIST_LINE,
         SEARCH_TERMS, SEARCH_FACTS)
#: every family of kinds made per parameter
FAMILIES = (EXPORT_TEXT_FAMILY, RULE_TAGS_FAMILY, PUBLISHED_TWIN_FAMILY, SETTLED_FAMILY)
#: whether an entry's key is still provisional (``Entry.key_provisional``), so a whole-library
#: ``export`` finds the keys it freezes without decoding every entry (:mod:`citekit.library.freeze`)
PROVISIONAL = "provisional:1"
