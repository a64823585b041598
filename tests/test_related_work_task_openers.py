"""Papers whose titles name the same task open with it as work: "Both papers recognize paw signs."

Made-up records, read through ``citekit.api``. A title that names a task as a noun made of a verb
after its object ("Paw Sign Recognition", "Burrow Edge Detection") says what the paper does: the
verb, and the object written before it. Two papers whose titles name one task, on an object that
shares its noun, do the same work; the opener says it with the verb ("recognize paw signs"), in the
plural when the records write it so, and never from a noun of the topic that names a field
("Paw Interaction") rather than work.
"""

from __future__ import annotations

from pathlib import Path

from citekit.api.related import related_work
from citekit.output.related_actions import actions
from citekit.output.title_prose import lowercase_words
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

PAWS = [
    ("paw1", "Real-Time Paw Sign Recognition from Kennel Cameras",
     "Dogs in shelters lift a paw to ask for food or a walk. Kennel cameras film each dog; a cascade of simple "
     "features finds the paw in every frame and tells apart six paw signs at thirty frames a second."),
    ("paw2", "Contour Features for Dynamic Paw Sign Recognition",
     "Trainers teach dogs paw signs that a carer can read from afar. We extract contour features from the "
     "paw's silhouette and feed them to a hidden Markov model, which names nine paw signs as they are made."),
]


