"""Faults a new user met in daily use of the command line, each checked end to end."""

from __future__ import annotations

import json

from pathlib import Path

from ..helpers_cli import run, synced_project


def test_an_unknown_tag_is_named_with_the_closest_tags_in_use(tmp_path: Path) -> None:
    root = synced_project(tmp_path)  # tags in use: muon, theory
    result = run(root, "related-work", "--tag", "mun", "-o", str(root / "related.tex"))
    assert result.exit_code == 1 and not (root / "related.tex").exists()
    assert "no tag 'mun' in the library (closest: muon)" in result.stderr, result.stderr
    assert "--any" not in result.stderr, result.stderr  # --any cannot find a tag that does not exist
    for command in (["list"], ["export"], ["suggest", "--offline"]):
        other = run(root, *command, "--tag", "mun")
        assert other.exit_code == 1 and "no tag 'mun' in the library (closest: muon)" in other.stderr, other.stderr
    both = run(root, "related-work", "--tag", "muon", "--tag", "step-size")  # both exist, no paper has both
    assert both.exit_code == 1 and "no tag" not in both.stderr and "--any" in both.stderr, both.stderr


def test_a_typo_among_any_tags_is_named_though_the_others_select_papers(tmp_path: Path) -> None:
    root = synced_project(tmp_path)  # tags in use: muon, theory
    for command in (["list"], ["export"], ["related-work"]):
        result = run(root, *command, "--tag", "muon", "--tag", "mun", "--any")
        assert result.exit_code == 0 and result.stdout.strip(), (command, result.output)
        assert "no tag 'mun' in the library (closest: muon" in result.stderr, (command, result.stderr)
        both_known = run(root, *command, "--tag", "muon", "--tag", "theory", "--any")
        assert both_known.exit_code == 0 and "no tag" not in both_known.stderr, (command, both_known.stderr)


def test_tag_h_is_added_with_plus_and_removing_an_absent_tag_says_so(tmp_path: Path) -> None:
    import json

    root = synced_project(tmp_path)
    key = json.loads(run(root, "list", "--json").stdout)[0]["key"]
    removed = run(root, "tag", key, "--", "-h")  # the paper has no tag h: nothing it carried is removed
    assert removed.exit_code == 0 and f"{key} had no tag 'h'" in removed.stderr, removed.output
    assert f"citekit tag {key} +h" in removed.stderr, removed.stderr
    again = json.loads(run(root, "tag", key, "--json", "--", "-h").stdout)
    assert again["not_carried"] == ["h"] and "h" not in again["tags"]
    added = run(root, "tag", key, "+h")
    assert added.exit_code == 0 and "h" in json.loads(run(root, "tag", key, "--json").stdout)["tags"]
    assert "had no tag" not in run(root, "tag", key, "--", "-h").stderr  # it carried h this time
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "put a tag named `h` after `--`" not in readme and f"`citekit tag KEY +h`" in readme


