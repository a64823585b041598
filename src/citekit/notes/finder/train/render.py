"""Papers of the shared ``.bib`` corpora as text: full references in a few styles, and the short lines people type in notes.

A :class:`Paper` is read from one BibTeX entry (title, authors, venue, year, pages, DOI,
arXiv id, URL, LaTeX turned to text). :func:`reference` writes it in one of a handful of
reference styles written for this (author-year, numbered, ACM-like, Vancouver-like,
alpha-labelled, a ``\\bibitem`` with ``\\newblock`` lines); :func:`wrap` hard-wraps it as a
PDF copy would. :func:`note_lines` writes the shapes of the notes corpus: ``Title — A, B``,
``Title (Family et al., ICML 2020)``, ``**Title** by A and B``, a Markdown link, a title with
``Authors:``/``url::`` detail lines below it. Each returns lines with their finder labels.
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from citekit.bibtex.reader import read_bib_file
from citekit.core.names import parse_name, split_bibtex_names
from citekit.core.text import latex_to_text

Labelled = list[tuple[str, str]]  # (label, line)

_VENUE_SHORT = ("NeurIPS", "ICML", "ICLR", "CVPR", "ACL", "EMNLP", "AAAI", "KDD", "AISTATS", "COLT", "UAI", "ECCV",
                "NAACL", "IJCAI", "SIGIR", "WWW", "JMLR", "TMLR", "Nature", "ICCV", "COLM")


@dataclass
class Paper:
    """One paper, read from a BibTeX entry, in plain text."""

    title: str
    authors: list[tuple[str, str]]  # (given, family)
    year: str = ""
    venue: str = ""
    volume: str = ""
    number: str = ""
    pages: str = ""
    publisher: str = ""
    doi: str = ""
    arxiv: str = ""
    url: str = ""
    kind: str = "article"
    extra: dict[str, str] = field(default_factory=dict)


def _clean(value: str) -> str:
    try:
        text = latex_to_text(value)
    except Exception:  # noqa: BLE001 - odd LaTeX in a corpus file: fall back to the braces removed
        text = value.replace("{", "").replace("}", "")
    return " ".join(text.split())


def papers_from_bib(paths: list[Path], limit_per_file: int, rng: random.Random) -> list[Paper]:
    """Up to ``limit_per_file`` papers from each ``.bib`` file that have a title, authors and a year."""
    out: list[Paper] = []
    for path in paths:
        try:
            entries = read_bib_file(path).entries
        except Exception:  # noqa: BLE001 - a corpus file the reader rejects: skip it
            continue
        entries = [e for e in entries if {"title", "author", "year"} <= set(e.fields)]
        rng.shuffle(entries)
        for entry in entries[:limit_per_file]:
            f = entry.fields
            title = _clean(f["title"]).strip(" .")
            names = []
            for raw in split_bibtex_names(f["author"])[:12]:
                person = parse_name(_clean(raw))
                family = f"{person.von} {person.family}".strip() if person.von else person.family
                if family and family.lower() != "others":
                    names.append((person.given, family))
            year = re.search(r"\d{4}", f["year"])
            if not title or not names or not year or len(title) < 8:
                continue
            venue = _clean(f.get("journal") or f.get("booktitle") or f.get("publisher") or f.get("school") or "")
            eprint = f.get("eprint", "")
            arxiv = eprint if re.fullmatch(r"\d{4}\.\d{4,5}(v\d)?", eprint) else ""
            out.append(Paper(
                title=title, authors=names, year=year.group(0), venue=venue.strip(" ."),
                volume=_clean(f.get("volume", "")), number=_clean(f.get("number", "")),
                pages=_clean(f.get("pages", "")).replace("--", "–"), publisher=_clean(f.get("publisher", "")),
                doi=f.get("doi", "").strip(), arxiv=arxiv, url=f.get("url", "").split()[0] if f.get("url") else "",
                kind=entry.entry_type.lower()))
    return out


# ---- names ----------------------------------------------------------------------------------

def _initials(given: str, dots: bool = True, space: bool = True) -> str:
    parts = [p for p in re.split(r"[\s\-]+", given) if p and p[0].isalpha()]
    if dots:
        return (" " if space else "").join(p[0] + "." for p in parts)
    return "".join(p[0] for p in parts)


def _full(a: tuple[str, str]) -> str:
    return f"{a[0]} {a[1]}".strip()


def _join(names: list[str], last: str = "and", oxford: bool = True) -> str:
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} {last} {names[1]}"
    return ", ".join(names[:-1]) + ("," if oxford else "") + f" {last} {names[-1]}"


def _cap(authors: list[tuple[str, str]], most: int) -> tuple[list[tuple[str, str]], bool]:
    if len(authors) > most:
        return authors[: max(1, most - 1)], True
    return authors, False


def _venue_bits(p: Paper) -> str:
    bits = []
    if p.volume:
        bits.append(p.volume + (f"({p.number})" if p.number else ""))
    if p.pages:
        bits.append(p.pages)
    return ", ".join(bits)


# ---- reference styles ---------------------------------------------------------------------

def _apa(p: Paper, rng: random.Random) -> str:
    authors, more = _cap(p.authors, 7)
    names = [f"{fam}, {_initials(giv)}" if giv else fam for giv, fam in authors]
    who = _join(names, "&") + (", et al." if more else "")
    tail = f" {p.venue}" + (f", {_venue_bits(p)}" if _venue_bits(p) else "") + "." if p.venue else ""
    doi = f" https://doi.org/{p.doi}" if p.doi and rng.random() < 0.6 else ""
    return f"{who} ({p.year}). {p.title}.{tail}{doi}"


def _ieee(p: Paper, rng: random.Random) -> str:
    authors, more = _cap(p.authors, 6)
    names = [f"{_initials(giv)} {fam}".strip() for giv, fam in authors]
    who = _join(names, "and") + (" et al." if more else "")
    where = f" in {p.venue}," if p.kind in ("inproceedings", "incollection") and p.venue else f" {p.venue}," if p.venue else ""
    pages = f" pp. {p.pages}," if p.pages else ""
    return f"{who}, “{p.title},”{where}{pages} {p.year}."


def _acm(p: Paper, rng: random.Random) -> str:
    names = [_full(a) for a in p.authors]
    where = f" In {p.venue}." if p.venue else ""
    pages = f" {p.pages}." if p.pages else ""
    doi = f" https://doi.org/{p.doi}" if p.doi else ""
    return f"{_join(names)}. {p.year}. {p.title}.{where}{pages}{doi}"


def _chicago(p: Paper, rng: random.Random) -> str:
    first = p.authors[0]
    names = [f"{first[1]}, {first[0]}".strip(", ")] + [_full(a) for a in p.authors[1:6]]
    more = ", et al" if len(p.authors) > 6 else ""
    where = f" {p.venue}" if p.venue else ""
    bits = f" {p.volume}" if p.volume else ""
    pages = f": {p.pages}" if p.pages else ""
    return f"{_join(names)}{more}. {p.year}. “{p.title}.”{where}{bits}{pages}."


def _vancouver(p: Paper, rng: random.Random) -> str:
    authors, more = _cap(p.authors, 6)
    names = ", ".join(f"{fam} {_initials(giv, dots=False)}".strip() for giv, fam in authors)
    more_s = ", et al" if more else ""
    where = f" {p.venue}." if p.venue else ""
    vol = f";{p.volume}" + (f"({p.number})" if p.number else "") if p.volume else ""
    pages = f":{p.pages}" if p.pages else ""
    return f"{names}{more_s}. {p.title}.{where} {p.year}{vol}{pages}."


def _natbib(p: Paper, rng: random.Random) -> str:
    names = [_full(a) for a in p.authors]
    where = f" In {p.venue}, " if p.kind == "inproceedings" and p.venue else f" {p.venue}, " if p.venue else " "
    pages = f"pages {p.pages}, " if p.pages else ""
    arx = f" arXiv:{p.arxiv}." if p.arxiv else ""
    return f"{_join(names)}. {p.title}.{where}{pages}{p.year}.{arx}"


def _mla(p: Paper, rng: random.Random) -> str:
    first = p.authors[0]
    who = f"{first[1]}, {first[0]}".strip(", ")
    if len(p.authors) == 2:
        who += f", and {_full(p.authors[1])}"
    elif len(p.authors) > 2:
        who += ", et al"
    where = f" {p.venue}," if p.venue else ""
    return f"{who}. “{p.title}.”{where} {p.year}" + (f", pp. {p.pages}." if p.pages else ".")


STYLES = {"apa": _apa, "ieee": _ieee, "acm": _acm, "chicago": _chicago, "vancouver": _vancouver,
          "natbib": _natbib, "mla": _mla}


def _alpha_key(p: Paper) -> str:
    fams = [re.sub(r"\W", "", f) for _, f in p.authors]
    if len(fams) == 1:
        key = fams[0][:3]
    else:
        key = "".join(f[:1] for f in fams[:4]) + ("+" if len(fams) > 4 else "")
    return f"{key}{p.year[-2:]}"


def wrap(text: str, rng: random.Random, *, first: str = "", hang: int | None = None,
         width: int | None = None) -> list[str]:
    """``text`` hard-wrapped as a PDF copy or a plain-text bibliography would have it."""
    width = width or rng.choice((58, 66, 72, 80, 88, 96))
    hang = hang if hang is not None else rng.choice((0, 0, 2, 3, 4, len(first)))
    lines = textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=" " * hang,
                          break_on_hyphens=False, break_long_words=False)
    return lines or [first + text]


def reference_list(papers: list[Paper], rng: random.Random) -> Labelled:
    """A bibliography in one style: numbered or not, wrapped or one line each, blank lines between or not."""
    style = rng.choice(list(STYLES) + ["bibitem", "alpha"])
    numbering = rng.choice(("none", "none", "bracket", "dot", "paren"))
    wrapped = rng.random() < 0.6
    spaced = rng.random() < 0.4
    width = rng.choice((58, 66, 72, 80, 88, 96))
    hang = rng.choice((0, 2, 3, 4))
    out: Labelled = []
    for i, p in enumerate(papers, 1):
        if style == "bibitem":
            out += _bibitem(p, rng)
        else:
            text = STYLES[style if style != "alpha" else "natbib"](p, rng)
            first = {"none": "", "bracket": f"[{i}] ", "dot": f"{i}. ", "paren": f"({i}) "}[numbering]
            if style == "alpha":
                first = f"[{_alpha_key(p)}] ".ljust(rng.choice((0, 10)))
            lines = wrap(text, rng, first=first, hang=max(hang, len(first)) if first and hang else hang,
                         width=width) if wrapped else [first + text]
            out.append(("ref", lines[0]))
            out += [("cont", line) for line in lines[1:]]
        if spaced:
            out.append(("blank", ""))
    return out


def _bibitem(p: Paper, rng: random.Random) -> Labelled:
    names = _join([_full(a) for a in p.authors])
    key = re.sub(r"\W", "", p.authors[0][1]).lower() + p.year
    out: Labelled = [("ref", f"\\bibitem{{{key}}}" if rng.random() < 0.5 else f"\\bibitem[{p.authors[0][1]}({p.year})]{{{key}}}")]
    out.append(("cont", names + "."))
    out.append(("cont", f"\\newblock {p.title}."))
    if p.venue:
        venue = ("In {\\em " if p.kind == "inproceedings" else "{\\em ") + p.venue + "}"
        out.append(("cont", f"\\newblock {venue}, {p.year}."))
    return out


# ---- notes-style lines --------------------------------------------------------------------

def short_venue(p: Paper, rng: random.Random) -> str:
    for short in _VENUE_SHORT:
        if short.lower() in p.venue.lower():
            return short
    return rng.choice(_VENUE_SHORT)


def people_of(p: Paper, rng: random.Random) -> str:
    form = rng.random()
    if form < 0.45:
        return ", ".join(_full(a) for a in p.authors[:8])
    if form < 0.65:
        return _join([_full(a) for a in p.authors[:5]], rng.choice(("and", "&")), oxford=False)
    if form < 0.8 or len(p.authors) < 3:
        return p.authors[0][1] + (" et al." if len(p.authors) > 1 else "")
    return " ⋅ ".join(_full(a) for a in p.authors[:6])


def link_of(p: Paper, rng: random.Random) -> str:
    if p.arxiv and rng.random() < 0.7:
        return rng.choice((f"https://arxiv.org/abs/{p.arxiv}", f"arXiv:{p.arxiv}", f"https://arxiv.org/pdf/{p.arxiv}"))
    if p.doi and rng.random() < 0.6:
        return rng.choice((f"https://doi.org/{p.doi}", f"doi:{p.doi}"))
    if p.url:
        return p.url
    return f"https://openreview.net/forum?id={''.join(rng.choice('abcdefghXYZ0123456789') for _ in range(10))}"


def note_lines(p: Paper, rng: random.Random, *, prefix: str = "", child: str = "  ") -> Labelled:
    """One paper as a notes line or a small block (a title and its detail lines)."""
    t = p.title
    r = rng.random()
    if r < 0.12:
        return [("ref", f"{prefix}{t} — {people_of(p, rng)}")]
    if r < 0.22:
        fam = p.authors[0][1]
        return [("ref", f"{prefix}{t} ({fam}{' et al.' if len(p.authors) > 2 else ''}, {short_venue(p, rng)} {p.year})")]
    if r < 0.30:
        return [("ref", f"{prefix}**{t}** by {people_of(p, rng)}")]
    if r < 0.37:
        return [("ref", f"{prefix}[{t}]({link_of(p, rng)})" + (f" — {people_of(p, rng)}" if rng.random() < 0.5 else ""))]
    if r < 0.43:
        return [("ref", f"{prefix}“{t}” by {people_of(p, rng)}")]
    if r < 0.50:
        return [("ref", f"{prefix}{t}, {people_of(p, rng)}, {short_venue(p, rng)}'{p.year[-2:]}")]
    if r < 0.56:
        return [("ref", f"{prefix}{link_of(p, rng)}" + (f" ({t.split(':')[0].lower()[:30]})" if rng.random() < 0.4 else ""))]
    if r < 0.62:
        return [("ref", f"{prefix}{t}")]
    # a title with detail lines below it
    details = []
    label_style = rng.choice(("Authors: ", "authors:: ", "- Authors: ", "**Authors:** ", "", "by "))
    details.append(("cont", f"{child}{label_style}{people_of(p, rng)}"))
    if rng.random() < 0.6:
        lab = rng.choice(("URL: ", "url:: ", "- Link: ", "Link: ", "", "arxiv:: "))
        details.append(("cont", f"{child}{lab}{link_of(p, rng)}"))
    if rng.random() < 0.3:
        lab = rng.choice(("venue:: ", "Venue: ", "- Venue: "))
        details.append(("cont", f"{child}{lab}{short_venue(p, rng)} {p.year}"))
    if rng.random() < 0.3:
        details.append(("cont", f"{child}{rng.choice(SUMMARIES)}"))
    head = rng.choice((t, f"**{t}**", f"TODO {t}", f"DONE {t}", f"[[{t}]]", t))
    return [("ref", f"{prefix}{head}"), *details]


#: the note a reader adds under a paper: a child of its block, so part of the mention
SUMMARIES = (
    "Summary: nice ablations, weak baselines.", "- read the appendix again", "Key idea: warm-up matters more than the schedule.",
    "tags:: optimization, theory", "Notes: compare with our results on CIFAR.", "- ask the authors about the code release",
    "Takeaway: the bound is loose in practice.", "status:: to read", "- reread section 4", "Rating: 4/5",
)