def test_papers_whose_titles_name_one_task_open_with_it_as_work(tmp_path: Path) -> None:
    """Two papers titled "... Paw Sign Recognition" share one paragraph opened by what both do, the verb of
    their task and its object in the plural their records write ("paw signs")."""
    out = related_work(library(tmp_path, "animals", PAWS + HAPTIC + KNIT), tags=("animals",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "paw1" in p[2])
    assert sorted(set(para[2])) == ["paw1", "paw2"], out
    assert opener(para[1]) == "Both papers recognize paw signs.", out


def test_a_noun_that_names_a_field_is_no_task() -> None:
    """"Paw Interaction" names what a paper is about, not what it does: "interact paws" is no action, while
    "Burrow Edge Detection" is "detect burrow edges" (the object as its title writes it)."""
    words = lowercase_words()
    assert not [a for a in actions("Paw Interaction for Shelter Dogs . Dogs press pads.", words)
                if a.verb == "interact"]
    found = [a for a in actions("Fast Burrow Edge Detection . Burrow edges show in depth images.", words)
             if a.verb == "detect"]
    assert [" ".join(a.object).lower() for a in found] == ["burrow edges"]


MORE_PAWS = [
    ("paw3", "Paw Sign Recognition with a Collar Accelerometer",
     "Shelter volunteers rarely stay long enough to learn each dog's habits. An accelerometer sewn into the collar "
     "samples motion forty times a second, and a small classifier on the collar runs on a coin battery for weeks."),
    ("paw4", "Contour Features of Pressure Maps in Paw Sign Recognition",
     "Pressure mats under the kennel floor register where weight shifts; a decision forest trained on four "
     "hundred sessions tells a lifted paw from a scratch."),
]
#: papers on paws that recognize nothing: with the four above, "paw" is the section's own word
PADS = [
    ("pad1", "Paw Pad Injuries on Hot Pavement",
     "We measured pavement temperature on summer afternoons and the paw pad burns that shelter dogs brought in; "
     "paw pads blistered above sixty degrees."),
    ("pad2", "Booties for Paw Protection in Snow",
     "Sled dogs wore fleece booties on every paw; mushers reported fewer cracked paw pads, and the dogs' gait "
     "changed for the first hour."),
    ("print1", "Paw Prints in Clay as Keepsakes",
     "Owners of old dogs press a paw into clay; interviews with twelve owners show how the paw prints keep a dog "
     "close after its death."),
]


def test_papers_that_name_one_task_share_a_paragraph_whatever_else_they_share(tmp_path: Path) -> None:
    """Four papers titled "... Paw Sign Recognition ..." share one paragraph, headed by their task, although two of
    them share a term of their own ("contour features") that would name a pair and leave the others over; the
    papers on paws that recognize nothing keep their own paragraph ("Paw pads") beside it."""
    out = related_work(library(tmp_path, "paws", PAWS + MORE_PAWS + PADS), tags=("paws",), fmt="markdown").text
    found = {p[0]: sorted(set(p[2])) for p in paragraphs(out)}
    assert found.get("Paw sign recognition") == ["paw1", "paw2", "paw3", "paw4"], out
    assert found.get("Paw pads") == ["pad1", "pad2"], out
    para = next(p for p in paragraphs(out) if p[0] == "Paw sign recognition")
    assert opener(para[1]) == "Four papers recognize paw signs.", out


def test_a_classifier_and_a_recognizer_do_one_task() -> None:
    """"Paw Sign Classification" and "Paw Sign Recognition" name one work: all three papers tell paw signs apart,
    and are one group, under the task as most of them name it."""
    from citekit.output.related_actions import task_groups

    titles = ["Paw Sign Classification from Collar Motion", "Real-Time Paw Sign Recognition",
              "Paw Prints in Clay", "Paw Sign Recognition on Floor Mats"]
    texts = [f"{t} . The paw signs a dog makes." for t in titles]
    assert task_groups(titles, texts, 6) == [([0, 1, 3], "Paw Sign Recognition")]


COMPARISONS = [
    ("cmp1", "Leash Materials: A Comparison of Nylon and Leather",
     "Dog walkers rated nylon and leather leashes over six weeks of daily walks; leather leashes kept their grip "
     "in rain."),
    ("cmp2", "An Overview and Comparison of Feeding Schedules for Puppies",
     "Feeding schedules for puppies vary from two to five meals a day; we compare their effect on growth across "
     "eleven breeds."),
]


def test_two_papers_that_each_compare_something_share_no_work(tmp_path: Path) -> None:
    """A comparison of leashes and one of feeding schedules are no paragraph "Comparison": the word says how each
    paper argues, not what it works on, so both close the section."""
    out = related_work(library(tmp_path, "paws", PAWS + MORE_PAWS + PADS + COMPARISONS), tags=("paws",),
                       fmt="markdown").text
    assert "### Comparison" not in out, out
    assert {"cmp1", "cmp2"} <= set(paragraphs(out)[-1][2]) and paragraphs(out)[-1][0] == "Other related work", out


ACTIVITIES = [
    ("act1", "Activity Recognition on Shelter Collars",
     "Collars with an accelerometer tell resting, walking and digging apart, so staff see which dogs lack "
     "exercise."),
    ("act2", "A Tutorial on Activity Recognition with Worn Sensors",
     "This tutorial walks through segmenting, featurizing and classifying worn sensor streams into activities, "
     "with the pitfalls of evaluating on one subject."),
]


def test_a_task_on_a_word_too_weak_to_name_a_topic_is_still_work(tmp_path: Path) -> None:
    """"Activity" alone names no topic, but "Activity Recognition" is a task: the two papers open with it."""
    out = related_work(library(tmp_path, "paws", PAWS + MORE_PAWS + PADS + ACTIVITIES), tags=("paws",),
                       fmt="markdown").text
    para = next(p for p in paragraphs(out) if "act1" in p[2])
    assert sorted(set(para[2])) == ["act1", "act2"], out
    assert para[0] == "Activity recognition" and opener(para[1]) == "Both papers work on activity recognition.", out


def test_a_verb_form_before_a_task_is_not_its_object() -> None:
    """In "Resolving Kennel Allocation" the allocation is what is resolved: "Resolving" is no part of what is
    allocated, so the task's object is "Kennel" alone (in the plural its record writes)."""
    words = lowercase_words()
    found = [a for a in actions("Leash Laws: Resolving Kennel Allocation . Kennels go to dogs.", words)
             if a.verb == "allocate"]
    assert [" ".join(a.object).lower() for a in found] == ["kennels"]


def test_a_group_drawn_by_closeness_is_headed_by_the_task_all_its_titles_name(tmp_path: Path) -> None:
    """Seven papers name "Paw Sign Recognition", more than a paragraph holds, so the closeness groups them; a
    group all of whose titles name the task is headed by it, not by a word two of them share ("Features"); a second
    such group keeps its own heading, since no heading is said twice."""
    more = [(f"paw{n}", f"Paw Sign Recognition {where}", f"We tell paw signs apart {how}.")
            for n, where, how in [(5, "in Foster Homes", "in foster homes where carers film dogs with phones"),
                                  (6, "for Guide Dog Schools", "for guide dog schools whose trainers log paw signs"),
                                  (7, "on Farm Dogs", "on farm dogs whose paw signs herders read from afar")]]
    out = related_work(library(tmp_path, "paws", PAWS + MORE_PAWS + more + PADS), tags=("paws",),
                       fmt="markdown").text
    para = next(p for p in paragraphs(out) if "paw1" in p[2])
    assert para[0] == "Paw sign recognition" and {"paw1", "paw2"} <= set(para[2]), out
    assert len({p[0] for p in paragraphs(out)}) == len(paragraphs(out)), out  # (no heading twice)


def test_the_shared_action_does_not_depend_on_the_hash_seed() -> None:
    """Two papers titled "... Resolving Bowl Selection ..." share two actions on one object ("resolve" and the task
    "select"): the opener takes the authors' own verb, the same in every run, whatever order a set of verbs happens
    to have (a string's hash changes between processes)."""
    import os
    import subprocess
    import sys

    code = ("from citekit.output.related_actions import shared_action; print(shared_action(["
            "'Shelter Logistics: Resolving Bowl Selection and Dog Intake . Shelters fill up.', "
            "'Shelter Logistics: Resolving Bowl Selection and Dog Intake (long version) . Winter is hard.']))")
    said = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout.strip() for seed in range(8)}
    assert said == {"('resolve', 'bowl selection')"}, said
