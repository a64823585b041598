"""One transaction per command: every file a command changes is switched in together.

Each file is first written beside its target as a temporary file and fsynced. The
journal (``refs/.citekit-journal``) names every pair *before* the temporaries are
written (state ``prepare``: an interrupted write leaves only temporaries to delete) and
again *after* (state ``commit``, with a checksum of each temporary). Writing the commit
journal is the single step that decides: once it is on disk, the next command finishes
the renames (:func:`recover`); before it, the old files stand. A reader that finds a
commit journal reads through it (:func:`read_view`), so it never sees half a switch.

``refs/`` is under version control, so a repository can ship a journal: what it names is
data, never an order. A journal names the files of ``refs/`` only by their bare names
(:data:`REFS_FILES`, and temporaries ``.citekit-new-<8 hex>-<name>`` beside them); a file
elsewhere (the ``.tex`` files of ``rekey``, a key map named with ``--map``) is named by its
absolute path only under a seal, an HMAC made with a key kept outside every project
(:func:`key_path`), so only this account's citekit can have written it. Anything else, or a
journal of the wrong shape, is refused: it is set aside (renamed
``.citekit-journal.refused-<time>``), never acted on and never deleted.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.core.errors import CitekitError
from citekit.core import cachefile
from citekit.library.errors import WriteFailed
from citekit.core.lazyre import lazy

JOURNAL_NAME = ".citekit-journal"
TEMP_MARK = ".citekit-new-"
#: a journal set aside because citekit would not act on it: ``.citekit-journal.refused-20261204T150203Z``
REFUSED_MARK = JOURNAL_NAME + ".refused-"
#: the files of refs/ a transaction may switch in: the library, its sidecar, the key maps
KEYMAP_FILES = ("keymap.yaml", "import-keymap.yaml")
REFS_FILES = frozenset({"library.bib", "library.yaml", *KEYMAP_FILES})
#: the journal's own temporary (it is replaced in one rename)
JOURNAL_TEMP = JOURNAL_NAME + ".tmp"
#: temporaries of plain atomic writes (``store.files.atomic_write``): ``.library.bib.abc123.tmp``
_LEGACY_TEMP_SUFFIX = ".tmp"
_LEGACY_TEMP_PREFIXES = tuple(f".{name}." for name in sorted(REFS_FILES))
_TEMP_NAME = lazy(r"\.citekit-new-[0-9a-f]{8}-(.+)\Z", re.DOTALL)
_SHA256 = lazy(r"[0-9a-f]{64}\Z")
#: a journal names a few files; anything this big was not written by citekit
_MAX_JOURNAL_BYTES = 16 << 20
_TOP_KEYS = frozenset({"version", "state", "files", "seal"})
_ITEM_KEYS = frozenset({"target", "temp", "sha256"})


def journal_path(refs_dir: Path) -> Path:
    return Path(refs_dir) / JOURNAL_NAME


class JournalRefused(CitekitError):
    """The journal is damaged or names a file citekit may not touch; the message says which."""

    exit_code = 2
    NEXT_STEP = "Run `citekit doctor`: it sets the journal aside and says how to check refs/."


@dataclass(frozen=True)
class Pair:
    """One file of a transaction: ``temp`` is renamed over ``target`` (both absolute)."""

    target: Path
    temp: Path
    sha256: str | None = None
    #: a file of refs/ named by its bare name (else a sealed absolute path)
    in_refs: bool = True


@dataclass(frozen=True)
class Journal:
    state: str  # prepare | commit
    pairs: tuple[Pair, ...]


# ---- writing -------------------------------------------------------------------------------

def _fsync_dir(folder: Path) -> None:
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_durably(path: Path, data: bytes | Any, mode: int | None = None) -> None:
    """Create ``path`` afresh and fsync it. Never through a link left at that name (a
    repository may ship one), and a write that fails removes what it had written.
    ``data``: bytes, or a :class:`.spliced.Spliced` file streamed in (never held whole)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o644 if mode is None else mode)
    try:
        try:
            if isinstance(data, bytes):
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
            else:
                data.write_to(fd)
            os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(path, mode)
    except BaseException:
        with suppress(OSError):
            os.unlink(path)
        raise


