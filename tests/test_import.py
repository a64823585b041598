"""Importing .bib files: keys kept, taken keys suffixed, known works merged, nothing lost."""

from __future__ import annotations

from pathlib import Path

from citekit.library.importer import free_key, import_entries, import_files
from citekit.library.store import Library
from citekit.core.model import Entry, Ids

PAPER_BIB = r"""
@inproceedings{kingma2015adam,
  title = {Adam: A Method for Stochastic Optimization},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  booktitle = {International Conference on Learning Representations},
  year = {2015},
}

@article{smith2020,
  title = {A completely different paper about graphs},
  author = {Smith, Alice},
  journal = {Journal of Graphs},
  year = {2020},
}

@article{adampre,
  title = {Adam: a method for stochastic optimization},
  author = {Diederik Kingma and Jimmy Ba},
  journal = {arXiv preprint arXiv:1412.6980},
  year = {2014},
}

@misc{fresh2024,
  title = {Something new entirely},
  author = {Doe, Jane},
  year = {2024},
}
"""


def library(tmp_path: Path) -> Library:
    lib = Library.load(tmp_path / "refs")
    lib.add(Entry(key="smith2020", entry_type="article",
                  fields={"title": "Spectral methods for sparse matrices", "author": "Smith, Bob", "year": "2020",
                          "journal": "SIAM J. Matrix Anal."}))
    lib.add(Entry(key="kingma2014adam", entry_type="article",
                  fields={"title": "Adam: A Method for Stochastic Optimization", "author": "Kingma, D. P. and Ba, J.",
                          "year": "2014", "journal": "arXiv preprint arXiv:1412.6980"},
                  ids=Ids(arxiv="1412.6980"), hand=["title"]))
    return lib


def test_import_keeps_keys_suffixes_taken_ones_and_merges_known_works(tmp_path: Path) -> None:
    lib = library(tmp_path)
    bib = tmp_path / "paper.bib"
    bib.write_text(PAPER_BIB, encoding="utf-8")
    report = import_files(lib, [bib], merge=True)

    # a new work keeps its key
    assert lib.entries["fresh2024"].title == "Something new entirely"
    # smith2020 belongs to another work: the import gets a suffix and a key-map line
    assert lib.entries["smith2020"].fields["author"] == "Smith, Bob"
    assert lib.entries["smith2020a"].title == "A completely different paper about graphs"
    assert report.renamed == {"smith2020": "smith2020a"}
    assert report.import_map["smith2020"] == "smith2020a"
    # both Adam records are the library's work: merged into the library key, old keys kept as aliases
    adam = lib.entries["kingma2014adam"]
    assert "kingma2015adam" not in lib.entries and "adampre" not in lib.entries
    assert set(adam.aliases) == {"kingma2015adam", "adampre"}
    assert lib.get("kingma2015adam") is adam
    assert adam.fields["booktitle"] == "International Conference on Learning Representations"  # best version's fields
    assert adam.fields["year"] == "2015"
    assert report.import_map["kingma2015adam"] == "kingma2014adam"
    assert report.key_map == {}  # no library key stopped being a key


def test_import_survives_a_round_trip_through_the_files(tmp_path: Path) -> None:
    lib = library(tmp_path)
    bib = tmp_path / "paper.bib"
    bib.write_text(PAPER_BIB, encoding="utf-8")
    import_files(lib, [bib], merge=True)
    lib.save()
    again = Library.load(tmp_path / "refs")
    assert set(again.entries) == {"smith2020", "smith2020a", "kingma2014adam", "fresh2024"}
    assert again.get("adampre").key == "kingma2014adam"
    assert {"kingma2015adam", "adampre"} <= again.issued_keys
    # a second import of the same file changes nothing
    before = (tmp_path / "refs" / "library.bib").read_bytes()
    import_files(again, [bib])
    again.save()
    assert (tmp_path / "refs" / "library.bib").read_bytes() == before


def test_two_records_of_one_work_in_one_import_become_one_entry(tmp_path: Path) -> None:
    lib = Library.load(tmp_path / "refs")
    a = Entry(key="b2", entry_type="article", fields={"title": "Gradient descent converges", "author": "Ng, A.",
                                                      "year": "2019", "journal": "arXiv preprint arXiv:1901.00001"})
    b = Entry(key="b1", entry_type="inproceedings", fields={"title": "Gradient Descent Converges", "author": "Ng, Andrew",
                                                            "year": "2019", "booktitle": "COLT"})
    report = import_entries(lib, [a, b], source="x.bib", merge=True)
    assert list(lib.entries) == ["b1"] and lib.entries["b1"].aliases == ["b2"]
    assert report.import_map == {"b2": "b1"}


