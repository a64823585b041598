"""``citekit graph``: the picture of a tag's neighbourhood, as SVG and as an offline HTML page."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from citekit.api.suggesting import graph
from tests.fakeservices.graph import FakeGraph, fake_graph, write_project  # noqa: F401  (fixture)
from tests.helpers_cli import run

SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome",
                                                        "google-chrome-stable", "headless_shell")) if p), None)


@pytest.fixture
def project(tmp_path: Path, fake_graph: FakeGraph, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: F811
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    return write_project(tmp_path / "proj", fake_graph.world)


def _nodes(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if kind in (g.get("class") or "").split()]


def test_svg_draws_the_papers_the_suggestions_and_the_citations(project: Path, fake_graph: FakeGraph) -> None:  # noqa: F811
    out = project / "muon.svg"
    report = graph(out, project, tags=["muon"], limit=10, this_year=2026)
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    library, suggested = _nodes(root, "library"), _nodes(root, "suggestion")
    assert len(library) == 31 and len(suggested) == 10 == report.suggestions
    hovers = [g.find(f"{SVG}title").text or "" for g in suggested]
    assert all("cited by" in h or "cites" in h for h in hovers)  # the reason on hover
    lines = root.findall(f".//{SVG}line")
    assert len(lines) == report.edges > 0
    # a node's size grows with the citations it gets within the picture
    radii = {g.get("data-id"): float(g.find(f"{SVG}circle").get("r")) for g in library + suggested}
    assert radii["#1"] > min(radii.values())
    # readable: no two nodes overlap, every node inside the canvas
    circles = [g.find(f"{SVG}circle") for g in library + suggested]
    spots = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) for c in circles]
    assert all(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= a[2] + b[2]
               for i, a in enumerate(spots) for b in spots[i + 1:])
    assert all(0 < x < float(root.get("width")) and 0 < y < float(root.get("height")) for x, y, _ in spots)
    # classics are hollow
    assert any(g.find(f"{SVG}circle").get("fill") == "white" for g in suggested) or not any(
        "classic" in h for h in hovers)


def test_html_is_offline_and_lists_the_reasons(project: Path) -> None:
    out = project / "muon.html"
    result = run(project, "graph", "--tag", "muon", "-o", str(out), "--limit", "5")
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http://" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    assert page.count("<li ") == 5 and "cited by" in page


def test_seeds_unknown_to_every_service_are_still_drawn(tmp_path: Path, fake_graph: FakeGraph,  # noqa: F811
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    fake_graph.world.library = {"unknown0": {"node": None, "tags": ["x"], "doi": "10.5555/none", "arxiv": None,
                                             "title": "Nobody indexed this note", "year": 2025}}
    root = write_project(tmp_path / "p", fake_graph.world)
    report = graph(root / "x.svg", root, tags=["x"], this_year=2026)
    assert report.papers == 1 and report.suggestions == 0 and report.suggest.problem


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium binary on this machine (chromium, chromium-browser, "
                                            "google-chrome or headless_shell on PATH): the page is not rendered")
def test_the_page_renders_in_headless_chromium(project: Path) -> None:
    out = project / "muon.html"
    graph(out, project, tags=["muon"], limit=5, this_year=2026)
    dom = subprocess.run([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom", out.as_uri()],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert "The citation neighbourhood of your muon papers" in dom
    assert dom.count('class="node suggestion"') == 5 and "cited by" in dom


def test_tag_and_mine_draw_your_paper_among_the_tags_papers(project: Path) -> None:
    (project / "main.tex").write_text("\\cite{lib3,lib7} \\cite{lib11}\n", encoding="utf-8")
    out = project / "mine.svg"
    report = graph(out, project, tags=["muon"], mine="main.tex", limit=5, this_year=2026)
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    own = _nodes(root, "own")
    assert len(own) == 1 and len(_nodes(root, "library")) == 31 and report.suggestions == 5
    assert "your paper" in out.read_text(encoding="utf-8")
