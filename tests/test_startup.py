"""Start-up cost: what a command imports, and the small pieces written to keep it low.

Libraries that a command does not need are imported only where they are used; where
citekit writes a small piece itself instead of importing a library for it, the tests here
compare the two on generated input and on every name list of the corpora beside the
repository.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bibtexparser.middlewares.names import split_multiple_persons_names
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit.core.names import split_bibtex_names

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"

# ---- the BibTeX name-list splitter ------------------------------------------------------

NAME_LISTS = [
    "Donald E. Knuth and Leslie Lamport",
    "{Simon and Schuster}",
    "Knuth, Donald E. and {Barnes and Noble, Inc.} and others",
    "A  and\tB AND\nc\r\nAnd  D",
    "Smith and{Jones}",
    "Smith and {Jones} and {\\relax Ch}ristoph and ~and Tie",
    "Smith \\and Jones and Brown",
    "Smith \\x and Jones",
    "Smith and \\'Etienne Dupont",
    "Grand Andersen and Sand Anderson and andy",
    "a and",
    "and and and",
    "   ",
    "",
    "x \\",
    "}{ and }a and b",
    "Ann and\u00a0Bob and\u2003Carl",
    "Müller, J\\\"{u}rgen and Ø. Ørsted",
]


@pytest.mark.parametrize("value", NAME_LISTS)
def test_names_split_as_bibtexparser_splits_them(value):
    assert split_bibtex_names(value) == split_multiple_persons_names(value)


_PIECES = st.sampled_from(["a", "A", "n", "N", "d", "D", "and", "AND", " and ", " ", "  ", "\t", "\n", "\r", "{", "}",
                           "\\", "\\'", "~", "x", "Knuth", ",", "é", "\u00a0", "an", "nd", "others"])


@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_generated_name_lists_split_as_bibtexparser_splits_them(value):
    assert split_bibtex_names(value) == split_multiple_persons_names(value)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=60))
def test_any_text_splits_as_bibtexparser_splits_it(value):
    assert split_bibtex_names(value) == split_multiple_persons_names(value)


@pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpora beside the repository are not here")
def test_every_name_list_of_the_corpora_splits_as_bibtexparser_splits_it():
    from citekit.bibtex.reader import read_bib_file

    compared = differ = 0
    for path in sorted(p for p in CORPORA.rglob("*") if p.suffix.lower() in (".bib", ".bibtex") and p.is_file()):
        for entry in read_bib_file(path).entries:
            for name, value in entry.fields.items():
                if name.lower() in ("author", "editor", "bookauthor", "translator", "editora", "editorb"):
                    compared += 1
                    differ += split_bibtex_names(value) != split_multiple_persons_names(value)
    assert compared > 20_000 and differ == 0


# ---- the sidecar writer's character check -----------------------------------------------

# unit: the writer's character table is held against libyaml's own rule, which only the table shows
def test_the_sidecar_writers_character_set_is_libyamls_printable_set_without_breaks():
    """Written as the set of characters it refuses (fast to compile); the same set as the
    negated class of the characters it accepts, for every code point."""
    from citekit.library.store.sidecar.yaml import _UNSUPPORTED

    accepted = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
    every = "".join(map(chr, range(0x110000)))
    assert _UNSUPPORTED.findall(every) == accepted.findall(every)


# ---- what each command imports ----------------------------------------------------------

#: libraries a read-only daily command must not import on a warm library: each costs
#: 5-25 ms of start-up, more than some of these commands' own work
HEAVY = ("yaml", "bibtexparser", "pylatexenc", "rapidfuzz", "requests", "filelock", "sklearn", "tqdm",
         "markdown_it", "orgparse", "logging", "importlib.resources", "citekit.core.config_schema",
         "citekit.library.store.sidecar.yaml", "citekit.matching.works", "citekit.bibtex.values",
         "pycrfsuite", "nameparser")

PROBE = """
import sys
sys.argv = ["citekit", *{args!r}]
from citekit.cli import main
try:
    main()
except SystemExit:
    pass
print("MODULES", sorted(m for m in sys.modules if m in {heavy!r}), file=sys.stderr)
"""


def _imported(args: list[str], cwd: Path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    code = PROBE.format(args=args, heavy=HEAVY)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, check=False)
    line = next((l for l in proc.stderr.splitlines() if l.startswith("MODULES ")), None)
    assert line is not None, proc.stderr[-2000:]
    return ast.literal_eval(line.split(" ", 1)[1])


BIB = r"""@article{smith2020deep,
  author = {Smith, Jane and M{\"u}ller, J{\"o}rg and others},
  title = {Deep Learning for {BibTeX} Libraries},
  journal = {Journal of Tests},
  year = {2020},
  keywords = {physics, ml},
}

@inproceedings{lee2021fast,
  author = {Lee, Kim and van der Berg, Anna},
  title = {Fast Start-Up of Command-Line Tools},
  booktitle = {Proceedings of the Conference on Speed},
  year = {2021},
  doi = {10.1000/xyz123},
}

@misc{o_brien2019,
  author = {O'Brien, Pat},
  title = {A Note with a Colon: And Quotes},
  year = {2019},
  note = {arXiv:1901.00001},
}
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("startup")
    (root / "notes").mkdir()
    (root / "import.bib").write_text(BIB, encoding="utf-8")
    (root / "paper.tex").write_text("\\documentclass{article}\\begin{document}\\cite{smith2020deep,lee2021fast}"
                                    "\\end{document}\n", encoding="utf-8")
    imported = _imported(["-C", str(root), "import", "import.bib"], root)
    # an import that keeps every key makes no key: no key-formula schema, no name library
    assert not {"bibtexparser", "citekit.core.config_schema", "importlib.resources"} & set(imported), imported
    assert (root / "refs" / "library.bib").exists()
    _imported(["-C", str(root), "list"], root)  # the parsed-library cache, as every day
    return root


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["show", "smith2020deep"], ["tags"],
                                  ["export", "-o", "out.bib"], ["export"], ["check", "paper.tex"],
                                  ["sync", "--offline", "-q"]], ids=" ".join)
def test_daily_commands_import_no_heavy_library(library, args):
    """As every day: the second run (the first may store what later runs reuse)."""
    _imported(["-C", str(library), *args], library)
    assert _imported(["-C", str(library), *args], library) == []


@pytest.mark.parametrize("args", [["list"], ["show", "lee2021fast"], ["tags"]], ids=" ".join)
def test_commands_that_print_text_do_not_import_json(library, args):
    """json is imported where a JSON text is read or written (``--json``, the lock's and
    the journal's records), not by every command."""
    # (hashlib is not asked about: files written less than a moment ago are hashed on
    # purpose, since a same-size edit could keep their stat; a warm library hashes nothing)
    probe = PROBE.replace("m in {heavy!r}", "m in ('json', 'citekit.core.resolution')")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    for _ in range(2):  # the second run is the one measured
        proc = subprocess.run([sys.executable, "-c", probe.format(args=["-C", str(library), *args])],
                              capture_output=True, text=True, cwd=library, env=env, check=False)
    line = next(l for l in proc.stderr.splitlines() if l.startswith("MODULES "))
    assert ast.literal_eval(line.split(" ", 1)[1]) == []
