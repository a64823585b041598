"""``add`` of one paper costs what that paper changes, not the size of the library (issue 29).

On a library read from the parsed-library cache, with the match index a sync keeps beside
it, ``add`` of pasted BibTeX decodes a handful of entries (never all of them), reads the
library once and writes it once, and leaves the same bytes as the same ``add`` on a copy
with no cache at all (every entry parsed and indexed). A paper the library holds is named
and nothing is written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citekit import api
from citekit.library.store.cache.library import CachedLibrary
from citekit.library.journal import Transaction

PASTED = ("@article{pasted2021, title = {A Pasted Paper About Proportional Writes}, author = {Doe, Jo and Roe, Al},"
          " journal = {Journal of Bench Letters}, year = {2021}}")


def _bib(n: int) -> str:
    return "\n".join(f"@article{{k{i:03d},\n  title = {{Distinct study of topic {i} in depth}},\n"
                     f"  author = {{Lee, Ann and Park, Bo}},\n  journal = {{Journal {i % 3}}},\n"
                     f"  year = {{{2000 + i % 20}}},\n}}\n" for i in range(n))


def _project(root: Path, n: int = 80) -> Path:
    root.mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "notes").mkdir()
    (root / "in.bib").write_text(_bib(n), encoding="utf-8")
    api.import_bib([root / "in.bib"], start=root)
    api.sync(root, offline=True)  # (a sync keeps the match index beside the cache)
    api.tag("k001", ["+warm"], start=root)  # a write: the cache holds what it wrote
    return root


def _files(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in [*(project / "refs").iterdir(), *(project / "notes").iterdir()]}


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many entries were decoded one at a time, how often all of them were, and how
    many transactions were committed."""
    seen = {"one": 0, "all": 0, "commits": 0}
    entry_at, decode_all, commit = CachedLibrary.entry_at, CachedLibrary._decode_all, Transaction.commit

    def one(self, key):
        if self._lazy is not None and key not in self._decoded and key in self._lazy:
            seen["one"] += 1
        return entry_at(self, key)

    def every(self):
        seen["all"] += 1
        return decode_all(self)

    def committed(self, *args, **kwargs):
        seen["commits"] += 1
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(CachedLibrary, "entry_at", one)
    monkeypatch.setattr(CachedLibrary, "_decode_all", every)
    monkeypatch.setattr(Transaction, "commit", committed)
    return seen


def test_add_of_pasted_bibtex_decodes_a_handful_and_writes_what_a_full_parse_writes(
        tmp_path: Path, counted: dict[str, int]) -> None:
    base = _project(tmp_path / "base")
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    shutil.copytree(base, warm)
    shutil.copytree(base, cold)
    shutil.rmtree(cold / ".citekit")
    counted.update(one=0, all=0, commits=0)  # (building the project decoded and wrote)
    report = api.add([PASTED], warm, offline=True)
    assert [(i.key, i.status) for i in report.items] == [("pasted2021", "imported")]
    assert counted["all"] == 0, "every entry of the library was decoded"
    assert counted["one"] <= 5, f"{counted['one']} of 80 entries decoded for one added paper"
    assert counted["commits"] == 1, "the import and the sync that follows are one write"
    again = api.add([PASTED], cold, offline=True)  # no cache: every entry parsed and indexed
    assert [(i.key, i.status) for i in again.items] == [("pasted2021", "imported")]
    assert _files(warm) == _files(cold)
    assert b"notes/inbox.md:" in (warm / "refs" / "library.yaml").read_bytes()


def test_add_of_a_paper_the_library_holds_names_it_and_writes_nothing(tmp_path: Path,
                                                                       counted: dict[str, int]) -> None:
    project = _project(tmp_path / "p")
    before = _files(project)
    counted.update(one=0, all=0, commits=0)
    report = api.add(["Distinct study of topic 42 in depth"], project, offline=True)
    assert [(i.key, i.status) for i in report.items] == [("k042", "already")]
    assert not report.changed and _files(project) == before
    assert counted["all"] == 0 and counted["one"] <= 3 and counted["commits"] == 0


def test_add_reads_the_library_files_once_and_stores_no_index_it_makes_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Right after a write the stat file cannot vouch for the files (see
    ``parsed_cache.remember_stat``), so the load reads and hashes both; the sync under the
    lock then knows them by the stat they had around that read, not by hashing them again.
    The match index, patched for the write before, is not stored: this ``add`` writes, and
    a paper the library holds (nothing written) stores it for the next command."""
    from citekit.library.store import kinds
    from citekit.library.store.cache import library as cached, memo_files

    project = _project(tmp_path / "p")
    seen = {"reads": 0, "index": 0}
    read_pair, write_apart = cached.read_pair, memo_files.write_apart

    def reading(*args, **kwargs):
        seen["reads"] += 1
        return read_pair(*args, **kwargs)

    def storing(refs_dir, name, *args, **kwargs):
        seen["index"] += name == kinds.MATCH_INDEX
        return write_apart(refs_dir, name, *args, **kwargs)

    monkeypatch.setattr(cached, "read_pair", reading)
    monkeypatch.setattr(memo_files, "write_apart", storing)
    report = api.add([PASTED], project, offline=True)
    assert [(i.key, i.status) for i in report.items] == [("pasted2021", "imported")]
    assert seen == {"reads": 1, "index": 0}
    seen.update(reads=0, index=0)
    held = api.add(["Distinct study of topic 42 in depth"], project, offline=True)
    assert [(i.key, i.status) for i in held.items] == [("k042", "already")]
    assert seen["index"] == 1, "the index patched for a command that wrote nothing was not stored"
    seen.update(reads=0, index=0)
    api.add(["Distinct study of topic 43 in depth"], project, offline=True)
    assert seen["index"] == 0, "the index stored by the command before was not found up to date"


def test_the_kept_match_index_is_read_in_buckets_and_patched_across_adds(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept index is stored in buckets: an ``add`` decodes the few it asks about, a
    paper added by the ``add`` before is found through the index patched since, and the
    index then matches one built from every entry."""
    from citekit.library.match_index import library_index
    from citekit.library.store.cache.buckets import BUCKETS, Bucketed, Sections

    project = _project(tmp_path / "p")
    api.add([PASTED], project, offline=True)
    decoded = []
    bucket = Bucketed._bucket

    def counting(self, i):
        if i not in self._loaded:
            decoded.append(i)
        return bucket(self, i)

    monkeypatch.setattr(Bucketed, "_bucket", counting)
    again = api.add([PASTED.replace("{Doe, Jo and Roe, Al}", "{Doe, Jo and Roe, Al and Poe, Ed}")], project,
                    offline=True)
    assert [(i.key, i.status) for i in again.items] == [("pasted2021", "already")]
    assert decoded and len(decoded) < BUCKETS // 4, f"{len(decoded)} buckets of {4 * BUCKETS} decoded"
    from citekit.library.store import Library

    kept = library_index(Library.load(project / "refs")).__dict__["_kept"]
    built = library_index(Library.load(project / "refs", use_cache=False)).__dict__["_kept"]
    assert isinstance(kept, Sections) and isinstance(kept["own"], Bucketed)
    def filed(table: object) -> dict:  # (a patch files a changed entry last: order aside)
        return {k: sorted(v) if isinstance(v, list) else v for k, v in ((k, table[k]) for k in table)}

    for table in ("postings", "own", "rough", "words"):
        assert filed(kept[table]) == filed(built[table]), table
