"""The sidecar's YAML, written without PyYAML's Python representer where that is provably safe.

The sidecar (``refs/library.yaml``) has always been written by ``yaml.dump`` with the options
in :data:`DUMP_OPTIONS` through libyaml's C emitter; only the emitter is C, and the Python
representer and resolver in front of it cost about 0.3 ms per entry, most of the time of
writing a 7,000-entry library. :func:`dump` writes the same text itself for data made of what
the sidecar holds (mappings with string keys, lists, strings, ints, bools, None) and whose
every string libyaml writes plain or single-quoted on one line, folded at the width exactly
as libyaml folds. Anything else (a string with a line break, a tab, a control or non-BMP
character, a float, a key libyaml writes as a complex key, an object met twice, which
PyYAML writes as an anchor) sends the whole document to ``yaml.dump``. The output is
byte-identical either way, so a library written before is rewritten unchanged; the tests
compare both paths on generated data and on the libraries of the real corpora.

The rules below are libyaml's (``yaml_emitter_analyze_scalar``, ``select_scalar_style``,
``write_plain_scalar``, ``write_single_quoted_scalar``, ``check_simple_key``), restricted
to the characters for which they are simple.
"""

from __future__ import annotations

import re
from typing import Any

#: the options the sidecar has always been written with (``library.yaml`` must not change)
DUMP_OPTIONS: dict[str, Any] = {"allow_unicode": True, "sort_keys": True, "width": 100, "default_flow_style": False}
_WIDTH = 100
#: libyaml writes a key longer than this (in UTF-8 bytes) as a complex ``? key`` key
_SIMPLE_KEY_MAX = 128
_MAX_DEPTH = 40  # far below the width, so an indent never reaches the folding column

# Characters a scalar written here may hold: libyaml's printable set (no tab, no control
# character, no BOM, nothing beyond the BMP) minus its line breaks (U+2028, U+2029; U+0085
# is not printable). Any other character means quoting rules this module does not copy.
_UNSUPPORTED = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
# Why libyaml refuses a plain scalar in block context (``block_indicators``, leading or
# trailing space), for strings without breaks or special characters.
_NOT_PLAIN = re.compile(r"^(?:---|\.\.\.|[#,\[\]{}&*!|>'\"%@`]|[?:-](?: |$)| )|:(?: |$)| #| $")

_PLAIN, _QUOTED = 0, 1
_STR_TAG = "tag:yaml.org,2002:str"


class _Unsupported(Exception):
    """Data this module does not write: the whole document goes to PyYAML."""


class _Styles:
    """How each string is written, remembered (a sidecar repeats the same few thousand values)."""

    def __init__(self, resolvers: dict[Any, list[tuple[str, Any]]]) -> None:
        self.resolvers = resolvers
        self.cache: dict[str, tuple[int, str]] = {}

    def resolves_as(self, text: str) -> str:
        """The tag PyYAML's resolver reads a plain ``text`` as (``Resolver.resolve``)."""
        for tag, regexp in self.resolvers.get(text[0] if text else "", []) + self.resolvers.get(None, []):
            if regexp.match(text):
                return tag
        return _STR_TAG

    def of(self, text: str) -> tuple[int, str]:
        """(style, text as written) of a string scalar; raises for what libyaml would double-quote."""
        hit = self.cache.get(text)
        if hit is not None:
            return hit
        if _UNSUPPORTED.search(text):
            raise _Unsupported
        if text and not _NOT_PLAIN.search(text) and self.resolves_as(text) == _STR_TAG:
            hit = (_PLAIN, text)
        else:
            hit = (_QUOTED, "'" + text.replace("'", "''") + "'")
        if len(self.cache) > 200_000:
            self.cache.clear()
        self.cache[text] = hit
        return hit

    def other(self, value: Any) -> str:
        """An int, bool or None as libyaml writes it (plain: it resolves back to its own tag)."""
        if value is None:
            text, tag = "null", "tag:yaml.org,2002:null"
        elif value is True or value is False:
            text, tag = ("true" if value else "false"), "tag:yaml.org,2002:bool"
        else:
            text, tag = str(value), "tag:yaml.org,2002:int"
        if self.resolves_as(text) != tag:
            raise _Unsupported
        return text


