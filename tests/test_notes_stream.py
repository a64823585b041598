"""``extract --json`` and ``extract -q`` stream a big plain-text notes file: it is read line by
line in pieces and each piece's mentions are written as they are found. The output must be
the bytes the whole-file reading gives, wherever the pieces are cut, whatever the line
endings, and a file that needs the whole text at once (pasted BibTeX, a Zotero report, a
chat's link previews, a legacy encoding) is still read whole.

Each comparison reads one file twice: whole (streaming off, pieces larger than the file)
and streamed (streaming on for any size, pieces of a few hundred characters, so papers
with their details, wrapped references and sections straddle the cuts).
"""

from __future__ import annotations

import json
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from citekit import api
from citekit.notes import outline, stream

from .helpers_cli import run

REPO = Path(__file__).resolve().parents[1]

#: shapes the bundled notes do not have: bare addresses, wrapped references, a bad pin,
#: a reference list, a person heading, an abstract, CJK text, plain paragraphs that wrap
#: (a piece must never start inside one)
EXTRA_BLOCKS = [
    "ICML 2026 Papers",
    "- Muon Is Scalable for LLM Training\n  - Authors: Jingyuan Liu, Jianlin Su\n  - arxiv.org/abs/2502.16982",
    "shampoo paper is arxiv.org/abs/1802.09568 btw, and openreview.net/forum?id=AbCdEf123",
    "- Zhang et al., \"Understanding deep\n  learning requires rethinking generalization\", ICLR 2017",
    "[1] A. Vaswani, N. Shazeer. Attention is all you need. NeurIPS 2017.\n[2] K. He, X. Zhang. Deep residual learning for\n    image recognition. CVPR 2016.",
    "- Adam: A Method for Stochastic Optimization\n  - DOI: not-a-doi\n  - Authors: Diederik P. Kingma, Jimmy Ba",
    "• Egor Shulgin (KAUST)\n  • Incorporating Preconditioning into Accelerated Approaches\n    • URL: https://icml.cc/virtual/2026/poster/61234",
    "We study the convergence of stochastic gradient descent with heavy-tailed noise and show that clipping "
    "yields optimal rates. Experiments on language models confirm the theory and reveal a sharp transition.",
    "論文メモ\n・大規模言語モデルの推論\n  ・著者: 山田 太郎, 佐藤 花子\n  ・URL: https://openreview.net/forum?id=XyZ987",
    "Lunch with the group",
    "Deep Residual Learning for Image Recognition. Kaiming He, Xiangyu Zhang, Shaoqing Ren,\nJian Sun. CVPR 2016.",
    "Attention Is All You Need\nAshish Vaswani, Noam Shazeer, Niki Parmar\nhttps://arxiv.org/abs/1706.03762",
    "## Attention Is All You Need\nAshish Vaswani, Noam Shazeer, Niki Parmar",
    "Scaling Laws for Neural Language Models\nJared Kaplan, Sam McCandlish\nSummary: loss falls as a power law in compute.",
]


def _bundled_blocks() -> list[str]:
    """The blocks (between blank lines) of the bundled notes: the shapes real notes have."""
    text = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "notes").glob("*.txt")))
    return [b for b in re.split(r"\n\s*\n", text) if b.strip()]


BLOCKS = _bundled_blocks() + EXTRA_BLOCKS


@contextmanager
def _reading(*, streamed: bool, piece_chars: int) -> Iterator[None]:
    """Streaming on for every file size (or off), and the outline's piece size set."""
    saved = (stream.STREAM_BYTES, outline.PIECE_CHARS)
    stream.STREAM_BYTES = 0 if streamed else 1 << 62
    outline.PIECE_CHARS = piece_chars
    try:
        yield
    finally:
        stream.STREAM_BYTES, outline.PIECE_CHARS = saved


def _project(root: Path, data: bytes, name: str = "big.txt") -> Path:
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "notes").mkdir(exist_ok=True)
    (root / "notes" / name).write_bytes(data)
    return root


def _both(root: Path, *args: str, piece_chars: int = 300) -> tuple[object, object]:
    """The command's result read whole, then streamed."""
    with _reading(streamed=False, piece_chars=1 << 62):
        whole = run(root, *args)
    with _reading(streamed=True, piece_chars=piece_chars):
        streamed = run(root, *args)
    return whole, streamed


def _document(blocks: list[str], newline: str = "\n", tail: str = "\n") -> bytes:
    return ((newline * 2).join(b.replace("\n", newline) for b in blocks) + tail).encode("utf-8")


