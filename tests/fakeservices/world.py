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
from xml.sax.saxutils import escape

from . import templates
from .pages import pages_for
from .templates import arxiv_feed as _recorded_feed

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
    #: the ``/rec/<key>.bib`` fields of published dblp records (CoRR records are derived)
    dblp_bib: dict[str, dict[str, str]] = field(default_factory=dict)
    #: web pages by ``host/path``: (status, content type, body); the papers' project pages
    #: and whatever a test adds (:meth:`FakeServices.web_page`)
    pages: dict[str, tuple[int, str, bytes]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path = DATA) -> "World":
        papers = json.loads((data_dir / "papers.json").read_text(encoding="utf-8"))["papers"]
        items = json.loads((data_dir / "crossref.json").read_text(encoding="utf-8"))["items"]
        world = cls(papers=papers, crossref_items=items, pages=pages_for(papers))
        for paper in papers:
            world.notes += _notes_for(paper)
            if "arxiv" in paper:
                world.arxiv[paper["arxiv"]["id"]] = paper
            if paper.get("dblp_corr"):
                hit = _dblp_corr(paper)
                world.dblp[hit["key"]] = hit
            if paper.get("dblp"):  # the published record (a world built from a real .bib)
                hit = templates.dblp_info(paper["dblp"]["info"])
                world.dblp[hit["key"]] = hit
                world.dblp_bib[hit["key"]] = paper["dblp"]["bib"]
        return world

    # -- lookups used by the handlers --------------------------------------------------
    def note(self, note_id: str) -> dict[str, Any] | None:
        return next((n for n in self.notes if n["id"] == note_id), None)

    def crossref_item(self, doi: str) -> dict[str, Any] | None:
        doi = doi.lower()
        return next((e["item"] for e in self.crossref_items if e["item"]["DOI"].lower() == doi), None)

    # -- the truth, for tests and benchmarks -------------------------------------------
    def meant_paper(self, mentions: list[Any]) -> dict[str, Any] | None:
        """The world paper some mentions describe: by a conference page URL, by a title
        (any of its titles, or the notes' own spelling ``notes_title``) or by its abstract."""
        from citekit.core.text import normalize_title

        for m in mentions:
            for url in m.urls:
                found = re.search(r"/virtual/\d{4}/(poster|oral)/(\d+)", url)
                if found:
                    for paper in self.papers:
                        if int(found.group(2)) in ((paper.get("virtual") or {}).get(k) for k in ("poster", "oral")):
                            return paper
        for m in mentions:  # a project page of the paper, noted on its own
            for link in m.links.values():
                for paper in self.papers:
                    if paper.get("project_page") and link.rstrip("/") == paper["project_page"].rstrip("/"):
                        return paper
        for m in mentions:
            for paper in self.papers:
                if m.title and normalize_title(m.title) in _titles(paper, normalize_title):
                    return paper
                if m.abstract and normalize_title(m.abstract) == normalize_title(paper["abstract"]):
                    return paper
        return None

    def is_record_of(self, candidate: Any, paper: dict[str, Any]) -> bool:
        """True when ``candidate`` (a resolved record) is a version of ``paper``."""
        from citekit.core.text import normalize_title

        ids = candidate.ids
        forums = {x.get("id") for x in (paper.get("openreview"), paper.get("iclr"), paper.get("workshop")) if x}
        aid = (paper.get("arxiv") or {}).get("id")
        if ids.openreview and ids.openreview in forums:
            return True
        if aid and (ids.arxiv == aid or candidate.id == f"journals/corr/abs-{aid.replace('.', '-')}"):
            return True
        if paper.get("journal_doi") and ids.doi == paper["journal_doi"]:
            return True
        if candidate.source == "conferences":  # list-only papers: the event and its title
            number = int(str(candidate.id).rsplit("/", 1)[-1])
            v = paper.get("virtual") or {}
            return number in (v.get("poster"), v.get("oral")) or (
                not v and normalize_title(candidate.title) == normalize_title(paper["title"]))
        return False


def _titles(paper: dict[str, Any], norm: Any) -> set[str]:
    titles = {norm(paper["title"])}
    titles |= {norm(v["title"]) for v in paper.get("arxiv", {}).get("versions", [])}
    titles |= {norm(paper["workshop"]["title"])} if "workshop" in paper else set()
    titles |= {norm(paper["notes_title"])} if "notes_title" in paper else set()
    return titles


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
        # double-blind: guests read no authors, unless the submission was made public with
        # its authors after the decisions (``authors_public``)
        authors = paper["authors"] if i.get("authors_public") else None
        out.append(_note(i["id"], i["number"], i.get("title", paper["title"]), authors, paper["abstract"], ICLR,
                         venue="Submitted to ICLR 2026", venueid=f"{ICLR}/Rejected_Submission", accepted=False,
                         booktitle=None, year=2026))
    if "workshop" in paper:
        w = paper["workshop"]
        note = _note(w["id"], w["number"], w["title"], w["authors"], paper["abstract"], w["venueid"],
                     venue=w["venue"], venueid=w["venueid"], accepted=True,
                     booktitle=f"{w['venue']} Workshop", year=2025)
        if "arxiv" in paper:  # workshops often ask for the preprint's link
            note["content"]["arxiv"] = {"value": f"https://arxiv.org/abs/{paper['arxiv']['id']}"}
        out.append(note)
    return [templates.openreview_note(n) for n in out]


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
    return templates.dblp_info({
        "authors": {"author": names[0] if len(names) == 1 else names},
        "title": title, "venue": "CoRR", "volume": f"abs/{aid}", "year": year,
        "type": "Informal and Other Publications", "access": "open", "key": key,
        "doi": f"10.48550/ARXIV.{aid}", "ee": f"https://doi.org/10.48550/arXiv.{aid}",
        "url": f"https://dblp.org/rec/{key}",
    })


