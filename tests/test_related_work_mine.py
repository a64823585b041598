"""``--mine`` takes the user's paper as it is: its .tex, its .md, a library key, stdin, or the YAML form."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citekit.api.related import own_paper, related_work
from citekit.cli import main
from citekit.library.store import Library
from citekit.output.mine_input import mine_from_markdown, mine_from_tex, mine_from_text
from citekit.output.related_work import RelatedWorkError
from tests.helpers_cli import synced_project

PAPER_TEX = r"""\documentclass{article}
\usepackage{amsmath} % the abstract environment below is what is read
\title{Variance-Reduced {Muon} for Large Models}
\author{Ann Author \thanks{Equal contribution.}}
\begin{document}
\maketitle
\begin{abstract}
We propose \emph{VR-Muon}, a variance-reduced variant of Muon with an $O(\epsilon^{-3})$ rate
% a comment the reader never sees
and light memory~\cite{huang2026light}.
\end{abstract}
\section{Introduction}
Optimizers matter.
\end{document}
"""

PAPER_TEX_NO_ABSTRACT = r"""\documentclass{article}
\title{Step Sizes, Again}
\author{Ann Author}
\begin{document}
\maketitle
Step sizes decide whether stochastic optimization is stable; we give a rule for \textbf{choosing} them.

