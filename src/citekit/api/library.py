"""Reading the library: ``list``, ``show``, ``tags``; and ``tag`` (tags by hand).

``list`` and ``show`` must stay fast on a large library: the stage modules (the notes
pipeline, the library store) are imported inside the functions that use them, and the
per-entry texts come from the parsed-library cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from citekit.api.project import config_of
from citekit.core.errors import CitekitError, UsageError
from citekit.library.store import kinds

if TYPE_CHECKING:
    from citekit.library.search import Filters
    from citekit.library.store import Library
    from citekit.core.model import Entry


def pending(start: str | Path | None = None) -> list[dict[str, Any]]:
    """Works in the notes that wait for an online sync (see :mod:`citekit.api.pending_works`)."""
    from citekit.library.store import Library
    from citekit.api.pending_works import pending_works

    from citekit.notes.filememo import memo_path

    cfg = config_of(start)
    return pending_works(cfg.notes_dir, cfg.root, Library.load(cfg.refs_dir), follow_out=cfg.follow_out_of_notes,
                         memo=memo_path(cfg.refs_dir))


def load_library(start: str | Path | None = None) -> Library:
    """The project's library as it is on disk."""
    from citekit.library.store import Library

    lib = Library.load(config_of(start).refs_dir)
    remember_read(lib)
    return lib


#: the library a command of this process last read, and the state of its files then
_LAST_READ: list[tuple[Path, Any, Library]] = []


def remember_read(lib: Library) -> None:
    """Keep ``lib``, as its files are now, for a second question about the library in the
    same command: the tags in use, which the warning about a tag no entry carries needs
    (``list --tag muon --tag mun --any``) after the selection has loaded the library. Asking
    them used to load the whole library a second time. Call it after any write of ``lib``."""
    _LAST_READ[:] = [(Path(lib.refs_dir), _files_state(Path(lib.refs_dir)), lib)]


def _read_before(refs_dir: Path) -> Library | None:
    """The library :func:`remember_read` kept for ``refs_dir``, if its files have not
    changed since (a write by anyone replaces or rewrites them: another inode, size or time)."""
    if not _LAST_READ:
        return None
    kept_dir, state, lib = _LAST_READ[0]
    return lib if kept_dir == refs_dir and state == _files_state(refs_dir) else None


def _files_state(refs_dir: Path) -> tuple[Any, ...]:
    """What tells ``library.bib`` and ``library.yaml`` unchanged: inode, size, time (None: no file)."""
    import os

    out: list[Any] = []
    for name in ("library.bib", "library.yaml"):
        try:
            st = os.stat(refs_dir / name)
        except OSError:
            out.append(None)
            continue
        out.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


# ---- reading the library ---------------------------------------------------------------

def entry_json(entry: Entry) -> dict[str, Any]:
    """The stable JSON shape of one entry (``citekit list --json``)."""
    from citekit.core.names import is_et_al
    from citekit.core.text import latex_to_text

    from bibtexparser.middlewares.names import split_multiple_persons_names

    names = split_multiple_persons_names(entry.fields.get("author", "")) if entry.fields.get("author") else []
    # `` and others`` is no author: the list is marked incomplete instead (BibTeX keeps it)
    incomplete = any(is_et_al(a) for a in names)
    authors = [latex_to_text(a.strip(), as_written=True) for a in names if a.strip() and not is_et_al(a)]
    venue = entry.fields.get("booktitle") or entry.fields.get("journal") or entry.fields.get("publisher")
    return {
        "key": entry.key,
        "type": entry.entry_type,
        "title": latex_to_text(entry.title, as_written=True),
        "authors": authors,
        "authors_incomplete": incomplete,
        "year": entry.year,
        "venue": latex_to_text(venue, as_written=True) if venue else None,
        "ids": entry.ids.as_dict(),
        "tags": entry.tags,
        "status": entry.status,
        "origin": entry.origin,
        "mentions": [{"file": m.file, "line": m.line} for m in entry.mentions],
        "aliases": sorted(entry.aliases),
        "summary": entry.summary,
        "url": entry.fields.get("url"),
    }


