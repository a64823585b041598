"""library.bib's header and its checksum line.

The last header line is a checksum of everything below it: when it still matches on the
next load, nobody has edited the file since citekit wrote it, whatever the sidecar says;
the sidecar records the same checksum, which is how a reader tells a pair written
together from a split one.
"""

from __future__ import annotations

from citekit.core import cachefile

BIB_HEADER = (
    "Written by citekit from the notes; edit freely: hand edits are kept by every sync.\n"
    "Tags, summaries and status live in library.yaml beside this file."
)
CHECKSUM_MARK = "% citekit-checksum: "
#: the line above the blocks citekit could not read, which it writes at the end of library.bib
UNPARSED_MARK = "% citekit could not read the blocks below; they are kept verbatim. Fix them and run again."


def checksum(body: str) -> str:
    return cachefile.sha256(body.encode("utf-8")).hexdigest()[:16]


def checksum_ok(text: str) -> bool:
    """Whether library.bib is exactly as citekit wrote it (its checksum line still matches)."""
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


def bib_text(body: str, unparsed: list[str]) -> str:
    """The whole of library.bib: the header with the checksum of ``body``, ``body``, and
    the blocks citekit could not read below their marker line."""
    if unparsed:
        if body and not body.endswith("\n"):
            body += "\n"  # (kept text at the end of a file without a last line end)
        body += (
            f"\n{UNPARSED_MARK}\n"
            + "\n\n".join(unparsed)
            + "\n"
        )
    header = "".join(f"% {line}\n" for line in BIB_HEADER.split("\n"))
    return f"{header}{CHECKSUM_MARK}{checksum(body)}\n\n{body}"
