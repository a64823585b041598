"""Commands: ``import``, ``dedup``, ``rekey`` — one entry per work, and keys that never break.

The work (the lock, the transaction, the key maps) is :mod:`citekit.api.dedup`'s; these
commands parse options, make one call and print its outcome.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from citekit.api import plural
from citekit.cli.app import friendly_errors, main, note, print_json, summary, wants_json

if TYPE_CHECKING:
    from citekit.api.dedup import Analysis, ImportReport
    from citekit.api.zotero import ZoteroReport


# ---- import ------------------------------------------------------------------------------

@main.command("import")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--strings", "strings", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file of @string macros to read first (repeatable); its entries are ignored.")
@click.option("--merge", is_flag=True, help="Merge entries that are the same work as others (default: list them).")
@click.option("--dry-run", is_flag=True, help="Print what would be added, skipped, renamed and merged; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the renames of this import (default: refs/import-keymap.yaml).")
@click.option("--zotero", "zotero_local", is_flag=True,
              help="Read the running Zotero through its local API (CITEKIT_ZOTERO_URL moves it).")
@click.option("--zotero-library", "zotero_library", metavar="users/ID|groups/ID", default=None,
              help="Read a zotero.org library through the web API, with the key in ZOTERO_API_KEY.")
@click.option("--keys-from", "keys_from", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="A Better BibTeX .bib export of the same library: Zotero items without a key of their own "
                   "take the key it has for them.")
@click.option("--full", is_flag=True, help="Read the whole Zotero library again, not only what changed since the last import.")
@click.pass_context
@friendly_errors
def import_(ctx: click.Context, files: tuple[Path, ...], strings: tuple[Path, ...], merge: bool, dry_run: bool,
            as_json: bool, map_path: Path | None, zotero_local: bool, zotero_library: str | None,
            keys_from: Path | None, full: bool) -> int:
    """Copy entries of existing BibTeX files into the library, keeping their keys.

    Files share @string macros in the order given, as bibtex reads them (put the macro
    file first, or pass it with --strings). An entry identical to one already there is
    skipped and counted; entries that look like the same work as others are listed and
    merged only with --merge. A key that already belongs to a different work gets a
    suffix (smith2020 -> smith2020a); renames go to a key map for `citekit rekey`.
    Importing a file again (same path, same keys) syncs its entries: fields the file
    changed are taken unless changed in citekit too (then citekit's value is kept and
    said so); entries gone from the file are listed, never deleted.
    Zotero: a Better BibTeX JSON or CSL-JSON export (FILE.json), the running Zotero
    (--zotero) or a zotero.org library (--zotero-library users/ID) keeps its citation keys
    (citationKey, a 'Citation Key:' line in Extra, or --keys-from a Better BibTeX .bib);
    tags and collections become tags (zotero/<collection>/<sub>); attachments and notes
    are skipped and counted. Importing it again takes what changed in Zotero (only items
    changed since the last import are asked for) and keeps what changed in citekit.
    Exit status 1 when something needs a look (skipped entries, unmerged candidates,
    fields changed on both sides, problems in the files). A file's problems are warned
    about once per change of it: importing it again unchanged names them in one line
    (exit 0 for them).
    """
    json_files = [f for f in files if f.suffix.lower() == ".json"]
    if json_files or zotero_local or zotero_library:
        if len(json_files) != len(files):
            raise click.UsageError("import .json (Zotero) and .bib files in separate commands")
        if strings:
            raise click.UsageError("--strings is for .bib files; Zotero items have no @string macros")
        return _import_zotero(ctx, json_files, zotero_local, zotero_library, keys_from, merge, dry_run, as_json,
                              map_path, full)
    if not files:
        raise click.UsageError("name a .bib or .json file to import, or use --zotero or --zotero-library")
    if keys_from is not None or full:
        raise click.UsageError("--keys-from and --full are for Zotero sources (FILE.json, --zotero, --zotero-library)")
    from citekit.api.dedup import import_bib

    project, outcome = import_bib(list(files), strings=strings, merge=merge, dry_run=dry_run, map_path=map_path,
                                  start=(ctx.obj or {}).get("project_dir"))
    report, target = outcome.report, outcome.key_map
    for moved in outcome.moved:  # comments above a merged entry: kept, elsewhere, and said so
        note(moved)
    for problem in report.problems:
        click.echo(f"warning: {problem}", err=True)
    if report.problems_before and not as_json:
        files = sorted({p.file for p in report.problems_before})
        note(f"{plural(len(report.problems_before), 'problem')} in {', '.join(files)} reported before; the file is "
             "unchanged since (--dry-run lists them again)", err=False)
    if as_json:
        data = report.to_json()
        data["dry_run"] = dry_run
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return 1 if report.findings else 0
    summary(_print_import(report, dry_run), err=False)  # after every warning, the logged ones too
    if target is not None and not dry_run:  # what to do next closes it
        note(f"key map written to {project.shown(target)}; to update the paper's citations run:\n"
             f"  citekit rekey PAPER.tex --map {project.shown(target)}", err=False)
    return 1 if report.findings else 0


def _import_zotero(ctx: click.Context, files: list[Path], local: bool, library: str | None, keys_from: Path | None,
                   merge: bool, dry_run: bool, as_json: bool, map_path: Path | None, full: bool) -> int:
    """``import`` of Zotero sources: each source's report, then where its keys came from."""
    from citekit.api.zotero import import_zotero

    project, outcome = import_zotero(files, local=local, library=library, keys_from=keys_from, merge=merge,
                                     dry_run=dry_run, full=full, map_path=map_path,
                                     start=(ctx.obj or {}).get("project_dir"))
    for moved in outcome.moved:
        note(moved)
    for zr in outcome.reports:
        for problem in zr.report.problems:
            click.echo(f"warning: {problem}", err=True)
    if as_json:
        data = {"sources": [zr.to_json() for zr in outcome.reports], "dry_run": dry_run}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        for zr in outcome.reports:
            _print_zotero(zr, dry_run)
            note(_print_import(zr.report, dry_run), err=False)
    if outcome.key_map is not None and not dry_run and not as_json:
        shown = project.shown(outcome.key_map)
        note(f"key map written to {shown}; to update the paper's citations run:\n"
             f"  citekit rekey PAPER.tex --map {shown}", err=False)
    return 1 if outcome.findings else 0


