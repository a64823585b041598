"""An entry's text in library.bib and its block in the sidecar.

The entry is then made what the next read of both files gives back.

Entries are written sorted by key with fields in a fixed order, so an unchanged library is
rewritten byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from citekit.core.model import Entry
from citekit.library.store.reconcile import DERIVED_FIELDS, TYPE_MARK, same_value
from citekit.library.store.sidecar.records import sidecar_values, to_sidecar


def render_changed(entry: Entry, ascii: bool, block_of: Callable[[str, dict[str, Any]], str]) -> tuple[str, str]:
    """An entry's texts in ``library.bib`` and in the sidecar, and the entry made what the
    next read of both gives back (what a render does for an entry that changed since the
    load: every entry of an import, every entry of a library read without the cache)."""
    from citekit.bibtex.writer import cleaned_value, fields_as_written, with_ordered_field, written_text

    as_the_file_names_it(entry)
    # as written_entry() makes them: the own fields (names already as the file writes
    # them and in its order, just above) and the derived ones, each put in its place
    fields = dict(entry.fields)
    ordered = list(fields.items())
    keep_empty = entry.origin != "notes"
    for name, value in derived_fields(entry).items():
        fields[name] = value
        with_ordered_field(ordered, name, value, keep_empty=keep_empty)
    generated = {**fields, TYPE_MARK: entry.entry_type}
    written = fields_as_written(entry.key, ordered, ascii=ascii)
    for name, value, held, macro in written:
        if not macro and held != value and not same_value(value, held):
            # made safe on the way out (unbalanced braces): what the file holds is what
            # citekit wrote, so the next read sees no hand edit in it
            generated[name] = cleaned_value(value)
    entry.generated = generated
    meta = to_sidecar(entry, ascii)
    rendered = (written_text(entry.key, entry.entry_type, written) + "\n", block_of(entry.key, meta))
    _keep_as_read_back(entry, generated, meta, written)
    return rendered


def as_the_file_names_it(entry: Entry) -> None:
    """Type and field names as ``library.bib`` writes them (lower case, trimmed, fields in
    the file's order, derived fields left to the tags and aliases they come from), before
    the entry is written: what citekit records as written is then what the next read
    finds, and writing again after that read changes nothing."""
    from citekit.bibtex.writer import ordered_fields

    entry.entry_type = entry.entry_type.strip().lower()
    own = entry.fields
    if any(k.strip().lower() in DERIVED_FIELDS for k in own):
        own = {k: v for k, v in own.items() if k.strip().lower() not in DERIVED_FIELDS}
    named = dict(ordered_fields(own, keep_empty=entry.origin != "notes"))
    if named != entry.fields or list(named) != list(entry.fields):
        entry.fields = named


def _keep_as_read_back(entry: Entry, generated: dict[str, str], meta: dict[str, Any],
                       written: list[tuple[str, str, str, bool]]) -> None:
    """Make ``entry`` (just written, remembering ``generated``) what the next read of both files builds:
    the sidecar's view through the same conversion a load applies (sorted lists, hashed
    copies, mappings in key order as YAML writes them) and the fields as
    :func:`_as_read_back` gives them. The object itself is kept: callers hold it."""
    # only the versions' records can hold mappings in another order than YAML's:
    # to_sidecar already sorts the rest, and ids are read by name
    values = sidecar_values({**meta, "versions": _yaml_order(meta["versions"])} if "versions" in meta else meta)
    values["entry_type"] = entry.entry_type.strip().lower()
    values["fields"] = _as_read_back(generated, written, meta.get("generated_hash") or {})
    entry.__dict__.update(values)


def _yaml_order(value: Any) -> Any:
    """Mappings with their keys sorted at every depth, as the sidecar's YAML holds them."""
    if isinstance(value, dict):
        return {k: _yaml_order(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_yaml_order(v) for v in value]
    return value


def _as_read_back(generated: Mapping[str, str], written: list[tuple[str, str, str, bool]],
                  hashed: Collection[str]) -> dict[str, str]:
    """The fields a read of ``library.bib`` gives back for an entry written remembering
    ``generated`` (see :func:`.reconcile.absorb_bib`): names in lower case and in the file's order, derived fields
    left out, and a value the file spells otherwise (a month macro, an escaped or cleaned
    value) as the file spells it unless the sidecar's copy stands for it. The entry keeps
    these after a write, so what the cache holds equals what the next read would build,
    and every command prints the same whether or not it was read from the cache.
    ``hashed``: the fields the sidecar keeps only a hash of (its ``generated_hash``)."""
    fields: dict[str, str] = {}
    for name, _value, held, _macro in written:
        if name in DERIVED_FIELDS:
            continue
        own = generated.get(name)
        keep = own is not None and name not in hashed and (own == held or same_value(own, held))
        fields[name] = own if keep else held
    return fields


def written_entry(entry: Entry) -> Entry:
    """The entry as it goes into ``library.bib``: stored fields plus derived ones.

    ``keywords`` comes from the tags (:attr:`Entry.keyword_tags`) and ``ids`` from the aliases, so tags and
    old keys are visible to BibTeX users and to biblatex (which resolves ``ids``).
    """
    fields = {k: v for k, v in entry.fields.items() if k not in DERIVED_FIELDS}
    fields.update(derived_fields(entry))
    out = Entry(key=entry.key, entry_type=entry.entry_type, fields=fields, origin=entry.origin)
    out.aliases = list(entry.aliases)
    return out


def derived_fields(entry: Entry) -> dict[str, str]:
    """``keywords`` from the effective tags and ``ids`` from the aliases (as the file will
    hold them), when there are any."""
    from citekit.bibtex.writer import alias_value

    derived = {}
    tags = entry.keyword_tags
    if tags:
        derived["keywords"] = ", ".join(tags)
    if entry.aliases:
        derived["ids"] = alias_value(sorted(entry.aliases))
    return derived
