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
            raise CitekitError(_missing_target(t, cfg, given=bool(paths)), exit_code=2)
    return targets


def _missing_target(target: Path, cfg: Config, *, given: bool) -> str:
    """What to do about a notes path that is not there. File arguments are read from the
    current folder even with ``-C`` (so a paper's Makefile can name its own files), which
    surprises whoever meant the project's folder: when the path exists there, say so."""
    if not given:
        return f"{target}: no such file or folder. Create it, or set paths.notes in citekit.yaml."
    in_project = cfg.root / target
    if not target.is_absolute() and in_project.exists():
        return (f"{target}: no such file or folder in the current folder. File arguments are read from "
                f"the current folder, not the project's: did you mean {in_project}?")
    return f"{target}: no such file or folder. Check the path (it is read from the current folder)."


def explain(paths: list[str | Path] | None = None, *, start: str | Path | None = None) -> list[Any]:
    """Line-by-line extraction decisions for the given notes (default: the notes folder)."""
    from citekit.notes.explain import explain_paths

    cfg = config_of(start)
    explanations = explain_paths(_notes_targets(cfg, paths), root=cfg.root, follow_out=cfg.follow_out_of_notes)
    _say_pages(explanations, cfg)
    return explanations


def _say_pages(explanations: list[Any], cfg: Any) -> None:
    """Each mention's pages (project, lab or blog pages a sync reads for its paper) with what
    the last sync read of them, from the lookup cache: extraction stays offline, and a page
    that describes no one paper is said here as in the sync report."""
    from citekit.resolve.pipeline import page_urls

    wanted = [(d, page_urls([d.mention], d.mention)) for e in explanations for d in e.decisions if d.mention]
    wanted = [(d, urls) for d, urls in wanted if urls]
    if not wanted:
        return
    from citekit.sources import open_cache
    from citekit.sources.settings import SourceSettings
    from citekit.sources.web import PageFacts

    settings = SourceSettings.from_env(cfg.data, cfg.root)
    cache = open_cache(settings) if settings.cache_path and settings.cache_path.exists() else None
    try:
        for decision, urls in wanted:
            for url in urls:
                hit = cache.get("web", "page", {"url": url}) if cache is not None else None
                if hit is None or not hit.found:
                    decision.pages.append(f"{url}: not read yet; an online sync reads it (one request)")
                    continue
                facts = PageFacts.from_json(hit.payload)
                said = (f"{url} describes '{facts.title or 'a paper'}' ({', '.join(facts.read_from) or 'its links'})"
                        if facts.status == "paper" else facts.outcome())
                decision.pages.append(f"{said}; read by the last sync")
    finally:
        if cache is not None:
            cache.close()


def render_explanations(explanations: list[Any]) -> list[str]:
    """The text lines of ``extract --explain``."""
    from citekit.notes.explain import render

    return list(render(explanations))


def count_works(mentions: list[Any]) -> int:
    """How many works the mentions name (mentions of one paper grouped)."""
    from citekit.resolve.grouping import group_mentions

    return len(group_mentions(mentions))
