"""What ``resolve-conflict --edit`` opens and reads back (:mod:`citekit.library.gitmerge`)."""

from __future__ import annotations

import pytest

from citekit.library.gitmerge import read_settlement, settlement_text

SIDES = {"title": ("Light and Fast Muon", "Muon, Light and Fast"), "year": ("2026", "2025")}


def test_the_text_shows_both_values_and_saved_unchanged_settles_nothing() -> None:
    text = settlement_text("huang2026light", SIDES)
    for ours, theirs in SIDES.values():
        assert ours in text and theirs in text
    assert read_settlement(text, SIDES) == ({}, ["title", "year"])
    assert read_settlement("", SIDES) == ({}, ["title", "year"])


def test_a_value_kept_for_one_field_settles_that_field_only() -> None:
    text = settlement_text("huang2026light", SIDES)
    block = text[text.index("title:\n"):text.index("year:")]
    kept = text.replace(block, "title:\nMuon, Light and Fast\n\n")
    assert read_settlement(kept, SIDES) == ({"title": "Muon, Light and Fast"}, ["year"])


def test_markers_kept_in_part_are_an_error_and_a_piped_value_settles_the_only_field() -> None:
    text = settlement_text("huang2026light", SIDES)
    with pytest.raises(ValueError, match="title"):
        read_settlement(text.replace("=======\n", "", 1), SIDES)
    only = {"title": SIDES["title"]}
    assert read_settlement("A Third Title\n", only) == ({"title": "A Third Title"}, [])
    assert read_settlement("A Third Title\n", SIDES) == ({}, ["title", "year"])  # which field? none is guessed
