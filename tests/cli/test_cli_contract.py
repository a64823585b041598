"""The command-line contract, checked on every command the ``citekit`` group knows.

Commands are discovered from the group, so a command added later is held to the generic
rules at once (help with runnable examples, ``-h``, ``-q``/``--json``, ``-C``); the
scenario table gives each command a run that is clean (exit 0), one with findings
(exit 1) and one with a usage or input error (exit 2), and must name every command.
"""

from __future__ import annotations

import json
import os
import shlex
import warnings
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.cli.app import COMMANDS, NO_JSON, NO_QUIET
from citekit.cli.examples import EXAMPLES

from ..helpers_cli import digest, synced_project

GOOD_BIB = """@article{knuth1984literate,
  author = {Knuth, Donald E.}, title = {Literate Programming}, journal = {The Computer Journal},
  year = {1984}, volume = {27}, number = {2}, pages = {97--111}}
"""

# the second entry repeats the first one's key: it is skipped, which is a finding
SKIPPING_BIB = GOOD_BIB.replace("knuth1984literate", "lamport1986latex").replace("Literate Programming", "LaTeX") * 2

DUPES_BIB = """@inproceedings{vaswani2017attention,
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki}, title = {Attention Is All You Need},
  booktitle = {NeurIPS}, year = {2017}}
@misc{attention2017,
  author = {Ashish Vaswani and Noam Shazeer and Niki Parmar}, title = {Attention is all you need},
  year = {2017}, eprint = {1706.03762}, archiveprefix = {arXiv}}
"""


def commands() -> list[str]:
    with click.Context(main) as ctx:
        return main.list_commands(ctx)


