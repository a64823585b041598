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

from citekit.core.model import Entry
from citekit.core.names import is_et_al
from citekit.core.text import latex_to_text
from citekit.bibtex.writer import entry_fields, month_macro

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


def csl_title(value: str) -> str:
    """A title for CSL-JSON: plain text, case protection kept as CSL's own markup.

    CSL processors change the case of titles (title or sentence case, by style), as BibTeX
    styles do; BibTeX's protecting braces (``{OLion}``) and math become
    ``<span class="nocase">`` so "OLion" and "ℓ_∞" survive. ``&`` and ``<`` stay as they
    are: pandoc's citeproc does not decode HTML entities (``&amp;`` would print), and a
    tag it recognises only changes formatting, never injects markup into its output.
    """
    out = []
    for piece, protected in _protected_pieces(value):
        text = latex_to_text(piece, as_written=True, keep_edges=True)
        if protected and text.strip():
            out.append(f'{text[:len(text) - len(text.lstrip())]}<span class="nocase">{text.strip()}</span>'
                       f'{text[len(text.rstrip()):]}')
        else:
            out.append(text)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _protected_pieces(value: str) -> list[tuple[str, bool]]:
    """``value`` cut into (LaTeX, case-protected) pieces: top-level ``{...}`` groups and math.

    A group that starts with a command (``{\\'a}``) is a special character, not protection.
    """
    pieces: list[tuple[str, bool]] = []
    i, start, n = 0, 0, len(value)
    while i < n:
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        end = _group_end(value, i) if ch == "{" else _math_end(value, i) if ch == "$" else -1
        if end < 0:
            i += 1
            continue
        if ch == "{" and value[i + 1:i + 2] == "\\" and value[i + 1:i + 2 + 1] != "\\$":
            i = end
            continue
        pieces.append((value[start:i], False))
        inner = value[i + 1:end - 1] if ch == "{" else value[i:end]
        pieces.append((inner, True))
        start = i = end
    pieces.append((value[start:], False))
    return [p for p in pieces if p[0]]


def _group_end(value: str, i: int) -> int:
    """Index after the ``}`` closing the group opened at ``i``, or -1 when unbalanced."""
    depth = 0
    j = i
    while j < len(value):
        if value[j] == "\\":
            j += 2
            continue
        depth += {"{": 1, "}": -1}.get(value[j], 0)
        j += 1
        if depth == 0:
            return j
    return -1


def _math_end(value: str, i: int) -> int:
    """Index after the ``$`` closing the math opened at ``i``, or -1 when there is none."""
    m = re.compile(r"\$(?:[^$\\]|\\.)+\$").match(value, i)
    return m.end() if m else -1


def csl_name(name: str) -> dict[str, str]:
    """One BibTeX name as a CSL name object; a braced corporate name becomes ``literal``."""
    stripped = name.strip()
    if stripped.startswith("{") and stripped.endswith("}") and "," not in _depth0(stripped):
        return {"literal": latex_to_text(stripped, as_written=True)}
    parts = parse_single_name_into_parts(stripped, strict=False)
    out: dict[str, str] = {}
    if parts.last:
        out["family"] = latex_to_text(" ".join(parts.last), as_written=True)
    if parts.first:
        out["given"] = latex_to_text(" ".join(parts.first), as_written=True)
    if parts.von:
        out["non-dropping-particle"] = latex_to_text(" ".join(parts.von), as_written=True)
    if parts.jr:
        out["suffix"] = latex_to_text(" ".join(parts.jr), as_written=True)
    return out or {"literal": latex_to_text(stripped, as_written=True)}


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


#: the last CSL name of a list BibTeX cut with `` and others``: not an author but the mark
#: that the list is incomplete. citeproc (pandoc's processor) renders a final name whose
#: ``literal`` is ``others`` as the style's "et al." term (its ``finalNameIsOthers``), as
#: pandoc's own BibTeX reader writes it; ``{"family": "others"}`` would print "others" as
#: a person, and leaving it out would print an incomplete list as if it were whole.
ET_AL = {"literal": "others"}


def csl_names(value: str) -> list[dict[str, str]]:
    """BibTeX names as CSL names; `` and others`` ends the list as :data:`ET_AL`."""
    names = split_multiple_persons_names(value)
    out = [csl_name(n) for n in names if n.strip() and not is_et_al(n)]
    if names and any(is_et_al(n) for n in names) and out:
        out.append(dict(ET_AL))
    return out


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
        item["title"] = csl_title(fields["title"])
    for name in ("author", "editor"):
        if fields.get(name):
            item[name] = csl_names(fields[name])
    issued = _issued(fields)
    if issued:
        item["issued"] = issued
    container = fields.get("booktitle") or fields.get("journal") or fields.get("journaltitle")
    if container:
        item["container-title"] = latex_to_text(container, as_written=True)
    simple = {"volume": "volume", "number": "issue", "pages": "page", "publisher": "publisher"}
    for bib, csl in simple.items():
        if fields.get(bib):
            item[csl] = latex_to_text(fields[bib], as_written=True)
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
        item["keyword"] = latex_to_text(fields["keywords"], as_written=True)
    if entry.abstract:
        item["abstract"] = entry.abstract
    return item


def to_csl_json(entries: list[Entry]) -> list[dict[str, Any]]:
    """CSL-JSON items for ``entries``, in the order given (``json.dump`` the result)."""
    return [to_csl(e) for e in entries]
