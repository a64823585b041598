"""citekit.matching.works: the one decision of "same work", "versions of one work" and "which version"."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citekit.matching import works
from citekit.cli import main
from citekit.bibtex.reader import parse_bib_text
from citekit.library.dedup import analyse
from citekit.library.merge import merge_entries
from citekit.library.store import Library
from citekit.core.model import Entry, Ids


def e(key: str, kind: str = "article", ids: Ids | None = None, **fields: str) -> Entry:
    return Entry(key=key, entry_type=kind, fields=fields, ids=ids or Ids())


def kind_of(a: Entry, b: Entry, *parents: Entry) -> str | None:
    verdict = works.same_work(a, b, parents)
    return verdict.kind if verdict else None


BOOK = dict(booktitle="Handbook of Optimization", publisher="Springer", year="2019",
            editor="Boyd, Stephen")


def test_chapters_of_one_book_are_different_works() -> None:
    a = e("c1", "incollection", author="Nocedal, Jorge", title="Quasi-Newton Methods", chapter="3", **BOOK)
    b = e("c2", "incollection", author="Nocedal, Jorge", title="Quasi-Newton Methods", chapter="4", **BOOK)
    assert kind_of(a, b) is None


def test_page_ranges_of_one_collection_are_different_works() -> None:
    a = e("p1", "inproceedings", author="Lee, Ann", title="Invited Talk", booktitle="Proc. SODA", year="2020", pages="1--2")
    b = e("p2", "inproceedings", author="Lee, Ann", title="Invited Talk", booktitle="Proc. SODA", year="2020", pages="77--78")
    assert kind_of(a, b) is None
    # the same paper with its pages written differently is one work
    c = e("p3", "inproceedings", author="Lee, Ann", title="Invited Talk", booktitle="Proc. SODA", year="2020", pages="1-2")
    assert kind_of(a, c) == "same"


def test_records_that_agree_on_all_they_have_are_the_same() -> None:
    assert kind_of(e("a1", author="Bob, Billy"), e("a2", author="Bob, Billy")) == "same"
    assert kind_of(e("a1", author="Bob, Billy"), e("a2", author="Joyce, James")) is None
    assert kind_of(e("a1", author="Bob, Billy"), e("a2", "book", author="Bob, Billy")) is None


def test_files_that_differ_only_in_line_endings_give_the_same_entry() -> None:
    unix = "@article{k,\n  title = {Deep\n  Learning},\n  author = {LeCun, Yann},\n  year = 2015\n}\n"
    (a,) = parse_bib_text(unix, "a.bib").entries
    (b,) = parse_bib_text(unix.replace("\n", "\r\n"), "b.bib").entries
    b.key = "k2"
    assert works.same_work(a, b).reason == "identical entries"


def test_erratum_thesis_parts_and_volumes_stay_apart() -> None:
    paper = e("p", author="Ng, A. and Jordan, M.", title="On Discriminative vs. Generative Classifiers",
              journal="JMLR", year="2002", volume="3")
    assert kind_of(paper, e("q", author="Ng, A. and Jordan, M.", title="Erratum: On Discriminative vs. Generative Classifiers",
                            journal="JMLR", year="2002")) is None
    assert kind_of(paper, e("t", "phdthesis", author="Ng, A.", title="On Discriminative vs. Generative Classifiers",
                            school="Stanford", year="2002")) is None
    assert kind_of(e("v1", author="Knuth, D.", title="The Art of Computer Programming", journal="X", volume="1", year="1968"),
                   e("v2", author="Knuth, D.", title="The Art of Computer Programming", journal="X", volume="2", year="1968")) is None
    assert kind_of(e("b1", "book", author="Russell, S.", title="Artificial Intelligence", edition="3", publisher="P", year="2010"),
                   e("b2", "book", author="Russell, S.", title="Artificial Intelligence", edition="4", publisher="P", year="2010")) is None


def test_a_shared_identifier_with_another_title_is_stale_and_reported_not_merged() -> None:
    doi = Ids(doi="10.1000/x1")
    a = e("a", ids=doi, author="Smith, J.", title="Spectral methods for sparse graphs", year="2020")
    b = e("b", ids=doi, author="Doe, K.", title="A survey of protein folding", year="2020")
    found = analyse([a, b])
    assert found.clusters == []
    (stale,) = found.stale_ids
    assert stale.keys == ["a", "b"] and "10.1000/x1" in stale.reason


def test_crossref_parents_give_the_venue_and_year_that_are_compared() -> None:
    parent = e("ICML2020", "proceedings", title="Proceedings of the 37th International Conference on Machine Learning",
               year="2020")
    child = e("x", "inproceedings", author="Kim, H.", title="Sharp Minima", crossref="ICML2020")
    later = e("y", "article", author="Kim, H.", title="Sharp Minima", journal="JMLR", year="2023")
    assert kind_of(child, later, parent) == "versions"  # two publications three years apart
    assert works.entry_stage(child, works.inherited_fields(child, {"icml2020": parent})) == "published"


def test_biblatex_journaltitle_and_date_are_read_as_journal_and_year() -> None:
    a = e("a", author="Li, X.", title="Muon at Scale", journaltitle="TMLR", date="2025-03-01")
    b = e("b", author="Li, X.", title="Muon at scale", journal="TMLR", year="2025")
    assert kind_of(a, b) == "same"


def test_a_workshop_paper_and_the_conference_paper_are_versions() -> None:
    ws = e("w", "inproceedings", author="Xie, T. and Luo, H.", title="Controlled Training on Spectral Spheres",
           booktitle="ICML 2025 Workshop on High-dimensional Learning Dynamics", year="2025")
    conf = e("c", "inproceedings", author="Xie, T. and Luo, H.", title="Controlled Training on Spectral Spheres",
             booktitle="Forty-third International Conference on Machine Learning", year="2026")
    assert kind_of(ws, conf) == "versions"
    found = analyse([ws, conf])
    assert found.clusters == [] and found.versions[0].kept == "c"


def test_resolve_precedence_reaches_merges() -> None:
    pre = e("pre", "misc", author="Ba, J.", title="Adam Revisited", eprint="2001.00001", archiveprefix="arXiv", year="2020")
    pub = e("pub", "inproceedings", author="Ba, J.", title="Adam Revisited", booktitle="ICLR", year="2020")
    assert works.choose_survivor([pre, pub]).key == "pub"
    assert works.choose_survivor([pre, pub], ["preprint", "published"]).key == "pre"
    assert merge_entries([pre, pub], precedence=["preprint", "published"]).entry.key == "pre"
    assert analyse([pre, pub], precedence=["preprint", "published"]).clusters[0].kept == "pre"


def test_the_cleaner_record_of_one_stage_survives() -> None:
    broken = e("g1", author="Grinblat, G.", title="High-e Ffi Ciency Second Harmonic Generation", journal="Nano Lett.",
               year="2014", volume="ASAP")
    clean = e("g2", author="Grinblat, G.", title="High Efficiency Second Harmonic Generation", journal="Nano Lett.",
              year="2014", volume="14", pages="6660--6665")
    assert works.broken_words(broken.title) >= 2 and works.broken_words(clean.title) == 0
    assert works.choose_survivor([broken, clean]).key == "g2"


# ---- import --------------------------------------------------------------------------------

STRINGS = '@string{jmlr = "Journal of Machine Learning Research"}\n'
FILE_A = """@article{one, author = {Roe, R.}, title = {Sparse Coding at Scale}, journal = jmlr, year = 2020}
@article{two, author = {Poe, P.}, title = {Dense Coding}, journal = jmlr, year = 2021}
"""
FILE_B = """@article{one, author = {Roe, R.}, title = {Sparse Coding at Scale}, journal = jmlr, year = 2020}
@inproceedings{onebis, author = {Roe, R.}, title = {Sparse coding at scale}, booktitle = {arXiv preprint}, year = 2019}
@misc{three, author = {Zoe, Z.}, title = {Third}, note = nosuch # " x", year = 2022}
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    for name, text in (("strings.bib", STRINGS), ("a.bib", FILE_A), ("b.bib", FILE_B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), "import", *args], catch_exceptions=False)


