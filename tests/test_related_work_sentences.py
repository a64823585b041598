"""Each defect a reviewer would flag, triggered by a real abstract (arXiv / OpenReview / ICML pages).

The abstracts are quoted as their services serve them; each test checks the sentence
citekit writes stands on its own and that ``check_snippet`` would have caught the defect.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citekit.core.model import Entry
from citekit.output.related_check import MECHANICAL, check_snippet
from citekit.output.related_work import _Style, abstract_of, describe, related_work
from citekit.output.title_prose import title_clause, unbrace

LATEX = _Style("latex", "natbib", False)
MD = _Style("markdown", "natbib", False)

OLION = (r"Many optimizers can be interpreted as steepest-descent methods under norm-induced geometries, and thus "
         r"inherit corresponding implicit biases. We introduce \nameA{} (\fullname{}), which combines spectral control "
         r"from orthogonalized update directions with $\ell_\infty$-style coordinate control from sign updates. "
         r"\nameA{} forms a Lion-style momentum direction, approximately orthogonalizes it via a few Newton--Schulz "
         r"iterations, and then applies an entrywise sign.")
ISLAMOV = (r"The Edge of Stability (EoS) is a phenomenon where the sharpness (largest eigenvalue) of the Hessian "
           r"converges to $2/\eta$ during training with gradient descent (GD) with a step-size $\eta$. We provide an "
           r"interpretation of EoS through the lens of Directional Smoothness Mishkin et al. [2024]. This "
           r"interpretation naturally extends to non-Euclidean norms.")
ISLAMOV_V1 = ISLAMOV.replace("Mishkin et al. [2024]", "Mishkin et al. (2024)")
ADAGC = ("Loss spikes remain a persistent obstacle in large-scale language model pretraining. Regardless of the "
         "underlying cause, these spikes manifest as unstable optimizer updates, as abnormal gradients contaminate "
         "both first- and second-moment states. In this paper, we do not attempt to identify the precise root causes. "
         "Instead, we adopt a gradient-centric remedy and propose AdaGC, an adaptive, per-tensor gradient clipping "
         "scheme that prevents such contamination by bounding gradient norms relative to a tensor-wise EMA of their "
         "historical (clipped) values. AdaGC is optimizer-agnostic, requires negligible memory.")
QU = ("Muon has emerged as an efficient alternative to Adam for pretraining, yet remains underused for fine-tuning. "
      "A key obstacle is that most open models are pretrained with Adam, and naively switching to Muon for "
      "fine-tuning leads to degraded performance due to an optimizer mismatch. We study this mismatch through "
      "controlled experiments and relate it to the distinct implicit biases of Adam and Muon. We provide evidence "
      "that fine-tuning with a mismatched optimizer disrupts pretrained knowledge, and show that constraining "
      "updates with Low-Rank Adaptation (LoRA) mitigates this issue.")
CRAWSHAW = ("To define a steepest descent method over a neural network, we need to choose a norm for each layer. "
            "Through a comprehensive experimental evaluation of the optimizers within our framework, we find that "
            "Muon is sensitive to the choice of learning rate, whereas a new variant we call MuonMax is significantly "
            "more robust. We then show how to combine any non-Euclidean gradient method with model based momentum "
            "(known as Momo).")
ZMUSHKO = ("Modern large-scale LLM pretraining benefits from utilizing Pipeline Parallelism. We provide the first "
           "comprehensive analysis showing that while AdamW indeed suffers from severe degradation, recent methods "
           "like Muon exhibit inherent robustness under a one step delay. We support this with theoretical analysis "
           "and introduce an optimizer-agnostic Error-Feedback mechanism to further mitigate delay effects.")
SHULGIN = ("We study a broad family of momentum *Linear Minimization Oracle* (LMO) methods that includes normalized "
           "SGD with momentum, sign-based (Adam-like) directions, and Muon (spectral) updates. We further identify a "
           "theoretical **optimal batch size** that minimizes total sample complexity.")
KOVALEV = ("Recently, jiang2026adaptive developed Leon, a practical variant of One-sided Shampoo (xie2025structured; "
           "an2025asgo) algorithm for online convex optimization. In this paper, we resolve this issue by proving "
           "certain stability properties of Leon's preconditioner.")
ADAGC_HF = ("Large Language Models (LLMs) face increasing loss spikes during scaling. We propose **AdaGC**, an "
            "adaptive gradient clipping framework that automatically adjusts local thresholds per parameter through "
            "exponential moving average of gradient norms.")


def paper(key: str, title: str, abstract: str, authors: str = "Doe, Jane and Roe, Rick") -> Entry:
    return Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["t"],
                 fields={"title": title, "author": authors, "year": "2026"})


def clean(entry: Entry) -> tuple[str, str]:
    latex, md = describe(entry, LATEX), describe(entry, MD)
    assert check_snippet(latex, "latex") == [], latex
    assert check_snippet(md, "markdown") == [], md
    return latex, md


def test_macro_for_the_method_becomes_its_name():
    latex, md = clean(paper("wang2026olion", r"{OLion}: Approaching the {Hadamard} Ideal by Intersecting Spectral "
                                             r"and $\ell_\infty$ Implicit Biases", OLION))
    assert latex.startswith(r"\citet{wang2026olion} introduce OLion, which combines spectral control")
    assert "fullname" not in latex and "nameA" not in md
    assert check_snippet(r"\citet{w} introduce \textbackslash{}nameA{} (\textbackslash{}fullname{}), which x.")


def test_macro_without_a_name_in_the_title_is_never_printed():
    latex, _ = clean(paper("w2026", "Approaching the Hadamard Ideal", OLION))
    assert "nameA" not in latex and latex.startswith(r"\citet{w2026} ")


@pytest.mark.parametrize("abstract", [ISLAMOV, ISLAMOV_V1])
def test_citations_copied_from_the_abstract_are_dropped(abstract):
    latex, _ = clean(paper("islamov2026non", "Non-Euclidean Gradient Descent Operates at the Edge of Stability",
                           abstract))
    # EoS is written out as the abstract defined it: the reader never sees "The Edge of Stability (EoS)"
    assert latex == (r"\citet{islamov2026non} provide an interpretation of Edge of Stability through the lens of "
                     r"Directional Smoothness.")
    assert check_snippet(r"\citet{i} provide it through Directional Smoothness Mishkin et al. [2024].")


def test_numeric_and_parenthetical_citations_and_pasted_keys():
    numeric = paper("a2026", "A", "Sign methods are popular [3, 7]. We propose SignX, a sign-based method that "
                                  "extends Lion [12] and signSGD (Bernstein et al., 2018) to large batches.")
    latex, _ = clean(numeric)
    assert latex == r"\citet{a2026} propose SignX, a sign-based method that extends Lion and signSGD to large batches."
    keys = paper("kovalev2026optimal", "Optimal Projection-Free Adaptive {SGD} for Matrix Optimization", KOVALEV)
    latex, _ = clean(keys)
    assert "jiang2026adaptive" not in latex and "xie2025structured" not in latex
    assert check_snippet(r"\citet{k} show that Adam works (Kingma \& Ba, 2015) [12].")


def test_such_x_without_antecedent_takes_another_sentence():
    latex, _ = clean(paper("wang2026adagc", "{AdaGC}: Enhancing {LLM} Pretraining Stability via Adaptive Gradient "
                                            "Clipping", ADAGC))
    assert "such contamination" not in latex
    assert check_snippet(r"\citet{w} propose AdaGC, which prevents such contamination by bounding norms.")


def test_this_x_without_antecedent_takes_another_sentence():
    latex, _ = clean(paper("qu2026muon", "Can {Muon} Fine-tune {Adam}-Pretrained Models?", QU))
    assert "this mismatch" not in latex and "this issue" not in latex
    assert latex.startswith(r"\citet{qu2026muon} ")
    assert check_snippet(r"\citet{q} investigate this mismatch through controlled experiments.")


def test_connectives_to_unseen_sentences_go():
    latex, _ = clean(paper("crawshaw2026exploration", "An Exploration of Non-{Euclidean} Gradient Descent: {Muon} "
                                                      "and its Many Variants", CRAWSHAW))
    assert " then " not in latex
    latex, _ = clean(paper("zmushko2026onestep", "One-Step Gradient Delay is Not a Barrier", ZMUSHKO))
    assert "further" not in latex
    from citekit.output.sentences import clean_clause
    assert clean_clause("introduce an optimizer-agnostic Error-Feedback mechanism to further mitigate delay effects") \
        == "introduce an optimizer-agnostic Error-Feedback mechanism to mitigate delay effects"
    assert check_snippet(r"\citet{c} then show how to combine them.")
    assert check_snippet(r"Moreover, it works \citep{c}.")


def test_emphasis_becomes_emph_or_stars():
    latex, md = clean(paper("shulgin2026general", "General Analysis of {LMO-based} Optimizers: Beyond Bounded "
                                                  "Variance", SHULGIN))
    # "(LMO)" goes: the short clause never uses the acronym again
    assert r"\emph{Linear Minimization Oracle} methods" in latex and "(LMO)" not in latex
    assert "*Linear Minimization Oracle* methods" in md
    latex, md = clean(paper("wang2025adagc", "{AdaGC}: Improving Training Stability", ADAGC_HF))
    assert r"propose \emph{AdaGC}, an adaptive gradient clipping framework" in latex and "**" not in md
    html = paper("h2026", "H", "We propose <i>HTMLNet</i>, a network for <b>fast</b> parsing of pages.")
    latex, md = clean(html)
    assert r"\emph{HTMLNet}" in latex and "*HTMLNet*" in md and "<" not in md
    assert check_snippet(r"\citet{s} study momentum *Linear Minimization Oracle* methods.")
    assert check_snippet("@s propose \\<i\\>HTMLNet\\</i\\>, a net.", "markdown")


def test_first_person_becomes_third_person_grammatically():
    latex, _ = clean(paper("crawshaw2026exploration", "An Exploration of Non-{Euclidean} Gradient Descent: {Muon} "
                                                      "and its Many Variants", CRAWSHAW))
    assert latex == (r"\citet{crawshaw2026exploration} find that Muon is sensitive to the choice of learning rate, "
                     r"whereas a variant they call MuonMax is more robust.")
    latex, _ = clean(paper("c2026", "C", "Training is costly. We propose FastNet, and our method halves the cost of "
                                         "training we observed on our benchmarks."))
    # (the short clause ends before "they observed on their benchmarks")
    assert latex == r"\citet{c2026} propose FastNet, and their method halves the cost of training."
    single = paper("s2026", "S", "We propose FastNet, a faster network for vision.", authors="Solo, Han")
    assert describe(single, LATEX).startswith(r"\citet{s2026} proposes FastNet")
    assert check_snippet(r"\citet{c} show that our method works.")


def test_a_lowercase_note_is_never_the_sentence():
    e = Entry(key="l2026", entry_type="misc", summary="muon fine-tunes adam-pretrained models poorly; LoRA helps.",
              tags_auto=["t"], fields={"title": "L", "author": "Doe, J", "year": "2026"})
    assert "LoRA" not in describe(e, LATEX)
    assert check_snippet(r"muon fine-tunes models \citep{l2026}.")


TITLES = [
    ("Non-Euclidean Gradient Descent Operates at the Edge of Stability",
     "show that non-Euclidean gradient descent operates at the edge of stability"),
    ("{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
     "present LiMuon, a light and fast Muon optimizer for large models"),
    ("Can {Muon} Fine-tune {Adam}-Pretrained Models?", "ask whether Muon can fine-tune Adam-pretrained models"),
    ("Why Do We Need Warm-up? A Theoretical Perspective", "ask why one needs warm-up from a theoretical perspective"),
    ("Mitigating Staleness in Asynchronous Pipeline Parallelism via Basis Rotation",
     "mitigate staleness in asynchronous pipeline parallelism via basis rotation"),
    ("On the Role of Batch Size in Stochastic Conditional Gradient Methods",
     "study the role of batch size in stochastic conditional gradient methods"),
    ("A Geometry-Based View of {Mahalanobis} {OOD} Detection", "give a geometry-based view of Mahalanobis OOD detection"),
    ("{GradientStabilizer}: Fix the Norm, Not the Gradient", "present GradientStabilizer, which fixes the norm, not the gradient"),
    ("{MuLoCo}: {Muon} is a practical inner optimizer for {DiLoCo}",
     "present MuLoCo and show that Muon is a practical inner optimizer for DiLoCo"),
    ("Beyond Structural Symmetries: Linear Mode Connectivity via Neuron Identifiability",
     "study linear mode connectivity via neuron identifiability, beyond structural symmetries"),
    ("Towards Robust Sign Descent", "work towards robust sign descent"),
    ("Dual Quaternion Generalized Power Method for Pose Synchronization",
     "present a dual quaternion generalized power method for pose synchronization"),
]


@pytest.mark.parametrize("title, clause", TITLES)
def test_title_sentences_use_only_the_titles_words(title, clause):
    assert unbrace(title_clause(title, True, "")) == clause


def test_offline_snippet_reads_as_sentences_not_quoted_titles():
    entries = [Entry(key=f"k{i}2026x", entry_type="misc", tags_auto=["t"],
                     summary="日本語の要約。", fields={"title": t, "author": "Doe, J and Roe, R", "year": "2026"})
               for i, (t, _) in enumerate(TITLES)]
    for fmt in ("latex", "markdown"):
        out = related_work(entries, tags=["t"], fmt=fmt)
        # a paragraph whose titles share nothing true of all gets no opener, which the check names and the draft
        # does not; nothing else is flagged
        found = check_snippet(out, fmt)
        assert all(d.category == "no-topic-sentence" for d in found), found
        assert "no-topic-sentence" not in out, out
        assert "``" not in out and "includes" not in out


SCALE = ("Training large language models (LLMs) relies on adaptive optimizers such as Adam, which introduce extra "
         "operations and require significantly more memory to maintain first- and second-order moments than SGD. "
         "While recent works such as GaLore, Fira and APOLLO have proposed state-compressed memory-efficient variants, "
         "a fundamental question remains: What are the minimum modifications to plain SGD needed to match "
         "state-of-the-art pretraining performance? We systematically investigate this question using a bottom-up "
         "approach, and identify two simple yet highly (memory- and compute-) efficient techniques. It also "
         "consistently outperforms memory-efficient optimizers such as GaLore, Fira and APOLLO.")
SIGN_MOMENTUM = ("signSGD with momentum can achieve the same convergence rate using constant batch sizes without "
                 "additional assumptions.")


def test_question_anaphora_and_pronoun_sentences_are_not_used():
    latex, _ = clean(paper("han2025memory", "Memory-Efficient {LLM} Pretraining via Minimalist Optimizer Design",
                           SCALE))
    assert "this question" not in latex and " It " not in latex
    assert latex == r"\citet{han2025memory} study memory-efficient LLM pretraining via minimalist optimizer design."


def test_a_summary_starting_with_a_lowercase_name_is_not_capitalized_into_a_wrong_name():
    e = Entry(key="jiang2025improved", entry_type="misc", summary=SIGN_MOMENTUM, tags_auto=["t"],
              fields={"title": "Improved Analysis for Sign-based Methods with Momentum Updates",
                      "author": "Jiang, Wei and Yu, Dingzhi", "year": "2025"})
    latex = describe(e, LATEX)
    assert not latex.startswith(("signSGD", "SignSGD")) and check_snippet(latex) == []
    assert latex == r"\citet{jiang2025improved} give an improved analysis for sign-based methods with momentum updates."


CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def test_titles_of_the_corpora_give_sentences_a_reviewer_passes():
    """Every 15th title of the .bib files beside the repository, turned into a sentence: never an
    error, and at most 2% flagged (test titles, MathML and literal backslashes remain)."""
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is missing (the corpora beside the repository)")
    titles = []
    for path in sorted(CORPORA.rglob("*.bib")):
        text = path.read_text(encoding="utf-8", errors="replace")
        titles += re.findall(r"\btitle\s*=\s*[{\"](.*?)[}\"]\s*,?\s*\n", text)
    sample = titles[::15]
    assert len(sample) > 1000
    flagged = 0
    for title in sample:
        for style, fmt, cite in ((LATEX, "latex", r"\citet{k}"), (MD, "markdown", "@k")):
            sentence = f"{cite} {style.prose(unbrace(title_clause(title, True, '')))}."
            # a title-made sentence is a pasted title by design (the reader's flags, READER); only
            # defects in how the text was copied count here
            flagged += any(d.category in MECHANICAL for d in check_snippet(sentence, fmt))
    assert flagged <= 0.02 * 2 * len(sample), flagged


# ---------------------------------------------------------------------------------------
# Picking the contribution and making it stand alone, on real abstracts nobody on the team
# wrote or tuned on: held-out entries of the Papers3 -> Zotero HCI library that Better
# BibTeX exports in its test fixtures (see bench/sentences_data.py), quoted as exported.
# ---------------------------------------------------------------------------------------

VOGEL = ("We explore the design space of freehand pointing and clicking interaction with very large high resolution "
         "displays from a distance. Three techniques for gestural pointing and two for clicking are developed and "
         "evaluated. In addition, we present subtle auditory and visual feedback techniques to compensate for the lack "
         "of kinesthetic feedback in freehand interaction, and to promote learning and use of appropriate postures.")
RICHE = ("The recent emphasis on sustainability has made consumers more aware of their responsibility for saving "
         "resources, in particular, electricity. Consumers can better understand how to save electricity by gaining "
         "awareness of their consumption beyond the typical monthly bill. We conducted a study to understand consumers "
         "awareness of energy consumption in the home and to determine their requirements for an interactive, "
         "always-on interface for exploring data to gain awareness of home energy consumption. In this paper, we "
         "describe a three-stage approach to supporting electricity conservation routines: raise awareness, inform "
         "complex changes, and maintain sustainable routines. We then present the findings from our study to support "
         "design implications for energy consumption feedback interfaces.")
KEOGH = ("The problem of indexing time series has attracted much research interest in the database community. Most "
         "algorithms used to index time series utilize the Euclidean distance or some variation thereof. However is "
         "has been forcefully shown that the Euclidean distance is a very brittle distance measure. Dynamic Time "
         "Warping (DTW) is a much more robust distance measure for time series, allowing similar shapes to match even "
         "if they are out of phase in the time axis. Because of this flexibility, DTW is widely used in science, "
         "medicine, industry and finance. Unfortunately however, DTW does not obey the triangular inequality, and thus "
         "has resisted attempts at exact indexing. Instead, many researchers have introduced approximate indexing "
         "techniques, or abandoned the idea of indexing and concentrated on speeding up sequential search. In this "
         "work we introduce a novel technique for the exact indexing of DTW.")
ZHENG = ("Geographic information has spawned many novel Web applications where global positioning system (GPS) plays "
         "important roles in bridging the applications and end users. Learning knowledge from users raw GPS data can "
         "provide rich context information for both geographic and mobile applications. However, so far, raw GPS data "
         "are still used directly without much understanding. In this paper, an approach based on supervised learning "
         "is proposed to automatically infer transportation mode from raw GPS data. We evaluated the approach using "
         "the GPS data collected by 45 users over six months period.")


def test_the_main_claim_is_chosen_not_a_side_result():
    """"In addition, we present ... feedback techniques" and "We then present the findings" are side results."""
    vogel = describe(paper("vogel2005distant", "Distant Freehand Pointing and Clicking on Very Large, High "
                                               "Resolution Displays", VOGEL), LATEX)
    assert vogel.startswith(r"\citet{vogel2005distant} explore the design space of freehand pointing"), vogel
    riche = describe(paper("riche2010studying", "Studying Always-On Electricity Feedback in the Home", RICHE), LATEX)
    # "describe a ..." says the paper presents it: the plainer verb, the abstract's words
    assert riche.startswith(r"\citet{riche2010studying} present a three-stage approach to supporting electricity"), riche


def test_a_claim_in_the_passive_is_read_and_the_evaluation_is_not_taken_for_it():
    """"an approach ... is proposed" is the paper's claim; "We evaluated the approach" leans on it."""
    out = describe(paper("zheng2008learning", "Learning Transportation Mode from Raw GPS Data", ZHENG), LATEX)
    # "based on supervised learning" says how it is built: the short clause keeps what it does
    assert out == (r"\citet{zheng2008learning} propose an approach to automatically "
                   r"infer transportation mode from raw GPS data."), out


