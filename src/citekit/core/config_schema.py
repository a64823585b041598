"""What ``citekit.yaml`` may contain: one declarative table and a small validator.

The table is the single place that says which keys exist and what each holds, so a typo
(``sourcse:``) or a wrong type (``keys: 5``, ``bibtex: {ascii: maybe}``) is named with its
key path and what was expected, instead of being ignored or failing later in a traceback.
A key set to nothing (``tags:`` with only comments under it) means "not set".

Only the standard library is used: this runs on every command, so it must stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

# ---- value kinds ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """A leaf: a value of one of ``types``, within ``low`` (inclusive) or above ``above``."""

    name: str
    types: tuple[type, ...]
    low: float | None = None
    above: float | None = None
    choices: tuple[str, ...] = ()
    #: text whose ``{placeholders}`` must all be among these names (a key formula)
    placeholders: tuple[str, ...] = ()

    def problem(self, value: Any) -> str | None:
        if isinstance(value, bool) and bool not in self.types:
            return self.name
        if not isinstance(value, self.types):
            return self.name
        if self.choices and str(value).lower() not in self.choices:
            return self.name
        if self.low is not None and value < self.low:
            return self.name
        if self.above is not None and value <= self.above:
            return self.name
        if self.placeholders:
            import string

            try:
                names = {name for _, name, _, _ in string.Formatter().parse(value) if name}
            except ValueError:  # an unclosed "{"
                return self.name
            if names - set(self.placeholders):
                return self.name
        return None


@dataclass(frozen=True)
class ListOf:
    item: Kind
    name: str = ""

    def describe(self) -> str:
        return self.name or f"a list of {self.item.name}"


@dataclass(frozen=True)
class MapOf:
    """A mapping whose keys the user chooses (tag names, titles); each value is ``value``."""

    value: Any
    name: str


@dataclass(frozen=True)
class AnyOf:
    options: tuple[Any, ...]
    name: str


@dataclass(frozen=True)
class Section:
    """A mapping with fixed keys; ``example`` shows the right shape in messages."""

    keys: dict[str, Any] = field(default_factory=dict)
    example: str = ""
    #: what a key not in ``keys`` must hold (None: such a key is a mistake)
    others: Any = None


TEXT = Kind("text", (str,))
#: the placeholders a key formula may use (citekit.library.keys fills them)
KEY_PLACEHOLDERS = ("author", "authors", "year", "title", "title2", "venue")
FORMULA = Kind("a key formula using {" + "}, {".join(KEY_PLACEHOLDERS) + "}", (str,), placeholders=KEY_PLACEHOLDERS)
FLAG = Kind("true or false", (bool,))
NUMBER_POS = Kind("a number above 0", (int, float), above=0)
NUMBER_NONNEG = Kind("a number of at least 0", (int, float), low=0)
COUNT = Kind("a whole number of at least 0", (int,), low=0)
COUNT_POS = Kind("a whole number of at least 1", (int,), low=1)
ID_VALUE = Kind("an identifier (text)", (str, int, float))
ON_OFF = Kind("on or off", (bool, str, int), choices=("on", "off", "true", "false", "yes", "no", "0", "1"))

STAGES = ("published", "accepted", "preprint", "submitted", "rejected", "workshop", "notes")
PIN_SCHEMES = ("doi", "arxiv", "openreview", "dblp")
#: the configured folders that may lie outside the project when ``paths.outside_project`` names them
OUTSIDE_PROJECT = ("notes", "refs", "cache_dir")

_TEXT_OR_LIST = AnyOf((TEXT, ListOf(TEXT)), "a tag or a list of tags")
_KEYWORDS = AnyOf((TEXT, ListOf(TEXT)), "a keyword or a list of keywords / /regexes/")

#: ``sources.<host>``: one host of a source (its names are the sources registry's, which
#: this layer cannot import: they come in through :func:`schema`)
HOST = Section({"url": TEXT, "interval": NUMBER_NONNEG, "concurrency": COUNT_POS, "per_minute": NUMBER_POS,
                "max_mb": NUMBER_POS},
               example="{url: https://..., per_minute: 20}")


def schema(sources: Sequence[str] | None = None, hosts: Sequence[str] | None = None) -> Section:
    """The whole table, with the ``sources:`` names given by the layer that knows them
    (:func:`citekit.sources.registry.config_keys`). Without them, any ``sources.<name>``
    must only have the shape of a host and ``sources.enabled`` any names: what the core
    alone can check."""
    if sources is None:
        enabled = ListOf(TEXT, name="a list of source names")
    else:
        enabled = ListOf(Kind(f"one of {', '.join(sources)}", (str,), choices=tuple(sources)),
                         name=f"a list of source names ({', '.join(sources)})")
    section = Section({
        "mailto": TEXT,
        "enabled": enabled,
        "timeout": NUMBER_POS,
        "retries": COUNT,
        "deadline": NUMBER_POS,
        "rate_limits": ON_OFF,
        "cache_dir": TEXT,
        **{name: HOST for name in hosts or ()},
    }, example="{mailto: you@example.org, enabled: [openreview, crossref, dblp, arxiv]}",
        others=HOST if hosts is None else None)
    return Section({key: section if key == "sources" else spec for key, spec in _TABLE.items()})


#: every top-level key but ``sources`` (filled in by :func:`schema`), in the order messages list them
_TABLE: dict[str, Any] = {
    "paths": Section({"notes": TEXT, "refs": TEXT, "inbox": TEXT, "follow_symlinks_out_of_notes": FLAG, "outside_project": ListOf(
        Kind(f"one of {', '.join(OUTSIDE_PROJECT)}", (str,), choices=OUTSIDE_PROJECT),
        name=f"a list of the folders allowed outside the project ({', '.join(OUTSIDE_PROJECT)})")},
        example="{notes: notes, refs: refs}"),
    "keys": Section({"formula": FORMULA}, example='{formula: "{author}{year}{title}"}'),
    "sources": None,
    "resolve": Section({
        "precedence": ListOf(Kind(f"one of {', '.join(STAGES)}", (str,), choices=STAGES),
                             name=f"a list of stages, best first ({', '.join(STAGES)})"),
    }, example="{precedence: [published, accepted, preprint]}"),
    "bibtex": Section({"ascii": FLAG}, example="{ascii: false}"),
    "tags": MapOf(AnyOf((TEXT, ListOf(TEXT), Section({
        "match": _KEYWORDS, "extend": _KEYWORDS, "label": TEXT, "abstract_hits": COUNT_POS,
    }, example="{extend: [keyword], abstract_hits: 2}")), "a list of keywords or {match|extend: [...], label, abstract_hits}"),
        "a mapping of tag -> keywords, e.g. {muon: [Muon, Newton-Schulz]}"),
    "tags_defaults": FLAG,
    "tag_sections": MapOf(_TEXT_OR_LIST, 'a mapping of notes heading -> tag, e.g. {"Must read": must-read}'),
    "pins": MapOf(Section({s: ID_VALUE for s in PIN_SCHEMES}, example="{openreview: AbCdEfGhIj}"),
                  'a mapping of title -> identifiers, e.g. {"Paper title": {arxiv: "2602.22890"}}'),
    "related_work": Section({
        "groups": MapOf(_TEXT_OR_LIST, 'a mapping of paragraph name -> tags, e.g. {"Muon analysis": [theory]}'),
    }, example='{groups: {"Muon analysis": [theory]}}'),
}

#: the table without the sources' names (see :func:`schema`)
SCHEMA = schema()


# ---- the validator -------------------------------------------------------------------------


def validate(data: Any, schema: Any = SCHEMA) -> list[str]:
    """Every problem of ``data`` against ``schema``, as ``"key.path: what is wrong"`` lines."""
    problems: list[str] = []
    _check(data, schema, "", problems)
    return problems


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(spec: Any) -> str:
    if isinstance(spec, Kind):
        return spec.name
    if isinstance(spec, ListOf):
        return spec.describe()
    if isinstance(spec, (MapOf, AnyOf)):
        return spec.name
    if isinstance(spec, Section):
        return f"a mapping like {spec.example}" if spec.example else "a mapping"
    raise TypeError(spec)


def _fits(value: Any, spec: Any) -> bool:
    return not validate(value, spec)


def _check(value: Any, spec: Any, where: str, out: list[str]) -> None:
    label = where or "the top level"
    if value is None and where:
        return  # an empty key means "not set"
    if isinstance(spec, Kind):
        if spec.problem(value):
            out.append(f"{label}: expected {spec.name}, got {_shown(value)}")
    elif isinstance(spec, ListOf):
        if not isinstance(value, list):
            out.append(f"{label}: expected {spec.describe()}, got {_shown(value)}")
            return
        for i, item in enumerate(value):
            if item is None or spec.item.problem(item):
                out.append(f"{label}[{i}]: expected {spec.item.name}, got {_shown(item)}")
    elif isinstance(spec, AnyOf):
        if not any(_fits(value, option) for option in spec.options):
            # a mapping that is meant as the mapping option: report its inner problems
            inner = next((o for o in spec.options if isinstance(o, Section)), None)
            if inner is not None and isinstance(value, dict):
                _check(value, inner, where, out)
            else:
                out.append(f"{label}: expected {spec.name}, got {_shown(value)}")
    elif isinstance(spec, MapOf):
        if not isinstance(value, dict):
            out.append(f"{label}: expected {spec.name}, got {_shown(value)}")
            return
        for key, item in value.items():
            if item is not None:
                _check(item, spec.value, f"{where}.{key}" if where else str(key), out)
    elif isinstance(spec, Section):
        if not isinstance(value, dict):
            out.append(f"{label}: expected {_describe(spec)}, got {_shown(value)}")
            return
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if key not in spec.keys and spec.others is None:
                out.append(f"{path}: unknown key{_did_you_mean(str(key), spec.keys)}")
                continue
            _check(item, spec.keys.get(key, spec.others), path, out)
    else:  # pragma: no cover - a mistake in the table itself
        raise TypeError(f"unknown schema node {spec!r}")


def without_unset(data: Any, schema: Any = SCHEMA) -> Any:
    """``data`` without the keys of fixed sections left empty (``timeout:``), so that code
    reading a section sees "not set" as an absent key, never as None. Keys the user names
    (tags, pins, headings) keep an empty value: ``sam:`` there means "no keywords"."""
    if isinstance(schema, Section) and isinstance(data, dict):
        return {k: without_unset(v, schema.keys.get(k, schema.others)) for k, v in data.items() if v is not None}
    if isinstance(schema, MapOf) and isinstance(data, dict):
        return {k: without_unset(v, schema.value) for k, v in data.items()}
    if isinstance(schema, AnyOf) and isinstance(data, dict):
        inner = next((o for o in schema.options if isinstance(o, Section)), None)
        return without_unset(data, inner) if inner is not None else data
    return data


def _did_you_mean(key: str, known: dict[str, Any]) -> str:
    import difflib  # only for a misspelt key: 14 ms of start-up otherwise

    close = difflib.get_close_matches(key.lower(), list(known), n=1, cutoff=0.6)
    if close:
        return f" (did you mean '{close[0]}'?)"
    return f"; known keys here: {', '.join(known)}"
