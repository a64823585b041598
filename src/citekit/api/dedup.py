"""Commands that change which entries the library holds: ``import``, ``dedup``, ``rekey``.

Each write takes the project lock and is one transaction (library, key maps, rewritten
LaTeX files: all or nothing). Keys never break: a merged or renamed key goes to a key map
that ``rekey`` applies to a paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from citekit.api.project import Project, open_project, precedence
from citekit.core.errors import UsageError

if TYPE_CHECKING:
    from citekit.library.dedup import Analysis, Cluster
    from citekit.library.importer import ImportReport
    from citekit.library.journal import Transaction
    from citekit.library.rekey import RekeyResult
    from citekit.library.store import Library


# ---- import ------------------------------------------------------------------------------

@dataclass
class ImportOutcome:
    """What ``import`` did (or would do): the report, and where the renames went."""

    report: ImportReport
    #: the import's key map (None: nothing renamed)
    key_map: Path | None
    #: notes about comments kept elsewhere when entries were merged
    moved: list[str] = field(default_factory=list)


def import_bib(files: list[Path], *, strings: list[Path] | tuple[Path, ...] = (), merge: bool = False,
               dry_run: bool = False, map_path: Path | None = None,
               start: str | Path | None = None, follow: bool = True) -> tuple[Project, ImportOutcome]:
    """Copy entries of BibTeX files into the library (see ``citekit import --help``).

    ``follow=False``: the files are no exports to sync with later (``add`` of pasted BibTeX
    goes in through a temporary file), so nothing remembers them."""
    from citekit.library.importer import import_files
    from citekit.library.journal import Transaction
    from citekit.library.lock import writing
    from citekit.library.store import Library

    project = open_project(start)
    cfg = project.config
    moved: list[str] = []
    with writing(cfg.refs_dir, "import " + " ".join(f.name for f in files), write=not dry_run):
        lib = Library.load(cfg.refs_dir)
        report = import_files(lib, files, strings=strings, merge=merge, precedence=precedence(cfg), root=cfg.root,
                              follow=follow)
        apart = _left_apart_before(cfg, [*strings, *files]) if follow else None
        if merge and report.synced:
            _merge_left_apart(lib, report, precedence(cfg), apart)
        remembered = _split_said_before(cfg, report, [*strings, *files]) if follow and not dry_run else None
        target = (map_path or cfg.refs_dir / "import-keymap.yaml") if report.import_map else None
        if not dry_run:
            txn = Transaction(cfg.refs_dir)  # library, key maps: all or nothing
            moved = save_library(lib, txn)
            _write_key_maps(cfg, report, target, txn)
            txn.commit()
            if remembered is not None:
                from citekit.library.import_warnings import remember

                still_apart = [] if merge else (apart or [])  # (with --merge, what was left apart is merged now)
                remember(cfg.refs_dir, *remembered, [str(p) for p in [*report.problems_before, *report.problems]],
                         [*still_apart, *(keys for keys, _kept, _why in report.candidates)])
            from citekit.api.search_index import index_after_write

            index_after_write(cfg.refs_dir, len(lib.keys()), len(report.added) + len({c.key for c in report.updated}))
    return project, ImportOutcome(report, target, moved)


def _left_apart_before(cfg: Any, paths: list[Path]) -> list[list[str]] | None:
    """The candidates earlier imports of these files left apart (None: none remembered)."""
    from citekit.library.import_warnings import left_apart
    from citekit.library.reimport import source_name

    return left_apart(cfg.refs_dir, [source_name(Path(p), cfg.root) for p in paths])


def _merge_left_apart(lib: Library, report: ImportReport, order: list[str] | None,
                      apart: list[list[str]] | None = None) -> None:
    """``import FILE --merge`` after an import that left same-work candidates apart: the file's
    entries are synced, not imported anew, so the candidates the first import listed are found
    again among the library's entries and merged now, as the first import's message promised.

    ``apart``: the candidates the earlier imports of the files listed (their keys). When the
    re-import changed no entry, only those entries are analysed again (still the same work?),
    not the whole library: the work is proportional to what was left apart. Otherwise (an
    entry changed in the file, or nothing remembered) the whole library is, as the changed
    entries may now be the same work as any other."""
    from citekit.library.dedup import analyse

    synced = {k.lower() for k in report.synced}
    if apart is not None and not report.updated:
        entries = {id(e): e for keys in apart for k in keys if (e := lib.get(k)) is not None}
        if len(entries) < 2:
            return
        place = {e.key: i for i, e in enumerate(lib.entries.values())}  # (library order: ties, and what
        pool = sorted(entries.values(), key=lambda e: place[e.key])  # apply_clusters' indices count)
        found = analyse(pool, precedence=order)
        for cluster in found.clusters:
            cluster.indices = [place[pool[i].key] for i in cluster.indices]
    else:
        found = analyse(list(lib.entries.values()), precedence=order)
    clusters = [c for c in found.clusters if any(k.lower() in synced for k in c.keys)]
    if not clusters:
        return
    joined = _disjoint(clusters)
    for cluster in joined:
        report.merged.append(([k for k in cluster.keys if k != cluster.kept], cluster.kept, cluster.reason))
    report.key_map.update(apply_clusters(lib, joined, order))


def _write_key_maps(cfg: Any, report: ImportReport, target: Path | None, txn: Transaction) -> None:
    """An import's renames: into the key map and the import key map (``target``), in ``txn``."""
    from citekit.library.rekey import compose_key_maps, extend_key_map, read_key_map, write_key_map

    if report.key_map:
        keymap = cfg.refs_dir / "keymap.yaml"
        write_key_map(keymap, compose_key_maps(read_key_map(keymap), report.key_map), txn)
    if target is not None:
        # earlier imports' renames stay: `rekey` may still need them for older papers
        write_key_map(target, extend_key_map(read_key_map(target), report.import_map), txn)


