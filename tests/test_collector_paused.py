"""Reading and importing pause the cyclic garbage collector, and always give it back as it was."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from citekit.bibtex.reader import read_bib_file
from citekit.bibtex.collector import collector_paused
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


def test_within_a_command_paused_objects_are_frozen_until_it_ends(tmp_path: Path) -> None:
    """A command freezes what it built with the collector paused (no collection walks the
    library again), and hands it all back when it ends, so cyclic garbage made meanwhile
    is still collected in a process that runs many commands."""
    from citekit.bibtex.collector import one_command

    assert gc.get_freeze_count() == 0

    class Node:
        pass

    with one_command():
        with collector_paused():
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle only the collector can free
            del a, b
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    assert gc.collect() >= 2  # the cycle made inside the command was not kept forever


def test_the_command_line_leaves_nothing_frozen(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from citekit.cli import main

    bib = tmp_path / "in.bib"
    bib.write_text("@article{a, title = {One}, year = 2020}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(tmp_path), "import", str(bib)])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == 0 and gc.isenabled()
