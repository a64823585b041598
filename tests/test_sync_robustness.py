"""What a damaged, restored or hand-mangled library does to a sync: never a new key, never lost data."""

from __future__ import annotations


import pytest
from click.testing import CliRunner

from citekit import api
from citekit.cli import main
from citekit.library.store import Library

from .helpers_project import make_project


@pytest.fixture()
def project(tmp_path):
    root = make_project(tmp_path)
    api.sync(root, offline=True)
    return root


def _keys(root):
    return set(Library.load(root / "refs").entries)


def test_library_saved_as_utf16_without_bom_is_still_read(project):
    bib = project / "refs" / "library.bib"
    keys = _keys(project)
    bib.write_bytes(bib.read_text(encoding="utf-8").encode("utf-16-le"))
    api.sync(project, offline=True)
    assert _keys(project) == keys
    assert "Horváth, Samuel" in bib.read_text(encoding="utf-8")


def test_one_stray_latin1_byte_damages_only_its_line_and_is_reported(project):
    bib = project / "refs" / "library.bib"
    data = bib.read_bytes()
    at = data.index(b"@inproceedings{chen2026understanding")
    bib.write_bytes(data[:at] + b"% caf\xe9\n" + data[at:])
    report = api.sync(project, offline=True)
    assert any("not UTF-8" in p for p in report.problems)
    lib = Library.load(project / "refs")
    assert "Bürgin, Vincent" in lib.get("burgin2026beyond").fields["author"]
    assert not any(e.hand for e in lib.entries.values())


def test_emptied_library_issues_no_new_keys_and_says_why(project):
    bib = project / "refs" / "library.bib"
    keys = _keys(project)
    bib.write_text("", encoding="utf-8")
    report = api.sync(project, offline=True)
    assert _keys(project) == set()  # the user's deletion is respected...
    assert any("missing from" in p for p in report.problems)  # ...and explained
    assert not report.created
    side = (project / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert all(k in side for k in keys)  # metadata kept for when the entries come back


def test_entry_with_unclosed_brace_keeps_its_key_after_the_fix(project):
    bib = project / "refs" / "library.bib"
    good = bib.read_text(encoding="utf-8")
    bib.write_text(good.replace("{Understanding {SAM} through", "{Understanding {SAM through", 1), encoding="utf-8")
    report = api.sync(project, offline=True)
    assert not any(k.startswith("chen2026understanding") and k != "chen2026understanding" for k in _keys(project))
    assert any("chen2026understanding" in p for p in report.problems)
    assert "{Understanding {SAM through" in bib.read_text(encoding="utf-8")  # kept verbatim
    assert bib.read_text(encoding="utf-8") == good.replace("{Understanding {SAM} through", "{Understanding {SAM through")
    # the user fixes the brace where it stands: the entry and its metadata are back under the same key
    bib.write_text(bib.read_text(encoding="utf-8").replace("{Understanding {SAM through", "{Understanding {SAM} through"),
                   encoding="utf-8")
    api.sync(project, offline=True)
    lib = Library.load(project / "refs")
    assert lib.get("chen2026understanding").summary
    assert not [k for k in lib.entries if k.startswith("chen2026understanding") and k != "chen2026understanding"]


def test_deleted_entry_is_not_recreated_under_another_key(project):
    bib = project / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    start = text.index("@inproceedings{alimisis2026why,")
    end = text.index("\n}\n", start) + 3
    bib.write_text(text[:start] + text[end:], encoding="utf-8")
    api.sync(project, offline=True)
    assert not any(k.startswith("alimisis2026why") for k in _keys(project))


def test_restored_old_sidecar_does_not_turn_citekit_values_into_hand_edits(project):
    side = project / "refs" / "library.yaml"
    old = side.read_text(encoding="utf-8")
    notes = project / "notes" / "notes-icml2026-trip-report.txt"
    notes.write_text(notes.read_text(encoding="utf-8").replace("Rustem Islamov ⋅ Aurelien Lucchi ⋅ Antonio Silveti-Falls",
                                                               "Rustem Islamov ⋅ Aurélien Lucchi ⋅ Antonio Silveti-Falls"), encoding="utf-8")
    api.sync(project, offline=True)
    side.write_text(old, encoding="utf-8")  # e.g. `git checkout -- refs/library.yaml`, or a crash between the writes
    api.sync(project, offline=True)
    lib = Library.load(project / "refs")
    assert not any(e.hand for e in lib.entries.values())


def test_keys_differing_only_in_case_are_reported_not_a_traceback(project):
    bib = project / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8")
                   + "\n@article{Chen2026Understanding,\n  title = {X},\n  author = {A, B},\n  journal = {J},\n  year = {2020},\n}\n",
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(project), "sync", "--offline"])
    assert result.exit_code == 1, result.output  # done, with an entry kept as text: a finding
    assert "only in case" in result.output
    assert "@article{Chen2026Understanding" in bib.read_text(encoding="utf-8")


