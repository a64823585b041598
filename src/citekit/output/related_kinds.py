"""What kind of contribution a paper is, as its record says: a system or technique it builds, a study
it runs, or a review.

A reader groups papers by contribution as well as by topic, and a topic sentence that calls a
study a "system" makes a claim its record does not: papers are called "systems" or "studies"
only when each of them is one (:func:`kind_of_all`).
"""

from __future__ import annotations

import re

_BUILD = re.compile(
    r"\b(?:we|this paper|this work|this note|the authors?)\s+(?:\w+ly\s+)?(?:present|presents|introduce|introduces|"
    r"propose|proposes|describe|describes|built|build|develop|developed|design|designed|implement|implemented|"
    r"created|create|demonstrate|contribute)\b[^.]{0,80}?\b(?:system|technique|tool|toolkit|interface|prototype|"
    r"device|display|platform|method|framework|application|controller|instrument|sensor|kit|pendant|widget|"
    r"algorithm|approach|environment|wand|glove|actuator|editor)s?\b"
    r"|\b(?:is|as) an? (?:\w+[ -]){0,4}(?:system|technique|tool|toolkit|interface|prototype|device|instrument|"
    r"controller|widget)s?\b", re.I)
_STUDIED = re.compile(
    r"\b(?:we|this (?:paper|study|work)|the authors?)\s+(?:\w+ly\s+)?(?:stud(?:y|ied)|investigat\w*|examin\w*|"
    r"surveyed|interviewed|observed|analy[sz]ed|measured|compared|conducted|report|probe|explored?|evaluated)\b"
    r"|\b(?:user study|field study|experiments? (?:was|were)|survey of|interviews with|participants|subjects|"
    r"longitudinal|we found|results (?:show|indicate|suggest))\b", re.I)
#: a title that names what the paper made: "FingerGlass: ...", "Pointable: An in-Air Pointing Technique ..."
_NAMED = re.compile(r"^\s*(?:[A-Z][\w\-]*[A-Z][\w\-]*\s*:|[A-Z][\w\-]+\s*:\s*(?:an?\s+)?[^.:]{0,60}?\b(?:system|technique|"
                    r"tool|toolkit|interface|prototype|device|instrument|controller|widget|display)s?\b)", re.I)
_REVIEWED = re.compile(r"\b(?:a review|review of|an overview|overview of|we review|this review|literature review|"
                       r"state of the art in|survey of (?:the )?(?:literature|research|work))\b", re.I)


def contribution(text: str) -> str:
    """"review", "system" (a system or technique the paper builds), "study", or "" when its record does not say.

    Read from ``text``, the title then the abstract: a review says so; a paper that presents,
    builds or proposes a named artifact is a system, even if it evaluates it; a paper that
    studies, measures or surveys without building one is a study.
    """
    if _REVIEWED.search(text):
        return "review"
    if _BUILD.search(text) or _NAMED.match(text):
        return "system"  # ("FingerGlass: ...", "Pointable: An in-Air Pointing Technique ...": a named artifact)
    if _STUDIED.search(text):
        return "study"
    return ""


def kind_of_all(kinds: list[str]) -> str:
    """What a topic sentence may call all of a paragraph's papers: "systems" or "studies" only when
    every one of them is one (a study called a system is a claim its record does not make)."""
    if kinds and all(k == "system" for k in kinds):
        return "systems"
    if kinds and all(k == "study" for k in kinds):
        return "studies"
    return "papers"
