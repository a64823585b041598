"""Key maps, and rewriting ``\\cite`` keys in LaTeX sources after a merge.

When two entries become one, the paper repositories that cite the old key keep working
through biblatex's ``ids`` field, but BibTeX users (and tidy people) want their sources
to say the surviving key. The key map (``refs/keymap.yaml``: old → new) records every
rename; :func:`rewrite_citations` applies it inside cite commands and nowhere else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from dataclasses import dataclass, field
from pathlib import Path

from citekit.core.errors import CitekitError
from citekit.core.texscan import group_end, skip_space
from citekit.library.journal import Transaction
from citekit.library.store import atomic_write
from citekit.core.lazyre import lazy

KEYMAP_HEADER = (
    "# citekit key map: old citation key -> the key its entry has now (merged into another, or renamed).\n"
    "# Apply to a paper with: citekit rekey paper.tex --map refs/keymap.yaml\n"
)

#: natbib (\citet, \citep*, \citealp, \Citeauthor, \citetalias ...), biblatex (\parencite,
#: \textcite, \autocite, \footcite, \smartcite, \supercite, \fullcite, \citetitle ...) and
#: their multi-cite forms (\cites, \parencites, \textcites ...), plus \nocite.
_CITE_CMD = lazy(r"\\([A-Za-z]*[Cc]ite[A-Za-z]*|nocite)\*?(?![A-Za-z])")


class KeyMapError(CitekitError):
    """A key map file cannot be used; the message says how to fix it."""

    exit_code = 2
    NEXT_STEP = "Fix or delete the key map (lines 'old-key: new-key'), then run the command again."


def read_key_map(path: Path) -> dict[str, str]:
    """old → new from a key map file (missing file: empty map).

    A key map travels with the repository, so a link in its place is followed only while
    it stays in the key map's own folder: a link out of it would have citekit read (and
    quote in its messages) a file the project does not hold.
    """
    path = Path(path)
    if not path.exists():
        if path.is_symlink():
            raise KeyMapError(f"{path}: a link to nothing ({os.readlink(path)}); delete it or restore the key map")
        return {}
    _check_inside_folder(path)
    import yaml  # here, not at the top: an import with no renames never reads YAML

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise KeyMapError(f"{path}: not a readable key map ({exc}); fix or delete it and run dedup --apply again") from exc
    except RecursionError:
        raise KeyMapError(f"{path}: nested too deeply to be a key map; expected lines of the form "
                          "'old-key: new-key'") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise KeyMapError(f"{path}: cannot be read ({exc.strerror}); it should be a file of lines "
                          "'old-key: new-key'") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise KeyMapError(f"{path}: expected lines of the form 'old-key: new-key'")
    return dict(data)


def _check_inside_folder(path: Path) -> None:
    """Refuse a key map that is a link leading out of the folder that holds it."""
    if not path.is_symlink():
        return
    try:
        inside = path.resolve().is_relative_to(path.parent.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise KeyMapError(f"{path}: a link to {os.readlink(path)}, outside {path.parent}; citekit reads key maps "
                          f"only inside their folder. Replace the link with the key map itself, or delete it.")


def compose_key_maps(old: Mapping[str, str], new: Mapping[str, str]) -> dict[str, str]:
    """Add ``new`` renames to ``old`` so every key ever used points at today's key.

    If ``a → b`` was recorded before and ``b → c`` now, ``a`` must map to ``c``: a paper
    written before both merges must still be rewritable in one pass.
    """
    merged = {k: new.get(v, v) for k, v in old.items()}
    merged.update(new)
    return {k: v for k, v in merged.items() if k != v}


def extend_key_map(old: Mapping[str, str], new: Mapping[str, str]) -> dict[str, str]:
    """An import's renames added to the earlier imports' (``refs/import-keymap.yaml``).

    Unlike :func:`compose_key_maps` the renames are not chained: the left side is a key of
    an imported *file* and the right side a library key, which never changes. A second
    file that reuses a key of the first one maps it afresh (the newest import wins), but
    no earlier rename is lost.
    """
    merged = dict(old)
    merged.update(new)
    return {k: v for k, v in merged.items() if k != v}


def write_key_map(path: Path, mapping: Mapping[str, str], txn: Transaction | None = None) -> None:
    """Write the map sorted by old key, so it diffs cleanly under version control.

    With ``txn`` it is switched in together with the library that the renames belong to.
    """
    import yaml

    body = yaml.safe_dump(dict(sorted(mapping.items(), key=lambda kv: kv[0].lower())),
                          allow_unicode=True, sort_keys=False, default_flow_style=False)
    text = KEYMAP_HEADER + (body if mapping else "{}\n")
    if txn is not None:
        txn.stage(Path(path), text)
    else:
        atomic_write(Path(path), text)


# ---- rewriting LaTeX sources -------------------------------------------------------------

@dataclass
class Change:
    """One rewritten key, located for the summary."""

    line: int
    old: str
    new: str
    before: str  # the source line before
    after: str  # and after


@dataclass
class RekeyResult:
    text: str
    changes: list[Change] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.changes)


def _key_groups(text: str, i: int, multicite: bool) -> tuple[list[tuple[int, int]], int]:
    """Spans of the ``{keys}`` arguments after a cite command ending at ``i``.

    Optional ``[pre][post]`` arguments are skipped, and the multi-cite forms take
    ``(pre)(post)`` and then several ``[..]{keys}`` groups.
    """
    spans: list[tuple[int, int]] = []
    j = skip_space(text, i)
    if multicite:
        while j < len(text) and text[j] == "(":
            end = group_end(text, j, "(", ")")
            if end is None:
                return spans, j
            j = skip_space(text, end)
    while True:
        k = j
        while k < len(text) and text[k] == "[":
            end = group_end(text, k, "[", "]")
            if end is None:
                return spans, j
            k = skip_space(text, end)
        if k >= len(text) or text[k] != "{":
            return spans, j
        end = group_end(text, k, "{", "}")
        if end is None:
            return spans, j
        spans.append((k + 1, end - 1))
        j = end
        if not multicite:
            return spans, j
        j2 = skip_space(text, j)
        if j2 >= len(text) or text[j2] not in "[{":
            return spans, j
        j = j2


def _comment_start(line: str) -> int:
    """Where a LaTeX comment starts on this line (len(line) if none)."""
    m = re.search(r"(?<!\\)%", line)
    return m.start() if m else len(line)


def rewrite_citations(text: str, key_map: Mapping[str, str]) -> RekeyResult:
    """``text`` with every mapped key inside cite commands replaced; nothing else touched.

    Comments are left alone (they are not citations), and so is whitespace around the
    keys, so the diff of a paper shows exactly the renamed keys.
    """
    edits: list[tuple[int, int, str, str]] = []  # (start, end, old, new)
    comment_free = _mask_comments(text)
    for m in _CITE_CMD.finditer(comment_free):
        name = m.group(1)
        multicite = name.lower().endswith("cites")
        spans, _ = _key_groups(comment_free, m.end(), multicite)
        for start, end in spans:
            edits.extend(_group_edits(text, start, end, key_map))
    if not edits:
        return RekeyResult(text=text)
    out: list[str] = []
    last = 0
    for start, end, _old, new in edits:
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    new_text = "".join(out)
    return RekeyResult(text=new_text, changes=_changes(text, new_text, edits))


def _group_edits(text: str, start: int, end: int, key_map: Mapping[str, str]) -> list[tuple[int, int, str, str]]:
    """Edits for one ``{k1, k2}`` group: mapped keys renamed, duplicates they create dropped.

    ``\\citealp{t5, raffel2019exploring}`` with ``raffel2019exploring -> t5`` must become
    ``\\citealp{t5}``, not ``{t5, t5}`` (natbib then prints the work twice). The first
    occurrence stays; a later one goes with the comma before it, so the separators of the
    remaining keys are untouched. Duplicates the author wrote without any mapped key are
    left alone: they are not this command's business.
    """
    edits: list[tuple[int, int, str, str]] = []
    seen: dict[str, bool] = {}  # key after mapping -> whether a mapped key produced it
    pos = start
    for part in text[start:end].split(","):
        key = part.strip()
        new = key_map.get(key, key) if key else key
        mapped = new != key
        k_start = pos + (len(part) - len(part.lstrip()))
        if key and new in seen and (mapped or seen[new]) and pos > start:
            edits.append((pos - 1, pos + len(part), key, ""))  # the comma before it and the key
        elif mapped:
            edits.append((k_start, k_start + len(key), key, new))
        if key:
            seen[new] = seen.get(new, False) or mapped
        pos += len(part) + 1
    return edits


_LINE_END = lazy(r"\r\n|\r|\n")


def _mask_comments(text: str) -> str:
    """The text with comments blanked out (same length, so offsets still match).

    Lines end at LF, CRLF or a lone CR, whichever the file uses.
    """
    pieces = _LINE_END.split(text)
    ends = _LINE_END.findall(text) + [""]
    masked = []
    for line, line_end in zip(pieces, ends):
        cut = _comment_start(line)
        masked.append(line[:cut] + " " * (len(line) - cut) + line_end)
    return "".join(masked)


def _changes(old_text: str, new_text: str, edits: list[tuple[int, int, str, str]]) -> list[Change]:
    pieces = _LINE_END.split(old_text)
    ends = _LINE_END.findall(old_text) + [""]
    old_lines = pieces
    line_starts = [0]
    for line, line_end in zip(pieces, ends):
        line_starts.append(line_starts[-1] + len(line) + len(line_end))
    delta_by_line: dict[int, list[tuple[int, int, str, str]]] = {}
    for edit in edits:
        line_no = _line_index(line_starts, edit[0])
        delta_by_line.setdefault(line_no, []).append(edit)
    changes = []
    for line_no, line_edits in sorted(delta_by_line.items()):
        before = old_lines[line_no]
        after = before
        for start, end, old, new in sorted(line_edits, reverse=True):
            s = start - line_starts[line_no]
            after = after[:s] + new + after[s + (end - start):]
        for _start, _end, old, new in line_edits:
            changes.append(Change(line=line_no + 1, old=old, new=new, before=before, after=after))
    return changes


def _line_index(line_starts: list[int], offset: int) -> int:
    lo, hi = 0, len(line_starts) - 1
    while lo < hi - 1:
        mid = (lo + hi) // 2
        if line_starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return lo


def _decode(data: bytes) -> tuple[str, str]:
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def rekey_file(path: Path, key_map: Mapping[str, str], *, dry_run: bool = False,
               txn: Transaction | None = None) -> RekeyResult:
    """Rewrite one .tex file in place (atomically), keeping its encoding and every line end.

    The text is never newline-translated: a file with one CRLF line among LF lines (or
    CR-only lines) comes back with exactly those line ends, so its diff shows only keys.
    With ``txn`` the new text joins a transaction (several files switched in together).
    """
    path = Path(path)
    raw = path.read_bytes()
    text, encoding = _decode(raw)
    result = rewrite_citations(text, key_map)
    if result.changed and not dry_run:
        if txn is not None:
            txn.stage(path, result.text.encode(encoding))
        else:
            _write_same_encoding(path, result.text, encoding)
    return result


def _write_same_encoding(path: Path, text: str, encoding: str) -> None:
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode(encoding))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def format_changes(name: str, result: RekeyResult) -> list[str]:
    """A diff-like summary: ``-``/``+`` lines per changed source line."""
    lines: list[str] = []
    seen: set[int] = set()
    for change in result.changes:
        if change.line in seen:
            continue
        seen.add(change.line)
        lines.append(f"{name}:{change.line}")
        lines.append(f"- {change.before.strip()}")
        lines.append(f"+ {change.after.strip()}")
    return lines


def save_with_renames(lib: Any, txn: Transaction | None = None) -> bool:
    """Save ``lib``; keys renamed by hand in library.bib since the last write go to the key
    map ``refs/keymap.yaml`` in the same transaction, as ``citekit rename`` writes them, so
    ``citekit rekey --map refs/keymap.yaml`` rewrites papers that cite the old keys.

    Returns whether anything changed on disk. With ``txn`` the caller commits.
    """
    renames = dict(lib.renamed_by_hand)
    if not renames:
        return bool(lib.save(txn))
    own = txn is None
    txn = txn or Transaction(lib.refs_dir)
    keymap = Path(lib.refs_dir) / "keymap.yaml"
    lib.renamed_by_hand = {}  # before the save: the parsed-library cache stores the state written
    try:
        lib.save(txn)
        write_key_map(keymap, compose_key_maps(read_key_map(keymap), renames), txn)
        if own:
            txn.commit()
    except BaseException:
        lib.renamed_by_hand = renames
        raise
    return True
