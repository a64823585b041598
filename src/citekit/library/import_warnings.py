"""What an import warned about, per version of the files: a daily re-import of the same
malformed export says its problems once, not on every run. And the same-work candidates
it left apart, so that ``import FILE --merge`` run again, as the import's message says,
merges them without analysing the whole library again.

Kept beside the library's caches (``.citekit/<refs>-import-warnings.json``): for each set
of files imported together (named as import records name them), the SHA-256 of their
bytes and the problems reported for that content. An import of the same, unchanged files
finds its problems there and reports them as said before (not findings: exit 0 for them);
once a file changes, everything is warned about again. Losing the file only means the
warnings are said once more.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from citekit.library.lock import state_dir

#: how many sets of files are remembered (the most recent ones)
KEEP = 64


def warnings_path(refs_dir: Path) -> Path:
    """Where the warnings already given are remembered."""
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-import-warnings.json"


def files_digest(paths: Iterable[Path]) -> str:
    """One SHA-256 over the bytes of ``paths`` in order (each file's length first)."""
    h = hashlib.sha256()
    for path in paths:
        data = Path(path).read_bytes()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _read(refs_dir: Path) -> dict[str, dict[str, object]]:
    try:
        data = json.loads(warnings_path(refs_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def said_before(refs_dir: Path, names: Sequence[str], digest: str) -> set[str]:
    """The problems already reported for the files ``names`` with this content (empty when
    they changed since, or were never imported)."""
    seen = _read(refs_dir).get("\n".join(names))
    if not isinstance(seen, dict) or seen.get("sha256") != digest:
        return set()
    return {str(p) for p in seen.get("problems", []) if isinstance(p, str)}


def left_apart(refs_dir: Path, names: Sequence[str]) -> list[list[str]] | None:
    """The keys of each same-work candidate an import of the files ``names`` listed and left
    apart (none merged since by an import of them with ``--merge``); None when no import of
    them is remembered (then only an analysis of the whole library can tell)."""
    seen = _read(refs_dir).get("\n".join(names))
    groups = seen.get("left_apart") if isinstance(seen, dict) else None
    if not isinstance(groups, list):
        return None
    return [[str(k) for k in g] for g in groups if isinstance(g, list)]


def remember(refs_dir: Path, names: Sequence[str], digest: str, problems: Iterable[str],
             apart: Iterable[Sequence[str]] = ()) -> None:
    """Record ``problems`` as reported for the files ``names`` with this content, and the
    candidates (``apart``: each one's keys) left apart by the imports of them so far."""
    from citekit.library.store import atomic_write

    data = _read(refs_dir)
    name = "\n".join(names)
    data.pop(name, None)
    groups = sorted({tuple(g) for g in apart if len(g) > 1})
    data[name] = {"sha256": digest, "problems": sorted(set(problems)), "left_apart": [list(g) for g in groups]}
    while len(data) > KEEP:
        data.pop(next(iter(data)))
    path = warnings_path(refs_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
