"""Reading the sidecar entry by entry, remembering what each entry's text gave.

After ``library.bib`` or the sidecar changed outside citekit (``git pull``, a hand edit,
another machine's sync), the next command parses both files again. Loading the whole
sidecar through YAML was most of that (1.6 s CPU of a 7,220-entry library, where parsing
``library.bib`` takes 0.4 s), although a pull usually changes a handful of entries.

citekit writes every entry's record as its own block under ``entries:`` (a line ``  key:``
at two spaces, then deeper lines), so the file is read here block by block. A block of
JSON lines (format 3, :mod:`.json`) is read by the JSON codec. Any other block
is loaded alone through YAML (``entries:`` plus the block) and what it gave is
remembered in ``.citekit/<refs>-sidecar.cache`` under a digest of the block's text: the
next read loads only such blocks whose text is new. The rest of the file (header,
``detached``, ``pending``, ...) is loaded as one document.

A block loaded alone gives what the whole file gives when every block loads as exactly one
record: the blocks are the same YAML at the same indentation, and nothing in one block can
refer to another once each loads alone (an alias to another block's anchor does not load).
Anything else (a comment or list at two spaces, directives, a second ``entries:``, a
block that does not load) and the whole file goes through YAML as before, which also
gives the same error messages for a damaged file.
"""

from __future__ import annotations

import hashlib
import marshal
import re
from contextlib import suppress
from pathlib import Path
from typing import Any

from citekit.core.cachefile import replace_quietly
from citekit.library.lock import state_dir
from citekit.core.lazyre import lazy

FORMAT = 1
_ENTRIES = "entries:\n"
_ENTRIES_LINE = lazy(r"^entries:[ \t]*(?:#.*)?$", re.M)
_BLOCK_START = lazy(r"^(?=  [^ \n])", re.M)
_TOP_LEVEL = lazy(r"^[^ \n]", re.M)
_DOCUMENT_MARKS = lazy(r"^(?:%|---|\.\.\.)", re.M)


# ``\udcXX`` (XX 80-FF) after an even number of backslashes and not after a high
# surrogate's escape (a pair, one character): a byte of a notes file name that was not
# UTF-8, as earlier versions of citekit wrote it (a lone surrogate: no YAML reader accepts
# it, so such a sidecar could not be read back at all)
_UNDECODABLE_NAME_BYTE = lazy(
    r"(?<!\\)(?<!\\u[dD][89abAB][0-9a-fA-F]{2})((?:\\\\)*)\\u[dD][cC]([89a-fA-F][0-9a-fA-F])")


def repaired_names(text: str) -> str:
    """``text`` with the undecodable file-name bytes an earlier citekit wrote as lone
    surrogates (``"notes/L\\udcf6sung.md:2"``) written as citekit writes them now
    (``notes/L%F6sung.md:2``, see :func:`citekit.notes.reader.escape_name`), so such a
    sidecar is read and the next write settles it. Only those escapes change; a text
    without them is returned as it is."""
    if "\\u" not in text:
        return text
    return _UNDECODABLE_NAME_BYTE.sub(lambda m: f"{m.group(1)}%{m.group(2).upper()}", text)


def cache_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-sidecar.cache"


def split(text: str) -> tuple[str, list[str]] | None:
    """(the file without its entry blocks, the entry blocks), or None when the file is not
    laid out as citekit writes it (then only a whole-file load is exact)."""
    if _DOCUMENT_MARKS.search(text):
        return None
    lines = _ENTRIES_LINE.findall(text)
    if len(lines) != 1 or lines[0] != "entries:":
        return None
    at = text.find("\n" + _ENTRIES)
    if at < 0:
        return None
    start = at + 1 + len(_ENTRIES)
    top = _TOP_LEVEL.search(text, start)
    end = top.start() if top else len(text)
    if end == start:
        return None
    blocks = _BLOCK_START.split(text[start:end])
    if blocks[0].strip(" \n"):
        return None  # deeper lines before the first record
    return text[:start] + text[end:], blocks[1:]


def _digest(block: str) -> bytes:
    return hashlib.blake2b(block.encode("utf-8"), digest_size=16).digest()


def _read_known(refs_dir: Path, version: str) -> dict[bytes, bytes]:
    try:
        data = marshal.loads(cache_path(refs_dir).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("yaml") != version:
        return {}
    known = data.get("blocks")
    return known if isinstance(known, dict) else {}


def load(text: str, loader: Any, refs_dir: Path | None) -> Any | None:
    """The sidecar as data, as ``yaml.load(text)`` gives it, or None when it must be loaded
    whole. ``refs_dir``: remember blocks in (and read them from) its cache folder; None
    loads every block and remembers nothing."""
    import yaml

    if "\r" in text and "\r" not in text.replace("\r\n", ""):
        text = text.replace("\r\n", "\n")  # a checkout with CRLF line ends: YAML reads them as LF
    parts = split(text)
    if parts is None:
        return None
    rest_text, blocks = parts
    from citekit.library.store.sidecar.json import read_record
    from citekit.library.store.sidecar.yaml import simple_keys

    reads_plain = simple_keys(loader)[1]
    known: dict[bytes, bytes] | None = None
    kept: dict[bytes, bytes] = {}
    entries: dict[Any, Any] = {}
    try:
        for block in blocks:
            record = read_record(block, reads_plain)
            if record is not None:  # JSON lines: read as fast as a remembered block
                entries[record[0]] = record[1]
                continue
            if known is None:
                known = _read_known(refs_dir, yaml.__version__) if refs_dir is not None else {}
            digest = _digest(block)
            blob = known.get(digest)
            if blob is not None:
                key, meta = marshal.loads(blob)
                kept[digest] = blob
            else:
                one = yaml.load(_ENTRIES + block, Loader=loader)
                if not (isinstance(one, dict) and len(one) == 1 and isinstance(one.get("entries"), dict)
                        and len(one["entries"]) == 1):
                    return None
                ((key, meta),) = one["entries"].items()
                with suppress(ValueError):  # a value marshal cannot hold (a YAML date): not remembered
                    kept[digest] = marshal.dumps((key, meta))
            entries[key] = meta
        rest = yaml.load(rest_text, Loader=loader)
    except (yaml.YAMLError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(rest, dict) or "entries" not in rest or rest["entries"] is not None:
        return None
    rest["entries"] = entries
    if refs_dir is not None and known is None:
        drop(refs_dir)  # every record was JSON lines: no remembered block is of this file
    elif refs_dir is not None and kept.keys() != known.keys():
        replace_quietly(cache_path(refs_dir),
                        marshal.dumps({"format": FORMAT, "yaml": yaml.__version__, "blocks": kept}))
    return rest


def drop(refs_dir: Path) -> None:
    with suppress(FileNotFoundError):
        cache_path(refs_dir).unlink()
