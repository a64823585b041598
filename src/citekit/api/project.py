"""One answer to "where does everything live": the :class:`Project` every command starts from.

The project folder is the one holding ``citekit.yaml`` (searched upwards, like git);
``citekit.yaml`` names the notes and ``refs/`` folders; :mod:`citekit.core.paths` says
where ``.citekit/`` is. A command builds one :class:`Project` and hands it around instead
of each layer working these out again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citekit.core import paths
from citekit.core.config import Config
from citekit.core.config import load_config as _read_config
from citekit.core.errors import CitekitError


@dataclass(frozen=True)
class Project:
    """A project's folders and its checked configuration."""

    config: Config

    @property
    def root(self) -> Path:
        return self.config.root

    @property
    def notes(self) -> Path:
        return self.config.notes_dir

    @property
    def refs(self) -> Path:
        return self.config.refs_dir

    @property
    def state(self) -> Path:
        """The ``.citekit/`` folder: the lock and the library's caches."""
        return paths.state_dir(self.config.refs_dir)

    @property
    def cache(self) -> Path:
        """The services' answers and the parsed ``citekit.yaml`` (``CITEKIT_CACHE_DIR`` moves them)."""
        return self.config.cache_dir

    def shown(self, path: Path) -> str:
        """``path`` relative to the project folder when inside it (as messages name files)."""
        try:
            return str(Path(path).resolve().relative_to(self.root))
        except ValueError:
            return str(path)


def load_config(start: str | Path | None = None) -> Config:
    """The checked ``citekit.yaml`` of the project containing ``start``: the one place the
    API reads it, so what checking it needs from the layers above the core is added here:
    the sources' names from their registry (the core reads the file but cannot know which
    sources exist)."""
    from citekit.sources.registry import config_keys

    return _read_config(start, source_keys=config_keys())


def open_project(start: str | Path | Project | None = None) -> Project:
    """The project containing ``start`` (default: the current folder); a :class:`Project`
    is returned as it is, so a caller that opened it once hands it on."""
    return start if isinstance(start, Project) else Project(load_config(start))


def config_of(start: str | Path | Project | None = None) -> Config:
    """The configuration of :func:`open_project`'s project, without reading it twice."""
    return start.config if isinstance(start, Project) else load_config(start)


def project(start: str | Path | None = None) -> Config:
    """The configuration of the project containing ``start`` (default: cwd)."""
    return load_config(start)


def precedence(cfg: Config) -> list[str] | None:
    """``resolve: precedence:`` from citekit.yaml: which version to cite, for merges too."""
    value = (cfg.data.get("resolve") or {}).get("precedence")
    return list(value) if value else None


def configured_ascii_conflict(start: str | Path | None, ascii_mode: bool | None) -> str | None:
    """The warning for ``sync --ascii``/``--utf8`` against ``bibtex.ascii`` in citekit.yaml.

    The flag is remembered in the library, but citekit.yaml's ``bibtex.ascii`` wins on
    later syncs: say so when they disagree, so the choice is not silently undone.
    """
    if ascii_mode is None:
        return None
    from citekit.core.config import display_path

    cfg = load_config(start)
    configured = (cfg.data.get("bibtex") or {}).get("ascii")
    if configured is not None and bool(configured) != ascii_mode and cfg.path is not None:
        return (f"{display_path(cfg.path)} sets bibtex.ascii: {str(configured).lower()}, so the next "
                f"sync goes back to {'LaTeX escapes' if configured else 'UTF-8'}; set "
                f"bibtex.ascii: {str(ascii_mode).lower()} there (or delete the line) to keep "
                f"{'--ascii' if ascii_mode else '--utf8'}")
    return None


def one_command() -> Any:
    """The scope of one command-line command (see :func:`citekit.bibtex.collector.one_command`):
    garbage collection paused by a command is handed back when it ends."""
    from citekit.bibtex.collector import one_command as scope

    return scope()


class ConfigExists(CitekitError):
    """``init`` where a ``citekit.yaml`` is already: it is never replaced."""

    exit_code = 2
    NEXT_STEP = "Edit it instead (README: Configuration)."


def init_project(folder: str | Path, *, mailto: str | None = None) -> Project:
    """Start a project in ``folder``: ``citekit.yaml`` from the template, ``notes/`` and ``refs/``,
    and ``.citekit/`` (this clone's caches and lock) in its ``.gitignore``, so a first commit
    of the project does not take them.

    An existing ``citekit.yaml`` is never replaced (:class:`ConfigExists`), not even one
    written meanwhile by another process.
    """
    import json
    from importlib.resources import files

    root = Path(folder)
    config = root / "citekit.yaml"
    if config.exists():
        raise ConfigExists(f"{config} exists already; edit it instead (README: Configuration).")
    template = files("citekit").joinpath("data/citekit.template.yaml").read_text(encoding="utf-8")
    if mailto:
        template = template.replace("mailto: null", f"mailto: {json.dumps(mailto)}")
    root.mkdir(parents=True, exist_ok=True)
    (root / "notes").mkdir(exist_ok=True)
    (root / "refs").mkdir(exist_ok=True)
    with open(config, "x", encoding="utf-8") as handle:  # "x": never replace one written meanwhile
        handle.write(template)
    from citekit.library.gitmerge import ignore_own_state

    ignore_own_state(root)
    return Project(Config(root=root, notes_dir=root / "notes", refs_dir=root / "refs", path=config))
