"""`citekit extract`: what the notes hold, for people and for scripts."""

import json

from click.testing import CliRunner

from citekit.cli import main

from .helpers_project import make_project


def test_human_listing_names_every_mention_with_its_details(tmp_path):
    root = make_project(tmp_path)
    result = CliRunner().invoke(main, ["-C", str(root), "extract"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "notes/notes-icml2026-trip-report.txt:" in out
    assert "Riemannian Dueling Optimization\n    authors: Yuxuan Ren; Abhishek Roy; Shiqian Ma" in out
    assert "[url] https://icml.cc/virtual/2026/oral/71156" in out
    assert "[abstract] introduces SoftMuon, SoftSignum" in out or "[abstract] introduces SoftSignum" in out
    assert "101 mentions, 78 works" in out


def test_json_has_locations_and_problems(tmp_path):
    root = make_project(tmp_path)
    (root / "notes" / "bin.txt").write_bytes(b"\x00\x00binary")
    data = json.loads(CliRunner().invoke(main, ["-C", str(root), "extract", "--json"]).output)
    assert len(data["mentions"]) == 101
    first = data["mentions"][0]
    assert set(first) >= {"kind", "location", "title", "authors", "urls", "summary", "hints", "venue", "year", "ids"}
    assert any(p["file"].endswith("bin.txt") for p in data["problems"])


def test_missing_path_is_exit_code_2(tmp_path):
    root = make_project(tmp_path)
    result = CliRunner().invoke(main, ["-C", str(root), "extract", str(root / "nope.md")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_japanese_middle_dot_separates_authors():
    from citekit.notes import extract_text

    text = "ICML 2026\n\n• Shift Happens: A Study\n  • 著者: Taro Yamada ・ Hanako Suzuki\n"
    mention = extract_text(text, "n.txt").mentions[0]
    assert mention.authors == ["Taro Yamada", "Hanako Suzuki"]