def list_json(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
              status: str | None = None, **where: Any) -> list[dict[str, Any]]:
    """:func:`list_entries` as :func:`entry_json` dicts; the JSON of an unchanged entry
    comes from the parsed-library cache instead of converting its LaTeX again, and an
    unchanged library decodes no entry at all."""
    return _listed(start, kinds.ENTRY_JSON, lambda lib: entry_json, tags=tags, any_tag=any_tag, status=status,
                   **where)


def list_json_text(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                   status: str | None = None, **where: Any) -> str:
    """``json.dumps(list_json(...), ensure_ascii=False, indent=2)``, from per-entry texts
    kept in the cache (the indenting encoder is pure Python: most of ``list --json``)."""
    return list_json_bytes(start, tags=tags, any_tag=any_tag, status=status, **where).decode("utf-8", "surrogatepass")


def list_json_bytes(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                    status: str | None = None, **where: Any) -> bytes:
    """:func:`list_json_text` in UTF-8: the per-entry texts are kept encoded, so the
    megabytes of a large library are joined and written without decoding them."""
    texts = _listed(start, kinds.ENTRY_JSON_UTF8,
                    lambda lib: lambda e: _indented_json(lib.memo(kinds.ENTRY_JSON, e, entry_json)).encode("utf-8", "surrogatepass"),
                    tags=tags, any_tag=any_tag, status=status, **where)
    return b"".join([b"[\n", b",\n".join(texts), b"\n]"]) if texts else b"[]"


def list_json_chunks(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                     status: str | None = None, **where: Any) -> Iterator[bytes]:
    """:func:`list_json_bytes`, piece by piece (the same bytes joined): the command writes
    the entries' texts as they come instead of joining megabytes into one more copy.

    When every text is already stored (any run after the first on an unchanged library),
    they are read from the cache one at a time as they are written: memory does not grow
    with the library's texts (only its keys are held)."""
    lib = load_library(start)
    keys = _select_keys(lib, tags=tags, any_tag=any_tag, status=status, **where)
    lib.keep_memos()  # (what the filters computed)
    texts: Iterator[bytes] | list[bytes] | None = lib.stored_memos(kinds.ENTRY_JSON_UTF8, keys)
    if texts is None:  # some not stored yet: computed (and stored for the next run)
        table = lib.memo_table(kinds.ENTRY_JSON_UTF8, _json_utf8(lib))
        lib.keep_memos()
        texts = [table[k] for k in keys]
        del table
    if not keys:
        yield b"[]"
        return
    del keys, lib
    yield b"[\n"
    for i, text in enumerate(texts):
        yield text if i == 0 else b",\n" + text
    yield b"\n]"


def _json_utf8(lib: Library) -> Callable[[Entry], bytes]:
    """How one entry's ``list --json`` text is made (from its remembered JSON row)."""
    return lambda e: _indented_json(lib.memo(kinds.ENTRY_JSON, e, entry_json)).encode("utf-8", "surrogatepass")


def list_lines(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
               status: str | None = None, **where: Any) -> list[str]:
    """The lines of ``citekit list``: key, status, year, plain-text title and tags."""
    return _listed(start, kinds.LIST_LINE, list_line_of, tags=tags, any_tag=any_tag, status=status, **where)


def list_line_of(lib: Library) -> Callable[[Entry], str]:
    """How one entry's ``list`` line is made (from its remembered JSON row)."""
    return lambda e: _list_line(lib.memo(kinds.ENTRY_JSON, e, entry_json))


