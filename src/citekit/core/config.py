"""Where a project lives and what its ``citekit.yaml`` says.

citekit works like git: run it anywhere inside a project and it finds the folder that
holds ``citekit.yaml`` by walking upwards; without one, the current folder is the project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.core.cachefile import replace_quietly, stat_key
from citekit.core.errors import CitekitError
from citekit.core.paths import cache_dir as _cache_dir

CONFIG_NAME = "citekit.yaml"
DEFAULT_KEY_FORMULA = "{author}{year}{title}"


class ConfigError(CitekitError):
    """``citekit.yaml`` cannot be used; the message says what to fix."""

    exit_code = 2
    NEXT_STEP = "Fix citekit.yaml as the message says (README: Configuration), then run the command again."


@dataclass
class Config:
    """A project's settings, with paths resolved against the project root."""

    root: Path
    notes_dir: Path
    refs_dir: Path
    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # the citekit.yaml read, if any

    @property
    def follow_out_of_notes(self) -> bool:
        """``paths.follow_symlinks_out_of_notes``: notes files linked from outside the notes
        folder are read (see :mod:`citekit.notes.reader`)."""
        return (self.data.get("paths") or {}).get("follow_symlinks_out_of_notes") is True

    @property
    def inbox(self) -> Path:
        """``paths.inbox``: the notes file ``citekit add`` appends to (relative to the notes
        folder; default ``inbox.md``), so an added paper is written in the notes like any other."""
        return self.notes_dir / str((self.data.get("paths") or {}).get("inbox") or "inbox.md")

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
        """The shareable caches' folder (:func:`citekit.core.paths.cache_dir`)."""
        return _cache_dir(self.root, configured=(self.data.get("sources") or {}).get("cache_dir"))


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


#: the names ``citekit.yaml``'s ``sources:`` section may use: the source names (for
#: ``sources.enabled``) and the host names (each a ``sources.<host>`` section)
SourceKeys = tuple[tuple[str, ...], tuple[str, ...]]


def load_config(start: Path | str | None = None, *, source_keys: SourceKeys | None = None) -> Config:
    """Read the project's configuration, starting the upward search at ``start`` (or cwd).

    The file is checked against :mod:`citekit.core.config_schema` before anything uses it, so a
    typo or a wrong type stops the command with a message naming the key. The names under
    ``sources:`` belong to a layer above this one: ``source_keys`` (what
    :func:`citekit.sources.registry.config_keys` says, passed by :mod:`citekit.api`) checks
    them too; without it only their shape is checked.
    """
    root, path = find_root(Path(start) if start else Path.cwd())
    data: dict[str, Any] = {}
    if path is not None:
        raw = path.read_bytes()
        memo = _ParsedConfig(root, raw, source_keys)
        cached = memo.read()
        data = cached if cached is not None else _parse_config(path, raw, source_keys)
        if cached is None:
            memo.write(data)
    paths = data.get("paths") or {}
    outside = set(paths.get("outside_project") or ())
    notes_dir = _inside_project(root, path, "paths.notes", str(paths.get("notes") or "notes"), "notes" in outside)
    refs_dir = _inside_project(root, path, "paths.refs", str(paths.get("refs") or "refs"), "refs" in outside)
    _refs_in_a_folder_of_its_own(root, path, refs_dir)
    cache_dir = (data.get("sources") or {}).get("cache_dir")
    if cache_dir and not os.environ.get("CITEKIT_CACHE_DIR"):  # the variable is the user's own: it wins unchecked
        _inside_project(root, path, "sources.cache_dir", os.path.expanduser(str(cache_dir)), "cache_dir" in outside)
    return Config(root=root, notes_dir=notes_dir, refs_dir=refs_dir, data=data, path=path)


def _inside_project(root: Path, config: Path | None, key: str, value: str, allowed: bool) -> Path:
    """``root / value``, refused when it leads outside the project (by ``..``, an absolute
    path or a link) unless ``paths.outside_project`` names it: ``citekit.yaml`` travels with
    the repository, so the folders it names are data, not orders."""
    folder = root / value
    if allowed:
        return folder
    try:
        inside = folder.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL in the name
        inside = False
    if not inside:
        shown = display_path(config) if config is not None else f"{CONFIG_NAME} (none yet, in {root})"
        name = key.rsplit(".", 1)[1]
        raise ConfigError(f"{shown}: {key} is '{value}', which leads outside the project ({root}). citekit "
                          f"reads and writes only inside it unless you say otherwise: if this is what you "
                          f"mean, add `outside_project: [{name}]` under `paths:`; else point {key} at a folder "
                          "inside the project.")
    return folder


