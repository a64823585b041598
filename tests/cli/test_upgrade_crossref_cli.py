"""``upgrade`` asks Crossref (by title) for an imported ``@article`` with no identifier that
dblp does not know: a journal article outside computer science is found there, under the
same "0 wrong" rules; an entry dblp knows, or a ``@misc``, costs Crossref no request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

# the fake Crossref's journal article (Mathematics, 2026) by these authors; the fake dblp
# knows only the ICML paper of the same title by other authors
ARTICLE = r"""@article{hoffmann2026riemannian,
  title = {Riemannian Dueling Optimization},
  author = {Hoffmann, Lena and Rossi, Marco and Mori, Ayaka},
  year = {2026}
}
@misc{hoffmann2026talk,
  title = {Dueling Optimization on Manifolds, a Talk},
  author = {Hoffmann, Lena},
  year = {2026}
}
"""


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_services) -> Path:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (root / "old.bib").write_text(ARTICLE, encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "import", str(root / "old.bib"), "-q"])
    assert result.exit_code == 0, result.output
    return root


def test_a_journal_article_dblp_does_not_list_is_found_on_crossref(project: Path, fake_services) -> None:
    result = CliRunner().invoke(main, ["-C", str(project), "upgrade", "--all", "--json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    assert fake_services.requests("crossref") == 1  # the @article only; never the @misc
    upgraded = {d["key"]: d for d in report["upgraded"]}
    assert "hoffmann2026talk" not in upgraded
    entry = Library.load(project / "refs").get("hoffmann2026riemannian")
    assert upgraded["hoffmann2026riemannian"]["to"]["source"] == "crossref"  # not the ICML paper of the same title
    assert entry.fields.get("doi", "").lower() == "10.3390/math14061234"
    assert entry.fields.get("journal") == "Mathematics"
    again = CliRunner().invoke(main, ["-C", str(project), "upgrade", "--all", "--dry-run", "--json"])
    assert json.loads(again.stdout)["requests"] == 0
