"""Re-importing real Better BibTeX exports (shared/corpora, read in place; skipped when absent).

The large export is a real 3,725-item library; a copy is edited the way Zotero re-exports
it after edits there (a changed booktitle, pages added, a changed title, an item deleted,
each edited item with a new ``date-modified``). Better BibTeX's own before/after fixtures
of an auto-export are re-imported as they are.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citekit.api.dedup import import_bib
from citekit.library.store import Library

REPO = Path(__file__).resolve().parents[1]
BBT = REPO.parent / "shared" / "corpora" / "zotero-bbt-export"

pytestmark = pytest.mark.corpora


def corpus(name: str) -> Path:
    path = BBT / name
    if not path.exists():
        pytest.skip(f"the real Better BibTeX exports were not found at {path} (they live beside the repository "
                    "in shared/corpora/zotero-bbt-export)")
    return path


def project(tmp_path: Path) -> Path:
    (tmp_path / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    return tmp_path


def block(text: str, key: str) -> str:
    """One entry of the export, as Better BibTeX writes it (from ``@type{key,`` to the closing line)."""
    found = re.search(r"^@\w+\{" + re.escape(key) + r",\n.*?^\}\n", text, re.M | re.S)
    assert found, key
    return found.group()


def edited(text: str, key: str, old: str, new: str) -> str:
    """``text`` with one line of ``key``'s entry changed, and its ``date-modified`` moved on,
    as Zotero's next auto-export writes an item edited there."""
    entry = block(text, key)
    assert old in entry, (key, old)
    changed = re.sub(r"date-modified = \{[^}]*\}", "date-modified = {2026-12-05T09:00:00GMT}", entry.replace(old, new))
    return text.replace(entry, changed)


def test_a_real_better_bibtex_library_reexported_after_edits_in_zotero(tmp_path: Path) -> None:
    root = project(tmp_path)
    export = root / "My Library.bib"
    original = corpus("Cache does not seem to fill #1296.bibtex").read_text(encoding="utf-8")
    export.write_text(original, encoding="utf-8")
    import_bib([export], start=root)
    refs = root / "refs"
    before = {k: (e.entry_type, dict(e.fields), e.status) for k, e in Library.load(refs).entries.items()}
    assert len(before) == 3725

    # in citekit the user corrects a publisher by hand; in Zotero someone corrects it otherwise
    bib = refs / "library.bib"
    mine = bib.read_text(encoding="utf-8")
    entry = block(mine, "Abdelrahman:2015bs")
    bib.write_text(mine.replace(entry, entry.replace("{ACM Press}", "{ACM}")), encoding="utf-8")
    text = original
    text = edited(text, "Abawi:2004ks", "booktitle = {Third {{IEEE}} and {{ACM}} International Symposium on Mixed "
                  "and Augmented Reality}", "booktitle = {Proceedings of the Third {{IEEE}} and {{ACM}} International "
                  "Symposium on Mixed and Augmented Reality ({{ISMAR}} 2004)}")
    text = edited(text, "AbdulKudus:2016te", "  year = 2016,\n", "  year = 2016,\n  pages = {1--8},\n")
    text = edited(text, "Abdulla:2003p3896", "title = {Cross-Words", "title = {Cross-Word")
    text = edited(text, "Abowd:2000jo", "author = {", "author = {")  # touched in Zotero, nothing else changed
    text = edited(text, "Abdelrahman:2015bs", "publisher = {ACM Press}", "publisher = {Association for Computing Machinery}")
    text = text.replace(block(text, "Amemiya:1999ut"), "")
    export.write_text(text, encoding="utf-8")

    _, dry = import_bib([export], dry_run=True, start=root)
    report = dry.report
    changes = {(c.key, c.field, c.new) for c in report.updated if c.field != "date-modified"}
    assert changes == {
        ("Abawi:2004ks", "booktitle", "Proceedings of the Third {{IEEE}} and {{ACM}} International Symposium on "
         "Mixed and Augmented Reality ({{ISMAR}} 2004)"),
        ("AbdulKudus:2016te", "pages", "1--8"),
        ("Abdulla:2003p3896", "title", before["Abdulla:2003p3896"][1]["title"].replace("Cross-Words", "Cross-Word")),
    }
    touched = {"Abawi:2004ks", "AbdulKudus:2016te", "Abdulla:2003p3896", "Abowd:2000jo", "Abdelrahman:2015bs"}
    assert {c.key for c in report.updated if c.field == "date-modified"} == touched
    assert [(c.key, c.field, c.old, c.new) for c in report.kept] == [
        ("Abdelrahman:2015bs", "publisher", "ACM", "Association for Computing Machinery")]
    assert report.gone == [("Amemiya:1999ut", "My Library.bib", "Amemiya:1999ut")]
    assert report.added == [] and report.skipped == [] and report.candidates == []
    assert report.unchanged == 3724 - len(touched)
    assert {k: (e.entry_type, e.fields) for k, e in Library.load(refs).entries.items()}["Abawi:2004ks"] == \
        before["Abawi:2004ks"][:2]  # a dry run wrote nothing

    import_bib([export], start=root)
    after = {k: (e.entry_type, dict(e.fields), e.status) for k, e in Library.load(refs).entries.items()}
    assert set(after) == set(before)  # the deleted item is reported, not deleted
    assert after["Abawi:2004ks"][1]["booktitle"].startswith("Proceedings of the Third")
    assert after["AbdulKudus:2016te"][1]["pages"] == "1--8"
    assert after["Abdulla:2003p3896"][1]["title"].startswith("Cross-Word Reference")
    assert after["Abdelrahman:2015bs"][1]["publisher"] == "ACM"  # the user's edit stands
    for key in set(before) - touched:
        assert after[key] == before[key], key
    assert all(after[k][2] == before[k][2] for k in before)  # statuses untouched

    _, again = import_bib([export], start=root)
    assert again.report.updated == [] and again.report.kept == [] and again.report.unchanged == 3724


def test_better_bibtexs_own_auto_export_before_and_after(tmp_path: Path) -> None:
    """BBT's fixture of an auto-export whose DOI setting changed: the DOI goes, a URL comes."""
    root = project(tmp_path)
    export = root / "auto.bib"
    export.write_text(corpus("Auto-Export ignores DOIURL settings #2573.before.bibtex").read_text(encoding="utf-8"),
                      encoding="utf-8")
    import_bib([export], start=root)
    export.write_text(corpus("Auto-Export ignores DOIURL settings #2573.after.bibtex").read_text(encoding="utf-8"),
                      encoding="utf-8")
    _, outcome = import_bib([export], start=root)
    assert [(c.key, c.field, c.old, c.new) for c in outcome.report.updated] == [
        ("radler_integration_2022", "url", None, "https://ieeexplore.ieee.org/document/9976107/"),
        ("radler_integration_2022", "doi", "10.1109/INDIN51773.2022.9976107", None)]
    fields = Library.load(root / "refs").entries["radler_integration_2022"].fields
    assert "doi" not in fields and fields["url"] == "https://ieeexplore.ieee.org/document/9976107/"


def test_a_citation_key_edited_in_zotero_is_an_alias_not_a_removed_entry(tmp_path: Path) -> None:
    """BBT's fixture of an auto-export after the user pinned another citation key."""
    root = project(tmp_path)
    export = root / "auto.bib"
    export.write_text(corpus("Auto-Export citekey edits #citekey-edit.before.bibtex").read_text(encoding="utf-8"),
                      encoding="utf-8")
    import_bib([export], start=root)
    export.write_text(corpus("Auto-Export citekey edits #citekey-edit.pinned.bibtex").read_text(encoding="utf-8"),
                      encoding="utf-8")
    _, outcome = import_bib([export], start=root)
    assert outcome.report.gone == [] and outcome.report.added == []
    lib = Library.load(root / "refs")
    assert list(lib.entries) == ["radler_integration_2022"]
    assert lib.get("edited").key == "radler_integration_2022"  # the new key cites the same entry
    assert lib.entries["radler_integration_2022"].import_record["key"] == "edited"
