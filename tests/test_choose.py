"""Linking versions of one paper and choosing the one to cite."""

from __future__ import annotations

import pytest

from citekit.core.model import Ids
from citekit.core.resolution import Candidate
from citekit.core.names import parse_name
from citekit.matching.works import DEFAULT_PRECEDENCE, choose_version, group_versions
from citekit.matching.works import same_candidates as same_work

AUTHORS = ["Feihu Huang", "Yuning Luo", "Songcan Chen"]
TITLE = "LiMuon: Light and Fast Muon Optimizer for Large Models"
ABSTRACT = "We propose a light and fast Muon (LiMuon) optimizer for training large models with variance reduction."


def version(source, id, stage, *, title=TITLE, authors=AUTHORS, venue=None, year=2026, ids=None, abstract=ABSTRACT):
    return Candidate(source=source, id=id, title=title, authors=[parse_name(a) for a in authors], year=year,
                     venue=venue, stage=stage, ids=ids or Ids(), abstract=abstract)


ICML = version("openreview", "Lm4kQx7TbA", "accepted", venue="ICML 2026", ids=Ids(openreview="Lm4kQx7TbA", arxiv="2509.14562"))
ICLR = version("openreview", "Rj2pWc9sKd", "rejected", authors=["Anonymous"], venue="Submitted to ICLR 2026",
               year=2025, ids=Ids(openreview="Rj2pWc9sKd"))
ARXIV = version("arxiv", "2509.14562", "preprint", title="LiMuon: Light and Fast Muon Optimizer", year=2025,
                ids=Ids(arxiv="2509.14562", doi="10.48550/arxiv.2509.14562"))
JOURNAL = version("crossref", "10.1000/jmlr.2027.1", "published", venue="JMLR", year=2027,
                  ids=Ids(doi="10.1000/jmlr.2027.1"))


def test_icml_accepted_beats_iclr_rejected_and_arxiv():
    assert choose_version([ARXIV, ICLR, ICML]) is ICML


def test_arxiv_beats_a_rejected_submission():
    assert choose_version([ICLR, ARXIV]) is ARXIV


def test_published_journal_beats_arxiv():
    assert choose_version([ARXIV, JOURNAL]) is JOURNAL


def test_published_beats_accepted_when_the_notes_name_no_venue():
    assert choose_version([ICML, JOURNAL]) is JOURNAL


def test_the_venue_the_notes_name_is_preferred_among_final_versions():
    assert choose_version([JOURNAL, ICML], venue="ICML", year=2026) is ICML
    assert choose_version([ICML, JOURNAL], venue="JMLR") is JOURNAL


def test_notes_venue_does_not_lift_a_rejected_submission():
    assert choose_version([ARXIV, ICLR], venue="ICLR", year=2026) is ARXIV


def test_precedence_is_configurable():
    assert choose_version([ICML, ARXIV, JOURNAL], precedence=["preprint", "published", "accepted"]) is ARXIV
    assert list(DEFAULT_PRECEDENCE[:3]) == ["published", "accepted", "preprint"]


def test_empty_versions_is_an_error_that_says_what_to_do():
    with pytest.raises(ValueError, match="resolve the work first"):
        choose_version([])


def test_shared_arxiv_id_links_a_renamed_version():
    renamed = version("arxiv", "2510.01111", "preprint", title="Compute When Worth It: Risk Control for Reasoning",
                      ids=Ids(arxiv="2510.01111"))
    icml = version("openreview", "Ct7nVb2QpZ", "accepted", title="Conformal Thinking: Risk Control for Reasoning",
                   ids=Ids(openreview="Ct7nVb2QpZ", arxiv="2510.01111"))
    assert same_work(renamed, icml)


def test_same_authors_and_title_link_without_identifiers():
    dblp = version("dblp", "journals/corr/abs-2509-14562", "preprint", ids=Ids(dblp="journals/corr/abs-2509-14562"))
    assert same_work(ICML, dblp)


def test_same_title_other_authors_is_another_work():
    decoy = version("crossref", "10.1000/decoy", "published", authors=["Maria Gonzalez", "Peter Schmidt"],
                    ids=Ids(doi="10.1000/decoy"))
    assert not same_work(ICML, decoy)


def test_anonymous_submission_links_by_title_and_abstract_only():
    assert same_work(ICML, ICLR)  # same title, same abstract
    other_abstract = version("openreview", "Zz9zZz9zZz", "rejected", authors=["Anonymous"],
                             abstract="A survey of optimizers for convolutional networks on small image data sets.",
                             ids=Ids(openreview="Zz9zZz9zZz"))
    assert not same_work(ICML, other_abstract)


def test_grouping_is_transitive_and_keeps_decoys_apart():
    decoy = version("crossref", "10.1000/decoy", "published", authors=["Maria Gonzalez", "Peter Schmidt"],
                    ids=Ids(doi="10.1000/decoy"), abstract="Muon for large models in survey form, with tables.")
    groups = group_versions([ARXIV, decoy, ICML, ICLR, JOURNAL])
    as_ids = [{c.id for c in g} for g in groups]
    assert {"2509.14562", "Lm4kQx7TbA", "Rj2pWc9sKd", "10.1000/jmlr.2027.1"} in as_ids
    assert {"10.1000/decoy"} in as_ids


def test_a_preprint_is_cited_from_arxiv_rather_than_its_dblp_mirror():
    corr = version("dblp", "journals/corr/abs-2509-14562", "preprint", venue="CoRR",
                   ids=Ids(dblp="journals/corr/abs-2509-14562", arxiv="2509.14562"))
    assert choose_version([corr, ARXIV]) is ARXIV