def invoke(root: Path, *args: str):
    """``citekit -C ROOT ...`` run from ROOT, so the scenario's file names resolve there."""
    old = Path.cwd()
    os.chdir(root)
    try:
        return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A project with notes, a library built from them offline, and a small paper."""
    root = synced_project(tmp_path)
    (root / "empty-notes.md").write_text("Nothing about papers here, just a shopping list: milk.\n", encoding="utf-8")
    (root / "good.bib").write_text(GOOD_BIB, encoding="utf-8")
    (root / "skipping.bib").write_text(SKIPPING_BIB, encoding="utf-8")
    (root / "dupes.bib").write_text(DUPES_BIB, encoding="utf-8")
    (root / "mine.txt").write_text("We study the Muon optimizer.\n", encoding="utf-8")
    keys = [e["key"] for e in json.loads(invoke(root, "list", "--json").stdout)]
    assert len(keys) == 3, keys
    (root / "good.tex").write_text(f"\\citet{{{keys[0]}}} and \\citep{{{keys[1]}}}.\n", encoding="utf-8")
    (root / "bad.tex").write_text(f"\\cite{{{keys[0]},nosuchkey2026}}.\n", encoding="utf-8")
    (root / "key.txt").write_text(keys[0], encoding="utf-8")
    return root


def _key(root: Path) -> str:
    return (root / "key.txt").read_text(encoding="utf-8")


# command -> [(arguments, expected exit code)]; "KEY" is replaced by an entry's key.
SCENARIOS: dict[str, list[tuple[list[str], int]]] = {
    "init": [(["fresh"], 0), (["."], 2), (["--bogus"], 2)],
    "extract": [([], 0), (["empty-notes.md"], 1), (["missing.md"], 2)],
    "sync": [(["--offline"], 0), (["--jobs", "0"], 2)],
    "add": [(["--offline", "arXiv:2602.50082"], 0), (["--offline", "x"], 2), ([], 2)],
    "list": [([], 0), (["--tag", "typo"], 1), (["--status", "bogus"], 2), (["--author", "huang"], 0),
             (["--year", "1999"], 1), (["--year", "soon"], 2)],
    "show": [(["KEY"], 0), (["nosuchkey"], 2), ([], 2)],
    "search": [(["muon"], 0), (["author:nalisnick", "year:2024.."], 0), (["nosuchword"], 1), (["year:20x4"], 2),
               ([], 2)],
    "tags": [([], 0), (["--bogus"], 2)],
    "tag": [(["KEY", "+must-read", "-theory"], 0), (["nosuchkey", "+x"], 2), (["KEY", "+a,b"], 2)],
    "import": [(["good.bib"], 0), (["skipping.bib"], 1), (["missing.bib"], 2)],
    "dedup": [([], 0), (["dupes.bib"], 1), (["skipping.bib"], 1), (["good.bib"], 0), (["dupes.bib", "--apply"], 2)],
    "upgrade": [(["KEY"], 0), (["--all", "--dry-run"], 0), ([], 2), (["nosuchkey"], 2)],
    "rekey": [(["good.tex", "--dry-run"], 0), (["--dry-run"], 0), ([], 2)],
    "rename": [(["KEY", "renamed2026key"], 0), (["KEY", "bad key"], 2), (["nosuchkey", "x2026"], 2)],
    "export": [(["-o", "out.bib"], 0), (["--tag", "typo", "-o", "out.bib"], 1), (["--ascii", "-f", "csl-json"], 2)],
    "check": [(["good.tex"], 0), (["bad.tex"], 1), (["missing.tex"], 2)],
    "makefile": [([], 0), (["--format", "bogus"], 2)],
    "doctor": [([], 0), (["--bogus"], 2)],
    "git-setup": [(["--dry-run"], 0), ([], 2), (["--bogus"], 2)],
    "merge-driver": [(["refs/library.bib", "refs/library.bib", "refs/library.bib", "refs/library.bib"], 0),
                     (["missing.bib", "refs/library.bib", "refs/library.bib"], 2)],
    "resolve-conflict": [(["KEY", "--ours"], 0), (["nosuchkey", "--theirs"], 2), (["KEY"], 2)],
    "related-work": [(["--tag", "muon"], 0), (["--tag", "typo"], 1), ([], 2)],
    "suggest": [(["--dismissed"], 0), (["--tag", "typo"], 1), (["--tag", "muon", "--offline"], 1), ([], 2),
                (["--tag", "muon", "--limit", "0"], 2)],
    "graph": [(["--tag", "muon", "-o", "muon.svg", "--offline"], 0), (["--tag", "typo", "-o", "x.svg"], 1),
              (["--tag", "muon", "-o", "muon.png"], 2), ([], 2)],
}


def _args(root: Path, args: list[str]) -> list[str]:
    return [_key(root) if a == "KEY" else a for a in args]


def test_every_command_has_scenarios_and_a_registry_line():
    assert set(SCENARIOS) == set(commands()), "give every new command rows in SCENARIOS"
    assert set(COMMANDS) <= set(commands())
    for name in commands():
        assert {code for _, code in SCENARIOS[name]} >= {0, 2}, name


@pytest.mark.parametrize("name", commands())
def test_help_everywhere_ends_with_runnable_examples(name, tmp_path):
    runner = CliRunner()
    long_help = runner.invoke(main, [name, "--help"])
    short_help = runner.invoke(main, [name, "-h"])
    assert long_help.exit_code == 0 and short_help.exit_code == 0, long_help.output
    assert short_help.output == long_help.output
    tail = long_help.output.rstrip().split("\n\n")[-1].splitlines()
    assert tail[0] == "Examples:" and len(tail) >= 2, long_help.output
    assert [line.strip() for line in tail[1:]] == list(EXAMPLES[name])
    for line in EXAMPLES[name]:
        _parses(line, tmp_path)
    # the one-line help of `citekit --help` is the command's own first line
    if name in COMMANDS:
        with click.Context(main) as ctx:
            first = main.get_command(ctx, name).help.strip().split("\n\n")[0].replace("\n", " ")
        assert COMMANDS[name][1] == first


def test_top_level_help_ends_with_examples(tmp_path):
    result = CliRunner().invoke(main, ["-h"])
    assert result.exit_code == 0
    assert result.output.rstrip().split("\n\n")[-1].startswith("Examples:")
    for line in EXAMPLES["citekit"]:
        _parses(line, tmp_path)


def _parses(line: str, where: Path) -> None:
    """``line`` (a shell line) is a valid citekit invocation: every option and argument is accepted."""
    words = shlex.split(line.split("#")[0])
    if ">" in words:
        words = words[:words.index(">")]
    if ">>" in words:
        words = words[:words.index(">>")]
    assert words[0] == "citekit", line
    args = words[1:]
    old = Path.cwd()
    os.chdir(where)
    try:
        for i, word in enumerate(args):  # files the example names exist, as they would for the reader
            if args[i - 1] == "-C" and i:
                Path(word).mkdir(parents=True, exist_ok=True)
            elif Path(word).suffix in {".bib", ".tex", ".aux", ".md", ".yaml", ".txt", ".json"} and args[i - 1] not in ("-o", "--map"):
                Path(word).parent.mkdir(parents=True, exist_ok=True)
                Path(word).touch()
        ctx = main.make_context("citekit", list(args))
        with warnings.catch_warnings():  # protected_args: deprecated in click 8.2, still where the name is
            warnings.simplefilter("ignore", DeprecationWarning)
            _name, cmd, rest = main.resolve_command(ctx, [*ctx.protected_args, *ctx.args])
        assert cmd is not None, line
        cmd.make_context(_name, rest, parent=ctx)
    except click.exceptions.ClickException as exc:
        raise AssertionError(f"example does not parse: {line!r}: {exc.format_message()}") from exc
    finally:
        os.chdir(old)


@pytest.mark.parametrize("name", commands())
def test_quiet_and_json_options(name):
    with click.Context(main) as ctx:
        cmd = main.get_command(ctx, name)
    opts = {o for p in cmd.params for o in getattr(p, "opts", [])}
    assert ("--json" in opts) == (name not in NO_JSON), name
    assert ({"-q", "--quiet"} <= opts) == (name not in NO_QUIET), name
    assert NO_JSON <= {"makefile", "related-work"}  # documents, not reports; keep the exemptions few


@pytest.mark.parametrize("name", commands())
def test_missing_project_folder_is_exit_2_and_writes_nothing(name, tmp_path):
    here = tmp_path / "cwd"
    here.mkdir()
    old = Path.cwd()
    os.chdir(here)
    try:
        result = CliRunner().invoke(main, ["-C", str(tmp_path / "nonexistent"), name])
    finally:
        os.chdir(old)
    assert result.exit_code == 2, result.output
    assert "does not exist" in result.output
    assert list(here.iterdir()) == [] and not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize("name", commands())
def test_exit_codes_json_and_quiet(name, project):
    for args, expected in SCENARIOS[name]:
        args = _args(project, args)
        before = digest(project / "refs")
        result = invoke(project, name, *args)
        assert result.exit_code == expected, (name, args, result.output)
        assert "Traceback" not in result.output
        if expected == 2 and name != "init":
            assert digest(project / "refs") == before, (name, args)  # an error writes nothing
        if expected == 2 or name in NO_JSON:
            continue
        usable = args + (["-o", "report.bib"] if name == "export" and "-o" not in args else [])
        if name == "init":
            usable = [f"{args[0]}-json"] if args[0] != "." else args
        # importing the same unchanged file again: its problems were warned about once (exit 1),
        # a repeat names them in one line and exits 0 for them
        again = 0 if name == "import" and expected == 1 else expected
        as_json = invoke(project, name, *usable, "--json")
        assert as_json.exit_code == again, (name, usable, as_json.output)
        json.loads(as_json.stdout)  # stdout is one JSON document
        if name == "init":
            usable = [f"{args[0]}-quiet"] if args[0] != "." else args
        quiet = invoke(project, name, *usable, "-q")
        assert quiet.exit_code == again, (name, usable, quiet.output)
        chatter = [line for line in quiet.stderr.splitlines()
                   if line.strip() and not line.startswith(("warning", "citekit:", "  "))]
        assert chatter == [], (name, usable, quiet.stderr)


def test_empty_selection_replaces_no_file(project):
    out = project / "refs.bib"
    assert invoke(project, "export", "-o", str(out)).exit_code == 0
    before = out.read_bytes()
    result = invoke(project, "export", "--tag", "typo", "-o", str(out))
    assert result.exit_code == 1
    assert "no entry has tag(s) typo" in result.stderr and "nothing was written" in result.stderr
    assert out.read_bytes() == before
    target = project / "related.tex"
    assert invoke(project, "related-work", "--tag", "typo", "-o", str(target)).exit_code == 1
    assert not target.exists()


def test_tag_h_is_help_not_a_tag(project):
    key = _key(project)
    before = digest(project / "refs")
    for flag in ("-h", "--help"):
        result = invoke(project, "tag", key, flag)
        assert result.exit_code == 0 and "Usage:" in result.output
    assert digest(project / "refs") == before
    # words that look like options are changes; after -- even -h is one
    assert invoke(project, "tag", key, "+h", "+quick", "-theory").exit_code == 0
    tags = json.loads(invoke(project, "tag", key, "--json").stdout)
    assert "h" in tags["tags"] and "quick" in tags["tags"] and "theory" in tags["removed"]
    assert invoke(project, "tag", key, "--", "-h").exit_code == 0
    tags = json.loads(invoke(project, "tag", key, "--json").stdout)
    assert "h" not in tags["tags"] and "h" in tags["removed"]


def test_init_under_dash_c_writes_there_not_here(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    old = Path.cwd()
    os.chdir(here)
    try:
        result = CliRunner().invoke(main, ["-C", str(target), "init", "--json"])
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    assert (target / "citekit.yaml").is_file() and list(here.iterdir()) == []
    assert json.loads(result.stdout)["config"] == str(target / "citekit.yaml")


def test_ascii_chosen_on_the_command_line_is_remembered(project):
    """`sync --ascii` stays in force on later syncs of a project made by `citekit init`."""
    fresh = project.parent / "fresh"
    assert CliRunner().invoke(main, ["init", str(fresh)]).exit_code == 0
    (fresh / "notes" / "n.md").write_text("# ICML 2026\n\n- Schrödinger Bridges for Optimización\n"
                                          "  - Authors: Zoë Müller\n", encoding="utf-8")
    assert invoke(fresh, "sync", "--offline", "--ascii", "-q").exit_code == 0
    bib = fresh / "refs" / "library.bib"
    assert "Schr{\\\"o}dinger" in bib.read_text(encoding="utf-8") or "Schr\\\"odinger" in bib.read_text(encoding="utf-8")
    assert invoke(fresh, "sync", "--offline", "-q").exit_code == 0
    assert "ö" not in bib.read_text(encoding="utf-8")
    assert invoke(fresh, "sync", "--offline", "--utf8", "-q").exit_code == 0
    assert "ö" in bib.read_text(encoding="utf-8")


def test_ascii_against_the_config_file_says_which_wins(project):
    (project / "citekit.yaml").write_text("bibtex:\n  ascii: false\n", encoding="utf-8")
    result = invoke(project, "sync", "--offline", "--ascii", "-q")
    assert result.exit_code == 0
    assert "bibtex.ascii: false" in result.stderr and "next sync" in result.stderr


def test_unknown_command_suggests_the_closest():
    result = CliRunner().invoke(main, ["synk"])
    assert result.exit_code == 2 and "Did you mean 'sync'" in result.output


def test_version_and_help_import_no_command_module():
    """Start-up stays light: `--version` and `--help` load no command or stage module."""
    import subprocess
    import sys

    code = ("import sys; from click.testing import CliRunner; from citekit.cli import main; "
            "CliRunner().invoke(main, ['--help']); CliRunner().invoke(main, ['--version']); "
            "print(sorted(m for m in sys.modules if m.startswith(('citekit', 'yaml', 'bibtexparser', "
            "'pylatexenc', 'rapidfuzz', 'requests'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert eval(out) == ["citekit", "citekit.cli", "citekit.cli.app", "citekit.cli.examples"]


def test_sync_with_an_unreadable_notes_file_is_done_with_findings(project):
    (project / "notes" / "scan.md").write_bytes(b"\x00\x01binary\x00")
    result = invoke(project, "sync", "--offline")
    assert result.exit_code == 1, result.output
    assert "scan.md" in result.stderr and "binary" in result.stderr
    assert len(json.loads(invoke(project, "list", "--json").stdout)) == 3  # the rest was still synced
    assert invoke(project, "extract").exit_code == 1
