"""What citekit last wrote in ``refs/``, remembered in ``.citekit/`` instead of in the files.

A checksum line inside ``library.bib`` (and its copy in the sidecar) changed on every write,
so two git branches that both wrote the library always conflicted on it. The digests of
both files as citekit last wrote them live here instead, in the state folder that git
ignores: when ``library.bib`` still has them, nobody edited it since (the fast path of
hand-edit detection, :func:`.reconcile.absorb_bib`); a fresh clone or a merged file simply
has no match, and every field is compared with the sidecar's copy, as for any hand edit.
"""

from __future__ import annotations

import re
from contextlib import suppress
from pathlib import Path
from typing import Any

from citekit.core import cachefile
from citekit.core.paths import state_dir


def record_path(refs_dir: Path) -> Path:
    """``.citekit/<refs>-written.txt``: the digests of the pair citekit last wrote, a line each
    (plain text: read on every load, where importing json would cost every command)."""
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-written.txt"


def digest(data: bytes | Any | None) -> str | None:
    """The first 24 hex digits of the SHA-256 of a file's bytes (or of a spliced file's)."""
    if data is None:
        return None
    return (cachefile.sha256(data).hexdigest() if isinstance(data, bytes) else data.hexdigest())[:24]


def remember(refs_dir: Path, bib_data: bytes | None, side_data: bytes | None) -> None:
    """Note the bytes of both files just written (a failure only loses the fast path)."""
    payload = "".join(f"{name} {value}\n" for name, value in (("bib", digest(bib_data)), ("sidecar", digest(side_data)))
                      if value).encode("ascii")
    cachefile.replace_quietly(record_path(refs_dir), payload)


def last_written(refs_dir: Path) -> dict[str, str | None]:
    """The digests remembered by :func:`remember` (empty when none or unreadable)."""
    with suppress(OSError, ValueError):
        text = record_path(refs_dir).read_bytes()[:200].decode("ascii")
        return {m.group(1): m.group(2) for m in re.finditer(r"^(bib|sidecar) ([0-9a-f]{24})$", text, re.M)}
    return {}


def as_written(refs_dir: Path, bib_data: bytes | None, side_data: bytes | None = None) -> tuple[bool, bool]:
    """(library.bib is as citekit last wrote it, the sidecar is too)."""
    known = last_written(refs_dir)
    bib_same = bib_data is not None and known.get("bib") == digest(bib_data)
    side_same = side_data is not None and known.get("sidecar") == digest(side_data)
    return bib_same, side_same
