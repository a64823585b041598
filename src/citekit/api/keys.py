"""``rename``: give an entry a key of the user's choosing, the old key kept working.

The old key becomes an alias of the entry (``citekit show OLD`` finds it; biblatex's
``ids`` and ``citekit rekey`` map it) and goes to the key map ``refs/keymap.yaml``, which
``citekit rekey paper.tex`` applies to a paper. The library and the key map are written in
one transaction. A renamed key is the user's choice, so it is permanent: no later sync
re-forms it (see :mod:`citekit.library.keys`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citekit.api.project import config_of


@dataclass
class Renamed:
    """What ``rename`` did: the entry's key before and after, and where the key map is."""

    old: str
    new: str
    #: the key the user named, when it was an old key (alias) of the entry
    asked: str
    key_map: Path | None
    #: False: NEW was already the entry's key (nothing written)
    changed: bool = True

    @property
    def key_map_shown(self) -> str:
        """The key map's path as messages show it (relative to the current folder when inside it)."""
        from citekit.core.config import display_path

        return display_path(self.key_map) if self.key_map else ""

    def to_json(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "asked": self.asked, "changed": self.changed,
                "key_map": str(self.key_map) if self.key_map else None}


def rename_key(old: str, new: str, *, start: str | Path | None = None) -> Renamed:
    """Rename the entry whose key (or old key) is ``old`` to ``new`` (see ``citekit rename -h``).

    ``new`` must be a valid BibTeX key that no other entry has, had, or was issued; an
    error saying what to do otherwise (exit 2), and nothing is written.
    """
    from citekit.api.library import show
    from citekit.library.journal import Transaction
    from citekit.library.keys import check_new_key
    from citekit.library.lock import writing
    from citekit.library.rekey import compose_key_maps, read_key_map, write_key_map
    from citekit.library.store import Library

    cfg = config_of(start)
    show(old, start)  # an unknown key: the error names close ones, before the lock is taken
    with writing(cfg.refs_dir, f"rename {old} {new}"):
        lib = Library.load(cfg.refs_dir)
        entry = lib.get_any_case(old)
        assert entry is not None
        current = entry.key
        if new == current:
            return Renamed(current, new, old, None, changed=False)
        check_new_key(new, lib.taken_keys(), own=[current, *entry.aliases],
                      in_use=lambda key: lib.get_any_case(key) is not None)
        lib.rename(current, new)
        entry.key_provisional = False  # the user's own choice: never re-formed
        keymap = cfg.refs_dir / "keymap.yaml"
        txn = Transaction(cfg.refs_dir)  # library and key map: all or nothing
        from citekit.api.dedup import save_library

        save_library(lib, txn)
        # earlier renames to the old key now lead to the new one (compose_key_maps)
        write_key_map(keymap, compose_key_maps(read_key_map(keymap), {current: new}), txn)
        txn.commit()
    return Renamed(current, new, old, keymap)
