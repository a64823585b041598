"""``export``: the library, or only what one paper cites, as BibTeX, biblatex or CSL JSON.

A whole-library BibTeX export is joined from texts stored per entry (the fast path,
:func:`_plain_bibtex`); anything else selects entries (cited keys, tags, crossref parents)
and renders them (:func:`render`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from citekit.api.project import config_of
from citekit.core.errors import UsageError

if TYPE_CHECKING:
    from citekit.library.store import Library
    from citekit.core.model import Entry
    from citekit.paper.cited import CitedKeys, EntryIndex, Selection

FORMATS = ("bibtex", "biblatex", "csl-json")


class UnknownFormat(UsageError):
    """An export format citekit does not write."""


def render(selection: Selection, fmt: str, *, ascii: bool = False, header: str | None = None,
           library: Library | None = None, unchanged: bool = False) -> str:
    """The export text of a selection in one format.

    Each format keeps old keys working its own way: BibTeX gets a copy of the entry under
    each cited old key (it has no aliases), biblatex gets ``ids`` (biber resolves them),
    CSL JSON gets copies and crossref fields copied into each child (CSL has neither).
    ``header`` becomes a ``%`` comment at the top of BibTeX and biblatex output.
    With ``library``, BibTeX text of entries unchanged since ``library.bib`` was written is
    taken from the parsed-library cache instead of being rendered again (same bytes);
    ``unchanged`` (nothing modified the library's entries since it was loaded, as in the
    read-only ``export`` command) also reuses texts a previous export rendered.
    """
    from citekit.paper.cited import Selection, alias_copies, inherit_crossrefs, with_ids_field

    if fmt == "bibtex":
        from citekit.bibtex.writer import check_unique_keys, entry_text, write_texts

        entries = alias_copies(selection)
        check_unique_keys(entries)
        if library is None:
            return write_texts((entry_text(e, ascii=ascii) for e in entries), header)
        if not unchanged:
            return write_texts(((_as_written(e) and library.rendered_text(e, ascii)) or entry_text(e, ascii=ascii)
                                for e in entries), header)
        from citekit.library.store import kinds

        kind = kinds.export_text(ascii)
        return write_texts((library.memo(kind, e, lambda e: _entry_export_bytes(library, e, ascii)).decode("utf-8", "surrogatepass")
                            for e in entries), header)
    if fmt == "biblatex":
        from citekit.output.biblatex import render_biblatex

        return render_biblatex(with_ids_field(selection), ascii=ascii, header=header)
    if fmt == "csl-json":
        from citekit.output.csl import to_csl_json

        flat = Selection(entries=inherit_crossrefs(selection), aliases=selection.aliases, direct=selection.direct)
        return json.dumps(to_csl_json(alias_copies(flat)), ensure_ascii=False, indent=2) + "\n"
    raise UnknownFormat(f"unknown format '{fmt}'; choose one of {', '.join(FORMATS)}")


def _as_written(entry: Entry) -> bool:
    """Whether ``entry`` renders exactly as its ``library.bib`` text: no ``keywords`` or
    ``ids`` field of its own (the file derives both from tags and aliases) and aliases in
    the sorted order the file writes them."""
    if any(name.lower() in ("keywords", "ids") for name in entry.fields):
        return False
    aliases = list(entry.aliases)
    return aliases == sorted(set(aliases)) and all(a == a.strip() and a for a in aliases)


def select_for_export(
    entries: list[Entry] | EntryIndex,
    cited: CitedKeys | None,
    tags: tuple[str, ...] = (),
    any_tag: bool = False,
    tags_of: Callable[[str], list[str]] | None = None,
) -> Selection:
    """What to export: the cited entries (or all), narrowed to the tags, parents pulled in.

    ``entries`` may be a library's :class:`EntryIndex` (only selected entries are decoded)
    with ``tags_of`` reading a key's tags from the library's cache.
    """
    from citekit.paper.cited import CitedKeys, EntryIndex, select_cited

    index = entries if isinstance(entries, EntryIndex) else EntryIndex(entries)
    keys = list(index.entries)
    if tags:
        from citekit.library.tags import select

        allowed = set(select(keys, list(tags), any_=any_tag, tags_of=tags_of or (lambda k: index.entries[k].tags)))
    else:
        allowed = set(keys)
    if cited is None:
        cited = CitedKeys()
        for key in keys:
            if key in allowed:
                cited.add(key)
        return select_cited(index, cited)
    selection = select_cited(index, cited)
    if not tags:
        return selection
    narrowed = CitedKeys(everything=False, files=cited.files, unreadable=cited.unreadable)
    for key in ([*cited.keys, *keys] if cited.everything else cited.keys):
        target = selection.aliases.get(key, key)
        if target in allowed:
            narrowed.add(key)
            narrowed.locations[key] = cited.locations.get(key, [])
    result = select_cited(index, narrowed)
    result.missing = selection.missing  # a missing key is missing whatever the tags say
    return result


def write_output(text: str | bytes, output: str | None) -> bool:
    """Replace ``output`` atomically (False: it held these bytes already); an unchanged file keeps its timestamp.

    Keeping the timestamp matters in a paper's Makefile: ``refs.bib`` is rebuilt after
    every LaTeX run (``main.aux`` changed), and an untouched ``refs.bib`` stops make from
    re-running BibTeX and LaTeX for nothing. ``bytes`` are the text in UTF-8.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if output is None or output == "-":
        raise ValueError("write_output writes a file; printing is the caller's")
    from citekit.library.store import atomic_write

    path = Path(output)
    if path.exists() and path.read_bytes() == data:
        return False
    atomic_write(path, data.decode("utf-8", "surrogatepass") if isinstance(text, bytes) else text)
    return True


