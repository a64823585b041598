"""The grammar of .bib text, read the way BibTeX reads it.

BibTeX's own scanner is simple and strict about one thing general-purpose parsers get
wrong: a backslash is an ordinary character. ``{\\{\\"u}}`` is a value of two nested
groups, ``"The {"}Turbo{"} code"`` is one quoted value (a ``"`` inside braces does not end
it), and only ``{`` and ``}`` count for depth. This module splits text into blocks and
fields with exactly those rules, and nothing more: macro expansion and the building of
entries happen in :mod:`citekit.bibtex.reader`.

BibTeX looks for ``@`` only *between* entries: inside one it follows brace depth, so a
line of an abstract that starts with ``@Name{`` is value text when the value's braces
close and a ``,`` or the entry's end follows, as they must. Real files are damaged in a
few recurring ways (a missing ``}``, a stray ``"``), and BibTeX then swallows the
following entries into one value or reports an error. Here a value that never closes, or
that runs past a line starting another entry (``@article{``) and is not followed by a
``,`` or the entry's end, is *broken*: its raw text up to the end of its own lines is kept
verbatim, it is reported with its line, and every other field of the entry, and every
later entry, is read normally.

Most entries of real libraries are plain: ``@type{key,`` then ``name = {value}`` (or a
quoted value, a number, a macro) fields and the closing brace. Such an entry is read in
one pass of one pattern, its fields kept as plain strings (:attr:`Block.simple`) rather
than token objects; anything else in it (``#``, a comment between fields, deeper braces,
damage) sends the whole entry to the step-by-step reader, which is the reference and
also reports what is wrong. Both give the same fields.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from citekit.core.lazyre import lazy

#: characters that end a BibTeX identifier (field name, macro name, entry type)
_ID = r"[^\s\"#%'(),={}]+"
_AT = lazy(r"@[ \t]*([A-Za-z_][^\s\"#%'(),={}@]*)[ \t\n]*([{(])")
_WS = lazy(r"\s*")
_FIELD_NAME = lazy(r"\s*(" + _ID + r")\s*=\s*")
_KEY = re.compile(r"\s*([^,\s}{)(\"]*)\s*")
_NUMBER_OR_MACRO = lazy(_ID)
_BRACE_OR_ENTRY = re.compile(r"[{}]|\n[ \t]*@[ \t]*[A-Za-z_]+[ \t]*[{(]")
_QUOTE_BRACE_OR_ENTRY = re.compile(r"[{}\"]|\n[ \t]*@[ \t]*[A-Za-z_]+[ \t]*[{(]")
_ENTRY_LINE = lazy(r"\n(?=[ \t]*@[ \t]*[A-Za-z_]+[ \t]*[{(])")
#: a line that starts the next field (``  journal = ``) or closes the entry: where a broken value stops
_NEXT_FIELD = lazy(r"\n(?=[ \t]*(?:" + _ID + r"[ \t]*=|[})][ \t]*(?:\n|$)))")
# The common field in one match: ``name = {literal}``, ``"literal"``, a number or a macro,
# alone (no ``#``), braces nested at most four deep (``{{F{\"o}rster}}`` in a title). Each
# loop below starts with a brace, which the text before it cannot hold, so a value that does
# not fit fails fast (then the field is read step by step, which also reports what is wrong).
_INNER = r"[^{}]*(?:\{[^{}]*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}[^{}]*)*"
_FIELD = (r"\s*(" + _ID + r")\s*=\s*(?:\{(" + _INNER + r")\}|\"([^\"{}]*(?:\{" + _INNER + r"\}[^\"{}]*)*)\"|("
          + _ID + r"))\s*")
_FAST_FIELD = lazy(_FIELD)
# A plain entry, field by field: the common field followed by its ``,`` (consumed) or by
# the entry's closing delimiter (left for _CLOSE); one pattern per delimiter.
_ENTRY_KEY = lazy(_KEY.pattern + ",")
_PLAIN_FIELD = {close: re.compile(_FIELD + r"(?:,|(?=" + re.escape(close) + "))") for close in "})"}
_CLOSE = {close: re.compile(r"\s*" + re.escape(close)) for close in "})"}
#: one field of a plain entry: name, then the braced literal, the quoted literal or the
#: number/macro word (exactly one of the three is not None)
SimpleField = tuple[str, "str | None", "str | None", "str | None"]


@dataclass(slots=True)  # tens of thousands per library: slots make them cheaper to build
class Token:
    """One operand of a value: a braced or quoted literal (inner text), a number or a macro name."""

    kind: str  # "literal" | "number" | "macro"
    text: str


@dataclass(slots=True)
class RawField:
    name: str
    tokens: list[Token]
    line: int
    #: the value's text as written, when it was broken (kept verbatim instead of tokens)
    broken: str | None = None


@dataclass(slots=True)  # one per entry: slots make them cheaper to build
class Block:
    """One ``@`` block: an entry, ``@string``, ``@preamble`` or ``@comment``."""

    kind: str  # "entry" | "string" | "preamble" | "comment"
    entry_type: str
    key: str
    line: int
    raw: str
    #: a plain entry's fields read in one pass, as strings (see :data:`SimpleField`);
    #: None when the entry was read step by step (then :attr:`fields` holds them)
    simple: list[SimpleField] | None = None
    #: for @preamble: the value as written inside the delimiters
    value_text: str = ""
    problems: list[tuple[int, str]] = field(default_factory=list)
    _fields: list[RawField] | None = field(default=None, repr=False)

    @property
    def fields(self) -> list[RawField]:
        """The fields with their tokens and lines; a plain entry's are read when first asked
        for (the reader needs them only to name the line of a problem)."""
        if self._fields is None:
            self._fields = [] if self.simple is None else self._reread_fields()
        return self._fields

    def _reread_fields(self) -> list[RawField]:
        """The fields the step-by-step reader finds in this entry's text, on the file's lines."""
        fields = Scanner(self.raw, plain_entries=False).blocks()[0].fields
        for f in fields:
            f.line += self.line - 1
        return fields


class _Broken(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Scanner:
    """Splits one text into :class:`Block` objects; line numbers are 1-based."""

    def __init__(self, text: str, *, plain_entries: bool = True) -> None:
        self.s = text
        self._line_pos = 0
        self._line_no = 1
        #: read plain entries in one pass (False: every entry step by step, the reference)
        self.plain_entries = plain_entries
        #: where literals end by brace depth, made when a literal first runs past an entry line
        self._braces: _BraceTable | None = None

    def line_at(self, pos: int) -> int:
        """Line of ``pos``; positions are asked for in increasing order, so counting is incremental."""
        if pos < self._line_pos:
            self._line_pos, self._line_no = 0, 1
        self._line_no += self.s.count("\n", self._line_pos, pos)
        self._line_pos = pos
        return self._line_no

    def blocks(self) -> list[Block]:
        s = self.s
        out: list[Block] = []
        pos = 0
        plain = self.plain_entries
        while True:
            at = s.find("@", pos)
            if at < 0:
                return out
            m = _AT.match(s, at)
            if not m:
                pos = at + 1  # an "@" in a comment or an e-mail address: text between entries
                continue
            kind = m.group(1).lower()
            line = self.line_at(at)
            close = "}" if m.group(2) == "{" else ")"
            if kind == "comment":
                end = self._skip_group(m.end() - 1)
                out.append(Block("comment", "comment", "", line, s[at:end]))
                pos = end
                continue
            if plain and kind != "string" and kind != "preamble":
                block = self._plain_entry(kind, at, m.end(), close, line)
                if block is not None:
                    out.append(block)
                    pos = at + len(block.raw)
                    continue
            block, pos = self._block(kind, at, m.end(), close, line)
            out.append(block)

    def _plain_entry(self, kind: str, at: int, pos: int, close: str, line: int) -> Block | None:
        """The entry at ``at`` read in one pass when every field is a common one, else None.

        The step-by-step reader would take its one-match branch for every field of such an
        entry and find nothing to report, so this gives the same fields (no line is counted
        here: :attr:`Block.fields` counts them if a problem needs one)."""
        s = self.s
        head = _ENTRY_KEY.match(s, pos)
        if head is None:
            return None
        simple = []
        fm = None
        for fm in iter(_PLAIN_FIELD[close].scanner(s, head.end()).match, None):
            simple.append(fm.groups())
        shut = _CLOSE[close].match(s, head.end() if fm is None else fm.end())
        if shut is None:
            return None
        # (a value's braces closed and a ',' or the end followed: a line in it that starts
        # with "@" is value text, as BibTeX reads it and as the step-by-step reader does)
        return Block("entry", kind, head.group(1), line, s[at:shut.end()], simple)

    def _skip_group(self, start: int) -> int:
        """End of the balanced group opening at ``start`` (or of its line when it never closes)."""
        opening = self.s[start]
        closing = "}" if opening == "{" else ")"
        depth = 0
        for i in range(start, len(self.s)):
            ch = self.s[i]
            if ch == opening:
                depth += 1
            elif ch == closing:
                depth -= 1
                if depth == 0:
                    return i + 1
        nl = self.s.find("\n", start)
        return len(self.s) if nl < 0 else nl + 1

    def _block(self, kind: str, at: int, pos: int, close: str, line: int) -> tuple[Block, int]:
        s = self.s
        if kind == "preamble":
            block = Block("preamble", kind, "", line, "")
            start = pos
            try:
                _tokens, pos = self._value(pos, close)
                block.value_text = s[start:pos].strip()
            except _Broken as exc:
                block.problems.append((line, exc.message))
                pos = self._recover_entry_end(start)
            pos = self._expect_close(pos, close, block)
            block.raw = s[at:pos]
            return block, pos
        if kind == "string":
            block = Block("string", kind, "", line, "")
            pos = self._fields(block, pos, close)
            if block.fields:
                block.key = block.fields[0].name
            block.raw = s[at:pos]
            return block, pos
        block = Block("entry", kind, "", line, "")
        if _FIELD_NAME.match(s, pos):  # ``@article{title = {...}, ...}``: no key, its first field follows the brace
            pos = self._fields(block, pos, close)
            block.raw = s[at:pos]
            return block, pos
        m = _KEY.match(s, pos)
        block.key = m.group(1)
        pos = m.end()
        if pos < len(s) and s[pos] == ",":
            pos += 1
        elif pos < len(s) and s[pos] == close:
            pos += 1
            block.raw = s[at:pos]
            return block, pos
        else:
            block.problems.append((self.line_at(pos), f"expected ',' after the key '{block.key}'"))
        pos = self._fields(block, pos, close)
        block.raw = s[at:pos]
        return block, pos

    def _fields(self, block: Block, pos: int, close: str) -> int:
        s = self.s
        n = len(s)
        fast_match = _FAST_FIELD.match
        while True:
            fast = fast_match(s, pos)
            if fast is not None:
                end = fast.end()
                after = s[end:end + 1]
                if after == "," or after == close:
                    braced, quoted, word = fast.group(2, 3, 4)
                    literal = braced if braced is not None else quoted
                    if literal is None:
                        token = Token("number" if word.isdigit() else "macro", word)
                    else:
                        token = Token("literal", literal)
                    at = fast.start(1)
                    if at >= self._line_pos:  # line_at, inline: the common field's one call
                        self._line_no += s.count("\n", self._line_pos, at)
                        self._line_pos = at
                        line = self._line_no
                    else:
                        line = self.line_at(at)
                    block.fields.append(RawField(fast.group(1), [token], line))
                    if after == close:
                        return end + 1
                    pos = end + 1
                    continue
            pos = _WS.match(s, pos).end()
            if pos >= n:
                block.problems.append((block.line, "the entry is not closed before the end of the file"))
                return n
            ch = s[pos]
            if ch == close:
                return pos + 1
            if ch == ",":
                pos += 1
                continue
            if s.startswith("@", pos) and _AT.match(s, pos):
                block.problems.append((block.line, "the entry is not closed before the next entry starts"))
                return pos
            m = _FIELD_NAME.match(s, pos)
            if not m:
                nxt = self._next_field_or_end(pos, close)
                junk = s[pos:nxt].strip()
                block.problems.append((self.line_at(pos), f"text that is not a field was skipped: {junk[:60]!r}"))
                pos = nxt
                continue
            name = m.group(1)
            line = self.line_at(m.start(1))
            start = m.end()
            try:
                tokens, pos = self._value(start, close)
                block.fields.append(RawField(name, tokens, line))
            except _Broken as exc:
                end = self._recover_value_end(start, close)
                raw = s[start:end].rstrip().rstrip(",").rstrip()
                block.fields.append(RawField(name, [], line, broken=raw))
                block.problems.append((line, f"field '{name}': {exc.message}; its raw text was kept verbatim"))
                pos = end

    def _value(self, pos: int, close: str) -> tuple[list[Token], int]:
        s = self.s
        n = len(s)
        tokens: list[Token] = []
        while True:
            pos = _WS.match(s, pos).end()
            if pos >= n:
                raise _Broken("the value is cut off by the end of the file")
            ch = s[pos]
            if ch == "{":
                end = self._braced_end(pos)
                tokens.append(Token("literal", s[pos + 1:end - 1]))
            elif ch == '"':
                end = self._quoted_end(pos)
                tokens.append(Token("literal", s[pos + 1:end - 1]))
            else:
                m = _NUMBER_OR_MACRO.match(s, pos)
                if not m:
                    raise _Broken(f"a value cannot start with {ch!r}")
                word = m.group()
                tokens.append(Token("number" if word.isdigit() else "macro", word))
                end = m.end()
            after = _WS.match(s, end).end()
            if after < n and s[after] == "#":
                pos = after + 1
                continue
            if after < n and s[after] not in (",", close):
                if s.find("@", pos, end) >= 0 and _ENTRY_LINE.search(s, pos, end):
                    raise _Broken("unbalanced braces (the value runs into the next entry)")
                if s[after] == "@" and _AT.match(s, after):
                    raise _Broken("unbalanced braces (a '{' in the value is never closed, so the value took the "
                                  "rest of the entry)")
                raise _Broken(f"unexpected {s[after]!r} after the value (a missing ',' or '#'?)")
            return tokens, after

    def _braced_end(self, start: int) -> int:
        return self._literal_end(start, quoted=False)

    def _quoted_end(self, start: int) -> int:
        return self._literal_end(start, quoted=True)

    def _literal_end(self, start: int, *, quoted: bool) -> int:
        """End of the literal opening at ``start``: braces balance (a backslash is an ordinary
        character), and a quoted literal ends at a ``"`` outside braces."""
        s = self.s
        # the common case, a value with no inner braces on one stretch of text: no loop
        end = s.find('"' if quoted else "}", start + 1)
        if end > 0 and s.find("{", start + 1, end) < 0 and (not quoted or s.find("}", start + 1, end) < 0):
            return end + 1
        depth = 0
        pos = start + 1 if quoted else start
        search = (_QUOTE_BRACE_OR_ENTRY if quoted else _BRACE_OR_ENTRY).search
        what = "quotes or braces" if quoted else "braces"
        while True:
            m = search(self.s, pos)
            if m is None:
                raise _Broken(f"unbalanced {what} (the value never closes)")
            tok = m.group()
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if not quoted and depth == 0:
                    return m.end()
                if depth < 0:
                    raise _Broken("a '}' closes more braces than the quoted value opened")
            elif tok == '"':
                if depth == 0:
                    return m.end()
            else:  # a line that starts an entry: text, if the value closes after it
                return self._literal_end_past_entry_line(start, quoted=quoted)
            pos = m.end()

    def _literal_end_past_entry_line(self, start: int, *, quoted: bool) -> int:
        """:meth:`_literal_end` for a literal that runs past a line starting an entry.

        BibTeX follows brace depth there as anywhere in an entry; the depth table of the
        whole text (made once, when first needed) answers where the literal ends at once,
        so a file of many broken values is not scanned to its end once for each."""
        if self._braces is None:
            self._braces = _BraceTable(self.s)
        end = self._braces.literal_end(start, quoted=quoted)
        if end is None:
            raise _Broken(f"unbalanced {'quotes or braces' if quoted else 'braces'} (the value runs into the next entry)")
        if end < 0:
            raise _Broken("a '}' closes more braces than the quoted value opened")
        return end

    def _recover_value_end(self, start: int, close: str) -> int:
        """Where a broken value stops: before the next line that starts a field or closes the entry."""
        limit = self._entry_limit(start)
        m = _NEXT_FIELD.search(self.s, start, limit)
        return m.start() + 1 if m else limit

    def _recover_entry_end(self, start: int) -> int:
        return self._entry_limit(start)

    def _entry_limit(self, start: int) -> int:
        m = _ENTRY_LINE.search(self.s, start)
        return m.start() + 1 if m else len(self.s)

    def _next_field_or_end(self, pos: int, close: str) -> int:
        limit = self._entry_limit(pos)
        for i in range(pos, limit):
            if self.s[i] in (",", close):
                return i
        return limit

    def _expect_close(self, pos: int, close: str, block: Block) -> int:
        pos = _WS.match(self.s, pos).end()
        if pos < len(self.s) and self.s[pos] == close:
            return pos + 1
        block.problems.append((block.line, f"expected '{close}' to close the @{block.kind}"))
        return pos


