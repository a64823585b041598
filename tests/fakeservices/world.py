"""The fake world's records, rendered in each service's exact wire shape.

``data/papers.json`` lists papers once (title, authors, abstract and which services know
which version of them); ``data/crossref.json`` holds Crossref work items, mostly decoys.
Rendering follows the wire formats of OpenReview API v2, Crossref REST, dblp search/BibTeX
and the arXiv Atom feed; nothing here knows about citekit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

DATA = Path(__file__).parent / "data"
ICML = "ICML.cc/2026/Conference"
ICLR = "ICLR.cc/2026/Conference"
_MS_2026_05 = 1778000000000  # decisions posted in May 2026
_MS_2025_09 = 1758000000000  # ICLR submissions opened in September 2025


def words(text: str) -> list[str]:
    """Lower-case word tokens, TeX commands reduced to their names (``\\ell`` → ``ell``)."""
    text = text.replace("\\", " ").replace("$", " ")
    return [w for w in re.split(r"[^0-9a-zà-ÿ]+", text.lower()) if w]


def _digest(text: str) -> int:
    """A stable number for ``text`` (``hash()`` changes from run to run)."""
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16)


def _tilde(name: str) -> str:
    return "~" + "_".join(name.split()) + "1"


def _bibtex_title(title: str) -> str:
    return re.sub(r"(?<![{\w])([A-Z]{2,}\w*)", r"{\1}", title)


@dataclass
class World:
    papers: list[dict[str, Any]]
    crossref_items: list[dict[str, Any]]
    notes: list[dict[str, Any]] = field(default_factory=list)
    arxiv: dict[str, dict[str, Any]] = field(default_factory=dict)
    dblp: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path = DATA) -> "World":
        papers = json.loads((data_dir / "papers.json").read_text(encoding="utf-8"))["papers"]
        items = json.loads((data_dir / "crossref.json").read_text(encoding="utf-8"))["items"]
        world = cls(papers=papers, crossref_items=items)
        for paper in papers:
            world.notes += _notes_for(paper)
            if "arxiv" in paper:
                world.arxiv[paper["arxiv"]["id"]] = paper
            if paper.get("dblp_corr"):
                hit = _dblp_corr(paper)
                world.dblp[hit["key"]] = hit
        return world

    # -- lookups used by the handlers --------------------------------------------------
    def note(self, note_id: str) -> dict[str, Any] | None:
        return next((n for n in self.notes if n["id"] == note_id), None)

    def crossref_item(self, doi: str) -> dict[str, Any] | None:
        doi = doi.lower()
        return next((e["item"] for e in self.crossref_items if e["item"]["DOI"].lower() == doi), None)


# ------------------------------------------------------------------------------ OpenReview


def _notes_for(paper: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    if "openreview" in paper:
        o = paper["openreview"]
        out.append(_note(o["id"], o["number"], paper["title"], paper["authors"], paper["abstract"], ICML,
                         venue=f"ICML 2026 {o.get('decision', 'poster')}", venueid=ICML, accepted=True,
                         booktitle="Forty-third International Conference on Machine Learning", year=2026))
    if "iclr" in paper:
        i = paper["iclr"]
        out.append(_note(i["id"], i["number"], i.get("title", paper["title"]), None, paper["abstract"], ICLR,
                         venue="Submitted to ICLR 2026", venueid=f"{ICLR}/Rejected_Submission", accepted=False,
                         booktitle=None, year=2026))
    if "workshop" in paper:
        w = paper["workshop"]
        out.append(_note(w["id"], w["number"], w["title"], w["authors"], paper["abstract"], w["venueid"],
                         venue=w["venue"], venueid=w["venueid"], accepted=True,
                         booktitle=f"{w['venue']} Workshop", year=2025))
    return out


def _note(note_id: str, number: int, title: str, authors: list[str] | None, abstract: str, domain: str, *,
          venue: str, venueid: str, accepted: bool, booktitle: str | None, year: int) -> dict[str, Any]:
    """One v2 note; ``authors=None`` is a double-blind record whose authors guests cannot read."""
    cdate = _MS_2025_09 if domain.startswith("ICLR") else _MS_2026_05 - 120 * 86400000
    first = (authors or ["Anonymous"])[0].split()[-1].lower()
    word = (re.sub(r"[^a-z]", "", title.split()[0].lower()) or "paper")
    key = f"{'anonymous' if authors is None else first}{year}{word}"
    bib_lines = ["@inproceedings{" if accepted else "@misc{", f"{key},", f"title={{{_bibtex_title(title)}}},",
                 f"author={{{' and '.join(authors) if authors else 'Anonymous'}}},"]
    if booktitle:
        bib_lines.append(f"booktitle={{{booktitle}}},")
    bib_lines += [f"year={{{year}}},", f"url={{https://openreview.net/forum?id={note_id}}}", "}"]
    content: dict[str, Any] = {
        "title": {"value": title},
        "abstract": {"value": abstract},
        "keywords": {"value": ["optimization", "deep learning"]},
        "primary_area": {"value": "optimization"},
        "pdf": {"value": f"/pdf/{_digest(note_id) % 16**40:040x}.pdf"},
        "venue": {"value": venue},
        "venueid": {"value": venueid},
        "_bibtex": {"value": "\n".join(bib_lines)},
    }
    if authors is not None:
        content["authors"] = {"value": list(authors)}
        content["authorids"] = {"value": [_tilde(a) for a in authors]}
    note = {
        "id": note_id, "forum": note_id, "number": number,
        "invitations": [f"{domain}/-/Submission", f"{domain}/-/Post_Submission",
                        f"{domain}/Submission{number}/-/Revision", f"{domain}/-/Edit"],
        "domain": domain, "readers": ["everyone"],
        "writers": [domain, f"{domain}/Submission{number}/Authors"],
        "signatures": [f"{domain}/Submission{number}/Authors"],
        "cdate": cdate, "tcdate": cdate, "mdate": _MS_2026_05, "tmdate": _MS_2026_05, "odate": cdate + 86400000,
        "license": "CC BY 4.0", "version": 2, "content": content,
    }
    if accepted:
        note["pdate"] = _MS_2026_05 if year == 2026 else _MS_2026_05 - 300 * 86400000
    return note


def note_text(note: dict[str, Any], content: str = "all") -> tuple[list[str], list[str]]:
    """(title words, all searchable words) of a note, as a full-text index would see them."""
    c = note["content"]
    title = words(c["title"]["value"])
    rest = title + words(" ".join(c.get("authors", {}).get("value", [])))
    if content == "all":
        rest += words(c.get("abstract", {}).get("value", ""))
    elif content == "authors":
        rest = words(" ".join(c.get("authors", {}).get("value", [])))
    return title, rest


# ------------------------------------------------------------------------------ dblp


def _plain(title: str) -> str:
    """dblp prints titles without TeX: ``$\\ell_\\infty$`` → ``ell_infty``."""
    return re.sub(r"\\([a-zA-Z]+)", r"\1", title).replace("$", "")


def _dblp_corr(paper: dict[str, Any]) -> dict[str, Any]:
    aid = paper["arxiv"]["id"]
    latest = paper["arxiv"]["versions"][-1]
    year = latest["date"][:4] if len(paper["arxiv"]["versions"]) == 1 else paper["arxiv"]["versions"][0]["date"][:4]
    names = [{"@pid": f"{100 + i}/{_digest(a) % 9000 + 1000}", "text": a} for i, a in enumerate(paper["authors"])]
    title = _plain(latest["title"])
    if not title.endswith(("?", "!")):
        title += "."
    key = f"journals/corr/abs-{aid.replace('.', '-')}"
    return {
        "authors": {"author": names[0] if len(names) == 1 else names},
        "title": title, "venue": "CoRR", "volume": f"abs/{aid}", "year": year,
        "type": "Informal and Other Publications", "access": "open", "key": key,
        "doi": f"10.48550/ARXIV.{aid}", "ee": f"https://doi.org/10.48550/arXiv.{aid}",
        "url": f"https://dblp.org/rec/{key}",
    }


def dblp_bibtex(hit: dict[str, Any]) -> str:
    """A record as dblp's standard ``/rec/<key>.bib`` (two-space indent, aligned ``=``)."""
    authors = hit["authors"]["author"]
    authors = authors if isinstance(authors, list) else [authors]
    fields = [
        ("author", " and\n                  ".join(a["text"] for a in authors)),
        ("title", hit["title"].rstrip(".")),
        ("journal", "CoRR"),
        ("volume", hit["volume"]),
        ("year", hit["year"]),
        ("url", f"https://arxiv.org/abs/{hit['volume'][4:]}"),
        ("doi", hit["doi"]),
        ("eprinttype", "arXiv"),
        ("eprint", hit["volume"][4:]),
        ("timestamp", "Mon, 02 Mar 2026 10:00:00 +0100"),
        ("biburl", f"https://dblp.org/rec/{hit['key']}.bib"),
        ("bibsource", "dblp computer science bibliography, https://dblp.org"),
    ]
    body = ",\n".join(f"  {k:<13}= {{{v}}}" for k, v in fields)
    return f"@article{{DBLP:{hit['key']},\n{body}\n}}\n"


