"""The writer writes what BibTeX reads, and the reader reads what BibTeX reads.

Random field values and random entries go through write -> read (and read -> write ->
read); every written text is also read by pybtex, an independent BibTeX parser, which
must see the same values. The corpora round trip (every .bib beside the repository) is
in test_bibtex_corpora_roundtrip.py.
"""

from __future__ import annotations

import random
import re
import shutil
import string
import subprocess

import pybtex.errors
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser

from citekit.bibtex.reader import collapse_space, parse_bib_text
from citekit.core.model import Entry
from citekit.bibtex.writer import braces_balanced, month_macro, render_entries
from citekit.bibtex.values import sanitize

pybtex.errors.set_strict_mode(False)

#: characters that matter to BibTeX's scanner, and ordinary text around them
_SPECIAL = list('{}\\"@#%,=()~$&_^\n\t ')
_TEXT = st.text(alphabet=st.sampled_from(_SPECIAL + list(string.ascii_letters + string.digits) + list("éüß–λ∞’")),
                max_size=40)
_SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                             HealthCheck.large_base_example])


def pybtex_fields(text: str) -> dict[str, dict[str, str]]:
    """Field values as pybtex reads the text (authors kept as plain fields)."""
    data = Parser(person_fields=()).parse_string(text)
    return {key: {k.lower(): v for k, v in e.fields.items()} for key, e in data.entries.items()}


def expected_after_write(value: str) -> str:
    """What a reader must see after the writer wrote ``value``: BibTeX's white space, and
    a value whose braces cannot be balanced written as the characters it shows."""
    value = collapse_space(value)
    return value if braces_balanced(value) else collapse_space(sanitize(value))


@_SETTINGS
@given(st.lists(_TEXT, min_size=100, max_size=100))
def test_ten_thousand_random_values_write_then_read_identically(values: list[str]) -> None:
    # 100 examples x 100 values: every value in its own field of one entry
    fields = {f"f{i}": v for i, v in enumerate(values)}
    fields["title"] = "T"
    text = render_entries([Entry(key="k", entry_type="misc", fields=fields)])
    ours = parse_bib_text(text, "w.bib", damaged="fields")
    assert not ours.problems, ours.problems
    (entry,) = ours.entries
    theirs = pybtex_fields(text)["k"]
    for i, value in enumerate(values):
        want = expected_after_write(value)
        if not want:
            assert f"f{i}" not in entry.fields  # an empty value is not written
            continue
        assert entry.fields[f"f{i}"] == want
        assert collapse_space(theirs[f"f{i}"]) == want


_ALPHABET = _SPECIAL + list(string.ascii_letters + string.digits) + list("éüß–λ∞’")
_KEY_CHARS = string.ascii_letters + string.digits + "_:./+-"
_NAMES = ["title", "author", "journal", "booktitle", "note", "publisher", "pages", "volume", "abstract", "url", "doi",
          "editor", "series", "address", "howpublished", "x-custom"]
_MACROS = {"acm": "ACM Press", "jmlr": "J. Mach. Learn. Res.", "lncs": "LNCS"}


def _balanced_text(rng: random.Random) -> str:
    while True:
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40)))
        if braces_balanced(text):
            return text


def _bib_value(rng: random.Random) -> str:
    """A value as people write it: braced, quoted (a quote only inside braces), a number,
    a macro, or several joined with #."""
    parts = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["brace", "quote", "number", "macro"])
        if kind == "brace":
            parts.append("{" + _balanced_text(rng) + "}")
        elif kind == "quote":
            parts.append('"' + _balanced_text(rng).replace('"', '{"}') + '"')
        elif kind == "number":
            parts.append(str(rng.randint(0, 99999)))
        else:
            parts.append(rng.choice(sorted(_MACROS)))
    return " # ".join(parts)


def bib_file(rng: random.Random, n: int = 50) -> str:
    """A .bib text of ``n`` random entries in every syntax BibTeX accepts."""
    out = [f'@string{{{k} = "{v}"}}' for k, v in _MACROS.items()]
    keys: dict[str, str] = {}
    while len(keys) < n:
        key = "".join(rng.choice(_KEY_CHARS) for _ in range(rng.randint(1, 12)))
        keys.setdefault(key.lower(), key)
    for key in keys.values():
        kind = rng.choice(["article", "inproceedings", "misc", "book", "techreport"])
        names = rng.sample(_NAMES, rng.randint(1, 5))
        body = ",\n".join(f"  {name} = {_bib_value(rng)}" for name in names)
        month = rng.choice(["", ",\n  month = jul", ',\n  month = "July"', ",\n  month = 7"])
        open_, close = rng.choice([("{", "}"), ("(", ")")])
        out.append(f"@{kind}{open_}{key},\n{body}{month}\n{close}")
    return "\n\n".join(out) + "\n"


def _as_bibtex_reads(fields: dict[str, str]) -> dict[str, str]:
    """Values as BibTeX sees them: a month macro is its month; empty values are absent."""
    out = {}
    for k, v in fields.items():
        if not v.strip():
            continue
        out[k] = (month_macro(v) or v) if k == "month" else v
    return out


