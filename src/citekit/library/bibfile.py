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
    #: how many ``@string`` definitions the text had
    strings: int = 0


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Text and the encoding used; never fails, never garbles more than a bad line.

    Real .bib files come in UTF-8, UTF-8 or UTF-16 with a BOM, UTF-16 without one (NUL
    bytes give it away), files that name their encoding on a first line (JabRef writes
    ``% Encoding: windows-1252``), and legacy 8-bit encodings. A UTF-8 file with a few bad
    bytes is read line by line, so only the lines holding them are read as Windows-1252
    (see :func:`non_utf8_lines`) instead of every accented name in the file. Windows-1252
    rather than Latin-1, because 8-bit files from Windows tools use its curly quotes, dashes
    and euro sign, which Latin-1 would turn into invisible control characters. CR-only and
    CRLF line ends are normalised so line numbers mean what an editor shows.
    """
    text, enc = _decode_any(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, enc


def _decode_any(data: bytes) -> tuple[str, str]:
    """Decode by BOM, NUL pattern, declared encoding, UTF-8, then line-wise Windows-1252."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(enc, errors="replace"), enc
    enc = _utf16_without_bom(data)
    if enc:
        return data.decode(enc, errors="replace"), enc
    declared = declared_encoding(data)
    if declared and codecs.lookup(declared).name != "utf-8":
        if codecs.lookup(declared).name in ("cp1252", "iso8859-1"):
            return _decode_8bit(data), declared  # as browsers do: "Latin-1" files are Windows-1252 in practice
        return data.decode(declared, errors="replace"), declared
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    lines = data.split(b"\n")
    text = "\n".join(_decode_line(line) for line in lines)
    mixed = any(_is_utf8(line) and not line.isascii() for line in lines)
    return text, ("utf-8 with Windows-1252 lines" if mixed else "windows-1252")


_ENCODING_LINE = re.compile(rb"^[ \t]*%+[ \t]*(?:Encoding|coding)[ \t]*[:=][ \t]*([A-Za-z0-9_.:-]+)", re.I | re.M)


def declared_encoding(data: bytes) -> str | None:
    """The encoding a file names in its first lines (``% Encoding: windows-1252``), if Python knows it."""
    m = _ENCODING_LINE.search(data[:1000])
    if not m:
        return None
    name = m.group(1).decode("ascii")
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return name


#: Windows-1252 for the bytes 0x80-0x9F it defines; the five it leaves undefined stay as read
_CP1252_C1 = {0x80 + i: bytes([0x80 + i]).decode("cp1252", errors="ignore") or chr(0x80 + i) for i in range(32)}


def _decode_8bit(data: bytes) -> str:
    """Windows-1252, never failing (its five undefined bytes are kept as Latin-1)."""
    return data.decode("latin-1").translate(_CP1252_C1)


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
        return _decode_8bit(line)


