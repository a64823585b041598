"""Extraction never raises, whatever the notes contain."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.notes import extract_text, group_mentions
from citekit.notes.reader import decode_notes

_NOTE_PIECES = st.sampled_from([
    "• ", "- ", "* ", "1. ", "2) ", "  ", "    ", "# ", "## ", "\n", "\r\n", "\r", "URL: ", "著者: ", "まとめ: ",
    "Authors: ", "Summary: ", "arxiv: ", "doi: ", "openreview: ", "dblp: ", "https://icml.cc/virtual/2026/poster/1",
    "https://arxiv.org/abs/2401.00001", "https://github.com/a/b", " ⋅ ", "Ana Lima", "(MIT)", "#muon", "**X**",
    "We propose FooNet (FN).", "$\\lambda$", "\\texttt{", "研究。", "---", "Title: A Study", ":", "[", "](", ")",
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


def test_absurdly_deep_indentation_does_not_overflow() -> None:
    text = "".join(" " * i + "- Some Paper Title Here\n" for i in range(3000)) + " " * 3000 + "- URL: https://arxiv.org/abs/2401.00001\n"
    result = extract_text(text, "deep.md")
    assert len(result.mentions) == 1


def test_large_notes_file_is_fast() -> None:
    import time

    block = "- Paper Number {i} About Optimizers\n  - URL: https://arxiv.org/abs/2401.{i:05d}\n  - Authors: Ana Lima, Bo Chen, Cy Dee\n"
    text = "".join(block.format(i=i) for i in range(1500))
    start = time.perf_counter()
    mentions = extract_text(text, "big.md").mentions
    groups = group_mentions(mentions)
    assert len(mentions) == 1500 and len(groups) == 1500
    assert time.perf_counter() - start < 20
