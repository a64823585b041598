"""`citekit sync --offline` on the bundled notes: the core job, end to end."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from citekit import api
from citekit.cli import main
from citekit.library.store import Library

from .helpers_project import make_project


@pytest.fixture()
def synced(tmp_path):
    root = make_project(tmp_path)
    report = api.sync(root, offline=True)
    return root, report


def test_every_titled_paper_with_authors_becomes_a_notes_only_entry(synced):
    root, report = synced
    lib = Library.load(root / "refs")
    assert report.mentions >= 95
    # 61 works in the trip report, 19 abstracts of which 2 are papers of the trip report
    assert report.works == 61 + 17
    assert report.counts == {"resolved": 0, "notes-only": len(lib.entries), "ambiguous": 0}
    assert len(lib.entries) == 54
    assert all(e.status == "notes-only" for e in lib.entries.values())
    titles = {e.title for e in lib.entries.values()}
    assert "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models" in titles
    # people, meals and talks are not papers
    assert not any(re.search(r"Schaipp \(|朝食|Social|How Far Can Quadratics", t) for t in titles)


def test_pending_lists_abstracts_and_bare_links_without_inventing_titles(synced):
    root, report = synced
    kinds = [p["kind"] for p in report.pending]
    assert kinds.count("abstract") == 17
    assert any("https://icml.cc/virtual/2026/oral/71156" in p["urls"] for p in report.pending)
    side = (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert "SoftSignum" in side  # kept for the next online sync


def test_entry_matches_the_notes(synced):
    root, _ = synced
    lib = Library.load(root / "refs")
    entry = lib.get("schaipp2026stepsize")
    assert entry is not None
    assert entry.fields["author"] == "Schaipp, Fabian and Gower, Robert and Taylor, Adrien"
    assert entry.fields["booktitle"] == "Forty-third International Conference on Machine Learning"
    assert entry.fields["year"] == "2026"
    assert entry.fields["url"] == "https://icml.cc/virtual/2026/poster/60591"
    assert entry.entry_type == "inproceedings"
    assert [str(m) for m in entry.mentions][0].startswith("notes/notes-icml2026-trip-report.txt:")
    assert len(entry.mentions) == 2  # in the poster list and under "follow these researchers"
    assert entry.summary and "step-size" in entry.summary


def test_hard_names_from_the_notes(synced):
    root, _ = synced
    authors = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert "van Breugel, Boris" in authors
    assert "Khrushchev, Mikhail" in authors  # written family-first in the notes
    assert "Wang, Zhangyang and" in authors  # nickname in quotes dropped
    assert "Kim, Hee-Sung" in authors
    assert "Horváth, Samuel" in authors


def test_second_sync_changes_no_byte(synced):
    root, _ = synced
    before = {p.name: p.read_bytes() for p in (root / "refs").iterdir()}
    report = api.sync(root, offline=True)
    assert report.changed is False
    assert {p.name: p.read_bytes() for p in (root / "refs").iterdir()} == before


def test_keys_survive_a_reordered_notes_folder(synced):
    root, _ = synced
    keys_before = set(Library.load(root / "refs").entries)
    notes = root / "notes" / "notes-icml2026-trip-report.txt"
    text = notes.read_text(encoding="utf-8")
    notes.write_text("Extra line at the top\n\n" + text, encoding="utf-8")
    api.sync(root, offline=True)
    assert set(Library.load(root / "refs").entries) == keys_before


def test_bad_notes_file_is_reported_and_others_still_sync(tmp_path):
    root = make_project(tmp_path)
    (root / "notes" / "broken.txt").write_bytes(b"\x00\x01\x02binary\xff\xfe")
    (root / "notes" / "empty.md").write_text("", encoding="utf-8")
    report = api.sync(root, offline=True)
    assert any("broken.txt" in p for p in report.problems)
    assert len(Library.load(root / "refs").entries) == 54


def test_missing_notes_folder_is_exit_code_2(tmp_path):
    root = make_project(tmp_path, notes=False)
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--offline"])
    assert result.exit_code == 2
    assert "no notes folder" in result.output


def test_cli_summary_and_json(tmp_path):
    root = make_project(tmp_path)
    runner = CliRunner()
    human = runner.invoke(main, ["-C", str(root), "sync", "--offline"])
    assert human.exit_code == 0, human.output
    assert "sync offline" in human.output and "notes-only    54" in human.output
    data = json.loads(runner.invoke(main, ["-C", str(root), "sync", "--offline", "--json"]).output)
    assert data["counts"]["notes-only"] == 54 and data["offline"] is True and data["changed"] is False


def test_list_json_shape_and_show(synced):
    root, _ = synced
    runner = CliRunner()
    out = runner.invoke(main, ["-C", str(root), "list", "--json"])
    assert out.exit_code == 0, out.output
    items = json.loads(out.output)
    assert len(items) == 54
    item = next(i for i in items if i["key"] == "schaipp2026stepsize")
    assert set(item) >= {"key", "type", "title", "authors", "year", "venue", "ids", "tags", "status", "mentions", "aliases"}
    assert item["authors"][0] == "Schaipp, Fabian"
    assert item["ids"] == {"doi": None, "arxiv": None, "openreview": None, "dblp": None}
    assert item["mentions"][0]["file"] == "notes/notes-icml2026-trip-report.txt"
    shown = runner.invoke(main, ["-C", str(root), "show", "schaipp2026stepsize"])
    assert "@inproceedings{schaipp2026stepsize," in shown.output
    missing = runner.invoke(main, ["-C", str(root), "show", "schaip2026stepsize"])
    assert missing.exit_code == 2 and "schaipp2026stepsize" in missing.output  # an unknown KEY is an input error


@pytest.mark.latex
@pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("bibtex") and shutil.which("biber")),
                    reason="pdflatex, bibtex and biber are needed (apt: texlive-latex-base texlive-bibtex-extra biber)")
@pytest.mark.parametrize("ascii_mode", [False, True])
def test_library_compiles_without_warnings(synced, tmp_path, ascii_mode):
    root, _ = synced
    build = tmp_path / "build"
    build.mkdir()
    bib = Library.load(root / "refs").render_bib(ascii=ascii_mode)
    if ascii_mode:
        assert bib.isascii()
    (build / "library.bib").write_text(bib, encoding="utf-8")
    (build / "natbib.tex").write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}\\usepackage{natbib}\n"
        "\\begin{document}\\nocite{*}\\bibliographystyle{plainnat}\\bibliography{library}\\end{document}\n")
    (build / "biblatex.tex").write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage[backend=biber]{biblatex}\\addbibresource{library.bib}\n"
        "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n")

    def run(*cmd):
        return subprocess.run(cmd, cwd=build, capture_output=True, text=True, timeout=120)

    run("pdflatex", "-interaction=nonstopmode", "natbib.tex")
    bibtex = run("bibtex", "natbib")
    assert bibtex.returncode == 0, bibtex.stdout
    blg = (build / "natbib.blg").read_text()
    assert "Warning" not in blg and "error" not in blg.lower(), blg
    run("pdflatex", "-interaction=nonstopmode", "biblatex.tex")
    biber = run("biber", "biblatex")
    assert biber.returncode == 0, biber.stdout
    assert "WARN" not in biber.stdout and "ERROR" not in biber.stdout, biber.stdout


def test_ascii_mode_is_remembered_and_not_mistaken_for_hand_edits(synced):
    root, _ = synced
    api.sync(root, offline=True, ascii=True)
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert bib.isascii()
    assert "Horv{\\'a}th, Samuel" in bib or "Horv\\'{a}th, Samuel" in bib
    report = api.sync(root, offline=True)  # no flag: stays ASCII, and nothing changes
    assert report.changed is False
    lib = Library.load(root / "refs")
    assert not any(e.hand for e in lib.entries.values())
    assert "Horváth, Samuel" in lib.get("zmushko2026onestep").fields["author"]
    api.sync(root, offline=True, ascii=False)
    assert "Horváth" in (root / "refs" / "library.bib").read_text(encoding="utf-8")


def test_a_paper_dropped_from_the_notes_keeps_its_entry(synced):
    root, _ = synced
    notes = root / "notes" / "notes-icml2026-trip-report.txt"
    lines = notes.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if "WildCat: Near-Linear Attention" in ln)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("• "))
    notes.write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")
    api.sync(root, offline=True)
    entry = Library.load(root / "refs").get("schroder2026wildcat")
    assert entry is not None and entry.mentions == []


def test_fixing_a_title_typo_in_the_notes_keeps_one_entry_and_its_key(synced):
    root, _ = synced
    lib = Library.load(root / "refs")
    key = next(k for k, e in lib.entries.items() if "Embarrasingly" in e.title)
    notes = root / "notes" / "notes-icml2026-trip-report.txt"
    notes.write_text(notes.read_text(encoding="utf-8").replace("Embarrasingly", "Embarrassingly"), encoding="utf-8")
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    assert len(lib.entries) == 54
    assert "Embarrassingly" in lib.entries[key].title


def test_a_paper_already_imported_from_an_old_bib_is_not_duplicated(tmp_path):
    root = make_project(tmp_path)
    (root / "old.bib").write_text(
        "@misc{mylimuon,\n  author = {Huang, F. and Luo, Y. and Chen, S.},\n"
        "  title = {{LiMuon}: Light and Fast {Muon} Optimizer for Large Models},\n  year = {2025},\n"
        "  eprint = {2509.14562},\n  archiveprefix = {arXiv},\n}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "import", str(root / "old.bib")])
    assert result.exit_code == 0, result.output
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    limuon = [e for e in lib.entries.values() if "LiMuon" in e.title]
    assert [e.key for e in limuon] == ["mylimuon"]
    assert len(limuon[0].mentions) == 2


def test_raw_author_strings_are_kept_in_the_sidecar(synced):
    root, _ = synced
    entry = Library.load(root / "refs").get("zmushko2026onestep")
    notes = next(v for v in entry.versions if v["source"] == "notes")
    assert "Khrushchev Mikhail" in notes["authors"]  # as written
    assert "Khrushchev, Mikhail" in entry.fields["author"]  # as BibTeX reads it


def test_two_titles_pinned_to_one_record_are_reported(tmp_path):
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    (root / "notes" / "n.md").write_text(
        "# ICML 2026\n\n- Paper One About Muon\n  - Authors: Ann Smith\n  - arxiv: 2601.00001\n"
        "- A Completely Different Study\n  - Authors: Bob Jones\n  - arxiv: 2601.00001\n", encoding="utf-8")
    report = api.sync(root, offline=True)
    assert any("resolve to the same record" in p for p in report.problems)


def test_an_identifier_pinned_under_a_paper_is_its_eprint_and_year_offline(tmp_path):
    """`- arxiv: ID` under an org or Markdown paper is the user saying which record it is: the
    entry built offline carries it (eprint, and the id's year when the notes give none), so
    its key has a year and BibTeX no "empty year" warning."""
    (tmp_path / "citekit.yaml").write_text("# t\n", encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "conf.org").write_text(
        "* Papers\n** LoRA: Low-Rank Adaptation of Large Language Models\n"
        "- Authors: Edward J. Hu, Yelong Shen, Phillip Wallis\n- arxiv: 2106.09685\n", encoding="utf-8")
    (tmp_path / "notes" / "md.md").write_text(
        "- Deep Residual Learning for Image Recognition\n  - Authors: Kaiming He, Xiangyu Zhang\n"
        "  - doi: 10.1109/CVPR.2016.90\n", encoding="utf-8")
    api.sync(tmp_path, offline=True)
    entries = Library.load(tmp_path / "refs").entries
    lora = next(e for e in entries.values() if "LoRA" in e.fields.get("title", ""))
    assert lora.fields.get("eprint") == "2106.09685" and lora.fields.get("year") == "2021", lora.fields
    assert lora.key == "hu2021lora"
    resnet = next(e for e in entries.values() if "Residual" in e.fields.get("title", ""))
    assert resnet.fields.get("doi", "").lower() == "10.1109/cvpr.2016.90", resnet.fields


def test_alternating_offline_and_unreachable_syncs_rewrite_no_reason_line(tmp_path):
    """Offline, or online with every source down: both say only that nothing was asked. A
    notes-only entry keeps the reason it had, so `git diff` shows no line changed each time the
    user switches; a new status or a real finding still writes its reason."""
    from citekit.core.model import Location
    from citekit.core.resolution import Mention, Work
    from citekit.library.update import apply_work

    (tmp_path / "citekit.yaml").write_text("# t\n", encoding="utf-8")
    lib = Library.load(tmp_path / "refs")
    mention = Mention(kind="titled", location=Location("notes/n.md", 1), title="A Paper Nobody Looked Up",
                      authors=["Ada Lovelace"], year=2020)
    key = apply_work(lib, Work(mentions=[mention], reason="offline: built from the notes")).key
    apply_work(lib, Work(mentions=[mention], reason="no source could be asked about this title; crossref unreachable"))
    assert lib.entries[key].reason == "offline: built from the notes"
    apply_work(lib, Work(mentions=[mention], reason="no source knows this title"))
    assert lib.entries[key].reason == "no source knows this title"
