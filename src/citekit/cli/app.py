"""The ``citekit`` command group; each command lives in its own module beside this one."""

from __future__ import annotations

import click

from .. import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="citekit")
@click.option("-C", "--project", "project_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Project folder (default: the folder holding citekit.yaml, searched upwards).")
@click.pass_context
def main(ctx: click.Context, project_dir: str | None) -> None:
    """citekit: conference notes in, a clean tagged BibTeX library out."""
    ctx.ensure_object(dict)
    ctx.obj["project_dir"] = project_dir