@dataclass
class Export:
    """An export ready to print or write: ``text`` (``bytes`` are UTF-8) of ``count`` entries.

    ``text`` is None when nothing can be written: ``nothing`` says why the selection is
    empty, or ``missing`` names cited keys the library lacks (the caller decides whether
    those are allowed: then :func:`export` is asked again with ``allow_missing``).
    """

    text: str | bytes | None
    #: the entries written (a BibTeX or CSL copy under each old key still cited counts)
    count: int = 0
    bib_path: Path | None = None
    #: why nothing was selected (an unknown tag, an empty library)
    nothing: str | None = None
    #: cited keys the library lacks (``Missing`` objects: ``.key``, ``.message()``)
    missing: list[Any] = field(default_factory=list)
    #: files of the paper that could not be read
    unreadable: list[str] = field(default_factory=list)
    #: said after the summary ("main.aux cites nothing yet")
    note_more: str = ""
    #: the works among ``count`` (the rest are copies under old keys still cited)
    papers: int = 0
    #: private fields left out of an export for a paper: field name -> entries that had it
    dropped: dict[str, int] = field(default_factory=dict)


#: Fields an export for a paper (``--aux``, ``--tex``, KEYS) leaves out unless asked to keep
#: them (``keep_private``): a reference manager's own bookkeeping about the user's copy of
#: a paper (a PDF's path on this computer, when it was added, whether it was read, a
#: rating), which no bibliography style prints and which a shared ``refs.bib`` must not leak.
PRIVATE_FIELDS = frozenset({
    "file", "local-url", "uri", "rating", "read", "readstatus", "date-added", "date-modified", "timestamp",
    "owner", "groups", "mendeley-tags", "mendeley-groups", "ranking", "priority", "qualityassured", "printed",
    "relevance",
})
#: name prefixes of private fields (BibDesk numbers its file links: ``bdsk-file-1``, ``bdsk-file-2``)
PRIVATE_PREFIXES = ("bdsk-file-",)


def is_private_field(name: str) -> bool:
    """Whether a field is one :data:`PRIVATE_FIELDS` names (by any case) or starts with a private prefix."""
    lower = name.lower()
    return lower in PRIVATE_FIELDS or lower.startswith(PRIVATE_PREFIXES)


def _without_private_fields(selection: Selection) -> tuple[Selection, dict[str, int]]:
    """The selection with every private field left out, and how many entries had each."""
    from dataclasses import replace

    dropped: dict[str, int] = {}
    entries = []
    for entry in selection.entries:
        private = [n for n in entry.fields if is_private_field(n)]
        for name in private:
            dropped[name.lower()] = dropped.get(name.lower(), 0) + 1
        entries.append(replace(entry, fields={n: v for n, v in entry.fields.items() if n not in private})
                       if private else entry)
    return replace(selection, entries=entries), dropped


