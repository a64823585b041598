"""A related-work draft the author edited is never overwritten: by ``related-work -o`` or by ``make``."""

from __future__ import annotations

import re

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.api.related import DraftEdited, related_work, write_snippet
from citekit.cli import main
from citekit.core.model import Entry
from citekit.library.store import Library
from citekit.output.drafts import DraftState, draft_state
from tests.helpers_cli import synced_project

CITEKIT_BIN = Path(sys.executable).parent / "citekit"


def invoke(project: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(project), *args])


def change_library(project: Path, word: str) -> None:
    """A library change the draft should follow: one more muon paper."""
    lib = Library.load(project / "refs")
    lib.add(Entry(key=f"doe2026{word}", entry_type="misc", tags_auto=["muon"],
                  fields={"title": f"{word.title()} Steps for Muon", "author": "Doe, Jane and Roe, Rick",
                          "year": "2026"}))
    lib.save()
    later = time.time() + 5  # newer than the draft, whatever the file system's timestamp resolution
    for name in ("library.bib", "library.yaml"):
        os.utime(project / "refs" / name, (later, later))


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return synced_project(tmp_path)


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_a_generated_draft_carries_a_marker_that_matches_its_text(project: Path, fmt: str) -> None:
    text = related_work(project, tags=("muon",), fmt=fmt).text
    first = text.splitlines()[0]
    assert first.startswith("% " if fmt == "latex" else "<!-- ") and "citekit-draft:sha256=" in first
    assert draft_state(text) is DraftState.GENERATED
    assert draft_state(text.replace("\n", "\r\n") + "\n") is DraftState.GENERATED  # an editor's line ends
    edited = text.replace(" propose", " put forward", 1) if " propose" in text else text + "My own sentence.\n"
    assert draft_state(edited) is DraftState.EDITED
    assert draft_state("\n".join(text.splitlines()[1:])) is DraftState.UNMARKED  # marker line deleted
    assert draft_state("") is DraftState.EMPTY and draft_state(None) is DraftState.MISSING


