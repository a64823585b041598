"""Commands for a paper's repository: ``check`` (its citations) and ``makefile`` (build targets)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from citekit.cli.app import main, project_dir


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
    Warnings: old keys (renamed or merged entries), arXiv entries that have a published version,
    and with --bib, entries of the paper's .bib that nothing cites or that lag behind
    the library.
    """
    from citekit import api

    outcome = api.check(tex, aux=aux, bib=bib, start=project_dir(ctx))
    for problem in outcome.bib_problems:
        click.echo(f"citekit: warning: {problem}", err=True)
    report = outcome.report
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
@click.option("--mine", default="", metavar="FILE|KEY",
              help="Default RELATED_MINE: your paper, which related-work.tex is written against (--mine).")
@click.pass_context
def makefile(ctx: click.Context, paper: str, bib: str, tags: tuple[str, ...], fmt: str, mine: str) -> None:
    """Print Makefile targets that keep a paper's refs.bib in step with the library.

    Write them to citekit.mk and put `include citekit.mk` at the top of the paper's
    Makefile (above your rules, which may use its variables), then: make refs.bib, make
    related-work.tex, make check-refs. The project folder and library paths are filled in relative to
    the current folder.
    """
    from citekit import api

    click.echo(api.makefile(paper=paper, bib=bib, tags=tags, fmt=fmt, start=project_dir(ctx), mine=mine), nl=False)
