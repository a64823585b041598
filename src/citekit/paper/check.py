"""``citekit check``: what in a paper's citations will break or age badly.

Errors are citations LaTeX will print as ``[?]``. Warnings are things that compile but
should be fixed before submission: old keys of merged entries, arXiv-only entries whose
paper has since been published, a paper ``.bib`` that lags behind the library or carries
entries nobody cites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from citekit.core.model import Entry
from citekit.paper.cited import CitedKeys, EntryIndex, MissingKey
from citekit.core.text import normalize_title
from citekit.core.lazyre import lazy

#: Stages of a version record that mean "this paper has a published form".
PUBLISHED_STAGES = frozenset({"published", "accepted"})
_ARXIV_HINT = lazy(r"arxiv|corr\b|preprint", re.I)


@dataclass
class AliasUse:
    """A cited key that is an old key of an entry: the entry was renamed, or merged into another
    (the library does not keep which, so the message says both)."""

    key: str
    now: str
    #: where the paper cites the old key (file:line), the lines to change
    locations: list[Any] = field(default_factory=list)

    def message(self) -> str:
        where = f", cited at {', '.join(str(loc) for loc in self.locations[:5])}" + (
            " ..." if len(self.locations) > 5 else "") if self.locations else ""
        return (f"'{self.key}' is an old key of '{self.now}' (renamed, or merged into it){where}; "
                f"cite '{self.now}' instead (`citekit rekey PAPER.tex --map refs/keymap.yaml` rewrites the "
                "citations) — the old key keeps compiling through 'citekit export'")


@dataclass
class PreprintUse:
    """A cited entry that cites the arXiv version while a published one is known."""

    key: str
    published: str  # what the published version is: "ICML 2026 (openreview XXXX)" or "entry 'k'"

    def message(self) -> str:
        return (f"'{self.key}' cites the arXiv version, but a published version exists: {self.published}; "
                f"run 'citekit upgrade {self.key}' to upgrade the entry, or cite the published entry")


@dataclass
class CheckReport:
    """Everything ``citekit check`` found for one paper, ready to print or serialise."""

    paper: str
    cited: list[str] = field(default_factory=list)
    everything: bool = False
    undefined: list[MissingKey] = field(default_factory=list)
    aliases: list[AliasUse] = field(default_factory=list)
    preprints: list[PreprintUse] = field(default_factory=list)
    unused: list[str] | None = None  # None: no paper bib given, section skipped
    stale: list[str] = field(default_factory=list)  # cited library keys missing from the paper bib
    unreadable: list[str] = field(default_factory=list)
    bib: str | None = None

    @property
    def errors(self) -> int:
        return len(self.undefined)

    @property
    def warnings(self) -> int:
        return len(self.aliases) + len(self.preprints) + len(self.unused or []) + len(self.stale) + len(self.unreadable)

    def exit_code(self, strict: bool = False) -> int:
        """1 when a citation is undefined (or, with ``strict``, when anything was found)."""
        return 1 if self.errors or (strict and self.warnings) else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "paper": self.paper,
            "bib": self.bib,
            "cited": self.cited,
            "nocite_all": self.everything,
            "undefined": [
                {"key": m.key, "message": m.message(), "suggestions": [e.key for e in m.suggestions],
                 "locations": [str(loc) for loc in m.locations], "crossref_of": m.needed_by}
                for m in self.undefined
            ],
            "aliases": [{"key": a.key, "now": a.now, "message": a.message(),
                         "locations": [str(loc) for loc in a.locations]} for a in self.aliases],
            "preprints": [{"key": p.key, "published": p.published, "message": p.message()} for p in self.preprints],
            "unused": self.unused,
            "unused_skipped": self.unused is None,
            "missing_from_bib": self.stale,
            "unreadable_inputs": self.unreadable,
            "errors": self.errors,
            "warnings": self.warnings,
        }

    def format_text(self) -> str:
        """The human report: one section per kind of finding, each line actionable."""
        lines = [f"{self.paper}: {len(self.cited)} cited key(s)" + (" + \\nocite{*}" if self.everything else "")]
        if self.unreadable:
            lines.append("could not read (citations in them are not counted): " + ", ".join(self.unreadable))
        lines.append(_section("undefined citations", [m.message() for m in self.undefined]))
        lines.append(_section("old keys (of renamed or merged entries)", [a.message() for a in self.aliases]))
        lines.append(_section("arXiv entries with a published version", [p.message() for p in self.preprints]))
        if self.bib is not None:
            lines.append(_section(f"cited but missing from {self.bib} (run 'make {self.bib}' or 'citekit export')",
                                  self.stale))
        if self.unused is None:
            lines.append("unused entries: skipped (give the paper's own bibliography with --bib refs.bib to list "
                         "entries it does not cite)")
        else:
            lines.append(_section(f"entries of {self.bib} not cited", self.unused))
        lines.append(f"{self.errors} error(s), {self.warnings} warning(s)")
        return "\n".join(line for line in lines if line)


def _section(title: str, items: list[str]) -> str:
    if not items:
        return f"{title}: none"
    return "\n".join([f"{title} ({len(items)}):", *(f"  {item}" for item in items)])


def is_arxiv_only(entry: Entry) -> bool:
    """True when the entry cites a preprint: an arXiv identifier and no venue of its own."""
    f = {k.lower(): v for k, v in entry.fields.items()}
    if f.get("booktitle"):
        return False
    journal = f.get("journal", "")
    if journal and not _ARXIV_HINT.search(journal):
        return False
    if entry.entry_type.lower() not in {"misc", "unpublished", "online", "article", "techreport", "preprint"}:
        return False
    arxiv_signal = (
        entry.ids.arxiv
        or (f.get("eprint") and entry.entry_type.lower() != "article")
        or f.get("archiveprefix", "").lower() == "arxiv"
        or f.get("eprinttype", "").lower() == "arxiv"
        or _ARXIV_HINT.search(" ".join([journal, f.get("howpublished", ""), f.get("url", ""), f.get("note", "")]))
    )
    return bool(arxiv_signal)


def _published_version(entry: Entry) -> str | None:
    """How the entry's own version records describe a published version, if they have one."""
    for version in entry.versions:
        if str(version.get("stage", "")) in PUBLISHED_STAGES:
            where = " ".join(str(v) for v in (version.get("venue"), version.get("year")) if v) or "a venue"
            source = " ".join(str(v) for v in (version.get("source"), version.get("id")) if v)
            return f"{where} ({source})" if source else where
    return None


