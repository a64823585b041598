"""Reading and importing real .bib files (shared/corpora, read-only; skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.bibtex.reader import read_bib_file

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"

pytestmark = pytest.mark.corpora


def corpus(rel: str) -> Path:
    path = CORPORA / rel
    if not path.exists():
        pytest.skip(f"real corpora not found at {path} (they live beside the repository in shared/corpora)")
    return path


def _by_key(rel: str) -> dict:
    return {e.key: e for e in read_bib_file(corpus(rel)).entries}


def test_aima4e_nested_macros_are_expanded() -> None:
    entries = _by_key("aima4e/aima4e.bib")
    amarel = entries["Amarel:1968"]
    assert amarel.fields["publisher"] == "Elsevier"  # mi3-pub = elsevier = "Elsevier"
    assert amarel.fields["booktitle"] == "Machine Intelligence~3"
    assert not any(" # " in v for e in entries.values() for v in e.fields.values())


def test_aima4e_repeated_strings_are_not_called_skipped_entries() -> None:
    result = read_bib_file(corpus("aima4e/aima4e.bib"))
    messages = [p.message for p in result.problems]
    assert "@string 'siam' defined twice; the later definition wins (delete one of them to silence this)" in messages
    assert not any("duplicate key 'siam'" in m for m in messages)


def test_thesis_month_ranges_are_evaluated() -> None:
    entries = _by_key("thesis-gowda/anthology.bib")
    months = {e.fields.get("month") for e in entries.values()}
    assert "October-November" in months
    assert not any('"' in (m or "") or "#" in (m or "") for m in months)


ENCODINGS = "jabref-test-bib/jablib/src/test/resources/org/jabref/logic/importer/fileformat"


@pytest.mark.parametrize("name", ["encoding-windows-1252-with-header.bib", "encoding-windows-1252-without-header.bib"])
def test_jabref_windows_1252_files_read_without_control_characters(name: str) -> None:
    result = read_bib_file(corpus(f"{ENCODINGS}/{name}"))
    assert result.entries[0].fields["abstract"] == "25\u00b0 C"
    assert result.encoding == "windows-1252"