def test_free_key_is_deterministic_and_case_insensitive() -> None:
    assert free_key("smith2020", set()) == "smith2020"
    assert free_key("smith2020", {"Smith2020", "smith2020a"}) == "smith2020b"


IDS_AND_KEYWORDS_BIB = r"""
@article{Abdollahi2018,
  ids = {abdollahi_2018, Abd2018old, abd\_2018x},
  title = {Quantum dots on nanowires},
  author = {Abdollahi, Ali},
  journal = {Nano Letters},
  year = {2018},
  keywords = {Nanowires; quantum dots, Bad{Tag}},
}

@article{other2019,
  ids = {Abd2018old, smith2020},
  title = {Something else},
  author = {Other, Olga},
  journal = {Physics},
  year = {2019},
}
"""


def test_imported_ids_become_aliases_and_keywords_become_tags(tmp_path: Path) -> None:
    lib = library(tmp_path)
    bib = tmp_path / "zotero.bib"
    bib.write_text(IDS_AND_KEYWORDS_BIB, encoding="utf-8")
    report = import_files(lib, [bib], merge=True)
    lib.save()
    lib = Library.load(tmp_path / "refs")
    entry = lib.get("abdollahi_2018")
    assert entry is not None and entry.key == "Abdollahi2018"
    assert lib.get("Abd2018old").key == "Abdollahi2018"
    assert lib.get("abd_2018x").key == "Abdollahi2018"  # Better BibTeX escapes '_' in ids
    assert entry.tags_added == ["Nanowires", "quantum dots"]  # as written; Bad{Tag} cannot be a keyword: skipped
    # the second record's aliases belong to others already: skipped and reported
    assert lib.entries["other2019"].aliases == []
    messages = [p.message for p in report.problems]
    assert any("alias 'Abd2018old' of 'other2019' skipped" in m and "'Abdollahi2018'" in m for m in messages)
    assert any("alias 'smith2020' of 'other2019' skipped" in m for m in messages)


def test_unsafe_keys_are_renamed_and_mapped_not_fatal(tmp_path: Path) -> None:
    lib = Library.load(tmp_path / "refs")
    bib = tmp_path / "aima.bib"
    bib.write_text("@inproceedings{O'Reilly+Oppacher:1994, title = {Program search}, author = {O'Reilly, Una-May},"
                   " booktitle = {PPSN}, year = {1994}}\n"
                   "@misc{[NOTITLE]2017, title = {Untitled}, author = {Doe, Jane}, year = {2017}}\n"
                   "@misc{OReilly+Oppacher:1994, title = {Another paper}, author = {Roe, Rita}, year = {1994}}\n",
                   encoding="utf-8")
    report = import_files(lib, [bib], merge=True)
    lib.save()  # must not raise: every key can be written
    # the file's own clean key is cited as it is: the key that must change anyway takes the suffix
    assert report.unsafe_keys == {"O'Reilly+Oppacher:1994": "OReilly+Oppacher:1994a", "[NOTITLE]2017": "NOTITLE2017"}
    assert report.import_map["O'Reilly+Oppacher:1994"] == "OReilly+Oppacher:1994a"
    assert report.renamed == {}
    saved = Library.load(tmp_path / "refs")
    assert saved.entries["OReilly+Oppacher:1994a"].title == "Program search"
    assert saved.entries["OReilly+Oppacher:1994"].title == "Another paper"


def test_merges_within_the_file_are_not_counted_as_already_present(tmp_path: Path) -> None:
    lib = library(tmp_path)
    bib = tmp_path / "paper.bib"
    bib.write_text(PAPER_BIB + r"""
@article{graphpre,
  title = {Something new entirely},
  author = {Doe, Jane},
  journal = {arXiv preprint arXiv:2401.00001},
  year = {2024},
}
""", encoding="utf-8")
    report = import_files(lib, [bib], merge=True)
    assert [into for _keys, into, _r in report.merged] == ["kingma2014adam"]
    # the preprint is a better version than the bare @misc, so its key survives
    assert [(keys, into) for keys, into, _r in report.merged_in_file] == [(["fresh2024", "graphpre"], "graphpre")]
    assert lib.entries["graphpre"].origin == "import"
