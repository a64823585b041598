"""Building throwaway projects from the bundled notes, for end-to-end tests."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTES = REPO / "notes"


def make_project(tmp_path: Path, *, notes: bool = True) -> Path:
    """A project folder with a copy of the bundled notes and a citekit.yaml."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    if notes:
        shutil.copytree(NOTES, root / "notes")
    return root