def non_utf8_lines(data: bytes) -> list[int]:
    """1-based numbers of the lines that are not valid UTF-8 (empty for a clean file)."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _utf16_without_bom(data):
        return []
    declared = declared_encoding(data)
    if declared and codecs.lookup(declared).name != "utf-8":
        return []  # the file says what it is: nothing to guess
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
        return [Problem(name, None, "not UTF-8; read as Windows-1252 (re-save the file as UTF-8 to be sure)")]
    return [Problem(name, n, "this line is not UTF-8; read as Windows-1252: check its accents, then re-save as UTF-8")
            for n in bad]


def read_bib_file(path: Path, name: str | None = None) -> BibParseResult:
    """Parse a .bib file in any common encoding; problems are reported, never raised."""
    data = Path(path).read_bytes()
    text, enc = decode_bytes(data)
    result = parse_bib_text(text, name or str(path))
    result.encoding = enc
    result.problems[:0] = encoding_problems(data, name or str(path))
    if text.strip() and not result.entries:
        result.problems.append(Problem(name or str(path), None, _no_entries_message(Path(path).name, result, enc)))
    return result


def _no_entries_message(name: str, result: BibParseResult, enc: str) -> str:
    """Why a non-empty file gave nothing, and what to check."""
    if result.strings:
        return (f"no BibTeX entries found in {name}, only {result.strings} @string definitions; they apply only "
                "within their own file, so nothing was imported from it")
    return f"no BibTeX entries found in {name}: is it a .bib file? (encoding read as {enc}; if that is wrong, re-save it as UTF-8)"


def parse_bib_text(text: str, name: str) -> BibParseResult:
    """Parse BibTeX text into :class:`Entry` objects with values as BibTeX would read them.

    bibtexparser's own string middleware only replaces a value that is exactly one macro
    name; concatenations (``"Proc. " # emnlp``), macros defined through other macros and
    ``month = oct # "-" # nov`` would be written through literally. So the raw values are
    taken (no parse middleware) and evaluated here, with ``@string`` definitions applied in
    file order as BibTeX does (a later definition wins from where it stands).
    """
    result = BibParseResult()
    library = bibtexparser.parse_string(text, parse_stack=[])
    macros = Macros(final={})
    for block in library.blocks:
        if isinstance(block, bpmodel.String):
            macros.final[block.key.lower()] = block.value
        elif isinstance(block, bpmodel.DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, bpmodel.String):
            macros.final[block.key.lower()] = block.ignore_error_block.value
    for block in library.blocks:
        line = (block.start_line + 1) if getattr(block, "start_line", None) is not None else None
        if isinstance(block, bpmodel.String):
            macros.define(block.key, block.value)
            result.strings += 1
        elif isinstance(block, bpmodel.Entry):
            result.entries.append(_to_entry(block, macros))
            result.raws.append(block.raw or "")
        elif isinstance(block, bpmodel.DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, bpmodel.String):
            macros.define(block.key, block.ignore_error_block.value)
            result.problems.append(Problem(name, line, f"@string '{block.key}' defined twice; the later definition wins "
                                           "(delete one of them to silence this)"))
        elif isinstance(block, bpmodel.DuplicateBlockKeyBlock):
            if block.raw.strip():
                result.unparsed.append(block.raw.strip())
            result.problems.append(Problem(name, line, f"duplicate key '{block.key}': this later entry was skipped; rename it or merge it by hand"))
        elif isinstance(block, bpmodel.DuplicateFieldKeyBlock):
            entry = block.ignore_error_block
            key = entry.key if isinstance(entry, bpmodel.Entry) else "?"
            if isinstance(entry, bpmodel.Entry):
                result.entries.append(_to_entry(entry, macros))
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


_MONTH_NAMES = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
    "jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}


@dataclass
class Macros:
    """``@string`` macros: those defined so far (in file order) and the file's final ones.

    A name used before its definition falls back to the final table, which is more
    forgiving than BibTeX (it warns and reads an empty string) and loses nothing.
    """

    final: dict[str, str]
    current: dict[str, str] = field(default_factory=dict)

    def define(self, name: str, raw: str) -> None:
        self.current[name.lower()] = evaluate_value(raw, self)

    def lookup(self, name: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The text of a macro, or None when the file never defines it."""
        low = name.lower()
        if low in self.current:
            return self.current[low]
        if low in self.final and low not in seen:
            return evaluate_value(self.final[low], self, seen=seen | {low})
        if low in _MONTH_NAMES:
            return _MONTH_NAMES[low]
        return None


def split_concatenation(raw: str) -> list[str]:
    """The parts of a value joined by ``#`` at the top level (outside braces and quotes)."""
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(raw[start:i])
            start = i + 1
    parts.append(raw[start:])
    return [p.strip() for p in parts]


def evaluate_value(raw: str, macros: "Macros | None" = None, *, month: bool = False,
                   seen: frozenset[str] = frozenset()) -> str:
    """The text BibTeX makes of a raw field value: literals joined, macros expanded.

    A lone month macro in ``month`` stays the macro (``oct``), so the writer keeps it a
    macro and styles can localise it; anywhere else it becomes the month's name. An
    undefined macro is kept as its name rather than dropped.
    """
    raw = raw.strip()
    if _is_single_group(raw):
        return _clean_value(raw)
    parts = split_concatenation(raw)
    if month and len(parts) == 1 and parts[0].lower() in _MONTH_NAMES:
        return parts[0].lower()
    return re.sub(r"\s*\n\s*", " ", "".join(_evaluate_part(p, macros, seen) for p in parts))


def _is_single_group(raw: str) -> bool:
    """Whether the value is one braced or quoted literal (the common, fast case)."""
    if len(raw) >= 2 and raw[0] == "{" and raw[-1] == "}":
        return _balanced_inner(raw[1:-1])
    if len(raw) >= 2 and raw[0] == '"' and raw[-1] == '"':
        return len(split_concatenation(raw)) == 1
    return False


def _evaluate_part(part: str, macros: "Macros | None", seen: frozenset[str]) -> str:
    if len(part) >= 2 and ((part[0] == "{" and part[-1] == "}") or (part[0] == '"' and part[-1] == '"')):
        return part[1:-1]
    if part.isdigit() or macros is None:
        return part
    value = macros.lookup(part, seen)
    return part if value is None else value


def _to_entry(block: bpmodel.Entry, macros: "Macros | None" = None) -> Entry:
    fields: dict[str, str] = {}
    for f in block.fields:
        k = f.key.lower()
        if k not in fields:
            fields[k] = evaluate_value(str(f.value), macros, month=k == "month")
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


def split_ids(value: str) -> list[str]:
    """The old keys of a biblatex ``ids`` field (Better BibTeX writes ``\\_`` for ``_``)."""
    return [a.strip().replace("\\_", "_") for a in (value or "").split(",") if a.strip()]


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
