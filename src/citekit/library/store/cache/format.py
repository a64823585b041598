"""The format of every file of the parsed-library cache.

:mod:`marshal` of plain data with a format number; a file of another format (or damaged)
reads as none."""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any

from citekit.core.cachefile import replace_quietly

#: bump when the stored shape, or how either file is read, changes (16: kept text between
#: entries, @ lines in values, only parses of sidecars that passed sidecar.schema; 17: an
#: imported entry's old status notes-only reads as imported; 18: an
#: entry's state holds key_provisional; 19: each entry's import record; 20: blobs as
#: (start, end) spans, appended to by writes; 21: an entry's library.yaml merge conflicts)
FORMAT = 21


def read_marshal(path: Path) -> dict[str, Any] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def write_marshal(path: Path, data: dict[str, Any]) -> bool:
    return replace_quietly(path, marshal.dumps({**data, "format": FORMAT}))
