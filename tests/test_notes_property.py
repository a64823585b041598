"""Extraction never raises, whatever the notes contain."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.notes import extract_paths

from citekit.notes import extract_text, group_mentions
from citekit.notes.reader import decode_notes

_NOTE_PIECES = st.sampled_from([
    "• ", "- ", "* ", "1. ", "2) ", "  ", "    ", "# ", "## ", "\n", "\r\n", "\r", "URL: ", "著者: ", "まとめ: ",
    "Authors: ", "Summary: ", "arxiv: ", "doi: ", "openreview: ", "dblp: ", "https://icml.cc/virtual/2026/poster/1",
    "https://arxiv.org/abs/2401.00001", "https://github.com/a/b", " ⋅ ", "Ana Lima", "(MIT)", "#muon", "**X**",
    "We propose FooNet (FN).", "$\\lambda$", "\\texttt{", "研究。", "---", "Title: A Study", ":", "[", "](", ")",
    "| title | authors |\n|---|---|\n", "| A Study | Ana Lima |", "> [!note] ", "> ", "```bibtex\n", "```", "@article{k,\n",
    "title = {T},", "}", "[[", "]]", "**", "~~", " — ", " by ", " (A & B, ICML 2026)", "Lima, A., & Chen, B. (2026). ",
    "authors:: ", "TODO ", ":PROPERTIES:\n", ":AUTHORS: A B\n", ":END:\n", "** ", "#+begin_quote\n", "---\ntags: [a]\n---\n",
    "arXiv:2602.09842", "doi:10.1/x", "et al.", "“", "”", "- [ ] ", "Term\n: def\n", "[^1]: note\n",
])


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    result = extract_text(text, "x.md")
    assert all(m.location.file == "x.md" and m.location.line >= 1 for m in result.mentions)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_NOTE_PIECES, st.text(max_size=12)), max_size=60).map("".join))
def test_note_like_text_never_raises_and_groups_partition(text: str) -> None:
    for file in ("x.md", "x.org"):
        mentions = extract_text(text, file).mentions
        groups = group_mentions(mentions)
        flat = [m for g in groups for m in g]
        assert sorted(map(id, flat)) == sorted(map(id, mentions))
        assert all(g for g in groups)


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_arbitrary_bytes_decode_or_report(data: bytes) -> None:
    text, problems = decode_notes(data, "x.md")
    assert text is not None or problems


@settings(max_examples=10_000, deadline=None, derandomize=True)
@given(st.lists(st.one_of(_NOTE_PIECES, st.text(max_size=8)), max_size=16).map("".join),
       st.sampled_from(["x.md", "x.org", "x.txt"]))
def test_ten_thousand_random_documents_never_raise(text: str, file: str) -> None:
    result = extract_text(text, file)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(1 <= m.location.line <= lines for m in result.mentions)
    assert all(p.line is None or 1 <= p.line <= lines for p in result.problems)


def test_absurdly_deep_indentation_does_not_overflow() -> None:
    text = "".join(" " * i + "- Some Paper Title Here\n" for i in range(3000)) + " " * 3000 + "- URL: https://arxiv.org/abs/2401.00001\n"
    result = extract_text(text, "deep.txt")
    assert len(result.mentions) == 1
    assert extract_text(text, "deep.md").mentions  # read, whatever Markdown makes of it


def test_deep_markdown_nesting_is_read_and_reported() -> None:
    text = "".join("  " * i + f"- Level {i} of the outline\n" for i in range(200))
    text += "  " * 200 + "- Some Paper Title Here\n" + "  " * 201 + "- URL: https://arxiv.org/abs/2401.00001\n"
    result = extract_text(text, "deep.md")
    assert [m.title for m in result.mentions] == ["Some Paper Title Here"]
    assert result.problems and "nested" in result.problems[0].message and result.problems[0].line > 1


def test_very_long_lines_and_broken_markdown_are_read() -> None:
    long_line = "word " * 200_000  # a 1 MB line
    text = (
        f"- {long_line}\n"
        "- Kernel Methods Strike Back — Lea Moreau, Tom Becker\n"
        "```python\nnever closed fence\n- Not A Paper — Ana Lima, Bo Chen\n"
    )
    mentions = extract_text(text, "n.md").mentions
    assert [m.title for m in mentions] == ["Kernel Methods Strike Back"]
    text = "| title | authors |\n|---|\n| Broken Table Row Title | Ana Lima, Bo Chen |\n[[[[ ]] ** __ ~~\n> [!note\n"
    extract_text(text, "n.md")
    assert extract_text(long_line + " arXiv:2401.00001\n", "n.txt").mentions[0].ids.arxiv == "2401.00001"


def test_one_bad_file_never_stops_the_others(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("@article{x,\n  title = {Broken\n", encoding="utf-8")
    (tmp_path / "b.md").write_bytes(b"\x00\x01\x02 binary")
    (tmp_path / "c.md").write_text("- Kernel Methods Strike Back — Lea Moreau, Tom Becker\n", encoding="utf-8")
    result = extract_paths([tmp_path], root=tmp_path)
    assert [m.title for m in result.mentions] == ["Kernel Methods Strike Back"]
    assert {p.file for p in result.problems} == {"a.md", "b.md"}
    assert any(p.file == "a.md" and p.line == 1 for p in result.problems)


def test_many_papers_in_one_file_are_each_found() -> None:
    # speed is measured in bench/extract_bench.py; this checks nothing is lost at size
    block = "- Paper Number {i} About Optimizers\n  - URL: https://arxiv.org/abs/2401.{i:05d}\n  - Authors: Ana Lima, Bo Chen, Cy Dee\n"
    text = "".join(block.format(i=i) for i in range(600))
    for name in ("big.md", "big.txt"):
        mentions = extract_text(text, name).mentions
        assert len(mentions) == 600 and len(group_mentions(mentions)) == 600
        assert [m.location.line for m in mentions] == list(range(1, 1800, 3))
