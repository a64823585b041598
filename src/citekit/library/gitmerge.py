"""A git merge of library.bib and library.yaml, entry by entry (``citekit merge-driver``).

git's text merge sees lines; two clones that each tagged and synced change neighbouring
lines of one entry and conflict. Here both files are merged by key and by field: what
only one side changed is taken from it, entries added on both sides are kept once (also
under two keys, when :mod:`citekit.matching.works` says they are one work: the other key
becomes an alias), tags
and lists of both sides are joined. The same field changed differently on both sides is
a real conflict: the entry keeps our value and gets a ``citekit-conflict-FIELD`` field
holding theirs (valid BibTeX, so every command still reads the file), which ``doctor``
reports and ``citekit resolve-conflict`` settles.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

#: the prefix of the field that holds the other side's value of a conflicting field
CONFLICT_PREFIX = "citekit-conflict-"
DRIVER_NAME = "citekit"
ATTRIBUTES = ("refs/library.bib merge=citekit", "refs/library.yaml merge=citekit")
DRIVER_COMMAND = "citekit merge-driver %O %A %B %P"


def driver_command() -> str:
    """The driver command as ``git-setup`` registers it: the running ``citekit`` by its full
    path when it can be found, so a merge from a GUI client, an IDE or a shell without the
    virtual environment still runs it (git runs a bare ``citekit`` from its own PATH, and
    a driver it cannot find leaves the library unmerged with no conflict markers)."""
    import shlex
    import shutil
    import sys

    candidates = [Path(sys.argv[0]) if Path(sys.argv[0]).name in ("citekit", "citekit.exe") else None,
                  Path(sys.executable).with_name("citekit"), Path(sys.executable).with_name("citekit.exe"),
                  Path(found) if (found := shutil.which("citekit")) else None]
    for candidate in candidates:
        if candidate is not None and candidate.is_file() and os.access(candidate, os.X_OK):
            return f"{shlex.quote(str(candidate.absolute()))} merge-driver %O %A %B %P"
    return DRIVER_COMMAND


def _pick(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """The three-way choice of one value: (value, conflict)."""
    if ours == theirs or theirs == base:
        return ours, False
    if ours == base:
        return theirs, False
    return ours, True


# ---- library.bib ---------------------------------------------------------------------------

def _entries(text: str) -> tuple[str, dict[str, Any]]:
    """(the text above the first entry, key -> entry) of a library.bib text."""
    from citekit.bibtex.reader import parse_bib_text

    parsed = parse_bib_text(text, "library.bib")
    head = text.split("\n@", 1)[0] + "\n" if "\n@" in text else ""
    return head, {e.key: e for e in parsed.entries}


def merge_bib(base: str, ours: str, theirs: str) -> tuple[str, list[tuple[str, str]]]:
    """The merged library.bib and its conflicts ((key, field) changed differently on both sides)."""
    from citekit.bibtex.writer import entry_text
    from citekit.core.model import Entry

    _, old = _entries(base)
    head, mine = _entries(ours)
    _, other = _entries(theirs)
    conflicts: list[tuple[str, str]] = []
    renames: dict[str, str] = {}
    taken = {k.lower() for k in (*old, *mine, *other)}
    out: dict[str, Any] = {}
    twins = same_work_added(old, mine, other, lambda e: e.fields)  # kept once, under our key (theirs an alias)
    twin_of = {ours_key: theirs_key for theirs_key, ours_key in twins.items()}
    for key in sorted(set(old) | set(mine) | set(other), key=str.lower):
        b, o, t = old.get(key), mine.get(key), other.get(key)
        if key in twins:
            continue
        if key in twin_of:  # one work added on both branches: ours, theirs filling its gaps, both sides' tags
            out[key] = Entry(key=key, entry_type=o.entry_type, fields=_filled(o.fields, other[twin_of[key]].fields))
            continue
        if o is None or t is None:
            if b is not None and (o is None and t == b or t is None and o == b):
                continue  # deleted on one side, untouched on the other
            out[key] = o or t
            continue
        if b is None and o.fields != t.fields and not _same_work(o.fields, t.fields):
            new = _free_key(key, taken)  # one key issued on both branches for two works
            renames[key] = new
            out[key] = o
            out[new] = Entry(key=new, entry_type=t.entry_type, fields=dict(t.fields))
            continue
        bf = b.fields if b is not None else {}
        fields: dict[str, str] = {}
        for name in list(o.fields) + [n for n in t.fields if n not in o.fields]:
            value, clash = _pick(bf.get(name), o.fields.get(name), t.fields.get(name))
            if name == "keywords" and clash:
                value, clash = _joined(bf.get(name), o.fields.get(name), t.fields.get(name)), False
            if b is None and clash:  # the same work added on both sides: ours, theirs filling gaps
                clash = False
            if value is not None:
                fields[name] = value
            if clash:
                conflicts.append((key, name))
                fields[CONFLICT_PREFIX + name] = t.fields.get(name) or ""
        etype, _ = _pick(b.entry_type if b else None, o.entry_type, t.entry_type)
        out[key] = Entry(key=key, entry_type=etype, fields=fields)
    ordered = [out[k] for k in sorted(out, key=str.lower)]
    body = "\n".join(entry_text(e, e.fields) + "\n" for e in ordered)
    return (head or "") + ("\n" if head and not head.endswith("\n\n") else "") + body, conflicts, renames


def _filled(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """Our fields with the ones only theirs has, keywords joined: what the sidecar's driver
    makes of the same pair's records (:func:`_merge_record`), so the two files agree and no
    field of theirs reads as removed by hand."""
    fields = dict(ours)
    for name, value in theirs.items():
        if name == "keywords":
            fields[name] = _joined(None, ours.get(name), value)
        elif name not in fields:
            fields[name] = value
    return fields


def _same_work(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Whether two entries added under one key on two branches are one work, as
    :mod:`citekit.matching.works` decides, from their titles and years (what both files
    hold in full: the sidecar's copy of library.bib, so both drivers decide alike)."""
    from citekit.core.model import Entry
    from citekit.matching.works import is_same_work

    def entry(fields: dict[str, Any]) -> Entry:
        return Entry(key="x", entry_type="misc",
                     fields={k: str(fields[k]) for k in ("title", "year") if fields.get(k)})

    return is_same_work(entry(ours), entry(theirs))


