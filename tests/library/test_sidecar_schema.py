"""The sidecar is checked for type and shape on every read; notes paths in it are relative and round-trip.

Each wrong value of ``refs/library.yaml`` is refused with exit 2, naming the file, the
entry, the part and the right shape, whichever reader meets it (the JSON lines citekit
writes, or YAML's block style of a hand edit), and a refused sidecar leaves both files as
they were. Notes file names that are not UTF-8 are escaped so a fresh clone reads them
back, and a notes symlink pointing out of the notes folder is read only when
``citekit.yaml`` says so; no absolute path is ever written.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from citekit import api
from citekit.cli import main

from ..helpers_cli import NOTES, synced_project

PAPER_TWO = """# ICML 2026

- Exploiting weight-space symmetries for approximating curvature #muon
  - Authors: Artem Artemev, Rui Xia
"""
SIDECAR_HEAD = ("# citekit sidecar: what BibTeX cannot hold (status, ids, tags, summaries, provenance).\n"
                "# Safe to edit 'summary' and 'tags: added/removed' by hand; keep the rest as citekit wrote it.\n"
                "# citekit-sidecar: 3\n")
SIDECAR_END = "# end of citekit sidecar\n"


def run(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["-C", str(root), *args])


def no_traceback(result: Result) -> bool:
    return result.exception is None or isinstance(result.exception, SystemExit)


def both_files(root: Path) -> tuple[bytes | None, bytes | None]:
    def read(name: str) -> bytes | None:
        path = root / "refs" / name
        return path.read_bytes() if path.exists() else None

    return read("library.bib"), read("library.yaml")


def sidecar_data(root: Path) -> dict[str, Any]:
    return yaml.safe_load((root / "refs" / "library.yaml").read_text(encoding="utf-8"))


def write_sidecar(root: Path, data: Any, *, json_lines: bool = True) -> None:
    """``data`` as a sidecar with citekit's head and end lines: each record's parts as JSON
    lines (what citekit writes, read by the JSON codec), or the whole file in YAML's block
    style (a hand edit, read by YAML)."""
    path = root / "refs" / "library.yaml"
    if not isinstance(data, dict) or not json_lines or not isinstance(data.get("entries"), dict) or not data["entries"]:
        body = yaml.safe_dump(data, allow_unicode=True, sort_keys=True, width=100) if data is not None else ""
        path.write_text(SIDECAR_HEAD + body + SIDECAR_END, encoding="utf-8")
        return
    rest = {k: v for k, v in data.items() if k != "entries"}
    lines = []
    for key, meta in data["entries"].items():
        lines.append(f"  {json.dumps(key)}:")
        if isinstance(meta, dict) and meta:
            lines += [f"    {name}: {json.dumps(value, ensure_ascii=False)}" for name, value in sorted(meta.items())]
        else:
            lines[-1] += f" {json.dumps(meta)}"
    rest_text = yaml.safe_dump(rest, allow_unicode=True, sort_keys=True, width=100) if rest else ""
    path.write_text(SIDECAR_HEAD + rest_text + "entries:\n" + "\n".join(lines) + "\n" + SIDECAR_END, encoding="utf-8")


def refused(root: Path, *args: str) -> Result:
    """Run a command that must refuse the sidecar: exit 2, no traceback, both files untouched."""
    before = both_files(root)
    result = run(root, *args)
    assert result.exit_code == 2, result.output
    assert no_traceback(result), result.exception
    assert "refs/library.yaml" in result.output and "damaged" in result.output
    assert both_files(root) == before
    return result


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return synced_project(tmp_path)


def first_key(root: Path) -> str:
    return sorted(sidecar_data(root)["entries"])[0]


# ---- finding 9: a string where a list belongs -----------------------------------------


@pytest.mark.parametrize("json_lines", [True, False], ids=["json-lines", "yaml-block"])
def test_a_tag_string_is_refused_not_split_into_letters(project: Path, json_lines: bool) -> None:
    data = sidecar_data(project)
    key = first_key(project)
    data["entries"][key]["tags"] = {"added": "must-read"}
    write_sidecar(project, data, json_lines=json_lines)
    for args in (["list"], ["show", key], ["tag", key, "+x"], ["export"]):
        result = refused(project, *args)
        assert f"entry '{key}', part 'tags.added'" in result.output
        assert '["must-read"]' in result.output  # the fix: a list, even for one tag
    assert "{-, a" not in (project / "refs" / "library.bib").read_text(encoding="utf-8")


# ---- finding 4: an empty or wrong-shaped sidecar ---------------------------------------


@pytest.mark.parametrize("text", ["", "# only a comment\n", "entries: []\n", "entries: x\n", "entries:\n",
                                  "[]\n", "just text\n", "version: 3\n", "{}\n"],
                         ids=["empty", "comment", "entries-list", "entries-text", "entries-null", "list", "text",
                              "no-entries", "empty-mapping"])
def test_an_empty_or_wrong_shaped_sidecar_is_refused(project: Path, text: str) -> None:
    (project / "refs" / "library.yaml").write_text(text, encoding="utf-8")
    for args in (["list"], ["tag", first_key_of_bib(project), "+x"]):
        result = refused(project, *args)
        assert "refs/library.yaml is damaged" in result.output
    before = both_files(project)
    doctor = run(project, "doctor")
    assert doctor.exit_code != 0 and "all good" not in doctor.output, doctor.output
    assert no_traceback(doctor) and both_files(project) == before


def first_key_of_bib(root: Path) -> str:
    text = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    return text.split("@inproceedings{", 1)[1].split(",", 1)[0]


def test_a_library_without_entries_is_still_read(tmp_path: Path) -> None:
    root = synced_project(tmp_path, notes="# nothing here yet\n\nJust a line.\n")
    assert "entries: {}" in (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    shutil.rmtree(root / ".citekit")
    assert run(root, "list").exit_code == 0
    doctor = run(root, "doctor")
    assert doctor.exit_code == 0 and "all good" in doctor.output, doctor.output


def test_a_hand_written_bib_without_sidecar_is_still_read(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "refs").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# t\n", encoding="utf-8")
    (root / "refs" / "library.bib").write_text("@article{mine2024,\n  title = {Mine},\n  year = {2024},\n}\n",
                                                encoding="utf-8")
    result = run(root, "list")
    assert result.exit_code == 0 and "mine2024" in result.output, result.output


# ---- finding 10: wrong types in any part, through both readers -------------------------

WRONG_PARTS = [
    ("ids", "10.1/x", "ids"), ("ids", {"doi": 5}, "ids.doi"), ("ids", {"isbn": "1"}, "ids.isbn"),
    ("tags", ["muon"], "tags"), ("tags", {"added": [["a"]]}, "tags.added[0]"), ("tags", {"add": ["a"]}, "tags.add"),
    ("mentions", "notes/icml.md:3", "mentions"), ("mentions", [3], "mentions[0]"),
    ("mentions", ["notes/icml.md"], "mentions[0]"), ("mentions", ["notes/icml.md:\u00b2"], "mentions[0]"),
    ("generated", ["title"], "generated"), ("generated", {"title": 5}, "generated.title"),
    ("generated", {"title": None}, "generated.title"), ("generated_hash", "abc", "generated_hash"),
    ("versions", "arxiv", "versions"), ("versions", [[1]], "versions[0]"),
    ("versions", [{"title": 5}], "versions[0].title"), ("versions", [{"urls": "https://x"}], "versions[0].urls"),
    ("versions", [{"extra": [[1]]}], "versions[0].extra"),
    ("aliases", "oldkey", "aliases"), ("aliases", [None], "aliases[0]"), ("hand", "title", "hand"),
    ("status", 5, "status"), ("status", ["resolved"], "status"), ("origin", True, "origin"),
    ("summary", {"a": 1}, "summary"), ("reason", [], "reason"), ("provenance", [1], "provenance"),
    ("tag", {"added": ["x"]}, "'tag'"),
    ("import_record", "zotero.bib", "import_record"), ("import_record", {"key": 5}, "import_record.key"),
    ("import_record", {"fields": {"title": "3b0e"}}, "import_record.fields"),
    ("import_record", {"path": "x.bib"}, "import_record.path"),
]


@pytest.mark.parametrize("json_lines", [True, False], ids=["json-lines", "yaml-block"])
@pytest.mark.parametrize(("part", "value", "named"), WRONG_PARTS, ids=[f"{p}-{n}" for p, _, n in WRONG_PARTS])
def test_a_wrong_typed_part_is_refused_naming_entry_and_part(project: Path, part: str, value: Any, named: str,
                                                             json_lines: bool) -> None:
    data = sidecar_data(project)
    key = first_key(project)
    data["entries"][key][part] = value
    write_sidecar(project, data, json_lines=json_lines)
    result = refused(project, "list")
    assert f"entry '{key}', part " in result.output and named in result.output, result.output
    assert "expected" in result.output and "git checkout" in result.output
    refused(project, "show", key)
    refused(project, "tag", key, "+x")


WRONG_TOP = [
    ({"issued_keys": "k"}, "'issued_keys'"), ({"issued_keys": [{"a": 1}]}, "'issued_keys'"),
    ({"ascii": "yes"}, "'ascii'"), ({"pending": "x"}, "'pending'"), ({"pending": [{"where": "notes/a.md:1"}]},
                                                                      "'pending[0].where'"),
    ({"detached": []}, "'detached'"), ({"detached": {"gone2020": "x"}}, "detached record 'gone2020'"),
    ({"version": "3"}, "'version'"), ({"version": 99}, "newer citekit"), ({"bib_checksum": 5}, "'bib_checksum'"),
    ({"entires": {}}, "'entires'"),
]


@pytest.mark.parametrize(("change", "named"), WRONG_TOP, ids=[n for _, n in WRONG_TOP])
def test_a_wrong_typed_top_level_part_is_refused(project: Path, change: dict[str, Any], named: str) -> None:
    data = sidecar_data(project)
    data.update(change)
    write_sidecar(project, data)
    result = refused(project, "list")
    assert named in result.output, result.output


@pytest.mark.parametrize("record", ["text", [], 5, None], ids=["text", "list", "number", "null"])
def test_a_record_that_is_not_a_mapping_is_refused(project: Path, record: Any) -> None:
    data = sidecar_data(project)
    key = first_key(project)
    data["entries"][key] = record
    write_sidecar(project, data, json_lines=False)
    assert f"entry '{key}'" in refused(project, "list").output


def test_a_number_too_long_to_read_is_refused(project: Path) -> None:
    path = project / "refs" / "library.yaml"
    text = path.read_text(encoding="utf-8")
    assert 'status: "notes-only"' in text
    path.write_text(text.replace('status: "notes-only"', "status: " + "9" * 5000, 1), encoding="utf-8")
    assert "4300 digits" in refused(project, "list").output


def test_a_nesting_too_deep_to_read_is_refused(project: Path) -> None:
    path = project / "refs" / "library.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('status: "notes-only"', "status: " + "[" * 100_000 + "]" * 100_000, 1),
                    encoding="utf-8")
    assert "recursion" in refused(project, "list").output


def test_a_key_yaml_reads_as_a_number_is_refused(project: Path) -> None:
    data = sidecar_data(project)
    data["entries"][2020] = data["entries"].pop(first_key(project))
    write_sidecar(project, data, json_lines=False)
    assert "2020" in refused(project, "list").output


def test_a_hand_edit_after_a_cached_read_is_checked(project: Path) -> None:
    """The parsed-library cache never stands for a sidecar edited since: the edit is read and refused."""
    assert run(project, "list").exit_code == 0  # the cache is fresh now
    path = project / "refs" / "library.yaml"
    text = path.read_text(encoding="utf-8")
    assert '"auto": ["muon"]' in text
    path.write_text(text.replace('"auto": ["muon"]', '"auto": "muon"', 1), encoding="utf-8")
    assert "part 'tags.auto'" in refused(project, "list").output
    doctor = run(project, "doctor")
    assert doctor.exit_code == 1 and "part 'tags.auto'" in doctor.output, doctor.output


def test_older_formats_still_pass_the_check(tmp_path: Path) -> None:
    data_dir = Path(__file__).parents[1] / "data"
    for name in ("sidecar-v1", "sidecar-v2"):
        root = tmp_path / name
        shutil.copytree(data_dir / name, root / "refs")
        (root / "citekit.yaml").write_text("# t\n", encoding="utf-8")
        result = run(root, "list")
        assert result.exit_code == 0, result.output


# ---- the mutation property: any change is read, or refused cleanly -----------------------

_OTHER_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5000), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6), st.lists(st.text(max_size=4), max_size=2),
    st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=4), st.one_of(st.integers(0, 3), st.text(max_size=3)), max_size=2),
)
_WHOLE_FILES = ("", "entries: []\n", "entries: x\n", "[]\n", "entries:\n")


@pytest.fixture(scope="module")
def base_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synced project whose first record has every optional part too."""
    root = synced_project(tmp_path_factory.mktemp("base"))
    data = sidecar_data(root)
    key = sorted(data["entries"])[0]
    data["entries"][key].update({"summary": "A summary.", "ids": {"arxiv": "2509.14562"}, "hand": [],
                                 "tags": {"added": ["mine"], "auto": ["muon"], "removed": ["theory"]}})
    write_sidecar(root, data)
    result = run(root, "tag", key, "+again")
    assert result.exit_code == 0, result.output  # a sound base, rewritten by citekit itself
    shutil.rmtree(root / ".citekit")
    return root


