"""Command: ``upgrade`` — imported preprints moved to their published versions.

The lookups, the decisions and the write are :mod:`citekit.api.upgrading`'s; this command
parses options, makes one call and prints what was (or would be) done to each entry.
"""

from __future__ import annotations

import sys

import click

from typing import TYPE_CHECKING

from citekit.cli.app import is_quiet, main, note, print_json, project_dir, summary

if TYPE_CHECKING:
    from citekit.api.upgrading import UpgradeReport


@main.command("upgrade")
@click.argument("keys", nargs=-1)
@click.option("--all", "all_entries", is_flag=True, help="Every imported or notes-only entry that is not published yet.")
@click.option("--dry-run", is_flag=True, help="Look up and print what would change; write nothing.")
@click.option("--offline", is_flag=True, help="Send nothing: list the entries a run online would look up.")
@click.option("--refresh", is_flag=True, help="Ignore the lookup cache (answers are stored again).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=4, show_default=True, help="Entries looked up at once.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def upgrade(ctx: click.Context, keys: tuple[str, ...], all_entries: bool, dry_run: bool, offline: bool, refresh: bool,
            jobs: int, as_json: bool) -> int:
    """Move imported preprints to their published versions, keeping their keys.

    Looks the entries up online (their arXiv ids in one batched request, then one dblp
    search each; answers are cached, so a second run sends nothing) and, where a
    published or accepted version of the same work exists, moves the entry to it: the key
    stays, the old record is kept among the entry's versions (`citekit show KEY`), and the
    fields you edited, your tags and your summary stay. Nothing is swapped unless the
    record is certainly the same paper (same work, authors agree); such entries are kept
    and listed with the reason. Status afterwards: `upgraded`, or `resolved` when found
    online with no published version yet. When a service cannot be reached, the entries
    only it could answer are not looked up and stay as they are (said once, not per
    entry). Exit status 1 when a named entry was kept or a service failed; 0 otherwise
    (also with --offline, which sends nothing).
    """
    from citekit.api import plural, upgrade as run

    progress = sys.stderr.isatty() and not is_quiet(ctx) and not as_json and not offline
    report = run(keys, all_entries=all_entries, dry_run=dry_run, refresh=refresh, jobs=jobs, progress=progress,
                 offline=offline, start=project_dir(ctx))
    if as_json:
        print_json(report.to_json())
        return report.exit_code
    would = "would " if dry_run else ""
    for d in report.of("upgrade"):
        click.echo(f"{would}upgrade {d.key}: {d.reason}")
    for d in report.of("confirm"):
        click.echo(f"{would}mark {d.key} resolved: {d.reason}")
    for d in report.of("keep"):
        note(f"keep {d.key}: {d.reason}", err=False)
    if report.named:
        for key, why in report.skipped:
            note(f"skip {key}: {why}", err=False)
    decided = {d.key for d in report.decisions}
    for problem in report.problems:
        if not problem.split(":")[0] in decided:
            click.echo(f"warning: {problem}", err=True)
    line = _not_reached(report)
    if line:
        click.echo(line, err=True)
    counts = [f"{plural(len(report.of('upgrade')), 'entry')} {'to upgrade' if dry_run else 'upgraded'}",
              f"{len(report.of('confirm'))} {'to mark' if dry_run else 'marked'} resolved",
              f"{len(report.of('keep'))} kept",
              f"{len(report.skipped)} not worth a lookup"]
    if report.unasked:
        counts.append(f"{len(report.unasked)} not looked up")
    summary(f"{', '.join(counts)}; {plural(report.requests, 'request')}")
    return report.exit_code


def _not_reached(report: UpgradeReport) -> str:
    """One plain line for a run that could not ask what it meant to: ``--offline``, or the
    services that could not be reached (and those that wait for them), the entries left as
    they are, and what to do next. Empty when every service answered."""
    from citekit.api import plural

    left = ""
    if report.unasked:
        shown = ", ".join(report.unasked[:5]) + (", ..." if len(report.unasked) > 5 else "")
        left = f"{plural(len(report.unasked), 'entry')} not looked up ({shown}), left as {'it is' if len(report.unasked) == 1 else 'they are'}"
    if report.offline:
        return f"offline (--offline): {left}; to look {'it' if len(report.unasked) == 1 else 'them'} up run `{report.again()}`" \
            if left else ""
    if not report.unreachable:
        return ""
    names = sorted(report.unreachable)
    whys = sorted(set(report.unreachable.values()))
    failed = " and ".join(names) + f" ({whys[0]})" if len(whys) == 1 else \
        ", ".join(f"{n} ({report.unreachable[n]})" for n in names)
    waited = sorted(report.waited)
    line = f"could not reach {failed}"
    if waited:
        line += f"; {' and '.join(waited)}, asked only after {report.waited[waited[0]]}, {'was' if len(waited) == 1 else 'were'} not asked"
    if not report.decisions and report.unasked:
        line = "upgrade ran offline: " + line
    else:
        line = "warning: " + line
    next_step = f"check the network connection (or a proxy), then run `{report.again()}`"
    return f"{line}: {left}; {next_step}" if left else f"{line}; entries only {'it' if len(names) == 1 else 'they'} could answer were not looked up; {next_step}"
