"""The first command after refs/ changed outside citekit (a touch, a hand edit, a pull).

It parses both files again but keeps what did not change: sidecar records are loaded one
by one and remembered by their text, and the values derived from unchanged entries (list
rows, export texts...) and the texts they were written as are carried over. Whatever it
keeps, it must build and print exactly what a parse with no cache at all does.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit import api
from citekit.cli import main
from citekit.library.store.cache import state
from citekit.library.store.sidecar import read as sidecar_read
from citekit.library.store.sidecar.yaml import dump as sidecar_dump
from citekit.library.store import Library

from ..helpers_project import make_project
from .test_read_fast_paths import BIG, _varied_entries, synced_with_varied_entries

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


# ---- the sidecar, block by block ------------------------------------------------------------

def _both(text: str, refs: Path | None = None) -> tuple[object, object]:
    return sidecar_read.load(text, LOADER, refs), yaml.load(text, Loader=LOADER)


HEAD = "# citekit sidecar\n# citekit-sidecar: 2\nbib_checksum: abc\nversion: 2\n"

#: files a person or another program could leave: each must load as the whole file does,
#: or be handed to the whole-file load (None)
ODD = [
    HEAD + "entries:\n  a:\n    status: x\n  # a comment at the records' depth\n  b:\n    status: y\n",
    HEAD + "entries:\n  a: &shared\n    status: x\n  b: *shared\n",  # an alias to another record
    HEAD + "entries:\n  a:\n    title: 'a quoted\n  b: continued'\n",  # a quoted value over lines
    HEAD + "entries:\n  a:\n    day: 2024-01-02\n  b:\n    n: 3\n",  # a YAML date (marshal cannot keep it)
    HEAD + "entries:\n  a:\n    status: x\n  a:\n    status: later\n",  # a key twice: the later wins
    HEAD + "entries: {a: {status: x}}\n",
    HEAD + "entries:\n  - a\n  - b\n",
    HEAD + "entries:\n\n  a:\n    summary: |\n      two\n\n      paragraphs\n  b: {}\n",
    HEAD + "entries:\n  a:\n    status: x\nentries:\n  b:\n    status: y\n",  # two entries: keys
    HEAD + "entries:\n  a:\n    status: x\npending:\n- title: t\n  where: [n.md:1]\n# end of citekit sidecar\n",
    "%YAML 1.1\n---\n" + HEAD + "entries:\n  a:\n    status: x\n",
    HEAD + "entries:\n  a:\n\tstatus: x\n",
    HEAD + "entries:\n  a:\n    status: x\n  b:\n",  # a record without a value
    HEAD + "entries:\n  1999:\n    status: x\n  'true':\n    status: y\n",
    HEAD + "entries:\n",
    (HEAD + "entries:\n  a:\n    status: x\n  b:\n    status: y\n").replace("\n", "\r\n"),  # a CRLF checkout
    HEAD + "entries:\r\n  a:\r\n    status: x\r\n",  # CRLF from the records on
    "\ufeff" + HEAD + "entries:\n  a:\n    status: x\n",  # a byte order mark from an editor
    HEAD + "entries:\n  a:\n    base: &b {status: x}\n    copy: *b\n  b:\n    status: y\n",  # an anchor in one record
    HEAD + "entries:\n  a:\n    <<: {status: x}\n    title: t\n  b:\n    status: y\n",  # a merge key
    HEAD + "entries:\n  a: &a\n    status: x\n  b:\n    <<: *a\n",  # a merge of another record
    HEAD + "entries:\n  a:\n    status: x\n  c: &c 1\nextra: *c\n",  # a record's anchor used after the records
    HEAD + "entries:\n  a:\n    status: x   # why\n  b:   # a note by hand\n    status: y\n",
    HEAD + "entries: # the records\n  a:\n    status: x\n",
    HEAD + "entries:\n  a:\n    status: x\n   # a comment at three spaces\n  b:\n    status: y\n",
    HEAD + "entries:\n  a:\n    status: x\n  ? b\n  : status: y\n",  # an explicit key
    HEAD + "entries:\n  a:\n    status: x\n  'b\n  c': 1\n",  # a quoted key over lines
    HEAD + "entries:\n  a:\n    status: x\n  b: !!str 12\n",  # a tag
    HEAD + "entries:\n  a:\n    status: x\n---\nfoo: 1\n",  # a second document
]


@pytest.mark.parametrize("text", ODD)
def test_odd_sidecars_load_as_the_whole_file_or_are_handed_to_it(text: str, tmp_path: Path) -> None:
    for refs in (None, tmp_path, tmp_path):  # nothing remembered, then remembered, then read back
        blocks = sidecar_read.load(text, LOADER, refs)
        assert blocks is None or blocks == whole_or_error(text)


def whole_or_error(text: str) -> object:
    """What YAML reads of the whole file, or "error"."""
    try:
        return yaml.load(text, Loader=LOADER)
    except yaml.YAMLError:
        return "error"


def _written_sidecar(tmp_path: Path) -> str:
    root = make_project(tmp_path, notes=False)
    lib = Library(refs_dir=root / "refs")
    for e in _varied_entries(7, n=80):
        lib.add(e)
    lib.save()
    return (root / "refs" / "library.yaml").read_text(encoding="utf-8")


def _loaded_counting_yaml(monkeypatch: pytest.MonkeyPatch, text: str, refs: Path) -> tuple[object, list[str]]:
    """``sidecar_read.load(text)`` and the texts it handed to YAML."""
    calls: list[str] = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda t, Loader: (calls.append(t), real(t, Loader=Loader))[1])
    loaded = sidecar_read.load(text, LOADER, refs)
    monkeypatch.undo()
    return loaded, calls


def test_records_as_citekit_writes_them_load_without_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """citekit writes each record as JSON lines: they load without YAML (only the file's
    head and tail go through it) and need nothing remembered."""
    text = _written_sidecar(tmp_path)
    assert sidecar_read.split(text) is not None
    whole = yaml.load(text, Loader=LOADER)
    assert len(whole["entries"]) == 84
    cache = tmp_path / "c" / "refs"
    cache.mkdir(parents=True)
    loaded, calls = _loaded_counting_yaml(monkeypatch, text, cache)
    assert loaded == whole
    assert len(calls) == 1 and "entries:" in calls[0] and "status:" not in calls[0]
    assert not sidecar_read.cache_path(cache).exists()


def test_records_in_block_style_load_block_by_block_and_are_remembered(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A sidecar of format 2 (every record in YAML's block style, as older citekit wrote
    it, or as a person may rewrite one) loads record by record, and each record's data is
    remembered by its text: the next load reads only the head and tail through YAML."""
    data = yaml.load(_written_sidecar(tmp_path), Loader=LOADER)
    text = HEAD + sidecar_dump(data, DUMPER)
    blocks, whole = _both(text)
    assert blocks == whole and whole == {"bib_checksum": "abc", **data}  # (HEAD's, as format 2 wrote it)
    cache = tmp_path / "c" / "refs"
    cache.mkdir(parents=True)
    assert sidecar_read.load(text, LOADER, cache) == whole  # remembers every record
    assert sidecar_read.cache_path(cache).exists()
    loaded, calls = _loaded_counting_yaml(monkeypatch, text, cache)
    assert loaded == whole
    assert len(calls) == 1 and "entries:" in calls[0] and "status:" not in calls[0]


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
_VALUE = st.one_of(_TEXT, st.none(), st.booleans(), st.integers(), st.lists(_TEXT, max_size=3),
                   st.dictionaries(_TEXT, _TEXT, max_size=3))
