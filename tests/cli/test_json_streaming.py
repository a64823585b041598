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