\section{Introduction}
Not this.
\end{document}
"""


def invoke(project: Path, *args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["-C", str(project), "related-work", *args], input=stdin)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return synced_project(tmp_path)


# --- each input kind, read -----------------------------------------------------------------

def test_tex_abstract_environment_is_read_as_text() -> None:
    mine = mine_from_tex(PAPER_TEX, "main.tex")
    assert mine.title == "Variance-Reduced Muon for Large Models"
    assert mine.abstract.startswith("We propose VR-Muon, a variance-reduced variant of Muon")
    assert "\\" not in mine.abstract and "comment" not in mine.abstract and "huang2026light" not in mine.abstract
    assert "Optimizers matter" not in mine.abstract


def test_tex_without_abstract_takes_the_text_before_the_first_section() -> None:
    mine = mine_from_tex(PAPER_TEX_NO_ABSTRACT, "main.tex")
    assert mine.abstract == ("Step sizes decide whether stochastic optimization is stable; we give a rule for "
                             "choosing them.")
    assert "Ann Author" not in mine.abstract and "Not this" not in mine.abstract
    with pytest.raises(RelatedWorkError, match="no abstract environment.*expected a .tex or .md file"):
        mine_from_tex("\\documentclass{article}\\begin{document}\\section{Intro} x\\end{document}", "empty.tex")


def test_markdown_abstract_section_front_matter_and_first_paragraphs() -> None:
    section = mine_from_markdown("# Fast Muon\n\nIntro line.\n\n## Abstract\n\nWe make *Muon* fast.\n\n"
                                 "## Method\n\nNot this.\n")
    assert (section.title, section.abstract) == ("Fast Muon", "We make Muon fast.")
    front = mine_from_markdown("---\ntitle: Fast Muon\nabstract: We make Muon fast.\ntags: [muon, theory]\n---\n"
                               "# Heading\n\nBody.\n")
    assert (front.title, front.abstract, front.tags) == ("Fast Muon", "We make Muon fast.", ["muon", "theory"])
    plain = mine_from_markdown("# Fast Muon\n\nWe make [Muon](https://x.org) fast.\n\nIt scales.\n\n## Method\n\nNo.\n")
    assert plain.abstract == "We make Muon fast. It scales."
    with pytest.raises(RelatedWorkError, match="no abstract.*'## Abstract'"):
        mine_from_markdown("# Only a title\n")


def test_stdin_text_is_read_by_what_it_is() -> None:
    assert mine_from_text("We make Muon fast.\n").abstract == "We make Muon fast."
    assert mine_from_text(PAPER_TEX).title == "Variance-Reduced Muon for Large Models"
    assert mine_from_text("title: Fast Muon\ntags: [muon]\n").tags == ["muon"]
    with pytest.raises(RelatedWorkError, match="nothing was given"):
        mine_from_text("  \n")


def test_library_keys_with_and_without_prefix(project: Path) -> None:
    lib = Library.load(project / "refs")
    mine, key = own_paper("key:huang2026light", lib)
    assert key == "huang2026light" and mine.title == "Light and Fast Muon Optimizer for Large Models"
    assert mine.tags == ["muon"]
    assert own_paper("huang2026light", lib)[1] == "huang2026light"
    with pytest.raises(RelatedWorkError, match="no entry of the library has the key 'nope2026'.*citekit list"):
        own_paper("key:nope2026", lib)
    with pytest.raises(RelatedWorkError, match="no such file, and no entry.*key:KEY.*- to read"):
        own_paper("nope2026", lib)


# --- each input kind, through the command line ----------------------------------------------

def test_cli_mine_tex(project: Path, tmp_path: Path) -> None:
    paper = tmp_path / "main.tex"
    paper.write_text(PAPER_TEX)
    res = invoke(project, "--tag", "muon", "--mine", str(paper))
    assert res.exit_code == 0, res.output
    assert "(closest to main.tex" in res.output and "--mine" in res.output.splitlines()[0]


def test_cli_mine_markdown_uses_its_tags_when_no_tag_is_given(project: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.md"
    paper.write_text("---\ntags: [theory]\n---\n# Stable steps\n\n## Abstract\n\nWe study step-size stability.\n")
    res = invoke(project, "--mine", str(paper), "--format", "markdown")
    assert res.exit_code == 0, res.output
    assert "@schaipp2026stepsize" in res.output and "@huang2026light" not in res.output
    assert "closest to paper.md" in res.output


def test_cli_mine_key_leaves_the_paper_out_of_its_own_related_work(project: Path) -> None:
    for spec in ("key:wang2026compute", "wang2026compute"):
        res = invoke(project, "--mine", spec)  # no --tag: the entry's own tags (muon, theory), any of them
        assert res.exit_code == 0, res.output
        assert "wang2026compute}" not in res.output and "\\citet{huang2026light}" in res.output
        assert "closest to wang2026compute" in res.output
    res = invoke(project, "--tag", "muon", "--mine", "key:nope2026")
    assert res.exit_code == 2 and "citekit list" in res.output


def test_cli_mine_stdin(project: Path) -> None:
    res = invoke(project, "--tag", "muon", "--mine", "-", stdin="We make the Muon optimizer light and fast.\n")
    assert res.exit_code == 0, res.output
    # the abstract read from stdin places the paper, or its TODO names stdin as the user's paper
    assert "we make the Muon optimizer light and fast" in res.output or "closest to stdin" in res.output, res.output
    res = invoke(project, "--tag", "muon", "--mine", "-", stdin="")
    assert res.exit_code == 2 and "nothing was given" in res.output


def test_cli_mine_yaml_keeps_working_and_errors_say_what_is_expected(project: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.yaml"
    paper.write_text(yaml.safe_dump({"title": "Light Muon", "abstract": "Muon, light and fast.", "tags": ["muon"]}))
    res = invoke(project, "--mine", str(paper))
    assert res.exit_code == 0 and "closest to paper.yaml" in res.output, res.output
    res = invoke(project, "--tag", "muon", "--mine", str(tmp_path / "missing.tex"))
    assert res.exit_code == 2
    assert "no such file, and no entry of the library has that key" in res.output
    assert "a .tex or .md file of your paper" in res.output
    res = invoke(project, "--tag", "muon", "--mine", str(tmp_path))
    assert res.exit_code == 2 and "that is a folder" in res.output


def test_api_reads_stdin_given_to_it(project: Path) -> None:
    import io

    snippet = related_work(project, tags=("muon",), mine="-", stdin=io.StringIO("Muon, light and fast."))
    assert "closest to stdin" in snippet.text


def test_cli_mine_tex_follows_input_of_the_abstract(project: Path, tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "sections" / "abstract.tex").write_text("We make the \\textbf{Muon} optimizer light and fast.\n")
    paper = tmp_path / "main.tex"
    paper.write_text("\\documentclass{article}\\title{Light Muon}\\begin{document}\\maketitle\n"
                     "\\begin{abstract}\\input{sections/abstract}\\end{abstract}\n\\section{Intro}x\\end{document}\n")
    own, key = own_paper(str(paper), Library.load(project / "refs"))
    assert key is None and own.abstract == "We make the Muon optimizer light and fast."