def _write_journal(refs_dir: Path, record: dict[str, Any]) -> None:
    """Replace the journal in one rename (its own temporary has a fixed, known name, so it is
    removed first: whatever lies there is never written through, and a failed write leaves
    no 0-byte temporary behind)."""
    import json  # here, as in load_journal: a command that only reads has no journal

    path = journal_path(refs_dir)
    tmp = path.with_name(JOURNAL_TEMP)
    with suppress(FileNotFoundError):
        os.unlink(tmp)
    try:
        _write_durably(tmp, json.dumps(record, sort_keys=True).encode("utf-8"))
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


@dataclass
class Transaction:
    """Files staged for one command; nothing changes on disk before :meth:`commit`."""

    refs_dir: Path
    #: path -> new contents: bytes, or a :class:`.spliced.Spliced` file (runs of the old one)
    staged: dict[Path, Any] = field(default_factory=dict)
    #: called after a successful switch (e.g. to refresh the parsed-library cache)
    on_commit: list = field(default_factory=list)

    def stage(self, path: Path, text: str | bytes | Any) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else text
        self.staged[Path(path).absolute()] = data

    def changes(self) -> dict[Path, Any]:
        """The staged files whose content differs from what is on disk (compared a block at
        a time: a 25 MB library.bib is not read whole to learn that it changed)."""
        out = {}
        for path, data in self.staged.items():
            if _same_content(path, data):
                continue
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
        journal = Journal("prepare", tuple(_pair_for(refs, target, tag) for target in changes))
        try:
            _write_journal(refs, _record(refs, journal))
            for pair in journal.pairs:
                pair.target.parent.mkdir(parents=True, exist_ok=True)
                mode = pair.target.stat().st_mode & 0o777 if pair.target.exists() else 0o644
                _write_durably(pair.temp, changes[pair.target], mode)
            for folder in {p.target.parent for p in journal.pairs}:
                _fsync_dir(folder)
            journal = Journal("commit", tuple(
                Pair(p.target, p.temp, _hexdigest(changes[p.target]), p.in_refs)
                for p in journal.pairs))
            _write_journal(refs, _record(refs, journal))  # the commit point
        except OSError as exc:
            with suppress(OSError):
                _discard(refs, journal)
            raise WriteFailed(f"could not write {exc.filename or refs}: {exc.strerror or exc}. Nothing was changed; "
                              "free some space or fix the folder's permissions and run the command again.", exc) from exc
        except BaseException:
            with suppress(OSError):
                _discard(refs, journal)
            raise
        try:
            _finish(refs, journal)
        except OSError as exc:
            raise WriteFailed(f"the new files are written but could not be switched in ({exc.strerror or exc}); "
                              "the next citekit command finishes the switch once the folder is writable again.", exc,
                              committed=True) from exc
        self._after()
        return True

    def _after(self) -> None:
        for callback in self.on_commit:
            callback()


def _same_content(path: Path, data: Any) -> bool:
    """Whether ``path`` holds exactly ``data`` (bytes or a spliced file)."""
    if not isinstance(data, bytes):
        return bool(data.same_as_file(path))
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != len(data):
                return False
            view = memoryview(data)
            for at in range(0, len(data), 1 << 20):
                if handle.read(1 << 20) != view[at:at + (1 << 20)]:
                    return False
            return True
    except OSError:
        return False


def _hexdigest(data: Any) -> str:
    """The SHA-256 of new contents (a spliced file knows its own, hashed while written)."""
    return cachefile.sha256(data).hexdigest() if isinstance(data, bytes) else str(data.hexdigest())


