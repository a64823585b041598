"""Small projects and folder fingerprints for the command-line tests."""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main

NOTES = """# ICML 2026

- Light and Fast Muon Optimizer for Large Models #muon
  - Authors: Feihu Huang, Yuning Luo
- Step-Size Stability in Stochastic Optimization #theory
  - Authors: Fabian Schaipp, Robert Gower
- Compute When Worth It: Risk Control for Reasoning #muon #theory
  - Authors: Xi Wang, Eric Nalisnick
"""


def bare_project(tmp_path: Path) -> Path:
    """An empty project in ``tmp_path``: a citekit.yaml naming notes/ and refs/, nothing else."""
    (tmp_path / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    return tmp_path


def run(root: Path, *args: str):
    """``citekit -C root ARGS``, exceptions not caught (a traceback fails the test as itself)."""
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its SHA-256: equal digests mean nothing was written."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not _derived(p)}


def _derived(path: Path) -> bool:
    """Caches in ``.citekit/`` that any read may refresh: derived data, not the user's files."""
    return path.parent.name == ".citekit" and path.suffix in (".cache", ".stamp")


def synced_project(tmp_path: Path, notes: str = NOTES) -> Path:
    """A project whose library was built from ``notes`` by an offline sync."""
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "icml.md").write_text(notes, encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--offline", "-q"])
    assert result.exit_code == 0, result.output
    return root