#: how the report names where a key came from
_KEY_SOURCES = {"citationKey": "Zotero's citationKey field", "extra": "a 'Citation Key:' line in Extra",
                "bbt-export": "the Better BibTeX export (--keys-from)", "csl-json": "the CSL-JSON id",
                "citekit": "made by citekit (the item has no key of its own)"}


def _print_zotero(zr: ZoteroReport, dry_run: bool) -> None:
    read = f"{plural(zr.read, 'item')} changed since version {zr.since}" if zr.since is not None \
        else plural(zr.read, "item")
    skipped = ", ".join(plural(n, kind) for kind, n in sorted(zr.skipped_kinds.items()))
    note(f"{zr.source}: read {read}" + (f"; skipped {skipped}" if skipped else ""), err=False)
    counts: dict[str, int] = {}
    for source in zr.key_sources.values():
        counts[source] = counts.get(source, 0) + 1
    for source, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        note(f"  keys from {_KEY_SOURCES.get(source, source)}: {n}", err=False)
    made = sorted(k for k, s in zr.key_sources.items() if s == "citekit")
    if made:
        more = f" and {len(made) - 10} more (see --json)" if len(made) > 10 else ""
        note(f"  keys made by citekit: {', '.join(made[:10])}{more}; pass --keys-from with a Better BibTeX export "
             "to keep the keys your papers cite", err=False)
    for key, new in sorted(zr.zotero_renamed.items()):
        click.echo(f"{'would keep' if dry_run else 'kept'} {key}: Zotero now calls it {new} (added as an alias)")


def _filled_fields(names: list[str]) -> str:
    """The fields a skipped entry filled, as the report line names them ("pages, author written in full")."""
    return ", ".join(f"{n} written in full" if n in ("author", "editor") else n for n in names)


