"""Importing a file again is a sync with it: the file's changes are taken, the user's are kept.

Self-contained (no shared corpora): a small export in Better BibTeX's shape, re-exported with
a changed booktitle, added pages, a changed title, a removed entry and a new one.
"""

from __future__ import annotations

import re
import json
from pathlib import Path


from citekit.api.dedup import import_bib
from tests.helpers_cli import bare_project as project, digest, run
from citekit.core.model import Entry
from citekit.library.store import Library

EXPORT = r"""
@inproceedings{foret2021sam,
  title = {Sharpness-Aware Minimization for Efficiently Improving Generalization},
  booktitle = {ICLR},
  author = {Foret, Pierre and Kleiner, Ariel and Mobahi, Hossein and Neyshabur, Behnam},
  year = 2021,
  keywords = {optimization}
}

@article{kingma2014adam,
  title = {Adam: {{A}} Method for Stochastic Optimization},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  year = 2014,
  journal = {arXiv preprint arXiv:1412.6980}
}

@inproceedings{loshchilov2019decoupled,
  title = {Decoupled Weight Decay Regularization},
  booktitle = {International Conference on Learning Representations},
  author = {Loshchilov, Ilya and Hutter, Frank},
  year = 2019
}
"""

# the same library exported again after edits in Zotero
REEXPORT = r"""
@inproceedings{foret2021sam,
  title = {Sharpness-Aware Minimization for Efficiently Improving Generalization},
  booktitle = {9th International Conference on Learning Representations, {{ICLR}} 2021},
  author = {Foret, Pierre and Kleiner, Ariel and Mobahi, Hossein and Neyshabur, Behnam},
  year = 2021,
  pages = {1--19},
  keywords = {optimization}
}

@article{kingma2014adam,
  title = {Adam: {{A}} Method for Stochastic Optimisation},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  year = 2014,
  journal = {arXiv preprint arXiv:1412.6980}
}

@article{you2020lamb,
  title = {Large Batch Optimization for Deep Learning: Training {{BERT}} in 76 Minutes},
  author = {You, Yang and Li, Jing and Reddi, Sashank},
  year = 2020,
  journal = {ICLR}
}
"""




def hand_edit(refs: Path, old: str, new: str) -> None:
    """Edit library.bib as a user would, in an editor."""
    bib = refs / "library.bib"
    text = bib.read_text(encoding="utf-8")
    assert old in text
    bib.write_text(text.replace(old, new), encoding="utf-8")


