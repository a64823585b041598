"""Command ``export``: the library, or only what one paper cites, as BibTeX, biblatex or CSL JSON."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from .app import main, note, print_json, project_dir

if TYPE_CHECKING:
    from ..library.store import Library
    from ..model import Entry
    from ..output.cited import CitedKeys, EntryIndex, Selection

FORMATS = ("bibtex", "biblatex", "csl-json")


def render(selection: Selection, fmt: str, *, ascii: bool = False, header: str | None = None,
           library: Library | None = None, unchanged: bool = False) -> str:
    """The export text of a selection in one format.

    Each format keeps old keys working its own way: BibTeX gets a copy of the entry under
    each cited old key (it has no aliases), biblatex gets ``ids`` (biber resolves them),
    CSL JSON gets copies and crossref fields copied into each child (CSL has neither).
    ``header`` becomes a ``%`` comment at the top of BibTeX and biblatex output.
    With ``library``, BibTeX text of entries unchanged since ``library.bib`` was written is
    taken from the parsed-library cache instead of being rendered again (same bytes);
    ``unchanged`` (nothing modified the library's entries since it was loaded, as in the
    read-only ``export`` command) also reuses texts a previous export rendered.
    """
    from ..output.cited import Selection, alias_copies, inherit_crossrefs, with_ids_field

    if fmt == "bibtex":
        from ..output.bibtex import check_unique_keys, entry_text, write_texts

        entries = alias_copies(selection)
        check_unique_keys(entries)
        if library is None:
            return write_texts((entry_text(e, ascii=ascii) for e in entries), header)
        if not unchanged:
            return write_texts(((_as_written(e) and library.rendered_text(e, ascii)) or entry_text(e, ascii=ascii)
                                for e in entries), header)
        kind = _text_kind(ascii)
        return write_texts((library.memo(kind, e, lambda e: _entry_export_bytes(library, e, ascii)).decode("utf-8", "surrogatepass")
                            for e in entries), header)
    if fmt == "biblatex":
        from ..output.biblatex import render_biblatex

        return render_biblatex(with_ids_field(selection), ascii=ascii, header=header)
    if fmt == "csl-json":
        from ..output.csl import to_csl_json

        flat = Selection(entries=inherit_crossrefs(selection), aliases=selection.aliases, direct=selection.direct)
        return json.dumps(to_csl_json(alias_copies(flat)), ensure_ascii=False, indent=2) + "\n"
    raise click.BadParameter(f"unknown format '{fmt}'; choose one of {', '.join(FORMATS)}", param_hint="--format")


def _as_written(entry: Entry) -> bool:
    """Whether ``entry`` renders exactly as its ``library.bib`` text: no ``keywords`` or
    ``ids`` field of its own (the file derives both from tags and aliases) and aliases in
    the sorted order the file writes them."""
    if any(name.lower() in ("keywords", "ids") for name in entry.fields):
        return False
    aliases = list(entry.aliases)
    return aliases == sorted(set(aliases)) and all(a == a.strip() and a for a in aliases)


def select_for_export(
    entries: list[Entry] | EntryIndex,
    cited: CitedKeys | None,
    tags: tuple[str, ...] = (),
    any_tag: bool = False,
    tags_of: Callable[[str], list[str]] | None = None,
) -> Selection:
    """What to export: the cited entries (or all), narrowed to the tags, parents pulled in.

    ``entries`` may be a library's :class:`EntryIndex` (only selected entries are decoded)
    with ``tags_of`` reading a key's tags from the library's cache.
    """
    from ..output.cited import CitedKeys, EntryIndex, select_cited

    index = entries if isinstance(entries, EntryIndex) else EntryIndex(entries)
    keys = list(index.entries)
    if tags:
        from ..library.tags import select

        allowed = set(select(keys, list(tags), any_=any_tag, tags_of=tags_of or (lambda k: index.entries[k].tags)))
    else:
        allowed = set(keys)
    if cited is None:
        cited = CitedKeys()
        for key in keys:
            if key in allowed:
                cited.add(key)
        return select_cited(index, cited)
    selection = select_cited(index, cited)
    if not tags:
        return selection
    narrowed = CitedKeys(everything=False, files=cited.files, unreadable=cited.unreadable)
    for key in ([*cited.keys, *keys] if cited.everything else cited.keys):
        target = selection.aliases.get(key, key)
        if target in allowed:
            narrowed.add(key)
            narrowed.locations[key] = cited.locations.get(key, [])
    result = select_cited(index, narrowed)
    result.missing = selection.missing  # a missing key is missing whatever the tags say
    return result


def write_output(text: str | bytes, output: str | None) -> bool:
    """Print, or replace ``output`` atomically; an unchanged file keeps its timestamp.

    Keeping the timestamp matters in a paper's Makefile: ``refs.bib`` is rebuilt after
    every LaTeX run (``main.aux`` changed), and an untouched ``refs.bib`` stops make from
    re-running BibTeX and LaTeX for nothing. ``bytes`` are the text in UTF-8.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if output is None or output == "-":
        echo_utf8(data, nl=False)
        return True
    from ..library.store import atomic_write

    path = Path(output)
    if path.exists() and path.read_bytes() == data:
        return False
    atomic_write(path, data.decode("utf-8", "surrogatepass") if isinstance(text, bytes) else text)
    return True


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


