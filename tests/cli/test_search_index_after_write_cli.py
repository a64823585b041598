"""A large library's search index is built right after the import (or sync) that left it
without one, so its first search does not have to scan (the build runs in the background;
``CITEKIT_SEARCH_INDEX=now`` builds it in the process, as here)."""

from __future__ import annotations

from pathlib import Path

import pytest

import citekit.api.search_index as search_index
from citekit.library.store import kinds
from citekit.library.store.cache.memo_files import apart_path
from tests.helpers_cli import bare_project, run

BIB = "\n".join(f"@article{{a{i}, title = {{Quantum dots number {i}}}, author = {{Wang, Li}}, journal = {{Nano}}, "
                f"year = {{{2000 + i}}}}}" for i in range(6))


def _import(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    root = bare_project(tmp_path)
    (root / "export.bib").write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(root / "export.bib"), "-q").exit_code in (0, 1)
    return root


def test_a_large_import_leaves_the_index_for_the_first_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEKIT_SEARCH_INDEX", "now")
    monkeypatch.setattr(search_index, "BACKGROUND_MIN", 5)  # "large" for this test
    root = _import(tmp_path)
    assert apart_path(root / "refs", kinds.SEARCH_INDEX).exists()
    started: list[Path] = []
    monkeypatch.setattr(search_index, "build_index_later", started.append)
    result = run(root, "search", "quantum", "--json")
    assert result.exit_code == 0 and '"a0"' in result.stdout
    assert started == []  # answered from the index: no scan, nothing left to build


def test_a_small_library_or_off_starts_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Path] = []
    monkeypatch.setattr(search_index, "build_index_later", started.append)
    _import(tmp_path / "small")
    assert started == []  # 6 entries: a scan is fast enough
    monkeypatch.setattr(search_index, "BACKGROUND_MIN", 5)
    monkeypatch.setenv("CITEKIT_SEARCH_INDEX", "off")
    _import(tmp_path / "off")
    assert started == []