def export_entries(start: str | Path | None = None, *, fmt: str = "bibtex", ascii: bool | None = None,
           tags: tuple[str, ...] | list[str] = (), any_tag: bool = False, aux: Path | None = None,
           tex: Path | None = None, allow_missing: bool = False, keys: tuple[str, ...] | list[str] = (),
           keep_private: bool = False) -> Export:
    """The library, or what a paper cites (``aux`` or ``tex``), or the entries ``keys`` name
    (keys or old keys, as a citation names them), narrowed to ``tags``.

    An export for a paper (``aux``, ``tex`` or ``keys``) leaves out :data:`PRIVATE_FIELDS`
    unless ``keep_private``; a whole-library export keeps every field (it is the library).

    ``ascii`` None: the library's remembered choice (``sync --ascii``) for BibTeX and biblatex.
    """
    from citekit.library.store import Library

    tags = tuple(tags)
    cfg = config_of(start)
    library = Library.load(cfg.refs_dir)
    _refuse_unsettled_merge(library)
    cited = None
    if keys and (aux or tex):
        raise UsageError("give keys, or --aux/--tex, not both (the keys a paper cites are read from it)")
    if aux or tex:
        from citekit.paper.cited import read_citations

        cited = read_citations(aux=aux, tex=tex)
    elif keys:  # named keys are exported as a paper citing them would be: aliases, parents, missing keys
        from citekit.paper.cited import CitedKeys

        cited = CitedKeys()
        for key in keys:
            cited.add(key)
    if ascii is None:  # the library's remembered choice (sync --ascii / bibtex.ascii) carries over
        ascii = library.ascii and fmt != "csl-json"
    facets = library.facets() if tags else {}
    if tags:
        from citekit.api.library import remember_read

        remember_read(library)  # (the warning about a tag no entry carries reads its tags in use)
    if cited is None and fmt == "bibtex":
        plain = _plain_bibtex(library, ascii, tags, any_tag, facets)
        if plain is not None:
            _freeze(library, None if not tags else plain[2])
            library.keep_memos()
            return Export(_with_header(plain[0], _HEADER), plain[1], library.bib_path, papers=plain[1])
    from citekit.paper.cited import EntryIndex

    index = EntryIndex.of_library(library)
    selection = select_for_export(index, cited, tags, any_tag, tags_of=lambda k: facets[k][1])

    paper_cites_nothing = cited is not None and not tags and not selection.entries and not selection.missing
    if not selection.entries and not selection.missing and not paper_cites_nothing:
        return Export(None, bib_path=library.bib_path, nothing=_nothing_selected(library.sorted_entries(), tags, aux or tex))
    copies = len(selection.aliases) if fmt != "biblatex" else 0  # (biblatex: old keys in ids, no copies)
    result = Export(None, len(selection.entries) + copies - _replaced(selection) * (fmt != "biblatex"),
                    library.bib_path, missing=list(selection.missing),
                    unreadable=list(cited.unreadable if cited else []), papers=len(selection.entries))
    if selection.missing and aux:
        _place_in_sources(selection.missing, aux)
    if selection.missing and not allow_missing:
        return result
    source = (aux or tex).name if (aux or tex) else None
    header = (f"Exported by citekit: the entries {source} cites. Regenerate it instead of editing it."
              if source else _HEADER if not keys else
              "Exported by citekit: the entries asked for by key. Regenerate it instead of editing it.")
    if cited is not None and not keep_private:
        selection, result.dropped = _without_private_fields(selection)
    result.text = render(selection, fmt, ascii=ascii, header=header, library=None if result.dropped else library,
                         unchanged=True)
    result.note_more = f" ({(aux or tex).name} cites nothing yet)" if paper_cites_nothing else ""
    _freeze(library, [e.key for e in selection.entries])
    library.keep_memos()
    return result


def _replaced(selection: Selection) -> int:
    """The entries cited only under old keys: BibTeX and CSL get their copies instead of them
    (:func:`citekit.paper.cited.alias_copies`)."""
    targets = set(selection.aliases.values())
    needed = selection.direct | set(selection.parents)
    return sum(1 for e in selection.entries if e.key in targets and e.key not in needed)


def _place_in_sources(missing: list[Any], aux: Path) -> None:
    """Point each missing key at its ``\\cite`` in the ``.tex`` the ``.aux`` was made from
    (following ``\\input``/``\\include``): that line is the one the author fixes, not the
    ``.aux`` line LaTeX wrote. Read only when a key is missing, so a good export costs nothing more."""
    from citekit.paper.cited import citations_from_tex, source_of

    tex = source_of(aux)
    if tex is None:
        return
    try:
        placed = citations_from_tex(tex).locations
    except OSError:
        return  # the .aux line is still a place to start from
    for item in missing:
        if placed.get(item.key) and not item.needed_by:
            item.locations = list(placed[item.key])


