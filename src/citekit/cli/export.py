"""Command ``export``: the library, or only what one paper cites, as BibTeX, biblatex or CSL JSON.

Selecting and rendering are :mod:`citekit.api.export`'s; this command checks the options,
makes one call and prints or writes the text.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click

from citekit.api.export import FORMATS
from citekit.api import plural
from citekit.cli.app import main, note, print_json, project_dir, warn_unknown_tags


_ENCODED_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")


def echo_utf8(data: bytes, *, nl: bool = True) -> None:
    """``click.echo`` of the text these UTF-8 bytes hold, without decoding, scanning and
    encoding megabytes again when the bytes are what click would write anyway: on a
    POSIX UTF-8 stream, with no escape sequence (click strips them when the output is not
    a terminal) and no lone surrogate (which the stream would refuse)."""
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or ""
    if (os.name == "posix" and encoding.replace("-", "").replace("_", "").lower() == "utf8" and b"\x1b" not in data
            and not (b"\xed" in data and _ENCODED_SURROGATE.search(data))):
        click.echo(data, nl=nl)
    else:
        click.echo(data.decode("utf-8", "surrogatepass"), nl=nl)


def _counted(result: object) -> str:
    """``10 entries (9 papers; 1 old key kept for \\cite)``: what the file holds, copies under
    old keys a paper still cites named apart from the works."""
    count, papers = getattr(result, "count"), getattr(result, "papers")
    copies = count - papers
    if copies <= 0:
        return plural(count, "entry")
    return (f"{plural(count, 'entry')} ({plural(papers, 'paper')}; {plural(copies, 'old key')} kept for "
            "\\cite)")


@main.command()
@click.argument("keys", nargs=-1)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write to this file (atomically; left untouched when unchanged). Default: stdout.")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="bibtex", show_default=True,
              help="bibtex (old keys as copies), biblatex (old keys in ids), csl-json (for pandoc).")
@click.option("--ascii/--utf8", "ascii", default=None,
              help="Non-ASCII characters as LaTeX commands, or as UTF-8 (default: as the library is written, "
                   "see sync --ascii; not for csl-json).")
@click.option("--tag", "tags", multiple=True, help="Only entries with this tag (repeat: all of them).")
@click.option("--any", "any_tag", is_flag=True, help="With several --tag: entries with any of them.")
@click.option("--aux", "aux", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Only the entries this LaTeX .aux file cites (BibTeX or biblatex).")
@click.option("--tex", "tex", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Only the entries this .tex file cites (follows \\input and \\include).")
@click.option("--allow-missing", is_flag=True, help="Warn about cited keys the library lacks instead of failing.")
@click.option("--keep-private", is_flag=True,
              help="For a paper (--aux, --tex, KEYS): keep the private fields (file, local-url, rating, read, "
                   "date-added, ...) an export for a paper leaves out.")
@click.option("--json", "as_json", is_flag=True,
              help='With -o: print {"output", "entries", "changed", "missing"} as JSON (else the export is stdout).')
@click.option("-q", "--quiet", is_flag=True, help="No summary line; warnings and errors only.")
@click.pass_context
def export(ctx: click.Context, keys: tuple[str, ...], output: str | None, fmt: str, ascii: bool | None, tags: tuple[str, ...], any_tag: bool,
           aux: Path | None, tex: Path | None, allow_missing: bool, keep_private: bool, as_json: bool,
           quiet: bool) -> int:
    """Write the library, or only what a paper cites, for LaTeX or pandoc.

    With KEYS, only the entries they name (current or old keys); an unknown key is exit code 1, as a cited key
    the library lacks (--allow-missing: a warning).

    When a filter selects nothing (an unknown --tag) no file is written and the exit code
    is 1; a cited key the library lacks is exit code 1 too. A paper that cites nothing yet
    gets an empty export, so a paper's Makefile works from its first LaTeX run.
    A field a git merge left unsettled in the library is exit code 2 with nothing written:
    settle it with citekit resolve-conflict KEY first.

    An export for a paper leaves out the private fields a reference manager keeps (file,
    local-url, uri, rating, read, date-added, date-modified, ...): --keep-private keeps them.
    """
    from citekit.api.export import export_entries, write_output

    if aux is not None and tex is not None:
        raise click.UsageError("give --aux or --tex, not both (--aux is exact after a LaTeX run; --tex works before one)")
    if ascii and fmt == "csl-json":
        raise click.UsageError("--ascii applies to BibTeX and biblatex output; CSL JSON is always UTF-8")
    if as_json and (output is None or output == "-"):
        raise click.UsageError("--json reports what was written to a file: give -o FILE (without -o the export "
                               "itself is printed; -f csl-json prints JSON entries)")
    result = export_entries(project_dir(ctx), fmt=fmt, ascii=ascii, tags=tags, any_tag=any_tag, aux=aux, tex=tex,
                            allow_missing=allow_missing, keys=keys, keep_private=keep_private)
    if result.nothing is not None:
        click.echo("citekit: " + result.nothing + ("; nothing was written" if output and output != "-" else ""), err=True)
        if as_json:
            print_json({"output": output, "entries": 0, "changed": False, "missing": []})
        return 1
    warn_unknown_tags(ctx, tags, any_tag)
    for name in result.unreadable:
        click.echo(f"citekit: warning: could not read '{name}'; citations in it are not exported", err=True)
    for missing in result.missing:
        level = "warning" if allow_missing else "error"
        click.echo(f"citekit: {level}: {missing.message()}", err=True)
    if result.missing and not allow_missing:
        hint = ("check the keys (`citekit search key:...`)" if keys else "fix the keys in the paper") + \
            ", add the papers to the notes and run 'citekit sync', or pass --allow-missing"
        click.echo(f"citekit: {len(result.missing)} cited key(s) not in {result.bib_path}: {hint}", err=True)
        return 1
    text = result.text
    assert text is not None
    if output is None or output == "-":
        echo_utf8(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"), nl=False)
        changed = True
    else:
        changed = write_output(text, output)
    if as_json:
        print_json({"output": output, "entries": result.count, "papers": result.papers, "changed": changed,
                    "missing": [m.key for m in result.missing], "private_fields_left_out": result.dropped})
    elif output and output != "-":
        note(f"{output}: {_counted(result)}" + ("" if changed else " (unchanged)") + result.note_more)
    if result.dropped and not as_json:
        note(f"left out private field(s) {', '.join(sorted(result.dropped))} (--keep-private keeps them)")
    return 0  # missing keys here were allowed (--allow-missing): warned, not failed
