"""Turning a notes file's bytes into text, or into a clear problem report.

Notes come from many editors: UTF-8 with or without a BOM, UTF-16 from Windows tools,
Shift_JIS from older Japanese setups, CR-only line ends from classic Mac tools. Reading is
strict about what it guesses: a legacy Japanese encoding is accepted only when the result
really reads as Japanese, and anything else is reported with the command that fixes it.
"""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path
from collections.abc import Callable

from citekit.notes.formats import folder_suffixes, format_of, in_folders
from citekit.notes.result import Problem
from citekit.notes.urls import add_missing_schemes_owned
from citekit.core.lazyre import lazy

#: Extensions read when a folder is given: those the notes formats' rows walk.
NOTES_SUFFIXES = folder_suffixes()

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_HIRAGANA = lazy(r"[\u3041-\u309f]")
#: Legacy Japanese encodings tried when UTF-8 fails, with the name iconv knows them by.
_LEGACY_JAPANESE = (("cp932", "CP932"), ("euc_jp", "EUC-JP"))


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
    # as .bib import does: the lines that are not UTF-8 read as Windows-1252 (what 8-bit
    # Western files from Windows and old Macs' exports are in practice), with a warning that
    # names the first such line, so a Latin-1 notes file is read, not skipped whole
    from citekit.bibtex.reader import decode_lines_8bit

    line = data[:bad].count(b"\n") + 1
    text, how = decode_lines_8bit(data)
    text_or_none, problems = _non_empty(text, file)
    note = Problem(file, line, f"not UTF-8 (byte 0x{data[bad]:02x}); read as {how}. If that garbled it, convert it once: iconv -f CP1252 -t UTF-8 '{file}' > '{file}.utf8' (or -f SHIFT_JIS, -f GBK, -f EUC-KR for other legacy text)")
    return text_or_none, [note, *problems]


def _non_empty(text: str, file: str) -> tuple[str | None, list[Problem]]:
    if not text or text.isspace():  # (what ``not text.strip()`` says, without a copy of the text)
        return None, [Problem(file, None, "empty file, nothing to extract")]
    return text, []


