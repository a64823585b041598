"""A Zotero report ("Generate Report from Items…") copied as text, read as an outline.

The report lists each item as its title on a line of its own, then one ``Field<TAB>Value``
row per field (``Item Type``, ``Author`` once per author, ``Date``, ``DOI``, ``URL`` …),
then ``Tags:``, ``Related:``, ``Notes:`` and ``Attachments`` sections. That layout is
exact (Zotero writes it), so it is read by rule: each item becomes a bullet with the
labelled details citekit reads (``Authors:``, ``Type:``, ``Year:``, ``doi:``, ``URL:``),
the item's notes stay remarks under it, and nothing else of the item is taken for a paper.
Every line keeps its number, so ``--explain`` and problems point at the report's lines.

A row may have been copied with a tab, or with runs of spaces or ``: `` where a browser
lost the tab.
"""

from __future__ import annotations

import re
from citekit.core.lazyre import lazy
from citekit.notes.quotations import without_own_highlights

#: The field labels Zotero shows in a report (its item fields and creator types).
_FIELDS = frozenset("""
Item Type|Author|Editor|Contributor|Series Editor|Translator|Reviewed Author|Programmer|Presenter|Director|
Producer|Cast Member|Guest|Host|Interviewer|Interviewee|Podcaster|Performer|Composer|Words By|Sponsor|Inventor|
Attorney/Agent|Recipient|Commenter|Cartographer|Artist|Counsel|Book Author|Title|Abstract|Publication|
Proceedings Title|Conference Name|Book Title|Blog Title|Website Title|Forum Title|Encyclopedia Title|
Dictionary Title|Program Title|Series|Series Title|Series Text|Volume|Issue|Pages|Number of Pages|Edition|
Place|Publisher|Date|Year|Language|DOI|ISSN|ISBN|Short Title|URL|Accessed|Archive|Loc. in Archive|Archive ID|
Library Catalog|Call Number|Rights|Extra|Date Added|Modified|Journal Abbr|Repository|Institution|University|
Thesis Type|Report Type|Report Number|Number|Section|Meeting Name|Running Time|Type|Website Type|Genre|
Medium|Format|System|Version|Company|Programming Language|Citation Key|Number of Volumes|Post Type|
Presentation Type|Audio Recording Format|Video Recording Format|Studio|Label|Network|Episode Number|Distributor
""".replace("\n", "").split("|"))
_ROW_RE = lazy(r"^(?P<field>[A-Z][A-Za-z./ ]{1,28}?)(?:\t+|\s{2,}|:\s+)(?P<value>\S.*)$")
_SECTIONS = ("Tags:", "Related:", "Notes:", "Attachments")
#: creator rows read as the item's authors
_AUTHOR_FIELDS = frozenset({"Author", "Contributor", "Book Author"})
_YEAR_RE = lazy(r"(?<!\d)(?:1[5-9]|20)\d{2}(?!\d)")
_ARXIV_ID_RE = lazy(r"arxiv\s*:\s*(\S+)", re.I)


def _row(line: str) -> tuple[str, str] | None:
    m = _ROW_RE.match(line.strip())
    if m is None:
        return None
    field = " ".join(m.group("field").split())
    return (field, m.group("value").strip()) if field in _FIELDS else None


def looks_like_report(text: str) -> bool:
    """Two items or more, each a title line followed by an ``Item Type`` row."""
    if "Item Type" not in text:
        return False
    lines = text.split("\n")
    items = sum(1 for i, line in enumerate(lines[1:], start=1)
                if line.lstrip().startswith("Item Type") and (row := _row(line)) and row[0] == "Item Type" and lines[i - 1].strip())
    return items >= 2


def rewrite_report(text: str) -> str:
    """The report as an outline with one bullet per item (same number of lines)."""
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        if _item_starts(lines, i):
            i = _item(lines, out, i)
        else:
            i += 1
    return "\n".join(out)


def _item(lines: list[str], out: list[str], title_at: int) -> int:
    """Rewrite the item whose title is at ``title_at``; the index after it."""
    out[title_at] = "- " + lines[title_at].strip()
    authors: list[str] = []
    first_author: int | None = None
    section = ""
    i = title_at + 1
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            if not _goes_on(lines, i, section):
                break  # (a blank line ends the item)
            i += 1
            continue
        if section and _item_starts(lines, i):
            break
        if _is_section(stripped):
            section = stripped.rstrip(":")
            out[i] = ""
            i += 1
            continue
        row = _row(line) if not section else None
        if section == "Notes":
            # a note on the item: a remark under it (never a section of its own), without the
            # highlights it quotes from the item, which cite the item itself
            out[i] = "  " + without_own_highlights(stripped)
        elif section == "Tags":
            out[i] = "  - Tags: " + _tag(stripped)
        elif section:
            out[i] = ""  # related items' titles and attachments name nothing new
        elif row is None:
            out[i] = "  - " + stripped  # (a value wrapped onto a line of its own: a remark)
        else:
            field, value = row
            if field in _AUTHOR_FIELDS:
                authors.append(value)
                if first_author is None:
                    first_author = i
                out[i] = ""
            else:
                out[i] = _detail(field, value)
        i += 1
    if first_author is not None:
        out[first_author] = "  - Authors: " + "; ".join(authors)
    return i


def _is_section(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped in _SECTIONS or stripped.rstrip(":") + ":" in _SECTIONS)


def _item_starts(lines: list[str], i: int) -> bool:
    """An item's title is at ``i``: a line that is no field row, an ``Item Type`` row after it."""
    nxt = _row(lines[i + 1]) if i + 1 < len(lines) else None
    return bool(lines[i].strip()) and _row(lines[i]) is None and nxt is not None and nxt[0] == "Item Type"


def _goes_on(lines: list[str], blank: int, section: str) -> bool:
    """The item goes on past the blank line at ``blank``: Zotero puts a blank line before
    each of an item's sections (``Tags:``, ``Notes:``, ``Attachments``, ``Related``) and
    between the notes of one item, so the item ends only at the next item's title (or at
    text that is none of its sections)."""
    j = blank
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines) or _item_starts(lines, j):
        return False
    return _is_section(lines[j]) or section == "Notes"


def _tag(tag: str) -> str:
    """One Zotero tag (it may hold spaces: ``Computer Science - Machine Learning``) as one word."""
    return re.sub(r"[\s,#]+", "-", re.sub(r"\s+-\s+", "-", tag.strip())).strip("-").lower()


def _detail(field: str, value: str) -> str:
    """One field row as a detail line citekit reads, or as a remark it keeps out of the way."""
    if field == "Item Type":
        return "  - Type: " + value.lower()
    if field == "Date":
        year = _YEAR_RE.search(value)
        return "  - Year: " + year.group() if year else ""
    if field == "DOI":
        return "  - DOI: " + value
    if field == "URL":
        return "  - URL: " + value
    if field == "Archive ID":
        m = _ARXIV_ID_RE.match(value)
        return "  - arXiv: " + m.group(1) if m else ""
    if field in ("Proceedings Title", "Conference Name", "Publication"):
        return "  - Venue: " + value
    if field == "Abstract":
        return "  - Abstract: " + value
    return ""
