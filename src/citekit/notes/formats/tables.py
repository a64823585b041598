"""Tables of papers, whatever wrote them: a Markdown table (:mod:`.markdown`) or a
spreadsheet pasted as tab-separated text (:mod:`.plain`). Both come here as a header and
rows of cell texts; a row under a column the header names as the title (in any of the
languages below) becomes one outline item, its other cells the item's labelled details
(``Authors:``, ``Venue:``, ``URL:``), as if the user had written them out below the title.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citekit.core.venues import from_text
from citekit.notes.finder.model import LineLabel
from citekit.notes.labels import author_list_incomplete, split_authors
from citekit.notes.outline import Node
from citekit.notes.refline import is_author_name
from citekit.notes.shapes import non_paper_words
from citekit.notes.textids import find_text_ids, without_text_ids
from citekit.notes.urls import NOT_PAPER_KINDS, classify_url
from citekit.core.lazyre import lazy

#: Column names, in English, Japanese, Chinese and Korean (``Paper / Who / Where`` tables too)
_TITLE_COLUMNS = {"title", "paper", "papers", "paper title", "name of paper", "タイトル", "論文", "論文名", "題目", "表題",
                  "论文", "题目", "标题", "標題", "제목", "논문"}
#: a first column that names what each row is, papers or not (Notion's databases call their title
#: property "Name"): its rows are papers where the finder reads them as papers
_NAME_COLUMNS = {"name", "what", "item", "work", "reading", "article", "publication", "reference", "entry", "名前", "名称", "이름"}
#: a first column of things put forward to read (a reading group's vote): its rows are
#: papers where the finder reads them as papers, whatever the other columns are (who
#: proposed it, its votes)
_CANDIDATE_COLUMNS = {"candidate", "candidates", "suggestion", "suggestions", "proposal", "proposals", "nominee", "nominees"}
_AUTHOR_COLUMNS = {"authors", "author", "by", "who", "written by", "著者", "著者名", "作者", "저자"}
_LINK_COLUMNS = {"link", "links", "url", "pdf", "paper link", "arxiv", "doi", "openreview", "リンク", "論文リンク",
                 "链接", "鏈接", "링크"}
_VENUE_COLUMNS = {"venue", "conference", "where", "published in", "会議", "学会", "booktitle", "journal", "会议", "會議",
                  "期刊", "학회", "저널"}
_YEAR_COLUMNS = {"year", "when", "年", "発表年", "年份", "연도"}
_PIN_COLUMNS = {"arxiv": "arxiv", "doi": "doi", "openreview": "openreview"}


_KNOWN_COLUMNS = (_TITLE_COLUMNS | _NAME_COLUMNS | _CANDIDATE_COLUMNS | _AUTHOR_COLUMNS | _LINK_COLUMNS | _VENUE_COLUMNS
                  | _YEAR_COLUMNS | set(_PIN_COLUMNS))
_NAME_PARTS_RE = lazy(r"\s+/\s+|\s*[｜|]\s*")


def _column_name(cell: str) -> str:
    """A header cell's column name, lower-cased; a cell naming its column in two languages
    (``论文 / 제목``, ``Paper / 論文``) is the first of its names citekit knows."""
    name = cell.strip().strip("*_").strip().lower()
    if name in _KNOWN_COLUMNS or "/" not in name:
        return name
    return next((part for part in _NAME_PARTS_RE.split(name) if part in _KNOWN_COLUMNS), name)


def table_nodes(header_cells: list[str], rows: list[tuple[int, list[str]]], line: int,
                skipped: list[tuple[int, str]]) -> list[Node]:
    """The outline items of a table: ``header_cells`` as written, ``rows`` the (line, cell
    texts) of each row after the header, ``line`` the table's first line. A table with no
    column of titles (nor a first column naming things beside who wrote them, where or when)
    is left out, and said so on ``skipped``."""
    if not rows:
        return []
    header = [_column_name(cell) for cell in header_cells]
    title_col = next((i for i, h in enumerate(header) if h in _TITLE_COLUMNS), None)
    soft = title_col is None
    if soft:  # a first column that names things (Notion's "Name"), beside who wrote them or where or when:
        # a row is a paper where the finder reads one (a table of people or tools names no authors or venue)
        paper_columns = _AUTHOR_COLUMNS | _VENUE_COLUMNS | _YEAR_COLUMNS | _LINK_COLUMNS
        title_col = 0 if (header[0] in _NAME_COLUMNS and any(h in paper_columns for h in header[1:])
                          or header[0] in _CANDIDATE_COLUMNS) else None
    if title_col is None:
        skipped.append((line, "a table without a title/paper column"))
        return []
    out = []
    texts = [[cell.strip() for cell in header_cells]] + [cells for _, cells in rows]
    header = [h if h not in _PEOPLE_COLUMNS or _lists_authors([cells[i] for cells in texts[1:] if i < len(cells)]) else ""
              for i, h in enumerate(header)]
    venue_cols = [i for i, h in enumerate(header) if h in _VENUE_COLUMNS]
    names_paper = [_row_names_a_paper(cells) for cells in texts[1:]]
    undecided = any(not named and not any(i < len(cells) and from_text(cells[i])[1] for i in venue_cols)
                    for cells, named in zip(texts[1:], names_paper))  # (a row that links a paper, or names a venue and year, stays a paper)
    said, found = _rows_said(texts, ask=soft or undecided)
    for (row_line, cells), named, row_said, row_found in zip(rows, names_paper, said, found):
        if title_col >= len(cells) or not cells[title_col]:
            continue
        if _TO_FILL_RE.match(cells[title_col]):
            skipped.append((row_line, "a title cell still to fill in (TBD, ???)"))
            continue
        if _ASIDE_CELL_RE.match(cells[title_col]):
            skipped.append((row_line, "a title cell that opens on a dash (an aside in the list, no title)"))
            continue
        if (soft and (row_found is None or row_found.label != "ref") and not named
                and not _names_its_authors(header, cells)):
            skipped.append((row_line, f"a row of a table with a {header[0]!r} column the finder does not read as a paper"))
            continue
        out.append(_row_node(header, title_col, row_line, cells, named, row_said))
    return out


#: a title cell still to fill in: ``TBD — see vote``, ``TBA``, ``??? (pick one)``
_TO_FILL_RE = lazy(r"\s*(?:(?:tbd|tba|tbc)\b|\?{2,})", re.I)

#: a title cell that opens on a spaced dash: an aside set off in the list (``— no session —``,
#: ``– holiday``), never a title, which opens on a word
_ASIDE_CELL_RE = lazy(r"\s*(?:[—–]|--?)\s")

#: columns that may name the paper's authors or the person who presents it (a reading
#: group's schedule): their cells decide (:func:`_lists_authors`)
_PEOPLE_COLUMNS = frozenset({"who"})


#: a cell naming one person by one word, as a schedule names its presenter (``Priya``,
#: ``mk``, ``Sam (guest from systems)``, ``Priya / Tomás`` or ``Priya + Tomás`` taking turns)
_ONE_WORD_PERSON_RE = lazy(r"[^\W\d_][\w.'’\-]*(?:\s*[(（][^()（）]*[)）])?(?:\s*[/+]\s*[^\W\d_][\w.'’\-]*)*")
#: the share of a column's cells that name one person by one word that makes it a schedule's presenters
_PRESENTERS_SHARE = 0.75


def _lists_authors(cells: list[str]) -> bool:
    """The cells of a "who" column name the authors, not a schedule's presenters. Presenters
    are one person a cell (or two taking turns), called by one word
    (:data:`_ONE_WORD_PERSON_RE`), in most of the cells (a guest may be written out:
    ``guest: Dr. Okafor``), and no cell lists several people written out or ends in ``et al.``
    as an author list does (``Kingma, Ba``, ``Chen 等``); a cell still to fill
    (``??? need volunteer``) says nothing."""
    filled = [cell.strip() for cell in cells if any(c.isalnum() for c in cell) and "?" not in cell]
    if not filled:
        return True
    one_word = [bool(_ONE_WORD_PERSON_RE.fullmatch(cell)) for cell in filled]
    if any(author_list_incomplete(cell) or len(split_authors(cell)) > 1 and not short
           for cell, short in zip(filled, one_word)):
        return True
    return sum(one_word) < _PRESENTERS_SHARE * len(filled)


def _names_its_authors(header: list[str], cells: list[str]) -> bool:
    """The row's authors cell names people, each by a whole name (``Ofir Press, Noah A.
    Smith``, ``Nelson F. Liu et al.``): in a table whose first column names things, a row
    whose authors are people is a paper however its name is written (the finder reads
    ``mamba: linear-time …`` in lower case as no title)."""
    for name, value in zip(header, cells):
        if name in _AUTHOR_COLUMNS and value.strip():
            people = split_authors(value)
            return bool(people) and all(is_author_name(person) and not person.rstrip().endswith(".") for person in people)
    return False


def _row_node(header: list[str], title_col: int, line: int, cells: list[str], named: bool, row_said: str | None) -> Node:
    """One row of a table as an outline item: its title cell, the other cells as labelled details."""
    row = Node("bullet", line, cells[title_col], source="table row")
    venue = year = ""
    for i, (name, value) in enumerate(zip(header, cells)):
        if i == title_col or not value or not any(c.isalnum() for c in value):
            continue  # (``?``, ``—``, ``???``: a cell left to fill in says nothing)
        if name in _AUTHOR_COLUMNS:
            row.children.append(Node("plain", line, f"Authors: {value}"))
        elif name in _PIN_COLUMNS and not value.lower().startswith(("http", "[")):
            row.children.append(Node("plain", line, f"{_PIN_COLUMNS[name]}: {value}"))
        elif name in _LINK_COLUMNS:
            row.children.append(Node("plain", line, f"URL: {value}"))
        elif name in _VENUE_COLUMNS:
            venue = _without_ids(value)  # (``arXiv 2001.08361`` names no venue, nor the year 2001)
        elif name in _YEAR_COLUMNS:
            year = value
        if name not in _PIN_COLUMNS and name not in _LINK_COLUMNS:
            row.children.extend(Node("plain", line, said) for said in _paper_ids(value))
    kind = _row_kind(cells[title_col], venue)
    if kind in _EVENT_KINDS and not non_paper_words(cells[title_col]) and (named or any(
            name in _AUTHOR_COLUMNS and value.strip() for name, value in zip(header, cells))):
        # | ViT | Dosovitskiy et al. | panel, Hall C |: the event the paper is shown at, where
        # the row gives the paper's authors or its identifier; the title names no event itself
        kind = None
    if kind is None and row_said is not None and not named and from_text(venue)[1] is None:
        kind = row_said  # (a row whose venue cell names a venue and its year stays a paper)
    if kind is not None:  # | MS MARCO leaderboard | — | microsoft.github.io | : not a paper
        row.children.append(Node("plain", line, f"Type: {kind}"))
    elif venue or year:
        row.children.append(Node("plain", line, f"Venue: {venue} {year}".strip()))
    return row


#: what a "where" cell names when it says at which event a paper is shown (a poster at a
#: panel, a tutorial's reading), not what the row is
_EVENT_KINDS = frozenset({"panel", "tutorial", "talk", "keynote", "seminar", "meeting", "meetup"})

_PAGE_RE = lazy(r"(?:https?://)?(?:[\w-]+\.)+[a-z]{2,}(?:/\S*)?", re.I)

#: How sure the finder must be that a table row is no paper before the row is taken for
#: one that is not (when no rule of :func:`_row_kind` says so and the row links no paper)
ROW_NOT_PAPER = 0.97
_ROW_ID_RE = lazy(r"(?<![\d.])\d{4}\.\d{4,5}(?!\d)|\b10\.\d{4,9}/|\bdoi\b|\barxiv\b", re.I)


def _rows_said(rows: list[list[str]], *, ask: bool = True) -> tuple[list[str | None], list[LineLabel | None]]:
    """For each row after the header: ``"no paper (as the finder reads the row)"`` where the
    learned finder, reading the table as its lines are written, is sure the row is not a
    paper (a package, a blog post, a talk, a data set, with who made it and where it lives),
    else None; and the finder's label of each row. What marks such rows is learned from the
    generated tables, not listed here. ``ask=False`` (every row links a paper): not asked."""
    if not ask:
        return [None] * (len(rows) - 1), [None] * (len(rows) - 1)
    from citekit.notes import finder

    lines = ["| " + " | ".join(cells) + " |" for cells in rows]
    lines.insert(1, "| " + " | ".join("---" for _ in rows[0]) + " |")
    found = finder.find(lines)[2:]
    return (["no paper (as the finder reads the row)" if f.label == "other" and f.confidence >= ROW_NOT_PAPER else None
             for f in found], found)


def _without_ids(cell: str) -> str:
    """A cell's text without the identifiers written in it."""
    found = find_text_ids(cell)
    return without_text_ids(cell, found) if found else cell