def _same_folder(a: Path | str, b: Path | str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _pair_for(refs: Path, target: Path, tag: str) -> Pair:
    """The pair for ``target``: a file of refs/ by name, any other file by absolute path."""
    in_refs = target.name in REFS_FILES and _same_folder(target.parent, refs)
    return Pair(target, target.with_name(f"{TEMP_MARK}{tag}-{target.name}"), None, in_refs)


def _record(refs: Path, journal: Journal) -> dict[str, Any]:
    """The journal as written: files of refs/ by bare name; anything else sealed."""
    files = []
    for pair in journal.pairs:
        if pair.in_refs:
            item = {"target": pair.target.name, "temp": pair.temp.name}
        else:
            item = {"target": str(pair.target), "temp": str(pair.temp)}
        if pair.sha256:
            item["sha256"] = pair.sha256
        files.append(item)
    record: dict[str, Any] = {"version": 2, "state": journal.state, "files": files}
    if not all(p.in_refs for p in journal.pairs):
        record["seal"] = _seal(_journal_key(create=True), refs, record)
    return record


# ---- the seal: files outside refs/ --------------------------------------------------------

def key_path() -> Path:
    """Where this account keeps the key that seals journals naming files outside refs/:
    outside every project, so no repository can ship it."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    if not os.path.isabs(base):
        raise OSError(f"no home folder to keep citekit's journal key in (set XDG_STATE_HOME): {base}")
    return Path(base) / "citekit" / "journal.key"


def _journal_key(*, create: bool) -> bytes:
    path = key_path()
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        if not create:
            raise
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.write(fd, os.urandom(32))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # all or nothing, and the first of two racing commands wins
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
        key = path.read_bytes()
    if len(key) < 32:
        raise OSError(f"{path}: a damaged journal key (delete it: citekit makes a new one)")
    return key


def _seal(key: bytes, refs: Path, record: dict[str, Any]) -> str:
    import hmac
    import json

    body = json.dumps({"refs": os.path.realpath(refs), "state": record.get("state"), "files": record.get("files")},
                      sort_keys=True)
    return hmac.new(key, body.encode("utf-8", "surrogatepass"), "sha256").hexdigest()


def _check_seal(refs: Path, record: dict[str, Any], outside: Pair) -> None:
    import hmac

    refusal = JournalRefused(f"it names {outside.target}, a file outside refs/, without this account's seal")
    seal = record.get("seal")
    if not isinstance(seal, str):
        raise refusal
    try:
        key = _journal_key(create=False)
    except OSError:
        raise refusal from None
    if not hmac.compare_digest(_seal(key, refs, record), seal):
        raise refusal


# ---- reading: every path checked -------------------------------------------------------------

def load_journal(refs_dir: Path) -> Journal | None:
    """The journal left by an interrupted or running write, checked; None when there is none.

    Raises :class:`JournalRefused` for a journal that is damaged, of the wrong shape, or
    names a file citekit may not touch.
    """
    path = journal_path(refs_dir)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalRefused(f"it cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise JournalRefused("it is not a plain file (a link or a folder)")
    if info.st_size > _MAX_JOURNAL_BYTES:
        raise JournalRefused(f"it is {info.st_size} bytes, far more than any journal citekit writes")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:  # the writer finished meanwhile
        return None
    except OSError as exc:
        raise JournalRefused(f"it cannot be read ({exc.strerror or exc})") from None
    import json

    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # ValueError: not UTF-8, or not JSON
        raise JournalRefused("it is not the JSON citekit writes") from None
    return _checked(Path(refs_dir), data)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(value), "a number")


def _checked(refs: Path, data: Any) -> Journal:
    """The journal's shape (a schema) and every path in it, or :class:`JournalRefused`."""
    if not isinstance(data, dict):
        raise JournalRefused(f"expected a JSON object, found {_kind(data)}")
    unknown = sorted(str(k) for k in data if k not in _TOP_KEYS)
    if unknown:
        raise JournalRefused(f"unknown key '{unknown[0][:40]}'")
    state, files = data.get("state"), data.get("files")
    if state not in ("prepare", "commit"):
        raise JournalRefused("'state' must be \"prepare\" or \"commit\"")
    if not isinstance(files, list) or not files:
        raise JournalRefused("'files' must be a non-empty list of {target, temp} objects")
    if not isinstance(data.get("version", 2), int) or not isinstance(data.get("seal", ""), str):
        raise JournalRefused("'version' must be a number and 'seal' text")
    pairs: list[Pair] = []
    for i, item in enumerate(files):
        pairs.append(_checked_pair(refs, i, item))
    if len({p.target for p in pairs}) != len(pairs):
        raise JournalRefused("it names one file twice")
    outside = [p for p in pairs if not p.in_refs]
    if outside:
        _check_seal(refs, data, outside[0])
    for pair in pairs:
        _check_plain(pair.temp)
    return Journal(state, tuple(pairs))


def _checked_pair(refs: Path, i: int, item: Any) -> Pair:
    where = f"files[{i}]"
    if not isinstance(item, dict) or any(k not in _ITEM_KEYS for k in item):
        raise JournalRefused(f"{where} must be an object with 'target', 'temp' and 'sha256'")
    target, temp, digest = item.get("target"), item.get("temp"), item.get("sha256")
    if not isinstance(target, str) or not isinstance(temp, str):
        raise JournalRefused(f"{where}: 'target' and 'temp' must be text")
    if digest is not None and not (isinstance(digest, str) and _SHA256.match(digest)):
        raise JournalRefused(f"{where}: 'sha256' must be 64 hexadecimal digits")
    if "\x00" in target or "\x00" in temp:
        raise JournalRefused(f"{where}: a path with a NUL character")
    if "/" not in target and "\\" not in target:
        return _bare_pair(refs, where, target, temp, digest)
    if not target.startswith("/"):
        raise JournalRefused(f"{where}: '{target[:80]}' is not a file citekit writes in refs/ "
                             f"(it names files there by name alone)")
    legacy = _legacy_pair(refs, target, temp, digest)
    return legacy if legacy is not None else _outside_pair(where, target, temp, digest)


def _temp_for(name: str, temp: str) -> bool:
    match = _TEMP_NAME.match(temp)
    return match is not None and match.group(1) == name


def _bare_pair(refs: Path, where: str, target: str, temp: str, digest: str | None) -> Pair:
    """A file of refs/ by name, as this version writes them."""
    if target not in REFS_FILES:
        raise JournalRefused(f"{where}: '{target[:80]}' is not a file citekit writes in refs/ "
                             f"({', '.join(sorted(REFS_FILES))})")
    if "/" in temp or "\\" in temp or not _temp_for(target, temp):
        raise JournalRefused(f"{where}: '{temp[:80]}' is not a temporary of {target}")
    folder = Path(refs).absolute()
    return Pair(folder / target, folder / temp, digest, True)


def _legacy_pair(refs: Path, target: str, temp: str, digest: str | None) -> Pair | None:
    """A file of refs/ by absolute path, as earlier versions wrote them: resolved and
    checked, never trusted (None: not a file of refs/)."""
    t, m = Path(target), Path(temp)
    if os.path.normpath(target) != target or os.path.normpath(temp) != temp:
        return None
    if t.name not in REFS_FILES or m.parent != t.parent or not _temp_for(t.name, m.name):
        return None
    if not _same_folder(t.parent, refs):
        return None
    folder = Path(refs).absolute()
    return Pair(folder / t.name, folder / m.name, digest, True)


def _outside_pair(where: str, target: str, temp: str, digest: str | None) -> Pair:
    """A file outside refs/ (``rekey``'s sources): acted on only under a valid seal."""
    t, m = Path(target), Path(temp)
    if (os.path.normpath(target) != target or os.path.normpath(temp) != temp or m.parent != t.parent
            or not _temp_for(t.name, m.name)):
        raise JournalRefused(f"{where}: '{target[:80]}' is a path outside refs/")
    return Pair(t, m, digest, False)


def _check_plain(temp: Path) -> None:
    """A temporary is a plain file citekit wrote, never a link (reading or renaming through
    one would reach whatever it points at)."""
    try:
        info = os.lstat(temp)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise JournalRefused(f"its temporary {temp.name} cannot be checked ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise JournalRefused(f"its temporary {temp.name} is a link or a folder, not a file citekit wrote")


# ---- acting on a journal ---------------------------------------------------------------------

def _finish(refs_dir: Path, journal: Journal) -> None:
    """Rename every temporary of a committed journal over its target, then drop the journal."""
    for pair in journal.pairs:
        if pair.temp.exists():
            os.replace(pair.temp, pair.target)
    for folder in {p.target.parent for p in journal.pairs}:
        _fsync_dir(folder)
    with suppress(FileNotFoundError):
        os.unlink(journal_path(refs_dir))
    _fsync_dir(Path(refs_dir))


def _discard(refs_dir: Path, journal: Journal) -> None:
    for pair in journal.pairs:
        with suppress(FileNotFoundError):
            os.unlink(pair.temp)
    with suppress(FileNotFoundError):
        os.unlink(journal_path(refs_dir))


def _tell(message: str) -> None:
    """Say it on stderr whichever command met the journal: it is set aside, so only once."""
    sys.stderr.write(f"citekit: warning: {message}\n")
    sys.stderr.flush()


def set_aside(refs_dir: Path, reason: str, *, announce: bool = True) -> str:
    """Rename a journal citekit will not act on out of the way (never delete it: it is
    evidence of what shipped or what broke); returns what was done."""
    from citekit.core.config import display_path

    refs = Path(refs_dir)
    source = journal_path(refs)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    dest, n = refs / f"{REFUSED_MARK}{stamp}", 1
    while os.path.lexists(dest):
        n += 1
        dest = refs / f"{REFUSED_MARK}{stamp}-{n}"
    shown = display_path(source)
    try:
        os.rename(source, dest)
    except OSError as exc:
        message = (f"{shown} was not acted on: {reason}. It could not be set aside ({exc.strerror or exc}); "
                   f"move it out of refs/ by hand.")
    else:
        _fsync_dir(refs)
        message = (f"{shown} was not acted on: {reason}. It was set aside as {dest.name}; nothing it names "
                   "was acted on (citekit's own temporary files in refs/ are removed, as after any interrupted "
                   "write, so the library stays as it was before). Look at it, then delete it.")
    if announce:
        _tell(message)
    return message


def refused_journals(refs_dir: Path) -> list[Path]:
    """Journals set aside earlier (:func:`set_aside`), for doctor."""
    refs = Path(refs_dir)
    if not refs.is_dir():
        return []
    return sorted(p for p in refs.iterdir() if p.name.startswith(REFUSED_MARK))


def recover(refs_dir: Path, *, announce: bool = True) -> list[str]:
    """Finish or undo an interrupted switch and delete stale temporaries.

    Call with the project lock held. Returns what was done, for doctor and for messages
    (a refused journal is also told on stderr unless ``announce`` is false).
    """
    refs = Path(refs_dir)
    done: list[str] = []
    try:
        journal = load_journal(refs)
    except JournalRefused as exc:
        journal = None
        done.append(set_aside(refs, str(exc), announce=announce))
    if journal is not None and journal.state == "commit":
        if all(_temp_ok(p) for p in journal.pairs if p.temp.exists()):
            _finish(refs, journal)
            done.append("finished an interrupted write (both files now hold the newer state)")
        else:
            _discard(refs, journal)
            done.append("dropped an interrupted write whose temporary files were damaged")
    elif journal is not None:
        _discard(refs, journal)
        done.append("undid an interrupted write (the files are as before it)")
    stale = stale_temps(refs, None)  # the journal is finished, undone or set aside by now
    for path in stale:
        with suppress(FileNotFoundError):
            os.unlink(path)
    if stale:
        done.append(f"deleted {len(stale)} stale temporary file(s)")
    return done


def _temp_ok(pair: Pair) -> bool:
    try:
        return cachefile.sha256(pair.temp.read_bytes()).hexdigest() == pair.sha256
    except OSError:
        return False


def _is_temp_name(name: str) -> bool:
    return (name.startswith(TEMP_MARK) or name == JOURNAL_TEMP
            or (name.endswith(_LEGACY_TEMP_SUFFIX) and name.startswith(_LEGACY_TEMP_PREFIXES)))


_UNREAD: Any = object()


def stale_temps(refs_dir: Path, journal: "Journal | None" = _UNREAD) -> list[Path]:
    """Temporaries in ``refs/`` that no (acceptable) journal owns (left by a killed write).
    Folders are never temporaries: a name alone does not make one citekit's. ``journal``:
    the journal the caller already loaded (None: none stands), so it is not read again."""
    refs = Path(refs_dir)
    if journal is _UNREAD:
        try:
            journal = load_journal(refs)
        except JournalRefused:
            journal = None
    owned = {p.temp.name for p in journal.pairs if p.in_refs} if journal is not None else set()
    out = []
    try:
        listing = list(os.scandir(refs))
    except OSError:
        return []
    for entry in listing:
        if entry.name in owned or not _is_temp_name(entry.name):
            continue
        with suppress(OSError):
            if not entry.is_dir(follow_symlinks=False):
                out.append(refs / entry.name)
    return sorted(out)


def read_view(refs_dir: Path) -> dict[Path, Path]:
    """target → the file a reader should open now: the committed temporary while a switch is
    under way (lock held by a writer), else the target itself. A journal citekit would not
    act on is not read through either."""
    try:
        journal = load_journal(refs_dir)
    except JournalRefused:
        return {}
    if journal is None or journal.state != "commit":
        return {}
    return {p.target: p.temp for p in journal.pairs if p.in_refs and p.temp.exists()}
