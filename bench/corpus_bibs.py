"""The BibTeX files of ``../shared/corpora`` as the word-list fitters read them: every ``.bib``/``.bibtex``
file in path order, the Better BibTeX fixtures (``zotero-bbt-export``, whose HCI library related work is judged
on) held out, an unreadable file skipped.

Used by ``bench/casing_words.py`` and ``bench/common_acronyms.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
HELD_OUT = "zotero-bbt-export"


def bib_files(root: Path = CORPORA) -> Iterator[tuple[str, list[Any]]]:
    """(the corpus the file belongs to, its entries) for each readable BibTeX file outside the held-out one."""
    from citekit.bibtex.reader import read_bib_file

    logging.getLogger("citekit").setLevel(logging.ERROR)
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".bib", ".bibtex")):
        parts = path.relative_to(root).parts
        if HELD_OUT in parts:
            continue
        try:
            entries = read_bib_file(path).entries
        except Exception:  # (a file the reader cannot take is no word list's business)
            continue
        yield parts[0], entries
