"""Faults a new user met in a first week with the command line (library files edited by hand,
imports, exports, checks), each checked end to end."""

from __future__ import annotations

from pathlib import Path

from ..helpers_cli import run, synced_project


def test_a_typo_fixed_in_a_hand_edited_entry_keeps_its_place_status_and_hand_fields(tmp_path: Path) -> None:
    """A stray brace makes one entry unreadable: it stays where it stood (the sync says file:line);
    once the brace is fixed the entry is what it was, not a new hand-written entry."""
    root = synced_project(tmp_path)
    bib, side = root / "refs" / "library.bib", root / "refs" / "library.yaml"
    good, record = bib.read_text(encoding="utf-8"), side.read_text(encoding="utf-8")
    broken = good.replace("title         = {Light and Fast", "title         = {Light and {Fast", 1)
    assert broken != good
    bib.write_text(broken, encoding="utf-8")
    line = broken[:broken.index("{Light and {Fast")].count("\n") + 1
    first = broken[:broken.index("{Light and {Fast")].rfind("\n@") + 1
    entry_line = broken[:first].count("\n") + 1
    synced = run(root, "sync", "--offline")
    assert synced.exit_code == 1
    assert f"refs/library.bib:{entry_line}" in synced.stderr or f"refs/library.bib:{line}" in synced.stderr, \
        synced.stderr
    assert bib.read_text(encoding="utf-8") == broken  # in place, nothing moved
    bib.write_text(good, encoding="utf-8")
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    assert bib.read_text(encoding="utf-8") == good
    assert side.read_text(encoding="utf-8") == record  # status, origin, provisional key: as before the typo
    shown = run(root, "show", "huang2026light").stdout
    assert "origin: notes" in shown and "hand-edited" not in shown, shown


PRIVATE = ("  file          = {Huang2026.pdf:/Users/me/Papers/Huang2026.pdf:application/pdf},\n"
           "  local-url     = {file://localhost/Users/me/Papers/Huang2026.pdf},\n"
           "  rating        = {4},\n  read          = {1},\n  date-added    = {2026-03-01 10:00:00 +0100},\n")


def _with_private_fields(root: Path, key: str) -> None:
    """A reference manager's own fields, as an imported Zotero or BibDesk entry has them."""
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    start = text.index("{" + key + ",")
    end = text.index("\n}", start)
    bib.write_text(text[:end] + "\n" + PRIVATE.rstrip("\n") + text[end:], encoding="utf-8")


