"""refs/ as one unit: transactions, recovery, the parsed cache, the lock and doctor."""

from __future__ import annotations

import copy
import os
import random
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citekit import api
from citekit.cli import main
from citekit.library import journal, store
from citekit.library.store.cache import memo_files, parsed_cache
from citekit.library.doctor import diagnose, rebuild_sidecar
from citekit.library.lock import LockBusy, ProjectLock, holder, lock_path
from citekit.library.store import Library, LibraryError, kinds
from citekit.core.model import Entry
from tests.helpers_project import REPO, make_project


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> Path:
    """The bundled notes synced offline plus hand-written entries of varied shapes."""
    root = make_project(tmp_path_factory.mktemp("synced"))
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    rnd = random.Random(7)
    for i in range(40):
        fields = {"title": f"A {rnd.choice(['robust', 'sparse', 'Ünïcode', 'quantum'])} study {i}",
                  "author": rnd.choice(["Müller, Jörg", "Lee, Ann and Chen, Bo", "{The Team}"]),
                  "year": str(1990 + i)}
        if i % 3 == 0:
            fields["note"] = "multi\nline   value with  spaces"
        if i % 5 == 0:
            fields["journal"] = "J. Ex{\\\"a}mple"
        entry = Entry(key=f"hand{i}", entry_type=rnd.choice(["article", "misc", "book"]), fields=fields,
                      origin="import", status="resolved")
        entry.tags_added = [f"t{i % 4}"]
        if i % 7 == 0:
            entry.aliases = [f"old{i}"]
        lib.add(entry)
    lib.save()
    return root


def _copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "p"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".citekit"))
    return dst


def _files(refs: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(refs.iterdir()) if p.is_file()}


# ---- incremental writes ----------------------------------------------------------------

# unit: which blocks a write reuses is not visible through the API
def test_writes_after_small_changes_are_byte_identical_to_a_full_write(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    Library.load(refs)  # fills the cache
    Library.load(refs).save()  # a save through the cache renders per-entry blocks and stores them
    rnd = random.Random(3)
    for round_ in range(6):
        lib = Library.load(refs)
        assert lib._chunk_blobs, "a load after a write should come with the rendered blocks"
        keys = rnd.sample(sorted(lib.entries), 5)
        for key in keys:
            entry = lib.entries[key]
            action = rnd.choice(["tag", "field", "untag", "summary"])
            if action == "tag":
                entry.tags_added = sorted({*entry.tags_added, f"r{round_}"})
            elif action == "untag":
                entry.tags_removed = sorted({*entry.tags_removed, *entry.tags[:1]})
            elif action == "field":
                entry.fields["note"] = f"changed in round {round_}: é ü {{x}}"
            else:
                entry.summary = f"summary {round_}"
        if round_ % 2:
            lib.remove(keys[0])
        incremental = lib.render_files()
        fresh = Library.load(refs, use_cache=False)
        for key in keys:
            if key in lib.entries:
                fresh.entries[key] = lib.entries[key]
        if round_ % 2:
            fresh.remove(keys[0])
        assert not fresh._chunks and not fresh._chunk_blobs
        assert incremental == fresh.render_files()
        lib.save()
        assert Library.load(refs, use_cache=False).render_files() == incremental


def test_an_unchanged_library_is_rewritten_byte_for_byte(synced, tmp_path):
    root = _copy(synced, tmp_path)
    before = _files(root / "refs")
    assert Library.load(root / "refs").save() is False
    assert Library.load(root / "refs", use_cache=False).save() is False
    assert _files(root / "refs") == before


# ---- parsed cache ----------------------------------------------------------------------

# unit: whether a read parsed library.bib again is not visible through the API
def test_reads_use_the_cache_until_refs_change(synced, tmp_path, monkeypatch):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    first = Library.load(refs)
    assert parsed_cache.cache_path(refs).exists()
    import citekit.bibtex.reader as bibfile  # the store imports its reader when it parses

    def no_parse(*_a, **_k):
        raise AssertionError("parsed again although refs/ did not change")

    monkeypatch.setattr(bibfile, "parse_bib_text", no_parse)
    again = Library.load(refs)
    assert sorted(again.entries) == sorted(first.entries)
    assert again.entries["hand3"].fields == first.entries["hand3"].fields
    assert again.entries["hand0"].aliases == ["old0"]
    monkeypatch.undo()
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("A ", "The ", 1), encoding="utf-8")
    edited = Library.load(refs)
    assert edited.entries != first.entries or any(e.hand for e in edited.entries.values())