def _refuse_unsettled_merge(library: Library) -> None:
    """A git merge left two values of one field (``citekit merge-driver``): a paper's .bib
    must not carry both, nor silently one of them, so nothing is exported until it is settled.
    Exit 2, as for every input the user must fix first (docs/command-line.md): nothing was
    written, and a build (``make``) stops here instead of reading 1 as "done, with findings"."""
    from citekit.core.errors import CitekitError
    from citekit.library.gitmerge import CONFLICT_PREFIX, conflicts_in

    if CONFLICT_PREFIX.encode() not in library.bib_path.read_bytes():  # (a byte scan; entries decoded only then)
        return
    found = conflicts_in({e.key: e for e in library.sorted_entries()})
    if not found:
        return
    listed = ", ".join(f"{key} ({name})" for key, name in found[:5]) + (" ..." if len(found) > 5 else "")
    raise CitekitError(f"refs/library.bib holds {len(found)} field(s) a git merge left unsettled: {listed}; "
                       f"nothing was exported.", exit_code=2,
                       next_step=f"Settle each with `citekit resolve-conflict {found[0][0]} --ours|--theirs|--edit`, "
                                 "then export again.")


def _freeze(library: Library, keys: list[str] | None) -> None:
    """Exported keys can be cited from now on: they become permanent (None: every key)."""
    from citekit.api.library import remember_read
    from citekit.library.freeze import freeze_leaving

    freeze_leaving(library, keys, "export")
    remember_read(library)  # as written now


_HEADER = "Exported by citekit from the library. Regenerate it instead of editing it."


def _with_header(body: bytes, header: str) -> bytes:
    """``output.bibtex.write_texts([body], header)`` in UTF-8, for a body of joined entry
    texts, without importing the BibTeX writer (a warm whole-library export renders nothing)."""
    from citekit.bibtex.comments import tex_comment

    comment = tex_comment(header).encode("utf-8")
    return b"".join([comment, b"\n\n", body, b"\n"]) if body else comment + b"\n"


def _plain_bibtex(library: Library, ascii: bool, tags: tuple[str, ...], any_tag: bool,
                  facets: dict[str, tuple[str, list[str]]]) -> tuple[bytes, int, list[str]] | None:
    """(body, entry count, keys) of a BibTeX export of the whole library (or of its tags), read
    from texts stored per entry; None when the general path must decide: nothing selected,
    or a selected entry with a ``crossref`` (parents are ordered after their children)."""
    keys = library.sorted_keys()
    if tags:
        from citekit.library.tags import select

        keys = select(keys, list(tags), any_=any_tag, tags_of=lambda k: facets[k][1])
    if not keys:
        return None
    from citekit.library.store import kinds

    plain = library.memo_table(kinds.EXPORT_PLAIN, _plain)
    if not all(plain[k] for k in keys):
        return None
    texts = library.memo_table(kinds.export_text(ascii), lambda e: _entry_export_bytes(library, e, ascii))
    return b"\n\n".join([texts[k] for k in keys]), len(keys), keys


def _plain(entry: Entry) -> bool:
    """Whether the entry exports as its own text alone (no crossref parent to place)."""
    from citekit.paper.cited import crossref_target

    return crossref_target(entry) is None


def _entry_export_bytes(library: Library, entry: Entry, ascii: bool) -> bytes:
    """An entry's BibTeX export text in UTF-8 (joined and written as bytes, never decoded):
    its stored ``library.bib`` text when that is the same bytes, else rendered."""
    from citekit.bibtex.writer import entry_text

    text = (_as_written(entry) and library.rendered_text(entry, ascii, unchanged=True)) or entry_text(entry, ascii=ascii)
    return text.encode("utf-8", "surrogatepass")


def _nothing_selected(entries: list[Entry], tags: tuple[str, ...], paper: Path | None) -> str:
    """Why the selection is empty, and what to try instead."""
    if not entries:
        return "the library is empty; run `citekit sync` (or `citekit import FILE.bib`) first"
    if tags:
        from citekit.library.tags import tag_counts, unknown_tags, unknown_tags_message

        known = [t for t, _ in tag_counts(entries)]
        unknown = unknown_tags(tags, known)
        if unknown:
            return f"no entry has tag(s) {', '.join(tags)}: {unknown_tags_message(unknown, known)}"
        return f"no entry has tag(s) {', '.join(tags)}" + (
            f"; tags in use: {', '.join(sorted(known)[:15])}" if known else "; the library has no tags yet (run `citekit sync`)")
    return f"{paper.name if paper else 'the paper'} cites no entry"
