"""``add``: options → :func:`citekit.api.add` → print what was found and where it was written."""

from __future__ import annotations

from typing import Any

import click

from citekit.cli.app import main, note, print_json, project_dir


@main.command()
@click.argument("things", nargs=-1, required=True)
@click.option("--tag", "tags", multiple=True, help="Tag the paper (repeatable); written in the notes, so sync keeps it.")
@click.option("--offline", is_flag=True, help="Record it in the notes now, make no request; the next sync looks it up.")
@click.option("--pick", is_flag=True, help="When several records fit equally well, choose one interactively (pinned in the notes).")
@click.option("--json", "as_json", is_flag=True, help="Print what was added as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the keys, one a line.")
@click.pass_context
def add(ctx: click.Context, things: tuple[str, ...], tags: tuple[str, ...], offline: bool, pick: bool, as_json: bool,
        quiet: bool) -> int:
    """Add papers by DOI, arXiv id, link, reference, BibTeX or title to the notes and the library.

    THING is a DOI, an arXiv id or URL, an OpenReview / ACL Anthology / PMLR / dblp / Semantic
    Scholar / conference page, a pasted reference, one pasted BibTeX entry, or a title in
    quotes. It is looked up with the rules of sync, written to the inbox notes file
    (paths.inbox, default notes/inbox.md) and synced. A paper already in the library is
    named and nothing changes. A paper that could not be looked up (--offline, or no
    service reachable) is recorded in the notes, pending (or notes-only when the notes give
    its title and authors), never counted as added: `citekit sync` online looks it up.
    Exit code 1 when a paper was recorded but not found for certain online (notes-only,
    ambiguous or pending) or no service could be reached; 0 when every paper was added,
    recorded with --offline, or already there.
    """
    from citekit import api
    from citekit.api import plural

    report = api.add(list(things), project_dir(ctx), tags=list(tags), offline=offline,
                     pick=_ask if pick and not as_json else None)
    if as_json:
        print_json(report.to_json())
        return report.findings
    for p in report.problems:
        click.echo(f"warning: {p}", err=True)
    for n in report.notices:
        note(f"note: {n}")
    for item in report.items:
        if quiet:
            if item.key:
                click.echo(item.key)
            continue
        _show(item)
    if report.unasked:
        click.echo(f"offline: {plural(len(report.unasked), 'paper')} not looked up (no service could be reached); "
                   f"recorded in {report.inbox}: run `citekit sync` when online", err=True)
    if not quiet:
        _summary(report)
    return report.findings


def _summary(report: Any) -> None:
    """One count line, then the one next step for papers not looked up (said once, not per paper)."""
    from citekit.api import plural

    there = sum(1 for i in report.items if i.status == "already")
    pending = sum(1 for i in report.items if i.resolved_later and not i.key)
    unlooked = sum(1 for i in report.items if i.resolved_later and i.key)
    not_asked = sum(1 for i in report.items if _not_looked_up(i))
    wrote = f"written to {report.inbox} and synced" if report.changed else "nothing written"
    requests = "" if report.asked_offline else f", {plural(report.requests, 'request')}"
    counts = [f"{len(report.items) - there - pending - unlooked} added"]
    if pending:
        counts.append(f"{pending} pending")
    if unlooked:
        counts.append(f"{unlooked} notes-only")
    counts.append(f"{there} already there")
    click.echo(f"{', '.join(counts)} ({wrote}{requests})", err=True)
    if not_asked and not report.unasked:  # (unreachable: the offline: line said it)
        them = "it" if not_asked == 1 else "them"
        click.echo(f"next: run `citekit sync` online to look {them} up", err=True)


def _show(item: Any) -> None:
    """The paper as added: its key, or what was given when it has none yet, and its state."""
    name = item.key or _given(item.thing)
    if item.status == "already":
        label = "already in the library" if item.key else "already in the notes"
    elif _not_looked_up(item):
        why = "no service could be reached" if item.unreachable else "--offline"
        label = (f"notes-only, not looked up ({why}): an entry from the notes alone" if item.key else
                 f"pending, not looked up ({why}): it gets a key once a source gives its title and authors")
    else:
        label = item.status
    click.echo(f"{name}: {label}")
    if item.title:
        who = ", ".join(item.authors[:3]) + (" et al." if len(item.authors) > 3 else "")
        venue = str(item.venue or "").strip()
        where = " ".join(str(x) for x in (venue, item.year if item.year and str(item.year) not in venue else None) if x)
        click.echo(f"    {item.title}" + (f" — {who}" if who else "") + (f" ({where})" if where else ""))
    if item.record:
        click.echo(f"    record: {item.record['source']} {item.record['id']} [{item.record['stage']}]")
    if item.runner_up:
        r = item.runner_up
        click.echo(f"    runner-up: {r['source']} {r['id']} \"{r['title']}\" (score {r['score']})")
    if item.where:
        click.echo(f"    noted at {item.where}")
    if item.message and item.status != "resolved" and not _not_looked_up(item):
        click.echo(f"    {item.message}")  # (not looked up: the headline and the summary's next step say it)


def _not_looked_up(item: Any) -> bool:
    """Recorded without a lookup (``--offline``, or no service answered), as opposed to looked
    up and not found for certain (pending, ambiguous, notes-only: their message says what to do)."""
    return item.status == "offline" or (item.unreachable and not item.key and item.status != "already")


def _given(thing: str, width: int = 80) -> str:
    """What the user gave (an id, a link, a title, the start of a pasted reference), on one line."""
    text = " ".join(thing.split())
    if text.startswith("@"):  # a pasted BibTeX entry: its first line names it
        text = text.split(",")[0]
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _ask(thing: str, options: list[dict[str, Any]]) -> int | None:
    """Ask which record is the paper meant by ``thing`` (0: none of them)."""
    click.echo(f"Several records fit '{thing}':", err=True)
    for i, r in enumerate(options, 1):
        who = ", ".join(r["authors"][:3])
        click.echo(f"  {i}. {r['title']} — {who} ({r['venue'] or r['source']} {r['year'] or ''}) "
                   f"[{r['source']} {r['id']}]", err=True)
    choice = click.prompt("Which one (0: none, decide later)", type=click.IntRange(0, len(options)), default=0,
                          err=True)
    return choice - 1 if choice else None
