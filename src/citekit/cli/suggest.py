"""Commands: ``suggest`` (papers the library lacks that its papers' neighbours keep citing) and ``graph`` (their picture)."""

from __future__ import annotations

import sys

import click

from citekit.cli.app import main, note, print_json, project_dir


def _places(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int]:
    """``1,3,5`` → [1, 3, 5]."""
    if not value:
        return []
    try:
        return [int(part) for part in value.replace(" ", "").split(",") if part]
    except ValueError:
        raise click.BadParameter(f"{value!r}: give places in the list, e.g. 1,3,5") from None


@main.command("suggest")
@click.option("--tag", "tags", multiple=True, help="Seeds: the library's papers with this tag (repeatable: all of them).")
@click.option("--mine", metavar="PAPER", help="Seeds: the library papers your paper cites (.tex, .aux, .md), or one KEY.")
@click.option("--key", "keys", multiple=True, metavar="KEY", help="Seeds: these library keys (repeatable).")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="Show at most this many suggestions.")
@click.option("--add", "add", callback=_places, metavar="1,3,5",
              help="Record these suggestions (places in the list) in the notes inbox, with the tag, and sync.")
@click.option("--dismiss", "dismiss", callback=_places, metavar="2,4",
              help="Never suggest these (places in the list) again.")
@click.option("--dismissed", "list_dismissed", is_flag=True,
              help="List the identifiers of the suggestions you dismissed, and do nothing else.")
@click.option("--source", "sources", multiple=True, type=click.Choice(["semanticscholar", "openalex"]),
              help="Ask this graph service (repeatable; default: semanticscholar, and openalex too when "
                   "CITEKIT_OPENALEX_API_KEY is set).")
@click.option("--refresh", is_flag=True, help="Ask the service again instead of using cached answers.")
@click.option("--offline", is_flag=True, help="Send no request: suggest from what earlier runs cached.")
@click.option("--json", "as_json", is_flag=True, help="Print the suggestions, their reasons and ids as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print the suggestions only: no summary line.")
@click.pass_context
def suggest_command(ctx: click.Context, tags: tuple[str, ...], mine: str | None, keys: tuple[str, ...], limit: int,
                    add: list[int], dismiss: list[int], list_dismissed: bool, sources: tuple[str, ...], refresh: bool,
                    offline: bool, as_json: bool, quiet: bool) -> int:
    """Suggest papers the library lacks that its papers' neighbours keep citing.

    Seeds are a tag's papers, the papers your draft cites, or keys. Each suggestion is cited
    by several seeds (co-citation) or cites several of them (coupling), or is recommended by
    Semantic Scholar; the reason names the keys. Classics cited by the whole field are
    flagged and ranked down. Papers the library holds and dismissed ones never appear.
    Answers are cached: a second run makes no request. Exit code 1 when there is nothing
    to suggest or the service could not be reached and nothing was cached.
    """
    from citekit.api.suggesting import SERVICE_NAMES, dismissed_list, suggest

    if list_dismissed:
        ids = dismissed_list(project_dir(ctx))
        if as_json:
            print_json({"dismissed": ids})
        else:
            for i in ids:
                click.echo(i)
            note(f"{len(ids)} identifier(s) of dismissed suggestions")
        return 0
    report = suggest(project_dir(ctx), tags=tags, mine=mine, keys=keys, limit=limit, add=add, dismiss=dismiss,
                     refresh=refresh, sources=sources, progress=sys.stderr.isatty() and not quiet and not as_json,
                     offline=offline)
    if as_json:
        print_json(report.to_json())
        return 0 if report.suggestions or report.added else 1
    if report.problem:
        click.echo(f"citekit: {report.problem}", err=True)
        return 1
    for n in report.notices:
        note(f"note: {n}")
    for s in report.suggestions:
        p = s.paper
        where = ", ".join(str(x) for x in (p.venue, p.year) if x)
        flag = " [classic]" if s.classic else ""
        ids = " ".join(f"{k}:{v}" for k, v in p.ids().items() if k in ("doi", "arxiv")) or f"{p.source}:{p.id}"
        click.echo(f"{s.rank:>3}. {p.title}" + (f" ({where})" if where else "") + flag)
        if not quiet:
            click.echo(f"     {ids}")
            click.echo(f"     why: {s.reason}")
    for a in report.added:
        click.echo(f"added {a['rank']}: {a['title']} -> {a['key'] or '(pending, no key yet)'} ({a['status']}; {a['where']})",
                   err=True)
    for d in report.dismissed:
        click.echo(f"dismissed {d['rank']}: {d['title']} (not suggested again)", err=True)
    if not quiet:
        seeds = len(report.seeds)
        left = []
        if report.unknown:
            left.append(f"{len(report.unknown)} unknown to {' and '.join(SERVICE_NAMES[n] for n in report.sources)}")
        if report.no_ids:
            left.append(f"{len(report.no_ids)} without a DOI or arXiv id")
        extra = f" ({'; '.join(left)})" if left else ""
        per_source = ", ".join(f"{SERVICE_NAMES[n]} {c}" for n, c in report.requests_by_source.items())
        cached = " (cache only)" if report.from_cache_only else ""
        click.echo(f"{len(report.suggestions)} suggestion(s) from {seeds} seed paper(s){extra}; "
                   f"{report.requests} request(s) ({per_source}){cached}; "
                   "add with --add 1,3 or dismiss with --dismiss 2", err=True)
    return 0 if report.suggestions or report.added else 1


