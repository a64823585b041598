"""The whole sidecar file, read and written.

Read refusing one missing, cut short, damaged or from another write than library.bib;
written as header, head, the entries' blocks, tail and end line."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from citekit.core.config import display_path
from citekit.library.errors import LibraryError
from citekit.library.store.files import SplitPair
from citekit.library.store.header import stated_checksum, written_by_citekit
from citekit.library.store.sidecar.format import MARKED, SIDECAR_END, SIDECAR_HEAD, SIDECAR_VERSION, yaml_codec


def parse(data: bytes | None, bib_text: str | None, sidecar_path: Path, bib_path: Path, *,
          remember: Path | None = None) -> dict[str, Any]:
    """The sidecar as data, refusing one that is missing, cut short or from another write
    (``remember``: the refs folder whose cache keeps what each record's text gave)."""
    name = display_path(sidecar_path)
    restore = (f"Restore it from version control (e.g. `git checkout -- {name}`), or run "
               "`citekit doctor --rebuild-sidecar` to rebuild it from library.bib (keys kept; what "
               "library.bib cannot say, such as status and notes' mentions, becomes 'unknown')")
    if data is None:
        if written_by_citekit(bib_text):
            raise LibraryError(f"{name} is missing but {display_path(bib_path)} was written by citekit, "
                               f"so its tags, status and identifiers would be lost. {restore}.")
        return {}
    yaml, loader, _dumper = yaml_codec()
    try:
        from citekit.library.store.sidecar import read as sidecar_read

        text = sidecar_read.repaired_names(data.decode("utf-8"))

        loaded = sidecar_read.load(text, loader, remember)
        if loaded is None:  # not laid out as citekit writes it: the whole file at once
            loaded = yaml.load(text, Loader=loader)
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError, ValueError) as exc:  # ValueError: an int too long
        raise LibraryError(f"{name} is damaged ({exc}). {restore}; citekit will not overwrite it.") from exc
    if MARKED in text[:400] and not text.rstrip().endswith(SIDECAR_END.strip()):
        raise LibraryError(f"{name} is cut short (its last line is missing). {restore}.")
    _check_sidecar(loaded, name, restore)
    recorded = loaded.get("bib_checksum")
    stated = stated_checksum(bib_text) if bib_text is not None else None
    if recorded and stated and recorded != stated:
        raise SplitPair(
            f"{display_path(bib_path)} and {name} are not from the same write (checksum {stated} "
            f"vs {recorded}): one was restored or copied without the other. Restore both from the same "
            "version (e.g. `git checkout -- refs/`), or run `citekit doctor` to see what differs")
    return loaded


def _check_sidecar(loaded: Any, name: str, restore: str) -> None:
    """Refuse a sidecar whose shape or types are not citekit's (see :mod:`.schema`):
    a wrong value is named with its entry and part instead of being reinterpreted."""
    from citekit.library.store.sidecar.schema import document_problem

    problem = document_problem(loaded)
    if problem is not None:
        raise LibraryError(f"{name} is damaged: {problem.message()}. Correct that part by hand, or "
                           f"{restore[0].lower()}{restore[1:]}; citekit will not overwrite it.")


def render(entry_parts: list[str], bib_checksum: str | None, *, implied: Collection[str],
           issued_keys: Collection[str], detached: Mapping[str, Any], pending: list[dict[str, Any]],
           ascii: bool) -> str:
    """The sidecar's text around the entries' blocks (``entry_parts``, in key order).
    ``implied``: the keys an entry, alias or detached record gives, which ``issued_keys``
    need not list."""
    above, below = render_frame(bib_checksum, implied=implied, issued_keys=issued_keys, detached=detached,
                                pending=pending, ascii=ascii, empty=not entry_parts)
    # one blank line between records: entries added on two git branches are separate hunks
    return above + "\n".join(entry_parts) + below


def render_frame(bib_checksum: str | None, *, implied: Collection[str], issued_keys: Collection[str],
                 detached: Mapping[str, Any], pending: list[dict[str, Any]], ascii: bool,
                 empty: bool = False) -> tuple[str, str]:
    """The sidecar's text above the entries' blocks and below them (see :func:`render`;
    the blocks go between, one line end apart): what a spliced write renders anew."""
    from citekit.library.store.sidecar.yaml import dump as dump_with

    dumper = yaml_codec()[2]

    def dump(data: dict[str, Any]) -> str:
        return dump_with(data, dumper)

    extra_keys = sorted((k for k in issued_keys if k not in implied), key=str.lower)
    head: dict[str, Any] = {"version": SIDECAR_VERSION}
    if ascii:
        head["ascii"] = True
    if bib_checksum:
        head["bib_checksum"] = bib_checksum
    if detached:
        head["detached"] = {k: detached[k] for k in sorted(detached, key=str.lower)}
    tail: dict[str, Any] = {}
    if extra_keys:
        tail["issued_keys"] = extra_keys
    if pending:
        tail["pending"] = pending
    above = SIDECAR_HEAD + dump(head) + ("entries: {}\n" if empty else "entries:\n")
    return above, (dump(tail) if tail else "") + SIDECAR_END
