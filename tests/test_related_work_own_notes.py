"""The user's own note on a paper is never a related-work sentence.

Made-up records, read through ``citekit.api`` and the CLI: a note the user wrote beside a paper
("Classic; bias correction of moments", "Must read, we reuse its proof") is kept in the library as
the paper's ``summary``, but it says what the user thinks of the paper, not what the paper does.
Pasted into a related-work section it reads as a claim about the cited work, so only the record's
abstract and title say what a paper does, and the note's words name no paragraph either.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from citekit.api.related import related_work
from citekit.cli import main
from citekit.core.model import Entry
from citekit.library.store import Library

#: (key, title, abstract or None, the user's note)
PAPERS = [
    ("heron2019", "Heron: A Method for Noisy Gradient Steps", None, "Classic; bias correction of moments"),
    ("ibis2020", "On the Convergence of Heavy-Ball Steps",
     "We prove that heavy-ball steps converge faster than plain gradient steps on convex problems.",
     "Must read, we reuse its proof"),
    ("stork2021", "Sparse Steps for Large Models",
     "We present Sparsestep, an optimizer that updates only the largest coordinates of each gradient.",
     "Good baseline; cheap. Bias correction of moments again"),
]


def _library(root: Path) -> Path:
    (root / "citekit.yaml").write_text("")
    lib = Library.load(root / "refs")
    for key, title, abstract, note in PAPERS:
        lib.add(Entry(key=key, entry_type="article", abstract=abstract, summary=note, tags_auto=["steps"],
                      fields={"title": title, "author": f"{key.capitalize()}, Ann", "year": key[-4:]}))
    lib.save()
    return root


def test_a_note_on_a_paper_never_becomes_its_sentence(tmp_path: Path) -> None:
    out = related_work(_library(tmp_path), tags=("steps",), fmt="markdown").text
    for _, _, _, note in PAPERS:
        for part in note.replace(".", ";").split(";"):
            assert part.strip().lower() not in out.lower(), out
    assert "moments" not in out.lower() and "baseline" not in out.lower(), out
    # what each paper does, from its abstract, else its title
    assert "@ibis2020 proves that heavy-ball steps converge faster" in out, out
    assert "@stork2021 proposes Sparsestep" in out, out
    assert "@heron2019" in out and "noisy gradient steps" in out, out


def test_the_cli_draft_carries_no_note_either(tmp_path: Path) -> None:
    root = _library(tmp_path)
    res = CliRunner().invoke(main, ["-C", str(root), "related-work", "--tag", "steps", "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert "Classic" not in res.stdout and "Must read" not in res.stdout and "we reuse" not in res.stdout, res.stdout
