"""export reuses library.bib's stored text of unchanged entries: the bytes must not change."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.api.export import render, select_for_export
from citekit.library.store import Library
from citekit.core.model import Entry

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def _entries() -> list[Entry]:
    """Varied shapes: UTF-8 and LaTeX text, tags, aliases, months, braces, odd field names."""
    out = []
    specs = [
        ("inproceedings", {"title": "Muon: {A} Fast Optimizer", "author": "Jordan, Keller and Müller, Anna",
                           "booktitle": "ICML", "year": "2024", "month": "jul"}, ["optim"], ["jordan2024old"]),
        ("article", {"title": "Ünïcödé — “quoted” text", "author": "Zoë Ågren", "journal": "J. Ω", "year": "2021",
                     "Pages": "1--10"}, [], []),
        ("misc", {"title": "Plain {\\LaTeX} and $x^2$ math", "howpublished": "\\url{https://x.org/a_b}",
                  "note": "50% off & more"}, ["b", "a"], ["zz1", "aa2"]),
        ("book", {"title": "漢字 title", "publisher": "Pub", "year": "1999", "edition": "2nd"}, [], []),
    ]
    for i, (etype, fields, tags, aliases) in enumerate(specs):
        e = Entry(key=f"key{i}_{etype}", entry_type=etype, fields=dict(fields))
        e.tags_added = list(tags)
        e.aliases = list(aliases)
        out.append(e)
    return out


def _library(refs: Path, ascii: bool) -> None:
    lib = Library.load(refs)
    lib.ascii = ascii
    for e in _entries():
        lib.add(e)
    lib.save()


@pytest.mark.parametrize("ascii", [False, True])
def test_export_from_the_cache_is_byte_identical_to_rendering(tmp_path: Path, ascii: bool) -> None:
    refs = tmp_path / "refs"
    _library(refs, ascii)
    lib = Library.load(refs)  # from the parsed-library cache, with each entry's stored text
    entries = lib.sorted_entries()
    assert all(lib.rendered_text(e, ascii) is not None for e in entries)  # reuse really happens
    selection = select_for_export(entries, None)
    for mode in (ascii, not ascii):
        assert render(selection, "bibtex", ascii=mode, header="h", library=lib) == render(selection, "bibtex", ascii=mode, header="h")


def test_changed_entry_is_rendered_again(tmp_path: Path) -> None:
    refs = tmp_path / "refs"
    _library(refs, False)
    lib = Library.load(refs)
    changed = lib.sorted_entries()[1]
    changed.fields["title"] = "A different title"
    assert lib.rendered_text(changed, False) is None
    selection = select_for_export(lib.sorted_entries(), None)
    text = render(selection, "bibtex", header="h", library=lib)
    assert "A different title" in text
    assert text == render(selection, "bibtex", header="h")


def test_cli_export_matches_a_full_render_after_a_tag(tmp_path: Path) -> None:
    refs = tmp_path / "refs"
    _library(refs, False)
    runner = CliRunner()
    key = sorted(e.key for e in _entries())[0]
    assert runner.invoke(main, ["-C", str(tmp_path), "tag", key, "+fresh"]).exit_code == 0
    out = tmp_path / "out.bib"
    assert runner.invoke(main, ["-C", str(tmp_path), "export", "-o", str(out)]).exit_code == 0
    lib = Library.load(refs)
    selection = select_for_export(lib.sorted_entries(), None)
    header = "Exported by citekit from the library. Regenerate it instead of editing it."
    assert out.read_text(encoding="utf-8") == render(selection, "bibtex", header=header)
    assert "fresh" in out.read_text(encoding="utf-8")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs the corpora beside the repository (../shared/corpora)")
def test_real_library_export_is_byte_identical(tmp_path: Path) -> None:
    source = CORPUS / "bibtex-tidy-fixtures" / "better-bibtex" / "Unabbreviate_on_import_1436-3.bib"
    if not source.exists():
        pytest.skip(f"{source.name} is not among the corpora beside the repository")
    runner = CliRunner()
    result = runner.invoke(main, ["-C", str(tmp_path), "import", str(source), "-q"])
    assert result.exit_code in (0, 1), result.output
    lib = Library.load(tmp_path / "refs")
    entries = lib.sorted_entries()
    assert sum(lib.rendered_text(e, lib.ascii) is not None for e in entries) > len(entries) // 2
    selection = select_for_export(entries, None)
    assert render(selection, "bibtex", ascii=lib.ascii, header="h", library=lib) == render(selection, "bibtex", ascii=lib.ascii, header="h")