def same_work_added(old: dict[str, Any], mine: dict[str, Any], other: dict[str, Any],
                    fields_of: Any) -> dict[str, str]:
    """Their key -> our key for one work that both branches added under different keys.

    Both drivers (library.bib, library.yaml) decide it alike, from the title and year both
    files hold, in key order; each of our new entries takes at most one of theirs.
    """
    ours_new = [k for k in sorted(mine, key=str.lower) if k not in old and k not in other]
    taken: set[str] = set()
    out: dict[str, str] = {}
    for key in sorted(other, key=str.lower):
        if key in old or key in mine:
            continue
        for candidate in ours_new:
            if candidate not in taken and _same_work(fields_of(mine[candidate]), fields_of(other[key])):
                out[key] = candidate
                taken.add(candidate)
                break
    return out


def _free_key(key: str, taken: set[str]) -> str:
    """``key`` with the first collision suffix no branch has issued (noted as taken)."""
    from citekit.library.keys import suffixes

    for suffix in suffixes():
        if (key + suffix).lower() not in taken:
            taken.add((key + suffix).lower())
            return key + suffix
    raise AssertionError("no free suffix")


def _joined(base: str | None, ours: str | None, theirs: str | None) -> str:
    """Comma lists (keywords) of both sides joined, what either side removed left out."""
    def split(v: str | None) -> list[str]:
        return [p.strip() for p in (v or "").split(",") if p.strip()]
    gone = (set(split(base)) - set(split(ours))) | (set(split(base)) - set(split(theirs)))
    return ", ".join(sorted((set(split(ours)) | set(split(theirs))) - gone))


# ---- library.yaml --------------------------------------------------------------------------

#: the parts of a sidecar record the user writes: changed differently on both branches, they are
#: a conflict (ours kept in the part, theirs under ``conflicts``), never one side dropped in silence
USER_PARTS = ("summary",)