def test_extract_json_of_a_big_file_streamed_is_byte_identical(tmp_path: Path) -> None:
    root = _project(tmp_path, _document(BLOCKS * 3))
    whole, streamed = _both(root, "extract", "--json")
    assert streamed.stdout_bytes == whole.stdout_bytes
    assert streamed.exit_code == whole.exit_code == 1  # (the bad DOI pin is a problem)
    data = json.loads(streamed.output)
    assert len(data["mentions"]) > 100 and data["problems"]
    with _reading(streamed=True, piece_chars=300):
        assert stream.streamable(root / "notes" / "big.txt", "notes/big.txt")  # really streamed
        pieces = list(outline.outline_pieces(stream.plain_lines(root / "notes" / "big.txt")))
    assert len(pieces) > 50  # really cut in many places


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_piece_at_every_line_where_one_may_start_gives_the_same_mentions(tmp_path: Path, newline: str) -> None:
    root = _project(tmp_path, _document(BLOCKS, newline))
    whole, streamed = _both(root, "extract", "--json", piece_chars=1)  # (a piece as soon as one may start)
    assert streamed.stdout_bytes == whole.stdout_bytes and streamed.exit_code == whole.exit_code
    with _reading(streamed=True, piece_chars=1):
        pieces = list(outline.outline_pieces(stream.plain_lines(root / "notes" / "big.txt")))
    assert len(pieces) > len(BLOCKS) / 2


def test_extract_quiet_streamed_prints_what_it_printed_whole(tmp_path: Path) -> None:
    root = _project(tmp_path, _document(BLOCKS * 2, newline="\r\n"))
    whole, streamed = _both(root, "extract", "-q")
    assert streamed.stdout_bytes == whole.stdout_bytes and streamed.stdout_bytes.count(b"\n") > 200
    assert streamed.stderr_bytes == whole.stderr_bytes and b"not a valid" in streamed.stderr_bytes
    assert streamed.exit_code == whole.exit_code


def test_the_first_mentions_are_given_before_the_file_is_read_to_its_end(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path, _document(BLOCKS * 3))
    read: list[int] = []
    lines = stream.plain_lines

    def counted(path: Path, *, complete: bool = True) -> Iterator[str]:
        for line in lines(path, complete=complete):
            if complete:
                read.append(1)
            yield line

    monkeypatch.setattr(stream, "plain_lines", counted)
    with _reading(streamed=True, piece_chars=300):
        mentions = iter(api.extract_stream(None, start=root))
        first = next(mentions)
        at_first = len(read)
        rest = list(mentions)
    assert first.location.line < 10 and len(rest) > 100
    assert at_first < len(read) / 10  # a few pieces read, not the file


@pytest.mark.parametrize("case", ["bibtex", "zotero", "preview", "bom", "cp1252", "dotted-i", "nul", "empty", "tsv"])
def test_a_file_that_needs_the_whole_text_is_read_whole_with_the_same_output(tmp_path: Path, case: str) -> None:
    body = BLOCKS[:40]
    special = {
        "bibtex": "@inproceedings{he2016,\n  title={Identity Mappings in Deep Residual Networks},\n  author={He, Kaiming},\n  year={2016}\n}",
        "zotero": "Attention Is All You Need\nItem Type Journal Article\n\nDeep Residual Learning\nItem Type Conference Paper",
        "preview": "Tom: https://arxiv.org/abs/2401.00001\narxiv.orgarxiv.org\nA Great Paper Title About Things",
        "dotted-i": "- İstanbul Workshop on Deep Learning\n  - Authors: Ayşe Yılmaz\n  - arxiv.org/abs/2401.00002",
        "nul": "a line with a \x00 byte",
        "tsv": "Title\tAuthors\tYear\nAttention Is All You Need\tAshish Vaswani, Noam Shazeer\t2017",
    }
    data = _document(body[:20] + [special.get(case, "Lunch")] + body[20:])
    if case == "bom":
        data = b"\xef\xbb\xbf" + data
    elif case == "cp1252":
        data = data + "- Caf\u00e9 Networks for Vision\n  - Authors: Zo\u00eb Smith\n".encode("cp1252")
    elif case == "empty":
        data = b"\n \n\t\n" * 50
    root = _project(tmp_path, data)
    with _reading(streamed=True, piece_chars=300):
        assert not stream.streamable(root / "notes" / "big.txt", "notes/big.txt")
    whole, streamed = _both(root, "extract", "--json")
    assert streamed.stdout_bytes == whole.stdout_bytes and streamed.exit_code == whole.exit_code


def test_other_formats_and_several_files_keep_their_order(tmp_path: Path) -> None:
    root = _project(tmp_path, _document(BLOCKS[:60]), "a.txt")
    (root / "notes" / "b.md").write_text("# ICML 2026\n\n- Muon Is Scalable for LLM Training\n  - Authors: Jingyuan Liu\n",
                                         encoding="utf-8")
    (root / "notes" / "c.txt").write_bytes(_document(BLOCKS[60:120], newline="\r", tail=""))
    whole, streamed = _both(root, "extract", "--json")
    assert streamed.stdout_bytes == whole.stdout_bytes
    files = [m["location"]["file"] for m in json.loads(streamed.output)["mentions"]]
    assert files == sorted(files) and {"notes/a.txt", "notes/b.md", "notes/c.txt"} <= set(files)