def test_reimport_takes_the_files_changes_keeps_the_users_and_reports_removed_entries(tmp_path: Path) -> None:
    root = project(tmp_path)
    refs = root / "refs"
    export = root / "zotero.bib"
    export.write_text(EXPORT, encoding="utf-8")
    first = run(root, "import", str(export))
    assert first.exit_code == 0, first.output
    # the user corrects Adam's title in citekit (by hand, in library.bib)
    hand_edit(refs, "Adam: {{A}} Method for Stochastic Optimization", "Adam: {A} Method for Stochastic Optimization")
    status = {k: e.status for k, e in Library.load(refs).entries.items()}

    export.write_text(REEXPORT, encoding="utf-8")
    before = digest(refs)
    dry = run(root, "import", str(export), "--dry-run")
    assert dry.exit_code == 1, dry.output  # a field changed on both sides: worth a look
    assert digest(refs) == before  # a dry run writes nothing
    out = dry.stdout
    assert ("would update foret2021sam: booktitle 'ICLR' -> "
            "'9th International Conference on Learning Representations, {{ICLR}} 2021'") in out
    assert "would update foret2021sam: pages added '1--19'" in out
    assert "would keep kingma2014adam: title changed both in citekit and in zotero.bib" in out
    assert "citekit's 'Adam: {A} Method for Stochastic Optimization' kept" in out
    assert "no longer in zotero.bib: loshchilov2019decoupled; kept in the library" in out
    assert "would add you2020lamb" in out
    assert "skip foret2021sam" not in out
    quiet = run(root, "import", str(export), "--dry-run", "-q").stdout  # (a cron log: only what changes)
    assert "no longer in" not in quiet and "would update foret2021sam: pages added '1--19'" in quiet

    as_json = run(root, "import", str(export), "--dry-run", "--json")
    data = json.loads(as_json.stdout)
    assert {(c["key"], c["field"], c["old"], c["new"]) for c in data["updated"]} == {
        ("foret2021sam", "booktitle", "ICLR", "9th International Conference on Learning Representations, {{ICLR}} 2021"),
        ("foret2021sam", "pages", None, "1--19")}
    assert data["conflicts"] == [{"key": "kingma2014adam", "field": "title",
                                  "kept": "Adam: {A} Method for Stochastic Optimization",
                                  "file_value": "Adam: {{A}} Method for Stochastic Optimisation", "file": "zotero.bib"}]
    assert data["removed_from_file"] == [{"key": "loshchilov2019decoupled", "file": "zotero.bib",
                                          "file_key": "loshchilov2019decoupled"}]
    assert data["added"] == ["you2020lamb"] and data["skipped"] == [] and data["dry_run"] is True
    assert digest(refs) == before

    applied = run(root, "import", str(export))
    assert applied.exit_code == 1, applied.output
    lib = Library.load(refs)
    sam = lib.entries["foret2021sam"]
    assert sam.fields["booktitle"] == "9th International Conference on Learning Representations, {{ICLR}} 2021"
    assert sam.fields["pages"] == "1--19"
    assert lib.entries["kingma2014adam"].fields["title"] == "Adam: {A} Method for Stochastic Optimization"
    assert "loshchilov2019decoupled" in lib.entries  # reported, never deleted
    assert "you2020lamb" in lib.entries
    assert {k: lib.entries[k].status for k in status} == status  # a sync does not change statuses
    assert sam.tags == ["optimization"]
    text = (refs / "library.bib").read_text(encoding="utf-8")
    assert re.search(r"pages += \{1--19\}", text)

    # the same file once more: nothing left to take, the conflict is not reported again
    again = run(root, "import", str(export), "--json")
    assert again.exit_code == 0, again.output
    data = json.loads(again.stdout)
    assert data["updated"] == [] and data["conflicts"] == [] and data["added"] == []
    assert data["unchanged"] == 3
    assert [r["key"] for r in data["removed_from_file"]] == ["loshchilov2019decoupled"]


def test_a_field_removed_in_the_file_is_removed_unless_the_user_changed_it(tmp_path: Path) -> None:
    refs = project(tmp_path) / "refs"
    export = tmp_path / "lib.bib"
    export.write_text("@article{a1, title = {One}, author = {Doe, Jane}, year = 2020, journal = {J},\n"
                      "  doi = {10.1/x}, note = {first}}\n", encoding="utf-8")
    import_bib([export], start=tmp_path)
    hand_edit(refs, "{first}", "{mine}")
    export.write_text("@article{a1, title = {One}, author = {Doe, Jane}, year = 2020, journal = {J},\n"
                      "  url = {https://example.org/x}}\n", encoding="utf-8")
    _, outcome = import_bib([export], start=tmp_path)
    report = outcome.report
    assert [(c.field, c.old, c.new) for c in report.updated] == [
        ("url", None, "https://example.org/x"), ("doi", "10.1/x", None)]
    assert [(c.field, c.old, c.new) for c in report.kept] == [("note", "mine", None)]
    fields = Library.load(refs).entries["a1"].fields
    assert "doi" not in fields and fields["url"] == "https://example.org/x" and fields["note"] == "mine"


def test_an_entry_imported_before_records_were_kept_takes_the_files_changes(tmp_path: Path) -> None:
    """The issue's case: same key, a changed booktitle and added pages used to be skipped as identical."""
    root = project(tmp_path)
    refs = root / "refs"
    lib = Library.load(refs)
    lib.add(Entry(key="foret2021sam", entry_type="inproceedings", origin="import",
                  fields={"title": "Sharpness-Aware Minimization for Efficiently Improving Generalization",
                          "booktitle": "ICLR", "year": "2021",
                          "author": "Foret, Pierre and Kleiner, Ariel and Mobahi, Hossein and Neyshabur, Behnam"}))
    lib.save()
    export = root / "zotero.bib"
    export.write_text(REEXPORT, encoding="utf-8")
    result = run(root, "import", str(export))
    assert result.exit_code == 0, result.output
    assert "identical" not in result.stdout.replace("skipped 0 identical", "")
    assert "update foret2021sam: pages added '1--19'" in result.stdout
    sam = Library.load(refs).entries["foret2021sam"]
    assert sam.fields["pages"] == "1--19" and sam.fields["booktitle"].startswith("9th International")
    assert sam.import_record["file"] == "zotero.bib" and sam.import_record["key"] == "foret2021sam"


