"""Turning a notes file's bytes into text, or into a clear problem report.

Notes come from many editors: UTF-8 with or without a BOM, UTF-16 from Windows tools,
Shift_JIS from older Japanese setups, CR-only line ends from classic Mac tools. Reading is
strict about what it guesses: a legacy Japanese encoding is accepted only when the result
really reads as Japanese, and anything else is reported with the command that fixes it.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from .result import Problem

#: Extensions read when a folder is given.
NOTES_SUFFIXES = (".md", ".markdown", ".txt", ".org")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
#: Legacy Japanese encodings tried when UTF-8 fails, with the name iconv knows them by.
_LEGACY_JAPANESE = (("cp932", "CP932"), ("euc_jp", "EUC-JP"))


def split_lines(text: str) -> list[str]:
    """Lines split on CRLF, CR or LF only.

    ``str.splitlines`` also breaks on form feeds and U+2028, which would shift every line
    number after them away from what the user's editor shows.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _looks_utf16_without_bom(data: bytes) -> str | None:
    """``UTF-16LE``/``UTF-16BE`` when every other byte is NUL (ASCII text saved as UTF-16)."""
    sample = data[:4096]
    if len(sample) < 4:
        return None
    odd, even = sample[1::2], sample[0::2]
    if odd.count(0) > 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
        return "UTF-16LE"
    if even.count(0) > 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "UTF-16BE"
    return None


def _decode_legacy_japanese(data: bytes) -> tuple[str, str] | None:
    """Text and iconv name when ``data`` is clean Shift_JIS/EUC-JP that reads as Japanese.

    Random Latin-1 bytes often decode without error as CP932 too; requiring hiragana (which
    every Japanese sentence has and no mis-decoded Western text produces) keeps the guess
    honest.
    """
    for codec, iconv_name in _LEGACY_JAPANESE:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        non_ascii = sum(1 for c in text if ord(c) > 127)
        if non_ascii and len(_HIRAGANA.findall(text)) >= max(2, 0.1 * non_ascii):
            return text, iconv_name
    return None


def decode_notes(data: bytes, file: str) -> tuple[str | None, list[Problem]]:
    """Text of a notes file, or None with the problem that explains why not.

    A problem may also come with text (a legacy encoding that was decoded): the mentions are
    still extracted and the user is told how to convert the file for good.
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return _non_empty(data.decode(codec), file)
            except UnicodeDecodeError as exc:
                return None, [Problem(file, None, f"starts with a {codec} byte-order mark but does not decode ({exc.reason}); re-save it as UTF-8")]
    if b"\x00" in data:
        utf16 = _looks_utf16_without_bom(data)
        if utf16:
            return None, [Problem(file, None, f"looks like {utf16} without a byte-order mark; convert it: iconv -f {utf16} -t UTF-8 '{file}' > '{file}.utf8'")]
        return None, [Problem(file, None, "binary file (contains NUL bytes), not notes; move it out of the notes folder")]
    try:
        return _non_empty(data.decode("utf-8"), file)
    except UnicodeDecodeError as exc:
        bad = exc.start
    legacy = _decode_legacy_japanese(data)
    if legacy:
        text, iconv_name = legacy
        text_or_none, problems = _non_empty(text, file)
        note = Problem(file, None, f"not UTF-8; read it as {iconv_name}. Convert it once to stop this warning: iconv -f {iconv_name} -t UTF-8 '{file}' > '{file}.utf8'")
        return text_or_none, [note, *problems]
    line = data[:bad].count(b"\n") + 1
    return None, [Problem(file, line, f"not UTF-8 (byte 0x{data[bad]:02x}); convert it, e.g. iconv -f SHIFT_JIS -t UTF-8 '{file}' > '{file}.utf8' (or -f CP1252 for Windows Western text)")]


def _non_empty(text: str, file: str) -> tuple[str | None, list[Problem]]:
    if not text.strip():
        return None, [Problem(file, None, "empty file, nothing to extract")]
    return text, []


def read_notes(path: Path, file: str) -> tuple[str | None, list[Problem]]:
    """Decoded text of ``path`` (``file`` is its display name) or the problems preventing it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(file, None, f"cannot read ({exc.strerror or exc}); check the path and its permissions")]
    if not data:
        return None, [Problem(file, None, "empty file, nothing to extract")]
    return decode_notes(data, file)


def notes_files(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Files to read, in a stable order: folders expand to their notes files, sorted.

    Hidden folders (``.git``, ``.citekit``) are skipped; a file named explicitly is read
    whatever its extension, since the user asked for it.
    """
    files: list[Path] = []
    problems: list[Problem] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*")
                if p.is_file() and p.suffix.lower() in NOTES_SUFFIXES
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        elif path.is_file():
            found = [path]
        else:
            problems.append(Problem(path.as_posix(), None, "no such file or folder; check the path"))
            continue
        for p in found:
            key = p.resolve()
            if key not in seen:
                seen.add(key)
                files.append(p)
    return files, problems
