"""Commands: ``tags`` (what tags the library uses) and ``tag`` (add/remove tags by hand)."""

from __future__ import annotations

import sys

import click

from ..config import load_config
from ..library.lock import writing
from ..library.store import Library
from ..library.tags import TagRuleError, apply_manual, tag_counts
from .app import main
from .app import friendly_errors, print_json, project_dir


@main.command("tags")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON (for scripts).")
@click.pass_context
@friendly_errors
def tags_command(ctx: click.Context, as_json: bool) -> None:
    """List the tags of the library with how many papers carry each."""
    config = load_config(project_dir(ctx))
    library = Library.load(config.refs_dir)
    counts = tag_counts(library.entries.values())
    if as_json:
        print_json([{"tag": tag, "count": n} for tag, n in counts])
        return
    if not counts:
        click.echo("No tags yet: run `citekit sync`, or add one with `citekit tag KEY +tag`.", err=True)
        return
    width = max(len(str(n)) for _, n in counts)
    for tag, n in counts:
        click.echo(f"{n:>{width}}  {tag}")


# No short options here, so "-theory" reaches CHANGES instead of being read as "-t -h ...".
@main.command("tag", context_settings={"ignore_unknown_options": True, "help_option_names": ["--help"]})
@click.argument("key")
@click.argument("changes", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
@friendly_errors
def tag_command(ctx: click.Context, key: str, changes: tuple[str, ...]) -> None:
    """Add (+tag) or remove (-tag) tags of one paper by hand; rules never undo this.

    \b
    citekit tag huang2026limuon +must-read -theory
    Without changes, prints the paper's tags. KEY may be an old (alias) key.
    """
    config = load_config(project_dir(ctx))
    with writing(config.refs_dir, f"tag {key} {' '.join(changes)}".strip(), write=bool(changes)):
        library = Library.load(config.refs_dir)
        entry = library.get(key)
        if entry is None:
            click.echo(f"citekit: no entry with key {key!r}; see `citekit list` for the keys.", err=True)
            sys.exit(1)
        if changes:
            try:
                apply_manual(entry, list(changes))
            except TagRuleError as exc:
                click.echo(f"citekit: {exc}", err=True)
                sys.exit(2)
            library.save()
    shown = entry.key if entry.key == key else f"{key} -> {entry.key}"
    click.echo(f"{shown}: {', '.join(entry.tags) or '(no tags)'}")
    if entry.tags_added or entry.tags_removed:
        extra = [f"added by hand: {', '.join(entry.tags_added)}" if entry.tags_added else "",
                 f"removed by hand: {', '.join(entry.tags_removed)}" if entry.tags_removed else ""]
        click.echo("  " + "; ".join(e for e in extra if e))
