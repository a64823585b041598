"""An entry as plain data, the form the parsed-library cache stores it in.

Compared as marshalled bytes to tell an entry unchanged since the load, decoded back
without the dataclass constructor."""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

from citekit.core.model import Entry, Ids, Location

STATE_FIELDS = ("entry_type", "fields", "status", "summary", "abstract", "tags_auto", "tags_added", "tags_removed",
                "aliases", "versions", "provenance", "generated", "hand", "origin", "reason", "key_provisional",
                "import_record", "conflicts")
_STATE_OF = operator.attrgetter(*STATE_FIELDS)


def entry_state(e: Entry) -> tuple[Any, ...]:
    """An entry as plain data (for the parsed-library cache and change detection)."""
    return _STATE_OF(e) + (e.ids.as_dict(), [(m.file, m.line) for m in e.mentions])


def entry_from_state(key: str, state: tuple[Any, ...]) -> Entry:
    """The inverse of :func:`entry_state`, without the dataclass constructor (a cached load
    builds thousands of entries; every field is set here, so none needs its default)."""
    n = len(STATE_FIELDS)
    entry = Entry.__new__(Entry)
    values = entry.__dict__
    values.update(zip(STATE_FIELDS, state))
    values["key"] = key
    ids = Ids.__new__(Ids)
    ids.__dict__.update(state[n])
    values["ids"] = ids
    values["mentions"] = [Location(f, line) for f, line in state[n + 1]]
    return entry


class StoredCache(NamedTuple):
    """What a library knows of the parsed-library cache it was read from or last stored."""

    fingerprint: tuple[Any, ...]
    keys: list[str]
    meta: dict[str, Any]
    all_texts: bool  # every entry's rendered texts are stored
    stat: Any  # the cache file's stat_key then (another process may replace it)
