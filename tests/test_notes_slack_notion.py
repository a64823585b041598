"""Slack workspace exports and Notion "Export as HTML" pages, read as notes through the
command line (``citekit extract --json``, ``--explain``), on exports written in the shapes
the apps write (tests/data/notes/exports): Slack's pretty-printed day files with escaped
slashes and ``\\u`` escapes, joins, a bot's link previews, an edit, a message with only
rich-text blocks; Notion's one-line pages with a property table, callouts, toggles,
bookmarks and a table."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main

EXPORTS = Path(__file__).parent / "data" / "notes" / "exports"
DAY1 = "notes/slack/paper-club/2024-03-05.json"
DAY2 = "notes/slack/icml2024/2024-03-06.json"
NOTION_PAPER = "notes/notion/Muon is Scalable for LLM Training 0f3c1d2e4a5b4c6d8e7f9a0b1c2d3e4f.html"
NOTION_NOTES = "notes/notion/ICML 2024 notes 9a8b7c6d5e4f4a3b8c2d1e0f9a8b7c6d.html"
NOTION_DATABASE = "notes/notion/Reading list 7e6d5c4b3a2941809f8e7d6c5b4a3928.html"


def _project(tmp_path: Path) -> Path:
    shutil.copytree(EXPORTS, tmp_path / "notes")
    return tmp_path


def _run(project: Path, *args: str) -> tuple[int, dict | list]:
    result = CliRunner().invoke(main, ["-C", str(project), *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def _extract(project: Path, *paths: str) -> tuple[int, dict]:
    code, out = _run(project, "extract", "--json", *(str(project / p) for p in paths))
    assert isinstance(out, dict)
    return code, out


def _line(project: Path, file: str, needle: str) -> int:
    """The 1-based line of ``file`` that holds ``needle`` (where the exported value is)."""
    lines = (project / file).read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


def _by_title(out: dict) -> dict[str, dict]:
    return {m["title"]: m for m in out["mentions"] if m["title"]}


def test_a_slack_export_is_read_day_file_by_day_file_and_nothing_else(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, "notes")
    files = {m["location"]["file"] for m in out["mentions"]}
    # channels.json, users.json, a misnamed day (2024-13-01.json) and index.html are not notes
    assert {f for f in files if "/slack/" in f} == {DAY1, DAY2}
    assert not any(f.endswith(("index.html", "2024-13-01.json", "users.json", "channels.json")) for f in files)


def test_slack_messages_give_their_papers_at_the_line_of_their_text(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, DAY1)
    found = {(m["title"], m["location"]["line"]) for m in out["mentions"]}
    text_line = _line(project, DAY1, '"text": "Reading for Thursday')
    preview_line = _line(project, DAY1, '"title": "Attention Is All You Need"')
    assert ("Reading for Thursday: Attention Is All You Need — Vaswani et al., cc @U02BEN", text_line) in found
    assert ("Attention Is All You Need", preview_line) in found  # the link preview's title beside its link
    muon = _by_title(out)["also Muon is Scalable for LLM Training"]
    assert muon["authors"][:3] == ["Jingyuan Liu", "Jianlin Su", "Xingcheng Yao"] and muon["authors_incomplete"]
    assert muon["pins"]["arxiv"] == "2502.16982"  # `arXiv:2502.16982` in code marks, on the message's next line
    assert muon["location"]["line"] == _line(project, DAY1, '"text": "also *Muon')
    assert muon["section"] == "paper-club"  # the channel is the section


def test_a_bots_preview_gives_the_title_without_arxivs_number_and_a_repository_is_no_paper(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, DAY1)
    chinchilla = _by_title(out)["Training Compute-Optimal Large Language Models"]
    assert chinchilla["ids"]["arxiv"] == "2203.15556"
    assert chinchilla["location"]["line"] == _line(project, DAY1, '"title": "[2203.15556]')
    assert not any("github.com" in u for m in out["mentions"] for u in m["urls"])


def test_a_message_without_text_is_read_from_its_blocks_and_explain_shows_each_paper_of_its_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, DAY1)
    titles = _by_title(out)
    resnet, adam = titles["Deep Residual Learning for Image Recognition"], titles["Adam: A Method for Stochastic Optimization"]
    assert resnet["location"]["line"] == adam["location"]["line"]  # one JSON value holds both
    blocks_line = resnet["location"]["line"]
    raw = (project / DAY1).read_text(encoding="utf-8").split("\n")
    assert raw[blocks_line - 1].strip() == '"blocks": ['
    _code, explained = _run(project, "extract", "--explain", "--json", str(project / DAY1))
    assert isinstance(explained, list)
    on_line = [d for d in explained[0]["decisions"] if d["line"] == blocks_line and d["outcome"] == "mention"]
    assert {d["fields"]["title"] for d in on_line} == {resnet["title"], adam["title"]}


def test_joins_topics_and_uploads_are_no_papers(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, DAY1, DAY2)
    text = json.dumps(out)
    assert "has joined" not in text and "channel topic" not in text and "notes.pdf" not in text and "has left" not in text


def test_an_edited_message_is_read_as_it_reads_now_and_unicode_escapes_are_text(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, out = _extract(project, DAY2)
    titles = _by_title(out)
    flash = titles["FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"]
    assert flash["authors"][-1] == "Christopher Ré"  # "R\u00e9" in the file
    assert flash["location"]["line"] == _line(project, DAY2, '"text": "FlashAttention: Fast')
    assert not any("typo" in (m["title"] or "") for m in out["mentions"])
    lora = next(t for t in titles if "LoRA" in t)
    assert lora.startswith("今日の論文") and titles[lora]["ids"]["openreview"] == "nZeVKeeFYf9"
    assert titles[lora]["venue"] == "ICML" and titles[lora]["year"] == 2024  # the channel icml2024 is a heading
    # a message that is no JSON object is reported at its line; the others are read (exit 1: a finding)
    assert code == 1
    assert [(p["line"], "not a JSON object" in p["message"]) for p in out["problems"]] == [(_line(project, DAY2, '"not a message"'), True)]


def test_a_day_file_that_is_not_slacks_is_reported_and_the_others_are_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    broken = project / "notes" / "slack" / "paper-club" / "2024-03-07.json"
    broken.write_text('[\n    {"type": "message", "text": "unfinished"\n', encoding="utf-8")
    shaped = project / "notes" / "slack" / "paper-club" / "2024-03-08.json"
    shaped.write_text('{"messages": []}', encoding="utf-8")
    code, out = _extract(project, "notes/slack")
    assert code == 1
    problems = {p["file"]: p for p in out["problems"]}
    assert "invalid JSON" in problems["notes/slack/paper-club/2024-03-07.json"]["message"]
    assert "not a list of messages" in problems["notes/slack/paper-club/2024-03-08.json"]["message"]
    assert {m["location"]["file"] for m in out["mentions"]} == {DAY1, DAY2}


def test_nothing_in_a_day_file_is_trusted(tmp_path: Path) -> None:
    day = tmp_path / "notes" / "c" / "2024-01-02.json"
    day.parent.mkdir(parents=True)
    nested = "[" * 50 + "]" * 50
    messages = ('[{"type": "message", "text": null, "blocks": "x", "attachments": {"title": 1}},\n'
                ' {"type": "message", "text": ["a"], "attachments": [1, {"title": ["x"], "title_link": "javascript:alert(1)"}]},\n'
                f' {{"type": "message", "text": "deep", "blocks": {nested}}},\n'
                ' {"type": "message", "text": "' + "Attention Is All You Need " * 3000 + '"},\n'
                ' {"type": "message", "subtype": "bot_message", "attachments": [{"title": "Attention Is All You Need",'
                ' "title_link": "https://arxiv.org/abs/1706.03762"}]}]')
    day.write_text(messages, encoding="utf-8")
    _code, out = _extract(tmp_path, "notes")
    assert [(m["title"], m["location"]["line"]) for m in out["mentions"] if m["ids"]["arxiv"]] == [("Attention Is All You Need", 5)]
    assert any("only the first" in p["message"] and p["line"] == 4 for p in out["problems"])
    (day.parent / "2024-01-03.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, out = _extract(tmp_path, "notes")
    assert code == 1 and any("nested too deeply" in p["message"] for p in out["problems"])


def test_a_notion_database_page_is_one_paper_with_its_properties(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, NOTION_PAPER)
    [muon] = out["mentions"]
    assert muon["title"] == "Muon is Scalable for LLM Training"
    assert muon["authors"] == ["Jingyuan Liu", "Jianlin Su", "Xingcheng Yao", "Zhejun Jiang", "Guokun Lai"]
    assert muon["ids"]["arxiv"] == "2502.16982" and muon["hashtags"] == ["optimizers", "muon"]
    assert muon["location"]["line"] == _line(project, NOTION_PAPER, '<h1 class="page-title">')


def test_a_notion_notes_page_reads_lists_toggles_callouts_bookmarks_and_tables(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, NOTION_NOTES)
    titles = _by_title(out)
    at = lambda needle: _line(project, NOTION_NOTES, needle)  # noqa: E731
    flash = titles["FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"]
    assert flash["authors"][0] == "Tri Dao" and flash["ids"]["arxiv"] == "2205.14135"  # nested bullets
    assert flash["location"]["line"] == at("FlashAttention: Fast")
    assert (flash["venue"], flash["year"]) == ("ICML", 2024)  # the page's title is a heading
    resnet = titles["Deep Residual Learning for Image Recognition"]  # a toggle
    assert resnet["authors"][0] == "Kaiming He" and resnet["pins"]["arxiv"] == "1512.03385"
    assert resnet["location"]["line"] == at("<summary>Deep Residual")
    chinchilla = titles["Training Compute-Optimal Large Language Models"]  # a bookmark
    assert chinchilla["ids"]["arxiv"] == "2203.15556" and chinchilla["location"]["line"] == at('class="bookmark source"')
    kaplan = titles["Scaling Laws for Neural Language Models"]  # a table row with its header's labels
    assert kaplan["authors"] == ["Jared Kaplan", "Sam McCandlish", "Tom Henighan"] and kaplan["ids"]["arxiv"] == "2001.08361"
    adam = next(m for t, m in titles.items() if "Adam: A Method" in t)  # a callout with a link
    assert adam["ids"]["openreview"] == "ZG3RaNIsO8" and adam["location"]["line"] == at("callout")
    assert titles["LoRA: Low-Rank Adaptation of Large Language Models"]["ids"]["arxiv"] == "2106.09685"
    assert not any("flash-attn" in json.dumps(m) for m in out["mentions"])  # a code block is no note


def test_an_html_file_without_notions_suffix_is_not_a_notion_page(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, "notes/notion")
    assert {m["location"]["file"] for m in out["mentions"]} == {NOTION_PAPER, NOTION_NOTES, NOTION_DATABASE}


def test_a_notion_database_table_gives_a_paper_per_row_with_its_columns(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _code, out = _extract(project, NOTION_DATABASE)
    rows = [(m["title"], m["authors"], m["ids"]["arxiv"], m["hashtags"], m["location"]["line"]) for m in out["mentions"]]
    assert rows == [
        ("Muon is Scalable for LLM Training", ["Jingyuan Liu", "Jianlin Su", "Xingcheng Yao"], "2502.16982", ["muon"],
         _line(project, NOTION_DATABASE, ">Muon is Scalable")),
        ("Attention Is All You Need", ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"], "1706.03762", ["transformers"],
         _line(project, NOTION_DATABASE, ">Attention Is All")),
    ]


def test_broken_or_empty_notion_html_never_fails(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / f"Empty {'a' * 32}.html").write_text("<html><body><article class='page sans'></article></body></html>", encoding="utf-8")
    (folder / f"Broken {'b' * 32}.html").write_text(
        "<html><body><article><div class='page-body'><ul><li><details><summary>Attention Is All You Need"
        " — Ashish Vaswani, Noam Shazeer</summary><p><a href='https://arxiv.org/abs/1706.03762'>pdf", encoding="utf-8")
    code, out = _extract(tmp_path, "notes")
    assert code == 1 and any("without any text" in p["message"] for p in out["problems"])
    [m] = out["mentions"]
    assert m["title"] == "Attention Is All You Need" and m["ids"]["arxiv"] == "1706.03762"


def test_an_offline_sync_builds_entries_from_slack_and_notion_exports(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = CliRunner().invoke(main, ["-C", str(project), "sync", "--offline", "-q"])
    assert result.exit_code == 1, result.output  # the day file's stray message is a finding
    bib = (project / "refs" / "library.bib").read_text(encoding="utf-8")
    for title in ("Muon is Scalable for {LLM} Training", "Attention Is All You Need", "Scaling Laws for Neural Language Models",
                  "{FlashAttention}: Fast and Memory-Efficient Exact Attention with {IO-Awareness}"):
        assert f"title         = {{{title}}}" in bib
    assert bib.count("title         = {Muon is Scalable") == 1  # the Notion page, its database row and the Slack message: one work


def test_a_reading_list_message_a_pasted_bibtex_entry_and_a_title_over_three_lines(tmp_path: Path) -> None:
    day = tmp_path / "notes" / "reading" / "2024-05-01.json"
    day.parent.mkdir(parents=True)
    bibtex = ("```@inproceedings{he2016deep,\n  title={Deep Residual Learning for Image Recognition},\n"
              "  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},\n  booktitle={CVPR},\n  year={2016}\n}```")
    messages = [
        {"type": "message", "user": "U1", "ts": "1714521600.000100",
         "text": "Reading list\nAttention Is All You Need <https://arxiv.org/abs/1706.03762>\n"
                 "Scaling Laws for Neural Language Models <https://arxiv.org/abs/2001.08361>"},
        {"type": "message", "user": "U1", "ts": "1714521700.000200", "text": bibtex},
        {"type": "message", "user": "U2", "ts": "1714521800.000300",
         "text": "LoRA: Low-Rank Adaptation of Large Language Models\nEdward J. Hu, Yelong Shen, Phillip Wallis\n"
                 "<https://arxiv.org/abs/2106.09685|arxiv.org/abs/2106.09685>"},
    ]
    day.write_text(json.dumps(messages, indent=4).replace("/", "\\/"), encoding="utf-8")
    _code, out = _extract(tmp_path, "notes")
    at = lambda needle: _line(tmp_path, "notes/reading/2024-05-01.json", needle)  # noqa: E731
    found = {m["title"]: (m["authors"], m["location"]["line"]) for m in out["mentions"]}
    assert found["Attention Is All You Need"][1] == found["Scaling Laws for Neural Language Models"][1] == at("Reading list")
    assert found["Deep Residual Learning for Image Recognition"] == (["He, Kaiming", "Zhang, Xiangyu", "Ren, Shaoqing", "Sun, Jian"], at("inproceedings"))
    assert found["LoRA: Low-Rank Adaptation of Large Language Models"] == (["Edward J. Hu", "Yelong Shen", "Phillip Wallis"], at("LoRA"))
