"""Each paper's sentence in the co-author's words: the contribution said short, from the abstract's parts.

Readers flag an abstract sentence copied whole (20-30 words word for word) and a title
pasted into "study <title>" when the record has an abstract. These tests go through
:func:`describe`, as ``related-work`` does.
"""

from __future__ import annotations

import re

import pytest

from citekit.core.model import Entry
from citekit.output.related_check import check_snippet
from citekit.output.related_work import _Style, describe

LATEX = _Style("latex", "natbib", False)
MD = _Style("markdown", "natbib", False)

ILOVESKETCH = ("Designers sketch curves on paper before they model them. In this paper we present ILoveSketch, a 3D "
               "curve sketching system that captures some of the affordances of pen and paper for professional "
               "designers, allowing them to iterate directly on concept 3D curve models. The system was evaluated "
               "by two designers over several weeks.")


def paper(key: str, title: str, abstract: str) -> Entry:
    return Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["t"],
                 fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2026"})


def longest_copied_run(sentence: str, abstract: str) -> int:
    a = re.findall(r"[a-z0-9]+", re.sub(r"\\citet\{[^}]*\}|@\S+", " ", sentence).lower())
    b = re.findall(r"[a-z0-9]+", abstract.lower())
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            best = max(best, k)
    return best


def test_a_system_is_said_by_its_name_what_it_is_and_for_whom():
    """The issue's example: the relative clause and the side clause go, "for professional designers" stays."""
    out = describe(paper("bae2008ilovesketch", "ILoveSketch: As-natural-as-possible sketching system for creating "
                                               "3D curve models", ILOVESKETCH), LATEX)
    assert out == (r"\citet{bae2008ilovesketch} present ILoveSketch, a 3D curve sketching system for professional "
                   r"designers."), out
    assert longest_copied_run(out, ILOVESKETCH) <= 8
    assert check_snippet(out, "latex") == []


def test_hedges_parentheticals_and_evaluation_detail_go():
    abstract = ("Retrieval is slow. We propose FastRet, a novel retrieval method (see Section 3) that indexes "
                "documents by their summaries, which significantly reduces latency on five benchmarks by up to 40%.")
    out = describe(paper("x2026fastret", "FastRet: Fast Retrieval", abstract), MD)
    assert out == "@x2026fastret propose FastRet, a retrieval method that indexes documents by their summaries.", out
    assert "novel" not in out and "Section" not in out and "40" not in out


def test_an_analysis_showing_a_finding_is_said_as_the_finding():
    abstract = ("Pipelines delay gradients. We provide the first comprehensive analysis showing that while AdamW "
                "suffers from severe degradation, recent methods like Muon exhibit inherent robustness under a one "
                "step delay.")
    out = describe(paper("z2026delay", "Is One Step Delay Enough?", abstract), LATEX)
    assert out == (r"\citet{z2026delay} show that recent methods like Muon exhibit inherent robustness under a one "
                   r"step delay."), out


def test_a_finding_keeps_both_halves_of_a_contrast():
    abstract = ("Optimizers vary. We find that Muon is sensitive to the choice of learning rate, whereas a new "
                "variant we call MuonMax is significantly more robust.")
    out = describe(paper("c2026muon", "An Exploration of Muon", abstract), LATEX)
    assert "whereas a variant they call MuonMax is more robust" in out, out


def test_an_overlong_clause_ends_before_a_trailing_phrase_never_mid_phrase():
    abstract = ("Tests are costly. We present a technique that improves random test generation by incorporating "
                "feedback obtained from executing test inputs as they are created in large software systems.")
    out = describe(paper("p2007feedback", "Feedback-Directed Random Test Generation", abstract), MD)
    assert out == ("@p2007feedback propose a technique that improves random test generation by incorporating "
                   "feedback."), out


def test_a_coined_name_in_parentheses_leads():
    abstract = ("Large models are costly to train. We propose a light and fast Muon (LiMuon) optimizer for training "
                "large models, which builds on momentum.")
    out = describe(paper("h2026limuon", "Light and Fast Muon", abstract), LATEX)
    assert out == r"\citet{h2026limuon} propose LiMuon, a light and fast Muon optimizer for training large models.", out


def test_a_passive_claim_is_read_from_the_abstract_not_the_title():
    """Physics abstracts write the claim in the passive; the title would give "study <title>"."""
    abstract = ("Cuprous oxide is a semiconductor. The absorption spectra of thin samples of silver-doped Cu2O have "
                "been studied at 4.2 K and 77 K. A shift of both series towards lower energies is observed.")
    out = describe(paper("s1964etude", "Etude des series excitoniques jaune et verte", abstract), MD)
    assert out.startswith("@s1964etude study the absorption spectra of thin samples of silver-doped Cu2O"), out
    # "... were characterized by X-ray diffraction" says with which instrument, not what was studied
    method = ("Films were grown by sputtering. The films were characterized by X-ray diffraction and electron "
              "microscopy.")
    out = describe(paper("p2003films", "Stability of Copper Oxide Films", method), MD)
    assert "X-ray" not in out, out


