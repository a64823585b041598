"""Read-only commands on a cached library decode only what they need and print the same bytes.

Every command is run three ways on the same refs/: with no cache at all (parse), right
after the cache was built (entries decoded on demand, derived values computed), and again
(derived values read from the cache, no entry decoded). All three must print the same
bytes, and must follow every change to refs/ (a `tag`, a hand edit, a key removed).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store.cache import state
from citekit.library.store.cache.memos import MemoStore
from citekit.library.store import Library, kinds
from citekit.core.model import Entry, Ids

from ..helpers_project import make_project

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpora"
BIG = CORPUS / "bibtex-tidy-fixtures" / "better-bibtex" / "Unabbreviate_on_import_1436-3.bib"

WORDS = "sparse robust Ünïcode {GPU} kernel $x^2$ attention quantum Muon 漢字 \\'{e}t\\'{e} graph".split()


def _varied_entries(seed: int, n: int = 60) -> list[Entry]:
    """Entries of many shapes: aliases, crossrefs, arXiv-only preprints with a published twin,
    own keywords fields, non-ASCII and LaTeX text, tags, statuses."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        title = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 7))) + f" study {i}"
        fields = {"title": title, "author": rnd.choice(["Müller, Jörg", "Lee, Ann and Chen, Bo", "{The Team}"]),
                  "year": str(1990 + i % 30)}
        etype = rnd.choice(["article", "inproceedings", "misc", "book"])
        if etype == "article":
            fields["journal"] = rnd.choice(["J. Ex{\\\"a}mple", "Nature"])
        if etype == "inproceedings":
            fields["booktitle"] = "ICML"
        if i % 11 == 0:
            fields["keywords"] = "own, words"  # a field library.bib would derive: export renders it
        e = Entry(key=f"k{seed}_{i:03d}", entry_type=etype, fields=fields, origin="import",
                  status=rnd.choice(["resolved", "notes-only"]))
        e.tags_added = sorted(rnd.sample(["theory", "muon", "vision", "rl"], rnd.randint(0, 2)))
        if i % 7 == 0:
            e.aliases = [f"old{seed}_{i}", f"Alt{seed}_{i}"]
        out.append(e)
    # a preprint whose published version is another entry (same title), and one by arXiv id
    twin_title = "Published Twins Are Found Through Their Normalised Title"
    out.append(Entry(key=f"pre{seed}", entry_type="misc", fields={"title": twin_title, "author": "Lee, Ann",
                     "year": "2023", "eprint": "2301.00001", "archiveprefix": "arXiv"},
                     ids=Ids(arxiv="2301.00001"), origin="import"))
    out.append(Entry(key=f"pub{seed}", entry_type="inproceedings", fields={"title": twin_title.upper(),
                     "author": "Lee, Ann", "year": "2024", "booktitle": "NeurIPS"}, origin="import"))
    # a crossref child and its parent
    out.append(Entry(key=f"child{seed}", entry_type="inproceedings", fields={"title": "A Child Paper",
                     "author": "Chen, Bo", "crossref": f"parent{seed}"}, origin="import"))
    out.append(Entry(key=f"parent{seed}", entry_type="proceedings", fields={"title": "The Proceedings",
                     "year": "2020", "booktitle": "The Proceedings"}, origin="import"))
    return out


def synced_with_varied_entries(tmp_path: Path, seed: int) -> Path:
    """A project synced offline from its notes, then given the imported entries of ``seed``."""
    root = make_project(tmp_path)
    assert CliRunner().invoke(main, ["-C", str(root), "sync", "--offline", "-q"]).exit_code == 0
    lib = Library.load(root / "refs")
    for e in _varied_entries(seed):
        lib.add(e)
    _freeze_keys(lib)
    lib.save()
    return root


def _freeze_keys(lib: Library) -> None:
    """The keys the sync made, frozen as a first export freezes them: so the commands
    under test (an export among them) are reads that write nothing."""
    for entry in lib.entries.values():
        entry.key_provisional = False


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = synced_with_varied_entries(tmp_path, 3)
    keys = sorted(Library.load(root / "refs").entries)
    cites = [keys[0], keys[5], "old3_7", "pre3", "child3", "nosuchkey2026", keys[-1]]
    (root / "paper.tex").write_text("\\documentclass{article}\\begin{document}\n"
                                    + "".join(f"\\cite{{{k}}}\n" for k in cites) + "\\end{document}\n",
                                    encoding="utf-8")
    (root / "paper.aux").write_text("".join(f"\\citation{{{k}}}\n" for k in cites if k != "nosuchkey2026"),
                                    encoding="utf-8")
    return root


