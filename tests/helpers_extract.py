"""``citekit extract --json`` run on one made-up notes file: its mentions, or its mentions by line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main


def extract_mentions(tmp_path: Path, name: str, text: str) -> list[dict]:
    """The mentions ``citekit extract --json`` finds in ``text``, written to ``tmp_path/name`` (the
    name matters: it tells an e-mail, a Slack log or an org file apart)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["extract", "--json", str(path)])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)["mentions"]


def mentions_by_line(tmp_path: Path, text: str, name: str = "notes.md") -> dict[int, list[dict]]:
    """The mentions ``citekit extract --json`` finds in ``text`` (written to ``tmp_path/name``),
    by the line they are on."""
    out: dict[int, list[dict]] = {}
    for m in extract_mentions(tmp_path, name, text):
        out.setdefault(m["location"]["line"], []).append(m)
    return out


def api_mentions(tmp_path: Path, name: str, text: str) -> list:
    """The :class:`~citekit.core.resolution.Mention` objects :func:`citekit.notes.extract_paths`
    finds in ``text``, written to ``tmp_path/name`` (for tests that read fields the JSON leaves out)."""
    from citekit.notes import extract_paths

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return extract_paths([path], root=tmp_path).mentions
