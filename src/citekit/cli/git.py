"""Commands: ``git-setup``, ``merge-driver``, ``resolve-conflict`` — a library shared in git."""

from __future__ import annotations

import sys

import click

from citekit.cli.app import friendly_errors, main, print_json, project_dir


@main.command("git-setup")
@click.option("--dry-run", is_flag=True, help="Print what would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing.")
@click.pass_context
@friendly_errors
def git_setup(ctx: click.Context, dry_run: bool, as_json: bool, quiet: bool) -> int:
    """Register citekit's merge driver for refs/ in this git clone.

    Writes .gitattributes lines for refs/library.bib and refs/library.yaml (commit them)
    and merge.citekit.driver in this clone's git config (git does not copy config: every
    clone runs this once).
    """
    from citekit.api.gitmerge import git_setup as setup

    done = setup(project_dir(ctx), dry_run=dry_run)
    if as_json:
        print_json({"written": [] if dry_run else done, "would_write": done if dry_run else []})
    elif not quiet:
        for line in done:
            click.echo(f"{'would write' if dry_run else 'wrote'} {line}")
    return 0


@main.command("merge-driver")
@click.argument("base", type=click.Path(exists=True, dir_okay=False))
@click.argument("ours", type=click.Path(exists=True, dir_okay=False))
@click.argument("theirs", type=click.Path(exists=True, dir_okay=False))
@click.argument("path", default="refs/library.bib")
@click.option("--json", "as_json", is_flag=True, help="Print the conflicts as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print conflicts only.")
@friendly_errors
def merge_driver(base: str, ours: str, theirs: str, path: str, as_json: bool, quiet: bool) -> int:
    """Merge library.bib or library.yaml entry by entry (git runs it: %O %A %B %P).

    Exit 1 when a field was changed differently on both branches: the entry keeps our
    value and a citekit-conflict-FIELD field with theirs; `citekit doctor` lists them.
    """
    from citekit.api.gitmerge import merge_driver as merge

    conflicts = merge(base, ours, theirs, path)
    if as_json:
        print_json({"conflicts": [{"key": k, "field": f} for k, f in conflicts]})
    else:
        for key, field in conflicts:
            click.echo(f"{path}: '{key}' field '{field}' was changed on both branches; settle it with "
                       f"`citekit resolve-conflict {key} --ours|--theirs|--edit`", err=True)
    return 1 if conflicts else 0


@main.command("resolve-conflict")
@click.argument("key")
@click.option("--ours", "side", flag_value="ours", help="Keep this branch's value.")
@click.option("--theirs", "side", flag_value="theirs", help="Take the merged branch's value.")
@click.option("--edit", "side", flag_value="edit",
              help="Choose or write the value in your editor (both values shown); or pipe the value in.")
@click.option("--json", "as_json", is_flag=True, help="Print the settled fields as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing.")
@click.pass_context
@friendly_errors
def resolve_conflict(ctx: click.Context, key: str, side: str | None, as_json: bool, quiet: bool) -> int:
    """Settle a merge conflict the merge driver left in one entry.

    --edit opens both values between conflict markers: keep one (or write your own); saving
    it unchanged or empty changes nothing. Without a terminal the value is read from stdin,
    or, when nothing is piped in, written in $VISUAL / $EDITOR.
    The value kept counts as a hand edit: no later sync changes it.
    """
    from citekit.api.gitmerge import conflicts_of
    from citekit.api.gitmerge import resolve_conflict as settle

    if side is None:
        raise click.UsageError("say which value to keep: --ours, --theirs or --edit")
    value = _edited_value(key, project_dir(ctx)) if side == "edit" else None
    settled = settle(key, side, value, project_dir(ctx))
    left = list(conflicts_of(key, project_dir(ctx))) if settled else []
    if as_json:
        print_json({"key": key, "settled": settled, "still_in_conflict": left})
    elif not quiet:
        click.echo(f"{key}: settled {', '.join(settled)} ({side}); " + (
            f"still in conflict: {', '.join(left)}" if left else "commit refs/ to finish the merge") if settled
                   else f"{key}: no merge conflict to settle")
    return 0


def _edited_value(key: str, start: str | None) -> str | None:
    """The text ``--edit`` settles with: what is piped in, else what the user saved in the
    editor (opened on both values); None when the entry has no conflict to edit. An editor
    that cannot run, or no terminal and no $VISUAL/$EDITOR, is an error: nothing changes."""
    import os

    from citekit.api.gitmerge import NothingSettled, conflict_text

    template = conflict_text(key, start)
    if not template:
        return None
    if not sys.stdin.isatty():
        piped = sys.stdin.read()
        if piped.strip():
            return piped
        if not (os.environ.get("VISUAL") or os.environ.get("EDITOR")):
            raise NothingSettled(key, "no terminal to open an editor in, no $EDITOR and no value piped in")
    try:
        saved = click.edit(template, require_save=True, extension=".txt")
    except click.ClickException as exc:
        raise NothingSettled(key, f"the editor did not run ({exc.format_message()})") from None
    if saved is None or saved.strip() == template.strip():
        raise NothingSettled(key, "the file was saved unchanged (or not saved)")
    return saved