@main.command()
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
@click.option("--json", "as_json", is_flag=True,
              help='With -o: print {"output", "entries", "changed", "missing"} as JSON (else the export is stdout).')
@click.option("-q", "--quiet", is_flag=True, help="No summary line; warnings and errors only.")
@click.pass_context
def export(ctx: click.Context, output: str | None, fmt: str, ascii: bool | None, tags: tuple[str, ...], any_tag: bool,
           aux: Path | None, tex: Path | None, allow_missing: bool, as_json: bool, quiet: bool) -> int:
    """Write the library, or only what a paper cites, for LaTeX or pandoc.

    When a filter selects nothing (an unknown --tag) no file is written and the exit code
    is 1; a cited key the library lacks is exit code 1 too. A paper that cites nothing yet
    gets an empty export, so a paper's Makefile works from its first LaTeX run.
    """
    from ..config import load_config
    from ..library.store import Library

    if aux is not None and tex is not None:
        raise click.UsageError("give --aux or --tex, not both (--aux is exact after a LaTeX run; --tex works before one)")
    if ascii and fmt == "csl-json":
        raise click.UsageError("--ascii applies to BibTeX and biblatex output; CSL JSON is always UTF-8")
    if as_json and (output is None or output == "-"):
        raise click.UsageError("--json reports what was written to a file: give -o FILE (without -o the export "
                               "itself is printed; -f csl-json prints JSON entries)")
    cfg = load_config(project_dir(ctx))
    library = Library.load(cfg.refs_dir)
    cited = None
    if aux or tex:
        from ..output.cited import read_citations

        cited = read_citations(aux=aux, tex=tex)
    if ascii is None:  # the library's remembered choice (sync --ascii / bibtex.ascii) carries over
        ascii = library.ascii and fmt != "csl-json"
    facets = library.facets() if tags else {}
    if cited is None and fmt == "bibtex":
        plain = _plain_bibtex(library, ascii, tags, any_tag, facets)
        if plain is not None:
            return _finish(plain[0], plain[1], output, as_json, header=_HEADER, library=library)
    from ..output.cited import EntryIndex

    index = EntryIndex.of_library(library)
    selection = select_for_export(index, cited, tags, any_tag, tags_of=lambda k: facets[k][1])

    paper_cites_nothing = cited is not None and not tags and not selection.entries and not selection.missing
    if not selection.entries and not selection.missing and not paper_cites_nothing:
        click.echo("citekit: " + _nothing_selected(library.sorted_entries(), tags, aux or tex)
                   + ("; nothing was written" if output and output != "-" else ""), err=True)
        if as_json:
            print_json({"output": output, "entries": 0, "changed": False, "missing": []})
        return 1
    for name in (cited.unreadable if cited else []):
        click.echo(f"citekit: warning: could not read '{name}'; citations in it are not exported", err=True)
    for missing in selection.missing:
        level = "warning" if allow_missing else "error"
        click.echo(f"citekit: {level}: {missing.message()}", err=True)
    if selection.missing and not allow_missing:
        hint = "fix the keys in the paper, add the papers to the notes and run 'citekit sync', or pass --allow-missing"
        click.echo(f"citekit: {len(selection.missing)} cited key(s) not in {library.bib_path}: {hint}", err=True)
        return 1

    source = (aux or tex).name if (aux or tex) else None
    header = (f"Exported by citekit: the entries {source} cites. Regenerate it instead of editing it."
              if source else _HEADER)
    text = render(selection, fmt, ascii=ascii, header=header, library=library, unchanged=True)
    note_more = f" ({(aux or tex).name} cites nothing yet)" if paper_cites_nothing else ""
    return _finish(text, len(selection.entries), output, as_json, header=None, library=library,
                   missing=[m.key for m in selection.missing], note_more=note_more)