def test_an_acronym_is_written_out_as_the_abstract_defined_it():
    latex, md = clean(paper("keogh2005exact", "Exact Indexing of Dynamic Time Warping", KEOGH))
    assert latex == r"\citet{keogh2005exact} introduce a technique for the exact indexing of Dynamic Time Warping."
    assert "DTW" not in md


def test_a_definite_reference_is_rebuilt_from_the_sentence_it_points_to():
    """"We study the mismatch" after "... due to an optimizer mismatch": the words the abstract gave it."""
    abstract = ("Muon is rarely used for fine-tuning. Naively switching to Muon leads to degraded performance due to an "
                "optimizer mismatch. We study the mismatch through controlled experiments on eight models.")
    latex, _ = clean(paper("qu2026muon", "Can Muon Fine-tune Adam-Pretrained Models?", abstract))
    assert latex == (r"\citet{qu2026muon} study the optimizer mismatch through controlled experiments on eight "
                     r"models."), latex


def test_unrelated_papers_are_never_joined_and_the_check_flags_a_join():
    a = paper("vogel2005distant", "Distant Freehand Pointing", VOGEL)
    b = paper("keogh2005exact", "Exact Indexing of Dynamic Time Warping", KEOGH)
    out = related_work([a, b], tags=["t"])
    assert "; \\citet" not in out and not [d for d in check_snippet(out, "latex") if d.category == "unrelated-join"]
    joined = (r"\citet{a} explore freehand pointing on large displays; \citet{b} introduce exact indexing of "
              r"time series.")
    assert [d.category for d in check_snippet(joined, "latex")] == ["unrelated-join"]


