"""Write ``docs/examples/`` again: the related-work snippets of the bundled notes, unedited.

A copy of the bundled ``notes/`` is synced online against the loopback fake services the
tests use (``tests/fakeservices``: no real network), then ``citekit related-work`` writes
each example the README of ``docs/examples`` lists; the offline ones come from a second
copy synced with ``--offline``. Run it after a change to related work so the examples show
what the code writes.

Run: .venv/bin/python bench/write_examples.py [--out docs/examples]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: file stem -> related-work arguments (each written as .tex and .md)
EXAMPLES = {
    "muon": ["--tag", "muon"],
    "quantization": ["--tag", "quantization"],
    "distributed": ["--tag", "distributed"],
    "muon-mine": ["--tag", "muon", "--mine", "{paper}"],
}
OFFLINE = {"muon-offline": ["--tag", "muon"]}


def _citekit(project: Path, *args: str, env: dict[str, str], cwd: Path | None = None) -> str:
    """``citekit -C project ARGS`` run from ``cwd`` (file arguments are read relative to it)."""
    result = subprocess.run([sys.executable, "-c", "from citekit.cli import main; main()", "-C", str(project), *args],
                            capture_output=True, text=True, env=env, cwd=cwd)
    if result.returncode != 0:
        raise SystemExit(f"citekit {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def _project(root: Path, name: str) -> Path:
    project = root / name
    shutil.copytree(REPO / "notes", project / "notes")
    return project


def _write(project: Path, examples: dict[str, list[str]], out: Path, paper: Path, env: dict[str, str]) -> None:
    for stem, args in examples.items():
        args = [a.replace("{paper}", paper.name) for a in args]
        for suffix, fmt in ((".tex", []), (".md", ["--format", "markdown"])):
            text = _citekit(project, "related-work", *args, *fmt, env=env, cwd=paper.parent)
            (out / f"{stem}{suffix}").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "examples")
    args = parser.parse_args()
    from tests.fakeservices import FakeServices

    paper = (args.out / "paper.yaml").resolve()
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    with tempfile.TemporaryDirectory() as tmp, FakeServices() as fake:
        env.update(fake.env())
        env["CITEKIT_CACHE_DIR"] = str(Path(tmp) / "cache")
        online = _project(Path(tmp), "online")
        _citekit(online, "sync", env=env)
        _write(online, EXAMPLES, args.out, paper, env)
        offline = _project(Path(tmp), "offline")
        _citekit(offline, "sync", "--offline", env=env)
        _write(offline, OFFLINE, args.out, paper, env)
    print(f"wrote {2 * (len(EXAMPLES) + len(OFFLINE))} examples to {args.out}")


if __name__ == "__main__":
    main()
