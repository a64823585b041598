"""Where a project lives and what its ``citekit.yaml`` says.

citekit works like git: run it anywhere inside a project and it finds the folder that
holds ``citekit.yaml`` by walking upwards; without one, the current folder is the project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cachefile import replace_quietly, stat_key

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
        raw = path.read_bytes()
        memo = _ParsedConfig(root, raw)
        cached = memo.read()
        data = cached if cached is not None else _parse_config(path, raw)
        if cached is None:
            memo.write(data)
    paths = data.get("paths") or {}
    notes_dir = root / str(paths.get("notes") or "notes")
    refs_dir = root / str(paths.get("refs") or "refs")
    return Config(root=root, notes_dir=notes_dir, refs_dir=refs_dir, data=data, path=path)


def _parse_config(path: Path, raw: bytes) -> dict[str, Any]:
    import yaml

    try:
        loaded = yaml.safe_load(raw.decode("utf-8"))
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

    return without_unset(loaded)


class _ParsedConfig:
    """A checked ``citekit.yaml``, kept in the project's cache folder by the file's bytes.

    Importing PyYAML and checking the schema cost a quarter of a daily read-only command
    on a large library; the stored result is used only for exactly the same bytes read by
    the same citekit, and anything unreadable is parsed again. Only plain data that
    :mod:`marshal` can hold is stored, so a configuration that is not is never cached.
    """

    def __init__(self, root: Path, raw: bytes) -> None:
        from . import __version__

        self.path = Path(os.environ.get("CITEKIT_CACHE_DIR") or root / ".citekit") / "config.cache"
        here = Path(__file__).parent
        code = tuple(stat_key(here / name) for name in ("config.py", "config_schema.py"))
        # the file's bytes themselves (a few KB), not their hash: no hashlib at start-up
        self.key = (__version__, code, raw)

    def read(self) -> dict[str, Any] | None:
        import marshal

        try:
            stored = marshal.loads(self.path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            return None
        if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == self.key and isinstance(stored[1], dict):
            return stored[1]
        return None

    def write(self, data: dict[str, Any]) -> None:
        import marshal

        try:
            blob = marshal.dumps((self.key, data))
        except ValueError:  # not plain data: parse it every time
            return
        replace_quietly(self.path, blob, make_folder=False)  # only where a command made .citekit/ already


def _check_schema(path: Path, data: dict[str, Any]) -> None:
    from .config_schema import validate

    problems = validate(data)
    if problems:
        shown = display_path(path)
        lines = "\n".join(f"  {shown}: {p}" for p in problems)
        raise ConfigError(f"{shown} has {len(problems)} setting(s) citekit cannot use:\n{lines}\n"
                          "Fix them (README: Configuration lists every key) and run the command again.")
