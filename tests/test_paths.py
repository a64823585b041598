"""One rule for where citekit keeps its own files (``citekit.core.paths``), and the project
object the API hands around."""

from __future__ import annotations

from pathlib import Path

from citekit import api
from citekit.core import paths
from citekit.library.lock import lock_path, state_dir
from citekit.sources.settings import SourceSettings


def test_the_state_folder_is_beside_refs(tmp_path: Path) -> None:
    assert paths.state_dir(tmp_path / "refs") == tmp_path / ".citekit"
    assert paths.state_dir(tmp_path / "sub" / "refs") == tmp_path / "sub" / ".citekit"
    assert state_dir(tmp_path / "refs") == paths.state_dir(tmp_path / "refs")
    assert lock_path(tmp_path / "refs") == tmp_path / ".citekit" / "refs.lock"


def test_the_caches_follow_the_variable_then_the_config_then_the_project(tmp_path: Path) -> None:
    assert paths.cache_dir(tmp_path, env={}) == tmp_path / ".citekit"
    assert paths.cache_dir(tmp_path, env={}, configured="cache") == tmp_path / "cache"
    assert paths.cache_dir(tmp_path, env={"CITEKIT_CACHE_DIR": "/elsewhere"}, configured="cache") == Path("/elsewhere")
    assert paths.cache_dir(tmp_path, env={"CITEKIT_CACHE_DIR": "rel"}) == tmp_path / "rel"


def test_the_lookup_cache_and_the_config_use_the_one_rule(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("CITEKIT_CACHE_DIR", raising=False)
    (tmp_path / "citekit.yaml").write_text("sources: {cache_dir: lookups}\n", encoding="utf-8")
    project = api.open_project(tmp_path)
    settings = SourceSettings.from_env(project.config.data, project.root)
    assert settings.cache_dir == project.cache == tmp_path.resolve() / "lookups"
    assert project.state == tmp_path.resolve() / ".citekit"
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "shared"))
    assert SourceSettings.from_env(project.config.data, project.root).cache_dir == project.cache == tmp_path / "shared"


def test_a_project_is_handed_on_as_it_is(tmp_path: Path) -> None:
    project = api.open_project(tmp_path)
    assert api.open_project(project) is project and api.config_of(project) is project.config
    assert (project.root, project.notes, project.refs) == (tmp_path.resolve(), tmp_path.resolve() / "notes",
                                                           tmp_path.resolve() / "refs")
