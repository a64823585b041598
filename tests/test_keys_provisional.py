"""Keys that are right before they are frozen (issue 26, part 5), end to end through the CLI.

A key citekit makes stays provisional until it first leaves the library (``export``,
``check``, ``related-work``); until then a sync that brings a better year or first author
re-forms it and keeps the old key as an alias. Online syncs run against the loopback fake
services (tests/fakeservices), which answer in the real services' shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

#: noted with no venue and no year: the offline key has "nd" for its year
UNDATED = """- LiMuon: Light and Fast Muon Optimizer for Large Models
  - Authors: Feihu Huang, Yuning Luo
"""


def _project(tmp_path: Path, notes: str) -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(notes, encoding="utf-8")
    return root


def _run(root: Path, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    assert result.exit_code == code, result.output
    return result.stdout


def _keys(root: Path) -> list[str]:
    return [e["key"] for e in json.loads(_run(root, "list", "--json"))]


@pytest.fixture()
def online(tmp_path, monkeypatch, fake_services):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    return fake_services


def test_an_undated_key_is_re_formed_by_the_sync_that_finds_the_year(tmp_path, online):
    root = _project(tmp_path, UNDATED)
    _run(root, "sync", "--offline", "-q")
    [old] = _keys(root)
    assert old == "huangndlimuon"
    assert "key_provisional: true" in (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    report = json.loads(_run(root, "sync", "--json"))
    [new] = _keys(root)
    assert new.startswith("huang2026"), new
    assert any(old in n and new in n for n in report["notices"]), report["notices"]
    assert report["renamed"] == {old: new}
    lib = Library.load(root / "refs")
    entry = lib.entries[new]
    assert entry.status == "resolved" and entry.fields["year"] == "2026"
    assert old in entry.aliases and lib.get(old) is entry  # the old key still finds the entry
    assert f"'{old}' is an alias of '{new}'" in _run(root, "show", old)
    # a paper written meanwhile with the old key is rewritten by rekey (the library's aliases)
    tex = root / "paper.tex"
    tex.write_text(f"\\cite{{{old}}}\n", encoding="utf-8")
    _run(root, "rekey", str(tex))
    assert tex.read_text(encoding="utf-8") == f"\\cite{{{new}}}\n"


def test_an_exported_key_is_frozen_and_never_re_formed(tmp_path, online):
    root = _project(tmp_path, UNDATED)
    _run(root, "sync", "--offline", "-q")
    _run(root, "export", "-o", str(root / "refs.bib"))
    assert "key_provisional" not in (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    _run(root, "sync", "-q")
    assert _keys(root) == ["huangndlimuon"]  # cited somewhere by now: it never changes
    assert Library.load(root / "refs").entries["huangndlimuon"].fields["year"] == "2026"


@pytest.mark.parametrize("how", ["check", "related-work"])
def test_check_and_related_work_freeze_the_keys_they_give_out(tmp_path, how):
    root = _project(tmp_path, UNDATED + "- Step-Size Stability in Stochastic Optimization #theory\n"
                                        "  - Authors: Fabian Schaipp, Robert Gower\n")
    _run(root, "sync", "--offline", "-q")
    lib = Library.load(root / "refs")
    assert all(e.key_provisional for e in lib.entries.values())
    if how == "check":
        (root / "paper.tex").write_text("\\cite{huangndlimuon}\n", encoding="utf-8")
        _run(root, "check", str(root / "paper.tex"), "-q")
        left = {"huangndlimuon"}
    else:
        _run(root, "related-work", "--tag", "theory", "-o", str(root / "related.tex"))
        left = {"schaippndstepsize"}
    lib = Library.load(root / "refs")
    assert {k for k, e in lib.entries.items() if not e.key_provisional} == left


def test_the_year_of_an_arxiv_id_counts_when_no_year_is_known(tmp_path):
    root = _project(tmp_path, """- Switch Transformers: Scaling to Trillion Parameter Models
  - Authors: William Fedus, Barret Zoph
  - https://arxiv.org/abs/2101.03961
