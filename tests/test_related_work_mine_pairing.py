"""``--mine`` on made-up records: a claim kept whole at its pairing, and shared ground only where both papers name it.

- "we propose a method that combines A with B" is never cut before its "with" (half a pairing said as the
  whole claim); said from what the method does, it fits ("our method combines A with B");
- "reduction" and "reduced" are one word ("variance reduction" meets "a variance reduced estimator"), but a
  record that only does the thing ("to reduce communication") shares no topic with the user's noun;
- a property the user studies ("smoothness") is not shared by a record that only writes the adjective
  ("a smooth relaxation").
"""

from __future__ import annotations

import re

from citekit.core.model import Entry
from citekit.output.common_ground import Section, grounds, short_clause
from citekit.output.related_work import Mine, related_work
from citekit.output.word_roots import root

KILNS = [
    ("ka2019kiln", "Batching Kiln Firings in Shared Ceramic Studios",
     "We study queue-aware batching of kiln firings in shared ceramic studios and order firings by batch size."),
    ("lo2020glaze", "Forecasting Glaze Cooling Curves",
     "We forecast glaze cooling curves with a physical model of kiln walls calibrated on thermocouple logs."),
    ("mu2021wheel", "Booking Pottery Wheels by Text Message",
     "We describe a booking service that lets members of a pottery cooperative reserve wheels by text message."),
    ("ne2018clay", "Recycling Clay Scraps in Teaching Studios",
     "We measure how much clay teaching studios reclaim from scraps, and how reclaimed clay behaves on the wheel."),
]
KILN_MINE = ("We propose a lightweight scheduling method that combines queue-aware batching of kiln firings with a "
             "stochastic forecast of glaze cooling curves across ceramic studios, and report a pilot in four studios.")


def _draft() -> str:
    entries = [Entry(key=k, entry_type="inproceedings", fields={"title": t, "author": "Doe, Jane", "year": "2021"},
                     abstract=a, tags_auto=["ceramics"]) for k, t, a in KILNS]
    mine = Mine(title="Kiln Scheduling for Ceramic Studios", abstract=KILN_MINE, tags=["ceramics"], name="mine")
    return related_work(entries, fmt="markdown", tags=["ceramics"], mine=mine)


def test_a_pairing_is_never_cut_before_its_with():
    sentences = [s for s in re.split(r"(?<=\.)\s+", _draft()) if re.search(r"\b(?:we|our)\b", s)]
    paired = [s for s in sentences if "combines" in s]
    assert paired, sentences
    assert all(re.search(r"\bcombines\b.*\bwith\b", s) for s in paired), paired


def test_a_clause_too_long_to_keep_its_pairing_is_said_from_what_the_thing_does():
    out = short_clause("we propose a compact planting method that merges soil probe readings of each plot with "
                       "drone imagery of the canopy over a season, and report field trials")
    assert out is None or not re.search(r"\bmerges\b", out) or re.search(r"\bmerges\b.*\bwith\b", out), out


def test_reduction_and_reduced_are_one_root():
    assert root("reduction") == root("reduced") == root("reduce")
    assert root("production") == root("produces")
    assert root("construction") == root("construct")


SAMPLING = ["Tail Estimates for Queues. We give a variance reduced estimator of tail probabilities for queues.",
            "Cheaper Gossip for Sensor Fleets. We change the gossip protocol of sensor fleets to reduce "
            "communication between nodes.",
            "Importance Sampling Without Tears. We review importance sampling for simulation of networks.",
            "Splitting for Buffer Overflows. We split trajectories of buffer contents near overflow.",
            "Cross-Entropy Tilting. We tilt arrival rates by cross-entropy updates.",
            "Sampling Paths in Graphs. We sample random paths in sparse graphs."]
SAMPLING_MINE = ("We propose a sampler built on variance reduction for rare events, and show that variance reduction "
                 "halves the cost; the reduction holds for heavy tails.")


def test_the_users_noun_meets_a_records_participle_but_not_its_verb():
    group = SAMPLING[:2]
    found = grounds(SAMPLING_MINE, group, Section(SAMPLING, {"sampling"}), "",
                    ("Variance Reduction for Rare Events", [t.split(".")[0] for t in group]))
    assert any(g.phrase == "variance reduction" and g.sharers == (0,) for g in found), found
    assert not any(1 in g.sharers for g in found), found  # ("to reduce communication" is no variance reduction)


SMOOTH = ["Smooth Relaxations of Step Functions. We propose a smooth relaxation of step functions for training "
          "classifiers.",
          "Smoothness of Learned Value Functions. We bound the smoothness of learned value functions.",
          "Reading Long Documents on Walls. We study how people read long documents on wall displays.",
          "Gossip in Sensor Fleets. We change the gossip protocol of sensor fleets.",
          "Paths in Graphs. We sample random paths in sparse graphs."]


def test_a_property_is_not_shared_by_a_records_adjective():
    group = SMOOTH[:2]
    found = grounds("We prove convergence rates under a smoothness assumption on the loss, and study the smoothness "
                    "of policies.", group, Section(SMOOTH, {"learning"}), "",
                    ("Smoothness in Learning", [t.split(".")[0] for t in group]))
    assert any(g.phrase == "smoothness" for g in found), found
    assert not any(0 in g.sharers for g in found), found  # ("a smooth relaxation" is no study of smoothness)


def test_a_phrase_that_ends_on_a_preposition_is_no_ground():
    texts = ["Quiet Movement Sensing. We sense the movement of hands above a desk with a capacitive pad.",
             "Reading Long Documents on Walls. We study how people read long documents on wall displays.",
             "Gossip in Sensor Fleets. We change the gossip protocol of sensor fleets.",
             "Paths in Graphs. We sample random paths in sparse graphs."]
    found = grounds("We propose a pointing technique that reads the movement of hands above a large display, and show "
                    "that such movement speeds up distant selection.", texts[:1], Section(texts, {"display"}), "",
                    ("Hand Movement for Large Displays", ["Quiet Movement Sensing"]))
    assert not any(g.phrase.split()[-1] in ("above", "aboves") for g in found), found
