"""``%`` comment lines, as the BibTeX writer and the fast whole-library export both write
them (a module of its own: the export must not import the writer to add a header)."""

from __future__ import annotations


def tex_comment(text: str) -> str:
    """Each line of ``text`` as a ``%`` comment; a blank line as a bare ``%``."""
    return "\n".join("% " + line if line.strip() else "%" for line in text.splitlines())
