"""Paths read from files a repository carries are data, not orders.

``refs/.citekit-journal``, the key maps and ``citekit.yaml`` all travel with a clone. A
crafted one must not make any command (even ``list``) read, write or delete a file
outside ``refs/`` (resp. the project): each test puts a victim file beside the project
and checks its bytes, and that nothing new appeared outside the project.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.cli import main
from citekit.library import journal
from tests.helpers_cli import synced_project

VICTIM = b"export SECRET=victim-bytes\n"
TEMP = ".citekit-new-0badc0de-library.bib"


def _outside(tmp_path: Path, root: Path) -> dict[str, bytes | str]:
    """Every file under ``tmp_path`` that is not inside the project, with its bytes (a link
    with where it points: a link made outside the project is a touch too)."""
    return {str(p.relative_to(tmp_path)): ("link:" + os.readlink(p) if p.is_symlink() else p.read_bytes())
            for p in sorted(tmp_path.rglob("*")) if (p.is_file() or p.is_symlink()) and root not in p.parents}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return synced_project(tmp_path_factory.mktemp("pristine"))


@pytest.fixture
def world(pristine, tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(project, victim folder), the project a copy of a synced one; run from inside it,
    as a user would (old journals' relative paths were taken from there)."""
    root = tmp_path / "proj"
    shutil.copytree(pristine, root, ignore=shutil.ignore_patterns(".citekit"))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "bashrc").write_bytes(VICTIM)
    (victim / "library.bib").write_bytes(VICTIM)
    (victim / ".citekit-new-0badc0de-bashrc").write_bytes(b"PWNED\n")
    monkeypatch.chdir(root)
    return root, victim


def _journals(root: Path, victim: Path) -> dict[str, dict]:
    """Crafted journals, each aiming at the victim folder a different way."""
    refs = root / "refs"
    (refs / TEMP).write_bytes(b"PWNED\n")
    sha = hashlib.sha256(b"PWNED\n").hexdigest()
    (refs / "out").symlink_to(victim, target_is_directory=True)
    return {
        "relative ..": {"state": "commit", "files": [{"target": "../victim/bashrc", "temp": f"refs/{TEMP}",
                                                       "sha256": sha}]},
        "absolute target": {"state": "commit", "files": [{"target": str(victim / "bashrc"),
                                                          "temp": str(victim / ".citekit-new-0badc0de-bashrc"),
                                                          "sha256": sha}]},
        "absolute temp deleted": {"state": "prepare", "files": [{"target": str(refs / "library.bib"),
                                                                "temp": str(victim / "bashrc")}]},
        "symlinked folder": {"state": "commit", "files": [{"target": str(refs / "out" / "library.bib"),
                                                           "temp": str(refs / "out" / "bashrc"), "sha256": sha}]},
        "windows drive": {"state": "prepare", "files": [{"target": "C:\\victim\\bashrc", "temp": "..\\..\\victim\\bashrc"}]},
        "windows dots": {"state": "commit", "files": [{"target": "..\\..\\victim\\bashrc", "temp": TEMP, "sha256": sha}]},
    }


def _run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args])


COMMANDS = [("list",), ("sync", "--offline", "-q"), ("tag", "huang2026light", "+x"), ("doctor",), ("doctor", "--fix")]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", ["relative ..", "absolute target", "absolute temp deleted", "symlinked folder",
                                  "windows drive", "windows dots"])
def test_a_crafted_journal_touches_nothing_outside_refs(world, tmp_path, kind, command):
    root, victim = world
    crafted = _journals(root, victim)[kind]
    journal.journal_path(root / "refs").write_text(json.dumps(crafted), encoding="utf-8")
    before = _outside(tmp_path, root)
    result = _run(root, *command)
    assert "Traceback" not in result.output and not isinstance(result.exception, Exception), result.output
    assert _outside(tmp_path, root) == before
    assert (victim / "bashrc").read_bytes() == VICTIM
    set_aside = journal.refused_journals(root / "refs")
    if command == ("doctor",):  # checking reads only: the journal is named, left in place
        assert result.exit_code == 1 and ".citekit-journal will not be acted on" in result.output
        assert journal.journal_path(root / "refs").exists() and not set_aside
    else:
        assert result.exit_code in (0, 1), result.output
        assert "was not acted on" in result.output and len(set_aside) == 1
        assert not journal.journal_path(root / "refs").exists()
        assert json.loads(set_aside[0].read_text(encoding="utf-8")) == crafted  # kept as it was, for a look
        assert not (root / "refs" / TEMP).exists()  # its temporary inside refs/ is an ordinary stale one


