"""`citekit extract`: what the notes hold, for people and for scripts."""

import json

from click.testing import CliRunner

from citekit.cli import main

from ..helpers_project import make_project


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


def test_a_relative_path_that_exists_only_in_the_project_names_it(tmp_path, monkeypatch):
    """File arguments are read from the current folder even with -C (a paper's Makefile names
    its own files); someone who meant the project's folder is told which path they meant."""
    root = make_project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["-C", str(root), "extract", "notes"])
    assert result.exit_code == 2
    assert "not the project's" in result.output and str(root / "notes") in result.output
    (elsewhere / "notes").mkdir()
    (elsewhere / "notes" / "n.md").write_text("- Attention Is All You Need (Vaswani et al., 2017)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(root), "extract", "--json", "notes"])
    assert result.exit_code == 0, result.output
    assert [m["title"] for m in json.loads(result.output)["mentions"]] == ["Attention Is All You Need"]


def test_japanese_middle_dot_separates_authors():
    from citekit.notes import extract_text

    text = "ICML 2026\n\n• Shift Happens: A Study\n  • 著者: Taro Yamada ・ Hanako Suzuki\n"
    mention = extract_text(text, "n.txt").mentions[0]
    assert mention.authors == ["Taro Yamada", "Hanako Suzuki"]


def _styles_project(tmp_path):
    root = make_project(tmp_path, notes=False)
    notes = root / "notes"
    notes.mkdir()
    (notes / "list.md").write_text(
        "# Reading\n\n"
        "- Kernel Methods Strike Back — Lea Moreau, Tom Becker\n"
        "- Blog post: https://someone.github.io/posts/why-adam-works/\n"
        "- Implicit Bias of Mirror Descent Revisited\n"
        "  - URL: https://arxiv.org/abs/2502.01234\n"
        "- arXiv:2503.04321\n"
        "- Jane Roe (Stanford)\n",
        encoding="utf-8",
    )
    return root


def test_explain_says_what_was_taken_and_why_not(tmp_path):
    root = _styles_project(tmp_path)
    result = CliRunner().invoke(main, ["-C", str(root), "extract", "--explain", str(root / "notes" / "list.md")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "notes/list.md:3  PAPER      Kernel Methods Strike Back" in out
    assert "rule: authors on the title line (title-dash-authors)" in out
    assert "authors: Lea Moreau; Tom Becker" in out
    assert "notes/list.md:4  not taken  Blog post" in out and "links a blog page" in out
    assert "notes/list.md:7  PAPER" in out and "arxiv identifier in the text" in out
    assert "notes/list.md:8  not taken  Jane Roe (Stanford)" in out
    data = json.loads(CliRunner().invoke(main, ["-C", str(root), "extract", "--explain", "--json"]).output)
    [file] = data
    outcomes = {d["line"]: d["outcome"] for d in file["decisions"]}
    assert outcomes[3] == "mention" and outcomes[4] == "rejected"
    assert next(d for d in file["decisions"] if d["line"] == 3)["fields"]["authors"] == ["Lea Moreau", "Tom Becker"]


def test_list_pending_and_the_sync_summary_name_waiting_works(tmp_path):
    root = _styles_project(tmp_path)
    runner = CliRunner()
    before = json.loads(runner.invoke(main, ["-C", str(root), "list", "--status", "pending", "--json"]).output)
    assert [(p["why"], p["title"] or p["hint"], p["where"]) for p in before] == [
        ("title without authors", "Implicit Bias of Mirror Descent Revisited", ["notes/list.md:5"]),
        ("identifier only", "arxiv:2503.04321", ["notes/list.md:7"]),
    ]
    sync = runner.invoke(main, ["-C", str(root), "sync", "--offline"])
    assert sync.exit_code == 0, sync.output
    assert "pending        2" in sync.output
    human = runner.invoke(main, ["-C", str(root), "list", "--status", "pending"])
    assert "notes/list.md:5" in human.output and "title without authors" in human.output
    for line in human.stdout.splitlines():  # one label for one pending work: sync says what list says
        assert f"    {line}" in sync.output.splitlines(), (line, sync.output)
    entries = json.loads(runner.invoke(main, ["-C", str(root), "list", "--json"]).output)
    assert [e["title"] for e in entries] == ["Kernel Methods Strike Back"]
