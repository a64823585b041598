"""Libraries' log records are citekit's warnings: prefixed, counted, said once, and
silenced by ``-q``.

Run in a child process: under pytest the root logger has pytest's own handlers, which
would hide the bare lines Python prints for a library when nothing else handles them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: CJK characters have no LaTeX spelling: pylatexenc logs one line per field holding one
NOTES = """# ICML 2026

- 乾杯: Learning to Toast with 杯 Models #muon
  - Authors: Feihu Huang, Yuning Luo
"""


def _citekit(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    code = "import sys; from citekit.cli import main; sys.argv = ['citekit', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, "-C", str(root), *args], capture_output=True, text=True,
                          env=env, check=False, encoding="utf-8")


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test\n", encoding="utf-8")
    (root / "notes" / "icml.md").write_text(NOTES, encoding="utf-8")
    return root


def test_ascii_sync_quiet_prints_nothing(tmp_path):
    root = _project(tmp_path)
    done = _citekit(root, "sync", "--offline", "--ascii", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == "", done.stderr
    assert "title" in (root / "refs" / "library.bib").read_text(encoding="ascii")


def test_library_log_lines_are_prefixed_counted_and_said_once(tmp_path):
    root = _project(tmp_path)
    done = _citekit(root, "sync", "--offline", "--ascii")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert all(not line.startswith("No known latex") for line in lines), done.stderr
    logged = [line for line in lines if "No known latex representation" in line]
    assert logged, done.stderr
    assert all(line.startswith("warning: pylatexenc: ") for line in logged), logged
    assert len(logged) == len(set(logged)) == 2, logged  # 乾 and 杯, each once, with a count
    assert all(line.endswith(" times)") for line in logged), logged
