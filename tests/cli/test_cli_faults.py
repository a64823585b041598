"""Disk and permission faults end in one message that says what to do, never a traceback.

Tests run as root, where a read-only mode bit does not stop a write, so each fault is
injected where the operating system would raise it: every open-for-writing of a path
inside the target folder fails with the errno under test.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main

from ..helpers_cli import digest, synced_project

FAULTS = {
    errno.ENOSPC: "disk is full",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EDQUOT: "quota",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return synced_project(tmp_path)


def fail_writes_under(monkeypatch: pytest.MonkeyPatch, folder: Path, code: int) -> None:
    """Every attempt to create or write a file inside ``folder`` raises OSError(code)."""
    folder = folder.resolve()
    real_open, real_os_open = builtins.open, os.open

    def inside(path: object) -> bool:
        try:
            return Path(os.fsdecode(path)).resolve().is_relative_to(folder)  # type: ignore[arg-type]
        except TypeError:
            return False  # a file descriptor

    def guarded_open(file, mode="r", *args, **kwargs):
        if inside(file) and any(c in mode for c in "wax+"):
            raise OSError(code, os.strerror(code), os.fsdecode(file))
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path, flags, *args, **kwargs):
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(code, os.strerror(code), os.fsdecode(path))
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(io, "open", guarded_open)
    monkeypatch.setattr(os, "open", guarded_os_open)


@pytest.mark.parametrize("code", sorted(FAULTS))
@pytest.mark.parametrize("args", [
    ["tag", "KEY", "+must-read"],
    ["sync", "--offline", "--ascii"],
    ["import", "IMPORT"],
])
def test_write_fault_in_refs_is_a_message_and_changes_nothing(project, monkeypatch, code, args):
    key = next(iter(_keys(project)))
    (project / "other.bib").write_text("@article{knuth1984, author = {Knuth, Donald}, title = {Literate Programming},"
                                       " journal = {Comput. J.}, year = {1984}}\n", encoding="utf-8")
    args = [key if a == "KEY" else str(project / "other.bib") if a == "IMPORT" else a for a in args]
    before = digest(project / "refs")
    fail_writes_under(monkeypatch, project / "refs", code)
    result = CliRunner().invoke(main, ["-C", str(project), *args])
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    message = result.stderr.strip().splitlines()
    assert len(message) == 1 and message[0].startswith("citekit: "), result.stderr
    assert FAULTS[code] in message[0].lower() and "refs" in message[0]
    assert digest(project / "refs") == before


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_export_to_a_faulty_folder(project, monkeypatch, tmp_path, code):
    paper = tmp_path / "paper"
    paper.mkdir()
    fail_writes_under(monkeypatch, paper, code)
    result = CliRunner().invoke(main, ["-C", str(project), "export", "-o", str(paper / "refs.bib")])
    monkeypatch.undo()
    assert result.exit_code == 2 and FAULTS[code] in result.stderr.lower(), result.output
    assert str(paper / "refs.bib") in result.stderr or str(paper) in result.stderr
    assert list(paper.iterdir()) == []


def test_unreadable_config_is_a_message(project, monkeypatch):
    real_read = Path.read_text

    def denied(self, *args, **kwargs):
        if self.name == "citekit.yaml":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self, *args, **kwargs)

    real_bytes = Path.read_bytes

    def denied_bytes(self):
        if self.name == "citekit.yaml":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_bytes(self)

    monkeypatch.setattr(Path, "read_text", denied)
    monkeypatch.setattr(Path, "read_bytes", denied_bytes)
    result = CliRunner().invoke(main, ["-C", str(project), "list"])
    assert result.exit_code == 2
    assert "citekit.yaml: permission denied" in result.stderr.lower() and "ls -l" in result.stderr


def test_every_message_says_what_to_do():
    from citekit.cli.app import os_message

    for code in (*FAULTS, errno.ENOENT, errno.ENOTDIR, errno.EIO):
        text = os_message(OSError(code, os.strerror(code), "/x/refs/library.bib"))
        assert text.startswith("/x/refs/library.bib: ")
        assert any(verb in text for verb in ("Free", "Run", "Check")), text
    hidden = os_message(OSError(errno.EROFS, "x", "/p/refs/.library.bib.k2j3.tmp"))
    assert hidden.startswith("/p/refs/: ") and "read-only" in hidden


def _keys(root: Path) -> list[str]:
    import json

    result = CliRunner().invoke(main, ["-C", str(root), "list", "--json"])
    return [e["key"] for e in json.loads(result.stdout)]


@pytest.mark.parametrize("text,needle", [
    ("database or disk is full", "disk is full"),
    ("attempt to write a readonly database", "read-only"),
    ("unable to open database file", "permissions"),
])
def test_cache_faults_from_sqlite_are_messages(text, needle):
    import sqlite3

    from citekit.cli.app import explain

    code, message = explain(sqlite3.OperationalError(text))
    assert code == 2 and needle in message and "CITEKIT_CACHE_DIR" in message


def test_a_bug_is_not_hidden_as_a_message():
    import sqlite3

    from citekit.cli.app import explain

    assert explain(sqlite3.OperationalError("no such column: x"))[0] is None
    assert explain(KeyError("x"))[0] is None
