"""A sync reads again only the notes files that changed since the last one.

What each file gave is remembered in ``.citekit/`` by its stat and its bytes; these tests
run offline syncs through the API on copies of the bundled notes and count the files
extraction really reads, and compare every result with a sync that remembers nothing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from citekit import api
from citekit.notes import extract_paths
from citekit.notes import extract as extract_module
from citekit.notes import filememo

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    for path in (REPO / "notes").iterdir():
        shutil.copy(path, root / "notes" / path.name)
    (root / "notes" / "extra.md").write_text("# Reading\n\n- Attention Is All You Need (Vaswani et al., NeurIPS 2017)\n",
                                             encoding="utf-8")
    return root


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the notes files extraction reads."""
    seen: list[str] = []
    real = extract_module.extract_owned

    def counted(held: list[str], file: str):
        seen.append(file)
        return real(held, file)

    monkeypatch.setattr(extract_module, "extract_owned", counted)
    return seen


def _refs(root: Path) -> tuple[bytes, bytes]:
    return (root / "refs" / "library.bib").read_bytes(), (root / "refs" / "library.yaml").read_bytes()


def _as_without_memo(root: Path, tmp_path: Path) -> tuple[bytes, bytes]:
    """The same project synced by a run that has no memo (the notes copied as they are now)."""
    other = tmp_path / "fresh"
    shutil.rmtree(other, ignore_errors=True)
    shutil.copytree(root, other, ignore=shutil.ignore_patterns(".citekit", "refs"))
    api.sync(start=other, offline=True)
    return _refs(other)


def test_a_second_sync_reads_only_the_file_that_changed(project: Path, tmp_path: Path, reads: list[str]) -> None:
    api.sync(start=project, offline=True)
    assert sorted(reads) == sorted(f"notes/{p.name}" for p in (project / "notes").iterdir())
    reads.clear()
    extra = project / "notes" / "extra.md"
    extra.write_text(extra.read_text(encoding="utf-8")
                     + "- Deep Residual Learning for Image Recognition (He et al., CVPR 2016)\n", encoding="utf-8")
    api.sync(start=project, offline=True)
    assert reads == ["notes/extra.md"]
    assert _refs(project) == _as_without_memo(project, tmp_path)


def test_a_file_touched_or_copied_back_is_not_read_again(project: Path, reads: list[str]) -> None:
    api.sync(start=project, offline=True)
    before = _refs(project)
    reads.clear()
    for path in (project / "notes").iterdir():  # the same bytes, another stat (a checkout, a copy)
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)
        os.utime(path, ns=(1_600_000_000 * 10**9, 1_600_000_000 * 10**9))
    api.sync(start=project, offline=True)
    assert reads == []
    assert _refs(project) == before


def test_what_the_memo_gives_is_what_extraction_gives(project: Path) -> None:
    memo = project / ".citekit" / "refs-notes.memo"
    memo.parent.mkdir()
    first = extract_paths([project / "notes"], root=project, memo=memo)
    assert memo.exists()
    again = extract_paths([project / "notes"], root=project, memo=memo)
    plain = extract_paths([project / "notes"], root=project)
    assert [m.to_json() for m in again.mentions] == [m.to_json() for m in plain.mentions] == \
        [m.to_json() for m in first.mentions]
    assert again.mentions == plain.mentions  # (the values themselves, not only their JSON)
    assert [str(p) for p in again.problems] == [str(p) for p in plain.problems]