def _refs_in_a_folder_of_its_own(root: Path, config: Path | None, refs_dir: Path) -> None:
    """The project folder itself cannot be ``refs/``: citekit keeps its state (lock, caches)
    beside ``refs/``, which would then be outside the project, and treats files in ``refs/``
    named like its temporaries as its own."""
    try:
        same = refs_dir.resolve() == root.resolve()
    except (OSError, RuntimeError, ValueError):
        same = False
    if same:
        shown = display_path(config) if config is not None else CONFIG_NAME
        raise ConfigError(f"{shown}: paths.refs names the project folder itself; citekit needs a folder of its "
                          "own for library.bib and library.yaml: point paths.refs at one (the default is refs).")


def _parse_config(path: Path, raw: bytes, source_keys: SourceKeys | None) -> dict[str, Any]:
    import yaml

    try:
        loaded = yaml.safe_load(raw.decode("utf-8"))
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be settings (lists or mappings inside each other "
                          "hundreds of levels deep). Fix the file or move it away.") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc}). Fix the file or move it away.") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text. Save it as UTF-8.") from exc
    if loaded is None:
        loaded = {}
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level, got {type(loaded).__name__}.")
    if _depth(loaded) > _MAX_DEPTH:
        raise ConfigError(f"{path}: nested more than {_MAX_DEPTH} levels deep (or over {_MAX_VALUES:,} values), "
                          "far more than any setting needs. Fix the file or move it away.")
    from citekit.core.config_schema import schema, without_unset

    table = schema(*source_keys) if source_keys is not None else schema()
    _check_schema(path, loaded, table)
    return without_unset(loaded, table)


#: no setting nests deeper than a few levels; deeper data would only reach the checks' recursion
_MAX_DEPTH = 32


#: values a configuration may hold in all; YAML aliases can repeat one list a billion times
_MAX_VALUES = 1_000_000


def _depth(data: Any) -> int:
    """How deeply lists and mappings nest in ``data``, counted without recursion (a
    configuration of more than :data:`_MAX_VALUES` values counts as too deep)."""
    deepest, stack, seen = 0, [(data, 1)], 0
    while stack:
        value, level = stack.pop()
        seen += 1
        if seen > _MAX_VALUES:
            return _MAX_DEPTH + 1
        if isinstance(value, (dict, list)):
            deepest = max(deepest, level)
            if level > _MAX_DEPTH:
                return level
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, level + 1) for child in children)
    return deepest


class _ParsedConfig:
    """A checked ``citekit.yaml``, kept in the project's cache folder by the file's bytes.

    Importing PyYAML and checking the schema cost a quarter of a daily read-only command
    on a large library; the stored result is used only for exactly the same bytes read by
    the same citekit, and anything unreadable is parsed again. Only plain data that
    :mod:`marshal` can hold is stored, so a configuration that is not is never cached.
    """

    def __init__(self, root: Path, raw: bytes, source_keys: SourceKeys | None) -> None:
        from citekit import __version__

        self.path = _cache_dir(root) / "config.cache"  # sources.cache_dir is in the file not yet read
        here = Path(__file__).parent
        code = tuple(stat_key(here / name) for name in ("config.py", "config_schema.py"))
        # the file's bytes themselves (a few KB), not their hash: no hashlib at start-up
        self.key = (__version__, code, source_keys, raw)

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


def _check_schema(path: Path, data: dict[str, Any], table: Any) -> None:
    from citekit.core.config_schema import validate

    problems = validate(data, table)
    if problems:
        shown = display_path(path)
        lines = "\n".join(f"  {shown}: {p}" for p in problems)
        raise ConfigError(f"{shown} has {len(problems)} setting(s) citekit cannot use:\n{lines}\n"
                          "Fix them (README: Configuration lists every key) and run the command again.")
