"""Do two citekit source trees write the same files? (For a restructuring that must not
change behaviour.)

For every ``.bib``/``.bibtex`` file of ``../shared/corpora`` (and the bundled notes), each
tree, in a process of its own, imports the file into a fresh project (``import --merge``),
then exports it as BibTeX, biblatex and CSL JSON, and runs ``dedup`` (the report only); the
bundled notes go through ``sync --offline``. Every file written and every command's output
and exit code are kept; the two runs are then compared byte for byte and the files that
differ are listed.

With ``--notes PATH ...`` every notes file under those paths (files or folders) is also
extracted by each tree, and every mention (all its fields) and problem is compared: a
change to extraction's speed must give the same mentions (``--notes-only`` skips the
corpora). The blind sets are never read: a path inside one is refused.

Run: .venv/bin/python bench/same_outputs.py OLD_SRC NEW_SRC [--limit N] [--notes PATH ...] [--notes-only]
(OLD_SRC e.g. a worktree of an older commit: ``git worktree add /tmp/old COMMIT``.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPORA = ROOT.parent / "shared" / "corpora"

#: run inside each tree's process: a JSON list of (corpus file, {output name: sha256}) on stdout
_WORKER = r'''
import contextlib, hashlib, io, json, os, shutil, sys, tempfile
from pathlib import Path
from citekit.cli import main

def run(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args, standalone_mode=False) or 0
        except SystemExit as exc:
            code = exc.code
        except Exception as exc:
            code = f"{type(exc).__name__}: {exc}"
    # the project folder is a new temporary one per run: named alike, so messages compare
    text = f"{code}\n{out.getvalue()}\n{err.getvalue()}"
    return text.replace(str(Path.cwd()), "<project>").replace(os.path.realpath(Path.cwd()), "<project>")

def digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text).hexdigest()

results = []
jobs = json.loads(sys.stdin.read())
for job in jobs:
    base = Path(tempfile.mkdtemp())
    try:
        os.chdir(base)
        seen = {}
        if job["kind"] == "extract":
            from dataclasses import asdict
            from citekit.notes import extract_paths
            path = Path(job["path"])
            found = extract_paths([path], root=path.parent)
            seen["mentions"] = digest(json.dumps([asdict(m) for m in found.mentions], sort_keys=True, default=repr))
            seen["problems"] = digest(json.dumps([str(p) for p in found.problems]))
            seen["count"] = str(len(found.mentions))
            results.append([job["path"], seen])
            continue
        if job["kind"] == "notes":
            shutil.copytree(job["path"], base / "notes")
            seen["init"] = digest(run(["init"]))
            seen["sync"] = digest(run(["sync", "--offline"]))
        else:
            (base / "notes").mkdir()
            seen["init"] = digest(run(["init"]))
            seen["import"] = digest(run(["import", "--merge", job["path"]]))
            for fmt in ("bibtex", "biblatex", "csl-json"):
                seen["export-" + fmt] = digest(run(["export", "-f", fmt]))
            seen["dedup"] = digest(run(["dedup"]))
        for name in ("library.bib", "library.yaml", "import-keymap.yaml"):
            f = base / "refs" / name
            if f.exists():
                seen[name] = digest(f.read_bytes())
        results.append([job["path"], seen])
    finally:
        os.chdir("/")
        shutil.rmtree(base, ignore_errors=True)
print(json.dumps(results))
'''


def _jobs(limit: int | None) -> list[dict[str, str]]:
    files = sorted(p for p in CORPORA.rglob("*") if p.suffix.lower() in (".bib", ".bibtex") and p.is_file())
    if limit:
        files = files[:limit]
    return [{"kind": "notes", "path": str(ROOT / "notes")}] + [{"kind": "bib", "path": str(p)} for p in files]


#: what a notes folder holds besides notes (a set's expected answers)
_NOT_NOTES = (".yaml", ".yml", ".json")


def _notes_jobs(paths: list[Path]) -> list[dict[str, str]]:
    """One extraction job per notes file under ``paths``; a blind set is refused."""
    jobs = []
    for path in paths:
        path = path.resolve()  # (the worker runs in a temporary folder)
        if any(part.startswith("blind") for part in path.resolve().parts):
            sys.exit(f"{path} is inside a blind set, which this comparison never reads: pass the development sets")
        files = [path] if path.is_file() else sorted(f for f in path.rglob("*") if f.is_file() and not f.name.endswith(_NOT_NOTES))
        jobs += [{"kind": "extract", "path": str(f)} for f in files]
    return jobs


def _run_tree(src: Path, jobs: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    env = dict(os.environ, PYTHONPATH=str(src.resolve()), CITEKIT_OFFLINE="1", PYTHONHASHSEED="0")
    env.pop("CITEKIT_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", _WORKER], input=json.dumps(jobs), env=env,
                          capture_output=True, text=True, check=True)
    return {path: seen for path, seen in json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_src", type=Path)
    parser.add_argument("new_src", type=Path)
    parser.add_argument("--limit", type=int, help="only the first N corpus files")
    parser.add_argument("--notes", type=Path, nargs="+", default=[], help="also compare the mentions extracted from these notes files or folders")
    parser.add_argument("--notes-only", action="store_true", help="only the --notes comparison (no corpora, no bundled-notes sync)")
    args = parser.parse_args()
    if args.notes_only and not args.notes:
        sys.exit("--notes-only needs --notes PATH ...")
    if not args.notes_only and not CORPORA.is_dir():
        sys.exit(f"{CORPORA} is missing: this comparison needs the shared corpora beside the project")
    jobs = ([] if args.notes_only else _jobs(args.limit)) + _notes_jobs(args.notes)
    old = _run_tree(args.old_src, jobs)
    new = _run_tree(args.new_src, jobs)
    differ = []
    for job in jobs:
        a, b = old.get(job["path"], {}), new.get(job["path"], {})
        names = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
        if names:
            differ.append((job["path"], names))
    extracted = sum(job["kind"] == "extract" for job in jobs)
    others = len(jobs) - extracted
    parts = [f"{others - 1} corpus files and the bundled notes"] if others else []
    parts += [f"{extracted} notes files extracted"] if extracted else []
    print(f"{len(jobs)} inputs ({', '.join(parts)}), {sum(len(s) for s in new.values())} outputs each")
    if extracted:
        print(f"mentions extracted: {sum(int(new.get(j['path'], {}).get('count', 0)) for j in jobs if j['kind'] == 'extract')}")
    print(f"{len(jobs) - len(differ)} give the same bytes; {len(differ)} differ")
    for path, names in differ:
        print(f"  {os.path.relpath(path, ROOT.parent)}: {', '.join(names)}")


if __name__ == "__main__":
    main()
