"""A library shared in git: two clones write it, then merge with citekit's driver.

Real git repositories in a temporary folder; every citekit step goes through the command
line, offline (no service is asked)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NOTES_A = "# ICML 2026\n\n- Light and Fast Muon Optimizer for Large Models #muon\n  - Authors: Feihu Huang, Yuning Luo\n"
PAPER_A = "# ICML 2026\n\n- Step-Size Stability in Stochastic Optimization #theory\n  - Authors: Fabian Schaipp, Robert Gower\n"
PAPER_B = "# ICML 2026\n\n- Compute When Worth It: Risk Control for Reasoning #muon\n  - Authors: Xi Wang, Eric Nalisnick\n"


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=False)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def ck(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def two_clones(tmp_path: Path, *, driver: bool = True) -> tuple[Path, Path]:
    """A project committed in clone ``a`` (one paper synced offline) and cloned to ``b``;
    with ``driver``, both registered citekit's merge driver (``.gitattributes`` is
    committed either way: a clone that did not run ``git-setup`` lacks only the config)."""
    a = tmp_path / "a"
    (a / "notes").mkdir(parents=True)
    git(a, "init", "-q", "-b", "main")
    (a / "citekit.yaml").write_text("# shared\n", encoding="utf-8")
    (a / "notes" / "icml.md").write_text(NOTES_A, encoding="utf-8")
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    assert ck(a, "git-setup", "-q").exit_code == 0
    assert ".citekit/" in (a / ".gitignore").read_text(encoding="utf-8")  # this clone's state stays out of git
    git(a, "add", "-A")
    git(a, "commit", "-qm", "library")
    b = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(a), str(b))
    if driver:
        assert ck(b, "git-setup", "-q").exit_code == 0
    else:
        git(a, "config", "--remove-section", "merge.citekit")  # as in a fresh clone
    return a, b


def bib(root: Path) -> str:
    return (root / "refs" / "library.bib").read_text(encoding="utf-8")


def set_field(root: Path, key: str, name: str, value: str) -> None:
    """A hand edit of one field of one entry in library.bib (added when missing)."""
    text = bib(root)
    start = text.index("{" + key + ",")
    end = text.index("\n}", start)
    lines = text[start:end].split("\n")
    new = f"  {name:<14}= {{{value}}},"
    found = [i for i, line in enumerate(lines) if line.strip().startswith(name + " ")]
    if found:
        lines[found[0]] = new
    else:
        lines.append(new)
    (root / "refs" / "library.bib").write_text(text[:start] + "\n".join(lines) + text[end:], encoding="utf-8")


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def test_tag_on_both_sides_and_sync_then_pull_merges_cleanly(tmp_path: Path) -> None:
    """The issue's failure: both clones tag and sync, then pull: no conflict now."""
    a, b = two_clones(tmp_path)
    assert ck(b, "tag", "huang2026light", "+from-b").exit_code == 0
    (b / "notes" / "b.md").write_text(PAPER_B, encoding="utf-8")
    assert ck(b, "sync", "--offline", "-q").exit_code == 0
    set_field(b, "huang2026light", "note", "read in the reading group")  # a hand edit on b
    commit(b, "b")
    assert ck(a, "tag", "huang2026light", "+from-a").exit_code == 0
    (a / "notes" / "a.md").write_text(PAPER_A, encoding="utf-8")
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    set_field(a, "huang2026light", "pages", "1--12")  # another field by hand on a
    commit(a, "a")

    merged = git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = bib(a)
    assert "<<<<<<<" not in text and "<<<<<<<" not in (a / "refs" / "library.yaml").read_text(encoding="utf-8")
    listed = ck(a, "list", "--json")
    assert listed.exit_code == 0, listed.output
    import json

    entries = {e["key"]: e for e in json.loads(listed.stdout)}
    assert sorted(entries) == ["huang2026light", "schaipp2026stepsize", "wang2026compute"]  # keys unchanged
    assert {"from-a", "from-b", "muon"} <= set(entries["huang2026light"]["tags"])
    assert "read in the reading group" in text and "1--12" in text  # both sides' hand edits
    doctor = ck(a, "doctor")
    assert doctor.exit_code == 0, doctor.output
    shown = ck(a, "show", "huang2026light")
    assert "from-a" in shown.output and "from-b" in shown.output
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    # library.bib as merged is what citekit writes (the sidecar then notes the hand edits, as after any)
    assert git(a, "status", "--porcelain", "refs/library.bib").stdout == "", git(a, "diff").stdout
    assert _keys(a) == ["huang2026light", "schaipp2026stepsize", "wang2026compute"]


