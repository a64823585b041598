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


# Every way a page the notes link refuses, in one notes file synced through the CLI: each
# line gets its own outcome in the report, and no entry carries the paper those pages
# (or the sites they point to) describe.
REFUSING = f"""# Pages to read

- {LAB}
- https://gone.github.io/
- https://huge.github.io/
- https://files.github.io/ctt/
- https://moved.github.io/paper
- Sparse Tangent Kernels Explain Nothing At All
  - Authors: Una Nadie ⋅ Otto Alguien
  - URL: https://another.github.io/
"""


def test_every_refusing_page_is_said_on_its_line_and_makes_no_wrong_entry(project, fake_services):
    from .fakeservices.pages import project_page
    from .fakeservices.world import World

    hyperscale = next(p for p in World.load().papers if p.get("project_page"))
    page = project_page(hyperscale)
    fake_services.web_page("https://huge.github.io/", page.replace("</body>", "<p>" + "x" * (3 << 20) + "</p></body>"))
    fake_services.web_page("https://files.github.io/ctt/", b"%PDF-1.5 ...", content_type="application/pdf")
    fake_services.web_redirect("https://moved.github.io/paper", "https://parked-domains.example.com/lander")
    fake_services.web_page("https://parked-domains.example.com/lander", page)
    fake_services.web_page("https://another.github.io/", page)  # the Hyperscale paper's page, not the line's
    (project / "notes" / "pages.md").write_text(REFUSING, encoding="utf-8")

    report = _run(project, "sync")
    said = {n: next((line for line in report.splitlines() if f"notes/pages.md:{n}" in line), "") for n in (3, 4, 5, 6, 7)}
    assert "describes no one paper" in said[3], report
    assert "answered 404: the page is gone" in said[4], report
    assert "larger than sources.web.max_mb; not read" in said[5], report
    assert "is not an HTML page" in said[6], report
    assert "redirected to another site (https://parked-domains.example.com/lander): not read" in said[7], report
    other = next(line for line in report.splitlines() if line.strip().startswith("notes-only") and "another" in line)
    assert "describes 'Evolution Strategies at the Hyperscale', which no source confirms for this line" in other, report

    data = json.loads(_run(project, "sync", "--json"))
    assert data["counts"]["resolved"] == 0, data["counts"]
    assert len(data["pending"]) == 5 and all(p.get("page") for p in data["pending"]), data["pending"]
    lib = Library.load(project / "refs")
    assert [e.title for e in lib.entries.values()] == ["Sparse Tangent Kernels Explain Nothing At All"]
    entry = next(iter(lib.entries.values()))
    assert entry.status == "notes-only" and not any(entry.ids.as_dict().values()), entry.ids
    assert "2511.16652" not in (project / "refs" / "library.bib").read_text(encoding="utf-8")
    # one request a page (the redirect's other site never asked), none the second time
    assert fake_services.counts("web") and fake_services.requests("web") == 6


def test_one_unreachable_site_costs_only_its_own_page(project, fake_services):
    """A site that cannot be reached is that page's outcome, said on its line; the page of
    another site in the same notes is still read and its paper resolved, and the next sync
    (within the hour the outcome is remembered) asks neither again."""
    from .fakeservices.pages import project_page
    from .fakeservices.world import World

    hyperscale = next(p for p in World.load().papers if p.get("project_page"))
    fake_services.web_page("https://good.github.io/", project_page(hyperscale))
    fake_services.fail("web", "reset", paths=("/down.github.io/",))
    (project / "notes" / "pages.md").write_text("# Pages\n\n- https://down.github.io/\n\n- https://good.github.io/\n",
                                                 encoding="utf-8")

    report = _run(project, "sync")
    down = next(line for line in report.splitlines() if "notes/pages.md:3" in line)
    assert "https://down.github.io/ could not be reached" in down and "asked again" in down, report
    assert "Traceback" not in report and "ConnectionError" not in report and "HTTPConnectionPool" not in report
    lib = Library.load(project / "refs")
    assert [e.title for e in lib.entries.values() if e.status == "resolved"] == [hyperscale["title"]]
    asked = fake_services.requests("web")
    assert 2 <= asked <= 5  # the good page once, the unreachable one with its few retries only

    again = _run(project, "sync")
    assert fake_services.requests("web") == asked, again  # remembered: neither page asked again
