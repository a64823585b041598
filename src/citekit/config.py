"""Where a project lives and what its ``citekit.yaml`` says.

citekit works like git: run it anywhere inside a project and it finds the folder that
holds ``citekit.yaml`` by walking upwards; without one, the current folder is the project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_NAME = "citekit.yaml"
DEFAULT_KEY_FORMULA = "{author}{year}{title}"


class ConfigError(Exception):
    """``citekit.yaml`` cannot be used; the message says what to fix."""


@dataclass
class Config:
    """A project's settings, with paths resolved against the project root."""

    root: Path
    notes_dir: Path
    refs_dir: Path
    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # the citekit.yaml read, if any

    @property
    def key_formula(self) -> str:
        return str((self.data.get("keys") or {}).get("formula") or DEFAULT_KEY_FORMULA)

    @property
    def library_bib(self) -> Path:
        return self.refs_dir / "library.bib"

    @property
    def library_yaml(self) -> Path:
        return self.refs_dir / "library.yaml"

    @property
    def cache_dir(self) -> Path:
        return Path(os.environ.get("CITEKIT_CACHE_DIR") or self.root / ".citekit")


def display_path(path: Path, root: Path | None = None) -> str:
    """``path`` as a user would type it: relative to ``root`` (default: the current folder) when inside it."""
    try:
        return str(Path(path).relative_to(root if root is not None else Path.cwd()))
    except ValueError:
        return str(path)


def find_root(start: Path) -> tuple[Path, Path | None]:
    """The nearest folder at or above ``start`` holding ``citekit.yaml`` (else ``start``)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return folder, candidate
    return start, None


def load_config(start: Path | str | None = None) -> Config:
    """Read the project's configuration, starting the upward search at ``start`` (or cwd).

    The file is checked against :mod:`citekit.config_schema` before anything uses it, so a
    typo or a wrong type stops the command with a message naming the key.
    """
    root, path = find_root(Path(start) if start else Path.cwd())
    data: dict[str, Any] = {}
    if path is not None:
        import yaml

        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML ({exc}). Fix the file or move it away.") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not UTF-8 text. Save it as UTF-8.") from exc
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: expected a mapping of settings at the top level, got {type(loaded).__name__}.")
        _check_schema(path, loaded)
        from .config_schema import without_unset

        data = without_unset(loaded)
    paths = data.get("paths") or {}
    notes_dir = root / str(paths.get("notes") or "notes")
    refs_dir = root / str(paths.get("refs") or "refs")
    return Config(root=root, notes_dir=notes_dir, refs_dir=refs_dir, data=data, path=path)


def _check_schema(path: Path, data: dict[str, Any]) -> None:
    from .config_schema import validate

    problems = validate(data)
    if problems:
        shown = display_path(path)
        lines = "\n".join(f"  {shown}: {p}" for p in problems)
        raise ConfigError(f"{shown} has {len(problems)} setting(s) citekit cannot use:\n{lines}\n"
                          "Fix them (README: Configuration lists every key) and run the command again.")
