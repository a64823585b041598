"""How long citekit's merge driver takes on a large library, against git's own text merge.

Builds a library of N imported entries (``citekit import`` of a generated .bib), writes
two branches of it (each tags a different entry and imports a few papers of its own),
and times ``citekit merge-driver``'s work (both files) against ``git merge-file`` on the
same three versions, which is what git does without the driver (and which conflicts).

    .venv/bin/python bench/git_merge_bench.py [N]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main
from citekit.library.gitmerge import merge_bib, merge_sidecar


def _bib(n: int, start: int = 0) -> str:
    return "".join(f"@article{{a{i},\n  author = {{Author{i}, Ann and Other{i}, Bo}},\n"
                   f"  title = {{A Study of Topic Number {i} in Depth}},\n  journal = {{Journal {i % 40}}},\n"
                   f"  year = {{{1990 + i % 35}}},\n}}\n\n" for i in range(start, start + n))


def _run(root: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output


def _branch(base: Path, name: str, tag_key: str, extra: int) -> Path:
    """A copy of ``base`` that tagged ``tag_key`` and imported 5 papers of its own."""
    root = base.parent / name
    shutil.copytree(base, root)
    _run(root, "tag", tag_key, f"+{name}")
    (root / "more.bib").write_text(_bib(5, extra), encoding="utf-8")
    _run(root, "import", str(root / "more.bib"), "-q")
    return root


def main_bench(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        (base / "citekit.yaml").write_text("# bench\n", encoding="utf-8")
        (base / "all.bib").write_text(_bib(n), encoding="utf-8")
        _run(base, "import", str(base / "all.bib"), "-q")
        # both branches tag the same entry (the case: one keywords line on both sides)
        ours, theirs = _branch(base, "ours", "a1", n), _branch(base, "theirs", "a1", n + 100)
        for name in ("library.bib", "library.yaml"):
            texts = [(p / "refs" / name).read_text(encoding="utf-8") for p in (base, ours, theirs)]
            began = time.perf_counter()
            merged = merge_bib(*texts)[0] if name.endswith(".bib") else merge_sidecar(*texts)[0]
            driver = time.perf_counter() - began
            began = time.perf_counter()
            text = subprocess.run(["git", "merge-file", "-p", str(ours / "refs" / name), str(base / "refs" / name),
                                   str(theirs / "refs" / name)], capture_output=True, text=True, check=False)
            plain = time.perf_counter() - began
            print(f"{name:13} {n} entries: citekit merge-driver {driver * 1000:8.1f} ms "
                  f"(conflicts {0 if '<<<<<<<' not in merged else 'yes'}); git merge-file {plain * 1000:6.1f} ms "
                  f"(conflicting hunks {text.returncode if text.returncode > 0 else 0})")


if __name__ == "__main__":
    main_bench(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
