"""Reading and importing pause the cyclic garbage collector, and always give it back as it was."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from citekit.library.bibfile import read_bib_file
from citekit.library.collector import collector_paused
from citekit.library.importer import import_files
from citekit.library.store import Library


def test_the_collector_is_off_inside_and_restored_after_even_on_error() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():  # nested: the outer one gives it back
                pass
            assert not gc.isenabled()
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_caller_that_paused_it_keeps_it_paused() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_reading_and_importing_leave_the_collector_on(tmp_path: Path) -> None:
    bib = tmp_path / "in.bib"
    bib.write_text("@article{a, title = {One}, year = 2020}\n@article{b, title = {Two {GaN}}, year = 2021}\n",
                   encoding="utf-8")
    assert [e.key for e in read_bib_file(bib).entries] == ["a", "b"]
    assert gc.isenabled()
    lib = Library.load(tmp_path / "refs")
    report = import_files(lib, [bib])
    assert report.added == ["a", "b"] and gc.isenabled()
    with pytest.raises(FileNotFoundError):
        import_files(lib, [tmp_path / "missing.bib"])
    assert gc.isenabled()