@main.command("graph")
@click.option("--tag", "tags", multiple=True, help="Draw the library's papers with this tag (repeatable: all of them).")
@click.option("--mine", metavar="PAPER",
              help="Draw the library papers your paper cites (.tex, .aux, .md), or one KEY; with --tag, your paper "
                   "among the tag's papers.")
@click.option("--key", "keys", multiple=True, metavar="KEY", help="Draw these library keys (repeatable).")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="The picture: FILE.svg, or FILE.html (with the list).")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=15, show_default=True,
              help="Draw at most this many suggestions.")
@click.option("--source", "sources", multiple=True, type=click.Choice(["semanticscholar", "openalex"]),
              help="Ask this graph service (repeatable; default as for suggest).")
@click.option("--refresh", is_flag=True, help="Ask the service again instead of using cached answers.")
@click.option("--offline", is_flag=True, help="Send no request: draw from what earlier runs cached.")
@click.option("--json", "as_json", is_flag=True, help="Print what was drawn as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but problems.")
@click.pass_context
def graph_command(ctx: click.Context, tags: tuple[str, ...], mine: str | None, keys: tuple[str, ...], output: str,
                  limit: int, sources: tuple[str, ...], refresh: bool, offline: bool, as_json: bool, quiet: bool) -> int:
    """Draw a tag's papers, their top suggestions and who cites whom, as SVG or HTML.

    Library papers and suggestions have their own colours, classics are hollow, a node's size
    is the citations it gets within the picture, and hovering a suggestion shows why it is
    suggested. The file works offline (nothing is fetched when it opens). The seeds and the
    ranking are those of suggest, with the same cache. Exit code 1 when no paper is selected.
    """
    from citekit.api.suggesting import graph

    report = graph(output, project_dir(ctx), tags=tags, mine=mine, keys=keys, limit=limit, refresh=refresh,
                   sources=sources, progress=sys.stderr.isatty() and not quiet and not as_json, offline=offline)
    if as_json:
        print_json(report.to_json())
        return 1 if not report.papers else 0
    if not report.papers:
        click.echo(f"citekit: {report.suggest.problem}", err=True)
        return 1
    if report.suggest.problem:
        # first: why the picture holds no suggestion (a service out of reach is said plainly)
        note(f"note: {report.suggest.problem}")
    for n in report.suggest.notices:
        note(f"note: {n}")
    note(f"drew {report.papers} library paper(s), {report.suggestions} suggestion(s) and {report.edges} citation(s) "
         f"in {report.output}")
    return 0