def test_an_untouched_draft_is_replaced_after_a_library_change(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "related.tex"
    assert invoke(project, "related-work", "--tag", "muon", "-o", str(out)).exit_code == 0
    first = out.read_text()
    change_library(project, "grouped")
    res = invoke(project, "related-work", "--tag", "muon", "--format", "markdown", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert out.read_text() != first and out.read_text().startswith("<!-- ")
    assert not (tmp_path / "related.tex.new").exists()


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_an_edited_draft_survives_related_work_o(project: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / ("related.tex" if fmt == "latex" else "related.md")
    assert invoke(project, "related-work", "--tag", "muon", "--format", fmt, "-o", str(out)).exit_code == 0
    mine = out.read_text() + "Our own closing sentence, written by hand.\n"
    out.write_text(mine)
    for _ in range(2):  # run twice: the second run must not take the first's .new for the draft
        res = invoke(project, "related-work", "--tag", "muon", "--format", fmt, "-o", str(out))
        assert res.exit_code == 1, res.output
        assert out.read_text() == mine
        beside = out.with_name(out.name + ".new")
        assert draft_state(beside.read_text()) is DraftState.GENERATED
        assert "was edited since citekit generated it" in res.output
        assert f"{beside}" in res.output and "--force" in res.output
    res = invoke(project, "related-work", "--tag", "muon", "--format", fmt, "--keep-edited", "-o", str(out))
    assert res.exit_code == 0 and "warning:" in res.output and out.read_text() == mine
    drafted = beside.read_text()
    res = invoke(project, "related-work", "--tag", "muon", "--format", fmt, "--force", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert out.read_text() == drafted  # --force: the new draft, marker and all
    assert not beside.exists()  # the .new it replaces is out of date: gone, not left beside the file


def test_a_new_draft_the_author_edited_stays_when_the_file_is_forced(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "related.tex"
    beside = out.with_name(out.name + ".new")
    beside.write_text("% my own notes on the last draft\n")
    assert invoke(project, "related-work", "--tag", "muon", "--force", "-o", str(out)).exit_code == 0
    assert beside.read_text() == "% my own notes on the last draft\n"


def test_a_file_citekit_did_not_write_is_kept_and_an_empty_one_is_filled(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "related.tex"
    out.write_text("\\section{Related work}\nWritten by hand before citekit.\n")
    res = invoke(project, "related-work", "--tag", "muon", "-o", str(out))
    assert res.exit_code == 1 and "no citekit-draft marker" in res.output
    assert out.read_text() == "\\section{Related work}\nWritten by hand before citekit.\n"
    assert (tmp_path / "related.tex.new").exists()
    empty = tmp_path / "empty.tex"
    empty.write_text("\n")
    assert invoke(project, "related-work", "--tag", "muon", "-o", str(empty)).exit_code == 0
    assert draft_state(empty.read_text()) is DraftState.GENERATED


def test_the_api_raises_a_finding_that_says_what_to_do(tmp_path: Path) -> None:
    out = tmp_path / "r.tex"
    out.write_text("hand-written\n")
    with pytest.raises(DraftEdited) as err:
        write_snippet(out, "% x\nbody\n")
    assert err.value.exit_code == 1 and "r.tex.new" in str(err.value) and "--force" in str(err.value)
    written = write_snippet(out, "% x\nbody\n", keep_edited=True)
    assert written.beside == tmp_path / "r.tex.new" and out.read_text() == "hand-written\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # atomic: no temporaries left


def test_force_and_keep_edited_need_an_output_file(project: Path) -> None:
    res = invoke(project, "related-work", "--tag", "muon", "--force")
    assert res.exit_code == 2 and "-o FILE" in res.output


def _make(paper: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", f"CITEKIT={CITEKIT_BIN}", *args], cwd=paper, capture_output=True, text=True,
                          timeout=120)


def test_an_edited_draft_survives_make_run_twice(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("make") is None:
        pytest.skip("needs make on PATH")
    if not CITEKIT_BIN.exists():
        pytest.skip(f"the citekit command is not installed next to {sys.executable}")
    monkeypatch.chdir(project)  # the Makefile names the library relative to the paper's folder
    res = CliRunner().invoke(main, ["makefile", "--tag", "muon"])
    assert res.exit_code == 0, res.output
    (project / "Makefile").write_text(res.stdout)
    draft = project / "related-work.tex"

    build = _make(project, "related-work.tex")
    assert build.returncode == 0, build.stdout + build.stderr
    assert draft_state(draft.read_text()) is DraftState.GENERATED
    assert "is up to date" in _make(project, "related-work.tex").stdout  # make twice: nothing to do

    change_library(project, "first")  # untouched draft + library change: regenerated
    before = draft.read_text()
    assert _make(project, "related-work.tex").returncode == 0
    assert draft.read_text() != before and draft_state(draft.read_text()) is DraftState.GENERATED

    mine = draft.read_text().replace("\\paragraph{", "\\paragraph{Edited: ", 1)
    draft.write_text(mine)  # a manual edit, then a library change, then make twice
    change_library(project, "second")
    build = _make(project, "related-work.tex")
    assert build.returncode == 0, build.stdout + build.stderr  # the paper still builds from the author's text
    assert draft.read_text() == mine
    assert "related-work.tex.new" in build.stderr
    assert draft_state((project / "related-work.tex.new").read_text()) is DraftState.GENERATED
    # the kept draft was marked up to date: once the library is older than that mark (as it is
    # when no write came after it; change_library dated it ahead), make settles and says so
    settled = draft.stat().st_mtime - 1
    for name in ("library.bib", "library.yaml"):
        os.utime(project / "refs" / name, (settled, settled))
    again = _make(project, "related-work.tex")
    assert again.returncode == 0 and "is up to date" in again.stdout, again.stdout + again.stderr
    assert draft.read_text() == mine and "related-work.tex.new" not in again.stderr


def test_check_still_reads_a_draft_kept_beside_an_edited_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "related.tex"
    out.write_text("My own text.\n")
    res = invoke(project, "related-work", "--tag", "muon", "--check", "-o", str(out))
    # the kept draft is checked: what the reader would flag is listed, nothing copied wrongly
    assert res.exit_code == 1 and "related.tex.new" in res.output
    # (which reader's defect it names depends on the draft's sentences; that it reads the draft is the point)
    assert "check: no defects" in res.output or re.search(r"check: line \d+: (?:pasted-title|no-topic-sentence)",
                                                           res.output)
    assert not re.search(r"check: line \d+: (?:copied-citation|macro|markup|first-person|anaphora|connective)",
                         res.output)
    assert out.read_text() == "My own text.\n"


MINE_YAML = ("title: Cheaper orthogonal steps for large models\n"
             "abstract: We propose a light Muon variant with fewer matrix products and prove its step-size stability.\n"
             "tags: [muon]\n")


def test_a_draft_made_with_mine_is_regenerated_with_it_by_the_build_rule(project: Path, tmp_path: Path) -> None:
    """The rule (`--keep-edited`, no --mine when RELATED_MINE is empty) regenerates a draft the
    way its first line records: not a draft without --mine, written beside it."""
    (project / "mine.yaml").write_text(MINE_YAML, encoding="utf-8")
    out = tmp_path / "related-work.tex"
    made = invoke(project, "related-work", "--tag", "muon", "--mine", str(project / "mine.yaml"), "-o", str(out))
    assert made.exit_code == 0, made.output
    change_library(project, "third")
    rule = invoke(project, "related-work", "--keep-edited", "-o", str(out))
    assert rule.exit_code == 0, rule.output
    first = out.read_text().splitlines()[0]
    assert f"--tag muon --mine {project / 'mine.yaml'}" in first, first
    assert not (tmp_path / "related-work.tex.new").exists()
    assert "regenerated the same way" in rule.stderr


def test_the_makefile_has_a_variable_for_the_users_paper(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    res = CliRunner().invoke(main, ["makefile", "--tag", "muon", "--mine", "mine.yaml"])
    assert res.exit_code == 0, res.output
    assert "RELATED_MINE ?= mine.yaml" in res.stdout
    assert "related-work.tex: $(CITEKIT_LIBRARY) $(wildcard $(RELATED_MINE))" in res.stdout
    assert "$(if $(strip $(RELATED_MINE)),--mine $(strip $(RELATED_MINE)))" in res.stdout
    if shutil.which("make") is None or not CITEKIT_BIN.exists():
        return
    (project / "Makefile").write_text(res.stdout)
    (project / "mine.yaml").write_text(MINE_YAML, encoding="utf-8")
    build = _make(project, "related-work.tex")
    assert build.returncode == 0, build.stdout + build.stderr
    assert "--mine mine.yaml" in (project / "related-work.tex").read_text().splitlines()[0]


FOUR_PAPERS = "# ICML 2026\n\n" + "".join(f"- {t} #flat\n  - Authors: {a}\n" for t, a in (
    ("Flat Minima Found by Noisy Sharpness Steps", "Ada Quill, Ben Rook"),
    ("Sharpness Penalties for Large Language Models", "Cara Voss, Dan Ilves"),
    ("When Flatness Fails: A Study of Sharp Minima", "Eve Marsh, Finn Olde"),
    ("Adaptive Sharpness with Low-Rank Perturbations", "Gil Hart, Hana Stone"),
))


def test_a_draft_loads_no_scikit_learn(tmp_path: Path) -> None:
    """The TF-IDF that groups the papers is computed with numpy: importing scikit-learn (and
    SciPy with it) cost a four-paper draft about 2 s before it wrote a word."""
    import citekit

    project = synced_project(tmp_path, FOUR_PAPERS)
    code = ("import sys; from citekit.cli import main; from click.testing import CliRunner; "
            f"r = CliRunner().invoke(main, ['-C', {str(project)!r}, 'related-work', '--tag', 'flat', '-o', "
            f"{str(tmp_path / 'rw.tex')!r}]); assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(citekit.__file__).parents[1])})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