@pytest.mark.parametrize(("sentence", "category"), [
    (r"\citet{k} study the mismatch through controlled experiments.", "definite-reference"),
    (r"\citet{k} reinterpret ZO Hessian approximation through policy optimization.", "acronym"),
    (r"\citet{k} conducted a field trial with 28 participants.", "no-claim"),
    (r"\citet{k} study delving into Muon and beyond, with deep analysis and extensions.", "pasted-title"),
    (r"\citet{k} introduce the first exact index, their techniques involve search pruning.", "run-on"),
])
def test_the_check_flags_what_a_reader_flags(sentence, category):
    titles = ["Delving into Muon and Beyond: Deep Analysis and Extensions"]
    assert category in [d.category for d in check_snippet(sentence, "latex", titles)]
    md = sentence.replace(r"\citet{k}", "@k")
    assert category in [d.category for d in check_snippet(md, "markdown", titles)]


def test_the_check_passes_what_a_reader_keeps():
    kept = (r"\citet{k} study the optimizer mismatch through controlled experiments. \citet{j} propose a "
            r"zeroth-order (ZO) Hessian estimator that reuses ZO queries. \citet{m} propose AdaGC, an adaptive "
            r"gradient clipping scheme; \citet{n} propose AdaClip, an adaptive gradient clipping scheme for LLMs.")
    assert check_snippet(kept, "latex", ["Delving into Muon and Beyond: Deep Analysis and Extensions"]) == []


