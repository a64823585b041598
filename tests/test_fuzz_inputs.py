"""The fuzz suites (bench/fuzz.py), CI-sized: a few hundred mutated inputs of each kind.

Each example is one case of a family, made from a seed by the same mutators the bench
uses (deterministic: ``derandomize=True``), in a small scratch project put back between
cases. No exception may escape to the command runner (a clean exit 0, 1 or 2 only), and
no file outside the project may change. ``python bench/fuzz.py`` runs 10,000 per family.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzz  # noqa: E402

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CASE_SECONDS = 20.0
CLI = settings(max_examples=80, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                      HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[fuzz.Sandbox]:
    """The fuzz sandbox, the working folder inside it (relative paths a mutation makes up
    resolve there), and HOME inside it too."""
    box = fuzz.Sandbox(tmp_path_factory.mktemp("fuzz"))
    old_cwd, old_home = os.getcwd(), os.environ.get("HOME")
    os.chdir(box.cwd)
    os.environ["HOME"] = str(box.root / "home")
    try:
        yield box
    finally:
        os.chdir(old_cwd)
        if old_home is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = old_home


@pytest.fixture(scope="module")
def project(sandbox: fuzz.Sandbox) -> fuzz.Project:
    return fuzz.Project(sandbox)


def _assert_clean(report: fuzz.FamilyReport) -> None:
    failures = [f for group in report.failures.values() for f in group]
    assert not failures, "\n\n".join(f"{f.kind} at {f.where} ({f.command}), input {f.data[:300]!r}:\n{f.detail[-1500:]}"
                                     for f in failures[:3])


NOTES_SEEDS = fuzz.notes_seeds()


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(SEEDS)
def test_mutated_notes_are_read_without_an_exception(sandbox: fuzz.Sandbox, seed: int) -> None:
    rnd = random.Random(seed)
    mut = fuzz.Mutator(rnd, [d for _, d in NOTES_SEEDS], sandbox.root)
    suffix, data = fuzz.notes_case(rnd, mut, NOTES_SEEDS)
    report = fuzz.FamilyReport("notes")
    fuzz.check_notes(report, suffix, data, CASE_SECONDS)
    _assert_clean(report)


@pytest.fixture(scope="module")
def bib_entries() -> list[bytes]:
    return fuzz.bib_seeds(random.Random(22), files=60)


@CLI
@given(SEEDS)
def test_mutated_bib_files_import_or_are_refused_cleanly(project: fuzz.Project, bib_entries: list[bytes], seed: int) -> None:
    rnd = random.Random(seed)
    mut = fuzz.Mutator(rnd, bib_entries, project.sandbox.root)
    report = fuzz.FamilyReport("bib")
    fuzz.check_bib(project, report, fuzz.bib_case(rnd, mut, bib_entries, max_doublings=16), CASE_SECONDS)
    _assert_clean(report)


BOMB = ("\n".join(['@string{s0 = "ab"}'] + [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, 26)])
        + "\n@misc{bomb, title = s25}\n")
SPECIAL_BIB = {
    "a line starting with @Name{ inside a braced value": (b"@article{inbrace,\n  title = {First line\n@Name{not an entry},\n"
                                                          b"  more text},\n  author = {Doe, Jane},\n  year = {2020},\n}\n"),
    "an unknown entry type": b"@x.y{odd,\n  title = {Odd type},\n  year = {2021},\n}\n",
    "a deep @string chain": ("\n".join(['@string{c0 = "x"}'] + [f"@string{{c{i} = c{i - 1}}}" for i in range(1, 3000)])
                             + "\n@misc{chain, title = c2999}\n").encode(),
}


@pytest.mark.parametrize("name", sorted(SPECIAL_BIB))
def test_special_bib_shapes_import_or_are_refused_cleanly(project: fuzz.Project, name: str) -> None:
    report = fuzz.FamilyReport("bib")
    fuzz.check_bib(project, report, SPECIAL_BIB[name], CASE_SECONDS)
    _assert_clean(report)


def test_a_string_macro_bomb_is_refused_within_bounds(tmp_path: Path) -> None:
    """717 bytes of 25 doubling @strings (64 MB of text): refused with a message, in a
    process held to 1.5 GB and 60 s, never a MemoryError or a hang."""
    import subprocess

    from .helpers_project import make_project

    root = make_project(tmp_path, notes=False)
    bib = tmp_path / "bomb.bib"
    bib.write_text(BOMB, encoding="utf-8")
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20)); "
            "from citekit.cli import main; sys.argv = ['citekit'] + sys.argv[1:]; main()")
    try:
        proc = subprocess.run([sys.executable, "-c", code, "-C", str(root), "import", str(bib)],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("import of a 717-byte @string bomb ran past 60 s")
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr, proc.stderr[-2000:]


@CLI
@given(SEEDS)
def test_mutated_config_is_read_or_refused_cleanly(project: fuzz.Project, seed: int) -> None:
    rnd = random.Random(seed)
    mut = fuzz.Mutator(rnd, [fuzz.BASE_CONFIG.encode()], project.sandbox.root)
    data = fuzz.config_case(rnd, mut)
    report = fuzz.FamilyReport("config")
    for args in (("list",), ("sync", "--offline", "-q")):
        fuzz.check_file(project, report, project.root / "citekit.yaml", data, args, CASE_SECONDS)
    _assert_clean(report)


@CLI
@given(SEEDS)
def test_mutated_sidecar_is_read_or_refused_cleanly(project: fuzz.Project, seed: int) -> None:
    rnd = random.Random(seed)
    base = project.saved[Path("refs") / "library.yaml"]
    mut = fuzz.Mutator(rnd, [base], project.sandbox.root)
    data = fuzz._tree_case(rnd, mut, base)
    report = fuzz.FamilyReport("sidecar")
    for args in fuzz._writer_commands(project, rnd, seed):
        fuzz.check_file(project, report, project.root / "refs" / "library.yaml", data, args, CASE_SECONDS)
    _assert_clean(report)


@CLI
@given(SEEDS)
def test_mutated_journal_is_set_aside_or_refused_cleanly(project: fuzz.Project, seed: int) -> None:
    rnd = random.Random(seed)
    bases = [fuzz.base_journal(project, "prepare"), fuzz.base_journal(project, "commit")]
    mut = fuzz.Mutator(rnd, bases, project.sandbox.root)
    data = fuzz.journal_case(rnd, mut, bases)
    leave = fuzz.journal_leftovers(project, rnd)
    report = fuzz.FamilyReport("journal")
    for args in fuzz._writer_commands(project, rnd, seed):
        fuzz.check_file(project, report, project.root / "refs" / ".citekit-journal", data, args, CASE_SECONDS, leave)
    _assert_clean(report)
