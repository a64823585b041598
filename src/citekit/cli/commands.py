"""Core commands: ``extract``, ``sync``, ``list``, ``show``."""

from __future__ import annotations

import sys
from typing import Any

import click

from citekit.api import plural
from citekit.cli.app import (Streamed, main, note, print_json, project_dir, stream_json, summary,
                             warn_unknown_tags)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print the mentions as JSON (for scripts).")
@click.option("-q", "--quiet", is_flag=True, help="Print the mentions only: no summary line.")
@click.option("--explain", is_flag=True, help="Say, line by line, what became a mention (which rule, which fields) and why paper-looking lines were not taken.")
@click.pass_context
def extract(ctx: click.Context, paths: tuple[str, ...], as_json: bool, quiet: bool, explain: bool) -> int:
    """Show the paper mentions found in notes (default: the project's notes folder).

    With --explain, every line or block is listed with what became of it. Exit code 1 when
    a file or line could not be read, or no mention was found.
    """
    from citekit import api

    if explain:
        explanations = api.explain(list(paths) or None, start=project_dir(ctx))
        if as_json:
            print_json([e.to_json() for e in explanations])
            return 0
        from citekit.api.notes import render_explanations

        for line in render_explanations(explanations):
            click.echo(line)
        return 0
    if as_json or quiet:
        return _extract_streamed(ctx, paths, as_json)
    result = api.extract(list(paths) or None, start=project_dir(ctx))
    findings = 1 if (result.problems or not result.mentions) else 0
    for m in result.mentions:
        _echo_mention(m)
    for p in result.problems:
        click.echo(f"warning: {p}", err=True)
    if not quiet:
        from citekit.api.notes import count_works

        click.echo(f"{plural(len(result.mentions), 'mention')}, {plural(count_works(result.mentions), 'work')}", err=True)
    return findings


def _extract_streamed(ctx: click.Context, paths: tuple[str, ...], as_json: bool) -> int:
    """``extract --json`` and ``extract -q``: each mention written as it is found, the
    problems after them (a big notes file's mentions are never all held, as values or text)."""
    from citekit import api

    stream = api.extract_stream(list(paths) or None, start=project_dir(ctx))
    if as_json:
        mentions = iter(stream)
        first = next(mentions, None)  # (the encoder writes "[]" for no mention: it must know)
        items = (m.to_json() for m in _chained(first, mentions))
        stream_json({
            "mentions": Streamed(items, 0 if first is None else 1),
            "problems": Streamed(({"file": p.file, "line": p.line, "message": p.message} for p in stream.problems),
                                 lambda: len(stream.problems)),
        })
    else:
        for m in stream:
            _echo_mention(m)
        for p in stream.problems:
            click.echo(f"warning: {p}", err=True)
    return 1 if (stream.problems or not stream.count) else 0


def _chained(first: Any, rest: Any) -> Any:
    """``first`` (unless None), then the rest of the iterator."""
    if first is not None:
        yield first
        del first
    yield from rest


def _echo_mention(m: Any) -> None:
    """A mention as ``extract`` prints it: where, what, and its details indented below."""
    click.echo(f"{m.location}: {_mention_label(m)}")
    details = [("authors", "; ".join(m.authors))]
    details += [("url", u) for u in m.urls]
    details += [(label, u) for label, u in sorted(m.links.items())]
    details += [("venue", f"{m.venue} {m.year or ''}".strip() if m.venue else "")]
    details += [("section", m.section or ""), ("tags", " ".join("#" + h for h in m.hashtags))]
    details += [("pinned", ", ".join(f"{k}: {v}" for k, v in m.pins.items()))]
    if m.summary:
        details.append(("summary", m.summary if len(m.summary) <= 70 else m.summary[:69] + "…"))
    for name, value in details:
        if value:
            click.echo(f"    {name}: {value}")


def _mention_label(m: Any) -> str:
    """A one-line name for a mention: its title, else what identifies it."""
    if m.title:
        return m.title
    if m.hints:
        return f"[{m.kind}] introduces {', '.join(m.hints[:4])}"
    if m.kind == "abstract" and m.abstract:
        words = m.abstract.split()
        return f"[abstract] {' '.join(words[:10])}…"
    if m.reference and not m.urls:  # a pasted reference the parser could not read a title from
        return f"[{m.kind}] {m.reference[:100]}" + ("…" if len(m.reference) > 100 else "")
    return f"[{m.kind}] " + (m.urls[0] if m.urls else next(iter(m.links.values()), ""))


