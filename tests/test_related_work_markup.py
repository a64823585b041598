"""No markup leaks into related-work prose: names set in math, real math, formulas, and non-papers."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.api.related import related_work
from citekit.cli import main
from citekit.core.model import Entry
from citekit.library.store import Library

AUTHORS = "Doe, Jane and Roe, Rick"


def paper(key: str, title: str, abstract: str | None = None, *, entry_type: str = "inproceedings",
          **fields: str) -> Entry:
    return Entry(key=key, entry_type=entry_type, abstract=abstract, tags_auto=["markup"],
                 fields={"title": title, "author": AUTHORS, "year": "2026", **fields})


ENTRIES = [
    paper("jovanovic2026lordo", "{LoRDO}: Distributed Low-Rank Optimization with Infrequent Communication",
          "Communication is the bottleneck of distributed training. We present $LoRDO$, a distributed low-rank "
          "optimizer that synchronizes infrequently."),
    paper("lee2026scent", "{SCENT}: Robust Training with Scaled Entropy",
          "Noisy labels hurt. We introduce $\\emph{SCENT}$, a scaled entropy objective for robust training."),
    paper("wang2026olion", "{OLion}: Approaching the Hadamard Ideal",
          "We propose OLion, which intersects spectral and $\\ell_\\infty$ implicit biases of sign descent."),
    paper("kim2026sps", "Safe Stochastic Polyak Steps",
          "We propose $SPS_{safe}$, a Polyak step size that stays bounded under noise."),
    paper("ng2026formula", "Adaptive Steps from Curvature",
          "We propose the rule $\\eta_t = \\curv{g_t} / \\hess{x_t}$ for adaptive steps. "
          "We show that curvature-aware steps converge on smooth nonconvex objectives."),
    paper("xu2026titleonly", "Stable Steps under $\\weird{L}$-Smoothness"),
    paper("bernstein2026deriving", "Deriving {Muon}", "We derive Muon from first principles.",
          entry_type="misc", howpublished="Blog post"),
    paper("muon2026code", "Muon: reference implementation", "We present a fast Muon implementation.",
          entry_type="software"),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("markup")
    (root / "citekit.yaml").write_text("# markup test project\n")
    lib = Library.load(root / "refs")
    for e in ENTRIES:
        lib.add(e)
    lib.save()
    return root


@pytest.fixture(scope="module")
def latex(project: Path) -> str:
    return related_work(project, tags=("markup",)).text


@pytest.fixture(scope="module")
def markdown(project: Path) -> str:
    return related_work(project, tags=("markup",), fmt="markdown").text


def sentence(text: str, key: str) -> str:
    """The sentence citing ``key`` (LaTeX \\citet{key} or Markdown @key)."""
    m = re.search(r"(?:\\citet\{" + key + r"\}|@" + key + r")[^\n]*?\.(?=\s|$)", text)
    assert m, f"no sentence about {key} in:\n{text}"
    return m.group(0)


def test_a_name_set_in_math_is_plain_text_in_latex(latex: str) -> None:
    assert "propose LoRDO, a distributed low-rank optimizer" in sentence(latex, "jovanovic2026lordo")
    assert "$LoRDO$" not in latex
    scent = sentence(latex, "lee2026scent")
    assert "introduce SCENT, a scaled entropy objective" in scent and "\\$" not in scent and "\\emph" not in scent


def test_a_name_set_in_math_is_plain_text_in_markdown(markdown: str) -> None:
    assert "propose LoRDO, a distributed" in sentence(markdown, "jovanovic2026lordo")
    scent = sentence(markdown, "lee2026scent")
    assert "introduce SCENT, a scaled entropy objective" in scent and "\\$" not in scent and "*" not in scent


def test_real_math_stays_math_in_latex_and_reads_as_text_in_markdown(latex: str, markdown: str) -> None:
    assert "spectral and $\\ell_\\infty$ implicit biases" in sentence(latex, "wang2026olion")
    olion = sentence(markdown, "wang2026olion")
    assert "spectral and ℓ∞ implicit biases" in olion and "\\_" not in olion
    assert "$SPS_{safe}$, a Polyak step size" in sentence(latex, "kim2026sps")
    sps = sentence(markdown, "kim2026sps")
    assert "SPS\\_safe, a Polyak step size" in sps  # renders as SPS_safe
    assert "{" not in sps and "<sub>" not in sps


def test_a_formula_with_unknown_commands_reaches_neither_format(latex: str, markdown: str) -> None:
    for text in (latex, markdown):
        formula = sentence(text, "ng2026formula")
        assert "curvature-aware steps converge on smooth nonconvex objectives" in formula  # the next best sentence
        assert "curv" not in formula.replace("curvature", "") and "textbackslash" not in formula
    title_only = sentence(markdown, "xu2026titleonly")  # no abstract: the title's formula, as text
    assert "\\weird" not in title_only and "\\\\" not in title_only and "weird" in title_only


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_records_that_are_not_papers_are_not_cited_as_papers(project: Path, fmt: str) -> None:
    text = related_work(project, tags=("markup",), fmt=fmt).text
    for key in ("bernstein2026deriving", "muon2026code"):
        assert not re.search(r"(\\citet\{|\\citep\{|@)" + key, text), key
    comment = next(line for line in text.splitlines() if "not papers" in line)
    assert "bernstein2026deriving (blog post)" in comment and "muon2026code (software)" in comment
    assert comment.startswith("% " if fmt == "latex" else "<!-- ")


def test_through_the_command_line_both_formats(project: Path) -> None:
    for fmt in ("latex", "markdown"):
        res = CliRunner().invoke(main, ["-C", str(project), "related-work", "--tag", "markup", "--format", fmt])
        assert res.exit_code == 0, res.output
        assert "$LoRDO$" not in res.output and "derive Muon" not in res.output


def test_pandoc_shows_the_markdown_as_plain_prose(markdown: str, tmp_path: Path) -> None:
    if shutil.which("pandoc") is None:
        pytest.skip("needs pandoc on PATH")
    source = tmp_path / "rw.md"
    source.write_text(re.sub(r"@(\w+)", r"Ref \1", markdown), encoding="utf-8")  # citations as words
    plain = subprocess.run(["pandoc", str(source), "-t", "plain", "--wrap=none"], capture_output=True, text=True,
                           check=True, timeout=60).stdout
    assert "ℓ∞ implicit biases" in plain and "SPS_safe, a Polyak" in plain and "LoRDO, a distributed" in plain
    assert "\\" not in plain and "$" not in plain


def test_a_selection_of_only_non_papers_is_a_finding(project: Path) -> None:
    lib = Library.load(project / "refs")
    blog = lib.get("bernstein2026deriving")
    assert blog is not None
    res = CliRunner().invoke(main, ["-C", str(project), "related-work", "--tag", "markup", "--tag", "-markup"])
    assert res.exit_code == 1  # nothing selected at all
    only = Entry(key="blog2026only", entry_type="online", tags_auto=["blogonly"],
                 fields={"title": "A Post", "author": AUTHORS, "year": "2026"})
    lib.add(only)
    lib.save()
    res = CliRunner().invoke(main, ["-C", str(project), "related-work", "--tag", "blogonly"])
    assert res.exit_code == 1 and "are not papers" in res.output and "blog2026only: online" in res.output