@settings(max_examples=60, deadline=None)
# (a paper heading, then after a blank line a wrapped reference of another paper: the
# reference was lost read whole and read without its title in a piece of its own)
@example(blocks=["## Attention Is All You Need\nAshish Vaswani, Noam Shazeer, Niki Parmar",
                 "Deep Residual Learning for Image Recognition. Kaiming He, Xiangyu Zhang, Shaoqing Ren,\nJian Sun. CVPR 2016."],
         newline="\n", tail="", piece_chars=1)
# (the same with a reference the parser is not sure of: the finder read it in its piece as
# a text of its own, sure it starts a reference, where in the whole text it is not)
@example(blocks=["## Attention Is All You Need\nAshish Vaswani, Noam Shazeer, Niki Parmar",
                 "Dropout. Nitish Srivastava, Geoffrey Hinton, Alex Krizhevsky, Ilya Sutskever,\nRuslan Salakhutdinov. JMLR 2014."],
         newline="\n", tail="", piece_chars=1)
# (a chat window's message header: every line below it is a message, in later pieces too)
@example(blocks=["Dana Whitfield  10:04 AM\nanyone read this one?",
                 "Scaling Laws for Neural Language Models\nJared Kaplan, Sam McCandlish\nSummary: loss falls as a power law in compute."],
         newline="\n", tail="", piece_chars=1)
@given(blocks=st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=40),
       newline=st.sampled_from(["\n", "\r\n", "\r"]),
       tail=st.sampled_from(["", "\n", "\n\n", "\r", "\r\n"]),
       piece_chars=st.integers(min_value=1, max_value=2000))
def test_streamed_mentions_equal_the_whole_files_wherever_the_pieces_fall(blocks: list[str], newline: str, tail: str,
                                                                          piece_chars: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = _project(Path(tmp), _document(blocks, newline, tail))
        with _reading(streamed=False, piece_chars=1 << 62):
            whole = api.extract(None, start=root)
            expected = ([m.to_json() for m in whole.mentions], [str(p) for p in whole.problems])
        with _reading(streamed=True, piece_chars=piece_chars):
            assert stream.streamable(root / "notes" / "big.txt", "notes/big.txt")
            found = api.extract_stream(None, start=root)
            mentions = [m.to_json() for m in found]
            assert (mentions, [str(p) for p in found.problems]) == expected
            assert found.count == len(mentions)


#: Markdown shapes: front matter, headings, a fence, a table, quotes, footnotes and link
#: references, HTML blocks, nested lists, beside the plain blocks above
MD_BLOCKS = [
    "---\nconference: ICML 2026\n---",
    "# Thursday morning",
    "## Optimizers\n\n- **Muon Is Scalable for LLM Training**\n  - Authors: Jingyuan Liu, Jianlin Su\n  - [arXiv](https://arxiv.org/abs/2502.16982)",
    "```\n- Not A Paper Inside A Fence\n  - Authors: Nobody Here\n```",
    "| Paper | Who | Where |\n|---|---|---|\n| Attention Is All You Need | Vaswani et al. | NeurIPS 2017 |\n| Deep Residual Learning for Image Recognition | He et al. | CVPR 2016 |",
    "> - Adam: A Method for Stochastic Optimization\n>   - Authors: Diederik P. Kingma, Jimmy Ba",
    "- Scaling Laws for Neural Language Models[^1]\n\n[^1]: Kaplan et al., 2020.",
    "- [Layer Normalization][ln]\n\n[ln]: https://arxiv.org/abs/1607.06450",
    "<details><summary>More</summary>\n\n- Dropout: A Simple Way to Prevent Neural Networks from Overfitting\n\n</details>",
    "1. Batch Normalization: Accelerating Deep Network Training\n   1. Authors: Sergey Ioffe, Christian Szegedy",
]


@pytest.mark.parametrize("chunk", [200, 3000])
def test_a_big_markdown_file_streamed_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         chunk: int) -> None:
    """A big Markdown file is read whole (its reader cuts it into sections that parse alone)
    and each section's mentions are written as they are made: the bytes of the whole reading."""
    from citekit.notes.formats import markdown

    monkeypatch.setattr(markdown, "CHUNK_CHARS", chunk)  # the same sections both ways
    blocks = MD_BLOCKS[:1] + (MD_BLOCKS[1:] + BLOCKS[:30]) * 3
    root = _project(tmp_path, _document(blocks), "big.md")
    whole, streamed = _both(root, "extract", "--json")
    assert streamed.stdout_bytes == whole.stdout_bytes and streamed.exit_code == whole.exit_code
    assert len(json.loads(streamed.output)["mentions"]) > 60
    with _reading(streamed=True, piece_chars=300):
        assert stream.streamable(root / "notes" / "big.md", "notes/big.md")  # really streamed


