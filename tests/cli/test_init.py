"""`citekit init`: a new project whose citekit.yaml is read back exactly as documented."""

from click.testing import CliRunner

from citekit.cli import main
from citekit.core.config import load_config
from citekit.sources.settings import SourceSettings


def test_init_writes_a_config_that_loads(tmp_path):
    result = CliRunner().invoke(main, ["init", str(tmp_path / "p"), "--mailto", "me@example.org"])
    assert result.exit_code == 0, result.output
    cfg = load_config(tmp_path / "p")
    assert cfg.path == (tmp_path / "p" / "citekit.yaml").resolve()
    assert cfg.notes_dir.is_dir() and cfg.refs_dir.is_dir()
    assert cfg.key_formula == "{author}{year}{title}"
    settings = SourceSettings.from_env(cfg.data, cfg.root, env={})
    assert settings.mailto == "me@example.org"
    again = CliRunner().invoke(main, ["init", str(tmp_path / "p")])
    assert again.exit_code == 2 and "exists already" in again.output


def test_init_keeps_the_clones_own_state_out_of_git(tmp_path):
    """A first `git add -A` after init must not take the binary caches in .citekit/."""
    root = tmp_path / "p"
    root.mkdir()
    (root / ".gitignore").write_text("*.aux", encoding="utf-8")  # the user's own lines are kept
    result = CliRunner().invoke(main, ["init", str(root)])
    assert result.exit_code == 0, result.output
    assert (root / ".gitignore").read_text(encoding="utf-8") == "*.aux\n.citekit/\n"
    fresh = tmp_path / "q"
    assert CliRunner().invoke(main, ["init", str(fresh), "-q"]).exit_code == 0
    assert (fresh / ".gitignore").read_text(encoding="utf-8") == ".citekit/\n"
