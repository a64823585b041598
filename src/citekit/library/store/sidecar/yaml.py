"""The sidecar's YAML, written without PyYAML's Python representer where that is provably safe.

The sidecar (``refs/library.yaml``) has always been written by ``yaml.dump`` with the options
in :data:`DUMP_OPTIONS` through libyaml's C emitter; only the emitter is C, and the Python
representer and resolver in front of it cost about 0.2 ms per entry (1.3 s of writing a
7,000-entry library, more than anything else in it). :func:`dump` writes the same text itself for data made of what
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
from collections.abc import Callable
from typing import Any
from citekit.core.lazyre import lazy

#: the options the sidecar has always been written with (``library.yaml`` must not change)
DUMP_OPTIONS: dict[str, Any] = {"allow_unicode": True, "sort_keys": True, "width": 100, "default_flow_style": False}
_WIDTH = 100
#: libyaml writes a key longer than this (in UTF-8 bytes) as a complex ``? key`` key
_SIMPLE_KEY_MAX = 128
#: nesting written here at most (far below the width, so an indent never reaches the
#: folding column); deeper data goes to PyYAML
_MAX_DEPTH = 40
#: values up to this length have their whole line remembered
_SHORT = 40

# Characters a scalar written here may hold: libyaml's printable set (no tab, no control
# character, no BOM, nothing beyond the BMP) minus its line breaks (U+2028, U+2029; U+0085
# is not printable). Any other character means quoting rules this module does not copy.
# Written as the set of the other characters, not as a negated class of these: the same
# characters (the tests check every code point), but compiled in 0.1 ms instead of 7 ms,
# which every write paid at start-up.
_UNSUPPORTED = lazy("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe-\U0010ffff]")
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
        #: (indent, shift, key, value) -> a whole ``key: value`` line of a block mapping,
        #: for the short values a sidecar repeats (types, years, journals, nulls)
        self.lines: dict[tuple[int, int, str, str | None], str] = {}
        self.others: dict[tuple[type, Any], str] = {}
        wildcard = list(resolvers.get(None, []))
        self.by_first = {first: tuple(found + wildcard) for first, found in resolvers.items() if first is not None}
        self.wildcard = tuple(wildcard)

    def resolves_as(self, text: str) -> str:
        """The tag PyYAML's resolver reads a plain ``text`` as (``Resolver.resolve``)."""
        for tag, regexp in self.by_first.get(text[0] if text else "", self.wildcard):
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
        hit = self.others.get((type(value), value))
        if hit is None:
            hit = self.others[(type(value), value)] = self._other(value)
            if len(self.others) > 10_000:
                self.others.clear()
        return hit

    def _other(self, value: Any) -> str:
        if value is None:
            text, tag = "null", "tag:yaml.org,2002:null"
        elif value is True or value is False:
            text, tag = ("true" if value else "false"), "tag:yaml.org,2002:bool"
        else:
            text, tag = str(value), "tag:yaml.org,2002:int"
        if self.resolves_as(text) != tag:
            raise _Unsupported
        return text