COMMANDS = [
    ["list"], ["list", "--json"], ["list", "--tag", "theory"], ["list", "--tag", "muon", "--tag", "-rl"],
    ["list", "--status", "resolved", "--json"], ["list", "--tag", "nosuchtag"], ["tags"], ["tags", "--json"],
    ["show", "pre3"], ["show", "old3_7"], ["show", "K3_010"], ["show", "--json", "child3"], ["show", "nosuchkey"],
    ["check", "paper.tex"], ["check", "--json", "paper.tex"],
    ["export"], ["export", "--ascii"], ["export", "--tag", "theory"], ["export", "--aux", "paper.aux"],
    ["export", "--tex", "paper.tex", "--allow-missing"], ["export", "-f", "biblatex"], ["export", "-f", "csl-json"],
]


def _run(runner: CliRunner, root: Path, args: list[str]) -> tuple[int, str, str]:
    args = [str(root / a) if a.startswith("paper.") else a for a in args]
    result = runner.invoke(main, ["-C", str(root), *args])
    return result.exit_code, result.stdout, result.stderr


def _outputs(root: Path) -> dict[str, tuple[int, str, str]]:
    runner = CliRunner()
    return {" ".join(args): _run(runner, root, args) for args in COMMANDS}


def _without_cache(root: Path) -> dict[str, tuple[int, str, str]]:
    """Each command on a freshly parsed library (the cache deleted before each)."""
    runner = CliRunner()
    out = {}
    for args in COMMANDS:
        shutil.rmtree(root / ".citekit", ignore_errors=True)
        out[" ".join(args)] = _run(runner, root, args)
    return out


def test_cold_first_and_warm_runs_print_the_same_bytes(project: Path) -> None:
    parsed = _without_cache(project)
    first = _outputs(project)
    warm = _outputs(project)
    for name in parsed:
        assert first[name] == parsed[name], name
        assert warm[name] == parsed[name], name
    assert parsed["check paper.tex"][0] == 1 and "nosuchkey2026" in parsed["check paper.tex"][1]
    assert "pub3" in parsed["check paper.tex"][1]  # the preprint's published twin was found
    assert "child3" in parsed["export --aux paper.aux"][1] and "parent3" in parsed["export --aux paper.aux"][1]


def test_a_warm_run_decodes_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # without crossrefs, a whole-library export is the stored texts joined
    project = make_project(tmp_path)
    assert CliRunner().invoke(main, ["-C", str(project), "sync", "--offline", "-q"]).exit_code == 0
    lib = Library.load(project / "refs")
    for e in _varied_entries(5):
        if "crossref" not in e.fields:
            lib.add(e)
    _freeze_keys(lib)
    lib.save()
    _outputs(project)  # every derived value is now stored

    def no_decode(*_a, **_k):
        raise AssertionError("an entry was decoded on a warm read-only run")

    monkeypatch.setattr(state, "entry_from_state", no_decode)
    runner = CliRunner()
    for args in (["list"], ["list", "--json"], ["list", "--tag", "theory"], ["tags"], ["export"],
                 ["export", "--tag", "muon"]):
        result = runner.invoke(main, ["-C", str(project), *args])
        assert result.exit_code == 0, (args, result.output)


def test_show_and_check_decode_only_the_entries_they_name(project: Path) -> None:
    _outputs(project)
    lib = Library.load(project / "refs")
    assert lib.get("old3_7").key == "k3_007"  # by alias
    assert lib.get_any_case("K3_010").key == "k3_010"
    assert lib.is_lazy() and len(lib._decoded) == 2
    from citekit.paper.check import check_paper, twin_facts
    from citekit.paper.cited import EntryIndex, citations_from_tex

    cited = citations_from_tex(project / "paper.tex")
    lazy = check_paper("paper.tex", cited, EntryIndex.of_library(lib),
                       facts=lambda: lib.memo_table(kinds.TWIN_FACTS, twin_facts))
    assert lib.is_lazy() and len(lib._decoded) <= 8  # the cited ones, not 100+
    full = check_paper("paper.tex", cited, Library.load(project / "refs", use_cache=False).sorted_entries())
    assert lazy.to_json() == full.to_json()


