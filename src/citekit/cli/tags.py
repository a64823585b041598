"""Commands: ``tags`` (what tags the library uses) and ``tag`` (add/remove tags by hand)."""

from __future__ import annotations

import click

from citekit.cli.app import (PROJECT_OPTIONS, CitekitCommand, main, note, print_json, project_dir,
                             refuse_project_option)


@main.command("tags")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON (for scripts).")
@click.option("-q", "--quiet", is_flag=True, help="Print the counts only, no hint when there are none.")
@click.pass_context
def tags_command(ctx: click.Context, as_json: bool, quiet: bool) -> None:
    """List the tags of the library with how many papers carry each."""
    from citekit.api import library_tags

    counts = library_tags(project_dir(ctx))
    if as_json:
        print_json([{"tag": tag, "count": n} for tag, n in counts])
        return
    if not counts:
        note("No tags yet: run `citekit sync`, or add one with `citekit tag KEY +tag`.")
        return
    width = max(len(str(n)) for _, n in counts)
    for tag, n in counts:
        click.echo(f"{n:>{width}}  {tag}")


class TagCommand(CitekitCommand):
    """``tag KEY +a -b``: every word after KEY is a change, so ``-theory`` is never read as
    options ``-t -h ...``. Only the exact words ``-h``/``--help``, ``-q``/``--quiet`` and
    ``--json`` are options; after ``--`` even those are changes (``citekit tag KEY -- -h``
    removes a tag named h; ``+h`` adds it, with or without ``--``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        head, tail = (args[:args.index("--")], args[args.index("--") + 1:]) if "--" in args else (args, [])
        if any(a in ("-h", "--help") for a in head):
            click.echo(self.get_help(ctx), color=ctx.color)
            ctx.exit()
        flags = [a for a in head if a in ("-q", "--quiet", "--json")]
        words = [a for a in head if a not in flags]
        if words:  # in KEY's place; after KEY, -C alone is a change (remove the tag C)
            refuse_project_option(ctx, self.name or "tag", words[:2] if words[0].startswith("-") else [], args)
        self._refuse_misplaced_folder(ctx, args)
        for word in [*words[1:], *tail]:
            if word.strip() and word.strip()[0] not in "+-":
                raise click.UsageError(f"'{word}' is not a change: write +{word.strip()} to add the tag or "
                                       f"-{word.strip()} to remove it; nothing was changed.", ctx)
        return super().parse_args(ctx, [*flags, "--", *words, *tail])

    def _refuse_misplaced_folder(self, ctx: click.Context, args: list[str]) -> None:
        """``tag KEY -C ../b +y``: ``-C`` followed by a word that is no change (or ``-C=DIR``,
        ``--project=DIR``) is the project option in the wrong place, not "remove the tag C"
        and "add the tag ../b"; said so with the command line to type."""
        end = args.index("--") if "--" in args else len(args)
        for i, word in enumerate(args[:end]):
            follows = args[i + 1] if i + 1 < end else ""
            if (word in PROJECT_OPTIONS and follows and follows[0] not in "+-") or \
                    word.startswith(tuple(o + "=" for o in PROJECT_OPTIONS)):
                refuse_project_option(ctx, self.name or "tag", ["" if j < i else a for j, a in enumerate(args)], args)


@main.command("tag", cls=TagCommand)
@click.argument("key")
@click.argument("changes", nargs=-1, type=click.UNPROCESSED)
@click.option("--json", "as_json", is_flag=True, help='Print {"key", "tags", "added", "removed", "not_carried"} as JSON.')
@click.option("-q", "--quiet", is_flag=True, help="Print nothing when changes were given.")
@click.pass_context
def tag_command(ctx: click.Context, key: str, changes: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Add (+tag) or remove (-tag) tags of one paper by hand; rules never undo this.

    Without changes, prints the paper's tags. KEY may be an old (alias) key. -h is help:
    a tag named h is added with +h (citekit tag KEY +h) and removed after --
    (citekit tag KEY -- -h). Removing a tag the paper does not carry says so. A tag
    starts with a letter or digit and holds letters, digits, - . / : + (spaces become -);
    anything else, or a word without + or -, is refused and nothing is written.
    """
    from citekit import api
    from citekit.api.library import UnknownKey

    try:  # a bad tag is TagRuleError: exit 2, nothing saved
        result = api.tag(key, list(changes), project_dir(ctx))
    except UnknownKey as exc:
        raise click.BadParameter(str(exc), param_hint="KEY") from None
    entry = result.entry
    for absent in result.not_carried:  # (--json: "not_carried")
        note(f"note: {entry.key} had no tag '{absent}'; it is now marked removed by hand, so no rule adds it. "
             f"To add a tag named {absent} instead: citekit tag {key} +{absent}")
    if as_json:
        print_json(result.to_json())
        return
    if quiet and changes:
        return
    shown = entry.key if entry.key == key else f"{key} -> {entry.key}"
    click.echo(f"{shown}: {', '.join(entry.tags) or '(no tags)'}")
    if entry.tags_added or entry.tags_removed:
        extra = [f"added by hand: {', '.join(entry.tags_added)}" if entry.tags_added else "",
                 f"removed by hand: {', '.join(entry.tags_removed)}" if entry.tags_removed else ""]
        click.echo("  " + "; ".join(e for e in extra if e))
