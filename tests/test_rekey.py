"""Rewriting citation keys in LaTeX: only inside cite commands, atomically, encoding kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.library.rekey import (KeyMapError, compose_key_maps, read_key_map, rekey_file, rewrite_citations,
                                   write_key_map)

MAP = {"kingma2014adam": "kingma2015adam", "old": "new"}

TEX = r"""\section{Related work}
Adam \citep{kingma2014adam} and \citet[p.~3]{old, keep}.
\parencite[see][12]{ old } \textcite{kingma2014adam} \autocite*{old}
\cites(pre)(post)[1]{old}[2]{x,kingma2014adam} \footcite{old}\nocite{*}
\Citeauthor{old} \citeyearpar{old} \citealp{other}
The label kingma2014adam and \ref{old} and \label{old} stay. {old}
% \cite{old} in a comment stays
\emph{old} 50\% \cite{old}
"""


def test_only_cite_commands_are_rewritten() -> None:
    result = rewrite_citations(TEX, MAP)
    out = result.text.splitlines()
    assert out[1] == r"Adam \citep{kingma2015adam} and \citet[p.~3]{new, keep}."
    assert out[2] == r"\parencite[see][12]{ new } \textcite{kingma2015adam} \autocite*{new}"
    assert out[3] == r"\cites(pre)(post)[1]{new}[2]{x,kingma2015adam} \footcite{new}\nocite{*}"
    assert out[4] == r"\Citeauthor{new} \citeyearpar{new} \citealp{other}"
    assert out[5] == r"The label kingma2014adam and \ref{old} and \label{old} stay. {old}"
    assert out[6] == r"% \cite{old} in a comment stays"
    assert out[7] == r"\emph{old} 50\% \cite{new}"
    assert {c.line for c in result.changes} == {2, 3, 4, 5, 8}


def test_unmapped_text_is_returned_unchanged() -> None:
    assert rewrite_citations(TEX, {"absent": "x"}).text == TEX
    assert not rewrite_citations(TEX, {}).changed


def test_file_rewrite_keeps_crlf_and_latin1(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    tex.write_bytes("Caf\xe9 \\cite{old}\r\nnext\r\n".encode("latin-1"))
    result = rekey_file(tex, MAP)
    assert result.changed
    assert tex.read_bytes() == "Caf\xe9 \\cite{new}\r\nnext\r\n".encode("latin-1")
    assert not list(tmp_path.glob(".paper.tex.*"))  # no temporary file left behind


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    tex.write_text(TEX, encoding="utf-8")
    result = rekey_file(tex, MAP, dry_run=True)
    assert result.changed and tex.read_text(encoding="utf-8") == TEX


def test_key_maps_compose_so_old_papers_reach_todays_key(tmp_path: Path) -> None:
    assert compose_key_maps({"a": "b"}, {"b": "c"}) == {"a": "c", "b": "c"}
    path = tmp_path / "keymap.yaml"
    write_key_map(path, {"b": "c", "A": "c"})
    assert read_key_map(path) == {"A": "c", "b": "c"}
    assert path.read_text(encoding="utf-8").startswith("# citekit key map")
    path.write_text("- not a map\n", encoding="utf-8")
    with pytest.raises(KeyMapError, match="old-key: new-key"):
        read_key_map(path)


def test_keys_that_become_one_are_cited_once() -> None:
    key_map = {"raffel2019exploring": "t5", "lewis2019bart": "bart"}
    text = (r"\citealp{t5, raffel2019exploring} \citep{raffel2019exploring,t5,x} "
            r"\cite{a,lewis2019bart, bart ,b} \cite{dup, dup}")
    out = rewrite_citations(text, key_map).text
    assert out == r"\citealp{t5} \citep{t5,x} \cite{a,bart,b} \cite{dup, dup}"


def test_mixed_line_ends_are_kept_line_by_line(tmp_path: Path) -> None:
    tex = tmp_path / "paper.tex"
    original = b"first \\cite{old}\nsecond\r\nthird % \\cite{old}\rfourth \\cite{old}\n"
    tex.write_bytes(original)
    result = rekey_file(tex, MAP)
    assert [c.line for c in result.changes] == [1, 4]  # the commented one (line 3, CR-ended) stays
    assert tex.read_bytes() == original.replace(b"\\cite{old}\n", b"\\cite{new}\n")