_RECORD = st.dictionaries(st.sampled_from(["status", "title", "summary", "origin", "mentions", "ids", "generated"]),
                          _VALUE, max_size=5)



def test_a_sidecar_with_crlf_line_ends_loads_block_by_block_as_the_whole_file() -> None:
    """A checkout that turned line ends into CRLF (git's autocrlf) still loads record by
    record, to what the whole file gives; a file mixing in lone carriage returns is left
    to the whole-file load."""
    data = {"version": 2, "entries": {"a": {"status": "resolved", "summary": "two\nlines", "tags": {"added": ["x"]}},
                                      "b": {"status": "notes-only", "generated": {"title": "A Title"}}}}
    text = (HEAD + sidecar_dump(data, DUMPER)).replace("\n", "\r\n")
    blocks, whole = _both(text)
    assert blocks is not None and blocks == whole
    assert sidecar_read.load(text.replace("\r\n", "\r", 1), LOADER, None) is None

@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.dictionaries(st.one_of(_TEXT.filter(bool), st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)),
                               _RECORD, min_size=1, max_size=6),
       pending=st.lists(st.dictionaries(st.sampled_from(["title", "where"]), _TEXT, max_size=2), max_size=2))
def test_generated_sidecars_load_block_by_block_as_the_whole_file(records, pending) -> None:
    data = {"version": 2, "entries": records}
    if pending:
        data["pending"] = pending
    for text in (sidecar_dump(data, DUMPER), yaml.safe_dump(data, allow_unicode=True),
                 yaml.safe_dump(data, allow_unicode=False, width=20)):
        text = HEAD + text
        blocks, whole = _both(text)
        assert blocks is None or blocks == whole
    # keys as citekit gives them: the written file always loads block by block
    if all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_:-]*", k) and k not in ("true", "false", "yes", "no", "null", "on", "off")
           for k in records):
        assert sidecar_read.load(HEAD + sidecar_dump(data, DUMPER), LOADER, None) is not None