def twin_facts(entry: Entry) -> tuple[str, str, bool, str, str]:
    """What finding a published twin needs of an entry: (arXiv id, normalised title,
    arXiv-only?, venue, year); plain data, so a store can keep it per entry."""
    venue = entry.fields.get("booktitle") or entry.fields.get("journal") or entry.entry_type
    return (entry.ids.arxiv or "", normalize_title(entry.title), is_arxiv_only(entry), venue,
            entry.fields.get("year", "n.d."))


class PublishedTwins:
    """Library entries for the same paper as an arXiv-only entry that are not preprints,
    found through arXiv id and normalised title in one pass over the library."""

    def __init__(self, facts: dict[str, tuple[str, str, bool, str, str]]) -> None:
        self.facts = facts
        self.by_arxiv: dict[str, list[str]] = {}
        self.by_title: dict[str, list[str]] = {}
        for key, (arxiv, title, arxiv_only, _venue, _year) in facts.items():
            if arxiv_only:
                continue
            if arxiv:
                self.by_arxiv.setdefault(arxiv, []).append(key)
            if title and len(title) > 15:
                self.by_title.setdefault(title, []).append(key)
        self.order = {key: n for n, key in enumerate(facts)}

    def find(self, entry: Entry, own: bool = False) -> str | None:
        """``own``: ``entry`` is the library's entry, whose stored facts hold its title."""
        title = self.facts[entry.key][1] if own and entry.key in self.facts else normalize_title(entry.title)
        candidates = [*(self.by_arxiv.get(entry.ids.arxiv, []) if entry.ids.arxiv else []),
                      *(self.by_title.get(title, []) if title and len(title) > 15 else [])]
        candidates = [k for k in candidates if k != entry.key]
        if not candidates:
            return None
        key = min(candidates, key=self.order.__getitem__)
        _arxiv, _title, _only, venue, year = self.facts[key]
        return f"entry '{key}' ({venue}, {year})"


