"""A file's new bytes as runs of its current bytes and new pieces, never held whole.

A one-entry change to a 50,000-entry library changes a few hundred bytes of a 25 MB
``library.bib``: rendering, joining and encoding the whole file to write it cost a second
and hundreds of MiB. A :class:`Spliced` file instead lists the new bytes as pieces, each
either new text (bytes) or a span ``(start, end)`` of the file as it is now, and is written
by streaming them into the temporary file that the transaction renames over the old one
(:mod:`.journal`): the same atomic replace, the same bytes a full render gives (the cached
library records where each entry's text lies, see :mod:`.store.cache.layout`).

The current file must still be the one the spans were measured in: :meth:`Spliced.open`
hashes it while reading and refuses one of other bytes (:class:`SourceChanged`), so a file
edited since the load is never cut at the wrong places; the caller then renders in full.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from citekit.core import cachefile

#: bytes read (and hashed) at once
_STEP = 1 << 20


def pread(fd: int, size: int, at: int) -> bytes:
    """``os.pread``, or a seek and a read where there is none (Windows)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, at)
    os.lseek(fd, at, os.SEEK_SET)
    return os.read(fd, size)


class SourceChanged(Exception):
    """The file is no longer the bytes its spans were measured in."""


class Spliced:
    """New contents of ``source`` (see the module's docstring); ``source_key``: (size,
    sha256 hex) the spans refer to, None when every piece is bytes (no current file used)."""

    def __init__(self, source: Path, source_key: tuple[int, str] | None, pieces: list[bytes | tuple[int, int]]) -> None:
        self.source = Path(source)
        self.source_key = source_key
        self.pieces = _coalesced(pieces)
        self.size = sum(p[1] - p[0] if isinstance(p, tuple) else len(p) for p in self.pieces)
        self._fd: int | None = None
        self._digest: str | None = None

    def __len__(self) -> int:
        return self.size

    def is_identity(self) -> bool:
        """Whether the new bytes are exactly the current file (one span over all of it)."""
        return (self.source_key is not None and len(self.pieces) == 1 and isinstance(self.pieces[0], tuple)
                and self.pieces[0] == (0, self.source_key[0]))

    def open(self, seen: tuple[int, int, int, int] | None = None) -> None:
        """Open the current file and check it is the bytes the spans refer to (reading and
        hashing it in steps: nothing is held); raises :class:`SourceChanged` otherwise.

        ``seen``: the file's stat key (size, mtime, ctime, inode) when this process read
        and hashed it (the same before and after the read). An open file with exactly that
        stat holds those bytes (any write since changes its times, a replace its inode), so
        it is not read and hashed a second time: 45 MB of a 50,000-entry library."""
        if self.source_key is None or self._fd is not None:
            return
        fd = os.open(self.source, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)
            if st.st_size != self.source_key[0]:
                raise SourceChanged(str(self.source))
            if seen is not None and (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino) == tuple(seen):
                self._fd = fd
                return
            digest = cachefile.sha256()
            at = 0
            while True:
                block = pread(fd, _STEP, at)
                if not block:
                    break
                digest.update(block)
                at += len(block)
            if at != self.source_key[0] or digest.hexdigest() != self.source_key[1]:
                raise SourceChanged(str(self.source))
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def blocks(self) -> Iterator[bytes | memoryview]:
        """The new bytes, a block at a time."""
        if self.source_key is not None:
            self.open()
        for piece in self.pieces:
            if not isinstance(piece, tuple):
                yield piece
                continue
            start, end = piece
            assert self._fd is not None
            while start < end:
                block = pread(self._fd, min(_STEP, end - start), start)
                if not block:
                    raise SourceChanged(f"{self.source} is shorter than when it was read")
                yield block
                start += len(block)

    def write_to(self, fd: int) -> None:
        """Write the new bytes to ``fd``, hashing them on the way (see :meth:`hexdigest`)."""
        digest = cachefile.sha256()
        for block in self.blocks():
            digest.update(block)
            view = memoryview(block)
            while view:
                view = view[os.write(fd, view):]
        self._digest = digest.hexdigest()

    def hexdigest(self) -> str:
        """The SHA-256 of the new bytes (of the current file's, for an identity)."""
        if self._digest is None:
            if self.is_identity():
                assert self.source_key is not None
                self._digest = self.source_key[1]
            else:
                digest = cachefile.sha256()
                for block in self.blocks():
                    digest.update(block)
                self._digest = digest.hexdigest()
        return self._digest

    def same_as_file(self, path: Path) -> bool:
        """Whether ``path`` holds exactly the new bytes (compared a block at a time)."""
        if self.is_identity() and Path(path).absolute() == self.source.absolute():
            return True
        try:
            with open(path, "rb") as handle:
                if os.fstat(handle.fileno()).st_size != self.size:
                    return False
                for block in self.blocks():
                    if handle.read(len(block)) != block:
                        return False
                return True
        except OSError:
            return False

    def tobytes(self) -> bytes:
        """The new bytes whole (for callers that need them: tests, small files)."""
        return b"".join(bytes(b) for b in self.blocks())

    def __del__(self) -> None:
        self.close()


def _coalesced(pieces: list[Any]) -> list[bytes | tuple[int, int]]:
    """Adjacent spans joined, empty pieces dropped."""
    out: list[Any] = []
    for piece in pieces:
        if isinstance(piece, tuple):
            if piece[0] == piece[1]:
                continue
            if out and isinstance(out[-1], tuple) and out[-1][1] == piece[0]:
                out[-1] = (out[-1][0], piece[1])
                continue
            out.append(piece)
        elif piece:
            out.append(piece)
    return out


def data_key(data: bytes | Spliced | None) -> tuple[Any, ...]:
    """(size, sha256 hex) of new file contents, whichever form they take ((None,): none)."""
    if data is None:
        return (None,)
    if isinstance(data, Spliced):
        return (data.size, data.hexdigest())
    return (len(data), cachefile.sha256(data).hexdigest())