def _merge_record(base: dict[str, Any] | None, ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """One sidecar record merged part by part: tags and lists joined, mappings key by key,
    the user's own parts (:data:`USER_PARTS`) changed on both sides left as a conflict."""
    base = base or {}
    out: dict[str, Any] = {}
    unsettled: dict[str, str] = {**(theirs.get("conflicts") or {}), **(ours.get("conflicts") or {})}
    for part in list(ours) + [p for p in theirs if p not in ours]:
        if part == "conflicts":
            continue
        b, o, t = base.get(part), ours.get(part), theirs.get(part)
        value, clash = _pick(b, o, t)
        if part == "key_provisional":  # a key frozen on either side (exported, the user's own) stays frozen
            value, clash = (True if o is True and t is True else None), False
        if clash and part in USER_PARTS:
            unsettled[part] = "" if t is None else str(t)
        elif clash and part == "tags":
            value = {k: sorted(set((o or {}).get(k) or []) | set((t or {}).get(k) or []))
                     for k in sorted(set(o or {}) | set(t or {}))}
            if value.get("added") and value.get("removed"):  # a tag added by hand on one side wins
                value["removed"] = [x for x in value["removed"] if x not in set((t or {}).get("added") or [])
                                    | set((o or {}).get("added") or [])]
        elif clash and isinstance(o, list) and isinstance(t, list):
            value = o + [x for x in t if x not in o]
        elif clash and isinstance(o, dict) and isinstance(t, dict):
            value = {k: _pick((b or {}).get(k), o.get(k), t.get(k))[0] for k in sorted(set(o) | set(t))}
            if part == "generated" and _pick((b or {}).get("keywords"), o.get("keywords"), t.get("keywords"))[1]:
                # library.bib's keywords are joined (merge_bib): so is citekit's copy of them
                value["keywords"] = _joined((b or {}).get("keywords"), o.get("keywords"), t.get("keywords"))
            value = {k: v for k, v in value.items() if v is not None}
        if value is not None and value != {} and value != []:
            out[part] = value
    if unsettled:
        out["conflicts"] = dict(sorted(unsettled.items()))
    return out


def merge_sidecar(base: str, ours: str, theirs: str) -> tuple[str, list[tuple[str, str]]]:
    """The merged library.yaml (what only one side changed taken from it, records joined)
    and its conflicts ((key, part) of the user's parts changed differently on both sides)."""
    import yaml

    from citekit.library.store.sidecar import document
    from citekit.library.store.sidecar.records import sidecar_blocks

    from citekit.library.store.sidecar import read as sidecar_read
    from citekit.library.store.sidecar.format import yaml_codec

    loader = yaml_codec()[1]  # (in C, record by record: bench/git_merge_bench.py, 2,000 entries: 0.17 s, not 4.7 s)
    old, mine, other = ((sidecar_read.load(t, loader, None) or yaml.load(t, Loader=loader) or {}) if t.strip() else {}
                        for t in (base, ours, theirs))
    records: dict[str, Any] = {}
    oe, me, te = (d.get("entries") or {} for d in (old, mine, other))
    taken = {str(k).lower() for k in (*oe, *me, *te)}
    twins = same_work_added(oe, me, te, lambda r: r.get("generated") or {})  # as merge_bib decides it
    for key in sorted(set(oe) | set(me) | set(te), key=str.lower):
        b, o, t = oe.get(key), me.get(key), te.get(key)
        if key in twins:
            continue
        if key in twins.values():  # one work added on both branches under two keys: theirs is an alias of ours
            twin = next(k for k, v in twins.items() if v == key)
            merged = _merge_record(None, o, te[twin])
            merged["aliases"] = sorted({*(o.get("aliases") or []), twin, *(te[twin].get("aliases") or [])})
            records[key] = merged
            continue
        if o is None or t is None:
            if b is not None and (o is None and t == b or t is None and o == b):
                continue
            records[key] = o or t
            continue
        if b is None and o != t and not _same_work(o.get("generated") or {}, t.get("generated") or {}):
            new = _free_key(key, taken)  # as merge_bib decides it
            records[key] = o
            records[new] = t
            continue
        records[key] = _merge_record(b, o, t)
    block_of = sidecar_blocks()
    parts = [block_of(k, records[k]) for k in sorted(records, key=str.lower)]
    detached = {**(other.get("detached") or {}), **(mine.get("detached") or {})}
    issued = set(mine.get("issued_keys") or []) | set(other.get("issued_keys") or [])
    pending = (mine.get("pending") or []) + [p for p in other.get("pending") or [] if p not in (mine.get("pending") or [])]
    implied = set(records) | set(detached) | {a for r in records.values() for a in r.get("aliases") or []}
    conflicts = [(key, part) for key in sorted(records, key=str.lower)
                 for part in records[key].get("conflicts") or {} if part not in ((oe.get(key) or {}).get("conflicts") or {})]
    return document.render(parts, None, implied=implied, issued_keys=issued, detached=detached,
                           pending=pending, ascii=bool(mine.get("ascii"))), conflicts


# ---- in a repository -----------------------------------------------------------------------

def merge_file(base: Path, ours: Path, theirs: Path, path: str) -> list[tuple[str, str]]:
    """Merge ``theirs`` into ``ours`` in place (git's %A); returns the real conflicts."""
    texts = [p.read_text(encoding="utf-8") for p in (base, ours, theirs)]
    renames: dict[str, str] = {}
    if path.endswith(".yaml"):
        merged, conflicts = merge_sidecar(*texts)
    else:
        merged, conflicts, renames = merge_bib(*texts)
    from citekit.library.store.files import atomic_write

    atomic_write(ours, merged)
    if renames:  # the merged branch's papers cite its work under the old key: the key map says the new one
        from citekit.library.rekey import read_key_map, write_key_map

        keymap = Path(path).parent / "keymap.yaml"
        write_key_map(keymap, {**read_key_map(keymap), **renames})
    return conflicts


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)