def test_import_dry_run_prints_everything_and_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    res = _run(root, "--strings", str(root / "strings.bib"), str(root / "a.bib"), str(root / "b.bib"), "--dry-run")
    assert res.exit_code == 1  # findings: a skipped entry, a candidate, an undefined macro
    assert not (root / "refs").exists() or not any((root / "refs").iterdir())
    out = res.stdout
    assert "would add one" in out and "would add two" in out and "would add three" in out
    assert "would skip one (identical to one)" in out
    assert "same work? one, onebis" in out
    assert "nothing was written (dry run)" in out
    assert "field 'note': undefined macro 'nosuch'" in res.stderr and "b.bib:3" in res.stderr


def test_import_shares_strings_in_order_and_merges_only_when_asked(tmp_path: Path) -> None:
    root = _project(tmp_path)
    res = _run(root, str(root / "strings.bib"), str(root / "a.bib"), "--json")
    data = json.loads(res.stdout)
    assert data["added"] == ["one", "two"] and data["skipped"] == [] and res.exit_code == 0
    lib = Library.load(root / "refs")
    assert lib.entries["two"].fields["journal"] == "Journal of Machine Learning Research"
    res = _run(root, "--strings", str(root / "strings.bib"), str(root / "b.bib"), "--merge", "--json")
    data = json.loads(res.stdout)
    assert data["skipped"] == [{"key": "one", "duplicate_of": "one"}]
    assert data["merged"] == [{"keys": ["onebis"], "kept": "one", "reason": data["merged"][0]["reason"]}]
    lib = Library.load(root / "refs")
    assert set(lib.entries) == {"one", "two", "three"} and lib.get("onebis").key == "one"


