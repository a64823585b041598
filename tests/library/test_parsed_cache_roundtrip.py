"""A library read from the parsed-library cache is the library a full parse of refs/ gives.

Libraries of many shapes (empty, one entry, non-ASCII and LaTeX text, ASCII mode, aliases,
records detached by hand, unreadable blocks) and real ones beside the repository are
written, then read three ways: from the cache a write stored, from the cache a cold load
stored (no ``.citekit/`` before), and by a parse that ignores any cache. All three must be
equal, also after hand edits of library.bib and after writes that change entries.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from citekit.core import cachefile
from citekit.library.store.cache import parsed_cache
from citekit.library.importer import import_files
from citekit.library.store import Library
from citekit.core.model import Entry, Ids

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
REAL = ["thesis-gowda/anthology.bib", "plume-bib/ernst.bib", "plume-bib/nlp.bib", "pybtex/xampl.bib",
        "pybtex/cyrillic.bib",
        "jabref-test-bib/jablib/src/test/resources/org/jabref/logic/importer/fileformat/CitaviXmlImporterTest3.bib"]

WORDS = ["Ünïcode", "naïve", "{GPU}", "$\\alpha$-nets", "漢字", "\\'{e}t\\'{e}", "Zürich", "robust", "sparse", "Муон"]


def _entry(rnd: random.Random, i: int, prefix: str = "k") -> Entry:
    title = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))) + f" {i}"
    fields = {"title": title, "author": rnd.choice(["Müller, Jörg", "Lee, Ann and Chen, Bo", "{The Team}", "Ødegård, Å."]),
              "year": str(1980 + i % 45)}
    if i % 3 == 0:
        fields["journal"] = rnd.choice(["J. Ex{\\\"a}mple", "Nature", "Revue française"])
    if i % 4 == 0:
        fields["note"] = "multi\nline   value  with runs of spaces"
    if i % 5 == 0:
        fields["month"] = rnd.choice(["December", "jan", "5"])
    entry = Entry(key=f"{prefix}{i:03d}", entry_type=rnd.choice(["article", "misc", "book", "inproceedings"]),
                  fields=fields, origin=rnd.choice(["import", "notes"]),
                  status=rnd.choice(["resolved", "notes-only", "unresolved"]))
    entry.tags_added = sorted(rnd.sample(["theory", "muon", "vision", "ünï"], rnd.randint(0, 2)))
    if i % 6 == 0:
        entry.aliases = [f"old{prefix}{i}", f"Alt{prefix}{i}"]
    if i % 7 == 0:
        entry.ids = Ids(doi=f"10.1000/{i}", arxiv=f"2301.{i:05d}")
        entry.summary = f"Résumé {i}: a short summary."
    return entry


def _build(refs: Path, entries: list[Entry], *, ascii: bool = False) -> None:
    lib = Library.load(refs)
    lib.ascii = ascii
    for entry in entries:
        lib.add(entry)
    lib.save()


def _view(lib: Library) -> dict[str, Any]:
    """Everything a load gives, in a form that compares by value."""
    return {
        "keys": sorted(lib.keys()),
        "entries": {k: lib.entries[k] for k in sorted(lib.entries)},
        "got": {k: lib.get(k) for k in sorted(lib.keys())},
        "aliases": lib.alias_map(),
        "issued": sorted(lib.issued_keys),
        "problems": [(p.file, p.line, p.message) for p in lib.problems],
        "unparsed": lib.unparsed, "preamble": lib.preamble, "pending": lib.pending,
        "ascii": lib.ascii, "detached": lib.detached,
    }


def _block(text: str, key: str) -> tuple[int, int]:
    """Where the entry ``key`` is in a library.bib citekit wrote: its ``@`` to its closing line."""
    start = text.rindex("@", 0, text.index("{" + key + ",\n"))
    return start, text.index("\n}\n", start) + 3


def _retitle(text: str, key: str, prefix: str) -> str:
    """``prefix`` put before the title of entry ``key``, as a person edits it."""
    start, end = _block(text, key)
    at = text.index("{", text.index("\n  title ", start)) + 1
    assert at < end
    return text[:at] + prefix + text[at:]


def _cached(refs: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    """A load that must come from the cache (a parse fails the test)."""
    def no_parse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("refs/ was parsed although the cache holds these files")

    with monkeypatch.context() as patch:
        patch.setattr(Library, "_parse", classmethod(no_parse))
        lib = Library.load(refs)
        view = _view(lib)  # decoded here, while a parse would still fail
    assert view
    return lib


def _same_every_way(refs: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The cache as stored now, the cache a cold load stores, and a full parse agree."""
    full = _view(Library.load(refs, use_cache=False))
    assert _view(_cached(refs, monkeypatch)) == full
    shutil.rmtree(refs.parent / ".citekit")
    assert _view(Library.load(refs)) == full  # a cold load: parsed, then stored
    assert _view(_cached(refs, monkeypatch)) == full
    return full


