"""citekit import / dedup / rekey through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from citekit.cli import main
from ..helpers_cli import bare_project as project, digest, run
from citekit.library.store import Library
from citekit.core.model import Entry

from ..helpers_project import add_two_adams

DUPES_BIB = r"""
@article{raffel2019exploring,
  title   = {Exploring the limits of transfer learning with a unified text-to-text transformer},
  author  = {Raffel, Colin and Shazeer, Noam and Roberts, Adam},
  journal = {arXiv preprint arXiv:1910.10683},
  year    = {2019}
}

@article{t5,
  title   = {Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer},
  author  = {Colin Raffel and Noam Shazeer and Adam Roberts},
  journal = {Journal of Machine Learning Research},
  volume  = {21},
  year    = {2020}
}

@inproceedings{bauer1,
  title = {Crystal growth on surfaces, Part I},
  author = {Bauer, Ernst},
  booktitle = {Proc. Crystal Conference},
  year = {1958}
}

@inproceedings{bauer2,
  title = {Crystal growth on surfaces, Part II},
  author = {Bauer, Ernst},
  booktitle = {Proc. Crystal Conference},
  year = {1958}
}
"""




def _derived(path: Path) -> bool:
    """Caches in ``.citekit/`` that any read may refresh: derived data, not the user's files."""
    return path.parent.name == ".citekit" and path.suffix in (".cache", ".stamp")


def test_dedup_of_a_bib_file_prints_clusters_as_json_and_changes_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "paper.bib"
    bib.write_text(DUPES_BIB, encoding="utf-8")
    before = digest(root)
    result = run(root, "dedup", str(bib), "--json")
    assert result.exit_code == 1, result.output  # findings: clusters listed, nothing applied
    data = json.loads(result.stdout)
    assert set(data) == {"clusters", "versions", "stale_ids", "related"}
    (cluster,) = data["clusters"]
    assert set(cluster) == {"keys", "kept", "reason"}
    assert cluster["keys"] == ["raffel2019exploring", "t5"] and cluster["kept"] == "t5"
    assert "title" in cluster["reason"]
    assert digest(root) == before


def test_import_then_dedup_apply_merges_and_writes_a_key_map(tmp_path: Path) -> None:
    root = project(tmp_path)
    refs = root / "refs"
    add_two_adams(refs)
    before = digest(refs)

    listed = run(root, "dedup")
    assert listed.exit_code == 1
    assert "kingma2015adam <- kingma2014adam" in listed.stdout
    assert digest(refs) == before  # no --apply: not a byte changed

    applied = run(root, "dedup", "--apply", "--json")
    assert applied.exit_code == 0, applied.output
    assert json.loads(applied.stdout)["clusters"][0]["kept"] == "kingma2015adam"
    keymap = yaml.safe_load((refs / "keymap.yaml").read_text(encoding="utf-8"))
    assert keymap == {"kingma2014adam": "kingma2015adam"}
    after = Library.load(refs)
    assert list(after.entries) == ["kingma2015adam"]
    assert after.get("kingma2014adam").key == "kingma2015adam"
    assert "ids" in (refs / "library.bib").read_text(encoding="utf-8")  # the old key stays citable with biblatex

    again = run(root, "dedup", "--json")
    assert json.loads(again.stdout) == {"clusters": [], "versions": [], "stale_ids": [], "related": []}
    assert again.exit_code == 0


def test_import_command_reports_renames_and_writes_the_import_map(tmp_path: Path) -> None:
    root = project(tmp_path)
    lib = Library.load(root / "refs")
    lib.add(Entry(key="t5", entry_type="misc", fields={"title": "A T5 tutorial for beginners", "author": "Doe, J.", "year": "2021"}))
    lib.save()
    bib = root / "paper.bib"
    bib.write_text(DUPES_BIB, encoding="utf-8")
    result = run(root, "import", str(bib), "--merge")
    assert result.exit_code == 0, result.output
    assert "rename" in result.stdout or "merge" in result.stdout
    lib = Library.load(root / "refs")
    assert lib.entries["t5"].title == "A T5 tutorial for beginners"  # the library's t5 is untouched
    assert {"bauer1", "bauer2"} <= set(lib.entries)  # Part I and Part II stay two entries
    import_map = yaml.safe_load((root / "refs" / "import-keymap.yaml").read_text(encoding="utf-8"))
    survivor = import_map["t5"]
    assert survivor != "t5" and lib.entries[survivor].fields["journal"] == "Journal of Machine Learning Research"
    assert import_map["raffel2019exploring"] == survivor

    tex = root / "paper.tex"
    tex.write_text("T5 \\citep{t5, raffel2019exploring} and Bauer \\cite{bauer1}.\n", encoding="utf-8")
    rk = run(root, "rekey", str(tex), "--map", str(root / "refs" / "import-keymap.yaml"))
    assert rk.exit_code == 0, rk.output
    # both old keys name one work: it is cited once
    assert tex.read_text(encoding="utf-8") == f"T5 \\citep{{{survivor}}} and Bauer \\cite{{bauer1}}.\n"
    assert f"+ T5 \\citep{{{survivor}" in rk.stdout and "- T5 \\citep{t5" in rk.stdout