def _listed(start: str | Path | None, kind: str, compute: Callable[[Library], Callable[[Entry], Any]], *,
            tags: list[str] | None, any_tag: bool, status: str | None, **where: Any) -> list[Any]:
    """One stored value of ``kind`` per entry passing the filters, in key order."""
    lib = load_library(start)
    keys = _select_keys(lib, tags=tags, any_tag=any_tag, status=status, **where)
    table = lib.memo_table(kind, compute(lib))
    lib.keep_memos()
    return [table[k] for k in keys]


def library_tags(start: str | Path | None = None) -> list[tuple[str, int]]:
    """(tag, number of entries carrying it), most used first."""
    from citekit.library.tags import tag_counts

    lib = _read_before(config_of(start).refs_dir) or load_library(start)
    facets = lib.facets()
    lib.keep_memos()
    return tag_counts(facets.values(), tags_of=lambda facet: facet[1])


def unknown_tags_hint(tags: list[str] | tuple[str, ...], start: str | Path | None = None) -> str | None:
    """``no tag 'mun' in the library (closest: muon)`` when a selection asks for a tag no
    entry carries (a typo is the likely reason it selects nothing); None when all exist."""
    from citekit.library.tags import unknown_tags, unknown_tags_message

    in_use = [t for t, _ in library_tags(start)]
    unknown = unknown_tags(tags, in_use)
    return unknown_tags_message(unknown, in_use) if unknown else None


#: bump (in :mod:`citekit.library.store.kinds`) when :func:`entry_json` or the list line
#: changes shape: older stored values are dropped
JSON_SHAPE = kinds.JSON_SHAPE


def _list_line(row: dict[str, Any]) -> str:
    tag_text = f"  [{', '.join(row['tags'])}]" if row["tags"] else ""
    return f"{row['key']:<32} {row['status']:<10} {row['year'] or '':<5} {row['title']}{tag_text}"


