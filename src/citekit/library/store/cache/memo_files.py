"""The memo files of the parsed-library cache: one table per kind, and the answers.

Each table holds values derived from entries for one kind (see :mod:`..kinds`), valid for
one memo generation as of one change of its log; the answers are derived from the whole
library.

A memo file is ``MEMO_MAGIC``, the length of its head, the head (marshal: kind, the
generation ``base`` and the change ``at`` it was written after, keys no longer valid)
and the table (marshal), so its head is read without decoding the table, and the table
is decoded straight from the bytes read.
"""

from __future__ import annotations

import marshal
from contextlib import suppress
from pathlib import Path
from typing import Any

from citekit.core.cachefile import replace_quietly
from citekit.library.lock import state_dir
from citekit.library.store.cache import buckets
from citekit.library.store.cache.format import FORMAT, read_marshal as _read, write_marshal as _write


def memo_path(refs_dir: Path, kind: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "@" for c in kind)
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-memo-{safe}.cache"


MEMO_MAGIC = b"ckM1"

#: the change log of the memo generation: one (token, keys whose entry changed) per write
MemoLog = list[tuple[str, list[str]]]


def memo_position(base: str, log: MemoLog, at: object) -> int | None:
    """How many changes of ``log`` a memo written after change ``at`` accounts for (None:
    a change this generation does not know, e.g. of a write that never stored its cache)."""
    if at == base:
        return 0
    for n, (token, _keys) in enumerate(log):
        if token == at:
            return n + 1
    return None


def _memo_head(raw: bytes) -> tuple[dict[str, Any], int] | None:
    if raw[:4] != MEMO_MAGIC:
        return None
    size = int.from_bytes(raw[4:8], "little")
    try:
        head = marshal.loads(raw[8:8 + size])
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        return None
    return head, 8 + size


