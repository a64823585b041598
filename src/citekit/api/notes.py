"""Commands on the notes alone: ``extract`` (the mentions) and ``extract --explain``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.api.project import config_of
from citekit.core.config import Config
from citekit.core.errors import CitekitError

if TYPE_CHECKING:
    from citekit.notes import ExtractResult
    from citekit.notes.stream import MentionStream


def extract(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> ExtractResult:
    """Paper mentions in the given notes files/folders (default: the project's notes folder)."""
    from citekit.notes import extract_paths

    cfg = config_of(start)
    return extract_paths(_notes_targets(cfg, paths), root=cfg.root, follow_out=cfg.follow_out_of_notes)


def extract_stream(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> MentionStream:
    """:func:`extract`'s mentions one at a time, found as they are asked for, and then its
    problems (``.problems``, complete once the iteration is over): for output written as
    it is made, so a big notes file's mentions are never all held at once."""
    from citekit.notes.stream import MentionStream

    cfg = config_of(start)
    return MentionStream(_notes_targets(cfg, paths), cfg.root, follow_out=cfg.follow_out_of_notes)


def _notes_targets(cfg: Config, paths: list[str | Path] | None) -> list[Path]:
    """The files/folders to read (default: the notes folder); a missing one is a usage error."""
    targets = [Path(p) for p in paths] if paths else [cfg.notes_dir]
    for t in targets:
        if not t.exists():
            raise CitekitError(f"{t}: no such file or folder. Create it, or set paths.notes in citekit.yaml.", exit_code=2)
    return targets


def explain(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> list[Any]:
    """Line-by-line extraction decisions for the given notes (default: the notes folder)."""
    from citekit.notes.explain import explain_paths

    cfg = config_of(start)
    return explain_paths(_notes_targets(cfg, paths), root=cfg.root, follow_out=cfg.follow_out_of_notes)


def render_explanations(explanations: list[Any]) -> list[str]:
    """The text lines of ``extract --explain``."""
    from citekit.notes.explain import render

    return list(render(explanations))


def count_works(mentions: list[Any]) -> int:
    """How many works the mentions name (mentions of one paper grouped)."""
    from citekit.notes import group_mentions

    return len(group_mentions(mentions))
