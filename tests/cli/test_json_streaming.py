"""``extract --json`` and ``list --json`` write as they go, and their bytes are the ones the
whole-document writers gave (``json.dumps(..., indent=2)`` and :func:`citekit.api.list_json_bytes`)."""

from __future__ import annotations

import json
from pathlib import Path

from citekit import api

from ..helpers_cli import NOTES, run, synced_project

#: odd text the encoder must escape the same way streamed or not
ODD = NOTES + """
- "Quoted" Title with a \\backslash, a tab\tand ünïcödé — 𝔘 #odd
  - Authors: Zoë Ärger
"""


def test_extract_json_is_byte_identical_to_the_whole_document(tmp_path: Path) -> None:
    root = synced_project(tmp_path, ODD)
    result = api.extract(None, start=root)
    expected = json.dumps({
        "mentions": [m.to_json() for m in result.mentions],
        "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in result.problems],
    }, ensure_ascii=False, indent=2, sort_keys=False) + "\n"
    out = run(root, "extract", "--json")
    assert out.output == expected
    assert len(result.mentions) >= 4


def test_extract_json_with_no_mentions_keeps_the_empty_array(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    (root / "notes" / "icml.md").write_text("# nothing here\n", encoding="utf-8")
    out = run(root, "extract", "--json")
    assert json.loads(out.output)["mentions"] == []
    assert '"mentions": []' in out.output


def test_list_json_is_byte_identical_to_the_joined_bytes(tmp_path: Path) -> None:
    root = synced_project(tmp_path, ODD)
    expected = api.list_json_bytes(root) + b"\n"
    out = run(root, "list", "--json")
    assert out.stdout_bytes == expected
    assert len(json.loads(out.output)) >= 4
    none = run(root, "list", "--json", "--tag", "no-such-tag")
    assert none.stdout_bytes == b"[]\n" and none.exit_code == 1


#: keys whose sorted order (case-folded) is not the library's order, as in real libraries
BIB = "".join(
    f"@article{{{key},\n  title = {{{title}}},\n  author = {{{author}}},\n  journal = {{J. Tests}},\n  year = {{{year}}}\n}}\n\n"
    for key, title, author, year in [
        ("bermudez_1996", "Streams of {JSON}", "Bermúdez, Ana", 1996),
        ("bermudez-urena_2017", "A Title with ünïcödé", "Bermúdez-Ureña, Luis", 2017),
        ("Bermudez_2017", "Upper Case Keys Sort Folded", "Bermudez, Carla", 2017),
        ("abbasi_2013", "The First One", "Abbasi, Omar and Lee, Ann", 2013),
        ("Zeta_2001", "Last \\& Least", "Zeta, Zoë", 2001),
        ("camacho_2003", "Camacho's Theorem", "Camacho, Rui", 2003),
        ("camacho-aguilera_2012", "Hyphens Sort Before Underscores", "Camacho-Aguilera, Eva", 2012),
    ])


def _imported(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (tmp_path / "in.bib").write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(tmp_path / "in.bib")).exit_code == 0
    return root


def test_list_json_read_from_the_stored_texts_is_the_same_bytes(tmp_path: Path, monkeypatch) -> None:
    from citekit.library.store import kinds
    from citekit.library.store.cache.memos import MemoStore

    root = _imported(tmp_path)
    first = run(root, "list", "--json").stdout_bytes  # (computes every text and stores them)
    expected = api.list_json_bytes(root) + b"\n"
    assert first == expected and len(json.loads(first)) == 7
    keys = [row["key"] for row in json.loads(first)]
    assert keys == sorted(keys, key=str.lower) and keys[0] == "abbasi_2013"

    whole_table = MemoStore.table

    def no_whole_table(self: MemoStore, kind: str) -> dict:
        assert kind != kinds.ENTRY_JSON_UTF8, "list --json read the stored texts as one table"
        return whole_table(self, kind)

    monkeypatch.setattr(MemoStore, "table", no_whole_table)
    assert run(root, "list", "--json").stdout_bytes == expected  # read one text at a time
    tagged = run(root, "list", "--json", "--key", "bermudez").stdout_bytes
    assert [row["key"] for row in json.loads(tagged)] == [k for k in keys if "bermudez" in k.lower()]
    monkeypatch.setattr(MemoStore, "table", whole_table)
    assert tagged == api.list_json_bytes(root, key=["bermudez"]) + b"\n"


def test_list_json_after_a_change_gives_the_new_text_then_streams_it(tmp_path: Path, monkeypatch) -> None:
    from citekit.library.store import kinds
    from citekit.library.store.cache.memos import MemoStore

    root = _imported(tmp_path)
    run(root, "list", "--json")
    assert run(root, "tag", "camacho_2003", "+theorems").exit_code == 0
    changed = run(root, "list", "--json").stdout_bytes  # (one text stale: computed again)
    row = next(r for r in json.loads(changed) if r["key"] == "camacho_2003")
    assert "theorems" in row["tags"]
    assert changed == api.list_json_bytes(root) + b"\n"
    text = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    (root / "refs" / "library.bib").write_text(text.replace("The First One", "The First One, Edited"), encoding="utf-8")
    edited = run(root, "list", "--json").stdout_bytes
    assert b"The First One, Edited" in edited and edited == api.list_json_bytes(root) + b"\n"
    whole_table = MemoStore.table
    monkeypatch.setattr(MemoStore, "table", lambda self, kind: (_ for _ in ()).throw(AssertionError(kind))
                        if kind == kinds.ENTRY_JSON_UTF8 else whole_table(self, kind))
    assert run(root, "list", "--json").stdout_bytes == edited