def read_notes(path: Path, file: str) -> tuple[str | None, list[Problem]]:
    """Decoded text of ``path`` (``file`` is its display name) or the problems preventing it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(file, None, f"cannot read ({exc.strerror or exc}); check the path and its permissions")]
    held = [data]
    del data
    return text_of(held, file)


def text_of(held: list[bytes], file: str) -> tuple[str | None, list[Problem]]:
    """:func:`read_notes` of a file whose bytes are the one item of ``held`` (taken out of
    it: a big file's bytes are not held while its text is completed)."""
    data = held.pop()
    if not data:
        return None, [Problem(file, None, "empty file, nothing to extract")]
    text, problems = decode_notes(data, file)
    del data
    if text is None or format_of(file).transcriber:
        return text, problems  # an export's addresses are completed in its transcript (its JSON or HTML is no notes text)
    text = repair_pdf_glyphs(text)
    owned = [text]
    del text
    return add_missing_schemes_owned(owned), problems


#: what text copied out of a PDF holds in place of letters: ligatures (``ﬁ`` for ``fi``) and
#: an accent set as a glyph of its own beside its letter (``Jastrz˛ebski``, ``Erd˝os``)
_PDF_GLYPHS = lazy("[\ufb00-\ufb06\u02c7\u02d8-\u02dd\u00b4\u00a8\u02c6]")
_LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
#: each spacing accent as the combining mark it stands for
_COMBINING = {"\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307", "\u02da": "\u030a", "\u02db": "\u0328",
              "\u02dc": "\u0303", "\u02dd": "\u030b", "\u00b4": "\u0301", "\u00a8": "\u0308", "\u02c6": "\u0302"}
#: accents a PDF set from LaTeX's ``\'e``, ``\"o``, ``\^o`` copy out before their letter
#: (``Herv´e J´egou``, ``Schr¨odinger``): joined only to a vowel after them inside a word,
#: since ``´`` also stands for an apostrophe typed on some keyboards (``don´t``, ``it´s``)
_BEFORE_VOWEL_ONLY = frozenset("\u00b4\u00a8\u02c6")
_VOWELS = frozenset("aeiouyAEIOUY")


def _composed(letter: str, accent: str) -> str | None:
    import unicodedata

    one = unicodedata.normalize("NFC", letter + _COMBINING[accent])
    return one if len(one) == 1 else None


def repair_pdf_glyphs(text: str) -> str:
    """``text`` with the letters a PDF copy broke put back: ligatures spelled out, and a
    spacing accent joined to the letter after it (or else before it) where the two make one
    letter (``z˛e`` -> ``zę``); an accent that makes no letter with either is left. Text
    without such a glyph is returned as it is (one search)."""
    if _PDF_GLYPHS.search(text) is None:
        return text
    out: list[str] = []
    last = 0
    for m in _PDF_GLYPHS.finditer(text):
        glyph, at = m.group(), m.start()
        if at < last:
            continue  # (the letter of an accent joined already)
        if glyph in _LIGATURES:
            out.append(text[last:at])
            out.append(_LIGATURES[glyph])
            last = at + 1
            continue
        after = text[at + 1:at + 2]
        if glyph in _BEFORE_VOWEL_ONLY:
            if after in _VOWELS and (at == 0 or text[at - 1].isalpha() or text[at - 1].isspace()) \
                    and (one := _composed(after, glyph)) is not None:
                out.append(text[last:at])
                out.append(one)
                last = at + 2
            continue
        if after.isalpha() and (one := _composed(after, glyph)) is not None:
            out.append(text[last:at])
            out.append(one)
            last = at + 2
        elif at > last and text[at - 1].isalpha() and (one := _composed(text[at - 1], glyph)) is not None:
            out.append(text[last:at - 1])
            out.append(one)
            last = at + 1
    out.append(text[last:])
    return "".join(out)


#: a ``%`` that reads as an escape (two hex digits follow), or a byte of a file name that is
#: not UTF-8 (Python holds it as a lone surrogate, ``os.fsdecode``'s "surrogateescape")
_NAME_ESCAPED = lazy("%(?=[0-9A-Fa-f]{2})|[\ud800-\udfff]")
_NAME_ESCAPE = lazy("%([0-9A-Fa-f]{2})")


def _escape_one(match: re.Match[str]) -> str:
    char = match.group()
    if char == "%":
        return "%25"
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte
        return f"%{code - 0xDC00:02X}"
    return "".join(f"%{b:02X}" for b in char.encode("utf-8", "surrogatepass"))  # a lone surrogate of a Windows name


def escape_name(name: str) -> str:
    """A file name as text that any file can hold (the sidecar, a JSON report).

    A name that is not UTF-8 (``L\xf6sung.md`` from a Latin-1 system) reaches Python with
    its undecodable bytes as lone surrogates, which no UTF-8 file can hold and no YAML
    reader accepts. Each such byte is written ``%XX`` (``L%F6sung.md``), and a ``%``
    followed by two hex digits is written ``%25`` so the escape stays reversible
    (:func:`unescape_name`). Every other name, ``50% done.md`` included, is as it is.
    """
    return _NAME_ESCAPED.sub(_escape_one, name) if _NAME_ESCAPED.search(name) else name


def _unescape_one(match: re.Match[str]) -> str:
    code = int(match.group(1), 16)
    if code == 0x25:
        return "%"
    return chr(0xDC00 + code) if code >= 0x80 else match.group()


def unescape_name(text: str) -> str:
    """The inverse of :func:`escape_name`: the name as ``os.fsdecode`` gives it (open it
    with ``Path(unescape_name(text))``; ``os.fsencode`` gives back its exact bytes)."""
    return _NAME_ESCAPE.sub(_unescape_one, text) if "%" in text else text


def notes_name(path: Path, root: Path) -> str:
    """How the library names a notes file: relative to the project ``root``, POSIX, escaped.

    Lexical, the symbolic links on the way kept as they are: a file read through a link
    is named where it was found (``notes/shared/a.md``), never by its absolute target, so
    the committed sidecar says the same on every machine. A notes folder outside the
    project gives ``../`` names (still relative); only a file on another Windows drive,
    where no relative path exists, is named without its drive.
    """
    try:
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    except ValueError:  # another drive
        relative = str(Path(path).relative_to(Path(path).anchor))
    return escape_name(Path(relative).as_posix())


#: the ``citekit.yaml`` switch (under ``paths:``) that reads notes symlinks pointing out of the notes folder
FOLLOW_OUT = "follow_symlinks_out_of_notes"


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _walk(folder: Path, follow_out: bool, problems: list[Problem]) -> list[Path]:
    """The notes files under ``folder``, hidden folders and files skipped, sorted.

    A symbolic link (to a file or a folder) whose target lies outside ``folder`` is read
    only with ``follow_out``; otherwise it is skipped with one problem naming the link, so
    a cloned repository cannot make citekit read, and write the name of, any file on the
    machine. A link to a file inside the folder is read (once, under its first name in
    sorted order); a link to a folder inside it is not walked, since that folder is walked
    where it is (as before: names do not change). A folder reached twice is walked once.
    """
    real_root = folder.resolve()
    found: list[Path] = []
    shown = lambda link: escape_name((Path(folder.name) / link.relative_to(folder)).as_posix())  # noqa: E731
    walked: set[Path] = set()
    for top, dirs, files in os.walk(folder, followlinks=True):
        here = Path(top)
        real_here = here.resolve()
        if real_here in walked:
            dirs[:] = []
            continue
        walked.add(real_here)
        kept = []
        for name in sorted(dirs):
            if name.startswith("."):
                continue
            link = here / name
            if link.is_symlink() and (_inside(link.resolve(), real_root)
                                      or not _link_allowed(link, shown, real_root, follow_out, problems)):
                continue
            kept.append(name)
        dirs[:] = kept
        for name in files:
            if name.startswith(".") or not in_folders(name, NOTES_SUFFIXES):
                continue
            path = here / name
            if not path.is_file():
                continue  # a broken link, a socket
            if path.is_symlink() and not _link_allowed(path, shown, real_root, follow_out, problems):
                continue
            found.append(path)
    return sorted(found)


def _link_allowed(link: Path, shown: Callable[[Path], str], real_root: Path, follow_out: bool,
                  problems: list[Problem]) -> bool:
    """Whether to read the link ``link`` (``shown``: its name in a message)."""
    target = link.resolve()
    if follow_out or _inside(target, real_root):
        return True
    problems.append(Problem(shown(link), None,
                            f"a symbolic link to {escape_name(str(target))}, outside the notes folder: not read. "
                            f"Copy the notes into the folder, or set `paths: {{{FOLLOW_OUT}: true}}` in citekit.yaml "
                            "to read notes that links point to"))
    return False


def notes_files(paths: list[Path], *, follow_out: bool = False) -> tuple[list[Path], list[Problem]]:
    """Files to read, in a stable order: folders expand to their notes files, sorted.

    Hidden folders (``.git``, ``.citekit``) are skipped; a file named explicitly is read
    whatever its extension, since the user asked for it. ``follow_out``: also read what
    symbolic links in a folder point to outside it (see :func:`_walk`).
    """
    files: list[Path] = []
    problems: list[Problem] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            found = _walk(path, follow_out, problems)
        elif path.is_file():
            found = [path]
        else:
            problems.append(Problem(escape_name(path.as_posix()), None, "no such file or folder; check the path"))
            continue
        for p in found:
            key = p.resolve()
            if key not in seen:
                seen.add(key)
                files.append(p)
    return files, problems
