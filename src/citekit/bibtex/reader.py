"""Reading BibTeX files, whatever their encoding, without losing the good entries.

A library that has one broken entry is still a library: every entry that parses is kept,
and every one that does not is reported with its line so the user can fix it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

from typing import Any

from citekit.core.ids import normalize_arxiv, normalize_dblp, normalize_doi, normalize_openreview
from citekit.core.model import Entry, Ids
from citekit.core.text import squash_spaces
from citekit.bibtex.syntax import Block, Token
from citekit.bibtex.collector import collector_paused
from citekit.core.lazyre import lazy


@dataclass
class Problem:
    """Something wrong in an input file, located as precisely as we can."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass
class BibParseResult:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    preamble: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    #: the source text of each entry, parallel to ``entries`` (to keep a rejected one verbatim)
    raws: list[str] = field(default_factory=list)
    #: the source text of every block that could not be read (duplicate keys included)
    unparsed: list[str] = field(default_factory=list)
    #: entries skipped because an earlier entry of the file has their key: (key, line)
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    #: how many ``@string`` definitions the text had
    strings: int = 0
    #: with ``between=True``: the text before each entry of ``entries`` since the previous
    #: one (comments, ``@comment``/``@string``/``@preamble`` blocks, stray lines, as written;
    #: blocks that could not be read are left out), and the text after the last entry
    between: list[str] = field(default_factory=list)
    after: str = ""
    #: the line each entry starts on, parallel to ``entries``
    lines: list[int] = field(default_factory=list)


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Text and the encoding used; never fails, never garbles more than a bad line.

    Real .bib files come in UTF-8, UTF-8 or UTF-16 with a BOM, UTF-16 without one (NUL
    bytes give it away), files that name their encoding on a first line (JabRef writes
    ``% Encoding: windows-1252``), and legacy 8-bit encodings. A UTF-8 file with a few bad
    bytes is read line by line, so only the lines holding them are read as Windows-1252
    (see :func:`non_utf8_lines`) instead of every accented name in the file. Windows-1252
    rather than Latin-1, because 8-bit files from Windows tools use its curly quotes, dashes
    and euro sign, which Latin-1 would turn into invisible control characters. CR-only and
    CRLF line ends are normalised so line numbers mean what an editor shows.
    """
    text, enc = _decode_any(data)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, enc


def _decode_any(data: bytes) -> tuple[str, str]:
    """Decode by BOM, NUL pattern, declared encoding, UTF-8, then line-wise Windows-1252."""
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(enc, errors="replace"), enc
    enc = _utf16_without_bom(data)
    if enc:
        return data.decode(enc, errors="replace"), enc
    declared = declared_encoding(data)
    if declared and codecs.lookup(declared).name != "utf-8":
        if codecs.lookup(declared).name in ("cp1252", "iso8859-1"):
            return _decode_8bit(data), declared  # as browsers do: "Latin-1" files are Windows-1252 in practice
        return data.decode(declared, errors="replace"), declared
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    return decode_lines_8bit(data)


def decode_lines_8bit(data: bytes) -> tuple[str, str]:
    """Text of bytes that are not all UTF-8: each line that is UTF-8 as such, each other one
    as Windows-1252; and which of the two the file was ("windows-1252", or "utf-8 with
    Windows-1252 lines" when some lines were UTF-8 beyond ASCII). Never fails."""
    lines = data.split(b"\n")
    text = "\n".join(_decode_line(line) for line in lines)
    mixed = any(_is_utf8(line) and not line.isascii() for line in lines)
    return text, ("utf-8 with Windows-1252 lines" if mixed else "windows-1252")


_ENCODING_LINE = lazy(rb"^[ \t]*%+[ \t]*(?:Encoding|coding)[ \t]*[:=][ \t]*([A-Za-z0-9_.:-]+)", re.I | re.M)


def declared_encoding(data: bytes) -> str | None:
    """The encoding a file names in its first lines (``% Encoding: windows-1252``), if Python knows it."""
    m = _ENCODING_LINE.search(data[:1000])
    if not m:
        return None
    name = m.group(1).decode("ascii")
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return name


#: Windows-1252 for the bytes 0x80-0x9F it defines; the five it leaves undefined stay as read
_CP1252_C1 = {0x80 + i: bytes([0x80 + i]).decode("cp1252", errors="ignore") or chr(0x80 + i) for i in range(32)}


def _decode_8bit(data: bytes) -> str:
    """Windows-1252, never failing (its five undefined bytes are kept as Latin-1)."""
    return data.decode("latin-1").translate(_CP1252_C1)


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the NUL bytes say so (ASCII text in UTF-16 is half NULs)."""
    if len(data) < 4 or b"\x00" not in data[:200]:
        return None
    sample = data[:2000]
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd > len(sample) // 4 and even < odd // 8:
        return "utf-16-le"
    if even > len(sample) // 4 and odd < even // 8:
        return "utf-16-be"
    return None


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return _decode_8bit(line)


def non_utf8_lines(data: bytes) -> list[int]:
    """1-based numbers of the lines that are not valid UTF-8 (empty for a clean file)."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _utf16_without_bom(data):
        return []
    declared = declared_encoding(data)
    if declared and codecs.lookup(declared).name != "utf-8":
        return []  # the file says what it is: nothing to guess
    try:
        data.decode("utf-8")
        return []
    except UnicodeDecodeError:
        pass
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return [i + 1 for i, line in enumerate(lines) if not _is_utf8(line)]


def encoding_problems(data: bytes, name: str) -> list["Problem"]:
    """Problems to report for a file that is not clean UTF-8."""
    bad = non_utf8_lines(data)
    if not bad:
        return []
    if len(bad) > 20:
        return [Problem(name, None, "not UTF-8; read as Windows-1252 (re-save the file as UTF-8 to be sure)")]
    return [Problem(name, n, "this line is not UTF-8; read as Windows-1252: check its accents, then re-save as UTF-8")
            for n in bad]


def read_bib_file(path: Path, name: str | None = None, macros: "Macros | None" = None) -> BibParseResult:
    """Parse a .bib file in any common encoding; problems are reported, never raised.

    ``macros`` carries ``@string`` definitions from files read before this one (several
    files given to one command share them in order, as ``bibtex`` does); it is updated
    with this file's definitions.
    """
    data = Path(path).read_bytes()
    text, enc = decode_bytes(data)
    with collector_paused():
        result = parse_bib_text(text, name or str(path), macros, damaged="fields")
    result.encoding = enc
    if enc != "utf-8":  # "utf-8" means the whole file decoded as such: no line to report
        result.problems[:0] = encoding_problems(data, name or str(path))
    if text.strip() and not result.entries and not (macros is not None and result.strings):
        result.problems.append(Problem(name or str(path), None, _no_entries_message(Path(path).name, result, enc)))
    return result


def _no_entries_message(name: str, result: BibParseResult, enc: str) -> str:
    """Why a non-empty file gave nothing, and what to check."""
    if result.strings:
        return (f"no BibTeX entries found in {name}, only {result.strings} @string definitions; they apply only "
                "within their own file here (give the macro file first in one `citekit import A.bib B.bib` call, "
                "or pass it with --strings)")
    return f"no BibTeX entries found in {name}: is it a .bib file? (encoding read as {enc}; if that is wrong, re-save it as UTF-8)"


def parse_bib_text(text: str, name: str, macros: "Macros | None" = None, *, damaged: str = "text",
                   between: bool = False) -> BibParseResult:
    """Parse BibTeX text into :class:`Entry` objects with values as BibTeX would read them.

    The text is split by :mod:`citekit.bibtex.syntax` (BibTeX's own rules: a
    backslash is an ordinary character, a ``"`` inside braces does not end a quoted
    value). Values are then evaluated here: literals joined at ``#``, ``@string`` macros
    expanded in file order (a later definition wins from where it stands), white space
    collapsed as BibTeX collapses it. An undefined macro is kept as its name and reported
    with its entry and field; a broken value is kept verbatim and reported with its line.

    ``damaged`` says what becomes of an entry with a broken value: ``"fields"`` (reading
    someone's file) keeps the entry, the broken field's raw text and every other field;
    ``"text"`` (reading ``library.bib``, which is written back) keeps the whole block
    verbatim among the unparsed blocks so the user's text is never rewritten.

    ``between``: also keep the text around the entries (:attr:`BibParseResult.between`),
    which ``library.bib`` writes back where it stood.
    """
    from citekit.bibtex.syntax import split_blocks

    result = BibParseResult()
    blocks = split_blocks(text)
    if macros is None:
        macros = Macros(final={})
    macros.final = dict(macros.current)
    for block in blocks:
        if block.kind == "string" and block.fields:
            macros.final[block.fields[0].name.lower()] = block.fields[0].tokens
    macros.start_file(len(text))
    seen_keys: set[str] = set()
    #: field name as written -> its lower case: one string per name for the whole file
    #: (a 7k-entry library writes some 65,000 names, a few dozen different ones)
    lowered: dict[str, str] = {}
    for block in blocks:
        if damaged == "text" and block.kind == "entry" and block.problems:
            result.unparsed.append(block.raw.strip())
            msg = "; ".join(m for _line, m in block.problems)
            result.problems.append(Problem(name, block.line, f"unreadable entry kept as text ({msg}); fix it and run again"))
            continue
        for line, message in block.problems:
            where = f"@{block.entry_type}{{{block.key}}}: " if block.key else f"@{block.entry_type}: "
            if damaged == "fields" and "is not closed" in message:
                message += "; imported with the fields read up to there (close it with '}' to import the rest)"
            elif damaged == "fields" and message.startswith("expected ',' after the key"):
                message += "; read as if it were there (add the ',')"
            result.problems.append(Problem(name, line, where + message))
        if block.kind == "string":
            if not block.fields:
                continue
            f = block.fields[0]
            if f.name.lower() in macros.defined_here:
                result.problems.append(Problem(name, block.line, f"@string '{f.name}' defined twice; the later definition "
                                               "wins (delete one of them to silence this)"))
            macros.defined_here.add(f.name.lower())
            missing: list[str] = []
            try:
                macros.define(f.name, f.tokens if f.broken is None else [Token("literal", f.broken)], missing,
                              line=block.line)
            except MacroBomb as bomb:
                result.problems.append(Problem(name, block.line, f"@string '{f.name}': macro bomb: {bomb.why}; it is "
                                               "not expanded, and values that use it are kept as written (fix its "
                                               "definition)"))
            for macro in missing:
                result.problems.append(Problem(name, block.line, f"@string '{f.name}' uses undefined macro '{macro}'"))
            result.strings += 1
        elif block.kind == "preamble":
            if block.value_text:
                result.preamble.append(block.value_text)
        elif block.kind == "entry":
            if block.key and block.key in seen_keys:
                result.unparsed.append(block.raw.strip())
                result.duplicates.append((block.key, block.line))
                result.problems.append(Problem(name, block.line, f"duplicate key '{block.key}': this later entry was "
                                               "skipped; rename it or merge it by hand"))
                continue
            seen_keys.add(block.key)
            result.entries.append(_to_entry(block, macros, name, result.problems, lowered))
            result.raws.append(block.raw)
            result.lines.append(block.line)
    macros.defined_here = set()
    if damaged == "fields":
        result.problems.extend(_stray_fields(text, blocks, name))
    if between:
        result.between, result.after = _texts_between(text, blocks, result.raws)
    return result


#: a line of text outside any entry that reads like one of its fields (``  author = {...},``)
_FIELD_LINE = lazy(r"(?m)^[ \t]*([A-Za-z][\w.:+-]*)[ \t]*=[ \t]*[{\"\w]")


def _stray_fields(text: str, blocks: list[Block], name: str) -> list[Problem]:
    """A problem for each entry followed by lines that read like its fields: a ``}`` too many
    in a value closed the entry early (``title = {A}} B},``), and BibTeX, like this reader,
    ignores the text up to the next ``@`` -- the fields there are lost unless someone says so.

    Found in the text between blocks, where each is found as :func:`_texts_between` finds it."""
    problems: list[Problem] = []
    pos = 0
    find, starts = text.find, text.startswith
    for i, block in enumerate(blocks):
        at = find("@", pos)
        while at >= 0 and not starts(block.raw, at):
            at = find("@", at + 1)
        if at < 0:
            return problems  # (every block's text is a slice of the file's: not reached)
        if i and blocks[i - 1].kind == "entry":
            problems.extend(_stray_after(text, pos, at, blocks[i - 1], name))
        pos = at + len(block.raw)
    if blocks and blocks[-1].kind == "entry":
        problems.extend(_stray_after(text, pos, len(text), blocks[-1], name))
    return problems


def _stray_after(text: str, start: int, end: int, block: Block, name: str) -> list[Problem]:
    """The problem of the field-like lines between ``start`` and ``end``, after ``block``."""
    found = list(_FIELD_LINE.finditer(text, start, end))
    if not found:
        return []
    names = ", ".join(dict.fromkeys(m.group(1).lower() for m in found))
    closed = text.count("\n", 0, start) + 1
    first = text.count("\n", 0, found[0].start(1)) + 1
    what = f"@{block.entry_type}{{{block.key}}}" if block.key else f"@{block.entry_type}"
    return [Problem(name, closed, f"{what}: a '}}' too many closed the entry here, so the lines after it "
                    f"(from line {first}: {names}) are outside any entry and were not imported; remove the extra "
                    "'}' and import the file again")]


#: blocks BibTeX reads outside entries, kept as written with the text around them
_KEPT_KINDS = frozenset({"comment", "string", "preamble"})


def _texts_between(text: str, blocks: list[Block], raws: list[str]) -> tuple[list[str], str]:
    """The text before each entry read (``raws``: their blocks' texts, in order) since the
    previous one, and the text after the last: what BibTeX ignores or reads outside
    entries, which a rewrite of the file must not drop. A block that could not be read
    is left out (it is kept verbatim elsewhere); the text around it joins the next gap.

    Every block's text is the file's text from its ``@`` on, and blocks come in file
    order with no ``@`` that starts a block between them, so each is found where it
    stands: at the first ``@`` after the end of the one before where its text starts."""
    out: list[str] = []
    pieces: list[str] = []
    pos = 0
    i, n = 0, len(raws)
    find, starts = text.find, text.startswith
    for block in blocks:
        raw = block.raw
        at = find("@", pos)
        while at >= 0 and not starts(raw, at):  # an "@" in a comment line
            at = find("@", at + 1)
        assert at >= 0, "a block's text is a slice of the file's text"
        if i < n and raw is raws[i]:  # an entry read: the gap before it is complete
            out.append("".join(pieces) + text[pos:at] if pieces else text[pos:at])
            pieces = []
            i += 1
        else:
            pieces.append(text[pos:at])
            if block.kind in _KEPT_KINDS:  # (an entry not read is kept verbatim elsewhere)
                pieces.append(raw)
        pos = at + len(raw)
    pieces.append(text[pos:])
    return out, "".join(pieces)


_MONTH_NAMES = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
    "jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}


#: Bounds on ``@string`` expansion: a 717-byte file of 26 macros each doubling the one
#: before (``a1 = a0 # a0``) would otherwise expand to gigabytes. In the 570 .bib files of
#: the corpora beside the repository (1,871 ``@string``s) the longest value made from
#: macros is 180 characters, the deepest chain of macros defined through macros is 4, and
#: a whole file takes at most 24,796 characters from macros (at most 0.2 times its size).
#: Characters one value may take from macros (over 500 times the longest real one):
MACRO_VALUE_LIMIT = 100_000
#: How deep macros may be defined through macros (8 times the deepest real chain); also
#: bounds the recursion through macros used before their definition.
MACRO_DEPTH_LIMIT = 32
#: Characters all the values of one file may take from macros: this plus
#: :data:`MACRO_FILE_FACTOR` times the file's length (40 times the largest real total),
#: so what a file expands to, and the time it takes, stay linear in its size however
#: many values use a big macro. A value past a bound is charged what it took too.
MACRO_FILE_LIMIT = 1_000_000
MACRO_FILE_FACTOR = 10


class MacroBomb(Exception):
    """A value whose macros expand past a bound; ``why`` says which, for the user."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(slots=True)
class _Tally:
    """What one value has taken from macros so far, against what it may take."""

    limit: int
    chars: int = 0
    #: a macro was left unexpanded because it uses itself: what was read depends on the path
    cut: bool = False

    def spend(self, value: str) -> None:
        self.chars += len(value) + 1  # +1: an empty macro used a billion times is a bomb too
        if self.chars > self.limit:
            if self.limit < MACRO_VALUE_LIMIT:
                raise MacroBomb(f"this file's @string macros have already expanded to over "
                                f"{MACRO_FILE_LIMIT:,} characters plus {MACRO_FILE_FACTOR} times the file's size in all")
            raise MacroBomb(f"its @string macros expand to over {MACRO_VALUE_LIMIT:,} characters")


@dataclass
class Macros:
    """``@string`` macros: those defined so far (in reading order) and the current file's final ones.

    A name used before its definition in the same file falls back to that file's final
    table, which is more forgiving than BibTeX (it warns and reads an empty string) and
    loses nothing. One ``Macros`` passed to several reads shares definitions across
    files in order, as ``bibtex`` does with ``\\bibliography{strings,refs}``. Expansion is
    bounded (:data:`MACRO_VALUE_LIMIT`, :data:`MACRO_DEPTH_LIMIT`, :data:`MACRO_FILE_LIMIT`):
    past a bound a value raises :class:`MacroBomb` and the reader keeps it as written.
    """

    final: dict[str, Any] = field(default_factory=dict)
    current: dict[str, str] = field(default_factory=dict)
    defined_here: set[str] = field(default_factory=set)
    #: how deep each defined macro is: 1 when made of literals, else 1 + the deepest it uses
    depth: dict[str, int] = field(default_factory=dict)
    #: macros past a bound -> the line of their definition; a value using one is kept as written
    bombs: dict[str, int] = field(default_factory=dict)
    #: characters the values of the file being read may still take from macros
    file_left: int = MACRO_FILE_LIMIT
    #: macros used before their definition, as expanded since the last definition: each
    #: is expanded once, however many values (or doubling macros) use it
    _forward: dict[str, tuple[str, int]] = field(default_factory=dict, repr=False)

    def start_file(self, length: int) -> None:
        """Reset the budget for a file of ``length`` characters (its macros' final table is set)."""
        self.file_left = MACRO_FILE_LIMIT + MACRO_FILE_FACTOR * length
        self._forward.clear()

    def define(self, name: str, tokens: "list[Token]", missing: list[str] | None = None, *, line: int = 0) -> None:
        """Define ``name`` from its tokens, expanded now; a :class:`MacroBomb` leaves it
        marked as one (uses of it are then kept as written) and is raised on."""
        low = name.lower()
        self._forward.clear()  # expanded before, they may use this macro's earlier value
        try:
            # a macro keeps its outer spaces (" Symposium on ..." is joined to what precedes it)
            text, depth = self._evaluate(tokens, missing)
            if depth + 1 > MACRO_DEPTH_LIMIT:
                raise MacroBomb(f"it is defined through more than {MACRO_DEPTH_LIMIT} levels of other macros")
        except MacroBomb:
            self.current.pop(low, None)
            self.bombs[low] = line
            raise
        finally:
            self._forward.clear()  # expanded just now, they used this macro's earlier value
        self.current[low] = _SPACE_RUN.sub(" ", text)
        self.depth[low] = depth + 1
        self.bombs.pop(low, None)

    def _evaluate(self, tokens: "list[Token]", missing: list[str] | None,
                  seen: frozenset[str] = frozenset()) -> tuple[str, int]:
        """The joined text of ``tokens`` and the depth of their deepest macro (0: none),
        charged to this file's budget; raises :class:`MacroBomb` past a bound."""
        tally = _Tally(min(MACRO_VALUE_LIMIT, self.file_left))
        try:
            return self._join(tokens, missing, seen, tally)
        finally:
            self.file_left -= tally.chars

    def _join(self, tokens: "list[Token]", missing: list[str] | None, seen: frozenset[str],
              tally: _Tally) -> tuple[str, int]:
        parts = []
        deepest = 0
        for tok in tokens:
            if tok.kind != "macro":
                parts.append(tok.text)
                continue
            value, depth = self._expand(tok.text, seen, tally)
            if value is None:
                if missing is not None:
                    missing.append(tok.text)
                value = tok.text
            deepest = max(deepest, depth)
            parts.append(value)
        return "".join(parts), deepest

    def _expand(self, name: str, seen: frozenset[str], tally: _Tally) -> tuple[str | None, int]:
        """The text of a macro and its depth, or (None, 0) when no file read so far defines it."""
        low = name.lower()
        if low in self.bombs:
            raise MacroBomb(f"it uses '{name}', a macro bomb (its @string is on line {self.bombs[low]})")
        if low in self.current:
            value = self.current[low]
            depth = self.depth.get(low, 1)
        elif low in self._forward:
            value, depth = self._forward[low]
        elif low in self.final and low not in seen:
            defined = self.final[low]
            if isinstance(defined, str):  # defined by a file read before this one
                value, depth = defined, self.depth.get(low, 1)
            else:
                value, depth = self._expand_forward(low, defined, seen, tally)
        elif low in _MONTH_NAMES:
            if low in self.final:
                tally.cut = True  # a month macro redefined through itself
            value, depth = _MONTH_NAMES[low], 1
        else:
            if low in self.final:
                tally.cut = True
            return None, 0
        tally.spend(value)
        return value, depth

    def _expand_forward(self, low: str, tokens: "list[Token]", seen: frozenset[str],
                        tally: _Tally) -> tuple[str, int]:
        """A macro used before its definition in this file, from its final tokens; kept for
        the next use unless a macro using itself was cut short on the way."""
        if len(seen) >= MACRO_DEPTH_LIMIT:
            raise MacroBomb(f"it is defined through more than {MACRO_DEPTH_LIMIT} levels of other macros")
        outer_cut, tally.cut = tally.cut, False
        text, inner = self._join(tokens, None, seen | {low}, tally)
        found = (_SPACE_RUN.sub(" ", text), inner + 1)
        if not tally.cut:
            self._forward[low] = found
        tally.cut = tally.cut or outer_cut
        return found


_SPACE_RUN = lazy(r"\s+")


def collapse_space(value: str) -> str:
    """White space as BibTeX reads it: every run one space, none at the ends."""
    return squash_spaces(value)


def evaluate_tokens(tokens: "list[Token]", macros: Macros, *, month: bool = False,
                    missing: list[str] | None = None, strip: bool = True) -> str:
    """The text BibTeX makes of a value: literals joined, macros expanded, white space collapsed.

    A lone month macro in ``month`` stays the macro (``oct``), so the writer keeps it a
    macro and styles can localise it; anywhere else it becomes the month's name. An
    undefined macro is kept as its name rather than dropped, and added to ``missing``.
    Raises :class:`MacroBomb` when the macros expand past a bound.
    """
    if len(tokens) == 1 and tokens[0].kind == "literal" and strip:
        return collapse_space(tokens[0].text)
    if month and len(tokens) == 1 and tokens[0].text.lower() in _MONTH_NAMES:
        return tokens[0].text.lower()
    joined = macros._evaluate(tokens, missing)[0]
    return collapse_space(joined) if strip else _SPACE_RUN.sub(" ", joined)


def as_written(tokens: "list[Token]") -> str:
    """A value's text as the file writes it (``a24 # a24``), for one kept unexpanded."""
    return " # ".join(tok.text if tok.kind != "literal" else "{" + tok.text + "}" for tok in tokens)


def _to_entry(block: "Block", macros: Macros, name: str, problems: list[Problem],
              lowered: dict[str, str]) -> Entry:
    if block.simple is None:
        fields = _fields_of(block, macros, name, problems)
    else:
        fields = _simple_fields_of(block, macros, name, problems, lowered)
    return Entry(key=block.key, entry_type=block.entry_type.lower(), fields=fields, ids=ids_from_fields(fields), origin="import")


def _simple_fields_of(block: "Block", macros: Macros, name: str, problems: list[Problem],
                      lowered: dict[str, str]) -> dict[str, str]:
    """:func:`_fields_of` for a plain entry's fields (:attr:`Block.simple`): the same values
    and problems, without a token object per field (most fields of a real library)."""
    fields: dict[str, str] = {}
    for i, (fname, braced, quoted, word) in enumerate(block.simple or ()):
        k = lowered.get(fname)
        if k is None:
            k = lowered[fname] = fname.lower()
        if k in fields:
            problems.append(_repeated_field(name, block, block.fields[i].line, k))
        elif word is None:
            fields[k] = squash_spaces(braced if braced is not None else quoted)
        elif word.isdigit():
            fields[k] = word
        elif k == "month" and word.lower() in _MONTH_NAMES:
            fields[k] = word.lower()
        else:
            missing: list[str] = []
            try:
                fields[k] = evaluate_tokens([Token("macro", word)], macros, missing=missing)
            except MacroBomb as bomb:
                fields[k] = word
                problems.append(_macro_bomb(name, block, block.fields[i].line, k, bomb, word))
            for macro in missing:
                problems.append(_undefined_macro(name, block, block.fields[i].line, k, macro))
    return fields


def _repeated_field(name: str, block: "Block", line: int, k: str) -> Problem:
    return Problem(name, line, f"entry '{block.key}' repeats a field ({k}); the first value was kept")


def _undefined_macro(name: str, block: "Block", line: int, k: str, macro: str) -> Problem:
    return Problem(name, line, f"entry '{block.key}', field '{k}': undefined macro '{macro}' kept as its name (define it "
                   "with @string, or pass the file that does with --strings)")


def _macro_bomb(name: str, block: "Block", line: int, k: str, bomb: MacroBomb, written: str) -> Problem:
    shown = written if len(written) <= 60 else written[:57] + "..."
    return Problem(name, line, f"entry '{block.key}', field '{k}': macro bomb: {bomb.why}; the value is kept as "
                   f"written ({shown}): fix the @string definitions it uses")


def _fields_of(block: "Block", macros: Macros, name: str, problems: list[Problem]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for f in block.fields:
        k = f.name.lower()
        if k in fields:
            problems.append(_repeated_field(name, block, f.line, k))
            continue
        if f.broken is not None:
            fields[k] = f.broken
            continue
        missing: list[str] = []
        try:
            fields[k] = evaluate_tokens(f.tokens, macros, month=k == "month", missing=missing)
        except MacroBomb as bomb:
            fields[k] = as_written(f.tokens)
            problems.append(_macro_bomb(name, block, f.line, k, bomb, fields[k]))
        for macro in missing:
            problems.append(_undefined_macro(name, block, f.line, k, macro))
    return fields


def split_ids(value: str) -> list[str]:
    """The old keys of a biblatex ``ids`` field (Better BibTeX writes ``\\_`` for ``_``)."""
    return [a.strip().replace("\\_", "_") for a in (value or "").split(",") if a.strip()]


_URL = re.compile(r"https?://[^\s}]+")
_ARXIV_IN_TEXT = lazy(r"arxiv[:\s]*(?:preprint\s+)?(?:arxiv:)?\s*(\d{4}\.\d{4,5})", re.I)


def _may_name_arxiv(lowered: str) -> bool:
    """Whether :data:`_ARXIV_IN_TEXT` can match: it needs ``xiv`` in any case (its ignore-case
    ``i`` also matches the dotless ``ı`` and the dotted ``İ``, lowered to ``i̇``)."""
    return "xiv" in lowered or "x\u0131v" in lowered or "xi\u0307v" in lowered


def ids_from_fields(fields: dict[str, str]) -> Ids:
    """Identifiers an entry reveals through doi/eprint/arxiv/url/openreview/biburl fields."""
    ids = Ids()
    doi = fields.get("doi")
    if doi:
        ids.doi = normalize_doi(doi)
        if ids.doi and ids.doi.startswith("10.48550/arxiv."):
            ids.arxiv = normalize_arxiv(ids.doi)
    if not _MORE_ID_FIELDS.isdisjoint(fields):  # most entries have none of them
        _ids_from_more_fields(fields, ids)
    if not ids.arxiv:
        text = fields.get("journal", "") + " " + fields.get("note", "")
        m = _ARXIV_IN_TEXT.search(text) if _may_name_arxiv(text.lower()) else None
        if m:
            ids.arxiv = m.group(1)
    return ids


#: the fields other than ``doi`` an identifier is read from (``journal`` aside)
_MORE_ID_FIELDS = frozenset({"eprint", "arxivid", "arxiv", "openreview", "url", "howpublished", "note", "biburl"})


def _ids_from_more_fields(fields: dict[str, str], ids: Ids) -> None:
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    if fields.get("eprint") and (prefix == "arxiv" or not prefix):
        ids.arxiv = ids.arxiv or normalize_arxiv(fields["eprint"])
    for k in ("arxivid", "arxiv"):
        if fields.get(k):
            ids.arxiv = ids.arxiv or normalize_arxiv(fields[k])
    if fields.get("openreview"):
        ids.openreview = normalize_openreview(fields["openreview"])
    for k in ("url", "howpublished", "note", "biburl"):
        val = fields.get(k)
        if not val or "http" not in val:  # (what _URL needs)
            continue
        for url in _URL.findall(val.replace("\\url{", " ")):
            if "arxiv.org" in url:
                ids.arxiv = ids.arxiv or normalize_arxiv(url)
            elif "openreview.net" in url:
                ids.openreview = ids.openreview or normalize_openreview(url)
            elif "dblp" in url:
                ids.dblp = ids.dblp or normalize_dblp(url)
            elif "doi.org" in url:
                ids.doi = ids.doi or normalize_doi(url)
