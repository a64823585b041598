"""Scoring a source record against what the notes say: honest about decoys."""

from __future__ import annotations

import pytest

from citekit.core.model import Ids, Location
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.matching.candidates import (
    ACCEPT,
    abstract_similarity,
    author_overlap,
    score,
    title_agreement,
    title_similarity,
)

RENAMED_NOTES_TITLE = "Compute When Worth It: Risk Control for Reasoning on a Compute Budget"
RENAMED_AUTHORS = ["Xi Wang", "Anushri Suresh", "Alvin Zhang", "Rishi More", "William Jurayj",
                   "Mehrdad Farajtabar", "Daniel Khashabi", "Eric Nalisnick"]


def mention(title=None, authors=(), venue="ICML", year=2026, abstract=None, hints=()):
    kind = "titled" if title else "abstract" if abstract else "url"
    return Mention(kind=kind, location=Location("notes/n.txt", 1), title=title, authors=list(authors),
                   venue=venue, year=year, abstract=abstract, hints=list(hints))


def cand(title, authors, *, source="openreview", venue="ICML 2026", year=2026, stage="accepted", abstract=None, id="x"):
    return Candidate(source=source, id=id, title=title, authors=[parse_name(a) for a in authors], year=year,
                     venue=venue, stage=stage, abstract=abstract, ids=Ids())


def test_identical_title_and_authors_agree_with_a_high_score():
    m = mention("Riemannian Dueling Optimization", ["Yuxuan Ren", "Abhishek Roy", "Shiqian Ma"])
    s = score(m, cand("Riemannian Dueling Optimization", ["Yuxuan Ren", "Abhishek Roy", "Shiqian Ma"]))
    assert s.agrees and s.title_agreement == "full"
    assert s.total >= 0.95


def test_renamed_paper_with_one_more_author_resolves_to_the_icml_record():
    icml = cand("Conformal Thinking: Risk Control for Reasoning on a Compute Budget", RENAMED_AUTHORS[:4] + ["Jiacheng Liu"] + RENAMED_AUTHORS[4:])
    s = score(mention(RENAMED_NOTES_TITLE, RENAMED_AUTHORS), icml)
    assert s.title_agreement == "partial"
    assert s.agrees and s.total >= ACCEPT


def test_decoy_sharing_the_subtitle_with_other_authors_is_rejected():
    decoy = cand("Thinking Fast: Risk Control for Reasoning on a Compute Budget",
                 ["Hannah Becker", "Tomas Novak", "Priya Raman"], source="crossref", venue=None, stage="published")
    s = score(mention(RENAMED_NOTES_TITLE, RENAMED_AUTHORS), decoy)
    assert not s.agrees


def test_partial_title_needs_venue_and_year_too():
    # Same authors, shared subtitle, but a 2024 workshop paper: not the ICML 2026 record.
    other = cand("Conformal Thinking: Risk Control for Reasoning on a Compute Budget", RENAMED_AUTHORS,
                 venue="NeurIPS 2024", year=2024, stage="workshop")
    assert not score(mention(RENAMED_NOTES_TITLE, RENAMED_AUTHORS), other).agrees


def test_same_title_different_authors_is_rejected_whatever_its_score():
    m = mention("Riemannian Dueling Optimization", ["Yuxuan Ren", "Abhishek Roy", "Shiqian Ma"])
    decoy = cand("Riemannian Dueling Optimization", ["Lena Hoffmann", "Marco Rossi"], source="crossref",
                 venue=None, stage="published")
    s = score(m, decoy)
    assert s.title_agreement == "full"
    assert not s.agrees
    assert "authors differ" in s.why


@pytest.mark.parametrize("other", [
    "Why Do We Need Warm-up? A Theoretical Perspective, Part II",
    "Erratum: Why Do We Need Warm-up? A Theoretical Perspective",
    "Correction to: Why Do We Need Warm-up? A Theoretical Perspective",
])
def test_part_two_and_errata_are_different_documents(other):
    authors = ["Foivos Alimisis", "Rustem Islamov", "Aurelien Lucchi"]
    s = score(mention("Why Do We Need Warm-up? A Theoretical Perspective", authors), cand(other, authors))
    assert s.title_agreement == "conflict"
    assert not s.agrees


def test_one_changed_word_is_a_different_title():
    level, sim = title_agreement("Flat Minima and Generalization: Insights from Stochastic Convex Optimization",
                                 "Sharp Minima and Generalization: Insights from Stochastic Nonconvex Optimization")
    assert sim > 0.9  # close as characters ...
    assert level == "none"  # ... but a different claim


def test_family_first_names_in_the_notes_match():
    notes = ["Philip Zmushko", "Egor Petrov", "Nursultan Abdullaev", "Khrushchev Mikhail", "Samuel Horváth"]
    found = [parse_name(n) for n in ["Philip Zmushko", "Egor Petrov", "Nursultan Abdullaev", "Mikhail Khrushchev", "Samuel Horvath"]]
    share, matched = author_overlap(notes, found)
    assert (share, matched) == (1.0, 5)
    assert author_overlap(["Liew Yee Zhing"], [parse_name("Yee Zhing Liew")]) == (1.0, 1)
    assert author_overlap(["Hu Yiwen"], [parse_name("Yiwen Hu")]) == (1.0, 1)


def test_initials_match_but_different_given_names_do_not():
    assert author_overlap(["B. M. Boyd"], [parse_name("Benjamin M. Boyd")]) == (1.0, 1)
    assert author_overlap(["Jian Li"], [parse_name("Ke Li")]) == (0.0, 0)


