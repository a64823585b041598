"""``citekit rename OLD NEW`` and keys renamed by hand in library.bib, end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from citekit import api
from citekit.cli import main
from citekit.library.store import Library

from ..helpers_cli import digest, synced_project


def _run(root: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    assert result.exit_code == code, result.output
    return result


def _keys(root: Path) -> list[str]:
    return [e["key"] for e in json.loads(_run(root, "list", "--json").stdout)]


def _keymap(root: Path) -> dict[str, str]:
    return yaml.safe_load((root / "refs" / "keymap.yaml").read_text(encoding="utf-8"))


def test_rename_keeps_the_old_key_working_everywhere(tmp_path):
    root = synced_project(tmp_path)
    old = "huang2026light"
    assert old in _keys(root)
    before = Library.load(root / "refs").entries[old]
    out = _run(root, "rename", old, "huang2026limuon")
    assert out.stdout.strip() == f"{old} -> huang2026limuon"
    lib = Library.load(root / "refs")
    entry = lib.entries["huang2026limuon"]
    assert old not in lib.entries and lib.get(old) is entry and old in entry.aliases
    assert (entry.status, entry.origin, entry.tags) == (before.status, before.origin, before.tags)
    assert not entry.key_provisional  # the user's choice: no sync re-forms it
    assert "ids           = {huang2026light}" in (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert _keymap(root) == {old: "huang2026limuon"}
    assert f"'{old}' is an alias of 'huang2026limuon'" in _run(root, "show", old).stdout
    tex = root / "main.tex"
    tex.write_text(f"\\citet{{{old}}} and \\cite{{schaipp2026stepsize}}\n", encoding="utf-8")
    _run(root, "rekey", str(tex), "--map", str(root / "refs" / "keymap.yaml"))
    assert tex.read_text(encoding="utf-8") == "\\citet{huang2026limuon} and \\cite{schaipp2026stepsize}\n"
    # a later sync lands on the renamed entry: no new entry, the key stays
    _run(root, "sync", "--offline", "-q")
    assert sorted(_keys(root)) == sorted(["huang2026limuon", "schaipp2026stepsize", "wang2026compute"])


def test_a_second_rename_chains_in_the_key_map(tmp_path):
    root = synced_project(tmp_path)
    _run(root, "rename", "huang2026light", "first2026")
    data = json.loads(_run(root, "rename", "first2026", "second2026", "--json").stdout)
    assert data == {"old": "first2026", "new": "second2026", "asked": "first2026", "changed": True,
                    "key_map": str(root / "refs" / "keymap.yaml")}
    assert _keymap(root) == {"huang2026light": "second2026", "first2026": "second2026"}
    assert set(Library.load(root / "refs").entries["second2026"].aliases) == {"huang2026light", "first2026"}
    # taking back an old key of the same entry is allowed; it stops being an alias
    _run(root, "rename", "second2026", "huang2026light", "-q")
    lib = Library.load(root / "refs")
    assert set(lib.entries["huang2026light"].aliases) == {"first2026", "second2026"}


def test_rename_by_an_old_key_and_to_the_same_key(tmp_path):
    root = synced_project(tmp_path)
    _run(root, "rename", "huang2026light", "limuon2026")
    out = _run(root, "rename", "huang2026light", "fast2026")  # named by its old key (an alias)
    assert "limuon2026 -> fast2026" in out.stdout
    before = digest(root / "refs")
    data = json.loads(_run(root, "rename", "fast2026", "fast2026", "--json").stdout)
    assert data["changed"] is False
    assert digest(root / "refs") == before


def test_invalid_or_taken_keys_are_refused_and_nothing_is_written(tmp_path):
    root = synced_project(tmp_path)
    _run(root, "rename", "huang2026light", "limuon2026")
    before = digest(root / "refs")
    cases = {
        ("schaipp2026stepsize", "bad key"): "cannot be a citation key",
        ("schaipp2026stepsize", "wang2026compute"): "is taken",  # another entry's key
        ("schaipp2026stepsize", "WANG2026COMPUTE"): "is taken",  # BibTeX compares keys in any case
        ("schaipp2026stepsize", "huang2026light"): "is taken",  # another entry's old key
        ("nosuchkey", "fine2026"): "no entry 'nosuchkey'",
    }
    for (old, new), said in cases.items():
        result = _run(root, "rename", old, new, code=2)
        assert said in result.stderr, result.stderr
        assert "Traceback" not in result.output
    assert "Choose another key" in _run(root, "rename", "schaipp2026stepsize", "wang2026compute", code=2).stderr
    assert digest(root / "refs") == before


def test_rename_through_the_api(tmp_path):
    root = synced_project(tmp_path)
    done = api.rename_key("wang2026compute", "wang2026risk", start=root)
    assert (done.old, done.new, done.changed) == ("wang2026compute", "wang2026risk", True)
    assert api.show("wang2026compute", start=root).key == "wang2026risk"


def test_a_key_renamed_by_hand_in_library_bib_is_a_rename(tmp_path):
    root = synced_project(tmp_path)
    _run(root, "tag", "huang2026light", "+must-read")
    before = Library.load(root / "refs").entries["huang2026light"]
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("@inproceedings{huang2026light,", "@inproceedings{huang2026limuon,"), encoding="utf-8")
    lib = Library.load(root / "refs")
    entry = lib.entries["huang2026limuon"]
    assert "huang2026light" not in lib.entries and lib.get("huang2026light") is entry
    assert (entry.status, entry.origin, entry.mentions) == (before.status, before.origin, before.mentions)
    assert "must-read" in entry.tags and entry.hand == [] and not entry.key_provisional
    assert not lib.detached
    # the next sync keeps it (no new entry, no manual one) and writes the alias
    _run(root, "sync", "--offline", "-q")
    lib = Library.load(root / "refs")
    assert sorted(lib.entries) == ["huang2026limuon", "schaipp2026stepsize", "wang2026compute"]
    assert lib.entries["huang2026limuon"].origin == "notes" and "huang2026light" in lib.entries["huang2026limuon"].aliases
    assert "ids           = {huang2026light}" in bib.read_text(encoding="utf-8")
    _run(root, "doctor", "-q")


def test_a_hand_rename_with_an_edited_field_keeps_the_edit(tmp_path):
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    text = text.replace("@inproceedings{schaipp2026stepsize,", "@inproceedings{schaipp2026stability,", 1)
    title = "  title         = {Step-Size Stability in Stochastic Optimization},\n"
    bib.write_text(text.replace(title, title + "  note          = {Oral},\n", 1), encoding="utf-8")
    _run(root, "sync", "--offline", "-q")
    lib = Library.load(root / "refs")
    assert "schaipp2026stability" in lib.entries and "schaipp2026stepsize" not in lib.entries
    entry = lib.get("schaipp2026stepsize")
    assert entry.key == "schaipp2026stability" and entry.origin == "notes" and entry.status == "notes-only"
    assert entry.hand == ["note"] and entry.fields["note"] == "Oral"  # the edit is the user's, as always
    assert "theory" in entry.tags


def test_a_new_entry_written_by_hand_is_not_taken_for_a_rename(tmp_path):
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8")
                   + "\n@book{knuth1984tex,\n  author = {Knuth, Donald E.},\n  title = {The {\\TeX}book},\n"
                     "  year = {1984},\n}\n", encoding="utf-8")
    lib = Library.load(root / "refs")
    assert lib.entries["knuth1984tex"].origin == "manual" and not lib.entries["knuth1984tex"].aliases


def test_a_rename_writes_the_same_bytes_through_the_cache_as_without(tmp_path):
    import shutil

    from citekit.library.store.library import PlainLibrary

    root = synced_project(tmp_path)
    plain = tmp_path / "plain"
    shutil.copytree(root / "refs", plain)
    Library.load(root / "refs")  # the parsed-library cache is stored
    cached = Library.load(root / "refs")
    assert cached.is_lazy()
    for lib in (cached, PlainLibrary.load(plain)):
        lib.rename("schaipp2026stepsize", "schaipp2026stability")
        lib.save()
    for name in ("library.bib", "library.yaml"):
        assert (root / "refs" / name).read_bytes() == (plain / name).read_bytes()


def test_a_hand_rename_goes_to_the_key_map_and_sync_and_doctor_say_so_once(tmp_path):
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("@inproceedings{huang2026light,", "@inproceedings{huang2026limuon,"), encoding="utf-8")
    _run(root, "show", "huang2026light")  # a read before the sync (the parse is cached) loses nothing
    doctor = _run(root, "doctor")
    assert doctor.output.count("'huang2026light' was renamed by hand to 'huang2026limuon'") == 1
    synced = _run(root, "sync", "--offline")
    assert synced.output.count("'huang2026light' was renamed by hand to 'huang2026limuon'") == 1
    assert "refs/keymap.yaml" in synced.output
    assert _keymap(root) == {"huang2026light": "huang2026limuon"}
    lib = Library.load(root / "refs")
    assert lib.entries["huang2026limuon"].status == "notes-only" and not lib.renamed_by_hand
    # said once: the next sync and doctor have nothing to say about it
    again = _run(root, "sync", "--offline", "--json")
    assert json.loads(again.stdout)["renamed"] == {}
    assert "renamed by hand" not in _run(root, "doctor").output
    # the key map rewrites a paper, as after `citekit rename`
    tex = root / "main.tex"
    tex.write_text("\\cite{huang2026light}\n", encoding="utf-8")
    _run(root, "rekey", str(tex), "--map", str(root / "refs" / "keymap.yaml"))
    assert tex.read_text(encoding="utf-8") == "\\cite{huang2026limuon}\n"


def test_a_hand_rename_reported_in_sync_json(tmp_path):
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("@inproceedings{huang2026light,", "@inproceedings{huang2026limuon,"), encoding="utf-8")
    data = json.loads(_run(root, "sync", "--offline", "--json").stdout)
    assert data["renamed"] == {"huang2026light": "huang2026limuon"}


def test_a_deleted_entrys_key_is_refused_without_pointing_at_show(tmp_path):
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    start = text.index("@inproceedings{wang2026compute,")
    end = text.index("\n}\n", start) + 3
    bib.write_text(text[:start] + text[end:], encoding="utf-8")  # deleted by hand: its key stays reserved
    refused = _run(root, "rename", "schaipp2026stepsize", "wang2026compute", code=2)
    assert "an entry deleted from the library had it" in refused.stderr
    assert "citekit show" not in refused.stderr
    live = _run(root, "rename", "schaipp2026stepsize", "huang2026light", code=2)
    assert "`citekit show huang2026light` shows what has it" in live.stderr
    bad = _run(root, "rename", "schaipp2026stepsize", "bad key", code=2)
    assert "'_:./+-'. Choose a key" in bad.stderr