def test_a_refused_journal_is_reported_once_and_doctor_then_only_notes_it(world):
    root, victim = world
    journal.journal_path(root / "refs").write_text(json.dumps(_journals(root, victim)["relative .."]), "utf-8")
    first = _run(root, "list")
    assert first.output.count("was not acted on") == 1 and "set aside as .citekit-journal.refused-" in first.output
    again = _run(root, "list")
    assert "was not acted on" not in again.output
    doctor = _run(root, "doctor")
    assert doctor.exit_code == 0 and "is a journal citekit refused and set aside" in doctor.output


def test_a_journal_left_by_the_previous_version_is_still_finished(world):
    """Earlier versions named files by absolute path; inside refs/ they are resolved, checked and obeyed."""
    root, _victim = world
    refs = root / "refs"
    new_bib = (refs / "library.bib").read_bytes()
    old_bib, old_side = new_bib, (refs / "library.yaml").read_bytes()
    temps = {}
    for name, data in (("library.bib", old_bib), ("library.yaml", old_side)):
        temps[name] = refs / f".citekit-new-12345678-{name}"
        temps[name].write_bytes(data)
    record = {"state": "commit", "files": [
        {"target": str((refs / n).absolute()), "temp": str(t.absolute()), "sha256": hashlib.sha256(t.read_bytes()).hexdigest()}
        for n, t in temps.items()]}
    journal.journal_path(refs).write_text(json.dumps(record), encoding="utf-8")
    result = _run(root, "list")
    assert result.exit_code == 0 and "was not acted on" not in result.output
    assert not journal.journal_path(refs).exists() and not any(t.exists() for t in temps.values())
    assert not journal.refused_journals(refs)


# unit: the journal record exists only while it is written; a spy on the writer sees it
def test_new_journals_name_refs_files_by_name_only(world, monkeypatch):
    root, _victim = world
    seen = []
    real = journal._write_journal
    monkeypatch.setattr(journal, "_write_journal", lambda refs, record: (seen.append(record), real(refs, record)))
    assert _run(root, "tag", "huang2026light", "+named").exit_code == 0
    names = {f["target"] for r in seen for f in r["files"]} | {f["temp"] for r in seen for f in r["files"]}
    assert seen and all("/" not in n and "\\" not in n for n in names)
    assert {f["target"] for r in seen for f in r["files"]} <= journal.REFS_FILES and "seal" not in seen[-1]


# unit: the journal record exists only while it is written; a spy on the writer sees it
def test_rekey_sources_outside_refs_are_journaled_under_a_seal_and_a_forged_one_is_refused(world, monkeypatch):
    root, victim = world
    refs = root / "refs"
    paper = root / "paper.tex"
    paper.write_text("\\cite{old}\n", encoding="utf-8")
    (refs / "keymap.yaml").write_text("old: huang2026light\n", encoding="utf-8")
    seen = []
    real = journal._write_journal
    monkeypatch.setattr(journal, "_write_journal", lambda r, record: (seen.append(record), real(r, record)))
    assert _run(root, "rekey", str(paper)).exit_code == 0
    assert "huang2026light" in paper.read_text(encoding="utf-8")
    sealed = seen[-1]
    assert sealed["files"][0]["target"] == str(paper.absolute()) and len(sealed["seal"]) == 64
    monkeypatch.undo()
    # the same record pointed at the victim: the seal no longer matches
    forged = json.loads(json.dumps(sealed))
    forged["files"][0]["target"] = str(victim / "bashrc")
    forged["files"][0]["temp"] = str(victim / ".citekit-new-0badc0de-bashrc")
    forged["files"][0]["sha256"] = hashlib.sha256(b"PWNED\n").hexdigest()
    journal.journal_path(refs).write_text(json.dumps(forged), encoding="utf-8")
    result = _run(root, "list")
    assert "without this account's seal" in result.output
    assert (victim / "bashrc").read_bytes() == VICTIM


# ---- wrong shapes: finding 10 -----------------------------------------------------------------

