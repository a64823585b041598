"""The store stays a package of small modules, each with one job (see
``src/citekit/library/store/__init__.py``): the 1,532-line ``store.py`` it replaced held about
fifteen jobs in one class. A module that grows past the limit is a job to split off."""

from __future__ import annotations

import ast
from pathlib import Path

import citekit.library.store as store

STORE = Path(store.__file__).parent
#: the most lines a module of the store may have
MAX_LINES = 400


def _modules() -> list[Path]:
    return sorted(STORE.rglob("*.py"))


def test_every_module_of_the_store_is_small() -> None:
    sizes = {p.relative_to(STORE).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in _modules()}
    assert len(sizes) > 10
    too_big = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_big, f"modules of library/store over {MAX_LINES} lines (split a job off): {too_big}"


def test_no_module_of_the_store_answers_attributes_through_getattr() -> None:
    """Lazy decoding is a property of the cached library (``entries``), not a
    ``__getattr__`` that answers for attributes nobody set."""
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert "__getattr__" not in names, path


def test_the_plain_library_needs_no_cache() -> None:
    """The plain library and what it is built from import nothing of ``store.cache``."""
    plain = ("library.py", "files.py", "header.py", "kept.py", "parse.py", "reconcile.py", "render.py", "kinds.py")
    for name in plain:
        tree = ast.parse((STORE / name).read_text(encoding="utf-8"))
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in imported if m.startswith("citekit.library.store.cache")], name
    for path in (STORE / "sidecar").glob("*.py"):
        assert "store.cache" not in path.read_text(encoding="utf-8"), path
