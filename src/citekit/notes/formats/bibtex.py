"""BibTeX entries pasted into notes (from dblp, Google Scholar, a paper's .bib).

Entries are found by their ``@type{`` line and read to their closing brace; bibtexparser
(v2) reads each one, and its fields become the mention's. The entry's lines are then
blanked in the text handed to the outline readers, so the same lines are not read twice
and every line number stays what the editor shows. An entry that never closes, or that
bibtexparser cannot read, is reported with its file:line and skipped; the rest of the
file is read as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from citekit.core.ids import normalize_arxiv, normalize_doi
from citekit.core.model import Ids, Location
from citekit.core.resolution import Mention
from citekit.core.venues import from_text, short_from_long
from citekit.notes.memo import per_text
from citekit.notes.result import Problem
from citekit.notes.textids import find_text_ids
from citekit.notes.urls import classify_url
from citekit.core.lazyre import lazy

_START_RE = lazy(r"^\s*@(?P<type>[A-Za-z]+)\s*[{(]\s*(?P<key>[^,\s]*)")
_FIELD_RE = lazy(r"^\s*[A-Za-z][\w-]*\s*=")
_ANY_START_RE = lazy(r"^\s*@[A-Za-z]+\s*[{(]", re.M)
_NOT_ENTRIES = {"comment", "string", "preamble"}
_PAPER_TYPES = {
    "article", "inproceedings", "conference", "incollection", "inbook", "book", "phdthesis", "mastersthesis",
    "techreport", "misc", "unpublished", "online", "report", "thesis", "proceedings",
}
#: An entry longer than this is not a pasted entry but a broken one: stop reading it.
MAX_ENTRY_LINES = 200


@dataclass
class PastedEntry:
    """One pasted entry: where it starts and the fields bibtexparser read."""

    line: int
    key: str
    entry_type: str
    fields: dict[str, str] = field(default_factory=dict)
    why_not: str | None = None
    broken: bool = False  # never closed, or bibtexparser could not read it

    def mention(self, file: str, scope_venue: tuple[str | None, int | None]) -> Mention | None:
        """The mention this entry gives, or None (``why_not`` says why)."""
        if self.broken:
            return None
        title = _plain(self.fields.get("title", ""))
        if not title:
            self.why_not = "a BibTeX entry without a title"
            return None
        if self.entry_type not in _PAPER_TYPES:
            self.why_not = f"a @{self.entry_type} entry, not a paper"
            return None
        authors_raw = _plain(self.fields.get("author", ""))
        authors = [a.strip() for a in re.split(r"\s+and\s+", authors_raw) if a.strip()]
        incomplete = any(a.lower() == "others" for a in authors)
        authors = [a for a in authors if a.lower() != "others"]
        ids = Ids()
        urls: list[str] = []
        doi = normalize_doi(self.fields.get("doi", "")) if self.fields.get("doi") else None
        if doi:
            ids.doi = doi
            urls.append(f"https://doi.org/{doi}")
        eprint = self.fields.get("eprint", "")
        arxiv = normalize_arxiv(eprint) if eprint else None
        if arxiv is None:
            for value in (self.fields.get("journal", ""), self.fields.get("note", ""), self.fields.get("url", "")):
                found = [t for t in find_text_ids(value) if t.scheme == "arxiv"] if value else []
                arxiv = found[0].value if found else (normalize_arxiv(value) if "arxiv.org" in value else None)
                if arxiv:
                    break
        if arxiv:
            ids.arxiv = arxiv
            urls.append(f"https://arxiv.org/abs/{arxiv}")
        url = self.fields.get("url", "")
        if url and classify_url(url) == "paper" and url not in urls:
            urls.insert(0, url)
        if not authors and not ids:
            self.why_not = "a BibTeX entry without authors or an identifier (documentation, a web page)"
            return None
        container = _plain(self.fields.get("booktitle") or self.fields.get("journal") or "")
        venue, year = from_text(container)
        venue = venue or short_from_long(container)
        year_text = self.fields.get("year", "")
        year = int(year_text) if year_text.strip().isdigit() else year
        scope_name, scope_year = scope_venue
        if venue is None and scope_name and (year is None or year == scope_year):
            venue, year = scope_name, year or scope_year  # under "# CVPR 2016", an entry of 2016 is a CVPR one
        elif venue is None and year is None:
            venue, year = scope_venue
        return Mention(
            kind="titled",
            location=Location(file, self.line),
            title=title,
            authors=authors,
            authors_incomplete=incomplete,
            urls=urls,
            venue=venue,
            year=year,
            ids=ids,
            citekey=self.key.strip() or None,
            published=self._published(container),
        )

    def _published(self, container: str) -> dict[str, str]:
        """Where the entry says the paper appeared, as written: its type (``type``), its
        ``booktitle`` or ``journal`` (``container``), volume, number and pages. An entry built
        from the notes keeps them: the user's pasted fields are never dropped or renamed."""
        out = {"type": self.entry_type.lower()}
        if container:
            out["container"] = container
        for name in ("volume", "number", "pages"):
            value = _plain(self.fields.get(name, ""))
            if value:
                out[name] = value
        return out


