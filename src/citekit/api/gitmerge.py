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


class NothingSettled(UsageError):
    """resolve-conflict --edit got no value to keep (no editor could run, or it was saved unchanged)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}; nothing was changed, the conflict stays.",
                         next_step=f"Keep one side with `citekit resolve-conflict {key} --ours` or `--theirs`, or "
                                   f"write the value in your editor (set EDITOR) or pipe it in: "
                                   f"`echo VALUE | citekit resolve-conflict {key} --edit`.")


def conflicts_of(key: str, start: str | Path | None = None) -> dict[str, tuple[str, str]]:
    """field -> (our value, their value) of the merge conflicts left in the entry ``key``."""
    from citekit.library.gitmerge import conflict_sides
    from citekit.library.store import Library

    entry = Library.load(config_of(start).refs_dir).get(key)
    if entry is None:
        raise NoConflict(f"no entry with key {key!r}.")
    return conflict_sides(entry)


def conflict_text(key: str, start: str | Path | None = None) -> str:
    """The text ``resolve-conflict --edit`` opens in the editor: both values of each conflicting
    field between conflict markers (empty when the entry has no conflict)."""
    from citekit.library.gitmerge import settlement_text

    sides = conflicts_of(key, start)
    return settlement_text(key, sides) if sides else ""


def resolve_conflict(key: str, side: str, value: str | None = None,
                     start: str | Path | None = None) -> list[str]:
    """Settle the conflicts the merge driver left in one entry: ``side`` ``ours`` keeps the
    value in the field, ``theirs`` takes the other branch's, ``edit`` takes ``value``: the
    text of :func:`conflict_text` as the user saved it (or, for one conflicting field, its
    value alone). A field whose text still holds both values, or is empty, stays in conflict;
    when no field is settled :class:`NothingSettled` is raised and nothing is written (a
    missing value never removes the field). The kept value counts as a hand edit (no sync
    changes it). Returns the fields settled."""
    from citekit.library.gitmerge import CONFLICT_PREFIX, conflict_sides, stage_settled
    from citekit.library.lock import writing
    from citekit.library.store import Library

    config = config_of(start)
    with writing(config.refs_dir, f"resolve-conflict {key} --{side}"):
        library = Library.load(config.refs_dir)
        entry = library.get(key)
        if entry is None:
            raise NoConflict(f"no entry with key {key!r}.")
        sides = conflict_sides(entry)
        if not sides:
            return []
        chosen = {field: theirs for field, (_, theirs) in sides.items()} if side == "theirs" else {}
        if side == "edit":
            chosen = _edited(key, sides, value)
        fields, parts = dict(entry.fields), dict(entry.conflicts)
        settled = [field for field in sides if side == "ours" or field in chosen]
        in_bib = [field for field in settled if CONFLICT_PREFIX + field in fields]
        for field in settled:
            if field in in_bib:
                fields.pop(CONFLICT_PREFIX + field)
                if field in chosen:
                    fields[field] = chosen[field]
            else:  # a library.yaml part (summary): the user's own text, not a field of library.bib
                parts.pop(field, None)
                if field in chosen:
                    setattr(entry, field, chosen[field] or None)
        entry.fields, entry.conflicts = fields, parts
        entry.hand = sorted(h for h in set(entry.hand) | set(in_bib) if h in fields or not h.startswith(CONFLICT_PREFIX))
        library.save()
        stage_settled(config.refs_dir, library)
    return settled


def _edited(key: str, sides: dict[str, tuple[str, str]], value: str | None) -> dict[str, str]:
    """The values the user wrote for ``--edit``; :class:`NothingSettled` when there is none."""
    from citekit.library.gitmerge import read_settlement

    names = ", ".join(sides)
    if value is None or not value.strip():
        raise NothingSettled(key, f"no value was given for {names}")
    try:
        chosen, _ = read_settlement(value, sides)
    except ValueError as exc:
        raise NothingSettled(key, f"the conflict markers of '{exc}' were kept only in part (keep one value and "
                                  "delete all three marker lines)") from None
    headed = any(line.strip() in {f"{f}:" for f in sides} for line in value.splitlines())
    if not chosen and len(sides) > 1 and not headed:
        raise NothingSettled(key, f"{len(sides)} fields are in conflict ({names}): write each as a `field:` line "
                                  "with its value on the lines below it")
    if not chosen:
        raise NothingSettled(key, f"the text was saved with both values of {names} still between the "
                                  "conflict markers, or empty")
    return chosen
