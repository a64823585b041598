"""Works the notes mention that are waiting for an online sync.

A work is pending when the notes alone cannot make an entry of it (an abstract with no
title, a bare identifier or paper link, a title without authors) and no entry of the
library holds it yet. ``citekit list --status pending`` lists them with where they were
written; ``citekit sync`` names them in its summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citekit.core.resolution import Mention


def pending_json(group: list[Mention]) -> dict[str, Any]:
    """One pending work as JSON: why it waits, its title or a hint, and where it is written."""
    from citekit.library.update import pending_hint, pending_why  # (not loaded by a replayed sync's report)

    return {
        "why": pending_why(group),
        "title": next((m.title for m in group if m.title), None),
        "hint": pending_hint(group),
        "where": [str(m.location) for m in group],
        "kinds": sorted({m.kind for m in group}),
    }


def pending_works(notes_dir: Path, root: Path, library: Any, *, follow_out: bool = False,
                  memo: Path | None = None) -> list[dict[str, Any]]:
    """The pending works of the notes under ``notes_dir`` against ``library`` (``follow_out``
    and ``memo``: see :func:`citekit.notes.extract_paths`; with the sync's memo, only the
    notes files changed since the last sync are read, not every one)."""
    from citekit.library.records import fields_from_mentions
    from citekit.notes import extract_paths
    from citekit.resolve.grouping import group_mentions

    if not notes_dir.exists():
        return []
    extracted = extract_paths([notes_dir], root=root, follow_out=follow_out, memo=memo)
    held = {str(loc) for entry in library.entries.values() for loc in entry.mentions}
    out = []
    for group in group_mentions(extracted.mentions):
        if any(str(m.location) in held for m in group):
            continue
        if fields_from_mentions(group) is not None:
            continue  # the notes alone make an entry of it (a sync, even offline, writes it)
        out.append(pending_json(group))
    return out


def pending_line(item: dict[str, Any], width: int = 40) -> str:
    """One pending work as ``sync`` and ``list --status pending`` both print it: where, why
    it waits, and its title or what identifies it (the same words in both)."""
    where = (item.get("where") or ["?"])[0]
    why = item.get("why") or _why_of_stored(item)
    what = item.get("title") or item.get("hint") or _hint_of_stored(item)
    gap = " " if len(why) < 22 else "  "  # (a long reason stays apart from what follows it)
    return f"{where:<{width}} {why:<22}{gap}{what}".rstrip()


def describe(item: dict[str, Any]) -> str:
    """A pending work of a sync report: :func:`pending_line`, then what the page it links
    gave and what the lookup of its pasted reference found, when there is either."""
    page = f" ({item['page']})" if item.get("page") else ""
    looked_up = f"\n      {item['looked_up']}" if item.get("looked_up") else ""
    return pending_line(item) + page + looked_up


def _why_of_stored(item: dict[str, Any]) -> str:
    """``why`` for a report stored before it carried one (the fields ``library.yaml`` keeps)."""
    if item.get("title"):
        return "title without authors"
    return {"abstract": "abstract only", "cited": "authors and year only"}.get(item.get("kind", ""), "identifier only")


def _hint_of_stored(item: dict[str, Any]) -> str:
    return ", ".join(item.get("hints") or []) or ", ".join(item.get("urls") or []) or item.get("text") or ""
