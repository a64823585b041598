"""Citation keys: the formula, collisions, and the promise that taken keys stay taken."""

import pytest

from citekit.library.keys import KeyFormulaError, base_key, first_author_family, make_key


def test_default_formula_is_family_year_first_significant_word():
    fields = {"author": "Schaipp, Fabian and Gower, Robert M.", "year": "2026",
              "title": "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"}
    assert base_key(fields) == "schaipp2026stepsize"


def test_stop_words_are_skipped_and_braces_math_accents_folded():
    fields = {"author": "Horv{\\'a}th, Samuel", "year": "2026", "title": "On the {Role} of $\\ell_\\infty$ Bias"}
    assert base_key(fields) == "horvath2026role"


def test_particles_and_given_first_names():
    assert first_author_family("van Breugel, Boris and Nagel, Markus") == "vanbreugel"
    assert first_author_family("Boris Breugel") == "breugel"
    assert first_author_family("{OpenAI Team}") == "openaiteam"


def test_collisions_get_deterministic_suffixes_case_insensitively():
    fields = {"author": "Huang, Feihu", "year": "2026", "title": "LiMuon: Light and Fast Muon Optimizer"}
    taken = {"Huang2026limuon"}
    first = make_key(fields, taken)
    assert first == "huang2026limuona"
    taken.add(first)
    assert make_key(fields, taken) == "huang2026limuonb"


def test_missing_parts_have_readable_fallbacks():
    assert base_key({"title": "Thoughts on keys"}) == "anonndthoughts"
    key = base_key({})
    assert key == "anonnduntitled"


def test_configurable_formula_and_unknown_placeholder():
    fields = {"author": "Crawshaw, Michael and Modi, Chirag", "year": "2026",
              "title": "An Exploration of Non-Euclidean Gradient Descent"}
    assert base_key(fields, "{author}_{title2}_{year}") == "crawshaw_explorationnoneuclidean_2026"
    with pytest.raises(KeyFormulaError, match="unknown placeholder"):
        base_key(fields, "{first_author}{year}")


def test_venue_placeholder_uses_the_short_venue_name():
    fields = {"author": "Xie, Tian", "year": "2026", "title": "Controlled LLM Training on Spectral Sphere",
              "booktitle": "Forty-third International Conference on Machine Learning"}
    assert base_key(fields, "{venue}{year}{author}") == "icml2026xie"
    fields["booktitle"] = "Workshop on Odd Things"
    assert base_key(fields, "{venue}{year}{author}") == "workshoponod2026xie"


def test_a_braced_corporate_author_containing_and_is_one_author():
    fields = {"author": "{Smith and Sons} and Doe, Jane", "year": "2020", "title": "Widgets"}
    assert base_key(fields) == "smithandsons2020widgets"
