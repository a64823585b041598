"""A second import adds its renames to refs/import-keymap.yaml instead of replacing the first one's."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.rekey import extend_key_map
from citekit.library.store import Library
from citekit.core.model import Entry


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def entry(key: str, title: str, author: str, year: str) -> str:
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{{author}}},\n  journal = {{J}},\n  year = {{{year}}}\n}}\n"


def test_second_import_keeps_the_first_imports_renames(tmp_path: Path) -> None:
    (tmp_path / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    lib = Library.load(tmp_path / "refs")
    for key in ("smith2020", "lee2019", "okafor2021"):
        lib.add(Entry(key=key, entry_type="misc", fields={"title": f"Library paper {key}", "author": "Zed, Q.",
                                                           "year": "2000"}))
    lib.save()
    first = tmp_path / "first.bib"
    first.write_text(entry("smith2020", "Widgets at Scale", "Smith, Ann", "2020")
                     + entry("lee2019", "Gadgets and Gizmos", "Lee, Bo", "2019"), encoding="utf-8")
    second = tmp_path / "second.bib"
    second.write_text(entry("okafor2021", "Sprockets Revisited", "Okafor, Chi", "2021"), encoding="utf-8")
    third = tmp_path / "third.bib"  # nothing to rename: the map must still stay as it was
    third.write_text(entry("fresh2022", "Brand New Things", "Fresh, Dee", "2022"), encoding="utf-8")

    assert run(tmp_path, "import", str(first)).exit_code in (0, 1)
    path = tmp_path / "refs" / "import-keymap.yaml"
    after_first = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(after_first) == {"smith2020", "lee2019"}
    assert run(tmp_path, "import", str(second)).exit_code in (0, 1)
    assert run(tmp_path, "import", str(third)).exit_code in (0, 1)
    after = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {k: after[k] for k in after_first} == after_first  # earlier renames kept
    assert set(after) == {"smith2020", "lee2019", "okafor2021"}
    lib = Library.load(tmp_path / "refs")
    assert lib.entries[after["okafor2021"]].title == "Sprockets Revisited"
    assert lib.entries[after["lee2019"]].title == "Gadgets and Gizmos"

    tex = tmp_path / "paper.tex"
    tex.write_text("\\cite{smith2020} and \\cite{okafor2021}\n", encoding="utf-8")
    assert run(tmp_path, "rekey", str(tex), "--map", str(path)).exit_code == 0
    assert tex.read_text(encoding="utf-8") == f"\\cite{{{after['smith2020']}}} and \\cite{{{after['okafor2021']}}}\n"


def test_extend_does_not_chain_file_keys_through_library_keys() -> None:
    # file key a went to library key b; a later file's own key b went to c: a still means b
    assert extend_key_map({"a": "b"}, {"b": "c"}) == {"a": "b", "b": "c"}
    assert extend_key_map({"a": "b", "x": "y"}, {"a": "d"}) == {"a": "d", "x": "y"}
    assert extend_key_map({}, {"k": "k"}) == {}
