"""The ``check`` report: undefined keys, old keys, arXiv entries with a published version."""

from __future__ import annotations

import json

from citekit.paper.check import check_paper, is_arxiv_only
from citekit.core.model import Entry, Ids
from citekit.paper.cited import CitedKeys, citations_from_tex_text


def entry(key: str, title: str, entry_type: str = "inproceedings", **fields: str) -> Entry:
    return Entry(key=key, entry_type=entry_type, fields={"title": title, "year": "2026", **fields})


STEPSIZE = entry("schaipp2026stepsize", "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
                 booktitle="Forty-third International Conference on Machine Learning")
CONFORMAL = entry("ibrahim2026conformal", "Conformal Thinking: Risk Control for Reasoning on a Compute Budget",
                  booktitle="Forty-third International Conference on Machine Learning")
CONFORMAL.aliases = ["ibrahim2025compute"]
WARMUP_ARXIV = entry("alimisis2026warmup", "Why Do We Need Warm-up? A Theoretical Perspective", "misc",
                     eprint="2510.03164", archiveprefix="arXiv")
WARMUP_ARXIV.ids = Ids(arxiv="2510.03164")
WARMUP_ARXIV.versions = [
    {"source": "arxiv", "id": "2510.03164", "title": WARMUP_ARXIV.title, "venue": None, "year": 2025, "stage": "preprint"},
    {"source": "openreview", "id": "AbCdEf123", "title": WARMUP_ARXIV.title, "venue": "ICML", "year": 2026,
     "stage": "accepted"},
]
BATCH_ARXIV = entry("islamov2025batch", "On the Role of Batch Size in Stochastic Conditional Gradient Methods", "misc",
                    howpublished="arXiv preprint")
BATCH_ARXIV.ids = Ids(arxiv="2601.00001")
BATCH_PUBLISHED = entry("islamov2026batch", "On the Role of Batch Size in Stochastic Conditional Gradient Methods",
                        booktitle="Forty-third International Conference on Machine Learning")
BATCH_PUBLISHED.ids = Ids(arxiv="2601.00001")
PLAIN_ARXIV = entry("zmushko2026delay", "One-Step Gradient Delay is Not a Barrier", "misc", eprint="2601.11111",
                    archiveprefix="arXiv")

LIBRARY = [STEPSIZE, CONFORMAL, WARMUP_ARXIV, BATCH_ARXIV, BATCH_PUBLISHED, PLAIN_ARXIV]

PAPER = r"""
\section{Related work}
Step sizes \citep{schaipp2026stepsize}, warm-up \citet{alimisis2026warmup},
batch size \citep{islamov2025batch}, delays \citep{zmushko2026delay}.
Budgets \citep{ibrahim2025compute}. Typos happen \citep{schaip2026stepsize}.
"""


def run(bib: list[Entry] | None = None, text: str = PAPER) -> dict:
    cited = citations_from_tex_text(text, "main.tex")
    return check_paper("main.tex", cited, LIBRARY, bib, "refs.bib" if bib is not None else None)


def test_undefined_key_is_an_error_with_suggestion() -> None:
    report = run()
    assert [m.key for m in report.undefined] == ["schaip2026stepsize"]
    assert "did you mean schaipp2026stepsize" in report.undefined[0].message()
    assert "main.tex:5" in report.undefined[0].message()
    assert report.exit_code() == 1


def test_old_key_of_merged_entry_is_a_warning_naming_the_new_key() -> None:
    report = run()
    assert [(a.key, a.now) for a in report.aliases] == [("ibrahim2025compute", "ibrahim2026conformal")]
    assert "cite 'ibrahim2026conformal'" in report.aliases[0].message()


def test_arxiv_entries_with_published_versions_are_flagged() -> None:
    report = run()
    found = {p.key: p.published for p in report.preprints}
    assert set(found) == {"alimisis2026warmup", "islamov2025batch"}  # zmushko has no published version
    assert "ICML 2026" in found["alimisis2026warmup"] and "AbCdEf123" in found["alimisis2026warmup"]
    assert "islamov2026batch" in found["islamov2025batch"]
    hint = next(p for p in report.preprints if p.key == "alimisis2026warmup").message()
    assert "run 'citekit upgrade alimisis2026warmup'" in hint and "citekit sync" not in hint


def test_is_arxiv_only() -> None:
    assert is_arxiv_only(WARMUP_ARXIV)
    assert is_arxiv_only(BATCH_ARXIV)
    assert not is_arxiv_only(STEPSIZE)
    assert is_arxiv_only(entry("x", "T", "article", journal="CoRR", volume="abs/2601.1"))
    assert not is_arxiv_only(entry("y", "T", "article", journal="Journal of Machine Learning Research"))
    assert not is_arxiv_only(entry("z", "T", "misc", howpublished="Blog post"))
    assert is_arxiv_only(entry("e", "T", "misc", eprint="2601.00002"))  # a bare eprint is arXiv's


def test_clean_paper_passes_and_strict_fails_on_warnings() -> None:
    clean = run(text=r"\citep{schaipp2026stepsize,zmushko2026delay}")
    assert (clean.errors, clean.warnings, clean.exit_code(strict=True)) == (0, 0, 0)
    warned = run(text=r"\citep{ibrahim2025compute}")
    assert (warned.exit_code(), warned.exit_code(strict=True)) == (0, 1)


def test_unused_section_is_skipped_without_a_paper_bib() -> None:
    report = run()
    assert report.unused is None
    assert "unused entries: skipped" in report.format_text()
    assert "--bib" in report.format_text()


def test_paper_bib_gives_unused_and_stale_entries() -> None:
    proc = entry("icml2026", "Forty-third ICML", "proceedings")
    child = entry("schaipp2026stepsize", STEPSIZE.title, crossref="icml2026")
    bib = [child, entry("forgotten2024", "Never Cited"), proc, entry("alimisis2026warmup", WARMUP_ARXIV.title, "misc")]
    report = run(bib, r"\citep{schaipp2026stepsize, alimisis2026warmup, zmushko2026delay}")
    assert report.unused == ["forgotten2024"]  # the crossref parent is used through its child
    assert report.stale == ["zmushko2026delay"]  # in the library, not yet exported to refs.bib
    assert report.undefined == []
    text = report.format_text()
    assert "entries of refs.bib not cited (1):\n  forgotten2024" in text


def test_key_only_in_paper_bib_is_defined() -> None:
    bib = [entry("only_in_bib", "Something Else")]
    assert run(bib, r"\cite{only_in_bib}").undefined == []
    assert [m.key for m in run(None, r"\cite{only_in_bib}").undefined] == ["only_in_bib"]


def test_nocite_all_uses_every_bib_entry() -> None:
    report = run([entry("a", "A")], r"\nocite{*}")
    assert report.unused == []
    assert report.everything


def test_json_report_is_serialisable_and_complete() -> None:
    data = json.loads(json.dumps(run().to_json()))
    assert data["errors"] == 1
    assert data["undefined"][0]["suggestions"][0] == "schaipp2026stepsize"
    assert data["aliases"][0]["now"] == "ibrahim2026conformal"
    assert data["unused_skipped"] is True
    assert data["warnings"] == 3


def test_unreadable_inputs_are_warned_about() -> None:
    cited = CitedKeys(unreadable=["sections/missing"])
    report = check_paper("main.tex", cited, LIBRARY)
    assert report.warnings == 1
    assert "sections/missing" in report.format_text()