def _read_memo_head(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as handle:
            start = handle.read(8)
            found = _memo_head(start + handle.read(int.from_bytes(start[4:8], "little")))
    except OSError:
        return None
    return found[0] if found else None


def memo_kinds(refs_dir: Path) -> list[str]:
    """The kinds of memo tables stored for this library (any generation); only each
    file's head is read."""
    out = []
    for path in memo_files(refs_dir):
        head = _read_memo_head(path)
        if head is not None and isinstance(head.get("kind"), str):
            out.append(head["kind"])
    return out


def read_memo(refs_dir: Path, base: str, log: MemoLog, kind: str) -> tuple[memoryview, frozenset[str]] | None:
    """One table of values derived from entries (e.g. ``list --json`` rows), still
    marshalled, with the keys whose values it must no longer give; None when missing or
    from another generation.

    A table holds for the generation ``base`` it was written in, as of one change of its
    ``log``: the entries changed by later writes are dropped (so a write never rewrites
    memo files). Each kind has a file of its own: ``tags`` reads a few hundred kilobytes
    of (status, tags) pairs, not the rows ``list --json`` prints.
    """
    try:
        raw = memo_path(refs_dir, kind).read_bytes()
    except OSError:
        return None
    valid = _valid_head(_memo_head(raw), base, log, kind)
    if valid is None:
        return None
    start, later = valid
    return memoryview(raw)[start:], frozenset(later)


def write_memos(refs_dir: Path, base: str, log: MemoLog, tables: dict[str, Any]) -> None:
    """Store memo tables as of the last change of ``log``: kind -> a table, or (its
    marshalled bytes, keys no longer valid). The second form carries a table never
    decoded over to a new generation."""
    at = log[-1][0] if log else base
    for kind, table in tables.items():
        head: dict[str, Any] = {"format": FORMAT, "kind": kind, "base": base, "at": at, "dropped": []}
        if isinstance(table, tuple):
            blob, head["dropped"] = table[0], sorted(table[1])
        else:
            blob = marshal.dumps(table)
        head_bytes = marshal.dumps(head)
        replace_quietly(memo_path(refs_dir, kind), [MEMO_MAGIC, len(head_bytes).to_bytes(4, "little"), head_bytes,
                                                    bytes(blob) if isinstance(blob, memoryview) else blob])


def queries_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-queries.cache"


#: at most this many remembered answers (the newest kept)
MAX_QUERIES = 256


def read_queries(refs_dir: Path, base: str, at: str) -> dict[str, Any] | None:
    """Answers derived from the whole library (e.g. the suggestions for a key it lacks),
    stored for exactly this state of it: the generation ``base`` after change ``at``."""
    data = _read(queries_path(refs_dir))
    if data is None or data.get("base") != base or data.get("at") != at or not isinstance(data.get("answers"), dict):
        return None
    return data["answers"]


def write_queries(refs_dir: Path, base: str, at: str, answers: dict[str, Any]) -> None:
    kept = dict(list(answers.items())[-MAX_QUERIES:])
    _write(queries_path(refs_dir), {"base": base, "at": at, "answers": kept})


def drop_memo(refs_dir: Path, kind: str) -> None:
    with suppress(FileNotFoundError):
        memo_path(refs_dir, kind).unlink()


def drop_unreadable_memos(refs_dir: Path) -> None:
    """Memo files whose head this version cannot read (an earlier format, a kind since
    renamed): no load will ever read them, so they would only take space."""
    for path in memo_files(refs_dir):
        if _read_memo_head(path) is None:
            with suppress(OSError):
                path.unlink()


def memo_files(refs_dir: Path) -> list[Path]:
    return sorted(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-memo-*.cache"))


def apart_path(refs_dir: Path, name: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "@" for c in name)
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-apart-{safe}.cache"


def read_apart(refs_dir: Path, name: str, base: str) -> tuple[bool, Any, Any]:
    """(found, answer, the change it is of) of a large answer kept in a file of its own
    (the search index), written in the memo generation ``base``; the small answers share
    one file (``read_queries``), and a command that reads them should not read megabytes
    it does not need. The caller says whether an answer of an earlier change still serves.
    An answer of tables (:class:`.buckets.Sections`: the match index) is read bucket by
    bucket as it is asked, from the file opened here."""
    path = apart_path(refs_dir, name)
    try:
        handle = open(path, "rb")
    except OSError:
        return False, None, None
    found = buckets.decode(handle)
    if found is None:
        handle.close()
        data = _read(path)
        if data is None or data.get("name") != name or data.get("base") != base or "answer" not in data:
            return False, None, None
        return True, data["answer"], data.get("at")
    head, answer = found
    if head.get("format") != FORMAT or head.get("name") != name or head.get("base") != base:
        handle.close()
        return False, None, None
    return True, answer, head.get("at")


def write_apart(refs_dir: Path, name: str, base: str, at: str, answer: Any) -> None:
    head = {"name": name, "base": base, "at": at}
    if isinstance(answer, buckets.Sections):
        replace_quietly(apart_path(refs_dir, name), buckets.encode({**head, "format": FORMAT}, answer))
        return
    _write(apart_path(refs_dir, name), {**head, "answer": answer})


def drop_all(refs_dir: Path) -> None:
    """Every memo file and the stored answers (with the rest of the cache: :func:`.parsed_cache.drop`)."""
    apart = sorted(state_dir(refs_dir).glob(f"{Path(refs_dir).name}-apart-*.cache"))
    for path in (queries_path(refs_dir), *memo_files(refs_dir), *apart):
        with suppress(FileNotFoundError):
            path.unlink()


# ---- reading a stored table one value at a time -----------------------------------------

#: marshal's type codes (the low seven bits; the high bit marks an object later ones may
#: refer to): texts and bytes, the only values a table streamed here may hold
_LONG_TEXTS = {ord("u"): "utf-8", ord("t"): "utf-8", ord("a"): "latin-1", ord("A"): "latin-1", ord("s"): None}
_SHORT_TEXTS = {ord("z"): "latin-1", ord("Z"): "latin-1"}
_DICT, _END = ord("{"), ord("0")


class _NotStreamable(Exception):
    """The stored table holds something the record reader does not read (then it is read whole)."""


def _walk(handle: Any, start: int, wanted: set[str]) -> tuple[dict[str, int], int]:
    """key -> (offset << 32 | size) of each wanted key's value in the marshalled table
    starting at ``start``, and the values' one type code (the values are skipped on disk,
    not read)."""
    read, seek = handle.read, handle.seek
    seek(start)
    if read(1) not in (b"{", b"\xfb"):
        raise _NotStreamable
    offsets: dict[str, int] = {}
    value_code = -1
    while True:
        code, size = _header(read)
        if code == _END:
            return offsets, value_code
        data = read(size)
        key = data.decode("utf-8" if _LONG_TEXTS.get(code) == "utf-8" else "latin-1", "surrogatepass")
        code, size = _header(read)
        if value_code not in (-1, code):
            raise _NotStreamable  # (texts and bytes mixed: not a table of one kind of value)
        value_code = code
        if key in wanted:
            offsets[key] = (handle.tell() << 32) | size
        seek(size, 1)


def _header(read: Any) -> tuple[int, int]:
    """(type code, size) of the text or bytes object at the file's position, which is left
    at its first byte; ``(_END, 0)`` at the end of the table."""
    first = read(1)
    if not first:
        raise _NotStreamable  # (cut short)
    code = first[0] & 0x7F
    if code in _LONG_TEXTS:
        return code, int.from_bytes(read(4), "little")
    if code in _SHORT_TEXTS:
        return code, read(1)[0]
    if first[0] == _END:
        return _END, 0
    raise _NotStreamable  # a reference to an earlier object, a number, a list ...


def stored_values(refs_dir: Path, base: str, log: MemoLog, kind: str, keys: list[str]) -> Any:
    """The stored values of ``kind`` for ``keys``, in that order, read from the memo file
    one at a time (an iterator), or None when the file cannot give them all that way (no
    valid table, a key missing or changed since, a value that is not text or bytes): then
    the caller reads the table whole (:func:`read_memo`).

    ``list --json`` on a library of 50,000 entries writes 30 MB of stored rows: they are
    read as they are written, not held as one table. The file is walked once over its keys
    (the values skipped) to note where each value asked for lies; then each value is read
    when it is asked for. Only the keys and their offsets are held.
    """
    path = memo_path(refs_dir, kind)
    try:
        handle = open(path, "rb")
    except OSError:
        return None
    try:
        found = _valid_table_start(handle, base, log, kind)
        wanted = set(keys)
        if found is None or not found[1].isdisjoint(wanted):
            raise _NotStreamable
        offsets, value_code = _walk(handle, found[0], wanted)
        del wanted
        if len(offsets) != len(set(keys)):
            raise _NotStreamable
    except (_NotStreamable, OSError, IndexError, UnicodeDecodeError, ValueError):
        handle.close()
        return None
    encoding = _LONG_TEXTS.get(value_code) or _SHORT_TEXTS.get(value_code)
    return _values(handle, keys, offsets, encoding)


def _valid_table_start(handle: Any, base: str, log: MemoLog, kind: str) -> tuple[int, set[str]] | None:
    """Where the table of an open memo file starts and the keys whose values no longer
    hold, when the file holds ``kind`` for this generation (else None: see :func:`read_memo`)."""
    start = handle.read(8)
    return _valid_head(_memo_head(start + handle.read(int.from_bytes(start[4:8], "little"))), base, log, kind)


def _valid_head(found: tuple[dict[str, Any], int] | None, base: str, log: MemoLog, kind: str) -> tuple[int, set[str]] | None:
    """``(where the table starts, the keys whose values no longer hold)`` from a memo file's
    head, when it holds ``kind`` for the generation ``base`` as of a change ``log`` still
    has; else None."""
    if found is None:
        return None
    head, offset = found
    position = memo_position(base, log, head.get("at"))
    dropped = head.get("dropped") or []
    if head.get("kind") != kind or head.get("base") != base or position is None or not isinstance(dropped, list):
        return None
    later = set(dropped)
    for _token, keys in log[position:]:
        later.update(keys)
    return offset, later


def _values(handle: Any, keys: list[str], offsets: dict[str, int], encoding: str | None) -> Any:
    """The value at each key's offset, in the order of ``keys`` (checked by :func:`stored_values`)."""
    with handle:
        for key in keys:
            where = offsets[key]
            handle.seek(where >> 32)
            data = handle.read(where & 0xFFFFFFFF)
            yield data if encoding is None else data.decode(encoding, "surrogatepass")
