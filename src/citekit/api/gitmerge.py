"""Sharing a library in git: ``git-setup``, ``merge-driver`` and ``resolve-conflict``."""

from __future__ import annotations

from pathlib import Path

from citekit.core.errors import UsageError
from citekit.api.project import config_of


class NotARepository(UsageError):
    """git-setup was run outside a git repository."""

    NEXT_STEP = "Run `git init` (or clone the repository) first, then `citekit git-setup`."


def git_setup(start: str | Path | None = None, command: str | None = None, *, dry_run: bool = False) -> list[str]:
    """Register citekit's merge driver for refs/ in the repository holding the project:
    ``.gitattributes`` lines and ``merge.citekit.driver`` in the clone's git config (each
    clone runs this once: git does not copy config). Returns what was written."""
    from citekit.library import gitmerge

    config = config_of(start)
    refs = config.refs_dir
    top = gitmerge.git(config.root, "rev-parse", "--show-toplevel").stdout.strip()
    relative = (refs.absolute().relative_to(Path(top).absolute()).as_posix()
                if top and refs.absolute().is_relative_to(Path(top).absolute()) else "refs")
    lines = (f"{relative}/library.bib merge=citekit", f"{relative}/library.yaml merge=citekit")
    inbox = config.inbox
    if top and inbox.absolute().is_relative_to(Path(top).absolute()) and not any(c.isspace() for c in str(inbox)):
        # `citekit add` appends to the inbox on every clone: git's union merge keeps both sides' additions
        lines += (f"{inbox.absolute().relative_to(Path(top).absolute()).as_posix()} merge=union",)
    command = command or gitmerge.driver_command()
    if dry_run:
        return [f".gitattributes: {', '.join(lines)}", f"git config merge.citekit.driver '{command}'"]
    if not top:
        raise NotARepository(f"{config.root} is not in a git repository.")
    return gitmerge.setup(Path(top), command, lines)


def merge_driver(base: str, ours: str, theirs: str, path: str) -> list[tuple[str, str]]:
    """git's three files (%O %A %B) for ``path`` (%P) merged into %A entry by entry; the
    (key, field) pairs changed differently on both sides are returned (git then stops)."""
    from citekit.library.gitmerge import merge_file

    return merge_file(Path(base), Path(ours), Path(theirs), path)


class NoConflict(UsageError):
    """resolve-conflict was given a key the library does not have."""

    NEXT_STEP = "Run `citekit doctor` to see the entries with conflicts, `citekit list` for the keys."


def resolve_conflict(key: str, side: str, value: str | None = None,
                     start: str | Path | None = None) -> list[str]:
    """Settle the conflicts the merge driver left in one entry: ``side`` ``ours`` keeps the
    value in the field, ``theirs`` takes the other branch's, ``edit`` takes ``value``.
    The kept value counts as a hand edit (no sync changes it). Returns the fields settled."""
    from citekit.library.gitmerge import CONFLICT_PREFIX
    from citekit.library.lock import writing
    from citekit.library.store import Library

    config = config_of(start)
    with writing(config.refs_dir, f"resolve-conflict {key} --{side}"):
        library = Library.load(config.refs_dir)
        entry = library.get(key)
        names = [n for n in (entry.fields if entry else {}) if n.startswith(CONFLICT_PREFIX)]
        if entry is None:
            raise NoConflict(f"no entry with key {key!r}.")
        if not names:
            return []
        fields = dict(entry.fields)
        settled = []
        for name in names:
            field = name[len(CONFLICT_PREFIX):]
            theirs = fields.pop(name)
            if side == "theirs":
                fields[field] = theirs
            elif side == "edit" and value is not None:
                fields[field] = value
            settled.append(field)
        entry.fields = fields
        entry.hand = sorted((set(entry.hand) | set(settled)) - set(names))
        library.save()
    return settled
