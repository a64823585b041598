"""Commands for a paper's repository: ``check`` (its citations) and ``makefile`` (build targets)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.api.project import config_of


@dataclass
class CheckOutcome:
    """The report of ``check``, and the problems reading the paper's own .bib."""

    report: Any
    bib_problems: list[Any] = field(default_factory=list)


def check(tex: Path, *, aux: Path | None = None, bib: Path | None = None,
          start: str | Path | None = None) -> CheckOutcome:
    """A paper's citations against the library (see ``citekit check --help``)."""
    from citekit.paper.check import check_paper
    from citekit.library.store import Library
    from citekit.paper.cited import citations_from_aux, citations_from_tex, with_source_lines

    cited = citations_from_tex(tex)
    if aux is not None:
        cited = with_source_lines(cited, citations_from_aux(aux))
    cfg = config_of(start)
    library = Library.load(cfg.refs_dir)
    bib_entries = None
    problems: list[Any] = []
    if bib is not None:
        from citekit.bibtex.reader import read_bib_file

        parsed = read_bib_file(bib)
        problems = list(parsed.problems)
        bib_entries = parsed.entries
    from citekit.library.store import kinds
    from citekit.paper.check import twin_facts
    from citekit.paper.cited import EntryIndex

    report = check_paper(str(tex), cited, EntryIndex.of_library(library), bib_entries, str(bib) if bib else None,
                         facts=lambda: library.memo_table(kinds.TWIN_FACTS, twin_facts), remember=library.remembered)
    from citekit.library.freeze import freeze_leaving

    freeze_leaving(library, None if cited.everything else list(cited.keys), "check")  # the paper cites them: they stay as they are
    library.keep_memos()
    return CheckOutcome(report, problems)


def makefile(*, paper: str = "main", bib: str = "refs.bib", tags: tuple[str, ...] | list[str] = (),
             fmt: str = "bibtex", start: str | Path | None = None, mine: str = "") -> str:
    """Makefile targets that keep a paper's refs.bib in step with the library.

    The project folder and library paths are relative to the current folder, so the
    Makefile works for every clone.
    """
    from citekit.paper.makefile import makefile_snippet

    cfg = config_of(start)
    project = _relative(cfg.root)
    try:
        refs = cfg.refs_dir.resolve().relative_to(cfg.root.resolve()).as_posix()
        library = (f"$(CITEKIT_PROJECT)/{refs}/library.bib", f"$(CITEKIT_PROJECT)/{refs}/library.yaml")
    except ValueError:  # refs outside the project: name it as it is
        library = (_relative(cfg.library_bib), _relative(cfg.library_yaml))
    return makefile_snippet(paper=paper, bib=bib, project=project, library=library,
                            related_tags=tuple(tags), export_format=fmt, mine=mine)


def _relative(path: Path) -> str:
    """``path`` relative to the current folder, so the Makefile works for every clone."""
    rel = os.path.relpath(path.resolve(), Path.cwd().resolve())
    return Path(rel).as_posix()
