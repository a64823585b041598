"""Faults a user met with ``tag``, ``related-work --check`` and ``export``, each checked end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..helpers_cli import run, synced_project

KEY = "huang2026light"


def _files(root: Path) -> tuple[str, str]:
    refs = root / "refs"
    return (refs / "library.bib").read_text(encoding="utf-8"), (refs / "library.yaml").read_text(encoding="utf-8")


def test_the_project_option_after_the_key_of_tag_is_said_to_go_before_the_command(tmp_path: Path) -> None:
    """``tag KEY -C ../b +y`` once removed a tag 'C' and added a tag '../b', exit 0."""
    root = synced_project(tmp_path)
    before = _files(root)
    for args in ([KEY, "-C", "../b", "+y"], [KEY, "+y", "--project=../b"]):
        result = run(root, "tag", *args)
        assert result.exit_code == 2, result.output
        assert "-C goes before the command" in result.output or "--project goes before the command" in result.output
        assert "citekit -C ../b tag" in result.output or "citekit --project ../b tag" in result.output, result.output
        assert _files(root) == before
    assert run(root, "tag", KEY, "-C", "+y").exit_code == 0  # -C followed by a change: removes the tag C


@pytest.mark.parametrize("word", ["+../b", "+-x", "+.hidden", "-/etc", "+:x"])
def test_a_tag_that_is_no_tag_name_is_refused_and_nothing_is_written(tmp_path: Path, word: str) -> None:
    root = synced_project(tmp_path)
    before = _files(root)
    result = run(root, "tag", KEY, "+fine", word)
    assert result.exit_code == 2, result.output
    assert "is not a tag: a tag starts with a letter or a digit" in result.output, result.output
    assert _files(root) == before


def test_a_bare_word_after_the_key_is_not_taken_for_a_tag(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    before = _files(root)
    result = run(root, "tag", KEY, "theory")
    assert result.exit_code == 2 and "write +theory to add the tag or -theory to remove it" in result.output, \
        result.output
    assert _files(root) == before
    added = run(root, "tag", KEY, "+Step Size", "+cs.LG", "+c++", "--json")
    assert added.exit_code == 0, added.output
    assert {"step-size", "cs.lg", "c++"} <= set(__import__("json").loads(added.stdout)["added"])


def _two_unrelated_papers(root: Path) -> None:
    """A library whose two papers tagged ``t`` share no phrase: the paragraph gets no topic
    sentence, which ``--check`` names; each has a summary, the user's own note."""
    from citekit.core.model import Entry
    from citekit.library.store import Library

    (root / "citekit.yaml").write_text("", encoding="utf-8")
    lib = Library.load(root / "refs")
    for key, title in (("ames2026tides", "Tidal Friction in Shallow Estuaries"),
                       ("birk2026lichen", "Lichen Growth on Northern Basalt")):
        lib.add(Entry(key=key, entry_type="article", tags_auto=["t"], summary="Must read, we reuse its setup",
                      fields={"title": title, "author": "Roe, Rick", "year": "2026"}))
    lib.save()


def test_the_check_hint_says_what_changes_the_text_not_the_unused_summary(tmp_path: Path) -> None:
    _two_unrelated_papers(tmp_path)
    out = tmp_path / "rw.tex"
    result = run(tmp_path, "related-work", "--tag", "t", "--check", "-o", str(out))
    assert result.exit_code == 1 and "no-topic-sentence" in result.stderr, result.output
    hint = result.stderr.strip().splitlines()[-1]
    assert "summaries in" not in hint and "summary in refs/library.yaml is never used" in hint, hint
    assert f"edit those sentences in {out}" in hint and f"citekit related-work --check-file {out}" in hint, hint
    printed = run(tmp_path, "related-work", "--tag", "t", "--check")
    assert "citekit related-work --check-file FILE" in printed.stderr.strip().splitlines()[-1], printed.stderr


def test_export_refused_for_a_field_a_merge_left_unsettled_exits_2_with_nothing_written(tmp_path: Path) -> None:
    """Nothing written, the user must act first: exit 2 (docs/command-line.md), not 1 ("done,
    with findings"), so a paper's build stops instead of going on with an old ``refs.bib``."""
    root = synced_project(tmp_path)
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    at = text.index("title", text.index("{" + KEY + ","))
    bib.write_text(text[:at] + "citekit-conflict-title = {Their Light Muon},\n  " + text[at:], encoding="utf-8")
    out = tmp_path / "paper.bib"
    for args in (["export", "-o", str(out)], ["export", "--tag", "muon", "-o", str(out)], ["export"]):
        result = run(root, *args)
        assert result.exit_code == 2, result.output
        assert "left unsettled" in result.output and f"citekit resolve-conflict {KEY}" in result.output, result.output
        assert not out.exists()
    assert run(root, "resolve-conflict", KEY, "--ours").exit_code == 0
    assert run(root, "export", "-o", str(out)).exit_code == 0 and out.exists()