# ------------------------------------------------------------------------------ arXiv


def arxiv_entry(paper: dict[str, Any], version: int | None = None) -> str:
    """One Atom ``<entry>``: the latest version unless ``version`` names one."""
    a = paper["arxiv"]
    versions = a["versions"]
    n = version or len(versions)
    v = versions[n - 1]
    aid = a["id"]
    authors = v.get("authors", paper["authors"])
    abstract = "  " + paper["abstract"].replace(". ", ".\n")  # arXiv wraps lines and indents
    parts = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{aid}v{n}</id>",
        f"    <title>{escape(v['title'])}</title>",
        f"    <updated>{v['date']}</updated>",
        f'    <link href="https://arxiv.org/abs/{aid}v{n}" rel="alternate" type="text/html"/>',
        f'    <link href="https://arxiv.org/pdf/{aid}v{n}" rel="related" type="application/pdf" title="pdf"/>',
        f"    <summary>{escape(abstract)}</summary>",
        f'    <category term="{a.get("category", "cs.LG")}" scheme="http://arxiv.org/schemas/atom"/>',
        f"    <published>{versions[0]['date']}</published>",
    ]
    if a.get("comment"):
        parts.append(f"    <arxiv:comment>{escape(a['comment'])}</arxiv:comment>")
    parts.append(f'    <arxiv:primary_category term="{a.get("category", "cs.LG")}"/>')
    parts += [f"    <author><name>{escape(name)}</name></author>" for name in authors]
    parts.append("  </entry>")
    return "\n".join(parts)