WRONG_SHAPES = {
    "a list": [],
    "files as text": {"state": "commit", "files": "x"},
    "target a number": {"state": "commit", "files": [{"target": 3}]},
    "no files": {"state": "prepare"},
    "no state": {"files": [{"target": "library.bib", "temp": TEMP}]},
    "not JSON": "{\"state\": \"comm",
    "deep": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("shape", WRONG_SHAPES, ids=str)
def test_a_journal_of_the_wrong_shape_is_a_message_in_every_command_and_fix_settles_it(world, shape):
    root, _victim = world
    refs = root / "refs"
    value = WRONG_SHAPES[shape]
    text = value if isinstance(value, str) else json.dumps(value)

    def plant():
        journal.journal_path(refs).write_text(text, encoding="utf-8")

    plant()
    listed = _run(root, "list")
    assert listed.exit_code == 0 and not isinstance(listed.exception, Exception) and "was not acted on" in listed.output, listed.output
    plant()
    checked = _run(root, "doctor")
    assert checked.exit_code == 1 and not isinstance(checked.exception, Exception) and "will not be acted on" in checked.output
    fixed = _run(root, "doctor", "--fix")
    assert not isinstance(fixed.exception, Exception) and "fixed: " in fixed.output and "set aside as" in fixed.output, fixed.output
    assert not journal.journal_path(refs).exists()
    assert _run(root, "doctor").exit_code == 0


def test_a_refused_write_on_a_full_disk_leaves_no_journal_temporary(world, monkeypatch):
    import errno

    root, _victim = world
    refs = root / "refs"
    real_fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = _run(root, "tag", "huang2026light", "+full")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert result.exit_code == 2 and "Nothing was changed" in result.output
    assert sorted(p.name for p in refs.iterdir()) == ["library.bib", "library.yaml"]


def test_doctor_names_every_stray_temporary_and_fix_removes_them(world):
    root, _victim = world
    refs = root / "refs"
    strays = [refs / ".citekit-journal.tmp", refs / ".citekit-new-aaaaaaaa-library.bib",
              refs / ".library.yaml.x1y2.tmp"]
    for p in strays:
        p.write_bytes(b"")
    (refs / ".citekit-new-folder").mkdir()  # a folder is never taken for a temporary
    checked = _run(root, "doctor")
    assert checked.exit_code == 1 and "3 temporary file(s)" in checked.output
    fixed = _run(root, "doctor", "--fix")
    assert "deleted 3 stale temporary file(s)" in fixed.output and not any(p.exists() for p in strays)
    assert (refs / ".citekit-new-folder").is_dir()


# ---- any JSON at all -----------------------------------------------------------------------------

_PATHS = st.sampled_from(["library.bib", "library.yaml", "keymap.yaml", TEMP, ".citekit-new-0badc0de-keymap.yaml",
                          "../victim/bashrc", "../../victim/bashrc", "/", "", ".", "..", "C:\\victim\\bashrc",
                          "..\\..\\victim\\bashrc", "refs/library.bib", "VICTIM_ABS", "VICTIM_TEMP_ABS",
                          "REFS_ABS/library.bib", f"REFS_ABS/{TEMP}", "out/library.bib"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
                     | _PATHS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                         st.sampled_from(["state", "files", "target", "temp", "sha256", "seal", "version", "x"]),
                         inner, max_size=4), max_leaves=12)
_ITEM = st.fixed_dictionaries({"target": _PATHS | _JSON, "temp": _PATHS | _JSON},
                              optional={"sha256": st.sampled_from([hashlib.sha256(b"PWNED\n").hexdigest(), "zz", 7])})
_NEAR = st.fixed_dictionaries({"state": st.sampled_from(["prepare", "commit", "done", 1]),
                               "files": st.lists(_ITEM, min_size=1, max_size=3) | _JSON})


def _resolve_markers(value, root: Path, victim: Path):
    if isinstance(value, str):
        return (value.replace("VICTIM_TEMP_ABS", str(victim / ".citekit-new-0badc0de-bashrc"))
                .replace("VICTIM_ABS", str(victim / "bashrc")).replace("REFS_ABS", str(root / "refs")))
    if isinstance(value, list):
        return [_resolve_markers(v, root, victim) for v in value]
    if isinstance(value, dict):
        return {k: _resolve_markers(v, root, victim) for k, v in value.items()}
    return value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=_NEAR | _JSON, command=st.sampled_from([("list",), ("doctor",), ("doctor", "--fix")]))
