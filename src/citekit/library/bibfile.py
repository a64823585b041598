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
    #: the source text of each entry, parallel to ``entries`` (to keep a rejected one verbatim)
    raws: list[str] = field(default_factory=list)
    #: the source text of every block that could not be read (duplicate keys included)
    unparsed: list[str] = field(default_factory=list)


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Text and the encoding used; never fails, never garbles more than a bad line.

    Real .bib files come in UTF-8, UTF-8 or UTF-16 with a BOM, UTF-16 without one (NUL
    bytes give it away), and legacy 8-bit encodings. A UTF-8 file with a few bad bytes is
    read line by line, so only the lines holding them are read as Latin-1 (see
    :func:`non_utf8_lines`) instead of every accented name in the file. CR-only and CRLF
    line ends are normalised so line numbers mean what an editor shows.
    """
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            text = data.decode(enc, errors="replace")
            break
    else:
        enc = _utf16_without_bom(data)
        if enc:
            text = data.decode(enc, errors="replace")
        else:
            try:
                text, enc = data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                lines = data.split(b"\n")
                text = "\n".join(_decode_line(line) for line in lines)
                enc = "utf-8 with Latin-1 lines" if any(_is_utf8(line) and line.strip() for line in lines) and not all(
                    _is_utf8(line) for line in lines) else "latin-1"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, enc


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the NUL bytes say so (ASCII text in UTF-16 is half NULs)."""
    if len(data) < 4 or b"\x00" not in data[:200]:
        return None
    sample = data[:2000]
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd > len(sample) // 4 and even < odd // 8:
        return "utf-16-le"
    if even > len(sample) // 4 and odd < even // 8:
        return "utf-16-be"
    return None


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1")


def non_utf8_lines(data: bytes) -> list[int]:
    """1-based numbers of the lines that are not valid UTF-8 (empty for a clean file)."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _utf16_without_bom(data):
        return []
    try:
        data.decode("utf-8")
        return []
    except UnicodeDecodeError:
        pass
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return [i + 1 for i, line in enumerate(lines) if not _is_utf8(line)]


def encoding_problems(data: bytes, name: str) -> list["Problem"]:
    """Problems to report for a file that is not clean UTF-8."""
    bad = non_utf8_lines(data)
    if not bad:
        return []
    if len(bad) > 20:
        return [Problem(name, None, "not UTF-8; read as Latin-1 (re-save the file as UTF-8 to be sure)")]
    return [Problem(name, n, "this line is not UTF-8; read as Latin-1: check its accents, then re-save as UTF-8") for n in bad]


def read_bib_file(path: Path, name: str | None = None) -> BibParseResult:
    """Parse a .bib file in any common encoding; problems are reported, never raised."""
    data = Path(path).read_bytes()
    text, enc = decode_bytes(data)
    result = parse_bib_text(text, name or str(path))
    result.encoding = enc
    result.problems[:0] = encoding_problems(data, name or str(path))
    return result


def parse_bib_text(text: str, name: str) -> BibParseResult:
    """Parse BibTeX text into :class:`Entry` objects with values as written (macros expanded)."""
    result = BibParseResult()
    library = bibtexparser.parse_string(text)
    for block in library.blocks:
        line = (block.start_line + 1) if getattr(block, "start_line", None) is not None else None
        if isinstance(block, bpmodel.Entry):
            result.entries.append(_to_entry(block))
            result.raws.append(block.raw or "")
        elif isinstance(block, bpmodel.DuplicateBlockKeyBlock):
            if block.raw.strip():
                result.unparsed.append(block.raw.strip())
            result.problems.append(Problem(name, line, f"duplicate key '{block.key}': this later entry was skipped; rename it or merge it by hand"))
        elif isinstance(block, bpmodel.DuplicateFieldKeyBlock):
            entry = block.ignore_error_block
            key = entry.key if isinstance(entry, bpmodel.Entry) else "?"
            if isinstance(entry, bpmodel.Entry):
                result.entries.append(_to_entry(entry))
                result.raws.append(block.raw or "")
            dups = ", ".join(sorted(block.duplicate_keys))
            result.problems.append(Problem(name, line, f"entry '{key}' repeats a field ({dups}); the first value was kept"))
        elif isinstance(block, bpmodel.ParsingFailedBlock):
            if block.raw.strip():
                result.unparsed.append(block.raw.strip())
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
