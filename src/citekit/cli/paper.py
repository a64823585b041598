"""Commands for a paper's repository: ``check`` (its citations) and ``makefile`` (build targets)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from .app import main, project_dir


@main.command()
@click.argument("tex", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--aux", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Also read the compiled .aux (exact keys, including those from macros and packages).")
@click.option("--bib", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The paper's own .bib (e.g. refs.bib): also list entries it has but the paper does not cite.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too (old keys, arXiv versions, unused entries).")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing when the paper has no problem; else only the problems.")
@click.pass_context
def check(ctx: click.Context, tex: Path, aux: Path | None, bib: Path | None, as_json: bool, strict: bool,
          quiet: bool) -> int:
    """Check a paper's citations against the library.

    Errors (exit 1): cited keys no one defines, each with the closest library entries.
    Warnings: old keys of merged entries, arXiv entries that have a published version,
    and with --bib, entries of the paper's .bib that nothing cites or that lag behind
    the library.
    """
    from ..config import load_config
    from ..library.check import check_paper
    from ..library.store import Library
    from ..output.cited import citations_from_aux, citations_from_tex

    cited = citations_from_tex(tex)
    if aux is not None:
        cited.update(citations_from_aux(aux))
    cfg = load_config(project_dir(ctx))
    library = Library.load(cfg.refs_dir)
    bib_entries = None
    if bib is not None:
        from ..library.bibfile import read_bib_file

        parsed = read_bib_file(bib)
        for problem in parsed.problems:
            click.echo(f"citekit: warning: {problem}", err=True)
        bib_entries = parsed.entries
    from ..library.check import twin_facts
    from ..output.cited import EntryIndex

    report = check_paper(str(tex), cited, EntryIndex.of_library(library), bib_entries, str(bib) if bib else None,
                         facts=lambda: library.memo_table("twin-facts:1", twin_facts), remember=library.remembered)
    library.keep_memos()
    code = report.exit_code(strict)
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif not (quiet and code == 0):
        click.echo(report.format_text())
    return code


@main.command()
@click.option("--paper", default="main", show_default=True, help="The paper's main file, without .tex.")
@click.option("--bib", default="refs.bib", show_default=True, help="The .bib file the paper reads.")
@click.option("--tag", "tags", multiple=True, help="Default RELATED_TAGS for related-work.tex (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["bibtex", "biblatex"]), default="bibtex", show_default=True,
              help="biblatex if the paper uses biblatex/biber.")
@click.pass_context
def makefile(ctx: click.Context, paper: str, bib: str, tags: tuple[str, ...], fmt: str) -> None:
    """Print Makefile targets that keep a paper's refs.bib in step with the library.

    Append them to the paper's Makefile, then: make refs.bib, make related-work.tex,
    make check-refs. The project folder and library paths are filled in relative to
    the current folder.
    """
    from ..config import load_config
    from ..output.makefile import makefile_snippet

    cfg = load_config(project_dir(ctx))
    project = _relative(cfg.root)
    try:
        refs = cfg.refs_dir.resolve().relative_to(cfg.root.resolve()).as_posix()
        library = (f"$(CITEKIT_PROJECT)/{refs}/library.bib", f"$(CITEKIT_PROJECT)/{refs}/library.yaml")
    except ValueError:  # refs outside the project: name it as it is
        library = (_relative(cfg.library_bib), _relative(cfg.library_yaml))
    click.echo(makefile_snippet(paper=paper, bib=bib, project=project, library=library,
                                related_tags=tags, export_format=fmt), nl=False)


def _relative(path: Path) -> str:
    """``path`` relative to the current folder, so the Makefile works for every clone."""
    rel = os.path.relpath(path.resolve(), Path.cwd().resolve())
    return Path(rel).as_posix()
