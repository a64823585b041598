"""What ``refs/library.yaml`` may hold, checked on every parse before anything reads it.

Why: the sidecar is committed and edited by hand, and every reader used to believe it. A
string where a list belongs was iterated character by character (``tags: {added:
must-read}`` gave nine one-letter tags), a number where text belongs or a list inside a
list ended in a traceback, and an empty file read as a library without records, so the
next write turned every entry into a hand-written one and dropped its mentions.

So the parsed document is checked here for type and shape, whichever reader produced it
(the JSON lines of :mod:`.json`, a block loaded through YAML alone or the whole
file through YAML): the same data gives the same verdict. Nothing is coerced. A part set
to nothing (``summary:`` with no value, a ``null``) means "none", as citekit's older
formats wrote it; any other wrong value is a :class:`SidecarProblem` naming the entry, the
part, what was found and the shape that belongs there, which the store reports as a damaged
sidecar (exit 2) without writing anything. Unknown parts are refused too: citekit would
drop them on its next write, which for a misspelt ``tag:`` means losing the user's edit.

Plain type checks only (``type(x) is str``), no imports: this runs over every record of a
parse (7,220 records in about 15 ms).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

#: the newest sidecar format this citekit reads (sidecar.format.SIDECAR_VERSION)
NEWEST_FORMAT = 3
ID_SCHEMES = ("arxiv", "dblp", "doi", "openreview")
TAG_LISTS = ("added", "auto", "removed")


class SidecarProblem(NamedTuple):
    """One wrong value: ``where`` (``entry 'k', part 'tags.added'``), what was found, what belongs there."""

    where: str
    found: str
    expected: str
    example: str

    def message(self) -> str:
        return f"{self.where}: {self.found}, expected {self.expected} (e.g. {self.example})"


#: what a part's check returns when the part is wrong: (where inside the part, what was
#: found, what belongs there, an example of the right shape)
_Wrong = tuple[str, str, str, str] | None


def describe(value: Any) -> str:
    """What a value is, in the words of the messages (short: a sidecar value can be long)."""
    kind = type(value)
    if value is None:
        return "empty (null)"
    if kind is bool:
        return f"true/false ({'true' if value else 'false'})"
    if kind is int or kind is float:
        shown = repr(value) if kind is float or -10**20 < value < 10**20 else "a very long one"
        return f"a number ({shown})"
    if kind is str:
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"text {shown!r}"
    if kind is list:
        return "a list"
    if kind is dict:
        return "a mapping"
    return f"a {kind.__name__}"  # a YAML date, a set, ...


def _is_text_list(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _text_or_none(value: Any) -> _Wrong:
    if value is None or type(value) is str:
        return None
    return ("", describe(value), "text", '"resolved"')


def _text_list(example: str) -> Callable[[Any], _Wrong]:
    def check(value: Any) -> _Wrong:
        if value is None or _is_text_list(value):
            return None
        if type(value) is list:
            at, item = next((i, x) for i, x in enumerate(value) if type(x) is not str)
            return (f"[{at}]", describe(item), "text", example)
        return ("", describe(value), "a list of text", example)

    return check


def _text_map(example: str, keys: tuple[str, ...] = ()) -> Callable[[Any], _Wrong]:
    """A mapping of text to text (``keys``: the only names allowed, when fixed)."""

    def check(value: Any) -> _Wrong:
        if value is None:
            return None
        if type(value) is not dict:
            return ("", describe(value), "a mapping of names to text", example)
        for name, item in value.items():
            if type(name) is not str:
                return ("", f"a mapping with the name {describe(name)}", "names that are text", example)
            if keys and name not in keys:
                return (f".{name}", "an unknown name", f"one of {', '.join(keys)}", example)
            if type(item) is not str and not (keys and item is None):
                return (f".{name}", describe(item), "text", example)
        return None

    return check


def _true_or_false(value: Any) -> _Wrong:
    if value is None or type(value) is bool:
        return None
    return ("", describe(value), "true or false", "key_provisional: true")


def _tags(value: Any) -> _Wrong:
    example = 'tags: {"added": ["must-read"], "removed": ["theory"]}'
    if value is None:
        return None
    if type(value) is not dict:
        return ("", describe(value), f"a mapping of {', '.join(TAG_LISTS)} to lists of tags", example)
    for name, tags in value.items():
        if name not in TAG_LISTS:
            return (f".{name}", "an unknown name", f"one of {', '.join(TAG_LISTS)}", example)
        if tags is None or _is_text_list(tags):
            continue
        if type(tags) is list:
            at, item = next((i, x) for i, x in enumerate(tags) if type(x) is not str)
            return (f".{name}[{at}]", describe(item), "a tag (text)", example)
        return (f".{name}", describe(tags), "a list of tags, even for one tag", example)
    return None


def _mentions(value: Any) -> _Wrong:
    example = 'mentions: ["notes/icml.md:12"]'
    wrong = _text_list(example)(value)
    if wrong is not None or value is None:
        return wrong
    for at, mention in enumerate(value):
        _file, sep, line = mention.rpartition(":")
        if not sep or not (line.isascii() and line.isdigit()):
            return (f"[{at}]", describe(mention), "a notes file and line (file:line)", example)
    return None


#: what each known part of a version record holds (any other part: text, a number, true/false or a list of text)
_VERSION_TEXT = ("source", "id", "title", "venue", "stage", "presentation")
_VERSION_TEXT_LISTS = ("authors", "fingerprints", "urls", "hand")
_VERSION_EXAMPLE = 'versions: [{"source": "arxiv", "id": "2509.14562", "stage": "preprint", "title": "..."}]'


def _version_part(name: str, item: Any) -> tuple[str, str] | None:
    """(found, expected) when one part of a version record is wrong."""
    if name in _VERSION_TEXT:
        return None if item is None or type(item) is str else (describe(item), "text")
    if name in _VERSION_TEXT_LISTS:
        return None if item is None or _is_text_list(item) else (describe(item), "a list of text")
    if name == "year":
        return None if item is None or type(item) in (int, str) else (describe(item), "a year")
    if name == "fields":
        ok = item is None or (type(item) is dict and all(type(k) is str and type(v) is str for k, v in item.items()))
        return None if ok else (describe(item), "a mapping of field names to text")
    if item is None or type(item) in (str, int, bool) or _is_text_list(item):
        return None
    return (describe(item), "text, a number, true/false or a list of text")


def _versions(value: Any) -> _Wrong:
    if value is None:
        return None
    if type(value) is not list:
        return ("", describe(value), "a list of version records", _VERSION_EXAMPLE)
    for at, record in enumerate(value):
        if type(record) is not dict:
            return (f"[{at}]", describe(record), "a version record (a mapping)", _VERSION_EXAMPLE)
        for name, item in record.items():
            if type(name) is not str:
                return (f"[{at}]", f"a mapping with the name {describe(name)}", "names that are text", _VERSION_EXAMPLE)
            wrong = _version_part(name, item)
            if wrong is not None:
                return (f"[{at}].{name}", wrong[0], wrong[1], _VERSION_EXAMPLE)
    return None


_IMPORT_EXAMPLE = 'import_record: {"file": "zotero.bib", "key": "foret2021sam", "fields": "title=3b0e... year=8f1c..."}'


def _import_record(value: Any) -> _Wrong:
    """What a record looked like when last imported: its file, its key there, a hash per field."""
    if value is None:
        return None
    if type(value) is not dict:
        return ("", describe(value), "a mapping with file, key and fields", _IMPORT_EXAMPLE)
    for name, item in value.items():
        if name in ("file", "key", "version"):  # version: a Zotero item's, for the next incremental import
            if type(item) is not str:
                return (f".{name}", describe(item), "text", _IMPORT_EXAMPLE)
        elif name == "fields":
            if type(item) is not str:
                return (".fields", describe(item), "text (name=hash pairs)", _IMPORT_EXAMPLE)
        elif name == "tags":
            wrong = _text_list(_IMPORT_EXAMPLE)(item)
            if wrong is not None:
                return (f".tags{wrong[0]}", *wrong[1:])
        else:
            return (f".{name}" if type(name) is str else "", "an unknown name", "one of file, key, fields, tags, version",
                    _IMPORT_EXAMPLE)
    return None


#: every part a record may have, and its check
RECORD_PARTS: dict[str, Callable[[Any], _Wrong]] = {
    "status": _text_or_none,
    "origin": _text_or_none,
    "reason": _text_or_none,
    "summary": _text_or_none,
    "abstract": _text_or_none,
    "ids": _text_map('ids: {"arxiv": "2509.14562", "doi": "10.1000/xyz"}', ID_SCHEMES),
    "tags": _tags,
    "mentions": _mentions,
    "aliases": _text_list('aliases: ["oldkey2025"]'),
    "hand": _text_list('hand: ["title"]'),
    "generated": _text_map('generated: {"title": "...", "year": "2026"}'),
    "generated_hash": _text_map('generated_hash: {"author": "3b0e..."}'),
    "provenance": _text_map('provenance: {"title": "notes"}'),
    "versions": _versions,
    "key_provisional": _true_or_false,
    "import_record": _import_record,
    "conflicts": _text_map('conflicts: {"summary": "the merged branch\'s summary"}', ("summary",)),
}
_RECORD_EXAMPLE = 'huang2026limuon: {status: "resolved", tags: {"added": ["muon"]}}'


def record_problem(key: str, meta: Any, *, section: str = "entries") -> SidecarProblem | None:
    """The first wrong part of one record (``meta``) of ``section``, or None when it is sound."""
    where = f"{'entry' if section == 'entries' else 'detached record'} '{key}'"
    if type(meta) is not dict:
        return SidecarProblem(where, describe(meta), "a record (a mapping of parts)", _RECORD_EXAMPLE)
    checks = RECORD_PARTS
    for part, value in meta.items():
        check = checks.get(part) if type(part) is str else None
        if check is None:
            return SidecarProblem(f"{where}, part {part!r}", "an unknown part",
                                  f"one of {', '.join(sorted(checks))}", _RECORD_EXAMPLE)
        wrong = check(value)
        if wrong is not None:
            sub, found, expected, example = wrong
            return SidecarProblem(f"{where}, part '{part}{sub}'", found, expected, example)
    return None


def _records(section: str, records: Any) -> SidecarProblem | None:
    if type(records) is not dict:
        return SidecarProblem(f"'{section}'", describe(records), "a mapping of keys to records",
                              f"{section}: {{}} when there are none")
    for key, meta in records.items():
        if type(key) is not str:
            return SidecarProblem(f"the key {key!r} under '{section}'", describe(key), "a key (text)",
                                  f"'{key}': quoted, so YAML reads it as text")
        problem = record_problem(key, meta, section=section)
        if problem is not None:
            return problem
    return None


def _pending(value: Any) -> SidecarProblem | None:
    example = 'pending: [{"kind": "abstract", "where": ["notes/icml.md:3"]}]'
    if value is None:
        return None
    if type(value) is not list:
        return SidecarProblem("'pending'", describe(value), "a list of works waiting for an online sync", example)
    for at, item in enumerate(value):
        if type(item) is not dict:
            return SidecarProblem(f"'pending[{at}]'", describe(item), "a mapping", example)
        for name, part in item.items():
            if type(name) is not str:
                return SidecarProblem(f"'pending[{at}]'", f"a mapping with the name {describe(name)}",
                                      "names that are text", example)
            if name in ("where", "hints", "urls", "kinds", "authors"):
                ok = part is None or _is_text_list(part)
                expected = "a list of text"
            else:
                ok = part is None or type(part) in (str, int, bool) or _is_text_list(part)
                expected = "text, a number, true/false or a list of text"
            if not ok:
                return SidecarProblem(f"'pending[{at}].{name}'", describe(part), expected, example)
    return None


def _head(data: dict[Any, Any]) -> SidecarProblem | None:
    """The parts beside the records: format, checksum, ASCII mode, issued keys."""
    version = data.get("version")
    if version is not None and (type(version) is not int or not 1 <= version <= NEWEST_FORMAT):
        if type(version) is int and version > NEWEST_FORMAT:
            return SidecarProblem("'version'", f"format {version}, written by a newer citekit",
                                  f"a format up to {NEWEST_FORMAT}", "upgrade citekit to read it")
        return SidecarProblem("'version'", describe(version), f"a format number (1 to {NEWEST_FORMAT})",
                              f"version: {NEWEST_FORMAT}")
    checksum = data.get("bib_checksum")
    if checksum is not None and type(checksum) is not str:
        return SidecarProblem("'bib_checksum'", describe(checksum), "text", "bib_checksum: 1f0c2a...")
    ascii_mode = data.get("ascii")
    if ascii_mode is not None and type(ascii_mode) is not bool:
        return SidecarProblem("'ascii'", describe(ascii_mode), "true or false", "ascii: true")
    issued = data.get("issued_keys")
    if issued is not None and not _is_text_list(issued):
        return SidecarProblem("'issued_keys'", describe(issued), "a list of keys (text)", 'issued_keys: ["oldkey2025"]')
    return None


TOP_LEVEL = ("ascii", "bib_checksum", "detached", "entries", "issued_keys", "pending", "version")


def document_problem(data: Any) -> SidecarProblem | None:
    """The first thing wrong with a whole parsed sidecar, or None when every part is sound.

    The document must be a mapping with ``entries:`` (``entries: {}`` for a library
    without entries, as citekit writes it): an empty file, a list or a bare string is
    not a sidecar of any format."""
    if data is None:
        return SidecarProblem("the file", "empty", "citekit's records under 'entries:'", "entries: {}")
    if type(data) is not dict:
        return SidecarProblem("the file", describe(data), "a mapping with 'entries:'", "entries: {}")
    for name in data:
        if name not in TOP_LEVEL:
            return SidecarProblem(f"the top-level name {name!r}", "unknown", f"one of {', '.join(TOP_LEVEL)}",
                                  "entries: {...}")
    if "entries" not in data:
        return SidecarProblem("'entries'", "missing", "a mapping of keys to records", "entries: {}")
    return (_head(data) or _records("entries", data["entries"])
            or (_records("detached", data["detached"]) if data.get("detached") is not None else None)
            or _pending(data.get("pending")))
