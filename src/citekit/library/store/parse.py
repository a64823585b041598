"""Both files' bytes as a library.

library.bib's entries and kept text, each entry joined with its sidecar record, hand edits
found (:mod:`.reconcile`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citekit.core.config import display_path
from citekit.library.store.files import SplitPair
from citekit.library.store.header import checksum_ok, stated_checksum, written_by_citekit
from citekit.library.store.kept import kept_texts
from citekit.library.store.reconcile import absorb_bib, check_records_cover, manual_entry
from citekit.library.store.sidecar import document
from citekit.library.store.sidecar.records import from_sidecar
from citekit.library.store.written import as_written

if TYPE_CHECKING:
    from citekit.core.model import Entry


def parse_into(lib: Any, bib_data: bytes | None, side_data: bytes | None, *, remember: bool = False) -> None:
    """Fill the new library ``lib`` (a :class:`.library.PlainLibrary`) from both files' bytes (``remember``: keep what each
    sidecar record's text gave in the project's cache folder, so the next parse loads
    only new ones). A pair not written together raises :class:`.files.SplitPair`."""
    from citekit.bibtex.reader import Problem, decode_bytes, encoding_problems, parse_bib_text

    bib_text = decode_bytes(bib_data)[0] if bib_data is not None else None
    sidecar = document.parse(side_data, bib_text, lib.sidecar_path, lib.bib_path,
                             remember=lib.refs_dir if remember else None)
    side_entries: dict[str, dict[str, Any]] = sidecar.get("entries") or {}
    lib.issued_keys = set(sidecar.get("issued_keys") or [])
    lib.pending = list(sidecar.get("pending") or [])
    lib.ascii = bool(sidecar.get("ascii", False))
    claimed: set[str] = set()  # records of entries renamed by hand (now under their new keys)
    detached_records: dict[str, dict[str, Any]] = sidecar.get("detached") or {}
    if bib_data is not None and bib_text is not None:
        text = bib_text
        name = display_path(lib.bib_path)
        lib.problems.extend(encoding_problems(bib_data, name))
        parsed = parse_bib_text(text, name, between=True)
        lib.problems.extend(parsed.problems)
        lib.preamble = parsed.preamble
        lib.unparsed = list(parsed.unparsed)
        # (the checksum line of a file an earlier version wrote, else what .citekit/ remembers)
        bib_same, side_same = as_written(lib.refs_dir, bib_data, side_data)
        untouched = checksum_ok(text) or bib_same
        seen_lower: dict[str, str] = {}
        gaps: dict[str, str] = {}
        carried = ""  # the text above an entry kept as text: it joins the next one's
        unknown: dict[str, Any] = {}  # key -> bib entry, for entries with no sidecar record
        for bib_entry, raw, gap in zip(parsed.entries, parsed.raws, parsed.between):
            lower = bib_entry.key.lower()
            if lower in seen_lower:
                # BibTeX keys ignore case: a second 'Key' beside 'key' is a duplicate
                lib.problems.append(Problem(name, None, f"key '{bib_entry.key}' differs from '{seen_lower[lower]}' only in case, "
                                            "which BibTeX treats as the same key; it is kept as text: rename it"))
                lib.unparsed.append(raw.strip())
                carried += gap
                continue
            seen_lower[lower] = bib_entry.key
            gaps[bib_entry.key] = carried + gap
            carried = ""
            # a record detached while the entry could not be read (a typo in library.bib) is
            # its own again once the entry is fixed: status, origin and what citekit wrote kept
            meta = side_entries.get(bib_entry.key) or detached_records.get(bib_entry.key)
            entry = from_sidecar(bib_entry.key, meta) if meta else manual_entry(bib_entry)
            if meta and bib_same and not side_same and not _written_with(entry, bib_entry):
                raise SplitPair(
                    f"{name} and {display_path(lib.sidecar_path)} are not from the same write: library.bib is "
                    f"as citekit last wrote it, but the record of '{entry.key}' in the sidecar says other fields "
                    "were written (one file was restored or copied without the other). Restore both from the "
                    "same version (e.g. `git checkout -- refs/`), or run `citekit doctor` to see what differs")
            absorb_bib(entry, bib_entry, managed=meta is not None, untouched=untouched)
            lib.entries[entry.key] = entry
            if not meta:
                unknown[entry.key] = bib_entry
        if unknown and not untouched:
            claimed = _hand_renames(lib, unknown, side_entries, sidecar.get("detached") or {})
        lib.kept_head, lib.kept_before, lib.kept_tail = kept_texts(list(gaps.items()), carried + parsed.after)
        if untouched and (bib_same or sidecar.get("bib_checksum")
                          and sidecar.get("bib_checksum") == stated_checksum(text)) or (
                not side_entries and lib.entries and written_by_citekit(text)
                and all(_as_citekit_lays_out(raw) for raw in parsed.raws)):
            # (the second case: a clone has no record of the last write, but a sidecar with no
            # record at all beside entries citekit laid out lost them all; pasted entries differ)
            check_records_cover(lib.entries, {**detached_records, **side_entries}, lib.bib_path, lib.sidecar_path)
    lib.detached = {k: v for k, v in side_entries.items() if k not in lib.entries and k not in claimed}
    lib.detached.update({k: v for k, v in (sidecar.get("detached") or {}).items()
                         if k not in lib.entries and k not in claimed})
    lib.issued_keys.update(lib.entries)
    for e in lib.entries.values():
        lib.issued_keys.update(e.aliases)


def _as_citekit_lays_out(raw: str) -> bool:
    """Whether an entry's text has citekit's layout (its first field's ``=`` in the value
    column the writer uses): what a library written by citekit holds."""
    from citekit.bibtex.writer import VALUE_COLUMN

    lines = raw.strip().split("\n")
    return len(lines) > 2 and lines[1].startswith("  ") and lines[1][VALUE_COLUMN:VALUE_COLUMN + 2] == "= "


def _written_with(entry: Entry, bib_entry: Entry) -> bool:
    """Whether ``entry``'s sidecar record (its copy of what citekit wrote) matches the fields
    of ``bib_entry``, a library.bib known to be as citekit wrote it: hand-edited fields
    aside, a record written together with the file does."""
    from citekit.library.store.reconcile import same_value

    generated, hand = entry.generated, set(entry.hand)
    return all(same_value(generated[name], value) for name, value in bib_entry.fields.items()
               if name in generated and name not in hand)


def _hand_renames(lib: Any, unknown: dict[str, Any], side_entries: dict[str, dict[str, Any]],
                  detached: dict[str, dict[str, Any]]) -> set[str]:
    """Entries renamed by hand in library.bib become citekit's entries again, under their new
    keys (:func:`.reconcile.hand_renames`); returns the old keys whose records they took."""
    from citekit.library.store.reconcile import hand_renames

    orphans = {k: v for k, v in {**detached, **side_entries}.items() if k not in lib.entries}
    found = hand_renames(unknown, orphans)
    for new, old in found.items():
        lib.entries[new] = renamed_entry(new, old, dict(orphans[old]), unknown[new])
        lib.renamed_by_hand[old] = new
    return set(found.values())


def renamed_entry(new_key: str, old_key: str, meta: dict[str, Any], bib_entry: Entry) -> Entry:
    """The entry citekit knew as ``old_key``, renamed by hand to ``new_key``: its status,
    origin, tags and mentions kept, the old key an alias, the new key permanent (the
    user chose it)."""
    entry = from_sidecar(new_key, meta)
    if old_key.lower() != new_key.lower() and old_key.lower() not in {a.lower() for a in entry.aliases}:
        entry.aliases = sorted([*entry.aliases, old_key])
    entry.aliases = [a for a in entry.aliases if a.lower() != new_key.lower()]
    entry.key_provisional = False
    absorb_bib(entry, bib_entry, managed=True)
    return entry
