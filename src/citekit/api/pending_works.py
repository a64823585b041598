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
from citekit.notes.authoryear import cited_as


def _why(group: list[Mention]) -> str:
    if any(m.title for m in group):
        return "title without authors"
    if all(m.kind == "abstract" for m in group):
        return "abstract only"
    if all(m.kind == "cited" for m in group):
        return "a pasted reference whose title could not be read" if any(m.reference for m in group) else "authors and year only"
    if any(m.urls or m.ids or m.pins for m in group):
        return "identifier only"
    return "project page only"


def _hint(group: list[Mention]) -> str:
    """What identifies a work that has no title yet."""
    for m in group:
        ids = list(m.pins.items()) + list(m.ids.items())
        if ids:
            return ", ".join(f"{k}:{v}" for k, v in ids)
    for m in group:
        if m.urls:
            return m.urls[0]
    for m in group:
        if m.hints:
            return "introduces " + ", ".join(m.hints[:4])
    for m in group:
        if m.kind == "cited" and m.reference:  # (the whole string: all the notes say of it)
            return m.reference[:120] + ("…" if len(m.reference) > 120 else "")
        if m.kind == "cited" and m.authors:
            return cited_as(m)
    for m in group:
        if m.links:
            return next(iter(m.links.values()))
        if m.abstract:
            return " ".join(m.abstract.split()[:12]) + "…"
    return ""


def pending_json(group: list[Mention]) -> dict[str, Any]:
    """One pending work as JSON: why it waits, its title or a hint, and where it is written."""
    return {
        "why": _why(group),
        "title": next((m.title for m in group if m.title), None),
        "hint": _hint(group),
        "where": [str(m.location) for m in group],
        "kinds": sorted({m.kind for m in group}),
    }


def pending_works(notes_dir: Path, root: Path, library: Any, *, follow_out: bool = False) -> list[dict[str, Any]]:
    """The pending works of the notes under ``notes_dir`` against ``library`` (``follow_out``:
    see :func:`citekit.notes.extract_paths`)."""
    from citekit.library.records import fields_from_mentions
    from citekit.notes import extract_paths
    from citekit.resolve.grouping import group_mentions

    if not notes_dir.exists():
        return []
    extracted = extract_paths([notes_dir], root=root, follow_out=follow_out)
    held = {str(loc) for entry in library.entries.values() for loc in entry.mentions}
    out = []
    for group in group_mentions(extracted.mentions):
        if any(str(m.location) in held for m in group):
            continue
        if fields_from_mentions(group) is not None:
            continue  # the notes alone make an entry of it (a sync, even offline, writes it)
        out.append(pending_json(group))
    return out


def describe(item: dict[str, Any]) -> str:
    """One line for a pending work of a sync report (``where: title or hint``)."""
    where = (item.get("where") or ["?"])[0]
    page = f"; {item['page']}" if item.get("page") else ""
    title = item.get("title")
    if title:
        return f"{where}: {title} (no authors in the notes{page})"
    hint = ", ".join(item.get("hints") or []) or ", ".join(item.get("urls") or []) or item.get("text") or ""
    kind = item.get("kind", "")
    label = {"abstract": "abstract", "url": "link", "cited": "cited as"}.get(kind, kind)
    looked_up = f"\n      {item['looked_up']}" if item.get("looked_up") else ""
    return f"{where}: {label} {hint}".rstrip() + (f" ({page[2:]})" if page else "") + looked_up
