"""Command: ``rename`` — a citation key of the user's choosing, the old one kept working.

The work (the lock, the transaction, the key map) is :mod:`citekit.api.keys`'s; this
command parses its arguments, makes one call and prints the outcome.
"""

from __future__ import annotations

import click

from citekit.cli.app import main, note, print_json, project_dir, wants_json


@main.command()
@click.argument("old")
@click.argument("new")
@click.pass_context
def rename(ctx: click.Context, old: str, new: str) -> None:
    """Give an entry a new citation key; the old key keeps working (alias and key map).

    OLD is the entry's key (or an old key of it). OLD stays an alias: `citekit show OLD`
    finds the entry, biblatex resolves it through `ids`, and it goes to refs/keymap.yaml,
    so `citekit rekey paper.tex` rewrites the paper's \\cite commands. A NEW that is not a
    valid BibTeX key, or that another entry has or had, is refused (exit 2). A renamed key
    is permanent: no sync re-forms it.
    """
    from citekit.api.keys import rename_key

    done = rename_key(old, new, start=project_dir(ctx))
    if wants_json(ctx):
        print_json(done.to_json())
        return
    if not done.changed:
        note(f"'{done.new}' is already the key of this entry: nothing to do")
        return
    asked = f" (asked as its old key '{done.asked}')" if done.asked != done.old else ""
    click.echo(f"{done.old} -> {done.new}{asked}")
    note(f"'{done.old}' stays an alias of '{done.new}' and is in {done.key_map_shown}; "
         "run `citekit rekey paper.tex` to rewrite a paper's citations")