def _plain(value: str) -> str:
    """A field value without its protecting braces and LaTeX accents."""
    value = value.strip()
    if "\\" in value:
        from citekit.core.text import latex_to_text

        value = latex_to_text(value, matching=True)
    return re.sub(r"\s+", " ", value.replace("{", "").replace("}", "")).strip()


def _depth_change(line: str) -> int:
    line = re.sub(r"\\[{}]", "", line)
    return line.count("{") + line.count("(") * 0 - line.count("}")


def cut_bibtex_entries(text: str, file: str) -> tuple[str, list[PastedEntry]]:
    """``text`` with every pasted BibTeX entry blanked out, and the entries.

    Problems (an entry that never closes, one bibtexparser rejects) are attached to the
    returned entries' ``why_not`` and also raised as :class:`Problem` by :func:`problems_of`.
    """
    if "@" not in text or not _ANY_START_RE.search(text):
        return text, []
    # Walked by offsets, not as a list of every line: a big notes file is not copied line
    # by line, only the lines near an "@" are looked at.
    entries: list[PastedEntry] = []
    pieces: list[str] = []
    kept_from = 0  # offset of the first character not yet copied to ``pieces``
    counted_to, line_number = 0, 0  # offset up to which lines were counted, and their count
    at = text.find("@")
    while at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = _line_end(text, at)
        m = _START_RE.match(text[line_start:line_end])
        if not m or m.group("type").lower() in _NOT_ENTRIES:
            at = text.find("@", line_end + 1) if line_end < len(text) else -1
            continue
        line_number += text.count("\n", counted_to, line_start)
        counted_to = line_start
        window = _lines_from(text, line_start, MAX_ENTRY_LINES + 3)
        depth = 0
        closed = False
        j = 0
        while j < len(window) and j < MAX_ENTRY_LINES:
            line = window[j]
            if j > 0 and (line.strip().startswith("```") or _START_RE.match(line)):
                break
            if j > 0 and not line.strip():
                nxt = next((ln for ln in window[j + 1:j + 3] if ln.strip()), "")
                if not _FIELD_RE.match(nxt):
                    break
            depth += _depth_change(line)
            j += 1
            if depth <= 0 and j > 0:
                closed = depth == 0
                break
        entry = PastedEntry(line_number + 1, m.group("key").rstrip(","), m.group("type").lower())
        if not closed:
            entry.broken = True
            entry.why_not = (f"a pasted BibTeX entry (@{entry.entry_type}{{{entry.key}) that never closes; "
                             "it was skipped: add the missing '}' or remove it")
        else:
            _read_fields(entry, "\n".join(window[:j]))
        entries.append(entry)
        # the entry's lines stay, emptied, so every later line keeps its number
        entry_end = line_start + sum(len(line) for line in window[:j]) + j - 1
        pieces.append(text[kept_from:line_start])
        pieces.append("\n" * (j - 1))
        kept_from = entry_end
        at = text.find("@", entry_end + 1) if entry_end < len(text) else -1
    if not entries:
        return text, []
    pieces.append(text[kept_from:])
    return "".join(pieces), entries


def _line_end(text: str, pos: int) -> int:
    """Offset of the newline ending the line at ``pos`` (the text's length on the last line)."""
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _lines_from(text: str, start: int, count: int) -> list[str]:
    """Up to ``count`` whole lines of ``text`` from offset ``start`` (all that is left,
    with the empty string after a final newline, when fewer remain). The lines are found
    by one pattern match, not a Python loop over each line of the window."""
    end = _whole_lines_re(count).match(text, start).end()  # type: ignore[union-attr]
    if end < len(text) and text.count("\n", start, end) == count:
        return text[start:end - 1].split("\n")
    return text[start:].split("\n")


@lru_cache(maxsize=4)
def _whole_lines_re(count: int) -> re.Pattern[str]:
    return re.compile(r"(?:[^\n]*\n){0,%d}" % count)


def _read_fields(entry: PastedEntry, block: str) -> None:
    why_not, read = _parsed_entry(block)
    if read is None:
        entry.why_not = why_not
        entry.broken = True
        return
    entry.entry_type, entry.key, fields = read
    entry.fields = dict(fields)


@per_text
def _parsed_entry(block: str) -> tuple[str | None, tuple[str, str, tuple[tuple[str, str], ...]] | None]:
    """What bibtexparser reads in one entry's text: (None, (type, key, fields)), or why it
    could not. Remembered per text: bibtexparser takes about a millisecond an entry, and
    the same entry is often pasted into several notes."""
    import bibtexparser

    try:
        library = bibtexparser.parse_string(block)
    except Exception as exc:  # bibtexparser raises a variety of errors on broken input
        return f"a pasted BibTeX entry bibtexparser could not read ({type(exc).__name__}); it was skipped", None
    if not library.entries:
        return "a pasted BibTeX entry bibtexparser could not read; check its braces and commas", None
    parsed = library.entries[0]
    return None, (parsed.entry_type.lower(), parsed.key, tuple((f.key.lower(), str(f.value)) for f in parsed.fields))


def problems_of(entries: list[PastedEntry], file: str) -> list[Problem]:
    """The entries that could not be read, as problems with their file:line."""
    return [Problem(file, e.line, e.why_not or "unreadable BibTeX entry") for e in entries if e.broken]
