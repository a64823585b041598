"""What the command line says, end to end: counts in the right number, and a library.bib
header that says truthfully where the entries came from (issue 26)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main

from ..helpers_cli import NOTES

ONE = """@article{doe2017tomatoes,
  title   = {A Note on Tomatoes},
  author  = {Doe, Jane},
  journal = {Journal of Gardening},
  year    = {2017}
}
"""


def _run(root: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    assert result.exit_code == code, result.output
    return result


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    _run(tmp_path, "init", str(root))
    return root


def _header(root: Path) -> list[str]:
    lines = (root / "refs" / "library.bib").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith("% ")]


def test_an_imported_library_does_not_claim_to_come_from_the_notes(tmp_path: Path):
    root = _project(tmp_path)
    (root / "mine.bib").write_text(ONE, encoding="utf-8")
    _run(root, "import", str(root / "mine.bib"))
    header = _header(root)
    assert header[0] == "% Written by citekit from imported .bib files (citekit import); edit freely: hand edits are kept."
    assert not any("from the notes" in line for line in header)
    # notes synced into it: both sources named, and the old first line is not kept as the user's text
    (root / "notes" / "icml.md").write_text(NOTES, encoding="utf-8")
    _run(root, "sync", "--offline", "-q")
    text = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert text.startswith("% Written by citekit from the notes and imported .bib files;")
    assert text.count("% Written by citekit") == 1
    _run(root, "doctor", "-q")


def test_a_library_of_the_notes_keeps_its_header(tmp_path: Path):
    root = _project(tmp_path)
    (root / "notes" / "icml.md").write_text(NOTES, encoding="utf-8")
    _run(root, "sync", "--offline", "-q")
    assert _header(root)[0] == "% Written by citekit from the notes; edit freely: hand edits are kept by every sync."


def test_counts_of_one_are_singular(tmp_path: Path):
    root = _project(tmp_path)
    (root / "mine.bib").write_text(ONE, encoding="utf-8")
    imported = _run(root, "import", str(root / "mine.bib"))
    assert "imported 1 new entry," in imported.output
    listed = _run(root, "list")
    assert "1 entry" in listed.output and "1 entries" not in listed.output
    tex = root / "paper.tex"
    tex.write_text("\\cite{doe2017tomatoes}\n", encoding="utf-8")
    _run(root, "rename", "doe2017tomatoes", "doe2017note")
    rekeyed = _run(root, "rekey", str(tex))
    assert "rewrote 1 citation key in 1 file" in rekeyed.output
    exported = _run(root, "export", "-o", str(root / "out.bib"))
    assert "1 entries" not in exported.output
    for result in (imported, listed, rekeyed, exported):
        for wrong in ("1 entries", "1 files", "1 fields", "1 requests", "1 keys"):
            assert wrong not in result.output, (wrong, result.output)