# unit: the cache's own record of an entry is what is checked
def test_the_cache_holds_every_field_of_an_entry():
    from dataclasses import fields

    from citekit.library.store.cache.state import STATE_FIELDS as _STATE_FIELDS, entry_from_state as _entry_from_state, entry_state as _entry_state

    assert {f.name for f in fields(Entry)} == set(_STATE_FIELDS) | {"key", "ids", "mentions"}
    entry = Entry(key="k", entry_type="book", fields={"title": "T"}, summary="s", aliases=["a"], hand=["title"])
    entry.ids.doi = "10.1/x"
    assert _entry_from_state("k", _entry_state(entry)) == entry


def test_a_damaged_cache_is_ignored_and_rebuilt(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    fresh = Library.load(refs)
    parsed_cache.cache_path(refs).write_bytes(b"\x00garbage")
    assert Library.load(refs).entries == fresh.entries
    # written again: it holds the library of these very files
    now = parsed_cache.fingerprint((refs / "library.bib").read_bytes(), (refs / "library.yaml").read_bytes())
    assert parsed_cache.read(refs, now) is not None


def test_show_and_list_through_the_api_match_a_full_parse(synced, tmp_path):
    root = _copy(synced, tmp_path)
    api.list_entries(root)  # fills the cache
    listed = [api.entry_json(e) for e in api.list_entries(root)]
    fresh = [api.entry_json(e) for e in Library.load(root / "refs", use_cache=False).sorted_entries()]
    assert listed == fresh
    assert api.show("old7", root).key == "hand7"
    assert api.show("HAND8", root).key == "hand8"
    with pytest.raises(api.CitekitError, match="Did you mean"):
        api.show("hand999", root)


# ---- transactions and recovery ---------------------------------------------------------

def _stage_change(root: Path) -> tuple[Library, dict[str, bytes]]:
    lib = Library.load(root / "refs")
    lib.entries["hand2"].tags_added = ["interrupted"]
    lib.entries["hand5"].fields["title"] = "Changed title"
    return lib, _files(root / "refs")


# unit: a crash at this exact step can only be injected there
def test_a_crash_after_the_commit_point_is_finished_by_the_next_read(synced, tmp_path, monkeypatch):
    root = _copy(synced, tmp_path)
    lib, old = _stage_change(root)
    expected_bib, expected_yaml = lib.render_files()

    def crash(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(journal, "_finish", crash)
    with pytest.raises(KeyboardInterrupt):
        lib.save()
    monkeypatch.undo()
    refs = root / "refs"
    assert journal.journal_path(refs).exists()
    assert _files(refs)["library.bib"] == old["library.bib"]  # nothing switched yet
    again = Library.load(refs)
    assert again.entries["hand2"].tags_added == ["interrupted"]
    assert (refs / "library.bib").read_text(encoding="utf-8") == expected_bib
    assert (refs / "library.yaml").read_text(encoding="utf-8") == expected_yaml
    assert not journal.journal_path(refs).exists() and not journal.stale_temps(refs)


# unit: a crash at this exact step can only be injected there
def test_a_crash_before_the_commit_point_leaves_the_old_files(synced, tmp_path, monkeypatch):
    root = _copy(synced, tmp_path)
    lib, old = _stage_change(root)
    real_write = journal._write_durably
    calls = []

    def die_on_second_temp(path, data, mode=None):
        calls.append(path)
        if len(calls) == 3:  # journal tmp, first temp, then die writing the second
            whole = data if isinstance(data, bytes) else data.tobytes()  # (a spliced file: streamed)
            Path(path).write_bytes(whole[: len(whole) // 2])
            raise KeyboardInterrupt
        return real_write(path, data, mode)

    monkeypatch.setattr(journal, "_write_durably", die_on_second_temp)
    monkeypatch.setattr(journal, "_discard", lambda *_a: None)  # as if killed: no clean-up ran
    with pytest.raises(KeyboardInterrupt):
        lib.save()
    monkeypatch.undo()
    refs = root / "refs"
    assert any(p.name.startswith(journal.TEMP_MARK) for p in refs.iterdir())
    Library.load(refs)
    assert _files(refs) == old
    assert "interrupted" not in Library.load(refs).entries["hand2"].tags


def test_library_and_key_map_switch_in_together(synced, tmp_path):
    from citekit.library.rekey import read_key_map, write_key_map

    root = _copy(synced, tmp_path)
    refs = root / "refs"
    lib = Library.load(refs)
    lib.entries["hand1"].aliases = ["gone1"]
    txn = journal.Transaction(refs)
    lib.save(txn)
    write_key_map(refs / "keymap.yaml", {"gone1": "hand1"}, txn)
    assert not (refs / "keymap.yaml").exists()
    txn.commit()
    assert read_key_map(refs / "keymap.yaml") == {"gone1": "hand1"}
    assert Library.load(refs).get("gone1").key == "hand1"


def test_a_sidecar_from_another_write_is_refused(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    old_yaml = (refs / "library.yaml").read_bytes()
    lib = Library.load(refs)
    lib.entries["hand3"].tags_added = ["newer"]
    lib.save()
    (refs / "library.yaml").write_bytes(old_yaml)  # e.g. restored alone from git
    with pytest.raises(LibraryError, match="not from the same write"):
        Library.load(refs)


@pytest.mark.parametrize("damage", ["missing", "truncated"])
def test_a_missing_or_cut_sidecar_is_an_error_that_says_how_to_restore(synced, tmp_path, damage):
    root = _copy(synced, tmp_path)
    side = root / "refs" / "library.yaml"
    if damage == "missing":
        side.unlink()
    else:
        text = side.read_text(encoding="utf-8")
        side.write_text(text[: len(text) * 2 // 3], encoding="utf-8")
    with pytest.raises(LibraryError, match="doctor --rebuild-sidecar"):
        Library.load(root / "refs")
    result = CliRunner().invoke(main, ["-C", str(root), "list"])
    assert result.exit_code == 2 and "git checkout" in result.output


def test_rebuild_sidecar_keeps_every_key_alias_and_tag(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    before = Library.load(refs)
    (refs / "library.yaml").unlink()
    rebuilt = rebuild_sidecar(refs)
    after = Library.load(refs, use_cache=False)
    assert sorted(after.entries) == sorted(before.entries) == sorted(rebuilt.entries)
    for key, entry in before.entries.items():
        assert after.entries[key].aliases == entry.aliases
        assert set(entry.tags) <= set(after.entries[key].tags)
        assert after.entries[key].status == "unknown"
        def norm(fields):  # library.bib keeps values up to white space, which is all a rebuild can read
            return {k: " ".join(v.split()) for k, v in fields.items() if k not in ("keywords", "ids")}

        assert norm(after.entries[key].fields) == norm(entry.fields)
    assert not diagnose(refs).problems


def test_old_sidecars_still_load_with_the_same_keys(tmp_path):
    """refs/ as written before this format (version 1) loads; the next write migrates it."""
    refs = tmp_path / "refs"
    shutil.copytree(REPO / "tests" / "data" / "sidecar-v1", refs)  # refs/ as the previous release wrote it
    assert b"citekit-sidecar" not in (refs / "library.yaml").read_bytes()
    lib = Library.load(refs)
    keys, tags = sorted(lib.entries), {k: e.tags for k, e in lib.entries.items()}
    assert keys and all(e.origin == "notes" for e in lib.entries.values())
    lib.save()
    assert b"citekit-sidecar: 3" in (refs / "library.yaml").read_bytes()
    again = Library.load(refs, use_cache=False)
    assert sorted(again.entries) == keys and {k: e.tags for k, e in again.entries.items()} == tags
    assert not any(e.hand for e in again.entries.values())


def test_sidecars_of_format_2_load_to_the_same_library_and_are_rewritten_as_json_lines(tmp_path):
    """refs/ as the previous release wrote it (format 2: every record in YAML's block style)
    loads to exactly the library the next write gives back in format 3, whose records are
    JSON lines; nothing of any entry changes on the way."""
    refs = tmp_path / "refs"
    shutil.copytree(REPO / "tests" / "data" / "sidecar-v2", refs)
    old_text = (refs / "library.yaml").read_text(encoding="utf-8")
    assert "# citekit-sidecar: 2\n" in old_text and "\n    generated:\n" in old_text
    lib = Library.load(refs, use_cache=False)
    before = copy.deepcopy(lib.entries)  # every field of every entry, as the dataclasses compare them
    assert before and any(e.tags for e in lib.entries.values()) and any(e.summary for e in lib.entries.values())
    lib.save()
    text = (refs / "library.yaml").read_text(encoding="utf-8")
    assert "# citekit-sidecar: 3\n" in text and "\n    generated: {" in text and "\n    generated:\n" not in text
    assert yaml.safe_load(text)["entries"].keys() == yaml.safe_load(old_text)["entries"].keys()
    again = Library.load(refs, use_cache=False)
    assert again.entries == before
    # (but the checksum line earlier versions wrote, which no longer changes on every write)
    old_bib = (REPO / "tests" / "data" / "sidecar-v2" / "library.bib").read_text(encoding="utf-8")
    assert (refs / "library.bib").read_text(encoding="utf-8") == re.sub(r"^% citekit-checksum: \w+\n", "", old_bib,
                                                                         flags=re.M)


# ---- lock --------------------------------------------------------------------------------

def test_a_second_writer_is_told_who_holds_the_lock_and_readers_go_on(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    with ProjectLock(refs, "sync --offline"):
        assert holder(refs)["command"] == "sync --offline"
        with pytest.raises(LockBusy, match=r"`citekit sync --offline` \(process \d+, since"):
            with ProjectLock(refs, "tag", wait=0.2):
                pass
        assert "hand4" in Library.load(refs).entries  # a reader does not wait
        result = CliRunner().invoke(main, ["-C", str(root), "tag", "hand4", "+x"], env={"CITEKIT_LOCK_WAIT": "0.1"})
        assert result.exit_code == 2 and "is writing this library" in result.output
        assert CliRunner().invoke(main, ["-C", str(root), "show", "hand4"]).exit_code == 0
    assert holder(refs) is None and lock_path(refs).parent.name == ".citekit"
    assert CliRunner().invoke(main, ["-C", str(root), "tag", "hand4", "+x"]).exit_code == 0


def test_a_tag_made_while_sync_resolves_is_kept(tmp_path, monkeypatch, fake_services):
    root = make_project(tmp_path)
    api.sync(root, offline=True)
    key = sorted(api.load_library(root).entries)[0]
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    tagged: list[subprocess.CompletedProcess] = []
    once = threading.Lock()

    def tag_meanwhile(_seconds: float) -> None:
        """The fakes' first request: resolution is under way, and another command tags."""
        with once:
            if not tagged:
                exe = Path(sys.executable).with_name("citekit")
                command = [str(exe)] if exe.exists() else [sys.executable, "-m", "citekit.cli"]
                tagged.append(subprocess.run([*command, "-C", str(root), "tag", key, "+during-sync"],
                                             capture_output=True, text=True,
                                             env={**os.environ, "CITEKIT_LOCK_WAIT": "0"}))

    fake_services.sleep = tag_meanwhile
    fake_services.latency = 0.001
    api.sync(root)
    assert tagged and tagged[0].returncode == 0, tagged and tagged[0].stderr
    assert "during-sync" in api.load_library(root).entries[key].tags


# ---- doctor ------------------------------------------------------------------------------

def test_doctor_finds_what_is_wrong_and_fix_repairs_it(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    runner = CliRunner()
    healthy = runner.invoke(main, ["-C", str(root), "doctor"])
    assert healthy.exit_code == 0, healthy.output
    (refs / f"{journal.TEMP_MARK}dead-library.bib").write_text("half", encoding="utf-8")
    (refs / "keymap.yaml").write_text("gone: nowhere\n", encoding="utf-8")
    sick = runner.invoke(main, ["-C", str(root), "doctor", "--json"])
    assert sick.exit_code == 1
    checks = {f["check"] for f in __import__("json").loads(sick.output)["findings"] if f["level"] == "problem"}
    assert checks == {"interrupted writes", "aliases resolvable"}
    fixed = runner.invoke(main, ["-C", str(root), "doctor", "--fix"])
    assert "stale temporary" in fixed.output
    assert not journal.stale_temps(refs)


# ---- the sync index ----------------------------------------------------------------------

def test_the_sync_index_finds_what_a_scan_of_every_entry_finds():
    from citekit.library.update import LibraryIndex
    from citekit.core.model import Ids, Location
    from citekit.core.resolution import Mention, Work

    rnd = random.Random(11)
    words = "sparse robust muon kernel quantum latent graph convex causal diffusion".split()
    entries = []
    for i in range(300):
        title = " ".join(rnd.choice(words) for _ in range(5)) + f" {i}"
        e = Entry(key=f"e{i}", entry_type="article", fields={"title": title, "url": f"https://x.org/{i % 120}"})
        if i % 3 == 0:
            e.ids = Ids(doi=f"10.1/{i % 50}")
        entries.append(e)
    index = LibraryIndex(entries)

    def scan(work):
        ids = work.mentions[0].ids
        for e in entries:
            if ids and e.ids.shares_any(ids):
                return e
        for e in entries:
            if e.title.lower() == (work.mentions[0].title or "").lower():
                return e
        for e in entries:
            if e.fields.get("url") in work.mentions[0].urls:
                return e
        return None

    for i in range(400):
        j = rnd.randrange(300)
        kind = rnd.choice(["doi", "title", "url", "none"])
        m = Mention(kind="titled", location=Location("n.md", i))
        if kind == "doi":
            m.ids = Ids(doi=f"10.1/{j % 50}")
        elif kind == "title":
            m.title = entries[j].title
        elif kind == "url":
            m.urls = [f"https://x.org/{j % 120}"]
        else:
            m.title = f"unrelated {i}"
        assert index.find(Work(mentions=[m]), None) is scan(Work(mentions=[m]))
    entries[5].ids = Ids(doi="10.9/new")
    index.add(entries[5])
    hit = index.find(Work(mentions=[Mention(kind="url", location=Location("n", 1), ids=Ids(doi="10.9/new"))]), None)
    assert hit is entries[5]


def _full_sync(root: Path):
    """A sync that really runs (the replay of an identical last sync is tested apart)."""
    from citekit.api import sync_stamp

    sync_stamp.stamp_path(root / "refs").unlink(missing_ok=True)
    return api.sync(root, offline=True)


# unit: which rendered blocks and derived values are reused is not visible through the API
def test_a_no_op_sync_reuses_every_rendered_block_and_derived_value(synced, tmp_path, monkeypatch):
    root = _copy(synced, tmp_path)
    _full_sync(root)
    _full_sync(root)
    lib = Library.load(root / "refs")
    assert set(lib._chunk_blobs) == set(lib.entries)
    memos = {kind: lib._memos.table(kind) for kind in memo_files.memo_kinds(root / "refs")}  # stored apart
    assert any(kind.startswith(kinds.RULE_TAGS_FAMILY) and len(table) > 0 for kind, table in memos.items())

    def no_render(*_a, **_k):
        raise AssertionError("an unchanged entry was rendered again")

    import citekit.bibtex.writer as bibtex  # the store imports its writer when it renders

    monkeypatch.setattr(bibtex, "render_entries", no_render)
    monkeypatch.setattr(bibtex, "entry_text", no_render)
    monkeypatch.setattr(bibtex, "written_text", no_render)  # (what the store renders a changed entry with)
    before = _files(root / "refs")
    assert _full_sync(root).changed is False
    assert _files(root / "refs") == before


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EROFS", "EACCES"])
def test_a_failing_disk_is_a_message_and_leaves_refs_unchanged(synced, tmp_path, monkeypatch, errno_name):
    import errno

    root = _copy(synced, tmp_path)
    refs = root / "refs"
    before = _files(refs)
    real_open = os.open

    def failing(path, flags, *args, **kwargs):  # the disk refuses the new files, nothing else
        if journal.TEMP_MARK in Path(os.fsdecode(path)).name:
            raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)), os.fsdecode(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing)
    result = CliRunner().invoke(main, ["-C", str(root), "tag", "hand6", "+disk"])
    assert result.exit_code == 2
    assert "Nothing was changed" in result.output and "Traceback" not in result.output
    monkeypatch.undo()
    assert _files(refs) == before
    assert not journal.stale_temps(refs) and not journal.journal_path(refs).exists()


# unit: which blocks were rendered again is not visible through the API
def test_switching_to_ascii_renders_every_entry_again(synced, tmp_path):
    root = _copy(synced, tmp_path)
    refs = root / "refs"
    Library.load(refs).save()
    lib = Library.load(refs)
    assert lib._state_blobs and not lib.ascii
    lib.ascii = True
    fresh = Library.load(refs, use_cache=False)
    fresh.ascii = True
    assert lib.render_files() == fresh.render_files()
    assert "\\\"u" in lib.render_files()[0] or "{\\\"" in lib.render_files()[0]


# unit: the derivation is patched to show the sync's own values are the ones kept
def test_values_derived_in_the_sync_after_a_hand_edit_are_kept(synced, tmp_path, monkeypatch):
    """The first write after a parse keeps what it derived from entries it did not change."""
    root = _copy(synced, tmp_path)
    _full_sync(root)
    bib = root / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("study 3}", "study three}"), encoding="utf-8")
    _full_sync(root)  # parses the edited file, derives every entry's values once
    import citekit.library.match_index as sync_module  # where a sync builds its index of the library

    calls: list[str] = []
    real = sync_module.index_keys

    def counting(entry):
        calls.append(entry.key)
        return real(entry)

    monkeypatch.setattr(sync_module, "index_keys", counting)
    _full_sync(root)
    total = len(Library.load(root / "refs").entries)
    assert total > 50 and len(calls) <= 2, calls


@pytest.mark.parametrize("size,numbered", [(50, True), (3000, True), (3000, False)])
def test_a_retyped_title_finds_its_entry_among_titles_that_share_every_word(size, numbered):
    """Fuzzy matching compares a title with a bounded short list; titles made of the same
    few words (and the words shared by thousands of entries) must not hide the right one."""
    from citekit.library.update import LibraryIndex
    from citekit.core.model import Ids, Location
    from citekit.core.resolution import Mention, Work

    rnd = random.Random(size)
    words = "sparse robust muon kernel quantum latent graph convex causal diffusion".split()
    entries = []
    for i in range(size):
        title = " ".join(rnd.choice(words) for _ in range(8 if not numbered else 6)).capitalize()
        title += f" number {i}" if numbered else ""
        entries.append(Entry(key=f"e{i}", entry_type="article",
                             fields={"title": title, "author": f"Lee, Ann and Chen, Bo{i % 7}", "year": "2020"}))
    index = LibraryIndex(entries)
    for j in rnd.sample(range(size), 20):
        target = entries[j]
        first, rest = target.title.split(" ", 1)
        retyped = (first[:-1] + first[-1] * 2 + " " + rest)  # a typo: no exact title key matches
        m = Mention(kind="titled", location=Location("n.md", j), title=retyped,
                    authors=["Ann Lee", f"Bo{j % 7} Chen"], year="2020", ids=Ids())
        built = ("article", {"title": retyped, "author": f"Lee, Ann and Chen, Bo{j % 7}", "year": "2020"})
        assert index.find(Work(mentions=[m]), built) is target
