"""A sync with exactly the inputs of the last sync that changed nothing is not done again.

The replay must give the report a full run would give, and every change to an input
(notes, citekit.yaml, refs/, options) must run the sync in full.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit import api
from citekit.api import sync_stamp
from citekit.cli import main
from citekit.library.store import Library
from citekit.api.sync_pipeline import SyncReport

from .helpers_project import make_project


def _forbid_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    import citekit.api.sync_pipeline as sync_module

    def no(*_a, **_k):
        raise AssertionError("the notes were read again")

    monkeypatch.setattr(sync_module, "extract_paths", no)


def _comparable(report: SyncReport) -> dict:
    data = report.to_json()
    for name in ("created", "upgraded", "changed", "up_to_date", "entries_written"):
        data.pop(name)
    return data


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path)
    first = api.sync(root, offline=True)
    assert first.changed
    return root


def test_the_sync_after_a_no_op_sync_is_its_replay(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = api.sync(project, offline=True)  # changes nothing: records its inputs
    assert not full.changed and not full.up_to_date
    before = {p.name: p.read_bytes() for p in (project / "refs").iterdir()}
    _forbid_extraction(monkeypatch)
    replay = api.sync(project, offline=True)
    assert replay.up_to_date and not replay.changed
    assert _comparable(replay) == _comparable(full)
    assert {p.name: p.read_bytes() for p in (project / "refs").iterdir()} == before


def test_the_cli_says_the_library_is_as_at_the_last_sync(project: Path) -> None:
    runner = CliRunner()
    runner.invoke(main, ["-C", str(project), "sync", "--offline"])
    out = runner.invoke(main, ["-C", str(project), "sync", "--offline"])
    assert out.exit_code == 0 and "library unchanged (notes, configuration and library as at the last sync)" in out.stdout
    data = json.loads(runner.invoke(main, ["-C", str(project), "sync", "--offline", "--json"]).stdout)
    assert data["up_to_date"] is True and data["changed"] is False


def _edit_notes(root: Path) -> None:
    note = root / "notes" / "reading.md"
    note.write_text(note.read_text(encoding="utf-8") if note.exists() else "", encoding="utf-8")
    with note.open("a", encoding="utf-8") as handle:
        handle.write("\n\n- Replayed Syncs Are Fixed Points of the Pipeline\n  - Authors: Ann Lee, Bo Chen\n")


def _touch_notes(root: Path) -> None:
    note = sorted(p for p in (root / "notes").rglob("*") if p.is_file())[-1]
    note.write_bytes(note.read_bytes())  # same bytes, new modification time
    os.utime(note, ns=(time.time_ns(), time.time_ns() + 10_000_000))


def _edit_config(root: Path) -> None:
    (root / "citekit.yaml").write_text("tags:\n  fixedpoint: ['fixed point']\n", encoding="utf-8")


def _tag(root: Path) -> None:
    key = sorted(Library.load(root / "refs").entries)[0]
    assert CliRunner().invoke(main, ["-C", str(root), "tag", key, "+byhand"]).exit_code == 0


def _new_note_file(root: Path) -> None:
    (root / "notes" / "zz-new.md").write_text("- Another Paper About Stamps\n  - Authors: Cyril Dubois\n",
                                              encoding="utf-8")


@pytest.mark.parametrize("change", [_edit_notes, _touch_notes, _edit_config, _tag, _new_note_file])
def test_any_changed_input_runs_the_sync_in_full(project: Path, change) -> None:
    api.sync(project, offline=True)
    change(project)
    again = api.sync(project, offline=True)
    assert not again.up_to_date
    if change in (_edit_notes, _new_note_file):
        titles = {e.title for e in Library.load(project / "refs").entries.values()}
        assert any("Stamps" in t or "Fixed Points" in t for t in titles)
    if change is _tag:
        assert any("byhand" in e.tags for e in Library.load(project / "refs").entries.values())


def test_options_are_inputs_too(project: Path) -> None:
    api.sync(project, offline=True)
    assert not api.sync(project, offline=True, ascii=True).up_to_date  # another option: in full
    assert not api.sync(project, offline=True, refresh=True).up_to_date  # --refresh: always in full


def test_a_sync_that_changed_something_leaves_no_stamp(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api.sync(project, offline=True)
    assert sync_stamp.stamp_path(project / "refs").exists()
    _edit_notes(project)
    assert api.sync(project, offline=True).changed
    assert not sync_stamp.stamp_path(project / "refs").exists()


@pytest.mark.parametrize("garbage", [b"", b"{not json", b'{"inputs": 3}', b'{"inputs": "x", "report": {"nope": 1}}'])
def test_a_damaged_stamp_is_ignored(project: Path, garbage: bytes) -> None:
    api.sync(project, offline=True)
    path = sync_stamp.stamp_path(project / "refs")
    stored = json.loads(path.read_text(encoding="utf-8"))
    path.write_bytes(garbage)
    assert not api.sync(project, offline=True).up_to_date
    if garbage.startswith(b'{"inputs": "x"'):
        path.write_text(json.dumps({**stored, "report": {"nope": 1}}), encoding="utf-8")
        assert not api.sync(project, offline=True).up_to_date


def test_online_replays_only_fully_resolved_runs_for_a_day(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    resolved = SyncReport(counts={"resolved": 3, "notes-only": 0, "ambiguous": 0})
    unresolved = SyncReport(counts={"resolved": 2, "notes-only": 1, "ambiguous": 0})
    failing = SyncReport(counts={"resolved": 3, "notes-only": 0, "ambiguous": 0}, source_problems=["dblp: 503"])
    pending = SyncReport(counts={"resolved": 3}, pending=[{"why": "abstract"}])
    cfg = api.project(project)
    digest = "d" * 64
    for report, kept in ((resolved, True), (unresolved, False), (failing, False), (pending, False)):
        sync_stamp.record(cfg, digest, report)
        assert (sync_stamp.replay(cfg, digest, offline=False) is not None) is kept
    sync_stamp.record(cfg, digest, resolved)
    later = time.time() + sync_stamp.ONLINE_SECONDS + 60
    monkeypatch.setattr(time, "time", lambda: later)  # a day passes on the clock
    assert sync_stamp.replay(cfg, digest, offline=False) is None  # an online stamp is trusted for a day
    assert sync_stamp.replay(cfg, digest, offline=True) is not None  # offline has nothing to learn later


def test_a_sync_of_edited_notes_reads_the_library_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp looks at refs/ only when every other input matches; an offline sync then
    reads the library once, under its lock, and folds the works into that read."""
    import citekit.library.store as store
    from citekit.library.store.cache import library as cache_library

    api.sync(project, offline=True)  # changes nothing: records its inputs
    _edit_notes(project)
    loads: list[Path] = []
    fingerprints: list[Path] = []
    real_load, real_fingerprint = Library.load.__func__, store.fingerprint_now
    monkeypatch.setattr(Library, "load", classmethod(lambda cls, refs, **kw: loads.append(refs) or real_load(cls, refs, **kw)))
    counted = lambda refs: fingerprints.append(refs) or real_fingerprint(refs)  # noqa: E731
    monkeypatch.setattr(store, "fingerprint_now", counted)
    monkeypatch.setattr(cache_library, "fingerprint_now", counted)
    report = api.sync(project, offline=True)
    assert report.changed and not report.up_to_date
    assert len(loads) == 1 and fingerprints == []


def test_every_module_of_citekit_is_an_input_of_the_replay(project: Path) -> None:
    """A replay is only valid for the code that made the stamp: a changed module anywhere in
    the package (the notes readers, the resolver, the store), not only beside the stamp's own
    module, runs the sync in full."""
    import citekit
    from citekit.core.config import load_config

    described = sync_stamp.inputs(load_config(project), offline=True, ascii=None)
    package = Path(citekit.__file__).parent
    modules = sorted(str(p.relative_to(package)) for p in package.rglob("*.py") if "__pycache__" not in p.parts)
    missing = [m for m in modules if repr(m) not in described]
    assert not missing, f"modules a replay ignores: {missing[:5]}"