def setup(root: Path, command: str = DRIVER_COMMAND, lines: tuple[str, ...] = ATTRIBUTES) -> list[str]:
    """Write the ``.gitattributes`` ``lines`` and register the driver in the repository's config."""
    done = []
    attributes = root / ".gitattributes"
    text = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    missing = [line for line in lines if line not in text.splitlines()]
    if missing:
        attributes.write_text(text + ("" if not text or text.endswith("\n") else "\n") + "\n".join(missing) + "\n",
                              encoding="utf-8")
        done.append(f".gitattributes: {', '.join(missing)}")
    if ignore_own_state(root):
        done.append(".gitignore: .citekit/")
    git(root, "config", f"merge.{DRIVER_NAME}.name", "citekit: merge library.bib and library.yaml entry by entry")
    git(root, "config", f"merge.{DRIVER_NAME}.driver", command)
    done.append(f"git config merge.{DRIVER_NAME}.driver '{command}'")
    return done


def ignore_own_state(folder: Path) -> bool:
    """Add ``.citekit/`` to ``folder``'s ``.gitignore`` (made when missing) unless it is there:
    the lock, the binary caches and the record of the last write are this clone's own, and
    a first ``git add -A`` must not take them. Returns whether the file was written."""
    ignore = folder / ".gitignore"
    ignored = ignore.read_text(encoding="utf-8") if ignore.exists() else ""
    if {".citekit/", ".citekit", "/.citekit/", "/.citekit"} & {line.strip() for line in ignored.splitlines()}:
        return False
    ignore.write_text(ignored + ("" if not ignored or ignored.endswith("\n") else "\n") + ".citekit/\n",
                      encoding="utf-8")
    return True


def registered(root: Path) -> tuple[bool, bool]:
    """(``.gitattributes`` names the driver, the clone's git config registers it)."""
    attributes = root / ".gitattributes"
    named = attributes.exists() and f"merge={DRIVER_NAME}" in attributes.read_text(encoding="utf-8")
    configured = bool(git(root, "config", f"merge.{DRIVER_NAME}.driver").stdout.strip())
    return named, configured


def merge_in_progress(root: Path) -> bool:
    """Whether a git merge is unfinished in the repository holding ``root``."""
    head = git(root, "rev-parse", "-q", "--verify", "MERGE_HEAD")
    return head.returncode == 0


