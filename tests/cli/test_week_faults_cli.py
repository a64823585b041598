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