def _mutate(draw: Any, data: Any) -> Any:
    """``data`` with one value somewhere replaced by another of any type, or one key dropped."""
    holder, key = None, None
    node = data
    while isinstance(node, (dict, list)) and node and (holder is None or draw(st.booleans())):
        keys = sorted(node, key=str) if isinstance(node, dict) else list(range(len(node)))
        holder, key = node, draw(st.sampled_from(keys))
        node = node[key]
    if holder is None:
        return draw(_OTHER_VALUES)
    if isinstance(holder, dict) and draw(st.booleans()):
        del holder[key]
    else:
        holder[key] = draw(_OTHER_VALUES)
    return data


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(plan=st.data())
def test_mutated_sidecars_are_read_or_refused_cleanly(base_project: Path, plan: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "proj"
        shutil.copytree(base_project, root)
        key = first_key(root)
        if plan.draw(st.integers(0, 9), label="whole file?") == 0:
            (root / "refs" / "library.yaml").write_text(plan.draw(st.sampled_from(_WHOLE_FILES)), encoding="utf-8")
        else:
            data = sidecar_data(root)
            # mostly inside the records, sometimes anywhere in the document
            target = data["entries"] if plan.draw(st.integers(0, 3)) else data
            _mutate(plan.draw, target)
            write_sidecar(root, data, json_lines=plan.draw(st.booleans(), label="json lines"))
        for args in (["list"], ["show", key], ["doctor"], ["tag", key, "+fuzz"]):
            before = both_files(root)
            result = run(root, *args)
            event(f"{args[0]} exit {result.exit_code}")
            assert result.exit_code in (0, 1, 2), (args, result.output)
            assert no_traceback(result), (args, result.output, result.exception)
            if result.exit_code == 2:
                assert both_files(root) == before, args


# ---- finding 2: notes file names that are not UTF-8 -------------------------------------

ODD_NAMES = [b"L\xf6sung.md", b"100%41 done.md", b"50% done.md", b"bad\xed\xa0\x80.md", b"tab\there.md",
             b"line\nbreak.md", b"sep\xe2\x80\xa8.md", b"\xef\xbb\xbfbom.md", b"colon:3.md", b"\xff\xfe.md"]


@pytest.mark.parametrize("name", ODD_NAMES, ids=[repr(n)[2:-1] for n in ODD_NAMES])
def test_a_fresh_clone_reads_back_mentions_of_any_notes_file_name(tmp_path: Path, name: bytes) -> None:
    root = synced_project(tmp_path)
    notes = os.fsencode(root / "notes")
    with open(os.path.join(notes, name), "wb") as fh:
        fh.write(PAPER_TWO.encode("utf-8"))
    result = run(root, "sync", "--offline", "-q")
    assert result.exit_code == 0, result.output
    text = (root / "refs" / "library.yaml").read_text(encoding="utf-8")  # UTF-8, no lone surrogate
    shutil.rmtree(root / ".citekit")  # a fresh clone
    listed = run(root, "list")
    assert listed.exit_code == 0 and "artemev2026exploiting" in listed.output, listed.output
    doctor = run(root, "doctor")
    assert doctor.exit_code == 0 and "all good" in doctor.output, doctor.output
    from citekit.notes.reader import unescape_name

    [mention] = api.load_library(root).get("artemev2026exploiting").mentions
    assert mention.file.startswith("notes/") and "\\udc" not in text
    assert os.fsencode(unescape_name(mention.file)) == b"notes/" + name  # the name leads back to the file
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    assert (root / "refs" / "library.yaml").read_text(encoding="utf-8") == text  # a second sync changes nothing


def test_a_sidecar_written_with_lone_surrogates_is_read_and_settled(tmp_path: Path) -> None:
    """What earlier versions wrote for such a name (``"notes/L\\udcf6sung.md:3"``, which no
    YAML reader accepts) is read as the escaped name, and the next sync writes it so."""
    root = synced_project(tmp_path)
    with open(os.path.join(os.fsencode(root / "notes"), b"L\xf6sung.md"), "wb") as fh:
        fh.write(PAPER_TWO.encode("utf-8"))
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    path = root / "refs" / "library.yaml"
    now = path.read_text(encoding="utf-8")
    assert "notes/L%F6sung.md:3" in now
    path.write_text(now.replace("L%F6sung", "L\\udcf6sung"), encoding="utf-8")  # as written before
    shutil.rmtree(root / ".citekit")
    listed = run(root, "list")
    assert listed.exit_code == 0 and "artemev2026exploiting" in listed.output, listed.output
    assert run(root, "sync", "--offline", "-q").exit_code == 0
    assert path.read_text(encoding="utf-8") == now


def test_an_ordinary_name_is_stored_as_it_is() -> None:
    from citekit.notes.reader import escape_name

    for name in ("notes/icml.md", "notes/50% done.md", "notes/Lösung.md", "notes/日本語.txt"):
        assert escape_name(name) == name
    assert escape_name(os.fsdecode(b"notes/L\xf6sung.md")) == "notes/L%F6sung.md"


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=1, max_size=12))
def test_escaped_names_round_trip_for_any_bytes(raw: bytes) -> None:
    from citekit.notes.reader import escape_name, unescape_name

    name = os.fsdecode(raw)
    escaped = escape_name(name)
    escaped.encode("utf-8")  # storable: no lone surrogate
    assert os.fsencode(unescape_name(escaped)) == raw