def test_the_same_paper_added_on_both_sides_is_kept_once(tmp_path: Path) -> None:
    a, b = two_clones(tmp_path)
    for root in (a, b):
        (root / "notes" / f"{root.name}.md").write_text(PAPER_B, encoding="utf-8")
        assert ck(root, "sync", "--offline", "-q").exit_code == 0
        commit(root, root.name)
    assert git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False).returncode == 0
    assert bib(a).count("@inproceedings{wang2026compute,") == 1
    assert ck(a, "doctor").exit_code == 0


def test_one_paper_added_on_both_sides_under_two_keys_is_kept_once_with_the_other_key_as_alias(tmp_path: Path) -> None:
    """Each clone noted the same paper with its authors in another order, so each issued its own key."""
    a, b = two_clones(tmp_path)
    (a / "notes" / "a.md").write_text(PAPER_B, encoding="utf-8")
    (b / "notes" / "b.md").write_text(PAPER_B.replace("Xi Wang, Eric Nalisnick", "Eric Nalisnick, Xi Wang"),
                                      encoding="utf-8")
    for root in (a, b):
        assert ck(root, "sync", "--offline", "-q").exit_code == 0
        commit(root, root.name)
    assert "nalisnick2026compute" in bib(b)
    merged = git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert bib(a).count("compute,") == 1 and "@inproceedings{wang2026compute," in bib(a)
    shown = ck(a, "show", "nalisnick2026compute")  # b's key still finds the paper
    assert shown.exit_code == 0 and "wang2026compute" in shown.output, shown.output
    assert ck(a, "doctor").exit_code == 0
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    assert bib(a).count("compute,") == 1