def test_an_export_for_a_paper_leaves_out_private_fields_unless_asked(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    _with_private_fields(root, "huang2026light")
    aux = root / "main.aux"
    aux.write_text("\\relax\n\\citation{huang2026light}\n\\bibdata{refs}\n", encoding="utf-8")
    out = root / "refs.bib"
    result = run(root, "export", "--aux", str(aux), "-o", str(out))
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    assert "Light and Fast" in written
    for name in ("file", "local-url", "rating", "read", "date-added", "/Users/me"):
        assert name not in written, (name, written)
    assert "left out private field(s) date-added, file, local-url, rating, read" in result.stderr, result.stderr
    kept = run(root, "export", "--aux", str(aux), "-o", str(out), "--keep-private")
    assert kept.exit_code == 0 and "file://localhost/Users/me" in out.read_text(encoding="utf-8")
    whole = run(root, "export")  # the whole library is the library: every field
    assert "file://localhost/Users/me" in whole.stdout
    assert "/Users/me" in (root / "refs" / "library.bib").read_text(encoding="utf-8")  # the library keeps them


def test_an_export_counts_the_entries_it_wrote_and_names_copies_under_old_keys(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    assert run(root, "rename", "huang2026light", "huang2026muon").exit_code == 0
    aux = root / "main.aux"
    aux.write_text("\\relax\n\\citation{huang2026light}\n\\citation{huang2026muon}\n"
                   "\\citation{schaipp2026stepsize}\n\\bibdata{refs}\n", encoding="utf-8")
    out = root / "refs.bib"
    result = run(root, "export", "--aux", str(aux), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").count("\n@") == 3
    assert "refs.bib: 3 entries (2 papers; 1 old key kept for \\cite)" in result.stderr, result.stderr
    as_json = run(root, "export", "--aux", str(aux), "-o", str(out), "--json")
    import json

    assert json.loads(as_json.stdout)["entries"] == 3 and json.loads(as_json.stdout)["papers"] == 2


STEPSIZE_BIB = """@inproceedings{schaipp-gower-2026-stability,
  title = {Step-Size Stability in Stochastic Optimization},
  author = {Schaipp, Fabian and Gower, Robert},
  booktitle = {Proceedings of ICML},
  year = {2026},
  pages = {1--20},
}
"""


def test_the_survivor_an_import_names_is_the_one_its_merge_keeps(tmp_path: Path) -> None:
    """The library has the work from notes; the file has it under its own key. The listing (and a
    dry run) says which key --merge keeps; --merge then keeps exactly that one."""
    root = synced_project(tmp_path)
    bib = root / "theirs.bib"
    bib.write_text(STEPSIZE_BIB, encoding="utf-8")
    listed = run(root, "import", str(bib), "--dry-run")
    assert "same work? schaipp2026stepsize, schaipp-gower-2026-stability" in listed.stdout, listed.output
    assert "--merge would keep schaipp2026stepsize" in listed.stdout, listed.output
    merged = run(root, "import", str(bib), "--merge")
    assert "merge schaipp-gower-2026-stability -> schaipp2026stepsize" in merged.stdout, merged.output
    import json

    keys = [e["key"] for e in json.loads(run(root, "list", "--json").stdout)]
    assert "schaipp2026stepsize" in keys and "schaipp-gower-2026-stability" not in keys


def test_check_names_a_renamed_key_as_such_and_the_line_still_citing_it(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    assert run(root, "rename", "huang2026light", "huang2026muon").exit_code == 0
    tex = root / "main.tex"
    tex.write_text("\\section{Related work}\n\nMuon variants~\\cite{schaipp2026stepsize}.\n"
                   "A lighter one~\\citep{huang2026light}.\n", encoding="utf-8")
    checked = run(root, "check", str(tex))
    assert checked.exit_code == 0, checked.output
    assert "'huang2026light' is an old key of 'huang2026muon' (renamed, or merged into it)" in checked.stdout, \
        checked.stdout
    assert "the entries were merged" not in checked.stdout
    assert "main.tex:4; cite" in checked.stdout, checked.stdout


def test_the_project_option_after_the_command_is_explained(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    for args in (["tag", "-C", str(root), "huang2026light", "+x"], ["list", "-C", str(root)]):
        result = run(root, *args)
        assert result.exit_code == 2 and "no entry with key" not in result.output, result.output
        assert "-C goes before the command" in result.output and f"citekit -C {root} {args[0]}" in result.output
    assert run(root, "tag", "huang2026light", "-C").exit_code == 0  # after KEY, -C removes the tag C


def test_rename_suggests_a_key_that_can_be_given(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    bad = run(root, "rename", "huang2026light", "schaipp2026 stepsize")
    assert bad.exit_code == 2 and "e.g. 'schaipp2026-stepsize'" in bad.output, bad.output
    taken = run(root, "rename", "huang2026light", "wang2026compute")
    assert taken.exit_code == 2, taken.output
    suggested = taken.output.split("e.g. '")[1].split("'")[0]
    assert suggested != "wang2026compute"
    assert run(root, "rename", "huang2026light", suggested).exit_code == 0
    assert run(root, "rename", "schaipp2026stepsize", "step-size").exit_code == 0
    again = run(root, "rename", "wang2026compute", "step size")  # its usable form is taken: the example is not
    assert again.exit_code == 2 and "e.g. 'step-sizea'" in again.output, again.output
    assert run(root, "rename", "wang2026compute", "step-sizea").exit_code == 0


def test_every_entry_broken_then_the_file_restored_gives_the_library_back(tmp_path: Path) -> None:
    """With every entry unreadable all records wait under `detached`; restoring library.bib (a copy,
    `git checkout`) must find them, not call the sidecar damaged."""
    root = synced_project(tmp_path)
    bib, side = root / "refs" / "library.bib", root / "refs" / "library.yaml"
    good, record = bib.read_text(encoding="utf-8"), side.read_text(encoding="utf-8")
    bib.write_text(good.replace("title         = {", "title         = {{"), encoding="utf-8")
    assert run(root, "sync", "--offline", "-q").exit_code == 1
    bib.write_text(good, encoding="utf-8")
    restored = run(root, "sync", "--offline", "-q")
    assert restored.exit_code == 0, restored.output
    assert bib.read_text(encoding="utf-8") == good and side.read_text(encoding="utf-8") == record
