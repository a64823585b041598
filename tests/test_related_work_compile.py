"""The snippets compile: pdflatex + bibtex (natbib), pdflatex + biber (biblatex), pandoc --citeproc.

Each check runs the real tools on a snippet written from records that include a hostile
title, and asserts a clean run: no errors, no undefined citations, no warnings.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from citekit.core.model import Entry
from citekit.output.related_work import Mine, related_work

REPO = Path(__file__).resolve().parents[1]
ABSTRACTS = REPO / "notes" / "notes-icml2026-abstracts.txt"
HOSTILE = r"Evil \input{/etc/passwd} \write18{touch pwned} 100% & #1 _x_ ^^5c {unbalanced"

pytestmark = pytest.mark.latex


def need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    if not ABSTRACTS.exists():
        pytest.skip(f"{ABSTRACTS} is not in this checkout")
    paragraphs = [p.strip() for p in ABSTRACTS.read_text(encoding="utf-8").split("\n\n") if len(p.strip()) > 200]

    def abstract(word: str) -> str:
        return next(p for p in paragraphs if word in p)

    booktitle = "Forty-third International Conference on Machine Learning"
    return [
        Entry(key="huang2026limuon", entry_type="inproceedings", abstract=abstract("LiMuon"), tags_auto=["muon", "theory"],
              fields={"author": "Huang, Feihu and Luo, Yuning and Chen, Songcan",
                      "title": "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
                      "booktitle": booktitle, "year": "2026"}),
        Entry(key="doe2026softsignum", entry_type="inproceedings", abstract=abstract("SoftSignum"),
              tags_auto=["muon", "sign"],
              fields={"author": "Doe, Jane and Horváth, Samuel", "title": "{SoftSignum}: Smooth Sign-Based Optimization",
                      "booktitle": booktitle, "year": "2026"}),
        Entry(key="sfyraki2026lions", entry_type="inproceedings", tags_auto=["muon", "sign"],
              fields={"author": "Sfyraki, Maria-Eleni and Wang, Jun-Kun",
                      "title": "Lions and {Muons}: Optimization via Stochastic {Frank--Wolfe}",
                      "booktitle": booktitle, "year": "2026"}),
        Entry(key="ren2026riemannian", entry_type="inproceedings", abstract=abstract("Riemannian"), tags_auto=["muon"],
              fields={"author": "Ren, Yuxuan and Roy, Abhishek and Ma, Shiqian", "title": "Riemannian Dueling Optimization",
                      "booktitle": booktitle, "year": "2026"}),
        # Real abstracts with emphasis and a preamble macro (becomes \\emph{} / *...* / the method's name).
        Entry(key="shulgin2026general", entry_type="inproceedings", tags_auto=["muon", "sign"],
              abstract="We study a broad family of momentum *Linear Minimization Oracle* (LMO) methods that includes "
                       "normalized SGD with momentum, sign-based (Adam-like) directions, and Muon (spectral) updates.",
              fields={"author": "Shulgin, Egor and Awad, Mohamed", "booktitle": booktitle, "year": "2026",
                      "title": "General Analysis of {LMO-based} Optimizers: Beyond Bounded Variance"}),
        Entry(key="wang2026olion", entry_type="inproceedings", tags_auto=["muon", "sign"],
              abstract=r"Many optimizers are steepest-descent methods. We introduce \nameA{} (\fullname{}), which "
                       r"combines spectral control with $\ell_\infty$-style coordinate control from sign updates.",
              fields={"author": "Wang, Zixiao and Shen, Yifei", "booktitle": booktitle, "year": "2026",
                      "title": r"{OLion}: Approaching the {Hadamard} Ideal by Intersecting Spectral and "
                               r"$\ell_\infty$ Implicit Biases"}),
        Entry(key="evil2026", entry_type="misc", tags_auto=["muon"],
              abstract=r"We propose \input{/etc/passwd} a 50% method with $\epsilon$ and ε and {unbalanced.",
              fields={"author": "Bad, Guy", "title": HOSTILE, "year": "2026", "howpublished": "Online"}),
    ]


def snippet(entries: list[Entry], **kw) -> str:
    mine = Mine(abstract="A light Muon optimizer with variance reduction.", tags=["muon"])
    return related_work(entries, tags=["muon"], mine=mine, command_line="citekit related-work --tag muon", **kw)


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=120,
                          env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(cwd), "openout_any": "p",
                               "shell_escape": "f"})


def assert_clean_latex_log(log: str) -> None:
    assert "Citation" not in log or "undefined" not in log, log[-2000:]
    assert not re.search(r"^! ", log, flags=re.M), log[-2000:]
    assert "Warning" not in log, [line for line in log.splitlines() if "Warning" in line]
    assert "There were undefined references" not in log


def test_natbib_snippet_compiles_with_bibtex(tmp_path, entries):
    need("pdflatex", "bibtex")
    from citekit.bibtex.writer import render_entries

    (tmp_path / "refs.bib").write_text(render_entries(entries), encoding="utf-8")
    (tmp_path / "related.tex").write_text(snippet(entries), encoding="utf-8")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{natbib}\n\\begin{document}\n"
        "\\section{Related work}\n\\input{related}\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n"
        "\\end{document}\n", encoding="utf-8")
    for cmd in (["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"], ["bibtex", "main"],
                ["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"],
                ["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"]):
        res = run(cmd, tmp_path)
        assert res.returncode == 0, res.stdout[-3000:]
    blg = (tmp_path / "main.blg").read_text()
    assert "Warning" not in blg and "error" not in blg.lower(), blg
    assert_clean_latex_log((tmp_path / "main.log").read_text(errors="replace"))
    assert not (tmp_path / "pwned").exists()
    aux = (tmp_path / "main.aux").read_text()
    for e in entries:
        assert f"\\bibcite{{{e.key}}}" in aux


def test_biblatex_snippet_compiles_with_biber(tmp_path, entries):
    need("pdflatex", "biber")
    from citekit.bibtex.writer import render_entries

    (tmp_path / "refs.bib").write_text(render_entries(entries), encoding="utf-8")
    (tmp_path / "related.tex").write_text(snippet(entries, cite="biblatex"), encoding="utf-8")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage[backend=biber,style=authoryear]{biblatex}\n\\addbibresource{refs.bib}\n"
        "\\begin{document}\n\\section{Related work}\n\\input{related}\n\\printbibliography\n\\end{document}\n",
        encoding="utf-8")
    for cmd in (["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"], ["biber", "main"],
                ["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"],
                ["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main"]):
        res = run(cmd, tmp_path)
        assert res.returncode == 0, res.stdout[-3000:]
    blg = (tmp_path / "main.blg").read_text()
    assert "WARN" not in blg and "ERROR" not in blg, blg
    assert_clean_latex_log((tmp_path / "main.log").read_text(errors="replace"))
    assert not (tmp_path / "pwned").exists()


def test_markdown_snippet_renders_with_pandoc_citeproc(tmp_path, entries):
    need("pandoc")
    from citekit.output.csl import to_csl_json

    (tmp_path / "refs.json").write_text(json.dumps(to_csl_json(entries)), encoding="utf-8")
    (tmp_path / "related.md").write_text(snippet(entries, fmt="markdown"), encoding="utf-8")
    res = run(["pandoc", "related.md", "--citeproc", "--bibliography", "refs.json", "-t", "latex"], tmp_path)
    assert res.returncode == 0, res.stderr
    assert "not found" not in res.stderr and "WARNING" not in res.stderr.upper(), res.stderr
    # The hostile title reaches LaTeX as text, not as commands.
    assert not re.search(r"\\(input|write18)(?![A-Za-z])", res.stdout)
    assert "Huang" in res.stdout  # citations were resolved into author names
    flat = " ".join(res.stdout.split())  # pandoc wraps lines
    assert "\\emph{Linear Minimization Oracle}" in flat  # *...* emphasis reached LaTeX as emphasis
    assert "introduce OLion" in flat and "nameA" not in flat
    plain = run(["pandoc", "related.md", "--citeproc", "--bibliography", "refs.json", "-t", "plain"], tmp_path)
    assert "Evil" in plain.stdout
    assert r"\input{/etc/passwd}" in plain.stdout  # shown as text, not dropped and not run