def test_a_named_system_is_what_the_abstract_says_it_is():
    abstract = ("StartleCam is a wearable video camera, computer, and sensing system, which enables the camera to "
                "be controlled via both conscious and preconscious events. Traditionally, a wearer hits record.")
    out = describe(paper("h1998startlecam", "StartleCam: A Cybernetic Wearable Camera", abstract), MD)
    assert out.startswith("@h1998startlecam present StartleCam, a wearable video camera"), out
    assert "which enables" not in out
    # someone else's system named in the abstract is never taken for the paper's
    other = describe(paper("d2020other", "OtherCam: A Camera", abstract), MD)
    assert "StartleCam" not in other, other


def test_nothing_is_added_that_the_abstract_does_not_say():
    """Every word after the verb is the abstract's, in its order (only "a"/"an" may change)."""
    for key, title, abstract in (("bae2008ilovesketch", "ILoveSketch", ILOVESKETCH),):
        out = describe(paper(key, title, abstract), MD)
        words = [w for w in re.findall(r"[\w\-]+", out.split(" ", 2)[2].lower()) if w not in {"a", "an"}]
        source = iter(re.findall(r"[\w\-]+", abstract.lower()))
        assert all(any(w == s for s in source) for w in words), out


def test_a_title_alone_reads_as_a_description_never_study_x_with_y():
    """Readers flagged "study design thinking, with engineering education" and "study the vocal joystick:, with ..."."""
    cases = {
        "Design Thinking: Engineering Education": "study design thinking and engineering education",
        "RP vs Workshop: How Modelling Methods Affect Early Design Development":
            "study how modelling methods affect early design development",
        "The Vocal Joystick:: Evaluation of Voice-Based Cursor Control Techniques":
            "evaluate voice-based cursor control techniques",
        "Forget-Me-Not: Intimate Computing in Support of Human Memory":
            "study intimate computing in support of human memory",
        "Everything You Know about Dynamic Time Warping Is Wrong":
            "show that everything you know about dynamic time warping is wrong",
        "Achieving Ubiquity: The New Third Wave": "achieve ubiquity, the new third wave",
        # the main part names what was studied or says what was done: it stays, the subtitle in parentheses
        "Lions and Muons: Optimization via Stochastic Frank-Wolfe":
            "study Lions and Muons (optimization via stochastic Frank-Wolfe)",
        "An Exploration of Non-Euclidean Gradient Descent: Muon and its Many Variants":
            "explore non-Euclidean gradient descent (Muon and its many variants)",
        "How Analysis Can Hinder Source Code Manipulation": "show how analysis can hinder source code manipulation",
    }
    for title, clause in cases.items():
        out = describe(Entry(key="k2020", entry_type="article", tags_auto=["t"],
                             fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2020"}), MD)
        assert out == f"@k2020 {clause}.", (title, out)
        assert ", with " not in out and ":" not in out


def test_a_list_is_never_cut_mid_item_and_a_fronted_phrase_goes():
    tools = ("Bugs are hard to reproduce. We present Timelapse, a tool for quickly recording, reproducing, and "
             "debugging interactive behaviors in web applications that run in browsers today.")
    out = describe(paper("b2013timelapse", "Timelapse: Recording Web Behaviors", tools), MD)
    assert "recording, reproducing, and debugging interactive behaviors" in out, out
    finding = ("Control flow matters. We show that, for the subjects considered, complex implicit control flow is "
               "always present and is generally not adequately exercised.")
    out = describe(paper("s2004flow", "Implicit Control Flow", finding), MD)
    assert out.startswith("@s2004flow show that complex implicit control flow is always present"), out


def test_an_action_named_by_a_noun_is_said_by_its_verb_and_a_needed_complement_stays():
    """"provide a detailed description of X" -> "describe X"; "converting X | into Y" is never cut at "into"."""
    simplify = ("Theorem provers check programs. This paper provides a detailed description of the automatic theorem "
                "prover Simplify, which is the proof engine of the Extended Static Checkers.")
    out = describe(paper("d2003simplify", "Simplify: A Theorem Prover for Program Checking", simplify), MD)
    assert out == "@d2003simplify describe the automatic theorem prover Simplify.", out
    layers = ("Displays are flat. We present a method for automatically converting a digital 3D model into a multilayer "
              "model: a parallel stack of high-resolution 2D images embedded within a semi-transparent medium.")
    out = describe(paper("h2011layers", "Computing and Fabricating Multilayer Models", layers), MD)
    assert out.endswith("converting a digital 3D model into a multilayer model."), out


def test_the_titles_lead_word_names_the_thing_the_abstract_says_it_is():
    abstract = ("Stitching is a new interaction technique that allows users to combine pen-operated mobile devices "
                "with wireless networking by using pen gestures that span multiple displays. To stitch, a user moves.")
    out = describe(paper("h2004stitching", "Stitching: Pen Gestures That Span Multiple Displays", abstract), MD)
    assert out.startswith("@h2004stitching propose Stitching, an interaction technique"), out
    assert "combine pen-operated mobile devices with wireless networking" in out, out


def test_a_single_authors_i_is_read_as_the_claim_in_the_third_person():
    abstract = ("Critics read differently. In this article I argue that critical reading has replaced formal "
                "appreciation as a marker of cultural privilege in my field.")
    entry = Entry(key="h2020critical", entry_type="article", abstract=abstract, tags_auto=["t"],
                  fields={"title": "Critical Capital", "author": "Holm, Nicholas", "year": "2020"})
    out = describe(entry, MD)
    assert out.startswith("@h2020critical argues that critical reading has replaced formal appreciation"), out
    assert not re.search(r"\b(?:I|my)\b", out), out


def test_a_verbs_that_clause_is_never_cut_off():
    abstract = ("String solvers are slow. We compared Hampi with another string solver, CFGAnalyzer, and show that "
                "Hampi is several times faster on all the benchmarks we tried.")
    out = describe(paper("k2012hampi", "HAMPI: A Solver for String Constraints", abstract), MD)
    assert not out.endswith("and show."), out


def test_an_aside_between_commas_goes():
    abstract = ("Designers face many devices. We present a solution, based on the use of three levels of "
                "abstractions, that allows designers to focus on the relevant logical aspects.")
    out = describe(paper("m2004multi", "Multidevice User Interfaces", abstract), MD)
    assert out == "@m2004multi present a solution that allows designers to focus on the relevant logical aspects.", out


def test_a_thing_called_by_a_name_is_said_name_first():
    """"our system called X" is the abstract's voice; an author writes "X, a system ..."."""
    out = describe(paper("c2011chalk", "Shared Whiteboards for Classrooms",
                         "Teachers share notes on paper. We describe our system called Chalkline for shared slide "
                         "annotation in lecture halls."), MD)
    assert out == "@c2011chalk present Chalkline, a system for shared slide annotation in lecture halls.", out
    out = describe(paper("d2012reef", "Reef: Sketching Coral Models",
                         "Modellers draw coral by hand. We have built an interactive tool named Reef, which lets "
                         "biologists sketch coral colonies with a stylus."), MD)
    assert "Reef, an interactive tool that lets biologists sketch coral colonies" in out, out
    # a name in lower case may be an ordinary word: left as written
    out = describe(paper("e2013hush", "Quiet Offices",
                         "Offices are loud. We built a prototype called hush that dims alerts."), MD)
    assert "called hush" in out, out
    # a name that ends in the thing's own kind is left as written: never "X, a coverage criterion criterion for"
    out = describe(paper("e2014cover", "Coverage for Invariants",
                         "Tests miss invariants. We propose a structural coverage criterion called Branch-flip "
                         "criterion for dynamic detection of invariants."), MD)
    assert "criterion criterion" not in out, out


PADDED = [
    ("f2014fabric", "Sorting Laundry by Touch", "Laundry is hard to sort. We present an application of machine learning "
     "to distinguish between seven different fabrics by their feel.", "distinguish between seven fabrics"),
    ("g2015plots", "Coral Plots", "We have developed software that leverages 3D printing to generate tactile plots.",
     "software that uses 3D printing to generate tactile plots"),
    ("h2016carry", "How People Carry Phones", "We interviewed 20 people. We identify a number of factors that affect "
     "where people carry their phones.", "identify several factors that affect where people carry their phones"),
]


@pytest.mark.parametrize(("key", "title", "abstract", "said"), PADDED, ids=[k for k, *_ in PADDED])
def test_padded_words_are_said_plainly(key: str, title: str, abstract: str, said: str) -> None:
    """"a number of", "leverages", "seven different X": a careful co-author's first edits of an abstract's words."""
    out = describe(paper(key, title, abstract), MD)
    assert said in out, out


def test_a_word_set_half_in_capitals_is_lowered_when_the_record_writes_it_plainly():
    out = describe(paper("n2018ring", "A Finger Ring Headset",
                         "This paper introduces a finger-worn HEADset for calls. The headset is controlled by taps."), MD)
    assert "finger-worn headset" in out, out
    out = describe(paper("o2019gans", "Probing GANs", "We present GANprobe, a probe for the modes of GANs."), MD)
    assert "GANprobe" in out, out
