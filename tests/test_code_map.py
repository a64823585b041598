"""The documentation cannot drift from the code: the code map lists every module, and links resolve.

``docs/architecture.md`` ends with a code map, one row per module under ``src/citekit/``. A
map kept by hand goes stale the first time a module is added, moved or removed, so this test
compares it with the tree and names what to change. The second test reads every relative
link of ``README.md`` and the pages under ``docs/``: a link to a file (or to a heading of a
Markdown page) that is not there is a broken promise to the reader.

``python tests/test_code_map.py`` prints the map as the code has it (each module's path and
the first sentence of its docstring), ready to paste.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "citekit"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAP_HEADING = "## Code map"

_MAP_ROW = re.compile(r"^\|\s*`([^`]+\.py)`\s*\|", re.M)
_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def modules() -> set[str]:
    """Every module of the package, as a path under ``src/citekit/`` (empty package markers left out)."""
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.stat().st_size > 0}


def mapped() -> list[str]:
    """The module paths the code map of ``docs/architecture.md`` lists, in its order."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert MAP_HEADING in text, f"{ARCHITECTURE.relative_to(ROOT)} has no '{MAP_HEADING}' section"
    section = text.split(MAP_HEADING, 1)[1].split("\n## ", 1)[0]
    return _MAP_ROW.findall(section)


def purpose(module: str) -> str:
    """The first sentence of a module's docstring: what the map says it holds."""
    source = (PACKAGE / module).read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or "(no docstring: write one that says what the module holds)"
    return " ".join(doc.split("\n\n", 1)[0].split())


def map_row(module: str) -> str:
    return f"| `{module}` | {purpose(module)} |"


def render_map() -> str:
    return "\n".join(map_row(m) for m in sorted(modules()))


def test_the_code_map_lists_every_module_and_no_other():
    listed = mapped()
    have = modules()
    repeated = sorted({m for m in listed if listed.count(m) > 1})
    missing = sorted(have - set(listed))
    gone = sorted(set(listed) - have)
    message = []
    if missing:
        message.append("modules the code map does not list; add these rows under "
                       f"'{MAP_HEADING}' in docs/architecture.md:\n" + "\n".join(map_row(m) for m in missing))
    if gone:
        message.append("rows for modules that do not exist (moved or removed); change or delete them "
                       "in docs/architecture.md:\n" + "\n".join(f"| `{m}` |" for m in gone))
    if repeated:
        message.append("modules listed twice: " + ", ".join(repeated))
    if message:
        message.append("(python tests/test_code_map.py prints the whole map as the code has it)")
    assert not message, "\n\n".join(message)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its label
    text = text.lower().replace("`", "")
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for heading in _HEADING.findall(text):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def broken_links(page: Path) -> list[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: …
            continue
        path_part, _, fragment = target.partition("#")
        where = (page.parent / path_part).resolve() if path_part else page
        line = f"{page.relative_to(ROOT)}: ({target})"
        if not where.exists():
            broken.append(f"{line}: no file {where.relative_to(ROOT) if where.is_relative_to(ROOT) else where}")
        elif fragment and where.suffix == ".md" and fragment not in anchors(where):
            broken.append(f"{line}: no heading with the anchor #{fragment} in {where.relative_to(ROOT)}")
    return broken


def test_every_relative_link_in_the_readme_and_docs_resolves():
    broken = [b for page in pages() for b in broken_links(page)]
    assert not broken, "links that point nowhere (fix the path, or the heading it names):\n" + "\n".join(broken)


def test_the_anchor_rule_is_the_one_github_uses():
    assert slug("`citekit sync`") == "citekit-sync"
    assert slug("The library (`refs/`)") == "the-library-refs"
    assert slug("Import, deduplicate, and keep keys") == "import-deduplicate-and-keep-keys"
    assert slug("The configuration schema (`src/citekit/core/config_schema.py`)") == \
        "the-configuration-schema-srccitekitcoreconfig_schemapy"


if __name__ == "__main__":
    print(render_map())
