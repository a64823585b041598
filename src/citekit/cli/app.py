"""The ``citekit`` command group and the one contract every command follows.

Contract (README: "The command line"):

* exit 0: done, nothing to act on; 1: done with findings (check errors, duplicate
  clusters, skipped entries or files, an empty selection); 2: a usage or input error,
  including a bad ``citekit.yaml`` and a disk or permission fault; nothing is written then;
* ``-h``/``--help`` everywhere, each help ending with runnable examples;
* ``-q``/``--quiet`` and ``--json`` on every command that reports something;
* ``-C DIR`` must name an existing folder.

Commands are registered by name in :data:`COMMANDS` and their modules are imported only
when one of them runs (or its help is asked for), so ``citekit --version`` and
``citekit --help`` stay fast: the heavy libraries load in the commands that use them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from citekit import __version__

F = TypeVar("F", bound=Callable[..., Any])

#: command name -> (module under citekit.cli, one-line help for ``citekit --help``).
#: The help line is checked against the command's own docstring by the tests.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("commands", "Start a project: citekit.yaml, notes/ and refs/ in FOLDER (default: here)."),
    "extract": ("commands", "Show the paper mentions found in notes (default: the project's notes folder)."),
    "sync": ("commands", "Resolve every paper in the notes and write refs/library.bib."),
    "add": ("add", "Add papers by DOI, arXiv id, link, reference, BibTeX or title to the notes and the library."),
    "list": ("commands", "List the library's entries."),
    "show": ("commands", "Show one entry (by key or by an old key that is now an alias)."),
    "search": ("search", "Find the library's entries matching a query, best first."),
    "tags": ("tags", "List the tags of the library with how many papers carry each."),
    "tag": ("tags", "Add (+tag) or remove (-tag) tags of one paper by hand; rules never undo this."),
    "import": ("dedup", "Copy entries of existing BibTeX files into the library, keeping their keys."),
    "dedup": ("dedup", "Find entries that are the same work, in the library or in any .bib FILE."),
    "upgrade": ("upgrade", "Move imported preprints to their published versions, keeping their keys."),
    "rekey": ("dedup", "Rewrite old citation keys in LaTeX files (inside \\cite-family commands only)."),
    "rename": ("keys", "Give an entry a new citation key; the old key keeps working (alias and key map)."),
    "export": ("export", "Write the library, or only what a paper cites, for LaTeX or pandoc."),
    "check": ("paper", "Check a paper's citations against the library."),
    "makefile": ("paper", "Print Makefile targets that keep a paper's refs.bib in step with the library."),
    "doctor": ("doctor", "Check that refs/ is whole and say what to do about anything that is not."),
    "git-setup": ("git", "Register citekit's merge driver for refs/ in this git clone."),
    "merge-driver": ("git", "Merge library.bib or library.yaml entry by entry (git runs it: %O %A %B %P)."),
    "resolve-conflict": ("git", "Settle a merge conflict the merge driver left in one entry."),
    "related-work": ("related", "Write a related-work snippet (LaTeX or Markdown) about the library's papers on a topic."),
    "suggest": ("suggest", "Suggest papers the library lacks that its papers' neighbours keep citing."),
    "graph": ("suggest", "Draw a tag's papers, their top suggestions and who cites whom, as SVG or HTML."),
}

#: Commands whose output is a document (a Makefile, a related-work snippet), not a report:
#: no ``--json``; ``makefile`` prints nothing else, so no ``-q`` either.
NO_JSON = frozenset({"makefile", "related-work"})
NO_QUIET = frozenset({"makefile"})


#: exit code of a command stopped with Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED = 130


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__package__}.{COMMANDS[cmd_name][0]}")
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Ctrl-C is exit 130 (the shell's convention), never 1, which means "done, with findings".

        Every write is one transaction, so an interrupted command left refs/ either as it was
        or fully written; the message says how to see which.
        """
        from citekit.api.project import one_command

        try:
            with one_command():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ncitekit: interrupted. refs/ is either as it was or fully written (writes are all or "
                       "nothing); `citekit doctor` shows which.", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib  # only for a misspelt command: 14 ms of every start-up otherwise

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            ctx.fail(f"no such command '{name}'.{hint} See 'citekit --help' for the commands.")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`COMMANDS`, without importing any command module."""
        rows = []
        for name in self.list_commands(ctx):
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit=formatter.width - 20)))
            else:
                rows.append((name, COMMANDS[name][1]))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        write_examples(formatter, "citekit")


def write_examples(formatter: click.HelpFormatter, name: str) -> None:
    """End a help text with the command's runnable examples (:mod:`citekit.cli.examples`)."""
    from citekit.cli.examples import EXAMPLES

    lines = EXAMPLES.get(name, ())
    if lines:
        with formatter.section("Examples"):
            for line in lines:
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n")


class CitekitCommand(click.Command):
    """A command with the shared contract: ``-q``/``--json``, examples in the help, faults as messages."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        opts = {o for p in self.params for o in getattr(p, "opts", [])}
        if "--json" not in opts and self.name not in NO_JSON:
            self.params.append(click.Option(["--json", "_json"], is_flag=True, expose_value=False,
                                            callback=_remember, help="Print the result as JSON (for scripts)."))
        if "-q" not in opts and "--quiet" not in opts and self.name not in NO_QUIET:
            self.params.append(click.Option(["-q", "--quiet", "_quiet"], is_flag=True, expose_value=False,
                                            callback=_remember, help="Print no summary or notes; warnings and errors only."))

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        write_examples(formatter, self.name or "")

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command with the libraries' log records collected, and printed once at
        the end as warnings (:mod:`citekit.cli.logs`), whatever way the command ends."""
        from citekit.cli.logs import LogRoute

        route = LogRoute()
        route.start()
        ctx.meta["citekit.logs"] = route
        try:
            return self._invoke(ctx)
        finally:
            route.stop()
            for line in route.lines(quiet=is_quiet(ctx)):
                warn(line)

    def _invoke(self, ctx: click.Context) -> Any:
        ctx.meta.setdefault("citekit.json", bool(ctx.params.get("as_json")))
        ctx.meta.setdefault("citekit.quiet", bool(ctx.params.get("quiet")))
        try:
            result = super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, BrokenPipeError):
            raise  # click ends a command whose reader went away (`citekit list | head`) quietly
        except Exception as exc:  # noqa: BLE001 - mapped to a message, or re-raised below
            code, message = explain(exc)
            if code is None:
                raise
            click.echo(f"citekit: {message}", err=True)
            ctx.exit(code)
        if isinstance(result, int) and not isinstance(result, bool) and result:
            ctx.exit(result)
        return result


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    key = "citekit.json" if param.name == "_json" else "citekit.quiet"
    ctx.meta[key] = bool(value) or ctx.meta.get(key, False)
    return value


