"""Build the fake world of ``citekit upgrade``'s tests and bench from rebiber's real pair.

``python -m tests.fakeservices.rebiber_world`` reads rebiber's demo input and its output
(``shared/corpora/rebiber/example_{input,output}.bib`` beside the repository) and writes
``data/rebiber/papers.json``: one paper for every input entry that is not published yet,
with the services' records of it as they would answer for it.

Where each fact comes from (docs/upgrade-vs-rebiber.md says the same):

- arXiv records: the id, title and year of the input entry (its arXiv id and title as
  Google Scholar or Semantic Scholar exported it); the abstract is a placeholder;
- published dblp records: rebiber's output entry for the same key (title, authors, venue,
  year, pages, DOI, URL); the dblp key is the output's ``biburl`` when it has one and is
  made up in dblp's form otherwise; the short venue name is read from the booktitle;
- dblp CoRR records: derived from the arXiv record, as dblp lists every arXiv paper;
- entries rebiber left as preprints get no published record (none is known to exist);
- decoys, written by hand: a workshop talk that shares a title with an input preprint but
  not its authors, a journal paper whose title is a near miss of another one, and a
  workshop talk titled "Deep Learning" by others beside the real Nature paper of that
  name (LeCun, Bengio, Hinton, Nature 521, 2015, doi 10.1038/nature14539, as dblp lists it:
  rebiber's classic failure turned the Nature paper into such a talk).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from tests.fakeservices.world import _digest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpora" / "rebiber"
OUT = Path(__file__).parent / "data" / "rebiber"

#: short dblp venue names, by what a booktitle or journal says
_VENUES = [
    (r"Findings", "EMNLP (Findings)", "conf/emnlp"), (r"NAACL|North \{?A\}?merican", "NAACL-HLT", "conf/naacl"),
    (r"EMNLP|Empirical Methods", "EMNLP", "conf/emnlp"), (r"ACL|Association for Computational", "ACL", "conf/acl"),
    (r"ICLR|Learning Representations", "ICLR", "conf/iclr"), (r"Neural Information Processing", "NeurIPS", "conf/nips"),
    (r"IJCAI|Joint Conference on\s+Artificial", "IJCAI", "conf/ijcai"), (r"CVPR|Computer Vision and Pattern", "CVPR", "conf/cvpr"),
    (r"AAAI", "AAAI", "conf/aaai"), (r"ICML|International Conference on Machine Learning", "ICML", "conf/icml"), (r"ICCV|International Conference on Computer Vision", "ICCV", "conf/iccv"),
]

#: hand-written decoys (see the module docstring): never the paper an input entry means
DECOYS: list[dict[str, Any]] = [
    {"title": "Deep learning", "authors": ["Yann LeCun", "Yoshua Bengio", "Geoffrey E. Hinton"], "expect": "nature",
     "abstract": "",
     "dblp": {"info": {"authors": {"author": [{"@pid": "l/YannLeCun", "text": "Yann LeCun"},
                                              {"@pid": "56/953", "text": "Yoshua Bengio"},
                                              {"@pid": "10/3248", "text": "Geoffrey E. Hinton"}]},
                       "title": "Deep learning.", "venue": "Nat.", "volume": "521", "pages": "436-444",
                       "year": "2015", "type": "Journal Articles", "access": "closed",
                       "key": "journals/nature/LeCunBH15", "doi": "10.1038/NATURE14539",
                       "ee": "https://doi.org/10.1038/nature14539", "url": "https://dblp.org/rec/journals/nature/LeCunBH15"},
              "bib": {"author": "Yann LeCun and Yoshua Bengio and Geoffrey E. Hinton", "title": "Deep learning",
                      "journal": "Nat.", "volume": "521", "number": "7553", "pages": "436--444", "year": "2015",
                      "doi": "10.1038/NATURE14539"}}},
    {"title": "Deep Learning", "authors": ["Anna Novak"], "expect": "decoy", "abstract": "",
     "dblp": {"info": {"authors": {"author": {"@pid": "303/1", "text": "Anna Novak"}},
                       "title": "Deep Learning.", "venue": "DLRS@RecSys Workshop", "pages": "1",
                       "year": "2016", "type": "Conference and Workshop Papers", "access": "open",
                       "key": "conf/recsys/Novak16", "ee": "https://example.org/dlrs-2016/keynote",
                       "url": "https://dblp.org/rec/conf/recsys/Novak16"},
              "bib": {"author": "Anna Novak", "title": "Deep Learning",
                      "booktitle": "Workshop on Deep Learning for Recommender Systems, DLRS@RecSys 2016",
                      "pages": "1", "year": "2016"}}},
    {"title": "A Simple Method for Commonsense Reasoning", "authors": ["Maria Keller", "Jonas Brandt"],
     "expect": "decoy", "abstract": "",
     "dblp": {"info": {"authors": {"author": [{"@pid": "301/1001", "text": "Maria Keller"},
                                              {"@pid": "301/1002", "text": "Jonas Brandt"}]},
                       "title": "A Simple Method for Commonsense Reasoning.", "venue": "KR Workshops", "pages": "1-4",
                       "year": "2019", "type": "Conference and Workshop Papers", "access": "open",
                       "key": "conf/kr/KellerB19", "ee": "https://example.org/kr-ws-2019/keller.pdf",
                       "url": "https://dblp.org/rec/conf/kr/KellerB19"},
              "bib": {"author": "Maria Keller and Jonas Brandt", "title": "A Simple Method for Commonsense Reasoning",
                      "booktitle": "Workshop on Commonsense Reasoning, {KR} 2019", "pages": "1--4", "year": "2019"}}},
    {"title": "Realm: Retrieval-augmented Language Model Pre-Training for Question Answering over Tables",
     "authors": ["Wei Zhang", "Li Chen", "Kelvin Guu"], "expect": "decoy", "abstract": "",
     "dblp": {"info": {"authors": {"author": [{"@pid": "302/1", "text": "Wei Zhang"}, {"@pid": "302/2", "text": "Li Chen"},
                                              {"@pid": "302/3", "text": "Kelvin Guu"}]},
                       "title": "Realm: Retrieval-augmented Language Model Pre-Training for Question Answering over Tables.",
                       "venue": "Trans. Assoc. Comput. Linguistics", "volume": "9", "pages": "1-20", "year": "2021",
                       "type": "Journal Articles", "access": "open", "key": "journals/tacl/ZhangCG21",
                       "ee": "https://example.org/tacl/realm-tables", "url": "https://dblp.org/rec/journals/tacl/ZhangCG21"},
              "bib": {"author": "Wei Zhang and Li Chen and Kelvin Guu",
                      "title": "Realm: Retrieval-augmented Language Model Pre-Training for Question Answering over Tables",
                      "journal": "Trans. Assoc. Comput. Linguistics", "volume": "9", "pages": "1--20", "year": "2021"}}},
]


def _text(value: str) -> str:
    from citekit.core.text import latex_to_text

    return re.sub(r"\s+", " ", latex_to_text(value)).strip()


def _names(author: str) -> list[str]:
    from citekit.core.names import parse_name, split_bibtex_names

    out = []
    for raw in split_bibtex_names(author):
        p = parse_name(_text(raw))
        out.append(" ".join(x for x in (p.given, p.von, p.family) if x) or p.raw)
    return out


def _venue(container: str) -> tuple[str, str]:
    for pattern, short, prefix in _VENUES:
        if re.search(pattern, container):
            return short, prefix
    return container, "conf/misc"


def _dblp_key(prefix: str, authors: list[str], year: str, biburl: str | None) -> str:
    if biburl:
        return re.sub(r"^https://dblp.org/rec/|\.bib$", "", biburl)
    initials = authors[0].split()[-1] + "".join(a.split()[-1][0] for a in authors[1:6])
    return f"{prefix}/{re.sub(r'[^A-Za-z]', '', initials)}{year[2:]}"


def published(out: Any) -> dict[str, Any]:
    """The dblp search hit and ``.bib`` fields of rebiber's output entry ``out``."""
    f = out.fields
    authors = _names(f.get("author", ""))
    container = f.get("booktitle") or f.get("journal") or ""
    short, prefix = _venue(container)
    year = f.get("year", "")
    key = _dblp_key(prefix if "journal" not in f else "journals/" + prefix.split("/")[1], authors, year, f.get("biburl"))
    title = _text(f["title"])
    info: dict[str, Any] = {
        "authors": {"author": [{"@pid": f"{200 + i}/{_digest(a) % 9000 + 1000}", "text": a} for i, a in enumerate(authors)]},
        "title": title if title.endswith(("?", "!", ".")) else title + ".",
        "venue": short, "year": year,
        "type": "Journal Articles" if "journal" in f else "Conference and Workshop Papers",
        "access": "open", "key": key, "url": f"https://dblp.org/rec/{key}",
    }
    if f.get("pages"):
        info["pages"] = f["pages"].replace("--", "-")
    if f.get("doi"):
        info["doi"] = f["doi"]
    ee = f.get("url") or (f"https://doi.org/{f['doi']}" if f.get("doi") else None)
    if ee:
        info["ee"] = ee.replace("\\_", "_")
    bib = {"author": " and ".join(authors), "title": title.rstrip("."),
           ("journal" if "journal" in f else "booktitle"): container}
    for name in ("volume", "pages", "publisher", "year", "doi", "url"):
        if f.get(name):
            bib[name] = f[name]
    return {"info": info, "bib": bib}


