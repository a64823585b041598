"""One transaction per command: every file a command changes is switched in together.

Each file is first written beside its target as a temporary file and fsynced. The
journal (``refs/.citekit-journal``) names every pair *before* the temporaries are
written (state ``prepare``: an interrupted write leaves only temporaries to delete) and
again *after* (state ``commit``, with a checksum of each temporary). Writing the commit
journal is the single step that decides: once it is on disk, the next command finishes
the renames (:func:`recover`); before it, the old files stand. A reader that finds a
commit journal reads through it (:func:`read_view`), so it never sees half a switch.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from .. import cachefile
from .errors import WriteFailed

JOURNAL_NAME = ".citekit-journal"
TEMP_MARK = ".citekit-new-"
#: temporaries of plain atomic writes (``store.atomic_write``): ``.library.bib.abc123.tmp``
_LEGACY_TEMP_SUFFIX = ".tmp"
_LEGACY_TEMP_PREFIXES = (".library.bib.", ".library.yaml.", ".keymap.yaml.", ".import-keymap.yaml.")


def journal_path(refs_dir: Path) -> Path:
    return Path(refs_dir) / JOURNAL_NAME


def _fsync_dir(folder: Path) -> None:
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_durably(path: Path, data: bytes, mode: int | None = None) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644 if mode is None else mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if mode is not None:
        os.chmod(path, mode)


def _write_journal(refs_dir: Path, record: dict) -> None:
    """Replace the journal in one rename (its own temporary has a fixed, known name)."""
    import json  # here, as in read_journal: a command that only reads has no journal

    path = journal_path(refs_dir)
    tmp = path.with_name(path.name + ".tmp")
    _write_durably(tmp, json.dumps(record, sort_keys=True).encode("utf-8"))
    os.replace(tmp, path)
    _fsync_dir(path.parent)


@dataclass
class Transaction:
    """Files staged for one command; nothing changes on disk before :meth:`commit`."""

    refs_dir: Path
    staged: dict[Path, bytes] = field(default_factory=dict)
    #: called after a successful switch (e.g. to refresh the parsed-library cache)
    on_commit: list = field(default_factory=list)

    def stage(self, path: Path, text: str | bytes) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else text
        self.staged[Path(path).absolute()] = data

    def changes(self) -> dict[Path, bytes]:
        """The staged files whose content differs from what is on disk."""
        out = {}
        for path, data in self.staged.items():
            try:
                if path.read_bytes() == data:
                    continue
            except OSError:
                pass
            out[path] = data
        return out

    def commit(self) -> bool:
        """Switch every changed file in; returns whether anything changed on disk."""
        changes = self.changes()
        if not changes:
            self._after()
            return False
        refs = Path(self.refs_dir)
        refs.mkdir(parents=True, exist_ok=True)
        tag = os.urandom(4).hex()
        pairs = [(target, target.with_name(f"{TEMP_MARK}{tag}-{target.name}")) for target in changes]
        record = {"state": "prepare", "files": [{"target": str(t), "temp": str(tmp)} for t, tmp in pairs]}
        try:
            _write_journal(refs, record)
            for target, tmp in pairs:
                target.parent.mkdir(parents=True, exist_ok=True)
                mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
                _write_durably(tmp, changes[target], mode)
            for folder in {t.parent for t, _ in pairs}:
                _fsync_dir(folder)
            record = {"state": "commit", "files": [
                {"target": str(t), "temp": str(tmp), "sha256": cachefile.sha256(changes[t]).hexdigest()}
                for t, tmp in pairs]}
            _write_journal(refs, record)  # the commit point
        except OSError as exc:
            with suppress(OSError):
                _discard(refs, record)
            raise WriteFailed(f"could not write {exc.filename or refs}: {exc.strerror or exc}. Nothing was changed; "
                              "free some space or fix the folder's permissions and run the command again.", exc) from exc
        except BaseException:
            with suppress(OSError):
                _discard(refs, record)
            raise
        try:
            _finish(refs, record)
        except OSError as exc:
            raise WriteFailed(f"the new files are written but could not be switched in ({exc.strerror or exc}); "
                              "the next citekit command finishes the switch once the folder is writable again.", exc,
                              committed=True) from exc
        self._after()
        return True

    def _after(self) -> None:
        for callback in self.on_commit:
            callback()


def _finish(refs_dir: Path, record: dict) -> None:
    """Rename every temporary of a committed journal over its target, then drop the journal."""
    for item in record.get("files", []):
        tmp, target = Path(item["temp"]), Path(item["target"])
        if tmp.exists():
            os.replace(tmp, target)
    for folder in {Path(i["target"]).parent for i in record.get("files", [])}:
        _fsync_dir(folder)
    with suppress(FileNotFoundError):
        os.unlink(journal_path(refs_dir))
    _fsync_dir(Path(refs_dir))


def _discard(refs_dir: Path, record: dict) -> None:
    for item in record.get("files", []):
        with suppress(FileNotFoundError):
            os.unlink(item["temp"])
    with suppress(FileNotFoundError):
        os.unlink(journal_path(refs_dir))


def read_journal(refs_dir: Path) -> dict | None:
    """The journal left by an interrupted command, or None. A damaged one counts as none
    (it is replaced in one rename, so damage means it was never the commit point)."""
    try:
        text = journal_path(refs_dir).read_text(encoding="utf-8")
    except (OSError, ValueError):  # ValueError: not UTF-8
        return None
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("state") not in ("prepare", "commit"):
        return None
    return data


def recover(refs_dir: Path) -> list[str]:
    """Finish or undo an interrupted switch and delete stale temporaries.

    Call with the project lock held. Returns what was done, for doctor and for messages.
    """
    refs = Path(refs_dir)
    done: list[str] = []
    record = read_journal(refs)
    if record is not None and record["state"] == "commit":
        if all(_temp_ok(i) for i in record["files"] if Path(i["temp"]).exists()):
            _finish(refs, record)
            done.append("finished an interrupted write (both files now hold the newer state)")
        else:
            _discard(refs, record)
            done.append("dropped an interrupted write whose temporary files were damaged")
    elif record is not None:
        _discard(refs, record)
        done.append("undid an interrupted write (the files are as before it)")
    with suppress(FileNotFoundError):
        os.unlink(journal_path(refs).with_name(JOURNAL_NAME + ".tmp"))
    stale = stale_temps(refs)
    for path in stale:
        with suppress(FileNotFoundError):
            os.unlink(path)
    if stale:
        done.append(f"deleted {len(stale)} stale temporary file(s)")
    return done


def _temp_ok(item: dict) -> bool:
    try:
        return cachefile.sha256(Path(item["temp"]).read_bytes()).hexdigest() == item.get("sha256")
    except OSError:
        return False


def stale_temps(refs_dir: Path) -> list[Path]:
    """Temporaries in ``refs/`` that no journal owns (left by a killed write)."""
    refs = Path(refs_dir)
    if not refs.is_dir():
        return []
    record = read_journal(refs)
    owned = {Path(i["temp"]).name for i in (record or {}).get("files", [])}
    out = []
    for path in refs.iterdir():
        name = path.name
        if name in owned:
            continue
        if name.startswith(TEMP_MARK) or name == JOURNAL_NAME + ".tmp" or (name.endswith(_LEGACY_TEMP_SUFFIX) and name.startswith(_LEGACY_TEMP_PREFIXES)):
            out.append(path)
    return sorted(out)


def read_view(refs_dir: Path) -> dict[Path, Path]:
    """target → the file a reader should open now: the committed temporary while a switch is
    under way (lock held by a writer), else the target itself."""
    record = read_journal(refs_dir)
    if record is None or record["state"] != "commit":
        return {}
    return {Path(i["target"]): Path(i["temp"]) for i in record["files"] if Path(i["temp"]).exists()}

