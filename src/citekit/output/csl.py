"""CSL-JSON export, for pandoc, Zotero and every citeproc-based tool.

Entry fields hold LaTeX (braces that protect case, ``{\\'a}``, ``\\&``); CSL wants plain
Unicode, and its processors apply their own case rules, so every value is de-LaTeXed
here. Names are split the way BibTeX splits them (bibtexparser's implementation of the
``von Last, Jr, First`` rules), so a name reads the same in both exports.
"""

from __future__ import annotations

import re
from typing import Any

from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names
from pylatexenc.latex2text import LatexNodes2Text

from ..model import Entry
from .bibtex import entry_fields, month_macro

#: BibTeX entry type -> CSL item type.
CSL_TYPES = {
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "article": "article-journal",
    "misc": "article",
    "unpublished": "manuscript",
    "book": "book",
    "incollection": "chapter",
    "inbook": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "techreport": "report",
    "report": "report",
    "online": "webpage",
}

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_L2T = LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


def plain_text(value: str) -> str:
    """LaTeX field value to plain Unicode (``{LiMuon}: \\'a`` -> ``LiMuon: á``)."""
    if not re.search(r"[\\{}$~%]", value):
        return value
    value = re.sub(r"(?<!\\)%", r"\\%", value)  # a bare % is text in a .bib value, not a comment
    try:
        text = _L2T.latex_to_text(value)
    except Exception:  # malformed LaTeX: a readable approximation beats no export
        text = value.replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()


def csl_name(name: str) -> dict[str, str]:
    """One BibTeX name as a CSL name object; a braced corporate name becomes ``literal``."""
    stripped = name.strip()
    if stripped.startswith("{") and stripped.endswith("}") and "," not in _depth0(stripped):
        return {"literal": plain_text(stripped)}
    parts = parse_single_name_into_parts(stripped, strict=False)
    out: dict[str, str] = {}
    if parts.last:
        out["family"] = plain_text(" ".join(parts.last))
    if parts.first:
        out["given"] = plain_text(" ".join(parts.first))
    if parts.von:
        out["non-dropping-particle"] = plain_text(" ".join(parts.von))
    if parts.jr:
        out["suffix"] = plain_text(" ".join(parts.jr))
    return out or {"literal": plain_text(stripped)}


def _depth0(value: str) -> str:
    depth, out = 0, []
    for i, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth <= 1 and 0 < i < len(value) - 1:
            out.append(ch)
    return "".join(out)


def csl_names(value: str) -> list[dict[str, str]]:
    return [csl_name(n) for n in split_multiple_persons_names(value)]


def _issued(fields: dict[str, str]) -> dict[str, Any] | None:
    year = fields.get("year", "").strip()
    if not year.isdigit():
        m = re.match(r"(\d{4})(?:-(\d{2}))?", fields.get("date", ""))
        if not m:
            return None
        parts = [int(m.group(1))] + ([int(m.group(2))] if m.group(2) else [])
        return {"date-parts": [parts]}
    parts = [int(year)]
    macro = month_macro(fields.get("month", "")) if fields.get("month") else None
    if macro:
        parts.append(_MONTHS.index(macro) + 1)
    return {"date-parts": [parts]}


def to_csl(entry: Entry) -> dict[str, Any]:
    """One entry as a CSL-JSON item."""
    fields = entry_fields(entry)
    item: dict[str, Any] = {"id": entry.key, "type": CSL_TYPES.get(entry.entry_type.lower(), "article")}
    if fields.get("title"):
        item["title"] = plain_text(fields["title"])
    for name in ("author", "editor"):
        if fields.get(name):
            item[name] = csl_names(fields[name])
    issued = _issued(fields)
    if issued:
        item["issued"] = issued
    container = fields.get("booktitle") or fields.get("journal") or fields.get("journaltitle")
    if container:
        item["container-title"] = plain_text(container)
    simple = {"volume": "volume", "number": "issue", "pages": "page", "publisher": "publisher"}
    for bib, csl in simple.items():
        if fields.get(bib):
            item[csl] = plain_text(fields[bib])
    if fields.get("doi"):
        item["DOI"] = fields["doi"].strip()
    if fields.get("url"):
        item["URL"] = fields["url"].strip()
    elif fields.get("eprint") and fields.get("archiveprefix", "").lower() == "arxiv":
        item["URL"] = f"https://arxiv.org/abs/{fields['eprint'].strip()}"
    if fields.get("eprint") and fields.get("archiveprefix", "").lower() == "arxiv":
        item["archive"] = "arXiv"
        item["archive_location"] = fields["eprint"].strip()
    if fields.get("keywords"):
        item["keyword"] = plain_text(fields["keywords"])
    if entry.abstract:
        item["abstract"] = entry.abstract
    return item


def to_csl_json(entries: list[Entry]) -> list[dict[str, Any]]:
    """CSL-JSON items for ``entries``, in the order given (``json.dump`` the result)."""
    return [to_csl(e) for e in entries]