def stage_settled(refs: Path, library: Any) -> list[str]:
    """During a git merge, ``git add`` the library files that no longer hold a conflict, as
    git's own tools mark a settled file: ``git merge --abort`` then undoes what
    ``resolve-conflict`` wrote together with the merge (an unstaged library.yaml would
    survive the abort and describe a library.bib that is gone). A file still holding a
    conflict is left unstaged, so git does not take it for settled. Returns the names staged."""
    from citekit.library.store.files import merge_in_progress

    if not merge_in_progress(refs):
        return []
    entries = library.entries.values()
    open_in = {"library.bib": any(n.startswith(CONFLICT_PREFIX) for e in entries for n in e.fields),
               "library.yaml": any(e.conflicts for e in entries)}
    names = [name for name, unsettled in open_in.items() if not unsettled and (Path(refs) / name).exists()]
    if names and git(Path(refs), "add", "--", *names).returncode != 0:
        return []
    return names


def conflicts_in(entries: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, field or sidecar part) of every conflict the drivers left in the library's entries."""
    return [(key, name[len(CONFLICT_PREFIX):]) for key, e in entries.items()
            for name in e.fields if name.startswith(CONFLICT_PREFIX)] + [
        (key, part) for key, e in entries.items() for part in getattr(e, "conflicts", None) or {}]


# ---- settling a conflict by hand -----------------------------------------------------------

OURS_MARK, SPLIT_MARK, THEIRS_MARK = "<<<<<<< ours (this branch)", "=======", ">>>>>>> theirs (the merged branch)"


def conflict_sides(entry: Any) -> dict[str, tuple[str, str]]:
    """field -> (our value, their value) of every conflict the drivers left in one entry: in its
    library.bib fields, and in its library.yaml parts (``summary``)."""
    fields = entry.fields
    sides = {name[len(CONFLICT_PREFIX):]: (str(fields.get(name[len(CONFLICT_PREFIX):]) or ""), str(value or ""))
             for name, value in fields.items() if name.startswith(CONFLICT_PREFIX)}
    for part, theirs in (entry.conflicts or {}).items():
        sides.setdefault(part, (str(getattr(entry, part, None) or ""), str(theirs or "")))
    return sides


def settlement_text(key: str, sides: dict[str, tuple[str, str]]) -> str:
    """What ``resolve-conflict --edit`` opens: each conflicting field with both values between
    git's conflict markers, so the user sees what each branch wrote and keeps one (or writes
    a third); saving it as it is changes nothing."""
    lines = [f"# {key}: these fields were changed differently on both branches.",
             "# Under each `field:` line keep the value you want and delete the rest (markers included),",
             "# or write a new value. Lines starting with '#' are ignored.",
             "# Saved unchanged or emptied: nothing changes and the conflict stays.", ""]
    for field, (ours, theirs) in sides.items():
        lines += [f"{field}:", OURS_MARK, ours, SPLIT_MARK, theirs, THEIRS_MARK, ""]
    return "\n".join(lines)


def read_settlement(text: str, sides: dict[str, tuple[str, str]]) -> tuple[dict[str, str], list[str]]:
    """(field -> value settled, fields left as they were) from the text the user saved.

    A field still holding conflict markers, or left empty, is not settled; a text without
    any ``field:`` line is the value of the only conflicting field (a value piped in).
    Raises ``ValueError`` naming the field when its markers were kept only in part."""
    kept = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for line in kept:
        name = line.strip()[:-1] if line.strip().endswith(":") else None
        if name in sides:
            current = name
            blocks[current] = []
        elif current is not None:
            blocks[current].append(line)
    if not blocks and len(sides) == 1 and any(line.strip() for line in kept):
        blocks = {next(iter(sides)): kept}
    settled: dict[str, str] = {}
    for field in sides:
        body = blocks.get(field, [])
        marks = [line for line in body if line.strip().startswith(("<<<<<<<", "=======", ">>>>>>>"))]
        value = " ".join(line.strip() for line in body if line not in marks and line.strip())
        if marks and len(marks) < 3:
            raise ValueError(field)
        if not marks and value:
            settled[field] = value
    return settled, [f for f in sides if f not in settled]
