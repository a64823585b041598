"""BibTeX pasted into notes: its key and its fields are the user's (docs/notes-format.md)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_cli import run

PLAIN = """# Vision

- Layered Pyramids for Scene Parsing
  - Authors: Mira Holt, Xiang Zhao
"""

PASTED = PLAIN + """
```bibtex
@inproceedings{holt2016pyramids,
  title = {Layered Pyramids for Scene Parsing},
  author = {Holt, Mira and Zhao, Xiang},
  booktitle = {CVPR},
  year = {2016}
}
```
"""


def _project(tmp_path: Path, notes: str) -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True, exist_ok=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "vision.md").write_text(notes, encoding="utf-8")
    return root


def _sync(root: Path) -> None:
    result = run(root, "sync", "--offline", "-q")
    assert result.exit_code == 0, result.output


def test_pasted_key_replaces_a_provisional_key(tmp_path: Path) -> None:
    """Pasting an entry for a paper the library holds under a provisional key gives the
    paper the pasted key, as a fresh build from the same notes does; the old key stays an alias."""
    root = _project(tmp_path, PLAIN)
    _sync(root)
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    old = bib.split("@misc{", 1)[1].split(",", 1)[0]
    assert old != "holt2016pyramids"
    (root / "notes" / "vision.md").write_text(PASTED, encoding="utf-8")
    _sync(root)
    assert run(root, "show", "holt2016pyramids").exit_code == 0
    assert run(root, "show", old).exit_code == 0  # the old key still finds the paper
    fresh = _project(tmp_path / "fresh", PASTED)
    _sync(fresh)
    assert "{holt2016pyramids," in (fresh / "refs" / "library.bib").read_text(encoding="utf-8")
    assert "{holt2016pyramids," in (root / "refs" / "library.bib").read_text(encoding="utf-8")


def test_pasted_key_is_an_alias_of_a_frozen_key(tmp_path: Path) -> None:
    """A key that already left the library never changes: the pasted key becomes its alias."""
    root = _project(tmp_path, PLAIN)
    _sync(root)
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    old = bib.split("@misc{", 1)[1].split(",", 1)[0]
    assert run(root, "export", "-o", str(tmp_path / "out.bib")).exit_code == 0  # the key leaves: frozen
    (root / "notes" / "vision.md").write_text(PASTED, encoding="utf-8")
    _sync(root)
    assert f"{{{old}," in (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert run(root, "show", "holt2016pyramids").exit_code == 0