# ---- a library changed outside citekit ------------------------------------------------------

@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return synced_with_varied_entries(tmp_path, 4)


READS = [["list"], ["list", "--json"], ["tags", "--json"], ["list", "--tag", "theory"], ["export"],
         ["export", "--ascii"], ["show", "k4_004"], ["show", "k4_009"]]


def _print(root: Path) -> list[tuple[int, str]]:
    runner = CliRunner()
    return [(r.exit_code, r.stdout) for r in (runner.invoke(main, ["-C", str(root), *a]) for a in READS)]


def _print_without_cache(root: Path) -> list[tuple[int, str]]:
    out = []
    for args in READS:
        shutil.rmtree(root / ".citekit", ignore_errors=True)
        r = CliRunner().invoke(main, ["-C", str(root), *args])
        out.append((r.exit_code, r.stdout))
    return out


def _states(root: Path, **kw) -> dict[str, tuple]:
    lib = Library.load(root / "refs", **kw)
    return {k: state.entry_state(e) for k, e in lib.entries.items()}


def _edit(bib: Path, old: str, new: str) -> None:
    text = bib.read_text(encoding="utf-8")
    assert old in text
    bib.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_touch_reads_the_stored_load(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _print(project)
    (project / "refs" / "library.bib").touch()
    (project / "refs" / "library.yaml").touch()

    def no_parse(*_a, **_k):
        raise AssertionError("the files were parsed again although their bytes did not change")

    monkeypatch.setattr(Library, "_parse", no_parse)
    assert _print(project) == before


def test_hand_edits_print_what_a_parse_without_cache_prints(project: Path) -> None:
    bib = project / "refs" / "library.bib"
    _print(project)  # every derived value stored
    steps = [
        ("study 4}", "study four, by hand}"),  # a title
        ("study 9}", "study nine {\\'e}dit{\\\"e}}"),  # a title with LaTeX
        ("Lee, Ann and Chen, Bo", "Lee, Ann and Zhou, Di"),  # an author list (the first of them)
    ]
    for old, new in steps:
        _edit(bib, old, new)
        first = _print(project)
        assert _states(project) == _states(project, use_cache=False)
        assert first == _print_without_cache(project)
        _print(project)
    listed = _print(project)[0][1]
    assert "study four, by hand" in listed and "study nine éditë" in listed


def test_an_entry_deleted_then_added_back_differently_is_derived_again(project: Path) -> None:
    bib = project / "refs" / "library.bib"
    original = bib.read_text(encoding="utf-8")
    _print(project)
    start = original.index("@", original.index("k4_012") - 40)
    end = original.index("\n@", start + 1) + 1
    bib.write_text(original[:start] + original[end:], encoding="utf-8")
    assert "k4_012" not in _print(project)[0][1]
    bib.write_text(original.replace("study 12}", "study twelve, back}"), encoding="utf-8")
    assert "study twelve, back" in _print(project)[0][1]
    assert _print(project) == _print_without_cache(project)


def test_only_the_changed_entries_are_derived_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _print(project)
    bib = project / "refs" / "library.bib"
    _edit(bib, "study 4}", "study four}")
    _edit(bib, "study 7}", "study seven}")
    seen: list[str] = []
    real = api.entry_json
    monkeypatch.setattr("citekit.api.library.entry_json", lambda e: (seen.append(e.key), real(e))[1])
    rows = json.loads(CliRunner().invoke(main, ["-C", str(project), "list", "--json"]).stdout)
    assert sorted(seen) == ["k4_004", "k4_007"]
    titles = {r["key"]: r["title"] for r in rows}
    assert titles["k4_004"].endswith("study four") and titles["k4_007"].endswith("study seven")


def test_a_write_after_a_hand_edit_writes_what_a_full_render_writes(project: Path, tmp_path: Path) -> None:
    _print(project)
    _edit(project / "refs" / "library.bib", "study 4}", "study four}")
    other = tmp_path / "other"
    shutil.copytree(project / "refs", other / "refs")
    for root, cache in ((project, True), (other, False)):
        lib = Library.load(root / "refs", use_cache=cache)
        lib.get("k4_010").tags_added.append("touched")
        lib.save()
    for name in ("library.bib", "library.yaml"):
        assert (project / "refs" / name).read_bytes() == (other / "refs" / name).read_bytes()


@pytest.mark.skipif(not BIG.exists(), reason="the corpora beside the repository are not there (a user's clone)")
def test_the_real_library_after_a_hand_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["-C", str(root), "import", str(BIG)]).exit_code in (0, 1)
    listed = runner.invoke(main, ["-C", str(root), "list"]).stdout
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    at = text.index("  title", len(text) // 2)
    end = text.index("},\n", at)
    bib.write_text(text[:at] + text[at:end] + " {\\`a} la main" + text[end:], encoding="utf-8")
    seen: list[str] = []
    real = api.entry_json
    monkeypatch.setattr("citekit.api.library.entry_json", lambda e: (seen.append(e.key), real(e))[1])
    after = runner.invoke(main, ["-C", str(root), "list"]).stdout
    assert len(seen) == 1 and " à la main" in after
    assert len(after.splitlines()) == len(listed.splitlines())
    changed = [a for a, b in zip(after.splitlines(), listed.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0].startswith(seen[0])
    shutil.rmtree(root / ".citekit")
    monkeypatch.setattr("citekit.api.library.entry_json", real)
    assert runner.invoke(main, ["-C", str(root), "list"]).stdout == after


def test_remembered_block_records_are_dropped_once_every_record_is_json_lines(tmp_path: Path) -> None:
    """After the upgrade from format 2, the blocks remembered from the old file are of no
    later file: the first load of a sidecar whose records are all JSON lines removes them."""
    text = _written_sidecar(tmp_path)
    old = HEAD + sidecar_dump(yaml.load(text, Loader=LOADER), DUMPER)
    cache = tmp_path / "c" / "refs"
    cache.mkdir(parents=True)
    assert sidecar_read.load(old, LOADER, cache) is not None
    assert sidecar_read.cache_path(cache).exists()
    assert sidecar_read.load(text, LOADER, cache) == yaml.load(text, Loader=LOADER)
    assert not sidecar_read.cache_path(cache).exists()
