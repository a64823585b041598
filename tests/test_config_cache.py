"""The checked citekit.yaml kept in .citekit/ is used only for exactly the same bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from citekit.core.config import ConfigError, load_config


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    (tmp_path / ".citekit").mkdir()  # a project where a command has run before
    return tmp_path


def _write(root: Path, text: str, mtime_ns: int | None = None) -> None:
    path = root / "citekit.yaml"
    path.write_text(text, encoding="utf-8")
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))


def test_the_second_load_reads_the_stored_check_and_gives_the_same(root: Path) -> None:
    _write(root, "paths: {notes: mynotes, refs: myrefs}\nkeys: {formula: '{author}{year}'}\n")
    first = load_config(root)
    assert (root / ".citekit" / "config.cache").exists()
    second = load_config(root)
    assert second.data == first.data and second.refs_dir == root / "myrefs" and second.key_formula == "{author}{year}"


def test_an_edit_of_the_same_size_and_time_is_still_seen(root: Path) -> None:
    _write(root, "paths: {refs: aaaa}\n", mtime_ns=1_700_000_000_000_000_000)
    assert load_config(root).refs_dir == root / "aaaa"
    _write(root, "paths: {refs: bbbb}\n", mtime_ns=1_700_000_000_000_000_000)
    assert load_config(root).refs_dir == root / "bbbb"


@pytest.mark.parametrize("bad", ["paths: [unclosed\n", "keys: {formula: 3}\nunknown_key: 1\n", "- a list\n"])
def test_a_broken_file_is_refused_even_after_a_good_one_was_stored(root: Path, bad: str) -> None:
    _write(root, "paths: {refs: refs}\n")
    load_config(root)
    _write(root, bad)
    with pytest.raises(ConfigError):
        load_config(root)


@pytest.mark.parametrize("garbage", [b"", b"\x00\x01junk", b"\xe9" * 50])
def test_a_damaged_store_is_ignored(root: Path, garbage: bytes) -> None:
    _write(root, "paths: {refs: stored}\n")
    load_config(root)
    (root / ".citekit" / "config.cache").write_bytes(garbage)
    assert load_config(root).refs_dir == root / "stored"


def test_nothing_is_created_in_a_folder_citekit_never_used(tmp_path: Path) -> None:
    _write(tmp_path, "paths: {refs: r}\n")
    assert load_config(tmp_path).refs_dir == tmp_path / "r"
    assert not (tmp_path / ".citekit").exists()
