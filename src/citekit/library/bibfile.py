"""Reading BibTeX files, whatever their encoding, without losing the good entries.

A library that has one broken entry is still a library: every entry that parses is kept,
and every one that does not is reported with its line so the user can fix it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

import logging

import bibtexparser
from bibtexparser import model as bpmodel

# bibtexparser logs every damaged block as a warning; citekit reports them as Problems
# with file and line instead, so its own logger is quieted.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)

from ..ids import normalize_arxiv, normalize_dblp, normalize_doi, normalize_openreview
from ..model import Entry, Ids


@dataclass
class Problem:
    """Something wrong in an input file, located as precisely as we can."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass
class BibParseResult:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    preamble: list[str] = field(default_factory=list)
    encoding: str = "utf-8"


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Text and the encoding used: BOMs first, then UTF-8, then Latin-1 (never fails).

    Real .bib files come in UTF-16 with BOM, UTF-8 with BOM, and legacy Latin-1; CR-only
    line ends are normalised so line numbers mean what an editor shows.
    """
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            text = data.decode(enc)
            break
    else:
        try:
            text, enc = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, enc = data.decode("latin-1"), "latin-1"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, enc


def read_bib_file(path: Path, name: str | None = None) -> BibParseResult:
    """Parse a .bib file in any common encoding; problems are reported, never raised."""
    text, enc = decode_bytes(Path(path).read_bytes())
    result = parse_bib_text(text, name or str(path))
    result.encoding = enc
    if enc == "latin-1":
        result.problems.insert(0, Problem(name or str(path), None, "not UTF-8; read as Latin-1 (re-save as UTF-8 to be sure)"))
    return result


def parse_bib_text(text: str, name: str) -> BibParseResult:
    """Parse BibTeX text into :class:`Entry` objects with values as written (macros expanded)."""
    result = BibParseResult()
    library = bibtexparser.parse_string(text)
    for block in library.blocks:
        line = (block.start_line + 1) if getattr(block, "start_line", None) is not None else None
        if isinstance(block, bpmodel.Entry):
            result.entries.append(_to_entry(block))
        elif isinstance(block, bpmodel.DuplicateBlockKeyBlock):
            result.problems.append(Problem(name, line, f"duplicate key '{block.key}': this later entry was skipped; rename it or merge it by hand"))
        elif isinstance(block, bpmodel.DuplicateFieldKeyBlock):
            entry = block.ignore_error_block
            key = entry.key if isinstance(entry, bpmodel.Entry) else "?"
            if isinstance(entry, bpmodel.Entry):
                result.entries.append(_to_entry(entry))
            dups = ", ".join(sorted(block.duplicate_keys))
            result.problems.append(Problem(name, line, f"entry '{key}' repeats a field ({dups}); the first value was kept"))
        elif isinstance(block, bpmodel.ParsingFailedBlock):
            err = block.error
            msg = (getattr(err, "abort_reason", "") or str(err or "")).strip() or "could not parse this block"
            result.problems.append(Problem(name, line, f"unreadable entry skipped ({msg}); fix it and run again"))
        elif isinstance(block, bpmodel.Preamble):
            result.preamble.append(block.value)
    return result


def _to_entry(block: bpmodel.Entry) -> Entry:
    fields: dict[str, str] = {}
    for f in block.fields:
        k = f.key.lower()
        if k not in fields:
            fields[k] = _clean_value(str(f.value))
    return Entry(key=block.key, entry_type=block.entry_type.lower(), fields=fields, ids=ids_from_fields(fields), origin="import")


def _clean_value(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == "{" and value[-1] == "}" and _balanced_inner(value[1:-1]):
        value = value[1:-1]
    elif len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value[1:-1]
    return re.sub(r"\s*\n\s*", " ", value)


def _balanced_inner(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0


def ids_from_fields(fields: dict[str, str]) -> Ids:
    """Identifiers an entry reveals through doi/eprint/arxiv/url/openreview/biburl fields."""
    ids = Ids()
    if fields.get("doi"):
        ids.doi = normalize_doi(fields["doi"])
    if ids.doi and ids.doi.startswith("10.48550/arxiv."):
        ids.arxiv = normalize_arxiv(ids.doi)
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    if fields.get("eprint") and (prefix == "arxiv" or not prefix):
        ids.arxiv = ids.arxiv or normalize_arxiv(fields["eprint"])
    for k in ("arxivid", "arxiv"):
        if fields.get(k):
            ids.arxiv = ids.arxiv or normalize_arxiv(fields[k])
    if fields.get("openreview"):
        ids.openreview = normalize_openreview(fields["openreview"])
    for k in ("url", "howpublished", "note", "biburl"):
        val = fields.get(k, "")
        for url in re.findall(r"https?://[^\s}]+", val.replace("\\url{", " ")):
            if "arxiv.org" in url:
                ids.arxiv = ids.arxiv or normalize_arxiv(url)
            elif "openreview.net" in url:
                ids.openreview = ids.openreview or normalize_openreview(url)
            elif "dblp" in url:
                ids.dblp = ids.dblp or normalize_dblp(url)
            elif "doi.org" in url:
                ids.doi = ids.doi or normalize_doi(url)
    m = re.search(r"arxiv[:\s]*(?:preprint\s+)?(?:arxiv:)?\s*(\d{4}\.\d{4,5})", fields.get("journal", "") + " " + fields.get("note", ""), re.I)
    if m:
        ids.arxiv = ids.arxiv or m.group(1)
    return ids
