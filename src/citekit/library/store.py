"""The library on disk: ``refs/library.bib`` plus the ``refs/library.yaml`` sidecar.

``library.bib`` is what LaTeX reads and what users edit; the sidecar holds what BibTeX
cannot (status, identifiers, tags, summaries, mentions, versions, provenance) and a copy of
what citekit itself last wrote for every field. Comparing the two on load is how a hand
edit is recognised: such fields are listed in ``Entry.hand`` and no later sync touches them.

Both files are written atomically (temporary file, fsync, rename), entries sorted by key
and fields in a fixed order, so an unchanged library is rewritten byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..config import display_path
from ..model import Entry, Ids, Location
from ..output.bibtex import render_entries
from ..output.latex import to_ascii
from .bibfile import Problem, decode_bytes, encoding_problems, parse_bib_text, split_ids
from .tags import tags_from_keywords

SIDECAR_VERSION = 1
# The safe loader and dumper, in C when libyaml is present: a 7,000-entry sidecar loads in
# 2.4 s instead of 20 s. Both build only plain data (no arbitrary objects), exactly like
# yaml.safe_load/safe_dump, and the C dumper writes the same bytes as the Python one.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
BIB_HEADER = (
    "Written by citekit from the notes; edit freely: hand edits are kept by every sync.\n"
    "Tags, summaries and status live in library.yaml beside this file."
)
#: fields citekit derives from the sidecar on every write rather than storing in Entry.fields
DERIVED_FIELDS = ("keywords", "ids")
#: key under which ``Entry.generated`` remembers the entry type citekit wrote
TYPE_MARK = "@type"
CHECKSUM_MARK = "% citekit-checksum: "


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def _checksum_ok(text: str) -> bool:
    """Whether library.bib is exactly as citekit wrote it (its checksum line still matches)."""
    at = text.find(CHECKSUM_MARK)
    if at < 0:
        return False
    line_end = text.find("\n", at)
    if line_end < 0 or text[line_end + 1:line_end + 2] != "\n":
        return False
    return text[at + len(CHECKSUM_MARK):line_end].strip() == _checksum(text[line_end + 2:])


class LibraryError(Exception):
    """The library cannot be read or written safely; the message says what to do."""


@dataclass
class Library:
    """All entries of a project's ``refs/`` folder, keyed by citation key."""

    refs_dir: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    issued_keys: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    #: raw text of blocks that could not be parsed: written back verbatim so nothing is lost
    unparsed: list[str] = field(default_factory=list)
    preamble: list[str] = field(default_factory=list)
    #: mentions with no title yet (abstracts, bare URLs), waiting for an online sync
    pending: list[dict[str, Any]] = field(default_factory=list)
    #: write library.bib with LaTeX escapes instead of UTF-8 (remembered in the sidecar)
    ascii: bool = False
    #: sidecar records whose entry is missing from library.bib (deleted by hand, or
    #: unreadable): kept, so their keys and metadata come back when the entry does
    detached: dict[str, dict[str, Any]] = field(default_factory=dict)

    # ---- paths -------------------------------------------------------------------------
    @property
    def bib_path(self) -> Path:
        return self.refs_dir / "library.bib"

    @property
    def sidecar_path(self) -> Path:
        return self.refs_dir / "library.yaml"

    # ---- lookups -----------------------------------------------------------------------
    def get(self, key: str) -> Entry | None:
        """The entry for a key or for one of its aliases (old keys of merged entries)."""
        if key in self.entries:
            return self.entries[key]
        for entry in self.entries.values():
            if key in entry.aliases:
                return entry
        return None

    def alias_map(self) -> dict[str, str]:
        """old key → surviving key, for every alias in the library."""
        return {alias: e.key for e in self.entries.values() for alias in e.aliases}

    def sorted_entries(self) -> list[Entry]:
        return [self.entries[k] for k in sorted(self.entries, key=str.lower)]

    def add(self, entry: Entry) -> None:
        if entry.key in self.entries or entry.key.lower() in self._lower_keys():
            raise LibraryError(f"key '{entry.key}' is already in the library")
        lowered = self._lower_keys()
        self.entries[entry.key] = entry
        lowered.add(entry.key.lower())
        self.__dict__["_lower_cache"][0] = len(self.entries)
        self.issued_keys.add(entry.key)
        self.issued_keys.update(entry.aliases)

    def _lower_keys(self) -> set[str]:
        """Keys in lower case (BibTeX compares keys that way); rebuilt only when the key count
        changed behind :meth:`add`'s back, so adding thousands of entries stays linear."""
        cache = self.__dict__.get("_lower_cache")
        if cache is None or cache[0] != len(self.entries):
            cache = [len(self.entries), {k.lower() for k in self.entries}]
            self.__dict__["_lower_cache"] = cache
        return cache[1]

    def remove(self, key: str) -> Entry:
        """Drop an entry; its key stays issued so it is never given to another work."""
        self.__dict__.pop("_lower_cache", None)
        return self.entries.pop(key)

    def taken_keys(self) -> set[str]:
        return (set(self.issued_keys) | set(self.entries) | set(self.detached)
                | {a for e in self.entries.values() for a in e.aliases})

    def detached_entries(self) -> list[Entry]:
        """Sidecar records whose entry is missing from library.bib, as entries (for matching).

        Built once per load: a sync asks for every work, and the records do not change.
        """
        cached = self.__dict__.get("_detached_cache")
        if cached is not None and cached[0] is self.detached:
            return cached[1]
        out = []
        for key, meta in sorted(self.detached.items()):
            entry = _from_sidecar(key, meta)
            entry.fields = {k: v for k, v in entry.generated.items() if k != TYPE_MARK}
            out.append(entry)
        self.__dict__["_detached_cache"] = (self.detached, out)
        return out

    # ---- load --------------------------------------------------------------------------
    @classmethod
    def load(cls, refs_dir: Path) -> "Library":
        """Read both files; a missing library is an empty one, a damaged entry a problem."""
        lib = cls(refs_dir=Path(refs_dir))
        sidecar = lib._read_sidecar()
        side_entries: dict[str, dict[str, Any]] = sidecar.get("entries") or {}
        lib.issued_keys = set(sidecar.get("issued_keys") or [])
        lib.pending = list(sidecar.get("pending") or [])
        lib.ascii = bool(sidecar.get("ascii", False))
        if lib.bib_path.exists():
            data = lib.bib_path.read_bytes()
            text, _enc = decode_bytes(data)
            name = display_path(lib.bib_path)
            lib.problems.extend(encoding_problems(data, name))
            parsed = parse_bib_text(text, name)
            lib.problems.extend(parsed.problems)
            lib.preamble = parsed.preamble
            lib.unparsed = list(parsed.unparsed)
            untouched = _checksum_ok(text)
            seen_lower: dict[str, str] = {}
            for bib_entry, raw in zip(parsed.entries, parsed.raws):
                lower = bib_entry.key.lower()
                if lower in seen_lower:
                    # BibTeX keys ignore case: a second 'Key' beside 'key' is a duplicate
                    lib.problems.append(Problem(name, None, f"key '{bib_entry.key}' differs from '{seen_lower[lower]}' only in case, "
                                                "which BibTeX treats as the same key; it is kept as text: rename it"))
                    lib.unparsed.append(raw.strip())
                    continue
                seen_lower[lower] = bib_entry.key
                meta = side_entries.get(bib_entry.key)
                entry = _from_sidecar(bib_entry.key, meta) if meta else _manual_entry(bib_entry)
                _absorb_bib(entry, bib_entry, managed=meta is not None, untouched=untouched)
                lib.entries[entry.key] = entry
        lib.detached = {k: v for k, v in side_entries.items() if k not in lib.entries}
        lib.detached.update({k: v for k, v in (sidecar.get("detached") or {}).items() if k not in lib.entries})
        lib.issued_keys.update(lib.entries)
        for e in lib.entries.values():
            lib.issued_keys.update(e.aliases)
        return lib

    def _read_sidecar(self) -> dict[str, Any]:
        if not self.sidecar_path.exists():
            return {}
        try:
            data = yaml.load(self.sidecar_path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise LibraryError(
                f"{display_path(self.sidecar_path)} is damaged ({exc}). Restore it (e.g. `git checkout -- {self.sidecar_path.name}`) "
                "and run again; citekit will not overwrite it."
            ) from exc
        if not isinstance(data, dict):
            raise LibraryError(f"{display_path(self.sidecar_path)} is not a citekit sidecar (expected a mapping).")
        return data

    # ---- save --------------------------------------------------------------------------
    def render_bib(self, *, ascii: bool | None = None) -> str:
        """The text of ``library.bib`` as it would be written now.

        The last header line is a checksum of everything below it: when it still matches
        on the next load, nobody has edited the file since citekit wrote it, whatever the
        sidecar says (e.g. after a crash between the two writes, or a sidecar restored
        from git).
        """
        return self._bib_text([written_entry(e) for e in self.sorted_entries()], ascii=ascii)

    def _bib_text(self, written: list[Entry], *, ascii: bool | None = None) -> str:
        body = render_entries(written, ascii=self.ascii if ascii is None else ascii)
        if self.preamble:
            body = "".join(f"@preamble{{{p}}}\n\n" for p in self.preamble) + body.lstrip("\n")
        if self.unparsed:
            body += (
                "\n% citekit could not read the blocks below; they are kept verbatim. Fix them and run again.\n"
                + "\n\n".join(self.unparsed)
                + "\n"
            )
        header = "".join(f"% {line}\n" for line in BIB_HEADER.split("\n"))
        return f"{header}{CHECKSUM_MARK}{_checksum(body)}\n\n{body}"

    def save(self) -> bool:
        """Write both files atomically; returns whether anything changed on disk."""
        ordered = self.sorted_entries()
        written = [written_entry(e) for e in ordered]
        for entry, out in zip(ordered, written):
            entry.generated = {**out.fields, TYPE_MARK: entry.entry_type}
        bib_text = self._bib_text(written)
        side_text = self._render_sidecar()
        self.refs_dir.mkdir(parents=True, exist_ok=True)
        changed = False
        for path, text in ((self.bib_path, bib_text), (self.sidecar_path, side_text)):
            if not path.exists() or path.read_bytes() != text.encode("utf-8"):
                atomic_write(path, text)
                changed = True
        return changed

    def _render_sidecar(self) -> str:
        entries = {e.key: _to_sidecar(e) for e in self.sorted_entries()}
        data = {
            "version": SIDECAR_VERSION,
            "issued_keys": sorted(self.taken_keys(), key=str.lower),
            "entries": entries,
        }
        if self.pending:
            data["pending"] = self.pending
        if self.ascii:
            data["ascii"] = True
        if self.detached:
            data["detached"] = {k: self.detached[k] for k in sorted(self.detached, key=str.lower)}
        head = (
            "# citekit sidecar: what BibTeX cannot hold (status, ids, tags, summaries, provenance).\n"
            "# Safe to edit 'summary' and 'tags: added/removed' by hand; keep the rest as citekit wrote it.\n"
        )
        return head + yaml.dump(data, Dumper=_SAFE_DUMPER, allow_unicode=True, sort_keys=True, width=100,
                                default_flow_style=False)


# ---- helpers ---------------------------------------------------------------------------

def written_entry(entry: Entry) -> Entry:
    """The entry as it goes into ``library.bib``: stored fields plus derived ones.

    ``keywords`` comes from the effective tags and ``ids`` from the aliases, so tags and
    old keys are visible to BibTeX users and to biblatex (which resolves ``ids``).
    """
    fields = {k: v for k, v in entry.fields.items() if k not in DERIVED_FIELDS}
    if entry.tags:
        fields["keywords"] = ", ".join(entry.tags)
    if entry.aliases:
        fields["ids"] = ", ".join(sorted(entry.aliases))
    out = Entry(key=entry.key, entry_type=entry.entry_type, fields=fields)
    out.aliases = list(entry.aliases)
    return out


def _absorb_bib(entry: Entry, bib_entry: Entry, *, managed: bool, untouched: bool = False) -> None:
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
        entry.fields = {k: (generated[k] if k in generated and _same_value(generated[k], v) else v)
                        for k, v in fields.items()}
        return
    hand = set(entry.hand)
    generated = entry.generated
    for name, value in list(fields.items()):
        gen = generated.get(name)
        if gen is not None and _same_value(gen, value):
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
    """Keywords edited in library.bib become manual tag additions/removals."""
    if _norm(written or "") == _norm(generated or ""):
        return
    mine = set(tags_from_keywords(written or ""))
    current = set(entry.tags)
    added = set(entry.tags_added) | (mine - current)
    removed = (set(entry.tags_removed) | (current - mine)) - mine
    entry.tags_added = sorted(added - removed)
    entry.tags_removed = sorted(removed)


def _same_value(generated: str, written: str) -> bool:
    """Whether a value read from library.bib is what citekit wrote, in UTF-8 or ASCII mode."""
    if _norm(generated) == _norm(written):
        return True
    return not generated.isascii() and _norm(to_ascii(generated)) == _norm(written)


def _norm(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip()


def _manual_entry(bib_entry: Entry) -> Entry:
    """An entry the user wrote into library.bib themselves: all of it is theirs."""
    entry = Entry(key=bib_entry.key, entry_type=bib_entry.entry_type, ids=bib_entry.ids, status="resolved", origin="manual")
    entry.provenance = {k: "user" for k in bib_entry.fields}
    entry.tags_added = tags_from_keywords(bib_entry.fields.get("keywords", ""))
    entry.aliases = sorted(set(split_ids(bib_entry.fields.get("ids", ""))))
    return entry


def _to_sidecar(e: Entry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": e.status,
        "ids": e.ids.as_dict(),
        "tags": {"auto": sorted(e.tags_auto), "added": sorted(e.tags_added), "removed": sorted(e.tags_removed)},
        "mentions": [str(m) for m in e.mentions],
        "origin": e.origin,
        "generated": dict(sorted(e.generated.items())),
    }
    optional = {
        "summary": e.summary,
        "abstract": e.abstract,
        "aliases": sorted(e.aliases),
        "versions": e.versions,
        "provenance": dict(sorted(e.provenance.items())),
        "hand": sorted(e.hand),
        "reason": e.reason,
    }
    out.update({k: v for k, v in optional.items() if v})
    return out


def _from_sidecar(key: str, meta: dict[str, Any]) -> Entry:
    tags = meta.get("tags") or {}
    mentions = []
    for m in meta.get("mentions") or []:
        file, _, line = str(m).rpartition(":")
        mentions.append(Location(file=file, line=int(line) if line.isdigit() else 0))
    return Entry(
        key=key,
        entry_type="misc",
        ids=Ids.from_dict(meta.get("ids")),
        status=str(meta.get("status") or "notes-only"),
        summary=meta.get("summary"),
        abstract=meta.get("abstract"),
        tags_auto=list(tags.get("auto") or []),
        tags_added=list(tags.get("added") or []),
        tags_removed=list(tags.get("removed") or []),
        mentions=mentions,
        aliases=list(meta.get("aliases") or []),
        versions=list(meta.get("versions") or []),
        provenance=dict(meta.get("provenance") or {}),
        generated={str(k): str(v) for k, v in (meta.get("generated") or {}).items()},
        hand=list(meta.get("hand") or []),
        origin=str(meta.get("origin") or "notes"),
        reason=str(meta.get("reason") or ""),
    )


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so readers see the old file or the new one, never half.

    The temporary file lives in the same folder (so the rename is atomic on POSIX) and is
    fsynced before the rename; the file's permissions are kept.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