def _paper_ids(cell: str) -> list[str]:
    """The identifiers and paper links a cell that is no identifier or link column writes
    beside other words (``ICLR 2015, arXiv:1409.0473``, ``NeurIPS 2020 · [2005.14165](…)``),
    as the labelled details the row's paper takes: the row's own, as a link column's would be."""
    out = [f"{found.scheme}: {found.value}" for found in find_text_ids(cell)]
    for page in _PAGE_RE.findall(cell):
        url = page if "://" in page else "https://" + page
        if "/" in page.split("://")[-1]:
            try:
                if classify_url(url) == "paper":
                    out.append(f"URL: {url.rstrip(').,;')}")
            except ValueError:
                continue
    return out


def _row_names_a_paper(cells: list[str]) -> bool:
    """A cell of the row holds a paper identifier or a link to a paper page: the row is a
    paper whatever the rest of it looks like."""
    for cell in cells:
        if _ROW_ID_RE.search(cell):
            return True
        for page in _PAGE_RE.findall(cell):
            if "/" in page.split("://")[-1]:
                try:
                    if classify_url(page if "://" in page else "https://" + page) == "paper":
                        return True
                except ValueError:
                    continue
    return False


def _row_kind(title: str, where: str) -> str | None:
    """What a table row names when it is not a paper: a non-paper word in its title or its
    "where" cell (``blog``, ``lecture``, ``leaderboard``), or a "where" that is a code, blog,
    video or project page rather than a venue, or only a web site's address (a host with no
    page on it: where software or a service lives; a paper's venue is named, its page has a path)."""
    word = non_paper_words(title) or non_paper_words(where)
    if word:
        return word
    page = _PAGE_RE.search(where)
    if page is not None and "." in page.group() and " " not in page.group():
        url = page.group() if "://" in page.group() else "https://" + page.group()
        try:
            kind = classify_url(url)
        except ValueError:
            return None
        if kind in NOT_PAPER_KINDS:
            return kind  # (a project page may be a paper's own)
        if kind == "other" and page.group() == where.strip() and "/" not in page.group().split("://")[-1].rstrip("/"):
            return "web site"  # | LangChain | Harrison Chase | python.langchain.com |: a site's home, no venue
    return None