@main.command()
@click.option("--offline", is_flag=True, help="Build entries from the notes alone; make no request.")
@click.option("--refresh", is_flag=True, help="Ignore the lookup cache (answers are stored again).")
@click.option("--retry", is_flag=True,
              help="Look up now the papers no source found, or none could be asked about, which wait for their next try.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=8, show_default=True, help="Mentions resolved at once.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary table.")
@click.option("--ascii/--utf8", "ascii_mode", default=None,
              help="Write library.bib with LaTeX escapes (--ascii) or UTF-8 (--utf8); remembered for later syncs.")
@click.pass_context
def sync(ctx: click.Context, offline: bool, refresh: bool, retry: bool, jobs: int, as_json: bool, quiet: bool,
         ascii_mode: bool | None) -> int:
    """Resolve every paper in the notes and write refs/library.bib.

    Without network (or with --offline) entries are built from the notes alone and marked
    notes-only; the next online sync upgrades them. Answers are cached in .citekit/, so a
    second sync of unchanged notes sends no request, and a sync whose notes, configuration
    and library are exactly as at the last sync that changed nothing prints that report
    without redoing it. Papers no source found are looked up again after a day, then
    three, a week and a month; when no source could be reached at all, the papers tried
    wait 15 minutes (then an hour, then four) before the next try, so a sync on a train
    makes no request: --retry asks now. Exit code 1 when a notes file or library entry
    could not be read (the warnings say which).
    """
    from citekit import api

    progress = sys.stderr.isatty() and not quiet and not as_json
    _warn_if_config_overrides(ctx, ascii_mode)
    report = api.sync(project_dir(ctx), offline=offline, refresh=refresh, retry=retry, jobs=jobs,
                      progress=progress, ascii=ascii_mode)
    findings = 1 if report.problems else 0
    if as_json:
        print_json(report.to_json())
        return findings
    for p in report.problems:
        click.echo(f"warning: {p}", err=True)
    for n in report.notices:
        note(f"note: {n}")
    if quiet:
        return findings
    lines: list[str] = []  # the summary table, printed last (after any warning logged meanwhile)
    mode = "offline (from the notes only)" if report.offline else "online"
    c = report.counts
    lines.append(f"sync {mode}: {plural(report.mentions, 'mention')} → {plural(report.works, 'work')}")
    lines.append(f"  resolved    {c.get('resolved', 0):4d}")
    lines.append(f"  notes-only  {c.get('notes-only', 0):4d}")
    lines.append(f"  ambiguous   {c.get('ambiguous', 0):4d}")
    if report.pending:
        why = ("no title or authors in the notes; an online sync looks for them" if report.offline else
               "no title or authors in the notes, and not every source could be asked (see above): "
               "`citekit sync` again online" if report.source_problems else
               "no title or authors in the notes, and no source found them")
        lines.append(f"  pending     {len(report.pending):4d}  ({why})")
        from citekit.api.pending_works import describe

        for item in report.pending[:10]:
            lines.append(f"    {describe(item)}")
        if len(report.pending) > 10:
            lines.append(f"    … and {len(report.pending) - 10} more: citekit list --status pending")
    if report.created or report.upgraded:
        lines.append(f"  new entries {len(report.created):4d}, upgraded {len(report.upgraded)}")
    if not report.offline:
        lines.append(f"  requests    {report.requests:4d}")
    not_resolved = [e for e in report.entries if e["status"] != "resolved" and e["reason"] and not report.offline]
    for e in not_resolved:
        lines.append(f"  {e['status']:<10} {e['key']}: {e['reason']}")
    lines.append("library " + ("updated" if report.changed else "unchanged")
                 + (" (notes, configuration and library as at the last sync)" if report.up_to_date else ""))
    summary("\n".join(lines), err=False)
    return findings


def _warn_if_config_overrides(ctx: click.Context, ascii_mode: bool | None) -> None:
    """``--ascii``/``--utf8`` is remembered, but citekit.yaml's ``bibtex.ascii`` wins later: say so."""
    from citekit.api.project import configured_ascii_conflict

    warning = configured_ascii_conflict(project_dir(ctx), ascii_mode)
    if warning:
        click.echo(f"warning: {warning}", err=True)


@main.command(name="list")
@click.option("--tag", "tags", multiple=True, help="Only entries with this tag (repeat: all of them).")
@click.option("--any", "any_tag", is_flag=True, help="With several --tag: entries with any of them.")
@click.option("--status", type=click.Choice(["resolved", "upgraded", "imported", "notes-only", "ambiguous", "pending"]),
              help="Only entries with this status; 'pending' lists works in the notes that wait for an online sync.")
@click.option("--author", "authors", multiple=True, help="Only entries by an author with this name (repeat: all of them).")
@click.option("--year", "years", multiple=True, help="Only entries of this year or range: 2024, 2024..2026, 2024.., ..2026.")
@click.option("--venue", "venues", multiple=True, help="Only entries whose venue has these words (short names too: icml).")
@click.option("--key", "keys", multiple=True, help="Only entries whose key (or an old key) contains this.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of entries.")
@click.option("-q", "--quiet", is_flag=True, help="Print the entries only: no count line.")
@click.pass_context
def list_cmd(ctx: click.Context, tags: tuple[str, ...], any_tag: bool, status: str | None, authors: tuple[str, ...],
             years: tuple[str, ...], venues: tuple[str, ...], keys: tuple[str, ...], as_json: bool, quiet: bool) -> int:
    """List the library's entries.

    With --status pending: the works of the notes waiting for an online sync, and where they are.
    --author, --year, --venue and --key filter as `citekit search` does (author:, year:, ...).

    Exit code 1 when a filter selects nothing.
    """
    from citekit import api

    if status == "pending":
        return _list_pending(ctx, as_json, quiet)
    where = {"author": list(authors), "year": list(years), "venue": list(venues), "key": list(keys)}
    filtered = bool(tags or status or any(where.values()))
    if as_json:
        from citekit.cli.export import echo_utf8

        empty = True
        pending: list[bytes] = []
        size = 0
        for chunk in api.list_json_chunks(project_dir(ctx), tags=list(tags), any_tag=any_tag, status=status, **where):
            empty = empty and chunk == b"[]"
            pending.append(chunk)
            size += len(chunk)
            if size >= 1 << 16:  # written as it comes, never the whole array as one more copy
                echo_utf8(b"".join(pending), nl=False)
                pending, size = [], 0
        pending.append(b"\n")
        echo_utf8(b"".join(pending), nl=False)
        return 1 if filtered and empty else 0
    rows = api.list_lines(project_dir(ctx), tags=list(tags), any_tag=any_tag, status=status, **where)
    findings = 1 if filtered and not rows else 0
    if rows:
        click.echo("\n".join(rows))
        warn_unknown_tags(ctx, tags, any_tag)
    if findings:
        asked = " ".join([*(f"--tag {t}" for t in tags), *([f"--status {status}"] if status else []),
                          *(f"--{name} {v}" for name, values in where.items() for v in values)])
        hint = "see `citekit tags` for the tags in use" if tags else "see `citekit list` for every entry and its status"
        unknown = api.unknown_tags_hint(list(tags), project_dir(ctx)) if tags else None
        hint = f"{unknown}; `citekit tags` lists the tags in use" if unknown else hint
        click.echo(f"citekit: no entry matches {asked}; {hint}", err=True)
    elif not quiet:
        click.echo(plural(len(rows), "entry"), err=True)
    return findings


def _list_pending(ctx: click.Context, as_json: bool, quiet: bool) -> int:
    """Works the notes mention that no entry holds yet: abstract-only, identifier-only, or a
    title without authors. An online sync looks them up. Nothing pending: nothing to act on."""
    from citekit import api

    items = api.pending(project_dir(ctx))
    if as_json:
        print_json(items)
        return 0
    from citekit.api.pending_works import pending_line

    for item in items:
        click.echo(pending_line(item))
    if not quiet:
        click.echo(f"{len(items)} pending (run `citekit sync` online to resolve them)", err=True)
    return 0


@main.command()
@click.argument("key")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print the BibTeX entry only, without the % comments.")
@click.pass_context
def show(ctx: click.Context, key: str, as_json: bool, quiet: bool) -> None:
    """Show one entry (by key or by an old key that is now an alias)."""
    from citekit import api

    entry, text = (api.show(key, project_dir(ctx)), "") if as_json else api.show_bibtex(key, project_dir(ctx))
    if as_json:
        data = api.entry_json(entry)
        data.update({"fields": entry.fields, "versions": entry.versions, "provenance": entry.provenance,
                     "hand_edited": entry.hand, "abstract": entry.abstract, "reason": entry.reason})
        print_json(data)
        return
    if entry.key != key and not quiet:
        click.echo(f"% '{key}' is an alias of '{entry.key}'")
    click.echo(text)
    if quiet:
        return
    click.echo(f"% status: {entry.status}" + (f" ({entry.reason})" if entry.reason else ""))
    click.echo(f"% origin: {entry.origin}")
    for m in entry.mentions:
        click.echo(f"% mentioned at {m}")
    for v in entry.versions:
        click.echo(f"% version: {v.get('source')} {v.get('id')} [{v.get('stage')}] {v.get('title')}")
    if entry.summary:
        click.echo(f"% summary: {entry.summary}")
    if entry.hand:
        click.echo(f"% hand-edited (kept by sync): {', '.join(entry.hand)}")


@main.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=str), default=".")
@click.option("--mailto", help="Your e-mail address, for the services' polite pools.")
@click.option("--json", "as_json", is_flag=True, help='Print {"config", "notes", "refs"} as JSON.')
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
@click.pass_context
def init(ctx: click.Context, folder: str, mailto: str | None, as_json: bool, quiet: bool) -> None:
    """Start a project: citekit.yaml, notes/ and refs/ in FOLDER (default: here).

    .citekit/ (this clone's caches and lock) is added to FOLDER's .gitignore.

    FOLDER is relative to -C DIR when given. An existing citekit.yaml is never replaced
    (exit code 2).
    """
    from pathlib import Path

    from citekit.api.project import ConfigExists, init_project

    base = project_dir(ctx)
    root = Path(base) / folder if base else Path(folder)
    try:
        project = init_project(root, mailto=mailto)
    except ConfigExists as exc:
        raise click.UsageError(str(exc)) from None
    config = project.config.path
    if as_json:
        print_json({"config": str(config), "notes": str(root / "notes"), "refs": str(root / "refs"),
                    "gitignore": str(root / ".gitignore")})
    elif not quiet:
        click.echo(f"wrote {config} (and .citekit/, this clone's caches, in {root / '.gitignore'}); "
                   f"put notes in {root / 'notes'} and run: citekit sync")
