"""``citekit export``, ``check`` and ``makefile`` through the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import bibtexparser
import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library
from citekit.core.model import Entry, Ids

BOOK = "Forty-third International Conference on Machine Learning"


def make_entry(key: str, title: str, author: str, tags: list[str], **extra: str) -> Entry:
    entry_type = extra.pop("entry_type", "inproceedings")
    fields = {"author": author, "title": title, "year": "2026", **extra}
    if entry_type == "inproceedings" and "booktitle" not in fields and "crossref" not in fields:
        fields["booktitle"] = BOOK
    return Entry(key=key, entry_type=entry_type, fields=fields, tags_auto=tags, status="notes-only")


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A project with a small library on disk, written by the real store."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "citekit.yaml").write_text("paths:\n  refs: refs\n", encoding="utf-8")
    lib = Library.load(root / "refs")
    lib.add(make_entry("schaipp2026stepsize", "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
                       "Schaipp, Fabian and Gower, Robert and Taylor, Adrien", ["step-size", "theory"]))
    lib.add(make_entry("huang2026limuon", "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
                       "Huang, Feihu and Luo, Yuning and Chen, Songcan", ["muon"]))
    lib.add(make_entry("qu2026muon", "Can {Muon} Fine-tune {Adam}-Pretrained Models?",
                       "Qu, Xingyu and Huang, Peigeng and Horváth, Samuel", ["muon", "fine-tuning"]))
    survivor = make_entry("wang2026compute", "Compute When Worth It: Risk Control for Reasoning on a Compute Budget",
                          "Wang, Xi and Nalisnick, Eric", ["reasoning"])
    survivor.aliases = ["wang2026worth"]
    lib.add(survivor)
    preprint = make_entry("alimisis2025warmup", "Why Do We Need Warm-up? A Theoretical Perspective",
                          "Alimisis, Foivos and Islamov, Rustem and Lucchi, Aurelien", ["warmup"],
                          entry_type="misc", eprint="2510.03164", archiveprefix="arXiv")
    preprint.ids = Ids(arxiv="2510.03164")
    preprint.versions = [{"source": "openreview", "id": "AbCdEf123", "title": preprint.title, "venue": "ICML",
                          "year": 2026, "stage": "accepted"}]
    lib.add(preprint)
    lib.add(make_entry("icml2026", BOOK, "", [], entry_type="proceedings", booktitle=BOOK))
    lib.add(make_entry("sfyraki2026lions", "Lions and {Muons}: Optimization via Stochastic {Frank--Wolfe}",
                       "Sfyraki, Maria-Eleni and Wang, Jun-Kun", ["muon"], crossref="icml2026"))
    lib.save()
    return root


def run(project: Path, *args: str, cwd: Path | None = None):
    runner = CliRunner()
    old = Path.cwd()
    os.chdir(cwd or project)
    try:
        return runner.invoke(main, ["-C", str(project), *args], catch_exceptions=False)
    finally:
        os.chdir(old)


def bib_keys(text: str) -> list[str]:
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    return [e.key for e in library.entries]


def write_aux(path: Path, *keys: str) -> Path:
    path.write_text("\\relax\n" + "".join(f"\\citation{{{k}}}\n" for k in keys) + "\\bibdata{refs}\n")
    return path


# --- export ---------------------------------------------------------------


def test_whole_library_to_stdout(project: Path) -> None:
    result = run(project, "export")
    assert result.exit_code == 0, result.output
    keys = bib_keys(result.stdout)
    assert sorted(keys) == sorted(Library.load(project / "refs").entries)
    assert keys.index("icml2026") > keys.index("sfyraki2026lions")  # crossref parent after its child


def test_aux_exports_only_cited_entries_with_old_key_and_crossref_parent(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "huang2026limuon", "wang2026worth", "sfyraki2026lions")
    out = tmp_path / "refs.bib"
    result = run(project, "export", "--aux", str(aux), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert bib_keys(out.read_text()) == ["huang2026limuon", "sfyraki2026lions", "wang2026worth", "icml2026"]
    parsed = bibtexparser.parse_string(out.read_text())
    assert "Risk Control" in parsed.entries_dict["wang2026worth"].fields_dict["title"].value
    assert "main.aux" in out.read_text().splitlines()[0]


def test_tex_export_follows_input(project: Path, tmp_path: Path) -> None:
    (tmp_path / "sec").mkdir()
    (tmp_path / "main.tex").write_text("\\citet{qu2026muon} % \\cite{huang2026limuon}\n\\input{sec/rw}\n")
    (tmp_path / "sec" / "rw.tex").write_text("\\parencite[p.~2]{schaipp2026stepsize}\n")
    result = run(project, "export", "--tex", str(tmp_path / "main.tex"))
    assert result.exit_code == 0, result.output
    assert bib_keys(result.stdout) == ["qu2026muon", "schaipp2026stepsize"]


def test_missing_key_fails_with_suggestion_and_writes_nothing(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "schaip2026stepsize", "qu2026muon")
    out = tmp_path / "refs.bib"
    result = run(project, "export", "--aux", str(aux), "-o", str(out))
    assert result.exit_code == 1
    assert "missing key 'schaip2026stepsize'" in result.stderr
    assert "did you mean schaipp2026stepsize — Step-Size Stability in Stochastic" in result.stderr
    assert not out.exists()


def test_allow_missing_warns_and_exports_the_rest(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "schaip2026stepsize", "qu2026muon")
    result = run(project, "export", "--aux", str(aux), "--allow-missing")
    assert result.exit_code == 0
    assert "warning: " in result.stderr and "missing key 'schaip2026stepsize'" in result.stderr
    assert bib_keys(result.stdout) == ["qu2026muon"]


def test_output_file_is_left_untouched_when_unchanged(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "qu2026muon")
    out = tmp_path / "refs.bib"
    assert run(project, "export", "--aux", str(aux), "-o", str(out)).exit_code == 0
    os.utime(out, ns=(1_000_000_000, 1_000_000_000))
    again = run(project, "export", "--aux", str(aux), "-o", str(out))
    assert "(unchanged)" in again.stderr
    assert out.stat().st_mtime_ns == 1_000_000_000
    write_aux(aux, "qu2026muon", "huang2026limuon")
    run(project, "export", "--aux", str(aux), "-o", str(out))
    assert out.stat().st_mtime_ns != 1_000_000_000
    assert sorted(bib_keys(out.read_text())) == ["huang2026limuon", "qu2026muon"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".refs.bib")] == []  # no temp files left


def test_biblatex_export_keeps_old_key_in_ids(project: Path, tmp_path: Path) -> None:
    aux = tmp_path / "main.aux"
    aux.write_text("\\abx@aux@cite{0}{wang2026worth}\n\\abx@aux@cite{0}{qu2026muon}\n")
    result = run(project, "export", "--format", "biblatex", "--aux", str(aux))
    assert result.exit_code == 0, result.output
    parsed = bibtexparser.parse_string(result.stdout)
    assert [e.key for e in parsed.entries] == ["qu2026muon", "wang2026compute"]
    assert parsed.entries_dict["wang2026compute"].fields_dict["ids"].value == "wang2026worth"
    assert "date" in parsed.entries_dict["qu2026muon"].fields_dict


def test_csl_json_export(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "sfyraki2026lions", "wang2026worth")
    result = run(project, "export", "--format", "csl-json", "--aux", str(aux))
    assert result.exit_code == 0, result.output
    items = {item["id"]: item for item in json.loads(result.stdout)}
    assert set(items) == {"sfyraki2026lions", "wang2026worth"}  # uncited crossref parent folded in
    assert items["sfyraki2026lions"]["container-title"] == BOOK
    assert items["wang2026worth"]["title"].startswith("Compute When Worth It")


def test_tag_filtering(project: Path, tmp_path: Path) -> None:
    result = run(project, "export", "--tag", "muon")
    assert sorted(bib_keys(result.stdout)) == ["huang2026limuon", "icml2026", "qu2026muon", "sfyraki2026lions"]
    both = run(project, "export", "--tag", "muon", "--tag", "fine-tuning")
    assert bib_keys(both.stdout) == ["qu2026muon"]
    either = run(project, "export", "--tag", "reasoning", "--tag", "fine-tuning", "--any")
    assert bib_keys(either.stdout) == ["qu2026muon", "wang2026compute"]
    aux = write_aux(tmp_path / "main.aux", "qu2026muon", "schaipp2026stepsize", "wang2026worth")
    cited = run(project, "export", "--aux", str(aux), "--tag", "muon")
    assert bib_keys(cited.stdout) == ["qu2026muon"]


def test_ascii_output(project: Path) -> None:
    result = run(project, "export", "--ascii", "--tag", "fine-tuning")
    assert result.exit_code == 0
    assert "Horváth" not in result.stdout and "Horv" in result.stdout
    assert run(project, "export", "--ascii", "--format", "csl-json").exit_code == 2


def test_aux_and_tex_together_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    aux = write_aux(tmp_path / "main.aux", "qu2026muon")
    tex = tmp_path / "main.tex"
    tex.write_text("\\cite{qu2026muon}")
    result = run(project, "export", "--aux", str(aux), "--tex", str(tex))
    assert result.exit_code == 2
    assert "--aux or --tex" in result.stderr


def test_export_named_keys_in_every_format(project: Path, tmp_path: Path) -> None:
    """``export KEY...``: only those entries (an old key finds its entry, a crossref parent comes along)."""
    result = run(project, "export", "qu2026muon", "wang2026worth", "sfyraki2026lions")
    assert result.exit_code == 0, result.output
    assert bib_keys(result.stdout) == ["qu2026muon", "sfyraki2026lions", "wang2026worth", "icml2026"]
    assert "asked for by key" in result.stdout.splitlines()[0]
    biblatex = run(project, "export", "wang2026worth", "-f", "biblatex")
    parsed = bibtexparser.parse_string(biblatex.stdout)
    assert [e.key for e in parsed.entries] == ["wang2026compute"]
    assert parsed.entries_dict["wang2026compute"].fields_dict["ids"].value == "wang2026worth"
    csl = run(project, "export", "huang2026limuon", "-f", "csl-json")
    assert [item["id"] for item in json.loads(csl.stdout)] == ["huang2026limuon"]
    out = tmp_path / "two.bib"
    written = run(project, "export", "huang2026limuon", "qu2026muon", "-o", str(out), "--json")
    assert written.exit_code == 0 and json.loads(written.stdout)["entries"] == 2
    assert sorted(bib_keys(out.read_text())) == ["huang2026limuon", "qu2026muon"]
    assert sorted(bib_keys(run(project, "export", "huang2026limuon", "qu2026muon", "--tag", "fine-tuning").stdout)) \
        == ["qu2026muon"]


def test_export_of_an_unknown_key_fails_and_suggests(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.bib"
    result = run(project, "export", "schaip2026stepsize", "qu2026muon", "-o", str(out))
    assert result.exit_code == 1 and not out.exists()
    assert "missing key 'schaip2026stepsize'" in result.stderr and "did you mean schaipp2026stepsize" in result.stderr
    allowed = run(project, "export", "schaip2026stepsize", "qu2026muon", "--allow-missing")
    assert allowed.exit_code == 0 and bib_keys(allowed.stdout) == ["qu2026muon"]
    aux = write_aux(tmp_path / "main.aux", "qu2026muon")
    assert run(project, "export", "qu2026muon", "--aux", str(aux)).exit_code == 2


# --- check ----------------------------------------------------------------


PAPER = r"""\documentclass{article}
\begin{document}
\citet{huang2026limuon} and \citep{wang2026worth}; warm-up \citep{alimisis2025warmup}.
\citep{schaip2026stepsize}
\end{document}
"""


def test_check_reports_and_fails_on_undefined(project: Path, tmp_path: Path) -> None:
    tex = tmp_path / "main.tex"
    tex.write_text(PAPER)
    result = run(project, "check", str(tex))
    assert result.exit_code == 1
    out = result.stdout
    assert "undefined citations (1):" in out and "did you mean schaipp2026stepsize" in out
    assert "'wang2026worth' is an old key of 'wang2026compute'" in out
    assert "'alimisis2025warmup' cites the arXiv version" in out and "ICML 2026" in out
    assert "unused entries: skipped" in out


def test_check_json_strict_and_bib(project: Path, tmp_path: Path) -> None:
    tex = tmp_path / "main.tex"
    tex.write_text(PAPER.replace("\\citep{schaip2026stepsize}", ""))
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{huang2026limuon, title={LiMuon}}\n@misc{leftover2020, title={Old}}\n")
    result = run(project, "check", str(tex), "--bib", str(bib), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["undefined"] == []
    assert data["unused"] == ["leftover2020"]
    assert sorted(data["missing_from_bib"]) == ["alimisis2025warmup", "wang2026worth"]
    assert run(project, "check", str(tex), "--bib", str(bib), "--strict").exit_code == 1


def test_check_reads_aux_too(project: Path, tmp_path: Path) -> None:
    tex = tmp_path / "main.tex"
    tex.write_text("\\cite{qu2026muon}")
    aux = write_aux(tmp_path / "main.aux", "qu2026muon", "from_a_macro2026")
    result = run(project, "check", str(tex), "--aux", str(aux))
    assert result.exit_code == 1
    assert "missing key 'from_a_macro2026'" in result.stdout


# --- makefile -------------------------------------------------------------


def test_makefile_points_at_the_project_from_the_paper_folder(project: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper"
    paper.mkdir()
    result = run(project, "makefile", "--tag", "muon", "--tag", "theory", cwd=paper)
    assert result.exit_code == 0
    text = result.stdout
    assert "CITEKIT_PROJECT ?= ../project\n" in text
    assert "CITEKIT_LIBRARY ?= $(CITEKIT_PROJECT)/refs/library.bib $(CITEKIT_PROJECT)/refs/library.yaml" in text
    assert "RELATED_TAGS ?= muon theory\n" in text
    assert "$(PAPER_BIB): $(PAPER).aux $(CITEKIT_LIBRARY)\n\t$(CITEKIT) $(CITEKIT_FLAGS) export --aux" in text
    assert "\ncheck-refs:" in text and "\nrelated-work.tex:" in text
    recipes = [line for line in text.splitlines() if "$(CITEKIT) $(CITEKIT_FLAGS)" in line]
    assert len(recipes) == 4 and all(line.startswith("\t") for line in recipes)  # make needs tabs


def test_export_follows_the_librarys_remembered_ascii_choice(project: Path, tmp_path: Path) -> None:
    lib = Library.load(project / "refs")
    lib.add(make_entry("horvath2026", "Schrödinger Bridges", "Horváth, Samuel", ["bridges"]))
    lib.ascii = True  # what `citekit sync --ascii` remembers
    lib.save()
    out = tmp_path / "refs.bib"
    assert run(project, "export", "--tag", "bridges", "-o", str(out)).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "ö" not in text and "Horv" in text and text.isascii()
    assert run(project, "export", "--utf8", "--tag", "bridges", "-o", str(out)).exit_code == 0
    assert "Schrödinger" in out.read_text(encoding="utf-8")
    csl = run(project, "export", "--tag", "bridges", "-f", "csl-json")
    assert csl.exit_code == 0 and "Schrödinger" in csl.output  # CSL JSON is always UTF-8


def test_a_paper_citing_nothing_yet_gets_an_empty_export_so_make_works(tmp_path):
    """A fresh paper's first LaTeX run writes an .aux with no \\citation: refs.bib must still
    appear (exit 0), or the paper's Makefile stops before the first PDF."""
    from click.testing import CliRunner

    from citekit.cli import main

    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "n.md").write_text("- **Adam: A Method for Stochastic Optimization** — Diederik P. Kingma, Jimmy Ba\n",
                                          encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["-C", str(root), "sync", "--offline"]).exit_code == 0
    aux = tmp_path / "main.aux"
    aux.write_text("\\relax\n\\bibstyle{plainnat}\n\\bibdata{refs}\n", encoding="utf-8")
    out = tmp_path / "refs.bib"
    result = runner.invoke(main, ["-C", str(root), "export", "--aux", str(aux), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and "@" not in out.read_text(encoding="utf-8").replace("@comment", "")
    assert "cites nothing yet" in result.output
    # a typo'd tag is still a finding that writes nothing
    other = tmp_path / "other.bib"
    result = runner.invoke(main, ["-C", str(root), "export", "--tag", "typo", "-o", str(other)])
    assert result.exit_code == 1 and not other.exists()
