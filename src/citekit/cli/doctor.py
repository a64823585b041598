"""Command: ``doctor`` — check a project's refs/ and say what to do."""

from __future__ import annotations

import click

from citekit.api import plural
from citekit.cli.app import friendly_errors, main, note, print_json, project_dir


@main.command()
@click.option("--fix", is_flag=True, help="Finish or undo an interrupted write, delete stale temporary files "
              "and lock notes, refresh the cache.")
@click.option("--rebuild-sidecar", is_flag=True, help="Write a new refs/library.yaml from library.bib alone: keys "
              "kept, status and origin 'unknown' until the next online sync.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print problems only.")
@click.pass_context
@friendly_errors
def doctor(ctx: click.Context, fix: bool, rebuild_sidecar: bool, as_json: bool, quiet: bool) -> int:
    """Check that refs/ is whole and say what to do about anything that is not.

    Checks that both files come from one write, the sidecar matches, keys are unique, old
    keys resolve, and the cache and lock are healthy. Exit 1 when a problem is found.
    """
    from citekit.api import doctor as checks

    if rebuild_sidecar:
        name, count = checks.rebuild_sidecar(project_dir(ctx))
        if not as_json:
            note(f"rebuilt {name} from library.bib: {plural(count, 'entry')}, every key kept; "
                 "status 'unknown' until the next online sync")
    report = checks.diagnose(project_dir(ctx), fix=fix)
    if as_json:
        print_json(report.to_json())
    else:
        for line in report.fixed:
            click.echo(f"fixed: {line}")
        for f in report.findings:
            if quiet and f.level != "problem":
                continue
            click.echo(f"{f.level}: [{f.check}] {f.message}")
            if f.fix:
                click.echo(f"    what to do: {f.fix}")
        if not quiet:
            state = "problems found" if report.problems else "all good"
            click.echo(f"checked {', '.join(report.checked)} ({plural(report.entries, 'entry')}): {state}", err=True)
    return 1 if report.problems else 0
