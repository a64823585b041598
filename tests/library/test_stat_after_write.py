"""A write records the stat of the files it wrote, so the next command does not read and
hash them again; only when their last change is far enough back that a same-size edit
would show in their times (the file system's tick), and never a stat that changed since."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from citekit.core import cachefile
from citekit.library.store import Library
from citekit.library.store import files as store_files
from citekit.library.store.cache import library as cached_library

from .test_parsed_cache_roundtrip import _build, _entry, _view


@pytest.fixture()
def refs(tmp_path: Path) -> Path:
    refs = tmp_path / "refs"
    _build(refs, [_entry(random.Random(5), i) for i in range(30)])
    Library.load(refs).entries  # noqa: B018 - a load that stores the cache
    return refs


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One item per time a load reads both files whole."""
    out: list[int] = []
    real = store_files.read_pair

    def counted(refs_dir):
        out.append(1)
        return real(refs_dir)

    monkeypatch.setattr(store_files, "read_pair", counted)
    monkeypatch.setattr(cached_library, "read_pair", counted)
    return out


def _write(refs: Path, tag: str) -> None:
    lib = Library.load(refs)
    lib.get("k004").tags_added.append(tag)
    lib.save()


def test_the_command_after_a_write_reads_neither_file(refs: Path, reads: list[int],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cachefile, "FINE_RACY_NS", 0)  # (a write that took longer than the file system's tick)
    monkeypatch.setattr(cachefile, "RACY_NS", 0)
    _write(refs, "one")
    reads.clear()
    after = Library.load(refs)
    assert reads == []
    assert _view(after) == _view(Library.load(refs, use_cache=False))


def test_a_write_within_the_tick_records_nothing(refs: Path, reads: list[int],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cachefile, "FINE_RACY_NS", 10**15)
    monkeypatch.setattr(cachefile, "RACY_NS", 10**15)
    _write(refs, "two")
    reads.clear()
    Library.load(refs)
    assert reads == [1]  # read and hashed: a same-size edit in the same tick would not show


def test_an_edit_in_place_after_the_write_is_read(refs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cachefile, "FINE_RACY_NS", 0)
    monkeypatch.setattr(cachefile, "RACY_NS", 0)
    _write(refs, "three")
    bib = refs / "library.bib"
    stamp = os.stat(bib)
    data = bib.read_bytes()
    time.sleep(0.01)
    with open(bib, "r+b") as handle:  # the same size, the same inode, the same modification time
        handle.write(data.replace(b"k007,", b"k00x,", 1))
    os.utime(bib, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert "k00x" in Library.load(refs).keys()


def test_times_in_whole_seconds_keep_the_long_window() -> None:
    now = 1_700_000_000 * 10**9
    assert cachefile.racy((1, now - 10**9, now - 10**9, 1), now)  # a second ago, on a coarse file system
    assert not cachefile.racy((1, now - 10**9 + 7, now - 10**9 + 7, 1), now)  # on a fine one
    assert cachefile.racy((1, now - 10**6 + 7, now - 10**6 + 7, 1), now)  # a millisecond ago: within a tick
