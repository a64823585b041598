"""Every kind of derived value kept in the parsed-library cache is named in one place,
:mod:`citekit.library.store.kinds`: a kind written as a string at a call site could
collide with another, or keep its old values when its shape changes without a new version.

The AST of every module of ``src/citekit`` is walked: the kind passed to ``memo``,
``memo_table``, ``remembered`` (or to the ``remember`` function a library's ``remembered``
is handed to) must not be a string literal, an f-string, or an expression built from one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import citekit
from citekit.library.store import kinds

PACKAGE = Path(citekit.__file__).parent
REGISTRY = PACKAGE / "library" / "store" / "kinds.py"
#: the calls that take a kind, and the name of that argument
TAKES_KIND = {"memo": "kind", "memo_table": "kind", "remembered": "name", "remember": "name", "remembered_apart": "name"}


def _written_out(node: ast.AST) -> bool:
    """Whether an expression is (or is built from) a string written at the call site."""
    return any(isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
               for n in ast.walk(node))


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def offences(source: str, name: str) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _called(node) not in TAKES_KIND:
            continue
        keyword = TAKES_KIND[_called(node) or ""]
        given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == keyword), None)
        if given is not None and _written_out(given):
            out.append(f"{name}:{node.lineno}: {ast.unparse(given)}")
    return out


def test_every_kind_is_a_constant_of_the_registry() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != REGISTRY:
            found += offences(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    assert not found, "kinds written as strings (name them in citekit/library/store/kinds.py):\n" + "\n".join(found)


def test_the_check_sees_strings_and_f_strings() -> None:
    source = ('lib.memo("json:1", e, f)\nlib.memo_table(f"list-line:{n}", f)\nlib.remembered("x:" + k, g)\n'
              'remember(name=f"twin:{k}", compute=g)\nlib.memo(kinds.ENTRY_JSON, e, f)\nlib.memo_table(kind, f)\n'
              'remember(kinds.published_twin(k), g)\n')
    assert [line.split(":", 2)[1] for line in offences(source, "x")] == ["1", "2", "3", "4"]


def test_kinds_are_distinct_and_versioned_families_end_in_a_colon() -> None:
    assert len(set(kinds.FIXED)) == len(kinds.FIXED)
    assert all(family.endswith(":") for family in kinds.FAMILIES)
    made = [kinds.export_text(True), kinds.export_text(False), kinds.rule_tags("0" * 16), kinds.published_twin("k")]
    assert all(kind.startswith(kinds.FAMILIES) for kind in made)
    assert not set(made) & set(kinds.FIXED)
    # a family's kinds replace one another (a new version drops the old tables): no fixed
    # kind may share a family with another
    families = [kind.split(":", 1)[0] for kind in kinds.FIXED if ":" in kind]
    assert len(set(families)) == len(families)
