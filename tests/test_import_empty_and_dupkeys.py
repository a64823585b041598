"""Import: entries skipped for a repeated key are counted and named; empty fields are kept."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

from .test_compile import _assert_clean_log, _compile_biber, _compile_bibtex, _require

JABREF = """% This file was created with JabRef 2.10.
@Article{doe2020,
  Author                   = {Doe, Jane},
  Title                    = {A Study of Widgets},
  Journal                  = {Widget Review},
  Year                     = {2020},
  OPTkey                   = "",
  OPTvolume                = {},
  Note                     = {}
}
@InProceedings{roe2019,
  Author                   = {Roe, Richard and others},
  Title                    = {Gadgets at Scale},
  Booktitle                = {Proc. Gadget Conference},
  Year                     = {2019},
  Owner                    = {}
}
"""


def _dup(key: str, n: int) -> str:
    return f"@Misc{{{key},\n  author = {{Other, Person{n}}},\n  title = {{Another Thing {n}}},\n  year = {{2001}}\n}}\n"


def project(tmp_path: Path) -> Path:
    (tmp_path / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    return tmp_path


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def test_repeated_keys_are_counted_and_named_in_the_summary(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "old.bib"
    dupes = "".join(_dup("doe2020" if i % 2 else "roe2019", i) for i in range(5))
    bib.write_text(JABREF + dupes, encoding="utf-8")
    result = run(root, "import", str(bib))
    summary = result.stdout.strip().splitlines()[-1]
    assert "skipped 5 entries whose key an earlier entry of the same file has" in summary
    assert "doe2020 (old.bib:" in summary and "roe2019 (old.bib:" in summary
    data = json.loads(run(root, "import", str(bib), "--dry-run", "--json").stdout)
    assert len(data["duplicate_keys"]) == 5
    assert {d["key"] for d in data["duplicate_keys"]} == {"doe2020", "roe2019"}


def test_many_repeated_keys_name_some_and_count_all(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "big.bib"
    bib.write_text(JABREF + "".join(_dup(f"k{i % 3}", i) for i in range(23)), encoding="utf-8")
    summary = run(root, "import", str(bib)).stdout.strip().splitlines()[-1]
    # the first of each key is imported; the 20 later ones are skipped
    assert "skipped 20 entries whose key" in summary and "and 12 more" in summary


def test_empty_fields_survive_import_and_syncs(tmp_path: Path) -> None:
    root = project(tmp_path)
    bib = root / "jabref.bib"
    bib.write_text(JABREF, encoding="utf-8")
    run(root, "import", str(bib))
    for _ in range(2):
        lib = Library.load(root / "refs")
        assert lib.entries["doe2020"].fields["optkey"] == ""
        assert lib.entries["doe2020"].fields["optvolume"] == ""
        assert lib.entries["doe2020"].fields["note"] == ""
        assert lib.entries["roe2019"].fields["owner"] == ""
        assert not lib.entries["doe2020"].hand
        run(root, "sync", "--offline")
    text = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert "optkey        = {}," in text


def test_empty_fields_compile_without_warnings(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "jabref.bib").write_text(JABREF, encoding="utf-8")
    run(root, "import", str(root / "jabref.bib"))
    bib = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    _require("pdflatex", "bibtex", "biber")
    for compile_, marks in ((_compile_bibtex, ("Warning--", "error message")), (_compile_biber, ("WARN", "ERROR"))):
        out = tmp_path / compile_.__name__
        out.mkdir()
        blg, log = compile_(out, bib, ["doe2020", "roe2019"])
        # the shared biblatex template also cites a key of its own, absent here
        lines = [ln for ln in blg.splitlines() if "huang2025limuon" not in ln and "WARNINGS: 1" not in ln]
        assert not any(m in ln for ln in lines for m in marks), blg
        if compile_ is _compile_bibtex:
            _assert_clean_log(log)
