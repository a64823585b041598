"""Commands: ``import``, ``dedup``, ``rekey`` — one entry per work, and keys that never break."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..config import Config, load_config
from ..library.bibfile import read_bib_file
from ..library.dedup import Analysis, Cluster, analyse
from ..library.importer import ImportReport, import_files
from ..library.keys import make_key
from ..library.merge import merge_entries
from ..library.rekey import (KeyMapError, compose_key_maps, extend_key_map, format_changes, read_key_map, rekey_file,
                             write_key_map)
from ..library.journal import Transaction
from ..library.lock import writing
from ..library.store import Library, LibraryError
from .app import friendly_errors, main, note, print_json, wants_json


def _config(ctx: click.Context) -> Config:
    return load_config((ctx.obj or {}).get("project_dir"))


def _show(path: Path, cfg: Config) -> str:
    try:
        return str(path.resolve().relative_to(cfg.root))
    except ValueError:
        return str(path)


# ---- import ------------------------------------------------------------------------------

def _precedence(cfg: Config) -> list[str] | None:
    """``resolve: precedence:`` from citekit.yaml: which version to cite, for merges too."""
    value = (cfg.data.get("resolve") or {}).get("precedence")
    return list(value) if value else None


@main.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--strings", "strings", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file of @string macros to read first (repeatable); its entries are ignored.")
@click.option("--merge", is_flag=True, help="Merge entries that are the same work as others (default: list them).")
@click.option("--dry-run", is_flag=True, help="Print what would be added, skipped, renamed and merged; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the renames of this import (default: refs/import-keymap.yaml).")
@click.pass_context
@friendly_errors
def import_(ctx: click.Context, files: tuple[Path, ...], strings: tuple[Path, ...], merge: bool, dry_run: bool,
            as_json: bool, map_path: Path | None) -> int:
    """Copy entries of existing BibTeX files into the library, keeping their keys.

    Files share @string macros in the order given, as bibtex reads them (put the macro
    file first, or pass it with --strings). An entry identical to one already there is
    skipped and counted; entries that look like the same work as others are listed and
    merged only with --merge. A key that already belongs to a different work gets a
    suffix (smith2020 -> smith2020a); renames go to a key map for `citekit rekey`.
    Exit status 1 when something needs a look (skipped entries, unmerged candidates,
    problems in the files).
    """
    cfg = _config(ctx)
    with writing(cfg.refs_dir, "import " + " ".join(f.name for f in files), write=not dry_run):
        lib = Library.load(cfg.refs_dir)
        report = import_files(lib, files, strings=strings, merge=merge, precedence=_precedence(cfg))
        target = (map_path or cfg.refs_dir / "import-keymap.yaml") if report.import_map else None
        if not dry_run:
            txn = Transaction(cfg.refs_dir)  # library, key maps: all or nothing
            save_library(lib, txn)
            if report.key_map:
                keymap = cfg.refs_dir / "keymap.yaml"
                write_key_map(keymap, compose_key_maps(read_key_map(keymap), report.key_map), txn)
            if target is not None:
                # earlier imports' renames stay: `rekey` may still need them for older papers
                write_key_map(target, extend_key_map(read_key_map(target), report.import_map), txn)
            txn.commit()
    for problem in report.problems:
        click.echo(f"warning: {problem}", err=True)
    if as_json:
        data = report.to_json()
        data["dry_run"] = dry_run
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        _print_import(report, dry_run)
    if target is not None and not dry_run and not as_json:
        note(f"key map written to {_show(target, cfg)}; to update the paper's citations run:\n"
             f"  citekit rekey PAPER.tex --map {_show(target, cfg)}", err=False)
    return 1 if report.findings else 0


def _print_import(report: ImportReport, dry_run: bool) -> None:
    would = "would " if dry_run else ""
    for key in report.added if dry_run else ():  # a real import's additions are the summary's count
        click.echo(f"{would}add {key}")
    for key, dup in report.skipped:
        click.echo(f"{would}skip {key} (identical to {dup})")
    for incoming, into, reason in report.merged:
        click.echo(f"{would}merge {', '.join(incoming)} -> {into} ({reason})")
    for incoming, into, reason in report.merged_in_file:
        click.echo(f"{would}merge {', '.join(k for k in incoming if k != into)} -> {into} (same work within the files: {reason})")
    for old, new in sorted(report.renamed.items()):
        click.echo(f"{would}rename {old} -> {new} (the key '{old}' belongs to another work)")
    for old, new in sorted(report.unsafe_keys.items()):
        click.echo(f"{would}rename {old} -> {new} (BibTeX and LaTeX keys may only use letters, digits and '_:./+-')")
    for keys, kept, reason in report.candidates:
        click.echo(f"same work? {', '.join(keys)} ({reason}); --merge would keep {kept}")
    for keys, kept, reason in report.versions:
        click.echo(f"versions of one work: {', '.join(keys)} ({reason}); kept apart")
    summary = (f"{'would import' if dry_run else 'imported'} {len(report.added)} new entries, skipped "
               f"{len(report.skipped)} identical, merged {len(report.merged)} works already present")
    if report.duplicate_keys:
        named = ", ".join(f"{k} ({w})" for k, w in report.duplicate_keys[:8])
        more = f" and {len(report.duplicate_keys) - 8} more (see --json)" if len(report.duplicate_keys) > 8 else ""
        summary += (f"; skipped {len(report.duplicate_keys)} entries whose key an earlier entry of the same file "
                    f"has: {named}{more}; rename them in the file and import it again")
    if report.merged_in_file:
        summary += f", merged {len(report.merged_in_file)} duplicates within the files"
    if report.candidates:
        summary += f"; {len(report.candidates)} same-work candidates left apart (run again with --merge to merge them)"
    if dry_run:
        summary += "; nothing was written (dry run)"
    note(summary, err=False)


def save_library(lib: Library, txn: Transaction | None = None) -> None:
    """Save, turning a value the .bib writer refuses into an error that says what to fix.

    Rendering happens before anything is written, so on such an error both files are
    still as they were.
    """
    try:
        lib.save(txn)
    except ValueError as exc:
        raise LibraryError(f"{exc} Nothing was written.") from exc
    for moved in lib.kept_moves:  # comments above a merged entry: kept, elsewhere, and said so
        note(moved)


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
    cfg = _config(ctx)
    precedence = _precedence(cfg)
    skipped = False  # entries of FILE that could not be read are findings too
    if file is not None:
        if apply_:
            raise click.UsageError(f"--apply changes the library only; run `citekit import {file} --merge` to bring the "
                                   "file in with its duplicates merged, or drop --apply to see the clusters.")
        parsed = read_bib_file(file)
        for problem in parsed.problems:
            click.echo(f"warning: {problem}", err=True)
        entries = parsed.entries
        lib = None
        skipped = bool(parsed.problems)
    with writing(cfg.refs_dir, "dedup --apply", write=apply_ and file is None):
        if file is None:
            lib = Library.load(cfg.refs_dir)
            entries = list(lib.entries.values())
        found = analyse(entries, precedence=precedence)
        if as_json:
            click.echo(json.dumps(found.to_json(), ensure_ascii=False, indent=2))
        else:
            _print_analysis(found, apply_)
        to_merge = found.clusters + (found.versions if with_versions else [])
        if apply_ and lib is not None and to_merge:
            key_map = apply_clusters(lib, _disjoint(to_merge), precedence)
            txn = Transaction(cfg.refs_dir)  # merged library and key map: all or nothing
            save_library(lib, txn)
            target = map_path or cfg.refs_dir / "keymap.yaml"
            write_key_map(target, compose_key_maps(read_key_map(target), key_map), txn)
            txn.commit()
            note(f"merged {len(to_merge)} clusters; key map: {_show(target, cfg)} "
                 f"(rewrite a paper with `citekit rekey PAPER.tex --map {_show(target, cfg)}`)")
            return 1 if skipped else 0
    return 1 if found.clusters or found.stale_ids or skipped else 0


def _disjoint(clusters: list[Cluster]) -> list[Cluster]:
    """Same-work clusters and version groups joined where they share an entry."""
    out: list[Cluster] = []
    owner: dict[int, Cluster] = {}
    for c in clusters:
        hit = next((owner[i] for i in c.indices if i in owner), None)
        if hit is None:
            c = Cluster(list(c.keys), c.kept, c.reason, list(c.indices), c.kind)
            out.append(c)
            hit = c
        else:
            for k, i in zip(c.keys, c.indices):
                if i not in hit.indices:
                    hit.indices.append(i)
                    hit.keys.append(k)
            hit.reason += "; " + c.reason
        for i in c.indices:
            owner[i] = hit
    return out


def apply_clusters(lib: Library, clusters: list[Cluster], precedence: list[str] | None = None) -> dict[str, str]:
    """Merge every cluster into its surviving entry; returns old key -> surviving key."""
    key_map: dict[str, str] = {}
    order = list(lib.entries.values())
    for cluster in clusters:
        group = [order[i] for i in cluster.indices]
        result = merge_entries(group, key=cluster.kept, reason=cluster.reason, precedence=precedence)
        for old in result.absorbed:
            lib.remove(old)
        lib.entries[cluster.kept] = result.entry
        lib.issued_keys.update(result.entry.aliases)
        key_map.update(result.key_map())
    return key_map


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
        tail += f"; {len(found.versions)} works with several versions are kept apart (--apply --versions merges them)"
    note(f"{len(found.clusters)} duplicate clusters ({n} entries would be merged){tail}")


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
    cfg = _config(ctx)
    if not tex_files:
        if not dry_run:
            raise click.UsageError("keys are stable and are never regenerated. Pass .tex files to rewrite their "
                                   "citations, or --dry-run alone to preview the key formula.")
        _preview_keys(cfg)
        return
    if map_path is not None:
        if not map_path.exists():
            raise KeyMapError(f"{map_path}: no such key map; check the path (citekit dedup --apply writes refs/keymap.yaml)")
        key_map = read_key_map(map_path)
    else:
        lib = Library.load(cfg.refs_dir)
        key_map = compose_key_maps(lib.alias_map(), read_key_map(cfg.refs_dir / "keymap.yaml"))
    if not key_map:
        note("the key map is empty: nothing to rewrite")
        if wants_json(ctx):
            print_json({"dry_run": dry_run, "files": {}, "total": 0})
        return
    total = 0
    changes: dict[str, list[dict[str, Any]]] = {}
    with writing(cfg.refs_dir, "rekey " + " ".join(t.name for t in tex_files), write=not dry_run):
        txn = Transaction(cfg.refs_dir)  # every file rewritten, or none
        for tex in tex_files:
            result = rekey_file(tex, key_map, dry_run=dry_run, txn=txn)
            changes[str(tex)] = [{"line": c.line, "old": c.old, "new": c.new} for c in result.changes]
            if not wants_json(ctx):
                for line in format_changes(str(tex), result):
                    click.echo(line)
            total += len(result.changes)
        txn.commit()
    if wants_json(ctx):
        print_json({"dry_run": dry_run, "files": changes, "total": total})
    verb = "would rewrite" if dry_run else "rewrote"
    note(f"{verb} {total} citation keys in {len(tex_files)} files")


def _preview_keys(cfg: Config) -> None:
    lib = Library.load(cfg.refs_dir)
    taken: set[str] = set()
    differ = 0
    preview: dict[str, str] = {}
    for entry in lib.sorted_entries():
        formula_key = make_key(entry, taken, cfg.key_formula)
        taken.add(formula_key)
        mark = "  " if formula_key == entry.key else "* "
        differ += formula_key != entry.key
        preview[entry.key] = formula_key
        if not wants_json():
            click.echo(f"{mark}{entry.key} -> {formula_key}")
    if wants_json():
        print_json({"formula": cfg.key_formula, "keys": preview})
    note(f"{differ} of {len(lib.entries)} keys differ from the formula '{cfg.key_formula}'; "
         "existing keys are kept (this is only a preview)")