def _folded(written: str, column: int, indent: int, style: int, shift: int = 0) -> str:
    """``written`` placed after ``column`` characters, folded as libyaml folds a long scalar.

    libyaml breaks at a single space (none before, none after) once the column passed the
    width, and continues at ``indent``; a quoted scalar never breaks at its first or last
    character. ``column`` includes the space written before the scalar. ``shift``: spaces
    added before every line of the whole document (not counted by libyaml's columns).
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
            out.append("\n" + " " * (indent + shift))
            column = indent
        else:
            out.append(" ")
            column += 1
        out.append(word)
        column += len(word)
    return "".join(out)


class _Writer:
    """One document's lines, appended to ``parts`` (each new line starts with its line break).

    ``shift`` spaces go before every line, as if the document were nested that deep in a
    larger one without changing where libyaml folds (the sidecar's per-entry blocks).
    """

    def __init__(self, styles: _Styles, shift: int = 0) -> None:
        self.styles = styles
        self.shift = shift
        self.parts: list[str] = []
        self.seen: set[int] = set()

    def container(self, value: Any) -> None:
        # PyYAML writes an anchor and an alias for a list or mapping met twice
        if id(value) in self.seen:
            raise _Unsupported
        self.seen.add(id(value))

    def scalar(self, value: Any, column: int, indent: int) -> str | None:
        """``' ' + value`` as written after ``column`` characters; None for a list or mapping."""
        kind = type(value)
        if kind is str:
            style, written = self.styles.cache.get(value) or self.styles.of(value)
            column += 1
            if column + len(written) > _WIDTH:
                written = _folded(written, column, indent, style, self.shift)
            return " " + written
        if value is None or kind is bool or kind is int:
            return " " + self.styles.other(value)
        if kind is dict or kind is list:
            return None
        raise _Unsupported  # floats, tuples, objects: PyYAML's representer decides

    def mapping(self, data: dict[Any, Any], indent: int, inline: bool) -> None:
        """A non-empty block mapping with keys at ``indent``; ``inline``: the first key
        continues a ``- `` line (the cursor is right after the dash)."""
        if indent > _MAX_DEPTH * 2:
            raise _Unsupported
        self.container(data)
        parts, cache, of, scalar = self.parts, self.styles.cache, self.styles.of, self.scalar
        try:
            keys = sorted(data)
        except TypeError:
            raise _Unsupported from None
        shift = self.shift
        lines = self.styles.lines
        pad = "\n" + " " * (indent + shift)
        for key in keys:
            value = data[key]
            short = not inline and (value is None or (type(value) is str and len(value) <= _SHORT))
            if short:
                hit = lines.get((indent, shift, key, value))
                if hit is not None:
                    parts.append(hit)
                    continue
            if type(key) is not str or (len(key) > _SIMPLE_KEY_MAX // 4 and len(key.encode("utf-8")) > _SIMPLE_KEY_MAX):
                raise _Unsupported
            text = (cache.get(key) or of(key))[1]
            line = (" " if inline else pad) + text + ":"
            inline = False
            kind = type(value)
            if kind is str:  # most values: scalar() inlined
                style, written = cache.get(value) or of(value)
                column = indent + len(text) + 2
                if column + len(written) > _WIDTH:
                    written = _folded(written, column, indent + 2, style, shift)
                line += " " + written
                parts.append(line)
                if short:
                    self._remember(indent, key, value, line)
                continue
            if kind is list and not value:  # no tags, no mentions
                self.container(value)
                parts.append(line + " []")
                continue
            written = scalar(value, indent + len(text) + 1, indent + 2)
            if written is not None:
                parts.append(line + written)
                if short:
                    self._remember(indent, key, value, line + written)
                continue
            parts.append(line)
            self.collection(value, indent, True)

    def _remember(self, indent: int, key: str, value: str | None, line: str) -> None:
        lines = self.styles.lines
        if len(lines) > 100_000:
            lines.clear()
        lines[(indent, self.shift, key, value)] = line

    def sequence(self, data: list[Any], indent: int, inline: bool) -> None:
        """A non-empty block sequence with dashes at ``indent``."""
        if indent > _MAX_DEPTH * 2:
            raise _Unsupported
        self.container(data)
        parts, scalar = self.parts, self.scalar
        pad = "\n" + " " * (indent + self.shift) + "-"
        for item in data:
            line = " -" if inline else pad
            inline = False
            written = scalar(item, indent + 1, indent + 2)
            if written is not None:
                parts.append(line + written)
                continue
            parts.append(line)
            self.collection(item, indent, False)

    def collection(self, value: Any, indent: int, in_mapping: bool) -> None:
        """A list or mapping after ``key:`` (``in_mapping``) or ``-`` of a block at ``indent``."""
        if not value:
            self.container(value)
            self.parts.append(" {}" if type(value) is dict else " []")
        elif type(value) is dict:
            self.mapping(value, indent + 2, inline=not in_mapping)
        elif in_mapping:  # a sequence in a mapping is not indented (PyYAML's "indentless" style)
            self.sequence(value, indent, inline=False)
        else:
            self.sequence(value, indent + 2, inline=True)


_STYLES: dict[tuple[int, ...], _Styles] = {}


def _copied(dumper: Any) -> bool:
    """Whether ``dumper`` is libyaml's emitter behind PyYAML's safe representers (what this
    module copies): not the pure-Python emitter, not representers a program replaced."""
    from yaml.representer import SafeRepresenter as Safe

    try:
        from yaml.cyaml import CEmitter
    except ImportError:  # PyYAML without libyaml
        return False
    if not isinstance(dumper, type) or not issubclass(dumper, CEmitter):
        return False
    table = dumper.yaml_representers
    return (table.get(str) is Safe.represent_str and table.get(dict) is Safe.represent_dict
            and table.get(list) is Safe.represent_list and table.get(int) is Safe.represent_int
            and table.get(bool) is Safe.represent_bool and table.get(type(None)) is Safe.represent_none
            and dumper.represent_mapping is Safe.represent_mapping and dumper.ignore_aliases is Safe.ignore_aliases)


def fast_dump(data: Any, dumper: Any, shift: int = 0) -> str | None:
    """What ``yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)`` returns, or None where this
    module does not know it for sure. Only for libyaml's emitter (``CSafeDumper``).
    ``shift``: spaces before every line (see :func:`dump`)."""
    if type(data) is not dict or not _copied(dumper):
        return None
    return _written(data, _styles_of(dumper), shift)


def _styles_of(dumper: Any) -> _Styles:
    resolvers = dumper.yaml_implicit_resolvers
    # what the remembered styles were worked out with (resolvers can be added at run time)
    shape = (id(resolvers), len(resolvers), *map(len, resolvers.values()))
    styles = _STYLES.get(shape)
    if styles is None or styles.resolvers is not resolvers:
        styles = _STYLES[shape] = _Styles(resolvers)
    return styles


def _written(data: dict[Any, Any], styles: _Styles, shift: int) -> str | None:
    writer = _Writer(styles, shift)
    try:
        if not data:
            writer.container(data)
            return " " * shift + "{}\n"
        writer.mapping(data, 0, inline=False)
    except (_Unsupported, RecursionError, ValueError):  # ValueError: an int too long for str()
        return None
    text = "".join(writer.parts)
    return text[1:] + "\n"  # the first key opens the document: no line break before it


def dump(data: Any, dumper: Any, shift: int = 0) -> str:
    """``yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)``: the same text, faster for sidecar data.

    ``shift``: that many spaces before every line but blank ones, so a document can be
    placed under a key of a larger one (the sidecar's entries) without being re-indented.
    """
    return dumper_of(dumper)(data, shift)


def dumper_of(dumper: Any) -> Callable[[Any, int], str]:
    """:func:`dump` for many documents written with one dumper and no resolver added
    meanwhile: what it checks of the dumper is checked once (the sidecar is a document
    per entry)."""
    styles = _styles_of(dumper) if _copied(dumper) else None

    def dump_one(data: Any, shift: int = 0) -> str:
        text = _written(data, styles, shift) if styles is not None and type(data) is dict else None
        return text if text is not None else _by_pyyaml(data, dumper, shift)

    return dump_one


def _by_pyyaml(data: Any, dumper: Any, shift: int) -> str:
    import yaml

    text = yaml.dump(data, Dumper=dumper, **DUMP_OPTIONS)
    if shift:
        pad = " " * shift
        text = "".join(pad + line if line.strip() else line for line in text.splitlines(keepends=True))
    return text


def simple_keys(yaml_class: Any) -> tuple[Callable[[str], str | None], Callable[[str], bool]]:
    """(how a string is written as a one-line mapping key, plain or single-quoted, None
    where neither is certain; whether YAML reads a plain ``text`` as that very string),
    by the implicit resolvers of ``yaml_class`` (a loader or dumper). Pure rules, no
    emitter: the sidecar's JSON records (:mod:`.json`) write and read their keys so."""
    styles = _styles_of(yaml_class)

    def written(key: str) -> str | None:
        try:
            return styles.of(key)[1]
        except _Unsupported:
            return None

    def reads_plain(text: str) -> bool:
        try:
            return styles.of(text) == (_PLAIN, text)
        except _Unsupported:
            return False

    return written, reads_plain