""")
    _run(root, "sync", "--offline", "-q")
    assert _keys(root) == ["fedus2021switch"]
    assert Library.load(root / "refs").entries["fedus2021switch"].fields["year"] == "2021"  # no "empty year"


def test_a_page_default_year_does_not_beat_the_papers_own(tmp_path):
    root = _project(tmp_path, """# ICLR 2026

- Sharpness-Aware Minimization for Efficiently Improving Generalization
  - Authors: Pierre Foret, Ariel Kleiner
  - https://arxiv.org/abs/2010.01412
- Muon Outperforms Adam in Tail-End Associative Memory Learning
  - Authors: Shuche Wang, Fengzhuo Zhang
  - https://arxiv.org/abs/2509.26030
- Some Paper Noted Here (ICML 2024)
  - Authors: Ann Smith
""")
    _run(root, "sync", "--offline", "-q")
    lib = Library.load(root / "refs")
    # a 2020 preprint on an ICLR 2026 page is an older paper cited there: no ICLR 2026 venue, no 2026 key
    sam = lib.entries["foret2020sharpnessaware"]
    assert sam.fields["year"] == "2020" and "booktitle" not in sam.fields
    # a 2025 preprint on the same page is the page's paper: the page's venue-year holds
    assert lib.entries["wang2026muon"].fields["booktitle"].endswith("Learning Representations")
    # a year written beside the paper beats the page's
    assert "smith2024some" in lib.entries


def test_imported_keys_are_never_provisional(tmp_path):
    root = _project(tmp_path, "")
    bib = root / "mine.bib"
    bib.write_text("@article{whatever,\n  author = {Doe, Jane},\n  title = {A Title},\n  journal = {J},\n}\n",
                   encoding="utf-8")
    _run(root, "import", str(bib), "-q")
    assert not Library.load(root / "refs").entries["whatever"].key_provisional


def test_an_old_sidecar_reads_as_frozen(tmp_path):
    root = _project(tmp_path, UNDATED)
    _run(root, "sync", "--offline", "-q")
    side = root / "refs" / "library.yaml"
    side.write_text(side.read_text(encoding="utf-8").replace("    key_provisional: true\n", ""), encoding="utf-8")
    assert not Library.load(root / "refs").entries["huangndlimuon"].key_provisional


def test_a_year_added_to_the_notes_later_re_forms_the_key(tmp_path):
    root = _project(tmp_path, UNDATED)
    _run(root, "sync", "--offline", "-q")
    assert _keys(root) == ["huangndlimuon"]
    notes = root / "notes" / "reading.md"
    notes.write_text(notes.read_text(encoding="utf-8") + "  - Venue: ICML 2026\n", encoding="utf-8")
    assert "key huangndlimuon -> huang2026limuon" in CliRunner().invoke(main, ["-C", str(root), "sync", "--offline"]).output
    assert _keys(root) == ["huang2026limuon"]
    lib = Library.load(root / "refs")
    assert lib.entries["huang2026limuon"].aliases == ["huangndlimuon"]
    assert lib.entries["huang2026limuon"].key_provisional  # still not exported: may still change


def test_an_export_whose_freeze_cannot_be_written_still_exports_and_warns(tmp_path, monkeypatch):
    root = _project(tmp_path, UNDATED)
    _run(root, "sync", "--offline", "-q")

    def refused(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied", str(root / "refs" / "library.yaml"))

    monkeypatch.setattr("citekit.library.freeze.freeze_keys", refused)
    result = CliRunner().invoke(main, ["-C", str(root), "export", "-o", str(root / "refs.bib")])
    assert result.exit_code == 0, result.output
    assert "@misc{huangndlimuon," in (root / "refs.bib").read_text(encoding="utf-8")
    assert "could not be made permanent" in result.stderr
    assert Library.load(root / "refs").entries["huangndlimuon"].key_provisional  # the next export freezes it