def arxiv_feed(query_echo: str, entries: list[str], total: int, start: int, per_page: int) -> str:
    now = dt.datetime(2026, 7, 10, 12, 0, 0).strftime("%Y-%m-%dT%H:%M:%SZ")
    head = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" '
        'xmlns="http://www.w3.org/2005/Atom">',
        "  <id>https://arxiv.org/api/fake</id>",
        f"  <title>arXiv Query: {escape(query_echo)}</title>",
        f"  <updated>{now}</updated>",
        f'  <link href={quoteattr("https://arxiv.org/api/query?" + query_echo)} type="application/atom+xml"/>',
        f"  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>",
        f"  <opensearch:totalResults>{total}</opensearch:totalResults>",
        f"  <opensearch:startIndex>{start}</opensearch:startIndex>",
    ]
    return "\n".join(head + entries + ["</feed>"]) + "\n"


def arxiv_error(bad_id: str) -> str:
    entry = "\n".join([
        "  <entry>",
        f"    <id>https://arxiv.org/api/errors#incorrect_id_format_for_{escape(bad_id)}</id>",
        "    <title>Error</title>",
        f"    <summary>incorrect id format for {escape(bad_id)}</summary>",
        "    <updated>2026-07-10T00:00:00-04:00</updated>",
        '    <link href="https://arxiv.org/api/errors#incorrect_id_format_for_x" rel="alternate" type="text/html"/>',
        "    <author><name>arXiv api core</name></author>",
        "  </entry>",
    ])
    return arxiv_feed(f"id_list={bad_id}", [entry], 1, 0, 1)