def test_keywords_edited_in_the_bib_become_tags_as_written(project):
    """A tag keeps the text its user wrote ("My Topic", as Zotero's tags do); it is the same
    tag as the notes' "muon" and selections match it under any spelling."""
    bib = project / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    start = text.index("@inproceedings{huang2026limuon,")
    kw = text.index("keywords", start)
    line_end = text.index("\n", kw)
    bib.write_text(text[:kw] + "keywords      = {Muon, My Topic}," + text[line_end:], encoding="utf-8")
    api.sync(project, offline=True)
    entry = Library.load(project / "refs").get("huang2026limuon")
    assert "Muon" in entry.tags and "My Topic" in entry.tags
    assert not {"muon", "Muon"} & set(entry.tags_removed)
    assert [e.key for e in api.list_entries(project, tags=["my-topic"])] == ["huang2026limuon"]
    assert "huang2026limuon" in [e.key for e in api.list_entries(project, tags=["muon"])]


def test_summary_follows_the_notes_until_edited_in_the_sidecar(project):
    notes = project / "notes" / "notes-icml2026-trip-report.txt"
    notes.write_text(notes.read_text(encoding="utf-8").replace("Asynchronous SGD において", "Asynchronous SGD では"), encoding="utf-8")
    api.sync(project, offline=True)
    lib = Library.load(project / "refs")
    assert "Asynchronous SGD では" in lib.get("erickson2026clipping").summary
    lib.get("erickson2026clipping").summary = "My own English summary."
    lib.save()
    notes.write_text(notes.read_text(encoding="utf-8").replace("Asynchronous SGD では", "Async SGD では"), encoding="utf-8")
    api.sync(project, offline=True)
    assert Library.load(project / "refs").get("erickson2026clipping").summary == "My own English summary."


def test_imported_fields_survive_a_notes_only_sync(tmp_path):
    root = make_project(tmp_path)
    (root / "old.bib").write_text(
        "@inproceedings{alimisis_warmup,\n  author = {Alimisis, Foivos and Islamov, Rustem and Lucchi, Aurelien},\n"
        "  title = {Why Do We Need Warm-up? {A} Theoretical Perspective},\n  booktitle = {ICML},\n  year = {2026},\n"
        "  note = {imported note},\n  eprint = {2510.03164},\n  archiveprefix = {arXiv},\n}\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["-C", str(root), "import", str(root / "old.bib")]).exit_code == 0
    api.sync(root, offline=True)
    entry = Library.load(root / "refs").get("alimisis_warmup")
    assert entry.fields["note"] == "imported note"
    assert entry.fields["eprint"] == "2510.03164"
    assert entry.mentions


def test_no_library_yet_is_a_hint_not_a_mystery(tmp_path):
    root = make_project(tmp_path)
    result = CliRunner().invoke(main, ["-C", str(root), "show", "x"])
    assert result.exit_code == 2 and "citekit sync" in result.output  # nothing to show yet: input error


def test_show_ignores_key_case_like_bibtex(project):
    result = CliRunner().invoke(main, ["-C", str(project), "show", "HUANG2026LIMUON"])
    assert result.exit_code == 0 and "@inproceedings{huang2026limuon," in result.output


def test_a_damaged_sidecar_stops_sync_before_any_request(tmp_path, fake_services):
    root = make_project(tmp_path)
    api.sync(root, offline=True)
    (root / "refs" / "library.yaml").write_text("entries: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "sync"], env=fake_services.env())
    assert result.exit_code == 2 and "damaged" in result.output
    assert fake_services.requests() == 0  # no source was asked anything
