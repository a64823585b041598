""""et al." in the notes: the entry's author list ends with BibTeX's "and others"."""

from __future__ import annotations

import pytest

from citekit import api
from citekit.library.records import fields_from_mentions
from citekit.library.store import Library
from citekit.core.model import Location
from citekit.core.resolution import Candidate, Mention, Work
from citekit.library.update import apply_work


def _project(tmp_path, text: str):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text(text, encoding="utf-8")
    (tmp_path / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("line,author", [
    ("- Generative Adversarial Nets — Ian Goodfellow et al.", "Goodfellow, Ian and others"),
    ("- Attention Is All You Need, Ashish Vaswani, Noam Shazeer et al., NeurIPS 2017",
     "Vaswani, Ashish and Shazeer, Noam and others"),
    ("- Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang, Shaoqing Ren, Jian Sun (CVPR 2016)",
     "He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian"),
])
def test_incomplete_author_list_ends_with_and_others(tmp_path, line, author):
    root = _project(tmp_path, line + "\n")
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    (entry,) = lib.entries.values()
    assert entry.fields["author"] == author
    notes = next(v for v in entry.versions if v.get("source") == "notes")
    assert notes.get("authors_incomplete", False) is author.endswith(" and others")
    again = api.sync(root, offline=True)
    assert not again.changed


def test_another_note_with_the_full_list_completes_it(tmp_path):
    root = _project(tmp_path, "- Lion: Symbolic Discovery of Optimization Algorithms, Xiangning Chen et al., NeurIPS'23\n"
                              "- Symbolic Discovery of Optimization Algorithms — Xiangning Chen, Chen Liang, Da Huang\n")
    api.sync(root, offline=True)
    (entry,) = Library.load(root / "refs").entries.values()
    assert entry.fields["author"] == "Chen, Xiangning and Liang, Chen and Huang, Da"
    # the first note's venue and year are not dropped by the second note
    assert entry.entry_type == "inproceedings" and entry.fields["year"] == "2023" and "booktitle" in entry.fields
    assert not api.sync(root, offline=True).changed


def test_fields_from_an_incomplete_list():
    m = Mention(kind="titled", location=Location("n.md", 1), title="Generative Adversarial Nets",
                authors=["Ian Goodfellow", "Jean Pouget-Abadie"], authors_incomplete=True)
    _, fields = fields_from_mentions([m])
    assert fields["author"] == "Goodfellow, Ian and Pouget-Abadie, Jean and others"


def test_resolved_record_replaces_the_notes_list(tmp_path):
    root = _project(tmp_path, "- Generative Adversarial Nets — Ian Goodfellow et al., NeurIPS 2014\n")
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    (key,) = lib.entries
    (mention,) = [Mention(kind="titled", location=Location("notes/n.md", 1), title="Generative Adversarial Nets",
                          authors=["Ian Goodfellow"], authors_incomplete=True, venue="NeurIPS", year=2014)]
    record = Candidate(source="dblp", id="conf/nips/GoodfellowPMXWOCB14", title="Generative Adversarial Nets",
                       authors=[], year=2014, venue="NeurIPS")
    from citekit.core.names import parse_name
    record.authors = [parse_name(n) for n in ("Ian J. Goodfellow", "Jean Pouget-Abadie", "Mehdi Mirza")]
    work = Work(mentions=[mention], chosen=record, status="resolved")
    result = apply_work(lib, work)
    assert result.key == key
    assert lib.entries[key].fields["author"] == "Goodfellow, Ian J. and Pouget-Abadie, Jean and Mirza, Mehdi"


def test_et_al_is_no_author_in_csl_json_or_list_json(tmp_path):
    """`` and others`` stays in BibTeX; CSL-JSON ends the list with citeproc's et-al mark
    (``{"literal": "others"}``, rendered "et al." by pandoc), never a person named "others";
    ``list --json`` lists the real authors and says the list is incomplete."""
    import json

    from click.testing import CliRunner

    from citekit.cli import main

    root = _project(tmp_path, "- Generative Adversarial Nets — Ian Goodfellow et al.\n"
                              "- Deep Residual Learning for Image Recognition — Kaiming He, Xiangyu Zhang (CVPR 2016)\n")
    api.sync(root, offline=True)
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert "Goodfellow, Ian and others" in bib
    run = CliRunner().invoke(main, ["-C", str(root), "export", "--format", "csl-json"])
    assert run.exit_code == 0, run.output
    items = {i["title"]: i for i in json.loads(run.output)}
    gan = items["Generative Adversarial Nets"]["author"]
    assert gan == [{"family": "Goodfellow", "given": "Ian"}, {"literal": "others"}]
    assert all(a.get("family") != "others" for i in items.values() for a in i["author"])
    assert {"literal": "others"} not in items["Deep Residual Learning for Image Recognition"]["author"]
    listed = CliRunner().invoke(main, ["-C", str(root), "list", "--json"])
    rows = {r["title"]: r for r in json.loads(listed.output)}
    assert rows["Generative Adversarial Nets"]["authors"] == ["Goodfellow, Ian"]
    assert rows["Generative Adversarial Nets"]["authors_incomplete"] is True
    assert rows["Deep Residual Learning for Image Recognition"]["authors_incomplete"] is False


def test_csl_names_of_a_list_ending_in_others():
    from citekit.output.csl import csl_names

    assert csl_names("Foret, Pierre and Kleiner, Ariel and others") == [
        {"family": "Foret", "given": "Pierre"}, {"family": "Kleiner", "given": "Ariel"}, {"literal": "others"}]
    assert csl_names("Foret, Pierre and {others}")[-1] == {"literal": "others"}
    assert csl_names("Foret, Pierre") == [{"family": "Foret", "given": "Pierre"}]