def build(corpus: Path = CORPUS) -> list[dict[str, Any]]:
    from citekit.bibtex.reader import read_bib_file
    from citekit.library.upgrade import wants_lookup
    from citekit.matching.works import entry_stage

    inputs = read_bib_file(corpus / "example_input.bib").entries
    outputs = {e.key: e for e in read_bib_file(corpus / "example_output.bib").entries}
    papers: list[dict[str, Any]] = []
    seen: set[str] = set()
    for entry in inputs:
        if entry.key in seen or wants_lookup(entry) is not None:
            continue
        seen.add(entry.key)
        out = outputs.get(entry.key)
        upgraded = out is not None and entry_stage(out) == "published"
        source = out if upgraded else entry
        paper: dict[str, Any] = {"key": entry.key, "title": _text(source.fields["title"]),
                                 "authors": _names(source.fields.get("author", "")),
                                 "abstract": "(abstract not recorded)", "expect": "upgrade" if upgraded else "preprint"}
        arxiv = entry.ids.arxiv or (out.ids.arxiv if out is not None else None)
        if arxiv:
            year = entry.fields.get("year") or "2019"
            paper["arxiv"] = {"id": arxiv, "category": "cs.CL",
                              "versions": [{"title": _text(entry.fields["title"]), "date": f"{year}-06-15T00:00:00Z"}]}
            paper["dblp_corr"] = True
        if upgraded:
            paper["dblp"] = published(out)
        papers.append(paper)
    return papers + DECOYS


def main() -> int:
    if not CORPUS.is_dir():
        print(f"rebiber's pair not found at {CORPUS}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    papers = build()
    (OUT / "papers.json").write_text(json.dumps({"papers": papers}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (OUT / "crossref.json").write_text(json.dumps({"items": []}) + "\n", encoding="utf-8")
    print(f"{len(papers)} papers -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
