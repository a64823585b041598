"""Tags imported from a Zotero (Better BibTeX) export keep the user's text: ``deep learning``
stays ``deep learning`` through ``library.yaml``, ``library.bib``, a re-import and a selection."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from citekit.library.store import Library
from tests.helpers_cli import bare_project, digest, run

EXPORT = r"""@inproceedings{foret2021sam,
  title = {Sharpness-Aware Minimization for Efficiently Improving Generalization},
  author = {Foret, Pierre and Kleiner, Ariel and Mobahi, Hossein and Neyshabur, Behnam},
  booktitle = {International Conference on Learning Representations},
  year = {2021},
  keywords = {deep learning,Flat Minima,optimization/sharpness; to read},
}
"""


def _project(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "proj").mkdir()
    root = bare_project(tmp_path / "proj")
    bib = tmp_path / "My Library.bib"
    bib.write_text(EXPORT, encoding="utf-8")
    result = run(root, "import", str(bib), "-q")
    assert result.exit_code == 0, result.output
    return root, bib


def test_zotero_tags_with_spaces_and_case_round_trip(tmp_path: Path) -> None:
    root, bib = _project(tmp_path)
    wanted = ["Flat Minima", "deep learning", "optimization/sharpness", "to read"]
    entry = Library.load(root / "refs").get("foret2021sam")
    assert entry is not None and entry.tags == wanted
    sidecar = yaml.safe_load((root / "refs" / "library.yaml").read_text(encoding="utf-8"))
    assert "deep learning" in json.dumps(sidecar)
    assert "= {Flat Minima, deep learning, optimization/sharpness, to read}," in \
        (root / "refs" / "library.bib").read_text(encoding="utf-8")
    # re-importing the same export changes nothing: the tags compare as written
    before = digest(root / "refs")
    again = run(root, "import", str(bib), "--json")
    assert again.exit_code == 0, again.output
    assert digest(root / "refs") == before
    # a selection finds the tag by its text or its folded spelling
    for spelling in ("deep learning", "deep-learning", "Deep Learning"):
        listed = run(root, "list", "--tag", spelling, "-q")
        assert listed.exit_code == 0 and [line.split()[0] for line in listed.stdout.splitlines()] == ["foret2021sam"], (spelling, listed.output)
    found = run(root, "search", 'tag:"deep learning"', "--json")
    assert [r["key"] for r in json.loads(found.stdout)["results"]] == ["foret2021sam"]
    # removing by any spelling removes it (a tag typed in citekit takes the notes' spelling)
    assert run(root, "tag", "foret2021sam", "-deep-learning", "-FLAT MINIMA", "+camera ready").exit_code == 0
    tags = Library.load(root / "refs").get("foret2021sam").tags
    assert tags == ["camera-ready", "optimization/sharpness", "to read"]


def test_a_hand_edit_of_keywords_in_library_bib_keeps_the_text(tmp_path: Path) -> None:
    root, _ = _project(tmp_path)
    path = root / "refs" / "library.bib"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("to read}", "to read, Reading Group}"), encoding="utf-8")
    assert "Reading Group" in Library.load(root / "refs").get("foret2021sam").tags
