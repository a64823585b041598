"""Bad input never stops extraction: each bad file is reported and skipped."""

from __future__ import annotations

import codecs
from pathlib import Path

from citekit.notes import extract_paths, extract_text

PAPER = "- Flat Minima and Generalization\n  - URL: https://icml.cc/virtual/2026/poster/61057\n"
JAPANESE = "・ 平坦な解と汎化の研究\n  ・ URL: https://icml.cc/virtual/2026/poster/61057\n  ・ まとめ: 平坦な解が必ずしも良い汎化を保証しないことを示す研究。\n"


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_bad_files_are_reported_and_the_rest_still_read(tmp_path: Path) -> None:
    write(tmp_path, "a-empty.md", b"")
    write(tmp_path, "b-blank.txt", b"  \n\n\t\n")
    write(tmp_path, "c-binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(tmp_path, "d-latin1.txt", "- Caf\u00e9 paper\n".encode("latin-1"))
    write(tmp_path, "e-good.md", PAPER.encode())
    result = extract_paths([tmp_path], root=tmp_path)
    assert [m.location.file for m in result.mentions] == ["e-good.md"]
    messages = {p.file: p.message for p in result.problems}
    assert set(messages) == {"a-empty.md", "b-blank.txt", "c-binary.md", "d-latin1.txt"}
    assert "empty" in messages["a-empty.md"] and "empty" in messages["b-blank.txt"]
    assert "binary" in messages["c-binary.md"]
    assert "not UTF-8" in messages["d-latin1.txt"] and "iconv" in messages["d-latin1.txt"]
    latin = next(p for p in result.problems if p.file == "d-latin1.txt")
    assert latin.line == 1


def test_utf8_bom_and_utf16_bom_are_read(tmp_path: Path) -> None:
    write(tmp_path, "bom8.md", codecs.BOM_UTF8 + PAPER.encode())
    write(tmp_path, "bom16.md", PAPER.encode("utf-16"))  # Python writes the BOM
    result = extract_paths([tmp_path], root=tmp_path)
    assert result.problems == []
    assert [(m.location.file, m.title) for m in result.mentions] == [
        ("bom16.md", "Flat Minima and Generalization"),
        ("bom8.md", "Flat Minima and Generalization"),
    ]


def test_utf16_without_bom_is_explained(tmp_path: Path) -> None:
    write(tmp_path, "n.md", PAPER.encode("utf-16-le"))
    [problem] = extract_paths([tmp_path], root=tmp_path).problems
    assert "UTF-16LE" in problem.message and "iconv -f UTF-16LE" in problem.message


def test_shift_jis_japanese_is_decoded_with_a_warning(tmp_path: Path) -> None:
    write(tmp_path, "sjis.txt", JAPANESE.encode("cp932"))
    write(tmp_path, "eucjp.txt", JAPANESE.encode("euc_jp"))
    result = extract_paths([tmp_path], root=tmp_path)
    assert [(m.location.file, m.title) for m in result.mentions] == [
        ("eucjp.txt", "平坦な解と汎化の研究"),
        ("sjis.txt", "平坦な解と汎化の研究"),
    ]
    assert all(m.summary and m.summary.endswith("研究。") for m in result.mentions)
    notes = {p.file: p.message for p in result.problems}
    assert "iconv -f CP932 -t UTF-8" in notes["sjis.txt"]
    assert "iconv -f EUC-JP -t UTF-8" in notes["eucjp.txt"]


def test_crlf_and_cr_line_ends_keep_line_numbers(tmp_path: Path) -> None:
    body = "Title line\n\n" + PAPER + "\n- Second Paper Title\n  - URL: https://arxiv.org/abs/2401.00001\n"
    for name, newline in (("crlf.md", "\r\n"), ("cr.md", "\r"), ("lf.md", "\n")):
        write(tmp_path, name, body.replace("\n", newline).encode())
    result = extract_paths([tmp_path], root=tmp_path)
    lines = {}
    for m in result.mentions:
        lines.setdefault(m.location.file, []).append(m.location.line)
    assert lines == {"cr.md": [3, 6], "crlf.md": [3, 6], "lf.md": [3, 6]}


def test_form_feed_does_not_shift_lines() -> None:
    [m] = extract_text("intro\x0c still line one\n" + PAPER, "n.md").mentions
    assert m.location.line == 2


def test_folder_expansion_sorted_filtered_and_hidden_skipped(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    write(notes, "b.md", PAPER.encode())
    write(notes, "a/z.markdown", PAPER.encode())
    write(notes, "c.org", PAPER.encode())
    write(notes, "d.txt", PAPER.encode())
    write(notes, "e.pdf", PAPER.encode())
    write(notes, ".hidden/x.md", PAPER.encode())
    result = extract_paths([notes, notes / "b.md"], root=tmp_path)
    assert [m.location.file for m in result.mentions] == [
        "notes/a/z.markdown", "notes/b.md", "notes/c.org", "notes/d.txt",
    ]


def test_missing_path_is_a_problem_not_an_error(tmp_path: Path) -> None:
    write(tmp_path, "ok.md", PAPER.encode())
    result = extract_paths([tmp_path / "nope", tmp_path / "ok.md"], root=tmp_path)
    assert [m.location.file for m in result.mentions] == ["ok.md"]
    [problem] = result.problems
    assert "no such file" in problem.message


def test_file_outside_root_is_named_relative_to_it(tmp_path: Path) -> None:
    # never absolute: the name goes into the committed sidecar (a notes folder set outside
    # the project must not write the machine's folders, or the user's name, into it)
    path = write(tmp_path / "elsewhere", "n.md", PAPER.encode())
    [m] = extract_paths([path], root=tmp_path / "project").mentions
    assert m.location.file == "../elsewhere/n.md"


def test_a_latin1_notes_file_is_read_as_windows_1252_with_a_warning(tmp_path: Path) -> None:
    # as .bib import does: a notes file saved by an 8-bit Western editor is read, not skipped
    text = "# Lectures\n\n- Deep Residual Learning for Image Recognition\n  - Authors: Kaiming He, J\u00fcrgen M\u00fcller\n"
    write(tmp_path, "old.md", text.encode("cp1252"))
    result = extract_paths([tmp_path], root=tmp_path)
    [mention] = result.mentions
    assert mention.title == "Deep Residual Learning for Image Recognition"
    assert mention.authors == ["Kaiming He", "J\u00fcrgen M\u00fcller"]
    [problem] = result.problems
    assert problem.line == 4 and "windows-1252" in problem.message and "iconv" in problem.message


def test_utf8_lines_of_a_mixed_file_stay_utf8(tmp_path: Path) -> None:
    data = "- Attention Is All You Need \u2014 Ashish Vaswani, \u0141ukasz Kaiser\n".encode() + b"- note: caf\xe9\n"
    write(tmp_path, "mixed.md", data)
    result = extract_paths([tmp_path], root=tmp_path)
    assert result.mentions[0].authors == ["Ashish Vaswani", "\u0141ukasz Kaiser"]
    assert "utf-8 with Windows-1252 lines" in result.problems[0].message
