"""A .bib file from someone else is read as bibtex reads it, in bounded time and memory.

Three ways a file used to beat the reader: ``@string`` macros that double each other
(a 717-byte file expanded to gigabytes), a line of a value that starts with ``@Name{``
(bibtex reads it as text; the reader ended the entry there), and an entry type outside
the usual ones (bibtex reads ``@x.y`` with a warning; import refused the whole file).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pybtex.errors
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser

from citekit.cli import main
from citekit.bibtex import reader as bibfile
from citekit.bibtex.reader import collapse_space, parse_bib_text
from citekit.library.importer import import_files
from citekit.library.store import Library
from citekit.core.model import Entry
from citekit.bibtex.writer import render_entries

from .test_bibsyntax_fields import step_by_step

pybtex.errors.set_strict_mode(False)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    return root


def _invoke(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def _listed(root: Path) -> dict[str, dict]:
    result = _invoke(root, "list", "--json")
    assert result.exit_code == 0, result.output
    return {row["key"]: row for row in json.loads(result.stdout)}


# --- @string macros that expand past every bound --------------------------------------

def _doubling(prefix: str, n: int, *, forward: bool = False) -> list[str]:
    """``n`` macros each twice the one before (``a1 = a0 # a0``); ``forward``: each defined
    through the next one, defined later (the base is empty, so only the time explodes)."""
    if forward:
        return ([f"@string{{{prefix}{i} = {prefix}{i + 1} # {prefix}{i + 1}}}" for i in range(n)]
                + [f'@string{{{prefix}{n} = ""}}'])
    return [f'@string{{{prefix}0 = "xx"}}'] + [f"@string{{{prefix}{i} = {prefix}{i - 1} # {prefix}{i - 1}}}"
                                               for i in range(1, n + 1)]


def _limit_memory() -> None:
    """The child may take 1 GB: the unbounded reader fails with a MemoryError instead of
    taking the machine's memory (the original report: 5.3 GB, then a MemoryError)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_macro_bomb_is_reported_by_name_and_line_and_the_rest_of_the_file_is_imported(tmp_path: Path) -> None:
    root = _project(tmp_path)
    lines = (["@misc{before, title = {Read before the bombs}}"] + _doubling("a", 40) + _doubling("f", 40, forward=True)
             + ["@misc{boom, title = a40}", "@misc{boom2, title = {Proc. } # f0}", "@misc{after, title = {Read after}}"])
    (root / "bomb.bib").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = "import sys; from citekit.cli import main; sys.argv[0] = 'citekit'; main()"
    # bounded because of the bound: without it this child runs out of memory or time
    run = subprocess.run([sys.executable, "-c", code, "-C", str(root), "import", "bomb.bib"], cwd=root,
                         capture_output=True, text=True, timeout=120, preexec_fn=_limit_memory,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    assert run.returncode == 1, run.stderr  # done, with findings: no traceback, nothing refused
    assert "Traceback" not in run.stderr
    first = next(i for i in range(1, 41) if 2 ** (i + 1) > bibfile.MACRO_VALUE_LIMIT)  # the first past the bound
    assert f"bomb.bib:{first + 2}: @string 'a{first}': macro bomb: its @string macros expand to over" in run.stderr
    assert f"@string 'a{first + 1}': macro bomb: it uses 'a{first}', a macro bomb (its @string is on line {first + 2})" \
        in run.stderr
    assert "bomb.bib:84: entry 'boom', field 'title': macro bomb: it uses 'a40'" in run.stderr
    assert "@string 'f0': macro bomb: it is defined through more than" in run.stderr
    assert "entry 'boom2', field 'title': macro bomb" in run.stderr
    listed = _listed(root)
    assert set(listed) == {"before", "boom", "boom2", "after"}
    assert listed["boom"]["title"] == "a40" and listed["boom2"]["title"].endswith("f0")  # kept as written
    assert (root / "refs" / "library.bib").stat().st_size < 5000


def test_both_readers_bound_a_value_and_keep_it_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain entry (read in one pass) and one with ``#`` (read step by step) alike; a
    value may take up to the bound from macros, and a chain of macros may be as deep."""
    depth_limit = bibfile.MACRO_DEPTH_LIMIT
    n = bibfile.MACRO_VALUE_LIMIT.bit_length() + 1  # the last doublings pass the bound
    text = "\n".join(_doubling("a", n) + [
        "@misc{plain, title = a3}", f"@misc{{big, title = a{n}}}", f"@misc{{hashed, title = a{n} # {{!}}}}",
        '@string{d1 = "deep"}', *[f"@string{{d{i} = d{i - 1}}}" for i in range(2, depth_limit + 3)],
        f"@misc{{deepest, title = d{depth_limit}}}", f"@misc{{toodeep, title = d{depth_limit + 1}}}",
    ]) + "\n"
    (tmp_path / "m.bib").write_text(text, encoding="utf-8")
    for reader in ("one pass", "step by step"):
        with monkeypatch.context() as m:
            if reader == "step by step":
                step_by_step(m)
            lib = Library.load(tmp_path / reader / "refs")
            report = import_files(lib, [tmp_path / "m.bib"])
        fields = {k: e.fields["title"] for k, e in lib.entries.items()}
        assert fields == {"plain": "x" * 16, "big": f"a{n}", "hashed": f"a{n} # {{!}}", "deepest": "deep",
                          "toodeep": f"d{depth_limit + 1}"}, reader
        bombs = [str(p) for p in report.problems if "macro bomb" in str(p)]
        assert any(f"entry 'big', field 'title': macro bomb: it uses 'a{n}'" in p for p in bombs), reader
        assert any(f"entry 'hashed', field 'title': macro bomb: it uses 'a{n}'" in p for p in bombs), reader
        assert any(f"@string 'd{depth_limit + 1}': macro bomb: it is defined through more than "
                   f"{depth_limit} levels" in p for p in bombs), reader
        assert not any("'deepest'" in p or "'plain'" in p for p in bombs), reader


# --- a line that starts with "@" inside a value -----------------------------------------

AT_LINE = """@article{k1,
  title = {A title},
  abstract = {The command is written as
@Name{arg}, and a whole entry may be quoted:
  @misc{x, title = {y}}
as the manual shows.},
  journal = {J. Important},
  year = {2020},
}

@misc{k2, note = "quoted too
@book{z, title = {w}} here", title = {Next}}
"""


def test_a_line_starting_with_an_entry_inside_a_value_is_value_text(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "at.bib").write_text(AT_LINE, encoding="utf-8")
    result = _invoke(root, "import", str(root / "at.bib"))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # nothing broken, nothing kept as raw text
    listed = _listed(root)
    assert set(listed) == {"k1", "k2"}  # no bogus entry made of the value's lines
    fields = Library.load(root / "refs").entries["k1"].fields
    assert fields["abstract"] == ("The command is written as @Name{arg}, and a whole entry may be quoted: "
                                  "@misc{x, title = {y}} as the manual shows.")
    assert fields["journal"] == "J. Important" and fields["year"] == "2020"
    assert Library.load(root / "refs").entries["k2"].fields["note"] == "quoted too @book{z, title = {w}} here"
    theirs = Parser(person_fields=()).parse_string(AT_LINE).entries
    assert collapse_space(theirs["k1"].fields["abstract"]) == fields["abstract"]


def test_a_value_that_never_closes_still_stops_at_the_next_entry() -> None:
    """The recovery for damage stays: a value whose braces never close (bibtex would swallow
    the rest of the file), or that closes inside a later entry and is not followed by ',' or
    the entry's end, keeps its own lines verbatim; the next entries are read."""
    never = "@article{a,\n  title = {Unclosed {title,\n  year = 2020\n}\n\n@misc{b, title = {Fine}}\n"
    late = "@article{a,\n  title = {Unclosed {title,\n  year = 2020\n}\n@misc{b, title = {Fine}}}\n@misc{c, title = {C}}\n"
    for text, keys in ((never, ["a", "b"]), (late, ["a", "b", "c"])):
        result = parse_bib_text(text, "x.bib", damaged="fields")
        assert [e.key for e in result.entries] == keys
        assert result.entries[0].fields["title"] == "{Unclosed {title"
        assert result.entries[1].fields["title"] == "Fine"
        assert str(result.problems[0]).startswith("x.bib:2: @article{a}: field 'title': unbalanced braces (the value runs "
                                                  "into the next entry); its raw text was kept verbatim")


_WORDS = st.sampled_from(["a", "Word", " ", "  ", "\n", "\n  ", ",", "=", ".", "#", "é", "x@y.org", "\\'e", "(", ")"])
_AT_LINES = st.sampled_from(["\n@Name{arg}", "\n  @misc{x, title = {y}}", "\n@article(k, t = 1)", "\n@comment{c}",
                             "\n@string{s = {v}}", "\n @ preamble{p}", "\n@{", "\n@misc{"])


@st.composite
def _balanced(draw: st.DrawFn, depth: int = 0) -> str:
    """Text whose braces balance, with lines that start with "@" at any depth."""
    parts = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.integers(0, 5))
        if kind == 0 and depth < 3:
            parts.append("{" + draw(_balanced(depth + 1)) + "}")
        elif kind == 1:
            parts.append(draw(_AT_LINES))
        else:
            parts.append(draw(_WORDS))
    text = "".join(parts)
    return text + "}" * (text.count("{") - text.count("}"))  # "\n@misc{" opens one


@st.composite
def _at_line_files(draw: st.DrawFn) -> str:
    entries = []
    for i in range(draw(st.integers(1, 3))):
        fields = []
        for j in range(draw(st.integers(1, 4))):
            value = draw(_balanced())
            quoted = draw(st.booleans())
            fields.append(f"f{j} = " + ('"' + value.replace('"', "") + '"' if quoted else "{" + value + "}"))
        entries.append(f"@{draw(st.sampled_from(['article', 'misc', 'Book']))}{{k{i},\n  " + ",\n  ".join(fields)
                       + draw(st.sampled_from(["\n}", ",\n}", "}"])))
    return "\n\n".join(entries) + "\n"


@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_at_line_files())
def test_values_with_lines_starting_with_at_are_read_as_pybtex_reads_them(text: str) -> None:
    theirs = {key: {name.lower(): collapse_space(value) for name, value in entry.fields.items()}
              for key, entry in Parser(person_fields=()).parse_string(text).entries.items()}
    for reader in ("one pass", "step by step"):
        with pytest.MonkeyPatch.context() as m:
            if reader == "step by step":
                step_by_step(m)
            result = parse_bib_text(text, "t.bib", damaged="fields")
        assert not result.problems, (reader, [str(p) for p in result.problems])
        assert {e.key: e.fields for e in result.entries} == theirs, reader


# --- entry types outside the usual ones ----------------------------------------------------

def test_an_entry_of_an_unknown_type_is_imported_as_written_with_a_warning(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "odd.bib").write_text("@x.y{k2,\n  title = {Odd type},\n  year = {2021},\n}\n\n"
                                  "@misc{k3, title = {Normal}}\n", encoding="utf-8")
    result = _invoke(root, "import", str(root / "odd.bib"))
    assert result.exit_code == 1, result.output  # done, with a finding to look at
    assert "odd.bib:1: entry 'k2': @x.y is not a BibTeX or biblatex entry type; imported as written" in result.stderr
    assert "@x.y{k2,\n" in (root / "refs" / "library.bib").read_text(encoding="utf-8")
    assert set(_listed(root)) == {"k2", "k3"}
    assert Library.load(root / "refs").entries["k2"].entry_type == "x.y"
    assert _invoke(root, "doctor").exit_code == 0


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.from_regex(r"[A-Za-z_][^\s\"#%'(),={}@]{0,12}", fullmatch=True))
def test_every_type_the_reader_takes_survives_a_write_and_a_read(entry_type: str) -> None:
    """bibtex takes any identifier as a type (no white space or ``"#%'(),={}``, not
    starting with a digit); the reader takes those starting with a letter or ``_``, and
    whatever it takes, the writer writes so that it reads back the same."""
    entry = Entry(key="k", entry_type=entry_type, fields={"title": "T"})
    (again,) = parse_bib_text(render_entries([entry]), "w.bib").entries
    assert again.entry_type == entry_type.lower()
    assert again.fields == {"title": "T"}
