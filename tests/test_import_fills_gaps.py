"""An import that meets a work the library already has fills what the library's record lacks.

A user's library entry written from a thin record (no pages, authors as initials) and an
import of a fuller record of the same work: the import is skipped as the same work, yet the
library's entry gets the pages and the names written in full. The user's own values are
never replaced, and a merge prefers names written in full unless the user edited them.
"""

from __future__ import annotations

from pathlib import Path

from citekit.core.model import Entry
from citekit.library.importer import import_files
from citekit.library.merge import fill_gaps, merge_entries
from citekit.library.store import Library
from citekit.matching.people import written_more_fully

THIN = Entry(key="lovelace1843notes", entry_type="article",
             fields={"title": "Notes on the Analytical Engine of Charles Babbage", "author": "A. Lovelace and L. F. Menabrea",
                     "journal": "Scientific Memoirs", "year": "1843"})

FULL_BIB = r"""
@article{lovelace1843notes,
  title = {Notes on the Analytical Engine of Charles Babbage},
  author = {Ada Lovelace and Luigi Federico Menabrea},
  journal = {Scientific Memoirs},
  year = {1843},
  volume = {3},
  pages = {666--731},
}
"""


def _thin(**changes: object) -> Entry:
    entry = Entry(key=THIN.key, entry_type=THIN.entry_type, fields=dict(THIN.fields))
    for name, value in changes.items():
        setattr(entry, name, value)
    return entry


def _library(tmp_path: Path, entry: Entry) -> Library:
    lib = Library.load(tmp_path / "refs")
    lib.add(entry)
    return lib


def test_a_skipped_import_of_the_same_work_fills_the_library_entry(tmp_path: Path) -> None:
    lib = _library(tmp_path, _thin())
    bib = tmp_path / "full.bib"
    bib.write_text(FULL_BIB, encoding="utf-8")
    report = import_files(lib, [bib])
    assert report.skipped == [("lovelace1843notes", "lovelace1843notes")] and not report.added
    entry = lib.entries["lovelace1843notes"]
    assert entry.fields["pages"] == "666--731" and entry.fields["volume"] == "3"
    assert entry.fields["author"] == "Ada Lovelace and Luigi Federico Menabrea"
    assert report.filled == [("lovelace1843notes", "lovelace1843notes", ["volume", "pages", "author"])]
    assert report.to_json()["filled"][0]["fields"] == ["volume", "pages", "author"]


def test_the_users_own_values_are_never_replaced_by_an_import(tmp_path: Path) -> None:
    edited = _thin(hand=["author", "pages"])  # the user wrote the initials, and deleted the pages
    lib = _library(tmp_path, edited)
    bib = tmp_path / "full.bib"
    bib.write_text(FULL_BIB, encoding="utf-8")
    report = import_files(lib, [bib])
    entry = lib.entries["lovelace1843notes"]
    assert entry.fields["author"] == "A. Lovelace and L. F. Menabrea" and "pages" not in entry.fields
    assert entry.fields["volume"] == "3" and report.filled[0][2] == ["volume"]


def test_a_preprint_met_again_gives_no_venue_fields_to_the_paper() -> None:
    paper = _thin()
    preprint = Entry(key="x", entry_type="misc", fields={"title": THIN.title, "author": THIN.fields["author"],
                                                         "year": "1842", "howpublished": "preprint",
                                                         "pages": "1--40", "abstract": "On the engine."})
    assert fill_gaps(paper, preprint) == ["abstract"] and "pages" not in paper.fields


def test_a_merge_takes_names_written_in_full_unless_the_user_edited_them() -> None:
    full = Entry(key="other", entry_type="article", fields={**THIN.fields, "author": "Ada Lovelace and Luigi Federico Menabrea"})
    merged = merge_entries([_thin(), full], key=THIN.key).entry
    assert merged.fields["author"] == "Ada Lovelace and Luigi Federico Menabrea"
    kept = merge_entries([_thin(hand=["author"]), full], key=THIN.key).entry
    assert kept.fields["author"] == "A. Lovelace and L. F. Menabrea"


def test_names_written_more_fully_are_the_same_people_spelled_out() -> None:
    assert written_more_fully("Lovelace, A. and Menabrea, L. F.", "Ada Lovelace and Luigi Federico Menabrea")
    assert not written_more_fully("Ada Lovelace", "A. Lovelace")  # fewer given names spelled out
    assert not written_more_fully("A. Lovelace", "Ada Lovelace and Charles Babbage")  # another list
    assert not written_more_fully("A. Lovelace", "Bea Lovelace")  # another person
    assert not written_more_fully("J. G{\\\"o}del", "Jan Godel")  # the accent the library has would be lost
    assert written_more_fully("A. Lovelace and others", "Ada Lovelace and others")
    assert not written_more_fully("Lovelace, A. A.", "Lovelace, AA")  # initials in capitals are no fuller
    assert written_more_fully("Lovelace, AA", "Lovelace, Ada A.")
