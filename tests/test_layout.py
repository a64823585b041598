"""The layers of ``src/citekit`` hold: data flows down, and no package's modules import in a circle.

The contracts live in ``.importlinter`` at the project root; ``lint-imports`` checks them the
same way. Imports inside functions count: a lazy import is still an arrow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _check_contracts() -> tuple[int, str]:
    """``lint-imports`` in a process of its own: it configures logging for the whole
    process (``dictConfig`` disables every logger made before it), which would leak into
    the tests that run after this one."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter import cli; "
         "sys.exit(cli.lint_imports(config_filename='.importlinter', no_cache=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    return run.returncode, run.stdout + run.stderr


def test_the_layer_and_cycle_contracts_are_kept():
    pytest.importorskip("importlinter", reason="import-linter is a test dependency: pip install -e '.[test]'")
    code, report = _check_contracts()
    assert code == 0, report
    assert "2 kept, 0 broken" in report


# ---- the command line is a thin layer over citekit.api ---------------------------------------

#: what a module of ``citekit.cli`` may import besides the standard library
_CLI_MAY_IMPORT = ("citekit.api", "citekit.cli", "click")


def _imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every import in the file, at any depth (function-level too)."""
    import ast

    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: inside citekit.cli
                module = "citekit.cli" + (f".{module}" if module else "")
            if module == "citekit":  # `from citekit import api` / `__version__`
                found += [(node.lineno, f"citekit.{alias.name}" if alias.name == "api" else "citekit")
                          for alias in node.names]
            else:
                found.append((node.lineno, module))
    return found


def _allowed(module: str) -> bool:
    import sys

    top = module.split(".")[0]
    if module == "citekit":  # the package itself: only its __version__
        return True
    if any(module == m or module.startswith(m + ".") for m in _CLI_MAY_IMPORT):
        return True
    return top != "citekit" and top in sys.stdlib_module_names


def test_cli_imports_only_api():
    """Every ``src/citekit/cli/*.py`` imports only ``citekit.api`` (and its modules), click
    and the standard library: each command is options -> one API call -> print."""
    cli = ROOT / "src" / "citekit" / "cli"
    files = sorted(cli.glob("*.py"))
    assert len(files) >= 5
    wrong = [f"{p.relative_to(ROOT)}:{line}: {module}" for p in files for line, module in _imports_of(p)
             if not _allowed(module)]
    assert not wrong, "the command line reaches past citekit.api:\n" + "\n".join(wrong)


def test_cli_import_rule_catches_a_reach_past_the_api():
    """The rule above is not vacuous: the imports it must refuse are refused."""
    assert not _allowed("citekit.library.store")
    assert not _allowed("citekit.core.config")
    assert not _allowed("yaml")
    assert _allowed("citekit.api.dedup") and _allowed("click") and _allowed("json")
