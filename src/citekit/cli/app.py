"""The ``citekit`` command group; each command lives in its own module beside this one."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from .. import __version__

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="citekit")
@click.option("-C", "--project", "project_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Project folder (default: the folder holding citekit.yaml, searched upwards).")
@click.pass_context
def main(ctx: click.Context, project_dir: str | None) -> None:
    """citekit: conference notes in, a clean tagged BibTeX library out."""
    ctx.ensure_object(dict)
    ctx.obj["project_dir"] = project_dir


def friendly_errors(fn: F) -> F:
    """Turn the errors users can fix into a one-line message and an exit code, not a traceback.

    :class:`citekit.api.CitekitError` carries its own exit code; a bad configuration, a
    damaged library, a bad key map or key formula is exit code 2.
    """
    from .. import api
    from ..config import ConfigError
    from ..library.keys import KeyFormulaError
    from ..library.rekey import KeyMapError
    from ..library.store import LibraryError

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except api.CitekitError as exc:
            click.echo(f"citekit: {exc}", err=True)
            sys.exit(exc.exit_code)
        except (ConfigError, LibraryError, KeyMapError, KeyFormulaError) as exc:
            click.echo(f"citekit: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def project_dir(ctx: click.Context) -> str | None:
    return (ctx.obj or {}).get("project_dir")


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))