def _folded(written: str, column: int, indent: int, style: int) -> str:
    """``written`` placed after ``column`` characters, folded as libyaml folds a long scalar.

    libyaml breaks at a single space (none before, none after) once the column passed the
    width, and continues at ``indent``; a quoted scalar never breaks at its first or last
    character. ``column`` includes the space written before the scalar.
    """
    if column + len(written) <= _WIDTH or " " not in written:
        return written
    words = written.split(" ")
    out = [words[0]]
    column += len(words[0])
    last = len(words) - 1
    for i in range(1, len(words)):
        word = words[i]
        if (column > _WIDTH and words[i - 1] and word
                and not (style == _QUOTED and ((i == 1 and words[0] == "'") or (i == last and word == "'")))):
            out.append("\n" + " " * indent)
            column = indent
        else:
            out.append(" ")
            column += 1
        out.append(word)
        column += len(word)
    return "".join(out)


class _Writer:
    def __init__(self, styles: _Styles) -> None:
        self.styles = styles
        self.parts: list[str] = []
        self.seen: set[int] = set()

    def container(self, value: Any) -> None:
        # PyYAML writes an anchor and an alias for a list or mapping met twice
        if id(value) in self.seen:
            raise _Unsupported
        self.seen.add(id(value))

    def key(self, key: Any) -> str:
        if type(key) is not str or len(key.encode("utf-8")) > _SIMPLE_KEY_MAX:
            raise _Unsupported
        return self.styles.of(key)[1]

    def scalar(self, value: Any, column: int, indent: int) -> bool:
        """Append a scalar after ``column`` characters (``' ' + text``); False if not a scalar."""
        kind = type(value)
        if kind is str:
            style, written = self.styles.of(value)
            self.parts.append(" " + _folded(written, column + 1, indent, style))
            return True
        if value is None or kind is bool or kind is int:
            self.parts.append(" " + self.styles.other(value))
            return True
        if kind is dict or kind is list:
            return False
        raise _Unsupported  # floats, tuples, objects: PyYAML's representer decides

    def mapping(self, data: dict[Any, Any], indent: int, inline: bool) -> None:
        """A non-empty block mapping with keys at ``indent``; ``inline``: the first key
        continues a ``- `` line (the cursor is right after the dash)."""
        if indent > _MAX_DEPTH * 2:
            raise _Unsupported
        self.container(data)
        parts = self.parts
        try:
            keys = sorted(data)
        except TypeError:
            raise _Unsupported from None
        for n, key in enumerate(keys):
            text = self.key(key)
            parts.append(" " + text if inline and n == 0 else "\n" + " " * indent + text)
            parts.append(":")
            self.value(data[key], indent + len(text) + 1, indent, True)

    def sequence(self, data: list[Any], indent: int, inline: bool) -> None:
        """A non-empty block sequence with dashes at ``indent``."""
        if indent > _MAX_DEPTH * 2:
            raise _Unsupported
        self.container(data)
        parts = self.parts
        for n, item in enumerate(data):
            parts.append(" -" if inline and n == 0 else "\n" + " " * indent + "-")
            self.value(item, indent + 1, indent, False)

    def value(self, value: Any, column: int, indent: int, in_mapping: bool) -> None:
        """A node after ``key:`` (``in_mapping``) or ``-`` of a block at ``indent``."""
        if self.scalar(value, column, indent + 2):
            return
        if not value:
            self.container(value)
            self.parts.append(" {}" if type(value) is dict else " []")
        elif type(value) is dict:
            self.mapping(value, indent + 2, inline=not in_mapping)
        elif in_mapping:  # a sequence in a mapping is not indented (PyYAML's "indentless" style)
            self.sequence(value, indent, inline=False)
        else:
            self.sequence(value, indent + 2, inline=True)


_STYLES: dict[int, _Styles] = {}


def fast_dump(data: Any, dumper: Any) -> str | None:
    """What ``yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)`` returns, or None where this
    module does not know it for sure. Only for libyaml's emitter (``CSafeDumper``)."""
    if type(data) is not dict or not getattr(dumper, "__name__", "").startswith("C"):
        return None
    resolvers = dumper.yaml_implicit_resolvers
    styles = _STYLES.get(id(resolvers))
    if styles is None or styles.resolvers is not resolvers:
        styles = _STYLES[id(resolvers)] = _Styles(resolvers)
    writer = _Writer(styles)
    try:
        if not data:
            writer.container(data)
            return "{}\n"
        writer.mapping(data, 0, inline=False)
    except (_Unsupported, RecursionError, ValueError):  # ValueError: an int too long for str()
        return None
    text = "".join(writer.parts)
    return text[1:] + "\n"  # the first key opens the document: no line break before it


def dump(data: Any, dumper: Any) -> str:
    """``yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)``: the same text, faster for sidecar data."""
    text = fast_dump(data, dumper)
    if text is None:
        import yaml

        text = yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)
    return text
