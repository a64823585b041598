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
