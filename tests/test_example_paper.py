"""The exported .bib files compile: the example paper, old keys, and crossref parents.

These tests run the real tools (make, pdflatex, bibtex, biber) in a temporary folder and
read their logs, because "compiles without undefined citations" is the whole point of
exporting for a paper.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "paper"
SHARED = REPO.parent / "shared"
PLUME = SHARED / "corpora" / "plume-bib"
CITEKIT_BIN = Path(sys.executable).parent / "citekit"

UNDEFINED = re.compile(r"Citation `[^']+' (?:on page \d+ )?undefined|There were undefined (?:references|citations)|"
                       r"undefined references|Please \(re\)run Biber")

pytestmark = pytest.mark.latex


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} on PATH")


def run_tool(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "max_print_line": "10000"})


def export(project: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["-C", str(project), "export", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture()
def paper(tmp_path: Path) -> Path:
    copy = tmp_path / "paper"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("*.aux", "*.bbl", "*.blg", "*.log", "*.pdf", "*.out",
                                                                "refs.bib", "related-work.tex"))
    return copy


# --- the example paper ----------------------------------------------------


def test_example_paper_builds_with_make(paper: Path) -> None:
    need("make", "pdflatex", "bibtex")
    if not CITEKIT_BIN.exists():
        pytest.skip(f"the citekit command is not installed next to {sys.executable}")
    build = run_tool(["make", f"CITEKIT={CITEKIT_BIN}"], paper)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert (paper / "main.pdf").stat().st_size > 10_000
    assert re.search(r"\\cite[tp]\{huang2026limuon\}", (paper / "related-work.tex").read_text())  # made by its target
    log = (paper / "main.log").read_text(errors="replace")
    assert not UNDEFINED.search(log), UNDEFINED.search(log)

    keys = re.findall(r"^@\w+\{([^,]+),", (paper / "refs.bib").read_text(), flags=re.M)
    assert sorted(keys) == ["huang2026limuon", "qu2026muon", "schaipp2026stepsize", "sfyraki2026lions", "wang2026worth"]
    bbl = (paper / "main.bbl").read_text()
    assert "]{wang2026worth}" in bbl and "Nalisnick" in bbl  # the old key compiled to the merged entry
    assert "monziocompagnoni2026interaction" not in bbl

    # A second make re-exports (main.aux is newer) but refs.bib is unchanged, so no LaTeX rerun.
    pdf_time = (paper / "main.pdf").stat().st_mtime_ns
    again = run_tool(["make", f"CITEKIT={CITEKIT_BIN}"], paper)
    assert again.returncode == 0
    assert "pdflatex" not in again.stdout
    assert (paper / "main.pdf").stat().st_mtime_ns == pdf_time

    check = run_tool(["make", f"CITEKIT={CITEKIT_BIN}", "check-refs"], paper)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "'wang2026worth' is an old key of 'wang2026compute'" in check.stdout
    assert "entries of refs.bib not cited: none" in check.stdout


def test_example_library_is_in_the_store_format() -> None:
    lib = Library.load(EXAMPLE / "refs")
    assert lib.problems == []
    assert len(lib.entries) == 6
    assert lib.get("wang2026worth") is lib.entries["wang2026compute"]
    assert lib.render_bib() == (EXAMPLE / "refs" / "library.bib").read_text(encoding="utf-8")


def test_example_makefile_contains_the_generated_targets(paper: Path) -> None:
    result = CliRunner().invoke(main, ["-C", str(paper), "makefile", "--tag", "muon"], catch_exceptions=False)
    makefile = (paper / "Makefile").read_text()
    assert result.exit_code == 0 and result.stdout.strip(), result.output
    for line in result.stdout.splitlines():
        if line and not line.startswith("CITEKIT_PROJECT ?="):  # the only line that depends on the cwd
            assert line in makefile.splitlines(), line


# --- old keys compile in both BibTeX and biblatex -------------------------


NATBIB_PAPER = r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
New key \citet{wang2026compute}, old key \citet{wang2026worth}, and \citep{qu2026muon}.
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""

BIBLATEX_PAPER = r"""\documentclass{article}
\usepackage[backend=biber,style=authoryear]{biblatex}
\addbibresource{refs.bib}
\begin{document}
New key \textcite{wang2026compute}, old key \textcite{wang2026worth}, and \parencite{qu2026muon}.
\printbibliography
\end{document}
"""


def test_old_key_compiles_with_bibtex(paper: Path) -> None:
    need("pdflatex", "bibtex")
    (paper / "alias.tex").write_text(NATBIB_PAPER)
    assert run_tool(["pdflatex", "-interaction=nonstopmode", "alias"], paper).returncode == 0
    (paper / "refs.bib").write_text(export(paper, "--aux", str(paper / "alias.aux")), encoding="utf-8")
    bibtex = run_tool(["bibtex", "alias"], paper)
    assert bibtex.returncode == 0, bibtex.stdout
    assert "Warning" not in bibtex.stdout, bibtex.stdout
    for _ in range(2):
        run_tool(["pdflatex", "-interaction=nonstopmode", "alias"], paper)
    log = (paper / "alias.log").read_text(errors="replace")
    assert not UNDEFINED.search(log), UNDEFINED.search(log)


def test_old_key_compiles_with_biblatex_through_ids(paper: Path) -> None:
    need("pdflatex", "biber")
    (paper / "alias.tex").write_text(BIBLATEX_PAPER)
    assert run_tool(["pdflatex", "-interaction=nonstopmode", "alias"], paper).returncode == 0
    text = export(paper, "--format", "biblatex", "--aux", str(paper / "alias.aux"))
    assert "@inproceedings{wang2026worth" not in text  # one entry, old key in ids
    (paper / "refs.bib").write_text(text, encoding="utf-8")
    biber = run_tool(["biber", "alias"], paper)
    assert biber.returncode == 0, biber.stdout
    assert "ERROR" not in biber.stdout and "WARN" not in biber.stdout, biber.stdout
    for _ in range(2):  # biblatex settles labels on the second run after biber
        run_tool(["pdflatex", "-interaction=nonstopmode", "alias"], paper)
    log = (paper / "alias.log").read_text(errors="replace")
    assert not UNDEFINED.search(log), UNDEFINED.search(log)
    bbl = (paper / "alias.bbl").read_text()
    assert bbl.count("\\entry{wang2026compute}") == 1


# --- crossref parents, as bibtex wants them (real plume-bib data) ---------


def test_crossref_parents_compile_with_bibtex_min_crossrefs(tmp_path: Path) -> None:
    need("pdflatex", "bibtex")
    if not PLUME.is_dir():
        pytest.skip(f"real-data corpus not present at {PLUME}")
    from citekit.bibtex.reader import read_bib_file

    project = tmp_path / "plume"
    project.mkdir()
    lib = Library.load(project / "refs")
    for name in ("heaps.bib", "crossrefs.bib"):
        for entry in read_bib_file(PLUME / name).entries:
            if lib.get(entry.key) is None and entry.key.lower() not in {k.lower() for k in lib.entries}:
                lib.add(entry)
    lib.save()
    children: dict[str, list[str]] = {}
    for entry in lib.entries.values():
        parent = entry.fields.get("crossref")
        if parent and parent in lib.entries:
            children.setdefault(parent, []).append(entry.key)
    shared_parent = next(p for p, c in sorted(children.items()) if len(c) >= 2)
    single_parent = next(p for p, c in sorted(children.items()) if len(c) == 1)
    cited = sorted(children[shared_parent])[:2] + children[single_parent]

    (project / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\n"
        + "".join(f"\\cite{{{k}}}\n" for k in cited)
        + "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
    )
    assert run_tool(["pdflatex", "-interaction=nonstopmode", "paper"], project).returncode == 0
    text = export(project, "--aux", str(project / "paper.aux"))
    (project / "refs.bib").write_text(text, encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,]+),", text, flags=re.M)
    assert set(keys) == set(cited) | {shared_parent, single_parent}
    assert min(keys.index(shared_parent), keys.index(single_parent)) > max(keys.index(k) for k in cited)

    bibtex = run_tool(["bibtex", "paper"], project)
    assert bibtex.returncode == 0, bibtex.stdout
    assert "bad cross reference" not in bibtex.stdout.lower(), bibtex.stdout
    bbl = (project / "paper.bbl").read_text()
    bibitems = set(re.findall(r"\\bibitem\{([^}]+)\}", bbl))
    # bibtex's own rule: a parent cited by >= min-crossrefs (2) entries is listed; else folded in
    assert bibitems == set(cited) | {shared_parent}
    for _ in range(2):
        run_tool(["pdflatex", "-interaction=nonstopmode", "paper"], project)
    assert not UNDEFINED.search((project / "paper.log").read_text(errors="replace"))
