"""Writing library entries for biblatex/biber.

biblatex reads most BibTeX fields through biber's legacy aliases, but writing its own
names makes the file honest about what it is and lets biber validate it: ``journaltitle``
instead of ``journal``, one ISO ``date`` instead of ``year``/``month``, and the
``eprinttype``/``eprintclass`` pair for arXiv. ``ids`` carries the entry's old keys, so a
``\\cite`` of a key that was later renamed or merged still resolves.
"""

from __future__ import annotations

from citekit.core.model import Entry
from citekit.bibtex.writer import check_unique_keys, entry_fields, entry_text, month_macro, write_texts

#: BibTeX field name -> biblatex field name.
RENAMED_FIELDS = {
    "journal": "journaltitle",
    "archiveprefix": "eprinttype",
    "primaryclass": "eprintclass",
    "address": "location",
    "school": "institution",
    "annote": "annotation",
}

_MONTH_NUMBER = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}


def iso_date(year: str, month: str | None) -> str | None:
    """``2026-07`` from ``2026`` and ``jul``; None when the year is not a plain year."""
    year = year.strip()
    if not (year.isdigit() and len(year) == 4):
        return None
    macro = month_macro(month) if month else None
    return f"{year}-{_MONTH_NUMBER[macro]:02d}" if macro else year


def biblatex_fields(entry: Entry) -> dict[str, str]:
    """The entry's fields renamed and merged for biblatex."""
    fields = entry_fields(entry)
    out: dict[str, str] = {}
    for name, value in fields.items():
        out.setdefault(RENAMED_FIELDS.get(name, name), value)
    if "date" not in out and out.get("year"):
        date = iso_date(out["year"], out.get("month"))
        if date:
            out["date"] = date
            out.pop("year")
            out.pop("month", None)
    if out.get("eprinttype", "").lower() == "arxiv":
        out["eprinttype"] = "arxiv"
    elif "eprint" in out and "eprinttype" not in out and entry.ids.arxiv == out["eprint"]:
        out["eprinttype"] = "arxiv"
    return out


def render_biblatex(entries: list[Entry], *, ascii: bool = False, header: str | None = None) -> str:
    """Deterministic biblatex ``.bib`` text for ``entries``, in the order given (same layout
    as :func:`citekit.bibtex.writer.render_entries`)."""
    check_unique_keys(entries)
    keys = {e.key.lower() for e in entries}
    blocks = []
    for entry in entries:
        fields = biblatex_fields(entry)
        if "ids" in fields:
            fields["ids"] = _aliases_not_keys(fields["ids"], keys)
        blocks.append(entry_text(entry, fields, ascii=ascii))
    return write_texts(blocks, header)


def _aliases_not_keys(ids: str, keys: set[str]) -> str:
    """biber warns "Citekey alias ... is also a real entry key" and skips such an alias."""
    return ", ".join(a.strip() for a in ids.split(",") if a.strip() and a.strip().lower() not in keys)