def test_a_big_markdown_files_first_mentions_come_before_its_last_section_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citekit.notes import extract as extract_module
    from citekit.notes.formats import markdown

    monkeypatch.setattr(markdown, "CHUNK_CHARS", 500)
    root = _project(tmp_path, _document(MD_BLOCKS[1:] * 20), "big.md")
    sections: list[int] = []
    run = extract_module._Extractor.run

    def counted(self, roots):
        sections.append(1)
        return run(self, roots)

    monkeypatch.setattr(extract_module._Extractor, "run", counted)
    with _reading(streamed=True, piece_chars=300):
        mentions = iter(api.extract_stream(None, start=root))
        next(mentions)
        at_first = len(sections)
        list(mentions)
    assert at_first < len(sections) / 10  # one section read, not the file


@pytest.mark.parametrize("name", ["big.md", "big.txt"])
def test_a_citation_on_a_wrapped_line_of_a_later_piece_keeps_its_own_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """An author-year citation written on the second line of a wrapped paragraph is placed on
    that line; in a piece read after the first, the line must be the file's, not the piece's
    (it was: the mention landed lines earlier, out of order in the streamed output)."""
    from citekit.notes.formats import markdown

    monkeypatch.setattr(markdown, "CHUNK_CHARS", 200)
    para = "Scaling results keep coming in and the compute-optimal\nrecipe of (Hoffmann et al., 2022) still holds up."
    blocks = ["# Reading"] + [f"- Paper number {i} about transformers\n  - Authors: Ann Lee" for i in range(12)] + [para]
    data = _document(blocks)
    root = _project(tmp_path, data, name)
    whole, streamed = _both(root, "extract", "--json", piece_chars=200)
    assert streamed.stdout_bytes == whole.stdout_bytes
    cited = [m for m in json.loads(streamed.output)["mentions"] if m.get("kind") == "cited"]
    written = data.decode("utf-8").splitlines().index("recipe of (Hoffmann et al., 2022) still holds up.") + 1
    assert [m["location"]["line"] for m in cited] == [written]


def test_a_file_read_whole_in_pieces_reads_as_one_piece(tmp_path: Path) -> None:
    """A plain-text file longer than a piece is read whole in pieces too (extract, sync):
    each piece is read as it stands in the file, so the mentions are those of one piece,
    and those a streamed reading of the file (cut in the same places) gives."""
    heading = "## Attention Is All You Need\nAshish Vaswani, Noam Shazeer, Niki Parmar"
    dropout = "Dropout. Nitish Srivastava, Geoffrey Hinton, Alex Krizhevsky, Ilya Sutskever,\nRuslan Salakhutdinov. JMLR 2014."
    root = _project(tmp_path, _document(BLOCKS[:40] + [heading, dropout] + BLOCKS[40:80]))
    with _reading(streamed=False, piece_chars=1 << 62):
        one = [m.to_json() for m in api.extract(None, start=root).mentions]
    with _reading(streamed=False, piece_chars=1):
        pieces = [m.to_json() for m in api.extract(None, start=root).mentions]
    assert pieces == one and len(one) > 40


@pytest.mark.parametrize("blocks", [
    ["## Attention Is All You Need", "Ashish Vaswani, Noam Shazeer, Niki Parmar"],
    ["## Attention Is All You Need", "> Ashish Vaswani, Noam Shazeer, Niki Parmar"],
    ["- Adam: A Method for Stochastic Optimization", ">   - Authors: Diederik P. Kingma, Jimmy Ba"],
    ["> - Adam: A Method for Stochastic Optimization", ">   - Authors: Diederik P. Kingma, Jimmy Ba"],
    ["- Adam: A Method for Stochastic Optimization", "- Authors: Diederik P. Kingma, Jimmy Ba"],
], ids=["authors-under-heading", "quoted-authors", "quoted-nested-detail", "quoted-list", "detail-bullet"])
def test_no_piece_starts_at_a_line_the_line_above_takes_in(tmp_path: Path, blocks: list[str]) -> None:
    """After a blank line, a line the outline hangs under what is above it (a heading's
    author list, a quoted line indented under a quoted bullet, a detail bullet) starts no
    piece: read alone, the piece lost the paper's authors."""
    root = _project(tmp_path, _document(blocks))
    whole, streamed = _both(root, "extract", "--json", piece_chars=1)
    assert streamed.stdout_bytes == whole.stdout_bytes
    assert json.loads(whole.output)["mentions"][0]["authors"]