def check_paper(
    paper: str,
    cited: CitedKeys,
    library: Iterable[Entry] | EntryIndex,
    bib_entries: Iterable[Entry] | None = None,
    bib_name: str | None = None,
    describe: Callable[[Entry], str] | None = None,
    facts: Callable[[], dict[str, tuple[str, str, bool, str, str]]] | None = None,
    remember: Callable[[str, Callable[[], Any]], Any] | None = None,
) -> CheckReport:
    """Check a paper's citations against the library and, if given, the paper's own ``.bib``.

    A key counts as defined when the library (aliases included) or the paper's ``.bib``
    has it, because either way the paper compiles. The library decides what a key means
    (alias, arXiv-only); the paper ``.bib`` only says what the paper will see.
    ``describe`` serves the library entries' descriptions for suggestions, ``facts`` their
    :func:`twin_facts` (both from a store: the library's parsed cache). ``remember``
    (the library's :meth:`~citekit.library.store.Library.remembered`) keeps the published
    twin found for a library entry until the library changes: a warm check then neither
    reads the facts nor indexes them.
    """
    index = library if isinstance(library, EntryIndex) else EntryIndex(library)
    bib = list(bib_entries) if bib_entries is not None else None
    bib_index = EntryIndex(bib) if bib is not None else None
    report = CheckReport(paper=paper, cited=list(cited.keys), everything=cited.everything,
                         unreadable=list(cited.unreadable), bib=bib_name if bib is not None else None)
    twins: list[PublishedTwins] = []

    def published_twin(entry: Entry, own: bool) -> str | None:
        if own and remember is not None:
            from citekit.library.store import kinds

            return remember(kinds.published_twin(entry.key), lambda: find_twin(entry, own))
        return find_twin(entry, own)

    def find_twin(entry: Entry, own: bool) -> str | None:
        if not twins:
            twins.append(PublishedTwins(facts() if facts else {k: twin_facts(e) for k, e in index.entries.items()}))
        return twins[0].find(entry, own)

    for key in cited.keys:
        entry = index.get(key)
        in_bib = bib_index.get(key) if bib_index is not None else None
        if entry is None and in_bib is None:
            suggestions = index.suggest(key, describe=describe) or (bib_index.suggest(key) if bib_index is not None else [])
            report.undefined.append(MissingKey(key, suggestions, cited.locations.get(key, [])))
            continue
        if entry is not None and entry.key != key:
            report.aliases.append(AliasUse(key, entry.key, list(cited.locations.get(key, []))))
        if bib_index is not None and entry is not None and in_bib is None:
            report.stale.append(key)
        subject = entry or in_bib
        assert subject is not None
        if is_arxiv_only(subject):
            published = _published_version(subject) or published_twin(subject, own=subject is entry)
            if published:
                report.preprints.append(PreprintUse(key, published))

    if bib is not None:
        report.unused = [] if cited.everything else _unused(bib, cited)
    return report


def _unused(bib: list[Entry], cited: CitedKeys) -> list[str]:
    """Keys of the paper ``.bib`` that no citation reaches, directly or as a crossref parent."""
    index = EntryIndex(bib)
    reached: set[str] = set()
    for key in cited.keys:
        entry = index.get(key)
        while entry is not None and entry.key not in reached:
            reached.add(entry.key)
            parent = entry.fields.get("crossref", "").strip("{} ")
            entry = index.get_parent(parent) if parent else None
    return [e.key for e in bib if e.key not in reached]
