"""``citekit search`` finds pending works (not resolved yet) too, marked as pending, and an
``author:`` filter ranks the person's own papers (first author) above co-authored ones."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers_cli import run

NOTES = """# Reading

- Spectral Sphere Optimizer for Transformers https://openreview.net/forum?id=AbCdEfGh12
- Light and Fast Muon Optimizer for Large Models #muon
  - Authors: Feihu Huang, Yuning Luo
"""

BIB = r"""
@inproceedings{aa2024coauthored,
  title = {Error Feedback for Federated Optimization},
  author = {Alpha, Anna and Islamov, Rustem and Beta, Boris},
  booktitle = {International Conference on Machine Learning},
  year = {2025}
}
@inproceedings{islamov2024own,
  title = {Error Feedback for Distributed Optimization},
  author = {Islamov, Rustem and Gamma, Gina and Delta, Dan},
  booktitle = {International Conference on Machine Learning},
  year = {2024}
}
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(NOTES, encoding="utf-8")
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    (root / "old.bib").write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(root / "old.bib"), "-q").exit_code == 0
    return root


def test_pending_works_are_found_and_marked(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = run(root, "search", "optimizer")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("(pending)") and "Spectral Sphere Optimizer for Transformers" in lines[-1]
    assert "notes/reading.md:3" in lines[-1]
    assert "1 pending work (not resolved yet)" in result.stderr
    only = json.loads(run(root, "search", "spectral sphere", "--json").stdout)
    assert only["total"] == 0 and [p["status"] for p in only["pending"]] == ["pending"]
    assert only["pending"][0]["where"] == ["notes/reading.md:3"]
    assert only["found"] is False
    by_status = json.loads(run(root, "search", "status:pending", "--json").stdout)
    assert [p["title"] for p in by_status["pending"]] == ["Spectral Sphere Optimizer for Transformers"]
    # filters a pending work cannot meet leave it out
    assert json.loads(run(root, "search", "spectral year:2024", "--json").stdout)["pending"] == []
    assert json.loads(run(root, "search", "spectral status:resolved", "--json").stdout)["pending"] == []


def test_a_first_author_hit_ranks_above_a_coauthored_one(tmp_path: Path) -> None:
    root = _project(tmp_path)
    for query in ("author:islamov", "error feedback author:islamov", "optimization author:islamov"):
        keys = [r["key"] for r in json.loads(run(root, "search", query, "--json").stdout)["results"]]
        assert keys == ["islamov2024own", "aa2024coauthored"], (query, keys)
    # without the filter the newer / better-scored paper may come first: the order is the filter's doing
    plain = [r["key"] for r in json.loads(run(root, "search", "federated", "--json").stdout)["results"]]
    assert plain == ["aa2024coauthored"]


def test_a_pending_work_alone_is_listed_but_no_entry_found(tmp_path: Path) -> None:
    """Exit status as grep's: 0 when an entry matches, 1 when none does; a pending work is
    listed and said, but has no key to cite, unless status:pending asked for pending works."""
    root = _project(tmp_path)
    alone = run(root, "search", "spectral")
    assert alone.exit_code == 1, alone.output
    assert alone.stdout.startswith("(pending)") and "Spectral Sphere Optimizer" in alone.stdout
    assert "no entry of the library matches 'spectral'; 1 pending work of the notes matches" in alone.stderr
    assert "`citekit sync` online" in alone.stderr
    quiet = run(root, "search", "spectral", "-q")
    assert quiet.exit_code == 1 and "1 pending work of the notes matches" in quiet.stderr
    asked = run(root, "search", "spectral", "status:pending")
    assert asked.exit_code == 0 and "no entry" not in asked.stderr, asked.output
    assert json.loads(run(root, "search", "spectral status:pending", "--json").stdout)["found"] is True
    both = run(root, "search", "optimizer")  # an entry and a pending work: found
    assert both.exit_code == 0 and "no entry" not in both.stderr