@_SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_ten_thousand_random_entries_import_export_import_identically(seed: int) -> None:
    # 100 examples x 100 entries in every syntax BibTeX accepts (braces, quotes, #, macros, parentheses)
    text = bib_file(random.Random(seed), 100)
    first = parse_bib_text(text, "in.bib", damaged="fields")
    assert not first.problems, first.problems
    assert len(first.entries) == 100
    exported = render_entries(first.entries)
    second = parse_bib_text(exported, "out.bib", damaged="fields")
    assert not second.problems
    assert [(e.key, e.entry_type) for e in second.entries] == [(e.key, e.entry_type) for e in first.entries]
    for a, b in zip(first.entries, second.entries):
        assert _as_bibtex_reads(b.fields) == _as_bibtex_reads({k: expected_after_write(v) for k, v in a.fields.items()})
    # pybtex reads the original and the export alike, and as citekit does
    original, again = pybtex_fields(text), pybtex_fields(exported)
    for entry in first.entries:
        ours = _as_bibtex_reads(entry.fields)
        assert _as_bibtex_reads({k: collapse_space(v) for k, v in original[entry.key].items()}) == ours
        assert _as_bibtex_reads({k: collapse_space(v) for k, v in again[entry.key].items()}) == ours


def test_bibtex_reads_a_brace_escape_as_two_characters_and_keeps_every_field() -> None:
    # bibtexparser v2 treats \{ as an escape; BibTeX does not: all three fields are there
    (entry,) = parse_bib_text('@article{A, author = {\\{\\"u}}, title = {a}, year = {2020},}', "x.bib").entries
    assert entry.fields == {"author": '\\{\\"u}', "title": "a", "year": "2020"}


def test_a_lone_backslash_value_round_trips() -> None:
    text = render_entries([Entry(key="k", entry_type="misc", fields={"title": "\\"})])
    assert "{\\}" in text
    assert parse_bib_text(text, "x.bib").entries[0].fields["title"] == "\\"


def test_a_quote_inside_braces_does_not_end_a_quoted_value() -> None:
    text = '@article{m, title = "Turbo decoding as an instance of {P}earl\'s {``belief propagation"} algorithm", journal = {IEEE JSAC}, volume = 16, pages = "140--152"}'
    (entry,) = parse_bib_text(text, "x.bib").entries
    assert entry.fields["title"].endswith('{``belief propagation"} algorithm')
    assert entry.fields["journal"] == "IEEE JSAC" and entry.fields["volume"] == "16" and entry.fields["pages"] == "140--152"


def test_a_broken_value_is_kept_verbatim_with_its_line_and_the_other_fields_survive() -> None:
    text = "% header\n@article{a,\n  title = {Unclosed {title,\n  journal = {J. Good},\n  year = 2020\n}\n\n@misc{b, title = {Fine}}\n"
    result = parse_bib_text(text, "lib.bib", damaged="fields")
    a, b = result.entries
    assert a.fields == {"title": "{Unclosed {title", "journal": "J. Good", "year": "2020"}
    assert b.fields == {"title": "Fine"}
    (problem,) = result.problems
    assert str(problem).startswith("lib.bib:3: @article{a}: field 'title': unbalanced braces")
    assert "kept verbatim" in problem.message


def test_comments_preambles_and_parenthesised_entries() -> None:
    text = ('@comment{jabref-meta: groupstree:\n0 AllEntriesGroup:;}\n@preamble{ "\\newcommand{\\noop}[1]{}" }\n'
            "stray text with an e-mail a@b.org\n@Article(p1, title = {Paren} # { entry}, year = 1999)\n")
    result = parse_bib_text(text, "x.bib")
    assert [e.key for e in result.entries] == ["p1"]
    assert result.entries[0].fields == {"title": "Paren entry", "year": "1999"}
    assert result.preamble == ['"\\newcommand{\\noop}[1]{}"']
    assert not result.problems


_DUMP_BST = """ENTRY { title } {} {}
FUNCTION {misc} {}
FUNCTION {default.type} {}
READ
FUNCTION {show} { "<<" cite$ * "|" * title * ">>" * write$ newline$ }
ITERATE {show}
"""


@pytest.mark.latex
@pytest.mark.skipif(shutil.which("bibtex") is None, reason="bibtex is not installed")
def test_bibtex_itself_reads_the_values_citekit_wrote(tmp_path) -> None:
    rng = random.Random(11)
    values = [v for v in (_balanced_text(rng) for _ in range(400)) if v.strip()][:300]
    values += ['\\{\\"u}', "\\", 'a "quoted" word', "50% off", "@misc{x"]
    entries = [Entry(key=f"k{i}", entry_type="misc", fields={"title": v}) for i, v in enumerate(values)]
    (tmp_path / "refs.bib").write_text(render_entries(entries), encoding="utf-8")
    (tmp_path / "dump.bst").write_text(_DUMP_BST, encoding="utf-8")
    (tmp_path / "x.aux").write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{dump}\n", encoding="utf-8")
    run = subprocess.run(["bibtex", "-terse", "x"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "error" not in run.stdout.lower(), run.stdout
    text = (tmp_path / "x.bbl").read_text(encoding="utf-8", errors="replace")
    # bibtex wraps long output lines: undo that, then read each record back
    got = dict(re.findall(r"<<(k\d+)\|(.*?)>>", " ".join(text.split()), re.S))
    ours = {e.key: e.fields.get("title", "") for e in parse_bib_text(render_entries(entries), "x.bib").entries}
    assert len(got) == len(entries)
    for key, value in ours.items():
        assert collapse_space(got[key]) == value, key