def test_any_json_as_the_journal_is_never_a_traceback_nor_a_touch_outside_refs(pristine, tmp_path_factory, value,
                                                                                 command):
    base = tmp_path_factory.mktemp("any")
    root, victim = base / "proj", base / "victim"
    shutil.copytree(pristine, root, ignore=shutil.ignore_patterns(".citekit"))
    victim.mkdir()
    (victim / "bashrc").write_bytes(VICTIM)
    (victim / ".citekit-new-0badc0de-bashrc").write_bytes(b"PWNED\n")
    (root / "refs" / TEMP).write_bytes(b"PWNED\n")
    (root / "refs" / "out").symlink_to(victim, target_is_directory=True)
    journal.journal_path(root / "refs").write_text(json.dumps(_resolve_markers(value, root, victim)), "utf-8")
    before = _outside(base, root)
    here = os.getcwd()
    os.chdir(root)  # relative paths, if any were obeyed, land beside the project, never in the checkout
    try:
        result = _run(root, *command)
    finally:
        os.chdir(here)
    assert result.exit_code in (0, 1, 2), result.output
    assert not isinstance(result.exception, Exception) and "Traceback" not in result.output, result.output
    assert _outside(base, root) == before
    shutil.rmtree(base)


# ---- key maps -------------------------------------------------------------------------------------

def test_a_key_map_linked_out_of_refs_is_refused_not_read(world):
    root, victim = world
    (victim / "secret.yaml").write_text("secret-token: hunter2\n", encoding="utf-8")
    (root / "refs" / "keymap.yaml").symlink_to(victim / "secret.yaml")
    doctor = _run(root, "doctor")
    assert doctor.exit_code == 1 and "hunter2" not in doctor.output and "outside" in doctor.output, doctor.output
    paper = root / "paper.tex"
    paper.write_text("\\cite{secret-token}\n", encoding="utf-8")
    rekey = _run(root, "rekey", str(paper))
    assert rekey.exit_code == 2 and "keymap.yaml" in rekey.output and "hunter2" not in rekey.output
    assert paper.read_text(encoding="utf-8") == "\\cite{secret-token}\n"


# ---- citekit.yaml ---------------------------------------------------------------------------------

@pytest.mark.parametrize("setting,key", [
    ("paths: {refs: ../victim}", "paths.refs"),
    ("paths: {notes: VICTIM}", "paths.notes"),
    ("paths: {refs: out}", "paths.refs"),  # a link in the project that leads out of it
    ("sources: {cache_dir: ../victim}", "sources.cache_dir"),
])
def test_a_configured_folder_outside_the_project_is_refused_with_its_key(world, tmp_path, setting, key, monkeypatch):
    root, victim = world
    monkeypatch.delenv("CITEKIT_CACHE_DIR", raising=False)
    (root / "out").symlink_to(victim, target_is_directory=True)
    (root / "citekit.yaml").write_text(setting.replace("VICTIM", str(victim)) + "\n", encoding="utf-8")
    before = _outside(tmp_path, root)
    for command in (("list",), ("sync", "--offline", "-q"), ("doctor", "--fix")):
        result = _run(root, *command)
        assert result.exit_code == 2 and key in result.output and "citekit.yaml" in result.output, result.output
        assert "outside_project" in result.output and not isinstance(result.exception, Exception)
    assert _outside(tmp_path, root) == before


def test_a_folder_outside_the_project_is_used_when_the_config_says_so(world, tmp_path):
    root, _victim = world
    shared = tmp_path / "shared-refs"
    shutil.copytree(root / "refs", shared)
    (root / "citekit.yaml").write_text("paths: {refs: ../shared-refs, outside_project: [refs]}\n", encoding="utf-8")
    result = _run(root, "list")
    assert result.exit_code == 0 and "huang2026light" in result.output


@pytest.mark.parametrize("refs", [".", "sub/..", "./"])
def test_the_project_folder_itself_as_refs_is_refused(world, tmp_path, refs):
    """citekit keeps its state beside refs/: with refs/ the project folder itself, the lock and
    caches would land outside the project (found by the config fuzz family)."""
    root, _victim = world
    (root / "citekit.yaml").write_text(f"paths: {{refs: '{refs}'}}\n", encoding="utf-8")
    before = _outside(tmp_path, root)
    for command in (("list",), ("sync", "--offline", "-q"), ("doctor", "--fix")):
        result = _run(root, *command)
        assert result.exit_code == 2 and "paths.refs" in result.output and "project folder itself" in result.output
        assert not isinstance(result.exception, Exception)
    assert _outside(tmp_path, root) == before


def test_a_citekit_yaml_nested_5000_deep_is_exit_2_naming_the_file(world):
    root, _victim = world
    (root / "citekit.yaml").write_text("a: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    for command in (("list",), ("doctor",)):
        result = _run(root, *command)
        assert result.exit_code == 2 and "citekit.yaml" in result.output and "nested" in result.output, result.output
        assert not isinstance(result.exception, Exception)
