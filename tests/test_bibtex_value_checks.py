"""The writer's quick checks on values give exactly what their plain definitions give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.bibtex.writer import FIELD_ORDER, braces_balanced, ordered_fields


def balanced_by_definition(value: str) -> bool:
    """BibTeX's rule: the brace depth never drops below zero and ends at zero."""
    depth = 0
    for ch in value:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


BRACY = st.text(alphabet=st.sampled_from(list("{}{}ab \\")), max_size=40)


@settings(max_examples=800, derandomize=True, deadline=None)
@given(st.one_of(BRACY, st.text(max_size=20), st.integers(min_value=0, max_value=30).map(lambda n: "{" * n + "x" + "}" * n)))
def test_brace_balance_is_bibtex_rule(value: str) -> None:
    assert braces_balanced(value) == balanced_by_definition(value)


def test_brace_balance_on_deep_and_long_values() -> None:
    deep = "{" * 5000 + "x" + "}" * 5000
    assert braces_balanced(deep)
    assert not braces_balanced(deep + "}")
    assert not braces_balanced("}" + deep + "{")
    assert braces_balanced("{a}" * 10000)
    assert not braces_balanced("{a}" * 10000 + "{")


def ordered_by_definition(fields: dict, keep_empty: bool) -> list[tuple[str, str]]:
    lowered: dict[str, str] = {}
    for name, value in fields.items():
        if value is None or (str(value).strip() == "" and not keep_empty):
            continue
        lowered.setdefault(name.strip().lower(), str(value).strip())
    rank = {name: i for i, name in enumerate(FIELD_ORDER)}
    return sorted(lowered.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


NAMES = st.sampled_from([*FIELD_ORDER[:8], "Title", " title", "TITLE ", "doi", "zzz", "OPTnote", "url", "Year", "x"])
VALUES = st.one_of(st.none(), st.sampled_from(["", " ", "a", " b ", "{c}", "2020"]), st.integers(0, 99))


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.dictionaries(NAMES, VALUES, max_size=10), st.booleans())
def test_field_order_is_the_defined_one(fields: dict, keep_empty: bool) -> None:
    """Names in any case and spacing (two may fold to one), empty and missing values."""
    assert ordered_fields(fields, keep_empty=keep_empty) == ordered_by_definition(fields, keep_empty)
