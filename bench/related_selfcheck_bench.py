"""Does ``related-work`` write what its own ``--check`` flags? Counted on the drafts the project can build offline.

Drafts: the examples of ``docs/examples`` (the bundled notes synced against the loopback fake
services, as ``bench/write_examples.py`` writes them, LaTeX and Markdown), and the plume-bib
sections of ``bench/related_paragraphs_bench.py`` (plain and ``--mine``, Markdown). Each is
written by this checkout and by a former revision (``git archive`` of BASELINE, run from a
temporary copy) and read by the check of the revision that wrote it, with the cited records,
as ``--check`` reads it. Prints the defects by category before and after, how many papers'
sentences changed, and (``-v``) the changed sentences side by side for a reader.

Run: .venv/bin/python bench/related_selfcheck_bench.py [BASELINE=main] [-v] [--skip-plume]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from baseline_src import sources_at  # noqa: E402
from related_paragraphs_bench import LIBRARY, MAX, MIN, WRITER  # noqa: E402
from write_examples import EXAMPLES, OFFLINE  # noqa: E402

#: each plume-bib draft read by its own revision's check, with the records it cites (as ``--check`` is given them)
CHECKER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from citekit.output.record_check import CitedRecord
from citekit.output.related_check import check_snippet
sections = json.load(open(sys.argv[2]))
out = {}
for tag, s in sections.items():
    records = [CitedRecord(k, s["titles"][k], s["abstracts"][k]) for k in s["titles"]]
    for kind in ("plain", "mine"):
        out[f"plume/{tag}/{kind}"] = {"text": s[kind], "defects": [[d.category, d.excerpt] for d in check_snippet(
            s[kind], "markdown", list(s["titles"].values()), list(s["abstracts"].values()), records)]}
print(json.dumps(out))
"""


def _citekit(src: Path, project: Path, *args: str, env: dict[str, str], cwd: Path | None = None) -> tuple[str, str]:
    result = subprocess.run([sys.executable, "-c", "from citekit.cli import main; main()", "-C", str(project), *args],
                            capture_output=True, text=True, env=dict(env, PYTHONPATH=str(src)), cwd=cwd)
    return result.stdout, result.stderr


def examples(srcs: dict[str, Path]) -> dict[str, dict[str, dict]]:
    """``{revision: {draft name: {"text", "defects"}}}`` for the examples of ``docs/examples``."""
    from tests.fakeservices import FakeServices

    paper = (REPO / "docs" / "examples" / "paper.yaml").resolve()
    out: dict[str, dict[str, dict]] = {name: {} for name in srcs}
    with tempfile.TemporaryDirectory() as tmp, FakeServices() as fake:
        env = dict(os.environ, **fake.env(), CITEKIT_CACHE_DIR=str(Path(tmp) / "cache"))
        for project_name, todo, extra in (("online", EXAMPLES, []), ("offline", OFFLINE, ["--offline"])):
            project = Path(tmp) / project_name
            shutil.copytree(REPO / "notes", project / "notes")
            _citekit(REPO / "src", project, "sync", *extra, env=env)
            for stem, args in todo.items():
                args = [a.replace("{paper}", paper.name) for a in args]
                for suffix, fmt in ((".tex", []), (".md", ["--format", "markdown"])):
                    for name, src in srcs.items():
                        text, err = _citekit(src, project, "related-work", *args, *fmt, "--check", env=env,
                                             cwd=paper.parent)
                        defects = [list(m.groups()) for m in re.finditer(r"^check: line \d+: ([a-z\-]+): .*: (.*)$",
                                                                          err, re.M)]
                        out[name][f"examples/{stem}{suffix}"] = {"text": text, "defects": defects}
    return out


def plume(src: Path) -> dict[str, dict]:
    """The plume-bib sections, plain and ``--mine``, written and checked by ``src``."""
    written = subprocess.run([sys.executable, "-c", WRITER, str(src), str(LIBRARY), str(MIN), str(MAX)],
                             capture_output=True, text=True, check=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(written)
    try:
        checked = subprocess.run([sys.executable, "-c", CHECKER, str(src), f.name], capture_output=True, text=True,
                                 check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(checked)


def paper_sentences(text: str) -> dict[str, str]:
    """The sentence about each paper that opens with its citation (``\\citet{k}``, ``@k``), by key."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith(("%", "<!--", "#")):
            continue
        line = re.sub(r"^\\paragraph\{[^{}]*\}\s*", "", line)
        for sentence in re.split(r"(?<=\.)\s+(?=\\citet|@|[A-Z])|;\s+(?=\\citet|@)", line):
            m = re.match(r"\s*(?:\\citet\{([^{}]+)\}|@([\w:.\-+/]*\w))", sentence)
            if m:
                out.setdefault(m.group(1) or m.group(2), sentence.strip())
    return out


def report(before: dict[str, dict], after: dict[str, dict], verbose: bool) -> None:
    for part in ("examples", "plume"):
        names = [n for n in before if n.startswith(part + "/")]
        if not names:
            continue
        b = Counter(c for n in names for c, _ in before[n]["defects"])
        a = Counter(c for n in names for c, _ in after[n]["defects"])
        print(f"{part}: {len(names)} drafts; --check defects {sum(b.values())} -> {sum(a.values())}")
        for category in sorted(set(a) | set(b), key=lambda c: -(b[c] + a[c])):
            print(f"  {category:22s} {b[category]:4d} -> {a[category]:4d}")
        papers = changed = 0
        pairs = []
        for n in names:
            old, new = paper_sentences(before[n]["text"]), paper_sentences(after[n]["text"])
            for key in old.keys() & new.keys():
                papers += 1
                if old[key] != new[key]:
                    changed += 1
                    pairs.append((n, old[key], new[key]))
        print(f"  sentences about a paper changed: {changed}/{papers}")
        if verbose:
            for n, old, new in pairs:
                print(f"  [{n}]\n    - {old}\n    + {new}")


def main() -> None:
    verbose = "-v" in sys.argv
    baseline = next((a for a in sys.argv[1:] if not a.startswith("-")), "main")
    with tempfile.TemporaryDirectory() as tmp:
        old_src = sources_at(baseline, Path(tmp) / "before")
        if old_src is None:
            raise SystemExit(1)
        srcs = {"before": old_src, "after": REPO / "src"}
        drafts = examples(srcs)
        if "--skip-plume" not in sys.argv and LIBRARY.exists():
            for name, src in srcs.items():
                drafts[name].update(plume(src))
        print(f"before = {baseline}, after = this checkout")
        report(drafts["before"], drafts["after"], verbose)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
