"""Sidecar records as JSON lines: what YAML reads of them is exactly what was written, and
the fast reader gives what YAML gives or hands the block to YAML."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.library import store
from citekit.library.store.cache import state
from citekit.library.store.sidecar import json as sidecar_json, read as sidecar_read, records as sidecar_records
from citekit.library.store.sidecar.yaml import simple_keys

from .test_cold_reparse import whole_or_error

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
HEAD = "# citekit sidecar\n# citekit-sidecar: 3\nbib_checksum: abc\nversion: 3\n"
END = "# end of citekit sidecar\n"

# every character a str can hold in a file (no lone surrogates), weighted towards the ones
# on which JSON and YAML disagree: C1 controls, NEL, the Unicode line breaks, the BOM,
# tabs, backslashes, quotes, slashes
_AWKWARD = "\x85\u2028\u2029\ufeff\ufffe\uffff\x7f\x9f\t\r\n\\\"'/#:-{}[],&*!|>%@` "
_CHAR = st.one_of(st.sampled_from(_AWKWARD), st.characters(blacklist_categories=("Cs",)))
_TEXT = st.text(_CHAR, max_size=30)
_SCALAR = st.one_of(_TEXT, st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**30), max_value=10**30),
                    st.floats(allow_nan=False, allow_infinity=False))
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                        st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=8)
_NAMES = st.sampled_from(["status", "origin", "ids", "tags", "mentions", "generated", "generated_hash", "summary",
                          "abstract", "aliases", "versions", "provenance", "hand", "reason"])
_RECORD = st.dictionaries(_NAMES, _VALUE, min_size=1, max_size=6)
_KEY = st.one_of(_TEXT.filter(bool), st.from_regex(r"[A-Za-z][A-Za-z0-9_:.+-]{0,15}", fullmatch=True),
                 st.sampled_from(["true", "null", "1999", "yes", "~", "- a", "a: b", "#x", "'q'", '"d"', "\u2028"]))


def _file(records: dict) -> str:
    block_of = sidecar_records.sidecar_blocks()
    return HEAD + "entries:\n" + "".join(block_of(k, m) for k, m in records.items()) + END


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.dictionaries(_KEY, _RECORD, min_size=1, max_size=5))
def test_what_is_written_reads_back_as_the_same_data_through_yaml_and_the_fast_reader(records) -> None:
    text = _file(records)
    whole = yaml.load(text, Loader=LOADER)
    assert whole["entries"] == records
    read = sidecar_read.load(text, LOADER, None)
    # a record YAML had to write (a float in it) may take a form only a whole-file load reads
    assert read == whole if all(map(sidecar_json._plain, records.values())) else read in (None, whole)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(key=_KEY, record=_RECORD)
def test_a_record_of_plain_data_is_written_as_json_lines_and_read_without_yaml(key, record) -> None:
    """Strings, ints, bools, nulls, lists and string-keyed mappings always take the JSON
    form (one line per part); the reader takes it back without YAML unless the text holds
    an escape it cannot tell from one YAML reads otherwise."""
    block = sidecar_records.sidecar_blocks()(key, record)
    plain = sidecar_json._plain(record)
    lines = block.rstrip("\n").split("\n")
    if plain:  # the key, then a line ``name: <JSON>`` per part, in name order
        parts = [line[4:].split(": ", 1) for line in lines[1:]]
        assert [name for name, _ in parts] == sorted(record)
        assert all(json.loads(value) == record[name] for name, value in parts)
    read = sidecar_json.read_record(block, simple_keys(LOADER)[1])
    if plain and not re.search(r"\\(?:/|u[dD][89a-fA-F])", block):
        assert read == (key, record)
    else:
        assert read is None or read == (key, record)


_EDITS = [
    ("    status: \"resolved\"", "    status: resolved"),                    # YAML's plain style
    ("    status: \"resolved\"", "    status: \"resolved\"  # by hand"),     # a comment
    ("    status: \"resolved\"", "    'status': \"resolved\""),             # a quoted name
    ("    status: \"resolved\"", "    status: 'resolved'"),                 # single quotes
    ("    status: \"resolved\"", "    status:\n      \"resolved\""),        # the value on its own line
    ("    status: \"resolved\"", "    status: \"res\\/olved\""),            # an escape YAML 1.1 may not know
    ("    status: \"resolved\"", "    status: \"\\x41\""),                  # a YAML-only escape
    ("    status: \"resolved\"", "    status: 1e+16"),                      # a float YAML reads as text
    ("    status: \"resolved\"", "    status: 1.5"),
    ("    status: \"resolved\"", "    status: \"\\ud83d\\ude00\""),          # a surrogate pair, escaped
    ("    status: \"resolved\"", "    status: \"a\tb\""),                    # a raw tab
    ("    status: \"resolved\"", "    status: True"),
    ("    status: \"resolved\"", "    status: 012"),
    ("    status: \"resolved\"", "    status: {\"a\": 1, \"a\": 2}"),       # a name twice
    ("    status: \"resolved\"", "    status: [\"a\",\n      \"b\"]"),      # flow over two lines
    ("    status: \"resolved\"", "    status: \"resolved\"\n    status: \"later\""),
    ("    status: \"resolved\"", "    status: \"resolved\"\n\n"),
    ("    status: \"resolved\"", "    status: \"\u0085\""),                  # a raw NEL (a line break in YAML)
    ("    status: \"resolved\"", "    status:   \"resolved\""),
    ("    status: \"resolved\"", "    status: \"resolved\" "),
    ("    status: \"resolved\"", "    status: !!str 12"),
    ("    status: \"resolved\"", "    status: &a \"x\""),
    ("    status: \"resolved\"", "     status: \"resolved\""),              # one space deeper
    ("  k1:", "  'k1':"),
    ("  k1:", "  \"k1\":"),
    ("  k1:", "  \"k\\u00e91\":"),
    ("  k1:", "  true:"),
    ("  k1:", "  1999:"),
    ("  k1:", "  k1: # note"),
    ("  k1:", "  'k''1':"),
]


@pytest.mark.parametrize(("old", "new"), _EDITS)
def test_records_edited_by_hand_read_as_yaml_reads_them(old: str, new: str, tmp_path) -> None:
    """A record someone rewrote (another style, a comment, another quoting) is read as
    YAML reads the whole file, or the file is handed to YAML whole."""
    text = _file({"k1": {"status": "resolved", "tags": {"added": ["x"]}}, "k2": {"status": "notes-only"}})
    assert old in text
    edited = text.replace(old, new, 1)
    whole = whole_or_error(edited)
    for refs in (None, tmp_path, tmp_path):
        got = sidecar_read.load(edited, LOADER, refs)
        assert got is None or got == whole


def test_a_library_written_by_citekit_has_a_json_line_per_part(tmp_path) -> None:
    from .test_read_fast_paths import _varied_entries

    lib = store.Library(refs_dir=tmp_path / "refs")
    for entry in _varied_entries(3, n=40):
        lib.add(entry)
    lib.save()
    text = (tmp_path / "refs" / "library.yaml").read_text(encoding="utf-8")
    parts = sidecar_read.split(text)
    assert parts is not None
    reads_plain = simple_keys(LOADER)[1]
    assert all(sidecar_json.read_record(block, reads_plain) is not None for block in parts[1])
    loaded = store.Library.load(tmp_path / "refs", use_cache=False)
    assert {k: state.entry_state(e) for k, e in loaded.entries.items()} == {
        k: state.entry_state(e) for k, e in lib.entries.items()}


_PLAIN_SCALAR = st.one_of(_TEXT, st.none(), st.booleans(), st.integers())
_PLAIN_VALUE = st.recursive(_PLAIN_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                                    st.dictionaries(_TEXT, inner, max_size=3)),
                            max_leaves=8)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(record=st.dictionaries(_NAMES, _PLAIN_VALUE, min_size=1, max_size=5), ascii=st.booleans(),
       separators=st.sampled_from([(",", ":"), (", ", ": "), (" , ", " : "), (",  ", ":  ")]))
def test_json_written_by_other_programs_reads_as_yaml_reads_it(record, ascii, separators) -> None:
    """JSON lines another program wrote (compact or spaced, ``\\u`` escapes for everything
    outside ASCII, surrogate pairs, raw line breaks of Unicode) read as YAML reads them."""
    block = "  k1:\n" + "".join(f"    {name}: {json.dumps(value, ensure_ascii=ascii, separators=separators)}\n"
                                for name, value in record.items())
    text = HEAD + "entries:\n" + block + "  k2:\n    status: \"x\"\n" + END
    got = sidecar_read.load(text, LOADER, None)
    assert got is None or got == whole_or_error(text)
