"""One entry's sidecar record: the entry as a record and back, and the record's text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from citekit.core.model import Entry, Ids, Location
from citekit.library.store.reconcile import HASH_MARK, by_hash, hex_digest
from citekit.library.store.sidecar.format import yaml_codec


def to_sidecar(e: Entry, ascii: bool = False) -> dict[str, Any]:
    # an imported entry is written as every citekit version reads it (origin import, status
    # notes-only) and read back as imported (see _status): a library read and written again
    # stays byte for byte the same, and older versions read it unchanged
    status = "notes-only" if e.status == "imported" and e.origin == "import" else e.status
    out: dict[str, Any] = {"status": status, "origin": e.origin}
    # only what is there: an unknown id, an empty tag list and no mentions read back alike
    ids = {scheme: value for scheme, value in e.ids.as_dict().items() if value is not None}
    if ids:
        out["ids"] = ids
    if e.tags_added or e.tags_auto or e.tags_removed:
        out["tags"] = {name: sorted(values) for name, values in
                       (("added", e.tags_added), ("auto", e.tags_auto), ("removed", e.tags_removed)) if values}
    if e.mentions:
        out["mentions"] = [str(m) for m in e.mentions]
    kept: dict[str, str] = {}
    hashed: dict[str, str] = {}
    for k, v in sorted(e.generated.items()):
        if by_hash(k, v, ascii):
            hashed[k] = hex_digest(v)  # (as reconcile.digest: a value kept by hash has no runs of spaces)
        else:
            kept[k] = v
    out["generated"] = kept
    if hashed:
        out["generated_hash"] = hashed
    # the optional parts, when not empty
    if e.summary:
        out["summary"] = e.summary
    if e.abstract:
        out["abstract"] = e.abstract
    if e.aliases:
        out["aliases"] = sorted(e.aliases)
    if e.versions:
        out["versions"] = e.versions
    if e.provenance:
        out["provenance"] = dict(sorted(e.provenance.items()))
    if e.hand:
        out["hand"] = sorted(e.hand)
    if e.reason:
        out["reason"] = e.reason
    if e.key_provisional:
        out["key_provisional"] = True  # only on provisional entries: a record without it is frozen
    if e.import_record:
        out["import_record"] = e.import_record
    if e.conflicts:
        out["conflicts"] = dict(sorted(e.conflicts.items()))
    return out


def sidecar_blocks() -> Callable[[str, dict[str, Any]], str]:
    """A writer of entries' blocks of the sidecar, indented under ``entries:`` (``meta``:
    an entry's :func:`to_sidecar`): a JSON line per part where YAML reads that back as the
    same data (:mod:`.json`), else YAML's block style. Made once for all blocks."""
    from citekit.library.store.sidecar.json import quoted_key, record_text
    from citekit.library.store.sidecar.yaml import dumper_of, simple_keys

    dumper = yaml_codec()[2]
    dump, key_text = dumper_of(dumper), simple_keys(dumper)[0]

    def block_of(key: str, meta: dict[str, Any]) -> str:
        text = key_text(key)
        block = record_text(quoted_key(key) if text is None else text, meta)
        return block if block is not None else dump({key: meta}, 2)

    return block_of


def from_sidecar(key: str, meta: dict[str, Any]) -> Entry:
    entry = Entry.__new__(Entry)  # every field is set: no dataclass defaults needed
    entry.__dict__.update(key=key, entry_type="misc", fields={}, **sidecar_values(meta))
    return entry


def sidecar_values(meta: dict[str, Any]) -> dict[str, Any]:
    """What an entry's sidecar record gives (all of :class:`Entry` but its key, type and
    fields): the one reading of a record, for loads and for the read-back after a write."""
    tags = meta.get("tags") or {}
    mentions = []
    for m in meta.get("mentions") or []:
        file, _, line = str(m).rpartition(":")
        mentions.append(Location(file=file, line=int(line) if line.isdigit() else 0))
    return {
        "ids": Ids.from_dict(meta.get("ids")),
        "status": _status(meta),
        "summary": meta.get("summary"),
        "abstract": meta.get("abstract"),
        "tags_auto": list(tags.get("auto") or []),
        "tags_added": list(tags.get("added") or []),
        "tags_removed": list(tags.get("removed") or []),
        "mentions": mentions,
        "aliases": list(meta.get("aliases") or []),
        "versions": list(meta.get("versions") or []),
        "provenance": dict(meta.get("provenance") or {}),
        "generated": {**{str(k): str(v) for k, v in (meta.get("generated") or {}).items()},
                      **{str(k): HASH_MARK + str(v) for k, v in (meta.get("generated_hash") or {}).items()}},
        "hand": list(meta.get("hand") or []),
        "origin": str(meta.get("origin") or "notes"),
        "reason": str(meta.get("reason") or ""),
        "key_provisional": meta.get("key_provisional") is True,
        "import_record": dict(meta.get("import_record") or {}),
        "conflicts": {str(k): str(v) for k, v in (meta.get("conflicts") or {}).items()},
    }


def _status(meta: dict[str, Any]) -> str:
    """An entry's status; an imported entry not confirmed online yet (origin ``import``,
    status ``notes-only`` on disk, as every version wrote it) reads as ``imported``."""
    status = str(meta.get("status") or "notes-only")
    if status == "notes-only" and meta.get("origin") == "import":
        return "imported"
    return status
