"""What a page the notes link gave, said where the user looks: `extract --explain` (from
what the last sync read: extraction never fetches) and the sync report, through the CLI
against the loopback fakes (the ``web`` fake serves pages as ``CITEKIT_WEB_URL/host/path``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

from .fakeservices.pages import lab_home_page
from .helpers_project import make_project

LAB = "https://optlab.github.io/"


@pytest.fixture()
def project(tmp_path, monkeypatch, fake_services):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    fake_services.web_page(LAB, lab_home_page())
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    return root


def _run(root, *args):
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_bare_lab_page_is_said_to_describe_no_one_paper_in_explain_and_the_report(project, fake_services):
    (project / "notes" / "links.md").write_text(f"# Reading\n\n- {LAB}\n", encoding="utf-8")
    before = _run(project, "extract", "--explain")
    assert f"page: {LAB}: not read yet; an online sync reads it (one request)" in before
    assert fake_services.requests("web") == 0  # extraction never fetches

    report = _run(project, "sync")
    pending = next(line for line in report.splitlines() if "notes/links.md:3" in line)
    assert f"the page {LAB} describes no one paper" in pending, report
    data = json.loads(_run(project, "sync", "--json"))
    assert data["counts"]["resolved"] == 0 and not data["works_detail"]
    assert [p["page"] for p in data["pending"]] == [f"the page {LAB} describes no one paper (no citation tags, "
                                                    "scholarly JSON-LD, COinS or BibTeX block)"]

    after = _run(project, "extract", "--explain")
    assert f"page: {LAB} describes no one paper" in after and "read by the last sync" in after
    explained = json.loads(_run(project, "extract", "--explain", "--json"))
    pages = [p for d in explained[0]["decisions"] for p in d.get("pages", [])]
    assert len(pages) == 1 and "describes no one paper" in pages[0]
    assert fake_services.requests("web") == 1  # read once, by the first sync


def test_a_noted_paper_whose_page_is_a_lab_page_keeps_its_notes_entry_and_says_why(project, fake_services):
    (project / "notes" / "reading.md").write_text(
        "# Reading\n\n- Sparse Widgets for Everyone\n  - Authors: Una Nadie ⋅ Otto Alguien\n"
        f"  - URL: {LAB}\n", encoding="utf-8")
    report = _run(project, "sync")
    line = next(line for line in report.splitlines() if line.strip().startswith("notes-only") and ":" in line)
    assert f"the page {LAB} describes no one paper" in line, report
    entry = next(iter(Library.load(project / "refs").entries.values()))
    assert entry.status == "notes-only" and entry.title == "Sparse Widgets for Everyone"
