"""Writes append the blobs of the entries they changed to the cache's blob file instead of
copying it whole, and the file never grows far past what it holds.

Each test loads, changes and writes through the library API, then compares what the cache
gives with a fresh parse of the files (the cache is never the judge of itself).
"""

from __future__ import annotations

import random
from pathlib import Path

from citekit.library.store import Library
from citekit.library.store.cache import parsed_cache

from .test_parsed_cache_roundtrip import _build, _entry, _view


def _blob_file(refs: Path) -> Path:
    (blob,) = (refs.parent / ".citekit").glob("refs-blobs-*.cache")
    return blob


def _library(tmp_path: Path, n: int = 60) -> Path:
    refs = tmp_path / "refs"
    _build(refs, [_entry(random.Random(11), i) for i in range(n)])
    Library.load(refs).entries  # noqa: B018 - a load that stores the cache
    return refs


def _tag(refs: Path, key: str, tag: str) -> None:
    lib = Library.load(refs)
    lib.get(key).tags_added.append(tag)
    lib.save()


def test_a_one_entry_write_appends_to_the_blob_file_and_reads_back_as_a_parse(tmp_path: Path) -> None:
    refs = _library(tmp_path)
    blob = _blob_file(refs)
    size = blob.stat().st_size
    _tag(refs, "k007", "appended")
    assert _blob_file(refs) == blob, "a one-entry write should append to the blob file, not replace it"
    grown = blob.stat().st_size - size
    assert 0 < grown < size // 10, f"{grown} bytes appended for one entry of {size}"
    assert _view(Library.load(refs)) == _view(Library.load(refs, use_cache=False))
    assert "appended" in Library.load(refs).get("k007").tags


def test_many_writes_keep_the_blob_file_near_what_it_holds(tmp_path: Path, monkeypatch) -> None:
    from citekit.library.store.cache import blob_pack as blobs

    monkeypatch.setattr(blobs, "LEFT_BEHIND", 0)  # (a megabyte is allowed: this library is smaller)
    refs = _library(tmp_path, n=40)
    names = set()
    for i in range(120):  # each write replaces one entry's blobs: the old ones are left behind
        _tag(refs, f"k{i % 40:03d}", f"t{i}")
        names.add(_blob_file(refs).name)
        stored = parsed_cache.read(refs, None)
        live = sum(len(blob) for name in parsed_cache.PACKED for blob in stored[name].values())
        assert _blob_file(refs).stat().st_size <= 1.25 * live
    assert len(names) > 1  # packed anew now and then
    assert _view(Library.load(refs)) == _view(Library.load(refs, use_cache=False))
    assert len(list((refs.parent / ".citekit").glob("refs-blobs-*.cache"))) == 1


def test_a_full_blob_file_is_packed_anew(tmp_path: Path, monkeypatch) -> None:
    from citekit.library.store.cache import blob_pack as blobs

    refs = _library(tmp_path)
    before = _blob_file(refs)
    monkeypatch.setattr(blobs, "LEFT_BEHIND", 0)
    monkeypatch.setattr(parsed_cache, "append_parts", lambda *a, **k: blobs.append_parts(*a, **{**k, "slack": 0.0}))
    _tag(refs, "k003", "packed")
    assert _blob_file(refs) != before and not before.exists()
    assert _view(Library.load(refs)) == _view(Library.load(refs, use_cache=False))


def test_a_reader_of_the_older_cache_still_reads_its_entries_after_an_append(tmp_path: Path) -> None:
    refs = _library(tmp_path)
    as_loaded = Library.load(refs, use_cache=False)
    reader = Library.load(refs)  # holds the cache as it was, its entries not decoded yet
    blob, size = _blob_file(refs), _blob_file(refs).stat().st_size
    _tag(refs, "k005", "later")
    _tag(refs, "k006", "later")
    assert _blob_file(refs) == blob and blob.stat().st_size > size  # the file it reads was appended to
    assert _view(reader) == _view(as_loaded)  # every entry decoded from the bytes it pointed at


def test_an_append_to_a_blob_file_cut_short_since_is_not_trusted(tmp_path: Path) -> None:
    refs = _library(tmp_path)
    lib = Library.load(refs)
    blob = _blob_file(refs)
    blob.write_bytes(blob.read_bytes()[: blob.stat().st_size // 2])  # (a crash, a full disk)
    lib.get("k002").tags_added.append("after-cut")
    lib.save()
    assert _view(Library.load(refs)) == _view(Library.load(refs, use_cache=False))
