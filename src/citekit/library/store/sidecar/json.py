"""Each entry's sidecar record as one JSON value per line, inside the YAML document.

Why: written as block YAML, an imported entry's record took about 25 lines and 0.05 ms
(a third of writing a 7,000-entry library); read back cold, YAML took about 0.2 ms per
record. A line ``    name: <JSON>`` per part (``generated``, ``ids``, ``tags``, ...) is
written and read by the C JSON codec instead, and the file stays one YAML document:
JSON's syntax is YAML's flow style, so any YAML reader (and a person) still reads it, and a
record someone rewrote in block style is simply read through YAML again.

Only what YAML reads back as exactly the same data is written this way:
- strings, ints, bools, nulls, lists and string-keyed mappings (a float or anything else
  sends the record to the YAML writer, as before);
- the characters JSON leaves raw but YAML refuses or reads as a line break (C1 controls,
  U+2028/U+2029, the BOM, U+FFFE/U+FFFF, lone surrogates) escaped as ``\\uXXXX``, which
  both read the same.
:func:`read_record` takes a block only when every line is such a line and none of the
characters or escapes on which JSON and YAML disagree occurs; anything else (a comment,
block style, a quoted name, ``\\/``) returns None and the block is read through YAML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from citekit.core.lazyre import lazy

_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(", ", ": "), allow_nan=False)


def _encoder() -> Any:
    """``_ENCODER.encode`` without making a new C encoder for every value (what
    ``JSONEncoder.encode`` does; a sidecar writes five values per entry). The values are
    checked by :func:`_plain` first, so the cycle check is not needed."""
    make = getattr(json.encoder, "c_make_encoder", None)
    try:
        one = make(None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ", True, False, False)
        if "".join(one({"b": [1, None], "a": "\u00e9"}, 0)) != _ENCODER.encode({"b": [1, None], "a": "\u00e9"}):
            return _ENCODER.encode
    except TypeError:  # no C encoder (None), or one made otherwise in this Python
        return _ENCODER.encode

    def encode(value: Any) -> str:
        if type(value) is str:
            return json.encoder.encode_basestring(value)
        return "".join(one(value, 0))

    return encode


_encode = _encoder()


def _refuse(text: str) -> Any:
    raise ValueError(f"not read as JSON: {text}")


# floats and NaN/Infinity refused: YAML 1.1 reads ``1e+16`` as a string and knows no NaN
_decode = json.JSONDecoder(parse_float=_refuse, parse_constant=_refuse).raw_decode
# raw characters JSON writes as they are but YAML's reader refuses or takes as a line break
_YAML_RAW = lazy("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
# In a block read back: those characters, a tab or CR, and the escapes JSON and YAML read
# differently (``\/``, unknown to YAML 1.1; ``\uD8xx``, which JSON joins into pairs). A
# false alarm (a literal backslash before them) only sends the block to YAML.
_DISAGREE = lazy("[\t\r\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|\\\\(?:/|u[dD][89a-fA-F])")
_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
#: a longer key is written by YAML (which makes it a ``? key`` complex key)
_KEY_MAX = 500


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _plain(value: Any) -> bool:
    """Whether JSON and YAML agree on ``value``: no floats, tuples, objects, non-string keys."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or (type(item) is not str and not _plain(item)):
                return False
        return True
    if kind is list:
        for item in value:
            if type(item) is not str and not _plain(item):
                return False
        return True
    return False


def record_text(key_text: str, meta: dict[str, Any]) -> str | None:
    """The block ``  <key>:`` plus one line per part of ``meta`` (in name order), or None
    when YAML must write it. ``key_text``: the key as YAML writes a simple key (plain or
    single-quoted, see :func:`.yaml.simple_keys`, else :func:`quoted_key`)."""
    if not meta or len(key_text) > _KEY_MAX:
        return None  # an empty record is ``{}`` in YAML, not an empty block
    parts = [f"  {key_text}:"]
    try:
        for name in sorted(meta):
            value = meta[name]
            if name not in _NAMES_SEEN:
                if type(name) is not str or not _NAME.match(name):
                    return None
                _NAMES_SEEN.add(name)
            if type(value) is str:
                parts.append(f"    {name}: {_encode_str(value)}")
            elif _plain(value):
                parts.append(f"    {name}: {_encode(value)}")
            else:
                return None
    except (TypeError, ValueError, RecursionError):  # mixed key types; NaN; a list inside itself
        return None
    parts.append("")
    text = "\n".join(parts)
    return _YAML_RAW.sub(_escaped, text) if _YAML_RAW.search(text) else text


#: part names already checked against :data:`_NAME` (a record has a handful, always the same)
_NAMES_SEEN: set[str] = set()
_encode_str = json.encoder.encode_basestring


def quoted_key(key: str) -> str:
    """A key in double quotes, for keys YAML would neither write plain nor single-quoted
    (:func:`record_text` escapes what YAML reads otherwise)."""
    return _encode(key)


def read_record(block: str, plain_as_written: Callable[[str], bool]) -> tuple[Any, dict[str, Any]] | None:
    """(key, record) of one block written by :func:`record_text`, or None when YAML must
    read it. ``plain_as_written(text)``: whether YAML reads the plain scalar ``text`` as
    that very string (so a plain key is taken only where it is)."""
    if _DISAGREE.search(block):
        return None
    lines = block.split("\n")
    head = lines[0]
    if not head.startswith("  ") or not head.endswith(":") or len(head) > _KEY_MAX + 3:
        return None
    key = _key(head[2:-1], plain_as_written)
    if key is None:
        return None
    meta: dict[str, Any] = {}
    try:
        for line in lines[1:]:
            if not line:
                continue
            if line[:4] != "    " or line[4:5] in (" ", "#"):
                return None
            name, sep, value = line[4:].partition(": ")
            if not sep or not _NAME.match(name) or value[:1] == " ":
                return None
            parsed, end = _decode(value)
            if end != len(value) and value[end:].strip(" "):
                return None
            meta[name] = parsed
    except ValueError:
        return None
    return (key, meta) if meta else None


def _key(token: str, plain_as_written: Callable[[str], bool]) -> Any:
    if not token or token[0] in " \t":
        return None
    if token[0] == '"':
        try:
            key, end = _decode(token)
        except ValueError:
            return None
        return key if end == len(token) and type(key) is str else None
    if token[0] == "'":
        inner = token[1:-1]
        if len(token) < 2 or token[-1] != "'" or "'" in inner.replace("''", ""):
            return None
        return inner.replace("''", "'")
    return token if plain_as_written(token) else None
