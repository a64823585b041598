"""Commands: ``import``, ``dedup``, ``rekey`` — one entry per work, and keys that never break."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..config import Config, load_config
from ..library.bibfile import read_bib_file
from ..library.dedup import Cluster, find_clusters
from ..library.importer import import_files
from ..library.keys import make_key
from ..library.merge import merge_entries
from ..library.rekey import (KeyMapError, compose_key_maps, format_changes, read_key_map, rekey_file,
                             write_key_map)
from ..library.journal import Transaction
from ..library.lock import ProjectLock, writing
from ..library.store import Library, LibraryError
from .app import friendly_errors, main


def _config(ctx: click.Context) -> Config:
    return load_config((ctx.obj or {}).get("project_dir"))


def _show(path: Path, cfg: Config) -> str:
    try:
        return str(path.resolve().relative_to(cfg.root))
    except ValueError:
        return str(path)


# ---- import ------------------------------------------------------------------------------

@main.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the renames of this import (default: refs/import-keymap.yaml).")
@click.pass_context
@friendly_errors
def import_(ctx: click.Context, files: tuple[Path, ...], map_path: Path | None) -> None:
    """Merge existing BibTeX files into the library, keeping their keys.

    A key that already belongs to a different work gets a suffix (smith2020 -> smith2020a);
    an entry for a work the library already has is merged into it. The renames are written
    to a key map so the paper the file came from can be fixed with `citekit rekey`.
    """
    cfg = _config(ctx)
    with ProjectLock(cfg.refs_dir, "import " + " ".join(f.name for f in files)):
        lib = Library.load(cfg.refs_dir)
        report = import_files(lib, files)
        txn = Transaction(cfg.refs_dir)  # library, key maps: all or nothing
        save_library(lib, txn)
        if report.key_map:
            keymap = cfg.refs_dir / "keymap.yaml"
            write_key_map(keymap, compose_key_maps(read_key_map(keymap), report.key_map), txn)
        if report.import_map:
            write_key_map(map_path or cfg.refs_dir / "import-keymap.yaml", report.import_map, txn)
        txn.commit()
    for problem in report.problems:
        click.echo(f"warning: {problem}", err=True)
    for incoming, into, reason in report.merged:
        click.echo(f"merged {', '.join(incoming)} -> {into} ({reason})")
    for incoming, into, reason in report.merged_in_file:
        click.echo(f"merged {', '.join(k for k in incoming if k != into)} -> {into} (same work within the file: {reason})")
    for old, new in sorted(report.renamed.items()):
        click.echo(f"renamed {old} -> {new} (the key '{old}' belongs to another work)")
    for old, new in sorted(report.unsafe_keys.items()):
        click.echo(f"renamed {old} -> {new} (BibTeX and LaTeX keys may only use letters, digits and '_:./+-')")
    summary = f"imported {len(report.added)} new entries, merged {len(report.merged)} works already present"
    if report.merged_in_file:
        summary += f", merged {len(report.merged_in_file)} duplicates within the file"
    click.echo(summary)
    if report.import_map:
        target = map_path or cfg.refs_dir / "import-keymap.yaml"
        click.echo(f"key map written to {_show(target, cfg)}; to update the paper's citations run:\n"
                   f"  citekit rekey PAPER.tex --map {_show(target, cfg)}")


def save_library(lib: Library, txn: Transaction | None = None) -> None:
    """Save, turning a value the .bib writer refuses into an error that says what to fix.

    Rendering happens before anything is written, so on such an error both files are
    still as they were.
    """
    try:
        lib.save(txn)
    except ValueError as exc:
        raise LibraryError(f"{exc} Nothing was written.") from exc


# ---- dedup -------------------------------------------------------------------------------

@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help='Print {"clusters": [{"keys", "kept", "reason"}]}.')
@click.option("--apply", "apply_", is_flag=True, help="Merge each cluster in the library (old keys stay valid as aliases).")
@click.option("--map", "map_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Key map to write with --apply (default: refs/keymap.yaml).")
@click.pass_context
@friendly_errors
def dedup(ctx: click.Context, file: Path | None, as_json: bool, apply_: bool, map_path: Path | None) -> None:
    """Find entries that are the same work, in the library or in any .bib FILE.

    Nothing is changed unless --apply is given; then each cluster becomes one entry (the
    best version; on a tie the key issued first), the other keys become its aliases, and
    the renames go to refs/keymap.yaml for `citekit rekey`.
    """
    cfg = _config(ctx)
    if file is not None:
        if apply_:
            raise click.UsageError(f"--apply changes the library only; run `citekit import {file}` to bring the file in "
                                   "(entries of works already present are merged on import), or drop --apply to see the clusters.")
        parsed = read_bib_file(file)
        for problem in parsed.problems:
            click.echo(f"warning: {problem}", err=True)
        entries = parsed.entries
        lib = None
    with writing(cfg.refs_dir, "dedup --apply", write=apply_ and file is None):
        if file is None:
            lib = Library.load(cfg.refs_dir)
            entries = list(lib.entries.values())
        clusters = find_clusters(entries)
        if as_json:
            click.echo(json.dumps({"clusters": [c.to_json() for c in clusters]}, ensure_ascii=False, indent=2))
        else:
            _print_clusters(clusters)
        if apply_ and lib is not None and clusters:
            key_map = apply_clusters(lib, clusters)
            txn = Transaction(cfg.refs_dir)  # merged library and key map: all or nothing
            save_library(lib, txn)
            target = map_path or cfg.refs_dir / "keymap.yaml"
            write_key_map(target, compose_key_maps(read_key_map(target), key_map), txn)
            txn.commit()
            click.echo(f"merged {len(clusters)} clusters; key map: {_show(target, cfg)} "
                           f"(rewrite a paper with `citekit rekey PAPER.tex --map {_show(target, cfg)}`)", err=True)


def apply_clusters(lib: Library, clusters: list[Cluster]) -> dict[str, str]:
    """Merge every cluster into its surviving entry; returns old key -> surviving key."""
    key_map: dict[str, str] = {}
    order = list(lib.entries.values())
    for cluster in clusters:
        group = [order[i] for i in cluster.indices]
        result = merge_entries(group, key=cluster.kept, reason=cluster.reason)
        for old in result.absorbed:
            lib.remove(old)
        lib.entries[cluster.kept] = result.entry
        lib.issued_keys.update(result.entry.aliases)
        key_map.update(result.key_map())
    return key_map


def _print_clusters(clusters: list[Cluster]) -> None:
    for c in clusters:
        others = [k for k in c.keys if k != c.kept]
        click.echo(f"{c.kept} <- {', '.join(others)}")
        click.echo(f"    {c.reason}")
    n = sum(len(c.keys) - 1 for c in clusters)
    click.echo(f"{len(clusters)} duplicate clusters ({n} entries would be merged)"
               + ("" if not clusters else "; run with --apply to merge them"), err=True)


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
        click.echo("the key map is empty: nothing to rewrite", err=True)
        return
    total = 0
    with writing(cfg.refs_dir, "rekey " + " ".join(t.name for t in tex_files), write=not dry_run):
        txn = Transaction(cfg.refs_dir)  # every file rewritten, or none
        for tex in tex_files:
            result = rekey_file(tex, key_map, dry_run=dry_run, txn=txn)
            for line in format_changes(str(tex), result):
                click.echo(line)
            total += len(result.changes)
        txn.commit()
    verb = "would rewrite" if dry_run else "rewrote"
    click.echo(f"{verb} {total} citation keys in {len(tex_files)} files", err=True)


def _preview_keys(cfg: Config) -> None:
    lib = Library.load(cfg.refs_dir)
    taken: set[str] = set()
    differ = 0
    for entry in lib.sorted_entries():
        formula_key = make_key(entry, taken, cfg.key_formula)
        taken.add(formula_key)
        mark = "  " if formula_key == entry.key else "* "
        differ += formula_key != entry.key
        click.echo(f"{mark}{entry.key} -> {formula_key}")
    click.echo(f"{differ} of {len(lib.entries)} keys differ from the formula '{cfg.key_formula}'; "
               "existing keys are kept (this is only a preview)", err=True)
