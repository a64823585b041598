"""Reading conference notes: paper mentions out of trip reports, lists and pasted abstracts.

``extract_paths`` reads files and folders, ``extract_text`` one text in memory, and
``group_mentions`` puts the mentions of one work together.
"""

from __future__ import annotations

from pathlib import Path

from typing import Any

from citekit.notes.reader import notes_files, notes_name, read_notes
from citekit.notes.result import ExtractResult, Problem

__all__ = ["extract_paths", "extract_text", "group_mentions", "ExtractResult", "Problem"]

#: the extractors and the grouping (markdown-it, orgparse, rapidfuzz) load on first use:
#: a replayed sync only lists the notes files (``citekit.notes.reader``)
_LAZY = {"extract_text": ".extract", "group_mentions": ".group"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def extract_paths(paths: list[Path], root: Path, *, follow_out: bool = False) -> ExtractResult:
    """Mentions from notes files and folders, in file then line order.

    A file that cannot be read (binary, empty, not UTF-8) is reported in ``problems`` and
    skipped; the other files are still read. ``follow_out``: read what symbolic links in a
    folder point to outside it (``paths: {follow_symlinks_out_of_notes: true}``).
    """
    from citekit.notes.extract import extract_owned

    files, problems = notes_files([Path(p) for p in paths], follow_out=follow_out)
    result = ExtractResult(problems=problems)
    for path in files:
        name = notes_name(path, root)
        text, read_problems = read_notes(path, name)
        result.problems.extend(read_problems)
        if text is not None:
            held = [text]
            del text  # extraction takes the only reference and frees the text once it is cut up
            try:
                result.extend(extract_owned(held, name))
            except RecursionError:
                result.problems.append(Problem(name, None, "nested too deeply to read; flatten the deepest lists and run again"))
            except Exception as exc:  # one unreadable file never stops the others
                result.problems.append(Problem(name, None, f"skipped: extraction failed ({type(exc).__name__}: {exc}); please report this file shape"))
    return result
