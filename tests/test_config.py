"""Where a project is: the folder holding citekit.yaml, found upwards, else the cwd."""

import pytest

from citekit.config import ConfigError, load_config


def test_found_upwards_with_configured_paths(tmp_path):
    (tmp_path / "citekit.yaml").write_text("paths:\n  notes: my-notes\n  refs: bib\nkeys:\n  formula: '{author}{year}'\n")
    deep = tmp_path / "paper" / "sections"
    deep.mkdir(parents=True)
    cfg = load_config(deep)
    assert cfg.root == tmp_path.resolve()
    assert cfg.notes_dir == tmp_path.resolve() / "my-notes"
    assert cfg.refs_dir == tmp_path.resolve() / "bib"
    assert cfg.key_formula == "{author}{year}"


def test_without_config_the_start_folder_is_the_project(tmp_path):
    cfg = load_config(tmp_path)
    assert cfg.root == tmp_path.resolve()
    assert cfg.notes_dir.name == "notes" and cfg.refs_dir.name == "refs"
    assert cfg.path is None


@pytest.mark.parametrize("text,needle", [("a: [1, 2", "not valid YAML"), ("- just\n- a list\n", "mapping")])
def test_bad_config_is_reported_with_what_to_do(tmp_path, text, needle):
    (tmp_path / "citekit.yaml").write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_config(tmp_path)


def test_unquoted_arxiv_pin_keeps_its_trailing_zero(tmp_path):
    from citekit.sync import _pins

    (tmp_path / "citekit.yaml").write_text('pins:\n  "Some Title": {arxiv: 2602.22890}\n  "Old": {arxiv: 1412.6980}\n')
    pins = _pins(load_config(tmp_path))
    assert [p.arxiv for p in pins.values()] == ["2602.22890", "1412.6980"]


def test_unknown_key_formula_placeholder_is_a_message_not_a_traceback(tmp_path):
    from click.testing import CliRunner

    from citekit.cli import main

    (tmp_path / "citekit.yaml").write_text("keys:\n  formula: '{first_author}{year}'\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text("# ICML 2026\n\n- A Paper Title Here\n  - Authors: Ann Smith\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(tmp_path), "sync", "--offline"])
    assert result.exit_code == 2
    assert "unknown placeholder" in result.output and "Traceback" not in result.output
