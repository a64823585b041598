"""Text the user wrote in library.bib between entries, kept where it stood.

Comments, ``@comment``, ``@string`` and ``@preamble`` blocks, stray lines: read apart from
the entries, and put back where it stood when the file is written, so nothing the user
wrote is lost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citekit.library.store.header import CHECKSUM_MARK, HEADER_LINES, UNPARSED_MARK


class KeptText:
    """The kept text of one library: the text above the first entry (citekit's header
    aside), the text above each later entry (by key: it moves with its entry when the
    library is re-sorted), the text after the last entry. Mixed into the library, whose
    fields ``kept_head``, ``kept_before``, ``kept_tail`` and ``kept_moves`` these are."""

    kept_head: str
    kept_before: dict[str, str]
    kept_tail: str
    #: what the last render did with kept text whose entry is gone (one line each)
    kept_moves: list[str]

    if TYPE_CHECKING:  # (the library's own)
        def aliases_by_key(self) -> dict[str, list[str]]: ...

    def _body(self, keys: list[str], parts: list[str]) -> str:
        """The entries' texts (``parts``, each ending in a line end, in the order of ``keys``)
        with the kept text (see :attr:`kept_before`) where it stands: above its entry, the
        head above all, the tail after all. Without kept text, entries are one blank line
        apart; a kept text stands in for that blank line. With no entries, the kept text
        alone (or an empty line, as :func:`render_entries` writes for none)."""
        if not parts:
            return self.kept_head + self.kept_tail or "\n"
        head, seps, tail = self._body_frame(keys)
        if not (head or tail) and len(seps) == len(parts) and all(sep == "\n" for sep in seps[1:]):
            return "\n".join(parts)
        out = [head]
        for sep, part in zip(seps, parts):
            out.append(sep)
            out.append(part)
        out.append(tail)
        return "".join(out)

    def _body_frame(self, keys: list[str]) -> tuple[str, list[str], str]:
        """The body of library.bib around the entries' texts, for a library with entries
        ``keys`` (in file order): (the text above all, the text above each entry, the text
        after all); the body is ``head + sep[0] + part[0] + sep[1] + ... + tail``. A
        spliced write (:mod:`.cache.layout`) reuses an entry's bytes where its text and
        the text above it are as last written."""
        if not (self.kept_before or self.kept_head or self.kept_tail):
            return "", ["", *("\n" for _ in range(len(keys) - 1))] if keys else [], ""
        before = self._settle_kept(keys)
        return self.kept_head, [before.get(key, "\n" if i else "") for i, key in enumerate(keys)], self.kept_tail

    def _settle_kept(self, keys: list[str]) -> dict[str, str]:
        """:attr:`kept_before` with the text of every entry no longer in the library given a
        home, so that nothing the user wrote is dropped: above the entry that absorbed it
        (a merge makes the old key an alias of the survivor), else at the end of the file.
        Each move is noted in :attr:`kept_moves`; the new places are kept from now on."""
        present = set(keys)
        gone = [k for k in self.kept_before if k not in present]
        if not gone:
            return self.kept_before
        home_of = {alias: key for key, aliases in self.aliases_by_key().items() for alias in aliases}
        adopted: dict[str, str] = {}
        to_tail = False
        for old in gone:
            text = self.kept_before[old]
            home = home_of.get(old)
            if home in present:
                adopted[home] = adopted.get(home, "") + text
                self.kept_moves.append(f"the text above '{old}' in library.bib now stands above '{home}', "
                                       "which absorbed that entry")
            else:
                self.kept_tail += text if text.startswith("\n") or not self.kept_tail else "\n" + text
                to_tail = True
                self.kept_moves.append(f"the text above '{old}' in library.bib, an entry no longer in the "
                                       "library, was moved to the end of the file")
        if to_tail:
            # as the next read of the file finds it (one line end at the end): else a cached
            # load, which keeps this tail, would write other bytes than a parse of the file
            self.kept_tail = _kept_end(self.kept_tail)
        self.kept_before = {k: adopted.pop(k, "") + v for k, v in self.kept_before.items() if k in present}
        self.kept_before.update(adopted)
        return self.kept_before


def kept_texts(gaps: list[tuple[str, str]], after: str) -> tuple[str, dict[str, str], str]:
    """What a write of library.bib keeps of the text outside its entries: (head, text above
    each entry but the first by key, tail), from the text before each entry (``gaps``: key
    and text, in file order) and after the last one.

    Only what citekit writes itself is left out: its header, the blank line it puts
    between entries and the line above the blocks it could not read. The blank line is
    the one line end that follows an entry's closing line; a kept text stands in for it,
    so the text is written back as it was read, byte for byte (at the end of the file,
    its trailing blank lines become one line end). A file with no entry is all head."""
    if not gaps:
        return _kept_end(_without_own_header(after).lstrip("\n")), {}, ""
    head = _without_marker(_without_own_header(gaps[0][1]).lstrip("\n"))
    before = {}
    for key, gap in gaps[1:]:
        text = _without_marker(gap[1:] if gap.startswith("\n") else gap)
        if text and not text.isspace():
            before[key] = text
    return (head if head and not head.isspace() else ""), before, _kept_end(after[1:] if after.startswith("\n") else after)


def _kept_end(text: str) -> str:
    """Text after the last entry, as kept: with one line end (the blocks citekit could not
    read follow it, and the blank lines between them are citekit's)."""
    text = _without_marker(text).rstrip("\n")
    return text + "\n" if text and not text.isspace() else ""


def _without_own_header(text: str) -> str:
    """``text`` (the start of library.bib) without the header citekit writes: its comment
    lines, the checksum line earlier versions wrote and the blank line after it (wherever
    the user left them; the blank line after a header without one is dropped by the caller)."""
    at = text.find(CHECKSUM_MARK)
    if at == 0 or at > 0 and text[at - 1] == "\n":
        end = text.find("\n", at)
        end = len(text) if end < 0 else end + 1
        if text.startswith("\n", end):
            end += 1
        text = text[:at] + text[end:]
    spans = []
    for line in HEADER_LINES:  # any header citekit writes (the user may have written between its lines)
        line = f"% {line}\n"
        found = text.find(line)
        if found == 0 or found > 0 and text[found - 1] == "\n":
            spans.append([found, found + len(line)])
    if spans and at < 0:  # no checksum line: the blank line after the last header line is citekit's
        last = max(spans, key=lambda span: span[1])
        if text.startswith("\n", last[1]):
            last[1] += 1
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + text[end:]
    return text


def _without_marker(text: str) -> str:
    """``text`` without the line citekit writes above the blocks it could not read (and
    the line end it puts before it)."""
    at = text.find(UNPARSED_MARK)
    if at < 0:
        return text
    end = at + len(UNPARSED_MARK)
    if text.startswith("\n", end):
        end += 1
    if at > 0 and text[at - 1] == "\n":
        at -= 1
    return text[:at] + text[end:]
