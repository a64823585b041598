"""Faults a new user met in daily use of the command line, each checked end to end."""

from __future__ import annotations

from pathlib import Path

from ..helpers_cli import run, synced_project


def test_an_unknown_tag_is_named_with_the_closest_tags_in_use(tmp_path: Path) -> None:
    root = synced_project(tmp_path)  # tags in use: muon, theory
    result = run(root, "related-work", "--tag", "mun", "-o", str(root / "related.tex"))
    assert result.exit_code == 1 and not (root / "related.tex").exists()
    assert "no tag 'mun' in the library (closest: muon)" in result.stderr, result.stderr
    assert "--any" not in result.stderr, result.stderr  # --any cannot find a tag that does not exist
    for command in (["list"], ["export"]):
        other = run(root, *command, "--tag", "mun")
        assert other.exit_code == 1 and "no tag 'mun' in the library (closest: muon)" in other.stderr, other.stderr
    both = run(root, "related-work", "--tag", "muon", "--tag", "step-size")  # both exist, no paper has both
    assert both.exit_code == 1 and "no tag" not in both.stderr and "--any" in both.stderr, both.stderr