_HEADER = "Exported by citekit from the library. Regenerate it instead of editing it."


def _finish(text: str | bytes, count: int, output: str | None, as_json: bool, *, header: str | None, library: Library,
            missing: list[str] | None = None, note_more: str = "") -> int:
    """Write the export (``header``: still to be put on top of ``text``) and say so."""
    if header is not None:
        text = _with_header(text, header)
    library.keep_memos()
    changed = write_output(text, output)
    if as_json:
        print_json({"output": output, "entries": count, "changed": changed, "missing": missing or []})
    elif output and output != "-":
        note(f"{output}: {count} entries" + ("" if changed else " (unchanged)") + note_more)
    return 0  # missing keys here were allowed (--allow-missing): warned, not failed


def _with_header(body: bytes, header: str) -> bytes:
    """``output.bibtex.write_texts([body], header)`` in UTF-8, for a body of joined entry
    texts, without importing the BibTeX writer (a warm whole-library export renders nothing)."""
    from ..output.comments import tex_comment

    comment = tex_comment(header).encode("utf-8")
    return b"".join([comment, b"\n\n", body, b"\n"]) if body else comment + b"\n"


def _plain_bibtex(library: Library, ascii: bool, tags: tuple[str, ...], any_tag: bool,
                  facets: dict[str, tuple[str, list[str]]]) -> tuple[bytes, int] | None:
    """(body, entry count) of a BibTeX export of the whole library (or of its tags), read
    from texts stored per entry; None when the general path must decide: nothing selected,
    or a selected entry with a ``crossref`` (parents are ordered after their children)."""
    keys = library.sorted_keys()
    if tags:
        from ..library.tags import select

        keys = select(keys, list(tags), any_=any_tag, tags_of=lambda k: facets[k][1])
    if not keys:
        return None
    plain = library.memo_table("export-plain:2", _plain)
    if not all(plain[k] for k in keys):
        return None
    texts = library.memo_table(_text_kind(ascii), lambda e: _entry_export_bytes(library, e, ascii))
    return b"\n\n".join([texts[k] for k in keys]), len(keys)


def _plain(entry: Entry) -> bool:
    """Whether the entry exports as its own text alone (no crossref parent to place)."""
    from ..output.cited import crossref_target

    return crossref_target(entry) is None


def _text_kind(ascii: bool) -> str:
    return f"export-utf8:{'ascii' if ascii else 'utf8'}"


def _entry_export_bytes(library: Library, entry: Entry, ascii: bool) -> bytes:
    """An entry's BibTeX export text in UTF-8 (joined and written as bytes, never decoded):
    its stored ``library.bib`` text when that is the same bytes, else rendered."""
    from ..output.bibtex import entry_text

    text = (_as_written(entry) and library.rendered_text(entry, ascii, unchanged=True)) or entry_text(entry, ascii=ascii)
    return text.encode("utf-8", "surrogatepass")


def _nothing_selected(entries: list[Entry], tags: tuple[str, ...], paper: Path | None) -> str:
    """Why the selection is empty, and what to try instead."""
    if not entries:
        return "the library is empty; run `citekit sync` (or `citekit import FILE.bib`) first"
    if tags:
        known = sorted({t for e in entries for t in e.tags})
        return f"no entry has tag(s) {', '.join(tags)}" + (
            f"; tags in use: {', '.join(known[:15])}" if known else "; the library has no tags yet (run `citekit sync`)")
    return f"{paper.name if paper else 'the paper'} cites no entry"