def _indented_json(row: dict[str, Any]) -> str:
    """One row as it appears inside an indented JSON list (one level deeper)."""
    import json

    return "  " + json.dumps(row, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def list_filters(*, tags: list[str] | None = None, any_tag: bool = False, status: str | None = None,
                 author: list[str] | tuple[str, ...] | str | None = None,
                 year: list[str] | tuple[str, ...] | str | None = None,
                 venue: list[str] | tuple[str, ...] | str | None = None,
                 key: list[str] | tuple[str, ...] | str | None = None) -> Filters:
    """The filters of ``citekit list`` as the search's (one filter code for both): each
    of ``author``, ``year`` (``2024``, ``2024..2026``, ``2024..``), ``venue`` and ``key``
    is a value or a list of values, all of which must hold."""
    from citekit.library.search import Filters, parse_years

    def many(value: list[str] | tuple[str, ...] | str | None) -> list[str]:
        return [value] if isinstance(value, str) else [v for v in value or () if v]

    return Filters(authors=many(author), years=[parse_years(y) for y in many(year)], tags=list(tags or ()),
                   any_tag=any_tag, statuses=[status] if status else [], venues=many(venue), keys=many(key))


def _select_keys(lib: Library, *, tags: list[str] | None, any_tag: bool, status: str | None, **where: Any) -> list[str]:
    """Sorted keys of the entries passing the filters."""
    filters = list_filters(tags=tags, any_tag=any_tag, status=status, **where)
    if not filters:
        return lib.sorted_keys()
    from citekit.library.search import filter_keys

    return filter_keys(lib, filters)


def list_entries(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                 status: str | None = None, **where: Any) -> list[Entry]:
    """Library entries, optionally filtered by tag expression, status, author, year, venue
    and key (see :func:`list_filters`), sorted by key."""
    if where and any(where.values()):
        lib = load_library(start)
        return [e for k in _select_keys(lib, tags=tags, any_tag=any_tag, status=status, **where)
                if (e := lib.get(k)) is not None]
    return _select(load_library(start).sorted_entries(), tags=tags, any_tag=any_tag, status=status)


def _select(entries: list[Entry], *, tags: list[str] | None, any_tag: bool, status: str | None) -> list[Entry]:
    if tags:
        from citekit.library.tags import select

        entries = select(entries, tags, any_=any_tag)
    if status:
        entries = [e for e in entries if e.status == status]
    return entries


def show(key: str, start: str | Path | None = None) -> Entry:
    """One entry by key, alias or key in another case; the error suggests close keys."""
    return _find(key, start)[1]


def show_bibtex(key: str, start: str | Path | None = None) -> tuple[Entry, str]:
    """:func:`show` and the entry's BibTeX (UTF-8): the text ``library.bib`` holds for it
    when that is the same, so nothing is rendered (nor the writer imported)."""
    lib, entry = _find(key, start)
    text = lib.rendered_text(entry, False, unchanged=True)
    if text is None:
        from citekit.library.store import written_entry
        from citekit.bibtex.writer import render_entries

        text = render_entries([written_entry(entry)])
    return entry, text.rstrip()


def _find(key: str, start: str | Path | None) -> tuple[Library, Entry]:
    from citekit.library.store import Library

    lib = Library.load(config_of(start).refs_dir)
    entry = lib.get_any_case(key)
    if entry is not None:
        return lib, entry
    keys = lib.sorted_keys()  # one order whichever way the library was read: ties rank alike
    if not keys and not lib.bib_path.exists():
        raise CitekitError(f"no library yet at {lib.bib_path}: run `citekit sync` first.", exit_code=2)
    from rapidfuzz import process, utils

    close = [k for k, _score, _ in process.extract(key, keys, limit=3, processor=utils.default_process)] if keys else []
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    raise CitekitError(f"no entry '{key}' in {lib.bib_path}.{hint}", exit_code=2)




@dataclass
class TagResult:
    """The tags of one entry after ``citekit tag KEY +a -b``."""

    asked: str
    entry: Entry
    changed: bool = False
    #: tags asked to be removed that the entry did not carry: recorded as removed by hand (no
    #: rule adds them later), and said, since ``tag KEY -- -h`` meant as "add h" removes nothing
    not_carried: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        e = self.entry
        return {"key": e.key, "asked": self.asked, "tags": list(e.tags), "added": list(e.tags_added),
                "removed": list(e.tags_removed), "not_carried": list(self.not_carried)}


def tag(key: str, changes: list[str], start: str | Path | None = None) -> TagResult:
    """Add (``+tag``) or remove (``-tag``) tags of one entry by hand; no change: read its tags.

    A bad tag is :class:`~citekit.library.tags.TagRuleError` (nothing saved); the library is
    written under the project lock.
    """
    from citekit.library.lock import writing
    from citekit.library.store import Library
    from citekit.library.tags import apply_manual

    config = config_of(start)
    with writing(config.refs_dir, f"tag {key} {' '.join(changes)}".strip(), write=bool(changes)):
        library = Library.load(config.refs_dir)
        entry = library.get(key)
        if entry is None:
            raise UnknownKey(f"no entry with key {key!r}; see `citekit list` for the keys.")
        not_carried = _not_carried(entry, changes)
        if changes:
            apply_manual(entry, list(changes))
            from citekit.library.rekey import save_with_renames

            save_with_renames(library)  # a key renamed by hand meanwhile goes to the key map too
    return TagResult(key, entry, bool(changes), not_carried)


def _not_carried(entry: Entry, changes: list[str]) -> list[str]:
    """The tags ``-tag`` changes ask to remove that ``entry`` does not carry now."""
    from citekit.library.tags import keep_tag, tag_identity

    have = {tag_identity(t) for t in entry.tags}
    asked = [keep_tag(c.strip()[1:]) for c in changes if c.strip().startswith("-") and len(c.strip()) > 1]
    return [t for t in dict.fromkeys(asked) if t and tag_identity(t) not in have]


class UnknownKey(UsageError):
    """A command was given a key the library does not have."""

    NEXT_STEP = "See `citekit list` for the keys."