def dblp_bibtex(hit: dict[str, Any], bib: dict[str, str] | None = None) -> str:
    """A record as dblp's standard ``/rec/<key>.bib`` (two-space indent, aligned ``=``);
    ``bib``: the fields of a published record, written in dblp's order."""
    if bib is not None:
        kind = "article" if "journal" in bib else "inproceedings"
        fields = [(k, v) for k, v in bib.items()] + [
            ("timestamp", "Mon, 02 Mar 2026 10:00:00 +0100"), ("biburl", f"https://dblp.org/rec/{hit['key']}.bib"),
            ("bibsource", "dblp computer science bibliography, https://dblp.org")]
        body = ",\n".join(f"  {k:<13}= {{{v}}}" for k, v in fields)
        return f"@{kind}{{DBLP:{hit['key']},\n{body}\n}}\n"
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
    """The recorded feed (``tests/fixtures/api/arxiv/empty.xml``) with this query and ``entries``."""
    now = dt.datetime(2026, 7, 10, 12, 0, 0).strftime("%Y-%m-%dT%H:%M:%SZ")
    return _recorded_feed(query_echo, entries, total, start, per_page, now)


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


# ------------------------------------------------------------------------------ conference sites
#
# The virtual sites' ``/static/virtual/data/<conf>-<year>-orals-posters.json``: one event per
# poster or oral, ``{"count", "next", "previous", "results": [...]}``; ICML 2026 keeps the
# abstracts in ``<conf>-<year>-abstracts.json`` (event id -> text). Besides the world's papers
# the list holds thousands of other accepted papers, generated deterministically, among
# them near-identical titles by other authors.

_FIRST = ("Wei", "Anna", "Jun", "Maria", "Luca", "Priya", "Omar", "Sofia", "Kenji", "Elena", "David", "Mei",
          "Carlos", "Hana", "Ivan", "Laura", "Minh", "Nora", "Pavel", "Rina", "Samir", "Tara", "Yuki", "Zoe")
_LAST = ("Zhang", "Novak", "Kim", "Garcia", "Rossi", "Patel", "Haddad", "Costa", "Tanaka", "Petrova", "Cohen",
         "Lin", "Mendes", "Sato", "Ivanov", "Weber", "Nguyen", "Berg", "Dvorak", "Okafor", "Khan", "Silva",
         "Mori", "Fischer", "Larsen", "Moreau", "Singh", "Park", "Yilmaz", "Kowalski")
_TOPIC = ("Gradient", "Attention", "Diffusion", "Graph", "Sparse", "Bayesian", "Contrastive", "Federated", "Robust",
          "Causal", "Spectral", "Low-Rank", "Adaptive", "Stochastic", "Equivariant", "Quantized", "Implicit",
          "Meta", "Offline", "Kernel", "Hierarchical", "Conformal", "Private", "Continual")
_THING = ("Optimization", "Transformers", "Representations", "Reinforcement Learning", "Language Models",
          "Generalization", "Pretraining", "Inference", "Networks", "Regularization", "Sampling", "Alignment",
          "Compression", "Exploration", "Calibration", "Distillation", "Scaling Laws", "Fine-Tuning")
_TAIL = ("A Theoretical Perspective", "Beyond the Worst Case", "Provable Guarantees", "An Empirical Study",
         "Faster Rates", "A Unified View", "Lessons from Practice", "at Scale", "Without Tears",
         "with Minimal Supervision")
_VARIANTS = ("Towards {t}", "Revisiting {t}", "{t}, Revisited", "On {t}", "{t} for Vision Models",
             "Rethinking {t}", "{t} in Theory and Practice")
#: events in the generated ICML 2026 list besides the world's own papers
LIST_SIZE = 6300
LIST_FIRST_ID = 40000


def _people(rng: Any, n: int) -> list[str]:
    return [f"{rng.choice(_FIRST)} {rng.choice(_LAST)}" for _ in range(n)]


