"""An online sync whose inputs did not change does only the work they need (issue 29).

The bundled notes always leave papers the services do not know (pending mentions); that
must not make every later sync look them up again, rebuild the match index and render
the library. Against the loopback fakes of the services, through the API.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from citekit import api
from citekit.api import sync_stamp
from citekit.api.sync_report import SyncReport
from citekit.library import update
from citekit.library.store import Library
from citekit.library.store.cache.layout import SplicedWrite
from citekit.sources.cache import NEGATIVE_TTL, POSITIVE_TTL, LookupCache

from .helpers_project import count_lookups, make_project

PENDING_TITLE = "Non-Euclidean Gradient Descent Operates at the Edge of Stability"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_services) -> Path:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = make_project(tmp_path)
    first = api.sync(root)
    assert first.requests > 0 and first.changed
    assert any(p.get("title") == PENDING_TITLE for p in first.pending), "the bundled notes leave this one pending"
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "refs").iterdir()}


def _count_index_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    builds: list[int] = []
    real = update.LibraryIndex.__init__

    def counted(self, entries, lookups=None):
        builds.append(len(entries))
        real(self, entries, lookups)

    monkeypatch.setattr(update.LibraryIndex, "__init__", counted)
    return builds


def test_a_sync_that_changed_nothing_with_pending_mentions_is_not_done_again(
        project: Path, fake_services, monkeypatch: pytest.MonkeyPatch) -> None:
    full = api.sync(project)  # the first sync that finds nothing to change: run in full
    assert not full.changed and not full.up_to_date and full.pending
    assert full.requests == 0
    before, asked = _files(project), fake_services.requests()
    builds = _count_index_builds(monkeypatch)
    again = api.sync(project)
    assert again.up_to_date and not again.changed
    assert again.requests == 0 and fake_services.requests() == asked
    assert builds == []  # no match index built: nothing was matched
    assert _files(project) == before
    assert again.pending == full.pending and again.counts == full.counts


def test_the_replay_says_the_same_as_the_full_run_on_the_cli(project: Path) -> None:
    from click.testing import CliRunner

    from citekit.cli import main

    runner = CliRunner()
    full = json.loads(runner.invoke(main, ["-C", str(project), "sync", "--json"]).stdout)
    again = json.loads(runner.invoke(main, ["-C", str(project), "sync", "--json"]).stdout)
    assert again["up_to_date"] and not full["up_to_date"]
    assert again["requests"] == 0
    assert again["pending"] == full["pending"] and again["counts"] == full["counts"]


def test_a_changed_notes_block_of_a_pending_mention_is_looked_up_again(project: Path, fake_services) -> None:
    api.sync(project)  # changes nothing: stamped
    note = next(p for p in (project / "notes").rglob("*") if p.is_file() and PENDING_TITLE in p.read_text("utf-8"))
    note.write_text(note.read_text("utf-8").replace(PENDING_TITLE, PENDING_TITLE + " in Deep Networks"), "utf-8")
    asked = fake_services.requests()
    again = api.sync(project)
    assert not again.up_to_date
    assert again.requests > 0 and fake_services.requests() > asked  # the new title was asked about


def test_no_replay_once_an_answer_it_relied_on_is_due(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api.sync(project)
    stored = json.loads(sync_stamp.stamp_path(project / "refs").read_text("utf-8"))
    assert stored["until"] <= stored["time"] + sync_stamp.ONLINE_SECONDS
    later = stored["until"] + 1
    monkeypatch.setattr(time, "time", lambda: later)
    assert not api.sync(project).up_to_date


def test_the_stamp_lasts_until_the_first_answer_is_due(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = api.project(project)
    digest = sync_stamp.inputs(cfg, offline=False, ascii=None)
    now = time.time()
    pending = SyncReport(counts={"resolved": 3, "notes-only": 1}, pending=[{"why": "abstract"}],
                         answers_valid_until=now + 60)
    sync_stamp.record(cfg, digest, pending)
    assert sync_stamp.replay(cfg, digest, offline=False) is not None
    monkeypatch.setattr(time, "time", lambda: now + 120)
    assert sync_stamp.replay(cfg, digest, offline=False) is None
    # an answer already due, or a source that failed: never stamped
    for report in (SyncReport(pending=[{"why": "x"}], answers_valid_until=now + 60),
                   SyncReport(source_problems=["dblp: 503"], answers_valid_until=now + 3600)):
        sync_stamp.record(cfg, digest, report)
        assert not sync_stamp.stamp_path(project / "refs").exists()


def test_the_lookup_cache_knows_when_the_first_answer_it_served_is_due(tmp_path: Path) -> None:
    clock = [1000.0]
    cache = LookupCache(tmp_path / "c.sqlite", clock=lambda: clock[0])
    cache.put("dblp", "search", {"q": "found"}, {"hits": [1]})
    assert cache.valid_until == 1000.0 + POSITIVE_TTL
    cache.put("dblp", "search", {"q": "unknown"}, None)
    assert cache.valid_until == 1000.0 + NEGATIVE_TTL
    cache.close()
    clock[0] = 5000.0
    reopened = LookupCache(tmp_path / "c.sqlite", clock=lambda: clock[0])
    assert reopened.valid_until == float("inf")
    assert reopened.get("dblp", "search", {"q": "found"}) is not None
    assert reopened.valid_until == 1000.0 + POSITIVE_TTL  # as stored, not from now
    assert reopened.get("dblp", "search", {"q": "unknown"}) is not None
    assert reopened.valid_until == 1000.0 + NEGATIVE_TTL
    reopened.close()
    assert LookupCache(None).valid_until == 0.0  # kept in memory: nothing holds for the next run


def test_an_entry_changed_by_hand_is_found_by_a_new_mention_of_it(tmp_path: Path) -> None:
    from citekit.library import match_index

    root = make_project(tmp_path)
    api.sync(root, offline=True)
    api.sync(root, offline=True)  # stamped
    builds = match_index.BUILDS[0]
    lib = Library.load(root / "refs")
    key = sorted(lib.entries)[len(lib.entries) // 2]
    old_title = lib.entries[key].title
    new_title = "Fixed Points of Note Taking Retitled By Hand"
    bib = root / "refs" / "library.bib"
    text = bib.read_text("utf-8")
    start = text.index("{" + key + ",")
    at = text.index(old_title, start)
    bib.write_text(text[:at] + new_title + text[at + len(old_title):], encoding="utf-8")
    # the new mention names the entry's first author: the same title by someone else is
    # another work (tests/test_same_title_works.py), and is not what this test is about
    family, given = lib.entries[key].fields["author"].split(" and ")[0].split(", ")
    with (root / "notes" / "zz-retitled.md").open("w", encoding="utf-8") as handle:
        handle.write(f"- {new_title}\n  - Authors: {given} {family}\n")
    report = api.sync(root, offline=True)
    assert not report.up_to_date
    after = Library.load(root / "refs")
    assert len(after.entries) == len(lib.entries) and not report.created
    assert after.entries[key].title == new_title
    assert any(loc.file.endswith("zz-retitled.md") for loc in after.entries[key].mentions)
    assert match_index.BUILDS[0] == builds  # the kept index was patched for that entry, not built again


def test_a_full_sync_reads_the_kept_match_index_instead_of_building_it(project: Path) -> None:
    from citekit.library import match_index

    api.sync(project)
    kept = sorted((project / ".citekit").glob("*match-index*"))
    assert kept, "the match index is kept beside the parsed-library cache"
    before = {p: p.read_bytes() for p in kept}
    builds = match_index.BUILDS[0]
    note = sorted(p for p in (project / "notes").rglob("*") if p.is_file())[0]
    note.write_bytes(note.read_bytes() + b"\n")  # a notes file saved: the sync runs in full
    report = api.sync(project)
    assert not report.up_to_date and not report.changed
    assert match_index.BUILDS[0] == builds
    assert {p: p.read_bytes() for p in kept} == before
    # a sync that writes (a new paper) leaves it to be patched, not built, by the next one
    (project / "notes" / "zz-new.md").write_text("- Kept Indexes Are Patched\n  - Authors: Ann Lee\n", "utf-8")
    assert api.sync(project).changed
    again = api.sync(project)
    assert not again.changed and match_index.BUILDS[0] == builds


def _pending_titles(groups: list[list]) -> set[str]:
    return {m.title for g in groups for m in g if m.title} & {PENDING_TITLE}


def test_unchanged_pending_mentions_are_not_looked_up_again_when_other_notes_change(
        project: Path, fake_services, monkeypatch: pytest.MonkeyPatch) -> None:
    full = api.sync(project)
    (project / "notes" / "zz-new.md").write_text("- Pending Memos Keep Their Answers\n  - Authors: Ann Lee\n",
                                                 encoding="utf-8")
    asked = count_lookups(monkeypatch)
    again = api.sync(project)  # another notes file changed: a full run
    assert not again.up_to_date and again.changed
    assert asked and any(m.title == "Pending Memos Keep Their Answers" for g in asked for m in g)
    assert _pending_titles(asked) == set()  # the unchanged pending mention was not looked up
    assert [p for p in again.pending if p["title"] == PENDING_TITLE] == \
        [p for p in full.pending if p["title"] == PENDING_TITLE]
    # and it does not make the next sync run in full either
    asked.clear()
    assert api.sync(project).up_to_date or not _pending_titles(asked)


def test_a_pending_mention_is_looked_up_again_once_its_answers_are_due(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citekit.api import pending_lookups

    api.sync(project)
    stored = json.loads(pending_lookups.memo_path(project / "refs").read_text("utf-8"))
    assert stored["groups"]
    later = max(group["until"] for group in stored["groups"].values()) + 1
    monkeypatch.setattr(time, "time", lambda: later)
    (project / "notes" / "zz-new.md").write_text("- Pending Memos Expire\n  - Authors: Ann Lee\n", encoding="utf-8")
    asked = count_lookups(monkeypatch)
    api.sync(project)
    assert _pending_titles(asked) == {PENDING_TITLE}


def test_a_changed_pending_block_is_in_the_lookup(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api.sync(project)
    note = next(p for p in (project / "notes").rglob("*") if p.is_file() and PENDING_TITLE in p.read_text("utf-8"))
    changed = PENDING_TITLE + " Again"
    note.write_text(note.read_text("utf-8").replace(PENDING_TITLE, changed), "utf-8")
    asked = count_lookups(monkeypatch)
    api.sync(project)
    assert any(m.title == changed for g in asked for m in g)


def test_a_full_sync_that_changes_nothing_renders_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api.sync(project)
    renders: list[int] = []
    for cls in (Library, SplicedWrite):  # a whole render, or the spliced write of the changed entries
        real = cls._files_to_write

        def counted(self, real=real):
            renders.append(1)
            return real(self)

        monkeypatch.setattr(cls, "_files_to_write", counted)
    before = _files(project)
    written = sorted((project / ".citekit").glob("*written*"))
    marks = {p: p.read_bytes() for p in written}
    note = sorted(p for p in (project / "notes").rglob("*") if p.is_file())[0]
    note.write_bytes(note.read_bytes() + b"\n")  # runs in full
    report = api.sync(project)
    assert not report.up_to_date and not report.changed
    assert renders == []
    assert _files(project) == before and {p: p.read_bytes() for p in written} == marks
    # a change still writes: a tag rule that now matches some entries (spliced into the
    # files as they are: the entries it retags are rendered, not the whole files)
    (project / "citekit.yaml").write_text("tags:\n  zzoptimizers: ['optimizer']\n", encoding="utf-8")
    changed = api.sync(project)
    assert changed.changed and _files(project) != before
    assert any("zzoptimizers" in e.tags for e in Library.load(project / "refs").entries.values())


def test_a_hand_edited_library_is_still_rewritten_by_a_sync(tmp_path: Path) -> None:
    """The files are "as written" only when citekit wrote those bytes: a hand edit that
    changes no value (spaces in an entry) is normalised by the next sync, as before."""
    root = make_project(tmp_path)
    api.sync(root, offline=True)
    bib = root / "refs" / "library.bib"
    text = bib.read_text("utf-8")
    at = text.index("  title")
    bib.write_text(text[:at] + "  " + text[at:], encoding="utf-8")  # one more indent
    report = api.sync(root, offline=True)
    assert report.changed and bib.read_text("utf-8") == text


def test_a_skipped_pending_group_that_now_finds_an_entry_keeps_its_lookups_reason(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    api.sync(project)
    with (project / "refs" / "library.bib").open("a", encoding="utf-8") as handle:
        handle.write("\n@article{byhand2026edge,\n  author = {Doe, Jane},\n"
                     f"  title = {{{PENDING_TITLE}}},\n  year = {{2026}},\n}}\n")
    asked = count_lookups(monkeypatch)
    report = api.sync(project)
    assert _pending_titles(asked) == set()  # skipped: found nothing before, and still holds
    assert all(p["title"] != PENDING_TITLE for p in report.pending)  # it landed on the new entry
    entry = Library.load(project / "refs").entries["byhand2026edge"]
    assert any("trip-report" in loc.file for loc in entry.mentions)
    detail = next(w for w in report.entries if w["key"] == "byhand2026edge")
    assert detail["reason"] and not detail["reason"].startswith("offline")  # as its lookup said