def import_pasted(cfg: Any, lib: Library, files: list[Path], *,
                  index: Any = None) -> tuple[ImportReport, Callable[[Transaction], None]]:
    """The entries of ``files`` imported into ``lib`` (loaded and locked by the caller) as
    :func:`import_bib` with ``follow=False`` takes them, without saving: ``add`` writes
    them with the sync that follows, in one transaction, and needs no other entry (the
    candidates and versions an import lists are not looked for: it reads what was added).
    Returns the report and what writes the import's key maps into that transaction.
    ``index``: the library's match index as loaded, which the entries added are filed in."""
    from citekit.library.importer import import_files

    report = import_files(lib, files, precedence=precedence(cfg), root=cfg.root, follow=False, listed=False,
                          index=index)
    target = cfg.refs_dir / "import-keymap.yaml" if report.import_map else None
    return report, lambda txn: _write_key_maps(cfg, report, target, txn)


def _split_said_before(cfg: Any, report: ImportReport, paths: list[Path]) -> tuple[list[str], str]:
    """Move the problems an import of the same, unchanged files reported already to
    ``report.problems_before`` (a re-import of a malformed export warns once per change of
    it); returns what to remember them by: the files' names and the digest of their bytes."""
    from citekit.library.import_warnings import files_digest, said_before
    from citekit.library.reimport import source_name

    names = [source_name(Path(p), cfg.root) for p in paths]
    digest = files_digest(paths)
    seen = said_before(cfg.refs_dir, names, digest)
    if seen:
        report.problems_before = [p for p in report.problems if str(p) in seen]
        report.problems = [p for p in report.problems if str(p) not in seen]
    return names, digest


def save_library(lib: Library, txn: Transaction | None = None) -> list[str]:
    """Save, turning a value the .bib writer refuses into an error that says what to fix;
    returns the notes about comments kept elsewhere (above a merged entry).

    Rendering happens before anything is written, so on such an error both files are
    still as they were.
    """
    from citekit.library.errors import LibraryError

    from citekit.library.rekey import save_with_renames

    try:
        save_with_renames(lib, txn)
    except ValueError as exc:
        raise LibraryError(f"{exc} Nothing was written.") from exc
    return list(lib.kept_moves)


# ---- dedup -------------------------------------------------------------------------------

@dataclass
class DedupOutcome:
    """What ``dedup`` found, and with ``apply`` what it merged."""

    found: Analysis
    #: problems reading FILE (its unreadable entries are findings)
    problems: list[Any] = field(default_factory=list)
    #: clusters merged (with ``apply``)
    merged: int = 0
    key_map: Path | None = None
    moved: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        skipped = bool(self.problems)
        if self.merged:
            return 1 if skipped else 0
        return 1 if self.found.clusters or self.found.stale_ids or skipped else 0


def find_duplicates(file: Path | None = None, *, apply: bool = False, versions: bool = False, map_path: Path | None = None,
          start: str | Path | None = None, on_problems: Callable[[list[Any]], None] | None = None,
          on_found: Callable[[Analysis], None] | None = None) -> tuple[Project, DedupOutcome]:
    """Clusters of entries that are the same work, in the library or in ``file``; with
    ``apply`` each library cluster is merged and the renames go to the key map.

    ``on_problems`` hears FILE's reading problems and ``on_found`` the analysis as soon as
    they are known (before anything is merged), so a report can be printed in that order.
    """
    from citekit.library.dedup import analyse
    from citekit.library.journal import Transaction
    from citekit.library.lock import writing
    from citekit.library.rekey import compose_key_maps, read_key_map, write_key_map
    from citekit.library.store import Library

    project = open_project(start)
    cfg = project.config
    order = precedence(cfg)
    problems: list[Any] = []
    lib = None
    if file is not None:
        if apply:
            raise ApplyToFile(f"--apply changes the library only; run `citekit import {file} --merge` to bring the "
                              "file in with its duplicates merged, or drop --apply to see the clusters.")
        from citekit.bibtex.reader import read_bib_file

        parsed = read_bib_file(file)
        problems = list(parsed.problems)
        if on_problems is not None:
            on_problems(problems)
        entries = parsed.entries
    with writing(cfg.refs_dir, "dedup --apply", write=apply and file is None):
        if file is None:
            lib = Library.load(cfg.refs_dir)
            entries = list(lib.entries.values())
        found = analyse(entries, precedence=order)
        outcome = DedupOutcome(found, problems)
        if on_found is not None:
            on_found(found)
        to_merge = found.clusters + (found.versions if versions else [])
        if apply and lib is not None and to_merge:
            key_map = apply_clusters(lib, _disjoint(to_merge), order)
            txn = Transaction(cfg.refs_dir)  # merged library and key map: all or nothing
            outcome.moved = save_library(lib, txn)
            target = map_path or cfg.refs_dir / "keymap.yaml"
            write_key_map(target, compose_key_maps(read_key_map(target), key_map), txn)
            txn.commit()
            outcome.merged = len(to_merge)
            outcome.key_map = target
    return project, outcome