# ---- finding 12: notes symlinks pointing out of notes/ ----------------------------------


def _linked_project(tmp_path: Path) -> tuple[Path, Path]:
    root = synced_project(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(PAPER_TWO, encoding="utf-8")
    (root / "notes" / "linked.md").symlink_to(outside / "secret.md")
    (root / "notes" / "shared").symlink_to(outside, target_is_directory=True)
    return root, outside


def test_a_symlink_out_of_notes_is_not_read_by_default(tmp_path: Path) -> None:
    root, outside = _linked_project(tmp_path)
    result = run(root, "sync", "--offline")
    assert result.exit_code in (0, 1), result.output
    assert result.output.count("outside the notes folder") == 2, result.output  # one message per link
    assert "follow_symlinks_out_of_notes" in result.output
    for name in ("library.yaml", "library.bib"):
        text = (root / "refs" / name).read_text(encoding="utf-8")
        assert str(tmp_path) not in text and "artemev2026exploiting" not in text


def test_a_symlink_out_of_notes_is_read_when_the_config_says_so(tmp_path: Path) -> None:
    root, outside = _linked_project(tmp_path)
    (root / "citekit.yaml").write_text("paths:\n  follow_symlinks_out_of_notes: true\n", encoding="utf-8")
    result = run(root, "sync", "--offline", "-q")
    assert result.exit_code == 0, result.output
    text = (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert "artemev2026exploiting" in text and str(tmp_path) not in text and "outside" not in text
    from citekit.notes.reader import unescape_name

    [mention] = api.load_library(root).get("artemev2026exploiting").mentions
    assert mention.file == "notes/linked.md"  # named where it was found, never by its target


def test_explain_reads_the_files_a_sync_reads(tmp_path: Path) -> None:
    root, _outside = _linked_project(tmp_path)
    def linked() -> Any:
        return next(e for e in api.explain(start=root) if e.file == "notes/linked.md")

    skipped = linked()  # named, with the message that it was skipped, and nothing read
    assert not skipped.decisions and any("outside the notes folder" in str(p) for p in skipped.problems)
    (root / "citekit.yaml").write_text("paths:\n  follow_symlinks_out_of_notes: true\n", encoding="utf-8")
    assert linked().decisions and not linked().problems


def test_links_inside_notes_and_loops_read_each_file_once(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    (root / "notes" / "sub").mkdir()
    (root / "notes" / "sub" / "two.md").write_text(PAPER_TWO, encoding="utf-8")
    (root / "notes" / "sub" / "loop").symlink_to(root / "notes", target_is_directory=True)
    (root / "notes" / "again.md").symlink_to(root / "notes" / "sub" / "two.md")
    (root / "citekit.yaml").write_text("paths:\n  follow_symlinks_out_of_notes: true\n", encoding="utf-8")
    result = run(root, "sync", "--offline", "-q")
    assert result.exit_code == 0, result.output
    [mention] = api.load_library(root).get("artemev2026exploiting").mentions
    assert mention.file == "notes/again.md"  # the first name in sorted order, read once


def test_a_notes_folder_outside_the_project_gives_relative_names(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    elsewhere = tmp_path / "elsewhere" / "mynotes"
    shutil.move(str(root / "notes"), elsewhere)
    (root / "citekit.yaml").write_text("paths:\n  notes: ../elsewhere/mynotes\n  outside_project: [notes]\n",
                                         encoding="utf-8")
    result = run(root, "sync", "--offline", "-q")
    assert result.exit_code == 0, result.output
    text = (root / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert str(tmp_path) not in text and '"../elsewhere/mynotes/icml.md:' in text


# ---- both readers: the JSON lines and YAML give the same data, hence the same verdict ----

_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6)
_PART_NAMES = ["status", "ids", "tags", "mentions", "generated", "versions", "aliases", "hand", "summary", "zz"]


@settings(max_examples=300, deadline=None)
@given(record=st.dictionaries(st.sampled_from(_PART_NAMES), _JSON_VALUES, min_size=1, max_size=4))
def test_the_json_reader_and_yaml_agree_on_any_record(record: dict[str, Any]) -> None:
    from citekit.library.store.sidecar import read as sidecar_read
    from citekit.library.store.sidecar.schema import document_problem

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    lines = "".join(f"    {name}: {json.dumps(value)}\n" for name, value in sorted(record.items()))
    text = "version: 3\nentries:\n  key2026:\n" + lines
    try:
        whole = yaml.load(text, Loader=loader)
    except yaml.YAMLError:
        whole = None  # YAML refuses it: the fast reader must not read it either
    fast = sidecar_read.load(text, loader, None)
    if fast is not None:  # None: the file is loaded whole, by YAML
        assert fast == whole
        assert document_problem(fast) == document_problem(whole)


# ---- records missing although both files come from one write ------------------------------

def _drop_records(root: Path, keep: int) -> list[str]:
    """Rewrite the sidecar's ``entries`` with only its first ``keep`` records, keeping the
    header, the checksum and everything else, as a hand edit or a bad merge would."""
    path = root / "refs" / "library.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    keys = sorted(data["entries"])
    data["entries"] = {k: data["entries"][k] for k in keys[:keep]}
    lines = path.read_text(encoding="utf-8").splitlines(True)
    first = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    last = max(i for i, line in enumerate(lines) if not line.startswith("#"))
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    path.write_text("".join(lines[:first]) + body + "".join(lines[last + 1:]), encoding="utf-8")
    return keys[keep:]


@pytest.mark.parametrize("keep", [0, 1])
def test_a_sidecar_missing_records_of_the_same_write_is_refused(tmp_path: Path, keep: int) -> None:
    root = synced_project(tmp_path)
    dropped = _drop_records(root, keep)
    before = both_files(root)
    listed = run(root, "list")
    assert listed.exit_code == 2 and no_traceback(listed), listed.output
    assert "library.yaml is damaged" in listed.output and f"no record for {len(dropped)} " in listed.output
    assert f"'{dropped[0]}'" in listed.output and "doctor --rebuild-sidecar" in listed.output
    tagged = run(root, "tag", dropped[0], "+x")
    assert tagged.exit_code == 2 and both_files(root) == before  # nothing rewritten as hand-written
    assert run(root, "doctor").exit_code == 1


def test_an_entry_added_by_hand_to_library_bib_needs_no_record(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    with (root / "refs" / "library.bib").open("a", encoding="utf-8") as bib:
        bib.write("\n@misc{mine2026note,\n  title = {My Own Note},\n  author = {Me, Myself},\n  year = {2026},\n}\n")
    listed = run(root, "list")
    assert listed.exit_code == 0 and "mine2026note" in listed.output, listed.output
