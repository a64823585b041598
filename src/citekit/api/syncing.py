"""``sync``: notes in, library out (the stages are in :mod:`citekit.api.sync_pipeline`).

Named ``syncing`` so that the module does not shadow the function :func:`citekit.api.sync`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from citekit.api.project import config_of
from citekit.core.errors import CitekitError

if TYPE_CHECKING:
    from citekit.api.sync_report import SyncReport


def sync(
    start: str | Path | None = None,
    *,
    offline: bool = False,
    refresh: bool = False,
    retry: bool = False,
    jobs: int = 8,
    progress: bool = False,
    ascii: bool | None = None,
) -> SyncReport:
    """Notes → library: extract, group, resolve (unless offline), merge, key, tag, write.

    ``ascii`` switches library.bib between UTF-8 (False) and LaTeX escapes (True); None
    keeps the config's ``bibtex: {ascii: ...}`` or, failing that, what the library used.
    ``retry`` looks up now the works an earlier sync found nothing for, or could not ask
    about (no network), which otherwise wait for their next try
    (:mod:`citekit.api.pending_lookups`); ``refresh`` does too, and ignores the lookup cache.
    """
    cfg = config_of(start)
    if not cfg.notes_dir.is_dir():
        raise CitekitError(
            f"no notes folder at {cfg.notes_dir}. Put your notes there, or set paths.notes in {cfg.path or 'citekit.yaml'}.",
            exit_code=2,
        )
    from citekit.api import sync_stamp

    digest = None
    if retry and not refresh:  # runs in full, and is remembered as any sync is
        digest = sync_stamp.inputs(cfg, offline=offline, ascii=ascii)
    elif not refresh:  # the same inputs as the last sync that changed nothing: its report, and
        # none of the sync stages (notes readers, matching, BibTeX) imported
        digest, replayed = sync_stamp.check(cfg, offline=offline, ascii=ascii)
        if replayed is not None:
            return replayed
    from citekit.api.sync_pipeline import run

    report, left = run(cfg, offline=offline, refresh=refresh, retry=retry, jobs=jobs, progress=progress, ascii=ascii)
    if digest is not None:
        sync_stamp.record(cfg, digest, report, library=left)
    return report
