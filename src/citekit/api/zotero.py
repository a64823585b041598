"""``citekit import`` from Zotero: a Better BibTeX JSON or CSL-JSON export, the running
Zotero (``--zotero``) or a zotero.org library (``--zotero-library users/ID``).

One transaction per import, under the project lock, as for ``.bib`` files: the library
and the import key map are written together or not at all. A source imported before is
read incrementally (only items changed since the newest version seen) unless ``full``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from citekit.api.project import Project, open_project, precedence
from citekit.core.errors import UsageError

if TYPE_CHECKING:
    from citekit.library.zotero_import import ZoteroItems, ZoteroReport
    from citekit.library.store import Library
    from citekit.core.config import Config

#: how import records name the running Zotero (one per machine: its library is users/0)
LOCAL_SOURCE = "zotero:local"


@dataclass
class ZoteroOutcome:
    """What a Zotero import did (or would do), source by source, and where renames went."""

    reports: list[ZoteroReport] = field(default_factory=list)
    key_map: Path | None = None
    moved: list[str] = field(default_factory=list)

    @property
    def findings(self) -> bool:
        return any(r.report.findings for r in self.reports)


def import_zotero(files: list[Path] | tuple[Path, ...] = (), *, local: bool = False, library: str | None = None,
                  keys_from: Path | None = None, merge: bool = False, dry_run: bool = False, full: bool = False,
                  map_path: Path | None = None, start: str | Path | None = None) -> tuple[Project, ZoteroOutcome]:
    """Import Zotero items from JSON ``files``, the local API (``local``) or a web ``library``
    (see ``citekit import --help``)."""
    from citekit.library.journal import Transaction
    from citekit.library.lock import writing
    from citekit.library.rekey import extend_key_map, read_key_map, write_key_map
    from citekit.library.store import Library

    if not files and not local and not library:
        raise UsageError("nothing to import: name a .bib or .json file, or use --zotero or --zotero-library")
    project = open_project(start)
    cfg = project.config
    outcome = ZoteroOutcome()
    what = " ".join([*(f.name for f in files), *(["--zotero"] if local else []), *([library] if library else [])])
    read = [(path, _read_file(path)) for path in files]  # a file that is no export stops us before the lock
    with writing(cfg.refs_dir, "import " + what, write=not dry_run):
        lib = Library.load(cfg.refs_dir)
        for path, items in read:
            outcome.reports.append(_import_file(lib, cfg, path, items, keys_from, merge))
        if local:
            outcome.reports.append(_import_api(lib, cfg, None, keys_from, merge, full))
        if library:
            outcome.reports.append(_import_api(lib, cfg, library, keys_from, merge, full))
        renames: dict[str, str] = {}
        for report in outcome.reports:
            renames.update(report.report.import_map)
        target = (map_path or cfg.refs_dir / "import-keymap.yaml") if renames else None
        outcome.key_map = target
        if not dry_run:
            from citekit.api.dedup import save_library

            txn = Transaction(cfg.refs_dir)
            outcome.moved = save_library(lib, txn)
            if target is not None:
                write_key_map(target, extend_key_map(read_key_map(target), renames), txn)
            txn.commit()
    return project, outcome


def _read_file(path: Path) -> ZoteroItems:
    from citekit.library.zotero_import import NotZoteroJson, read_json_export

    try:
        return read_json_export(path)
    except NotZoteroJson as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{path} could not be read ({exc.strerror}); check the path") from None


def _import_file(lib: Library, cfg: Config, path: Path, items: ZoteroItems, keys_from: Path | None,
                 merge: bool) -> ZoteroReport:
    from citekit.library.reimport import source_name
    from citekit.library.zotero_import import import_zotero as import_items

    return import_items(lib, items, source_name(Path(path), cfg.root), keys_from=keys_from, merge=merge,
                        precedence=precedence(cfg))


def _import_api(lib: Library, cfg: Config, library: str | None, keys_from: Path | None, merge: bool,
                full: bool) -> ZoteroReport:
    """Read the running Zotero (``library`` None) or a zotero.org library, from the last version seen."""
    from citekit.library.zotero_import import Collections, ZoteroItems, import_zotero as import_items, last_version
    from citekit.sources import build_client
    from citekit.sources.settings import SourceSettings
    from citekit.sources.zotero import ZoteroClient, library_path

    client = build_client(SourceSettings.from_env(cfg.data, cfg.root))
    try:
        if library is None:
            zotero, source_id = ZoteroClient.local_api(client), LOCAL_SOURCE
        else:
            zotero = ZoteroClient.web_api(client, library)
            source_id = f"zotero:{library_path(library)}"
        since = None if full else last_version(lib, source_id)
        answer = zotero.read(since=since)
    finally:
        client.close()
    items: ZoteroItems = ZoteroItems("api", answer.items, Collections.from_api(answer.collections),
                                     library_version=answer.library_version, incremental=since is not None,
                                     deleted=answer.deleted)
    return import_items(lib, items, source_id, keys_from=keys_from, merge=merge, precedence=precedence(cfg),
                        since=since)