def test_a_key_taken_at_the_first_import_still_syncs_under_its_new_key(tmp_path: Path) -> None:
    root = project(tmp_path)
    refs = root / "refs"
    lib = Library.load(refs)
    lib.add(Entry(key="kingma2014adam", entry_type="misc", fields={"title": "A tutorial on something else entirely",
                                                                  "author": "Roe, Max", "year": "2014"}))
    lib.save()
    export = root / "zotero.bib"
    export.write_text(EXPORT, encoding="utf-8")
    run(root, "import", str(export))
    assert Library.load(refs).entries["kingma2014adama"].import_record["key"] == "kingma2014adam"
    export.write_text(EXPORT.replace("year = 2014,", "year = 2015,"), encoding="utf-8")
    _, outcome = import_bib([export], start=root)
    assert [(c.key, c.field, c.new) for c in outcome.report.updated] == [("kingma2014adama", "year", "2015")]
    lib = Library.load(refs)
    assert lib.entries["kingma2014adam"].fields["year"] == "2014"  # the other work is not touched
    assert lib.entries["kingma2014adama"].fields["year"] == "2015"


def test_tags_added_and_removed_in_zotero_follow_unless_the_user_did_the_opposite(tmp_path: Path) -> None:
    root = project(tmp_path)
    refs = root / "refs"
    export = root / "zotero.bib"
    export.write_text("@article{a1, title = {One paper}, author = {Doe, Jane}, year = 2020, journal = {J},\n"
                      "  keywords = {optimization,sharpness,theory}}\n", encoding="utf-8")
    run(root, "import", str(export))
    assert run(root, "tag", "a1", "-theory", "+mine").exit_code == 0
    # in Zotero: 'sharpness' and 'theory' removed (the user removed 'theory' too), two tags added
    export.write_text("@article{a1, title = {One paper}, author = {Doe, Jane}, year = 2020, journal = {J},\n"
                      "  keywords = {flatness,optimization,generalization}}\n", encoding="utf-8")
    _, outcome = import_bib([export], start=root)
    report = outcome.report
    assert {(c.field, c.old, c.new) for c in report.updated} == {
        ("keywords", None, "flatness"), ("keywords", None, "generalization"), ("keywords", "sharpness", None)}
    assert report.kept == []
    assert Library.load(refs).entries["a1"].tags == ["flatness", "generalization", "mine", "optimization"]
    # a tag the user removed, added again in Zotero: the user's removal stands, and is said once
    export.write_text("@article{a1, title = {One paper}, author = {Doe, Jane}, year = 2020, journal = {J},\n"
                      "  keywords = {flatness,optimization,generalization,theory}}\n", encoding="utf-8")
    result = run(root, "import", str(export))
    assert result.exit_code == 1, result.output
    assert "keep a1: tag 'theory' added in zotero.bib but removed in citekit; kept removed" in result.stdout
    assert "theory" not in Library.load(refs).entries["a1"].tags
    assert run(root, "import", str(export)).exit_code == 0


def test_two_papers_refs_bib_are_two_files_not_one_reexported(tmp_path: Path) -> None:
    """Files are known by their path, not their name: paper-b/refs.bib is not a new export of paper-a/refs.bib."""
    root = project(tmp_path)
    for paper, venue in (("paper-a", "ICLR"), ("paper-b", "ICLR 2021")):
        (root / paper).mkdir()
        (root / paper / "refs.bib").write_text(EXPORT.replace("booktitle = {ICLR}", f"booktitle = {{{venue}}}"),
                                               encoding="utf-8")
    run(root, "import", str(root / "paper-a" / "refs.bib"))
    result = run(root, "import", str(root / "paper-b" / "refs.bib"), "--json")
    data = json.loads(result.stdout)
    assert data["updated"] == [] and data["removed_from_file"] == []
    lib = Library.load(root / "refs")
    assert lib.entries["foret2021sam"].fields["booktitle"] == "ICLR"
    assert lib.entries["foret2021sam"].import_record["file"] == "paper-a/refs.bib"