def test_related_work_check_through_the_cli_lists_reader_flags(tmp_path):
    """`related-work --check` reads the cited titles too: a title pasted as a sentence is flagged in an author's
    draft; related-work itself writes no such sentence for a paper known by its title only ("delve into Muon and
    beyond, with deep analysis and extensions": the title's gerund made the authors' verb, the subtitle tacked on)."""
    from click.testing import CliRunner

    from citekit.cli import main
    from citekit.library.store import Library

    lib = Library.load(tmp_path / "refs")
    lib.add(paper("keogh2005exact", "Exact Indexing of Dynamic Time Warping", KEOGH))
    lib.add(Entry(key="smith2026delving", entry_type="inproceedings", tags_auto=["t"],
                  fields={"title": "Delving into Muon and Beyond: Deep Analysis and Extensions",
                          "author": "Smith, Ann and Lee, Bo", "year": "2026"}))
    lib.save()
    res = CliRunner().invoke(main, ["--project", str(tmp_path), "related-work", "--tag", "t", "--check"])
    assert res.exit_code == 1, res.output
    flags = [line for line in res.output.splitlines() if line.startswith("check: line")]
    # two papers that share no phrase: the paragraph has no topic sentence, and the check says so (the draft does not)
    assert any("no-topic-sentence" in f for f in flags), res.output
    # the draft moves aside what a reader certainly marks (the gerund made the verb, a subtitle tacked on); the title
    # said in other words may still be what the learned reading marks, and the check then says so
    assert all("smith2026delving" in f and not {"wrong-verb", "subtitle"} & set(re.findall(r"[\w-]+", f))
               for f in flags if "no-topic-sentence" not in f), res.output
    assert "delve" not in res.output and "no-topic-sentence:" not in res.output.split("check:")[0], res.output
    draft = tmp_path / "draft.tex"
    draft.write_text("\\citet{smith2026delving} delve into Muon and beyond, with deep analysis and extensions.\n")
    res = CliRunner().invoke(main, ["--project", str(tmp_path), "related-work", "--check-file", str(draft)])
    flags = [line for line in res.output.splitlines() if line.startswith("check: line")]
    assert flags and all("smith2026delving" in f for f in flags) and any("pasted-title" in f for f in flags), \
        res.output