class ApplyToFile(UsageError):
    """``dedup FILE --apply``: only the library is ever merged."""


def _disjoint(clusters: list[Cluster]) -> list[Cluster]:
    """Same-work clusters and version groups joined where they share an entry."""
    from citekit.library.dedup import Cluster

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
    from citekit.library.merge import merge_entries

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


# ---- rekey -------------------------------------------------------------------------------

@dataclass
class RekeyOutcome:
    """The citations rewritten (or, with ``dry_run``, to be rewritten) per LaTeX file."""

    dry_run: bool
    #: file -> its result, in the order given (empty when the key map is empty)
    files: dict[str, RekeyResult] = field(default_factory=dict)
    empty_map: bool = False

    @property
    def total(self) -> int:
        return sum(len(r.changes) for r in self.files.values())

    def to_json(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run,
                "files": {name: [{"line": c.line, "old": c.old, "new": c.new} for c in r.changes]
                          for name, r in self.files.items()},
                "total": self.total}


def rekey(tex_files: list[Path], *, map_path: Path | None = None, dry_run: bool = False,
          start: str | Path | None = None) -> RekeyOutcome:
    """Rewrite old citation keys in LaTeX files (inside ``\\cite``-family commands only).

    The key map is ``map_path``, else ``refs/keymap.yaml`` plus the library's aliases.
    """
    from citekit.library.journal import Transaction
    from citekit.library.lock import writing
    from citekit.library.rekey import KeyMapError, compose_key_maps, read_key_map, rekey_file
    from citekit.library.store import Library

    cfg = open_project(start).config
    if not tex_files:
        raise NothingToRekey("keys are stable and are never regenerated. Pass .tex files to rewrite their "
                             "citations, or --dry-run alone to preview the key formula.")
    if map_path is not None:
        if not map_path.exists():
            raise KeyMapError(f"{map_path}: no such key map; check the path (citekit dedup --apply writes refs/keymap.yaml)")
        key_map = read_key_map(map_path)
    else:
        lib = Library.load(cfg.refs_dir)
        key_map = compose_key_maps(lib.alias_map(), read_key_map(cfg.refs_dir / "keymap.yaml"))
    outcome = RekeyOutcome(dry_run)
    if not key_map:
        outcome.empty_map = True
        return outcome
    with writing(cfg.refs_dir, "rekey " + " ".join(t.name for t in tex_files), write=not dry_run):
        txn = Transaction(cfg.refs_dir)  # every file rewritten, or none
        for tex in tex_files:
            outcome.files[str(tex)] = rekey_file(tex, key_map, dry_run=dry_run, txn=txn)
        txn.commit()
    return outcome


class NothingToRekey(UsageError):
    """``rekey`` without files and without ``--dry-run``: keys are never regenerated."""


def change_lines(name: str, result: RekeyResult) -> list[str]:
    """The lines ``rekey`` prints for one file."""
    from citekit.library.rekey import format_changes

    return list(format_changes(name, result))


@dataclass
class KeyPreview:
    """What the key formula would give each entry (``rekey --dry-run`` without files)."""

    formula: str
    #: key -> the formula's key, in key order
    keys: dict[str, str]

    @property
    def differ(self) -> int:
        return sum(1 for k, v in self.keys.items() if k != v)


def preview_keys(start: str | Path | None = None) -> KeyPreview:
    """The formula's key for every entry; existing keys are kept (this is only a preview)."""
    from citekit.library.keys import make_key
    from citekit.library.store import Library

    cfg = open_project(start).config
    lib = Library.load(cfg.refs_dir)
    taken: set[str] = set()
    preview: dict[str, str] = {}
    for entry in lib.sorted_entries():
        formula_key = make_key(entry, taken, cfg.key_formula)
        taken.add(formula_key)
        preview[entry.key] = formula_key
    return KeyPreview(cfg.key_formula, preview)