def test_one_field_changed_differently_on_both_sides_is_a_conflict_doctor_names(tmp_path: Path) -> None:
    a, b = two_clones(tmp_path)
    set_field(b, "huang2026light", "title", "Muon, Light and Fast")
    (b / "notes" / "b.md").write_text(PAPER_B, encoding="utf-8")
    assert ck(b, "sync", "--offline", "-q").exit_code == 0
    commit(b, "b")
    set_field(a, "huang2026light", "title", "Light and Fast Muon")
    commit(a, "a")

    merged = git(a, "pull", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode != 0 and "library.bib" in merged.stdout + merged.stderr
    text = bib(a)
    assert "<<<<<<<" not in text and "wang2026compute" in text  # nothing else lost
    assert "citekit-conflict-title" in text and "Muon, Light and Fast" in text and "Light and Fast Muon" in text
    doctor = ck(a, "doctor")
    assert doctor.exit_code == 1
    assert "citekit resolve-conflict huang2026light --ours|--theirs|--edit" in doctor.output
    refused = ck(a, "export", "-o", str(tmp_path / "paper.bib"))  # a paper's .bib never carries an unsettled field
    assert refused.exit_code == 2 and "resolve-conflict huang2026light" in refused.output, refused.output
    assert not (tmp_path / "paper.bib").exists()
    settled = ck(a, "resolve-conflict", "huang2026light", "--theirs")
    assert settled.exit_code == 0, settled.output
    assert "Muon, Light and Fast" in bib(a) and "citekit-conflict" not in bib(a)
    assert ck(a, "export", "-o", str(tmp_path / "paper.bib")).exit_code == 0
    assert ck(a, "doctor").exit_code == 0
    git(a, "add", "refs")
    git(a, "commit", "-qm", "merged")


def test_a_merge_without_the_driver_registered_is_recognised_and_explained(tmp_path: Path) -> None:
    a, b = two_clones(tmp_path, driver=False)
    assert ck(b, "tag", "huang2026light", "+from-b").exit_code == 0
    commit(b, "b")
    assert ck(a, "tag", "huang2026light", "+from-a").exit_code == 0
    commit(a, "a")
    doctor = ck(a, "doctor")
    assert doctor.exit_code == 1 and "citekit git-setup" in doctor.output and "as text" in doctor.output

    merged = git(a, "pull", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode != 0  # a text merge: the keywords line of both sides
    listed = ck(a, "list")
    assert listed.exit_code == 2, (merged.stderr[-600:], listed.output, bib(a), (a / "refs" / "library.yaml").read_text())
    assert "git merge in progress" in listed.output and "damaged" not in listed.output
    assert "citekit git-setup" in listed.output and "git merge --abort" in listed.output
    git(a, "merge", "--abort")
    assert ck(a, "git-setup", "-q").exit_code == 0
    again = git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert ck(a, "doctor").exit_code == 0


def test_one_key_issued_on_both_branches_for_two_works_is_renamed_on_one_side(tmp_path: Path) -> None:
    a, b = two_clones(tmp_path)
    (a / "notes" / "a.md").write_text("# ICML 2026\n\n- Light Sparse Attention for Long Context\n"
                                      "  - Authors: Mei Huang\n", encoding="utf-8")
    (b / "notes" / "b.md").write_text("# ICML 2026\n\n- Light Gradient Clipping at Scale\n"
                                      "  - Authors: Tom Huang\n", encoding="utf-8")
    keys = []
    for root in (a, b):
        assert ck(root, "sync", "--offline", "-q").exit_code == 0
        keys.append(set(_keys(root)))
        commit(root, root.name)
    (issued,) = (keys[0] & keys[1]) - {"huang2026light"}  # the same new key on both branches

    assert git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False).returncode == 0
    text = bib(a)
    assert "Light Sparse Attention" in text and "Light Gradient Clipping" in text
    merged = _keys(a)
    assert issued in merged and len(merged) == 3 and len(set(k.lower() for k in merged)) == 3
    (renamed,) = set(merged) - {"huang2026light", issued}
    keymap = (a / "refs" / "keymap.yaml").read_text(encoding="utf-8")
    assert f"{issued}: {renamed}" in keymap  # the merged branch's papers: `citekit rekey --map refs/keymap.yaml`
    assert ck(a, "doctor").exit_code == 0
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    assert sorted(_keys(a)) == sorted(merged)  # each paper's notes find their own entry again


def _keys(root: Path) -> list[str]:
    import json

    return [e["key"] for e in json.loads(ck(root, "list", "--json").stdout)]


def test_a_conflict_settled_with_a_value_of_ones_own(tmp_path: Path) -> None:
    a, b = two_clones(tmp_path)
    set_field(b, "huang2026light", "booktitle", "ICML")
    commit(b, "b")
    set_field(a, "huang2026light", "booktitle", "Proc. ICML")
    commit(a, "a")
    assert git(a, "pull", "--no-rebase", str(b), "main", check=False).returncode != 0
    settled = CliRunner().invoke(main, ["-C", str(a), "resolve-conflict", "huang2026light", "--edit"],
                                 input="Proceedings of ICML 2026\n", catch_exceptions=False)
    assert settled.exit_code == 0, settled.output
    text = bib(a)
    assert "Proceedings of ICML 2026" in text and "citekit-conflict" not in text
    assert ck(a, "doctor").exit_code == 0
    again = ck(a, "resolve-conflict", "huang2026light", "--ours")
    assert again.exit_code == 0 and "no merge conflict" in again.output


ROBBINS_A = ("@article{robbins1951stochastic, title={A Stochastic Approximation Method}, author={Robbins, Herbert and "
             "Monro, Sutton}, journal={The Annals of Mathematical Statistics}, pages={400--407}, year={1951}}")
ROBBINS_B = ("@article{robbins1951, title={A Stochastic Approximation Method}, author={Robbins, H. and Monro, S.}, "
             "journal={Ann. Math. Statist.}, year={1951}}")


def test_a_paper_both_labmates_added_under_two_keys_keeps_both_sides_tags_and_fields(tmp_path: Path) -> None:
    """One labmate's full record with a tag, the other's thin one under another key: the merge keeps
    one entry, ours, with the fields only theirs has and both sides' tags; no field of theirs
    reads as removed by hand, and a later sync keeps them."""
    a, b = two_clones(tmp_path)
    assert ck(a, "add", "--offline", ROBBINS_A, "--tag", "sgd").exit_code == 0
    commit(a, "a")
    assert ck(b, "add", "--offline", ROBBINS_B, "--tag", "classics").exit_code == 0
    commit(b, "b")
    merged = git(b, "pull", "--no-rebase", str(a), "main", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr  # the inbox both appended to merges too
    inbox = (b / "notes" / "inbox.md").read_text(encoding="utf-8")
    assert "robbins1951stochastic" in inbox and "@article{robbins1951," in inbox and "<<<<<<<" not in inbox
    assert bib(b).count("A Stochastic Approximation Method") == 1
    assert "400--407" in bib(b)
    for tag in ("sgd", "classics"):
        listed = ck(b, "list", "--tag", tag)
        assert listed.exit_code == 0 and "Stochastic Approximation" in listed.output, (tag, listed.output)
    shown = ck(b, "show", "robbins1951stochastic")  # a's key still finds the paper
    assert shown.exit_code == 0 and "400--407" in shown.output, shown.output
    assert not re.search(r"hand-edited[^\n]*\bpages\b", shown.output), shown.output  # theirs, not an edit of ours
    assert ck(b, "sync", "--offline", "-q").exit_code == 0
    assert "400--407" in bib(b) and ck(b, "list", "--tag", "sgd").exit_code == 0


def test_a_merge_git_could_not_run_the_driver_for_stops_every_command(tmp_path: Path) -> None:
    """git runs the driver from its own PATH: one it cannot find marks the library conflicted but
    leaves our side's files, with no markers. citekit refuses to read on (a write would drop the
    other branch's changes) and says how to merge again; git-setup registers citekit by its full path."""
    a, b = two_clones(tmp_path)
    assert ck(b, "tag", "huang2026light", "+from-b").exit_code == 0
    commit(b, "b")
    assert ck(a, "tag", "huang2026light", "+from-a").exit_code == 0
    commit(a, "a")
    git(a, "config", "merge.citekit.driver", "citekit-not-on-this-path merge-driver %O %A %B %P")
    merged = git(a, "pull", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode != 0 and "<<<<<<<" not in bib(a)
    for command in (["list"], ["sync", "--offline"]):
        result = ck(a, *command)
        assert result.exit_code != 0, (command, result.output)
        assert "git merge in progress" in result.output and "merge driver" in result.output, result.output
        assert "git merge --abort" in result.output and "citekit git-setup" in result.output, result.output
    doctor = ck(a, "doctor")
    assert doctor.exit_code == 1 and "merge driver" in doctor.output, doctor.output
    git(a, "merge", "--abort")
    assert ck(a, "list").exit_code == 0  # no merge, nothing refused
    assert ck(a, "git-setup", "-q").exit_code == 0
    driver = git(a, "config", "merge.citekit.driver").stdout.strip()
    program = driver.split(" merge-driver ")[0].strip("'")
    assert Path(program).is_absolute() and Path(program).is_file(), driver
    attributes = (a / ".gitattributes").read_text(encoding="utf-8")
    assert "notes/inbox.md merge=union" in attributes
    env_path = git(a, "pull", "-q", "--no-rebase", str(b), "main", check=False)
    assert env_path.returncode == 0, env_path.stdout + env_path.stderr
    tags = ck(a, "show", "huang2026light").output
    assert "from-a" in tags and "from-b" in tags


def _title_conflict(tmp_path: Path) -> Path:
    """Clone ``a`` halfway through a merge whose only conflict is huang2026light's title."""
    a, b = two_clones(tmp_path)
    set_field(b, "huang2026light", "title", "Muon, Light and Fast")
    commit(b, "b")
    set_field(a, "huang2026light", "title", "Light and Fast Muon")
    commit(a, "a")
    assert git(a, "pull", "--no-rebase", str(b), "main", check=False).returncode != 0
    return a


def _editor(tmp_path: Path, body: str) -> str:
    """An $EDITOR that runs ``body`` (Python, with ``path`` the file to edit) and keeps a copy of what it was shown."""
    script = tmp_path / "editor.py"
    script.write_text("import shutil, sys\npath = sys.argv[1]\nshutil.copy(path, sys.argv[0] + '.shown')\n" + body,
                      encoding="utf-8")
    return f"{sys.executable} {script}"


def test_resolve_conflict_edit_without_a_value_changes_nothing(tmp_path: Path) -> None:
    """No terminal, nothing piped in and no editor; an editor that saves the file unchanged; an editor
    that fails: each is an error and the entry keeps both values (the title is never removed)."""
    a = _title_conflict(tmp_path)
    before = bib(a)
    unchanged = _editor(tmp_path, "import os, time\nos.utime(path, (time.time() + 5, time.time() + 5))\n")
    for env in ({"EDITOR": None, "VISUAL": None}, {"EDITOR": unchanged, "VISUAL": None},
                {"EDITOR": f"{sys.executable} -c 'raise SystemExit(3)'", "VISUAL": None}):
        result = CliRunner().invoke(main, ["-C", str(a), "resolve-conflict", "huang2026light", "--edit"],
                                    input="", env=env, catch_exceptions=False)
        assert result.exit_code != 0 and "settled" not in result.output, (env, result.output)
        assert "conflict stays" in result.output and "--theirs" in result.output, result.output
        assert bib(a) == before, env
    shown = (tmp_path / "editor.py.shown").read_text(encoding="utf-8")
    assert "Light and Fast Muon" in shown and "Muon, Light and Fast" in shown and "<<<<<<<" in shown


def test_resolve_conflict_edit_shows_both_values_and_keeps_the_one_left(tmp_path: Path) -> None:
    a = _title_conflict(tmp_path)
    keep_theirs = _editor(tmp_path, "import re\ntext = open(path).read()\n"
                                    "text = re.sub(r'<<<<<<<[^\\n]*\\n[^\\n]*\\n=======\\n([^\\n]*)\\n>>>>>>>[^\\n]*',"
                                    " r'\\1', text)\nopen(path, 'w').write(text)\n")
    result = CliRunner().invoke(main, ["-C", str(a), "resolve-conflict", "huang2026light", "--edit"],
                                input="", env={"EDITOR": keep_theirs, "VISUAL": None}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "settled title (edit)" in result.output
    text = bib(a)
    assert "Muon, Light and Fast" in text and "Light and Fast Muon" not in text and "citekit-conflict" not in text
    assert ck(a, "doctor").exit_code == 0


def set_summary(root: Path, key: str, summary: str) -> None:
    """A hand edit of ``summary`` in one record of library.yaml (the part added when missing)."""
    import json

    path = root / "refs" / "library.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f"  {key}:")
    lines = [line for i, line in enumerate(lines) if not (i > start and line.startswith("    summary:"))]
    lines.insert(start + 1, f"    summary: {json.dumps(summary)}")
    path.write_text("\n".join(lines), encoding="utf-8")


def test_a_summary_changed_on_both_sides_is_a_conflict_not_one_side_dropped(tmp_path: Path) -> None:
    """library.yaml's summary is the user's own text: edited differently on two branches, the merge
    stops with a conflict that doctor names and resolve-conflict settles; neither text is lost."""
    a, b = two_clones(tmp_path)
    set_summary(b, "huang2026light", "Labmate: a lighter Muon, same accuracy.")
    assert ck(b, "sync", "--offline", "-q").exit_code == 0
    commit(b, "b")
    set_summary(a, "huang2026light", "Mine: halves the optimizer state.")
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    commit(a, "a")
    merged = git(a, "pull", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode != 0 and "library.yaml" in merged.stdout + merged.stderr, merged.stdout + merged.stderr
    sidecar = (a / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert "Labmate: a lighter Muon" in sidecar and "Mine: halves" in sidecar and "<<<<<<<" not in sidecar
    doctor = ck(a, "doctor")
    assert doctor.exit_code == 1 and "'summary'" in doctor.output, doctor.output
    assert "resolve-conflict huang2026light" in doctor.output
    settled = ck(a, "resolve-conflict", "huang2026light", "--theirs")
    assert settled.exit_code == 0 and "settled summary" in settled.output, settled.output
    sidecar = (a / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert "Labmate: a lighter Muon" in sidecar and "Mine: halves" not in sidecar and "conflicts" not in sidecar
    assert ck(a, "doctor").exit_code == 0
    commit(a, "merged")
    assert ck(a, "sync", "--offline", "-q").exit_code == 0
    assert "Labmate: a lighter Muon" in (a / "refs" / "library.yaml").read_text(encoding="utf-8")


def test_a_merge_aborted_after_resolve_conflict_leaves_the_library_as_before(tmp_path: Path) -> None:
    """resolve-conflict writes both library files; `git merge --abort` undoes all of it, so no
    sidecar is left describing a settlement of a merge that never happened."""
    a = _title_conflict(tmp_path)
    settled = ck(a, "resolve-conflict", "huang2026light", "--theirs")
    assert settled.exit_code == 0, settled.output
    assert "hand-edited" in ck(a, "show", "huang2026light").output
    git(a, "merge", "--abort")
    assert git(a, "status", "--porcelain", "refs").stdout == "", git(a, "diff").stdout
    shown = ck(a, "show", "huang2026light").output
    assert "Light and Fast Muon" in shown and "citekit-conflict" not in shown, shown
    assert ck(a, "doctor").exit_code == 0


def test_a_key_from_the_users_own_bibtex_stays_frozen_when_the_other_branch_had_the_paper_from_notes(
        tmp_path: Path) -> None:
    """A pasted BibTeX entry's key is the user's: never provisional, also after a merge with a branch
    whose notes gave the same paper (whose key was still provisional there)."""
    a, b = two_clones(tmp_path)
    assert ck(a, "add", "--offline", ROBBINS_A).exit_code == 0
    commit(a, "a")
    (b / "notes" / "b.md").write_text("# Classics\n\n- A Stochastic Approximation Method\n"
                                      "  - Authors: Herbert Robbins, Sutton Monro\n  - Year: 1951\n", encoding="utf-8")
    assert ck(b, "sync", "--offline", "-q").exit_code == 0
    commit(b, "b")
    assert "key_provisional" in (b / "refs" / "library.yaml").read_text(encoding="utf-8").split("robbins1951")[1]
    merged = git(a, "pull", "--no-rebase", str(b), "main", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    import json

    entries = {e["key"]: e for e in json.loads(ck(a, "list", "--json").stdout)}
    (key,) = [k for k in entries if k.startswith("robbins1951")]
    assert key == "robbins1951stochastic"
    record = (a / "refs" / "library.yaml").read_text(encoding="utf-8").split(f"  {key}:")[1].split("\n\n")[0]
    assert "key_provisional" not in record, record
