"""Command: ``search`` (the library's entries matching a query, best first)."""

from __future__ import annotations

import click

from citekit.cli.app import main, project_dir


@main.command("search")
@click.argument("query", nargs=-1, required=True)
@click.option("-n", "--limit", type=click.IntRange(min=0), default=20, show_default=True,
              help="Show at most this many entries (0: all).")
@click.option("--json", "as_json", is_flag=True, help="Print the query, the count and the entries found as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print the entries only: no count line.")
@click.pass_context
def search_command(ctx: click.Context, query: tuple[str, ...], limit: int, as_json: bool, quiet: bool) -> int:
    """Find the library's entries matching a query, best first.

    Words are looked up in titles, abstracts, venues and author names (accents, case,
    plurals and LaTeX do not matter) and ranked by BM25, the title counting most; "quoted phrases" must
    stand together. Filters: author:NAME, year:2024 (or 2024..2026, 2024.., ..2026),
    tag:TAG (tag:-TAG excludes), status:STATUS, venue:VENUE (short names too: icml),
    key:PART. Everything given must hold. Works of the notes not resolved yet (pending)
    are found too and listed after the entries, marked (pending); an author: filter ranks
    the papers the person wrote first above those they co-wrote. Quote the query for the shell when it holds
    phrases.

    Exit status, as grep's: 0 when an entry of the library matches, 1 when none does. A
    pending work alone is listed and said, but is no entry to cite (exit 1); with
    status:pending, the pending works are what is asked for (exit 0 when one matches).
    """
    from citekit.api.search import search_library

    text = " ".join(query)
    result = search_library(text, project_dir(ctx), limit=limit or None)
    if as_json:
        from citekit.cli.app import print_json

        print_json(result.to_json())
    else:
        for line in result.lines + result.pending_lines():
            click.echo(line)
    if not result.total and not result.pending:
        click.echo(f"citekit: nothing matches {text!r}; fewer words or filters find more "
                   "(`citekit list` shows every entry).", err=True)
        return 1
    if not result.found and not as_json:
        works = "1 pending work of the notes matches" if len(result.pending) == 1 else \
            f"{len(result.pending)} pending works of the notes match"
        click.echo(f"citekit: no entry of the library matches {text!r}; {works} (listed above, not resolved yet, so "
                   "no key to cite: `citekit sync` online looks it up)", err=True)
    if not result.found:
        return 1
    if not quiet and not as_json:
        more = f" (the best {len(result.lines)}; --limit 0 shows all)" if result.total > len(result.lines) else ""
        count = "1 entry matches" if result.total == 1 else f"{result.total} entries match"
        if result.pending:
            count += f", and {len(result.pending)} pending work{'s' if len(result.pending) != 1 else ''} (not resolved yet)"
        click.echo(f"{count}{more}", err=True)
    return 0
