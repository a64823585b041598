"""What the last sync that changed nothing read, so that the same sync is not done again.

A sync is a function of its inputs: the notes files, ``citekit.yaml``, both files of
``refs/``, the options and citekit itself. When a sync ran and wrote nothing (the library
was already what those inputs give), the inputs and its report are stored here; the next
sync with exactly the same inputs prints that report instead of reading the notes,
matching every work and re-deriving tags (seconds on a library of thousands of entries).
This is ``make``'s rule, with file contents for ``refs/`` and (size, mtime, ctime,
inode) for the notes, the way git decides a file is unchanged.

Only a sync that itself changed nothing stores a stamp, so a skipped sync is one whose
full run is known to be a fixed point. Online syncs are skipped only when every source
answered without a problem, for a day at most (an online sync is how the library learns
about new versions), and never past the moment the first service answer the sync relied
on leaves its revalidation window (the lookup cache's lifetime of an answer, a paper
list's check interval: :attr:`citekit.sources.cache.LookupCache.valid_until`). Until
then the same lookups give the same answers without a request, so papers left
unresolved or mentions left pending would come out exactly as they did: they do not
force a full run, and they get their next try once an answer they depend on is due.
``--refresh`` never skips.

The library's part of the inputs is looked at last: the stored stamp is read first, and
``refs/`` is fingerprinted only when everything else matches (a replay is then likely).
A sync that runs in full therefore reads the library once, in its own stage, and the
stamp it records names the files as that sync left them (taken under its lock: see
:func:`citekit.api.sync_pipeline.run`).
"""

from __future__ import annotations

import json
import os
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.core.cachefile import replace_quietly, stat_key
from citekit.library.lock import state_dir

if TYPE_CHECKING:
    from citekit.core.config import Config
    from citekit.api.sync_report import SyncReport

FORMAT = 3
#: how long an online sync that changed nothing is trusted for
ONLINE_SECONDS = 24 * 3600


def stamp_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-sync.stamp"


def inputs(cfg: Config, *, offline: bool, ascii: bool | None) -> str:
    """A description of everything a sync reads but the library, cheap to compute (no
    notes file is read; the library's part is :func:`library_now`).

    The text itself, not a hash of it (a few KB per hundred notes files): comparing it
    is as cheap, and a no-op sync then does not import hashlib (3 ms of its start-up)."""
    from citekit.notes.reader import notes_files

    lines: list[str] = []

    def add(*parts: Any) -> None:
        lines.append(repr(parts))

    add("format", FORMAT, offline, ascii, str(cfg.root), str(cfg.notes_dir), str(cfg.refs_dir))
    add("config", json.dumps(cfg.data, sort_keys=True, default=repr))
    add("code", *_code_stats())
    add("environment", *sorted((k, v) for k, v in os.environ.items() if k.startswith("CITEKIT_")))
    files, problems = notes_files([cfg.notes_dir], follow_out=cfg.follow_out_of_notes)
    add("notes-problems", *(str(p) for p in problems))
    for path in files:
        add("note", str(path), stat_key(path))
    return "\n".join(lines)


def library_now(cfg: Config) -> str:
    """Both files of ``refs/`` as they are now (read and hashed only when their stat
    changed since they were last hashed)."""
    from citekit.library.store import fingerprint_now

    return repr(fingerprint_now(cfg.refs_dir))


def check(cfg: Config, *, offline: bool, ascii: bool | None) -> tuple[str, SyncReport | None]:
    """This sync's :func:`inputs`, and the report that stands for them if any (:func:`replay`)."""
    digest = inputs(cfg, offline=offline, ascii=ascii)
    return digest, replay(cfg, digest, offline=offline)


def replay(cfg: Config, digest: str, *, offline: bool) -> SyncReport | None:
    """The report of the last sync that changed nothing, if its inputs were ``digest``."""
    try:
        stored = json.loads(stamp_path(cfg.refs_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("inputs") != digest or not isinstance(stored.get("report"), dict):
        return None
    if not offline and time.time() > float(stored.get("until") or float(stored.get("time") or 0) + ONLINE_SECONDS):
        return None
    if stored.get("library") != library_now(cfg):
        return None
    from citekit.api.sync_report import SyncReport

    try:
        report = SyncReport(**stored["report"])
    except TypeError:
        return None
    report.up_to_date = True
    return report


def record(cfg: Config, digest: str, report: SyncReport, *, library: tuple[Any, ...] | None = None) -> None:
    """Remember a sync that changed nothing; anything else forgets the previous stamp.

    ``library``: the fingerprint of ``refs/`` the sync left, taken under its lock (another
    writer may have changed the files since); without it, the files as they are now."""
    path = stamp_path(cfg.refs_dir)
    if report.changed or not _trustworthy(report):
        with suppress(OSError):
            path.unlink()
        return
    from dataclasses import asdict

    state = repr(library) if library is not None else library_now(cfg)
    now = time.time()
    until = min(now + ONLINE_SECONDS, report.answers_valid_until or now + ONLINE_SECONDS)
    data = {"inputs": digest, "library": state, "time": now, "until": until,
            "report": {**asdict(report), "requests": 0, "up_to_date": False, "answers_valid_until": None}}
    replace_quietly(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))


def _trustworthy(report: SyncReport) -> bool:
    """Whether running the same sync again could only give the same result."""
    if report.offline and not report.source_problems:
        return True  # asked to stay offline (or built from the notes alone): nothing remote
    if report.offline and report.retry_after is not None:  # no service reachable: the same
        return report.retry_after > time.time()  # until the works it tried are due again
    if report.source_problems:
        return False  # a source that failed is asked again on the next sync
    if report.answers_valid_until is not None:  # the answers it used: the same until then
        return report.answers_valid_until > time.time()
    unresolved = sum(n for status, n in report.counts.items() if status != "resolved")
    return not (report.pending or unresolved)  # not known what the others depended on


def _code_stats() -> list[tuple[str, Any]]:
    """citekit's own files (code and shipped rules): another version may sync otherwise."""
    import citekit
    from citekit import __version__

    root = Path(citekit.__file__).parent  # the whole package, not only this module's folder
    out: list[tuple[str, Any]] = [("version", __version__)]
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".yaml", ".json", ".txt")):
                path = Path(folder) / name
                out.append((str(path.relative_to(root)), stat_key(path)))
    return out