def test_missing_and_extra_authors_are_tolerated():
    notes = ["Tianjin Huang", "Zhangyang “Atlas” Wang", "Haotian Hu"]  # the notes list only the first three
    record = [parse_name(n) for n in ["Tianjin Huang", "Zhangyang Wang", "Haotian Hu", "Zhenyu Zhang", "Gaojie Jin",
                                      "Xiang Li", "Li Shen"]]
    share, matched = author_overlap(notes, record)
    assert matched == 3 and share == 1.0
    m = mention("GradientStabilizer: Fix the Norm, Not the Gradient", notes)
    assert score(m, Candidate(source="openreview", id="a", title="GradientStabilizer: Fix the Norm, Not the Gradient",
                              authors=record, year=2026, venue="ICML 2026")).agrees


def test_a_single_shared_surname_is_not_agreement():
    m = mention("Improved Convergence Analysis of Topology Dependence in Decentralized SGD",
                ["Yuki Takezawa", "Anastasiia Koloskova", "Sebastian Stich"])
    other = cand("Improved Convergence Analysis of Topology Dependence in Decentralized SGD",
                 ["Sebastian Stich", "Anna Weber", "Karl Meier"])
    assert not score(m, other).agrees


def test_math_in_titles_is_folded():
    notes = "On the Interaction of Batch Noise, Adaptivity, and Compression, under $(L_0,L_1)$-Smoothness: An SDE Approach"
    plain = "On the Interaction of Batch Noise, Adaptivity, and Compression, under (L0, L1)-Smoothness: An SDE Approach"
    assert title_similarity(notes, plain) == 1.0
    latex = r"OLion: Approaching the Hadamard Ideal by Intersecting Spectral and $\ell_\infty$ Implicit Biases"
    assert title_agreement("OLion: Approaching the Hadamard Ideal by Intersecting Spectral and L inf Implicit Biases",
                           latex)[0] == "full"


def test_case_accents_and_typos_are_folded():
    assert title_agreement("MODEL MERGING SCALING LAWS IN LARGE LANGUAGE MODELS",
                           "Model Merging Scaling Laws in Large Language Models")[0] == "full"
    assert title_agreement("An Embarrasingly Simple Way to Optimize Orthogonal Matrices at Scale",
                           "An Embarrassingly Simple Way to Optimize Orthogonal Matrices at Scale")[0] == "full"


def test_anonymous_submission_never_agrees_on_its_own():
    m = mention("LiMuon: Light and Fast Muon Optimizer for Large Models", ["Feihu Huang", "Yuning Luo", "Songcan Chen"])
    anon = cand("LiMuon: Light and Fast Muon Optimizer for Large Models", ["Anonymous"], venue="Submitted to ICLR 2026",
                stage="rejected")
    s = score(m, anon)
    assert not s.agrees and "hidden" in s.why


def test_title_without_authors_needs_a_near_exact_title():
    m = mention("Depth scaling and Muon enable balanced expert usage in MoE training", venue=None, year=None)
    assert score(m, cand("Depth Scaling and Muon Enable Balanced Expert Usage in MoE Training", ["Xi Wang"])).agrees
    assert not score(m, cand("Depth scaling and Adam enable balanced expert usage in MoE training", ["Xi Wang"])).agrees


ABSTRACT = ("Large models recently are widely applied in machine learning, so efficient training of large models has "
            "received widespread attention. We propose a light and fast Muon (LiMuon) optimizer for training large "
            "models, which builds on the momentum-based variance reduced technique and randomized Singular Value "
            "Decomposition (SVD).")


def test_abstract_mention_matches_on_its_text_and_method_names():
    m = mention(abstract=ABSTRACT, hints=["LiMuon"], venue=None, year=None)
    same = cand("LiMuon: Light and Fast Muon Optimizer for Large Models", ["Feihu Huang"],
                abstract=ABSTRACT.replace("(SVD).", "(SVD). ").replace("Muon", "{Muon}"))
    s = score(m, same)
    assert s.agrees and s.abstract >= 0.95
    different = cand("Spectral Muon", ["A B"], abstract="We study the spectral norm of Muon updates in deep networks "
                     "and propose a new step size rule for large models trained with momentum.")
    assert not score(m, different).agrees


def test_abstract_close_but_other_method_name_is_rejected():
    m = mention(abstract=ABSTRACT, hints=["LiMuon"], venue=None, year=None)
    renamed = cand("FastMuon", ["Feihu Huang"], abstract=ABSTRACT.replace("LiMuon", "FastMuon"))
    s = score(m, renamed)
    assert abstract_similarity(ABSTRACT, renamed.abstract) >= 0.85
    assert not s.agrees


def test_url_mention_with_authors_only_needs_every_author():
    m = mention(None, ["Rustem Islamov", "Michael Crawshaw", "Jeremy Cohen", "Robert Gower"])
    full = cand("Non-Euclidean Gradient Descent Operates at the Edge of Stability",
                ["Rustem Islamov", "Michael Crawshaw", "Jeremy Cohen", "Robert Gower"])
    partial = cand("An Exploration of Non-Euclidean Gradient Descent: Muon and its Many Variants",
                   ["Michael Crawshaw", "Chirag Modi", "Mingrui Liu", "Robert Gower"])
    assert score(m, full).agrees
    assert not score(m, partial).agrees


def test_a_preprint_server_is_not_a_venue_that_disagrees():
    m = mention("LoRDO: Distributed Low-Rank Optimization with Infrequent Communication",
                ["Andrej Jovanović", "Alex Iacob", "Mher Safaryan"])
    preprint = cand("LoRDO: Low-Rank Optimization with Infrequent Communication",
                    ["Andrej Jovanovic", "Alex Iacob", "Mher Safaryan"], source="arxiv", venue="arXiv", year=2025,
                    stage="preprint")
    s = score(m, preprint)
    assert s.venue is None and s.title_agreement == "partial" and s.agrees