def test_this_mismatch_gets_the_words_the_abstract_gave_it():
    """The issue's example: "We study this mismatch" after "... due to an optimizer mismatch"."""
    latex, md = clean(paper("qu2026muon", "Can {Muon} Fine-tune {Adam}-Pretrained Models?", QU))
    assert latex.startswith(r"\citet{qu2026muon} study the optimizer mismatch through controlled experiments"), latex
    # "a fundamental question remains: ..." gives "this question" no words that say what it asks
    assert "fundamental question" not in describe(paper("han2025memory", "Memory-Efficient {LLM} Pretraining via "
                                                                          "Minimalist Optimizer Design", SCALE), LATEX)


def test_the_one_step_delay_paper_is_described_by_its_finding_not_its_add_on():
    """Issue 25: the sentence "never mentions the optimizer or the delay" (it took the error-feedback add-on)."""
    latex, _ = clean(paper("zmushko2026delay", "Is One Step Delay Enough? Muon under Pipeline Parallelism", ZMUSHKO))
    assert "Muon" in latex and "one step delay" in latex and "Error-Feedback" not in latex, latex


def test_any_verb_after_we_keeps_its_tense_and_agrees_with_the_authors():
    """"We created Deep Shot" is said in the present like the other sentences ("Doe creates"); "We have developed"
    agrees ("Doe has developed"); "We embed" is present."""
    one = "Doe, Jane"
    created = describe(paper("chang2011deep", "Deep Shot", "Users move between devices. To address this problem, we "
                             "created Deep Shot, a framework for capturing the users work state. It works.", one), LATEX)
    assert created.startswith(r"\citet{chang2011deep} creates Deep Shot, a framework"), created
    developed = describe(paper("brown2012viztouch", "VizTouch", "Plots are visual. We have developed software that "
                               "generates tactile visualizations of plots. It helps.", one), LATEX)
    assert developed.startswith(r"\citet{brown2012viztouch} has developed software that generates"), developed
    embed = describe(paper("x2020graphs", "Graphs", "Graphs matter a lot. We embed graphs into hyperbolic space with "
                           "low distortion. Results are good.", one), LATEX)
    assert embed.startswith(r"\citet{x2020graphs} embeds graphs into hyperbolic space"), embed


