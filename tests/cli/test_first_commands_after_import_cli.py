"""After a large import, the first ``list``, ``search`` and ``sync`` find what they read of
every entry already derived and kept: the import leaves it built, as the commands after
them would (before, each first command derived it for all entries: 3-10x the next run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main

ENTRIES = 1200  # more than the size from which an import prepares the library (1,000)


def _bib() -> str:
    topics = ("Theory of Sparse Parsing", "Attention in Crowded Rooms", "Warm Starts for Solvers", "Grammars of Tide")
    return "".join(
        f"@article{{made{i},\n  title = {{{topics[i % 4]} {i}}},\n  author = {{Quill, Ada and Rook, Ben{i % 7}}},\n"
        f"  journal = {{Journal of Made-Up Results}},\n  year = {{{1990 + i % 30}}}\n}}\n" for i in range(ENTRIES))


@pytest.fixture
def imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CITEKIT_SEARCH_INDEX", "now")  # (in this process, not in the background)
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (tmp_path / "big.bib").write_text(_bib(), encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "import", str(tmp_path / "big.bib"), "-q"])
    assert result.exit_code == 0, result.output
    return root


def _counted(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_the_first_list_and_sync_after_an_import_derive_nothing_again(imported: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import citekit.api.library as listing
    import citekit.library.fold as fold

    rows = _counted(monkeypatch, listing, "entry_json")
    listed = CliRunner().invoke(main, ["-C", str(imported), "list"])
    assert listed.exit_code == 0 and "made0 " in listed.output, listed.output
    assert len(rows) == 0  # every line was kept by the import
    tags = _counted(monkeypatch, fold, "_auto_tags")
    synced = CliRunner().invoke(main, ["-C", str(imported), "sync", "--offline", "-q"])
    assert synced.exit_code == 0, synced.output
    assert len(tags) == 0  # what the rules give each entry was derived by the import and kept
    theory = CliRunner().invoke(main, ["-C", str(imported), "list", "--tag", "theory"])
    assert theory.exit_code == 0 and "made0 " in theory.output, theory.output  # and the sync gave it