def test_a_damaged_or_foreign_memo_is_ignored(project: Path, tmp_path: Path, reads: list[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    twin = tmp_path / "twin"  # the same edits, synced with no memo at all
    shutil.copytree(project, twin)

    def both(text: str) -> None:
        for root in (project, twin):
            (root / "notes" / "extra.md").write_text(text, encoding="utf-8")
        filememo.memo_path(twin / "refs").unlink(missing_ok=True)
        api.sync(start=twin, offline=True)
        filememo.memo_path(twin / "refs").unlink(missing_ok=True)
        reads.clear()
        api.sync(start=project, offline=True)

    both("- Attention Is All You Need (Vaswani et al., NeurIPS 2017)\n")
    memo = filememo.memo_path(project / "refs")
    for damage in (b"", b"\x00garbage", memo.read_bytes()[: len(memo.read_bytes()) // 2]):
        memo.write_bytes(damage)
        both(f"- A Title Written Now {len(damage)} (Doe et al., ICML 2020)\n")
        assert len(reads) == len(list((project / "notes").iterdir()))  # all read again
        assert _refs(project) == _refs(twin)
    # another version of citekit (or an edited reader) reads every file again
    monkeypatch.setattr(filememo, "code_stamp", lambda: ("another version",))
    both("- Another Title Written Later (Roe et al., ICML 2021)\n")
    assert len(reads) == len(list((project / "notes").iterdir()))
    assert _refs(project) == _refs(twin)


def test_a_file_removed_is_forgotten(project: Path, reads: list[str]) -> None:
    api.sync(start=project, offline=True)
    (project / "notes" / "extra.md").unlink()
    api.sync(start=project, offline=True)
    memo = filememo.NotesMemo(filememo.memo_path(project / "refs"))
    assert "notes/extra.md" not in memo._files and len(memo._files) == 2


def test_a_mention_with_every_field_set_comes_back_equal() -> None:
    from dataclasses import fields

    from citekit.core.model import Ids, Location
    from citekit.core.resolution import Mention

    mention = Mention(kind="titled", location=Location("notes/a.md", 7), title="T", authors=["A B", "C D"],
                      authors_incomplete=True, urls=["https://arxiv.org/abs/1706.03762"], links={"code": "https://x.org"},
                      summary="s", abstract="a", hints=["LoRA"], venue="ICML", year=2020,
                      ids=Ids(arxiv="1706.03762", doi="10.1/x"), pins=Ids(openreview="abc", dblp="conf/x/Y20"),
                      hashtags=["muon"], section="Talks", reference="A B. T. ICML 2020.", title_unsure=True,
                      year_from_page=True,
                      published={"container": "ICML", "pages": "1--9"}, heading_people=["E F"], citekey="b2020t")
    assert all(getattr(mention, f.name) != f.default for f in fields(Mention) if f.name not in ("kind", "location"))
    assert Mention.from_json(mention.to_json()) == mention
    bare = Mention(kind="url", location=Location("n.txt", 1))
    assert Mention.from_json(bare.to_json()) == bare


def test_a_stat_taken_within_the_file_systems_tick_vouches_for_nothing(tmp_path: Path) -> None:
    """A file changed just before it was read could change again in the same tick with the
    same size, keeping its stat: its row is not trusted by stat (its bytes are hashed)."""
    import time

    from citekit.core.cachefile import stat_key

    note = tmp_path / "n.md"
    note.write_text("- Attention Is All You Need (Vaswani et al., NeurIPS 2017)\n", encoding="utf-8")
    memo = filememo.NotesMemo(tmp_path / "m.memo")
    # its change time a moment ahead of the clock: within the tick however slowly this test runs
    # (a busy machine can take longer than the 50 ms window between a write and the next line)
    ahead = time.time_ns() + 5 * 10**9 + 123
    os.utime(note, ns=(ahead, ahead))
    fresh = stat_key(note)
    memo.remember("n.md", fresh, "d1", [], [])
    assert memo.known("n.md", fresh) is None  # written a moment ago: racy
    assert memo.same_bytes("n.md", "d1", fresh) is not None  # (the same bytes still count)
    old = time.time_ns() - 10 * 10**9 + 123  # changed ten seconds ago (a time finer than the second)
    os.utime(note, ns=(old, old))
    settled = stat_key(note)
    assert settled is not None and time.time_ns() - settled[2] < 10**9  # (its change time is now)
    memo.remember("n.md", (settled[0], old, old, settled[3]), "d2", [], [])
    assert memo.known("n.md", (settled[0], old, old, settled[3])) == ([], [])