@pytest.mark.parametrize("title, clause", [
    # a coined one-word name before a colon is presented, with its capital
    ("Easigami: Virtual Creation by Physical Folding", "present Easigami, virtual creation by physical folding"),
    # "that Fit" is a relative clause, not the title's claim
    ("Fitter: A System for Easily Printing Objects that Fit Real Objects",
     "present Fitter, a system for easily printing objects that fit real objects"),
    # a gerund alone is the topic: never "Wilson volunteers."
    ("Volunteering", "study volunteering"),
    # case-protected gerunds are gerunds: never "which identifyings"
    ("3D Printing in Classrooms: {Identifying} a Hierarchy of Activities",
     "study 3D printing in classrooms for identifying a hierarchy of activities"),
    ("ReLoop: Fix the Norm, Not the Gradient", "present ReLoop, which fixes the norm, not the gradient"),
    # a topic word before the colon is not a name
    # never "study X, with Y": the subtitle's findings are reported on the topic
    ("Interaction: Findings from a National Survey", "report findings from a national survey on interaction"),
    # an exporter that braces every capitalized word (Better BibTeX) says nothing about names:
    # ordinary words are lowered, a name the corpora never write in lower case keeps its capital
    ("{{Deep Residual Learning}} for {{Image Recognition}}", "study deep residual learning for image recognition"),
    ("{{Collaborative Editing}} on {{Wikipedia}}", "study collaborative editing on Wikipedia"),
    # ... while braces around a few words do: they are the author's names
    ("{Bayesian} Optimization in {Hilbert} Spaces", "study Bayesian optimization in Hilbert spaces"),
    # a slogan before the colon says nothing its subtitle does not
    ("{{Less Is More}}: {{Recursive Reasoning}} with {{Tiny Networks}}", "study recursive reasoning with tiny networks"),
    # a gerund's verb keeps its e ("Combining" -> "combine"); a subtitle that only names the kind of work gives the verb
    ("Combining Vision and Language", "combine vision and language"),
    ("Graph Neural Networks: A Survey", "survey graph neural networks"),
])
def test_title_sentences_read_as_english(title: str, clause: str) -> None:
    assert unbrace(title_clause(title, plural=True)) == clause