def _event(event_id: int, kind: str, title: str, authors: list[str], decision: str, forum: str | None,
           *, paper_url: Any = "__forum__", abstract: str | None = None, position: int = 0) -> dict[str, Any]:
    number = 10000 + event_id % 9000
    url: Any = f"https://openreview.net/forum?id={forum}" if forum else None
    if paper_url != "__forum__":
        url = paper_url
    event = {
        "id": event_id,
        "uid": hashlib.md5(f"{event_id}".encode()).hexdigest(),
        "name": title,
        "authors": [{"id": 100000 + (_digest(a) % 900000), "fullname": a,
                     "url": f"http://icml.cc/api/miniconf/users/{100000 + (_digest(a) % 900000)}?format=json",
                     "institution": ("University of Somewhere", "Example Labs", "")[_digest(a) % 3]} for a in authors],
        "topic": "Optimization",
        "keywords": [],
        "decision": decision,
        "session": "Poster Session 3" if kind == "poster" else "Oral 2C",
        "eventtype": "Poster" if kind == "poster" else "Oral",
        "event_type": "Poster" if kind == "poster" else "Oral",
        "room_name": "East Exhibition Hall A-B" if kind == "poster" else "West Ballroom A",
        "virtualsite_url": f"/virtual/2026/{kind}/{event_id}",
        "url": None,
        "sourceid": number,
        "sourceurl": "https://openreview.net/group?id=ICML.cc/2026/Conference",
        "starttime": "2026-07-08T11:00:00-07:00",
        "endtime": "2026-07-08T13:30:00-07:00",
        "starttime2": None,
        "endtime2": None,
        "diversity_event": None,
        "paper_url": url,
        "paper_pdf_url": None,
        "children_url": None,
        "children": [],
        "children_ids": [],
        "parent1": None,
        "parent2": None,
        "parent2_id": None,
        "eventmedia": [],
        "show_in_schedule_overview": False,
        "visible": True,
        "poster_position": f"E-{position % 3000 + 1}" if kind == "poster" else None,
        "schedule_html": "",
        "latitude": None,
        "longitude": None,
        "related_events": [],
        "related_events_ids": [],
    }
    if abstract is not None:
        event["abstract"] = abstract
    return templates.conference_event(event)


def conference_events(world: World, *, size: int = LIST_SIZE) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``(events, abstracts by event id)`` of the ICML 2026 list: the world's ICML papers,
    then generated ones, deterministically (the same list on every run)."""
    import random

    rng = random.Random(2026)
    events: list[dict[str, Any]] = []
    abstracts: dict[str, str] = {}
    used: set[int] = set()
    for paper in world.papers:
        if paper.get("expect") != "icml":
            continue
        v = paper.get("virtual") or {}
        used.update(x for x in (v.get("poster"), v.get("oral")) if isinstance(x, int))
    next_free = 67000
    for i, paper in enumerate(world.papers):
        if paper.get("expect") != "icml":
            continue
        v = paper.get("virtual") or {}
        poster = v.get("poster")
        if not isinstance(poster, int):
            while next_free in used:
                next_free += 1
            poster = next_free
            used.add(poster)
        presentation = v.get("decision") or (paper.get("openreview") or {}).get("decision", "poster")
        decision = f"Accept ({presentation})"
        forum = (paper.get("openreview") or {}).get("id")
        kwargs: dict[str, Any] = {}
        if "paper_url" in v:
            kwargs["paper_url"] = v["paper_url"]
        events.append(_event(poster, "poster", paper["title"], paper["authors"], decision, forum, position=i, **kwargs))
        abstracts[str(poster)] = paper["abstract"]
        if isinstance(v.get("oral"), int):
            events.append(_event(v["oral"], "oral", paper["title"], paper["authors"], decision, forum, **kwargs))
            abstracts[str(v["oral"])] = paper["abstract"]
    real = [e["name"] for e in events]
    event_id = LIST_FIRST_ID
    while len(events) < size:
        while event_id in used:
            event_id += 1
        if len(events) < len(real) * 4:  # near-identical titles by other authors
            base = real[len(events) % len(real)]
            title = rng.choice(_VARIANTS).format(t=base) if rng.random() < 0.7 else \
                base.replace(base.split()[-1], rng.choice(_THING).split()[-1])
        else:
            title = f"{rng.choice(_TOPIC)} {rng.choice(_THING)}: {rng.choice(_TAIL)}"
        authors = _people(rng, rng.randint(1, 6))
        forum = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(10))
        roll = rng.random()
        decision = "Accept (oral)" if roll < 0.02 else "Accept (spotlight)" if roll < 0.1 else "Accept (poster)"
        events.append(_event(event_id, "poster", title, authors, decision, forum, position=event_id))
        abstracts[str(event_id)] = (f"We study {title.lower()}. Our method improves {rng.choice(_THING).lower()} "
                                    f"by {rng.randint(2, 40)}% over {rng.choice(_TOPIC).lower()} baselines "
                                    f"on {rng.randint(3, 12)} benchmarks.")
        event_id += 1
    # events that are not papers live in the same file on some sites
    events.append({**_event(event_id + 1, "poster", "Workshop on Efficient Training", [], "", None),
                   "virtualsite_url": f"/virtual/2026/workshop/{event_id + 1}", "eventtype": "Workshop",
                   "event_type": "Workshop", "decision": None})
    return events, abstracts