def _shapes() -> dict[str, tuple[list[Entry], bool]]:
    rnd = random.Random(13)
    return {
        "empty": ([], False),
        "one entry": ([_entry(rnd, 1)], False),
        "one entry, non-ASCII text": ([Entry(key="odegard2020", entry_type="article",
                                                 fields={"title": "Über Ünïcode 漢字", "author": "Ødegård, Å."},
                                                 origin="import", status="resolved")], False),
        "varied": ([_entry(rnd, i) for i in range(80)], False),
        "varied, ASCII mode": ([_entry(rnd, i, "a") for i in range(40)], True),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_a_cached_load_is_a_full_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    entries, ascii = _shapes()[shape]
    refs = tmp_path / "refs"
    _build(refs, entries, ascii=ascii)
    full = _same_every_way(refs, monkeypatch)
    assert len(full["keys"]) == len(entries)


def test_hand_edits_are_read_the_same_from_the_cache_and_log_only_what_they_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(5)
    refs = tmp_path / "refs"
    _build(refs, [_entry(rnd, i) for i in range(60)])
    Library.load(refs)
    bib = refs / "library.bib"
    text = bib.read_text(encoding="utf-8")
    # edit one title, delete one entry (its sidecar record becomes detached), add one by hand,
    # and break one entry so it is kept as an unreadable block
    text = _retitle(text, "k010", "Hand-edited Ünïcode ")
    start, end = _block(text, "k020")
    text = text[:start] + text[end:]
    start, end = _block(text, "k030")
    text = text[:start] + text[start:end].replace("title", "title = {broken", 1) + text[end:]
    text += "\n@misc{byhand2024,\n  title = {Written by Hand, Ünïcode},\n  year = {2024},\n}\n"
    bib.write_text(text, encoding="utf-8")
    edited = Library.load(refs)  # parsed: the stored cache of the earlier files is continued
    assert "Hand-edited" in edited.entries["k010"].fields["title"]
    assert "k020" in edited.detached and "byhand2024" in edited.entries
    assert "k030" not in edited.entries and any("{k030," in t for t in edited.kept_before.values())  # kept in place
    stored = parsed_cache.read(refs, None)
    assert stored is not None
    # the change this load logged: the unchanged entries' states were found equal to the
    # stored ones (the bytes compared), the others named
    assert set(stored["memo_log"][-1][1]) == {"k010", "k020", "k030", "byhand2024"}
    full = _view(Library.load(refs, use_cache=False))
    assert _view(_cached(refs, monkeypatch)) == full
    shutil.rmtree(refs.parent / ".citekit")
    assert _view(Library.load(refs)) == full


def test_writes_that_change_entries_store_what_a_parse_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(8)
    refs = tmp_path / "refs"
    _build(refs, [_entry(rnd, i) for i in range(50)])
    for step in range(4):
        lib = Library.load(refs)  # from the cache the last write stored
        keys = lib.keys()
        if step == 0:
            lib.get(keys[3]).tags_added = ["x"]  # one entry decoded and changed
        elif step == 1:
            lib.remove(keys[5])
            lib.add(_entry(rnd, 500 + step))
        elif step == 2:
            for key in keys[::7]:
                lib.entries[key].fields["title"] += " (changed)"
        else:
            lib.entries[keys[0]].aliases = [*lib.entries[keys[0]].aliases, "newalias"]
            lib.issued_keys.add("newalias")  # as a merge does: an alias is a key given out
        lib.save()
        full = _view(Library.load(refs, use_cache=False))
        assert _view(_cached(refs, monkeypatch)) == full
    assert "newalias" in full["aliases"]
    _same_every_way(refs, monkeypatch)


def test_a_write_that_changes_nothing_keeps_a_cache_equal_to_a_parse(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(2)
    refs = tmp_path / "refs"
    _build(refs, [_entry(rnd, i) for i in range(30)])
    lib = Library.load(refs)
    assert lib.memo("probe", lib.get("k004"), lambda e: e.title) == lib.get("k004").title
    before = {p.name: p.read_bytes() for p in (refs / "library.bib", refs / "library.yaml")}
    assert lib.save() is False  # nothing to write
    assert {p.name: p.read_bytes() for p in (refs / "library.bib", refs / "library.yaml")} == before
    again = _cached(refs, monkeypatch)
    assert _view(again) == _view(Library.load(refs, use_cache=False))
    # the value derived in that run was stored all the same
    assert again.memo("probe", again.get("k004"), lambda e: pytest.fail("derived again")) == again.get("k004").title
    # the stored cache removed (or replaced by another process) meanwhile: stored again
    lib = Library.load(refs)
    shutil.rmtree(refs.parent / ".citekit")
    assert lib.save() is False
    assert _view(_cached(refs, monkeypatch)) == _view(Library.load(refs, use_cache=False))
    # a cold load stores no entry texts: its first write stores them, so the next one renders one entry
    shutil.rmtree(refs.parent / ".citekit")
    assert Library.load(refs).save() is False
    from citekit.library.store.cache import layout as chunks  # (where a write renders an entry)

    rendered: list[str] = []
    real = chunks.render_changed
    monkeypatch.setattr(chunks, "render_changed", lambda entry, *a: rendered.append(entry.key) or real(entry, *a))
    lib = Library.load(refs)
    lib.get("k007").tags_added = ["once"]
    lib.save()
    assert rendered == ["k007"]


def test_a_cut_short_or_missing_blob_file_is_ignored(tmp_path: Path) -> None:
    rnd = random.Random(3)
    refs = tmp_path / "refs"
    _build(refs, [_entry(rnd, i) for i in range(40)])
    full = _view(Library.load(refs, use_cache=False))
    for damage in ("cut", "empty", "missing"):
        Library.load(refs).entries  # noqa: B018 - a load that stores the cache
        (blob,) = (refs.parent / ".citekit").glob("refs-blobs-*.cache")
        data = blob.read_bytes()
        if damage == "missing":
            blob.unlink()
        else:
            blob.write_bytes(data[:len(data) // 3] if damage == "cut" else b"")
        assert _view(Library.load(refs)) == full  # parsed again, not half decoded
        assert parsed_cache.read(refs, None) is not None  # and stored again


@pytest.mark.parametrize("name", REAL)
def test_real_libraries_read_the_same_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{name} is not beside the repository (the corpora folder is missing)")
    refs = tmp_path / "refs"
    lib = Library.load(refs)
    import_files(lib, [path])
    lib.save()
    full = _same_every_way(refs, monkeypatch)
    assert full["keys"]
    # one entry edited by hand: only it differs from the stored states
    bib = refs / "library.bib"
    text = bib.read_text(encoding="utf-8")
    middle = text.index("\n@", len(text) // 2) + 1
    key = text[text.index("{", middle) + 1:text.index(",", middle)]
    bib.write_text(_retitle(text, key, "Edited "), encoding="utf-8")
    Library.load(refs)
    stored = parsed_cache.read(refs, None)
    assert stored is not None and stored["memo_log"][-1][1] == [key]
    assert _view(_cached(refs, monkeypatch)) == _view(Library.load(refs, use_cache=False))
    # a write after the hand edit (the edited entry and one more changed), read every way
    lib = Library.load(refs)
    other = lib.keys()[0]
    lib.get(other).tags_added = ["after-edit"]
    lib.save()
    full = _same_every_way(refs, monkeypatch)
    assert "after-edit" in full["entries"][other].tags and "Edited" in full["entries"][key].fields["title"]


def test_many_parts_are_written_whole_even_when_a_write_stops_short(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(4)
    parts = [rnd.randbytes(rnd.choice([0, 1, 17, 900, 5000])) for _ in range(3000)]
    target = tmp_path / "blobs.cache"
    assert cachefile.replace_quietly(target, parts)
    assert target.read_bytes() == b"".join(parts)
    if hasattr(os, "writev"):
        real = os.writev

        def short(fd: int, buffers: list[bytes]) -> int:  # as a full disk or a signal may
            return real(fd, buffers[:len(buffers) // 2])

        monkeypatch.setattr(os, "writev", short)
        assert cachefile.replace_quietly(target, parts)
        assert target.read_bytes() == b"".join(parts)
    assert cachefile.replace_quietly(target, [])
    assert target.read_bytes() == b""
    assert [p.name for p in tmp_path.iterdir()] == ["blobs.cache"]  # no temporary left
