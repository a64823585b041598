"""The cache is behind the library, never in its way: a library loaded through the
parsed-library cache (``Library``, the :class:`~citekit.library.store.cache.CachedLibrary`)
holds what the same files loaded with no cache at all (:class:`PlainLibrary`) hold, and
writes the same bytes.

Checked on several libraries (bundled notes synced offline, entries of many shapes, a
library edited by hand with kept text between entries, an empty one), each in every state
a cached load can be in: as first stored, read back from the cache with nothing decoded,
read back with its memo tables stored, and after an edit and a save, the edit also made
to a copy through the plain library, whose files must come out byte for byte the same.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from citekit.api.export import _plain as export_plain
from citekit.api.library import entry_json
from citekit.core.model import Entry
from citekit.library.store import Library, PlainLibrary, kinds
from citekit.library.store.cache import state
from citekit.library.update import index_keys
from citekit.paper.check import twin_facts
from citekit.paper.cited import descriptor

from ..helpers_cli import synced_project
from .test_read_fast_paths import synced_with_varied_entries

#: each kind with the function its callers compute it with
DERIVED = {
    kinds.FACETS: lambda e: (e.status, e.tags),
    kinds.INDEX_KEYS: index_keys,
    kinds.DESCRIPTOR: descriptor,
    kinds.TWIN_FACTS: twin_facts,
    kinds.EXPORT_PLAIN: export_plain,
    kinds.ENTRY_JSON: entry_json,
}


def _view(lib: PlainLibrary) -> dict[str, Any]:
    """Everything a library holds, as plain data (entries through their cached state)."""
    return {
        "keys": set(lib.keys()),  # (in the order of the files, or of the library as stored)
        "sorted": lib.sorted_keys(),
        "aliases": lib.aliases_by_key(),
        "alias_map": lib.alias_map(),
        "lookups": {k: _key(lib.get(k)) for k in [*lib.keys(), *lib.alias_map(), "nosuchkey"]},
        "any_case": {k: _key(lib.get_any_case(k.upper())) for k in lib.keys()},
        "entries": {k: state.entry_state(e) for k, e in lib.entries.items()},
        "issued": sorted(lib.issued_keys),
        "taken": sorted(lib.taken_keys()),
        "detached": lib.detached,
        "detached_entries": [state.entry_state(e) for e in lib.detached_entries()],
        "kept": (lib.kept_head, lib.kept_before, lib.kept_tail),
        "pending": lib.pending,
        "ascii": lib.ascii,
        "problems": [(p.file, p.line, p.message) for p in lib.problems],
        "unparsed": lib.unparsed,
        "preamble": lib.preamble,
    }


def _key(entry: Entry | None) -> str | None:
    return None if entry is None else entry.key


def _derived(lib: PlainLibrary) -> dict[str, Any]:
    """Every memo table of :data:`DERIVED`, one value through :meth:`memo`, one answer."""
    out: dict[str, Any] = {kind: lib.memo_table(kind, compute) for kind, compute in DERIVED.items()}
    out["facets()"] = lib.facets()
    keys = lib.sorted_keys()
    if keys:
        entry = lib.get(keys[0])
        assert entry is not None
        out["memo"] = lib.memo(kinds.ENTRY_JSON, entry, entry_json)
    out["remembered"] = lib.remembered(kinds.published_twin("x"), lambda: len(lib.keys()))
    return out


def _files(refs: Path) -> tuple[bytes, bytes]:
    return (refs / "library.bib").read_bytes(), (refs / "library.yaml").read_bytes()


def _edit(lib: PlainLibrary) -> None:
    """The same edit, through what both kinds of library offer: tags, a field, an entry
    removed, an entry added."""
    keys = lib.sorted_keys()
    first = lib.get(keys[0])
    assert first is not None
    first.tags_added = sorted({*first.tags_added, "edited-tag"})
    if len(keys) > 2:
        second = lib.get(keys[2])
        assert second is not None
        second.fields["note"] = "a note added in code"
    if len(keys) > 3:
        lib.remove(keys[3])
    lib.add(Entry(key="zzadded2026", entry_type="article", origin="manual",
                  fields={"title": "An Entry Added in Code", "author": "Doe, Jane", "year": "2026"}))


def _bundled(tmp_path: Path) -> Path:
    return synced_project(tmp_path)


def _varied(tmp_path: Path) -> Path:
    return synced_with_varied_entries(tmp_path, 7)


def _hand_edited(tmp_path: Path) -> Path:
    """Entries of many shapes, then library.bib edited by hand: a title changed, a comment
    and a ``@string`` between two entries, a line at the end."""
    root = synced_with_varied_entries(tmp_path, 11)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    starts = [i for i in range(len(text)) if text.startswith("\n@", i)]
    text = text[:starts[3]] + "\n% a comment of mine\n@string{myconf = \"My Conference\"}\n" + text[starts[3]:]
    found = re.compile(r"\n  title +\= \{").search(text, starts[1])
    assert found is not None
    text = text[:found.end()] + "Retitled By Hand " + text[found.end():]
    bib.write_text(text + "% the end\n", encoding="utf-8")
    return root


def _empty(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "refs").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# an empty project\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("build", [_bundled, _varied, _hand_edited, _empty], ids=lambda f: f.__name__.strip("_"))
def test_a_cached_library_holds_and_writes_what_the_plain_one_does(build: Any, tmp_path: Path) -> None:
    root = build(tmp_path)
    refs = root / "refs"
    plain = PlainLibrary.load(refs)
    assert type(plain) is PlainLibrary
    expected = _view(plain)
    expected_derived = _derived(plain)
    plain_files = plain.render_files()
    # a render makes every entry what the next read of the files gives (a hand edit
    # becomes what citekit last wrote): the same in both
    rendered = _view(plain)

    first = Library.load(refs)  # parsed and stored (or read from what a sync stored)
    assert _view(first) == expected
    assert _derived(first) == expected_derived
    first.keep_memos()
    assert first.render_files() == plain_files
    assert _view(first) == rendered

    warm = Library.load(refs)  # from the cache, nothing decoded yet
    assert warm.is_lazy() or not warm.keys()
    assert _derived(warm) == expected_derived  # from the stored memo tables
    assert warm.is_lazy() or not warm.keys()
    assert warm.render_files() == plain_files  # entries never decoded: their stored texts
    assert _view(warm) == rendered
    assert _view(Library.load(refs)) == expected

    if not plain.keys():
        return
    # the same edit through both, on two copies of the project
    twin = tmp_path / "twin"
    shutil.copytree(root, twin)
    editing = Library.load(refs)
    _derived(editing)
    editing.keep_memos()
    _edit(editing)
    editing.save()
    other = PlainLibrary.load(twin / "refs")
    _edit(other)
    other.save()
    assert _files(refs) == _files(twin / "refs")

    assert _view(editing) == _view(other)  # in memory, after the same edit and save
    assert _derived(editing) == _derived(other)  # no value of a changed entry survives
    editing.keep_memos()

    plain_after = PlainLibrary.load(refs)
    view_after, derived_after = _view(plain_after), _derived(plain_after)
    files_after = plain_after.render_files()
    for again in (Library.load(refs), Library.load(refs)):  # with the values stored after the edit
        assert _derived(again) == derived_after
        again.keep_memos()
        assert again.render_files() == files_after
        assert _view(again) == _view(plain_after)
    assert _view(Library.load(refs)) == view_after
