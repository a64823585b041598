"""AnyStyle's labelled reference strings (``res/parser/*.xml``) as token-label sequences.

AnyStyle's tags are mapped onto citekit's ten labels: ``journal``, ``container-title``
and ``collection-title`` are the container; ``doi`` and ``isbn`` identifiers; editors,
publishers, places, editions and citation numbers are ``other``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from citekit.notes.refparse.tokens import tokenize

TAG_TO_LABEL = {
    "author": "author",
    "title": "title",
    "journal": "container",
    "container-title": "container",
    "collection-title": "container",
    "date": "date",
    "volume": "volume",
    "pages": "pages",
    "doi": "identifier",
    "isbn": "identifier",
    "url": "url",
    "note": "note",
}


def read_sequences(path: Path) -> list[tuple[str, list[str], list[str]]]:
    """Every ``<sequence>`` of one AnyStyle file: (text, tokens, labels)."""
    out = []
    root = ET.parse(path).getroot()
    for seq in root.iter("sequence"):
        tokens: list[str] = []
        labels: list[str] = []
        parts = []
        for el in seq:
            text = el.text or ""
            lab = TAG_TO_LABEL.get(el.tag, "other")
            toks = [t.text for t in tokenize(text)]
            tokens += toks
            labels += [lab] * len(toks)
            parts.append(text.strip())
        if tokens:
            out.append((" ".join(parts), tokens, labels))
    return out


def text_key(tokens: list[str]) -> str:
    """What two sequences share when they are the same reference (to keep gold out of training)."""
    return "".join(c for c in "".join(tokens).lower() if c.isalnum())
