"""Command: ``related-work`` (a paste-ready paragraph per sub-topic, from the library)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from ..config import load_config
from ..library.store import Library, atomic_write
from ..library.tags import TagRuleError, load_rules, select
from ..output.related_work import (
    CITE_STYLES,
    FORMATS,
    GroupSpec,
    Mine,
    RelatedWorkError,
    load_mine,
    mine_from_abstract,
    related_work,
)
from .app import main
from .app import friendly_errors, note, project_dir


def _config_groups(data: dict) -> list[GroupSpec]:
    """``related_work: {groups: {"Muon analysis": [theory]}}`` from citekit.yaml."""
    section = data.get("related_work") or {}
    raw = section.get("groups") if isinstance(section, dict) else None
    if not raw:
        return []
    if not isinstance(raw, dict):
        raise RelatedWorkError("citekit.yaml: related_work.groups must map a paragraph name to tags, "
                               "e.g. {\"Muon analysis\": [theory]}.")
    specs = []
    for name, tags in raw.items():
        tag_list = [tags] if isinstance(tags, str) else list(tags or [])
        specs.append(GroupSpec.parse(f"{name}={','.join(str(t) for t in tag_list)}"))
    return specs


def _command_line(tags: tuple[str, ...], any_: bool, fmt: str, cite: str, links: bool, mine: str | None,
                  abstract: str | None, groups: tuple[str, ...]) -> str:
    """The invocation, rebuilt from the options, for the snippet's header comment."""
    words = ["citekit", "related-work"]
    for t in tags:
        words += ["--tag", t]
    if any_:
        words.append("--any")
    if fmt != "latex":
        words += ["--format", fmt]
    if cite != "natbib":
        words += ["--cite", cite]
    if links:
        words.append("--links")
    if mine:
        words += ["--mine", mine]
    if abstract:
        words += ["--abstract", abstract]
    for g in groups:
        words += ["--group", g]
    return " ".join(shlex.quote(w) for w in words)


@main.command("related-work")
@click.option("--tag", "tags", multiple=True, metavar="TAG",
              help="Papers with this tag (repeat: all of them; -TAG or not:TAG excludes).")
@click.option("--any", "any_", is_flag=True, help="Papers with any of the --tag tags instead of all.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="latex", show_default=True)
@click.option("--cite", type=click.Choice(CITE_STYLES), default="natbib", show_default=True,
              help="LaTeX citation commands: natbib (\\citet/\\citep) or biblatex (\\textcite/\\parencite).")
@click.option("--links", is_flag=True, help="Markdown with plain [Title](url) links instead of pandoc citations.")
@click.option("--mine", type=click.Path(exists=True, dir_okay=False), default=None,
              help="YAML of your paper (title, abstract, tags, claims): closest papers first, plus contrast placeholders.")
@click.option("--abstract", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Your abstract as a text file (instead of --mine).")
@click.option("--group", "groups", multiple=True, metavar="NAME=TAG[,TAG]",
              help="A paragraph of its own for papers with these tags (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the snippet to this file (default: print it).")
@click.option("--check", is_flag=True,
              help="Lint the snippet like a reviewer (copied citations, macros, markup, first person, dangling "
                   "references, lower-case starts); list any defect on stderr and exit 1.")
@click.pass_context
@friendly_errors
def related_work_command(ctx: click.Context, tags: tuple[str, ...], any_: bool, fmt: str, cite: str, links: bool,
                         mine: str | None, abstract: str | None, groups: tuple[str, ...], output: Path | None,
                         check: bool) -> None:
    """Write a related-work snippet (LaTeX or Markdown) about the library's papers on a topic.

    Exit code 1, and nothing written, when no paper has the tags.
    """
    try:
        if mine and abstract:
            raise RelatedWorkError("give either --mine or --abstract, not both.")
        config = load_config(project_dir(ctx))
        rules = load_rules(config.data)
        own: Mine | None = load_mine(Path(mine)) if mine else (mine_from_abstract(Path(abstract)) if abstract else None)
        specs = [GroupSpec.parse(g) for g in groups] if groups else _config_groups(config.data)
        library = Library.load(config.refs_dir)
        selection = list(tags)
        if not any(not t.startswith(("-", "not:")) for t in selection) and own and own.tags:
            selection += own.tags  # no topic given: the tags of the user's paper, any of them
            any_ = True
        if not any(not t.startswith(("-", "not:")) for t in selection):
            raise RelatedWorkError("choose the papers with --tag TAG (see `citekit tags` for the tags in use).")
        entries = select(library.sorted_entries(), selection, any_=any_)
        if not entries:  # an empty selection is a finding (exit 1), not a usage error; nothing is written
            click.echo(f"citekit: no paper in {config.library_bib} matches {' '.join(selection)}; "
                       "see `citekit tags` for the tags in use, or try --any.", err=True)
            sys.exit(1)
        try:
            source = str(config.library_bib.relative_to(config.root))
        except ValueError:
            source = str(config.library_bib)
        text = related_work(entries, fmt=fmt, cite=cite, links=links, mine=own, groups=specs,
                            command_line=_command_line(tags, any_ and bool(tags), fmt, cite, links, mine, abstract,
                                                       groups),
                            tags=selection if not any_ else None, rules=rules, source=source)
    except (RelatedWorkError, TagRuleError) as exc:
        click.echo(f"citekit: {exc}", err=True)
        sys.exit(2)
    if output:
        atomic_write(output, text)
        note(f"wrote {len(entries)} papers to {output}")
    else:
        click.echo(text, nl=False)
    if check:
        from ..output.related_check import check_snippet

        defects = check_snippet(text, fmt)
        for defect in defects:
            click.echo(f"check: {defect}", err=True)
        if defects:
            click.echo(f"check: {len(defects)} defects; edit those sentences (or the records' summaries in "
                       "refs/library.yaml) and run again.", err=True)
            sys.exit(1)
        note("check: no defects")