def _print_import(report: ImportReport, dry_run: bool) -> str:
    would = "would " if dry_run else ""
    for key in report.added if dry_run else ():  # a real import's additions are the summary's count
        note(f"{would}add {key}", err=False)
    filled = {key: (into, names) for key, into, names in report.filled}
    for key, dup in report.skipped:
        if key in filled:
            note(f"{would}skip {key} (the same work as {dup}, already in the library); "
                 f"{'would fill' if dry_run else 'filled'} {dup}'s {_filled_fields(filled[key][1])} from it", err=False)
        else:
            note(f"{would}skip {key} (identical to {dup})", err=False)  # (what was done: quiet under -q)
    for incoming, into, reason in report.merged:
        note(f"{would}merge {', '.join(incoming)} -> {into} ({reason})", err=False)
    for incoming, into, reason in report.merged_in_file:
        note(f"{would}merge {', '.join(k for k in incoming if k != into)} -> {into} (same work within the files: {reason})", err=False)
    for old, new in sorted(report.renamed.items()):
        note(f"{would}rename {old} -> {new} (the key '{old}' belongs to another work)", err=False)
    for old, new in sorted(report.unsafe_keys.items()):
        note(f"{would}rename {old} -> {new} (BibTeX and LaTeX keys may only use letters, digits and '_:./+-')", err=False)
    for keys, kept, reason in report.candidates:
        click.echo(f"same work? {', '.join(keys)} ({reason}); --merge would keep {kept}")
    for keys, kept, reason in report.versions:
        click.echo(f"versions of one work: {', '.join(keys)} ({reason}); kept apart")
    _print_resync(report, would)
    line = (f"{'would import' if dry_run else 'imported'} {plural(len(report.added), 'new entry')}, skipped "
               f"{len(report.skipped)} identical, merged {plural(len(report.merged), 'work')} already present")
    if report.filled:
        line += (f"; {'would fill' if dry_run else 'filled'} {plural(sum(len(n) for _k, _i, n in report.filled), 'field')} "
                    f"of {plural(len({into for _k, into, _n in report.filled}), 'entry')} already present")
    if report.synced:
        entries = len({c.key for c in report.updated})
        line += (f"; {'would update' if dry_run else 'updated'} {plural(len(report.updated), 'field')} of {plural(entries, 'entry')} "
                    f"imported before, {report.unchanged} unchanged")
    if report.kept:
        line += (f"; kept citekit's value of {plural(len(report.kept), 'field')} changed both in citekit and in the file "
                    "(see above)")
    if report.gone:
        line += f"; {plural(len(report.gone), 'entry')} no longer in the file kept in the library"
    if report.duplicate_keys:
        named = ", ".join(f"{k} ({w})" for k, w in report.duplicate_keys[:8])
        more = f" and {len(report.duplicate_keys) - 8} more (see --json)" if len(report.duplicate_keys) > 8 else ""
        line += (f"; skipped {plural(len(report.duplicate_keys), 'entry')} whose key an earlier entry of the same file "
                    f"has: {named}{more}; rename them in the file and import it again")
    if report.merged_in_file:
        line += f", merged {plural(len(report.merged_in_file), 'duplicate')} within the files"
    if report.candidates:
        line += f"; {plural(len(report.candidates), 'same-work candidate')} left apart (run again with --merge to merge them)"
    if dry_run:
        line += "; nothing was written (dry run)"
    return line


def _print_resync(report: ImportReport, would: str) -> None:
    """A re-import's changes, one line per field: taken from the file, kept, or gone from it."""
    for c in report.updated:
        if c.old is None:
            click.echo(f"{would}update {c.key}: {c.field} added {_shown(c.new)}")
        elif c.new is None:
            click.echo(f"{would}update {c.key}: {c.field} removed (was {_shown(c.old)})")
        else:
            click.echo(f"{would}update {c.key}: {c.field} {_shown(c.old)} -> {_shown(c.new)}")
    for c in report.kept:
        if c.field == "keywords":  # a tag the file added and the user had removed in citekit
            click.echo(f"{would}keep {c.key}: tag {c.new!r} added in {c.file} but removed in citekit; kept removed "
                       f"(`citekit tag {c.key} +{c.new}` takes it)")
            continue
        theirs = "removed it" if c.new is None else f"has {_shown(c.new)}"
        mine = "citekit's deletion" if c.old is None else f"citekit's {_shown(c.old)}"
        click.echo(f"{would}keep {c.key}: {c.field} changed both in citekit and in {c.file}; {mine} kept, "
                   f"the file {theirs} (edit refs/library.bib to take it)")
    for key, file, file_key in report.gone:
        named = key if key == file_key else f"{key} (as '{file_key}' in the file)"
        note(f"no longer in {file}: {named}; kept in the library (delete it from refs/library.bib "
             "if you no longer want it)", err=False)  # (said on every run: quiet under -q, for cron logs)


def _shown(value: str | None, width: int = 100) -> str:
    """A value on one line, cut short when long (``--json`` has it whole)."""
    text = " ".join((value or "").split())
    return repr(text if len(text) <= width else text[:width - 3] + "...")


# ---- dedup -------------------------------------------------------------------------------