def _existing_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``-C DIR`` must exist: running elsewhere (or creating it) would write in the wrong place."""
    import os

    if value is not None and not os.path.isdir(value):
        what = "is not a folder" if os.path.exists(value) else "does not exist"
        raise click.BadParameter(f"'{value}' {what}. Check the path, or start a project there with "
                                 f"'citekit init {value}'.", ctx=ctx, param=param)
    return value


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="citekit")
@click.option("-C", "--project", "project_dir", callback=_existing_folder,
              type=click.Path(file_okay=False, path_type=str), default=None,
              help="Run in this project folder (it must exist; default: the folder holding citekit.yaml, "
                   "searched upwards).")
@click.pass_context
def main(ctx: click.Context, project_dir: str | None) -> None:
    """citekit: conference notes in, a clean tagged BibTeX library out.

    Exit codes: 0 done, 1 done with findings (see each command's help), 2 usage or
    input error (nothing was written). 'citekit COMMAND -h' explains a command.
    """
    ctx.ensure_object(dict)
    ctx.obj["project_dir"] = project_dir


main.command_class = CitekitCommand


# ---- faults as messages ------------------------------------------------------------------

def explain(exc: BaseException) -> tuple[int | None, str]:
    """The exit code and one-line message for an error users can fix (code None: a bug);
    each error carries its own exit code (:func:`citekit.api.errors.explain`)."""
    from citekit.api.errors import explain as explain_error

    return explain_error(exc)


def os_message(exc: OSError) -> str:
    """``path: what happened. What to do.`` for an operating-system error."""
    from citekit.api.errors import os_message as message

    return message(exc)


def friendly_errors(fn: F) -> F:
    """Errors users can fix as a one-line message and an exit code, not a traceback.

    Every command built by :data:`main` already gets this from :class:`CitekitCommand`;
    the decorator stays for functions called outside it.
    """

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:  # noqa: BLE001
            code, message = explain(exc)
            if code is None:
                raise
            click.echo(f"citekit: {message}", err=True)
            sys.exit(code)

    return wrapper  # type: ignore[return-value]


# ---- output helpers shared by the commands -----------------------------------------------

def project_dir(ctx: click.Context) -> str | None:
    return (ctx.obj or {}).get("project_dir")


def wants_json(ctx: click.Context | None = None) -> bool:
    """``--json`` was given (the command prints one JSON document on stdout)."""
    ctx = ctx or click.get_current_context()
    return bool(ctx.meta.get("citekit.json"))


def is_quiet(ctx: click.Context | None = None) -> bool:
    """``-q`` was given, or ``--json`` (whose stdout must stay one JSON document)."""
    ctx = ctx or click.get_current_context()
    return bool(ctx.meta.get("citekit.quiet") or ctx.meta.get("citekit.json"))


def note(message: str, *, err: bool = True) -> None:
    """An informational line (summary, hint): silent under ``-q`` and ``--json``."""
    if not is_quiet():
        click.echo(message, err=err)


def summary(message: str, *, err: bool = True) -> None:
    """A command's closing summary (a :func:`note`): the warnings logged so far (a library's,
    the writer's) are printed first, so the summary is the last thing the command says
    rather than followed by them. (``click.echo`` flushes each line, so stdout and stderr
    sent to one pipe keep the order they were written in.)"""
    ctx = click.get_current_context()
    route = ctx.meta.get("citekit.logs")
    if route is not None:
        for line in route.take_lines(quiet=is_quiet(ctx)):
            warn(line)
    note(message, err=err)


def warn(message: str) -> None:
    """A warning: always shown, on stderr. The one place warnings are printed: log records
    of citekit and of its libraries come here too (:mod:`citekit.cli.logs`)."""
    click.echo(f"warning: {message}", err=True)


def warn_unknown_tags(ctx: click.Context, tags: tuple[str, ...] | list[str], any_tag: bool) -> None:
    """With ``--any``, a typo among the tags (``--tag muon --tag sma --any``) still selects the
    entries of the others, so the empty-selection message never comes: say it here, with the
    closest tags. Without ``--any`` an unknown tag selects nothing and that message says it."""
    if not (any_tag and tags):
        return
    from citekit import api

    unknown = api.unknown_tags_hint(list(tags), project_dir(ctx))
    if unknown:
        warn(f"{unknown}; it selected nothing (`citekit tags` lists the tags in use)")


def print_json(data: Any) -> None:
    import json  # here: most commands print text, and json is 1.5 ms of start-up

    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))


class Streamed(list):  # type: ignore[type-arg]
    """A JSON array whose items are made one at a time while :func:`stream_json` writes
    them: the whole array is never held as values or as text. ``count`` is how many
    items the iterable gives (the encoder writes ``[]`` for none), or a function that says
    so when the encoder gets to the array (problems known once the items before are written)."""

    def __init__(self, items: Any, count: int | Callable[[], int]) -> None:
        super().__init__()
        self._items = items
        self._count = count

    def __bool__(self) -> bool:
        return len(self) > 0

    def __len__(self) -> int:
        return self._count() if callable(self._count) else self._count

    def __iter__(self) -> Any:
        return iter(self._items)


#: characters of JSON text gathered before one write
_STREAM_CHUNK = 1 << 16


def stream_json(data: Any) -> None:
    """:func:`print_json`'s bytes, written as they are made (``Streamed`` arrays item by item):
    a large notes file's mentions are not all turned into one string first."""
    import json

    parts: list[str] = []
    size = 0
    for piece in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(data):
        parts.append(piece)
        size += len(piece)
        if size >= _STREAM_CHUNK:
            click.echo("".join(parts), nl=False)
            parts, size = [], 0
    parts.append("\n")
    click.echo("".join(parts), nl=False)
