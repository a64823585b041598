"""Hand-edit detection: what library.bib says now against what citekit last wrote there.

The sidecar keeps a copy (or, for long values, a hash) of every field citekit wrote
(``Entry.generated``); comparing the file's values with it on load is how a hand edit is
recognised. Such fields are listed in ``Entry.hand`` and no later sync touches them;
keywords edited by hand become tag additions and removals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citekit.core import cachefile
from citekit.core.config import display_path
from citekit.core.model import Entry
from citekit.library.errors import LibraryError

if TYPE_CHECKING:
    from pathlib import Path

#: fields citekit derives from the sidecar on every write rather than storing in Entry.fields
DERIVED_FIELDS = ("keywords", "ids")
#: key under which ``Entry.generated`` remembers the entry type citekit wrote
TYPE_MARK = "@type"
#: marks a remembered value that is only a hash (in memory; ``generated_hash`` on disk)
HASH_MARK = "\x00sha256:"
_HASH_MIN = 24
_KEEP_FULL = frozenset({"title", "keywords", "ids", TYPE_MARK})


def absorb_bib(entry: Entry, bib_entry: Entry, *, managed: bool, untouched: bool = False) -> None:
    """Take the user's view of an entry from library.bib and detect hand edits.

    ``untouched``: the file's checksum says nobody edited it since citekit wrote it, so
    any difference from the sidecar is the sidecar's staleness, not a hand edit.
    """
    entry.entry_type = bib_entry.entry_type
    fields = {k: v for k, v in bib_entry.fields.items() if k not in DERIVED_FIELDS}
    if not managed:
        entry.fields = fields
        entry.hand = sorted(fields)
        return
    if untouched:
        generated = entry.generated
        entry.fields = {k: (generated[k] if k in generated and same_value(generated[k], v)
                            and not generated[k].startswith(HASH_MARK) else v)
                        for k, v in fields.items()}
        return
    hand = set(entry.hand)
    generated = entry.generated
    for name, value in list(fields.items()):
        gen = generated.get(name)
        if gen is not None and same_value(gen, value):
            if not gen.startswith(HASH_MARK):
                fields[name] = gen  # the same value (maybe written with LaTeX escapes in ascii mode)
            continue
        hand.add(name)
    for name in generated:
        if name not in DERIVED_FIELDS and name != TYPE_MARK and name not in fields:
            hand.add(name)  # the user deleted it: keep it deleted
    if generated.get(TYPE_MARK) and generated[TYPE_MARK] != bib_entry.entry_type:
        hand.add("entry_type")
    entry.fields = fields
    entry.hand = sorted(hand)
    _absorb_keywords(entry, bib_entry.fields.get("keywords"), generated.get("keywords"))


def _absorb_keywords(entry: Entry, written: str | None, generated: str | None) -> None:
    """Keywords edited in library.bib become manual tag additions/removals (keywords as
    citekit wrote them, escaped in ASCII mode included, are no edit)."""
    if norm(written or "") == norm(generated or "") or (written and generated and same_value(generated, written)):
        return
    from citekit.library.tags import tag_identity, tags_from_keywords

    text = written or ""
    if "\\" in text or "{" in text:  # the file's LaTeX (ASCII mode escapes non-ASCII tags): tags are text
        from citekit.core.text import latex_to_text

        text = latex_to_text(text, scripts=False)
    mine = set(tags_from_keywords(text))
    current = set(entry.keyword_tags)  # (what keywords held: an imported entry's rule tags are not there)
    # compared by identity: "Muon" respelled from "muon" is the same tag kept, not one removed and one added
    mine_ids, current_ids = {tag_identity(t) for t in mine}, {tag_identity(t) for t in current}
    added = set(entry.tags_added) | {t for t in mine if tag_identity(t) not in current_ids or t not in current}
    removed = {t for t in set(entry.tags_removed) | {t for t in current if tag_identity(t) not in mine_ids}
               if tag_identity(t) not in mine_ids}
    entry.tags_added = sorted(added - removed)
    entry.tags_removed = sorted(removed)


def same_value(generated: str, written: str) -> bool:
    """Whether a value read from library.bib is what citekit wrote, in UTF-8 or ASCII mode."""
    if generated.startswith(HASH_MARK):
        return generated == digest(written)
    if generated == written or norm(generated) == norm(written):
        return True
    if len(written) == 3 and written.isalpha():  # a month citekit wrote as its macro (December -> dec)
        from citekit.bibtex.writer import month_macro

        if month_macro(generated) == written:
            return True
    if generated.isascii():
        return False
    from citekit.bibtex.values import to_ascii

    return norm(to_ascii(generated)) == norm(written)


def norm(value: str) -> str:
    return " ".join(value.split())  # runs of whitespace as one space, ends trimmed


def manual_entry(bib_entry: Entry) -> Entry:
    """An entry the user wrote into library.bib themselves: all of it is theirs."""
    entry = Entry(key=bib_entry.key, entry_type=bib_entry.entry_type, ids=bib_entry.ids, status="resolved", origin="manual")
    entry.provenance = {k: "user" for k in bib_entry.fields}
    from citekit.bibtex.reader import split_ids
    from citekit.library.tags import tags_from_keywords

    entry.tags_added = tags_from_keywords(bib_entry.fields.get("keywords", ""))
    entry.aliases = sorted(set(split_ids(bib_entry.fields.get("ids", ""))))
    return entry


#: share of the fields citekit wrote that a hand-renamed entry must still hold unchanged
RENAME_SAME_SHARE = 0.7


def hand_renames(new_entries: Mapping[str, Entry], orphans: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Entries of library.bib that are citekit's entries renamed by hand: new key -> old key.

    ``new_entries``: entries of library.bib that have no sidecar record (written by hand,
    or renamed); ``orphans``: sidecar records whose key library.bib no longer has. One of
    each is the same entry under a new key when the bib entry has the record's title and
    keeps at least :data:`RENAME_SAME_SHARE` of the other fields citekit wrote (a field
    edited at the same time is a hand edit, as always). Only an unambiguous pair counts:
    two records with that title, or two entries for one record, stay as they are.
    """
    if not new_entries or not orphans:
        return {}
    by_title: dict[str, list[str]] = {}
    for old, meta in orphans.items():
        title = str((meta.get("generated") or {}).get("title") or "")
        if title:
            by_title.setdefault(norm(title).lower(), []).append(old)
    found: dict[str, str] = {}
    claimed: dict[str, int] = {}
    for new, bib_entry in new_entries.items():
        title = bib_entry.fields.get("title", "")
        olds = [old for old in by_title.get(norm(title).lower(), [])
                if _kept_enough((orphans[old].get("generated") or {}), (orphans[old].get("generated_hash") or {}),
                                bib_entry)]
        if len(olds) == 1:
            found[new] = olds[0]
            claimed[olds[0]] = claimed.get(olds[0], 0) + 1
    return {new: old for new, old in found.items() if claimed[old] == 1}


