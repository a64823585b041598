"""The reference rules are a table whose rows carry their own pre-filter: a rule added to
the table has its lines read, never skipped by a speed check written for the old rules."""

from __future__ import annotations

from citekit.notes import extract_text
from citekit.notes.refline import REFERENCE_RULES, Reference, has_shape_signal, split_name_list
from citekit.notes.rules import Cue, LineRule

NOTES = ("# ICML 2026\n\n"
         "- Adaptive Gradient Clipping at Scale | Ann Smith, Bo Chen\n"
         "- Coffee with the group\n"
         "- Sparse Mixtures Without Routing Collapse | Cy Dee, Dan Evans\n")


def _pipe_authors(text: str) -> Reference | None:
    """``Title | A, B``: a shape none of the shipped rules knows, with none of their cues."""
    title, bar, names = text.partition(" | ")
    parsed = split_name_list(names) if bar else None
    return Reference(title.strip(), parsed[0], "title-pipe-authors", parsed[1]) if parsed else None


PIPE_RULE = LineRule("title-pipe-authors", (Cue(chars="|"),), _pipe_authors)


def test_a_new_rule_brings_its_own_prefilter_and_its_lines_are_found():
    line = "Adaptive Gradient Clipping at Scale | Ann Smith, Bo Chen"
    assert not has_shape_signal(line)  # no cue of the shipped rules: the old gate skipped it
    assert not [m for m in extract_text(NOTES, "n.txt").mentions if m.authors]
    with REFERENCE_RULES.added(PIPE_RULE):
        assert has_shape_signal(line)
        found = {m.title: m.authors for m in extract_text(NOTES, "n.txt").mentions}
    assert found == {"Adaptive Gradient Clipping at Scale": ["Ann Smith", "Bo Chen"],
                     "Sparse Mixtures Without Routing Collapse": ["Cy Dee", "Dan Evans"]}
    # the row is gone again, and so are the answers remembered while it was there
    assert not has_shape_signal(line)
    assert not [m for m in extract_text(NOTES, "n.txt").mentions if m.authors]


def test_the_prefilter_is_the_union_of_the_rows_cues():
    rules = {rule.name: rule for rule in REFERENCE_RULES}
    assert list(rules) == ["dash-title-inner-quotes", "quoted-title", "nature", "group-year-title", "title-first",
                           "citation-first", "title-comma-surnames", "title-slash-names", "title-dot-names-venue", "reference-model",
                           "possessive-title"]
    for line, needs in [("A Title — Ann Smith", "dash"), ('"A Title" Ann Smith', "quote"), ("A Title (Ann Smith)", "paren"),
                        ("A Title by Ann Smith", "by"), ("A Title, Ann Smith et al", "et al"), ("A Title 2024", "year"),
                        ("A Title, ICML'24", "yy"), ("A Title; Ann Smith", "semicolon"),
                        ("Loshchilov & Hutter, A Title", "names opening the line"), ("Smith's A Title", "possessive"),
                        ("A Title, Kingma & Ba.", "names closed by & ending the line")]:
        assert has_shape_signal(line), needs
    for line in ("just a plain remark", "A Title, Ann Smith", "room 2b", "x-y", "year 12024", "salt and pepper & more"):
        assert not has_shape_signal(line), line
