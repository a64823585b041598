"""Reading .bib text as BibTeX reads it: concatenation, macros, encodings, duplicate @strings."""

from __future__ import annotations

from pathlib import Path

from citekit.bibtex.reader import decode_bytes, parse_bib_text, read_bib_file


def _fields(text: str) -> dict[str, str]:
    result = parse_bib_text(text, "x.bib")
    assert len(result.entries) == 1, result.problems
    return result.entries[0].fields


def test_concatenated_literals_are_joined() -> None:
    fields = _fields('@inproceedings{a, title = {T}, booktitle = "Proc. " # "EMNLP", note = {a} # " and " # {b}}')
    assert fields["booktitle"] == "Proc. EMNLP"
    assert fields["note"] == "a and b"


def test_month_range_concatenation_names_the_months() -> None:
    fields = _fields('@inproceedings{a, title = {T}, month = oct # "-" # nov}')
    assert fields["month"] == "October-November"


def test_a_lone_month_macro_stays_a_macro() -> None:
    assert _fields("@article{a, title = {T}, month = oct}")["month"] == "oct"


def test_macros_defined_through_macros_are_expanded() -> None:
    text = ('@string{morgan = "Morgan Kaufmann"}\n@string{aaai82-pub = morgan}\n'
            '@string{long = "Proc. " # aaai82}\n@string{aaai82 = "AAAI-82"}\n'
            "@inproceedings{a, title = {T}, publisher = aaai82-pub, booktitle = long}")
    fields = _fields(text)
    assert fields["publisher"] == "Morgan Kaufmann"
    assert fields["booktitle"] == "Proc. AAAI-82"  # defined after use: the file's definition still applies


def test_hash_inside_braces_or_quotes_is_text() -> None:
    fields = _fields('@misc{a, title = {C# in depth}, note = "issue #3"}')
    assert fields["title"] == "C# in depth"
    assert fields["note"] == "issue #3"


def test_an_undefined_macro_is_kept_as_its_name() -> None:
    assert _fields("@misc{a, title = {T}, publisher = nosuchmacro}")["publisher"] == "nosuchmacro"


def test_a_repeated_string_is_reported_as_such_and_the_later_one_wins() -> None:
    text = '@string{siam = "SIAM A"}\n@string{siam = "SIAM B"}\n@article{a, title = {T}, journal = siam}'
    result = parse_bib_text(text, "x.bib")
    assert result.entries[0].fields["journal"] == "SIAM B"
    messages = [p.message for p in result.problems]
    assert messages == ["@string 'siam' defined twice; the later definition wins (delete one of them to silence this)"]


def test_8bit_files_are_read_as_windows_1252() -> None:
    data = "@misc{a, title = {\u201cQuoted\u201d \u2013 5 \u20ac}}\n".encode("cp1252")
    text, enc = decode_bytes(data)
    assert "\u201cQuoted\u201d \u2013 5 \u20ac" in text
    assert enc == "windows-1252"
    assert not any("\x80" <= ch <= "\x9f" for ch in text)


def test_a_bad_line_in_a_utf8_file_is_read_as_windows_1252() -> None:
    data = "@misc{a, author = {M\u00fcller}}\n".encode() + "% \u2018note\u2019\n".encode("cp1252")
    text, enc = decode_bytes(data)
    assert "M\u00fcller" in text and "\u2018note\u2019" in text
    assert enc == "utf-8 with Windows-1252 lines"


def test_declared_encoding_header_is_honoured(tmp_path: Path) -> None:
    path = tmp_path / "jabref.bib"
    path.write_bytes("% Encoding: ISO-8859-15\n\n@misc{a, title = {5 \u20ac}}\n".encode("iso-8859-15"))
    result = read_bib_file(path)
    assert result.entries[0].fields["title"] == "5 \u20ac"
    assert result.encoding == "ISO-8859-15"
    assert not result.problems  # the file said what it is: nothing to warn about


def test_a_file_without_entries_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "notes.bib"
    path.write_text("just some text, no entries here\n", encoding="utf-8")
    result = read_bib_file(path)
    assert [p.message for p in result.problems] == [
        "no BibTeX entries found in notes.bib: is it a .bib file? (encoding read as utf-8; if that is wrong, re-save it as UTF-8)"]


def test_a_file_of_only_strings_says_so(tmp_path: Path) -> None:
    path = tmp_path / "bibstring.bib"
    path.write_text('@string{SCP = "Science of Computer Programming"}\n@string{TSE = "IEEE TSE"}\n', encoding="utf-8")
    (problem,) = read_bib_file(path).problems
    assert problem.message.startswith("no BibTeX entries found in bibstring.bib, only 2 @string definitions")


def test_a_declared_latin1_file_is_read_as_windows_1252(tmp_path: Path) -> None:
    path = tmp_path / "jabref.bib"
    path.write_bytes(b"% Encoding: ISO-8859-1\n\n@misc{a, title = {\x93Quoted\x94 caf\xe9}}\n")
    assert read_bib_file(path).entries[0].fields["title"] == "\u201cQuoted\u201d caf\u00e9"


def test_identifiers_are_read_from_every_field_that_names_them() -> None:
    from citekit.bibtex.reader import ids_from_fields

    def ids(**fields: str) -> dict[str, str | None]:
        return ids_from_fields(fields).as_dict()

    assert ids(doi="https://doi.org/10.1103/PhysRevB.1.2")["doi"] == "10.1103/physrevb.1.2"
    assert ids(doi="10.48550/arXiv.2301.00001")["arxiv"] == "2301.00001"
    assert ids(eprint="2301.00002v3", archiveprefix="arXiv")["arxiv"] == "2301.00002"
    assert ids(eprint="2301.00002", eprinttype="pubmed")["arxiv"] is None
    assert ids(arxivid="hep-th/9901001")["arxiv"] == "hep-th/9901001"
    assert ids(url="https://openreview.net/forum?id=AbC_1x")["openreview"] == "AbC_1x"
    assert ids(note="see \\url{https://dblp.org/rec/conf/icml/X25.html}")["dblp"] == "conf/icml/X25"
    assert ids(howpublished="http://arxiv.org/abs/2301.00003v1")["arxiv"] == "2301.00003"
    assert ids(biburl="https://doi.org/10.1000/XY", doi="10.2000/z")["doi"] == "10.2000/z"  # the doi field first
    # "arXiv" written in a journal or note, in any case the pattern reads (its ignore-case
    # i also matches the dotless ı and the dotted İ)
    for journal in ("arXiv preprint arXiv:2301.00004", "ARXIV: 2301.00004", "ArXİv 2301.00004", "arxıv 2301.00004"):
        assert ids(journal=journal)["arxiv"] == "2301.00004", journal
    assert ids(journal="arXiv", note="arXiv:2301.00005")["arxiv"] == "2301.00005"
    assert ids(journal="arXiv:2301.00006", eprint="2301.00007")["arxiv"] == "2301.00007"  # the eprint first
    assert ids(journal="Physical Review B", note="no identifier here") == {
        "doi": None, "arxiv": None, "openreview": None, "dblp": None}
    assert ids(biburl="https://doi.org/10.1000/XY")["doi"] == "10.1000/xy"
