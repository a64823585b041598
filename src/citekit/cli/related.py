"""Command: ``related-work`` (a paste-ready paragraph per sub-topic, from the library)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from citekit.api.related import CITE_STYLES, FORMATS
from citekit.api import plural
from citekit.cli.app import friendly_errors, main, note, project_dir, warn, warn_unknown_tags


@main.command("related-work")
@click.option("--tag", "tags", multiple=True, metavar="TAG",
              help="Papers with this tag (repeat: all of them; -TAG or not:TAG excludes).")
@click.option("--any", "any_", is_flag=True, help="Papers with any of the --tag tags instead of all.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="latex", show_default=True)
@click.option("--cite", type=click.Choice(CITE_STYLES), default="natbib", show_default=True,
              help="LaTeX citation commands: natbib (\\citet/\\citep) or biblatex (\\textcite/\\parencite).")
@click.option("--links", is_flag=True, help="Markdown with plain [Title](url) links instead of pandoc citations.")
@click.option("--mine", default=None, metavar="FILE|KEY|-",
              help="Your paper: its .tex or .md (the abstract is read), a YAML file (title, abstract, tags, claims), "
                   "key:KEY or a bare KEY of a library entry, or - for an abstract on stdin. Closest papers first, "
                   "plus contrast placeholders.")
@click.option("--abstract", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Your abstract as a text file (instead of --mine).")
@click.option("--group", "groups", multiple=True, metavar="NAME=TAG[,TAG]",
              help="A paragraph of its own for papers with these tags (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the snippet to this file (default: print it).")
@click.option("--force", is_flag=True,
              help="With -o: overwrite FILE even when it was edited since citekit wrote it.")
@click.option("--keep-edited", is_flag=True,
              help="With -o, for build rules: when FILE was edited, keep it, write the new draft to FILE.new, "
                   "warn, and exit 0 (without it, exit 1).")
@click.option("--check", is_flag=True,
              help="Lint the snippet like a reviewer (copied citations, macros, markup, first person, dangling "
                   "references, lower-case starts); list any defect on stderr and exit 1.")
@click.option("--check-file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Lint your own edited draft (.tex, or .md) instead of writing one: each sentence is read against "
                   "the record of the paper it cites; defects on stderr, exit 1.")
@click.pass_context
@friendly_errors
def related_work_command(ctx: click.Context, tags: tuple[str, ...], any_: bool, fmt: str, cite: str, links: bool,
                         mine: str | None, abstract: str | None, groups: tuple[str, ...], output: Path | None,
                         force: bool, keep_edited: bool, check: bool, check_file: Path | None) -> None:
    """Write a related-work snippet (LaTeX or Markdown) about the library's papers on a topic.

    Exit code 1, and nothing written, when no paper has the tags. With -o FILE, a FILE you
    edited since citekit wrote it (or one citekit did not write) is never overwritten: the
    new draft goes to FILE.new beside it and the exit code is 1 (see --force, --keep-edited).
    """
    from citekit.api.related import check_draft, check_snippet, related_work, write_snippet

    if check_file:  # the author's draft, read against the records of what it cites
        found = check_draft(project_dir(ctx), check_file, fmt if ctx.get_parameter_source("fmt").name != "DEFAULT" else None)
        for defect in found:
            click.echo(f"check: {defect}", err=True)
        if found:
            click.echo(f"check: {len(found)} defects in {check_file}; edit those sentences and run again.", err=True)
            sys.exit(1)
        note(f"check: no defects in {check_file}")
        return
    if keep_edited and output:
        tags, any_, mine, abstract, groups = _as_recorded(output, tags, any_, mine, abstract, groups)
    snippet = related_work(project_dir(ctx), tags=tags, any_=any_, fmt=fmt, cite=cite, links=links, mine=mine,
                           abstract=abstract, groups=groups)
    warn_unknown_tags(ctx, tags, any_)
    text = snippet.text
    if (force or keep_edited) and not output:
        raise click.UsageError("--force and --keep-edited only apply with -o FILE.")
    # checked before it is written: a draft kept beside an edited FILE is still checked
    defects = check_snippet(text, fmt, snippet.titles, snippet.abstracts, snippet.records) if check else []
    for defect in defects:
        click.echo(f"check: {defect}", err=True)
    if check and not defects:
        note("check: no defects")
    if output:
        written = write_snippet(output, text, force=force, keep_edited=keep_edited)
        if written.beside:
            warn(written.message)
        else:
            note(f"wrote {plural(snippet.count, 'paper')} to {output}")
    else:
        click.echo(text, nl=False)
    if defects:
        click.echo(f"check: {len(defects)} defects; {_what_changes_the_text(output)}", err=True)
        sys.exit(1)


def _what_changes_the_text(output: Path | None) -> str:
    """The hint after ``--check``'s defects: the draft's sentences are made from each paper's
    abstract (or title), never from the summary the notes give it, so what the user can change
    is the draft itself, then check that copy (``--check-file``; a re-run with ``-o`` never
    overwrites an edited FILE)."""
    where, file = (f"in {output}", str(output)) if output else ("in your copy of the snippet", "FILE")
    return (f"edit those sentences {where}, then check it with `citekit related-work --check-file {file}` "
            "(they come from each paper's abstract, else its title; a summary in refs/library.yaml is never used).")


def _as_recorded(output: Path, tags: tuple[str, ...], any_: bool, mine: str | None, abstract: str | None,
                 groups: tuple[str, ...]) -> tuple[tuple[str, ...], bool, str | None, str | None, tuple[str, ...]]:
    """A build rule's run (``--keep-edited``) takes what it does not give from the way the
    draft at ``output`` was made (its first line): a draft written by hand with ``--mine``
    is regenerated against the same paper, not replaced by one without it."""
    from citekit.api.related import recorded_options

    rec = recorded_options(output)
    if rec is None:
        return tags, any_, mine, abstract, groups
    taken = []
    if not mine and not abstract and (rec.mine or rec.abstract):
        mine, abstract = rec.mine, rec.abstract
        taken.append(f"--mine {mine}" if mine else f"--abstract {abstract}")
    if not tags and rec.tags:
        tags, any_ = rec.tags, rec.any_
        taken.append(" ".join(f"--tag {t}" for t in tags) + (" --any" if any_ else ""))
    if not groups and rec.groups:
        groups = rec.groups
        taken.append(" ".join(f"--group {g}" for g in groups))
    if taken:
        note(f"{output.name} was made with {' '.join(taken)}: regenerated the same way "
             "(give the option, or RELATED_MINE/RELATED_TAGS in the Makefile, to change it)")
    return tags, any_, mine, abstract, groups