def test_reads_follow_every_change_to_refs(project: Path) -> None:
    runner = CliRunner()
    _outputs(project)
    assert runner.invoke(main, ["-C", str(project), "tag", "k3_004", "+freshtag"]).exit_code == 0
    listed = runner.invoke(main, ["-C", str(project), "list", "--tag", "freshtag"]).stdout
    assert listed.startswith("k3_004 ") and len(listed.splitlines()) == 1
    assert ("freshtag", 1) in [(t, n) for t, n in
                               ((d["tag"], d["count"]) for d in __import__("json").loads(
                                   runner.invoke(main, ["-C", str(project), "tags", "--json"]).stdout))]
    # a hand edit of library.bib (the cache is keyed by the files' bytes)
    bib = project / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("study 4}", "study four, edited by hand}"), encoding="utf-8")
    assert "study four, edited by hand" in runner.invoke(main, ["-C", str(project), "list"]).stdout
    assert "study four, edited by hand" in runner.invoke(main, ["-C", str(project), "export"]).stdout
    assert "study four, edited by hand" in runner.invoke(main, ["-C", str(project), "show", "k3_004"]).stdout
    # and each of those equals what a fresh parse prints
    assert _outputs(project) == _without_cache(project)


def test_export_renders_each_entry_once_even_after_a_hand_edit(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bib = project / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8") + "\n@misc{byhand2020, title = {Added by Hand}, year = {2020}}\n",
                   encoding="utf-8")
    runner = CliRunner()
    first = runner.invoke(main, ["-C", str(project), "export"]).stdout  # parsed: no stored texts, renders all
    import citekit.bibtex.writer as bibtex

    def no_render(*_a, **_k):
        raise AssertionError("an entry was rendered again")

    monkeypatch.setattr(bibtex, "entry_text", no_render)
    monkeypatch.setattr(bibtex, "written_text", no_render)  # (what the store renders a changed entry with)
    again = runner.invoke(main, ["-C", str(project), "export"])
    assert again.exit_code == 0, again.output
    assert again.stdout == first and "byhand2020" in first


REAL = [BIG, CORPUS / "plume-bib" / "algorithms.bib", CORPUS / "aima4e" / "aima4e.bib",
        CORPUS / "thesis-gowda" / "anthology.bib"]


