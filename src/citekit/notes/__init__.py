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


def extract_paths(paths: list[Path], root: Path, *, follow_out: bool = False,
                  memo: Path | None = None) -> ExtractResult:
    """Mentions from notes files and folders, in file then line order.

    A file that cannot be read (binary, empty, not UTF-8) is reported in ``problems`` and
    skipped; the other files are still read. ``follow_out``: read what symbolic links in a
    folder point to outside it (``paths: {follow_symlinks_out_of_notes: true}``).
    ``memo``: the file that remembers what each notes file gave (:mod:`.filememo`), so
    only the files changed since are read again (a sync's; other readers pass none).
    """
    files, problems = notes_files([Path(p) for p in paths], follow_out=follow_out)
    result = ExtractResult(problems=problems)
    remembered = None
    if memo is not None:
        from citekit.notes.filememo import NotesMemo

        remembered = NotesMemo(memo)
    for path in files:
        name = notes_name(path, root)
        if remembered is None:
            text, read_problems = read_notes(path, name)
            result.problems.extend(read_problems)
            if text is not None:
                held = [text]
                del text  # extraction takes the only reference and frees the text once it is cut up
                result.extend(_extract_one(held, name))
            continue
        result.extend(_through_memo(remembered, path, name))
    if remembered is not None:
        remembered.save()
    return result


def _through_memo(memo: Any, path: Path, name: str) -> ExtractResult:
    """What ``path`` gives: remembered when its stat or its bytes are as last time, else
    read, extracted and remembered."""
    from citekit.core.cachefile import sha256, stat_key
    from citekit.notes.reader import text_of

    before = stat_key(path)
    known = memo.known(name, before)
    if known is not None:
        return ExtractResult(mentions=known[0], problems=known[1])
    try:
        data = path.read_bytes()
    except OSError:
        text, problems = read_notes(path, name)  # (the same message as without a memo)
        return ExtractResult(problems=problems)
    digest = sha256(data).hexdigest()
    known = memo.same_bytes(name, digest, before)
    if known is not None:
        return ExtractResult(mentions=known[0], problems=known[1])
    held = [data]
    del data
    text, problems = text_of(held, name)
    found = ExtractResult(problems=list(problems))
    if text is not None:
        owned = [text]
        del text
        found.extend(_extract_one(owned, name))
    memo.remember(name, before, digest, found.mentions, found.problems)
    return found


def _extract_one(held: list[str], name: str) -> ExtractResult:
    """The mentions of the one decoded notes text in ``held`` (taken out of it); a failure
    is a problem of its file, never the end of the others."""
    from citekit.notes.extract import extract_owned

    try:
        return extract_owned(held, name)
    except RecursionError:
        return ExtractResult(problems=[Problem(name, None, "nested too deeply to read; flatten the deepest lists and run again")])
    except Exception as exc:  # one unreadable file never stops the others
        return ExtractResult(problems=[Problem(name, None, f"skipped: extraction failed ({type(exc).__name__}: {exc}); please report this file shape")])
