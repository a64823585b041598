"""The BibTeX entries of the shared corpora as plain-text records, read with citekit's own reader.

Entries are de-LaTeXed once, keyed by their folded title (a paper that several files
hold is one record), and split into a training part and a held-out part by a seeded
hash of that title, so the held-out part shares no paper with training.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

from citekit.bibtex.reader import read_bib_file
from citekit.core.ids import normalize_arxiv, normalize_doi
from citekit.core.text import latex_to_text

CSL_TYPES = {
    "inproceedings": "paper-conference", "conference": "paper-conference", "article": "article-journal",
    "misc": "article", "unpublished": "manuscript", "book": "book", "incollection": "chapter",
    "inbook": "chapter", "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis",
    "techreport": "report", "report": "report", "online": "webpage",
}


@dataclass
class Record:
    """One corpus entry as plain text: what a rendered reference string is built from."""

    key: str
    entry_type: str
    title: str
    authors: list[dict[str, str]] = field(default_factory=list)  # CSL name objects
    others: bool = False  # the BibTeX list ended with "and others"
    editors: list[dict[str, str]] = field(default_factory=list)
    container: str = ""
    year: int | None = None
    month: int | None = None
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    place: str = ""
    doi: str = ""
    url: str = ""
    arxiv: str = ""
    genre: str = ""  # a thesis's or report's kind as printed (``PhD thesis``, ``Technical Report``)
    bib: dict[str, str] = field(default_factory=dict)  # the original LaTeX fields, for bibtex runs


def _text(value: str) -> str:
    try:
        out = latex_to_text(value, matching=True)
    except Exception:  # a value the LaTeX reader cannot take is not worth a training string
        return ""
    return re.sub(r"\s+", " ", out.replace("{", "").replace("}", "")).strip()


def _names(value: str) -> tuple[list[dict[str, str]], bool]:
    out = []
    others = False
    for name in split_multiple_persons_names(value):
        if name.strip().lower() == "others":
            others = True
            continue
        parts = parse_single_name_into_parts(name, strict=False)
        n = {}
        if parts.last:
            n["family"] = _text(" ".join(parts.last))
        if parts.first:
            n["given"] = _text(" ".join(parts.first))
        if parts.von:
            n["non-dropping-particle"] = _text(" ".join(parts.von))
        if n.get("family"):
            out.append(n)
    return out, others


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def to_record(key: str, entry_type: str, fields: dict[str, str]) -> Record | None:
    """A record, or None when the entry has no title or no author (nothing to learn from)."""
    f = {k.lower(): v for k, v in fields.items()}
    title = _text(f.get("title", ""))
    if len(title) < 8 or not f.get("author"):
        return None
    authors, others = _names(f["author"])
    if not authors or len(authors) > 40:
        return None
    rec = Record(key=key, entry_type=entry_type.lower(), title=title, authors=authors, others=others, bib=f)
    if f.get("editor"):
        rec.editors = _names(f["editor"])[0][:6]
    rec.container = _text(f.get("booktitle") or f.get("journal") or f.get("journaltitle") or "")
    if rec.entry_type in ("book", "phdthesis", "mastersthesis", "thesis", "techreport") \
            or title_key(rec.container) == title_key(title):
        rec.container = ""  # a book's own title repeated as its booktitle is not a container
    m = re.search(r"(1[5-9]\d\d|20\d\d)", f.get("year", "") or f.get("date", ""))
    rec.year = int(m.group(1)) if m else None
    mon = f.get("month", "").strip().lower()[:3]
    rec.month = _MONTHS.index(mon) + 1 if mon in _MONTHS else None
    rec.volume = _text(f.get("volume", ""))[:20]
    rec.issue = _text(f.get("number", ""))[:20]
    rec.pages = _text(f.get("pages", "")).replace("--", "–")[:30]
    rec.publisher = _text(f.get("publisher", "") or f.get("institution", "") or f.get("school", ""))
    rec.place = _text(f.get("address", ""))
    rec.doi = normalize_doi(f.get("doi", "")) or ""
    url = f.get("url", "").strip()
    rec.url = url if re.match(r"https?://\S+$", url) else ""
    eprint = f.get("eprint", "") if "arxiv" in (f.get("archiveprefix", "") + f.get("eprinttype", "")).lower() else ""
    rec.arxiv = normalize_arxiv(eprint) or normalize_arxiv(f.get("arxivid", "")) or ""
    if not rec.arxiv:
        m = re.search(r"arxiv[: ]+(\d{4}\.\d{4,5})", f.get("journal", "") + " " + f.get("note", ""), re.I)
        rec.arxiv = m.group(1) if m else ""
    return rec


def title_key(title: str) -> str:
    return re.sub(r"[^a-z0-9]", "", title.lower())


def held_out(rec: Record, seed: int, share: float) -> bool:
    """Whether a record is in the held-out part: a seeded hash of its title, not of its file."""
    h = hashlib.sha256(f"{seed}:{title_key(rec.title)}".encode()).digest()
    return int.from_bytes(h[:4], "big") / 2**32 < share


def read_corpora(root: Path) -> tuple[list[Record], dict[str, int]]:
    """Every entry of every ``.bib``/``.bibtex`` file under ``root``, one record per title.

    Also returns how many records each top-level folder gave.
    """
    logging.getLogger("citekit").setLevel(logging.ERROR)
    seen: set[str] = set()
    out: list[Record] = []
    per_source: dict[str, int] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".bib", ".bibtex")):
        try:
            entries = read_bib_file(path).entries
        except Exception:
            continue
        for e in entries:
            rec = to_record(e.key, e.entry_type, e.fields)
            if rec is None:
                continue
            k = title_key(rec.title)
            if k in seen:
                continue
            seen.add(k)
            out.append(rec)
            src = path.relative_to(root).parts[0]
            per_source[src] = per_source.get(src, 0) + 1
    return out, per_source


def to_csl(rec: Record, *, arxiv_note: bool = False) -> dict:
    """A CSL-JSON item for citeproc-py."""
    item: dict = {"id": rec.key, "type": CSL_TYPES.get(rec.entry_type, "article"), "title": rec.title,
                  "author": rec.authors}
    if rec.editors:
        item["editor"] = rec.editors
    if rec.container:
        item["container-title"] = rec.container
    if rec.year:
        item["issued"] = {"date-parts": [[rec.year] + ([rec.month] if rec.month else [])]}
    for name, csl in (("volume", "volume"), ("issue", "issue"), ("pages", "page"), ("publisher", "publisher"),
                      ("place", "publisher-place"), ("doi", "DOI"), ("url", "URL"),
                      ("genre", "genre")):
        v = getattr(rec, name)
        if v:
            item[csl] = v
    return item
