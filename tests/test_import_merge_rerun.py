"""``import FILE --merge`` run again after an import that left same-work candidates apart
(as that import's message says to): the candidates are merged, and only they are analysed
again, not the whole library; an entry the file changed since brings the whole analysis back."""

from __future__ import annotations

import json
from pathlib import Path

import citekit.library.dedup as dedup
from tests.helpers_cli import bare_project, run

OTHERS = "".join(f"@misc{{other{i},\n  title = {{An Unrelated Study Number {i} of Lichens}},\n"
                 f"  author = {{Ola Other}},\n  year = {{{1990 + i}}}\n}}\n" for i in range(12))
TWINS = """@article{rossi2019grass,
  title = {Grassland Lichens Under Drought},
  author = {Rossi, Mara and Bianchi, Luca},
  journal = {Journal of Lichenology},
  year = {2019}
}
@article{rossi2019grassland,
  title = {Grassland lichens under drought},
  author = {Mara Rossi and Luca Bianchi},
  journal = {J. Lichenology},
  year = {2019},
  pages = {1--12}
}
"""


def _analysed(monkeypatch) -> list[int]:
    sizes: list[int] = []
    real = dedup.analyse

    def counted(entries, **kwargs):
        sizes.append(len(entries))
        return real(entries, **kwargs)

    monkeypatch.setattr(dedup, "analyse", counted)
    return sizes


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root = bare_project(tmp_path)
    (root / "others.bib").write_text(OTHERS, encoding="utf-8")
    assert run(root, "import", str(root / "others.bib")).exit_code == 0
    bib = root / "twins.bib"
    bib.write_text(TWINS, encoding="utf-8")
    first = run(root, "import", str(bib))
    assert "same work? rossi2019grass, rossi2019grassland" in first.stdout, first.output
    return root, bib


def test_a_rerun_with_merge_analyses_only_what_was_left_apart(tmp_path: Path, monkeypatch) -> None:
    root, bib = _project(tmp_path)
    assert run(root, "import", str(bib)).exit_code == 0  # again without --merge: synced, the candidates kept in mind
    sizes = _analysed(monkeypatch)
    merged = json.loads(run(root, "import", str(bib), "--merge", "--json").stdout)
    assert [m["keys"] for m in merged["merged"]] == [["rossi2019grass"]], merged
    assert sizes == [2], sizes  # the two candidates, not the 14 entries of the library
    keys = [row["key"] for row in json.loads(run(root, "list", "--json").stdout)]
    assert "rossi2019grass" not in keys and "rossi2019grassland" in keys and len(keys) == 13
    sizes.clear()
    again = json.loads(run(root, "import", str(bib), "--merge", "--json").stdout)
    assert again["merged"] == [] and sizes == [], (again, sizes)  # nothing is left apart any more


def test_an_entry_changed_in_the_file_brings_the_whole_analysis_back(tmp_path: Path, monkeypatch) -> None:
    root, bib = _project(tmp_path)
    bib.write_text(TWINS.replace("pages = {1--12}", "pages = {1--13}"), encoding="utf-8")
    sizes = _analysed(monkeypatch)
    merged = json.loads(run(root, "import", str(bib), "--merge", "--json").stdout)
    assert [m["keys"] for m in merged["merged"]] == [["rossi2019grass"]], merged
    assert sizes == [14], sizes
