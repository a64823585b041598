"""Sentences a careful co-author keeps, where a blind reader marked the former ones (issue 25).

The causes the readers named (tests/data/related_work/blind_hci_topics/judgements.yaml): a title
forced into "study X" when it names a thing the authors made or an analysis with a verb of its
own, a figure of speech before the colon read as the object studied, a stance after two topics
glued on with "for", and an abstract cut short whose broken last sentence was quoted. The titles
here come from other libraries (../shared/corpora: plume-bib, the AIMA bibliography) or are made
up, never from the judged drafts.
"""

from __future__ import annotations

import pytest

from citekit.core.model import Entry
from citekit.output.related_check import check_snippet
from citekit.output.related_work import _Style, describe
from citekit.output.title_prose import title_clause, unbrace

MD = _Style("markdown", "natbib", False)


def paper(key: str, title: str, abstract: str = "") -> Entry:
    return Entry(key=key, entry_type="inproceedings", abstract=abstract or None, tags_auto=["t"],
                 fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2012"})


TITLES = [
    # an analysis noun with a verb of its own says the verb
    ("Evaluation of General-Purpose Static Analysis Tools on C/C++ Test Code",
     "evaluate general-purpose static analysis tools on C/C++ test code"),
    ("An Investigation into Cache Replacement Policies", "investigate cache replacement policies"),
    ("Comparison of Learning Algorithms for Handwritten Digit Recognition",
     "compare learning algorithms for handwritten digit recognition"),
    # a bare noun before "of" takes "the"
    ("Complexity of the Mover's Problem and Generalizations",
     "study the complexity of the mover's problem and generalizations"),
    # what the authors made, also in the plural for things built (not "Methods", which often names a class)
    ("Backtrack Programming Techniques", "present backtrack programming techniques"),
    ("An Adaptive Optimal Controller for Discrete-Time Markov Environments",
     "present an adaptive optimal controller for discrete-time Markov environments"),
    ("Bayesian Methods for Tracking", "study Bayesian methods for tracking"),
    # a figure of speech before the colon: the subtitle says what was made or studied
    ("The Art of Listening: A Vibrotactile Wristband Interface for Alerts",
     "present a vibrotactile wristband interface for alerts"),
    ("Hold Me Tight: Grip Sensing on Phone Cases through Capacitive Arrays",
     "study grip sensing on phone cases through capacitive arrays"),
    # ... but a book's "X: A Modern Approach" keeps its topic
    ("Artificial Intelligence: A Modern Approach", "study artificial intelligence with a modern approach"),
    # a research gerund after a short topic says what the paper does; a stance after two topics is left out
    ("Code Review in Practice: Understanding the Daily Work of Reviewers at Large Companies",
     "understand the daily work of reviewers at large companies"),
    ("Novice Programmers and Compiler Errors: Acknowledging the Need for Better Messages",
     "study novice programmers and compiler errors"),
    # coordinated gerunds are both verbs
    ("Evaluating and Improving Fault Localization", "evaluate and improve fault localization"),
    # a spaced dash sets a subtitle off as a colon does, after a one-word name too: never "study jaxer - ..."
    ("Jaxer - Server-Side JavaScript for Web Applications",
     "present Jaxer, server-side JavaScript for web applications"),
    ("Ontology Visualization Methods - a Survey", "survey ontology visualization methods"),
    # whose view it is says how the topic was studied; the topic stays
    ("Pair Programming in Classrooms: Perspectives from Teachers",
     "study pair programming in classrooms from the perspective of teachers"),
    ("Code Review: Views from Industry", "study code review from the perspective of industry"),
    # an imperative slogan with a pointing word before the colon: the subtitle says what the paper does
    ("Hear This Note: Using Vibration Cues to Teach Rhythm to Deaf Drummers",
     "use vibration cues to teach rhythm to deaf drummers"),
]


@pytest.mark.parametrize("title, clause", TITLES)
def test_title_sentences_say_what_the_paper_made_or_did(title: str, clause: str) -> None:
    assert unbrace(title_clause(title, True, "")) == clause


def test_an_abstract_cut_short_never_gives_its_broken_last_sentence() -> None:
    """Exports that keep an abstract's first 255 characters end mid-word: that sentence is never quoted."""
    cut = ("Large displays are common in offices. This work presents Swipe Relay, a novel interaction concept for c")
    out = describe(paper("doe2012swipe", "Swipe Relay: Moving Windows between Large Screens and Phones", cut), MD)
    assert "concept for c" not in out and out.startswith("@doe2012swipe present Swipe Relay for moving windows"), out
    ellipsis = ("This paper compares two novel displays, both of which allow for haptic information display: "
                "a shape-changing device and a weight-shifting...")
    out = describe(paper("doe2012shape", "Shape Change and Weight Shift in Handheld Displays", ellipsis), MD)
    assert "weight-shifting." not in out, out
    whole = ellipsis.removesuffix("...") + " device."
    out = describe(paper("doe2012shape", "Shape Change and Weight Shift in Handheld Displays", whole), MD)
    assert "compare two displays" in out, out


def test_a_study_in_the_past_tense_is_read_as_the_contribution() -> None:
    abstract = ("Reading on small screens is hard. This study explored the feasibility of displaying scrolling text "
                "on the screen of a ring. Three design factors were examined.")
    out = describe(paper("doe2012ring", "The Use of Scrolling Text on a Ring", abstract), MD)
    assert out == "@doe2012ring explore the feasibility of displaying scrolling text on the screen of a ring.", out
    assert check_snippet(out, "markdown") == []


def test_an_exporter_braced_title_keeps_no_capital_the_abstract_writes_in_lower_case() -> None:
    """Better BibTeX braces every capitalized run ("{{Sonification}} of {{Kelp Forests}}"): a word no word list knows
    ("sonification", "headsets") is ordinary when the paper's own abstract writes it in lower case; a name stays."""
    title = "{{Sonification}} of {{Kelp Forests}} for {{Divers}} with {{Bone Conduction Headsets}} in {{Lisbon}}"
    abstract = ("Divers cannot see far in murky water. We explore sonification of kelp forests, played through "
                "bone conduction headsets while divers swim the kelp beds near Lisbon.")
    out = unbrace(title_clause(title, True, abstract))
    assert out == "study the sonification of kelp forests for divers with bone conduction headsets in Lisbon", out
