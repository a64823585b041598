"""The plain library: the entries of ``refs/``, loaded and saved with no cache at all.

``library.bib`` is what LaTeX reads and what users edit; the sidecar holds what BibTeX
cannot (status, identifiers, tags, summaries, mentions, versions, provenance) and a copy of
what citekit itself last wrote for every field. Comparing the two on load is how a hand
edit is recognised (:mod:`.reconcile`): such fields are listed in ``Entry.hand`` and no
later sync touches them.

:class:`PlainLibrary` reads both files whole and renders every entry on a write: it is
the definition of what a library holds and writes. The library commands use
:class:`.cache.CachedLibrary` (exported as ``citekit.library.store.Library``), which gives
the same entries and the same bytes from the parsed-library cache; the derived values it
remembers (:meth:`memo`, :meth:`remembered`) are computed afresh here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from citekit.bibtex.collector import collector_paused
from citekit.core.model import Entry
from citekit.library.errors import LibraryError
from citekit.library.journal import Transaction
from citekit.library.store import kinds
from citekit.library.store.files import BIB_NAME, SIDECAR_NAME, read_pair, recover_if_free, retrying_split
from citekit.library.store.header import bib_text, origins_in
from citekit.library.store.kept import KeptText
from citekit.library.store.parse import parse_into
from citekit.library.store.reconcile import HASH_MARK, TYPE_MARK
from citekit.library.store.render import render_changed, written_entry
from citekit.library.store.sidecar import document
from citekit.library.store.sidecar.records import from_sidecar, sidecar_blocks

if TYPE_CHECKING:
    from citekit.bibtex.reader import Problem

L = TypeVar("L", bound="PlainLibrary")


@dataclass
class PlainLibrary(KeptText):
    """All entries of a project's ``refs/`` folder, keyed by citation key."""

    refs_dir: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    issued_keys: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    #: raw text of blocks that could not be parsed: written back verbatim so nothing is lost
    unparsed: list[str] = field(default_factory=list)
    #: the values of library.bib's ``@preamble`` blocks, for reading: the blocks themselves
    #: are written back as kept text (below), where they stood
    preamble: list[str] = field(default_factory=list)
    #: what the user wrote in library.bib outside entries, as written, so a write keeps it
    #: (see :class:`.kept.KeptText`)
    kept_head: str = ""
    kept_before: dict[str, str] = field(default_factory=dict)
    kept_tail: str = ""
    #: what the last render did with kept text whose entry is gone (one line each)
    kept_moves: list[str] = field(default_factory=list)
    #: mentions with no title yet (abstracts, bare URLs), waiting for an online sync
    pending: list[dict[str, Any]] = field(default_factory=list)
    #: write library.bib with LaTeX escapes instead of UTF-8 (remembered in the sidecar)
    ascii: bool = False
    #: sidecar records whose entry is missing from library.bib (deleted by hand, or
    #: unreadable): kept, so their keys and metadata come back when the entry does
    detached: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: entries renamed by hand in library.bib since the last write (old key -> new key): the
    #: next write records them in the key map as ``citekit rename`` does
    #: (:func:`citekit.library.rekey.save_with_renames`); empty once the sidecar has the new keys
    renamed_by_hand: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """(What a subclass keeps beside the fields is set up here.)"""

    # ---- paths -------------------------------------------------------------------------
    @property
    def bib_path(self) -> Path:
        return self.refs_dir / BIB_NAME

    @property
    def sidecar_path(self) -> Path:
        return self.refs_dir / SIDECAR_NAME

    # ---- lookups -----------------------------------------------------------------------
    def entry_at(self, key: str) -> Entry | None:
        """The entry under exactly ``key`` (no alias)."""
        return self.entries.get(key)

    def keys(self) -> list[str]:
        """Every key, in the library's order."""
        return list(self.entries)

    def sorted_keys(self) -> list[str]:
        """Keys in the order of :meth:`sorted_entries`."""
        return sorted(self.keys(), key=str.lower)

    def get(self, key: str) -> Entry | None:
        """The entry for a key or for one of its aliases (old keys of merged entries)."""
        if key in self.entries:
            return self.entries[key]
        for entry in self.entries.values():
            if key in entry.aliases:
                return entry
        return None

    def get_any_case(self, key: str) -> Entry | None:
        """:meth:`get`, else the entry whose key differs only in case (BibTeX's view)."""
        found = self.get(key)
        if found is not None:
            return found
        lowered = key.lower()
        return next((e for k, e in self.entries.items() if k.lower() == lowered), None)

    def aliases_by_key(self) -> dict[str, list[str]]:
        """key -> its aliases, for entries that have some."""
        return {k: list(e.aliases) for k, e in self.entries.items() if e.aliases}

    def alias_map(self) -> dict[str, str]:
        """old key → surviving key, for every alias in the library."""
        return {alias: e.key for e in self.entries.values() for alias in e.aliases}

    def sorted_entries(self) -> list[Entry]:
        return [self.entries[k] for k in sorted(self.entries, key=str.lower)]

    # ---- changes -----------------------------------------------------------------------
    def add(self, entry: Entry) -> None:
        if entry.key in self.entries or entry.key.lower() in self._lower_keys():
            raise LibraryError(f"key '{entry.key}' is already in the library")
        lowered = self._lower_keys()
        self.entries[entry.key] = entry
        lowered.add(entry.key.lower())
        self.__dict__["_lower_cache"][0] = len(self.entries)
        self.issued_keys.add(entry.key)
        self.issued_keys.update(entry.aliases)

    def rename(self, old: str, new: str) -> Entry:
        """Give the entry under ``old`` the key ``new``; ``old`` stays its alias (papers and
        key maps that name it keep working) and both stay issued. The caller checks that
        ``new`` is free and valid (:func:`citekit.library.keys.check_new_key`)."""
        entry = self.entries.pop(old)
        self.__dict__.pop("_lower_cache", None)
        entry.key = new
        # (an alias differing from the key only in case would be the same key to BibTeX)
        known = {a.lower() for a in entry.aliases}
        aliases = set(entry.aliases) | ({old} if old.lower() not in known else set())
        entry.aliases = sorted(a for a in aliases if a.lower() != new.lower())
        self.entries[new] = entry
        if old in self.kept_before:  # the comment above the entry moves with it
            self.kept_before[new] = self.kept_before.pop(old)
        self.issued_keys.update((old, new))
        return entry

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
            entry = from_sidecar(key, meta)
            entry.fields = {k: v for k, v in entry.generated.items() if k != TYPE_MARK and not v.startswith(HASH_MARK)}
            out.append(entry)
        self.__dict__["_detached_cache"] = (self.detached, out)
        return out

    # ---- derived values (computed every time here; remembered by the cached library) ---
    def memo(self, kind: str, entry: Entry, compute: Callable[[Entry], Any]) -> Any:
        """``compute(entry)``; ``kind`` (one of :mod:`.kinds`) names what it derives, under
        which a cached library remembers it until the entry changes. Values must be plain
        data (str, numbers, lists, dicts, None)."""
        return compute(entry)

    def memo_table(self, kind: str, compute: Callable[[Entry], Any], *, ordered: bool = True) -> Mapping[str, Any]:
        """key -> :meth:`memo` of every entry (in the library's order unless ``ordered`` is
        false: then only look-ups are made, and nothing may change it)."""
        with collector_paused():
            return {key: compute(entry) for key, entry in self.entries.items()}

    def facets(self) -> dict[str, tuple[str, list[str]]]:
        """key -> (status, effective tags): what ``--tag``/``--status`` filters and ``tags``
        read, small enough to decode in milliseconds on a large library."""
        return self.memo_table(kinds.FACETS, lambda e: (e.status, e.tags))

    def stored_memos(self, kind: str, keys: list[str]) -> Iterator[Any] | None:
        """The stored :meth:`memo` values of ``keys`` one at a time (a cached library's);
        None means "use :meth:`memo_table`"."""
        return None

    def remembered(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, a value derived from the whole library (the suggestions for a key
        it lacks); a cached library keeps it until any entry changes."""
        return compute()

    def remembered_apart(self, name: str, compute: Callable[[], Any],
                         patch: Callable[[Any, set[str]], Any] | None = None) -> Any:
        """:meth:`remembered` for a large answer (the search index); a cached library keeps
        it in a file of its own."""
        return compute()

    def keep_memos(self) -> None:
        """Store what :meth:`memo` and :meth:`remembered` computed (a cached library's)."""

    def rendered_text(self, entry: Entry, ascii: bool, *, unchanged: bool = False) -> str | None:
        """The ``library.bib`` text of ``entry`` as last written, when it is known to be still
        exactly that (a cached library's); None means "render it yourself"."""
        return None

    def reloaded(self: L) -> L:
        """This library if both files are still the bytes it was loaded from, else a new load."""
        return type(self).load(self.refs_dir)

    # ---- load --------------------------------------------------------------------------
    @classmethod
    def load(cls: type[L], refs_dir: Path, *, recover: bool = True) -> L:
        """Read both files; a missing library is an empty one, a damaged entry a problem.

        A ``library.bib`` and sidecar that were not written together (an interrupted copy,
        one of them restored from git) are refused with what to do. An interrupted write
        is finished or undone first when no writer is at work (``recover=False``: only
        read through it, as ``doctor`` does before ``--fix``). The cyclic garbage
        collector is paused meanwhile: building tens of thousands of acyclic objects
        otherwise triggers full collections over an ever larger heap.
        """
        refs = Path(refs_dir)
        if recover:
            recover_if_free(refs)
        with collector_paused():
            return retrying_split(lambda: cls._parse(refs, *read_pair(refs)), refs)

    @classmethod
    def _parse(cls: type[L], refs: Path, bib_data: bytes | None, side_data: bytes | None, *,
               remember: bool = False) -> L:
        """Both files' bytes as a library (see :func:`.parse.parse_into`)."""
        lib = cls(refs_dir=refs)
        parse_into(lib, bib_data, side_data, remember=remember)
        return lib

    # ---- save --------------------------------------------------------------------------
    def render_bib(self, *, ascii: bool | None = None) -> str:
        """The text of ``library.bib`` as it would be written now (see :mod:`.header` for
        its checksum line), or as it would be in the other ``ascii`` mode."""
        if ascii is None or bool(ascii) == self.ascii:
            return self.render_files()[0]
        from citekit.bibtex.writer import check_unique_keys, entry_text

        written = [written_entry(e) for e in self.sorted_entries()]
        check_unique_keys(written)
        return bib_text(self._body([e.key for e in written], [entry_text(e, ascii=ascii) + "\n" for e in written]),
                        self.unparsed, {e.origin for e in self.entries.values()})

    def render_files(self) -> tuple[str, str]:
        """The texts of ``library.bib`` and the sidecar as they would be written now; every
        entry is made what the next read of both files gives back."""
        keys, bib_parts, yaml_parts = self._entry_texts()
        text = bib_text(self._body(keys, bib_parts), self.unparsed, origins_in(yaml_parts) if keys else {"notes"})
        implied = (set(self.keys()) | set(self.detached)
                   | {a for aliases in self.aliases_by_key().values() for a in aliases})
        side = document.render(yaml_parts, None, implied=implied, issued_keys=self.issued_keys,
                               detached=self.detached, pending=self.pending, ascii=self.ascii)
        return text, side

    def _entry_texts(self) -> tuple[list[str], list[str], list[str]]:
        """The keys in file order, and each entry's text in library.bib and in the sidecar."""
        from citekit.bibtex.writer import check_unique_keys

        ordered = self.sorted_entries()
        check_unique_keys(ordered)
        block_of = sidecar_blocks() if ordered else None
        bib_parts: list[str] = []
        yaml_parts: list[str] = []
        for entry in ordered:
            assert block_of is not None
            bib_part, yaml_part = render_changed(entry, self.ascii, block_of)
            bib_parts.append(bib_part)
            yaml_parts.append(yaml_part)
        return [e.key for e in ordered], bib_parts, yaml_parts

    def save(self, txn: Transaction | None = None) -> bool:
        """Write both files as one transaction; returns whether anything changed on disk.

        With ``txn`` the files join a caller's transaction (e.g. with a key map) and are
        switched in by its commit (then :meth:`_written` sees the bytes written).
        """
        with collector_paused():  # thousands of small acyclic objects, as in load
            bib_data, side_text = self._files_to_write()
        own = txn is None
        txn = txn or Transaction(self.refs_dir)
        txn.stage(self.bib_path, bib_data)
        txn.stage(self.sidecar_path, side_text)
        del bib_data, side_text  # staged as bytes: the texts need not stay (peak memory at 50k entries)
        staged = txn.staged
        txn.on_commit.append(lambda: self._written(staged))
        txn.on_commit.append(lambda: self._remember_written(staged))
        if own:
            return txn.commit()
        return any(p in txn.changes() for p in (self.bib_path.absolute(), self.sidecar_path.absolute()))

    def _files_to_write(self) -> tuple[Any, Any]:
        """Both files' new contents (bytes here; a cached library splices them, see
        :mod:`.cache.layout`)."""
        bib_text, side_text = self.render_files()
        return bib_text.encode("utf-8"), side_text.encode("utf-8")

    def _remember_written(self, staged: dict[Path, bytes]) -> None:
        """Remember both files' bytes in ``.citekit/`` (see :mod:`.written`): the next load
        knows library.bib was not edited since, with no checksum line in the file."""
        from citekit.library.store.written import remember

        bib, side = self.bib_path.absolute(), self.sidecar_path.absolute()
        if bib in staged and side in staged:
            remember(self.refs_dir, staged[bib], staged[side])
        else:
            remember(self.refs_dir, *read_pair(self.refs_dir))

    def _written(self, staged: dict[Path, bytes]) -> None:
        """Both files were just switched in, each holding the bytes ``staged`` for it."""

