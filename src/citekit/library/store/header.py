"""library.bib's header, and the checksum line earlier versions wrote under it.

The header says where the entries come from and nothing that changes on every write, so
two git branches that both wrote the library merge it cleanly. Earlier versions ended it
with a checksum line of everything below it (and a copy in the sidecar): such a file is
still read as before (the line tells whether it was edited since, and pairs it with its
sidecar) and loses the line on the next write; what it did is now done by
:mod:`.written`, outside the files.
"""

from __future__ import annotations

from citekit.core import cachefile

BIB_HEADER = (
    "Written by citekit from the notes; edit freely: hand edits are kept by every sync.\n"
    "Tags, summaries and status live in library.yaml beside this file."
)
#: the header's first line, by where the library's entries come from (their origins): a
#: library imported from other .bib files must not claim to come from the notes
_ORIGIN_LINES = {
    frozenset({"import"}): "Written by citekit from imported .bib files (citekit import); edit freely: "
                           "hand edits are kept.",
    frozenset({"notes", "import"}): "Written by citekit from the notes and imported .bib files; edit freely: "
                                    "hand edits are kept.",
}
#: every line a header citekit writes may hold (what a read strips as citekit's own)
HEADER_LINES = tuple(dict.fromkeys([*BIB_HEADER.split("\n"), *_ORIGIN_LINES.values()]))
#: how an entry's origin reads in its sidecar record (``origin: "import"``)
_ORIGIN_MARK = 'origin: "{}"'


def bib_header(origins: frozenset[str] | set[str] = frozenset({"notes"})) -> str:
    """The header's comment lines for a library whose entries have ``origins`` (entries
    written by hand, ``manual``, say nothing about where the rest came from)."""
    known = frozenset(origins) & {"notes", "import"}
    first = _ORIGIN_LINES.get(known)
    if first is None:
        return BIB_HEADER
    return first + "\n" + BIB_HEADER.split("\n", 1)[1]


def origins_in(sidecar_parts: list[str]) -> frozenset[str]:
    """The origins named by the entries' sidecar texts (a substring test: no entry decoded)."""
    out = set()
    for origin in ("notes", "import"):
        mark = _ORIGIN_MARK.format(origin)
        if any(mark in part for part in sidecar_parts):
            out.add(origin)
    return frozenset(out)
CHECKSUM_MARK = "% citekit-checksum: "
#: the line above the blocks citekit could not read, which it writes at the end of library.bib
UNPARSED_MARK = "% citekit could not read the blocks below; they are kept verbatim. Fix them and run again."


def checksum(body: str) -> str:
    return cachefile.sha256(body.encode("utf-8")).hexdigest()[:16]


def checksum_ok(text: str) -> bool:
    """Whether library.bib (as an earlier version wrote it) is exactly as citekit wrote it
    (its checksum line still matches)."""
    at = text.find(CHECKSUM_MARK)
    if at < 0:
        return False
    line_end = text.find("\n", at)
    if line_end < 0 or text[line_end + 1:line_end + 2] != "\n":
        return False
    return text[at + len(CHECKSUM_MARK):line_end].strip() == checksum(text[line_end + 2:])


def stated_checksum(text: str | None) -> str | None:
    """The checksum library.bib's header says it was written with (hand edits keep the line)."""
    if not text:
        return None
    at = text.find(CHECKSUM_MARK, 0, 2000)
    if at < 0:
        return None
    end = text.find("\n", at)
    return text[at + len(CHECKSUM_MARK):end if end >= 0 else None].strip() or None


def written_by_citekit(text: str | None) -> bool:
    """Whether ``text`` (library.bib) starts with a header citekit writes (or the checksum
    line earlier versions wrote): then its sidecar must be there too."""
    if not text:
        return False
    if CHECKSUM_MARK in text[:2000]:
        return True
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return first.startswith("% ") and first[2:] in HEADER_LINES


def bib_text(body: str, unparsed: list[str], origins: frozenset[str] | set[str] = frozenset({"notes"})) -> str:
    """The whole of library.bib: the header (saying where the entries come from, see
    :func:`bib_header`), a blank line, ``body``, and the blocks citekit could not read below
    their marker line. No line of it depends on the whole file (see :mod:`.written`)."""
    return bib_prefix(origins) + body + bib_suffix(bool(body) and not body.endswith("\n"), unparsed)


def bib_prefix(origins: frozenset[str] | set[str] = frozenset({"notes"})) -> str:
    """What library.bib holds above the body: the header and a blank line."""
    return "".join(f"% {line}\n" for line in bib_header(origins).split("\n")) + "\n"


def bib_suffix(needs_line_end: bool, unparsed: list[str]) -> str:
    """What library.bib holds below the body (``needs_line_end``: the body does not end in
    one): the blocks citekit could not read, below their marker line, if any."""
    if not unparsed:
        return ""
    return ("\n" if needs_line_end else "") + f"\n{UNPARSED_MARK}\n" + "\n\n".join(unparsed) + "\n"
