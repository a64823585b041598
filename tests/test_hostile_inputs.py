"""The hostile-input cases of ``tests/hostile/``, run against the installed ``citekit``.

They were written from the user documentation and the bug report of the "trust nothing a
file or a service says" work only, by a tester who did not read the code or the other
tests: crafted journals, config paths, sidecars of every wrong shape, notes file names
that are not UTF-8, answers that are huge or hold lone surrogates, ``@string`` bombs, ``@``
lines inside values, text between entries, long pasted paragraphs, symlinks out of
``notes/``, unknown entry types, noisy libraries. Each case copies a real project built by
the program under test, applies its damage, runs real processes (no network: a loopback
fake answers where a case needs a service) and checks what ``tests/hostile/README.md``
says must hold, including that no file beside the project is touched.

The cases are generated (``gen_cases.py``: bombs, long paragraphs and odd file names are
made, not stored) into a temporary folder once per session.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

HOSTILE = Path(__file__).parent / "hostile"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"hostile_{name}", HOSTILE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_GEN = _module("gen_cases")  # defines the cases; writes nothing on import
_RUN = _module("run")
CASE_NAMES = [f"{i:03d}-{c['name']}" for i, c in enumerate(_GEN.CASES, 1)]


def _citekit() -> str:
    exe = Path(sys.executable).with_name("citekit")
    if not exe.exists():
        pytest.skip("the citekit command is not installed beside this Python (pip install -e .)")
    return str(exe)


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory):
    """(citekit, base project, cases folder, fake service), made once."""
    exe = _citekit()
    cases = tmp_path_factory.mktemp("hostile") / "cases"
    made = subprocess.run([sys.executable, str(HOSTILE / "gen_cases.py")], capture_output=True, text=True,
                          env={**os.environ, "CASES_OUT": str(cases)}, timeout=300)
    assert made.returncode == 0, made.stderr
    base = _RUN.build_base(exe, tmp_path_factory.mktemp("hostile-base"))
    service = _RUN.FakeService()
    yield exe, base, cases, service
    service.close()


@pytest.mark.parametrize("name", CASE_NAMES)
def test_hostile_case(hostile, name: str) -> None:
    exe, base, cases, service = hostile
    ok, why = _RUN.run_case(exe, base, cases / name, service, False, False)
    assert ok, f"{name}: {why}"
