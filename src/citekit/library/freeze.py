"""Freezing provisional keys the moment they leave the library.

A key citekit made may still change (:mod:`citekit.library.keys`) only while nobody can
have cited it. ``export`` (a paper's ``refs.bib``), ``check`` (a paper's ``\\cite``) and
``related-work`` (a snippet that cites) are the ways a key leaves: each calls
:func:`freeze_leaving` with the keys it gave out, which clears ``key_provisional`` on those
entries in one short write under the project lock. A library whose keys are all frozen
already (every library before this existed, and any library after its first export) pays
only the look-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from citekit.library.store import kinds

if TYPE_CHECKING:
    from citekit.library.store import Library


def provisional_among(lib: Library, keys: Iterable[str] | None = None) -> list[str]:
    """The keys of the entries that ``keys`` name (keys or aliases; None: every entry)
    whose key is still provisional. The whole library is read from a remembered table."""
    table = lib.memo_table(kinds.PROVISIONAL, lambda e: e.key_provisional)  # (decodes no entry when warm)
    if keys is None:
        return [k for k, provisional in table.items() if provisional]
    out: list[str] = []
    for key in keys:
        if key in table:
            if table[key] and key not in out:
                out.append(key)
            continue
        entry = lib.get(key)  # an old key (alias), or a key written in another case
        if entry is not None and entry.key_provisional and entry.key not in out:
            out.append(entry.key)
    return out


def freeze_keys(refs_dir: Path, keys: Iterable[str], command: str) -> list[str]:
    """Make the keys permanent (``command`` names the holder of the lock meanwhile);
    returns those that were still provisional. One write of the sidecar, all or nothing."""
    wanted = list(keys)
    if not wanted:
        return []
    from citekit.library.lock import writing
    from citekit.library.store import Library

    with writing(refs_dir, command):
        lib = Library.load(refs_dir)
        frozen = []
        for key in wanted:
            entry = lib.entry_at(key)
            if entry is not None and entry.key_provisional:
                entry.key_provisional = False
                frozen.append(key)
        if frozen:
            from citekit.library.rekey import save_with_renames

            save_with_renames(lib)  # a key renamed by hand meanwhile goes to the key map too
    return frozen


def freeze_leaving(lib: Library, keys: Iterable[str] | None, command: str) -> list[str]:
    """Freeze the provisional keys among ``keys`` (None: the whole library) that a command
    is giving out. A failure to write (the lock held too long, a read-only folder) does not
    fail the command that already did its work: it is logged as a warning, and the keys
    stay provisional until the next export, check or related-work freezes them."""
    leaving = provisional_among(lib, keys)
    if not leaving:
        return []
    from citekit.core.errors import CitekitError

    try:
        return freeze_keys(lib.refs_dir, leaving, command)
    except (CitekitError, OSError) as exc:
        import logging  # only here: logging is start-up time a daily export does not pay

        logging.getLogger("citekit").warning(
            "%d key(s) just given out could not be made permanent (%s); they may still be re-formed by a "
            "sync until the next export, check or related-work writes it", len(leaving), exc)
        return []
