"""Damaged entries in an imported .bib file: each one said, with its file and line and what
became of it, and every other entry of the file imported as if nothing had happened."""

from __future__ import annotations

from pathlib import Path

from citekit.library.importer import import_files
from citekit.library.store import Library

DAMAGED = """@book{first1990,
  title = {The First Book},
  author = {Hal Hill},
  year = {1990}
}

@book{,
  title = {A Book Without a Key},
  author = {Ivy Ives},
  year = {1991}
}

@book{early1992,
  title = {Closed Too Early}} Here},
  author = {Jo Jones},
  year = {1992}
}

@book{middle1993,
  title = {The Middle Book},
  author = {Kim Kerr},
  year = {1993}
}

@book{untitled1994,
  author = {Lee Lowe},
  year = {1994}
}

@book{open1995,
  title = {An {Open Brace},
  author = {Max Moss},
  year = {1995}
}

@book{title = {A Book Whose Key Was Forgotten},
  author = {Oz Ode},
  year = {1997}
}

@book{last1996,
  title = {The Last Book},
  author = {Ned Nash},
  year = {1996}
}
"""


def _import(tmp_path: Path) -> tuple[Library, list[str]]:
    bib = tmp_path / "damaged.bib"
    bib.write_text(DAMAGED, encoding="utf-8")
    lib = Library.load(tmp_path / "refs")
    report = import_files(lib, [bib])
    return lib, [str(p).replace(str(bib), "damaged.bib") for p in report.problems]


def test_every_damaged_entry_is_said_with_its_line_and_what_became_of_it(tmp_path: Path) -> None:
    _lib, problems = _import(tmp_path)
    assert [p.split(":")[1] for p in problems] == ["7", "14", "25", "31", "36"], problems  # in file order
    keyless, early, untitled, braces, forgotten = problems
    assert "with no key: given the key 'ives1991book'" in keyless
    assert "a '}' too many closed the entry here" in early and "(from line 15: author, year)" in early
    assert "not imported" in early
    assert "entry 'untitled1994' has no title: imported without one" in untitled
    assert "field 'title': unbalanced braces" in braces
    assert "with no key: given the key 'ode1997book'" in forgotten  # its first field right after the brace


def test_the_rest_of_the_file_is_imported(tmp_path: Path) -> None:
    lib, _problems = _import(tmp_path)
    assert {"first1990", "ives1991book", "early1992", "middle1993", "untitled1994", "open1995",
            "last1996"} <= set(lib.entries)
    assert lib.entries["open1995"].fields["author"] == "Max Moss"
    assert lib.entries["last1996"].title == "The Last Book"
    assert lib.entries["ode1997book"].fields["author"] == "Oz Ode"