def _paper_citing(root: Path, key: str) -> Path:
    """A paper whose main.tex inputs sections/related.tex, which cites ``key`` on its line 3;
    main.aux as one LaTeX run writes it (the \\citation lines in cited order)."""
    paper = root / "paper"
    (paper / "sections").mkdir(parents=True)
    (paper / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\input{sections/related}\n"
                                    "\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
    (paper / "sections" / "related.tex").write_text(f"\\section{{Related work}}\nEarlier work\n\\citep{{{key}}}.\n",
                                                    encoding="utf-8")
    (paper / "main.aux").write_text(f"\\relax\n\\@writefile{{toc}}{{}}\n\\citation{{{key}}}\n\\bibdata{{refs}}\n",
                                    encoding="utf-8")
    return paper


def test_a_missing_key_is_reported_at_its_cite_in_the_tex_not_at_the_aux(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    paper = _paper_citing(root, "nosuch2026paper")
    result = run(root, "export", "--aux", str(paper / "main.aux"), "-o", str(paper / "refs.bib"))
    assert result.exit_code != 0 and not (paper / "refs.bib").exists()
    where = "sections/related.tex"  # (inputs are named from the main file's folder, as `check` names them)
    assert f"{where}:3: missing key 'nosuch2026paper'" in result.stderr, result.stderr
    assert "main.aux:3" not in result.stderr, result.stderr
    check = run(root, "check", str(paper / "main.tex"), "--aux", str(paper / "main.aux"))
    assert f"{where}:3: missing key 'nosuch2026paper'" in check.stdout, check.output
    assert "(and 1 more)" not in check.stdout, check.stdout  # the .aux line is the same citation


def test_make_settles_after_the_author_edits_related_work_tex(tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess
    import sys

    import pytest

    import citekit

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = synced_project(tmp_path)
    paper = root / "paper"
    paper.mkdir()
    snippet = run(root, "makefile", "--tag", "muon")
    assert snippet.exit_code == 0, snippet.output
    (paper / "Makefile").write_text(snippet.stdout, encoding="utf-8")
    tool = tmp_path / "citekit-under-test"  # this checkout's citekit, whatever is installed
    tool.write_text(f"#!{sys.executable}\nimport sys\nfrom citekit.cli import main\nsys.exit(main())\n")
    tool.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(Path(citekit.__file__).parents[1])}

    def make(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["make", f"CITEKIT={tool}", f"CITEKIT_PROJECT={root}", *args], cwd=paper, env=env,
                              capture_output=True, text=True, timeout=300)

    assert make("related-work.tex").returncode == 0
    draft = paper / "related-work.tex"
    mine = draft.read_text(encoding="utf-8") + "A sentence the author wrote.\n"
    draft.write_text(mine, encoding="utf-8")
    old = draft.stat().st_mtime - 100
    os.utime(draft, (old, old))  # the library changed after the edit
    first = make("related-work.tex")
    assert first.returncode == 0 and "related-work.tex.new" in first.stderr, first.stderr
    assert draft.read_text(encoding="utf-8") == mine and (paper / "related-work.tex.new").exists()
    assert make("-q", "related-work.tex").returncode == 0, "make still wants to rebuild the edited draft"
    again = make("related-work.tex")
    assert again.returncode == 0 and "warning" not in again.stderr, again.stderr


def test_add_offline_names_what_it_added_and_says_the_next_step_once(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    result = run(root, "add", "--offline", "arXiv:2602.50082",
                 "Foret, P., Kleiner, A., Mobahi, H., & Neyshabur, B. (2021). Sharpness-aware minimization "
                 "for efficiently improving generalization. ICLR.")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "recorded, not resolved yet" not in out and "(no entry yet)" not in out, out
    assert "arXiv:2602.50082: pending, not looked up (--offline)" in out, out  # named by what was given
    keyed = [line for line in out.splitlines() if "notes-only, not looked up (--offline)" in line]
    assert len(keyed) == 1 and keyed[0].startswith("foret2021"), out  # named by its key
    assert out.count("citekit sync") == 1 and "next: run `citekit sync` online to look them up" in out, out
    assert "0 added, 1 pending, 1 notes-only, 0 already there" in out, out


def test_sync_and_list_give_a_pending_work_the_same_label(tmp_path: Path) -> None:
    import json

    root = synced_project(tmp_path)
    assert run(root, "add", "--offline", "arXiv:2602.50082").exit_code == 0
    listed = run(root, "list", "--status", "pending")
    (line,) = listed.stdout.splitlines()
    assert "identifier only" in line and "arxiv:2602.50082" in line, line
    synced = run(root, "sync", "--offline")
    assert f"    {line}" in synced.stdout.splitlines(), synced.stdout  # not "link https://arxiv.org/abs/..."
    (item,) = json.loads(run(root, "sync", "--offline", "--json").stdout)["pending"]
    (row,) = json.loads(run(root, "list", "--status", "pending", "--json").stdout)
    assert (item["why"], item["hint"]) == (row["why"], row["hint"]) == ("identifier only", "arxiv:2602.50082")
    assert item["kind"] == "url" and item["urls"] == ["https://arxiv.org/abs/2602.50082"]  # the old fields stay


def test_sync_with_sources_down_does_not_say_no_source_found_the_pending_works(
        tmp_path: Path, monkeypatch, fake_services) -> None:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"  # only works the notes cannot make entries of: a sync that asked no one
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "inbox.md").write_text("- https://arxiv.org/abs/2602.50082\n", encoding="utf-8")
    for service in ("openreview", "crossref", "dblp", "arxiv", "conferences"):
        fake_services.down(service)
    result = run(root, "sync")
    assert "pending        1" in result.stdout, result.output
    assert "no source found them" not in result.stdout, result.stdout  # they were never asked
    # no service answered (the conference lists were not even asked): a sync from the notes alone
    assert "an online sync looks for them" in result.stdout, result.stdout
    assert "no source could be reached" in result.output and "--retry" in result.output


def test_the_makefile_block_included_at_the_top_leaves_the_default_goal_to_the_papers_rule(tmp_path: Path) -> None:
    """Included above the paper's rules (so their prerequisites see its variables), the block must
    not make refs.bib what a plain `make` builds; appended below them it keeps their goal too."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = synced_project(tmp_path)
    block = run(root, "makefile")
    assert block.exit_code == 0, block.output
    (root / "citekit.mk").write_text(block.stdout, encoding="utf-8")
    rule = "paper.pdf: $(PAPER_SOURCES) $(PAPER_BIB)\n\t@echo building the pdf from $^\n"
    for name, text in (("top", "include citekit.mk\n\n" + rule), ("bottom", rule + "\ninclude citekit.mk\n")):
        (root / "Makefile").write_text(text, encoding="utf-8")
        (root / "main.tex").write_text("\\documentclass{article}\\begin{document}x\\end{document}\n", encoding="utf-8")
        dry = subprocess.run(["make", "-n", "-C", str(root), "CITEKIT_PROJECT=."], capture_output=True, text=True,
                             check=False)
        assert "building the pdf from" in dry.stdout, (name, dry.stdout, dry.stderr)
        if name == "top":  # the rule read the block's variables: refs.bib is made first
            assert "main.tex refs.bib" in dry.stdout and "export --aux main.aux" in dry.stdout, dry.stdout



def test_import_of_a_fuller_record_of_a_work_fills_the_library_entry(tmp_path: Path) -> None:
    from ..helpers_cli import bare_project

    root = bare_project(tmp_path)
    thin = root / "thin.bib"
    thin.write_text("@article{noether1918inv,\n  title = {Invariante Variationsprobleme},\n"
                    "  author = {E. Noether},\n  journal = {Nachr. Ges. Wiss. G\\\"ottingen},\n  year = {1918}\n}\n",
                    encoding="utf-8")
    full = root / "full.bib"
    full.write_text(thin.read_text(encoding="utf-8").replace("E. Noether", "Emmy Noether")
                    .replace("year = {1918}", "year = {1918},\n  pages = {235--257}"), encoding="utf-8")
    assert run(root, "import", str(thin)).exit_code == 0
    result = run(root, "import", str(full))
    assert result.exit_code == 0, result.output
    assert "filled noether1918inv's pages, author written in full from it" in result.stdout, result.stdout
    assert "filled 2 fields of 1 entry already present" in result.stdout, result.stdout
    library = (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert "{235--257}" in library and "{Emmy Noether}" in library


def test_a_summary_is_the_last_thing_a_command_says(tmp_path: Path) -> None:
    """Warnings logged while a command ran (a library's, the writer's) come before its summary,
    which ends the output, in the order written (the runner's output interleaves both streams)."""
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "notes" / "icml.md").write_text("# ICML 2026\n\n- 乾杯: Learning to Toast with 杯 Models\n"
                                            "  - Authors: Feihu Huang, Yuning Luo\n", encoding="utf-8")
    synced = run(root, "sync", "--offline", "--ascii")
    assert synced.exit_code == 0, synced.output
    lines = synced.output.splitlines()
    assert lines[-1].startswith("library "), lines
    assert lines.index(next(x for x in lines if x.startswith("warning: pylatexenc:"))) < \
        lines.index(next(x for x in lines if x.startswith("sync offline")))
    bib = root / "odd.bib"
    bib.write_text("@misc{odd2020,\n  title = {An {Odd Title},\n  author = {Ann Able},\n  year = {2020}\n}\n\n"
                   "@misc{next2021,\n  title = {The Next One},\n  year = {2021}\n}\n", encoding="utf-8")
    imported = run(root, "import", str(bib))
    lines = imported.output.splitlines()
    assert lines[-1].startswith("imported 2 new entries"), lines
    assert any("unbalanced braces; writing a sanitized copy" in x for x in lines[:-1]), lines



def test_a_typo_among_any_tags_is_warned_about_without_loading_the_library_again(tmp_path: Path, monkeypatch) -> None:
    """The warning about a tag no entry carries needs the tags in use: they come from the
    library the selection loaded, not from a second load of it (on a 10k library, most of
    the command). A change of the files between two commands is still seen."""
    from citekit.library.store import Library

    root = synced_project(tmp_path)  # tags in use: muon, theory
    assert run(root, "export", "-q").exit_code == 0  # (a first export makes the keys permanent: a write, a load)
    loads: list[Path] = []
    load = Library.load.__func__

    def counted(cls, refs_dir, *args, **kwargs):
        loads.append(refs_dir)
        return load(cls, refs_dir, *args, **kwargs)

    monkeypatch.setattr(Library, "load", classmethod(counted))
    for command in (["list"], ["export"], ["related-work"]):
        loads.clear()
        result = run(root, *command, "--tag", "muon", "--tag", "mun", "--any")
        assert result.exit_code == 0 and "no tag 'mun' in the library (closest: muon" in result.stderr, result.output
        assert len(loads) == 1, (command, loads)
    loads.clear()
    assert run(root, "list", "--tag", "mun").exit_code == 1 and len(loads) == 1  # selects nothing: said, one load
    key = json.loads(run(root, "list", "--json").stdout)[0]["key"]
    assert run(root, "tag", key, "+mun").exit_code == 0  # the library changed: the tag exists now
    now = run(root, "list", "--tag", "muon", "--tag", "mun", "--any")
    assert now.exit_code == 0 and "no tag 'mun'" not in now.stderr, now.output
