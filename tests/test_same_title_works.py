"""A similar title is not the same paper: mentions and library entries that share a title
but not their authors stay two works.

Two books both titled "The Commercial Paper Market" (N. D. Baxter, 1966; R. A. Foulke and
C. Roy, 1931), written as two references in one notes file, are two works, each with its
own authors and year; an entry "X" by one author and an entry "X: A Second Look" by the
same author and another are two entries after import and dedup. The mentions of one paper
written in different places (one with authors and one title only, "et al.", initials, a
conference page and a reading list) are still one work, and a user's shortened title still
merges.
"""

from __future__ import annotations

from pathlib import Path

from citekit import api
from citekit.library.store import Library


def _project(tmp_path: Path, text: str) -> Path:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text(text, encoding="utf-8")
    (tmp_path / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    return tmp_path


def _entries(root: Path) -> list[tuple[str, str]]:
    lib = Library.load(root / "refs")
    return sorted((e.fields.get("author", ""), e.fields.get("year", "")) for e in lib.entries.values())


# ---- notes: mentions grouped into works ------------------------------------------------------

BOOKS = """# Reading list

1. Baxter, N. D. (1966). The Commercial Paper Market. Boston: Bankers Publishing.
2. Foulke, R. A., & Roy, C. (1931). The Commercial Paper Market. New York: Bankers Publishing.
"""


def test_two_books_with_one_title_by_other_authors_are_two_works(tmp_path):
    root = _project(tmp_path, BOOKS)
    report = api.sync(root, offline=True)
    assert report.works == 2
    assert _entries(root) == [("Baxter, N. D.", "1966"), ("Foulke, R. A. and Roy, C.", "1931")]
    assert not api.sync(root, offline=True).changed


def test_the_title_alone_beside_two_works_of_that_title_joins_neither(tmp_path):
    # which of the two books the bare title means is not known: a work of its own (it has no
    # author, so it waits under pending), never the Baxter or the Foulke entry
    root = _project(tmp_path, BOOKS + "\n- \"The Commercial Paper Market\"\n")
    report = api.sync(root, offline=True)
    assert report.works == 3
    assert _entries(root) == [("Baxter, N. D.", "1966"), ("Foulke, R. A. and Roy, C.", "1931")]
    assert len(report.pending) == 1


def test_one_title_decades_apart_by_the_same_first_author_and_others_is_two_works(tmp_path):
    root = _project(tmp_path, "- Money and Credit in Rural Markets — Alice Marsh, Tom Kell (1958)\n"
                              "- Money and Credit in Rural Markets — Alice Marsh, Ruth Penn, Joe Ward (1994)\n")
    assert api.sync(root, offline=True).works == 2
    assert [year for _a, year in _entries(root)] == ["1958", "1994"]


def test_one_paper_written_in_different_places_is_still_one_work(tmp_path):
    root = _project(tmp_path, "# ICML 2026\n\n"
                              "- Sparse Adapters for Continual Learning — Hana Kim, Priya Raman, Omar Haddad (ICML 2026)\n\n"
                              "# Reading list\n\n"
                              "- Sparse Adapters for Continual Learning — H. Kim, P. Raman, O. Haddad, 2025\n"
                              "- Sparse Adapters for Continual Learning — Hana Kim et al.\n"
                              "- Sparse adapters for continual learning\n")
    report = api.sync(root, offline=True)
    assert report.works == 1
    (entry,) = Library.load(root / "refs").entries.values()
    assert entry.fields["author"] == "Kim, Hana and Raman, Priya and Haddad, Omar"


# ---- library entries: import and dedup ---------------------------------------------------------

TITLE = "Adaptive Quadrature Rules for Stiff Ordinary Differential Equations on Nonuniform Grids"
SECOND_LOOK = f"""@inproceedings{{halvorsen1987adaptive,
  title = {{{TITLE}}},
  author = {{Halvorsen, Ingrid}},
  booktitle = {{Proceedings of the Conference on Numerical Analysis}},
  year = {{1987}},
}}

@inproceedings{{halvorsen1987second,
  title = {{{TITLE}: A Second Look}},
  author = {{Halvorsen, Ingrid and Okafor, Chidi}},
  booktitle = {{Proceedings of the Conference on Numerical Analysis}},
  year = {{1987}},
}}
"""


def _library_project(tmp_path: Path) -> Path:
    (tmp_path / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (tmp_path / "notes").mkdir()
    return tmp_path


def test_a_longer_title_by_the_same_author_and_another_is_another_entry(tmp_path):
    root = _library_project(tmp_path)
    (root / "in.bib").write_text(SECOND_LOOK, encoding="utf-8")
    _, outcome = api.import_bib([root / "in.bib"], merge=True, start=root)
    lib = Library.load(root / "refs")
    assert sorted(lib.entries) == ["halvorsen1987adaptive", "halvorsen1987second"]
    assert not outcome.report.merged
    # dedup merges nothing and offers no version to merge; it lists them as related papers
    _, found = api.find_duplicates(start=root)
    assert found.found.clusters == [] and found.found.versions == []
    (related,) = found.found.related
    assert sorted(related.keys) == ["halvorsen1987adaptive", "halvorsen1987second"]
    assert "not one list" in related.reason


def test_a_shortened_title_with_the_same_authors_still_merges(tmp_path):
    root = _library_project(tmp_path)
    (root / "in.bib").write_text(
        "@article{appel1988a,\n  title = {Real-time Concurrent Garbage Collection on Stock Multiprocessors},\n"
        "  author = {Appel, Andrew W. and Ellis, John R. and Li, Kai},\n  journal = {SIGPLAN Notices},\n  year = {1988},\n}\n\n"
        "@article{appel1988b,\n  title = {Real-time Concurrent Collection on Stock Multiprocessors},\n"
        "  author = {A. W. Appel and J. R. Ellis and K. Li},\n  journal = {SIGPLAN Notices},\n  year = {1988},\n}\n\n"
        # a list cut with "and others" is the list as far as it goes
        "@article{chen2023a,\n  title = {Lion: Symbolic Discovery of Optimization Algorithms},\n"
        "  author = {Chen, Xiangning and others},\n  journal = {NeurIPS},\n  year = {2023},\n}\n\n"
        "@article{chen2023b,\n  title = {Symbolic Discovery of Optimization Algorithms},\n"
        "  author = {Chen, Xiangning and Liang, Chen and Huang, Da},\n  journal = {NeurIPS},\n  year = {2023},\n}\n",
        encoding="utf-8")
    api.import_bib([root / "in.bib"], merge=True, start=root)
    assert len(Library.load(root / "refs").entries) == 2