def _kept_enough(generated: Mapping[str, Any], hashed: Mapping[str, Any], bib_entry: Entry) -> bool:
    """Whether the bib entry still holds enough of what citekit wrote for a record."""
    fields = bib_entry.fields
    names = [n for n in {*generated, *hashed} if n not in DERIVED_FIELDS and n != TYPE_MARK]
    if not names:
        return False
    same = 0
    for name in names:
        value = fields.get(name)
        if value is None:
            continue
        if name in hashed:
            same += HASH_MARK + str(hashed[name]) == digest(value)
        else:
            same += same_value(str(generated[name]), value)
    return same >= 2 and same >= RENAME_SAME_SHARE * len(names)


def by_hash(name: str, value: str, ascii: bool) -> bool:
    """Whether the sidecar may keep only a hash of what citekit wrote for this field.

    A hash tells a hand edit from citekit's own value as well as a copy does, when
    library.bib gives the value back exactly: so not in ASCII mode for non-ASCII text
    (the file holds escapes), not for values with line breaks or runs of spaces (read
    back folded), and never for the title, the keywords and the type, which matching and
    tags read from the sidecar itself. Short values are kept: a hash would not be smaller.
    """
    return (len(value) > _HASH_MIN and name not in _KEEP_FULL and (value.isascii() or not ascii)
            and value == norm(value))


def digest(value: str) -> str:
    return HASH_MARK + hex_digest(norm(value))


def hex_digest(value: str) -> str:
    return cachefile.sha256(value.encode("utf-8")).hexdigest()[:20]


def check_records_cover(entries: Mapping[str, Entry], side_entries: Mapping[str, Any],
                        bib_path: Path, sidecar_path: Path) -> None:
    """Both files come from one write and library.bib is as written: then every entry has
    its record, since citekit writes one for each. Records missing (``entries: {}``, or
    records deleted by hand) would turn those entries into hand-written ones on the next
    write and lose their status, mentions and tags: refuse, as for a cut-short sidecar."""
    missing = [key for key in entries if key not in side_entries]
    if not missing:
        return
    name = display_path(sidecar_path)
    shown = ", ".join(f"'{k}'" for k in missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    raise LibraryError(
        f"{name} is damaged: it has no record for {len(missing)} of the {len(entries)} entries of "
        f"{display_path(bib_path)} ({shown}), although both files come from one write. Restore it from "
        f"version control (e.g. `git checkout -- {name}`), or run `citekit doctor --rebuild-sidecar` to rebuild "
        "it from library.bib (keys kept; what library.bib cannot say, such as status and notes' mentions, "
        "becomes 'unknown'); citekit will not overwrite it.")
