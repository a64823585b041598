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


SHORT_VENUES = """# Reading

```bibtex
@inproceedings{ruiz2021sparse,
  title = {Sparse Graph Sketches for Streaming Kernels},
  author = {Ruiz, Carla and Beck, Tom},
  booktitle = {ICLR},
  year = {2021}
}
```

```bibtex
@inproceedings{ode2019token,
  title = {Token Mixing Without Attention for Short Texts},
  author = {Ode, Lina and Park, Jun},
  booktitle = {NAACL},
  year = {2019}
}
```

# NAACL 2019

- Span Alignment for Low-Resource Tagging
  - Authors: Nora Velt, Ian Choi

# CVPR 2016

```bibtex
@inproceedings{lee2016layered,
  title = {Layered Depth Fields for Indoor Scenes},
  author = {Lee, Ann and Park, Jun},
  year = {2016}
}
```
"""


def _mentions(root: Path) -> dict[str, dict]:
    import json

    result = run(root, "extract", "--json", str(root / "notes"))
    assert result.exit_code == 0, result.output
    return {m["title"]: m for m in json.loads(result.output)["mentions"]}


def test_short_venue_names_are_read(tmp_path: Path) -> None:
    """``booktitle = {ICLR}`` / ``{NAACL}`` and a ``# NAACL 2019`` heading name a venue."""
    root = _project(tmp_path, SHORT_VENUES)
    mentions = _mentions(root)
    assert mentions["Sparse Graph Sketches for Streaming Kernels"]["venue"] == "ICLR"
    assert mentions["Token Mixing Without Attention for Short Texts"]["venue"] == "NAACL"
    span = mentions["Span Alignment for Low-Resource Tagging"]
    assert (span["venue"], span["year"]) == ("NAACL", 2019)
    layered = mentions["Layered Depth Fields for Indoor Scenes"]
    assert (layered["venue"], layered["year"]) == ("CVPR", 2016)


def test_pasted_fields_are_kept_as_written(tmp_path: Path) -> None:
    """A pasted entry keeps its type and its booktitle as the user wrote them; one without a
    booktitle under a venue heading gets that venue's proceedings."""
    root = _project(tmp_path, SHORT_VENUES)
    _sync(root)
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    entries = {chunk.split(",", 1)[0]: chunk for chunk in bib.split("@")[1:]}
    assert "booktitle     = {ICLR}," in entries["inproceedings{ruiz2021sparse"]
    assert "booktitle     = {NAACL}," in entries["inproceedings{ode2019token"]
    assert "Computer Vision and Pattern Recognition" in entries["inproceedings{lee2016layered"]
    span = next(k for k, v in entries.items() if "Span Alignment" in v)
    assert span.startswith("inproceedings{") and "North American Chapter" in entries[span]
