"""The Python API: everything the ``citekit`` command does, callable from Python.

>>> from citekit import api
>>> report = api.sync("path/to/project", offline=True)
>>> report.counts
{'resolved': 0, 'notes-only': 57, 'ambiguous': 0}

Each function loads the project's configuration, runs the stages in order and returns a
plain result object; the CLI only parses options, makes one call here and prints.

One module per command family: :mod:`~citekit.api.project` (where everything lives),
:mod:`~citekit.api.errors`, :mod:`~citekit.api.notes` (extract, explain),
:mod:`~citekit.api.syncing` (sync; its stages in :mod:`~citekit.api.sync_pipeline`),
:mod:`~citekit.api.adding` (add),
:mod:`~citekit.api.library` (list, show, tags, tag), :mod:`~citekit.api.dedup` (import,
dedup, rekey), :mod:`~citekit.api.keys` (rename), :mod:`~citekit.api.export`,
:mod:`~citekit.api.paper` (check, makefile),
:mod:`~citekit.api.related`, :mod:`~citekit.api.doctor`, :mod:`~citekit.api.search` (search),
:mod:`~citekit.api.suggesting` (suggest, graph). The names below are re-exported
here and each module is imported on first use: ``list`` and ``show`` must not pay for
rapidfuzz and the notes parsers.
"""

from __future__ import annotations

from typing import Any

from citekit.core.errors import CitekitError, UsageError

# Imported here, not lazily: loading the submodule ``citekit.api.project`` binds the module
# to ``api.project``; this line then binds the function (as the old ``api.project`` was),
# and later imports of the submodule find it loaded and leave the name alone.
from citekit.api.project import Project, config_of, init_project, open_project, project

#: public name -> the module that holds it (imported when the name is first used)
_LAZY = {
    # the stage modules' types
    "Problem": "citekit.bibtex.reader", "SyncReport": "citekit.api.sync_report", "Library": "citekit.library.store",
    "Entry": "citekit.core.model", "ExtractResult": "citekit.notes", "Config": "citekit.core.config",
    "load_config": "citekit.api.project",
    # project and errors
    "explain_error": "citekit.api.errors",
    # notes
    "extract": "citekit.api.notes", "extract_stream": "citekit.api.notes", "explain": "citekit.api.notes",
    # sync
    "sync": "citekit.api.syncing", "add": "citekit.api.adding",
    # library
    "pending": "citekit.api.library", "load_library": "citekit.api.library", "entry_json": "citekit.api.library",
    "list_json": "citekit.api.library", "list_json_text": "citekit.api.library", "list_json_bytes": "citekit.api.library",
    "list_json_chunks": "citekit.api.library",
    "list_lines": "citekit.api.library", "library_tags": "citekit.api.library", "list_entries": "citekit.api.library",
    "unknown_tags_hint": "citekit.api.library",
    "show": "citekit.api.library", "show_bibtex": "citekit.api.library", "tag": "citekit.api.library",
    "JSON_SHAPE": "citekit.api.library", "list_filters": "citekit.api.library",
    # search
    "search_library": "citekit.api.search", "SearchResult": "citekit.api.search",
    # import, dedup, rekey
    "import_bib": "citekit.api.dedup", "find_duplicates": "citekit.api.dedup", "rekey": "citekit.api.dedup",
    "preview_keys": "citekit.api.dedup", "import_zotero": "citekit.api.zotero",
    "upgrade": "citekit.api.upgrading",
    # keys
    "rename_key": "citekit.api.keys",
    # export, paper, related work, doctor
    "export_entries": "citekit.api.export", "check": "citekit.api.paper", "makefile": "citekit.api.paper",
    "related_work": "citekit.api.related", "diagnose": "citekit.api.doctor",
    # suggestions from the citation graph, and their picture
    "suggest": "citekit.api.suggesting", "graph": "citekit.api.suggesting",
    # words of the reports
    "plural": "citekit.core.text",
}
#: names whose attribute in their module is called differently
_RENAMED = {"explain_error": "explain"}
# No other public function is named like a submodule: importing ``citekit.api.dedup`` binds the
# module to ``api.dedup``, which would hide a function of that name.


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), _RENAMED.get(name, name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CitekitError", "UsageError", "SyncReport", "Problem", "Project", "open_project", "config_of", "init_project", "project", "extract", "extract_stream", "explain",
    "load_library", "sync", "add", "pending", "entry_json", "library_tags", "unknown_tags_hint", "list_entries", "list_json", "list_json_text",
    "list_json_bytes", "list_json_chunks", "list_lines", "show", "show_bibtex", "tag", "import_bib", "find_duplicates", "rekey", "preview_keys", "upgrade",
    "rename_key", "import_zotero",
    "export_entries", "check", "makefile", "related_work", "diagnose", "search_library", "SearchResult", "list_filters",
    "plural", "suggest", "graph",
]