@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help='Print {"clusters": [{"keys", "kept", "reason"}], "versions": [...], "stale_ids": [...], "related": [...]}.')
@click.option("--apply", "apply_", is_flag=True, help="Merge each cluster in the library (old keys stay valid as aliases).")
@click.option("--versions", "with_versions", is_flag=True,
              help="With --apply, also merge versions of one work (a workshop paper into its conference paper).")
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Key map to write with --apply (default: refs/keymap.yaml).")
@click.pass_context
@friendly_errors
def dedup(ctx: click.Context, file: Path | None, as_json: bool, apply_: bool, with_versions: bool,
          map_path: Path | None) -> int:
    """Find entries that are the same work, in the library or in any .bib FILE.

    Nothing is changed unless --apply is given; then each cluster becomes one entry (the
    version resolve.precedence cites; among equals the cleanest, most complete record),
    the other keys become its aliases, and the renames go to refs/keymap.yaml for
    `citekit rekey`. Versions of one work (a workshop and a conference paper, a technical
    report and its paper) are listed apart and merged only with --apply --versions.
    Exit status 1 when clusters are listed and not applied.

    """
    from citekit.api.dedup import ApplyToFile, find_duplicates

    def problems(found: list) -> None:
        for problem in found:
            click.echo(f"warning: {problem}", err=True)

    def report(found: Analysis) -> None:
        if as_json:
            click.echo(json.dumps(found.to_json(), ensure_ascii=False, indent=2))
        else:
            _print_analysis(found, apply_)

    try:
        project, outcome = find_duplicates(file, apply=apply_, versions=with_versions, map_path=map_path,
                                           start=(ctx.obj or {}).get("project_dir"), on_problems=problems,
                                           on_found=report)
    except ApplyToFile as exc:
        raise click.UsageError(str(exc)) from None
    for moved in outcome.moved:
        note(moved)
    if outcome.merged:
        shown = project.shown(outcome.key_map)
        note(f"merged {plural(outcome.merged, 'cluster')}; key map: {shown} "
             f"(rewrite a paper with `citekit rekey PAPER.tex --map {shown}`)")
    return outcome.exit_code


def _print_analysis(found: Analysis, applied: bool) -> None:
    for c in found.clusters:
        others = [k for k in c.keys if k != c.kept]
        click.echo(f"{c.kept} <- {', '.join(others)}")
        click.echo(f"    {c.reason}")
    for c in found.versions:
        click.echo(f"versions of one work: {', '.join(c.keys)} (cite {c.kept})")
        click.echo(f"    {c.reason}")
    for c in found.related:
        click.echo(f"related, not merged: {', '.join(c.keys)} ({c.reason})")
    for c in found.stale_ids:
        click.echo(f"stale identifier? {', '.join(c.keys)} {c.reason}; not merged: fix the identifier of the wrong one")
    n = sum(len(c.keys) - 1 for c in found.clusters)
    tail = "" if not found.clusters or applied else "; run with --apply to merge them"
    if found.versions and not applied:
        tail += f"; {plural(len(found.versions), 'work')} with several versions are kept apart (--apply --versions merges them)"
    note(f"{plural(len(found.clusters), 'duplicate cluster')} ({plural(n, 'entry')} would be merged){tail}")


# ---- rekey -------------------------------------------------------------------------------

@main.command()
@click.argument("tex_files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Key map to apply (default: refs/keymap.yaml plus the library's aliases).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.pass_context
@friendly_errors
def rekey(ctx: click.Context, tex_files: tuple[Path, ...], map_path: Path | None, dry_run: bool) -> None:
    """Rewrite old citation keys in LaTeX files (inside \\cite-family commands only).

    Without files, --dry-run previews what the key formula would give for each entry;
    keys themselves never change.
    """
    from citekit.api.dedup import NothingToRekey, change_lines, preview_keys, rekey as rewrite

    start = (ctx.obj or {}).get("project_dir")
    if not tex_files and dry_run:
        _print_preview(preview_keys(start))
        return
    try:
        outcome = rewrite(list(tex_files), map_path=map_path, dry_run=dry_run, start=start)
    except NothingToRekey as exc:
        raise click.UsageError(str(exc)) from None
    if outcome.empty_map:
        note("the key map is empty: nothing to rewrite")
        if wants_json(ctx):
            print_json({"dry_run": dry_run, "files": {}, "total": 0})
        return
    if wants_json(ctx):
        print_json(outcome.to_json())
    else:
        for name, result in outcome.files.items():
            for line in change_lines(name, result):
                click.echo(line)
    verb = "would rewrite" if dry_run else "rewrote"
    note(f"{verb} {plural(outcome.total, 'citation key')} in {plural(len(tex_files), 'file')}")


def _print_preview(preview: object) -> None:
    keys = preview.keys  # type: ignore[attr-defined]
    if wants_json():
        print_json({"formula": preview.formula, "keys": keys})  # type: ignore[attr-defined]
    else:
        for key, formula_key in keys.items():
            mark = "  " if formula_key == key else "* "
            click.echo(f"{mark}{key} -> {formula_key}")
    note(f"{preview.differ} of {plural(len(keys), 'key')} differ from the formula '{preview.formula}'; "  # type: ignore[attr-defined]
         "existing keys are kept (this is only a preview)")
