"""Title folding: one definition of "the same title" for grouping, matching and dedup."""

from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.text import first_significant_word, normalize_title, normalize_title_parsed


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_fast_title_normalisation_equals_the_parsed_one(title: str) -> None:
    assert normalize_title(title) == normalize_title_parsed(title)


def test_braces_latex_accents_and_punctuation_fold_away():
    assert normalize_title("{LiMuon}: Light and Fast {Muon} Optimizer.") == "limuon light and fast muon optimizer"
    assert normalize_title("Horv{\\'a}th's M{\\\"u}ller") == normalize_title("Horváth's Müller") == "horvath s muller"
    assert first_significant_word("On the Role of Batch Size") == "role"