def test_rekey_dry_run_previews_and_defaults_to_library_aliases(tmp_path: Path) -> None:
    root = project(tmp_path)
    lib = Library.load(root / "refs")
    lib.add(Entry(key="mykey", entry_type="article", fields={"title": "Lions and Muons", "author": "Sfyraki, Maria",
                                                             "year": "2026", "journal": "TMLR"}, aliases=["oldkey"]))
    lib.save()
    before = digest(root)
    preview = run(root, "rekey", "--dry-run")
    assert preview.exit_code == 0
    assert "* mykey -> sfyraki2026lions" in preview.stdout
    assert digest(root) == before

    tex = root / "a.tex"
    tex.write_text("\\cite{oldkey}\n", encoding="utf-8")
    dry = run(root, "rekey", str(tex), "--dry-run")
    assert "+ \\cite{mykey}" in dry.stdout and tex.read_text(encoding="utf-8") == "\\cite{oldkey}\n"
    run(root, "rekey", str(tex))
    assert tex.read_text(encoding="utf-8") == "\\cite{mykey}\n"


def test_user_errors_are_one_line_messages(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "x.bib"
    bib.write_text(DUPES_BIB, encoding="utf-8")
    res = CliRunner().invoke(main, ["-C", str(root), "dedup", str(bib), "--apply"])
    assert res.exit_code == 2 and "citekit import" in res.output
    res = CliRunner().invoke(main, ["-C", str(root), "rekey"])
    assert res.exit_code == 2 and "--dry-run" in res.output
    tex = root / "a.tex"
    tex.write_text("\\cite{a}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["-C", str(root), "rekey", str(tex), "--map", str(root / "missing.yaml")])
    assert res.exit_code == 2 and "no such key map" in res.output


def test_import_with_odd_keys_finishes_and_says_what_it_renamed(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "aima.bib"
    bib.write_text("@inproceedings{O'Reilly+Oppacher:1994, title = {Program search with a hierarchical variable length"
                   " representation}, author = {O'Reilly, Una-May}, booktitle = {PPSN}, year = {1994}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "import", str(bib)])
    assert result.exit_code == 0, result.output
    assert "rename O'Reilly+Oppacher:1994 -> OReilly+Oppacher:1994 (BibTeX and LaTeX keys" in result.stdout
    assert yaml.safe_load((root / "refs" / "import-keymap.yaml").read_text(encoding="utf-8")) == {
        "O'Reilly+Oppacher:1994": "OReilly+Oppacher:1994"}


# unit: no file or command makes a key the writer refuses, so the loaded library is replaced by one
def test_a_value_the_writer_refuses_is_an_error_message_not_a_traceback(tmp_path: Path, monkeypatch) -> None:
    root = project(tmp_path)
    broken = Library(refs_dir=root / "refs")
    broken.entries["bad key"] = Entry(key="bad key", entry_type="misc", fields={"title": "T"})
    monkeypatch.setattr(Library, "load", classmethod(lambda cls, refs, **_: broken))
    bib = root / "more.bib"
    bib.write_text("@misc{x1, title = {Something}, author = {Roe, R.}, year = {2021}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "import", str(bib)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "citation key 'bad key' cannot be written" in result.stderr and "Nothing was written." in result.stderr
    assert not (root / "refs" / "library.bib").exists()


def test_import_summary_separates_duplicates_within_the_file_and_show_names_the_origin(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "paper.bib"
    bib.write_text(DUPES_BIB, encoding="utf-8")
    result = run(root, "import", str(bib), "--merge")
    assert "imported 3 new entries, skipped 0 identical, merged 0 works already present, merged 1 duplicate within the files" in result.stdout
    assert "merge raffel2019exploring -> t5 (same work within the files:" in result.stdout
    shown = run(root, "show", "raffel2019exploring")
    assert "% origin: import" in shown.stdout
    listed = json.loads(run(root, "list", "--json").stdout)
    assert {item["origin"] for item in listed} == {"import"}


def test_dedup_apply_with_a_hand_written_preprint_keeps_the_published_survivor(tmp_path: Path) -> None:
    root = project(tmp_path)
    refs = root / "refs"
    lib = Library.load(refs)
    lib.add(Entry(key="huang2026limuon", entry_type="inproceedings", status="notes-only",
                  fields={"title": "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
                          "author": "Huang, Feihu and Luo, Yuning and Chen, Songcan", "year": "2026",
                          "booktitle": "Forty-third International Conference on Machine Learning"}))
    lib.save()
    with (refs / "library.bib").open("a", encoding="utf-8") as fh:
        fh.write("\n@misc{huang2025limuonarxiv, title={{LiMuon}: Light and Fast {Muon} Optimizer for Large Models}, "
                 "author={Huang, Feihu and Luo, Yuning and Chen, Songcan}, year={2025}, eprint={2509.14562}, "
                 "archiveprefix={arXiv}, note={arXiv preprint}}\n")
    result = run(root, "dedup", "--apply")
    assert result.exit_code == 0, result.output
    entry = Library.load(refs).get("huang2025limuonarxiv")
    assert entry.key == "huang2026limuon"
    assert entry.fields["year"] == "2026" and "note" not in entry.fields
    assert entry.fields["eprint"] == "2509.14562"
    assert entry.status == "notes-only"  # a hand-written entry confirms nothing online
    assert entry.hand == ["archiveprefix", "eprint"]  # what the user added stays theirs; year and note do not