class _BraceTable:
    """Brace depth over a whole text, to find where a literal ends without scanning it.

    For each depth, the positions of the ``}`` that leave it and of the ``"`` met at it: a
    braced literal opening at depth d ends at the first ``}`` leaving d + 1 after it; a
    quoted one at depth d ends at the first ``"`` at d after it, unless a ``}`` leaving d
    comes first (a brace it did not open). Depth may go below zero: only differences count.
    """

    def __init__(self, text: str) -> None:
        self._braces: list[int] = []  # positions of the braces, in order
        self._after: list[int] = []  # the depth after each of them
        self._closes: dict[int, list[int]] = {}
        self._quotes: dict[int, list[int]] = {}
        depth = 0
        for m in _BRACE_OR_QUOTE.finditer(text):
            i = m.start()
            ch = m.group()
            if ch == '"':
                self._quotes.setdefault(depth, []).append(i)
                continue
            if ch == "{":
                depth += 1
            else:
                self._closes.setdefault(depth, []).append(i)
                depth -= 1
            self._braces.append(i)
            self._after.append(depth)

    def _depth_at(self, pos: int) -> int:
        k = bisect_right(self._braces, pos - 1)
        return self._after[k - 1] if k else 0

    @staticmethod
    def _first_after(positions: list[int], pos: int) -> int | None:
        k = bisect_right(positions, pos)
        return positions[k] if k < len(positions) else None

    def literal_end(self, start: int, *, quoted: bool) -> int | None:
        """End of the literal opening at ``start``; None when it never closes, -1 when
        (quoted) a ``}`` it did not open comes first."""
        depth = self._depth_at(start)
        if not quoted:
            shut = self._first_after(self._closes.get(depth + 1, []), start)
            return None if shut is None else shut + 1
        quote = self._first_after(self._quotes.get(depth, []), start)
        stray = self._first_after(self._closes.get(depth, []), start)
        if quote is not None and (stray is None or quote < stray):
            return quote + 1
        return -1 if stray is not None else None


_BRACE_OR_QUOTE = lazy(r'[{}"]')


def split_blocks(text: str) -> list[Block]:
    """Every ``@`` block of ``text`` in order (text between blocks is comment, as in BibTeX)."""
    return Scanner(text).blocks()