#: A quoted cell of a pasted spreadsheet may hold line breaks; one running longer than this
#: is a stray quote mark, not a cell (the lines are read as they are written instead).
MAX_CELL_LINES = 12


def pasted_tables(lines: list[str]) -> Iterator[tuple[int, int, list[Node], list[tuple[int, str]]]]:
    """Spreadsheet tables pasted as tab-separated text (what a copy from Google Sheets or
    Excel gives): ``(first index, index after the last, outline items, skipped)`` of each.
    A table starts at a line whose cells, split at tabs, name the columns as a Markdown
    table's header would (a title column, or a first column naming things beside who wrote
    them, where or when) and runs while its rows hold tabs; a cell in double quotes may run
    over several lines. A row with only its first cell filled heads the rows below it (the
    section rows a sheet is cut into). The header decides, not the content: a sheet of numbers
    or of anything else names no title column and is read as plain lines."""
    i = 0
    while i < len(lines):
        if "\t" not in lines[i] or not _names_columns(lines[i].split("\t")):
            i += 1
            continue
        start, header = i, lines[i].split("\t")
        rows: list[tuple[int, list[str]]] = []
        i += 1
        while i < len(lines) and ("\t" in lines[i] or lines[i].startswith('"')):
            record = _record(lines, i)
            if record is None:
                break
            cells, used = record
            rows.append((i + 1, cells))
            i += used
        skipped: list[tuple[int, str]] = []
        yield start, i, _sheet_nodes(header, rows, start + 1, skipped), skipped


