"""The library on disk: hand edits survive, writes are atomic, damage is contained."""

from __future__ import annotations

import os

import pytest

from citekit.library.store import Library, LibraryError, atomic_write
from citekit.library.update import apply_work
from citekit.core.model import Entry, Location
from citekit.core.resolution import Mention, Work


def _mention(title="LiMuon: Light and Fast Muon Optimizer for Large Models", authors=("Feihu Huang", "Yuning Luo", "Songcan Chen")):
    return Mention(kind="titled", location=Location("notes/a.txt", 3), title=title, authors=list(authors),
                   urls=["https://icml.cc/virtual/2026/poster/61819"], venue="ICML", year=2026)


def _sync_once(refs, mention=None):
    lib = Library.load(refs)
    result = apply_work(lib, Work(mentions=[mention or _mention()]))
    lib.save()
    return result


def test_round_trip_is_byte_stable(tmp_path):
    refs = tmp_path / "refs"
    _sync_once(refs)
    before = {p.name: p.read_bytes() for p in refs.iterdir()}
    lib = Library.load(refs)
    assert lib.save() is False
    _sync_once(refs)
    assert {p.name: p.read_bytes() for p in refs.iterdir()} == before


def test_hand_edited_field_survives_later_syncs(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    bib = refs / "library.bib"
    text = bib.read_text(encoding="utf-8")
    text = text.replace("Forty-third International Conference on Machine Learning", "Proc. ICML 2026")
    text = text.replace("  year ", "  note          = {Oral},\n  year ", 1)
    bib.write_text(text, encoding="utf-8")
    _sync_once(refs)
    _sync_once(refs)
    entry = Library.load(refs).entries[key]
    assert entry.fields["booktitle"] == "Proc. ICML 2026"
    assert entry.fields["note"] == "Oral"
    assert {"booktitle", "note"} <= set(entry.hand)


def test_field_deleted_by_hand_stays_deleted(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    bib = refs / "library.bib"
    lines = [ln for ln in bib.read_text(encoding="utf-8").splitlines(keepends=True) if not ln.lstrip().startswith("url")]
    bib.write_text("".join(lines), encoding="utf-8")
    _sync_once(refs)
    assert "url" not in Library.load(refs).entries[key].fields


def test_keywords_edited_in_bib_become_manual_tags(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    lib = Library.load(refs)
    lib.entries[key].tags_auto = ["muon"]
    lib.save()
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("{muon}", "{must-read}"), encoding="utf-8")
    entry = Library.load(refs).entries[key]
    assert entry.tags == ["must-read"]
    assert entry.tags_removed == ["muon"]


def test_key_never_changes_when_metadata_changes_once_it_left_the_library(tmp_path):
    from citekit.library.freeze import freeze_keys

    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    assert freeze_keys(refs, [key], "export") == [key]  # as an export does
    renamed = _mention(title="LiMuon: Light and Fast Muon Optimizer for Large Models", authors=("Yuning Luo", "Feihu Huang"))
    assert _sync_once(refs, renamed).key == key
    assert Library.load(refs).entries[key].fields["author"].startswith("Luo")


def test_a_provisional_key_follows_a_new_first_author_and_keeps_the_old_one_as_alias(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    assert Library.load(refs).entries[key].key_provisional
    renamed = _mention(title="LiMuon: Light and Fast Muon Optimizer for Large Models", authors=("Yuning Luo", "Feihu Huang"))
    new = _sync_once(refs, renamed).key
    assert new != key and new.startswith("luo")
    lib = Library.load(refs)
    assert lib.get(key) is lib.entries[new] and key in lib.entries[new].aliases


def test_entry_written_by_hand_is_kept_whole(tmp_path):
    refs = tmp_path / "refs"
    _sync_once(refs)
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8") + "\n@book{knuth1984tex,\n  author = {Knuth, Donald E.},\n  title = {The {\\TeX}book},\n  publisher = {Addison-Wesley},\n  year = {1984},\n}\n", encoding="utf-8")
    _sync_once(refs)
    lib = Library.load(refs)
    assert lib.entries["knuth1984tex"].fields["title"] == "The {\\TeX}book"
    assert lib.entries["knuth1984tex"].origin == "manual"


def test_corrupt_entry_is_reported_and_nothing_is_lost(tmp_path):
    refs = tmp_path / "refs"
    _sync_once(refs)
    bib = refs / "library.bib"
    broken = "@article{broken2020,\n  title = {Unclosed title,\n  year = 2020\n"
    bib.write_text(broken + "\n" + bib.read_text(encoding="utf-8"), encoding="utf-8")
    lib = Library.load(refs)
    assert lib.problems and lib.problems[0].line == 1
    assert "unreadable entry" in lib.problems[0].message
    assert len(lib.entries) == 1  # the good entry is still read
    lib.save()
    assert "Unclosed title" in bib.read_text(encoding="utf-8")  # the damaged block is kept verbatim


def test_damaged_sidecar_is_never_overwritten(tmp_path):
    refs = tmp_path / "refs"
    _sync_once(refs)
    side = refs / "library.yaml"
    side.write_text("entries: [unclosed\n", encoding="utf-8")
    with pytest.raises(LibraryError, match="damaged"):
        Library.load(refs)
    assert side.read_text(encoding="utf-8") == "entries: [unclosed\n"


def test_atomic_write_leaves_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "library.bib"
    target.write_text("old\n", encoding="utf-8")

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["library.bib"]  # no temp file left behind


def test_aliases_resolve_and_stay_issued(tmp_path):
    lib = Library(refs_dir=tmp_path)
    lib.add(Entry(key="new2026x", entry_type="misc", fields={"title": "X"}, aliases=["old2025x"]))
    assert lib.get("old2025x").key == "new2026x"
    lib.save()
    again = Library.load(tmp_path)
    assert "old2025x" in again.taken_keys()
    assert "ids           = {old2025x}" in (tmp_path / "library.bib").read_text(encoding="utf-8")


def test_duplicate_key_block_is_reported_and_kept_verbatim(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    bib = refs / "library.bib"
    dup = f"@misc{{{key},\n  title = {{Someone else's paper}},\n}}\n"
    bib.write_text(bib.read_text(encoding="utf-8") + "\n" + dup, encoding="utf-8")
    lib = Library.load(refs)
    assert any("duplicate key" in p.message for p in lib.problems)
    lib.save()
    assert "Someone else's paper" in bib.read_text(encoding="utf-8")


def test_repeated_field_keeps_first_value_and_is_reported(tmp_path):
    from citekit.bibtex.reader import parse_bib_text

    result = parse_bib_text("@misc{a2020x,\n  title = {First},\n  title = {Second},\n  year = {2020},\n}\n", "x.bib")
    assert [e.key for e in result.entries] == ["a2020x"]
    assert result.entries[0].fields["title"] == "First"
    assert "repeats a field (title)" in result.problems[0].message


def test_entry_type_changed_by_hand_survives(tmp_path):
    refs = tmp_path / "refs"
    key = _sync_once(refs).key
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace(f"@inproceedings{{{key},", f"@conference{{{key},"), encoding="utf-8")
    _sync_once(refs)
    _sync_once(refs)
    assert Library.load(refs).entries[key].entry_type == "conference"
    assert f"@conference{{{key}," in bib.read_text(encoding="utf-8")


def _edit_another_entry(refs) -> None:
    """A hand edit elsewhere in library.bib: every entry is then compared with what citekit wrote."""
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8") + "\n@misc{by_hand,\n  title = {Mine},\n}\n", encoding="utf-8")


@pytest.mark.parametrize("ascii", [False, True])
def test_a_value_made_safe_on_the_way_out_is_not_a_hand_edit(tmp_path, ascii):
    """A value whose braces do not balance is written made safe; citekit remembers what it
    wrote, so the next read takes no hand edit from it and writing again changes nothing."""
    refs = tmp_path / "refs"
    lib = Library(refs_dir=refs)
    lib.ascii = ascii
    lib.add(Entry(key="odd", entry_type="misc", origin="import",
                  fields={"title": "Caf\u00e9 {open", "note": "a } b\n\nc", "year": "2020"}))
    lib.save()
    first = (refs / "library.yaml").read_bytes(), (refs / "library.bib").read_bytes()
    again = Library.load(refs, use_cache=False)
    assert again.save() is False
    assert ((refs / "library.yaml").read_bytes(), (refs / "library.bib").read_bytes()) == first
    _edit_another_entry(refs)
    edited = Library.load(refs, use_cache=False)
    assert edited.get("odd").hand == []
    assert edited.get("odd").fields == lib.get("odd").fields


def _ascii_library_with_tags(refs, tags):
    """An ASCII-mode library of one entry ``k`` with these tags, written."""
    lib = Library(refs_dir=refs)
    lib.ascii = True
    entry = Entry(key="k", entry_type="misc", origin="import", fields={"title": "T"})
    entry.tags_added = list(tags)
    lib.add(entry)
    lib.save()
    return refs / "library.bib"


def test_non_ascii_tags_survive_a_hand_edit_in_ascii_mode(tmp_path):
    """In ASCII mode the keywords field holds tags escaped (``{\\"U}bung``); that is what
    citekit wrote, not the user removing ``Übung``."""
    refs = tmp_path / "refs"
    bib = _ascii_library_with_tags(refs, ["muon", "\u00dcbung"])
    assert '{\\"U}bung' in bib.read_text(encoding="utf-8")
    _edit_another_entry(refs)
    edited = Library.load(refs, use_cache=False).get("k")
    assert edited.tags == ["muon", "\u00dcbung"]
    assert edited.tags_removed == []


def test_keywords_edited_in_ascii_mode_keep_their_non_ascii_tags(tmp_path):
    refs = tmp_path / "refs"
    bib = _ascii_library_with_tags(refs, ["muon", "\u00fcbung"])
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace('{muon, {\\"u}bung}', '{muon, {\\"u}bung, new, {\\\'e}t{\\\'e}}'), encoding="utf-8")
    assert bib.read_text(encoding="utf-8") != text
    edited = Library.load(refs, use_cache=False).get("k")
    assert edited.tags == ["muon", "new", "\u00e9t\u00e9", "\u00fcbung"]