@pytest.mark.skipif(not BIG.exists(), reason="the corpora beside the repository are not there (a user's clone)")
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_libraries_read_the_same_from_every_path(tmp_path: Path, path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Right after the import's write (the cache holds what the write kept, and what a large
    write derives for the first commands), after a fresh parse of both files, and warm: every
    command prints the same bytes. (The derivation runs in this process: in the background it
    would still be writing to ``.citekit`` when the test removes it.)"""
    monkeypatch.setenv("CITEKIT_SEARCH_INDEX", "now")
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["-C", str(root), "import", str(path)]).exit_code in (0, 1)  # 1: warnings
    cached = Library.load(root / "refs")  # what the import's write kept
    keys = cached.sorted_keys()
    assert len(keys) > 5
    read = Library.load(root / "refs", use_cache=False)  # what a read of both files builds
    for key in keys:
        mine, theirs = cached.entries[key], read.entries[key]
        assert list(mine.fields.items()) == list(theirs.fields.items()), key
        assert state.entry_state(mine) == state.entry_state(theirs), key
    sample = keys[:: max(1, len(keys) // 4)]
    args_list = [["tags"], ["export", "--allow-missing"], ["list", "--tag", "physics"],
                 *(["show", "--json", k] for k in sample), *(["show", k] for k in sample)]
    if len(keys) < 5000:  # a whole-library JSON costs a LaTeX conversion per title on each parse
        args_list.append(["list", "--json"])
    written = [runner.invoke(main, ["-C", str(root), *a]).stdout for a in args_list]
    shutil.rmtree(root / ".citekit")  # the first command below parses both files again
    parsed = [runner.invoke(main, ["-C", str(root), *a]).stdout for a in args_list]
    assert written == parsed
    for _ in range(2):
        assert [runner.invoke(main, ["-C", str(root), *a]).stdout for a in args_list] == parsed


def test_an_edit_that_keeps_size_and_modification_time_is_still_seen(project: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from citekit.core import cachefile
    from citekit.library.store.cache import memo_files, parsed_cache

    # as if both files were written long ago: their stat is trusted as soon as they are hashed
    monkeypatch.setattr(cachefile, "RACY_NS", -10**18)
    monkeypatch.setattr(cachefile, "FINE_RACY_NS", -10**18)
    runner = CliRunner()
    bib = project / "refs" / "library.bib"
    runner.invoke(main, ["-C", str(project), "list"])
    stat_file = project / ".citekit" / "refs-library.stat"
    import marshal

    trusted = marshal.loads(stat_file.read_bytes())["stat"]
    assert trusted == parsed_cache.stat_pair(project / "refs") and None not in trusted
    text = bib.read_text(encoding="utf-8")
    assert "study 4}" in text
    stamp = os.stat(bib)
    bib.write_text(text.replace("study 4}", "study X}"), encoding="utf-8")  # same size
    os.utime(bib, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same modification time
    assert os.stat(bib).st_size == stamp.st_size and os.stat(bib).st_mtime_ns == stamp.st_mtime_ns
    listed = runner.invoke(main, ["-C", str(project), "list"]).stdout
    assert "study X" in listed and "study 4 " not in listed


def test_tag_decodes_one_entry_and_writes_what_a_full_render_writes(project: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    # the fixture's last write keeps its entries as a read of the files gives them back
    assert _outputs(project) == _without_cache(project)
    # the first write after a parse renders every entry once (a parse keeps no texts)
    assert runner.invoke(main, ["-C", str(project), "tag", "k3_009", "+first"]).exit_code == 0
    _outputs(project)  # derived values stored for every entry
    decoded: list[str] = []
    real = state.entry_from_state

    def counting(key, state):
        decoded.append(key)
        return real(key, state)

    monkeypatch.setattr(state, "entry_from_state", counting)
    assert runner.invoke(main, ["-C", str(project), "tag", "k3_004", "+onlyone"]).exit_code == 0
    assert decoded == ["k3_004"]
    refs = project / "refs"
    written = {p.name: p.read_bytes() for p in refs.iterdir() if p.is_file()}
    fresh = Library.load(refs, use_cache=False)
    fresh._chunks.clear()
    bib, side = fresh.render_files()  # every entry rendered from scratch
    assert written["library.bib"] == bib.encode("utf-8") and written["library.yaml"] == side.encode("utf-8")
    decoded.clear()
    listed = runner.invoke(main, ["-C", str(project), "list", "--tag", "onlyone"]).stdout
    assert listed.startswith("k3_004 ") and decoded == ["k3_004"]  # only its row is derived again
    assert _outputs(project) == _without_cache(project)


def test_writing_what_was_read_changes_nothing_and_flags_no_hand_edit(tmp_path: Path) -> None:
    """Values the file spells otherwise (a month as its macro, a field name in capitals, an
    entry's own keywords) are written once; reading and writing again is a fixed point, and
    a hand edit of one entry does not make the others look hand-edited."""
    refs = tmp_path / "refs"
    lib = Library.load(refs)
    odd = [
        Entry(key="m1", entry_type="Article", fields={"Title": "Months", "month": "December", "Pages": "1--2",
                                                       "year": "2020", "keywords": "own"}, origin="import"),
        Entry(key="m2", entry_type="misc", fields={"title": "Numbers", "month": "07", "note": "two  spaces"},
              aliases=["zz", "aa"], origin="import"),
        Entry(key="m3", entry_type="book", fields={"title": "Ünïcode — “quotes”", "month": "sept."}, origin="import"),
    ]
    for e in odd:
        lib.add(e)
    lib.save()
    first = {p.name: p.read_bytes() for p in refs.iterdir() if p.is_file()}
    for use_cache in (True, False):
        again = Library.load(refs, use_cache=use_cache)
        again.save()
        assert {p.name: p.read_bytes() for p in refs.iterdir() if p.is_file()} == first
    bib = refs / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("{Numbers}", "{Numbers, edited}"), encoding="utf-8")
    edited = Library.load(refs)
    assert edited.entries["m2"].hand == ["title"]
    assert edited.entries["m1"].hand == [] and edited.entries["m3"].hand == []


# ---- writes and the memo files ----------------------------------------------------------

def _memo_files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / ".citekit").glob("refs-memo-*.cache"))}


def test_tag_leaves_the_memo_files_alone_and_every_read_stays_exact(project: Path) -> None:
    runner = CliRunner()
    _outputs(project)  # every kind of derived value is stored
    before = _memo_files(project)
    assert len(before) >= 8
    for args in (["k3_004", "+fresh"], ["old3_7", "+viaalias"], ["k3_004", "-fresh", "+other"], ["pre3", "-muon"]):
        assert runner.invoke(main, ["-C", str(project), "tag", *args]).exit_code == 0
    assert _memo_files(project) == before  # not one memo file was rewritten by the four writes
    warm = _outputs(project)
    assert warm == _without_cache(project)
    assert any(row.startswith("k3_004 ") and "other" in row and "fresh" not in row for row in warm["list"][1].splitlines())
    # the next reads stored the few values they derived again: a third pass reads them
    assert _memo_files(project) != before
    assert _outputs(project) == warm


def test_many_writes_fold_the_change_log_into_a_new_generation(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    monkeypatch.setattr(MemoStore, "MEMO_LOG_KEYS", 3)  # fold after three changed entries
    runner = CliRunner()
    _outputs(project)
    cache = project / ".citekit" / "refs-library.cache"
    first_base = marshal.loads(cache.read_bytes())["memo_base"]
    bases = set()
    for i, key in enumerate(["k3_001", "k3_002", "k3_003", "k3_005", "k3_006", "k3_008"]):
        assert runner.invoke(main, ["-C", str(project), "tag", key, f"+round{i}"]).exit_code == 0
        bases.add(marshal.loads(cache.read_bytes())["memo_base"])
        if i % 2:
            runner.invoke(main, ["-C", str(project), "list", "--json"])
    assert bases - {first_base}, "the log was never folded"
    assert _outputs(project) == _without_cache(project)


def test_a_memo_claiming_a_change_the_cache_never_recorded_is_ignored(project: Path) -> None:
    """A writer killed after storing memo tables but before storing its cache leaves tables
    that name a change no cache knows: they must never be read."""
    from citekit import api
    from citekit.library.store.cache import memo_files, parsed_cache

    runner = CliRunner()
    expected = _outputs(project)
    lib = Library.load(project / "refs")
    forged_log = [*lib._memos.log, ("0" * 16, ["k3_004"])]
    kind = kinds.LIST_LINE
    table = {k: f"{k} forged line" for k in lib.keys()}
    memo_files.write_memos(project / "refs", lib._memos.base, forged_log, {kind: table})
    listed = runner.invoke(main, ["-C", str(project), "list"]).stdout
    assert "forged" not in listed and listed == expected["list"][1]
    # and a table of another generation is not read either
    memo_files.write_memos(project / "refs", "f" * 16, [], {kind: table})
    assert runner.invoke(main, ["-C", str(project), "list"]).stdout == expected["list"][1]


def test_a_reader_storing_values_after_a_write_it_did_not_see(project: Path) -> None:
    from citekit import api

    runner = CliRunner()
    shutil.rmtree(project / ".citekit")
    assert runner.invoke(main, ["-C", str(project), "list"]).exit_code == 0  # (the cache is built)
    reader = Library.load(project / "refs")
    for path in (project / ".citekit").glob("refs-memo-*.cache"):
        path.unlink()
    kind = kinds.LIST_LINE
    from citekit.api import library as listing

    reader.memo_table(kind, lambda e: listing._list_line(reader.memo(kinds.ENTRY_JSON, e, api.entry_json)))
    # meanwhile another command writes
    assert runner.invoke(main, ["-C", str(project), "tag", "k3_004", "+meanwhile"]).exit_code == 0
    reader.keep_memos()  # stores lines derived before that write
    listed = runner.invoke(main, ["-C", str(project), "list"]).stdout
    line = next(row for row in listed.splitlines() if row.startswith("k3_004 "))
    assert "meanwhile" in line
    assert _outputs(project) == _without_cache(project)


def test_suggestions_for_a_missing_key_follow_entries_added_and_removed(project: Path) -> None:
    runner = CliRunner()

    def check() -> str:
        return runner.invoke(main, ["-C", str(project), "check", str(project / "paper.tex")]).stdout

    check()
    assert check() == _without_cache(project)["check paper.tex"][1]  # remembered, and the same
    lib = Library.load(project / "refs")
    lib.add(Entry(key="nosuchkey2025", entry_type="misc", fields={"title": "Now It Exists", "year": "2025"},
                  origin="import"))
    lib.save()
    added = check()
    assert "nosuchkey2025" in added and added == _without_cache(project)["check paper.tex"][1]
    assert check() == added
    lib = Library.load(project / "refs")
    lib.remove("nosuchkey2025")
    lib.save()
    removed = check()
    assert "nosuchkey2025" not in removed and removed == _without_cache(project)["check paper.tex"][1]


@pytest.mark.parametrize("text", ["plain", "Ünïcode — 漢字 😀", "\x1b[31mred\x1b[0m and more", "", "a\nb\n",
                                  "lone \udc80 surrogate"])
@pytest.mark.parametrize("nl", [True, False])
def test_printing_utf8_bytes_is_printing_the_text(text: str, nl: bool) -> None:
    import click

    from citekit.cli.export import echo_utf8

    @click.command()
    def as_text() -> None:
        click.echo(text, nl=nl)

    @click.command()
    def as_bytes() -> None:
        echo_utf8(text.encode("utf-8", "surrogatepass"), nl=nl)

    runner = CliRunner()
    one, two = runner.invoke(as_text), runner.invoke(as_bytes)
    assert (one.exit_code, one.stdout_bytes) == (two.exit_code, two.stdout_bytes)


def _keys_passed_to(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[str]:
    """The keys of the entries ``owner.name(entry)`` is called with from now on."""
    keys: list[str] = []
    real = getattr(owner, name)
    monkeypatch.setattr(owner, name, lambda entry: keys.append(entry.key) or real(entry))
    return keys


def test_a_hand_edit_keeps_the_values_derived_from_every_other_entry(project: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    _outputs(project)
    bib = project / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("study 4}", "study four, by hand}"), encoding="utf-8")
    from citekit.api import library as api

    derived = _keys_passed_to(monkeypatch, api, "entry_json")
    listed = runner.invoke(main, ["-C", str(project), "list", "--json"]).stdout
    assert "study four, by hand" in listed and derived == ["k3_004"]  # the file was parsed, one row derived
    monkeypatch.undo()
    assert _outputs(project) == _without_cache(project)


def test_a_remembered_published_twin_follows_the_library(project: Path) -> None:
    runner = CliRunner()

    def check() -> str:
        return runner.invoke(main, ["-C", str(project), "check", str(project / "paper.tex")]).stdout

    assert "pub3" in check() and "pub3" in check()  # found, then remembered
    lib = Library.load(project / "refs")
    lib.remove("pub3")
    lib.save()
    gone = check()
    assert "pub3" not in gone and gone == _without_cache(project)["check paper.tex"][1]
    lib = Library.load(project / "refs")
    lib.add(Entry(key="pub3b", entry_type="inproceedings", origin="import",
                  fields={"title": "Published Twins Are Found Through Their Normalised Title", "booktitle": "ICML"}))
    lib.save()
    back = check()
    assert "pub3b" in back and back == _without_cache(project)["check paper.tex"][1]


def test_a_write_changing_every_entry_starts_a_new_generation(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    monkeypatch.setattr(MemoStore, "MEMO_LOG_KEYS", 3)
    _outputs(project)
    cache = project / ".citekit" / "refs-library.cache"
    base = marshal.loads(cache.read_bytes())["memo_base"]
    lib = Library.load(project / "refs")
    for entry in lib.entries.values():
        entry.tags_added = sorted({*entry.tags_added, "everywhere"})
    lib.save()
    assert marshal.loads(cache.read_bytes())["memo_base"] != base
    warm = _outputs(project)
    assert warm == _without_cache(project)
    assert "everywhere" in warm["tags"][1]


def test_memo_files_an_earlier_version_wrote_are_removed(project: Path) -> None:
    """A memo file whose head this version cannot read (another format, a kind since
    renamed) is never read again: the next memo written removes it, and so does dropping
    the cache (doctor --fix); the output is what it was."""
    from citekit.library.store.cache import memo_files, parsed_cache
    from citekit.library.lock import state_dir

    refs = project / "refs"
    folder = state_dir(refs)
    folder.mkdir(parents=True, exist_ok=True)
    old = folder / "refs-memo-json-text@1.cache"
    old.write_bytes(b"an earlier version's memo table")
    before = _outputs(project)
    assert not old.exists()
    assert _outputs(project) == before
    old.write_bytes(b"an earlier version's memo table")
    parsed_cache.drop(refs)
    assert not old.exists() and not list(folder.glob("refs-memo-*.cache"))