def starts_pasted_table(line: str) -> bool:
    """The line is the header row of a spreadsheet table pasted as tab-separated text (see
    :func:`pasted_tables`): a file that holds one is read whole."""
    return "\t" in line and _names_columns(line.split("\t"))


def _names_columns(cells: list[str]) -> bool:
    """The cells of a line name a table's columns: a title column, or a first column that
    names things beside a column of authors, venues, years or links."""
    header = [_column_name(cell) for cell in cells]
    if len([h for h in header if h]) < 2:
        return False
    if any(h in _TITLE_COLUMNS for h in header):
        return True
    paper_columns = _AUTHOR_COLUMNS | _VENUE_COLUMNS | _YEAR_COLUMNS | _LINK_COLUMNS
    return header[0] in _NAME_COLUMNS and any(h in paper_columns for h in header[1:])


def _record(lines: list[str], i: int) -> tuple[list[str], int] | None:
    """The cells of the spreadsheet row starting at ``lines[i]`` and how many lines it takes:
    cells split at tabs; a cell that starts with a double quote runs to its closing quote
    (``""`` inside is one quote mark), over line breaks. None when a quote never closes
    within :data:`MAX_CELL_LINES` lines."""
    cells: list[str] = []
    j, text, pos = i, lines[i], 0
    while True:
        if text.startswith('"', pos):  # a quoted cell: to the quote not doubled
            parts: list[str] = []
            pos += 1
            while True:
                end = text.find('"', pos)
                if end < 0:
                    parts.append(text[pos:] + "\n")
                    j += 1
                    if j >= len(lines) or j - i >= MAX_CELL_LINES:
                        return None
                    text, pos = lines[j], 0
                    continue
                if text.startswith('""', end):
                    parts.append(text[pos:end + 1])
                    pos = end + 2
                    continue
                parts.append(text[pos:end])
                pos = end + 1
                break
            tab = text.find("\t", pos)
            rest = text[pos:] if tab < 0 else text[pos:tab]
            cells.append(("".join(parts) + rest).replace("\n", " ").strip())
        else:
            tab = text.find("\t", pos)
            cells.append((text[pos:] if tab < 0 else text[pos:tab]).strip())
        if tab < 0:
            return cells, j - i + 1
        pos = tab + 1


def _sheet_nodes(header: list[str], rows: list[tuple[int, list[str]]], line: int,
                 skipped: list[tuple[int, str]]) -> list[Node]:
    """A pasted sheet's outline: its section rows (only the first cell filled) as headings,
    each over the table items of the rows below it."""
    out: list[Node] = []
    papers: list[tuple[int, list[str]]] = []
    for row_line, cells in rows:
        if not any(cells):
            continue  # (an empty row between sections)
        if cells[0] and not any(cells[1:]):
            out.extend(table_nodes(header, papers, line, skipped))
            papers = []
            out.append(Node("heading", row_line, cells[0], level=2))
            continue
        papers.append((row_line, cells))
    out.extend(table_nodes(header, papers, line, skipped))
    return out