@pytest.mark.parametrize("sentence, title, abstract, category", [
    ("@a present Virtual Volunteering, Current Status and Future Prospects.",
     "Virtual Volunteering: Current Status and Future Prospects", "", "pasted-title"),
    ("@a present MobiSweep, which exploring spatial design ideation with a phone.",
     "MobiSweep: Exploring Spatial Design Ideation", "", "grammar"),
    ("@a present KidCAD, digitally remixing toys through tangible tools.",
     "KidCAD: Digitally Remixing Toys Through Tangible Tools", "", "grammar"),
    ("@a volunteers.", "Volunteering", "", "no-claim"),
])
def test_the_check_flags_what_a_blind_reader_marked(sentence: str, title: str, abstract: str, category: str) -> None:
    """Sentences a reader who saw only the drafts and the records marked (tests/data/related_work/blind_hci)."""
    assert category in [d.category for d in check_snippet(sentence, "markdown", [title], [abstract])]


@pytest.mark.parametrize("sentence, title, abstract", [
    ("@a study design thinking for digital fabrication in education.",
     "Design Thinking for Digital Fabrication in Education", ""),
    # a name the abstract itself capitalizes is a name, not title case
    ("@a introduce a technique for the exact indexing of Dynamic Time Warping.",
     "Exact Indexing of Dynamic Time Warping", "Distance under Dynamic Time Warping is costly; we index it."),
    ("@a introduce design from imperfect examples, in which existing objects are scanned.",
     "Design from Imperfect Examples", ""),
])
def test_the_check_leaves_what_a_blind_reader_kept(sentence: str, title: str, abstract: str) -> None:
    assert check_snippet(sentence, "markdown", [title], [abstract]) == []


def test_an_abstract_copied_from_a_pdf_is_mended_not_quoted_broken() -> None:
    """Line-end hyphens are joined when the joined word is a real one; a last sentence cut
    off mid-word is never the one quoted."""
    broken = describe(paper("kim2007gesture", "The Gesture Watch", "Wearable devices lack input. We introduce "
                            "the Gesture Watch, a mobile wireless de- vice worn on the wrist that allows hand "
                            "gesture con- trol of two- and three-dimensional displays. It was tested."), MD)
    # the short clause keeps what the device is; the rest of the abstract is mended too
    assert "the Gesture Watch, a mobile wireless device worn on the wrist." in broken and "de- vice" not in broken, broken
    mended = abstract_of(paper("kim2007gesture", "The Gesture Watch", "We introduce a de- vice for hand gesture con- "
                               "trol of two- and three-dimensional displays."))
    assert "gesture control" in mended and "two- and three-dimensional" in mended, mended
    cut = describe(paper("turner2013eye", "Eye Pull, Eye Push", "Gaze is fast. We present Eye Pull, Eye Push, "
                         "a novel interaction concept for c"), MD)
    assert "for c." not in cut and "concept for c" not in cut, cut


#: made-up records whose abstract says what the paper set out to do only as its aim: the sentence says that, not the
#: title pasted after "study"
AIMS = [
    ("Tutors and Flashcards in Word Learning",
     "Adults find it hard to learn the words of a second language. The aim of this study was to compare how quickly "
     "adults learn sign vocabulary from a tutor versus from printed flashcards.",
     "compare how quickly adults learn sign vocabulary from a tutor versus from printed flashcards"),
    ("Charts for Blind Readers",
     "Blind readers cannot see line charts on a screen. Our approach is to use spatial audio and vibration to let "
     "blind readers follow the trend of a line chart.",
     "use spatial audio and vibration to let blind readers follow the trend of a line chart"),
    ("Printed Heart Models in Anatomy Teaching",
     "Teaching heart anatomy relies on drawings. This study sought to assess whether printed heart models help "
     "students name the chambers of the heart.",
     "assess whether printed heart models help students name the chambers of the heart"),
]