def test_dedup_lists_versions_apart_and_merges_them_only_with_versions(tmp_path: Path) -> None:
    root = _project(tmp_path)
    lib = Library.load(root / "refs")
    lib.add(Entry(key="xie2025ws", entry_type="inproceedings", fields={
        "title": "Controlled Training on Spectral Spheres", "author": "Xie, Tian and Luo, Haoming", "year": "2025",
        "booktitle": "ICML 2025 Workshop on High-dimensional Learning Dynamics"}))
    lib.add(Entry(key="xie2026icml", entry_type="inproceedings", fields={
        "title": "Controlled Training on Spectral Spheres", "author": "Xie, Tian and Luo, Haoming", "year": "2026",
        "booktitle": "Forty-third International Conference on Machine Learning", "pages": "1--12"}))
    lib.save()
    runner = CliRunner()
    listed = runner.invoke(main, ["-C", str(root), "dedup", "--json"], catch_exceptions=False)
    data = json.loads(listed.stdout)
    assert data["clusters"] == [] and data["versions"][0]["kept"] == "xie2026icml"
    applied = runner.invoke(main, ["-C", str(root), "dedup", "--apply"], catch_exceptions=False)
    assert set(Library.load(root / "refs").entries) == {"xie2025ws", "xie2026icml"}  # versions kept apart
    assert applied.exit_code == 0
    runner.invoke(main, ["-C", str(root), "dedup", "--apply", "--versions"], catch_exceptions=False)
    after = Library.load(root / "refs")
    assert list(after.entries) == ["xie2026icml"] and after.get("xie2025ws").key == "xie2026icml"
    entry = after.entries["xie2026icml"]
    assert entry.fields["year"] == "2026" and entry.fields["booktitle"].startswith("Forty-third")
