"""The Python API: everything the ``citekit`` command does, callable from Python.

>>> from citekit import api
>>> report = api.sync("path/to/project", offline=True)
>>> report.counts
{'resolved': 0, 'notes-only': 57, 'ambiguous': 0}

Each function loads the project's configuration, runs the stages in order and returns a
plain result object; the CLI only parses options and prints these results.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .config import Config, load_config

if TYPE_CHECKING:
    from .library.bibfile import Problem
    from .library.store import Library
    from .model import Entry
    from .notes import ExtractResult
    from .sync_report import SyncReport

# Stage modules (the notes pipeline, sync, the library store) are imported inside the
# functions that use them: ``list`` and ``show`` must not pay for rapidfuzz and the notes
# parsers. ``Problem`` and ``SyncReport`` stay importable from here (see __getattr__).
_LAZY = {"Problem": ".library.bibfile", "SyncReport": ".sync_report", "Library": ".library.store",
         "Entry": ".model", "ExtractResult": ".notes"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class CitekitError(Exception):
    """A failure the user can fix; ``exit_code`` 2 means bad usage or missing input."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def project(start: str | Path | None = None) -> Config:
    """The configuration of the project containing ``start`` (default: cwd)."""
    return load_config(start)


def extract(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> ExtractResult:
    """Paper mentions in the given notes files/folders (default: the project's notes folder)."""
    from .notes import extract_paths

    cfg = load_config(start)
    return extract_paths(_notes_targets(cfg, paths), root=cfg.root, follow_out=cfg.follow_out_of_notes)


def _notes_targets(cfg: Config, paths: list[str | Path] | None) -> list[Path]:
    """The files/folders to read (default: the notes folder); a missing one is a usage error."""
    targets = [Path(p) for p in paths] if paths else [cfg.notes_dir]
    for t in targets:
        if not t.exists():
            raise CitekitError(f"{t}: no such file or folder. Create it, or set paths.notes in citekit.yaml.", exit_code=2)
    return targets


def explain(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> list[Any]:
    """Line-by-line extraction decisions for the given notes (default: the notes folder)."""
    from .notes.explain import explain_paths

    cfg = load_config(start)
    return explain_paths(_notes_targets(cfg, paths), root=cfg.root, follow_out=cfg.follow_out_of_notes)


def pending(start: str | Path | None = None) -> list[dict[str, Any]]:
    """Works in the notes that wait for an online sync (see :mod:`citekit.pending`)."""
    from .library.store import Library
    from .pending import pending_works

    cfg = load_config(start)
    return pending_works(cfg.notes_dir, cfg.root, Library.load(cfg.refs_dir), follow_out=cfg.follow_out_of_notes)


def load_library(start: str | Path | None = None) -> Library:
    """The project's library as it is on disk."""
    from .library.store import Library

    return Library.load(load_config(start).refs_dir)


def sync(
    start: str | Path | None = None,
    *,
    offline: bool = False,
    refresh: bool = False,
    jobs: int = 8,
    progress: bool = False,
    ascii: bool | None = None,
) -> SyncReport:
    """Notes → library: extract, group, resolve (unless offline), merge, key, tag, write.

    ``ascii`` switches library.bib between UTF-8 (False) and LaTeX escapes (True); None
    keeps the config's ``bibtex: {ascii: ...}`` or, failing that, what the library used.
    """
    cfg = load_config(start)
    if not cfg.notes_dir.is_dir():
        raise CitekitError(
            f"no notes folder at {cfg.notes_dir}. Put your notes there, or set paths.notes in {cfg.path or 'citekit.yaml'}.",
            exit_code=2,
        )
    digest = None
    if not refresh:  # the same inputs as the last sync that changed nothing: its report, and
        # none of the sync stages (notes readers, matching, BibTeX) imported
        from . import sync_stamp

        digest = sync_stamp.inputs(cfg, offline=offline, ascii=ascii)
        replayed = sync_stamp.replay(cfg, digest, offline=offline)
        if replayed is not None:
            return replayed
    from .sync import run

    return run(cfg, offline=offline, refresh=refresh, jobs=jobs, progress=progress, ascii=ascii, not_replayed=digest)


# ---- reading the library ---------------------------------------------------------------

def entry_json(entry: Entry) -> dict[str, Any]:
    """The stable JSON shape of one entry (``citekit list --json``)."""
    from .output.csl import plain_text as delatex

    from bibtexparser.middlewares.names import split_multiple_persons_names

    names = split_multiple_persons_names(entry.fields.get("author", "")) if entry.fields.get("author") else []
    authors = [delatex(a.strip()) for a in names if a.strip()]
    venue = entry.fields.get("booktitle") or entry.fields.get("journal") or entry.fields.get("publisher")
    return {
        "key": entry.key,
        "type": entry.entry_type,
        "title": delatex(entry.title),
        "authors": authors,
        "year": entry.year,
        "venue": delatex(venue) if venue else None,
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
              status: str | None = None) -> list[dict[str, Any]]:
    """:func:`list_entries` as :func:`entry_json` dicts; the JSON of an unchanged entry
    comes from the parsed-library cache instead of converting its LaTeX again, and an
    unchanged library decodes no entry at all."""
    return _listed(start, _JSON, lambda lib: entry_json, tags=tags, any_tag=any_tag, status=status)


def list_json_text(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                   status: str | None = None) -> str:
    """``json.dumps(list_json(...), ensure_ascii=False, indent=2)``, from per-entry texts
    kept in the cache (the indenting encoder is pure Python: most of ``list --json``)."""
    return list_json_bytes(start, tags=tags, any_tag=any_tag, status=status).decode("utf-8", "surrogatepass")


def list_json_bytes(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                    status: str | None = None) -> bytes:
    """:func:`list_json_text` in UTF-8: the per-entry texts are kept encoded, so the
    megabytes of a large library are joined and written without decoding them."""
    texts = _listed(start, f"json-utf8:{JSON_SHAPE}",
                    lambda lib: lambda e: _indented_json(lib.memo(_JSON, e, entry_json)).encode("utf-8", "surrogatepass"),
                    tags=tags, any_tag=any_tag, status=status)
    return b"".join([b"[\n", b",\n".join(texts), b"\n]"]) if texts else b"[]"


def list_lines(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
               status: str | None = None) -> list[str]:
    """The lines of ``citekit list``: key, status, year, plain-text title and tags."""
    return _listed(start, f"list-line:{JSON_SHAPE}", lambda lib: lambda e: _list_line(lib.memo(_JSON, e, entry_json)),
                   tags=tags, any_tag=any_tag, status=status)


def _listed(start: str | Path | None, kind: str, compute: Callable[[Library], Callable[[Entry], Any]], *,
            tags: list[str] | None, any_tag: bool, status: str | None) -> list[Any]:
    """One stored value of ``kind`` per entry passing the filters, in key order."""
    lib = load_library(start)
    keys = _select_keys(lib, tags=tags, any_tag=any_tag, status=status)
    table = lib.memo_table(kind, compute(lib))
    lib.keep_memos()
    return [table[k] for k in keys]


def library_tags(start: str | Path | None = None) -> list[tuple[str, int]]:
    """(tag, number of entries carrying it), most used first."""
    from .library.tags import tag_counts

    lib = load_library(start)
    facets = lib.facets()
    lib.keep_memos()
    return tag_counts(facets.values(), tags_of=lambda facet: facet[1])


#: bump when :func:`entry_json` or the list line changes shape: older stored values are dropped
JSON_SHAPE = 1
_JSON = f"json:{JSON_SHAPE}"


def _list_line(row: dict[str, Any]) -> str:
    tag_text = f"  [{', '.join(row['tags'])}]" if row["tags"] else ""
    return f"{row['key']:<32} {row['status']:<10} {row['year'] or '':<5} {row['title']}{tag_text}"


def _indented_json(row: dict[str, Any]) -> str:
    """One row as it appears inside an indented JSON list (one level deeper)."""
    import json

    return "  " + json.dumps(row, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def _select_keys(lib: Library, *, tags: list[str] | None, any_tag: bool, status: str | None) -> list[str]:
    """Sorted keys of the entries passing the filters."""
    keys = lib.sorted_keys()
    if not (tags or status):
        return keys
    facets = lib.facets()
    if tags:
        from .library.tags import select

        keys = select(keys, tags, any_=any_tag, tags_of=lambda k: facets[k][1])
    if status:
        keys = [k for k in keys if facets[k][0] == status]
    return keys


def list_entries(start: str | Path | None = None, *, tags: list[str] | None = None, any_tag: bool = False,
                 status: str | None = None) -> list[Entry]:
    """Library entries, optionally filtered by tag expression and status, sorted by key."""
    return _select(load_library(start).sorted_entries(), tags=tags, any_tag=any_tag, status=status)


def _select(entries: list[Entry], *, tags: list[str] | None, any_tag: bool, status: str | None) -> list[Entry]:
    if tags:
        from .library.tags import select

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
        from .library.store import written_entry
        from .output.bibtex import render_entries

        text = render_entries([written_entry(entry)])
    return entry, text.rstrip()


def _find(key: str, start: str | Path | None) -> tuple[Library, Entry]:
    from .library.store import Library

    lib = Library.load(load_config(start).refs_dir)
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


__all__ = [
    "CitekitError", "SyncReport", "Problem", "project", "extract", "load_library", "sync",
    "entry_json", "library_tags", "list_entries", "list_json", "list_json_text", "list_json_bytes", "list_lines", "show", "show_bibtex",
]