def test_an_entry_the_file_still_has_but_that_cannot_be_read_is_not_called_gone(tmp_path: Path) -> None:
    root = project(tmp_path)
    export = root / "zotero.bib"
    export.write_text(EXPORT, encoding="utf-8")
    run(root, "import", str(export))
    export.write_text(EXPORT.replace("  year = 2019\n}", "  year = 2019\n  note = {unclosed\n"), encoding="utf-8")
    result = run(root, "import", str(export), "--json")
    data = json.loads(result.stdout)
    assert data["problems"], result.output  # the broken entry is warned about...
    assert data["removed_from_file"] == []  # ...and not reported as gone from the file


def test_a_malformed_export_is_warned_about_once_per_change_of_it(tmp_path: Path) -> None:
    """A daily re-import of the same broken export: its problems (and exit 1) come once; the
    next runs name them in one line and exit 0; a changed file is warned about again."""
    root = project(tmp_path)
    export = root / "zotero.bib"
    broken = EXPORT.replace("  year = 2019\n}", "  year = 2019\n  note = {unclosed\n")
    export.write_text(broken, encoding="utf-8")
    first = run(root, "import", str(export))
    assert first.exit_code == 1 and "warning: " in first.stderr, first.output
    again = run(root, "import", str(export))
    assert again.exit_code == 0, again.output
    assert "warning: " not in again.stderr
    assert "reported before; the file is unchanged since" in again.stdout
    data = json.loads(run(root, "import", str(export), "--json").stdout)
    assert data["problems"] == [] and data["problems_before"]
    dry = run(root, "import", str(export), "--dry-run")
    assert dry.exit_code == 1 and "warning: " in dry.stderr  # a dry run shows everything again
    # the file changes (Zotero re-exported it, still broken): its problems are warned about again
    export.write_text(broken.replace("{ICLR}", "{ICLR 2021}"), encoding="utf-8")
    changed = run(root, "import", str(export))
    assert changed.exit_code == 1 and "warning: " in changed.stderr, changed.output
    assert run(root, "import", str(export)).exit_code == 0


def test_import_again_with_merge_merges_the_candidates_the_first_import_left_apart(tmp_path: Path) -> None:
    """The first import lists a same-work candidate and says to run again with --merge; the run
    again (the file unchanged, so its entries are synced, not imported anew) merges it."""
    root = project(tmp_path)
    (root / "notes").mkdir()
    (root / "notes" / "reading.md").write_text(
        "- Adam: A Method for Stochastic Optimization\n  - Authors: Diederik P. Kingma, Jimmy Ba\n  - Venue: ICLR 2015\n",
        encoding="utf-8")
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    export = root / "colleague.bib"
    export.write_text("@article{Kingma_Ba_2014,\n  title = {{Adam}: A Method for Stochastic Optimization},\n"
                      "  author = {Diederik P. Kingma and Jimmy Ba},\n  journal = {arXiv preprint arXiv:1412.6980},\n"
                      "  year = {2014}\n}\n", encoding="utf-8")
    first = run(root, "import", str(export))
    assert "run again with --merge" in first.output, first.output
    assert len(Library.load(root / "refs").entries) == 2
    again = run(root, "import", str(export), "--merge")
    assert again.exit_code == 0, again.output
    assert "merged 1 work already present" in again.output, again.output
    lib = Library.load(root / "refs")
    assert len(lib.entries) == 1, list(lib.entries)
    (kept,) = lib.entries.values()
    assert "Kingma_Ba_2014" in kept.aliases
    assert "Kingma_Ba_2014:" in (root / "refs" / "keymap.yaml").read_text(encoding="utf-8")
    assert "0 duplicate clusters" in run(root, "dedup").output


def test_import_quiet_prints_no_line_about_what_was_done(tmp_path: Path) -> None:
    """`import -q` in a cron job: what was done (added, skipped as identical, merged, renamed)
    is not printed; what needs the user (a same-work candidate, a warning) still is."""
    root = project(tmp_path)
    export = root / "export.bib"
    export.write_text(EXPORT, encoding="utf-8")
    assert run(root, "import", str(export)).exit_code == 0
    copy = root / "copy.bib"
    copy.write_text(EXPORT.replace("foret2021sam", "foret2021samcopy"), encoding="utf-8")
    loud = run(root, "import", "--dry-run", str(copy))
    assert "skip " in loud.stdout, loud.stdout
    quiet = run(root, "import", "-q", str(copy))
    assert "skip " not in quiet.stdout and "imported" not in quiet.stdout, quiet.stdout