@pytest.mark.parametrize(("title", "abstract", "wanted"), AIMS)
def test_a_paper_stated_by_its_aim_is_described_by_it_not_by_its_title(title: str, abstract: str, wanted: str) -> None:
    text = related_work([paper("Doe2026", title, abstract)], fmt="markdown")
    assert wanted in text, text
    assert title.lower() not in text.lower()


def test_an_abstract_that_says_what_the_paper_did_wins_over_its_aim() -> None:
    abstract = ("Blind readers cannot see line charts on a screen. Our approach is to use sound to convey charts. "
                "We present ChartTone, a browser extension that plays a line chart as a rising and falling tone.")
    text = related_work([paper("Doe2026", "ChartTone: Charts for Blind Readers", abstract)], fmt="markdown")
    assert "browser extension that plays a line chart" in text, text
    assert "use sound to convey charts" not in text


def test_a_structured_abstract_gives_its_method_not_the_title() -> None:
    abstract = ("Background: Flaky tests waste the time of developers who rerun them to see whether a failure is real. "
                "Aims: In this paper, we propose ranking flaky tests by their failure history to decide which failures "
                "to rerun first. Results: Ranking saves reruns on four open-source projects.")
    text = related_work([paper("Doe2026", "Flaky Test Reruns in Continuous Integration", abstract)], fmt="markdown")
    assert "ranking flaky tests by their failure history" in text, text
    assert "flaky test reruns in continuous integration" not in text.lower()


EXPORTER_CAPITALS = [
    ("{{Tilt Boards}}: {{A}} Toolkit for Tangible Tilting", "Tilt Boards, a toolkit for tangible tilting"),
    ("Sensor-{{Based Posture Tracking}}", "sensor-based posture tracking"),
    ("PadPrint: {{Resistive}} and Capacitive Pads for Printed Objects", "PadPrint, resistive and capacitive pads"),
]


@pytest.mark.parametrize(("title", "wanted"), EXPORTER_CAPITALS)
def test_a_capital_an_exporter_braced_after_a_colon_or_hyphen_is_lowered_in_prose(title: str, wanted: str) -> None:
    entry = paper("Doe2026", title, "Tables are common in offices and homes, and many of them are tilted.")
    text = describe(entry, MD)
    assert wanted in text, text


def test_a_name_braced_after_a_colon_keeps_its_capital() -> None:
    entry = paper("Doe2026", "{{Tilt Boards}}: {{Kinect}} Tracking for Tangible Tilting",
                  "Tables are common in offices and homes. We track how they tilt with a Kinect camera.")
    assert "Kinect" in describe(entry, MD)


def test_a_paper_that_says_in_this_work_we_use_x_is_described_by_that_use() -> None:
    abstract = ("Cameras in kitchens are costly to install. Kitchens offer a signal that is unique to each cupboard: "
                "magnetic hum. In this work, we use the forearm as a receiving coil and leverage this hum for "
                "gestural input. We close by discussing opportunities and future work.")
    text = describe(paper("Doe2026", "Your Hum Is My Command", abstract), MD)
    assert "use the forearm as a receiving coil" in text, text
    assert "the magnetic hum" in text and "this hum" not in text, text


def test_a_state_of_the_art_report_is_said_to_survey_its_field() -> None:
    entry = paper("Doe2026", "State of the Art in Methods for Knitting-Aware Design",
                  "Knitting machines are common in small workshops, and many designers use them.")
    text = describe(entry, MD)
    assert "survey methods for knitting-aware design" in text, text
    assert "state of the art" not in text


def test_a_seminar_report_is_said_to_report_on_its_topic_not_to_study_it() -> None:
    entry = paper("Doe2026", "Computational Aspects of Knitting",
                  "Report from the Winter Seminar 2031 Computational Aspects of Knitting, edited by Jane Doe and "
                  "Rick Roe.")
    text = describe(entry, MD)
    assert "report on computational aspects of knitting" in text, text


def test_an_undefined_acronym_in_a_list_of_names_keeps_the_list() -> None:
    abstract = ("Small sensor nodes sleep most of the time. We provide experimental data comparing the power "
                "consumption of Bluetooth Low Energy (BLE), ZigBee and ANT radios for a cyclic sleep scenario, in "
                "which a node wakes up to send one packet.")
    text = describe(paper("Doe2026", "Radio Power in Sleepy Sensor Nodes", abstract), MD)
    assert "Bluetooth Low Energy, ZigBee and ANT radios" in text, text


def test_a_thing_named_after_namely_is_said_by_its_name() -> None:
    abstract = ("Paper pads are everywhere. In this paper, we describe the novel implementation of a tangible "
                "drawing framework, namely the InkSlate, inspired by the concept of projected light.")
    text = describe(paper("Doe2026", "A Tangible Drawing Framework", abstract), MD)
    assert "InkSlate, a tangible drawing framework" in text, text
